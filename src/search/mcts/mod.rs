//! Monte-Carlo tree search, generic over games, in caller-provided storage.

mod game;
mod node;
mod policy;

pub use game::{Game, random_index, seeded_rng};
pub use node::{
    MAX_CAPACITY, Node, Proof, capacity_for_bytes, node_align, node_size, storage_bytes,
};
pub use policy::{
    ChildStats, Formula, FormulaPolicy, MoGo, Needs, Policy, Rave, Selection, Ucb1, rave_beta,
};
