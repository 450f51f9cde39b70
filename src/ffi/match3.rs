//! C ABI of Match-3: levels, games, moves, metrics and the agents.
//!
//! A level and a game are plain fixed-size structs that C holds by value (no handle, nothing
//! to free), each with a magic number and the ABI version first. A game stores its level,
//! chance seed and the moves played; every call rebuilds the position by replaying them (at
//! most 255 moves, microseconds), so a damaged struct is detected (`ARBOR_INVALID_ARGUMENT`)
//! instead of trusted. Moves are one byte each: the lower or left cell `row * 8 + col` (row
//! 0 at the bottom), plus 64 for a vertical swap.
//!
//! Search trees (`arbor_match3_agent_move`, `arbor_match3_playtest`) live in a caller
//! buffer sized by `arbor_match3_tree_bytes` for the level and the iterations: every
//! iteration expands at most one node, whose children are the position's legal moves, and a
//! legal move swaps two neighbouring cells, so a search of `n` iterations on a `w`×`h` board
//! needs at most `1 + n · (h·(w−1) + w·(h−1))` nodes (84 per iteration on 7x7, 112 on 8x8,
//! rather than 112 on every board).
use core::ffi::{c_char, c_void};

use super::arbor_status;
use super::boundary::{
    BUFFER_HEADER_BYTES, OptionalOut, Out, Plain, boundary, check_version, magic, prepare_buffer,
    read_in, report_bytes, slice_in, slice_out,
};
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
use crate::match3::{
    Agent, Goal, LEVEL_BYTES, Level, Match3, PRESETS, Program, SearchConfig, Storage, Swap, choose,
    nodes_for_level,
};
use crate::search::mcts::{Node, node_align, node_size, seeded_rng};

/// Bytes of `arbor_match3_level.opaque`.
pub const ARBOR_MATCH3_LEVEL_IMAGE_BYTES: usize = 1700;
/// Most moves a game can record (the largest move limit).
pub const ARBOR_MATCH3_MAX_RECORD: usize = 255;
/// Most legal moves of a position (8x8 board): the capacity that never runs short.
pub const ARBOR_MATCH3_MAX_MOVES: usize = 112;
/// Bytes that hold any move's text ("d4-d5") and its NUL.
pub const ARBOR_MATCH3_MOVE_TEXT_MAX: usize = 6;
/// Most iterations of one search (per move, or per call of `arbor_match3_search_run`) and
/// the most a tree can be sized for.
pub const ARBOR_MATCH3_MAX_ITERATIONS: u32 = 10_000_000;
/// Alignment of a tree buffer (`malloc` satisfies it).
pub const ARBOR_MATCH3_TREE_ALIGN: usize = 8;
/// Stack, in bytes, that every Match-3 level, game, move, formula and `arbor_match3_agent_move` call (all three agents) needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 24,808 bytes (the persona agent), including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_MATCH3_STACK_BYTES: usize = 32768;

const _: () = assert!(LEVEL_BYTES <= ARBOR_MATCH3_LEVEL_IMAGE_BYTES);
const _: () = assert!(node_align::<Swap>() <= ARBOR_MATCH3_TREE_ALIGN);
// The largest tree is addressable by the search's u32 node indices.
const _: () = assert!(
    (ARBOR_MATCH3_MAX_ITERATIONS as usize) * ARBOR_MATCH3_MAX_MOVES
        < crate::search::mcts::MAX_CAPACITY
);

pub(super) const LEVEL_MAGIC: u32 = magic(b"M3LV");
pub(super) const GAME_MAGIC: u32 = magic(b"M3GM");
const TREE_MAGIC: u32 = magic(b"M3TR");

/// A parsed Match-3 level, held by value. Fill it with `arbor_match3_level_parse` or
/// `arbor_match3_level_preset`; its image is private.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct arbor_match3_level {
    /// Written by arbor; a struct not filled by arbor is refused.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// Private image of the level.
    pub opaque: [u8; ARBOR_MATCH3_LEVEL_IMAGE_BYTES],
}

/// Bytes of `arbor_match3_level`.
pub const ARBOR_MATCH3_LEVEL_BYTES: usize = 1708;
const _: () = assert!(core::mem::size_of::<arbor_match3_level>() == ARBOR_MATCH3_LEVEL_BYTES);

// SAFETY: `#[repr(C)]`, integers and a byte array, no padding (size asserted above).
unsafe impl Plain for arbor_match3_level {}

/// A Match-3 game, held by value: the level, the chance seed and the moves played. Start it
/// with `arbor_match3_game_start`; its fields are private.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct arbor_match3_game {
    /// Written by arbor; a struct not filled by arbor is refused.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// Private: the chance seed.
    pub seed: u64,
    /// Private: moves played.
    pub played: u32,
    /// Written as zero.
    pub reserved: u32,
    /// Private image of the level.
    pub level: [u8; ARBOR_MATCH3_LEVEL_IMAGE_BYTES],
    /// Private: the moves played.
    pub record: [u8; ARBOR_MATCH3_MAX_RECORD],
    /// Written as zero.
    pub reserved_end: [u8; 5],
}

/// Bytes of `arbor_match3_game`.
pub const ARBOR_MATCH3_GAME_BYTES: usize = 1984;
const _: () = assert!(core::mem::size_of::<arbor_match3_game>() == ARBOR_MATCH3_GAME_BYTES);

// SAFETY: `#[repr(C)]`, integers and byte arrays, no padding (24 bytes of integers, then
// 1700 + 255 + 5 bytes: 1984, asserted above).
unsafe impl Plain for arbor_match3_game {}

/// What one move did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct arbor_match3_outcome {
    /// Points gained, multipliers included.
    pub points: u32,
    /// Cascade steps after the first match (0: no combo).
    pub combos: u32,
    /// 1 if the board was left without a legal move and reshuffled.
    pub reshuffled: u32,
    /// Legal moves available before the move.
    pub legal_before: u32,
}

/// Bytes of `arbor_match3_outcome`.
pub const ARBOR_MATCH3_OUTCOME_BYTES: usize = 16;
const _: () = assert!(core::mem::size_of::<arbor_match3_outcome>() == ARBOR_MATCH3_OUTCOME_BYTES);

