//! `arbor perft breakthrough --size CxR --depth D [--position TEXT]`: perft counts, one line
//! per depth, `depth <d> nodes <n>`.
use super::{Args, Failure};
use crate::breakthrough::{Position, Size};

pub fn run(mut args: Args) -> Result<(), Failure> {
    match args.next_positional().as_deref() {
        Some("breakthrough") => {}
        Some(other) => return Err(Failure::Usage(format!("perft: unknown game '{other}'"))),
        None => return Err(Failure::Usage("perft: which game? (breakthrough)".into())),
    }
    let size: Option<String> = args.option("size")?;
    let depth: u32 = args.option("depth")?.unwrap_or(5);
    let text: Option<String> = args.option("position")?;
    args.finish()?;
    if depth > 64 {
        return Err(Failure::Usage("perft: --depth is at most 64".into()));
    }
    let size = size
        .map(|text| {
            text.parse::<Size>()
                .map_err(|e| Failure::Usage(format!("--size '{text}': {e}")))
        })
        .transpose()?;
    let position = match text {
        Some(text) => {
            let position: Position = text
                .parse()
                .map_err(|e| Failure::Usage(format!("--position '{text}': {e}")))?;
            if size.is_some_and(|size| size != position.size()) {
                return Err(Failure::Usage(format!(
                    "--size {} does not match the position, which is {}",
                    size.unwrap_or_default(),
                    position.size()
                )));
            }
            position
        }
        None => Position::start(size.unwrap_or_default()),
    };
    for d in 1..=depth {
        outln!("depth {d} nodes {}", position.perft(d));
    }
    Ok(())
}
