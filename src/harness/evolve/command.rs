//! `arbor evolve`: reads the options, runs (or resumes) the evolution with a progress bar,
//! and writes the outputs.
use std::path::PathBuf;

use super::fitness::{PERSONA_NAMES, goal_of, persona_name};
use super::outputs::{Outputs, best, write_final, write_progress};
use super::run::{Files, Progress, Settings, best_of, run as run_generations};
use super::tree::Tree;
use crate::harness::parallel::default_threads;
use crate::harness::{Args, Failure};
use crate::match3::{DEFAULT_MOVES, PAPER_ITERATIONS};

/// Width of the progress bar in characters.
const BAR: usize = 30;

pub fn run(mut args: Args) -> Result<(), Failure> {
    let persona = args
        .option::<String>("persona")?
        .ok_or_else(|| Failure::Usage("evolve needs --persona".into()))?;
    let goal = goal_of(&persona).ok_or_else(|| {
        let names: Vec<&str> = PERSONA_NAMES.iter().map(|(n, _)| *n).collect();
        Failure::Usage(format!("--persona must be one of {}", names.join(", ")))
    })?;
    let settings = Settings {
        goal,
        generations: args.option("generations")?.unwrap_or(100),
        population: args.option("population")?.unwrap_or(100),
        games: args.option("games")?.unwrap_or(50),
        moves: args.option("moves")?.unwrap_or(DEFAULT_MOVES),
        iterations: args.option("iterations")?.unwrap_or(PAPER_ITERATIONS),
        seed: args.option("seed")?.unwrap_or(1),
        goal_strategy: match args.option::<String>("goal-strategy")?.as_deref() {
            None | Some("on") => true,
            Some("off") => false,
            Some(other) => {
                return Err(Failure::Usage(format!(
                    "--goal-strategy must be on or off, not '{other}'"
                )));
            }
        },
    };
    let dir = PathBuf::from(
        args.option::<String>("out")?
            .unwrap_or_else(|| format!("evolve-{}-seed{}", persona_name(goal), settings.seed)),
    );
    let threads = default_threads(args.option("threads")?);
    let quiet = args.option::<String>("progress")?.as_deref() == Some("off");
    args.finish()?;
    for (name, value) in [
        ("generations", settings.generations),
        ("population", settings.population),
        ("games", settings.games),
    ] {
        if value == 0 {
            return Err(Failure::Usage(format!("--{name} must be at least 1")));
        }
    }
    if settings.population < 2 {
        return Err(Failure::Usage("--population must be at least 2".into()));
    }
    settings.level()?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::Job(format!("cannot create {}: {e}", dir.display())))?;

    let files = Files { dir: dir.clone() };
    let outputs = Outputs::in_dir(&dir, goal);
    let mut bar = ProgressBar::new(quiet);
    let state = run_generations(
        &settings,
        &files,
        threads,
        |p| bar.show(p),
        |state| write_progress(&outputs, state),
    )?;
    bar.finish();
    write_final(&outputs, &settings, &state, &dir)?;

    let last = state
        .rows
        .last()
        .ok_or_else(|| Failure::Job("no generation ran".into()))?;
    let best = best(&state)?;
    outln!("persona {} ({})", goal.name(), persona_name(goal));
    outln!("best formula {}", Tree::from_program(&best.1));
    outln!("prefix {}", best.1);
    outln!(
        "last generation: best {} median {} vanilla {} random {}",
        best_of(last, goal),
        last.median,
        last.vanilla,
        last.random
    );
    outln!(
        "wrote {}, {}, {}, {}",
        outputs.csv.display(),
        outputs.figure.display(),
        outputs.best.display(),
        outputs.persona.display()
    );
    outln!(
        "generations {} time {:.0} s (over all sessions of the run)",
        state.rows.len(),
        state.elapsed
    );
    Ok(())
}

/// `[######.....] gen 12/100 best 4523.1 ETA 41m 07s` on stderr, redrawn in place.
struct ProgressBar {
    quiet: bool,
    drawn: bool,
}

impl ProgressBar {
    fn new(quiet: bool) -> Self {
        ProgressBar {
            quiet,
            drawn: false,
        }
    }

    fn show(&mut self, p: &Progress) {
        if self.quiet || p.total == 0 {
            return;
        }
        let fraction = p.done as f64 / p.total as f64;
        let filled = ((fraction * BAR as f64) as usize).min(BAR);
        let eta = if p.done > 0 {
            duration(p.elapsed / p.done as f64 * (p.total - p.done.min(p.total)) as f64)
        } else {
            "--".into()
        };
        let best = p.best.map_or("--".into(), |b| format!("{b:.2}"));
        note!(
            "\r[{}{}] gen {}/{} best {best} ETA {eta}   ",
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            p.generation + 1,
            p.generations
        );
        self.drawn = true;
    }

    fn finish(&mut self) {
        if self.drawn {
            noteln!();
        }
    }
}

/// `1h 02m`, `41m 07s` or `12s`.
fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match (s / 3600, s % 3600 / 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m {s:02}s"),
        (h, m, _) => format!("{h}h {m:02}m"),
    }
}
