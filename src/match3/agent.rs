//! The paper's agents: Random, Vanilla MCTS (section IV.B) and persona MCTS (section IV.C),
//! all in caller storage and deterministic for a seed.
//!
//! **Reward.** The paper backs up how often a node "has won by achieving the defined goal";
//! a one-player score game has no win, so each simulation's reward is the goal measured over
//! the simulated moves (tree part and rollout, from the searched position to the end of the
//! game) and normalised into [0, 1]:
//!
//! - score goals: `(points per simulated move − 60) / 240`, clamped to [0, 1]. Every legal
//!   move scores at least 60, so 0 is the floor no play can go under, and 300 points per
//!   move (twice the Random agent's average on the default board) already counts as a full
//!   win. Measuring per move keeps the scale the same at move 1 and at move 19, and the
//!   spread of rewards (random rollouts mostly give 0.2–0.6) is what UCB1 with C = 1/√2
//!   was made for. MinS uses 1 − that.
//! - move goals: average legal moves before each simulated move divided by half the board's
//!   adjacent pairs (42 on 7x7; boards rarely offer more than 20), clamped. MinM uses
//!   1 − that.
//!
//! **Goal strategy.** The paper sets the previous generation's best result as the goal of
//! the next one and counts how often a simulation "has won by achieving the defined goal".
//! A bare goal-reached flag leaves the search blind whenever the goal is out of reach (every
//! simulation scores 0), so with a target the reward is the mean of the measure above and
//! the flag: whole-game result (the real moves so far plus the simulated ones) at least the
//! target for MaxS/MaxM, at most the target for MinS/MinM.
//!
//! **Rollouts.** The paper's rollouts run for 20 − (moves already made) moves; here the
//! searched state carries the move limit, so a simulation (tree moves plus rollout) ends
//! exactly at the end of the game: the paper's length counted from the searched position.
//!
//! **Chance.** The searched state carries the real game's chance stream, so by default the
//! search sees the refills that will really come (the same seed replays the same game, and
//! the tree stays consistent). With `SearchConfig::sample_refills` each iteration reseeds the
//! stream from the search's generator instead (open loop: the agent does not know the future
//! refills; a stored move that became illegal counts as a wasted move).
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use super::board::Swap;
use super::formula::Program;
use super::game::{Match3, Metrics, Moves};
use super::level::Level;
use super::policy::FormulaPolicy;
use crate::Error;
use crate::search::game::{Ply, Turn};
use crate::search::mcts::{
    CachedState, Config, FinalMove, Game, Mcts, Never, Node, Policy, RootSummary, SearchResult,
    Stats, Stop, TreeParts, Ucb1, random_index,
};

/// The paper's iterations (root visits) per move.
pub const PAPER_ITERATIONS: u32 = 250;

/// Points per move that count as a full reward for the score goals.
const SCORE_SPAN: f64 = 240.0;
/// The fewest points a legal move scores.
const MIN_POINTS: f64 = 60.0;

/// What a persona (or the vanilla search) rewards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Goal {
    /// Maximise score (MaxS; the vanilla agent's goal).
    #[default]
    MaxScore = 0,
    /// Minimise score (MinS).
    MinScore = 1,
    /// Maximise the average available moves (MaxM).
    MaxMoves = 2,
    /// Minimise the average available moves (MinM).
    MinMoves = 3,
}

impl Goal {
    /// The goal of a code (0 MaxS, 1 MinS, 2 MaxM, 3 MinM).
    pub fn from_code(code: u32) -> Option<Goal> {
        match code {
            0 => Some(Goal::MaxScore),
            1 => Some(Goal::MinScore),
            2 => Some(Goal::MaxMoves),
            3 => Some(Goal::MinMoves),
            _ => None,
        }
    }

    /// Parses `MaxS`, `MinS`, `MaxM` or `MinM` (any case).
    pub fn parse(text: &str) -> Option<Goal> {
        let text = text.trim();
        [
            Goal::MaxScore,
            Goal::MinScore,
            Goal::MaxMoves,
            Goal::MinMoves,
        ]
        .into_iter()
        .find(|goal| goal.name().eq_ignore_ascii_case(text))
    }

    /// The paper's name.
    pub fn name(self) -> &'static str {
        match self {
            Goal::MaxScore => "MaxS",
            Goal::MinScore => "MinS",
            Goal::MaxMoves => "MaxM",
            Goal::MinMoves => "MinM",
        }
    }
}