/// Metrics of a game so far.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct arbor_match3_metrics {
    /// `legal_sum / moves` (the paper's average available moves), 0 before a move.
    pub average_available: f64,
    /// Score.
    pub score: u32,
    /// Moves played.
    pub moves: u32,
    /// The level's move limit.
    pub move_limit: u32,
    /// Combos over all moves.
    pub combos: u32,
    /// Reshuffles, including one at the start if the board had no legal move.
    pub reshuffles: u32,
    /// Sum of the legal moves available before each move played.
    pub legal_sum: u32,
    /// Legal moves now (0 when the game is over).
    pub legal_now: u32,
    /// 1 when the game is over.
    pub game_over: u32,
}

/// Bytes of `arbor_match3_metrics`.
pub const ARBOR_MATCH3_METRICS_BYTES: usize = 40;
const _: () = assert!(core::mem::size_of::<arbor_match3_metrics>() == ARBOR_MATCH3_METRICS_BYTES);

/// Agents of `arbor_match3_agent_move`: uniformly random legal moves.
pub const ARBOR_MATCH3_AGENT_RANDOM: u32 = 0;
/// Vanilla MCTS (UCB1, C = 1/√2).
pub const ARBOR_MATCH3_AGENT_VANILLA: u32 = 1;
/// Persona MCTS with a formula in the binary form.
pub const ARBOR_MATCH3_AGENT_PERSONA: u32 = 2;

pub(super) fn level_of(image: &[u8; ARBOR_MATCH3_LEVEL_IMAGE_BYTES]) -> Result<Level, Error> {
    let mut bytes = [0u8; LEVEL_BYTES];
    bytes.copy_from_slice(&image[..LEVEL_BYTES]);
    Level::from_bytes(&bytes).ok_or(Error::InvalidArgument)
}

pub(super) fn image_of(level: &Level) -> [u8; ARBOR_MATCH3_LEVEL_IMAGE_BYTES] {
    let mut bytes = [0u8; LEVEL_BYTES];
    level.to_bytes(&mut bytes);
    let mut image = [0u8; ARBOR_MATCH3_LEVEL_IMAGE_BYTES];
    image[..LEVEL_BYTES].copy_from_slice(&bytes);
    image
}

fn level_struct(level: &Level) -> arbor_match3_level {
    arbor_match3_level {
        magic: LEVEL_MAGIC,
        version: super::ARBOR_ABI_VERSION,
        opaque: image_of(level),
    }
}

/// Reads and checks a caller's level struct. Errors: `Error::NullPointer`,
/// `Error::NotInitialised`, `Error::WrongVersion`, `Error::InvalidArgument` (damaged).
///
/// # Safety
/// `level` must be NULL or readable.
pub(super) unsafe fn read_level(level: *const arbor_match3_level) -> Result<Level, Error> {
    // SAFETY: forwarded caller guarantee.
    let image = unsafe { read_in(level) }?;
    check_version(image.magic, image.version, LEVEL_MAGIC)?;
    level_of(&image.opaque)
}

/// Reads and checks a caller's game struct and rebuilds its level. Errors: those of
/// [`read_level`].
///
/// # Safety
/// `game` must be NULL or readable.
pub(super) unsafe fn read_game(
    game: *const arbor_match3_game,
) -> Result<(arbor_match3_game, Level), Error> {
    // SAFETY: forwarded caller guarantee.
    let game = unsafe { read_in(game) }?;
    check_version(game.magic, game.version, GAME_MAGIC)?;
    let level = level_of(&game.level)?;
    Ok((game, level))
}

/// Rebuilds the position of a game struct by replaying its moves.
pub(super) fn replay<'l>(game: &arbor_match3_game, level: &'l Level) -> Result<Match3<'l>, Error> {
    let played = usize::try_from(game.played).map_err(|_| Error::InvalidArgument)?;
    let record = game.record.get(..played).ok_or(Error::InvalidArgument)?;
    let mut state = Match3::new(level, game.seed);
    for &code in record {
        let swap = Swap::from_code(code).ok_or(Error::InvalidArgument)?;
        state.try_play(swap).map_err(|_| Error::InvalidArgument)?;
    }
    Ok(state)
}

/// A new game struct of `level` with chance seed `seed`.
pub(super) fn new_game(level: &Level, seed: u64) -> arbor_match3_game {
    arbor_match3_game {
        magic: GAME_MAGIC,
        version: super::ARBOR_ABI_VERSION,
        seed,
        played: 0,
        reserved: 0,
        level: image_of(level),
        record: [0; ARBOR_MATCH3_MAX_RECORD],
        reserved_end: [0; 5],
    }
}

/// Records `swap`, already played on the replayed position, in `game`.
pub(super) fn record_move(game: &mut arbor_match3_game, swap: Swap) -> Result<(), Error> {
    let slot = game
        .record
        .get_mut(game.played as usize)
        .ok_or(Error::GameOver)?;
    *slot = swap.code();
    game.played += 1;
    Ok(())
}

/// Parses a level from text in (the level file format of docs/match3.md) into
/// `*out_level`.
///
/// arbor reads `text` during the call only. On `ARBOR_PARSE_ERROR`, `*out_error` (if not
/// NULL) receives the line (0 when no single line is at fault), the column (0 when the line
/// as a whole is) and the message, such as "colours must be 3 to 8".
///
/// Errors: `ARBOR_NULL_POINTER` (`out_level`, or `text` with `len` > 0),
/// `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR`.
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `out_level` writable or NULL; `out_error`
/// writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_level_parse(
    text: *const u8,
    len: usize,
    out_level: *mut arbor_match3_level,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (text, out, out_error) = unsafe {
            (
                text_in(text, len)?,
                Out::new(out_level)?,
                OptionalOut::new(out_error),
            )
        };
        let level = Level::parse(text).map_err(|error| {
            ParseFailure {
                line: error.line,
                column: error.column,
                message: error.message,
            }
            .report(out_error)
        })?;
        out.write(level_struct(&level));
        Ok(())
    })
}

