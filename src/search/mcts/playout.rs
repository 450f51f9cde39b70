//! The simulation phase.
use rand_xorshift::XorShiftRng;

use super::config::{Config, PlayoutPolicy};
use super::node::CHANCE;
use crate::search::game::{Bounded, Game, Knowledge, Ply, Turn, play_outcome};

/// How a playout ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    /// The final state is over (or has no legal move), so its returns score it; otherwise
    /// the cutoff stopped it and the knowledge's evaluation does.
    pub(crate) terminal: bool,
    /// Moves played.
    pub(crate) steps: u32,
}

/// Plays `state` out with the configured playout policy, appending moves to `trace`.
pub(crate) fn playout<G: Game, K: Knowledge<G> + ?Sized>(
    state: &mut G,
    knowledge: &K,
    config: &Config,
    rng: &mut XorShiftRng,
    trace: &mut G::Trace,
) -> End {
    let mut steps = 0;
    loop {
        let turn = state.turn();
        if turn == Turn::Over {
            return End {
                terminal: true,
                steps,
            };
        }
        if steps >= config.playout_cutoff {
            return End {
                terminal: false,
                steps,
            };
        }
        let (played, player) = match (turn, config.playout) {
            (Turn::Player(player), PlayoutPolicy::Game) => {
                (knowledge.play_playout_move(state, rng), player)
            }
            (Turn::Player(player), PlayoutPolicy::Uniform) => (state.play_random_move(rng), player),
            _ => (play_outcome(state, rng), CHANCE),
        };
        let Some(mv) = played else {
            return End {
                terminal: true,
                steps,
            };
        };
        // A full trace only stops AMAF from seeing the rest of this simulation.
        let _ = trace.push(Ply { mv, player });
        steps += 1;
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
