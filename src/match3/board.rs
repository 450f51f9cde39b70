//! The Match-3 board: one `u64` bitboard per colour plus a mailbox of colours, line and
//! group detection with shifts and masks, legal swaps as two bit masks, and the swap itself.
//!
//! Cells are numbered `row * 8 + column` whatever the width (row 0 at the bottom), so a
//! step right is a shift by 1 and a step up a shift by 8; bits outside the board are always
//! clear in every colour board, which is what keeps the shifts from matching across edges
//! together with the column masks below.
use core::fmt;

use crate::Error;

/// Largest width and height.
pub const MAX_SIDE: u8 = 8;
/// Smallest width and height.
pub const MIN_SIDE: u8 = 3;
/// Fewest colours.
pub const MIN_COLOURS: u8 = 3;
/// Most colours (one bitboard each).
pub const MAX_COLOURS: u8 = 8;
/// Mailbox value of an empty cell (only while a cascade is resolved).
pub(crate) const EMPTY: u8 = 0xFF;

/// Cells of columns 0..=5: where a run of three starting at the cell stays in its row.
const COLS_0_5: u64 = 0x3F3F_3F3F_3F3F_3F3F;
/// Cells of columns 2..=7.
const COLS_2_7: u64 = 0xFCFC_FCFC_FCFC_FCFC;
/// Cells of columns 1..=6.
const COLS_1_6: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// Cells of columns 1..=7 and 0..=6.
const NOT_COL_0: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_COL_7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// Cells with column < `cols` and row < `rows`: the row pattern copied into each of the
/// lowest `rows` bytes by one multiplication (no carries: every byte holds at most 0xFF).
pub(crate) const fn rect(cols: u8, rows: u8) -> u64 {
    let row = if cols >= 8 { 0xFF } else { (1u64 << cols) - 1 };
    let rows = if rows >= 8 {
        u64::MAX
    } else {
        (1u64 << (rows as u32 * 8)) - 1
    };
    (0x0101_0101_0101_0101 & rows) * row
}

/// Horizontal and vertical lines (runs of three or more) of one colour board:
/// `(cells in a horizontal line, cells in a vertical line)`.
///
/// ```text
/// . . . .      h3 marks the first cell of every run of three (b & b>>1 & b>>2 inside a row);
/// A A A A      the line is h3 | h3<<1 | h3<<2: here all four A
/// ```
#[inline]
pub(crate) fn lines(b: u64) -> (u64, u64) {
    let h3 = b & (b >> 1) & (b >> 2) & COLS_0_5;
    let v3 = b & (b >> 8) & (b >> 16);
    (h3 | (h3 << 1) | (h3 << 2), v3 | (v3 << 8) | (v3 << 16))
}

/// The group containing `seed`: cells joined along a horizontal line (within `h`) or a
/// vertical line (within `v`). Two lines belong to one group when they share a cell (an L,
/// T or cross); parallel lines that only lie side by side stay separate groups.
#[inline]
pub(crate) fn group(seed: u64, h: u64, v: u64) -> u64 {
    let mut g = seed;
    loop {
        let gh = g & h;
        let gv = g & v;
        let grown = g
            | ((((gh << 1) & NOT_COL_0) | ((gh >> 1) & NOT_COL_7)) & h)
            | (((gv << 8) | (gv >> 8)) & v);
        if grown == g {
            return g;
        }
        g = grown;
    }
}

/// Points and cells of the lines in `boards`, one colour board each (see
/// [`Board::score_lines`]).
fn score_boards(boards: &[u64]) -> (u32, u64) {
    let mut points = 0;
    let mut removed = 0;
    for &b in boards {
        let (h, v) = lines(b);
        let mut rest = h | v;
        removed |= rest;
        while rest != 0 {
            let g = group(rest & rest.wrapping_neg(), h, v);
            rest &= !g;
            points += group_points(g.count_ones());
        }
    }
    (points, removed)
}

/// Points of a group of `k` distinct cells before the multiplier: k × (20 + 10·(k − 3));
/// 0 for fewer than three cells (no group).
pub const fn group_points(k: u32) -> u32 {
    if k < 3 {
        return 0;
    }
    k.saturating_mul(20 + 10 * (k - 3))
}

/// A swap of two orthogonally adjacent cells, stored in one byte: the lower or left cell's
/// index (`row * 8 + col`) and bit 6 set for a vertical swap (with the cell above) or clear
/// for a horizontal one (with the cell to the right). Written `d4-d5` (column letter, row
/// number from 1 at the bottom).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Swap(u8);

impl Swap {
    const VERTICAL: u8 = 0x40;

