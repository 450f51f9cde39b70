//! C ABI of Match-3: levels, games, moves, metrics and the agents.
//!
//! A level and a game are plain fixed-size structs that C holds by value (no handle, nothing
//! to free). A game stores its level, chance seed and the moves played; every call rebuilds
//! the position by replaying them (at most 255 moves, microseconds), so a damaged struct is
//! detected (`ARBOR_INVALID_ARGUMENT`) instead of trusted. Moves are one byte each: the
//! lower or left cell `row * 8 + col` (row 0 at the bottom), plus 64 for a vertical swap.
use core::ffi::c_void;

use super::arbor_status;
use super::legacy::{parse_into, read_prefix, text_of, write_bytes};
use crate::Error;
use crate::match3::{
    Agent, Goal, LEVEL_BYTES, Level, Match3, PRESETS, Program, SearchConfig, Storage, Swap, choose,
};
use crate::search::mcts::{Node, node_align, seeded_rng, storage_bytes};

/// Bytes of `arbor_match3_level`.
pub const ARBOR_MATCH3_LEVEL_BYTES: usize = 1700;
/// Most moves a game can record (the largest move limit).
pub const ARBOR_MATCH3_MAX_RECORD: usize = 255;
/// Most legal moves of a position (8x8 board): the capacity that never runs short.
pub const ARBOR_MATCH3_MAX_MOVES: usize = 112;

const _: () = assert!(LEVEL_BYTES <= ARBOR_MATCH3_LEVEL_BYTES);

/// A parsed Match-3 level, held by value. Fill it with `arbor_match3_level_parse` or
/// `arbor_match3_level_preset`; its bytes are private.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct arbor_match3_level {
    /// Private image of the level.
    pub opaque: [u8; ARBOR_MATCH3_LEVEL_BYTES],
}

/// A Match-3 game, held by value: the level, the chance seed and the moves played. Start it
/// with `arbor_match3_game_start`; its fields are private.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct arbor_match3_game {
    /// Private image of the level.
    pub level: [u8; ARBOR_MATCH3_LEVEL_BYTES],
    /// Private: the chance seed.
    pub seed: u64,
    /// Private: moves played.
    pub played: u32,
    /// Private: the moves played.
    pub record: [u8; ARBOR_MATCH3_MAX_RECORD],
}

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

/// Metrics of a game so far.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct arbor_match3_metrics {
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
    /// `legal_sum / moves` (the paper's average available moves), 0 before a move.
    pub average_available: f64,
}

/// Agents of `arbor_match3_agent_move`.
pub const ARBOR_MATCH3_AGENT_RANDOM: u32 = 0;
/// Vanilla MCTS (UCB1, C = 1/√2).
pub const ARBOR_MATCH3_AGENT_VANILLA: u32 = 1;
/// Persona MCTS with a formula in the binary form.
pub const ARBOR_MATCH3_AGENT_PERSONA: u32 = 2;

fn level_of(image: &[u8; ARBOR_MATCH3_LEVEL_BYTES]) -> Result<Level, Error> {
    let mut bytes = [0u8; LEVEL_BYTES];
    bytes.copy_from_slice(&image[..LEVEL_BYTES]);
    Level::from_bytes(&bytes).ok_or(Error::InvalidArgument)
}

fn store_level(level: &Level, image: &mut [u8; ARBOR_MATCH3_LEVEL_BYTES]) {
    let mut bytes = [0u8; LEVEL_BYTES];
    level.to_bytes(&mut bytes);
    image.fill(0);
    image[..LEVEL_BYTES].copy_from_slice(&bytes);
}

/// Rebuilds the position of a game struct by replaying its moves.
fn replay<'l>(game: &arbor_match3_game, level: &'l Level) -> Result<Match3<'l>, Error> {
    let played = usize::try_from(game.played).map_err(|_| Error::InvalidArgument)?;
    let record = game.record.get(..played).ok_or(Error::InvalidArgument)?;
    let mut state = Match3::new(level, game.seed);
    for &code in record {
        let swap = Swap::from_code(code).ok_or(Error::InvalidArgument)?;
        state.try_play(swap).map_err(|_| Error::InvalidArgument)?;
    }
    Ok(state)
}

