//! The playtest report of the paper's section VII (Table II): six agents play the same games
//! of a level, and their scores and available moves describe how hard the level is.
//!
//! The agents, in their fixed order ([`PlaytestAgent::ALL`]): the four personas MaxS, MinS,
//! MaxM, MinM, then Vanilla MCTS and Random. Game `g` of a run has the same chance seed for
//! every agent (every agent meets the same boards and refills), derived with [`game_seeds`]
//! from the level's seed, the run's seed and `g` only. A [`Report`] adds games in game
//! order, so any runner that plays the games in any order, on any number of threads, and
//! then adds them in order gets the same bits as [`playtest`].
use super::agent::{
    Agent, Goal, SearchConfig, Storage, nodes_for, nodes_for_level, play_game, play_game_until,
};
use super::game::{MAX_MOVES, Metrics};
use super::level::Level;
use super::persona::{PERSONA_GOALS, Persona};
use crate::Error;
use crate::rng::splitmix64;
use crate::search::mcts::Stop;

/// One of the six agents of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaytestAgent {
    /// The persona that maximises score.
    MaxScore,
    /// The persona that minimises score.
    MinScore,
    /// The persona that maximises the available moves.
    MaxMoves,
    /// The persona that minimises the available moves.
    MinMoves,
    /// Vanilla MCTS (UCB1, maximising score).
    Vanilla,
    /// Uniformly random legal moves.
    Random,
}

impl PlaytestAgent {
    /// The six agents in the report's order.
    pub const ALL: [PlaytestAgent; 6] = [
        PlaytestAgent::MaxScore,
        PlaytestAgent::MinScore,
        PlaytestAgent::MaxMoves,
        PlaytestAgent::MinMoves,
        PlaytestAgent::Vanilla,
        PlaytestAgent::Random,
    ];

    /// The paper's name: MaxS, MinS, MaxM, MinM, Vanilla, Random.
    pub fn name(self) -> &'static str {
        match self {
            PlaytestAgent::MaxScore => "MaxS",
            PlaytestAgent::MinScore => "MinS",
            PlaytestAgent::MaxMoves => "MaxM",
            PlaytestAgent::MinMoves => "MinM",
            PlaytestAgent::Vanilla => "Vanilla",
            PlaytestAgent::Random => "Random",
        }
    }

    /// Position in [`PlaytestAgent::ALL`] (and in a [`Report`]).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The agent this row plays with `personas` (MaxS, MinS, MaxM, MinM in that order).
    pub fn agent(self, personas: &[Persona; 4]) -> Agent<'_> {
        match self {
            PlaytestAgent::Vanilla => Agent::Vanilla(Goal::MaxScore),
            PlaytestAgent::Random => Agent::Random,
            persona => {
                let p = &personas[persona.index()];
                Agent::Persona(&p.program, p.goal)
            }
        }
    }
}

/// Chance and agent seeds of game `game` of a run with seed `seed` on a level whose seed is
/// `level_seed`: they depend on these three numbers only, never on the agent or on which
/// thread plays the game.
pub fn game_seeds(level_seed: u64, seed: u64, game: u64) -> (u64, u64) {
    // SplitMix64 steps spread the numbers, so that neighbouring games get unrelated streams.
    let chance = splitmix64(level_seed ^ splitmix64(seed).wrapping_add(game));
    (chance, splitmix64(chance ^ 0xA5A5_A5A5_5A5A_5A5A))
}

/// Tree nodes a playtest with `config` needs: the storage with which no search runs out,
/// so that the report does not depend on how much storage the caller had. `None` when the
/// count does not fit in `usize`.
pub fn playtest_nodes(config: &SearchConfig) -> Option<usize> {
    let iterations = usize::try_from(config.iterations).ok()?;
    if iterations > (usize::MAX - 1) / MAX_MOVES {
        return None;
    }
    Some(nodes_for(config.iterations))
}

/// Checks that the personas are in the roles' order: MaxS, MinS, MaxM, MinM.
fn check_roles(personas: &[Persona; 4]) -> Result<(), Error> {
    if personas
        .iter()
        .zip(PERSONA_GOALS)
        .all(|(p, goal)| p.goal == goal)
    {
        Ok(())
    } else {
        Err(Error::InvalidArgument)
    }
}

