//! Monte-Carlo tree search, generic over games, in caller-provided storage.
//!
//! - [`Game`] (from [`crate::search::game`]) is what a game implements; [`Knowledge`] adds
//!   priors, a cut-off evaluation and a playout policy.
//! - [`Mcts`] holds the tree in a `&mut [Node<M>]` the caller provides. Nodes refer to each
//!   other by `u32` index and a node's children are contiguous, so expanding is one bump of
//!   a cursor. [`storage_bytes`] and [`node_align`] size a buffer for C.
//! - Selection is a [`Policy`]: [`Ucb1`], [`Rave`], [`MoGo`] (these two with AMAF by move
//!   index, see [`Amaf`]), or a game's own (Match-3's persona formulas);
//!   [`Selection`] bundles the built-ins as one `Copy` value.
//! - [`Config`] sets expansion, playouts, the final-move rule and the MCTS-Solver.
//! - [`Mcts::search_with_states`] also keeps, in a `&mut [CachedState<G>]` the caller
//!   provides, the state reached at each tree node, so that an iteration in a game whose
//!   moves replay exactly starts from its path's deepest known state instead of the root.
//!
//! Anytime search: the `_until` entry points ([`Mcts::search_until`] and the others) also
//! end when a [`Stop`] says so ([`Cancel`], [`Deadline`], any closure), asked before every
//! iteration. A search continues its tree across calls: keep the storage, [`Mcts::parts`]
//! and the generator, and `k` calls of `n` iterations give exactly one call of `k · n`.
//! [`Mcts::root_summary`] reads the move the search would play now.
//!
//! Tree reuse: [`Mcts::advance`] moves the subtree under the played move to the front of the
//! storage in place, so the root is always node 0 and the whole storage is free again for
//! the next search. It costs one pass over the nodes in use, and no extra memory.
//!
//! ```
//! use arbor::search::mcts::{Config, Mcts, Node, Ucb1};
//! use arbor::search::{Game, Ply, Turn};
//! use rand_core::SeedableRng;
//!
//! /// Nim with one pile: take 1 to 3 stones; whoever takes the last stone wins.
//! #[derive(Clone)]
//! struct Nim { stones: u8, to_move: u8 }
//!
//! impl Game for Nim {
//!     type Move = u8;
//!     type Moves = heapless::Vec<u8, 3>; // at most three moves: take 1, 2 or 3
//!     type Trace = heapless::Vec<Ply<u8>, 64>; // a game has at most 63 plies
//!     fn turn(&self) -> Turn {
//!         if self.stones == 0 { Turn::Over } else { Turn::Player(self.to_move) }
//!     }
//!     fn legal_moves(&self, moves: &mut Self::Moves) {
//!         *moves = (1..=self.stones.min(3)).collect();
//!     }
//!     fn play(&mut self, take: u8) {
//!         self.stones -= take;
//!         self.to_move ^= 1;
//!     }
//!     // The player who just moved took the last stone.
//!     fn returns(&self) -> [f32; 2] {
//!         if self.to_move == 1 { [1.0, 0.0] } else { [0.0, 1.0] }
//!     }
//!     fn hash(&self) -> u64 { u64::from(self.stones) << 1 | u64::from(self.to_move) }
//! }
//!
//! let mut storage = [Node::default(); 1000];
//! let mut tree = Mcts::new(&mut storage);
//! let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
//! let nim = Nim { stones: 6, to_move: 0 };
//! let result = tree.search(&nim, &Ucb1::default(), &(), &Config::default(), 500, &mut rng).unwrap();
//! assert_eq!(result.best, Some(2)); // leave a multiple of 4
//! ```

mod amaf;
mod backup;
mod config;
mod node;
#[cfg(feature = "std")]
mod parallel;
mod playout;
mod policy;
mod reuse;
mod search;
mod solver;
mod states;
mod stop;
mod tree;

#[cfg(all(test, feature = "std"))]
mod anytime_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod toys;

pub use amaf::Amaf;
pub use config::{ChildInfo, Config, FinalMove, PlayoutPolicy, RootSummary, SearchResult, Stats};
pub use node::{
    MAX_CAPACITY, Node, Proof, capacity_for_bytes, node_align, node_size, storage_bytes,
};
#[cfg(feature = "std")]
pub use parallel::MAX_SEARCH_THREADS;
pub use policy::{ChildStats, MoGo, Needs, Policy, Rave, Selection, Ucb1, rave_beta};
// The game interface lives in `crate::search`; these are here for callers of MCTS alone.
pub use crate::search::game::{Game, Knowledge, random_index, seeded_rng};
pub use states::CachedState;
#[cfg(feature = "std")]
pub use stop::InstantDeadline;
#[cfg(test)]
pub(crate) use stop::PollCounter;
pub use stop::{Cancel, Deadline, Never, Stop};
pub use tree::{Mcts, TreeParts};
