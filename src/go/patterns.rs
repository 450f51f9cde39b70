//! The MoGo 3x3 patterns (Gelly, Wang, Munos, Teytaud 2006) as a board-independent lookup
//! table, for the playout policy of issue 16 (the MoGo implementation notes, sections 3.2 and 3.3).
//!
//! # The encoding
//!
//! A point's neighbourhood is a `u16` *code*: its 8 neighbours, 2 bits each, relative to the
//! player to move. Neighbour `NW` sits in bits 0-1, then `N`, `NE`, `W`, `E`, `SW`, `S`, `SE`
//! up to bits 14-15 ([`SHIFT_NW`] ... [`SHIFT_SE`]); each field holds a [`Cell`]: 0 empty,
//! 1 a stone of the mover, 2 a stone of the opponent, 3 off the board. The centre, the
//! candidate move, is not encoded (it is empty). The order is reading order, so the
//! neighbour opposite the one at shift `s` is at shift `14 - s`: when a stone lands on `p`,
//! `p` is the `SE` neighbour of its `NW` neighbour, and so on.
//!
//! # The patterns and how the notation is read
//!
//! The source of the table is `PATTERNS`, the pictures of the notes written as strings:
//! `X` and `O` the two colours, `.` empty, `?` anything (including off the board), `x`
//! "`X` or empty" and `o` "`O` or empty", `#` off the board (the edge patterns' lower row).
//! Reading: lowercase letters exclude off-board cells (Fuego's convention, which the notes
//! follow, not Pachi's); the choice changes no answer, since interior patterns only apply
//! where no neighbour is off board and the edge patterns' lowercase cells lie on the first
//! line. A pattern matches in all 8 orientations, with either colour playing `X` unless it
//! names the side to move (hane 4, edge 3, 4 and 5). Cut 1 matches when its picture matches
//! and none of its two "already answered" pictures matches (in any orientation; reading the
//! rule per orientation gives the same answers, a test checks it). A point on the first line
//! (exactly one side of the window off the board) is tested against the edge patterns only;
//! a point in the middle against the others only; a corner point (or any code no board can
//! produce, such as a single off-board neighbour) matches nothing. Hane 3's diagonal is `X`
//! as the notes' figure shows (Fuego also accepts `O` there).
//!
//! The 65,536 answers are a 1,024-word bit table (8 KiB) that a `const fn` expands from
//! `PATTERNS` at compile time; a test compares it with a direct reading of the pictures.
//!
//! # How a board calls it
//!
//! Keep, per point of a padded 1-D board, the code of its neighbourhood with Black as the
//! mover (1 Black, 2 White, 3 border), updated as stones come and go with [`with_cell`];
//! for White to move, [`swap_colours`] turns it into White's code. The table is closed under
//! the 8 symmetries, so any rigid reading of the window (say, north = the row of lower
//! indices) will do. MoGo's playout rule is then: for each empty point among the 8 around
//! the opponent's last move, play uniformly among those with `is_mogo_pattern(code)`.
//!
//! ```
//! use arbor::go::patterns::{is_mogo_pattern, neighbourhood_code, Cell::*};
//! // Hane:  X O X     (X = the mover here; the centre is the candidate move)
//! //        . + .
//! //        . . .
//! let code = neighbourhood_code([Mover, Opponent, Mover, Empty, Empty, Empty, Empty, Empty]);
//! assert!(is_mogo_pattern(code));
//! assert!(!is_mogo_pattern(neighbourhood_code([Empty; 8])));
//! ```

use super::Color;

/// What one of the 8 neighbours of a candidate move holds, relative to the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    /// A stone of the player to move.
    Mover = 1,
    /// A stone of the other player.
    Opponent = 2,
    /// Outside the board (a border cell of a padded board).
    OffBoard = 3,
}

impl Cell {
    /// The cell whose 2-bit value is the low two bits of `bits`.
    pub const fn from_bits(bits: u16) -> Self {
        match bits & 3 {
            0 => Cell::Empty,
            1 => Cell::Mover,
            2 => Cell::Opponent,
            _ => Cell::OffBoard,
        }
    }
}

