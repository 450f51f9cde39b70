//! SGF (FF[4], GM[1]) for whole games: a reader that takes the main line of a game tree
//! into a fixed-capacity [`GameRecord`], and a writer whose output reads back to the same
//! record.
//!
//! The reader keeps board size, komi, rules, player names, result, setup stones and the
//! moves of the main line (the first variation at every branch); other properties and the
//! other variations are skipped. Errors say what is wrong with a line and column. It works
//! on bytes, never allocates and never panics, whatever the input.
//!
//! ```
//! use arbor::go::Color;
//! use arbor::go::sgf::GameRecord;
//! use arbor::go::vertex::GoMove;
//!
//! let record: GameRecord = "(;GM[1]FF[4]SZ[9]KM[7.5]AB[cc];W[ee];B[])".parse().unwrap();
//! assert_eq!((record.size, record.komi), (9, 7.5));
//! // Replaying onto a board: setup stones first, then the moves in order.
//! let (color, vertex) = record.setup_stones().next().unwrap();
//! assert_eq!((color, vertex.to_string().as_str()), (Color::Black, "C7"));
//! assert_eq!(record.moves[0].color, Color::White);
//! assert_eq!(record.moves[0].mv.to_string(), "E5");
//! assert_eq!(record.moves[1].mv, GoMove::Pass);
//! // What the writer prints reads back to the same record.
//! assert_eq!(record.to_string().parse::<GameRecord>().unwrap(), record);
//!
//! let error = "(;SZ[9];B[jj])".parse::<GameRecord>().unwrap_err();
//! assert_eq!(error.to_string(), "SGF line 1, column 11: this point is off the board");
//! ```

use core::fmt;
use core::str::FromStr;

use heapless::{String, Vec};

use super::Color;
use super::vertex::{GoMove, SgfPointError, Vertex};
use crate::Error;

/// The smallest board arbor plays.
pub const MIN_SIZE: u8 = 5;
/// The largest board arbor plays.
pub const MAX_SIZE: u8 = 19;
/// Setup stones per colour: every point of a 19x19 board.
pub const MAX_SETUP: usize = 19 * 19;
/// Moves of a record: three per point of 19x19, beyond any game played to its end (the
/// longest professional games have about 400 moves; the engine's own cap is lower still).
pub const MAX_MOVES: usize = 3 * 19 * 19;
/// Bytes of a text property (rules, player names, result) once unescaped.
pub const MAX_TEXT: usize = 64;
/// The largest komi magnitude accepted: far beyond the area of any board.
pub const MAX_KOMI: f32 = 1000.0;

/// A bounded text property (UTF-8, at most [`MAX_TEXT`] bytes).
pub type Text = String<MAX_TEXT>;

/// A move of the record with its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SgfMove {
    pub color: Color,
    pub mv: GoMove,
}

/// One game as SGF holds it. Setup stones are placed on the empty board before the first
/// move; colours of moves are as recorded (a handicap game starts with White).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Board size, [`MIN_SIZE`]..=[`MAX_SIZE`] (SGF's default 19 when `SZ` is absent).
    pub size: u8,
    /// Komi (0 when `KM` is absent, as SGF readers usually take it).
    pub komi: f32,
    /// `RU`, kept as text (empty when absent).
    pub rules: Text,
    /// `PB` (empty when absent).
    pub black_name: Text,
    /// `PW` (empty when absent).
    pub white_name: Text,
    /// `RE`, such as `B+R` or `W+3.5` (empty when absent).
    pub result: Text,
    /// `AB` stones, in the order read.
    pub black_setup: Vec<Vertex, MAX_SETUP>,
    /// `AW` stones, in the order read.
    pub white_setup: Vec<Vertex, MAX_SETUP>,
    /// The main line.
    pub moves: Vec<SgfMove, MAX_MOVES>,
}

impl Default for GameRecord {
    /// An empty 19x19 record with no komi, as a file with no properties reads.
    fn default() -> GameRecord {
        GameRecord {
            size: MAX_SIZE,
            komi: 0.0,
            rules: Text::new(),
            black_name: Text::new(),
            white_name: Text::new(),
            result: Text::new(),
            black_setup: Vec::new(),
            white_setup: Vec::new(),
            moves: Vec::new(),
        }
    }
}

/// What is wrong with an SGF text; [`SgfError::message`] says it in English.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SgfErrorKind {
    /// The text does not start with `(` (after white space).
    ExpectedGameTree,
    /// A game tree does not start with a node `;`, or holds something that is not a node.
    ExpectedNode,
    /// Something in a node is not a property identifier (capital letters).
    ExpectedProperty,
    /// A property identifier is not followed by `[`.
    MissingValue,
    /// A `[` is never closed by `]`.
    UnclosedValue,
    /// The text ends before every `(` is closed by `)`.
    UnclosedTree,
    /// A `)` closes no `(`.
    UnmatchedParenthesis,
    /// A node follows the variations of a game tree.
    NodeAfterVariations,
    /// After a variation, something other than `(` (another variation) or `)`.
    ExpectedVariation,
    /// Something follows the game tree (a second game included).
    TrailingText,
    /// A property appears twice in one node.
    DuplicateProperty,
    /// `SZ`, `FF` or `GM` outside the first node.
    RootPropertyOutsideRoot,
    /// `FF` is not 1 to 4.
    UnsupportedFormat,
    /// `GM` is not 1 (Go).
    UnsupportedGame,
    /// `SZ` is not a number from 5 to 19.
    BadSize,
    /// `SZ[columns:rows]` with two different numbers.
    NonSquareBoard,
    /// `KM` is not a decimal number within ±1000.
    BadKomi,
    /// A text property is longer than [`MAX_TEXT`] bytes.
    TextTooLong,
    /// A text property is not UTF-8.
    NotUtf8,
    /// A property that takes one value has several (a move given as two points).
    SeveralValues,
    /// A point is not two lowercase letters (or a setup point is a pass).
    BadPoint,
    /// A point lies outside the board.
    OffBoard,
    /// One node holds both a `B` and a `W` move.
    BothColorsInNode,
    /// The main line has more than [`MAX_MOVES`] moves.
    TooManyMoves,
    /// A setup point is given twice (in one colour or both).
    DuplicateSetup,
    /// More setup stones than [`MAX_SETUP`] for one colour.
    TooManySetupStones,
    /// `AB`, `AW` or `AE` after the first move, which a record of one position and its
    /// moves cannot hold.
    SetupAfterMoves,
}

