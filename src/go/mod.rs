//! Go (issue 16): the rules on boards from 5x5 to 19x19, text (GTP vertices, diagrams, SGF),
//! playout policies and the MoGo 3x3 patterns. no_std and allocation-free, like every game.

pub mod patterns;
pub mod sgf;
pub mod vertex;

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other colour.
    pub const fn opponent(self) -> Self {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the player number the search core uses.
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

pub mod board;
pub mod diagram;
pub mod game;
pub mod gtp;
mod ladder;
pub mod mogo;
pub mod player;
pub mod playout;
pub mod prior;
pub mod status;
mod tactics;
mod zobrist;

pub use board::{
    Board, DEFAULT_KOMI, MAX_SIZE, MIN_SIZE, Move, PlayError, Point, Score, SetupError,
};
pub use game::GoGame;
pub use mogo::{MogoConfig, MogoPlayouts, MogoPolicy, mogo_playout};
pub use playout::{LightPlayouts, Playout, light_playout};
pub use prior::GoPriors;

#[cfg(test)]
mod tests;