/// Bit offset of the north-west neighbour's field in a code.
pub const SHIFT_NW: u32 = 0;
/// Bit offset of the north neighbour's field.
pub const SHIFT_N: u32 = 2;
/// Bit offset of the north-east neighbour's field.
pub const SHIFT_NE: u32 = 4;
/// Bit offset of the west neighbour's field.
pub const SHIFT_W: u32 = 6;
/// Bit offset of the east neighbour's field.
pub const SHIFT_E: u32 = 8;
/// Bit offset of the south-west neighbour's field.
pub const SHIFT_SW: u32 = 10;
/// Bit offset of the south neighbour's field.
pub const SHIFT_S: u32 = 12;
/// Bit offset of the south-east neighbour's field.
pub const SHIFT_SE: u32 = 14;

/// The code of a neighbourhood given as its 8 cells in the order NW, N, NE, W, E, SW, S, SE.
pub const fn neighbourhood_code(cells: [Cell; 8]) -> u16 {
    let mut code = 0;
    let mut i = 0;
    while i < 8 {
        code |= (cells[i] as u16) << (2 * i);
        i += 1;
    }
    code
}

/// The 8 cells of a code, in the order NW, N, NE, W, E, SW, S, SE (every `u16` decodes).
pub const fn cells(code: u16) -> [Cell; 8] {
    let mut out = [Cell::Empty; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = Cell::from_bits(code >> (2 * i));
        i += 1;
    }
    out
}

/// `code` with the field at bit offset `shift` (one of the `SHIFT_*` constants) set to
/// `cell`. Other offsets are taken modulo 16 and rounded down to even.
pub const fn with_cell(code: u16, shift: u32, cell: Cell) -> u16 {
    let shift = shift & 14;
    (code & !(3 << shift)) | ((cell as u16) << shift)
}

/// The same neighbourhood seen by the other player: mover's and opponent's stones swap,
/// empty and off-board cells stay.
pub const fn swap_colours(code: u16) -> u16 {
    // A field holds 1 or 2 exactly when its two bits differ; flip both bits of those.
    let differ = (code ^ (code >> 1)) & 0x5555;
    code ^ (differ | differ << 1)
}

/// Whether a MoGo pattern matches the neighbourhood `code` for the player to move. Codes no
/// board can produce answer `false`.
#[inline]
pub fn is_mogo_pattern(code: u16) -> bool {
    (MOGO_TABLES[0][(code >> 6) as usize] >> (code & 63)) & 1 == 1
}

/// [`is_mogo_pattern`] of the code `mover` sees, asked with the code the board keeps (Black
/// as the mover, [`super::board::Board`]): White has a table of its own, the swap done when
/// it was built, so a playout asks without swapping or branching on the colour.
#[inline(always)]
pub(crate) fn is_mogo_pattern_for(board_code: u16, mover: Color) -> bool {
    (MOGO_TABLES[mover.index()][(board_code >> 6) as usize] >> (board_code & 63)) & 1 == 1
}

/// Which player may play a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ToMove {
    /// Either colour may be `X` (the pattern holds for both players).
    Either,
    /// Only when `X` is the player to move.
    X,
    /// Only when `O` is the player to move.
    O,
}

