//! The Go board: stones, strings with exact liberty counts, captures, simple ko, passes, the
//! game-length cap and area scoring, for any size from 5x5 to 19x19 chosen at run time.
//!
//! # Layout
//!
//! Points live in a padded one-dimensional array (a mailbox) with a stride of `size + 1`:
//! each row is followed by one border cell that also serves as the left border of the next
//! row, and a border row lies below and above the board. A point's neighbours are then
//! `p ± 1` and `p ± stride`, its diagonals `p ± stride ± 1`, and no bounds test is needed in
//! the hot path. A 9x9 board uses the first 111 cells only, so it stays in a few cache lines.
//!
//! Per cell the board keeps its colour, how many of its four neighbours are empty, black,
//! white or border (legality tests read these counts), the 3x3 code of its eight neighbours
//! (the encoding of [`super::patterns`], read by the eye test and the MoGo policy), and for
//! a stone the id of its
//! string (an "anchor": the point of one of its stones) and the next stone of the string in
//! a circular list. Per string (indexed by its anchor) it keeps the number of stones, the
//! exact number of distinct liberties and their sum (so the one liberty of a string in atari
//! is known without a walk), and per colour the set of its strings in atari (a bit per
//! anchor, flipped where a string enters or leaves atari). Empty points are kept in a list with a position map, so a
//! random empty point is drawn in O(1).
//!
//! Liberties are kept exact without per-string sets: a stone placed on `p` takes `p` from
//! each distinct adjacent string; a captured stone on `r` gives `r` to each distinct adjacent
//! string; two strings merge by adding to the larger one the liberties of the smaller that
//! are not next to the larger (a walk of the smaller string only).
//!
//! The placement and the capture update these without branches on the neighbours' contents
//! (which neighbour is a stone, a new string or a liberty is unpredictable, and a
//! mispredicted branch costs more than the arithmetic that replaces it; see `docs/go.md`).
//!
//! This board knows simple ko only, as playouts want; positional superko needs the history
//! of the game, which [`super::GoGame`] keeps.
//!
//! ```
//! use arbor::go::{Board, Color, Move, PlayError};
//!
//! let mut board = Board::new(9).unwrap();
//! let d4 = board.point(3, 3).unwrap(); // column D, row 4
//! board.try_play(Move::Play(d4)).unwrap();
//! assert_eq!(board.color_at(d4), Some(Color::Black));
//! assert_eq!(board.try_play(Move::Play(d4)), Err(PlayError::Occupied)); // nothing changed
//! assert_eq!(board.coords(d4), Some((3, 3)));
//! assert_eq!(board.liberties(d4), Some(4));
//! board.try_play(Move::Pass).unwrap();
//! board.try_play(Move::Pass).unwrap();
//! assert!(board.is_over());
//! assert_eq!(board.score().winner(), Some(Color::Black)); // 81 points to 7.5
//! ```

use core::fmt;

use rand_xorshift::XorShiftRng;

use super::Color;
use super::zobrist::KEYS;
use crate::search::game::random_index;

/// Smallest board size.
pub const MIN_SIZE: u8 = 5;
/// Largest board size.
pub const MAX_SIZE: u8 = 19;
/// Default komi: 7.5 points for White.
pub const DEFAULT_KOMI: f32 = 7.5;
/// Largest komi (either way) a board accepts: far beyond any real game, small enough that a
/// score never loses precision in an `f32`.
pub const KOMI_LIMIT: f32 = 1000.0;

/// Cells of the padded array for the largest board: `(size + 1) * (size + 2) + 1`.
pub(crate) const CELLS: usize = (MAX_SIZE as usize + 1) * (MAX_SIZE as usize + 2) + 1;
/// Points of the largest board.
pub(crate) const MAX_POINTS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Cell values; also the index of the neighbour counts.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
pub(crate) const BORDER: u8 = 3;

/// The id no string has: cell 0 is always border.
const NONE: u16 = 0;

/// Words of a bitset with one bit per cell of the largest board.
const CELL_WORDS: usize = CELLS.div_ceil(64);

