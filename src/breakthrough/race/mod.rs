//! Race patterns (section 3.3 of Saffidine, Jouandeau and Cazenave): small local shapes
//! that prove one side reaches its goal rank within a few of its own moves whatever the
//! other side does near them, and the rule that turns such a proof into a static win or
//! loss of the whole position.
//!
//! # The language
//!
//! A pattern belongs to an *attacker* and is a rectangle of at most [`MAX_WIDTH`] columns
//! and [`MAX_HEIGHT`] rows. Its first row lies on the attacker's goal rank, the next one a
//! rank closer to the attacker's home, and so on; it may sit at any file, also partly past
//! a side edge. The board is thought of as extended with *walls*: every cell beyond a side
//! edge is a wall, which no pawn may enter. Each pattern cell has one of five types, each
//! admitting a set of contents (the paper's Table 2, written for the attacker):
//!
//! | type | symbol | attacker pawn | empty | defender pawn | wall |
//! |---|---|---|---|---|---|
//! | occupied | `A` | yes | | | |
//! | free | `.` | yes | yes | | |
//! | passive | `p` | yes | yes | | yes |
//! | crossable | `x` | yes | yes | yes | |
//! | don't care | `?` | yes | yes | yes | yes |
//!
//! So *free* and *crossable* cells are on the board (the attacker may need to step there),
//! a *passive* cell holds no defender pawn at the start but may be off the board, and the
//! types are ordered by what they admit: occupied, free, then passive and crossable, then
//! don't care. A pattern *matches* at a placement when every cell's content is admitted.
//!
//! A pattern carries a claim: the attacker reaches its goal rank with at most
//! [`Pattern::moves`] moves of its own, either moving first ([`Tempo::AttackerFirst`]) or
//! letting the defender move first ([`Tempo::DefenderFirst`]). The paper's *order* (the
//! number of defender moves tolerated before the attacker arrives) is `moves - 1` for the
//! first kind and `moves` for the second; its "two-move second-player win" is
//! `moves = 2, DefenderFirst`.
//!
//! # What a proof of a pattern shows
//!
//! [`prove`] checks the claim on the *restricted game* of the pattern, for every content of
//! its cells that the types admit and every way the side edges can cut it (walls only as
//! whole columns at the left or right end, and only where every cell of the column admits
//! a wall). In the restricted game the attacker may only move pawns from pattern cells to
//! pattern cells. The defender, on its turn, may do anything that could change those cells
//! in a real game, and more:
//!
//! - pass (a move anywhere else on the board);
//! - move one of its pawns inside the pattern by the rules, including captures;
//! - move one of its pawns out of the pattern (it is then forgotten);
//! - bring a pawn in from outside onto any cell of an outer column below the goal rank,
//!   capturing an attacker pawn there, unless that side of the pattern is a wall. A
//!   defender pawn can enter only diagonally from the neighbouring column, since nothing
//!   lies above the goal rank; the checker does not ask whether such a pawn exists.
//!
//! A proof says: in every such start, the attacker has a strategy that reaches the goal
//! rank by its `moves`-th move against every defender behaviour of the restricted game.
//! Starts with an attacker pawn already on the goal rank are skipped: the game would be
//! over, and the solvers never ask about such positions.
//!
//! *Why this holds on any board where the pattern matches.* Take a real position where it
//! matches. Whatever the defender really plays is one of the restricted game's options
//! seen from the pattern: a move elsewhere leaves the pattern cells as they are (a pass),
//! and a move touching them is a move inside, out or in. The attacker's moves of the
//! strategy go from pattern cell to pattern cell, so their legality depends only on those
//! cells, which the restricted game tracks exactly. So the real game follows a line of the
//! restricted game, and the attacker reaches its goal by its `moves`-th move, unless the
//! game has ended before. It cannot have ended by the attacker losing its last pawn: the
//! strategy always has a pawn to move.
//!
//! # The two-sided rule
//!
//! The only other way the game ends first is the defender reaching *its* goal. Each move
//! advances one pawn by one rank, so the defender needs at least `distance` moves, the
//! rank distance from its most advanced pawn to its goal (captures only remove pawns).
//! With the side to move `S` and its opponent `O`:
//!
//! - `S` wins if it matches an attacker-first pattern of `n` moves and `distance(O) >= n`:
//!   `O` moves `n - 1` times before `S`'s `n`-th move.
//! - `S` loses if `O` matches a defender-first pattern of `n` moves and
//!   `distance(S) >= n + 1`: `S` moves `n` times before `O`'s `n`-th move.
//!
//! The paper compares each side's lowest-order matching pattern instead, the regions
//! disjoint but for don't-care cells. That comparison reads "the other side has no faster
//! pattern" as "the other side has no faster win", which only a complete set of lower-order
//! patterns would justify; and against an attacker that only plays inside its pattern, a
//! single free runner wins in exactly its distance. The distance is therefore the sound
//! form of the other side's bound, and with it the regions need not be disjoint.