/// An SGF text that could not be read: what is wrong and where (line and column from 1,
/// the column in bytes, and the byte offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SgfError {
    kind: SgfErrorKind,
    line: u32,
    column: u32,
    offset: usize,
}

impl SgfError {
    fn at(text: &[u8], offset: usize, kind: SgfErrorKind) -> SgfError {
        let before = text.get(..offset).unwrap_or(text);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |newline| newline + 1);
        let lines = before.iter().filter(|&&b| b == b'\n').count();
        SgfError {
            kind,
            line: u32::try_from(lines + 1).unwrap_or(u32::MAX),
            column: u32::try_from(before.len() - line_start + 1).unwrap_or(u32::MAX),
            offset: before.len(),
        }
    }

    /// What is wrong.
    pub const fn kind(&self) -> SgfErrorKind {
        self.kind
    }

    /// The line of the problem, counting from 1.
    pub const fn line(&self) -> u32 {
        self.line
    }

    /// The column of the problem in bytes, counting from 1.
    pub const fn column(&self) -> u32 {
        self.column
    }

    /// The byte offset of the problem in the text.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, in English.
    pub const fn message(&self) -> &'static str {
        use SgfErrorKind::*;
        match self.kind {
            ExpectedGameTree => "expected '(' to begin the game tree",
            ExpectedNode => "expected ';' to begin a node",
            ExpectedProperty => "expected a property identifier in capital letters",
            MissingValue => "expected '[' and a value after the property identifier",
            UnclosedValue => "this '[' is never closed by ']'",
            UnclosedTree => "the text ends before every '(' is closed by ')'",
            UnmatchedParenthesis => "this ')' closes no '('",
            NodeAfterVariations => "a node cannot follow the variations of a game tree",
            ExpectedVariation => "expected '(' for another variation or ')' to close the tree",
            TrailingText => "unexpected text after the game tree (one game per file)",
            DuplicateProperty => "this property appears twice in one node",
            RootPropertyOutsideRoot => "SZ, FF and GM belong in the first node only",
            UnsupportedFormat => "FF must be 1 to 4",
            UnsupportedGame => "GM must be 1 (Go)",
            BadSize => "SZ must be a board size from 5 to 19",
            NonSquareBoard => "only square boards are supported (SZ[9], not SZ[9:7])",
            BadKomi => "KM must be a decimal number such as 7.5, within -1000 to 1000",
            TextTooLong => "this text is longer than 64 bytes",
            NotUtf8 => "this text is not UTF-8",
            SeveralValues => "this property takes one value (a move is one point)",
            BadPoint => "expected a point: two lowercase letters such as 'dd'",
            OffBoard => "this point is off the board",
            BothColorsInNode => "a node cannot hold both a B and a W move",
            TooManyMoves => "the game has more moves than a record holds (1083)",
            DuplicateSetup => "this setup point is already given",
            TooManySetupStones => "more setup stones than a record holds (361 per colour)",
            SetupAfterMoves => "setup stones after the first move are not supported",
        }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SGF line {}, column {}: {}",
            self.line,
            self.column,
            self.message()
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SgfError {}

impl From<SgfError> for Error {
    fn from(error: SgfError) -> Error {
        match error.kind {
            SgfErrorKind::TooManyMoves | SgfErrorKind::TooManySetupStones => {
                Error::CapacityExhausted
            }
            _ => Error::Parse,
        }
    }
}

/// The offset of the `]` that closes the value opened by the `[` at `open`, past escapes.
fn value_end(text: &[u8], open: usize) -> Option<usize> {
    let mut i = open + 1;
    loop {
        match text.get(i)? {
            b'\\' => i += 2,
            b']' => return Some(i),
            _ => i += 1,
        }
    }
}

/// The properties of arbor's record; every other identifier is skipped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Known {
    Size,
    Format,
    Game,
    Komi,
    Rules,
    BlackName,
    WhiteName,
    Result,
    Black,
    White,
    AddBlack,
    AddWhite,
    AddEmpty,
}

impl Known {
    fn of(ident: &[u8]) -> Option<Known> {
        Some(match ident {
            b"SZ" => Known::Size,
            b"FF" => Known::Format,
            b"GM" => Known::Game,
            b"KM" => Known::Komi,
            b"RU" => Known::Rules,
            b"PB" => Known::BlackName,
            b"PW" => Known::WhiteName,
            b"RE" => Known::Result,
            b"B" => Known::Black,
            b"W" => Known::White,
            b"AB" => Known::AddBlack,
            b"AW" => Known::AddWhite,
            b"AE" => Known::AddEmpty,
            _ => return None,
        })
    }
}

/// A property as found in the text: where its identifier is and where its values are.
#[derive(Clone, Copy)]
struct Property {
    ident_at: usize,
    known: Option<Known>,
    values_at: usize,
    values_end: usize,
}

/// One value of a property: the offset of its content and the content, still escaped.
#[derive(Clone, Copy)]
struct Value<'a> {
    at: usize,
    raw: &'a [u8],
}

/// The reader's state over the main line.
struct Reader<'a, 'r> {
    text: &'a [u8],
    pos: usize,
    record: &'r mut GameRecord,
    /// Setup points in either colour, one bit per `row * size + col`.
    occupied: [u64; 6],
}

