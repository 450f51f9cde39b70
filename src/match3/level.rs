//! Level files: a plain-text description of a Match-3 level, and the bundled presets.
//!
//! ```text
//! # comments start with '#'; blank lines are ignored; keywords may come in any order
//! size 7x7          # width x height, 3 to 8 each (default 7x7)
//! colours 6         # 3 to 8 (default DEFAULT_COLOURS); `colors` is accepted too
//! moves 20          # the move limit, 1 to 255 (default 20)
//! seed 42           # the chance seed: generated board and cells after the fall lists
//! grid              # optional: the next `height` lines are the rows, top row first,
//! ABCDEFA           #   one letter per cell, A = colour 0
//! ...
//! fall a ABCABC     # optional, per column (letter a..): the cells that enter it, in order;
//! fall b CAB        #   the first falls deepest. When a list runs out, the seed takes over.
//! ```
//!
//! A level without a grid gets a generated board (no lines, at least one legal move). A grid
//! must have no line of three already. Parsing never panics; errors name the line.
use core::fmt;

use super::board::{Board, MAX_COLOURS, MAX_SIDE, MIN_COLOURS, MIN_SIDE};

/// Most cells a level can list for one column's fall sequence.
pub const MAX_FALL: usize = 200;

/// Colours when a level does not say: the calibrated default (see docs/match3.md:
/// with 6 colours the Random agent's mean 20-move score falls in the paper's band
/// for random play).
pub const DEFAULT_COLOURS: u8 = 6;

/// Moves per game when a level does not say.
pub const DEFAULT_MOVES: u8 = 20;

/// A parsed level. Only integers inside, so it can be copied byte for byte into C storage.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Level {
    pub(crate) width: u8,
    pub(crate) height: u8,
    pub(crate) colours: u8,
    pub(crate) moves: u8,
    pub(crate) seed: u64,
    pub(crate) grid: Option<Board>,
    pub(crate) fall_len: [u8; 8],
    pub(crate) fall: [[u8; MAX_FALL]; 8],
}