/// Parses a level from `len` bytes of UTF-8 text (the level file format of the README; no
/// NUL needed) into `*out_level`.
///
/// arbor reads `text` during the call only. On error `*out_level` is unchanged and, if
/// `out_line` is not NULL, `*out_line` receives the 1-based line of the problem (0 when no
/// single line is at fault; unchanged on other errors).
/// Errors: `ARBOR_NULL_POINTER` (`text` or `out_level`), `ARBOR_INVALID_LENGTH`,
/// `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR`.
///
/// # Safety
/// `text` must be valid for `len` reads; `out_level` and `out_line` writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_level_parse(
    text: *const u8,
    len: usize,
    out_level: *mut arbor_match3_level,
    out_line: *mut u32,
) -> arbor_status {
    // SAFETY: the caller's contract is `parse_into`'s.
    unsafe {
        parse_into(
            text,
            len,
            out_level,
            out_line,
            |text| Level::parse(text).map_err(|error| error.line),
            |level| {
                let mut image = arbor_match3_level {
                    opaque: [0; ARBOR_MATCH3_LEVEL_BYTES],
                };
                store_level(level, &mut image.opaque);
                image
            },
        )
    }
}

/// Loads bundled preset level `index` (0, 1 or 2: board1 … board3) into `*out_level`.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (index out of range).
///
/// # Safety
/// `out_level` must be writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_level_preset(
    index: u32,
    out_level: *mut arbor_match3_level,
) -> arbor_status {
    if out_level.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let Some((_, text)) = PRESETS.get(index as usize) else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    // SAFETY: `text` is a static string, `out_level` non-NULL and writable.
    unsafe { arbor_match3_level_parse(text.as_ptr(), text.len(), out_level, core::ptr::null_mut()) }
}

/// Starts a game of `*level` with chance seed `seed` (pass the level's `seed` line, or any
/// other, for another board) into `*out_game`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (`*level` was not filled by arbor
/// or was damaged). On error `*out_game` is unchanged.
///
/// # Safety
/// `level` must be readable and `out_game` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_game_start(
    level: *const arbor_match3_level,
    seed: u64,
    out_game: *mut arbor_match3_game,
) -> arbor_status {
    if level.is_null() || out_game.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: non-NULL and readable (caller's contract); any byte values are valid.
    let image = unsafe { level.read_unaligned() };
    if let Err(error) = level_of(&image.opaque) {
        return error.into();
    }
    let game = arbor_match3_game {
        level: image.opaque,
        seed,
        played: 0,
        record: [0; ARBOR_MATCH3_MAX_RECORD],
    };
    // SAFETY: non-NULL and writable (caller's contract).
    unsafe { out_game.write_unaligned(game) };
    arbor_status::ARBOR_OK
}

/// Reads a game struct and rebuilds its level.
///
/// # Safety
/// `game` must be non-NULL and readable.
unsafe fn read_game(game: *const arbor_match3_game) -> Result<(arbor_match3_game, Level), Error> {
    // SAFETY: the caller checked `game` is non-NULL; it is readable (caller's contract) and
    // any byte values are valid for this plain struct.
    let game = unsafe { game.read_unaligned() };
    let level = level_of(&game.level)?;
    Ok((game, level))
}

/// Writes the legal moves of `*game` (codes in increasing order) into `out_moves`, which
/// has room for `capacity` bytes, and their number into `*out_count`. 112
/// (`ARBOR_MATCH3_MAX_MOVES`) is always enough; a game that is over has none.
///
/// Errors: `ARBOR_NULL_POINTER` (`game`, `out_count`, or `out_moves` with `capacity` > 0),
/// `ARBOR_INVALID_ARGUMENT` (damaged game), `ARBOR_BUFFER_TOO_SMALL` (then `*out_count`
/// holds the number needed and nothing is written to `out_moves`).
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
    if game.is_null() || out_count.is_null() || (out_moves.is_null() && capacity > 0) {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: `game` is non-NULL (checked above).
    let (game, level) = match unsafe { read_game(game) } {
        Ok(pair) => pair,
        Err(error) => return error.into(),
    };
    let state = match replay(&game, &level) {
        Ok(state) => state,
        Err(error) => return error.into(),
    };
    let moves = state.legal_moves();
    // SAFETY: `out_count` is non-NULL and writable.
    unsafe { out_count.write_unaligned(moves.len()) };
    if moves.len() > capacity {
        return arbor_status::ARBOR_BUFFER_TOO_SMALL;
    }
    for (i, swap) in moves.iter().enumerate() {
        // SAFETY: i < moves.len() <= capacity, and `out_moves` is valid for `capacity`
        // writes (non-NULL whenever capacity > 0, checked above).
        unsafe { out_moves.add(i).write(swap.code()) };
    }
    arbor_status::ARBOR_OK
}

/// Plays move `code` in `*game`. `out_outcome` may be NULL; otherwise it receives what the
/// move did.
///
/// Errors: `ARBOR_NULL_POINTER` (`game`), `ARBOR_INVALID_ARGUMENT` (damaged game),
/// `ARBOR_ILLEGAL_MOVE` (not a legal move now, or the game is over). On error `*game` and
/// `*out_outcome` are unchanged.
///
/// # Safety
/// `game` readable and writable; `out_outcome` writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_play(
    game: *mut arbor_match3_game,
    code: u8,
    out_outcome: *mut arbor_match3_outcome,
) -> arbor_status {
    if game.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: `game` is non-NULL (checked above).
    let (mut copy, level) = match unsafe { read_game(game) } {
        Ok(pair) => pair,
        Err(error) => return error.into(),
    };
    let mut state = match replay(&copy, &level) {
        Ok(state) => state,
        Err(error) => return error.into(),
    };
    let Some(swap) = Swap::from_code(code) else {
        return arbor_status::ARBOR_ILLEGAL_MOVE;
    };
    let Some(slot) = copy.record.get_mut(copy.played as usize) else {
        return arbor_status::ARBOR_ILLEGAL_MOVE;
    };
    let outcome = match state.try_play(swap) {
        Ok(outcome) => outcome,
        Err(error) => return error.into(),
    };
    *slot = code;
    copy.played += 1;
    // SAFETY: `game` is non-NULL and writable (caller's contract).
    unsafe { game.write_unaligned(copy) };
    if !out_outcome.is_null() {
        let out = arbor_match3_outcome {
            points: outcome.points,
            combos: outcome.combos,
            reshuffled: u32::from(outcome.reshuffled),
            legal_before: outcome.legal_before,
        };
        // SAFETY: non-NULL and writable (caller's contract).
        unsafe { out_outcome.write_unaligned(out) };
    }
    arbor_status::ARBOR_OK
}