/// cbindgen:ignore
mod matcher;
/// cbindgen:ignore
mod prove;
/// cbindgen:ignore
mod set;

use core::fmt;

pub use matcher::{CompiledSet, SHIPPED, race_value};
pub use prove::{Counterexample, generalize, prove};
pub use set::PATTERNS;

/// The widest pattern.
pub const MAX_WIDTH: usize = 5;
/// The highest pattern.
pub const MAX_HEIGHT: usize = 4;
/// The most cells of a pattern.
pub const MAX_CELLS: usize = MAX_WIDTH * MAX_HEIGHT;
/// The most attacker moves a claim may take (the checker's search grows fast beyond).
pub const MAX_MOVES: u8 = 3;

/// The type of one pattern cell; see the module notes for what each admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// An attacker pawn (`A`).
    Occupied,
    /// An attacker pawn or empty, on the board (`.`).
    Free,
    /// An attacker pawn, empty, or a wall: no defender pawn at the start (`p`).
    Passive,
    /// Anything on the board: the attacker may need to enter it (`x`).
    Crossable,
    /// Anything, walls included (`?`).
    DontCare,
}

impl Cell {
    const fn from_symbol(symbol: u8) -> Option<Cell> {
        match symbol {
            b'A' => Some(Cell::Occupied),
            b'.' => Some(Cell::Free),
            b'p' => Some(Cell::Passive),
            b'x' => Some(Cell::Crossable),
            b'?' => Some(Cell::DontCare),
            _ => None,
        }
    }

    /// The cell's symbol in the text form.
    pub const fn symbol(self) -> char {
        match self {
            Cell::Occupied => 'A',
            Cell::Free => '.',
            Cell::Passive => 'p',
            Cell::Crossable => 'x',
            Cell::DontCare => '?',
        }
    }

    /// Whether the cell may be a wall (off the board).
    pub const fn admits_wall(self) -> bool {
        matches!(self, Cell::Passive | Cell::DontCare)
    }

    /// Whether the cell may hold a defender pawn at the start.
    pub const fn admits_defender(self) -> bool {
        matches!(self, Cell::Crossable | Cell::DontCare)
    }

    /// Whether the cell may be empty at the start.
    pub const fn admits_empty(self) -> bool {
        !matches!(self, Cell::Occupied)
    }
}

/// Who moves first in a pattern's claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tempo {
    /// The attacker is to move.
    AttackerFirst,
    /// The defender is to move.
    DefenderFirst,
}

/// Why a pattern's text or claim was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatternError {
    /// A symbol other than `A . p x ?` or the row separator `/`.
    Symbol,
    /// Rows of different lengths, or an empty row.
    Ragged,
    /// More than [`MAX_WIDTH`] columns or [`MAX_HEIGHT`] rows.
    TooLarge,
    /// Fewer than 2 rows (the goal rank and a rank to start from).
    TooSmall,
    /// No attacker pawn: the claim could never hold.
    NoAttacker,
    /// An attacker pawn on the goal rank: the game would already be over.
    AttackerOnGoal,
    /// A claim of 0 or more than [`MAX_MOVES`] moves.
    Moves,
}

impl PatternError {
    /// What is wrong, in English.
    pub const fn message(self) -> &'static str {
        match self {
            PatternError::Symbol => "a pattern cell is one of A . p x ?, rows separated by /",
            PatternError::Ragged => "every row of a pattern has the same, non-zero, length",
            PatternError::TooLarge => "a pattern has at most 5 columns and 4 rows",
            PatternError::TooSmall => "a pattern has at least 2 rows",
            PatternError::NoAttacker => "a pattern needs an attacker pawn (A)",
            PatternError::AttackerOnGoal => "an attacker pawn on the goal rank has already won",
            PatternError::Moves => "a pattern claims 1 to 3 attacker moves",
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl From<PatternError> for crate::Error {
    fn from(_: PatternError) -> crate::Error {
        crate::Error::Parse
    }
}

/// A race pattern: its cells (row 0 on the attacker's goal rank) and its claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    width: u8,
    height: u8,
    moves: u8,
    tempo: Tempo,
    cells: [Cell; MAX_CELLS],
}

impl Pattern {
    /// A pattern from its rows (goal rank first, separated by `/`, one symbol a cell) and
    /// its claim: the attacker arrives within `moves` of its moves, `tempo` moving first.
    pub const fn new(moves: u8, tempo: Tempo, rows: &str) -> Result<Pattern, PatternError> {
        if moves == 0 || moves > MAX_MOVES {
            return Err(PatternError::Moves);
        }
        let text = rows.as_bytes();
        let mut cells = [Cell::DontCare; MAX_CELLS];
        let mut width = 0usize;
        let mut row = 0usize;
        let mut column = 0usize;
        let mut attackers = 0;
        let mut i = 0;
        while i <= text.len() {
            if i == text.len() || text[i] == b'/' {
                if column == 0 || (row > 0 && column != width) {
                    return Err(PatternError::Ragged);
                }
                width = column;
                row += 1;
                column = 0;
                if row > MAX_HEIGHT && i < text.len() {
                    return Err(PatternError::TooLarge);
                }
            } else {
                let Some(cell) = Cell::from_symbol(text[i]) else {
                    return Err(PatternError::Symbol);
                };
                if column >= MAX_WIDTH || row >= MAX_HEIGHT {
                    return Err(PatternError::TooLarge);
                }
                if matches!(cell, Cell::Occupied) {
                    if row == 0 {
                        return Err(PatternError::AttackerOnGoal);
                    }
                    attackers += 1;
                }
                cells[row * MAX_WIDTH + column] = cell;
                column += 1;
            }
            i += 1;
        }
        if row < 2 {
            return Err(PatternError::TooSmall);
        }
        if attackers == 0 {
            return Err(PatternError::NoAttacker);
        }
        Ok(Pattern {
            width: width as u8,
            height: row as u8,
            moves,
            tempo,
            cells,
        })
    }

