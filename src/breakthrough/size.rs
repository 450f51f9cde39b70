//! Board sizes and the masks that follow from them.

use core::fmt;

use super::{Bitboard, Color};
use crate::Error;

/// A board size, `columns x rows`, always within 2..=8 columns and 4..=8 rows.
///
/// Fewer than two columns would leave pawns with no diagonal and allow blocked positions;
/// fewer than four rows would put the two armies in contact or past each other at the start;
/// more than eight of either would not fit one `u64` per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    columns: u8,
    rows: u8,
}

impl Size {
    /// The narrowest board.
    pub const MIN_COLUMNS: u8 = 2;
    /// The widest board.
    pub const MAX_COLUMNS: u8 = 8;
    /// The lowest board.
    pub const MIN_ROWS: u8 = 4;
    /// The highest board.
    pub const MAX_ROWS: u8 = 8;
    /// The tournament board, 8x8.
    pub const STANDARD: Size = Size {
        columns: 8,
        rows: 8,
    };

    /// A `columns x rows` board, or [`Error::InvalidArgument`] outside 2..=8 columns and
    /// 4..=8 rows.
    pub const fn new_checked(columns: u8, rows: u8) -> Result<Size, Error> {
        if columns < Self::MIN_COLUMNS
            || columns > Self::MAX_COLUMNS
            || rows < Self::MIN_ROWS
            || rows > Self::MAX_ROWS
        {
            return Err(Error::InvalidArgument);
        }
        Ok(Size { columns, rows })
    }

    /// Number of columns (files), 2..=8.
    #[inline]
    pub const fn columns(self) -> u8 {
        self.columns
    }

    /// Number of rows (ranks), 4..=8.
    #[inline]
    pub const fn rows(self) -> u8 {
        self.rows
    }

    /// The cells of the board as a bitboard (bit `rank * 8 + file`).
    #[inline]
    pub const fn board_mask(self) -> u64 {
        // One row of `columns` bits copied to every row, then the rows above `rows` cut off.
        let row = (1u64 << self.columns) - 1;
        (row * Bitboard::FILE_A.bits()) >> (8 * (8 - self.rows as u32))
    }

    /// The rank a side must reach to win: the top rank for White, rank 1 for Black.
    #[inline]
    pub const fn goal_mask(self, side: Color) -> u64 {
        let row = (1u64 << self.columns) - 1;
        match side {
            Color::White => row << (8 * (self.rows as u32 - 1)),
            Color::Black => row,
        }
    }

    /// The two rows a side starts on.
    #[inline]
    pub const fn home_mask(self, side: Color) -> u64 {
        let row = (1u64 << self.columns) - 1;
        let two_rows = row | (row << 8);
        match side {
            Color::White => two_rows,
            Color::Black => two_rows << (8 * (self.rows as u32 - 2)),
        }
    }

    /// How many pawns a side starts with: two rows' worth, also the most it can ever have.
    #[inline]
    pub const fn start_pawns(self) -> u32 {
        2 * self.columns as u32
    }

    /// A dense number for the size, 0..64, used by hashing.
    #[inline]
    pub(crate) const fn index(self) -> usize {
        (self.columns as usize - 1) * 8 + (self.rows as usize - 1)
    }
}

impl Default for Size {
    fn default() -> Size {
        Size::STANDARD
    }
}

/// `6x5`: columns, `x`, rows. [`Size`] parses the same text.
impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.columns, self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_the_range() {
        for columns in 0..=10u8 {
            for rows in 0..=10u8 {
                let ok = (2..=8).contains(&columns) && (4..=8).contains(&rows);
                assert_eq!(
                    Size::new_checked(columns, rows).is_ok(),
                    ok,
                    "{columns}x{rows}"
                );
            }
        }
        assert_eq!(Size::new_checked(1, 5), Err(Error::InvalidArgument));
    }

    #[test]
    fn masks_of_a_small_and_the_largest_board() {
        let s = Size::new_checked(6, 5).unwrap();
        assert_eq!(s.board_mask(), 0x3F_3F3F_3F3F);
        assert_eq!(s.board_mask().count_ones(), 30);
        assert_eq!(s.goal_mask(Color::White), 0x3F_0000_0000);
        assert_eq!(s.goal_mask(Color::Black), 0x3F);
        assert_eq!(s.home_mask(Color::White), 0x3F3F);
        assert_eq!(s.home_mask(Color::Black), 0x3F_3F00_0000);
        let s = Size::STANDARD;
        assert_eq!(s.board_mask(), u64::MAX);
        assert_eq!(s.goal_mask(Color::White), 0xFF << 56);
        assert_eq!(s.home_mask(Color::Black), 0xFFFF << 48);
    }
}
