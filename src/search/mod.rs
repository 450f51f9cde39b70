//! Search algorithms that are generic over games, all on one game interface ([`game`]). No
//! game is named here.

pub mod cfr;
pub mod game;
pub mod mcts;
pub mod proof;

pub use game::{
    Bounded, Game, Hidden, Knowledge, MoveIndex, Ply, Prior, PriorSink, ProofHint, ProofHints, Turn,
};