/// Loads bundled preset level `index` (0, 1 or 2: board1 … board3) into `*out_level`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (index out of range).
///
/// # Safety
/// `out_level` must be writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_level_preset(
    index: u32,
    out_level: *mut arbor_match3_level,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_level) }?;
        let (_, text) = PRESETS.get(index as usize).ok_or(Error::InvalidArgument)?;
        let level = Level::parse(text).map_err(|_| Error::InvalidArgument)?;
        out.write(level_struct(&level));
        Ok(())
    })
}

/// Starts a game of `*level` with chance seed `seed` (pass the level's `seed` line, or any
/// other, for another board) into `*out_game`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (`*level`
/// not filled by this version of arbor), `ARBOR_INVALID_ARGUMENT` (damaged level).
///
/// # Safety
/// `level` must be readable and `out_game` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_game_start(
    level: *const arbor_match3_level,
    seed: u64,
    out_game: *mut arbor_match3_game,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (level, out) = unsafe { (read_level(level)?, Out::new(out_game)?) };
        out.write(new_game(&level, seed));
        Ok(())
    })
}

/// Writes the legal moves of `*game` (codes in increasing order) into `out_moves`, which
/// has room for `capacity` bytes, and their number into `*out_count`.
/// `ARBOR_MATCH3_MAX_MOVES` (112) is always enough; a game that is over has none.
///
/// Errors: `ARBOR_NULL_POINTER` (`game`, `out_count`, or `out_moves` with `capacity` > 0),
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`, `ARBOR_INVALID_ARGUMENT` (damaged game),
/// `ARBOR_BUFFER_TOO_SMALL` (more moves than `capacity`; nothing written).
///
/// # Safety
/// `game` readable; `out_moves` valid for `capacity` writes; `out_count` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_legal_moves(
    game: *const arbor_match3_game,
    out_moves: *mut u8,
    capacity: usize,
    out_count: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let ((game, level), moves_out, count_out) = unsafe {
            (
                read_game(game)?,
                slice_out(out_moves, capacity)?,
                Out::new(out_count)?,
            )
        };
        let state = replay(&game, &level)?;
        let moves = state.legal_moves();
        let slots = moves_out
            .get_mut(..moves.len())
            .ok_or(Error::BufferTooSmall)?;
        for (slot, swap) in slots.iter_mut().zip(&moves) {
            *slot = swap.code();
        }
        count_out.write(moves.len());
        Ok(())
    })
}

/// Plays move `code` in `*game`. `out_outcome` may be NULL; otherwise it receives what the
/// move did.
///
/// Errors: `ARBOR_NULL_POINTER` (`game`), `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`,
/// `ARBOR_INVALID_ARGUMENT` (damaged game), `ARBOR_GAME_OVER` (the move limit is reached),
/// `ARBOR_ILLEGAL_MOVE` (not a legal move now). On error `*game` and `*out_outcome` are
/// unchanged.
///
/// # Safety
/// `game` readable and writable; `out_outcome` writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_play(
    game: *mut arbor_match3_game,
    code: u8,
    out_outcome: *mut arbor_match3_outcome,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees; `game` is read here and written at the end.
        let ((mut copy, level), game_out, outcome_out) = unsafe {
            (
                read_game(game)?,
                Out::new(game)?,
                OptionalOut::new(out_outcome),
            )
        };
        let mut state = replay(&copy, &level)?;
        if state.is_over() {
            return Err(Error::GameOver);
        }
        let swap = Swap::from_code(code).ok_or(Error::IllegalMove)?;
        let outcome = state.try_play(swap)?;
        record_move(&mut copy, swap)?;
        game_out.write(copy);
        outcome_out.write(arbor_match3_outcome {
            points: outcome.points,
            combos: outcome.combos,
            reshuffled: u32::from(outcome.reshuffled),
            legal_before: outcome.legal_before,
        });
        Ok(())
    })
}

/// Writes the metrics of `*game` into `*out_metrics`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`,
/// `ARBOR_INVALID_ARGUMENT` (damaged game).
///
/// # Safety
/// `game` readable and `out_metrics` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_game_metrics(
    game: *const arbor_match3_game,
    out_metrics: *mut arbor_match3_metrics,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let ((game, level), out) = unsafe { (read_game(game)?, Out::new(out_metrics)?) };
        let state = replay(&game, &level)?;
        let m = state.metrics();
        out.write(arbor_match3_metrics {
            average_available: m.average_available(),
            score: m.score,
            moves: m.moves,
            move_limit: u32::from(level.moves()),
            combos: m.combos,
            reshuffles: m.reshuffles,
            legal_sum: m.legal_sum,
            legal_now: if state.is_over() {
                0
            } else {
                state.legal_count()
            },
            game_over: u32::from(state.is_over()),
        });
        Ok(())
    })
}

/// Why a move text does not parse, and where (1-based column, 0 for the whole text).
fn move_failure(text: &str) -> (u32, &'static str) {
    let Some((a, b)) = text.split_once('-') else {
        return (
            0,
            "a move is two neighbouring cells joined by `-`, such as d4-d5",
        );
    };
    if crate::match3::parse_cell(a).is_err() {
        return (
            column_of(text, a.trim_start()),
            "a cell is a letter a to h and a row 1 to 8",
        );
    }
    if crate::match3::parse_cell(b).is_err() {
        return (
            column_of(text, b.trim_start()),
            "a cell is a letter a to h and a row 1 to 8",
        );
    }
    (0, "the two cells are not neighbours")
}

/// 1-based column of `part`, a slice of `text`.
fn column_of(text: &str, part: &str) -> u32 {
    (part.as_ptr() as usize - text.as_ptr() as usize + 1) as u32
}