impl<'a> Reader<'a, '_> {
    fn fail<T>(&self, offset: usize, kind: SgfErrorKind) -> Result<T, SgfError> {
        Err(SgfError::at(self.text, offset, kind))
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// The next property of the current node, or `None` at the node's end.
    fn next_property(&mut self) -> Result<Option<Property>, SgfError> {
        self.skip_space();
        let ident_at = self.pos;
        match self.peek() {
            Some(b) if b.is_ascii_uppercase() => {}
            None | Some(b';' | b'(' | b')') => return Ok(None),
            Some(_) => return self.fail(ident_at, SgfErrorKind::ExpectedProperty),
        }
        // Old formats mixed lowercase into identifiers; such a property is simply unknown.
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.pos += 1;
        }
        let known = Known::of(&self.text[ident_at..self.pos]);
        self.skip_space();
        if self.peek() != Some(b'[') {
            return self.fail(self.pos, SgfErrorKind::MissingValue);
        }
        let values_at = self.pos;
        while self.peek() == Some(b'[') {
            let Some(end) = value_end(self.text, self.pos) else {
                return self.fail(self.pos, SgfErrorKind::UnclosedValue);
            };
            self.pos = end + 1;
            self.skip_space();
        }
        Ok(Some(Property {
            ident_at,
            known,
            values_at,
            values_end: self.pos,
        }))
    }

    /// The values of a property that [`Reader::next_property`] has checked.
    fn values(&self, property: Property) -> impl Iterator<Item = Value<'a>> + use<'a> {
        let text = self.text;
        let mut pos = property.values_at;
        core::iter::from_fn(move || {
            while pos < property.values_end && text.get(pos)?.is_ascii_whitespace() {
                pos += 1;
            }
            if pos >= property.values_end {
                return None;
            }
            let end = value_end(text, pos)?;
            let value = Value {
                at: pos + 1,
                raw: text.get(pos + 1..end)?,
            };
            pos = end + 1;
            Some(value)
        })
    }

    /// The one value of a property that takes one.
    fn single_value(&self, property: Property) -> Result<Value<'a>, SgfError> {
        let mut values = self.values(property);
        let Some(first) = values.next() else {
            return self.fail(property.ident_at, SgfErrorKind::MissingValue);
        };
        match values.next() {
            Some(second) => self.fail(second.at, SgfErrorKind::SeveralValues),
            None => Ok(first),
        }
    }

    /// Reads one node (the `;` is behind), taking the root properties if it is the first.
    fn read_node(&mut self, is_root: bool) -> Result<(), SgfError> {
        let start = self.pos;
        if is_root {
            // Points need the board size, which may come after them in the node.
            while let Some(property) = self.next_property()? {
                if property.known == Some(Known::Size) {
                    let value = self.single_value(property)?;
                    self.record.size = self.size(value)?;
                }
            }
            self.pos = start;
        }
        let mut seen = 0u16;
        while let Some(property) = self.next_property()? {
            let Some(known) = property.known else {
                continue;
            };
            let bit = 1u16 << known as u16;
            if seen & bit != 0 {
                return self.fail(property.ident_at, SgfErrorKind::DuplicateProperty);
            }
            seen |= bit;
            self.read_property(property, known, is_root, seen)?;
        }
        Ok(())
    }

    fn read_property(
        &mut self,
        property: Property,
        known: Known,
        is_root: bool,
        seen: u16,
    ) -> Result<(), SgfError> {
        use SgfErrorKind::*;
        let at = property.ident_at;
        match known {
            Known::Size | Known::Format | Known::Game if !is_root => {
                self.fail(at, RootPropertyOutsideRoot)
            }
            Known::Size => Ok(()), // read before the rest of the root node
            Known::Format => {
                let value = self.single_value(property)?;
                match number(value.raw) {
                    Some(1..=4) => Ok(()),
                    _ => self.fail(value.at, UnsupportedFormat),
                }
            }
            Known::Game => {
                let value = self.single_value(property)?;
                match number(value.raw) {
                    Some(1) => Ok(()),
                    _ => self.fail(value.at, UnsupportedGame),
                }
            }
            Known::Komi => {
                let value = self.single_value(property)?;
                match komi(value.raw) {
                    Some(komi) => {
                        self.record.komi = komi;
                        Ok(())
                    }
                    None => self.fail(value.at, BadKomi),
                }
            }
            Known::Rules => self.text_property(property, |r| &mut r.rules),
            Known::BlackName => self.text_property(property, |r| &mut r.black_name),
            Known::WhiteName => self.text_property(property, |r| &mut r.white_name),
            Known::Result => self.text_property(property, |r| &mut r.result),
            Known::Black | Known::White => {
                let (color, other) = match known {
                    Known::Black => (Color::Black, Known::White),
                    _ => (Color::White, Known::Black),
                };
                if seen & (1 << other as u16) != 0 {
                    return self.fail(at, BothColorsInNode);
                }
                let value = self.single_value(property)?;
                let mv = match GoMove::from_sgf(value.raw, self.record.size) {
                    Ok(mv) => mv,
                    Err(error) => return self.fail(value.at, point_error(error)),
                };
                match self.record.moves.push(SgfMove { color, mv }) {
                    Ok(()) => Ok(()),
                    Err(_) => self.fail(at, TooManyMoves),
                }
            }
            Known::AddBlack | Known::AddWhite | Known::AddEmpty => {
                if !self.record.moves.is_empty() {
                    return self.fail(at, SetupAfterMoves);
                }
                for value in self.values(property) {
                    let Some((first, last)) = self.point_range(value)? else {
                        return self.fail(value.at, BadPoint);
                    };
                    for col in first.col..=last.col {
                        for row in first.row..=last.row {
                            self.setup(known, Vertex { col, row }, value.at)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Puts `vertex` in the setup of `known` (`AB`, `AW`) or takes it out (`AE`).
    fn setup(&mut self, known: Known, vertex: Vertex, at: usize) -> Result<(), SgfError> {
        let index =
            usize::from(vertex.row) * usize::from(self.record.size) + usize::from(vertex.col);
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let Some(occupied) = self.occupied.get(word).copied() else {
            return self.fail(at, SgfErrorKind::OffBoard);
        };
        let list = match known {
            Known::AddBlack => &mut self.record.black_setup,
            Known::AddWhite => &mut self.record.white_setup,
            _ => {
                self.occupied[word] = occupied & !bit;
                self.record.black_setup.retain(|&v| v != vertex);
                self.record.white_setup.retain(|&v| v != vertex);
                return Ok(());
            }
        };
        if occupied & bit != 0 {
            return self.fail(at, SgfErrorKind::DuplicateSetup);
        }
        if list.push(vertex).is_err() {
            return self.fail(at, SgfErrorKind::TooManySetupStones);
        }
        self.occupied[word] = occupied | bit;
        Ok(())
    }

    /// A setup value: one point, or a rectangle `aa:cc` given by two opposite corners.
    /// Returns the lowest and highest corners, or `None` for a pass.
    fn point_range(&self, value: Value<'a>) -> Result<Option<(Vertex, Vertex)>, SgfError> {
        let size = self.record.size;
        let point = |raw: &[u8], at: usize| match Vertex::from_sgf(raw, size) {
            Ok(vertex) => Ok(vertex),
            Err(error) => self.fail(at, point_error(error)),
        };
        match value.raw {
            [] => Ok(None),
            [a, b, b':', c, d] => {
                let (one, two) = (point(&[*a, *b], value.at)?, point(&[*c, *d], value.at + 3)?);
                let low = Vertex {
                    col: one.col.min(two.col),
                    row: one.row.min(two.row),
                };
                let high = Vertex {
                    col: one.col.max(two.col),
                    row: one.row.max(two.row),
                };
                Ok(Some((low, high)))
            }
            raw => point(raw, value.at).map(|vertex| Some((vertex, vertex))),
        }
    }

    fn size(&self, value: Value<'a>) -> Result<u8, SgfError> {
        let (columns, rows) = match value.raw.iter().position(|&b| b == b':') {
            Some(colon) => (&value.raw[..colon], &value.raw[colon + 1..]),
            None => (value.raw, value.raw),
        };
        let (Some(columns), Some(rows)) = (number(columns), number(rows)) else {
            return self.fail(value.at, SgfErrorKind::BadSize);
        };
        if columns != rows {
            return self.fail(value.at, SgfErrorKind::NonSquareBoard);
        }
        match u8::try_from(columns) {
            Ok(size @ MIN_SIZE..=MAX_SIZE) => Ok(size),
            _ => self.fail(value.at, SgfErrorKind::BadSize),
        }
    }

    /// Unescapes a SimpleText value into the field `field` picks.
    fn text_property(
        &mut self,
        property: Property,
        field: fn(&mut GameRecord) -> &mut Text,
    ) -> Result<(), SgfError> {
        let value = self.single_value(property)?;
        let mut bytes: Vec<u8, MAX_TEXT> = Vec::new();
        let mut raw = value.raw.iter().copied().peekable();
        while let Some(b) = raw.next() {
            let out = match b {
                // A backslash before a line break is a soft break, removed; before anything
                // else it keeps that byte as it is.
                b'\\' => match raw.next() {
                    Some(b'\n') => {
                        raw.next_if_eq(&b'\r');
                        continue;
                    }
                    Some(b'\r') => {
                        raw.next_if_eq(&b'\n');
                        continue;
                    }
                    Some(escaped) => escaped,
                    None => continue,
                },
                // SimpleText turns every line break and other white space into one space.
                b'\r' => {
                    raw.next_if_eq(&b'\n');
                    b' '
                }
                b'\n' => {
                    raw.next_if_eq(&b'\r');
                    b' '
                }
                b'\t' | b'\x0b' | b'\x0c' => b' ',
                b => b,
            };
            if bytes.push(out).is_err() {
                return self.fail(value.at, SgfErrorKind::TextTooLong);
            }
        }
        match String::from_utf8(bytes) {
            Ok(text) => {
                *field(self.record) = text;
                Ok(())
            }
            Err(_) => self.fail(value.at, SgfErrorKind::NotUtf8),
        }
    }

    /// Skips a variation: the `(` is at `self.pos`; stops after its `)`.
    fn skip_tree(&mut self) -> Result<(), SgfError> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                None => return self.fail(self.pos, SgfErrorKind::UnclosedTree),
                Some(b'(') => depth += 1,
                Some(b')') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return Ok(());
                    }
                }
                Some(b'[') => match value_end(self.text, self.pos) {
                    Some(end) => self.pos = end,
                    None => return self.fail(self.pos, SgfErrorKind::UnclosedValue),
                },
                Some(_) => {}
            }
            self.pos += 1;
        }
    }

    /// Reads the whole text: one game tree, its main line, nothing after.
    fn read(mut self) -> Result<(), SgfError> {
        use SgfErrorKind::*;
        if self.text.starts_with("\u{feff}".as_bytes()) {
            self.pos = 3;
        }
        self.skip_space();
        if self.peek() != Some(b'(') {
            return self.fail(self.pos, ExpectedGameTree);
        }
        self.pos += 1;
        // Trees opened on the main line and not closed yet; nodes in the innermost one.
        let mut open = 1usize;
        let mut nodes_in_tree = 0usize;
        let mut is_root = true;
        // The main line: descend into the first variation until a tree closes.
        loop {
            self.skip_space();
            match self.peek() {
                Some(b';') => {
                    self.pos += 1;
                    self.read_node(is_root)?;
                    is_root = false;
                    nodes_in_tree += 1;
                }
                Some(b'(' | b')') if nodes_in_tree == 0 => {
                    return self.fail(self.pos, ExpectedNode);
                }
                Some(b'(') => {
                    self.pos += 1;
                    open += 1;
                    nodes_in_tree = 0;
                }
                Some(b')') => {
                    self.pos += 1;
                    open -= 1;
                    break;
                }
                None => return self.fail(self.pos, UnclosedTree),
                Some(_) => return self.fail(self.pos, ExpectedNode),
            }
        }
        // Back up to the root: skip the other variations of every tree on the way.
        while open > 0 {
            self.skip_space();
            match self.peek() {
                Some(b'(') => self.skip_tree()?,
                Some(b')') => {
                    self.pos += 1;
                    open -= 1;
                }
                Some(b';') => return self.fail(self.pos, NodeAfterVariations),
                None => return self.fail(self.pos, UnclosedTree),
                Some(_) => return self.fail(self.pos, ExpectedVariation),
            }
        }
        self.skip_space();
        match self.peek() {
            None => Ok(()),
            Some(b')') => self.fail(self.pos, UnmatchedParenthesis),
            Some(_) => self.fail(self.pos, TrailingText),
        }
    }
}