/// The cell value of a stone of `color`.
#[inline(always)]
pub(crate) const fn stone(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// The eight neighbours of the cell `p` of a padded array with rows `stride` apart, in the
/// order of the 3x3 codes: NW, N, NE, W, E, SW, S, SE. Cells at the array's ends have
/// indices outside it (wrapped), which `get` refuses.
#[inline(always)]
pub(crate) const fn window_of(p: usize, stride: usize) -> [usize; 8] {
    let (above, below) = (p.wrapping_sub(stride), p.wrapping_add(stride));
    [
        above.wrapping_sub(1),
        above,
        above.wrapping_add(1),
        p.wrapping_sub(1),
        p.wrapping_add(1),
        below.wrapping_sub(1),
        below,
        below.wrapping_add(1),
    ]
}

/// Whether `id` is one of `seen`, without an early exit (a branch per entry mispredicts).
#[inline(always)]
fn listed(seen: &[u16; 4], id: u16) -> bool {
    (seen[0] == id) | (seen[1] == id) | (seen[2] == id) | (seen[3] == id)
}

/// The indices of the set bits of a word, lowest first.
struct BitIndices(u64);

impl Iterator for BitIndices {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// A point of a board: its index in the padded array, so it belongs to boards of one size.
/// Made by [`Board::point`]; a point of another size is refused (or off the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The index of the point in the padded array, below 421 (a dense move index for tables
    /// over points; 0 is never a point).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: a pass or a stone on a point.
///
/// `repr(u16)`: a `u16` tag (0 for a pass, 1 for a stone) then, for a stone, the point's
/// `u16`. A defined layout, so that a C handle can check the tag of every node of a tree in
/// its caller's buffer before it reads the buffer as nodes (src/ffi/go_search.rs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u16)]
pub enum Move {
    /// Pass.
    #[default]
    Pass = 0,
    /// A stone of the player to move on this point.
    Play(Point) = 1,
}

/// Why a move was refused. A refused move changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayError {
    /// The point is not on this board (another size's point).
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone would have no liberty and captures nothing.
    Suicide,
    /// The immediate recapture of a single stone (simple ko).
    Ko,
    /// The move would repeat an earlier whole-board position (positional superko).
    Superko,
    /// The game is over (two passes, or the game-length cap).
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::OffBoard => "the point is not on the board",
            PlayError::Occupied => "the point is occupied",
            PlayError::Suicide => "the move is suicide",
            PlayError::Ko => "the move retakes a ko",
            PlayError::Superko => "the move repeats an earlier position (superko)",
            PlayError::GameOver => "the game is over",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PlayError {}

/// A size outside 5..=19, or a komi that is not finite or beyond [`KOMI_LIMIT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupError {
    /// The size is not in 5..=19.
    Size,
    /// The komi is not finite or beyond ±[`KOMI_LIMIT`].
    Komi,
    /// The point is not on the board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone would leave a string (its own or an adjacent one) without liberties.
    NoLiberties,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupError::Size => "the board size must be from 5 to 19",
            SetupError::Komi => "the komi must be a finite number within ±1000",
            SetupError::OffBoard => "the point is not on the board",
            SetupError::Occupied => "the point is occupied",
            SetupError::NoLiberties => "the stone would leave a string without liberties",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SetupError {}

/// Area (Chinese) score of a position: stones plus empty regions bordered by one colour only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Black's stones and territory.
    pub black: u16,
    /// White's stones and territory.
    pub white: u16,
    /// The komi added to White.
    pub komi: f32,
}

impl Score {
    /// Black's lead: black − white − komi (never 0 for a komi with a half point).
    pub fn margin(&self) -> f32 {
        f32::from(self.black) - f32::from(self.white) - self.komi
    }

    /// The winner, `None` for a draw (an integral komi).
    pub fn winner(&self) -> Option<Color> {
        let margin = self.margin();
        if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// A Go board with the player to move, simple ko, passes and komi. See the module text.
#[derive(Clone)]
pub struct Board {
    size: u8,
    stride: u16,
    to_move: Color,
    /// Consecutive passes (2 ends the game).
    passes: u8,
    /// Turns played, passes included (the game ends at `max_turns`).
    turns: u16,
    /// `3 * size * size`, kept because every move of a playout asks whether the game is over.
    max_turns: u16,
    /// The simple-ko point, or `NONE`.
    ko: u16,
    last: Move,
    previous: Move,
    komi: f32,
    /// Zobrist hash of the stones only (positional superko ignores the side to move).
    hash: u64,
    stone_count: [u16; 2],
    cells: [u8; CELLS],
    /// Per cell, its neighbours counted by cell value (empty, black, white, border), one
    /// byte each in a little-endian word, so that a stone placed or removed updates a
    /// neighbour's counts with one addition.
    neighbours: [u32; CELLS],
    /// Per cell, the 3x3 neighbourhood code of [`super::patterns`] with Black as the mover:
    /// its 8 neighbours' cell values, 2 bits each, `NW` in bits 0-1 up to `SE` in bits 14-15
    /// (north is the row of lower indices). Exact on every point of the board.
    codes: [u16; CELLS],
    /// Per stone, its string's anchor; `NONE` on empty cells.
    string: [u16; CELLS],
    /// Per stone, the next stone of its string (a circular list).
    next: [u16; CELLS],
    /// Per anchor: stones, distinct liberties, and the wrapping sum of the liberties' indices
    /// (exact when there is one liberty, as it is below 2^16).
    stones: [u16; CELLS],
    liberties: [u16; CELLS],
    liberty_sum: [u16; CELLS],
    /// Per colour (Black, White), the anchors of its strings in atari (one liberty), a bit
    /// per cell: the MoGo capture and save-atari rules find them here without a walk.
    ataris: [[u64; CELL_WORDS]; 2],
    /// The empty points, in any order, and where each one is in that list.
    empties: [u16; MAX_POINTS],
    empty_count: u16,
    empty_at: [u16; CELLS],
    /// Scratch marks for merges: a cell is marked when it holds the current `mark`.
    marks: [u16; CELLS],
    mark: u16,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\n")?;
        super::diagram::write(self, f)
    }
}

impl PartialEq for Board {
    /// Same size, stones, player to move, ko point, passes, turns and komi.
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size
            && self.cells == other.cells
            && self.to_move == other.to_move
            && self.ko == other.ko
            && self.passes == other.passes
            && self.turns == other.turns
            && self.komi.to_bits() == other.komi.to_bits()
    }
}

impl Board {
    /// An empty board of `size` x `size` (5 to 19), Black to move, komi 7.5.
    pub fn new(size: u8) -> Result<Board, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::Size);
        }
        let stride = u16::from(size) + 1;
        let mut board = Board {
            size,
            stride,
            to_move: Color::Black,
            passes: 0,
            turns: 0,
            max_turns: 3 * u16::from(size) * u16::from(size),
            ko: NONE,
            last: Move::Pass,
            previous: Move::Pass,
            komi: DEFAULT_KOMI,
            hash: KEYS.size[usize::from(size)],
            stone_count: [0; 2],
            cells: [BORDER; CELLS],
            neighbours: [0; CELLS],
            codes: [0; CELLS],
            string: [NONE; CELLS],
            next: [NONE; CELLS],
            stones: [0; CELLS],
            liberties: [0; CELLS],
            liberty_sum: [0; CELLS],
            ataris: [[0; CELL_WORDS]; 2],
            empties: [0; MAX_POINTS],
            empty_count: 0,
            empty_at: [0; CELLS],
            marks: [0; CELLS],
            mark: 0,
        };
        for row in 0..size {
            for col in 0..size {
                let p = board.index(col, row);
                board.cells[p] = EMPTY;
                board.empty_at[p] = board.empty_count;
                board.empties[usize::from(board.empty_count)] = p as u16;
                board.empty_count += 1;
            }
        }
        // Every cell's neighbours that lie in the array; cells at the array's ends never
        // hold a stone, so their missing neighbours are never updated.
        let stride = usize::from(stride);
        for p in 0..CELLS {
            let mut counts = [0u8; 4];
            for n in [p.wrapping_sub(1), p + 1, p.wrapping_sub(stride), p + stride] {
                if let Some(&cell) = board.cells.get(n) {
                    counts[usize::from(cell)] += 1;
                }
            }
            board.neighbours[p] = u32::from_le_bytes(counts);
            let mut code = 0u16;
            for (i, q) in window_of(p, stride).into_iter().enumerate() {
                if let Some(&cell) = board.cells.get(q) {
                    code |= u16::from(cell) << (2 * i);
                }
            }
            board.codes[p] = code;
        }
        Ok(board)
    }

    /// Makes this board a copy of `source`, copying only the cells `source`'s size uses when
    /// both boards have the same size (a 9x9 board uses a quarter of the arrays): what a
    /// playout does before each run.
    pub fn copy_from(&mut self, source: &Board) {
        if self.size != source.size {
            self.clone_from(source);
            return;
        }
        let used = usize::from(self.stride) * (usize::from(self.size) + 2) + 1;
        self.to_move = source.to_move;
        self.passes = source.passes;
        self.turns = source.turns;
        self.ko = source.ko;
        self.last = source.last;
        self.previous = source.previous;
        self.komi = source.komi;
        self.hash = source.hash;
        self.stone_count = source.stone_count;
        self.empty_count = source.empty_count;
        self.cells[..used].copy_from_slice(&source.cells[..used]);
        self.neighbours[..used].copy_from_slice(&source.neighbours[..used]);
        self.codes[..used].copy_from_slice(&source.codes[..used]);
        self.string[..used].copy_from_slice(&source.string[..used]);
        self.next[..used].copy_from_slice(&source.next[..used]);
        self.stones[..used].copy_from_slice(&source.stones[..used]);
        self.liberties[..used].copy_from_slice(&source.liberties[..used]);
        self.liberty_sum[..used].copy_from_slice(&source.liberty_sum[..used]);
        self.ataris = source.ataris;
        self.empty_at[..used].copy_from_slice(&source.empty_at[..used]);
        let empties = usize::from(source.empty_count);
        self.empties[..empties].copy_from_slice(&source.empties[..empties]);
        // The marks stay: this board's marks are all below its own current mark.
    }

    /// The board's side length.
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The komi (points added to White).
    #[inline]
    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// Sets the komi: finite and within ±[`KOMI_LIMIT`], or the board is left unchanged.
    pub fn set_komi(&mut self, komi: f32) -> Result<(), SetupError> {
        if !(komi.is_finite() && komi.abs() <= KOMI_LIMIT) {
            return Err(SetupError::Komi);
        }
        self.komi = komi;
        Ok(())
    }

    /// The player to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Gives the move to `color` (for setting up positions; clears the ko point, which
    /// belonged to the other player's turn).
    pub fn set_to_move(&mut self, color: Color) {
        if color != self.to_move {
            self.to_move = color;
            self.ko = NONE;
        }
    }

    /// The point at column `col` (0 = column A) and row `row` (0 = the bottom row, GTP row
    /// 1), or `None` off this board.
    #[inline]
    pub fn point(&self, col: u8, row: u8) -> Option<Point> {
        (col < self.size && row < self.size).then(|| Point(self.index(col, row) as u16))
    }

    /// The (column, row) of `point`, both from 0 (row 0 at the bottom), or `None` when it is
    /// not a point of this board.
    #[inline]
    pub fn coords(&self, point: Point) -> Option<(u8, u8)> {
        if !self.is_on_board(point) {
            return None;
        }
        let stride = usize::from(self.stride);
        let p = point.index();
        Some(((p % stride - 1) as u8, (p / stride - 1) as u8))
    }

    /// The points beside `point` on this board (left, right, below, above; the edge has none),
    /// for walks that go by points rather than by the padded array.
    pub fn neighbours(&self, point: Point) -> impl Iterator<Item = Point> + '_ {
        let around = self.coords(point).map(|(col, row)| {
            [
                (col.wrapping_sub(1), row),
                (col.wrapping_add(1), row),
                (col, row.wrapping_sub(1)),
                (col, row.wrapping_add(1)),
            ]
        });
        around
            .into_iter()
            .flatten()
            .filter_map(|(col, row)| self.point(col, row))
    }

    /// Whether `point` is a point of this board.
    #[inline]
    pub fn is_on_board(&self, point: Point) -> bool {
        self.cells.get(point.index()).is_some_and(|&c| c != BORDER)
    }

    /// The colour of the stone on `point`, `None` when it is empty or off the board.
    #[inline]
    pub fn color_at(&self, point: Point) -> Option<Color> {
        match self.cells.get(point.index()) {
            Some(&BLACK) => Some(Color::Black),
            Some(&WHITE) => Some(Color::White),
            _ => None,
        }
    }

    /// The distinct liberties of the string on `point`, `None` without a stone there.
    pub fn liberties(&self, point: Point) -> Option<u16> {
        self.color_at(point)?;
        Some(self.liberties[usize::from(self.string[point.index()])])
    }

    /// The stones of the string on `point`, `None` without a stone there.
    pub fn string_size(&self, point: Point) -> Option<u16> {
        self.color_at(point)?;
        Some(self.stones[usize::from(self.string[point.index()])])
    }

    /// The liberty of the string on `point` when it is in atari (one liberty), else `None`.
    pub fn atari_liberty(&self, point: Point) -> Option<Point> {
        self.color_at(point)?;
        let id = usize::from(self.string[point.index()]);
        (self.liberties[id] == 1).then_some(Point(self.liberty_sum[id]))
    }

    /// One stone (the anchor) of each string of `color` in atari, in the order of the points'
    /// indices. The board keeps this set as strings gain and lose liberties, so listing it
    /// costs no walk of the board.
    ///
    /// ```
    /// use arbor::go::{Board, Color, Move};
    ///
    /// let mut board = Board::new(9).unwrap();
    /// let a1 = board.point(0, 0).unwrap();
    /// board.play(Move::Play(a1));
    /// board.play(Move::Play(board.point(1, 0).unwrap())); // B1: A1 keeps A2 only
    /// assert_eq!(board.strings_in_atari(Color::Black).collect::<Vec<_>>(), [a1]);
    /// assert_eq!(board.strings_in_atari(Color::White).count(), 0);
    /// ```
    pub fn strings_in_atari(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.atari_words(color)
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| BitIndices(word).map(move |b| Point((64 * w + b) as u16)))
    }

    /// The stones of each colour on the board, Black first.
    #[inline]
    pub fn stone_counts(&self) -> [u16; 2] {
        self.stone_count
    }

    /// The empty points, in no particular order.
    pub fn empty_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.empties[..usize::from(self.empty_count)]
            .iter()
            .map(|&p| Point(p))
    }

    /// The simple-ko point: where the player to move may not play right now.
    #[inline]
    pub fn ko(&self) -> Option<Point> {
        (self.ko != NONE).then_some(Point(self.ko))
    }

    /// The last move played (a pass at the start).
    #[inline]
    pub fn last_move(&self) -> Move {
        self.last
    }

    /// The move before the last one (a pass at the start).
    #[inline]
    pub fn previous_move(&self) -> Move {
        self.previous
    }

    /// Consecutive passes just played.
    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Turns played (passes included).
    #[inline]
    pub fn turns(&self) -> u16 {
        self.turns
    }

    /// The most turns a game lasts: `3 * size * size` (243 on 9x9).
    #[inline]
    pub fn max_turns(&self) -> u16 {
        self.max_turns
    }

    /// Whether the game is over: two passes in a row, or [`Board::max_turns`] played.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.passes >= 2 || self.turns >= self.max_turns()
    }

    /// The Zobrist hash of the stones and the board size (not the player to move: what
    /// positional superko compares).
    #[inline]
    pub fn position_hash(&self) -> u64 {
        self.hash
    }

    /// A hash of everything that makes the state: stones, size, player to move, ko point and
    /// passes.
    pub fn hash(&self) -> u64 {
        let mut h = self.hash
            ^ KEYS.ko[usize::from(self.ko)]
            ^ KEYS.passes[usize::from(self.passes.min(2))];
        if self.to_move == Color::White {
            h ^= KEYS.white_to_move;
        }
        h
    }

    /// The stones' hash computed from scratch (tests compare it with the incremental one).
    pub fn recomputed_position_hash(&self) -> u64 {
        let mut h = KEYS.size[usize::from(self.size)];
        for (p, &cell) in self.cells.iter().enumerate() {
            if cell == BLACK || cell == WHITE {
                h ^= KEYS.stone[usize::from(cell - 1)][p];
            }
        }
        h
    }

    /// Whether the player to move may play `mv` under simple ko; the reason if not. Changes
    /// nothing.
    pub fn check(&self, mv: Move) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let Move::Play(point) = mv else {
            return Ok(());
        };
        if !self.is_on_board(point) {
            return Err(PlayError::OffBoard);
        }
        let p = point.index();
        if self.cells[p] != EMPTY {
            return Err(PlayError::Occupied);
        }
        if usize::from(self.ko) == p {
            return Err(PlayError::Ko);
        }
        if !self.is_legal_empty(p, self.to_move) {
            return Err(PlayError::Suicide);
        }
        Ok(())
    }

    /// Plays `mv` for the player to move under simple ko, or refuses it and changes nothing.
    pub fn try_play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` if it is legal under simple ko; an illegal move is ignored (use
    /// [`Board::try_play`] to learn why).
    pub fn play(&mut self, mv: Move) {
        let _ = self.try_play(mv);
    }

    /// Puts a stone of `color` on `point` without it being a move (setting up a position, as
    /// SGF `AB`/`AW` do): the player to move, turns, passes and ko are kept. Refused, changing
    /// nothing, when the point is taken or the stone would leave a string without liberties.
    pub fn set_stone(&mut self, point: Point, color: Color) -> Result<(), SetupError> {
        if !self.is_on_board(point) {
            return Err(SetupError::OffBoard);
        }
        let p = point.index();
        if self.cells[p] != EMPTY {
            return Err(SetupError::Occupied);
        }
        let own = stone(color);
        let mut lives = self.empty_neighbours(p) > 0;
        for n in self.around(p) {
            let cell = self.cells[n];
            let libs = self.liberties[usize::from(self.string[n])];
            if cell == own && libs > 1 {
                lives = true;
            } else if cell == (own ^ 3) && libs == 1 {
                return Err(SetupError::NoLiberties);
            }
        }
        if !lives {
            return Err(SetupError::NoLiberties);
        }
        // The checks above leave no adjacent string without liberties.
        let _ = self.put_stone(p, own);
        Ok(())
    }

    /// The area score of the position as it stands (every stone counts as alive).
    pub fn score(&self) -> Score {
        let mut score = [self.stone_count[0], self.stone_count[1]];
        // Flood each empty region once, noting which colours border it.
        let mut seen = [false; CELLS];
        let mut stack = [0u16; MAX_POINTS];
        for &start in &self.empties[..usize::from(self.empty_count)] {
            if seen[usize::from(start)] {
                continue;
            }
            seen[usize::from(start)] = true;
            stack[0] = start;
            let (mut top, mut region, mut borders) = (1usize, 0u16, 0u8);
            while top > 0 {
                top -= 1;
                let p = usize::from(stack[top]);
                region += 1;
                for n in self.around(p) {
                    match self.cells[n] {
                        EMPTY if !seen[n] => {
                            seen[n] = true;
                            // At most every point of the board is pushed once.
                            if let Some(slot) = stack.get_mut(top) {
                                *slot = n as u16;
                                top += 1;
                            }
                        }
                        BLACK => borders |= 1,
                        WHITE => borders |= 2,
                        _ => {}
                    }
                }
            }
            match borders {
                1 => score[0] += region,
                2 => score[1] += region,
                _ => {}
            }
        }
        Score {
            black: score[0],
            white: score[1],
            komi: self.komi,
        }
    }

    /// The playout count: stones plus empty points whose neighbours (the edge aside) are all
    /// of one colour. Equal to [`Board::score`] at the end of a light playout, where every
    /// empty point is a one-point eye, and much cheaper.
    pub fn playout_score(&self) -> Score {
        let mut score = [self.stone_count[0], self.stone_count[1]];
        for &p in &self.empties[..usize::from(self.empty_count)] {
            let counts = self.counts(usize::from(p));
            let border = counts[usize::from(BORDER)];
            if counts[usize::from(BLACK)] + border == 4 {
                score[0] += 1;
            } else if counts[usize::from(WHITE)] + border == 4 {
                score[1] += 1;
            }
        }
        Score {
            black: score[0],
            white: score[1],
            komi: self.komi,
        }
    }

    /// Plays a light-playout move for the player to move and returns it: uniform over the
    /// empty points that are legal under simple ko and do not fill the mover's own eye, a
    /// pass when there is none. Candidates are drawn from the empty list and a rejected one
    /// is swapped out of the drawing range, so every acceptable point has the same chance.
    /// Call it only while the game goes on.
    pub fn play_light_move(&mut self, rng: &mut XorShiftRng) -> Move {
        let color = self.to_move;
        let mut range = usize::from(self.empty_count);
        while range > 0 {
            let i = random_index(rng, range);
            let p = usize::from(self.empties[i]);
            // A point with an empty neighbour is legal and no eye (nor the ko point, which
            // has none): most points early in a playout, accepted on one test.
            if self.empty_neighbours(p) > 0
                || (!self.is_own_eye(p, color)
                    && usize::from(self.ko) != p
                    && self.is_legal_empty(p, color))
            {
                // The stone is placed here rather than through `play_unchecked`, so that
                // it is inlined into this loop.
                let mv = Move::Play(Point(p as u16));
                self.passes = 0;
                self.ko = self.place(p, color);
                self.previous = self.last;
                self.last = mv;
                self.turns = self.turns.saturating_add(1);
                self.to_move = color.opponent();
                return mv;
            }
            range -= 1;
            self.swap_empties(i, range);
        }
        self.play_unchecked(Move::Pass);
        Move::Pass
    }

    /// Whether the empty point `p` is an eye of `color` that a playout must not fill: every
    /// neighbour is `color` or border, and the opponent holds fewer than two diagonals, the
    /// edge counting as one.
    #[inline(always)]
    pub(crate) fn is_own_eye(&self, p: usize, color: Color) -> bool {
        // All from the 3x3 code: in each field the low bit is set for Black and border, the
        // high bit for White and border.
        const ORTHOGONALS: u16 = (1 << 2) | (1 << 6) | (1 << 8) | (1 << 12);
        const DIAGONALS: u16 = 1 | (1 << 4) | (1 << 10) | (1 << 14);
        let code = self.codes[p];
        // Black reads the low bits, White the high ones (a shift, not a branch).
        let shift = color.index() as u32;
        let own_or_edge = code >> shift;
        let enemy = (code >> (1 - shift)) & !own_or_edge;
        if own_or_edge & ORTHOGONALS != ORTHOGONALS {
            return false;
        }
        // The opponent's diagonals, one bit each, and the edge as one more: fewer than two.
        let edge = code & (code >> 1) & ORTHOGONALS != 0;
        let bad = (enemy & DIAGONALS) | (u16::from(edge) << 1);
        bad & bad.wrapping_sub(1) == 0
    }

    /// Whether `color` may play on the empty point `p`, ko aside: it has a liberty, joins a
    /// string that keeps one, or captures.
    #[inline(always)]
    fn is_legal_empty(&self, p: usize, color: Color) -> bool {
        // Without early exits: which neighbour decides is unpredictable.
        let own = stone(color);
        let mut legal = self.empty_neighbours(p) > 0;
        for n in self.around(p) {
            let cell = self.cells[n];
            let libs = self.liberties[usize::from(self.string[n])];
            legal |= ((cell == own) & (libs > 1)) | ((cell == (own ^ 3)) & (libs == 1));
        }
        legal
    }

    /// The hash of the stones after the player to move plays on the empty point `point`,
    /// legal under simple ko (for the superko test; changes nothing).
    pub(crate) fn position_hash_after(&self, point: Point) -> u64 {
        let p = point.index();
        let color = self.to_move;
        let enemy = stone(color.opponent());
        let mut h = self.hash ^ KEYS.stone[color.index()][p];
        let mut seen = [NONE; 4];
        for (k, n) in self.around(p).into_iter().enumerate() {
            let id = self.string[n];
            if self.cells[n] == enemy && self.liberties[usize::from(id)] == 1 && !seen.contains(&id)
            {
                seen[k] = id;
                let mut s = id;
                loop {
                    h ^= KEYS.stone[color.opponent().index()][usize::from(s)];
                    s = self.next[usize::from(s)];
                    if s == id {
                        break;
                    }
                }
            }
        }
        h
    }

    /// Plays `mv`, which must be legal under simple ko.
    pub(crate) fn play_unchecked(&mut self, mv: Move) {
        let color = self.to_move;
        match mv {
            Move::Pass => {
                self.passes = self.passes.saturating_add(1);
                self.ko = NONE;
            }
            Move::Play(point) => {
                self.passes = 0;
                self.ko = self.place(point.index(), color);
            }
        }
        self.previous = self.last;
        self.last = mv;
        self.turns = self.turns.saturating_add(1);
        self.to_move = color.opponent();
    }

    /// The cell of column `col`, row `row` (both on the board).
    #[inline]
    fn index(&self, col: u8, row: u8) -> usize {
        (usize::from(row) + 1) * usize::from(self.stride) + usize::from(col) + 1
    }

    /// The four neighbours of the cell `p` (a point of the board).
    #[inline(always)]
    fn around(&self, p: usize) -> [usize; 4] {
        let stride = usize::from(self.stride);
        [p - 1, p + 1, p - stride, p + stride]
    }

    /// Applies `f` to the 3x3 codes of the eight neighbours of the cell `p` (a point), with
    /// the shift of `p`'s field in each: `p` is at the opposite place of each one's window,
    /// so the neighbour at shift `2 * i` of `p`'s window sees `p` at shift `14 - 2 * i`.
    /// Rows are taken as 3-cell chunks, one bounds check each.
    #[inline(always)]
    fn update_codes(&mut self, p: usize, f: impl Fn(&mut u16, u32)) {
        let stride = usize::from(self.stride);
        if let Some([nw, n, ne]) = self.codes[p - stride - 1..].first_chunk_mut::<3>() {
            f(nw, 14);
            f(n, 12);
            f(ne, 10);
        }
        if let Some([w, _, e]) = self.codes[p - 1..].first_chunk_mut::<3>() {
            f(w, 8);
            f(e, 6);
        }
        if let Some([sw, s, se]) = self.codes[p + stride - 1..].first_chunk_mut::<3>() {
            f(sw, 4);
            f(s, 2);
            f(se, 0);
        }
    }

    /// The neighbours of `p` counted by cell value (`EMPTY`, `BLACK`, `WHITE`, `BORDER`).
    #[inline(always)]
    fn counts(&self, p: usize) -> [u8; 4] {
        self.neighbours[p].to_le_bytes()
    }

    /// How many neighbours of `p` are empty.
    #[inline(always)]
    fn empty_neighbours(&self, p: usize) -> u32 {
        self.neighbours[p] & 0xff
    }

    #[inline(always)]
    fn swap_empties(&mut self, i: usize, j: usize) {
        let (a, b) = (self.empties[i], self.empties[j]);
        self.empties[i] = b;
        self.empties[j] = a;
        self.empty_at[usize::from(b)] = i as u16;
        self.empty_at[usize::from(a)] = j as u16;
    }

    /// Places a stone of `color` on the empty point `p` with its captures, and returns the
    /// new simple-ko point (or `NONE`).
    #[inline(always)]
    fn place(&mut self, p: usize, color: Color) -> u16 {
        let (dead, count) = self.put_stone(p, stone(color));
        if count == 0 {
            return NONE;
        }
        // Strings are removed in the order of the neighbours that first touch them, after
        // every merge (the empty list's order, which later draws read, depends on it).
        let mut captured = 0u16;
        for &n in &dead[..count] {
            captured += self.remove_string(self.string[usize::from(n)]);
        }
        let id = usize::from(self.string[p]);
        if captured == 1 && self.stones[id] == 1 && self.liberties[id] == 1 {
            dead[count - 1]
        } else {
            NONE
        }
    }

    /// Puts a stone with value `own` on the empty point `p`: takes `p` from adjacent strings'
    /// liberties and merges the stone with its own adjacent strings. Removes nothing, and
    /// returns one stone of each adjacent enemy string left without liberties (in the order
    /// of the neighbours) and their number.
    #[inline(always)]
    fn put_stone(&mut self, p: usize, own: u8) -> ([u16; 4], usize) {
        self.remove_empty(p);
        self.cells[p] = own;
        self.hash ^= KEYS.stone[usize::from(own - 1)][p];
        self.stone_count[usize::from(own - 1)] += 1;
        let around = self.around(p);
        // One fewer empty neighbour (at least one: `p`), one more of `own`.
        let filled = (1u32 << (8 * own)).wrapping_sub(1);
        for n in around {
            self.neighbours[n] = self.neighbours[n].wrapping_add(filled);
        }
        // `p` was empty: its field in the neighbours' codes is 0.
        let value = u16::from(own);
        self.update_codes(p, |code, shift| *code |= value << shift);
        let me = p as u16;
        self.string[p] = me;
        self.next[p] = me;
        self.stones[p] = 1;
        let mut dead = [NONE; 4];
        if self.neighbours[p] & 0x00ff_ff00 == 0 {
            // No stone around (the common case early in a game): its empty neighbours are
            // its liberties, in the open four whose indices sum to 4p, and no string is
            // touched.
            let libs = self.empty_neighbours(p) as u16;
            self.liberties[p] = libs;
            self.liberty_sum[p] = if libs == 4 {
                me.wrapping_mul(4)
            } else {
                around
                    .into_iter()
                    .filter(|&n| self.cells[n] == EMPTY)
                    .fold(0u16, |sum, n| sum.wrapping_add(n as u16))
            };
            return (dead, 0);
        }
        // The stone alone: its empty neighbours are distinct liberties.
        let mut sum = 0u16;
        for n in around {
            if self.cells[n] == EMPTY {
                sum = sum.wrapping_add(n as u16);
            }
        }
        self.liberties[p] = self.empty_neighbours(p) as u16;
        self.liberty_sum[p] = sum;
        // `p` stops being a liberty of each distinct adjacent string; own ones merge.
        let mut seen = [NONE; 4];
        let mut count = 0;
        // Which neighbours are stones is unpredictable, so the loop does not branch: an
        // empty or border cell (string `NONE`) or a string already seen takes 0 from the
        // liberties of its string, or of `NONE`. The own strings are listed, in the order of
        // the neighbours, and merged after the loop (the merges read no enemy liberty, so
        // the result is the same as merging each one when it is met).
        let mut owns = [NONE; 4];
        let mut own_count = 0;
        for (k, n) in around.into_iter().enumerate() {
            let cell = self.cells[n];
            let id = self.string[n];
            let fresh = (id != NONE) & !listed(&seen, id);
            seen[k] = id;
            let i = usize::from(id);
            self.liberties[i] -= u16::from(fresh);
            self.liberty_sum[i] = self.liberty_sum[i].wrapping_sub(if fresh { me } else { 0 });
            // A string leaves or enters atari only on these transitions (its bit is set
            // exactly when it has one liberty), so its bit flips: an own string from 1 to 0
            // (the merged string is noted below), an enemy one from 2 to 1 or 1 to 0.
            let libs = self.liberties[i];
            let enemy = fresh & (cell != own);
            self.flip_atari_if(i, cell, fresh & (libs < 2) & (enemy | (libs == 0)));
            dead[count] = n as u16;
            count += usize::from(enemy & (libs == 0));
            owns[own_count] = id;
            own_count += usize::from(fresh & (cell == own));
        }
        if own_count > 0 {
            self.join(p, owns[0]);
            for &id in &owns[1..own_count] {
                // Distinct strings, but an earlier merge may have relabelled this one.
                let current = self.string[p];
                let id = self.string[usize::from(id)];
                if current != id {
                    self.merge(current, id);
                }
            }
        }
        // The new stone's string, with every own string it joined (whose bits are clear
        // now), enters atari with one liberty; with none it captures, and the captures'
        // liberties bring it in or not (`remove_string`).
        let id = usize::from(self.string[p]);
        self.flip_atari_if(id, own, self.liberties[id] == 1);
        (dead, count)
    }

    /// Flips the atari bit of the string `id` (an anchor) of the stone value `value` when
    /// `flip` holds, without a branch on `flip` (any cell value is accepted when `flip` is
    /// false).
    #[inline(always)]
    fn flip_atari_if(&mut self, id: usize, value: u8, flip: bool) {
        // Black's value is odd, White's even.
        let color = usize::from(value & 1 == 0);
        if let Some(word) = self.ataris[color].get_mut(id / 64) {
            *word ^= u64::from(flip) << (id % 64);
        }
    }

    /// Adds the new stone `p`, still a string of its own, to the adjacent string `id`: the
    /// common case of a merge, where `p`'s empty neighbours are distinct and only need to
    /// be checked against `id`.
    #[inline(always)]
    fn join(&mut self, p: usize, id: u16) {
        let (mut libs, mut sum) = (0u16, 0u16);
        for n in self.around(p) {
            // Without branches: which neighbours are new liberties is unpredictable.
            let new = (self.cells[n] == EMPTY) & !self.touches(n, id);
            libs += u16::from(new);
            sum = sum.wrapping_add(if new { n as u16 } else { 0 });
        }
        let i = usize::from(id);
        self.string[p] = id;
        self.next[p] = self.next[i];
        self.next[i] = p as u16;
        self.stones[i] += 1;
        self.liberties[i] += libs;
        self.liberty_sum[i] = self.liberty_sum[i].wrapping_add(sum);
    }

    /// Whether a neighbour of the cell `n` belongs to the string `id`. `n` may be a border
    /// cell, whose neighbours can lie outside the array.
    #[inline(always)]
    fn touches(&self, n: usize, id: u16) -> bool {
        let stride = usize::from(self.stride);
        let [a, b, c, d] = [n.wrapping_sub(1), n + 1, n.wrapping_sub(stride), n + stride]
            .map(|m| self.string.get(m).copied().unwrap_or(NONE));
        (a == id) | (b == id) | (c == id) | (d == id)
    }

    /// Merges two distinct strings of one colour: the smaller joins the larger, which gains
    /// the smaller's liberties that it did not already have.
    fn merge(&mut self, a: u16, b: u16) {
        let (big, small) = if self.stones[usize::from(a)] >= self.stones[usize::from(b)] {
            (a, b)
        } else {
            (b, a)
        };
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.marks = [0; CELLS];
            self.mark = 1;
        }
        let (mut libs, mut sum) = (0u16, 0u16);
        let mut s = small;
        loop {
            let su = usize::from(s);
            for n in self.around(su) {
                // One branch, on the emptiness: most neighbours of a string's stones are its
                // own stones, which it skips cheaply; the rest without branches, as in `join`.
                if self.cells[n] == EMPTY {
                    let new = (self.marks[n] != self.mark) & !self.touches(n, big);
                    self.marks[n] = self.mark;
                    libs += u16::from(new);
                    sum = sum.wrapping_add(if new { n as u16 } else { 0 });
                }
            }
            s = self.next[su];
            if s == small {
                break;
            }
        }
        // Relabel only now: the test above must not see the smaller string's stones as big.
        loop {
            let su = usize::from(s);
            self.string[su] = big;
            s = self.next[su];
            if s == small {
                break;
            }
        }
        let (bi, si) = (usize::from(big), usize::from(small));
        self.liberties[bi] += libs;
        self.liberty_sum[bi] = self.liberty_sum[bi].wrapping_add(sum);
        self.stones[bi] += self.stones[si];
        // Splice the two circular lists.
        self.next.swap(bi, si);
    }

    /// Removes the string `id` (captured) and returns its number of stones.
    fn remove_string(&mut self, id: u16) -> u16 {
        let color = self.cells[usize::from(id)];
        let key = &KEYS.stone[usize::from(color - 1)];
        let removed = self.stones[usize::from(id)];
        // One more empty neighbour, one fewer of `color` (at least one: this stone).
        let emptied = 1u32.wrapping_sub(1 << (8 * color));
        let mut s = id;
        loop {
            let r = usize::from(s);
            let next = self.next[r];
            self.cells[r] = EMPTY;
            self.string[r] = NONE;
            self.hash ^= key[r];
            self.add_empty(r);
            self.update_codes(r, |code, shift| *code &= !(3 << shift));
            let around = self.around(r);
            let mut seen = [NONE; 4];
            for (k, n) in around.into_iter().enumerate() {
                self.neighbours[n] = self.neighbours[n].wrapping_add(emptied);
                // The capturer's strings gain `r`; stones of the captured string still to
                // be removed are skipped by their colour.
                // Without branches (which of the four gain is unpredictable): a cell that
                // gains nothing adds 0 to the liberties of its string, or of `NONE`.
                let owner = self.string[n];
                let gains = (self.cells[n] == (color ^ 3)) & !listed(&seen, owner);
                seen[k] = if gains { owner } else { NONE };
                let o = usize::from(owner);
                self.liberties[o] += u16::from(gains);
                let sum = self.liberty_sum[o].wrapping_add(r as u16);
                self.liberty_sum[o] = if gains { sum } else { self.liberty_sum[o] };
                // In atari from 0 liberties to 1, out of it from 1 to 2.
                self.flip_atari_if(o, color ^ 3, gains & (self.liberties[o] <= 2));
            }
            s = next;
            if s == id {
                break;
            }
        }
        self.stone_count[usize::from(color - 1)] -= removed;
        removed
    }

    #[inline(always)]
    fn remove_empty(&mut self, p: usize) {
        let i = usize::from(self.empty_at[p]);
        self.empty_count -= 1;
        let last = self.empties[usize::from(self.empty_count)];
        self.empties[i] = last;
        self.empty_at[usize::from(last)] = i as u16;
    }

    #[inline(always)]
    fn add_empty(&mut self, p: usize) {
        self.empties[usize::from(self.empty_count)] = p as u16;
        self.empty_at[p] = self.empty_count;
        self.empty_count += 1;
    }

    /// Checks every incremental structure against a recount from scratch (tests).
    #[cfg(test)]
    pub(crate) fn assert_consistent(&self) {
        let stride = usize::from(self.stride);
        for row in 0..self.size {
            for col in 0..self.size {
                let p = self.index(col, row);
                let mut counts = [0u8; 4];
                for n in self.around(p) {
                    counts[usize::from(self.cells[n])] += 1;
                }
                assert_eq!(counts, self.counts(p), "neighbour counts at {col},{row}");
                let mut code = 0u16;
                for (i, q) in window_of(p, stride).into_iter().enumerate() {
                    code |= u16::from(self.cells[q]) << (2 * i);
                }
                assert_eq!(code, self.codes[p], "3x3 code at {col},{row}");
                let cell = self.cells[p];
                if cell == EMPTY {
                    assert_eq!(usize::from(self.empties[usize::from(self.empty_at[p])]), p);
                    continue;
                }
                // Flood the string from p and count its liberties.
                let mut seen = [false; CELLS];
                let mut libs = [false; CELLS];
                let mut stack = [0usize; MAX_POINTS];
                let (mut top, mut stones) = (1, 0u16);
                stack[0] = p;
                seen[p] = true;
                while top > 0 {
                    top -= 1;
                    let s = stack[top];
                    stones += 1;
                    assert_eq!(self.string[s], self.string[p], "one id per string");
                    for n in self.around(s) {
                        if self.cells[n] == EMPTY {
                            libs[n] = true;
                        } else if self.cells[n] == cell && !seen[n] {
                            seen[n] = true;
                            stack[top] = n;
                            top += 1;
                        }
                    }
                }
                let id = usize::from(self.string[p]);
                let count = libs.iter().filter(|&&l| l).count() as u16;
                let sum = libs
                    .iter()
                    .enumerate()
                    .filter(|&(_, &l)| l)
                    .fold(0u16, |acc, (i, _)| acc.wrapping_add(i as u16));
                assert_eq!(
                    self.liberties[id], count,
                    "liberties of the string at {col},{row}"
                );
                assert_eq!(self.liberty_sum[id], sum, "liberty sum at {col},{row}");
                assert_eq!(
                    self.stones[id], stones,
                    "stones of the string at {col},{row}"
                );
                assert!(count > 0, "a string without liberties at {col},{row}");
            }
        }
        let empties = (0..CELLS).filter(|&p| self.cells[p] == EMPTY).count();
        assert_eq!(empties, usize::from(self.empty_count));
        for color in [Color::Black, Color::White] {
            for p in 0..CELLS {
                let bit = self.ataris[color.index()][p / 64] >> (p % 64) & 1 == 1;
                let anchor_in_atari = self.cells[p] == stone(color)
                    && usize::from(self.string[p]) == p
                    && self.liberties[p] == 1;
                assert_eq!(bit, anchor_in_atari, "atari bit of {color:?} at cell {p}");
            }
        }
        assert_eq!(self.hash, self.recomputed_position_hash());
    }
}

impl Board {
    /// Lets a game that ended by two passes go on (the count of passes in a row is cleared),
    /// so that playouts can be run from its final position, as a dead-stone estimate needs.
    /// A game at the length cap stays over.
    pub fn resume(&mut self) {
        self.passes = 0;
    }
}

// ---------------------------------------------------------------------------------------------
// Queries for the playout policies (src/go/tactics.rs, src/go/mogo.rs): read-only views of the
// incremental data above by padded-array index. Every `p` must be below `CELLS` (a point of the
// board or a cell next to one), which the callers get from the board itself.
// ---------------------------------------------------------------------------------------------
impl Board {
    /// The distance between rows in the padded array: `size + 1`.
    #[inline(always)]
    pub(crate) fn stride_cells(&self) -> usize {
        usize::from(self.stride)
    }

    /// The cell value (`EMPTY`, `BLACK`, `WHITE` or `BORDER`) at `p`.
    #[inline(always)]
    pub(crate) fn cell(&self, p: usize) -> u8 {
        self.cells[p]
    }

    /// The neighbours of `p` counted by cell value (`EMPTY`, `BLACK`, `WHITE`, `BORDER`).
    #[inline(always)]
    pub(crate) fn neighbour_counts(&self, p: usize) -> [u8; 4] {
        self.counts(p)
    }

    /// The 3x3 neighbourhood code of the point `p` with Black as the mover (see
    /// [`super::patterns`]).
    #[inline(always)]
    pub(crate) fn code(&self, p: usize) -> u16 {
        self.codes[p]
    }

    /// The empty points' indices, in no particular order.
    #[inline(always)]
    pub(crate) fn empty_list(&self) -> &[u16] {
        &self.empties[..usize::from(self.empty_count)]
    }

    /// The anchor (id) of the string on the stone `p`.
    #[inline(always)]
    pub(crate) fn string_id(&self, p: usize) -> usize {
        usize::from(self.string[p])
    }

    /// The distinct liberties of the string on the stone `p`.
    #[inline(always)]
    pub(crate) fn string_liberties(&self, p: usize) -> u16 {
        self.liberties[usize::from(self.string[p])]
    }

    /// The wrapping sum of the liberties' indices of the string on the stone `p`: its
    /// liberty when it has one, the other one after subtracting a known one when it has two.
    #[inline(always)]
    pub(crate) fn string_liberty_sum(&self, p: usize) -> u16 {
        self.liberty_sum[usize::from(self.string[p])]
    }

    /// Where the empty point `p` stands in [`Board::empty_list`].
    #[inline(always)]
    pub(crate) fn empty_index(&self, p: usize) -> usize {
        usize::from(self.empty_at[p])
    }

    /// Whether `color` has a string in atari.
    #[inline(always)]
    pub(crate) fn has_atari(&self, color: Color) -> bool {
        self.atari_words(color).iter().any(|&w| w != 0)
    }

    /// The atari set's words of `color` that this board's cells use.
    #[inline(always)]
    fn atari_words(&self, color: Color) -> &[u64] {
        let used = (usize::from(self.stride) * (usize::from(self.size) + 2)).div_ceil(64);
        &self.ataris[color.index()][..used]
    }

    /// The next stone of the string of the stone `p` (a circular list).
    #[inline(always)]
    pub(crate) fn next_stone(&self, p: usize) -> usize {
        usize::from(self.next[p])
    }

    /// The simple-ko point's index, 0 (a border cell) when there is none.
    #[inline(always)]
    pub(crate) fn ko_index(&self) -> usize {
        usize::from(self.ko)
    }

    /// The point of a padded-array index taken from this board.
    #[inline(always)]
    pub(crate) fn point_at(p: usize) -> Point {
        Point(p as u16)
    }

    /// Whether `color` may play on the empty point `p`, simple ko aside.
    #[inline(always)]
    pub(crate) fn is_legal_at(&self, p: usize, color: Color) -> bool {
        self.is_legal_empty(p, color)
    }
}