/// Parses a move such as "d4-d5" (text in; column letter, row number from 1 at the bottom;
/// either cell first; spaces around it allowed) into its code. The move is checked for
/// shape, not legality.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (`*out_error`: line 1, the column of the bad cell or 0, and why).
///
/// # Safety
/// `text` NULL or valid for `len` reads; `out_code` writable or NULL; `out_error` writable
/// or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_move_parse(
    text: *const u8,
    len: usize,
    out_code: *mut u8,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (text, out, out_error) = unsafe {
            (
                text_in(text, len)?,
                Out::new(out_code)?,
                OptionalOut::new(out_error),
            )
        };
        let swap = Swap::parse(text).map_err(|_| {
            let (column, message) = move_failure(text);
            ParseFailure {
                line: 1,
                column,
                message,
            }
            .report(out_error)
        })?;
        out.write(swap.code());
        Ok(())
    })
}

/// Writes the text of move `code` ("d4-d5") as text out; `ARBOR_MATCH3_MOVE_TEXT_MAX`
/// bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_INVALID_ARGUMENT` (no
/// move has this code), `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_move_format(
    code: u8,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        let swap = Swap::from_code(code).ok_or(Error::InvalidArgument)?;
        out.write_display::<ARBOR_MATCH3_MOVE_TEXT_MAX>(swap)
    })
}

/// Compiles a persona formula from text in (for example
/// "add(div(W, N), mul(0.5, sqrt(div(NP, N))))") into its binary form in `out`, which has
/// room for `capacity` bytes (`ARBOR_MATCH3_FORMULA_MAX_BYTES` always suffice), and writes
/// its length to `*out_bytes`.
///
/// Errors: `ARBOR_NULL_POINTER` (`out_bytes`, `out` with `capacity` above 0, `text` with
/// `len` above 0), `ARBOR_INVALID_UTF8`, `ARBOR_INVALID_LENGTH` (more than 64 names and numbers,
/// the most a formula has, however they nest), `ARBOR_PARSE_ERROR` (`*out_error`: line 1,
/// the column and why), `ARBOR_BUFFER_TOO_SMALL` (nothing written).
///
/// # Safety
/// `text` NULL or valid for `len` reads, `out` for `capacity` writes, `out_bytes` writable,
/// `out_error` writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_formula_parse(
    text: *const u8,
    len: usize,
    out: *mut u8,
    capacity: usize,
    out_bytes: *mut usize,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (text, out, bytes_out, out_error) = unsafe {
            (
                text_in(text, len)?,
                slice_out(out, capacity)?,
                Out::new(out_bytes)?,
                OptionalOut::new(out_error),
            )
        };
        let program = Program::parse_located(text).map_err(|error| match error.error {
            Error::Parse => ParseFailure {
                line: 1,
                column: u32::try_from(error.offset + 1).unwrap_or(0),
                message: error.message,
            }
            .report(out_error),
            other => other,
        })?;
        let written = program.encode(out)?;
        bytes_out.write(written);
        Ok(())
    })
}

/// Nodes a search of `iterations` iterations on `level` can need (the module's rule);
/// `None` above `ARBOR_MATCH3_MAX_ITERATIONS`.
pub(super) fn tree_nodes(level: &Level, iterations: u32) -> Option<usize> {
    (iterations <= ARBOR_MATCH3_MAX_ITERATIONS).then(|| nodes_for_level(level, iterations))
}

/// Bytes of a tree buffer for `nodes` nodes.
pub(super) fn tree_bytes_for(nodes: usize) -> Option<usize> {
    bytes_with_nodes(BUFFER_HEADER_BYTES, nodes)
}

/// Bytes of a buffer of `head` bytes followed by `nodes` nodes.
pub(super) fn bytes_with_nodes(head: usize, nodes: usize) -> Option<usize> {
    nodes.checked_mul(node_size::<Swap>())?.checked_add(head)
}

/// Writes to `*out_bytes` the size of a tree buffer with which a search of `iterations`
/// iterations on `*level` never runs out of nodes: 16 + 40 · (1 + `iterations` ·
/// (h·(w−1) + w·(h−1))) bytes for a `w`×`h` board (every iteration adds at most one node's
/// children, the legal moves, each a swap of two neighbours). That is the guarantee, not
/// the typical use: positions have far fewer legal moves than neighbour pairs, and searches
/// of 60 iterations on the bundled boards use 7–8 % of it on average (the unit test
/// `a_search_never_outgrows_the_tree_sized_for_its_level` measures it). A smaller buffer
/// (at least 56 bytes) still works: the tree stops growing, and the search may then choose
/// differently. Align it to `ARBOR_MATCH3_TREE_ALIGN`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`,
/// `ARBOR_INVALID_ARGUMENT` (damaged level, or `iterations` above
/// `ARBOR_MATCH3_MAX_ITERATIONS`).
///
/// # Safety
/// `level` readable and `out_bytes` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_tree_bytes(
    level: *const arbor_match3_level,
    iterations: u32,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let level = unsafe { read_level(level) }?;
        let bytes = tree_nodes(&level, iterations).and_then(tree_bytes_for);
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// The search tree nodes of a scratch tree buffer, prepared for this call (its previous
/// contents do not matter). Call it after every other check: it writes the buffer's header.
/// Errors: those of `prepare_buffer`, `Error::BufferTooSmall` (no room for `min_nodes`
/// nodes, at least one), found before anything is written.
///
/// # Safety
/// `tree` NULL or valid for `tree_bytes` writes, used by nothing else during `'a`.
pub(super) unsafe fn tree_storage<'a>(
    tree: *mut c_void,
    tree_bytes: usize,
    min_nodes: usize,
) -> Result<&'a mut [Node<Swap>], Error> {
    let min = tree_bytes_for(min_nodes.max(1)).ok_or(Error::InvalidLength)?;
    // SAFETY: forwarded caller guarantee.
    let area =
        unsafe { prepare_buffer(tree, tree_bytes, ARBOR_MATCH3_TREE_ALIGN, min, TREE_MAGIC) }?;
    Ok(nodes_in(area))
}

