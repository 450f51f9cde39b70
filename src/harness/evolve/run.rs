//! One evolution run: generations of evaluation and variation, a checkpoint after each, and
//! a resumed run that continues to exactly the result of an uninterrupted one.
//!
//! Every random choice comes from a stream seeded by (run seed, purpose, generation) — the
//! initial population, the variation after generation g, the games of generation g — so a
//! generation is fully determined by the checkpoint of the one before it.
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use super::checkpoint::{Checkpoint, Row};
use super::fitness::{Games, Stream, compile, evaluate, fitness_sign, persona_name, stream};
use super::population::{initial_population, next_generation};
use super::tree::Tree;
use crate::harness::Failure;
use crate::harness::cluster;
use crate::harness::resources::write_file;
use crate::match3::{Goal, Level, Program};

/// Everything that determines a run's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub goal: Goal,
    pub generations: usize,
    pub population: usize,
    pub games: usize,
    pub moves: u8,
    pub iterations: u32,
    pub seed: u64,
    /// The paper's goal strategy: each generation searches towards the previous best.
    pub goal_strategy: bool,
}

impl Settings {
    /// The settings as (option name, value) pairs, in a fixed order.
    fn options(&self) -> [(&'static str, String); 8] {
        [
            ("persona", persona_name(self.goal).to_owned()),
            ("generations", self.generations.to_string()),
            ("population", self.population.to_string()),
            ("games", self.games.to_string()),
            ("moves", self.moves.to_string()),
            ("iterations", self.iterations.to_string()),
            ("seed", self.seed.to_string()),
            (
                "goal-strategy",
                (if self.goal_strategy { "on" } else { "off" }).to_owned(),
            ),
        ]
    }

    /// The canonical one-line form stored in checkpoints: `persona=max-score generations=100 …`.
    pub fn line(&self) -> String {
        let pairs: Vec<String> = self
            .options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        pairs.join(" ")
    }

    /// The command that makes this run.
    pub fn command(&self, out: &Path) -> String {
        let options: Vec<String> = self
            .options()
            .iter()
            .map(|(k, v)| format!("--{k} {v}"))
            .collect();
        format!("arbor evolve {} --out {}", options.join(" "), out.display())
    }

    /// The level the games are played on: the default board with `moves` moves.
    pub fn level(&self) -> Result<Level, Failure> {
        Level::default()
            .with_moves(self.moves)
            .map_err(|e| Failure::Usage(format!("--moves: {e}")))
    }
}

/// Where a run keeps its files.
pub struct Files {
    pub dir: PathBuf,
}

impl Files {
    pub fn checkpoint(&self) -> PathBuf {
        self.dir.join("checkpoint.txt")
    }
}

/// What the progress display needs after each burst of games.
pub struct Progress {
    pub generation: usize,
    pub generations: usize,
    /// Games finished in this session, and games this session has to play in all.
    pub done: usize,
    pub total: usize,
    /// The best measure of any finished generation, if one has finished.
    pub best: Option<f64>,
    pub elapsed: f64,
}

/// Runs (or resumes, or finds finished) the run of `settings` in `files.dir` on `threads`
/// threads, calls `saved` after each generation's checkpoint, and returns the final
/// checkpoint. In a distributed run every rank calls it: each generation's games are spread
/// over the ranks, every rank keeps the whole population, and the root alone reads and
/// writes `files` (and calls `saved`).
pub fn run(
    settings: &Settings,
    files: &Files,
    threads: usize,
    mut report: impl FnMut(&Progress),
    mut saved: impl FnMut(&Checkpoint) -> Result<(), Failure>,
) -> Result<Checkpoint, Failure> {
    let level = settings.level()?;
    let goal = settings.goal;
    let sign = fitness_sign(goal);
    let mut state = match Checkpoint::load_on_root(&files.checkpoint())? {
        Some(saved) if saved.settings != settings.line() => {
            return Err(Failure::Job(format!(
                "{}: settings differ: it holds a run of {}, not of {}; use another --out or \
                 remove it",
                files.checkpoint().display(),
                saved.settings,
                settings.line()
            )));
        }
        Some(saved) => {
            check_consistent(&saved, settings).map_err(|why| {
                Failure::Job(format!(
                    "{}: {why}; refusing to continue the run",
                    files.checkpoint().display()
                ))
            })?;
            saved
        }
        None => Checkpoint {
            settings: settings.line(),
            elapsed: 0.0,
            rows: Vec::new(),
            population: Vec::new(),
        },
    };
    let first = state.rows.len();
    let mut population = match first {
        0 => {
            let mut rng = XorShiftRng::seed_from_u64(stream(settings.seed, Stream::Initial, 0));
            initial_population(settings.population, &mut rng).map_err(exhausted)?
        }
        _ if first >= settings.generations => Vec::new(),
        _ => vary(&state, settings, first - 1)?,
    };
    let session = Instant::now();
    let before = state.elapsed;
    let per_generation = (settings.population + 2) * settings.games;
    let total = per_generation * settings.generations.saturating_sub(first);
    for generation in first..settings.generations {
        let programs = compile(&population)?;
        let target = match state.rows.last() {
            Some(previous) if settings.goal_strategy => Some(best_of(previous, goal)),
            _ => None,
        };
        let games = Games::draw(
            &level,
            settings.games,
            settings.iterations,
            settings.seed,
            generation,
        );
        let best_so_far = best_so_far(&state.rows, goal);
        let done_before = per_generation * (generation - first);
        let evaluation = evaluate(
            &programs,
            goal,
            target.map(|t| t as f32),
            &games,
            threads,
            |done, _| {
                report(&Progress {
                    generation,
                    generations: settings.generations,
                    done: done_before + done,
                    total,
                    best: best_so_far,
                    elapsed: session.elapsed().as_secs_f64(),
                })
            },
        )?;
        // Best first; equal fitness keeps population order (a stable sort).
        let mut order: Vec<usize> = (0..programs.len()).collect();
        let fitness = |i: usize| sign * evaluation.individuals[i];
        order.sort_by(|&a, &b| fitness(b).total_cmp(&fitness(a)));
        let sorted: Vec<(f64, Program)> = order
            .iter()
            .map(|&i| (evaluation.individuals[i], programs[i]))
            .collect();
        state
            .rows
            .push(statistics(generation, &sorted, &evaluation, target));
        state.population = sorted;
        state.elapsed = before + session.elapsed().as_secs_f64();
        // The root alone keeps the run's files; every rank holds the same state.
        if cluster::is_root() {
            write_file(&files.checkpoint(), &state.to_text())?;
            saved(&state)?;
        }
        if generation + 1 < settings.generations {
            population = vary(&state, settings, generation)?;
        }
    }
    Ok(state)
}

/// What a checkpoint of `settings` must hold whatever its checksum says: no more
/// generations than the run has, and a whole population.
fn check_consistent(saved: &Checkpoint, settings: &Settings) -> Result<(), String> {
    if saved.rows.len() > settings.generations {
        return Err(format!(
            "{} generations where the run has {}",
            saved.rows.len(),
            settings.generations
        ));
    }
    if saved.population.len() != settings.population {
        return Err(format!(
            "{} individuals where the population is {}",
            saved.population.len(),
            settings.population
        ));
    }
    Ok(())
}

/// Generation `generation + 1` from the checkpoint of generation `generation`.
fn vary(state: &Checkpoint, settings: &Settings, generation: usize) -> Result<Vec<Tree>, Failure> {
    let sorted: Vec<Tree> = state
        .population
        .iter()
        .map(|(_, program)| Tree::from_program(program))
        .collect();
    let mut rng = XorShiftRng::seed_from_u64(stream(settings.seed, Stream::Variation, generation));
    next_generation(&sorted, &mut rng).map_err(exhausted)
}

fn exhausted(e: impl std::fmt::Display) -> Failure {
    Failure::Job(format!("cannot fill the population: {e}"))
}

/// The best measure of a generation: its highest for MaxS/MaxM, its lowest for MinS/MinM.
pub fn best_of(row: &Row, goal: Goal) -> f64 {
    if fitness_sign(goal) > 0.0 {
        row.max
    } else {
        row.min
    }
}

/// The best measure over `rows`.
fn best_so_far(rows: &[Row], goal: Goal) -> Option<f64> {
    let sign = fitness_sign(goal);
    rows.iter()
        .map(|row| best_of(row, goal))
        .max_by(|a, b| (sign * a).total_cmp(&(sign * b)))
}

/// A generation's row from its population sorted best first.
fn statistics(
    generation: usize,
    sorted: &[(f64, Program)],
    evaluation: &super::fitness::Evaluation,
    target: Option<f64>,
) -> Row {
    let mut values: Vec<f64> = sorted.iter().map(|(m, _)| *m).collect();
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    };
    Row {
        generation,
        min: values.first().copied().unwrap_or(0.0),
        median,
        max: values.last().copied().unwrap_or(0.0),
        mean: values.iter().sum::<f64>() / n.max(1) as f64,
        vanilla: evaluation.vanilla,
        random: evaluation.random,
        target,
        best: sorted.first().map_or_else(Program::sample, |(_, p)| *p),
    }
}
