//! Search algorithms that are generic over games. No game is named here.

pub mod mcts;
pub mod proof;