/// The whole nodes that fit in `area`, which starts at an 8-aligned address.
pub(super) fn nodes_in(area: &mut [u8]) -> &mut [Node<Swap>] {
    let count = area.len() / node_size::<Swap>();
    debug_assert!((area.as_ptr() as usize).is_multiple_of(node_align::<Swap>()));
    // SAFETY: `area` is aligned for `Node<Swap>` (the buffer is aligned to
    // ARBOR_MATCH3_TREE_ALIGN >= its alignment and the 16-byte header keeps that), holds at
    // least `count` nodes, and is exclusively borrowed for the slice's lifetime. `Node<Swap>`
    // holds only integers and floats (the move is a `u8` newtype), so any bytes are a
    // valid value; the search overwrites every node before reading it.
    unsafe { core::slice::from_raw_parts_mut(area.as_mut_ptr().cast::<Node<Swap>>(), count) }
}

/// The agent a caller asks for, checked. `formula` is read only for the persona agent.
///
/// # Safety
/// `formula` NULL or valid for `formula_len` reads.
pub(super) unsafe fn agent_program(
    agent: u32,
    goal: u32,
    formula: *const u8,
    formula_len: usize,
) -> Result<(u32, Goal, Option<Program>), Error> {
    let goal = Goal::from_code(goal).ok_or(Error::InvalidArgument)?;
    let program = match agent {
        ARBOR_MATCH3_AGENT_RANDOM | ARBOR_MATCH3_AGENT_VANILLA => None,
        ARBOR_MATCH3_AGENT_PERSONA => {
            // SAFETY: forwarded caller guarantee.
            let bytes = unsafe { slice_in(formula, formula_len) }?;
            if formula.is_null() {
                return Err(Error::NullPointer);
            }
            Some(Program::decode(bytes)?)
        }
        _ => return Err(Error::InvalidArgument),
    };
    Ok((agent, goal, program))
}

/// The core's agent for a checked [`agent_program`].
pub(super) fn agent_of(agent: u32, goal: Goal, program: &Option<Program>) -> Agent<'_> {
    match (agent, program) {
        (ARBOR_MATCH3_AGENT_PERSONA, Some(program)) => Agent::Persona(program, goal),
        (ARBOR_MATCH3_AGENT_VANILLA, _) => Agent::Vanilla(goal),
        _ => Agent::Random,
    }
}

/// Asks an agent for a move in `*game` and writes its code to `*out_code`.
///
/// `agent`: `ARBOR_MATCH3_AGENT_RANDOM`, `_VANILLA` or `_PERSONA`. `goal` (the reward of the
/// MCTS agents): 0 MaxS, 1 MinS, 2 MaxM, 3 MinM. `formula`/`formula_len`: the persona's
/// formula in binary form (`arbor_match3_formula_parse`, or an `arbor_match3_persona`'s),
/// ignored by the other agents (may then be NULL). `iterations`: per move (the paper uses
/// 250), at most `ARBOR_MATCH3_MAX_ITERATIONS`. `seed`: the agent's generator; the same
/// inputs and seed give the same move. `tree`/`tree_bytes`: a scratch buffer for the search
/// tree (`arbor_match3_tree_bytes`), used during the call only, any contents; ignored by the
/// random agent (may then be NULL). For a search in steps, with a deadline or a cancel, see
/// `arbor_match3_search_init`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION` (game),
/// `ARBOR_INVALID_ARGUMENT` (unknown agent or goal, damaged game, iterations out of range,
/// invalid formula), `ARBOR_INVALID_LENGTH` (formula truncated), `ARBOR_MISALIGNED`,
/// `ARBOR_BUFFER_TOO_SMALL` (tree buffer without room for one node), `ARBOR_GAME_OVER`.
///
/// # Safety
/// `game` readable; `formula` valid for `formula_len` reads; `tree` valid for `tree_bytes`
/// reads and writes and not used by anything else during the call; `out_code` writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn arbor_match3_agent_move(
    game: *const arbor_match3_game,
    agent: u32,
    goal: u32,
    formula: *const u8,
    formula_len: usize,
    iterations: u32,
    seed: u64,
    tree: *mut c_void,
    tree_bytes: usize,
    out_code: *mut u8,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let ((copy, level), (agent, goal, program), out) = unsafe {
            (
                read_game(game)?,
                agent_program(agent, goal, formula, formula_len)?,
                Out::new(out_code)?,
            )
        };
        if iterations > ARBOR_MATCH3_MAX_ITERATIONS {
            return Err(Error::InvalidArgument);
        }
        let agent = agent_of(agent, goal, &program);
        let state = replay(&copy, &level)?;
        if state.is_over() {
            return Err(Error::GameOver);
        }
        let storage: &mut [Node<Swap>] = if matches!(agent, Agent::Random) {
            &mut []
        } else {
            // SAFETY: forwarded caller guarantee.
            unsafe { tree_storage(tree, tree_bytes, 1) }?
        };
        let config = SearchConfig {
            iterations,
            ..SearchConfig::default()
        };
        let mut rng = seeded_rng(seed);
        // The C ABI lends tree nodes only, so the search replays its moves (same choice).
        let swap = choose(
            agent,
            &state,
            &config,
            &mut Storage::nodes_only(storage),
            &mut rng,
        )?
        .ok_or(Error::GameOver)?;
        out.write(swap.code());
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// The anytime agent search: a handle in a caller buffer.
// ---------------------------------------------------------------------------------------

/// Alignment of a search handle buffer (`malloc` satisfies it).
pub const ARBOR_MATCH3_SEARCH_ALIGN: usize = 8;
/// Stack, in bytes, that every `arbor_match3_search_*` call (all three agents) needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 26,952 bytes (the persona agent), including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_MATCH3_SEARCH_STACK_BYTES: usize = 36864;

const SEARCH_MAGIC: u32 = magic(b"M3SR");

/// A search handle after its buffer header and cancel flag: the agent, the game, the tree's
/// parts and the generator; the tree's nodes follow. Plain integers only, so that a damaged
/// buffer is refused rather than misread.
#[repr(C)]
#[derive(Clone, Copy)]
struct SearchState {
    agent: u32,
    goal: u32,
    formula_len: u32,
    reserved: u32,
    /// Iterations since `_init` or the last `_play`.
    iterations: u64,
    tree_len: u32,
    has_root_key: u32,
    root_key: u64,
    /// The generator's state (four `u32`).
    rng: [u32; 4],
    game: arbor_match3_game,
    formula: [u8; ARBOR_MATCH3_FORMULA_MAX_BYTES],
    reserved_end: [u8; 6],
}