/// Writes the metrics of `*game` into `*out_metrics`.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (damaged game).
///
/// # Safety
/// `game` readable and `out_metrics` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_game_metrics(
    game: *const arbor_match3_game,
    out_metrics: *mut arbor_match3_metrics,
) -> arbor_status {
    if game.is_null() || out_metrics.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: `game` is non-NULL (checked above).
    let (game, level) = match unsafe { read_game(game) } {
        Ok(pair) => pair,
        Err(error) => return error.into(),
    };
    let state = match replay(&game, &level) {
        Ok(state) => state,
        Err(error) => return error.into(),
    };
    let m = state.metrics();
    let out = arbor_match3_metrics {
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
        average_available: m.average_available(),
    };
    // SAFETY: non-NULL and writable (caller's contract).
    unsafe { out_metrics.write_unaligned(out) };
    arbor_status::ARBOR_OK
}

/// Parses a move such as "d4-d5" (NUL-terminated; column letter, row number from 1 at the
/// bottom; either cell first) into its code. The move is checked for shape, not legality.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_PARSE_ERROR`.
///
/// # Safety
/// `text` must be a NUL-terminated string or NULL; `out_code` writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_move_parse(
    text: *const core::ffi::c_char,
    out_code: *mut u8,
) -> arbor_status {
    if text.is_null() || out_code.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // Eight bytes at most: a move is five characters, so more is already an error.
    // SAFETY: `text` is non-NULL and the caller guarantees it is NUL-terminated.
    let (bytes, len) = unsafe { read_prefix::<8>(text) };
    let parsed = core::str::from_utf8(&bytes[..len])
        .map_err(|_| Error::Parse)
        .and_then(Swap::parse);
    match parsed {
        Ok(swap) => {
            // SAFETY: non-NULL and writable (caller's contract).
            unsafe { out_code.write(swap.code()) };
            arbor_status::ARBOR_OK
        }
        Err(_) => arbor_status::ARBOR_PARSE_ERROR,
    }
}