fn point_error(error: SgfPointError) -> SgfErrorKind {
    match error {
        SgfPointError::Malformed => SgfErrorKind::BadPoint,
        SgfPointError::OffBoard => SgfErrorKind::OffBoard,
    }
}

/// A small decimal number (`FF`, `GM`, `SZ`): 1 to 3 digits, spaces around allowed.
fn number(raw: &[u8]) -> Option<u16> {
    let digits = raw.trim_ascii();
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0u16, |n, d| n * 10 + u16::from(d - b'0')),
    )
}

/// A komi: an optional sign, digits, and an optional fraction (`7.5`, `-3`, `0`, `.5`).
fn komi(raw: &[u8]) -> Option<f32> {
    let text = raw.trim_ascii();
    let unsigned = text
        .strip_prefix(b"-")
        .or(text.strip_prefix(b"+"))
        .unwrap_or(text);
    let (whole, fraction) = match unsigned.iter().position(|&b| b == b'.') {
        Some(dot) => (&unsigned[..dot], &unsigned[dot + 1..]),
        None => (unsigned, &b""[..]),
    };
    let digits = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    let komi: f32 = core::str::from_utf8(text).ok()?.parse().ok()?;
    komi_in_range(komi).then_some(komi)
}

/// Whether `komi` is finite and within ±[`MAX_KOMI`].
fn komi_in_range(komi: f32) -> bool {
    komi.is_finite() && komi.abs() <= MAX_KOMI
}

