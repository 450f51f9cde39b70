//! Points of the board as text: GTP vertices (`D4`, `pass`) and SGF points (`dd`, `tt`).
//!
//! GTP counts rows from the bottom and skips the letter `I`; SGF counts rows from the top
//! with lowercase letters, so SGF `aa` is the top-left corner (GTP `A9` on 9x9). Parsers
//! take bytes, so any input (a C string included) is accepted without panicking.

use core::fmt;
use core::str::FromStr;

use crate::Error;

/// The smallest board size GTP vertices are checked against.
pub const MIN_GTP_SIZE: u8 = 2;
/// The largest: GTP has 25 column letters (`A` to `Z` without `I`).
pub const MAX_GTP_SIZE: u8 = 25;
/// The largest board on which SGF `tt` means a pass rather than a point.
pub const MAX_SGF_TT_PASS_SIZE: u8 = 19;

/// A point of the board, 0-based: `col` 0 is column `A`, `row` 0 the bottom row (GTP row 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

/// A move as text knows it: a pass or a stone on a vertex. The colour travels beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoMove {
    Pass,
    Play(Vertex),
}

/// What is wrong with a GTP vertex; [`VertexError::message`] says it in English.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexErrorKind {
    /// The text is empty.
    Empty,
    /// The first character is not a column letter.
    BadColumn,
    /// The column is `I`, which GTP skips to avoid confusion with `J` and `1`.
    IColumn,
    /// The column letter lies beyond the board's last column.
    ColumnOffBoard,
    /// No row number follows the column, or it starts with `0`.
    BadRow,
    /// The row number is 0 or beyond the board's last row.
    RowOffBoard,
    /// Something follows the row number.
    TrailingText,
    /// The vertex is `pass` where a point is needed.
    Pass,
    /// The board size given by the caller is outside 2..=25.
    BadBoardSize,
}

/// A GTP vertex that could not be parsed: what is wrong and the byte offset where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VertexError {
    kind: VertexErrorKind,
    offset: usize,
}

impl VertexError {
    const fn new(kind: VertexErrorKind, offset: usize) -> VertexError {
        VertexError { kind, offset }
    }

    /// What is wrong.
    pub const fn kind(&self) -> VertexErrorKind {
        self.kind
    }

    /// The byte offset in the text where the problem was found.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, in English.
    pub const fn message(&self) -> &'static str {
        match self.kind {
            VertexErrorKind::Empty => "expected a vertex such as 'D4' or 'pass', found nothing",
            VertexErrorKind::BadColumn => "expected a column letter 'A'-'Z'",
            VertexErrorKind::IColumn => "GTP has no column 'I' (the letters skip from 'H' to 'J')",
            VertexErrorKind::ColumnOffBoard => "the column is beyond the edge of the board",
            VertexErrorKind::BadRow => "expected a row number after the column letter",
            VertexErrorKind::RowOffBoard => "the row is beyond the edge of the board",
            VertexErrorKind::TrailingText => "unexpected text after the vertex",
            VertexErrorKind::Pass => "expected a point, not 'pass'",
            VertexErrorKind::BadBoardSize => "GTP vertices exist on boards from 2x2 to 25x25",
        }
    }
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message(), self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for VertexError {}

impl From<VertexError> for Error {
    fn from(_: VertexError) -> Error {
        Error::Parse
    }
}

/// The GTP letter of column `col` (0-based), skipping `I`; `None` past `Z`.
const fn gtp_column_letter(col: u8) -> Option<u8> {
    if col < 8 {
        Some(b'A' + col)
    } else if col < MAX_GTP_SIZE {
        Some(b'A' + col + 1)
    } else {
        None
    }
}

impl Vertex {
    /// The vertex at `col`, `row` if it lies on a board of `size` (any size up to 25).
    pub const fn on_board(col: u8, row: u8, size: u8) -> Option<Vertex> {
        if col < size && row < size && size <= MAX_GTP_SIZE {
            Some(Vertex { col, row })
        } else {
            None
        }
    }

    /// Whether the vertex lies on a board of `size`.
    pub const fn is_on_board(self, size: u8) -> bool {
        self.col < size && self.row < size
    }