/// Plays game `game` of a playtest run with `agent` and returns its metrics.
///
/// `storage` must hold [`nodes_for_level`] nodes (at most [`playtest_nodes`]) for the MCTS
/// agents (Random ignores it); its state slots only save time.
/// Errors: `Error::InvalidArgument` (personas out of order: their goals must be MaxS,
/// MinS, MaxM, MinM), `Error::BufferTooSmall` (storage).
pub fn playtest_game<'l>(
    level: &'l Level,
    personas: &[Persona; 4],
    agent: PlaytestAgent,
    game: u32,
    seed: u64,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
) -> Result<Metrics, Error> {
    check_playtest_game(level, personas, agent, config, storage)?;
    let (chance_seed, agent_seed) = game_seeds(level.seed(), seed, u64::from(game));
    play_game(
        level,
        chance_seed,
        agent.agent(personas),
        config,
        storage,
        agent_seed,
        |_, _| {},
    )
}

fn check_playtest_game(
    level: &Level,
    personas: &[Persona; 4],
    agent: PlaytestAgent,
    config: &SearchConfig,
    storage: &Storage<'_, '_>,
) -> Result<(), Error> {
    check_roles(personas)?;
    playtest_nodes(config).ok_or(Error::InvalidArgument)?;
    let needed = nodes_for_level(level, config.iterations);
    if agent != PlaytestAgent::Random && storage.nodes.len() < needed {
        return Err(Error::BufferTooSmall);
    }
    Ok(())
}

/// [`playtest_game`] that gives up when `stop` says so (asked before every search
/// iteration, and before every move of the Random agent): `Ok(None)`. The game depends
/// only on its seeds, so playing it again later gives the metrics it would have had.
#[allow(clippy::too_many_arguments)]
pub fn playtest_game_until<'l, S: Stop>(
    level: &'l Level,
    personas: &[Persona; 4],
    agent: PlaytestAgent,
    game: u32,
    seed: u64,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
    stop: S,
) -> Result<Option<Metrics>, Error> {
    check_playtest_game(level, personas, agent, config, storage)?;
    let (chance_seed, agent_seed) = game_seeds(level.seed(), seed, u64::from(game));
    play_game_until(
        level,
        chance_seed,
        agent.agent(personas),
        config,
        storage,
        agent_seed,
        stop,
    )
}

/// One agent's games on one level.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentSummary {
    /// Games added.
    pub games: u32,
    /// Sum of the final scores.
    pub score_sum: u64,
    /// Lowest final score (0 before the first game).
    pub min_score: u32,
    /// Highest final score.
    pub max_score: u32,
    /// Sum over games of the game's average available moves (`legal_sum / moves`), added
    /// in game order.
    pub available_sum: f64,
}

impl AgentSummary {
    /// Adds the next game's metrics.
    pub fn add(&mut self, metrics: &Metrics) {
        self.min_score = if self.games == 0 {
            metrics.score
        } else {
            self.min_score.min(metrics.score)
        };
        self.max_score = self.max_score.max(metrics.score);
        self.games = self.games.saturating_add(1);
        // Saturating: a summary read back from a caller's (possibly damaged) buffer may
        // hold any sum; real games are far from the limit.
        self.score_sum = self.score_sum.saturating_add(u64::from(metrics.score));
        self.available_sum += metrics.average_available();
    }

    /// Mean final score (0 without games).
    pub fn mean_score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.score_sum as f64 / f64::from(self.games)
        }
    }

    /// Mean over games of the average available moves (0 without games).
    pub fn mean_available(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.available_sum / f64::from(self.games)
        }
    }
}

/// The six agents' summaries on one level, in the order of [`PlaytestAgent::ALL`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// One summary per agent.
    pub agents: [AgentSummary; 6],
}

impl Report {
    /// Adds `agent`'s next game. Add each agent's games in game order (0, 1, 2, …) for
    /// results that do not depend on how the games were scheduled.
    pub fn add(&mut self, agent: PlaytestAgent, metrics: &Metrics) {
        self.agents[agent.index()].add(metrics);
    }

    /// The summary of `agent`.
    pub fn summary(&self, agent: PlaytestAgent) -> &AgentSummary {
        &self.agents[agent.index()]
    }
}

/// Plays `games` games of `level` with each of the six agents, one after the other, in
/// `storage`, and returns the report.
///
/// Errors: `Error::InvalidArgument` (`games` is 0, or personas out of order),
/// `Error::BufferTooSmall` (`storage` holds fewer than [`playtest_nodes`] nodes).
pub fn playtest<'l>(
    level: &'l Level,
    personas: &[Persona; 4],
    games: u32,
    seed: u64,
    config: &SearchConfig,
    storage: &mut Storage<'_, 'l>,
) -> Result<Report, Error> {
    let mut run = PlaytestRun::new(games, seed)?;
    check_roles(personas)?;
    let needed = playtest_nodes(config).ok_or(Error::InvalidArgument)?;
    if storage.nodes.len() < needed {
        return Err(Error::BufferTooSmall);
    }
    while run.step(level, personas, config, storage)? {}
    Ok(run.report)
}

