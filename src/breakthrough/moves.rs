//! Squares, moves and move lists.

use core::fmt;

/// A cell of the largest (8x8) board: `rank * 8 + file`, a1 = 0, b1 = 1, a2 = 8, h8 = 63.
///
/// The numbering does not depend on the board size; whether a square lies on a given board
/// is [`Size::board_mask`](super::Size::board_mask)'s business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1), or `None` past 8x8.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square numbered `index` (`rank * 8 + file`), or `None` from 64 on.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The lowest set bit of a non-empty bitboard (bit 0 for an empty one).
    #[inline(always)]
    pub(crate) const fn from_bit(bit: u64) -> Square {
        Square((bit.trailing_zeros() & 63) as u8)
    }

    /// `rank * 8 + file`, 0..64.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 0 for file a … 7 for file h.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 for rank 1 … 7 for rank 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square as a one-bit bitboard.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
}

/// `a1` … `h8`.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A move: from-square, to-square and whether it captures, packed in 16 bits
/// (bits 0–5 from, 6–11 to, 12 capture), so search trees can store one per node cheaply.
///
/// The capture flag is part of the move because the text marks it (`b4xa3` against
/// `a2-a3`), so a move prints without its position. A move is legal in a position only if
/// the flag matches what is on the to-square.
///
/// `Move::default()` is `a1-a1`, never legal: the placeholder a search tree stores in its
/// root node.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    const CAPTURE: u16 = 1 << 12;

    /// The move `from` → `to`, capturing if `capture`.
    #[inline]
    pub const fn new(from: Square, to: Square, capture: bool) -> Move {
        let flag = if capture { Self::CAPTURE } else { 0 };
        Move(from.0 as u16 | (to.0 as u16) << 6 | flag)
    }

    /// The square the pawn leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// The square the pawn arrives on.
    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    /// Whether the move takes an enemy pawn.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.0 & Self::CAPTURE != 0
    }

    /// The packed form, for storage and the C ABI.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// The move packed as [`Move::to_u16`] does, or `None` if bits 13–15 are set.
    #[inline]
    pub const fn from_u16(raw: u16) -> Option<Move> {
        if raw >> 13 == 0 {
            Some(Move(raw))
        } else {
            None
        }
    }
}

/// `a2-a3`, or `b4xa3` for a capture.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{}{}", self.from(), mark, self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// The most legal moves a position can have: 48.
///
/// A side never has more pawns than its two starting rows hold (pawns are only ever
/// removed, and [`Position`](super::Position) refuses more), so at most 16 on 8x8, and each
/// pawn has at most three moves: 16 × 3 = 48. The bound is reached, for example by sixteen
/// white pawns on files b–g of ranks 1, 3 and 5 with ranks 2, 4 and 6 empty.
pub const MAX_MOVES: usize = 48;

/// A bounded list of moves that needs no allocator; see [`MAX_MOVES`] for why 48 suffice.
/// The length is a `u8` to keep the list small (under 100 bytes).
pub type MoveList = heapless::Vec<Move, MAX_MOVES, u8>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::text_of;

    #[test]
    fn squares_and_moves_pack_and_print() {
        let b4 = Square::new(1, 3).unwrap();
        let a3 = Square::new(0, 2).unwrap();
        assert_eq!(b4.index(), 25);
        assert_eq!((b4.file(), b4.rank()), (1, 3));
        assert_eq!(text_of(b4), "b4");
        assert_eq!(Square::new(8, 0), None);
        assert_eq!(Square::from_index(64), None);
        assert_eq!(text_of(Square::from_index(63).unwrap()), "h8");
        let capture = Move::new(b4, a3, true);
        assert_eq!(text_of(capture), "b4xa3");
        assert_eq!((capture.from(), capture.to()), (b4, a3));
        assert!(capture.is_capture());
        let quiet = Move::new(a3, b4, false);
        assert_eq!(text_of(quiet), "a3-b4");
        assert_eq!(Move::from_u16(capture.to_u16()), Some(capture));
        assert_eq!(Move::from_u16(1 << 13), None);
        assert_eq!(core::mem::size_of::<Move>(), 2);
    }
}