    /// Parses a GTP vertex such as `D4` or `t19` (case-insensitive) on a board of `size`
    /// (2..=25). `pass` is an error here: [`GoMove::parse_gtp`] accepts it.
    pub fn parse_gtp(text: &[u8], size: u8) -> Result<Vertex, VertexError> {
        match GoMove::parse_gtp(text, size)? {
            GoMove::Play(vertex) => Ok(vertex),
            GoMove::Pass => Err(VertexError::new(VertexErrorKind::Pass, 0)),
        }
    }

    /// The SGF point of this vertex on a board of `size`: two lowercase letters, column
    /// then row counted from the top. `None` if the vertex is off that board.
    pub const fn to_sgf(self, size: u8) -> Option<[u8; 2]> {
        if !self.is_on_board(size) || size > MAX_GTP_SIZE {
            return None;
        }
        Some([b'a' + self.col, b'a' + (size - 1 - self.row)])
    }

    /// Parses a two-letter SGF point (`aa` is the top-left corner) on a board of `size`.
    /// Pass spellings are not points here; [`GoMove::from_sgf`] reads those.
    pub fn from_sgf(text: &[u8], size: u8) -> Result<Vertex, SgfPointError> {
        let [col, row] = text else {
            return Err(SgfPointError::Malformed);
        };
        if !col.is_ascii_lowercase() || !row.is_ascii_lowercase() {
            return Err(SgfPointError::Malformed);
        }
        let (col, from_top) = (col - b'a', row - b'a');
        if col >= size || from_top >= size || size > MAX_GTP_SIZE {
            return Err(SgfPointError::OffBoard);
        }
        Ok(Vertex {
            col,
            row: size - 1 - from_top,
        })
    }
}

/// Why SGF point text is not a point of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SgfPointError {
    /// Not two lowercase letters.
    Malformed,
    /// Two letters, but outside the board.
    OffBoard,
}

/// The GTP text, e.g. `D4`: a column letter (no `I`) and the row counted from 1 at the bottom.
/// A vertex beyond 25 columns, which no board has, prints as `?` in place of its letter.
impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = gtp_column_letter(self.col).unwrap_or(b'?');
        write!(f, "{}{}", letter as char, u32::from(self.row) + 1)
    }
}

impl GoMove {
    /// Parses a GTP move: `pass` or a vertex such as `D4`, case-insensitive, on a board of
    /// `size` (2..=25). Nothing may precede or follow.
    pub fn parse_gtp(text: &[u8], size: u8) -> Result<GoMove, VertexError> {
        use VertexErrorKind::*;
        let fail = |kind, offset| Err(VertexError::new(kind, offset));
        if !(MIN_GTP_SIZE..=MAX_GTP_SIZE).contains(&size) {
            return fail(BadBoardSize, 0);
        }
        let Some(&first) = text.first() else {
            return fail(Empty, 0);
        };
        if text.eq_ignore_ascii_case(b"pass") {
            return Ok(GoMove::Pass);
        }
        let letter = first.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return fail(BadColumn, 0);
        }
        let col = match letter {
            b'I' => return fail(IColumn, 0),
            b'A'..=b'H' => letter - b'A',
            _ => letter - b'A' - 1,
        };
        if col >= size {
            return fail(ColumnOffBoard, 0);
        }
        // At most two digits are read: no board has a row 100, and the value cannot overflow.
        let digits = text[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        match text.get(1) {
            Some(b'1'..=b'9') => {}
            _ => return fail(BadRow, 1),
        }
        if digits > 2 {
            return fail(RowOffBoard, 1);
        }
        let number = text[1..1 + digits]
            .iter()
            .fold(0u8, |n, d| n * 10 + (d - b'0'));
        if number > size {
            return fail(RowOffBoard, 1);
        }
        if text.len() > 1 + digits {
            return fail(TrailingText, 1 + digits);
        }
        Ok(GoMove::Play(Vertex {
            col,
            row: number - 1,
        }))
    }

