//! Monte-Carlo tree search, generic over games, in caller-provided storage.

mod backup;
mod config;
mod game;
mod node;
mod playout;
mod policy;
mod reuse;
mod search;
mod solver;
mod tree;

pub use config::{ChildInfo, Config, FinalMove, PlayoutPolicy, SearchResult, Stats};
pub use game::{Game, random_index, seeded_rng};
pub use node::{
    MAX_CAPACITY, Node, Proof, capacity_for_bytes, node_align, node_size, storage_bytes,
};
pub use playout::TRACE_CAPACITY;
pub use policy::{
    ChildStats, Formula, FormulaPolicy, MoGo, Needs, Policy, Rave, Selection, Ucb1, rave_beta,
};
pub use tree::Mcts;