impl GameRecord {
    /// An empty record for a board of `size` (5..=19) with `komi` (finite, within ±1000).
    pub fn new(size: u8, komi: f32) -> Result<GameRecord, Error> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || !komi_in_range(komi) {
            return Err(Error::InvalidArgument);
        }
        Ok(GameRecord {
            size,
            komi,
            ..GameRecord::default()
        })
    }

    /// Reads one SGF game: its root properties, setup stones and the main line of moves.
    pub fn parse_sgf(text: &[u8]) -> Result<GameRecord, SgfError> {
        let mut record = GameRecord::default();
        record.read_sgf(text)?;
        Ok(record)
    }

    /// [`GameRecord::parse_sgf`] into this record, which is cleared first: for callers who
    /// keep the record (about 6 KB) in their own storage rather than on the stack. On error
    /// the record holds what was read before the problem.
    pub fn read_sgf(&mut self, text: &[u8]) -> Result<(), SgfError> {
        *self = GameRecord::default();
        Reader {
            text,
            pos: 0,
            record: self,
            occupied: [0; 6],
        }
        .read()
    }

    /// The setup stones, Black's first, each with its colour: what to place on the empty
    /// board before replaying [`GameRecord::moves`].
    pub fn setup_stones(&self) -> impl Iterator<Item = (Color, Vertex)> + '_ {
        let black = self.black_setup.iter().map(|&v| (Color::Black, v));
        black.chain(self.white_setup.iter().map(|&v| (Color::White, v)))
    }

    /// Writes the record as SGF FF[4]: the root properties (`RU`, `PB`, `PW`, `RE` only when
    /// set) on the first line, `AB` and `AW` on a line each, then ten moves per line, passes
    /// as `[]`. Fails with `fmt::Error` if the record is not one the reader could have made
    /// (size out of range, a point off the board or set up twice, komi out of range), before
    /// writing anything. Line breaks in text
    /// fields are written as they are and read back as spaces, as SGF's SimpleText says.
    pub fn write_sgf<W: fmt::Write>(&self, out: &mut W) -> fmt::Result {
        let size = self.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || !komi_in_range(self.komi) {
            return Err(fmt::Error);
        }
        let on_board = |played: &SgfMove| match played.mv {
            GoMove::Pass => true,
            GoMove::Play(vertex) => vertex.is_on_board(size),
        };
        if !self.moves.iter().all(on_board) {
            return Err(fmt::Error);
        }
        let mut occupied = [0u64; 6];
        for (_, vertex) in self.setup_stones() {
            if !vertex.is_on_board(size) {
                return Err(fmt::Error);
            }
            let index = usize::from(vertex.row) * usize::from(size) + usize::from(vertex.col);
            let (word, bit) = (index / 64, 1u64 << (index % 64));
            match occupied.get_mut(word) {
                Some(bits) if *bits & bit == 0 => *bits |= bit,
                _ => return Err(fmt::Error),
            }
        }
        write!(out, "(;FF[4]GM[1]SZ[{size}]KM[{}]", self.komi)?;
        let texts = [
            ("RU", &self.rules),
            ("PB", &self.black_name),
            ("PW", &self.white_name),
            ("RE", &self.result),
        ];
        for (ident, text) in texts {
            if !text.is_empty() {
                write!(out, "{ident}[")?;
                for c in text.chars() {
                    if c == ']' || c == '\\' {
                        out.write_char('\\')?;
                    }
                    out.write_char(c)?;
                }
                out.write_char(']')?;
            }
        }
        out.write_char('\n')?;
        for (ident, stones) in [("AB", &self.black_setup), ("AW", &self.white_setup)] {
            if stones.is_empty() {
                continue;
            }
            out.write_str(ident)?;
            for &vertex in stones {
                write_point(out, vertex, size)?;
            }
            out.write_char('\n')?;
        }
        for (i, played) in self.moves.iter().enumerate() {
            out.write_str(match played.color {
                Color::Black => ";B",
                Color::White => ";W",
            })?;
            match played.mv {
                GoMove::Pass => out.write_str("[]")?,
                GoMove::Play(vertex) => write_point(out, vertex, size)?,
            }
            if (i + 1).is_multiple_of(10) || i + 1 == self.moves.len() {
                out.write_char('\n')?;
            }
        }
        out.write_str(")\n")
    }
}

fn write_point<W: fmt::Write>(out: &mut W, vertex: Vertex, size: u8) -> fmt::Result {
    let [col, row] = vertex.to_sgf(size).ok_or(fmt::Error)?;
    write!(out, "[{}{}]", col as char, row as char)
}

/// The SGF text of [`GameRecord::write_sgf`].
impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_sgf(f)
    }
}

impl FromStr for GameRecord {
    type Err = SgfError;

