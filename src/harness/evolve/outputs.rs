//! The files a run leaves for people and for the engine: the per-generation CSV, the figure,
//! the best formula in infix, and the persona file the no_std agent and the C ABI load.
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::checkpoint::{Checkpoint, Row};
use super::figure;
use super::fitness::persona_name;
use super::run::{Settings, best_of};
use super::tree::Tree;
use crate::harness::Failure;
use crate::harness::resources::write_file;
use crate::match3::{Goal, Persona, Program};

/// Points the cheapest legal move scores: a game of n moves scores at least 60·n.
const MIN_POINTS_PER_MOVE: f64 = 60.0;

/// The CSV of a run so far: one row per generation, in the measure's units.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "generation,min,median,max,mean,vanilla_mean,random_mean,target,best_formula\n",
    );
    for r in rows {
        let target = r.target.map_or(String::new(), |t| t.to_string());
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},\"{}\"",
            r.generation, r.min, r.median, r.max, r.mean, r.vanilla, r.random, target, r.best
        );
    }
    out
}

/// The best individual of the last finished generation and its mean measure.
pub fn best(state: &Checkpoint) -> Result<(f64, Program), Failure> {
    state
        .population
        .first()
        .copied()
        .ok_or_else(|| Failure::Job("the run has no population".into()))
}

/// The persona file of a finished run whose best individual is `best`.
pub fn persona_file(settings: &Settings, state: &Checkpoint, best: &Program, out: &Path) -> String {
    let last = state.rows.last();
    let mut text = String::new();
    let _ = writeln!(text, "# {} persona, evolved by arbor", settings.goal.name());
    let _ = writeln!(text, "# command: {}", settings.command(out));
    let persona = Persona {
        goal: settings.goal,
        program: *best,
    };
    let _ = write!(text, "{persona}");
    let _ = writeln!(text, "infix {}", Tree::from_program(best));
    if let Some(row) = last {
        let _ = writeln!(text, "fitness {}", best_of(row, settings.goal));
        let _ = writeln!(text, "vanilla {}", row.vanilla);
        let _ = writeln!(text, "random {}", row.random);
    }
    let _ = writeln!(text, "settings {}", settings.line());
    let _ = writeln!(text, "seconds {:.0}", state.elapsed);
    text
}

/// Paths of a run's outputs.
pub struct Outputs {
    pub csv: PathBuf,
    pub figure: PathBuf,
    pub best: PathBuf,
    pub persona: PathBuf,
}

impl Outputs {
    pub fn in_dir(dir: &Path, goal: Goal) -> Outputs {
        Outputs {
            csv: dir.join("generations.csv"),
            figure: dir.join("figure.svg"),
            best: dir.join("best.txt"),
            persona: dir.join(format!("{}.persona", persona_name(goal))),
        }
    }
}

/// Writes the CSV of the run so far.
pub fn write_progress(outputs: &Outputs, state: &Checkpoint) -> Result<(), Failure> {
    write_file(&outputs.csv, &csv(&state.rows))
}

/// Writes every output of a finished run.
pub fn write_final(
    outputs: &Outputs,
    settings: &Settings,
    state: &Checkpoint,
    dir: &Path,
) -> Result<(), Failure> {
    write_progress(outputs, state)?;
    let floor = matches!(settings.goal, Goal::MinScore)
        .then_some(MIN_POINTS_PER_MOVE * f64::from(settings.moves));
    let title = format!(
        "{} persona: {} generations of {}, seed {}",
        settings.goal.name(),
        state.rows.len(),
        settings.population,
        settings.seed
    );
    write_file(
        &outputs.figure,
        &figure::svg(&state.rows, settings.goal, &title, floor),
    )?;
    let best = state
        .population
        .first()
        .map_or_else(Program::sample, |(_, p)| *p);
    let measure = state.population.first().map_or(0.0, |(m, _)| *m);
    write_file(
        &outputs.best,
        &format!(
            "{}\n{best}\nmean measure {measure}\n",
            Tree::from_program(&best)
        ),
    )?;
    write_file(&outputs.persona, &persona_file(settings, state, &best, dir))
}