/// Settings of the MCTS agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iterations (root visits) per move; the paper's 250 by default.
    pub iterations: u32,
    /// Reseed the chance stream on every iteration (open loop) instead of searching with
    /// the real game's refills.
    pub sample_refills: bool,
    /// The paper's goal strategy: a whole-game result to reach (final score for the score
    /// goals, average available moves for the move goals), for example the previous
    /// generation's best. A simulation that reaches it earns a bonus (see the module docs).
    pub target: Option<f32>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            iterations: PAPER_ITERATIONS,
            sample_refills: false,
            target: None,
        }
    }
}

/// Nodes a search of `iterations` iterations can need: every iteration expands at most one
/// node with at most 112 children. Storage of this size never runs out. Saturates at
/// `usize::MAX` (no buffer is that large) where the product does not fit a 32-bit `usize`.
pub const fn nodes_for(iterations: u32) -> usize {
    (iterations as usize)
        .saturating_mul(super::game::MAX_MOVES)
        .saturating_add(1)
}

/// Nodes a search of `iterations` iterations on `level` can need: every iteration expands
/// at most one node, whose children are the position's legal moves, and a legal move swaps
/// two neighbouring cells, of which a `w`×`h` board has `h·(w−1) + w·(h−1)` pairs (84 on
/// 7x7, [`nodes_for`]'s 112 on 8x8). Storage of this size never runs out on this level.
/// Saturates at `usize::MAX`.
pub fn nodes_for_level(level: &Level, iterations: u32) -> usize {
    let (w, h) = (usize::from(level.width()), usize::from(level.height()));
    let pairs = h * w.saturating_sub(1) + w * h.saturating_sub(1);
    (iterations as usize)
        .saturating_mul(pairs)
        .saturating_add(1)
}

/// State slots with which an MCTS agent's search of `iterations` iterations keeps every
/// state it reaches (see [`Mcts::search_with_states`]); a slot takes about 250 bytes.
pub const fn states_for(iterations: u32) -> usize {
    (iterations as usize).saturating_mul(3).saturating_add(3)
}

/// Where an MCTS agent searches: the tree's nodes, and slots for the states the search may
/// keep so as not to replay the tree's moves every iteration. Without state slots the agent
/// chooses the same moves, only more slowly.
pub struct Storage<'s, 'l> {
    /// Tree nodes; [`nodes_for`] never run out.
    pub nodes: &'s mut [Node<Swap>],
    /// Kept states; [`states_for`] keep every one, an empty slice none.
    pub states: &'s mut [CachedState<Searched<'l>>],
}

impl<'s> Storage<'s, '_> {
    /// Storage of tree nodes only: every iteration replays its moves.
    pub fn nodes_only(nodes: &'s mut [Node<Swap>]) -> Self {
        Storage {
            nodes,
            states: &mut [],
        }
    }
}

/// An agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agent<'f> {
    /// A uniformly random legal move.
    Random,
    /// Vanilla MCTS with UCB1 (C = 1/√2), reward of the goal `MaxScore` unless changed.
    Vanilla(Goal),
    /// MCTS whose selection and final choice use an evolved formula, reward of its goal.
    Persona(&'f Program, Goal),
}

/// The searched state: the game plus where the search started, which the reward needs.
#[derive(Clone, Debug)]
pub struct Searched<'l> {
    game: Match3<'l>,
    goal: Goal,
    start: Metrics,
    sample_refills: bool,
    target: Option<f32>,
}

impl<'l> Searched<'l> {
    /// The state a search from `game` works on.
    pub fn new(game: &Match3<'l>, goal: Goal, config: &SearchConfig) -> Self {
        Searched {
            game: game.clone(),
            goal,
            start: game.metrics(),
            sample_refills: config.sample_refills,
            target: config.target,
        }
    }

    /// The reward of the goal over the moves simulated since the start, in [0, 1].
    pub fn goal_reward(&self) -> f32 {
        let now = self.game.metrics();
        let moves = now.moves.saturating_sub(self.start.moves);
        if moves == 0 {
            return 0.5;
        }
        let moves = f64::from(moves);
        let value = match self.goal {
            Goal::MaxScore | Goal::MinScore => {
                let points = f64::from(now.score.saturating_sub(self.start.score)) / moves;
                ((points - MIN_POINTS) / SCORE_SPAN).clamp(0.0, 1.0)
            }
            Goal::MaxMoves | Goal::MinMoves => {
                let legal = f64::from(now.legal_sum.saturating_sub(self.start.legal_sum)) / moves;
                let bound = f64::from(self.game.board().swap_slots()) / 2.0;
                (legal / bound).clamp(0.0, 1.0)
            }
        };
        let value = match self.goal {
            Goal::MinScore | Goal::MinMoves => 1.0 - value,
            _ => value,
        };
        match self.target {
            Some(target) => ((value + f64::from(self.reaches(now, target))) / 2.0) as f32,
            None => value as f32,
        }
    }