/// A [`playtest`] one game at a time: a small `Copy` value that a caller (a C handle) keeps
/// between [`PlaytestRun::step`]s. Stepping until done gives exactly `playtest`'s report;
/// the level, personas, config and storage are the caller's, the same at every step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaytestRun {
    /// Games per agent.
    pub games: u32,
    /// The run's seed ([`game_seeds`]).
    pub seed: u64,
    /// Index in [`PlaytestAgent::ALL`] of the agent that plays next (6 when done).
    pub next_agent: u8,
    /// The game that agent plays next.
    pub next_game: u32,
    /// The games added so far.
    pub report: Report,
}

impl PlaytestRun {
    /// A run of `games` games per agent, none played yet. `Error::InvalidArgument` when
    /// `games` is 0.
    pub fn new(games: u32, seed: u64) -> Result<Self, Error> {
        if games == 0 {
            return Err(Error::InvalidArgument);
        }
        Ok(PlaytestRun {
            games,
            seed,
            next_agent: 0,
            next_game: 0,
            report: Report::default(),
        })
    }

    /// The agent and game the next step plays, `None` when the run is done.
    pub fn next(&self) -> Option<(PlaytestAgent, u32)> {
        let agent = *PlaytestAgent::ALL.get(usize::from(self.next_agent))?;
        Some((agent, self.next_game))
    }

    /// Every game has been played.
    pub fn is_done(&self) -> bool {
        self.next().is_none()
    }

    /// Games played so far, out of `6 · games`.
    pub fn played(&self) -> u32 {
        u32::from(self.next_agent)
            .saturating_mul(self.games)
            .saturating_add(self.next_game)
    }

