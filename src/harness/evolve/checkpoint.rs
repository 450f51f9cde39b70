//! The state of an evolution run after each generation, as a text file: enough to continue
//! exactly where it stopped. Formulas are stored as persona bytecode in hex, so constants
//! come back bit for bit, and numbers in Rust's shortest round-trip form.
//!
//! The first line names the format and its version; the last line is a checksum (FNV-1a,
//! 64 bits) of every byte before it, settings included, so that a checkpoint that was
//! edited, damaged, or written by another version is refused rather than continued.
use std::fmt::Write as _;
use std::path::Path;

use crate::harness::Failure;
use crate::harness::cluster;
use crate::match3::Program;

/// The first line, without the version.
const MAGIC: &str = "arbor-evolve-checkpoint";
/// The format this arbor writes and reads: 2 added the checksum line.
const VERSION: u32 = 2;
/// The last line's key.
const CHECKSUM: &str = "checksum fnv1a64";

/// FNV-1a, 64 bits: enough to catch any edit or damage (it guards against accidents, not
/// against someone who recomputes it).
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Why a checkpoint was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckpointError {
    /// Not a checkpoint, or one of another format version.
    WrongVersion(String),
    /// The checksum does not match the contents: edited or damaged.
    ChecksumMismatch,
    /// The checksum matches but a line does not read (an arbor bug, or a forged file).
    Malformed(String),
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckpointError::WrongVersion(found) => write!(
                f,
                "wrong version: expected '{MAGIC} {VERSION}', found '{found}'"
            ),
            CheckpointError::ChecksumMismatch => {
                write!(f, "checksum mismatch: the checkpoint was edited or damaged")
            }
            CheckpointError::Malformed(why) => write!(f, "malformed checkpoint: {why}"),
        }
    }
}

/// One generation's statistics, in the measure's units (points or available moves).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub generation: usize,
    pub min: f64,
    pub median: f64,
    pub max: f64,
    pub mean: f64,
    pub vanilla: f64,
    pub random: f64,
    /// The goal the generation searched for (the previous generation's best), if any.
    pub target: Option<f64>,
    /// The generation's best individual.
    pub best: Program,
}

/// A run after its last finished generation.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The settings that made it, in canonical form; a resumed run must match them.
    pub settings: String,
    /// Seconds spent on the run so far, over all its sessions.
    pub elapsed: f64,
    /// One row per finished generation.
    pub rows: Vec<Row>,
    /// The last finished generation, best first, with each individual's mean measure.
    pub population: Vec<(f64, Program)>,
}

impl Checkpoint {
    /// The text form, checksum line last.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{MAGIC} {VERSION}\nsettings {}\nelapsed {}\n",
            self.settings, self.elapsed
        );
        for r in &self.rows {
            let target = r.target.map_or("-".to_owned(), |t| t.to_string());
            let _ = writeln!(
                out,
                "row {} {} {} {} {} {} {} {} {}",
                r.generation,
                r.min,
                r.median,
                r.max,
                r.mean,
                r.vanilla,
                r.random,
                target,
                r.best.hex()
            );
        }
        for (measure, program) in &self.population {
            let _ = writeln!(out, "individual {measure} {}", program.hex());
        }
        let checksum = fnv1a64(out.as_bytes());
        let _ = writeln!(out, "{CHECKSUM} {checksum:016x}");
        out
    }

    /// Reads the text form: the version first, then the checksum, then the lines (a
    /// malformed line names its number).
    pub fn parse(text: &str) -> Result<Checkpoint, CheckpointError> {
        let first = text.lines().next().unwrap_or("");
        if first != format!("{MAGIC} {VERSION}") {
            let shown: String = first.chars().take(60).collect();
            return Err(CheckpointError::WrongVersion(shown));
        }
        let body = text.strip_suffix('\n').unwrap_or(text);
        let (contents, last) = match body.rfind('\n') {
            Some(i) => (&text[..=i], &body[i + 1..]),
            None => ("", body),
        };
        let written = last
            .strip_prefix(CHECKSUM)
            .and_then(|hex| u64::from_str_radix(hex.trim_start(), 16).ok());
        if written != Some(fnv1a64(contents.as_bytes())) || !text.ends_with('\n') {
            return Err(CheckpointError::ChecksumMismatch);
        }
        Self::parse_lines(contents).map_err(CheckpointError::Malformed)
    }

    /// The lines of a checkpoint whose version and checksum were checked.
    fn parse_lines(text: &str) -> Result<Checkpoint, String> {
        let mut lines = text.lines().enumerate();
        lines.next();
        let mut checkpoint = Checkpoint {
            settings: String::new(),
            elapsed: 0.0,
            rows: Vec::new(),
            population: Vec::new(),
        };
        for (number, line) in lines {
            let bad = |what: &str| format!("line {}: {what}", number + 1);
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let fields: Vec<&str> = rest.split(' ').collect();
            let number_at = |i: usize| -> Result<f64, String> {
                fields
                    .get(i)
                    .and_then(|f| f.parse::<f64>().ok())
                    .ok_or_else(|| bad(&format!("field {} is not a number", i + 1)))
            };
            match key {
                "settings" => checkpoint.settings = rest.to_owned(),
                "elapsed" => checkpoint.elapsed = number_at(0)?,
                "row" => {
                    if fields.len() != 9 {
                        return Err(bad("a row has 9 fields"));
                    }
                    let target = match fields[7] {
                        "-" => None,
                        _ => Some(number_at(7)?),
                    };
                    checkpoint.rows.push(Row {
                        generation: fields[0].parse().map_err(|_| bad("bad generation"))?,
                        min: number_at(1)?,
                        median: number_at(2)?,
                        max: number_at(3)?,
                        mean: number_at(4)?,
                        vanilla: number_at(5)?,
                        random: number_at(6)?,
                        target,
                        best: Program::from_hex(fields[8])
                            .ok()
                            .ok_or_else(|| bad("bad bytecode"))?,
                    });
                }
                "individual" => {
                    if fields.len() != 2 {
                        return Err(bad("an individual has 2 fields"));
                    }
                    let program = Program::from_hex(fields[1])
                        .ok()
                        .ok_or_else(|| bad("bad bytecode"))?;
                    checkpoint.population.push((number_at(0)?, program));
                }
                _ => return Err(bad(&format!("unknown key '{key}'"))),
            }
        }
        let in_order = checkpoint
            .rows
            .iter()
            .enumerate()
            .all(|(i, r)| r.generation == i);
        if !in_order || checkpoint.rows.is_empty() || checkpoint.population.is_empty() {
            return Err("incomplete checkpoint (rows out of order or missing)".into());
        }
        Ok(checkpoint)
    }

    /// Reads `path` on the root rank and hands its text to every rank (a collective: every
    /// rank calls it), so the other ranks of a distributed run need no access to the run's
    /// directory; `Ok(None)` when there is no checkpoint yet. Every rank parses the same
    /// bytes, so a damaged checkpoint is the same error on every rank.
    pub fn load_on_root(path: &Path) -> Result<Option<Checkpoint>, Failure> {
        match cluster::from_root(|| read_text(path).map_err(Failure::Job))? {
            None => Ok(None),
            Some(text) => Checkpoint::parse(&text).map(Some).map_err(|e| {
                Failure::Job(format!(
                    "{}: {e}; refusing to continue the run (use another --out or remove it)",
                    path.display()
                ))
            }),
        }
    }
}

