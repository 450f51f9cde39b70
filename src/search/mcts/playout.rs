//! The simulation phase.
use rand_xorshift::XorShiftRng;

use super::config::{Config, PlayoutPolicy};
use super::node::CHANCE;
use crate::search::game::{Bounded, Game, Knowledge, Ply, Turn};

/// How a playout ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    /// The final state is over (or has no legal move), so its returns score it; otherwise
    /// the cutoff stopped it and the knowledge's evaluation does.
    pub(crate) terminal: bool,
    /// Moves played.
    pub(crate) steps: u32,
}

/// Plays `state` out with the configured playout policy, appending moves to `trace` if
/// `traced` (only AMAF reads the trace: without it the moves are not even built). The
/// whole loop is the game's or the knowledge's (`play_random_moves`, `play_playout_moves`),
/// so that they may choose how to play it once per simulation.
pub(crate) fn playout<G: Game, K: Knowledge<G> + ?Sized>(
    state: &mut G,
    knowledge: &K,
    config: &Config,
    rng: &mut XorShiftRng,
    trace: Option<&mut G::Trace>,
) -> End {
    let steps = match trace {
        Some(trace) => simulate(state, knowledge, config, rng, |mv, turn: Turn| {
            let player = turn.player().unwrap_or(CHANCE);
            // A full trace only stops AMAF from seeing the rest of this simulation.
            let _ = trace.push(Ply { mv, player });
        }),
        None => simulate(state, knowledge, config, rng, |_, _| {}),
    };
    End {
        // Stopped before the cutoff, the game is over (or stuck); stopped at the cutoff, it
        // may just have ended.
        terminal: steps < config.playout_cutoff || state.turn() == Turn::Over,
        steps,
    }
}

/// The simulation's moves, each handed to `record`; returns how many were played.
#[inline(always)]
fn simulate<G: Game, K: Knowledge<G> + ?Sized>(
    state: &mut G,
    knowledge: &K,
    config: &Config,
    rng: &mut XorShiftRng,
    record: impl FnMut(G::Move, Turn),
) -> u32 {
    let limit = config.playout_cutoff;
    match config.playout {
        PlayoutPolicy::Game => knowledge.play_playout_moves(state, rng, limit, record),
        PlayoutPolicy::Uniform => state.play_random_moves(rng, limit, record),
    }
}

/// Rewards of players 0 and 1 at the end of a simulation, sanitised into [0, 1].
pub(crate) fn rewards<G: Game, K: Knowledge<G> + ?Sized>(
    state: &G,
    knowledge: &K,
    end: End,
) -> [f32; 2] {
    let returns = if end.terminal {
        state.returns()
    } else {
        knowledge.evaluate(state)
    };
    returns.map(sanitize)
}

/// Clamps a game's reward into [0, 1]; NaN becomes 0.
pub(crate) fn sanitize(reward: f32) -> f32 {
    if reward.is_nan() {
        0.0
    } else {
        reward.clamp(0.0, 1.0)
    }
}

/// The reward of `player` (0 or 1; anything else is read as 1).
pub(crate) fn reward_of(rewards: &[f32; 2], player: u8) -> f32 {
    rewards[usize::from(player.min(1))]
}