    /// Plays the next game (as [`playtest_game`], with its errors) and adds it to the
    /// report. Returns whether games remain; `Ok(false)` without playing when done. After an
    /// error the run is unchanged.
    pub fn step<'l>(
        &mut self,
        level: &'l Level,
        personas: &[Persona; 4],
        config: &SearchConfig,
        storage: &mut Storage<'_, 'l>,
    ) -> Result<bool, Error> {
        let Some((agent, game)) = self.next() else {
            return Ok(false);
        };
        let metrics = playtest_game(level, personas, agent, game, self.seed, config, storage)?;
        self.record(agent, &metrics);
        Ok(!self.is_done())
    }

    /// [`PlaytestRun::step`] that gives up the game when `stop` says so
    /// ([`playtest_game_until`]): `Ok(None)`, and the run is unchanged, so that the next
    /// step plays that game again, to the same result.
    pub fn step_until<'l, S: Stop>(
        &mut self,
        level: &'l Level,
        personas: &[Persona; 4],
        config: &SearchConfig,
        storage: &mut Storage<'_, 'l>,
        stop: S,
    ) -> Result<Option<bool>, Error> {
        let Some((agent, game)) = self.next() else {
            return Ok(Some(false));
        };
        let played = playtest_game_until(
            level, personas, agent, game, self.seed, config, storage, stop,
        )?;
        let Some(metrics) = played else {
            return Ok(None);
        };
        self.record(agent, &metrics);
        Ok(Some(!self.is_done()))
    }

    fn record(&mut self, agent: PlaytestAgent, metrics: &Metrics) {
        self.report.add(agent, metrics);
        self.next_game += 1;
        if self.next_game >= self.games {
            self.next_game = 0;
            self.next_agent += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::{preset, shipped, states_for};
    use crate::search::mcts::{CachedState, Node};

    fn config(iterations: u32) -> SearchConfig {
        SearchConfig {
            iterations,
            ..SearchConfig::default()
        }
    }

    fn board(name: &str) -> Level {
        Level::parse(preset(name).unwrap()).unwrap()
    }

    #[test]
    fn all_agents_meet_the_same_boards_and_the_report_sums_them() {
        let level = board("board1");
        let personas = shipped().unwrap();
        let config = config(20);
        let mut nodes = [Node::default(); 1 + 20 * MAX_MOVES];
        let mut states = vec![CachedState::default(); states_for(20)];
        let mut storage = Storage {
            nodes: &mut nodes,
            states: &mut states,
        };
        let report = playtest(&level, &personas, 3, 7, &config, &mut storage).unwrap();
        // Game by game, and searching without kept states: the same games.
        let mut replaying = Storage::nodes_only(storage.nodes);
        for agent in PlaytestAgent::ALL {
            let mut by_hand = AgentSummary::default();
            for g in 0..3 {
                let m =
                    playtest_game(&level, &personas, agent, g, 7, &config, &mut replaying).unwrap();
                by_hand.add(&m);
                assert_eq!(m.moves, u32::from(level.moves()), "{}", agent.name());
            }
            assert_eq!(*report.summary(agent), by_hand, "{}", agent.name());
            let s = report.summary(agent);
            assert_eq!(s.games, 3);
            assert!(f64::from(s.min_score) <= s.mean_score());
            assert!(s.mean_score() <= f64::from(s.max_score));
            assert!(s.mean_available() > 0.0);
        }
        // The score personas pull apart: MaxS above MinS on every run of this size.
        assert!(
            report.summary(PlaytestAgent::MaxScore).mean_score()
                > report.summary(PlaytestAgent::MinScore).mean_score()
        );
        // Same inputs, same report; another seed, other games.
        let mut storage = Storage {
            nodes: &mut nodes,
            states: &mut states,
        };
        assert_eq!(
            playtest(&level, &personas, 3, 7, &config, &mut storage),
            Ok(report)
        );
        assert_ne!(
            playtest(&level, &personas, 3, 8, &config, &mut storage),
            Ok(report)
        );
    }

    #[test]
    fn stepping_a_run_gives_the_one_shot_report() {
        let level = board("board1");
        let personas = shipped().unwrap();
        let config = config(10);
        let mut nodes = [Node::default(); 1 + 10 * MAX_MOVES];
        let mut states = vec![CachedState::default(); states_for(10)];
        let mut storage = Storage {
            nodes: &mut nodes,
            states: &mut states,
        };
        let report = playtest(&level, &personas, 2, 11, &config, &mut storage).unwrap();

        let mut run = PlaytestRun::new(2, 11).unwrap();
        let mut order = vec![];
        while let Some(next) = run.next() {
            assert_eq!(run.played() as usize, order.len());
            order.push(next);
            // The state is `Copy`: a handle keeps it by value between steps.
            let mut kept = run;
            let more = kept.step(&level, &personas, &config, &mut storage).unwrap();
            run = kept;
            assert_eq!(more, !run.is_done());
        }
        assert_eq!(run.played(), 12);
        assert_eq!(
            run.step(&level, &personas, &config, &mut storage),
            Ok(false)
        );
        let expected: Vec<_> = PlaytestAgent::ALL
            .into_iter()
            .flat_map(|agent| (0..2).map(move |game| (agent, game)))
            .collect();
        assert_eq!(order, expected);
        // Every field of every summary, bit for bit.
        for (stepped, one_shot) in run.report.agents.iter().zip(&report.agents) {
            assert_eq!(stepped.games, one_shot.games);
            assert_eq!(stepped.score_sum, one_shot.score_sum);
            assert_eq!(stepped.min_score, one_shot.min_score);
            assert_eq!(stepped.max_score, one_shot.max_score);
            assert_eq!(
                stepped.available_sum.to_bits(),
                one_shot.available_sum.to_bits()
            );
        }
        assert_eq!(run.report, report);
        assert_eq!(PlaytestRun::new(0, 1), Err(Error::InvalidArgument));
    }

    #[test]
    fn bad_arguments_are_errors_not_panics() {
        let level = board("board2");
        let personas = shipped().unwrap();
        let config = config(5);
        let mut nodes = [Node::default(); 1 + 5 * MAX_MOVES];
        let mut short = Storage::nodes_only(&mut nodes[..5 * MAX_MOVES]);
        assert_eq!(
            playtest(&level, &personas, 1, 1, &config, &mut short),
            Err(Error::BufferTooSmall)
        );
        let mut storage = Storage::nodes_only(&mut nodes);
        assert_eq!(
            playtest(&level, &personas, 0, 1, &config, &mut storage),
            Err(Error::InvalidArgument)
        );
        // Random needs no storage.
        assert!(
            playtest_game(
                &level,
                &personas,
                PlaytestAgent::Random,
                0,
                1,
                &config,
                &mut Storage::nodes_only(&mut [])
            )
            .is_ok()
        );
        let mut swapped = personas;
        swapped.swap(0, 1);
        assert_eq!(
            playtest(&level, &swapped, 1, 1, &config, &mut storage),
            Err(Error::InvalidArgument)
        );
        assert_eq!(playtest_nodes(&config), Some(1 + 5 * MAX_MOVES));
    }

    #[test]
    fn seeds_are_stable() {
        // Pinned: the chance seeds of `arbor match3 play --moves-out` files replay with
        // `--seed`, so the derivation must not change.
        assert_eq!(
            game_seeds(42, 1, 3),
            (0xcdee_e584_45d0_ba89, 0xbec2_b264_7c8e_c280)
        );
        assert_ne!(game_seeds(0, 1, 0), game_seeds(0, 1, 1));
        assert_ne!(game_seeds(0, 1, 0), game_seeds(1, 1, 0));
        assert_ne!(game_seeds(0, 1, 0).0, game_seeds(0, 1, 0).1);
    }
}