    /// Whether the whole game so far (real and simulated moves) reaches `target`.
    fn reaches(&self, now: Metrics, target: f32) -> u8 {
        let result = match self.goal {
            Goal::MaxScore | Goal::MinScore => f64::from(now.score),
            Goal::MaxMoves | Goal::MinMoves => now.average_available(),
        };
        let target = f64::from(target);
        let reached = match self.goal {
            Goal::MaxScore | Goal::MaxMoves => result >= target,
            Goal::MinScore | Goal::MinMoves => result <= target,
        };
        u8::from(reached)
    }
}

impl Searched<'_> {
    /// Legal moves in the searched state (the persona variable M of the child that led here).
    pub(crate) fn legal_count(&self) -> u32 {
        self.game.legal_count()
    }
}

impl Game for Searched<'_> {
    type Move = Swap;
    type Moves = Moves;
    /// A game lasts at most 255 moves (the level's limit is a `u8`).
    type Trace = heapless::Vec<Ply<Swap>, 255>;

    fn turn(&self) -> Turn {
        if self.game.is_over() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn legal_moves(&self, moves: &mut Moves) {
        *moves = self.game.legal_moves();
    }

    fn play(&mut self, mv: Swap) {
        self.game.play(mv);
    }

    /// The goal's reward, for the one player.
    fn returns(&self) -> [f32; 2] {
        let reward = self.goal_reward();
        [reward, reward]
    }

    fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// The uniform pick, found in the legal masks without listing the moves.
    fn play_random_move(&mut self, rng: &mut XorShiftRng) -> Option<Swap> {
        if self.game.is_over() {
            return None;
        }
        let pick = random_index(rng, self.game.legal_count() as usize);
        let mv = self.game.nth_legal(pick as u32)?;
        self.game.play(mv);
        Some(mv)
    }

    fn begin_iteration(&mut self, rng: &mut XorShiftRng) {
        if self.sample_refills {
            self.game.reseed(rng);
        }
    }

    /// With the real refills, the same swaps always make the same board.
    fn replays_exactly(&self) -> bool {
        !self.sample_refills
    }
}

/// The search settings the paper's agents share: all children created at the first visit,
/// rollouts to the end of the game, the policy's choice at the root (UCB1 or the formula,
/// as section IV says both replace "the selection of the most promising node and ... the
/// best action"), no solver (rewards are fractional).
pub fn paper_config() -> Config {
    Config {
        expand_threshold: 0,
        playout_cutoff: u32::MAX,
        final_move: FinalMove::BestScore,
        solver: false,
        ..Config::default()
    }
}

/// A uniformly random legal move, `None` when the game is over.
pub fn random_move(game: &Match3<'_>, rng: &mut XorShiftRng) -> Option<Swap> {
    if game.is_over() {
        return None;
    }
    let n = game.legal_count();
    game.nth_legal(random_index(rng, n as usize) as u32)
}

/// The move an MCTS agent with `policy` and `goal` chooses, searching in `storage`.
/// `Ok(None)` when the game is over; `Error::CapacityExhausted` when `storage` has no node.
pub fn search_move<'l, P: for<'a> Policy<Searched<'a>> + ?Sized>(
    game: &Match3<'l>,
    policy: &P,
    goal: Goal,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    rng: &mut XorShiftRng,
) -> Result<Option<Swap>, Error> {
    let mut fresh = TreeParts::default();
    let searched = search_move_until(
        game,
        policy,
        goal,
        config,
        storage,
        &mut fresh,
        config.iterations,
        Never,
        rng,
    )?;
    Ok(searched.result.best)
}

/// A step of an agent's resumable search: what this call did and where the search stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentProgress {
    /// The move to play now and what this call ran (`stats.iterations`).
    pub result: SearchResult<Swap>,
    /// The tree's best move so far with its visits and value, and the root's visits
    /// (all zero for the Random agent, which does not search).
    pub summary: RootSummary<Swap>,
}

