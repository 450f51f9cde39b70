//! [`Bitboard`]: a set of cells, and the pawn steps and masks every part of the game shares
//! (move generation, the prior, race patterns, the solvers' knowledge), written once.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::{Color, Square};

/// A set of cells of the 8x8 numbering, bit `rank * 8 + file` (a1 = bit 0, h8 = bit 63),
/// on every board size: the cells of a smaller board are a subset
/// ([`Size::board_mask`](super::Size::board_mask)).
///
/// It prints as a picture, rank 8 at the top, which is what its doctests compare against:
///
/// ```
/// use arbor::breakthrough::{Bitboard, Color, Square};
///
/// let pawns = Bitboard::from_square(Square::new(0, 1).unwrap()) // a2
///     | Bitboard::from_square(Square::new(4, 3).unwrap()); // e4
/// assert_eq!(
///     pawns.pawn_attacks(Color::White).to_string(),
///     "........\n\
///      ........\n\
///      ........\n\
///      ...X.X..\n\
///      ........\n\
///      .X......\n\
///      ........\n\
///      ........\n"
/// );
/// // The a-file pawn has no diagonal towards the left: nothing wraps around to file h.
/// assert!(!pawns.pawn_attacks(Color::White).intersects(Bitboard::FILE_H));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every cell of the 8x8 board.
    pub const FULL: Bitboard = Bitboard(u64::MAX);
    /// File a: pawns there have no diagonal towards the left.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// File h: pawns there have no diagonal towards the right. On narrower boards a rightward
    /// step lands off the board instead, and the board mask removes it.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xFF);

    /// The one-cell set of `square`.
    #[inline(always)]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(square.bit())
    }

    /// Rank `rank` (0 = rank 1), or the empty set from 8 on.
    ///
    /// ```
    /// use arbor::breakthrough::Bitboard;
    /// assert_eq!(Bitboard::rank(2), Bitboard(0xFF << 16));
    /// assert_eq!(Bitboard::rank(8), Bitboard::EMPTY);
    /// ```
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        if rank < 8 {
            Bitboard(Self::RANK_1.0 << (8 * rank))
        } else {
            Bitboard::EMPTY
        }
    }

    /// The raw bits.
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether no cell is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cells.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `square` is in the set.
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bit() != 0
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    /// The cells in both sets (`&` for `const` code).
    #[inline(always)]
    pub const fn and(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The cells in either set (`|` for `const` code).
    #[inline(always)]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// The cells of `self` not in `other`.
    #[inline(always)]
    pub const fn without(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The lowest cell, or `None` for the empty set.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        Square::from_index(self.0.trailing_zeros() as u8)
    }

    /// Every cell moved `up` bits for White or `down` bits for Black (one rank, and for
    /// 7 and 9 one file too), bits leaving the word dropping out.
    #[inline(always)]
    const fn step(self, side: Color, up: u32, down: u32) -> Bitboard {
        match side {
            Color::White => Bitboard(self.0 << up),
            Color::Black => Bitboard(self.0 >> down),
        }
    }

    /// Every cell moved one rank towards `side`'s goal (up for White, down for Black);
    /// cells stepping past rank 8 or rank 1 drop out.
    #[inline(always)]
    pub const fn forward(self, side: Color) -> Bitboard {
        self.step(side, 8, 8)
    }

    /// Every cell moved one rank towards `side`'s own first rank: the inverse of
    /// [`forward`](Self::forward) for the cells that stay on the board.
    #[inline(always)]
    pub const fn backward(self, side: Color) -> Bitboard {
        self.step(side.other(), 8, 8)
    }

    /// Every cell moved one rank towards `side`'s goal and one file towards file a; cells
    /// on file a drop out rather than wrap around.
    #[inline(always)]
    pub const fn forward_left(self, side: Color) -> Bitboard {
        self.without(Self::FILE_A).step(side, 7, 9)
    }

    /// Every cell moved one rank towards `side`'s goal and one file towards file h; cells
    /// on file h drop out rather than wrap around.
    #[inline(always)]
    pub const fn forward_right(self, side: Color) -> Bitboard {
        self.without(Self::FILE_H).step(side, 9, 7)
    }

    /// The cells that pawns of `side` standing on `self` attack: diagonally forward, where
    /// they could capture next ply (not clipped to a smaller board).
    #[inline(always)]
    pub const fn pawn_attacks(self, side: Color) -> Bitboard {
        self.forward_left(side).or(self.forward_right(side))
    }

    /// Undoes [`forward_left`](Self::forward_left) for a set whose cells all came from it:
    /// where pawns of `side` stood that step there.
    #[inline(always)]
    pub const fn back_from_left(self, side: Color) -> Bitboard {
        self.step(side.other(), 9, 7)
    }

    /// Undoes [`forward_right`](Self::forward_right) for a set whose cells all came from it.
    #[inline(always)]
    pub const fn back_from_right(self, side: Color) -> Bitboard {
        self.step(side.other(), 7, 9)
    }

    /// The cells, lowest first.
    ///
    /// ```
    /// use arbor::breakthrough::{Bitboard, Square};
    /// let cells: Vec<Square> = Bitboard(0x8000_0000_0000_0201).squares().collect();
    /// assert_eq!(cells, [0, 9, 63].map(|i| Square::from_index(i).unwrap()));
    /// ```
    #[inline(always)]
    pub const fn squares(self) -> Squares {
        Squares(self.0)
    }
}

