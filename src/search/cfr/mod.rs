//! Counterfactual regret minimization for two-player zero-sum games of imperfect information,
//! on the search core's [`Game`](crate::search::Game) + [`Hidden`] interface.
//!
//! - [`Cfr`]: CFR+ and discounted CFR by full traversals (exact small games), Monte-Carlo CFR
//!   with external sampling (larger ones), information sets in caller storage keyed by
//!   [`Hidden::info_key`]; the average strategy per information set.
//! - [`BestResponse`], [`exploitability`], [`expected_value`]: exact best responses for games
//!   small enough to walk in full, also in caller storage.
//! - [`Kuhn`] and [`Leduc`]: the two classic test games.
//!
//! Utilities are the zero-sum reading of [`Game::returns`](crate::search::Game::returns):
//! player 0's return minus player 1's, in [-1, 1]. A game whose returns are chips scaled into
//! [0, 1] says how many chips one unit is ([`Kuhn::CHIPS_PER_UNIT`], [`Leduc::CHIPS_PER_UNIT`]).
//!
//! ```
//! use arbor::search::cfr::{Algorithm, BestResponse, Cfr, Kuhn, exploitability};
//! use arbor::search::game::seeded_rng;
//!
//! let (infosets, actions) = (Kuhn::INFOSETS, Kuhn::ACTIONS);
//! let mut keys = vec![0u64; infosets];
//! let mut values = vec![0.0; Cfr::values_len(infosets, actions).unwrap()];
//! let mut cfr = Cfr::new(&mut keys, &mut values, actions, Algorithm::CfrPlus).unwrap();
//! cfr.iterate(&Kuhn::new(), 1000, &mut seeded_rng(1)).unwrap();
//!
//! let mut br_keys = vec![0u64; infosets];
//! let mut br_values = vec![0.0; BestResponse::values_len(infosets, actions).unwrap()];
//! let mut br = BestResponse::new(&mut br_keys, &mut br_values, actions).unwrap();
//! let found = exploitability(&Kuhn::new(), &cfr, &mut br).unwrap();
//! let chips = Kuhn::CHIPS_PER_UNIT;
//! assert!((found.value * chips + 1.0 / 18.0).abs() < 1e-3); // the game's value
//! assert!(found.exploitability * chips < 1e-3);
//! ```
mod best_response;
mod kuhn;
mod leduc;
mod solver;
mod table;
#[cfg(test)]
mod tests;

pub use best_response::{BestResponse, Exploitability, expected_value, exploitability};
pub use kuhn::Kuhn;
pub use leduc::Leduc;
pub use solver::{Algorithm, Cfr};

use crate::search::game::Hidden;

/// Most actions (and chance outcomes walked by index) at one information set: the solver
/// keeps per-action values on the stack. Kuhn has 2 actions, Leduc 3, an abstracted poker
/// betting node about 6.
pub const MAX_ACTIONS: usize = 16;

/// Most plies from the root a walk follows before it stops with [`CfrError::TooDeep`]: a
/// guard against games without an end, far above Leduc's 10.
pub const MAX_DEPTH: usize = 256;

/// Why a solver call could not proceed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfrError {
    /// The caller storage is too small for the table asked for, or empty.
    Storage {
        keys: usize,
        values: usize,
        needed_values: usize,
    },
    /// Every slot of the table is taken: more information sets than the capacity.
    TableFull { capacity: usize },
    /// An information set has more actions than the table (or [`MAX_ACTIONS`]) allows.
    TooManyActions { found: usize, limit: usize },
    /// A walk went deeper than [`MAX_DEPTH`] plies.
    TooDeep { limit: usize },
}

impl core::fmt::Display for CfrError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            CfrError::Storage {
                keys,
                values,
                needed_values,
            } => write!(
                f,
                "storage of {keys} keys and {values} values is too small: {needed_values} values needed"
            ),
            CfrError::TableFull { capacity } => write!(
                f,
                "the information-set table is full ({capacity} sets): give it more capacity"
            ),
            CfrError::TooManyActions { found, limit } => {
                write!(
                    f,
                    "an information set has {found} actions; at most {limit} fit"
                )
            }
            CfrError::TooDeep { limit } => write!(f, "the game goes deeper than {limit} plies"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CfrError {}

/// A strategy for both players: the probabilities of the `n` legal moves (in
/// [`Game::legal_moves`](crate::search::Game::legal_moves) order) of `player` to move in
/// `state`, into `out[..n]`.
pub trait Strategy<G: Hidden> {
    fn probabilities(
        &self,
        state: &G,
        player: u8,
        n: usize,
        out: &mut [f64],
    ) -> Result<(), CfrError>;
}

/// Every legal move equally likely.
pub struct Uniform;

impl<G: Hidden> Strategy<G> for Uniform {
    fn probabilities(&self, _: &G, _: u8, n: usize, out: &mut [f64]) -> Result<(), CfrError> {
        let Some(out) = out.get_mut(..n) else {
            return Err(CfrError::TooManyActions {
                found: n,
                limit: out.len(),
            });
        };
        out.fill(1.0 / n as f64);
        Ok(())
    }
}

/// The utility of `player` at the end: its return minus the opponent's (returns clamped to
/// [0, 1], NaN as 0, as [`Game::returns`](crate::search::Game::returns) says).
pub fn utility<G: Hidden>(state: &G, player: u8) -> f64 {
    let returns = state.returns();
    let read = |r: f32| {
        if r.is_nan() {
            0.0
        } else {
            f64::from(r.clamp(0.0, 1.0))
        }
    };
    let zero = read(returns[0]) - read(returns[1]);
    if player == 0 { zero } else { -zero }
}
