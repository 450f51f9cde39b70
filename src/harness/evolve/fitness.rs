//! Fitness of a generation (section IV.C): every individual plays the generation's seeded
//! games as a persona, and the Vanilla and Random baselines play the same games.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::tree::Tree;
use crate::harness::Failure;
use crate::harness::agent_storage::AgentStorage;
use crate::harness::cluster::tasks::run_tasks_on_ranks;
use crate::match3::{Agent, Goal, Level, Metrics, Program, SearchConfig, play_game};
use crate::rng::GOLDEN_GAMMA;

/// The command-line names of the four personas, in the order of `Goal`'s codes.
pub const PERSONA_NAMES: [(&str, Goal); 4] = [
    ("max-score", Goal::MaxScore),
    ("min-score", Goal::MinScore),
    ("max-moves", Goal::MaxMoves),
    ("min-moves", Goal::MinMoves),
];

/// The goal of a command-line persona name.
pub fn goal_of(name: &str) -> Option<Goal> {
    PERSONA_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, goal)| goal)
}

/// The command-line name of a goal.
pub fn persona_name(goal: Goal) -> &'static str {
    PERSONA_NAMES[goal as usize].0
}

/// What a game measures for `goal`: the final score for the score personas, the average
/// number of available moves for the move personas. Fitness is this for MaxS and MaxM and
/// its negation for MinS and MinM.
pub fn measure(goal: Goal, metrics: &Metrics) -> f64 {
    match goal {
        Goal::MaxScore | Goal::MinScore => f64::from(metrics.score),
        Goal::MaxMoves | Goal::MinMoves => metrics.average_available(),
    }
}

/// The sign that turns a measure into a fitness (higher is better).
pub fn fitness_sign(goal: Goal) -> f64 {
    match goal {
        Goal::MaxScore | Goal::MaxMoves => 1.0,
        Goal::MinScore | Goal::MinMoves => -1.0,
    }
}

/// The games every individual of a generation plays.
#[derive(Clone, Debug)]
pub struct Games<'l> {
    pub level: &'l Level,
    /// (chance seed, agent seed) per game, drawn anew each generation.
    pub seeds: Vec<(u64, u64)>,
    pub iterations: u32,
}

impl<'l> Games<'l> {
    /// `count` games of `level` for generation `generation` of a run seeded `seed`.
    pub fn draw(
        level: &'l Level,
        count: usize,
        iterations: u32,
        seed: u64,
        generation: usize,
    ) -> Self {
        let mut rng = XorShiftRng::seed_from_u64(stream(seed, Stream::Games, generation));
        let seeds = (0..count)
            .map(|_| (rng.next_u64(), rng.next_u64()))
            .collect();
        Games {
            level,
            seeds,
            iterations,
        }
    }
}

/// The independent random streams of a run.
#[derive(Clone, Copy)]
pub enum Stream {
    /// The initial population.
    Initial = 1,
    /// The variation that makes generation g + 1 from generation g.
    Variation = 2,
    /// The seeds of generation g's games.
    Games = 3,
}

/// The seed of `stream` for generation `generation` of a run seeded `seed`.
pub fn stream(seed: u64, stream: Stream, generation: usize) -> u64 {
    // `seed_from_u64` scrambles its input, so distinct inputs are enough.
    seed.wrapping_mul(GOLDEN_GAMMA) ^ ((stream as u64) << 56) ^ generation as u64
}

/// A generation's results, in the measure's units (see [`measure`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Mean measure of each individual, in population order.
    pub individuals: Vec<f64>,
    /// Mean measure of Vanilla MCTS (UCB1, score goal) on the same games.
    pub vanilla: f64,
    /// Mean measure of the Random agent on the same games.
    pub random: f64,
}

/// Who plays a game of the evaluation.
#[derive(Clone, Copy)]
enum Player {
    Individual(usize),
    Vanilla,
    Random,
}

/// Plays `games` with every program as a persona of `goal` (reward target `target`, the
/// goal strategy) and with the baselines, on `threads` threads of every rank of the run (a
/// collective in a distributed run). `report(done, total)` sees the progress in games.
pub fn evaluate(
    programs: &[Program],
    goal: Goal,
    target: Option<f32>,
    games: &Games<'_>,
    threads: usize,
    mut report: impl FnMut(usize, usize),
) -> Result<Evaluation, Failure> {
    let per_player = games.seeds.len();
    let players = programs.len() + 2;
    let total = players * per_player;
    let config = SearchConfig {
        iterations: games.iterations,
        target,
        ..SearchConfig::default()
    };
    let measures = run_tasks_on_ranks(
        total,
        threads,
        || AgentStorage::new(games.iterations, true),
        |storage, task| {
            let (player, game) = (task / per_player, task % per_player);
            let player = match player.checked_sub(programs.len()) {
                None => Player::Individual(player),
                Some(0) => Player::Vanilla,
                Some(_) => Player::Random,
            };
            let agent = match player {
                Player::Individual(i) => Agent::Persona(&programs[i], goal),
                Player::Vanilla => Agent::Vanilla(Goal::MaxScore),
                Player::Random => Agent::Random,
            };
            // The baselines search without the persona's target.
            let config = match player {
                Player::Individual(_) => config,
                _ => SearchConfig {
                    target: None,
                    ..config
                },
            };
            let (chance, agent_seed) = games.seeds[game];
            play_game(
                games.level,
                chance,
                agent,
                &config,
                &mut storage.lend(),
                agent_seed,
                |_, _| {},
            )
            .map(|metrics| measure(goal, &metrics))
            .map_err(|e| format!("game {game}: {e}"))
        },
        |done| report(done, total),
    )?;
    let mean = |chunk: &[f64]| chunk.iter().sum::<f64>() / chunk.len().max(1) as f64;
    let mut means: Vec<f64> = measures.chunks(per_player.max(1)).map(mean).collect();
    means.resize(players, 0.0);
    let random = means.pop().unwrap_or(0.0);
    let vanilla = means.pop().unwrap_or(0.0);
    Ok(Evaluation {
        individuals: means,
        vanilla,
        random,
    })
}

/// The programs of a population (trees are kept within the bytecode's size by the
/// variation operators).
pub fn compile(population: &[Tree]) -> Result<Vec<Program>, Failure> {
    population
        .iter()
        .map(|tree| {
            tree.to_program()
                .map_err(|e| Failure::Job(format!("individual {tree} does not compile: {e}")))
        })
        .collect()
}
