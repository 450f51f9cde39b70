//! Text for positions, moves and sizes: parsing with errors that say what is wrong and
//! where, and printing that parses back to the same value.
//!
//! Parsers work on bytes, so they accept any input (C strings included) without panicking;
//! the `FromStr` impls call them.

use core::fmt;
use core::str::FromStr;

use super::{Color, InvalidPosition, Move, Position, Size, Square};
use crate::Error;

/// Text that could not be parsed: what is wrong and the byte offset where it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    kind: ParseErrorKind,
    offset: usize,
}

/// What is wrong with a text; [`ParseError::message`] says it in English.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseErrorKind {
    /// A cell is not `W`, `B` or `.` (or a row ends with something other than `/`).
    BadCell,
    /// A row has fewer than 2 or more than 8 cells.
    Columns,
    /// The board has fewer than 4 or more than 8 rows.
    Rows,
    /// A row is not as long as the first one.
    RowLength,
    /// The text ends before the side to move.
    MissingSide,
    /// The side to move is not `w` or `b`.
    BadSide,
    /// Something follows the end of the text.
    TrailingText,
    /// The pawns do not form a valid position.
    Invalid(InvalidPosition),
    /// A square is not a file `a`–`h` followed by a rank `1`–`8`.
    BadSquare,
    /// The squares of a move are not separated by `-` or `x`.
    BadSeparator,
    /// A board size is not `CxR` with single digits.
    BadSize,
}

impl ParseError {
    pub(crate) const fn new(kind: ParseErrorKind, offset: usize) -> ParseError {
        ParseError { kind, offset }
    }

