//! The state of an evolution run after each generation, as a text file: enough to continue
//! exactly where it stopped. Formulas are stored as persona bytecode in hex, so constants
//! come back bit for bit, and numbers in Rust's shortest round-trip form.
use std::fmt::Write as _;
use std::path::Path;

use crate::harness::Failure;
use crate::match3::Program;

const HEADER: &str = "arbor-evolve-checkpoint 1";

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
    /// The text form.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{HEADER}\nsettings {}\nelapsed {}\n",
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
        out
    }

    /// Reads the text form; the error names the line.
    pub fn parse(text: &str) -> Result<Checkpoint, String> {
        let mut lines = text.lines().enumerate();
        if lines.next().map(|(_, l)| l) != Some(HEADER) {
            return Err(format!("line 1: expected '{HEADER}'"));
        }
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

    /// Reads `path`; `Ok(None)` when there is no checkpoint yet.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, Failure> {
        match std::fs::read_to_string(path) {
            Ok(text) => Checkpoint::parse(&text)
                .map(Some)
                .map_err(|e| Failure::Job(format!("{}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Failure::Job(format!("cannot read {}: {e}", path.display()))),
        }
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so that a run killed
/// mid-write leaves the previous version whole.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), Failure> {
    let temporary = path.with_extension("partial");
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| Failure::Job(format!("cannot write {}: {e}", path.display())))
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
    fn damaged_checkpoints_are_refused_with_the_line() {
        let text = example().to_text();
        assert!(
            Checkpoint::parse(&text.replace("row 0 ", "row 0 x"))
                .unwrap_err()
                .contains("line 4")
        );
        assert!(Checkpoint::parse(&text.replace("individual 0.3", "individual ?")).is_err());
        assert!(Checkpoint::parse(&text.replace("arbor-evolve", "other")).is_err());
        let truncated: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(Checkpoint::parse(&truncated).is_err());
    }
}