/// Writes the text of move `code` ("d4-d5") and a NUL into `buf` (room for `len` bytes; 6
/// needed). Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (no move has this code),
/// `ARBOR_BUFFER_TOO_SMALL`. Nothing is written on error.
///
/// # Safety
/// `buf` must be valid for `len` writes, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_move_format(
    code: u8,
    buf: *mut core::ffi::c_char,
    len: usize,
) -> arbor_status {
    if buf.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let Some(swap) = Swap::from_code(code) else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    let ((c0, r0), (c1, r1)) = (swap.from(), swap.to());
    let text = [b'a' + c0, b'1' + r0, b'-', b'a' + c1, b'1' + r1];
    // SAFETY: `buf` is non-NULL and the caller guarantees `len` writable bytes.
    unsafe { write_bytes(&text, buf, len) }
}

/// Compiles a persona formula from `len` bytes of text (for example
/// "add(div(W, N), mul(0.5, sqrt(div(NP, N))))") into its binary form in `out`, which has
/// room for `capacity` bytes (`ARBOR_MATCH3_FORMULA_MAX_BYTES`, 322, always suffice), and writes its length to `*out_len`.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR`,
/// `ARBOR_INVALID_LENGTH` (more than 64 instructions), `ARBOR_BUFFER_TOO_SMALL` (then
/// `*out_len` holds the size needed).
///
/// # Safety
/// `text` valid for `len` reads, `out` for `capacity` writes, `out_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_formula_compile(
    text: *const u8,
    len: usize,
    out: *mut u8,
    capacity: usize,
    out_len: *mut usize,
) -> arbor_status {
    if text.is_null() || out.is_null() || out_len.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: `text` non-NULL and valid for `len` reads (caller's contract).
    let program = match unsafe { text_of(text, len) }.and_then(Program::parse) {
        Ok(program) => program,
        Err(error) => return error.into(),
    };
    let needed = program.encoded_len();
    // SAFETY: non-NULL and writable.
    unsafe { out_len.write_unaligned(needed) };
    if needed > capacity {
        return arbor_status::ARBOR_BUFFER_TOO_SMALL;
    }
    // SAFETY: `out` is non-NULL and valid for `capacity` >= `needed` writes.
    let out = unsafe { core::slice::from_raw_parts_mut(out, needed) };
    program.encode(out).into()
}

/// Bytes of a search tree buffer of `capacity` nodes, written to `*out_bytes`. A search of
/// `iterations` iterations never needs more than `1 + 112 * iterations` nodes (fewer nodes
/// are fine: the tree stops growing). The buffer must be aligned to
/// `arbor_match3_tree_align()` (malloc's alignment is enough).
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH` (the size overflows).
///
/// # Safety
/// `out_bytes` must be writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_tree_bytes(
    capacity: usize,
    out_bytes: *mut usize,
) -> arbor_status {
    if out_bytes.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    match storage_bytes::<Swap>(capacity) {
        Some(bytes) => {
            // SAFETY: non-NULL and writable.
            unsafe { out_bytes.write_unaligned(bytes) };
            arbor_status::ARBOR_OK
        }
        None => arbor_status::ARBOR_INVALID_LENGTH,
    }
}

/// Alignment a tree buffer needs.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_match3_tree_align() -> usize {
    node_align::<Swap>()
}

/// The search tree nodes in a caller's buffer of `tree_bytes` bytes at `tree`.
/// Errors: `Error::NullPointer`, `Error::InvalidArgument` (misaligned, or a size over
/// `isize::MAX`).
///
/// # Safety
/// `tree`, if not NULL, must be valid for `tree_bytes` reads and writes and not used by
/// anything else while the slice lives.
pub(super) unsafe fn tree_storage<'a>(
    tree: *mut c_void,
    tree_bytes: usize,
) -> Result<&'a mut [Node<Swap>], Error> {
    if tree.is_null() {
        return Err(Error::NullPointer);
    }
    if !(tree as usize).is_multiple_of(node_align::<Swap>()) || tree_bytes > isize::MAX as usize {
        return Err(Error::InvalidArgument);
    }
    let count = tree_bytes / core::mem::size_of::<Node<Swap>>();
    // SAFETY: `tree` is non-NULL, aligned for `Node<Swap>` (checked), valid for
    // `tree_bytes` >= count * size_of::<Node>() reads and writes and used by nothing else
    // meanwhile (caller's contract). `Node<Swap>` holds only integers and floats (the move
    // is a `u8` newtype), so any bytes are a valid value; the search overwrites every node
    // before reading it.
    Ok(unsafe { core::slice::from_raw_parts_mut(tree.cast::<Node<Swap>>(), count) })
}

/// Asks an agent for a move in `*game` and writes its code to `*out_code`.
///
/// `agent`: `ARBOR_MATCH3_AGENT_RANDOM`, `_VANILLA` or `_PERSONA`. `goal` (the reward of the
/// MCTS agents): 0 MaxS, 1 MinS, 2 MaxM, 3 MinM. `formula`/`formula_len`: the persona's
/// formula in binary form (see `arbor_match3_formula_compile`), ignored by the other
/// agents (may then be NULL). `iterations`: per move (the paper uses 250). `seed`: the
/// agent's generator; the same inputs and seed give the same move. `tree`/`tree_bytes`: a
/// caller buffer for the search tree (`arbor_match3_tree_bytes`), used during the call only;
/// ignored by the random agent (may then be NULL).
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (unknown agent or goal, damaged
/// game, misaligned tree buffer, invalid formula), `ARBOR_INVALID_LENGTH` (formula
/// truncated), `ARBOR_CAPACITY_EXHAUSTED` (tree buffer smaller than one node),
/// `ARBOR_ILLEGAL_MOVE` (the game is over: there is no move to choose).
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
    if game.is_null() || out_code.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let Some(goal) = Goal::from_code(goal) else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    let program = if agent == ARBOR_MATCH3_AGENT_PERSONA {
        if formula.is_null() {
            return arbor_status::ARBOR_NULL_POINTER;
        }
        if formula_len > isize::MAX as usize {
            return arbor_status::ARBOR_INVALID_LENGTH;
        }
        // SAFETY: non-NULL, valid for `formula_len` reads (caller's contract), and the
        // length fits in isize.
        let bytes = unsafe { core::slice::from_raw_parts(formula, formula_len) };
        match Program::decode(bytes) {
            Ok(program) => Some(program),
            Err(error) => return error.into(),
        }
    } else {
        None
    };
    let agent = match (agent, &program) {
        (ARBOR_MATCH3_AGENT_RANDOM, _) => Agent::Random,
        (ARBOR_MATCH3_AGENT_VANILLA, _) => Agent::Vanilla(goal),
        (ARBOR_MATCH3_AGENT_PERSONA, Some(program)) => Agent::Persona(program, goal),
        _ => return arbor_status::ARBOR_INVALID_ARGUMENT,
    };
    // SAFETY: `game` is non-NULL (checked above).
    let (copy, level) = match unsafe { read_game(game) } {
        Ok(pair) => pair,
        Err(error) => return error.into(),
    };
    let state = match replay(&copy, &level) {
        Ok(state) => state,
        Err(error) => return error.into(),
    };
    let storage: &mut [Node<Swap>] = if matches!(agent, Agent::Random) {
        &mut []
    } else {
        // SAFETY: the caller's contract on `tree` and `tree_bytes`.
        match unsafe { tree_storage(tree, tree_bytes) } {
            Ok(storage) => storage,
            Err(error) => return error.into(),
        }
    };
    let config = SearchConfig {
        iterations,
        ..SearchConfig::default()
    };
    let mut rng = seeded_rng(seed);
    // The C ABI lends tree nodes only, so the search replays its moves (same choice).
    match choose(
        agent,
        &state,
        &config,
        &mut Storage::nodes_only(storage),
        &mut rng,
    ) {
        Ok(Some(swap)) => {
            // SAFETY: non-NULL and writable.
            unsafe { out_code.write(swap.code()) };
            arbor_status::ARBOR_OK
        }
        Ok(None) => arbor_status::ARBOR_ILLEGAL_MOVE,
        Err(error) => error.into(),
    }
}