/// The cells of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let square = Bitboard(self.0).first()?;
        self.0 &= self.0 - 1;
        Some(square)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        self.squares()
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, other: Bitboard) -> Bitboard {
        self.and(other)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, other: Bitboard) -> Bitboard {
        self.or(other)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ other.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, other: Bitboard) {
        self.0 &= other.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, other: Bitboard) {
        self.0 |= other.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, other: Bitboard) {
        self.0 ^= other.0;
    }
}

/// Eight lines of eight cells, rank 8 first: `X` for a cell in the set, `.` otherwise.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let inside = Square::new(file, rank).is_some_and(|square| self.contains(square));
                f.write_str(if inside { "X" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        let b = text.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1').unwrap()
    }

    fn set(cells: &[&str]) -> Bitboard {
        cells
            .iter()
            .fold(Bitboard::EMPTY, |acc, &c| acc | sq(c).into())
    }

    #[test]
    fn steps_of_both_sides_never_wrap() {
        let edge = set(&["a4", "h4", "d1", "d8"]);
        assert_eq!(edge.forward(Color::White), set(&["a5", "h5", "d2"]));
        assert_eq!(edge.forward(Color::Black), set(&["a3", "h3", "d7"]));
        assert_eq!(edge.backward(Color::White), edge.forward(Color::Black));
        assert_eq!(edge.forward_left(Color::White), set(&["g5", "c2"]));
        assert_eq!(edge.forward_right(Color::White), set(&["b5", "e2"]));
        assert_eq!(edge.forward_left(Color::Black), set(&["g3", "c7"]));
        assert_eq!(edge.forward_right(Color::Black), set(&["b3", "e7"]));
        assert_eq!(
            edge.pawn_attacks(Color::Black),
            set(&["g3", "c7", "b3", "e7"])
        );
        // Every single cell, both sides: a step back undoes the step.
        for index in 0..64 {
            let one = Bitboard::from_square(Square::from_index(index).unwrap());
            for side in [Color::White, Color::Black] {
                let left = one.forward_left(side);
                let right = one.forward_right(side);
                assert!(left.count() <= 1 && right.count() <= 1);
                if !left.is_empty() {
                    assert_eq!(left.back_from_left(side), one);
                }
                if !right.is_empty() {
                    assert_eq!(right.back_from_right(side), one);
                }
                assert!(!(left | right).intersects(one.forward(side)));
            }
        }
    }

    #[test]
    fn sets_iterate_count_and_print() {
        let cells = set(&["h8", "a1", "c3"]);
        assert_eq!(cells.count(), 3);
        assert_eq!(cells.squares().len(), 3);
        let mut seen = heapless::Vec::<Square, 64>::new();
        for square in cells {
            seen.push(square).unwrap();
        }
        assert_eq!(&seen[..], &[sq("a1"), sq("c3"), sq("h8")]);
        assert_eq!(Bitboard::EMPTY.first(), None);
        assert_eq!(Bitboard::EMPTY.squares().next(), None);
        assert!(cells.contains(sq("c3")) && !cells.contains(sq("c4")));
        assert_eq!(
            cells.without(Bitboard::FILE_A | Bitboard::FILE_H),
            set(&["c3"])
        );
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert_eq!(cells ^ cells, Bitboard::EMPTY);
        assert_eq!(
            crate::breakthrough::text_of(cells),
            ".......X\n........\n........\n........\n........\n..X.....\n........\nX.......\n"
        );
        assert_eq!(
            crate::breakthrough::text_of(format_args!("{:?}", Bitboard::RANK_1)),
            "Bitboard(0x00000000000000ff)"
        );
    }
}
