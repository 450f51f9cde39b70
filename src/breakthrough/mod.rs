//! Breakthrough on bitboards: any board from 2x4 to 8x8.
//!
//! # Rules
//!
//! A board `CxR` has `C` columns (files `a`, `b`, …) and `R` rows (ranks `1`…`R`); `6x5` is
//! six wide and five high. Each side starts with two full rows: White owns ranks 1–2, moves
//! first and advances towards rank `R`; Black owns the top two ranks and advances towards
//! rank 1. A pawn moves one rank forward, straight onto an empty cell or diagonally onto a
//! cell that is empty or holds an enemy pawn (which is captured). Captures are optional. A
//! side wins when one of its pawns reaches the far rank or when it captures the last enemy
//! pawn; a game that has ended is not continued.
//!
//! On boards at least two wide the side to move always has a move while the game goes on
//! (its most advanced pawn can always step diagonally), so there are no draws and no passes.
//!
//! # Layout
//!
//! A [`Position`] holds one `u64` per side with bit `rank * 8 + file` (a1 = bit 0, b1 = bit 1,
//! a2 = bit 8), whatever the board size. The fixed stride of 8 keeps the three move
//! directions constant shifts (8 straight, 7 and 9 diagonally) that compile to immediates,
//! the file masks constant ([`Bitboard::FILE_A`], [`Bitboard::FILE_H`]), and square numbers independent of the
//! board size, so text, hashing and tables share one numbering. Cells outside a smaller
//! board are simply never set; one board mask per size clips the shifts.
//!
//! # Text
//!
//! A position is its ranks from the top, `W`, `B` or `.` per cell, separated by `/`, then a
//! space and the side to move (`w` or `b`):
//!
//! ```
//! use arbor::breakthrough::{Position, Size};
//!
//! let start = Position::start(Size::new_checked(5, 5).unwrap());
//! assert_eq!(start.to_string(), "BBBBB/BBBBB/...../WWWWW/WWWWW w");
//! let parsed: Position = "BBBBB/BBBBB/...../WWWWW/WWWWW w".parse().unwrap();
//! assert_eq!(parsed, start);
//! ```
//!
//! A move is `a2-a3`, or `b4xa3` for a capture. Printing always gives back the parsed text.
//!
//! # Playing
//!
//! ```
//! use arbor::breakthrough::{Color, MoveList, Position, Size};
//! use rand_core::SeedableRng;
//! use rand_xorshift::XorShiftRng;
//!
//! let mut position = Position::start(Size::STANDARD);
//! let mut moves = MoveList::new();
//! position.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 22);
//! position.try_play("c2-c3".parse().unwrap()).unwrap();
//! assert_eq!(position.side_to_move(), Color::Black);
//! assert!(position.try_play("c3-c4".parse().unwrap()).is_err()); // Black's turn
//!
//! // A uniformly random game to the end, reproducible from the seed.
//! let game = position.random_playout(&mut XorShiftRng::seed_from_u64(1));
//! assert!(game.plies > 0);
//! ```

// cbindgen reads the whole crate and would copy every public constant here into
// include/arbor.h; the C ABI exposes this module through src/ffi instead.
/// cbindgen:ignore
mod bitboard;
/// cbindgen:ignore
mod bits;
/// cbindgen:ignore
mod bytes;
/// cbindgen:ignore
mod kernel;
/// cbindgen:ignore
mod mcts;
/// cbindgen:ignore
mod moves;
/// cbindgen:ignore
mod perft;
/// cbindgen:ignore
mod playout;
/// cbindgen:ignore
mod position;
/// cbindgen:ignore
pub mod race;
/// cbindgen:ignore
mod rules;
/// cbindgen:ignore
mod size;
/// cbindgen:ignore
mod solve;
/// cbindgen:ignore
mod text;
/// cbindgen:ignore
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use bytes::DecodeError;
pub use mcts::{Heuristics, MAX_PLIES, Player, PlayerKind, prior};
pub use moves::{MAX_MOVES, Move, MoveList, Square};
pub use perft::PerftStats;
pub use playout::Playout;
pub use position::{IllegalMove, InvalidPosition, Position};
pub use size::Size;
pub use solve::WithRacePatterns;
pub use text::{ParseError, ParseErrorKind};

/// One of the two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Starts on ranks 1–2, moves first, advances towards the last rank.
    White = 0,
    /// Starts on the top two ranks, advances towards rank 1.
    Black = 1,
}

impl Color {
    /// The opponent.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for White, `1` for Black: an index for per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Whether the game goes on, and who won if not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Status {
    /// The side to move has at least one legal move.
    Ongoing = 0,
    /// White reached the last rank or captured the last black pawn.
    WhiteWon = 1,
    /// Black reached rank 1 or captured the last white pawn.
    BlackWon = 2,
}

impl Status {
    /// The winner, or `None` while the game goes on.
    #[inline]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Status::Ongoing => None,
            Status::WhiteWon => Some(Color::White),
            Status::BlackWon => Some(Color::Black),
        }
    }

    /// `true` once someone has won.
    #[inline]
    pub const fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }

    /// The status that says `color` has won.
    #[inline]
    pub const fn won_by(color: Color) -> Status {
        match color {
            Color::White => Status::WhiteWon,
            Color::Black => Status::BlackWon,
        }
    }
}

/// Prints a value into a fixed buffer, so tests need neither `std` nor an allocator.
#[cfg(test)]
pub(crate) fn text_of(value: impl core::fmt::Display) -> heapless::String<128> {
    let mut out = heapless::String::new();
    core::fmt::Write::write_fmt(&mut out, format_args!("{value}")).unwrap();
    out
}