/// [`search_move`] in steps: runs at most `max_iterations` iterations, fewer if `stop`
/// says so, continuing the tree that `tree` describes in `storage.nodes` (and updating
/// `tree`). Start a move with `TreeParts::default()`; calls whose iterations add up to
/// `config.iterations`, with the same generator, choose exactly [`search_move`]'s move.
/// A different game position starts a fresh tree by itself; a different agent, goal or
/// `config` on the same position needs a fresh `TreeParts` from the caller.
///
/// Errors: `Error::CapacityExhausted` when `storage` has no node, and
/// `Error::InvalidArgument` or `Error::InvalidLength` when `tree` does not describe a tree
/// in `storage.nodes`.
#[allow(clippy::too_many_arguments)]
pub fn search_move_until<'l, P: for<'a> Policy<Searched<'a>> + ?Sized, S: Stop>(
    game: &Match3<'l>,
    policy: &P,
    goal: Goal,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    tree: &mut TreeParts,
    max_iterations: u32,
    stop: S,
    rng: &mut XorShiftRng,
) -> Result<AgentProgress, Error> {
    let state = Searched::new(game, goal, config);
    let mut mcts = Mcts::from_tree_parts(&mut *storage.nodes, *tree)?;
    let search = paper_config();
    let result = mcts.search_with_states_until(
        &state,
        policy,
        &(),
        &search,
        max_iterations,
        stop,
        rng,
        &mut *storage.states,
    )?;
    *tree = mcts.parts();
    let summary = mcts.root_summary(policy, &search);
    Ok(AgentProgress { result, summary })
}

/// The move `agent` chooses. Random ignores `storage` and `config`.
pub fn choose<'l>(
    agent: Agent<'_>,
    game: &Match3<'l>,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    rng: &mut XorShiftRng,
) -> Result<Option<Swap>, Error> {
    let mut fresh = TreeParts::default();
    let chosen = choose_until(
        agent,
        game,
        config,
        storage,
        &mut fresh,
        config.iterations,
        Never,
        rng,
    )?;
    Ok(chosen.result.best)
}

/// [`choose`] in steps, as [`search_move_until`]. Random draws its move at once, whatever
/// the budget, and leaves `tree` alone.
#[allow(clippy::too_many_arguments)]
pub fn choose_until<'l, S: Stop>(
    agent: Agent<'_>,
    game: &Match3<'l>,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    tree: &mut TreeParts,
    max_iterations: u32,
    stop: S,
    rng: &mut XorShiftRng,
) -> Result<AgentProgress, Error> {
    match agent {
        Agent::Random => {
            let best = random_move(game, rng);
            Ok(AgentProgress {
                result: SearchResult {
                    best,
                    stats: Stats::default(),
                },
                summary: RootSummary {
                    best,
                    ..RootSummary::default()
                },
            })
        }
        Agent::Vanilla(goal) => search_move_until(
            game,
            &Ucb1::default(),
            goal,
            config,
            storage,
            tree,
            max_iterations,
            stop,
            rng,
        ),
        Agent::Persona(program, goal) => search_move_until(
            game,
            &FormulaPolicy(*program),
            goal,
            config,
            storage,
            tree,
            max_iterations,
            stop,
            rng,
        ),
    }
}

/// Plays a whole game of `level` with chance seed `chance_seed`, the agent drawing from
/// `agent_seed`, and calls `on_move` after every move. Returns the final metrics.
pub fn play_game<'l>(
    level: &'l Level,
    chance_seed: u64,
    agent: Agent<'_>,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    agent_seed: u64,
    mut on_move: impl FnMut(Swap, &super::game::Outcome),
) -> Result<Metrics, Error> {
    let mut game = Match3::new(level, chance_seed);
    let mut rng = XorShiftRng::seed_from_u64(agent_seed);
    while !game.is_over() {
        let Some(mv) = choose(agent, &game, config, storage, &mut rng)? else {
            break;
        };
        let outcome = game.try_play(mv)?;
        on_move(mv, &outcome);
    }
    Ok(game.metrics())
}