/// The text of `path`; `Ok(None)` when there is no such file.
fn read_text(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::{BinOp, Tree, Var};
    use super::*;

    fn example() -> Checkpoint {
        let tree = Tree::bin(BinOp::Div, Tree::Var(Var::W), Tree::Const(-0.1f32));
        Checkpoint {
            settings: "persona=max-score seed=1".into(),
            elapsed: 12.25,
            rows: vec![Row {
                generation: 0,
                min: 1.0 / 3.0,
                median: 2.0,
                max: 3.5,
                mean: 2.1,
                vanilla: 4.0,
                random: 1e-9,
                target: None,
                best: tree.to_program().unwrap(),
            }],
            population: vec![
                (0.1 + 0.2, tree.to_program().unwrap()),
                (-7.0, Tree::Var(Var::M).to_program().unwrap()),
            ],
        }
    }

    #[test]
    fn checkpoints_round_trip_exactly() {
        let c = example();
        assert_eq!(Checkpoint::parse(&c.to_text()).unwrap(), c);
    }

    #[test]
    fn damaged_checkpoints_are_refused_saying_why() {
        let text = example().to_text();
        assert!(text.starts_with("arbor-evolve-checkpoint 2\n"));
        assert!(
            text.lines()
                .last()
                .unwrap()
                .starts_with("checksum fnv1a64 ")
        );
        let edited = text.replace("individual 0.3", "individual 0.4");
        assert_eq!(
            Checkpoint::parse(&edited),
            Err(CheckpointError::ChecksumMismatch)
        );
        let dropped: String = text
            .lines()
            .filter(|l| !l.starts_with("individual -7"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            Checkpoint::parse(&dropped),
            Err(CheckpointError::ChecksumMismatch)
        );
        let truncated: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            Checkpoint::parse(&truncated),
            Err(CheckpointError::ChecksumMismatch)
        );
        assert_eq!(
            Checkpoint::parse(&text[..text.len() - 1]),
            Err(CheckpointError::ChecksumMismatch)
        );
        let old = text.replace("arbor-evolve-checkpoint 2", "arbor-evolve-checkpoint 1");
        assert!(matches!(
            Checkpoint::parse(&old),
            Err(CheckpointError::WrongVersion(v)) if v.ends_with(" 1")
        ));
        assert!(matches!(
            Checkpoint::parse("other\n"),
            Err(CheckpointError::WrongVersion(_))
        ));
        assert!(matches!(
            Checkpoint::parse(""),
            Err(CheckpointError::WrongVersion(_))
        ));
        // A line that does not read, under a valid checksum, still names its line.
        let mut forged = Checkpoint::parse(&text).unwrap().to_text();
        forged = forged.replace("row 0 ", "row 0 x");
        let contents = &forged[..forged.rfind("checksum").unwrap()];
        let forged = format!(
            "{contents}checksum fnv1a64 {:016x}\n",
            fnv1a64(contents.as_bytes())
        );
        assert!(matches!(
            Checkpoint::parse(&forged),
            Err(CheckpointError::Malformed(m)) if m.contains("line 4")
        ));
    }
}
