//! Monte-Carlo tree search, generic over games, in caller-provided storage.

mod game;
mod node;

pub use game::{Game, random_index, seeded_rng};
pub use node::{
    MAX_CAPACITY, Node, Proof, capacity_for_bytes, node_align, node_size, storage_bytes,
};