const SEARCH_STATE_BYTES: usize = 2368;
const _: () = assert!(core::mem::size_of::<SearchState>() == SEARCH_STATE_BYTES);
/// Bytes of a search handle before its nodes: the head of every handle (search.rs), then
/// the state.
const SEARCH_HEAD_BYTES: usize = HANDLE_HEAD_BYTES + SEARCH_STATE_BYTES;
const _: () = assert!(SEARCH_HEAD_BYTES.is_multiple_of(8));
/// A prepared search handle holds at least one node.
const SEARCH: HandleKind = HandleKind {
    magic: SEARCH_MAGIC,
    align: ARBOR_MATCH3_SEARCH_ALIGN,
    min_len: SEARCH_HEAD_BYTES + node_size::<Swap>(),
};

// SAFETY: `#[repr(C)]`, integers and byte arrays (the game is `Plain`), no padding: 2368
// bytes, asserted above.
unsafe impl Plain for SearchState {}

use super::playtest::ARBOR_MATCH3_FORMULA_MAX_BYTES;
use super::search::{
    ARBOR_SEARCH_NO_MOVE, ARBOR_STOP_DONE, CallStop, HANDLE_HEAD_BYTES, HandleKind,
    arbor_search_limits, arbor_search_progress, cancel_handle, check_limits, handle_state,
    max_iterations, open_handle, prepare_handle,
};
use crate::match3::{AgentProgress, choose_until};
use crate::search::mcts::{Mcts, TreeParts};
use rand_xorshift::XorShiftRng;

fn rng_bits(rng: XorShiftRng) -> [u32; 4] {
    // SAFETY: the generator is four `u32` words (16 bytes: `transmute` checks the size), and
    // any four words are a generator state.
    unsafe { core::mem::transmute::<XorShiftRng, [u32; 4]>(rng) }
}

fn rng_of(bits: [u32; 4]) -> XorShiftRng {
    // SAFETY: as in `rng_bits`.
    unsafe { core::mem::transmute::<[u32; 4], XorShiftRng>(bits) }
}

/// An opened Match-3 handle (the search's or the playtest's): the flag apart from its state
/// `S` and its tree's nodes, which follow the state.
pub(super) struct OpenHandle<'a, S> {
    pub(super) cancel: &'a core::sync::atomic::AtomicU32,
    pub(super) state: &'a mut S,
    pub(super) nodes: &'a mut [Node<Swap>],
}

/// Opens a Match-3 handle of `kind` (`open_handle` and `handle_state`, search.rs). Errors:
/// those of `open_handle`.
///
/// # Safety
/// `buf` NULL or valid for `len` reads and writes, used by nothing else during `'a` but
/// the handle's `_cancel`; any bytes must be an `S` (integers, floats and arrays of them),
/// aligned to at most 8.
pub(super) unsafe fn open_with_tree<'a, S>(
    buf: *mut c_void,
    len: usize,
    kind: &HandleKind,
) -> Result<OpenHandle<'a, S>, Error> {
    // SAFETY: forwarded caller guarantee.
    let (cancel, own) = unsafe { open_handle(buf, len, kind) }?;
    // SAFETY: forwarded caller guarantee; `own` starts 8-aligned.
    let (state, rest) = unsafe { handle_state::<S>(own) }?;
    Ok(OpenHandle {
        cancel,
        state,
        nodes: nodes_in(rest),
    })
}

/// Opens a search handle. Errors: those of `open_handle`.
///
/// # Safety
/// As `open_with_tree`.
unsafe fn open_search<'a>(
    buf: *mut c_void,
    len: usize,
) -> Result<OpenHandle<'a, SearchState>, Error> {
    // SAFETY: forwarded caller guarantee; `SearchState` is `Plain` (any bytes are one),
    // aligned to 8.
    unsafe { open_with_tree(buf, len, &SEARCH) }
}

/// The agent, position and tree of an opened handle, checked. Errors:
/// `Error::NotInitialised` (damaged).
fn searched(state: &SearchState) -> Result<(Level, u32, Goal, Option<Program>, TreeParts), Error> {
    let check = || {
        check_version(state.game.magic, state.game.version, GAME_MAGIC)?;
        let level = level_of(&state.game.level)?;
        let formula = state
            .formula
            .get(..state.formula_len as usize)
            .ok_or(Error::InvalidArgument)?;
        // SAFETY: `formula` is a slice of the state, valid for its length.
        let (agent, goal, program) =
            unsafe { agent_program(state.agent, state.goal, formula.as_ptr(), formula.len()) }?;
        let tree = TreeParts {
            len: state.tree_len,
            root_key: (state.has_root_key != 0).then_some(state.root_key),
        };
        Ok((level, agent, goal, program, tree))
    };
    check().map_err(|_: Error| Error::NotInitialised)
}

