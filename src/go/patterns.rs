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
pub fn is_mogo_pattern(code: u16) -> bool {
    (MOGO_TABLE[(code >> 6) as usize] >> (code & 63)) & 1 == 1
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

/// The answers for every code, built at compile time from [`PATTERNS`].
static MOGO_TABLE: [u64; WORDS] = build_table();

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