    /// What is wrong.
    pub const fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The byte offset in the text where the problem was found (0 when the text is well
    /// formed but the position it describes is invalid).
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, in English.
    pub const fn message(&self) -> &'static str {
        match self.kind {
            ParseErrorKind::BadCell => {
                "expected a cell ('W', 'B' or '.'), '/' between rows, or a space before the side"
            }
            ParseErrorKind::Columns => "a board has 2 to 8 columns",
            ParseErrorKind::Rows => "a board has 4 to 8 rows",
            ParseErrorKind::RowLength => "every row must be as long as the first",
            ParseErrorKind::MissingSide => "expected a space and the side to move ('w' or 'b')",
            ParseErrorKind::BadSide => "the side to move must be 'w' or 'b'",
            ParseErrorKind::TrailingText => "unexpected text after the end",
            ParseErrorKind::Invalid(invalid) => invalid.message(),
            ParseErrorKind::BadSquare => "expected a square: a file 'a'-'h', then a rank '1'-'8'",
            ParseErrorKind::BadSeparator => "expected '-' for a move or 'x' for a capture",
            ParseErrorKind::BadSize => "expected a board size such as '6x5' (columns x rows)",
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message(), self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ParseError {}

impl From<ParseError> for Error {
    fn from(_: ParseError) -> Error {
        Error::Parse
    }
}

fn fail<T>(kind: ParseErrorKind, offset: usize) -> Result<T, ParseError> {
    Err(ParseError::new(kind, offset))
}

impl Position {
    /// The longest position text: 8 rows of 8 cells, 7 slashes, a space and the side.
    pub const MAX_TEXT_LEN: usize = 8 * 8 + 7 + 2;

    /// Parses a position, e.g. `BBBBB/BBBBB/...../WWWWW/WWWWW w`: ranks from the top, `W`,
    /// `B` or `.` per cell, `/` between ranks, a space, then `w` or `b`. The size follows
    /// from the text. Nothing may precede or follow.
    pub fn parse_bytes(text: &[u8]) -> Result<Position, ParseError> {
        // Rows as read, top first: one bit per file.
        let mut white_rows = [0u8; 8];
        let mut black_rows = [0u8; 8];
        let mut rows = 0usize;
        let mut width = 0u8;
        let mut columns: Option<u8> = None;
        let mut i = 0;
        loop {
            let Some(&c) = text.get(i) else {
                return fail(ParseErrorKind::MissingSide, i);
            };
            match c {
                b'W' | b'B' | b'.' => {
                    if rows == 8 {
                        return fail(ParseErrorKind::Rows, i);
                    }
                    if columns == Some(width) {
                        return fail(ParseErrorKind::RowLength, i);
                    }
                    if width == 8 {
                        return fail(ParseErrorKind::Columns, i);
                    }
                    if c == b'W' {
                        white_rows[rows] |= 1 << width;
                    } else if c == b'B' {
                        black_rows[rows] |= 1 << width;
                    }
                    width += 1;
                }
                b'/' | b' ' => {
                    match columns {
                        None if width < 2 => return fail(ParseErrorKind::Columns, i),
                        None => columns = Some(width),
                        Some(expected) if width != expected => {
                            return fail(ParseErrorKind::RowLength, i);
                        }
                        Some(_) => {}
                    }
                    rows += 1;
                    width = 0;
                    if c == b' ' {
                        if rows < 4 {
                            return fail(ParseErrorKind::Rows, i);
                        }
                        break;
                    }
                    if rows == 8 {
                        return fail(ParseErrorKind::Rows, i);
                    }
                }
                _ => return fail(ParseErrorKind::BadCell, i),
            }
            i += 1;
        }
        let turn = match text.get(i + 1) {
            Some(b'w') => Color::White,
            Some(b'b') => Color::Black,
            Some(_) => return fail(ParseErrorKind::BadSide, i + 1),
            None => return fail(ParseErrorKind::MissingSide, i + 1),
        };
        if text.len() > i + 2 {
            return fail(ParseErrorKind::TrailingText, i + 2);
        }
        let (mut white, mut black) = (0u64, 0u64);
        for row in 0..rows {
            let rank = rows - 1 - row;
            white |= u64::from(white_rows[row]) << (8 * rank);
            black |= u64::from(black_rows[row]) << (8 * rank);
        }
        // The loop above admitted only 2..=8 columns and 4..=8 rows.
        let size = match Size::new_checked(columns.unwrap_or(0), rows as u8) {
            Ok(size) => size,
            Err(_) => return fail(ParseErrorKind::Rows, i),
        };
        Position::from_bitboards(size, white, black, turn)
            .map_err(|invalid| ParseError::new(ParseErrorKind::Invalid(invalid), 0))
    }
}

impl FromStr for Position {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Position, ParseError> {
        Position::parse_bytes(text.as_bytes())
    }
}

/// The text format: ranks from the top, `/` between them, a space, the side to move.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (columns, rows) = (self.size().columns(), self.size().rows());
        for rank in (0..rows).rev() {
            for file in 0..columns {
                let cell = match Square::new(file, rank).and_then(|s| self.pawn_at(s)) {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None => '.',
                };
                fmt::Write::write_char(f, cell)?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str(match self.side_to_move() {
            Color::White => " w",
            Color::Black => " b",
        })
    }
}

/// A square at `text[at..at + 2]`.
fn parse_square(text: &[u8], at: usize) -> Result<Square, ParseError> {
    let file = match text.get(at) {
        Some(&c @ b'a'..=b'h') => c - b'a',
        _ => return fail(ParseErrorKind::BadSquare, at),
    };
    let rank = match text.get(at + 1) {
        Some(&c @ b'1'..=b'8') => c - b'1',
        _ => return fail(ParseErrorKind::BadSquare, at + 1),
    };
    match Square::new(file, rank) {
        Some(square) => Ok(square),
        None => fail(ParseErrorKind::BadSquare, at),
    }
}

impl Move {
    /// The length of a move's text, `a2-a3`.
    pub const TEXT_LEN: usize = 5;

    /// Parses `a2-a3` or, for a capture, `b4xa3`. Only the text is checked; whether the
    /// move is legal is a question for the position ([`Position::try_play`]).
    pub fn parse_bytes(text: &[u8]) -> Result<Move, ParseError> {
        let from = parse_square(text, 0)?;
        let capture = match text.get(2) {
            Some(b'-') => false,
            Some(b'x') => true,
            _ => return fail(ParseErrorKind::BadSeparator, 2),
        };
        let to = parse_square(text, 3)?;
        if text.len() > Self::TEXT_LEN {
            return fail(ParseErrorKind::TrailingText, Self::TEXT_LEN);
        }
        Ok(Move::new(from, to, capture))
    }
}

impl FromStr for Move {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Move, ParseError> {
        Move::parse_bytes(text.as_bytes())
    }
}

impl Size {
    /// Parses `CxR`, e.g. `6x5` (six columns, five rows).
    pub fn parse_bytes(text: &[u8]) -> Result<Size, ParseError> {
        let columns = match text.first() {
            Some(&c @ b'0'..=b'9') => c - b'0',
            _ => return fail(ParseErrorKind::BadSize, 0),
        };
        if text.get(1) != Some(&b'x') {
            return fail(ParseErrorKind::BadSize, 1);
        }
        let rows = match text.get(2) {
            Some(&c @ b'0'..=b'9') => c - b'0',
            _ => return fail(ParseErrorKind::BadSize, 2),
        };
        if text.len() > 3 {
            return fail(ParseErrorKind::TrailingText, 3);
        }
        if !(Size::MIN_COLUMNS..=Size::MAX_COLUMNS).contains(&columns) {
            return fail(ParseErrorKind::Columns, 0);
        }
        if !(Size::MIN_ROWS..=Size::MAX_ROWS).contains(&rows) {
            return fail(ParseErrorKind::Rows, 2);
        }
        Size::new_checked(columns, rows).or(fail(ParseErrorKind::BadSize, 0))
    }
}

impl FromStr for Size {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Size, ParseError> {
        Size::parse_bytes(text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::{MoveList, Status, text_of};
    use rand_core::{Rng, SeedableRng};
    use rand_xorshift::XorShiftRng;

    fn err(text: &str) -> (ParseErrorKind, usize) {
        let e = text.parse::<Position>().unwrap_err();
        (e.kind(), e.offset())
    }

    #[test]
    fn start_positions_print_and_parse_back() {
        for columns in 2..=8 {
            for rows in 4..=8 {
                let size = Size::new_checked(columns, rows).unwrap();
                let start = Position::start(size);
                let text = text_of(start);
                assert_eq!(
                    text.len(),
                    columns as usize * rows as usize + rows as usize + 1
                );
                assert!(text.len() <= Position::MAX_TEXT_LEN);
                assert_eq!(text.parse::<Position>(), Ok(start));
                assert_eq!(text_of(size).parse::<Size>(), Ok(size));
            }
        }
        assert_eq!(
            text_of(Position::start(Size::new_checked(6, 5).unwrap())),
            "BBBBBB/BBBBBB/....../WWWWWW/WWWWWW w"
        );
    }

    #[test]
    fn positions_along_random_games_round_trip() {
        let mut rng = XorShiftRng::seed_from_u64(7);
        let mut moves = MoveList::new();
        for (columns, rows) in [(2, 4), (3, 7), (6, 5), (8, 8), (8, 4)] {
            let mut p = Position::start(Size::new_checked(columns, rows).unwrap());
            loop {
                let text = text_of(p);
                assert_eq!(text.parse::<Position>(), Ok(p), "{text}");
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    assert_eq!(text_of(mv).parse::<Move>(), Ok(mv));
                }
                let mv = moves[rng.next_u32() as usize % moves.len()];
                p.play(mv);
            }
            assert!(p.status().is_over());
        }
    }

    #[test]
    fn a_position_after_a_win_parses() {
        let p: Position = "..W./B.../..../.... b".parse().unwrap();
        assert_eq!(p.status(), Status::WhiteWon);
        let p: Position = "..../..../..../W... b".parse().unwrap();
        assert_eq!(p.status(), Status::WhiteWon);
    }

    #[test]
    fn position_errors_say_what_and_where() {
        use ParseErrorKind::*;
        // Wrong row counts.
        assert_eq!(err("BBB/.../WWW w"), (Rows, 11));
        assert_eq!(err("BB/BB/BB/BB/BB/BB/BB/BB/BB w"), (Rows, 23));
        assert_eq!(err("BB/BB/BB/BB/BB/BB/BB/BBB w"), (RowLength, 23));
        // Columns out of range and uneven rows.
        assert_eq!(err("B/B/W/W w"), (Columns, 1));
        assert_eq!(err("/B/W/W w"), (Columns, 0));
        assert_eq!(
            err("BBBBBBBBB/BBBBBBBBB/........./WWWWWWWWW w"),
            (Columns, 8)
        );
        assert_eq!(err("BBB/BB/.../WWW w"), (RowLength, 6));
        assert_eq!(err("BB/BBB/.../WWW w"), (RowLength, 5));
        // Bad characters.
        assert_eq!(err("BBB/BxB/.../WWW w"), (BadCell, 5));
        assert_eq!(err("BBB/BBB/.../WWW\tw"), (BadCell, 15));
        assert_eq!(err("bbb/.../.../www w"), (BadCell, 0));
        assert_eq!(err("BBB/.../.../WWé w"), (BadCell, 14));
        // Side to move.
        assert_eq!(err("BBB/.../.../WWW x"), (BadSide, 16));
        assert_eq!(err("BBB/.../.../WWW W"), (BadSide, 16));
        assert_eq!(err("BBB/.../.../WWW "), (MissingSide, 16));
        assert_eq!(err("BBB/.../.../WWW"), (MissingSide, 15));
        assert_eq!(err(""), (MissingSide, 0));
        assert_eq!(err("BBB/.../.../WWW w "), (TrailingText, 17));
        assert_eq!(err("BBB/.../.../WWW wb"), (TrailingText, 17));
        // Valid text, invalid position.
        assert_eq!(
            err("BBB/.../.../WWW/WWW/WWW b"),
            (Invalid(InvalidPosition::TooManyPawns), 0)
        );
        assert_eq!(
            err("W../.../.../B.. w"),
            (Invalid(InvalidPosition::SideToMoveHasWon), 0)
        );
        assert_eq!(
            err(".../.../.../WWW w"),
            (Invalid(InvalidPosition::SideToMoveHasWon), 0)
        );
        let e = "BBB/.../.../WWW x".parse::<Position>().unwrap_err();
        assert_eq!(
            text_of(e),
            "the side to move must be 'w' or 'b' (at byte 16)"
        );
        assert_eq!(Error::from(e), Error::Parse);
    }

    #[test]
    fn moves_and_sizes_parse_and_fail() {
        use ParseErrorKind::*;
        let mv: Move = "b4xa3".parse().unwrap();
        assert!(mv.is_capture());
        assert_eq!(text_of(mv), "b4xa3");
        assert_eq!(text_of("h7-h8".parse::<Move>().unwrap()), "h7-h8");
        let bad = |t: &str| {
            let e = t.parse::<Move>().unwrap_err();
            (e.kind(), e.offset())
        };
        assert_eq!(bad(""), (BadSquare, 0));
        assert_eq!(bad("i2-i3"), (BadSquare, 0));
        assert_eq!(bad("a9-a8"), (BadSquare, 1));
        assert_eq!(bad("a2a3"), (BadSeparator, 2));
        assert_eq!(bad("a2*a3"), (BadSeparator, 2));
        assert_eq!(bad("a2-a"), (BadSquare, 4));
        assert_eq!(bad("a2-a3 "), (TrailingText, 5));
        assert_eq!(bad("A2-A3"), (BadSquare, 0));

        assert_eq!("6x5".parse::<Size>(), Ok(Size::new_checked(6, 5).unwrap()));
        let bad = |t: &str| {
            let e = t.parse::<Size>().unwrap_err();
            (e.kind(), e.offset())
        };
        assert_eq!(bad("1x5"), (Columns, 0));
        assert_eq!(bad("9x5"), (Columns, 0));
        assert_eq!(bad("6x3"), (Rows, 2));
        assert_eq!(bad("6x9"), (Rows, 2));
        assert_eq!(bad("10x5"), (BadSize, 1));
        assert_eq!(bad("6X5"), (BadSize, 1));
        assert_eq!(bad("6x"), (BadSize, 2));
        assert_eq!(bad("6x55"), (TrailingText, 3));
        assert_eq!(bad(""), (BadSize, 0));
    }

    /// Bytes that matter to the parsers, plus a few that do not.
    const ALPHABET: &[u8] = b"WB./ wbx-a18\xff";

    #[test]
    fn parsers_never_panic() {
        // Every string of up to 5 bytes over the alphabet...
        let mut buf = [0u8; 5];
        for len in 0..=5usize {
            let count = ALPHABET.len().pow(len as u32);
            for mut n in 0..count {
                for b in buf.iter_mut().take(len) {
                    *b = ALPHABET[n % ALPHABET.len()];
                    n /= ALPHABET.len();
                }
                let _ = Position::parse_bytes(&buf[..len]);
                let _ = Move::parse_bytes(&buf[..len]);
                let _ = Size::parse_bytes(&buf[..len]);
            }
        }
        // ...and random mutations of valid texts, which reach deeper into the parser.
        let mut rng = XorShiftRng::seed_from_u64(99);
        let seeds: [&[u8]; 3] = [
            b"BBBBBB/BBBBBB/....../WWWWWW/WWWWWW w",
            b"BBBBBBBB/BBBBBBBB/......../......../......../......../WWWWWWWW/WWWWWWWW w",
            b"BB/BB/../WW/WW b",
        ];
        let mut text = [0u8; 96];
        for round in 0..20_000 {
            let seed = seeds[round % seeds.len()];
            let mut len = seed.len();
            text[..len].copy_from_slice(seed);
            for _ in 0..1 + rng.next_u32() % 4 {
                let at = rng.next_u32() as usize % (len + 1);
                let byte = ALPHABET[rng.next_u32() as usize % ALPHABET.len()];
                match rng.next_u32() % 3 {
                    0 if at < len => text[at] = byte,
                    1 if len < text.len() => {
                        text.copy_within(at..len, at + 1);
                        text[at] = byte;
                        len += 1;
                    }
                    _ if at < len => {
                        text.copy_within(at + 1..len, at);
                        len -= 1;
                    }
                    _ => {}
                }
            }
            if let Ok(p) = Position::parse_bytes(&text[..len]) {
                assert_eq!(text_of(p).as_bytes(), &text[..len]);
            }
        }
    }
}
