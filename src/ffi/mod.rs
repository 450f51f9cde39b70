//! The C ABI. Each file covers one area and stays thin: it checks pointers and sizes,
//! converts, and calls the core. Nothing here panics; every entry returns a status.
//!
//! Ownership rule for the whole ABI: arbor never keeps a pointer it was given past the
//! call, and never frees memory it did not allocate (it allocates none).

mod breakthrough;
mod holdem;
mod match3;
mod mcts;
mod playtest;
mod solve;
mod status;
mod text;

pub use breakthrough::*;
pub use holdem::*;
pub use match3::*;
pub use mcts::*;
pub use playtest::*;
pub use solve::*;
pub use status::*;