/// A 3x3 picture, top row first; the centre is the candidate move.
pub(crate) type Picture = [&'static str; 3];

/// One pattern of the source description.
pub(crate) struct Pattern {
    /// The notes' name, for test messages.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests' messages"))]
    pub(crate) name: &'static str,
    pub(crate) picture: Picture,
    pub(crate) to_move: ToMove,
    /// Pictures that, when one of them matches, cancel the match (cut 1 only).
    pub(crate) unless: &'static [Picture],
}

/// The MoGo patterns in the notes' notation (section 3.3). A picture with a `###` lower row
/// is an edge pattern: its middle row is the first line.
#[rustfmt::skip]
pub(crate) const PATTERNS: [Pattern; 11] = [
    // Hane: a move reaching around an opponent stone.
    Pattern { name: "hane 1", to_move: ToMove::Either, unless: &[], picture: [
        "XOX",
        "...",
        "???",
    ] },
    Pattern { name: "hane 2", to_move: ToMove::Either, unless: &[], picture: [
        "XO.",
        "...",
        "?.?",
    ] },
    Pattern { name: "hane 3", to_move: ToMove::Either, unless: &[], picture: [
        "XO?",
        "X..",
        "?.?",
    ] },
    Pattern { name: "hane 4", to_move: ToMove::X, unless: &[], picture: [
        "XOO",
        "...",
        "?.?",
    ] },
    // Cut 1: the cutting point of a diagonal connection, unless the cut is already answered
    // (three neighbours O, the fourth empty).
    Pattern { name: "cut 1", to_move: ToMove::Either, picture: [
        "XO?",
        "O.?",
        "???",
    ], unless: &[[
        "XO?",
        "O.O",
        "?.?",
    ], [
        "XO?",
        "O..",
        "?O?",
    ]] },
    // Cut 2: between two stones on opposite sides, with no O on the row opposite the X.
    Pattern { name: "cut 2", to_move: ToMove::Either, unless: &[], picture: [
        "?X?",
        "O.O",
        "xxx",
    ] },
    // Edge: the middle row is the first line, the lower row is off the board.
    Pattern { name: "edge 1", to_move: ToMove::Either, unless: &[], picture: [
        "X.?",
        "O.?",
        "###",
    ] },
    Pattern { name: "edge 2", to_move: ToMove::Either, unless: &[], picture: [
        "?X?",
        "o.O",
        "###",
    ] },
    Pattern { name: "edge 3", to_move: ToMove::X, unless: &[], picture: [
        "?XO",
        "?.?",
        "###",
    ] },
    Pattern { name: "edge 4", to_move: ToMove::O, unless: &[], picture: [
        "?XO",
        "?.o",
        "###",
    ] },
    Pattern { name: "edge 5", to_move: ToMove::O, unless: &[], picture: [
        "?XO",
        "O.X",
        "###",
    ] },
];

/// Words of the table: 65,536 codes, one bit each.
const WORDS: usize = 1 << 16 >> 6;

/// The answers for every code, built at compile time from [`PATTERNS`]: Black's as the
/// mover, then White's for the code with Black as the mover (each code's swap looked up).
static MOGO_TABLES: [[u64; WORDS]; 2] = {
    let table = build_table();
    [table, swapped(&table)]
};

/// The code slot (0 = NW ... 7 = SE) of window cell (row, column), centre excluded.
const fn slot(row: usize, col: usize) -> usize {
    let index = row * 3 + col;
    assert!(index != 4, "the centre has no slot");
    if index < 4 { index } else { index - 1 }
}

/// Symmetry `t` (0..8) of the 3x3 window applied to cell (row, column): mirrored left to
/// right when `t >= 4`, then turned a quarter clockwise `t % 4` times.
pub(crate) const fn transform(t: usize, row: usize, col: usize) -> (usize, usize) {
    let (mut r, mut c) = if t >= 4 { (row, 2 - col) } else { (row, col) };
    let mut turns = t % 4;
    while turns > 0 {
        (r, c) = (c, 2 - r);
        turns -= 1;
    }
    (r, c)
}

/// The cell values (bit v for value v) a picture character allows, `X` and `O` standing for
/// values `x` and `o`. `?` allows only on-board values: a pattern is only tried where the
/// shape of the board edge is the one its picture shows, so its other cells are on board.
const fn allowed(ch: u8, x: u16, o: u16) -> u8 {
    match ch {
        b'X' => 1 << x,
        b'O' => 1 << o,
        b'.' => 1,
        b'x' => 1 | 1 << x,
        b'o' => 1 | 1 << o,
        b'?' => 0b0111,
        b'#' => 0b1000,
        _ => panic!("a pattern picture uses only X O . x o ? #"),
    }
}

/// The (X, O) value pairs a side-to-move condition allows: X the mover (1), or X the
/// opponent (2).
const fn colourings(to_move: ToMove) -> &'static [(u16, u16)] {
    match to_move {
        ToMove::Either => &[(1, 2), (2, 1)],
        ToMove::X => &[(1, 2)],
        ToMove::O => &[(2, 1)],
    }
}