    /// The swap of `(col, row)` with its right neighbour, or with the cell above if
    /// `vertical`. `None` when a coordinate is above 7 or the other cell is off an 8x8 grid.
    pub const fn new(col: u8, row: u8, vertical: bool) -> Option<Swap> {
        if col >= 8 || row >= 8 || (vertical && row == 7) || (!vertical && col == 7) {
            return None;
        }
        Some(Swap(
            row * 8 + col + if vertical { Self::VERTICAL } else { 0 },
        ))
    }

    /// The swap of two cells given in either order; `None` unless they are adjacent.
    pub const fn between(a: (u8, u8), b: (u8, u8)) -> Option<Swap> {
        let (lo, hi) = if a.1 < b.1 || (a.1 == b.1 && a.0 <= b.0) {
            (a, b)
        } else {
            (b, a)
        };
        if lo.1 == hi.1 && lo.0 + 1 == hi.0 {
            Swap::new(lo.0, lo.1, false)
        } else if lo.0 == hi.0 && lo.1 + 1 == hi.1 {
            Swap::new(lo.0, lo.1, true)
        } else {
            None
        }
    }

    /// The byte encoding (the C ABI's move code).
    pub const fn code(self) -> u8 {
        self.0
    }

    /// The swap of a byte encoding; `None` for a byte no swap has.
    pub const fn from_code(code: u8) -> Option<Swap> {
        if code & 0x80 != 0 {
            return None;
        }
        let cell = code & 0x3F;
        Swap::new(cell % 8, cell / 8, code & Self::VERTICAL != 0)
    }

    /// Index (`row * 8 + col`) of the lower or left cell.
    pub const fn cell(self) -> u8 {
        self.0 & 0x3F
    }

    /// Whether the swap is vertical.
    pub const fn is_vertical(self) -> bool {
        self.0 & Self::VERTICAL != 0
    }

    /// `(col, row)` of the lower or left cell.
    pub const fn from(self) -> (u8, u8) {
        (self.cell() % 8, self.cell() / 8)
    }

    /// `(col, row)` of the other cell.
    pub const fn to(self) -> (u8, u8) {
        let (c, r) = self.from();
        if self.is_vertical() {
            (c, r + 1)
        } else {
            (c + 1, r)
        }
    }

    /// Parses `d4-d5` (either order, letters of either case).
    pub fn parse(text: &str) -> Result<Swap, Error> {
        let (a, b) = text.trim().split_once('-').ok_or(Error::Parse)?;
        Swap::between(parse_cell(a)?, parse_cell(b)?).ok_or(Error::Parse)
    }
}

/// Parses a cell such as `d4` into `(col, row)`.
pub fn parse_cell(text: &str) -> Result<(u8, u8), Error> {
    let bytes = text.trim().as_bytes();
    let [letter, digit] = bytes else {
        return Err(Error::Parse);
    };
    let col = letter.to_ascii_lowercase().wrapping_sub(b'a');
    let row = digit.wrapping_sub(b'1');
    if col < 8 && row < 8 {
        Ok((col, row))
    } else {
        Err(Error::Parse)
    }
}

impl fmt::Display for Swap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (c0, r0) = self.from();
        let (c1, r1) = self.to();
        write!(
            f,
            "{}{}-{}{}",
            char::from(b'a' + c0),
            r0 + 1,
            char::from(b'a' + c1),
            r1 + 1
        )
    }
}