    /// Columns.
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows; row 0 is the attacker's goal rank.
    pub const fn height(&self) -> usize {
        self.height as usize
    }

    /// The attacker moves the claim allows.
    pub const fn moves(&self) -> u8 {
        self.moves
    }

    /// Who moves first in the claim.
    pub const fn tempo(&self) -> Tempo {
        self.tempo
    }

    /// The type of the cell at `row` (0 = goal rank) and `column`; `None` outside.
    pub const fn cell(&self, row: usize, column: usize) -> Option<Cell> {
        if row < self.height as usize && column < self.width as usize {
            Some(self.cells[row * MAX_WIDTH + column])
        } else {
            None
        }
    }

    /// The same pattern with the cell at `row`, `column` (inside it) set to `cell`.
    pub const fn with_cell(&self, row: usize, column: usize, cell: Cell) -> Pattern {
        let mut out = *self;
        if row < self.height as usize && column < self.width as usize {
            out.cells[row * MAX_WIDTH + column] = cell;
        }
        out
    }

    /// The same pattern reflected left to right (also a valid pattern, with the same claim).
    pub const fn mirrored(&self) -> Pattern {
        let mut out = *self;
        let w = self.width as usize;
        let mut row = 0;
        while row < self.height as usize {
            let mut column = 0;
            while column < w {
                out.cells[row * MAX_WIDTH + column] =
                    self.cells[row * MAX_WIDTH + (w - 1 - column)];
                column += 1;
            }
            row += 1;
        }
        out
    }
}

/// The rows in the text form, then the claim: `ppp/.../?A? 2 defender-first`.
impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.height() {
            if row > 0 {
                f.write_str("/")?;
            }
            for column in 0..self.width() {
                let cell = self.cells[row * MAX_WIDTH + column];
                fmt::Write::write_char(f, cell.symbol())?;
            }
        }
        let tempo = match self.tempo {
            Tempo::AttackerFirst => "attacker-first",
            Tempo::DefenderFirst => "defender-first",
        };
        write!(f, " {} {tempo}", self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::text_of;

    #[test]
    fn parses_prints_and_mirrors() {
        let p = Pattern::new(2, Tempo::DefenderFirst, "ppp/x../?A?").unwrap();
        assert_eq!((p.width(), p.height()), (3, 3));
        assert_eq!(p.cell(1, 0), Some(Cell::Crossable));
        assert_eq!(p.cell(2, 1), Some(Cell::Occupied));
        assert_eq!(p.cell(3, 0), None);
        assert_eq!(text_of(p).as_str(), "ppp/x../?A? 2 defender-first");
        assert_eq!(
            text_of(p.mirrored()).as_str(),
            "ppp/..x/?A? 2 defender-first"
        );
        assert_eq!(p.mirrored().mirrored(), p);
    }

    #[test]
    fn refuses_bad_text_and_claims() {
        let new = |moves, rows| Pattern::new(moves, Tempo::AttackerFirst, rows);
        assert_eq!(new(2, "pp/.Z"), Err(PatternError::Symbol));
        assert_eq!(new(2, "ppp/.A"), Err(PatternError::Ragged));
        assert_eq!(new(2, "ppp//.A."), Err(PatternError::Ragged));
        assert_eq!(new(2, ""), Err(PatternError::Ragged));
        assert_eq!(new(2, "pppppp/..A..."), Err(PatternError::TooLarge));
        assert_eq!(new(2, "p/p/p/p/A"), Err(PatternError::TooLarge));
        assert_eq!(new(2, "pAp"), Err(PatternError::AttackerOnGoal));
        assert_eq!(new(2, "ppp"), Err(PatternError::TooSmall));
        assert_eq!(new(2, "ppp/..."), Err(PatternError::NoAttacker));
        assert_eq!(new(0, "ppp/.A."), Err(PatternError::Moves));
        assert_eq!(new(4, "ppp/.A."), Err(PatternError::Moves));
    }
}