/// Sets in `set` the bit of every code that `picture` matches, in every orientation and
/// allowed colouring.
const fn expand(set: &mut [u64; WORDS], picture: Picture, to_move: ToMove) {
    let colourings = colourings(to_move);
    let mut k = 0;
    while k < colourings.len() {
        let (x, o) = colourings[k];
        let mut t = 0;
        while t < 8 {
            let mut masks = [0u8; 8];
            let mut row = 0;
            while row < 3 {
                let mut col = 0;
                while col < 3 {
                    if row != 1 || col != 1 {
                        let (r, c) = transform(t, row, col);
                        masks[slot(r, c)] = allowed(picture[row].as_bytes()[col], x, o);
                    }
                    col += 1;
                }
                row += 1;
            }
            mark_all(set, masks);
            t += 1;
        }
        k += 1;
    }
}

/// Sets the bit of every code whose slot `i` holds a value allowed by `masks[i]`, for all i.
const fn mark_all(set: &mut [u64; WORDS], masks: [u8; 8]) {
    // An odometer over the allowed values of the 8 slots.
    let mut values = [0u16; 8];
    let mut i = 0;
    while i < 8 {
        values[i] = masks[i].trailing_zeros() as u16;
        i += 1;
    }
    loop {
        let mut code = 0u16;
        let mut i = 0;
        while i < 8 {
            code |= values[i] << (2 * i);
            i += 1;
        }
        set[(code >> 6) as usize] |= 1 << (code & 63);
        let mut i = 0;
        loop {
            if i == 8 {
                return;
            }
            let higher = masks[i] as u16 & !((2u16 << values[i]) - 1);
            if higher != 0 {
                values[i] = higher.trailing_zeros() as u16;
                break;
            }
            values[i] = masks[i].trailing_zeros() as u16;
            i += 1;
        }
    }
}

/// Checks a picture's form at compile time: 3 rows of 3 known characters, an empty centre,
/// off-board cells only as a whole lower row, and a definite stone next to the centre.
const fn check_picture(picture: Picture) {
    let mut row = 0;
    while row < 3 {
        assert!(picture[row].len() == 3, "a picture row has 3 cells");
        let mut col = 0;
        while col < 3 {
            let ch = picture[row].as_bytes()[col];
            assert!(allowed(ch, 1, 2) != 0);
            assert!((ch == b'#') == (row == 2 && picture[2].as_bytes()[0] == b'#'));
            col += 1;
        }
        row += 1;
    }
    assert!(
        picture[1].as_bytes()[1] == b'.',
        "the centre is the (empty) move"
    );
    let mut touching = false;
    let mut k = 0;
    while k < 4 {
        let (row, col) = [(0, 1), (1, 0), (1, 2), (2, 1)][k];
        let ch = picture[row].as_bytes()[col];
        touching |= ch == b'X' || ch == b'O';
        k += 1;
    }
    assert!(touching, "a stone must touch the centre");
}

/// The table: for each pattern, the codes its picture matches minus those its `unless`
/// pictures match, all united.
const fn build_table() -> [u64; WORDS] {
    let mut table = [0u64; WORDS];
    let mut p = 0;
    while p < PATTERNS.len() {
        let pattern = &PATTERNS[p];
        check_picture(pattern.picture);
        let mut hits = [0u64; WORDS];
        expand(&mut hits, pattern.picture, pattern.to_move);
        let mut excluded = [0u64; WORDS];
        let mut u = 0;
        while u < pattern.unless.len() {
            check_picture(pattern.unless[u]);
            expand(&mut excluded, pattern.unless[u], pattern.to_move);
            u += 1;
        }
        let mut w = 0;
        while w < WORDS {
            table[w] |= hits[w] & !excluded[w];
            w += 1;
        }
        p += 1;
    }
    table
}