/// A board: size, colours, the colour of every cell (mailbox) and one bitboard per colour.
/// The two views always agree outside a cascade in progress.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    width: u8,
    height: u8,
    colours: u8,
    cells: [u8; 64],
    bits: [u64; MAX_COLOURS as usize],
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Rows top first, one letter per cell (`A` = colour 0), `.` for an empty cell.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                let c = self.cells[usize::from(row * 8 + col)];
                let ch = if c == EMPTY {
                    '.'
                } else {
                    char::from(b'A' + c)
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    /// A board of the given size and colours with every cell of colour 0 (a starting point
    /// for [`Board::set`]). Fails with `Error::InvalidArgument` outside 3..=8.
    pub fn filled(width: u8, height: u8, colours: u8) -> Result<Board, Error> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width)
            || !(MIN_SIDE..=MAX_SIDE).contains(&height)
            || !(MIN_COLOURS..=MAX_COLOURS).contains(&colours)
        {
            return Err(Error::InvalidArgument);
        }
        Ok(Board::filled_clamped(width, height, colours))
    }

    /// Like [`Board::filled`], with sizes and colours clamped into range (levels are
    /// validated when built, so this never changes them).
    pub(crate) fn filled_clamped(width: u8, height: u8, colours: u8) -> Board {
        let w = width.clamp(MIN_SIDE, MAX_SIDE);
        let h = height.clamp(MIN_SIDE, MAX_SIDE);
        let c = colours.clamp(MIN_COLOURS, MAX_COLOURS);
        let mut board = Board {
            width: w,
            height: h,
            colours: c,
            cells: [EMPTY; 64],
            bits: [0; MAX_COLOURS as usize],
        };
        for i in 0..64u8 {
            if rect(w, h) & (1u64 << i) != 0 {
                board.cells[usize::from(i)] = 0;
            }
        }
        board.bits[0] = rect(w, h);
        board
    }

    /// Parses rows top first, one letter per cell (`A` = colour 0), separated by newlines or
    /// `/`. Fails with `Error::Parse` on a wrong letter or shape.
    pub fn parse(text: &str, colours: u8) -> Result<Board, Error> {
        let rows = || {
            text.split(['\n', '/'])
                .map(str::trim)
                .filter(|r| !r.is_empty())
        };
        let height = rows().count();
        let width = rows().next().map_or(0, str::len);
        let (Ok(height), Ok(width)) = (u8::try_from(height), u8::try_from(width)) else {
            return Err(Error::Parse);
        };
        let mut board = Board::filled(width, height, colours).map_err(|_| Error::Parse)?;
        for (i, line) in rows().enumerate() {
            if line.len() != usize::from(width) {
                return Err(Error::Parse);
            }
            let row = height - 1 - i as u8;
            for (col, byte) in line.bytes().enumerate() {
                let colour = byte.to_ascii_uppercase().wrapping_sub(b'A');
                if colour >= colours {
                    return Err(Error::Parse);
                }
                board.set(col as u8, row, colour);
            }
        }
        Ok(board)
    }

    /// Width in cells.
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Height in cells.
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// Number of colours.
    pub const fn colours(&self) -> u8 {
        self.colours
    }

    /// Colour of `(col, row)`, `None` off the board.
    pub fn get(&self, col: u8, row: u8) -> Option<u8> {
        if col < self.width && row < self.height {
            Some(self.cells[usize::from(row * 8 + col)])
        } else {
            None
        }
    }

    /// Sets `(col, row)` to `colour`; ignored off the board or for a colour out of range.
    pub fn set(&mut self, col: u8, row: u8, colour: u8) {
        if col >= self.width || row >= self.height || colour >= self.colours {
            return;
        }
        let i = usize::from(row * 8 + col);
        let old = self.cells[i];
        if old != EMPTY {
            self.bits[usize::from(old)] &= !(1u64 << i);
        }
        self.cells[i] = colour;
        self.bits[usize::from(colour)] |= 1u64 << i;
    }

    /// The bitboard of `colour` (0 for a colour out of range).
    pub fn colour_bits(&self, colour: u8) -> u64 {
        self.bits.get(usize::from(colour)).copied().unwrap_or(0)
    }

    /// Cells on the board.
    pub const fn mask(&self) -> u64 {
        rect(self.width, self.height)
    }

    /// Number of adjacent pairs, the most legal swaps a board of this size can have.
    pub const fn swap_slots(&self) -> u32 {
        let (w, h) = (self.width as u32, self.height as u32);
        (w - 1) * h + w * (h - 1)
    }

    pub(crate) fn cells_mut(&mut self) -> &mut [u8; 64] {
        &mut self.cells
    }

    /// Cells that are part of a line of three or more now.
    pub fn matched(&self) -> u64 {
        let mut all = 0;
        for &b in &self.bits[..usize::from(self.colours)] {
            let (h, v) = lines(b);
            all |= h | v;
        }
        all
    }

    /// Legal swaps as two masks `(horizontal, vertical)`, each indexed by the swap's lower or
    /// left cell. A swap is legal when the colour moved into either cell completes a line
    /// there using cells other than the one it came from.
    ///
    /// For a colour board `b`, the patterns that complete a line at a cell P are: two to the
    /// left (`l2`), two to the right (`r2`), one on each side (`hm`), and the same vertically
    /// (`d2`, `u2`, `vm`). A colour arriving from the right may use every pattern but `r2`
    /// and `hm` (they include its old cell), and so on for each direction.
    pub fn legal_masks(&self) -> (u64, u64) {
        let mut hl = 0u64;
        let mut vl = 0u64;
        for &b in &self.bits[..usize::from(self.colours)] {
            let l2 = (b << 1) & (b << 2) & COLS_2_7;
            let r2 = (b >> 1) & (b >> 2) & COLS_0_5;
            let hm = (b << 1) & (b >> 1) & COLS_1_6;
            let d2 = (b << 8) & (b << 16);
            let u2 = (b >> 8) & (b >> 16);
            let vm = (b << 8) & (b >> 8);
            let vertical = d2 | u2 | vm;
            // Horizontal swap of P and P+1: the colour of P+1 into P, or of P into P+1.
            hl |= ((b >> 1) & (l2 | vertical)) | (b & ((r2 | vertical) >> 1));
            // Vertical swap of P and P+8: the colour of P+8 into P, or of P into P+8.
            let horizontal = l2 | r2 | hm;
            vl |= ((b >> 8) & (d2 | horizontal)) | (b & ((u2 | horizontal) >> 8));
        }
        let h_mask = rect(self.width - 1, self.height);
        let v_mask = rect(self.width, self.height - 1);
        (hl & h_mask, vl & v_mask)
    }

    /// Number of legal swaps.
    pub fn legal_count(&self) -> u32 {
        let (h, v) = self.legal_masks();
        h.count_ones() + v.count_ones()
    }

    /// Exchanges the two cells of `swap` (no legality check; ignored off the board).
    /// Returns the two colours exchanged, `None` if nothing changed.
    pub(crate) fn exchange(&mut self, swap: Swap) -> Option<[u8; 2]> {
        let (c0, r0) = swap.from();
        let (c1, r1) = swap.to();
        if c1 >= self.width || r1 >= self.height {
            return None;
        }
        let (i, j) = (usize::from(r0 * 8 + c0), usize::from(r1 * 8 + c1));
        let (a, b) = (self.cells[i], self.cells[j]);
        if a == b || a == EMPTY || b == EMPTY {
            return None;
        }
        let both = (1u64 << i) | (1u64 << j);
        self.bits[usize::from(a)] ^= both;
        self.bits[usize::from(b)] ^= both;
        self.cells.swap(i, j);
        Some([a, b])
    }

    /// Finds every line, scores its groups and returns `(points before the multiplier,
    /// cells to remove)`; `(0, 0)` when the board is stable.
    pub(crate) fn score_lines(&self) -> (u32, u64) {
        score_boards(&self.bits[..usize::from(self.colours)])
    }

    /// [`Board::score_lines`] just after [`Board::exchange`] swapped `colours` on a stable
    /// board: a new line runs through a swapped cell, so only those two colours can hold one.
    pub(crate) fn score_swap(&self, colours: [u8; 2]) -> (u32, u64) {
        let [a, b] = colours.map(|c| self.colour_bits(c));
        score_boards(&[a, b])
    }

    /// Empties `removed` and lets the cells above fall: each column is compacted downwards
    /// and `draw(col)` gives the new cells of a column bottom-most first.
    pub(crate) fn collapse(&mut self, removed: u64, mut draw: impl FnMut(u8) -> u8) {
        for col in 0..self.width {
            let col_mask = 0x0101_0101_0101_0101u64 << col;
            let gone = removed & col_mask;
            if gone == 0 {
                continue;
            }
            // Cells below the lowest removed one stay where they are.
            let first = (gone.trailing_zeros() / 8) as u8;
            let mut write = first;
            for row in first..self.height {
                let i = row * 8 + col;
                if removed & (1u64 << i) == 0 {
                    self.cells[usize::from(write * 8 + col)] = self.cells[usize::from(i)];
                    write += 1;
                }
            }
            for row in write..self.height {
                let colour = draw(col);
                let colour = if colour < self.colours { colour } else { 0 };
                self.cells[usize::from(row * 8 + col)] = colour;
            }
            // Rebuild the changed part of this column in every colour board.
            let changed = col_mask & (u64::MAX << (u32::from(first) * 8));
            for b in &mut self.bits[..usize::from(self.colours)] {
                *b &= !changed;
            }
            for row in first..self.height {
                let i = row * 8 + col;
                let colour = self.cells[usize::from(i)];
                self.bits[usize::from(colour)] |= 1u64 << i;
            }
        }
    }

    /// Rebuilds the bitboards from the mailbox (after a reshuffle).
    pub(crate) fn rebuild(&mut self) {
        self.bits = [0; MAX_COLOURS as usize];
        for row in 0..self.height {
            for col in 0..self.width {
                let i = row * 8 + col;
                let colour = self.cells[usize::from(i)];
                if colour < self.colours {
                    self.bits[usize::from(colour)] |= 1u64 << i;
                }
            }
        }
    }
}