    /// Reads an SGF move value on a board of `size`: a point, or a pass (`` (empty) always,
    /// `tt` on boards up to 19x19).
    pub fn from_sgf(text: &[u8], size: u8) -> Result<GoMove, SgfPointError> {
        if text.is_empty() || (text == b"tt" && size <= MAX_SGF_TT_PASS_SIZE) {
            return Ok(GoMove::Pass);
        }
        Vertex::from_sgf(text, size).map(GoMove::Play)
    }
}

/// The GTP text: `pass` or the vertex.
impl fmt::Display for GoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoMove::Pass => f.write_str("pass"),
            GoMove::Play(vertex) => vertex.fmt(f),
        }
    }
}

/// Parses a vertex on the largest GTP board (25x25); use [`Vertex::parse_gtp`] to check
/// against the board in play.
impl FromStr for Vertex {
    type Err = VertexError;

    fn from_str(text: &str) -> Result<Vertex, VertexError> {
        Vertex::parse_gtp(text.as_bytes(), MAX_GTP_SIZE)
    }
}

/// Parses a move on the largest GTP board (25x25); use [`GoMove::parse_gtp`] to check
/// against the board in play.
impl FromStr for GoMove {
    type Err = VertexError;

    fn from_str(text: &str) -> Result<GoMove, VertexError> {
        GoMove::parse_gtp(text.as_bytes(), MAX_GTP_SIZE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;

    fn text(value: impl fmt::Display) -> heapless::String<128> {
        let mut out = heapless::String::new();
        write!(out, "{value}").unwrap();
        out
    }

    fn kind(text: &str, size: u8) -> VertexErrorKind {
        GoMove::parse_gtp(text.as_bytes(), size).unwrap_err().kind()
    }

    #[test]
    fn every_vertex_of_every_size_round_trips_in_gtp_and_sgf() {
        for size in MIN_GTP_SIZE..=MAX_GTP_SIZE {
            for col in 0..size {
                for row in 0..size {
                    let vertex = Vertex { col, row };
                    let gtp = text(vertex);
                    assert_eq!(Vertex::parse_gtp(gtp.as_bytes(), size), Ok(vertex));
                    let lower = gtp.to_ascii_lowercase();
                    assert_eq!(Vertex::parse_gtp(lower.as_bytes(), size), Ok(vertex));
                    let sgf = vertex.to_sgf(size).unwrap();
                    assert_eq!(Vertex::from_sgf(&sgf, size), Ok(vertex));
                    assert_eq!(GoMove::from_sgf(&sgf, size), Ok(GoMove::Play(vertex)));
                }
            }
        }
    }

    #[test]
    fn columns_skip_the_letter_i() {
        assert_eq!(text(Vertex { col: 7, row: 0 }), "H1");
        assert_eq!(text(Vertex { col: 8, row: 0 }), "J1");
        assert_eq!(text(Vertex { col: 18, row: 18 }), "T19");
        assert_eq!(text(Vertex { col: 24, row: 24 }), "Z25");
        assert_eq!("J1".parse(), Ok(Vertex { col: 8, row: 0 }));
        assert_eq!(kind("I5", 19), VertexErrorKind::IColumn);
        assert_eq!(kind("i5", 19), VertexErrorKind::IColumn);
        // On 9x9 the last column is J, and K is off the board.
        assert_eq!(Vertex::parse_gtp(b"J9", 9), Ok(Vertex { col: 8, row: 8 }));
        assert_eq!(kind("K1", 9), VertexErrorKind::ColumnOffBoard);
    }

    #[test]
    fn pass_in_any_case() {
        for pass in ["pass", "PASS", "Pass", "pAsS"] {
            assert_eq!(GoMove::parse_gtp(pass.as_bytes(), 9), Ok(GoMove::Pass));
        }
        assert_eq!(text(GoMove::Pass), "pass");
        assert_eq!(text(GoMove::Play(Vertex { col: 3, row: 3 })), "D4");
        let err = Vertex::parse_gtp(b"pass", 9).unwrap_err();
        assert_eq!(err.kind(), VertexErrorKind::Pass);
    }

    #[test]
    fn errors_name_the_problem_and_where() {
        let at = |text: &str, size| {
            let err = GoMove::parse_gtp(text.as_bytes(), size).unwrap_err();
            (err.kind(), err.offset())
        };
        use VertexErrorKind::*;
        assert_eq!(at("", 9), (Empty, 0));
        assert_eq!(at(" D4", 9), (BadColumn, 0));
        assert_eq!(at("4D", 9), (BadColumn, 0));
        assert_eq!(at("D", 9), (BadRow, 1));
        assert_eq!(at("D0", 9), (BadRow, 1));
        assert_eq!(at("D04", 9), (BadRow, 1));
        assert_eq!(at("Dx", 9), (BadRow, 1));
        assert_eq!(at("D10", 9), (RowOffBoard, 1));
        assert_eq!(at("D100", 19), (RowOffBoard, 1));
        assert_eq!(at("D99999999999", 19), (RowOffBoard, 1));
        assert_eq!(at("D4 ", 9), (TrailingText, 2));
        assert_eq!(at("D19x", 19), (TrailingText, 3));
        assert_eq!(at("passe", 9), (ColumnOffBoard, 0));
        assert_eq!(at("passe", 19), (BadRow, 1));
        assert_eq!(at("D4", 1), (BadBoardSize, 0));
        assert_eq!(at("D4", 26), (BadBoardSize, 0));
        assert_eq!(at("é", 9), (BadColumn, 0));
        assert!(text(GoMove::parse_gtp(b"I1", 9).unwrap_err()).starts_with("GTP has no column"));
        assert_eq!(
            Error::from(GoMove::parse_gtp(b"", 9).unwrap_err()),
            Error::Parse
        );
    }

    #[test]
    fn sgf_points_count_rows_from_the_top() {
        // SGF `aa` is the top-left corner: GTP A9 on 9x9, A19 on 19x19.
        assert_eq!(text(Vertex::from_sgf(b"aa", 9).unwrap()), "A9");
        assert_eq!(text(Vertex::from_sgf(b"aa", 19).unwrap()), "A19");
        assert_eq!(text(Vertex::from_sgf(b"ia", 9).unwrap()), "J9");
        assert_eq!(text(Vertex::from_sgf(b"ai", 9).unwrap()), "A1");
        assert_eq!(text(Vertex::from_sgf(b"ee", 9).unwrap()), "E5");
        assert_eq!(text(Vertex::from_sgf(b"cd", 19).unwrap()), "C16");
        assert_eq!(Vertex { col: 0, row: 0 }.to_sgf(9), Some(*b"ai"));
        assert_eq!(Vertex { col: 9, row: 0 }.to_sgf(9), None);
    }

    #[test]
    fn sgf_passes_and_bad_points() {
        assert_eq!(GoMove::from_sgf(b"", 9), Ok(GoMove::Pass));
        assert_eq!(GoMove::from_sgf(b"tt", 9), Ok(GoMove::Pass));
        assert_eq!(GoMove::from_sgf(b"tt", 19), Ok(GoMove::Pass));
        // On boards beyond 19x19, `tt` is the point T20 (counting from the bottom).
        assert!(matches!(GoMove::from_sgf(b"tt", 21), Ok(GoMove::Play(_))));
        assert_eq!(Vertex::from_sgf(b"tt", 9), Err(SgfPointError::OffBoard));
        assert_eq!(Vertex::from_sgf(b"ja", 9), Err(SgfPointError::OffBoard));
        assert_eq!(Vertex::from_sgf(b"aj", 9), Err(SgfPointError::OffBoard));
        for bad in [&b"a"[..], b"abc", b"AA", b"a1", b"\xff\xff", b" a"] {
            assert_eq!(GoMove::from_sgf(bad, 9), Err(SgfPointError::Malformed));
        }
    }

    #[test]
    fn no_input_panics() {
        // Every one- to three-byte text from an alphabet of interesting bytes, on all sizes.
        let alphabet = b"aAiIzZ0129 \xff.pst";
        for size in 0..=30u8 {
            for &a in alphabet {
                for &b in alphabet {
                    for &c in alphabet {
                        let _ = GoMove::parse_gtp(&[a, b, c], size);
                        let _ = GoMove::parse_gtp(&[a, b], size);
                        let _ = GoMove::from_sgf(&[a, b], size);
                        let _ = GoMove::from_sgf(&[a, b, c], size);
                    }
                }
            }
        }
    }
}