/// Writes to `*out_bytes` the size of a search handle buffer for searches of up to
/// `iterations` iterations on `*level` without running out of nodes: 2,392 bytes of handle
/// and 40 · (1 + `iterations` · (h·(w−1) + w·(h−1))) of tree for a `w`×`h` board (the rule
/// of `arbor_match3_tree_bytes`). `iterations` counts every iteration since
/// `arbor_match3_search_init` or the last `arbor_match3_search_play` (a reused subtree takes
/// room too); past that the tree stops growing, which is no error. Align the buffer to
/// `ARBOR_MATCH3_SEARCH_ALIGN`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`,
/// `ARBOR_INVALID_ARGUMENT` (damaged level, `iterations` above
/// `ARBOR_MATCH3_MAX_ITERATIONS`).
///
/// # Safety
/// `level` readable and `out_bytes` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_search_bytes(
    level: *const arbor_match3_level,
    iterations: u32,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let level = unsafe { read_level(level) }?;
        let bytes = tree_nodes(&level, iterations)
            .and_then(|nodes| bytes_with_nodes(SEARCH_HEAD_BYTES, nodes));
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// Prepares the search handle in `buf` (`len` bytes, sized by `arbor_match3_search_bytes`,
/// aligned to `ARBOR_MATCH3_SEARCH_ALIGN`) for `agent` to choose a move in `*game`, its
/// generator seeded with `seed`. The agent, goal and formula are those of
/// `arbor_match3_agent_move`; the handle copies the game and the formula.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (game),
/// `ARBOR_INVALID_ARGUMENT` (agent, goal, formula, damaged game), `ARBOR_INVALID_LENGTH`
/// (formula), `ARBOR_MISALIGNED`, `ARBOR_BUFFER_TOO_SMALL` (no room for the handle and one
/// node), `ARBOR_GAME_OVER`.
///
/// # Safety
/// `buf` NULL or valid for `len` writes and not used by anything else during the call;
/// `game` readable; `formula` valid for `formula_len` reads.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn arbor_match3_search_init(
    buf: *mut c_void,
    len: usize,
    game: *const arbor_match3_game,
    agent: u32,
    goal: u32,
    formula: *const u8,
    formula_len: usize,
    seed: u64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let ((game, level), (agent, goal, program)) = unsafe {
            (
                read_game(game)?,
                agent_program(agent, goal, formula, formula_len)?,
            )
        };
        if replay(&game, &level)?.is_over() {
            return Err(Error::GameOver);
        }
        let mut image = [0u8; ARBOR_MATCH3_FORMULA_MAX_BYTES];
        let formula_len = match &program {
            Some(program) => program.encode(&mut image)?,
            None => 0,
        };
        // SAFETY: forwarded caller guarantee.
        let own = unsafe { prepare_handle(buf, len, &SEARCH, 0) }?;
        // SAFETY: `SearchState` is `Plain` (any bytes are one), aligned to 8; `own` starts
        // 8-aligned.
        let (slot, _) = unsafe { handle_state::<SearchState>(own) }?;
        *slot = SearchState {
            agent,
            goal: goal as u32,
            formula_len: formula_len as u32,
            reserved: 0,
            iterations: 0,
            tree_len: 0,
            has_root_key: 0,
            root_key: 0,
            rng: rng_bits(seeded_rng(seed)),
            game,
            formula: image,
            reserved_end: [0; 6],
        };
        Ok(())
    })
}

fn progress_of(
    agent: u32,
    found: &AgentProgress,
    iterations: u64,
    stop_reason: u32,
) -> arbor_search_progress {
    let summary = &found.summary;
    let best = if agent == ARBOR_MATCH3_AGENT_RANDOM {
        found.result.best
    } else {
        summary.best.or(found.result.best)
    };
    arbor_search_progress {
        iterations,
        iterations_this_call: found.result.stats.iterations,
        stop_reason,
        best_move: best.map_or(ARBOR_SEARCH_NO_MOVE, |swap| u32::from(swap.code())),
        best_visits: summary.best_visits,
        best_value: f64::from(summary.best_value),
        root_visits: u64::from(summary.root_visits),
    }
}

/// Continues the handle's search for at most `limits->max_iterations` iterations (0: no
/// limit), less if `limits->deadline_us` passes or `arbor_match3_search_cancel` is called,
/// and writes where it stands to `*out_progress`: the move to play now
/// (`best_move`, a move code), its visits and value, the iterations so far and this call's,
/// and why the call stopped (`ARBOR_STOP_ITERATIONS`, `_DEADLINE`, `_CANCELLED`; `_DONE`
/// for the Random agent, which chooses at once). The stop conditions are checked before
/// every iteration (tens of microseconds), so a cancel or a deadline ends the call within
/// one iteration. `k` calls of `n` iterations choose the move of one call of `k · n`, and of
/// `arbor_match3_agent_move` with `k · n` iterations and the same seed, when no call ended
/// with no iteration on a fresh tree.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (`buf` not
/// prepared by `arbor_match3_search_init` or damaged since: its game, agent or tree
/// refused; `limits` not filled by `arbor_search_limits_init`), `ARBOR_MISALIGNED`,
/// `ARBOR_INVALID_LENGTH` (`len` above `PTRDIFF_MAX`), `ARBOR_BUFFER_TOO_SMALL` (`len`
/// below the prepared length), `ARBOR_UNSUPPORTED` (a deadline without `now_us` in a build
/// without `std`), `ARBOR_GAME_OVER` (the handle's game is over). On error the search is
/// unchanged.
///
/// # Safety
/// `buf` NULL or valid for `len` reads and writes and used by nothing else during the call
/// but `arbor_match3_search_cancel`; `limits` readable; `limits->now_us`, if not NULL,
/// callable with `limits->ctx` from this thread; `out_progress` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_search_run(
    buf: *mut c_void,
    len: usize,
    limits: *const arbor_search_limits,
    out_progress: *mut arbor_search_progress,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (limits, out, open) = unsafe {
            (
                super::boundary::read_in(limits)?,
                Out::new(out_progress)?,
                open_search(buf, len)?,
            )
        };
        check_limits(&limits)?;
        let OpenHandle {
            cancel,
            state: stored,
            nodes,
        } = open;
        let mut state = *stored;
        let (level, agent, goal, program, mut tree) = searched(&state)?;
        let position = replay(&state.game, &level).map_err(|_| Error::NotInitialised)?;
        if position.is_over() {
            return Err(Error::GameOver);
        }
        let stop = CallStop::new(&limits, cancel)?;
        let mut rng = rng_of(state.rng);
        let found = choose_until(
            agent_of(agent, goal, &program),
            &position,
            &SearchConfig::default(),
            &mut Storage::nodes_only(nodes),
            &mut tree,
            max_iterations(&limits),
            &stop,
            &mut rng,
        )
        .map_err(|error| match error {
            // The handle's tree does not re-attach: damaged.
            Error::InvalidLength => Error::NotInitialised,
            other => other,
        })?;
        let reason = if agent == ARBOR_MATCH3_AGENT_RANDOM {
            ARBOR_STOP_DONE
        } else {
            stop.finish()
        };
        state.iterations = state
            .iterations
            .saturating_add(u64::from(found.result.stats.iterations));
        state.tree_len = tree.len;
        state.has_root_key = u32::from(tree.root_key.is_some());
        state.root_key = tree.root_key.unwrap_or(0);
        state.rng = rng_bits(rng);
        let progress = progress_of(agent, &found, state.iterations, reason);
        *stored = state;
        out.write(progress);
        Ok(())
    })
}