/// [`play_game`] that gives up when `stop` says so, asked before every iteration of every
/// search and before every move: `Ok(None)`. Until then it plays exactly `play_game`'s
/// moves (each move searched by [`choose_until`] from a fresh tree, as [`choose`] does).
pub fn play_game_until<'l, S: Stop>(
    level: &'l Level,
    chance_seed: u64,
    agent: Agent<'_>,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    agent_seed: u64,
    mut stop: S,
) -> Result<Option<Metrics>, Error> {
    let mut game = Match3::new(level, chance_seed);
    let mut rng = XorShiftRng::seed_from_u64(agent_seed);
    let mut stopped = false;
    while !game.is_over() {
        let mut fresh = TreeParts::default();
        let mut watch = |done: u32| {
            stopped = stopped || stop.stop(done);
            stopped
        };
        if watch(0) {
            return Ok(None);
        }
        let chosen = choose_until(
            agent,
            &game,
            config,
            storage,
            &mut fresh,
            config.iterations,
            &mut watch,
            &mut rng,
        )?;
        if stopped {
            return Ok(None);
        }
        let Some(mv) = chosen.result.best else {
            break;
        };
        game.try_play(mv)?;
    }
    Ok(Some(game.metrics()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::{preset, shipped};
    use crate::search::mcts::{Cancel, seeded_rng};
    use core::sync::atomic::AtomicBool;

    /// Steps that add up to the agent's budget choose its move bit for bit, with the same
    /// tree and generator, whether the tree's parts are kept by the caller or not.
    #[test]
    fn an_agent_searching_in_steps_chooses_the_one_shot_move() {
        let level = Level::parse(preset("board1").unwrap()).unwrap();
        let personas = shipped().unwrap();
        let config = SearchConfig {
            iterations: 40,
            ..SearchConfig::default()
        };
        let mut game = Match3::new(&level, 5);
        game.play(random_move(&game, &mut seeded_rng(1)).unwrap());
        let agents = [
            Agent::Vanilla(Goal::MaxScore),
            Agent::Persona(&personas[2].program, personas[2].goal),
            Agent::Random,
        ];
        for agent in agents {
            let mut nodes = vec![Node::default(); nodes_for(40)];
            let mut states = vec![CachedState::default(); states_for(40)];
            let mut storage = Storage {
                nodes: &mut nodes,
                states: &mut states,
            };
            let mut rng = seeded_rng(9);
            let expected = choose(agent, &game, &config, &mut storage, &mut rng).unwrap();
            let expected_nodes = storage.nodes.to_vec();
            let expected_next = rng.clone();

            let mut stepped_nodes = vec![Node::default(); nodes_for(40)];
            // Without kept states: the same moves, replayed.
            let mut storage = Storage::nodes_only(&mut stepped_nodes);
            let mut rng = seeded_rng(9);
            let mut tree = TreeParts::default();
            let mut last = None;
            for step in [10, 5, 25] {
                let progress = choose_until(
                    agent,
                    &game,
                    &config,
                    &mut storage,
                    &mut tree,
                    step,
                    Never,
                    &mut rng,
                )
                .unwrap();
                if agent != Agent::Random {
                    assert_eq!(progress.result.stats.iterations, step);
                }
                last = Some(progress);
                if agent == Agent::Random {
                    break;
                }
            }
            let last = last.unwrap();
            assert_eq!(last.result.best, expected, "{agent:?}");
            assert_eq!(last.summary.best, expected, "{agent:?}");
            assert_eq!(rng, expected_next, "{agent:?}");
            if agent != Agent::Random {
                assert_eq!(last.summary.root_visits, 40);
                assert_eq!(stepped_nodes, expected_nodes, "{agent:?}");
            }
        }
    }

    #[test]
    fn an_agent_search_stops_when_told_and_continues_its_position_only() {
        let level = Level::parse(preset("board2").unwrap()).unwrap();
        let config = SearchConfig::default();
        let game = Match3::new(&level, 3);
        let mut nodes = vec![Node::default(); nodes_for(30)];
        let mut storage = Storage::nodes_only(&mut nodes);
        let mut tree = TreeParts::default();
        let mut rng = seeded_rng(4);
        let vanilla = Agent::Vanilla(Goal::MaxScore);
        let cancelled = AtomicBool::new(true);
        let progress = choose_until(
            vanilla,
            &game,
            &config,
            &mut storage,
            &mut tree,
            30,
            Cancel(&cancelled),
            &mut rng,
        )
        .unwrap();
        assert_eq!(progress.result.stats.iterations, 0);
        assert!(progress.result.best.is_some());
        let progress = choose_until(
            vanilla,
            &game,
            &config,
            &mut storage,
            &mut tree,
            30,
            |done| done == 12,
            &mut rng,
        )
        .unwrap();
        assert_eq!(progress.result.stats.iterations, 12);
        assert_eq!(progress.summary.root_visits, 12);
        // Another position: a fresh tree.
        let mut next = game.clone();
        next.play(progress.result.best.unwrap());
        let progress = choose_until(
            vanilla,
            &next,
            &config,
            &mut storage,
            &mut tree,
            5,
            Never,
            &mut rng,
        )
        .unwrap();
        assert_eq!(progress.summary.root_visits, 5);
    }
}