/// The table whose answer for a code is `table`'s for its colour swap.
const fn swapped(table: &[u64; WORDS]) -> [u64; WORDS] {
    let mut out = [0u64; WORDS];
    let mut code = 0usize;
    while code < 1 << 16 {
        let swap = swap_colours(code as u16) as usize;
        out[code >> 6] |= ((table[swap >> 6] >> (swap & 63)) & 1) << (code & 63);
        code += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    //! The table against a direct, literal reading of the pictures (its own orientation code,
    //! cell by cell), plus the properties the notes state.

    use super::*;

    #[test]
    fn the_colour_tables_agree_with_the_swap() {
        for code in 0..=u16::MAX {
            assert_eq!(
                is_mogo_pattern_for(code, Color::Black),
                is_mogo_pattern(code)
            );
            assert_eq!(
                is_mogo_pattern_for(code, Color::White),
                is_mogo_pattern(swap_colours(code)),
                "{code:#06x}"
            );
        }
    }

    type Grid = [[u8; 3]; 3];

    /// The window of a code: values 0..=3 in reading order, the centre empty.
    fn grid_of(code: u16) -> Grid {
        let mut grid = [[0; 3]; 3];
        let mut k = 0;
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                if (r, c) != (1, 1) {
                    *cell = (code >> (2 * k) & 3) as u8;
                    k += 1;
                }
            }
        }
        grid
    }

    fn code_of(grid: Grid) -> u16 {
        let mut code = 0;
        let mut k = 0;
        for (r, row) in grid.iter().enumerate() {
            for (c, &cell) in row.iter().enumerate() {
                if (r, c) != (1, 1) {
                    code |= u16::from(cell) << (2 * k);
                    k += 1;
                }
            }
        }
        code
    }

    /// The 8 orientations of a grid: 4 quarter turns, each also mirrored.
    fn orientations(grid: Grid) -> [Grid; 8] {
        let turn =
            |g: Grid| -> Grid { core::array::from_fn(|r| core::array::from_fn(|c| g[2 - c][r])) };
        let mirror =
            |g: Grid| -> Grid { core::array::from_fn(|r| core::array::from_fn(|c| g[r][2 - c])) };
        let mut out = [grid; 8];
        for t in 1..4 {
            out[t] = turn(out[t - 1]);
        }
        for t in 4..8 {
            out[t] = mirror(out[t - 4]);
        }
        out
    }

    fn picture_grid(picture: Picture) -> Grid {
        core::array::from_fn(|r| core::array::from_fn(|c| picture[r].as_bytes()[c]))
    }

    /// The (value of X, value of O) pairs a side-to-move condition allows.
    fn colourings(to_move: ToMove) -> &'static [(u8, u8)] {
        match to_move {
            ToMove::Either => &[(1, 2), (2, 1)],
            ToMove::X => &[(1, 2)],
            ToMove::O => &[(2, 1)],
        }
    }

    /// The notation, literally; `lower_edge` lets `x` and `o` also match off the board.
    fn cell_matches(ch: u8, v: u8, (x, o): (u8, u8), lower_edge: bool) -> bool {
        match ch {
            b'X' => v == x,
            b'O' => v == o,
            b'.' => v == 0,
            b'x' => v == 0 || v == x || (lower_edge && v == 3),
            b'o' => v == 0 || v == o || (lower_edge && v == 3),
            b'?' => true,
            b'#' => v == 3,
            _ => unreachable!(),
        }
    }

    fn oriented_matches(picture: Grid, grid: Grid, colouring: (u8, u8), lower_edge: bool) -> bool {
        (0..3).all(|r| {
            (0..3).all(|c| {
                (r, c) == (1, 1) || cell_matches(picture[r][c], grid[r][c], colouring, lower_edge)
            })
        })
    }

    /// Whether `picture` matches `grid` in some orientation and allowed colouring.
    fn picture_matches(picture: Picture, to_move: ToMove, grid: Grid, lower_edge: bool) -> bool {
        colourings(to_move).iter().any(|&colouring| {
            orientations(picture_grid(picture))
                .iter()
                .any(|&oriented| oriented_matches(oriented, grid, colouring, lower_edge))
        })
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Shape {
        /// No neighbour off the board.
        Middle,
        /// Exactly one side of the window off the board.
        FirstLine,
        /// A corner, or no board at all.
        Other,
    }

    fn shape(grid: Grid) -> Shape {
        let off: Vec<(usize, usize)> = (0..3)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .filter(|&(r, c)| grid[r][c] == 3)
            .collect();
        let whole_side = off.len() == 3
            && (off.iter().all(|&(r, _)| r == 0)
                || off.iter().all(|&(r, _)| r == 2)
                || off.iter().all(|&(_, c)| c == 0)
                || off.iter().all(|&(_, c)| c == 2));
        match off.len() {
            0 => Shape::Middle,
            _ if whole_side => Shape::FirstLine,
            _ => Shape::Other,
        }
    }

    fn is_edge_pattern(pattern: &Pattern) -> bool {
        pattern.picture[2] == "###"
    }

    /// One pattern, read literally: the right shape of board edge, the picture, none of the
    /// `unless` pictures (in any orientation).
    fn pattern_matches(pattern: &Pattern, code: u16, lower_edge: bool) -> bool {
        let grid = grid_of(code);
        let wanted = if is_edge_pattern(pattern) {
            Shape::FirstLine
        } else {
            Shape::Middle
        };
        shape(grid) == wanted
            && picture_matches(pattern.picture, pattern.to_move, grid, lower_edge)
            && !pattern
                .unless
                .iter()
                .any(|&p| picture_matches(p, pattern.to_move, grid, lower_edge))
    }

    fn reference(code: u16, lower_edge: bool) -> bool {
        PATTERNS
            .iter()
            .any(|p| pattern_matches(p, code, lower_edge))
    }

    fn all_codes() -> impl Iterator<Item = u16> {
        0..=u16::MAX
    }

    /// A diagram: `X` the mover's stones, `O` the opponent's, `.` empty, `#` off the board.
    fn diagram(rows: [&str; 3]) -> u16 {
        code_of(core::array::from_fn(|r| {
            core::array::from_fn(|c| match rows[r].as_bytes()[c] {
                b'X' => 1,
                b'O' => 2,
                b'.' => 0,
                b'#' => 3,
                _ => unreachable!(),
            })
        }))
    }

    /// Every concrete grid a picture stands for in one orientation and colouring: wildcards
    /// take each value they allow on the board.
    fn instances(picture: Grid, (x, o): (u8, u8)) -> Vec<Grid> {
        let mut out = vec![[[0u8; 3]; 3]];
        for r in 0..3 {
            for c in 0..3 {
                if (r, c) == (1, 1) {
                    continue;
                }
                let values: &[u8] = match picture[r][c] {
                    b'X' => &[x],
                    b'O' => &[o],
                    b'.' => &[0],
                    b'x' => &[0, x],
                    b'o' => &[0, o],
                    b'?' => &[0, 1, 2],
                    b'#' => &[3],
                    _ => unreachable!(),
                };
                out = out
                    .iter()
                    .flat_map(|g| {
                        values.iter().map(move |&v| {
                            let mut g = *g;
                            g[r][c] = v;
                            g
                        })
                    })
                    .collect();
            }
        }
        out
    }

    #[test]
    fn the_table_equals_a_literal_reading_of_the_pictures() {
        for code in all_codes() {
            assert_eq!(
                is_mogo_pattern(code),
                reference(code, false),
                "code {code:#06x}: {:?}",
                grid_of(code)
            );
        }
    }

    #[test]
    fn the_number_of_matching_codes_is_pinned() {
        // Pins the table: any change to a picture, a condition or the expansion shows here.
        // 2,620 of them are middle points and 548 first-line points (counted again by an
        // independent script when the table was written).
        let count = all_codes().filter(|&code| is_mogo_pattern(code)).count();
        assert_eq!(count, 3168);
    }

    #[test]
    fn every_picture_matches_in_all_orientations_and_allowed_colourings() {
        for pattern in &PATTERNS {
            let mut tried = 0;
            for &colouring in colourings(pattern.to_move) {
                for oriented in orientations(picture_grid(pattern.picture)) {
                    for grid in instances(oriented, colouring) {
                        let code = code_of(grid);
                        if pattern
                            .unless
                            .iter()
                            .any(|&p| picture_matches(p, pattern.to_move, grid, false))
                        {
                            assert!(!pattern_matches(pattern, code, false));
                            continue;
                        }
                        assert!(
                            pattern_matches(pattern, code, false),
                            "{}: {grid:?}",
                            pattern.name
                        );
                        assert!(is_mogo_pattern(code), "{}: {grid:?}", pattern.name);
                        tried += 1;
                    }
                }
            }
            assert!(tried >= 8, "{}", pattern.name);
        }
    }

    #[test]
    fn side_to_move_conditions_hold() {
        for pattern in PATTERNS.iter().filter(|p| p.to_move != ToMove::Either) {
            for &colouring in colourings(pattern.to_move) {
                for oriented in orientations(picture_grid(pattern.picture)) {
                    for grid in instances(oriented, colouring) {
                        let code = code_of(grid);
                        assert!(pattern_matches(pattern, code, false), "{}", pattern.name);
                        // The same stones with the other player to move.
                        assert!(
                            !pattern_matches(pattern, swap_colours(code), false),
                            "{}",
                            pattern.name
                        );
                    }
                }
            }
        }
        // In the whole table (other patterns may match the swapped position: edge 4 and 5
        // with X to move are always edge 3, so only these two are shown here).
        let hane4 = diagram(["XOO", "...", "..."]);
        assert!(is_mogo_pattern(hane4) && !is_mogo_pattern(swap_colours(hane4)));
        let edge3 = diagram([".XO", "X.X", "###"]);
        assert!(is_mogo_pattern(edge3) && !is_mogo_pattern(swap_colours(edge3)));
    }

    #[test]
    fn removing_any_stone_of_a_picture_breaks_that_pattern() {
        // Wildcards filled with empty points, so the instance has exactly the picture's
        // stones and one fewer cannot match it in any orientation.
        for pattern in &PATTERNS {
            let &colouring = &colourings(pattern.to_move)[0];
            let grid = instances(picture_grid(pattern.picture), colouring)[0];
            assert!(
                pattern_matches(pattern, code_of(grid), false),
                "{}",
                pattern.name
            );
            for r in 0..3 {
                for c in 0..3 {
                    if grid[r][c] == 1 || grid[r][c] == 2 {
                        let mut near = grid;
                        near[r][c] = 0;
                        assert!(
                            !pattern_matches(pattern, code_of(near), false),
                            "{} {r} {c}",
                            pattern.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn near_misses_do_not_match() {
        for miss in [
            ["...", "...", "..."], // nothing at all
            ["X.X", "...", "..."], // two diagonal stones, none adjacent
            ["XO.", "O.O", "..."], // cut 1, already answered (three O, one empty)
            ["XO.", "O..", ".O."], // cut 1, already answered the other way
            [".X.", "..O", "..."], // edge 2 in the middle of the board
            ["XO.", "...", ".X."], // hane 2 with a stone below the move
        ] {
            for code in [diagram(miss), swap_colours(diagram(miss))] {
                assert!(!is_mogo_pattern(code), "{miss:?}");
            }
        }
        for hit in [
            ["XO.", "O..", "..."],
            ["XO.", "O.X", "..."],
            [".X.", "..O", "###"],
            ["XOX", "...", "..."],
        ] {
            assert!(is_mogo_pattern(diagram(hit)), "{hit:?}");
        }
    }

    #[test]
    fn every_match_has_a_stone_next_to_the_centre() {
        for code in all_codes().filter(|&code| is_mogo_pattern(code)) {
            let g = grid_of(code);
            assert!(
                [g[0][1], g[1][0], g[1][2], g[2][1]]
                    .iter()
                    .any(|&v| v == 1 || v == 2),
                "{g:?}"
            );
        }
    }

    #[test]
    fn corners_and_impossible_codes_match_nothing() {
        let mut corners = 0;
        for code in all_codes() {
            let grid = grid_of(code);
            let answer = is_mogo_pattern(code);
            if shape(grid) == Shape::Other {
                assert!(!answer, "{grid:?}");
                corners += usize::from(grid[0] == [3; 3] && grid.iter().all(|row| row[0] == 3));
            }
        }
        // The north-west corner: the other three cells take any of the 4 values.
        assert_eq!(corners, 4usize.pow(3));
        // A hane whose lower side is half off the board: no board looks like this.
        assert!(!is_mogo_pattern(diagram(["XOX", "...", "#.."])));
        assert!(!is_mogo_pattern(u16::MAX));
    }

    #[test]
    fn first_line_points_use_only_the_edge_patterns() {
        // Interior pictures whose `?` cells would cover the border do match some first-line
        // windows cell by cell; the table must not take them from there.
        let interior_only = all_codes()
            .filter(|&code| shape(grid_of(code)) == Shape::FirstLine)
            .filter(|&code| {
                let grid = grid_of(code);
                PATTERNS.iter().filter(|p| !is_edge_pattern(p)).any(|p| {
                    picture_matches(p.picture, p.to_move, grid, false)
                        && !p
                            .unless
                            .iter()
                            .any(|&u| picture_matches(u, p.to_move, grid, false))
                }) && !PATTERNS
                    .iter()
                    .filter(|p| is_edge_pattern(p))
                    .any(|p| pattern_matches(p, code, false))
            })
            .inspect(|&code| assert!(!is_mogo_pattern(code)))
            .count();
        assert!(interior_only > 0);
        // And an edge picture never matches away from the first line.
        for pattern in PATTERNS.iter().filter(|p| is_edge_pattern(p)) {
            assert!(
                all_codes()
                    .filter(|&c| pattern_matches(pattern, c, false))
                    .all(|c| shape(grid_of(c)) == Shape::FirstLine)
            );
        }
    }

    #[test]
    fn the_table_is_closed_under_the_eight_symmetries() {
        for code in all_codes() {
            for oriented in orientations(grid_of(code)) {
                assert_eq!(is_mogo_pattern(code_of(oriented)), is_mogo_pattern(code));
            }
        }
    }

    #[test]
    fn readings_of_cut_1_and_of_lowercase_make_no_difference() {
        let cut1 = &PATTERNS[4];
        assert_eq!(cut1.name, "cut 1");
        for code in all_codes() {
            let grid = grid_of(code);
            // Per orientation: the exclusions tested in the orientation and colouring that
            // matched the first picture.
            let per_orientation = shape(grid) == Shape::Middle
                && colourings(cut1.to_move).iter().any(|&colouring| {
                    (0..8).any(|t| {
                        let oriented = |p: Picture| orientations(picture_grid(p))[t];
                        oriented_matches(oriented(cut1.picture), grid, colouring, false)
                            && !cut1
                                .unless
                                .iter()
                                .any(|&u| oriented_matches(oriented(u), grid, colouring, false))
                    })
                });
            assert_eq!(
                per_orientation,
                pattern_matches(cut1, code, false),
                "{grid:?}"
            );
            // Lowercase letters allowed to match off-board cells.
            assert_eq!(reference(code, true), is_mogo_pattern(code), "{grid:?}");
        }
    }

    #[test]
    fn the_const_symmetries_are_the_eight_distinct_ones() {
        let mut seen = Vec::new();
        for t in 0..8 {
            let image: Vec<(usize, usize)> = (0..9).map(|i| transform(t, i / 3, i % 3)).collect();
            assert_eq!(image[4], (1, 1));
            assert!(!seen.contains(&image));
            seen.push(image);
        }
    }

    #[test]
    fn encoding_helpers() {
        let shifts = [
            SHIFT_NW, SHIFT_N, SHIFT_NE, SHIFT_W, SHIFT_E, SHIFT_SW, SHIFT_S, SHIFT_SE,
        ];
        for (i, &shift) in shifts.iter().enumerate() {
            assert_eq!(shift, 2 * i as u32);
            assert_eq!(shifts[7 - i], 14 - shift, "opposite neighbours");
        }
        for code in all_codes() {
            assert_eq!(neighbourhood_code(cells(code)), code);
            let swapped = cells(swap_colours(code));
            for (before, after) in cells(code).iter().zip(swapped) {
                let expected = match before {
                    Cell::Mover => Cell::Opponent,
                    Cell::Opponent => Cell::Mover,
                    other => *other,
                };
                assert_eq!(after, expected);
            }
            for (i, &shift) in shifts.iter().enumerate() {
                for cell in [Cell::Empty, Cell::Mover, Cell::Opponent, Cell::OffBoard] {
                    let mut expected = cells(code);
                    expected[i] = cell;
                    assert_eq!(cells(with_cell(code, shift, cell)), expected);
                }
            }
        }
        assert_eq!(
            diagram(["XO.", "#..", "..."]),
            neighbourhood_code([
                Cell::Mover,
                Cell::Opponent,
                Cell::Empty,
                Cell::OffBoard,
                Cell::Empty,
                Cell::Empty,
                Cell::Empty,
                Cell::Empty
            ])
        );
    }
}