/// Plays move `code` in the handle's game and keeps the part of the tree under it for the
/// next `arbor_match3_search_run` (the iteration count starts again from 0). Any legal move
/// may be played, not only the search's.
///
/// Errors: those of `arbor_match3_search_run` for `buf`, `ARBOR_GAME_OVER`,
/// `ARBOR_ILLEGAL_MOVE`. On error the handle is unchanged.
///
/// # Safety
/// As `arbor_match3_search_run` for `buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_search_play(
    buf: *mut c_void,
    len: usize,
    code: u8,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let open = unsafe { open_search(buf, len) }?;
        let OpenHandle {
            state: stored,
            nodes,
            ..
        } = open;
        let mut state = *stored;
        let (level, _, _, _, tree) = searched(&state)?;
        let mut position = replay(&state.game, &level).map_err(|_| Error::NotInitialised)?;
        if position.is_over() {
            return Err(Error::GameOver);
        }
        let swap = Swap::from_code(code).ok_or(Error::IllegalMove)?;
        position.try_play(swap)?;
        let mut game = state.game;
        record_move(&mut game, swap)?;
        let mut mcts = Mcts::from_tree_parts(nodes, tree).map_err(|_| Error::NotInitialised)?;
        if !mcts.advance(swap) {
            mcts.clear();
        }
        let tree = mcts.parts();
        state.game = game;
        state.iterations = 0;
        state.tree_len = tree.len;
        state.has_root_key = u32::from(tree.root_key.is_some());
        state.root_key = tree.root_key.unwrap_or(0);
        *stored = state;
        Ok(())
    })
}

/// Copies the handle's game (with the moves played through `arbor_match3_search_play`)
/// to `*out_game`.
///
/// Errors: those of `arbor_match3_search_run` for `buf`.
///
/// # Safety
/// As `arbor_match3_search_run` for `buf`; `out_game` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_search_game(
    buf: *mut c_void,
    len: usize,
    out_game: *mut arbor_match3_game,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (open, out) = unsafe { (open_search(buf, len)?, Out::new(out_game)?) };
        let (level, ..) = searched(open.state)?;
        // Handed out as a game struct, so checked as one: its moves replay, and the
        // reserved bytes and the unused record are zero whatever the buffer holds.
        let mut game = open.state.game;
        replay(&game, &level).map_err(|_| Error::NotInitialised)?;
        game.reserved = 0;
        game.reserved_end = [0; 5];
        game.record[game.played as usize..].fill(0);
        out.write(game);
        Ok(())
    })
}

/// Asks the search running on the handle in `buf` to stop: it ends within one iteration
/// with `ARBOR_STOP_CANCELLED`. If no search is running, the next `arbor_match3_search_run`
/// stops at once; the call that stops for a cancel clears it. The one function that may be
/// called while another thread uses the handle (from any thread, a signal handler excepted).
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`,
/// `ARBOR_BUFFER_TOO_SMALL`, `ARBOR_NOT_INITIALISED` (not prepared by
/// `arbor_match3_search_init`, or its header damaged), `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `buf` NULL or valid for `len` reads and writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_search_cancel(buf: *mut c_void, len: usize) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { cancel_handle(buf, len, &SEARCH) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::{Goal, preset, search_move};
    use crate::search::mcts::Ucb1;

    /// The sizing rule holds: a search of `n` iterations in exactly `tree_nodes` nodes never
    /// refuses an expansion, and chooses what it chooses with room to spare. Prints how much
    /// of the tree the searches used.
    #[test]
    fn a_search_never_outgrows_the_tree_sized_for_its_level() {
        for name in ["board1", "board2", "board3"] {
            let level = Level::parse(preset(name).unwrap()).unwrap();
            let iterations = 60;
            let nodes = tree_nodes(&level, iterations).unwrap();
            let mut tight = vec![Node::default(); nodes];
            let mut roomy = vec![Node::default(); crate::match3::nodes_for(iterations)];
            let mut game = Match3::new(&level, 4);
            let config = SearchConfig {
                iterations,
                ..SearchConfig::default()
            };
            let mut used = 0usize;
            let mut moves = 0usize;
            while !game.is_over() {
                let mut rng = seeded_rng(moves as u64);
                let mut tree = TreeParts::default();
                let found = crate::match3::search_move_until(
                    &game,
                    &Ucb1::default(),
                    Goal::MaxScore,
                    &config,
                    &mut Storage::nodes_only(&mut tight),
                    &mut tree,
                    iterations,
                    crate::search::mcts::Never,
                    &mut rng,
                )
                .unwrap();
                assert!(!found.result.stats.storage_full, "{name}");
                used += found.result.stats.nodes_used as usize;
                let mut rng = seeded_rng(moves as u64);
                let roomy_move = search_move(
                    &game,
                    &Ucb1::default(),
                    Goal::MaxScore,
                    &config,
                    &mut Storage::nodes_only(&mut roomy),
                    &mut rng,
                )
                .unwrap();
                assert_eq!(found.result.best, roomy_move, "{name}");
                game.play(found.result.best.unwrap());
                moves += 1;
            }
            #[cfg(feature = "std")]
            std::println!(
                "{name}: {:.0}% of the tight tree used on average",
                100.0 * used as f64 / (moves * nodes) as f64
            );
            let _ = used;
        }
    }

    #[test]
    fn tree_sizes_follow_the_documented_rule() {
        let level = Level::parse("size 7x7\n").unwrap();
        assert_eq!(tree_nodes(&level, 10), Some(1 + 10 * 84));
        let level = Level::parse("size 8x5\n").unwrap();
        assert_eq!(tree_nodes(&level, 10), Some(1 + 10 * (5 * 7 + 8 * 4)));
        assert_eq!(tree_nodes(&level, ARBOR_MATCH3_MAX_ITERATIONS + 1), None);
        assert_eq!(tree_bytes_for(3), Some(16 + 3 * 40));
    }
}
