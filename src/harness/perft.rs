//! `arbor perft breakthrough --size CxR --depth D [--position TEXT]`: perft counts, one line
//! per depth, `depth <d> nodes <n>`.
use super::args::{Command, Kind, Opt};
use super::{Args, Failure};
use crate::breakthrough::{Position, Size};

pub const COMMAND: Command = Command {
    name: "perft breakthrough",
    operands: "",
    about: "count the positions after 1..D plies, one line per depth: depth <d> nodes <n>",
    options: &[
        Opt::new(
            "size",
            "CxR",
            Kind::Text,
            "board size, columns x rows (default 8x8)",
        ),
        Opt::new("depth", "D", Kind::Int { min: 1, max: 64 }, "plies").or("5"),
        Opt::new("position", "TEXT", Kind::Text, "start from this position"),
    ],
};

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let size: Option<String> = args.get("size")?;
    let depth: u32 = args.need("depth")?;
    let text: Option<String> = args.get("position")?;
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
