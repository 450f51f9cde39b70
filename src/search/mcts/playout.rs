//! The simulation phase, and the record of moves that AMAF statistics are built from.
use heapless::Vec;
use rand_xorshift::XorShiftRng;

use super::config::{Config, PlayoutPolicy};
use super::game::{Game, play_listed, random_index};

/// Plies of one simulation (tree part and playout) recorded for AMAF. 256 covers a whole
/// game of 8x8 Breakthrough, the longest game arbor plays by simulation: every move advances
/// a piece one row, so 16 pieces a side make at most 2·16·7 = 224 plies. Later plies of a
/// longer simulation still count for the rewards, only not for AMAF.
///
/// cbindgen:ignore
pub const TRACE_CAPACITY: usize = 256;

/// One ply of a simulation: the move and who played it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ply<M> {
    pub(crate) mv: M,
    pub(crate) player: u8,
}

pub(crate) type Trace<M> = Vec<Ply<M>, TRACE_CAPACITY>;

/// How a playout ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    /// The final state is terminal (or has no legal move), so `reward` scores it; otherwise
    /// the cutoff stopped it and `evaluate` does.
    pub(crate) terminal: bool,
    /// Moves played.
    pub(crate) steps: u32,
}

/// Plays `state` out with the configured playout policy, appending moves to `trace`.
pub(crate) fn playout<G: Game>(
    state: &mut G,
    config: &Config,
    rng: &mut XorShiftRng,
    trace: &mut Trace<G::Move>,
) -> End {
    let mut steps = 0;
    loop {
        if state.is_terminal() {
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
        let player = state.side_to_move();
        let played = match config.playout {
            PlayoutPolicy::Game => state.play_playout_move(rng),
            PlayoutPolicy::Uniform => {
                play_listed(state, rng, |_, moves, rng| random_index(rng, moves.len()))
            }
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
pub(crate) fn rewards<G: Game>(state: &G, end: End) -> [f32; 2] {
    let score = |player| {
        let reward = if end.terminal {
            state.reward(player)
        } else {
            state.evaluate(player)
        };
        sanitize(reward)
    };
    [score(0), score(1)]
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
