//! `arbor evolve`: reads the options, runs (or resumes) the evolution with a progress bar,
//! and writes the outputs.
use std::path::PathBuf;

use super::fitness::{PERSONA_NAMES, goal_of, persona_name};
use super::outputs::{Outputs, best, write_final, write_progress};
use super::run::{Files, Progress, Settings, best_of, run as run_generations};
use super::tree::Tree;
use crate::harness::agent_storage::AgentStorage;
use crate::harness::args::{Command, Kind, Opt, SEED, THREADS};
use crate::harness::cluster;
use crate::harness::match3::ITERATIONS;
use crate::harness::parallel::default_threads;
use crate::harness::{Args, Failure};

/// Width of the progress bar in characters.
const BAR: usize = 30;

/// Individuals, generations and games at most: far beyond the paper's 100, 100 and 50, and
/// small enough that a population's bookkeeping always fits in memory.
const MAX_COUNT: u64 = 100_000;

const ON_OFF: Kind = Kind::Choice(&["on", "off"]);

pub const COMMAND: Command = Command {
    name: "evolve",
    operands: "",
    about: "evolve a persona's selection formula (paper defaults); checkpoints each generation\n\
            in DIR and resumes when run again with the same options; writes generations.csv,\n\
            figure.svg, best.txt and <persona>.persona; under mpirun -np K (the mpi feature) each\n\
            generation's games spread over the ranks, --threads per rank, the same results",
    options: &[
        Opt::new(
            "persona",
            "NAME",
            Kind::Choice(&["max-score", "min-score", "max-moves", "min-moves"]),
            "the persona to evolve (required)",
        ),
        Opt::new(
            "generations",
            "N",
            Kind::Int {
                min: 1,
                max: MAX_COUNT,
            },
            "generations",
        )
        .or("100"),
        Opt::new(
            "population",
            "N",
            Kind::Int {
                min: 2,
                max: MAX_COUNT,
            },
            "individuals",
        )
        .or("100"),
        Opt::new(
            "games",
            "N",
            Kind::Int {
                min: 1,
                max: MAX_COUNT,
            },
            "games per individual",
        )
        .or("50"),
        Opt::new(
            "moves",
            "N",
            Kind::Int { min: 1, max: 255 },
            "moves per game",
        )
        .or("20"),
        ITERATIONS,
        SEED,
        Opt::new(
            "goal-strategy",
            "on|off",
            ON_OFF,
            "search towards the previous best",
        )
        .or("on"),
        THREADS,
        Opt::new(
            "out",
            "DIR",
            Kind::Path,
            "where the run's files go (default: evolve-<persona>-seed<seed>)",
        ),
        Opt::new(
            "progress",
            "on|off",
            ON_OFF,
            "show a progress bar on stderr",
        )
        .or("on"),
    ],
};

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let persona: String = args.need("persona")?;
    let goal = goal_of(&persona).ok_or_else(|| {
        let names: Vec<&str> = PERSONA_NAMES.iter().map(|(n, _)| *n).collect();
        Failure::Usage(format!("--persona must be one of {}", names.join(", ")))
    })?;
    let settings = Settings {
        goal,
        generations: args.need("generations")?,
        population: args.need("population")?,
        games: args.need("games")?,
        moves: args.need("moves")?,
        iterations: args.need("iterations")?,
        seed: args.need("seed")?,
        goal_strategy: args.need::<String>("goal-strategy")? == "on",
    };
    let dir = args.get::<PathBuf>("out")?.unwrap_or_else(|| {
        PathBuf::from(format!(
            "evolve-{}-seed{}",
            persona_name(goal),
            settings.seed
        ))
    });
    let threads = default_threads(args.get("threads")?);
    let quiet = args.need::<String>("progress")? == "off";
    settings.level()?;
    AgentStorage::check(
        settings.iterations,
        threads.min((settings.population + 2) * settings.games),
    )?;
    // Only the root touches the run's directory: a cluster's nodes need not share a disk.
    if cluster::is_root() {
        std::fs::create_dir_all(&dir)
            .map_err(|e| Failure::Job(format!("cannot create {}: {e}", dir.display())))?;
    }

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
    if cluster::is_root() {
        write_final(&outputs, &settings, &state, &dir)?;
    }

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
