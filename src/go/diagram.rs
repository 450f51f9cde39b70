//! Board diagrams: a printer and a parser of the same text, so that tests write positions as
//! pictures.
//!
//! ```
//! use arbor::go::{Board, Color, diagram};
//!
//! let text = "   A B C D E
//!  5 . . . . .
//!  4 . X O . .
//!  3 . X O . .
//!  2 . . . . .
//!  1 . . . . .
//! ";
//! let board = diagram::parse(text).unwrap();
//! assert_eq!(board.color_at(board.point(1, 3).unwrap()), Some(Color::Black)); // B4
//! let mut printed = String::new();
//! diagram::write(&board, &mut printed).unwrap();
//! assert_eq!(printed, text);
//! ```
//!
//! Columns are lettered from A, skipping I (as GTP does); rows are numbered from 1 at the
//! bottom. `X` is Black, `O` White, `.` an empty point. The header line of letters is
//! optional when parsing (if present it must be right), as is surrounding blank space.

use core::fmt;

use super::Color;
use super::board::{Board, MAX_SIZE, MIN_SIZE, SetupError};

/// Column letters, I left out.
pub const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// Writes `board` as a diagram: a header of column letters, then one line per row from the
/// top, each `row-number cell cell …`, with a newline after every line.
pub fn write(board: &Board, out: &mut impl fmt::Write) -> fmt::Result {
    let size = board.size();
    out.write_str("  ")?;
    for &letter in &COLUMNS[..usize::from(size)] {
        write!(out, " {}", char::from(letter))?;
    }
    out.write_str("\n")?;
    for row in (0..size).rev() {
        write!(out, "{:>2}", row + 1)?;
        for col in 0..size {
            let cell = match board.point(col, row).and_then(|p| board.color_at(p)) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            write!(out, " {cell}")?;
        }
        out.write_str("\n")?;
    }
    Ok(())
}

/// What is wrong with a diagram, and where (line and column from 1; column 0 when the
/// problem is the whole line or text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiagramError {
    pub line: u32,
    pub column: u32,
    pub kind: DiagramErrorKind,
}

/// The problems a diagram can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagramErrorKind {
    /// The number of rows is not a board size (5 to 19).
    Size(usize),
    /// A row does not start with its number (rows count down to 1).
    RowNumber { expected: u8 },
    /// A cell is not `X`, `O` or `.`.
    Cell(char),
    /// A row does not have one cell per column.
    RowLength { expected: u8, found: usize },
    /// The header line is not the column letters of this size.
    Header,
    /// The stones cannot stand: a string has no liberties.
    Stones(SetupError),
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        if self.column > 0 {
            write!(f, ", column {}", self.column)?;
        }
        f.write_str(": ")?;
        match self.kind {
            DiagramErrorKind::Size(rows) => {
                write!(f, "{rows} rows; a board has {MIN_SIZE} to {MAX_SIZE}")
            }
            DiagramErrorKind::RowNumber { expected } => {
                write!(f, "expected the row number {expected}")
            }
            DiagramErrorKind::Cell(c) => write!(f, "'{c}' is not X, O or ."),
            DiagramErrorKind::RowLength { expected, found } => {
                write!(f, "{found} cells in a row of {expected}")
            }
            DiagramErrorKind::Header => f.write_str("the column letters do not fit the board"),
            DiagramErrorKind::Stones(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DiagramError {}

/// Whether a line holds a row (starts with its number) rather than the header.
fn is_row(line: &str) -> bool {
    line.trim_start().starts_with(|c: char| c.is_ascii_digit())
}

/// Reads a diagram as [`write`] prints it: an empty-history board, Black to move, komi 7.5,
/// with the stones shown.
pub fn parse(text: &str) -> Result<Board, DiagramError> {
    let err = |line: usize, column: usize, kind| DiagramError {
        line: line as u32 + 1,
        column: column as u32,
        kind,
    };
    let rows = text.lines().filter(|l| is_row(l)).count();
    let size = u8::try_from(rows)
        .ok()
        .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
        .ok_or(err(
            text.lines().count().saturating_sub(1),
            0,
            DiagramErrorKind::Size(rows),
        ))?;
    let mut board = Board::new(size).map_err(|e| err(0, 0, DiagramErrorKind::Stones(e)))?;
    let mut row = size;
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if !is_row(line) {
            let letters = line.split_whitespace();
            let expected = COLUMNS[..usize::from(size)].iter();
            if letters.clone().count() != usize::from(size)
                || !letters.zip(expected).all(|(l, &e)| l.as_bytes() == [e])
            {
                return Err(err(number, 0, DiagramErrorKind::Header));
            }
            continue;
        }
        row -= 1;
        let mut tokens = line
            .char_indices()
            .filter(|&(_, c)| !c.is_whitespace())
            .peekable();
        let start = tokens.peek().map_or(0, |&(i, _)| i);
        let digits = line[start..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(line.len() - start);
        if line[start..start + digits].parse::<u8>().ok() != Some(row + 1) {
            return Err(err(
                number,
                line[..start].chars().count() + 1,
                DiagramErrorKind::RowNumber { expected: row + 1 },
            ));
        }
        let mut col = 0usize;
        for (i, c) in line[start + digits..].char_indices() {
            // Columns count characters, not bytes.
            let column = line[..start + digits + i].chars().count() + 1;
            let color = match c {
                _ if c.is_whitespace() => continue,
                '.' => None,
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                _ => return Err(err(number, column, DiagramErrorKind::Cell(c))),
            };
            if col >= usize::from(size) {
                col += 1;
                continue;
            }
            if let (Some(color), Some(point)) = (color, board.point(col as u8, row)) {
                board
                    .set_stone(point, color)
                    .map_err(|e| err(number, column, DiagramErrorKind::Stones(e)))?;
            }
            col += 1;
        }
        if col != usize::from(size) {
            return Err(err(
                number,
                0,
                DiagramErrorKind::RowLength {
                    expected: size,
                    found: col,
                },
            ));
        }
    }
    Ok(board)
}