    fn from_str(text: &str) -> Result<GameRecord, SgfError> {
        GameRecord::parse_sgf(text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write;
    use rand_core::{Rng, SeedableRng};
    use rand_xorshift::XorShiftRng;

    /// A 9x9 game as GNU Go writes one, with a comment holding escaped brackets.
    const GNUGO_GAME: &str = "(;GM[1]FF[4]CA[UTF-8]AP[GNU Go:3.8]\n\
        SZ[9]KM[7.5]RU[Chinese]\n\
        PW[GNU Go 3.8]PB[arbor]DT[2026-11-26]RE[B+R]\n\
        C[Game with [brackets\\] and a backslash \\\\ inside.]\n\
        ;B[ee]C[tengen \\[sic\\]];W[ge];B[gd];W[fd];B[fc];W[hd];B[gc];W[he];B[ec]\n\
        ;W[fe]BL[290.5]OB[0];B[ef];W[ff];B[eg];W[fg];B[dc];W[];B[tt])\n";

    fn read(text: &str) -> GameRecord {
        match GameRecord::parse_sgf(text.as_bytes()) {
            Ok(record) => record,
            Err(error) => panic!("{error}"),
        }
    }

    fn gtp(record: &GameRecord) -> std::string::String {
        let mut out = std::string::String::new();
        for played in &record.moves {
            let color = match played.color {
                Color::Black => 'B',
                Color::White => 'W',
            };
            write!(out, "{color}{} ", played.mv).unwrap();
        }
        out.trim_end().into()
    }

    fn written(record: &GameRecord) -> std::string::String {
        let mut out = std::string::String::new();
        record.write_sgf(&mut out).unwrap();
        out
    }

    #[test]
    fn reads_a_gnu_go_game() {
        let record = read(GNUGO_GAME);
        assert_eq!(record.size, 9);
        assert_eq!(record.komi, 7.5);
        assert_eq!(record.rules, "Chinese");
        assert_eq!(record.black_name, "arbor");
        assert_eq!(record.white_name, "GNU Go 3.8");
        assert_eq!(record.result, "B+R");
        assert!(record.black_setup.is_empty() && record.white_setup.is_empty());
        // SGF `ee` is the centre E5; `ge` is G5; `dc` is D7 (rows from the top).
        assert_eq!(
            gtp(&record),
            "BE5 WG5 BG6 WF6 BF7 WH6 BG7 WH5 BE7 WF5 BE4 WF4 BE3 WF3 BD7 Wpass Bpass"
        );
    }

    #[test]
    fn reads_a_server_game_with_clocks_and_multi_line_comments() {
        let text = "\u{feff}(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]\r\n\
            RU[Japanese]SZ[19]KM[6.50]TM[300]OT[5x30 byo-yomi]\r\n\
            PW[white]PB[black]WR[2d]BR[3d]DT[2026-01-01]PC[a server]RE[W+Resign]\r\n\
            ;B[pd]BL[299.345];W[dp]WL[298.1]\r\n\
            ;B[pp]C[black [3d\\]: hi\r\n(again)\r\n]\r\n;W[dd]TW[aa][ab])\r\n";
        let record = read(text);
        assert_eq!((record.size, record.komi), (19, 6.5));
        assert_eq!(record.rules, "Japanese");
        assert_eq!(record.result, "W+Resign");
        assert_eq!(gtp(&record), "BQ16 WD4 BQ4 WD16");
    }

    #[test]
    fn takes_the_main_line_of_variations() {
        let text = "(;GM[1]FF[4]CA[UTF-8]AP[Sabaki:0.52.2]KM[6.5]SZ[9]DT[2026-11-26]\n\
            ;B[cc](;W[gg];B[gc]C[a \\) and a \\( in a comment](;W[cg])(;W[dg]C[other (])\n\
            (;W[bb];B[aa]))(;W[ee];B[gg]\n\
            (;W[aa])))\n";
        let record = read(text);
        assert_eq!(record.komi, 6.5);
        assert_eq!(gtp(&record), "BC7 WG3 BG7 WC3");
    }

    #[test]
    fn reads_handicap_setup_and_rectangles() {
        let record = read("(;FF[4]GM[1]SZ[19]HA[2]KM[0.5]AB[dd] [pp]PL[W];W[pd];B[dp])");
        assert_eq!(record.komi, 0.5);
        let setup: std::vec::Vec<_> = record.black_setup.iter().map(|v| v.to_string()).collect();
        assert_eq!(setup, ["D16", "Q4"]);
        assert_eq!(gtp(&record), "WQ16 BD4");

        // A rectangle by any two opposite corners, and AE taking points out again.
        let record = read("(;AB[aa:cc]AW[ed:dh][ii]AE[bb];B[ee])\n");
        assert_eq!(record.size, 19);
        assert_eq!(record.black_setup.len(), 8);
        assert!(!record.black_setup.contains(&Vertex { col: 1, row: 17 }));
        assert!(record.black_setup.contains(&Vertex { col: 2, row: 16 }));
        assert_eq!(record.white_setup.len(), 11);
        // SZ after the points it governs still governs them.
        let record = read("(;AB[ai]SZ[9])");
        assert_eq!(record.black_setup[0], Vertex { col: 0, row: 0 });
    }

    #[test]
    fn reads_komi_in_every_usual_form() {
        for (text, komi) in [
            ("7.5", 7.5),
            ("6.5", 6.5),
            ("-3", -3.0),
            ("0", 0.0),
            ("0.50", 0.5),
            (" 5.5 ", 5.5),
            ("+2", 2.0),
            (".5", 0.5),
            ("375", 375.0),
        ] {
            let record = read(&format!("(;SZ[9]KM[{text}])"));
            assert_eq!(record.komi, komi, "KM[{text}]");
        }
        assert_eq!(read("(;SZ[9])").komi, 0.0);
    }

    #[test]
    fn reads_square_sizes_and_old_formats() {
        for (text, size) in [
            ("(;SZ[9])", 9),
            ("(;SZ[ 13 ])", 13),
            ("(;SZ[19:19])", 19),
            ("(;SZ[5]FF[3]GM[1])", 5),
            ("(;FF[1])", 19),
        ] {
            assert_eq!(read(text).size, size, "{text}");
        }
    }

    #[test]
    fn reads_into_a_kept_record_and_lists_setup_stones() {
        let mut record = read(GNUGO_GAME);
        record.read_sgf(b"(;SZ[5]AW[aa]AB[ee][bb])").unwrap();
        assert_eq!(record.size, 5);
        assert!(record.moves.is_empty() && record.rules.is_empty());
        let stones: std::vec::Vec<_> = record.setup_stones().collect();
        let at = |col, row| Vertex { col, row };
        assert_eq!(
            stones,
            [
                (Color::Black, at(4, 0)),
                (Color::Black, at(1, 3)),
                (Color::White, at(0, 4))
            ]
        );
    }

    #[test]
    fn text_properties_unescape() {
        let record = read("(;PB[a \\] b \\\\ c\\\nd]PW[two\nlines\ttab]RE[W+3.5])");
        assert_eq!(record.black_name, "a ] b \\ cd");
        assert_eq!(record.white_name, "two lines tab");
        assert_eq!(record.result, "W+3.5");
        let record = read("(;PB[Черные игроки])");
        assert_eq!(record.black_name, "Черные игроки");
    }

    /// Every error the reader reports, with its line and column.
    #[test]
    fn errors_name_the_problem_and_where() {
        use SgfErrorKind::*;
        let cases: &[(&str, SgfErrorKind, u32, u32)] = &[
            ("", ExpectedGameTree, 1, 1),
            ("  ;B[aa]", ExpectedGameTree, 1, 3),
            ("()", ExpectedNode, 1, 2),
            ("(;B[aa]\n(;W[bb])x)", ExpectedVariation, 2, 9),
            ("(;B[aa]()", ExpectedNode, 1, 9),
            ("(;B[aa] b[bb])", ExpectedProperty, 1, 9),
            ("(;SZ[9]\n;B[aa]C)", MissingValue, 2, 8),
            ("(;B [aa];W[bb)", UnclosedValue, 1, 11),
            ("(;C[never closed \\]\n)", UnclosedValue, 1, 4),
            ("(;B[aa]\n;W[bb]", UnclosedTree, 2, 7),
            ("(;B[aa](;W[bb])(;W[cc]", UnclosedTree, 1, 23),
            ("(;B[aa](;W[bb])(;W[cc])", UnclosedTree, 1, 24),
            ("(;B[aa]))", UnmatchedParenthesis, 1, 9),
            ("(;B[aa](;W[bb]);B[cc])", NodeAfterVariations, 1, 16),
            ("(;B[aa])\n(;B[bb])", TrailingText, 2, 1),
            ("(;B[aa]) junk", TrailingText, 1, 10),
            ("(;KM[6.5]KM[7.5])", DuplicateProperty, 1, 10),
            ("(;B[aa];SZ[9])", RootPropertyOutsideRoot, 1, 9),
            ("(;FF[5])", UnsupportedFormat, 1, 6),
            ("(;GM[2]SZ[8])", UnsupportedGame, 1, 6),
            ("(;SZ[25])", BadSize, 1, 6),
            ("(;SZ[4])", BadSize, 1, 6),
            ("(;SZ[nine])", BadSize, 1, 6),
            ("(;FF[4]\nSZ[9:7])", NonSquareBoard, 2, 4),
            ("(;KM[7,5])", BadKomi, 1, 6),
            ("(;KM[1e3])", BadKomi, 1, 6),
            ("(;KM[inf])", BadKomi, 1, 6),
            ("(;KM[2000])", BadKomi, 1, 6),
            ("(;KM[])", BadKomi, 1, 6),
            ("(;B[aa][bb])", SeveralValues, 1, 9),
            ("(;SZ[9];B[ee]\n;W[jj])", OffBoard, 2, 4),
            ("(;SZ[9]AB[ab:cj])", OffBoard, 1, 14),
            ("(;SZ[9];B[E5])", BadPoint, 1, 11),
            ("(;SZ[9]AB[])", BadPoint, 1, 11),
            ("(;B[aa]W[bb])", BothColorsInNode, 1, 8),
            ("(;SZ[9]AB[aa][ab]AW[cc][ab])", DuplicateSetup, 1, 25),
            ("(;SZ[9]AB[aa:bb][bb])", DuplicateSetup, 1, 18),
            ("(;B[aa];AW[bb])", SetupAfterMoves, 1, 9),
        ];
        let mut wrong = std::vec::Vec::new();
        for &(text, kind, line, column) in cases {
            match GameRecord::parse_sgf(text.as_bytes()) {
                Err(error)
                    if (error.kind(), error.line(), error.column()) == (kind, line, column) => {}
                other => wrong.push(format!("{text:?}: {other:?}")),
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        let error = GameRecord::parse_sgf(b"(;PB[\xc3])").unwrap_err();
        assert_eq!((error.kind(), error.column()), (NotUtf8, 6));
        let long = format!("(;PB[{}])", "x".repeat(65));
        let error = GameRecord::parse_sgf(long.as_bytes()).unwrap_err();
        assert_eq!((error.kind(), error.column()), (TextTooLong, 6));
        assert!(GameRecord::parse_sgf(format!("(;PB[{}])", "x".repeat(64)).as_bytes()).is_ok());

        let error = GameRecord::parse_sgf(b"(;SZ[9:7])").unwrap_err();
        assert_eq!(
            error.to_string(),
            "SGF line 1, column 6: only square boards are supported (SZ[9], not SZ[9:7])"
        );
        assert_eq!(Error::from(error), Error::Parse);
    }

    #[test]
    fn too_many_moves_is_a_capacity_error() {
        let mut text = std::string::String::from("(;SZ[9]");
        for i in 0..=MAX_MOVES {
            text.push_str(if i.is_multiple_of(2) { ";B[]" } else { ";W[]" });
        }
        text.push(')');
        let error = GameRecord::parse_sgf(text.as_bytes()).unwrap_err();
        assert_eq!(error.kind(), SgfErrorKind::TooManyMoves);
        assert_eq!(error.column() as usize, 8 + 4 * MAX_MOVES + 1);
        assert_eq!(Error::from(error), Error::CapacityExhausted);
        // One fewer fits.
        text.replace_range(7..11, "");
        assert_eq!(read(&text).moves.len(), MAX_MOVES);
    }

    #[test]
    fn writes_canonical_text_that_reads_back_to_the_same_bytes() {
        let canonical = "(;FF[4]GM[1]SZ[9]KM[7.5]RU[Chinese]PB[arbor]PW[GNU Go 3.8]RE[B+R]\n\
            ;B[ee];W[ge];B[gd];W[fd];B[fc];W[hd];B[gc];W[he];B[ec];W[fe]\n\
            ;B[ef];W[ff];B[eg];W[fg];B[dc];W[];B[]\n\
            )\n";
        let record = read(GNUGO_GAME);
        assert_eq!(written(&record), canonical);
        assert_eq!(written(&read(canonical)), canonical);

        let setup = "(;FF[4]GM[1]SZ[19]KM[-3]PB[x \\] y \\\\]\nAB[dd][pp]\nAW[dp]\n;W[pd]\n)\n";
        assert_eq!(written(&read(setup)), setup);
        assert_eq!(
            written(&GameRecord::default()),
            "(;FF[4]GM[1]SZ[19]KM[0]\n)\n"
        );
    }

    #[test]
    fn the_writer_refuses_records_the_reader_cannot_make() {
        let mut record = GameRecord::new(9, 7.5).unwrap();
        record
            .moves
            .push(SgfMove {
                color: Color::Black,
                mv: GoMove::Play(Vertex { col: 9, row: 0 }),
            })
            .unwrap();
        let mut out = std::string::String::new();
        assert!(record.write_sgf(&mut out).is_err());
        assert!(out.is_empty());
        record.size = 30;
        record.moves.clear();
        assert!(record.write_sgf(&mut std::string::String::new()).is_err());
        record.size = 9;
        let corner = Vertex { col: 0, row: 0 };
        record.black_setup.push(corner).unwrap();
        record.white_setup.push(corner).unwrap();
        let mut out = std::string::String::new();
        assert!(record.write_sgf(&mut out).is_err());
        assert!(out.is_empty());
        assert_eq!(GameRecord::new(4, 7.5), Err(Error::InvalidArgument));
        assert_eq!(GameRecord::new(9, f32::NAN), Err(Error::InvalidArgument));
    }

    fn random_text(rng: &mut XorShiftRng) -> Text {
        let mut text = Text::new();
        let len = rng.next_u32() % (MAX_TEXT as u32 + 1);
        for _ in 0..len {
            // Printable ASCII, brackets and backslashes included.
            let c = char::from(b' ' + (rng.next_u32() % 95) as u8);
            text.push(c).unwrap();
        }
        text
    }

    fn random_record(rng: &mut XorShiftRng) -> GameRecord {
        let size = MIN_SIZE + (rng.next_u32() % u32::from(MAX_SIZE - MIN_SIZE + 1)) as u8;
        let komi = (rng.next_u32() % 81) as f32 / 2.0 - 20.0;
        let mut record = GameRecord::new(size, komi).unwrap();
        if rng.next_u32().is_multiple_of(2) {
            record.rules = random_text(rng);
            record.black_name = random_text(rng);
            record.white_name = random_text(rng);
            record.result = random_text(rng);
        }
        let points = u32::from(size) * u32::from(size);
        let mut taken = [false; 361];
        for _ in 0..rng.next_u32() % (points + 1) {
            let index = rng.next_u32() % points;
            if core::mem::replace(&mut taken[index as usize], true) {
                continue;
            }
            let vertex = Vertex {
                col: (index % u32::from(size)) as u8,
                row: (index / u32::from(size)) as u8,
            };
            let list = if rng.next_u32().is_multiple_of(2) {
                &mut record.black_setup
            } else {
                &mut record.white_setup
            };
            list.push(vertex).unwrap();
        }
        let count = match rng.next_u32() % 4 {
            0 => MAX_MOVES as u32,
            _ => rng.next_u32() % 300,
        };
        for _ in 0..count {
            let color = if rng.next_u32().is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            let mv = if rng.next_u32().is_multiple_of(20) {
                GoMove::Pass
            } else {
                GoMove::Play(Vertex {
                    col: (rng.next_u32() % u32::from(size)) as u8,
                    row: (rng.next_u32() % u32::from(size)) as u8,
                })
            };
            record.moves.push(SgfMove { color, mv }).unwrap();
        }
        record
    }

    #[test]
    fn random_records_round_trip() {
        let mut rng = XorShiftRng::seed_from_u64(16);
        for _ in 0..500 {
            let record = random_record(&mut rng);
            let text = written(&record);
            let back = match GameRecord::parse_sgf(text.as_bytes()) {
                Ok(back) => back,
                Err(error) => panic!("{error}\n{text}"),
            };
            assert_eq!(back, record, "{text}");
            assert_eq!(written(&back), text);
        }
    }

    #[test]
    fn no_input_panics() {
        // Every prefix of real files, and random mutations of them, read without a panic.
        let samples = [
            GNUGO_GAME.as_bytes(),
            b"(;SZ[9]AB[aa:ii]AE[bb:cc];B[]C[\\]](;W[tt])(;B[aa]))",
        ];
        for sample in samples {
            for end in 0..=sample.len() {
                let _ = GameRecord::parse_sgf(&sample[..end]);
            }
        }
        let alphabet = b"();[]\\:ABEGKMSWZaeitz019.- \n\xff";
        let mut rng = XorShiftRng::seed_from_u64(3);
        for _ in 0..20_000 {
            let mut text = samples[(rng.next_u32() % 2) as usize].to_vec();
            for _ in 0..1 + rng.next_u32() % 4 {
                let at = rng.next_u32() as usize % text.len();
                text[at] = alphabet[rng.next_u32() as usize % alphabet.len()];
            }
            let _ = GameRecord::parse_sgf(&text);
        }
        // Random sequences of SGF tokens, which reach deep variations and odd nodes.
        let tokens: [&[u8]; 16] = [
            b"(",
            b")",
            b";",
            b"B[ee]",
            b"W[]",
            b"AB[aa:cc]",
            b"AE[bb]",
            b"SZ[9]",
            b"KM[7.5]",
            b"C[\\\\]",
            b"C[\\]",
            b"]",
            b"[",
            b"PB[x]",
            b" ",
            b"W[tt]",
        ];
        for _ in 0..20_000 {
            let mut text = std::vec::Vec::new();
            for _ in 0..rng.next_u32() % 40 {
                text.extend_from_slice(tokens[rng.next_u32() as usize % tokens.len()]);
            }
            let _ = GameRecord::parse_sgf(&text);
        }
    }
}