/// What is wrong with a level text, and on which line (1-based; 0 for the text as a whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// The line, counting from 1 (0: not tied to one line).
    pub line: u32,
    /// The column of the word at fault, in bytes from 1 (0: the line as a whole). Not part
    /// of the `Display` text, which names the line only.
    pub column: u32,
    /// What is wrong.
    pub message: &'static str,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "level: {}", self.message)
        } else {
            write!(f, "level line {}: {}", self.line, self.message)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LevelError {}

/// The bundled preset levels: `(name, text)`.
pub const PRESETS: [(&str, &str); 3] = [
    ("board1", include_str!("levels/board1.txt")),
    ("board2", include_str!("levels/board2.txt")),
    ("board3", include_str!("levels/board3.txt")),
];

/// The text of a bundled preset by name.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

impl Default for Level {
    fn default() -> Self {
        // 7x7, 6 colours and 20 moves are in range: this is what `generated` returns.
        Level {
            width: 7,
            height: 7,
            colours: DEFAULT_COLOURS,
            moves: DEFAULT_MOVES,
            seed: 0,
            grid: None,
            fall_len: [0; 8],
            fall: [[0; MAX_FALL]; 8],
        }
    }
}

fn err(line: usize, message: &'static str) -> LevelError {
    LevelError {
        line: line as u32,
        column: 0,
        message,
    }
}

/// [`err`] at the column where `part` (a slice of `text`) begins.
fn err_at(text: &str, line: usize, part: &str, message: &'static str) -> LevelError {
    LevelError {
        line: line as u32,
        column: column_in(text, part),
        message,
    }
}

/// The 1-based column, in bytes, at which `part`, a slice of `text`, begins on its line (0
/// when `part` is not inside `text`).
pub(crate) fn column_in(text: &str, part: &str) -> u32 {
    let offset = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    if offset > text.len() {
        return 0;
    }
    let start = text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    u32::try_from(offset - start + 1).unwrap_or(0)
}

impl Level {
    /// A level with a generated board. Fails when a size or count is out of range.
    pub fn generated(
        width: u8,
        height: u8,
        colours: u8,
        moves: u8,
        seed: u64,
    ) -> Result<Level, LevelError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(err(0, "width and height must be 3 to 8"));
        }
        if !(MIN_COLOURS..=MAX_COLOURS).contains(&colours) {
            return Err(err(0, "colours must be 3 to 8"));
        }
        if moves == 0 {
            return Err(err(0, "the move limit must be 1 to 255"));
        }
        Ok(Level {
            width,
            height,
            colours,
            moves,
            seed,
            grid: None,
            fall_len: [0; 8],
            fall: [[0; MAX_FALL]; 8],
        })
    }

    /// Width in cells.
    pub fn width(&self) -> u8 {
        self.width
    }
    /// Height in cells.
    pub fn height(&self) -> u8 {
        self.height
    }
    /// Number of colours.
    pub fn colours(&self) -> u8 {
        self.colours
    }
    /// Move limit.
    pub fn moves(&self) -> u8 {
        self.moves
    }
    /// Chance seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The fixed initial board, if the level has one.
    pub fn grid(&self) -> Option<&Board> {
        self.grid.as_ref()
    }
    /// The fall sequence of column `col` (empty if none or out of range).
    pub fn fall(&self, col: u8) -> &[u8] {
        let c = usize::from(col);
        match (self.fall.get(c), self.fall_len.get(c)) {
            (Some(list), Some(&len)) => &list[..usize::from(len)],
            _ => &[],
        }
    }

    /// The same level with another number of colours (for calibration); fails when the
    /// level has a grid or fall lists (their letters are tied to the colours) or the count
    /// is out of range.
    pub fn with_colours(&self, colours: u8) -> Result<Level, LevelError> {
        if self.grid.is_some() || self.fall_len.iter().any(|&n| n > 0) {
            return Err(err(
                0,
                "a level with a grid or fall lists keeps its colours",
            ));
        }
        Level::generated(self.width, self.height, colours, self.moves, self.seed)
    }

    /// The same level with another move limit (0 is refused).
    pub fn with_moves(&self, moves: u8) -> Result<Level, LevelError> {
        if moves == 0 {
            return Err(err(0, "the move limit must be 1 to 255"));
        }
        let mut level = self.clone();
        level.moves = moves;
        Ok(level)
    }

    /// Parses a level text (see the module documentation).
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let mut level = Level::generated(7, 7, DEFAULT_COLOURS, DEFAULT_MOVES, 0)?;
        let mut grid_line = 0usize; // line of the `grid` keyword
        let mut grid_rows = [""; 8];
        let mut grid_count = 0usize;
        let mut in_grid = false;
        let mut size_seen = false;
        let mut colours_seen = false;
        let mut fall_lines = [0usize; 8];
        let mut fall_text = [""; 8];
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if in_grid {
                if grid_count < 8
                    && !line.contains(' ')
                    && line.bytes().all(|b| b.is_ascii_alphabetic())
                {
                    grid_rows[grid_count] = line;
                    grid_count += 1;
                    continue;
                }
                in_grid = false;
            }
            let mut words = line.split_whitespace();
            let keyword = words.next().unwrap_or("");
            let value = words.next();
            let extra = words.next();
            match keyword {
                "size" => {
                    let v = value.ok_or(err_at(
                        text,
                        number,
                        keyword,
                        "size needs WIDTHxHEIGHT, like 7x7",
                    ))?;
                    let (w, h) = v.split_once(['x', 'X']).ok_or(err_at(
                        text,
                        number,
                        v,
                        "size needs WIDTHxHEIGHT, like 7x7",
                    ))?;
                    let w: u8 = w
                        .parse()
                        .map_err(|_| err_at(text, number, w, "width is not a number"))?;
                    let h: u8 = h
                        .parse()
                        .map_err(|_| err_at(text, number, h, "height is not a number"))?;
                    if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(MIN_SIDE..=MAX_SIDE).contains(&h) {
                        return Err(err_at(text, number, v, "width and height must be 3 to 8"));
                    }
                    if size_seen {
                        return Err(err(number, "size given twice"));
                    }
                    size_seen = true;
                    level.width = w;
                    level.height = h;
                }
                "colours" | "colors" => {
                    let c: u8 = value.and_then(|v| v.parse().ok()).ok_or(err_at(
                        text,
                        number,
                        value.unwrap_or(keyword),
                        "colours needs a number",
                    ))?;
                    if !(MIN_COLOURS..=MAX_COLOURS).contains(&c) {
                        return Err(err_at(
                            text,
                            number,
                            value.unwrap_or(keyword),
                            "colours must be 3 to 8",
                        ));
                    }
                    if colours_seen {
                        return Err(err(number, "colours given twice"));
                    }
                    colours_seen = true;
                    level.colours = c;
                }
                "moves" => {
                    let m: u8 = value.and_then(|v| v.parse().ok()).ok_or(err_at(
                        text,
                        number,
                        value.unwrap_or(keyword),
                        "moves needs a number from 1 to 255",
                    ))?;
                    if m == 0 {
                        return Err(err_at(
                            text,
                            number,
                            value.unwrap_or(keyword),
                            "moves needs a number from 1 to 255",
                        ));
                    }
                    level.moves = m;
                }
                "seed" => {
                    level.seed = value.and_then(|v| v.parse().ok()).ok_or(err_at(
                        text,
                        number,
                        value.unwrap_or(keyword),
                        "seed needs a number from 0 to 2^64 - 1",
                    ))?;
                }
                "grid" => {
                    if value.is_some() {
                        return Err(err_at(
                            text,
                            number,
                            value.unwrap_or(keyword),
                            "grid takes no value: rows follow on the next lines",
                        ));
                    }
                    if grid_line != 0 {
                        return Err(err(number, "grid given twice"));
                    }
                    grid_line = number;
                    in_grid = true;
                    continue;
                }
                "fall" => {
                    let col = value
                        .filter(|v| v.len() == 1)
                        .map(|v| v.as_bytes()[0].to_ascii_lowercase().wrapping_sub(b'a'))
                        .filter(|&c| c < 8)
                        .ok_or(err_at(
                            text,
                            number,
                            value.unwrap_or(keyword),
                            "fall needs a column letter a to h",
                        ))?;
                    let cells = words_rest(line, 2);
                    if cells.is_empty() {
                        return Err(err(number, "fall needs a list of colour letters"));
                    }
                    if fall_lines[usize::from(col)] != 0 {
                        return Err(err(number, "fall given twice for this column"));
                    }
                    fall_lines[usize::from(col)] = number;
                    fall_text[usize::from(col)] = cells;
                    continue;
                }
                _ => {
                    return Err(err_at(
                        text,
                        number,
                        keyword,
                        "unknown keyword (size, colours, moves, seed, grid, fall)",
                    ));
                }
            }
            if let Some(extra) = extra {
                return Err(err_at(
                    text,
                    number,
                    extra,
                    "unexpected text after the value",
                ));
            }
        }
        // Checks that need the whole file: the grid and the fall lists against size and
        // colours.
        if grid_line != 0 {
            if grid_count != usize::from(level.height) {
                return Err(err(
                    grid_line,
                    "the grid must have as many rows as the height",
                ));
            }
            let mut board = Board::filled(level.width, level.height, level.colours)
                .map_err(|_| err(grid_line, "bad size"))?;
            for (i, row_text) in grid_rows[..grid_count].iter().enumerate() {
                let number = grid_line + 1 + i; // rows directly follow (comments aside)
                let number = actual_line(text, grid_line, i).unwrap_or(number);
                if row_text.len() != usize::from(level.width) {
                    return Err(err(number, "grid row length differs from the width"));
                }
                let row = level.height - 1 - i as u8;
                for (col, byte) in row_text.bytes().enumerate() {
                    let colour = byte.to_ascii_uppercase().wrapping_sub(b'A');
                    if colour >= level.colours {
                        return Err(err_at(
                            text,
                            number,
                            &row_text[col..],
                            "grid letter beyond the number of colours",
                        ));
                    }
                    board.set(col as u8, row, colour);
                }
            }
            let matched = board.matched();
            if matched != 0 {
                let row = (matched.trailing_zeros() / 8) as u8;
                let i = usize::from(level.height - 1 - row);
                let number = actual_line(text, grid_line, i).unwrap_or(grid_line);
                return Err(err(number, "the grid already has a line of three or more"));
            }
            level.grid = Some(board);
        }
        for col in 0..8u8 {
            let number = fall_lines[usize::from(col)];
            if number == 0 {
                continue;
            }
            if col >= level.width {
                return Err(err(number, "fall column beyond the width"));
            }
            let mut len = 0usize;
            let cells = fall_text[usize::from(col)];
            for (at, byte) in cells.bytes().enumerate() {
                if byte.is_ascii_whitespace() {
                    continue;
                }
                let colour = byte.to_ascii_uppercase().wrapping_sub(b'A');
                if colour >= level.colours {
                    return Err(err_at(
                        text,
                        number,
                        &cells[at..],
                        "fall letter beyond the number of colours",
                    ));
                }
                if len >= MAX_FALL {
                    return Err(err(number, "fall list longer than 200 cells"));
                }
                level.fall[usize::from(col)][len] = colour;
                len += 1;
            }
            level.fall_len[usize::from(col)] = len as u8;
        }
        Ok(level)
    }

    /// Writes the level back as text that [`Level::parse`] reads to an equal level.
    pub fn write_text(&self, out: &mut impl fmt::Write) -> fmt::Result {
        writeln!(out, "size {}x{}", self.width, self.height)?;
        writeln!(out, "colours {}", self.colours)?;
        writeln!(out, "moves {}", self.moves)?;
        writeln!(out, "seed {}", self.seed)?;
        if let Some(board) = &self.grid {
            writeln!(out, "grid")?;
            write!(out, "{board}")?;
        }
        for col in 0..self.width {
            let list = self.fall(col);
            if list.is_empty() {
                continue;
            }
            write!(out, "fall {} ", char::from(b'a' + col))?;
            for &c in list {
                write!(out, "{}", char::from(b'A' + c))?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_text(f)
    }
}

/// The rest of `line` after its first `skip` words.
fn words_rest(line: &str, skip: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..skip {
        rest = rest
            .find(char::is_whitespace)
            .map_or("", |i| rest[i..].trim_start());
    }
    rest
}

/// The 1-based line number of the `i`-th grid row after the `grid` keyword on line
/// `grid_line`, skipping blank and comment lines as the parser does.
fn actual_line(text: &str, grid_line: usize, i: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .skip(grid_line)
        .filter(|(_, l)| !l.split('#').next().unwrap_or("").trim().is_empty())
        .nth(i)
        .map(|(n, _)| n + 1)
}

/// Bytes of [`Level::to_bytes`]: size, colours, moves (4), seed (8), grid flag (1), grid
/// cells (64), fall lengths (8), fall lists (8 × 200).
pub(crate) const LEVEL_BYTES: usize = 4 + 8 + 1 + 64 + 8 + 8 * MAX_FALL;

impl Level {
    /// A flat byte image of the level (for C storage held by value).
    pub(crate) fn to_bytes(&self, out: &mut [u8; LEVEL_BYTES]) {
        out.fill(0);
        out[..4].copy_from_slice(&[self.width, self.height, self.colours, self.moves]);
        out[4..12].copy_from_slice(&self.seed.to_le_bytes());
        if let Some(grid) = &self.grid {
            out[12] = 1;
            for row in 0..self.height {
                for col in 0..self.width {
                    out[13 + usize::from(row * 8 + col)] = grid.get(col, row).unwrap_or(0);
                }
            }
        }
        out[77..85].copy_from_slice(&self.fall_len);
        for (col, list) in self.fall.iter().enumerate() {
            let at = 85 + col * MAX_FALL;
            out[at..at + MAX_FALL].copy_from_slice(list);
        }
    }

    /// The level of a byte image, checked as thoroughly as a parsed text: `None` when any
    /// field is out of range (an image C damaged).
    pub(crate) fn from_bytes(bytes: &[u8; LEVEL_BYTES]) -> Option<Level> {
        let [w, h, colours, moves] = [bytes[0], bytes[1], bytes[2], bytes[3]];
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&bytes[4..12]);
        let mut level = Level::generated(w, h, colours, moves, u64::from_le_bytes(seed)).ok()?;
        match bytes[12] {
            0 => {}
            1 => {
                let mut grid = Board::filled(w, h, colours).ok()?;
                for row in 0..h {
                    for col in 0..w {
                        let colour = bytes[13 + usize::from(row * 8 + col)];
                        if colour >= colours {
                            return None;
                        }
                        grid.set(col, row, colour);
                    }
                }
                if grid.matched() != 0 {
                    return None;
                }
                level.grid = Some(grid);
            }
            _ => return None,
        }
        level.fall_len.copy_from_slice(&bytes[77..85]);
        for col in 0..8usize {
            let len = usize::from(level.fall_len[col]);
            if len > MAX_FALL || (len > 0 && col >= usize::from(w)) {
                return None;
            }
            let at = 85 + col * MAX_FALL;
            level.fall[col].copy_from_slice(&bytes[at..at + MAX_FALL]);
            if level.fall[col][..len].iter().any(|&c| c >= colours) {
                return None;
            }
            level.fall[col][len..].fill(0);
        }
        Some(level)
    }
}
