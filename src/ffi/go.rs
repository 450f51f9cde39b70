//! C ABI of Go: a game in a caller buffer (a board of 5x5 to 19x19, its komi, setup stones
//! and the moves played, under positional superko), moves as point codes, GTP vertices, the
//! board diagram and SGF in and out.
//!
//! Moves cross the boundary as `uint32_t` codes: `row * size + col` for the point at column
//! `col` and row `row`, both from 0 (A1 is 0, B1 is 1, A2 is `size`), or `ARBOR_GO_PASS`.
//!
//! Layout of a game buffer (8-aligned): the buffer header of boundary.rs (magic `GOGM`), the
//! game area: [`Head`] (24 bytes: size, komi, setup and move counts, the size it was prepared
//! for), then one `u16` entry
//! per setup stone and per move, bit 15 the colour (0 Black, 1 White) and bits 0–14 the
//! point code or [`PASS_ENTRY`]. Every call rebuilds the game by replaying the entries
//! through the core's [`Player`] (superko included), so a damaged buffer is refused with
//! `ARBOR_NOT_INITIALISED`, never misread, and a mutating call writes the whole area back
//! only once everything succeeded. The search handle (go_search.rs) keeps the same area.
use core::ffi::{c_char, c_void};

use super::arbor_status;
use super::boundary::{
    BUFFER_HEADER_BYTES, OptionalOut, Out, boundary, check_header, magic, prepare_buffer,
    report_bytes, slice_out,
};
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
use crate::go::player::{Player, PlayerConfig, points};
use crate::go::sgf::GameRecord;
use crate::go::status::Status;
use crate::go::vertex::{GoMove, Vertex, VertexError};
use crate::go::{Board, Color, MAX_SIZE, MIN_SIZE, Move, PlayError, Score};
use crate::search::game::seeded_rng;

/// The smallest board size.
pub const ARBOR_GO_MIN_SIZE: u32 = 5;
/// The largest board size.
pub const ARBOR_GO_MAX_SIZE: u32 = 19;
const _: () = assert!(ARBOR_GO_MIN_SIZE == MIN_SIZE as u32 && ARBOR_GO_MAX_SIZE == MAX_SIZE as u32);

/// The move code of a pass.
pub const ARBOR_GO_PASS: u32 = 0xFFFF_FFFE;
/// No point or move (`arbor_go_info.ko` without a ko, `last_move` before the first move).
pub const ARBOR_GO_NONE: u32 = 0xFFFF_FFFF;

/// Points of the largest board: an array of this many bytes always holds
/// `arbor_go_game_board`'s output.
pub const ARBOR_GO_MAX_POINTS: usize = 361;
/// The most legal moves (every point and the pass): an array of this many `uint32_t` always
/// holds `arbor_go_game_legal_moves`'s output.
pub const ARBOR_GO_MAX_MOVES: usize = 362;

/// A point's content (`arbor_go_game_board`), and a colour (`arbor_go_info.to_move`,
/// `arbor_go_score.winner`, where it means a draw): empty.
pub const ARBOR_GO_EMPTY: u32 = 0;
/// Black.
pub const ARBOR_GO_BLACK: u32 = 1;
/// White.
pub const ARBOR_GO_WHITE: u32 = 2;

/// `arbor_go_game_check`: the move is legal.
pub const ARBOR_GO_LEGAL: u32 = 0;
/// The point is occupied.
pub const ARBOR_GO_OCCUPIED: u32 = 1;
/// The stone would have no liberty and capture nothing.
pub const ARBOR_GO_SUICIDE: u32 = 2;
/// The immediate recapture of a single stone (simple ko).
pub const ARBOR_GO_KO: u32 = 3;
/// The move would repeat an earlier whole-board position (positional superko).
pub const ARBOR_GO_SUPERKO: u32 = 4;
/// The game is over: a pass after two passes in a row, or any move once `3 * size * size`
/// moves are played (a stone after two passes resumes the game: see `arbor_go_game_play`).
pub const ARBOR_GO_OVER: u32 = 5;

/// `arbor_go_game_final_status`: no stone on the point.
pub const ARBOR_GO_STATUS_EMPTY: u8 = 0;
/// The stone is alive.
pub const ARBOR_GO_STATUS_ALIVE: u8 = 1;
/// The stone is dead (its point is owned by the opponent): removed for the final score.
pub const ARBOR_GO_STATUS_DEAD: u8 = 2;
/// The stone is in seki: alive, counted for its colour, its shared liberties for no one.
pub const ARBOR_GO_STATUS_SEKI: u8 = 3;

/// Alignment of a game buffer, in bytes (`malloc` and `alignas(8)` satisfy it).
pub const ARBOR_GO_GAME_ALIGN: usize = 8;
/// Bytes of a game buffer before its entries; a buffer for boards up to `n` is
/// `ARBOR_GO_GAME_HEAD_BYTES + 8 * n * n` bytes (`arbor_go_game_bytes`).
pub const ARBOR_GO_GAME_HEAD_BYTES: usize = 40;
const _: () = assert!(ARBOR_GO_GAME_HEAD_BYTES == BUFFER_HEADER_BYTES + HEAD_BYTES);

/// Bytes that hold any board diagram (`arbor_go_game_format`) and its NUL: a line of column
/// letters and 19 lines of 41 bytes on 19x19.
pub const ARBOR_GO_DIAGRAM_TEXT_MAX: usize = 821;
/// Bytes that hold any SGF text of `arbor_go_game_sgf_format` and its NUL (a 19x19 board
/// set up full and 1,083 moves take about 8,150).
pub const ARBOR_GO_SGF_TEXT_MAX: usize = 8192;
/// Bytes that hold any move's GTP text (`pass`, `D4`, `T19`) and its NUL.
pub const ARBOR_GO_MOVE_TEXT_MAX: usize = 5;

/// Stack, in bytes, that every `arbor_go_game_*` and `arbor_go_move_*` call needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 130,944 bytes (a 19x19 game of 300 moves: each call replays it in the core's player, about 33 KB; SGF holds a record and a second player besides, the final score and status an ownership estimate and the status of every point), including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_GO_STACK_BYTES: usize = 163840;

const GAME_MAGIC: u32 = magic(b"GOGM");

/// A game's state as C sees it (`arbor_go_game_info`). 56 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_go_info {
    /// Board size, 5..=19.
    pub size: u32,
    /// The player to move: `ARBOR_GO_BLACK` or `ARBOR_GO_WHITE`.
    pub to_move: u32,
    /// Moves played since the start position (passes included).
    pub moves: u32,
    /// Passes just played in a row (2 ends the game).
    pub passes: u32,
    /// White stones Black has captured.
    pub captures_black: u32,
    /// Black stones White has captured.
    pub captures_white: u32,
    /// Black stones on the board.
    pub stones_black: u32,
    /// White stones on the board.
    pub stones_white: u32,
    /// The point the player to move may not play now (simple ko), or `ARBOR_GO_NONE`.
    pub ko: u32,
    /// The last move's code, or `ARBOR_GO_NONE` before the first move.
    pub last_move: u32,
    /// 1 if the game is over (two passes in a row, or `3 * size * size` moves), else 0. A
    /// stone played after two passes resumes the game (`arbor_go_game_play`).
    pub over: u32,
    /// Written as zero.
    pub reserved: u32,
    /// Points given to White.
    pub komi: f64,
}

/// Bytes of `arbor_go_info`.
pub const ARBOR_GO_INFO_BYTES: usize = 56;
const _: () = assert!(core::mem::size_of::<arbor_go_info>() == ARBOR_GO_INFO_BYTES);

/// An area (Chinese) score: stones and the empty regions bordered by one colour only, every
/// stone counted alive (`arbor_go_game_score`). 32 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_go_score {
    /// Black's stones and territory.
    pub black: u32,
    /// White's stones and territory.
    pub white: u32,
    /// `ARBOR_GO_BLACK`, `ARBOR_GO_WHITE`, or `ARBOR_GO_EMPTY` for a draw (an integral komi).
    pub winner: u32,
    /// Written as zero.
    pub reserved: u32,
    /// The komi added to White.
    pub komi: f64,
    /// Black's lead: `black - white - komi`.
    pub margin: f64,
}

/// Bytes of `arbor_go_score`.
pub const ARBOR_GO_SCORE_BYTES: usize = 32;
const _: () = assert!(core::mem::size_of::<arbor_go_score>() == ARBOR_GO_SCORE_BYTES);

/// The head of a game area: plain numbers, read and written by bytes (native order).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Head {
    size: u32,
    komi: f32,
    setup: u32,
    moves: u32,
    /// The board size the area was prepared for: it holds at least [`area_bytes`] of it.
    capacity: u32,
}

/// Bytes of [`Head`] in a buffer: size, komi bits, setup count, move count, the size the
/// area was prepared for, 4 reserved.
pub(super) const HEAD_BYTES: usize = 24;
/// The entry of a pass.
const PASS_ENTRY: u16 = 0x7FFF;
const WHITE_BIT: u16 = 0x8000;

impl Head {
    fn read(area: &[u8]) -> Result<Head, Error> {
        let word = |i: usize| {
            area.get(4 * i..4 * i + 4)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_ne_bytes)
                .ok_or(Error::NotInitialised)
        };
        Ok(Head {
            size: word(0)?,
            komi: f32::from_bits(word(1)?),
            setup: word(2)?,
            moves: word(3)?,
            capacity: word(4)?,
        })
    }

    fn write(self, area: &mut [u8]) {
        let words = [
            self.size,
            self.komi.to_bits(),
            self.setup,
            self.moves,
            self.capacity,
            0,
        ];
        for (slot, word) in area.chunks_exact_mut(4).zip(words) {
            slot.copy_from_slice(&word.to_ne_bytes());
        }
    }
}

/// Bytes of a game area for boards up to `size`: the head and `4 * size * size` entries
/// (a setup stone per point and `3 * size * size` moves, the game-length cap).
pub(super) const fn area_bytes(size: u8) -> usize {
    HEAD_BYTES + 2 * 4 * (size as usize) * (size as usize)
}

/// The board size `size` as the core takes it. Errors: `InvalidArgument` (not 5..=19).
pub(super) fn board_size(size: u32) -> Result<u8, Error> {
    u8::try_from(size)
        .ok()
        .filter(|size| (MIN_SIZE..=MAX_SIZE).contains(size))
        .ok_or(Error::InvalidArgument)
}

/// The komi `komi` as the core takes it. Errors: `InvalidArgument` (not finite, or beyond
/// ±1000).
pub(super) fn komi_of(komi: f64) -> Result<f32, Error> {
    let komi = komi as f32;
    let mut board = Board::new(MIN_SIZE).map_err(|_| Error::InvalidArgument)?;
    board.set_komi(komi).map_err(|_| Error::InvalidArgument)?;
    Ok(komi)
}

/// The code of `mv` on `board`.
pub(super) fn code_of(board: &Board, mv: Move) -> u32 {
    match mv {
        Move::Pass => ARBOR_GO_PASS,
        Move::Play(point) => match board.coords(point) {
            Some((col, row)) => u32::from(row) * u32::from(board.size()) + u32::from(col),
            None => ARBOR_GO_NONE,
        },
    }
}

/// The move of code `code` on `board`, `None` for a code that is no point of it nor a pass.
pub(super) fn move_of(board: &Board, code: u32) -> Option<Move> {
    if code == ARBOR_GO_PASS {
        return Some(Move::Pass);
    }
    let size = u32::from(board.size());
    if code >= size * size {
        return None;
    }
    board
        .point((code % size) as u8, (code / size) as u8)
        .map(Move::Play)
}

/// The move of `code`. Errors: `InvalidArgument` (neither a point of the board nor a pass).
pub(super) fn move_in(board: &Board, code: u32) -> Result<Move, Error> {
    move_of(board, code).ok_or(Error::InvalidArgument)
}

fn color_code(color: Color) -> u32 {
    match color {
        Color::Black => ARBOR_GO_BLACK,
        Color::White => ARBOR_GO_WHITE,
    }
}

fn entry(board: &Board, color: Color, mv: Move) -> u16 {
    let code = match code_of(board, mv) {
        ARBOR_GO_PASS => PASS_ENTRY,
        // Below 361.
        code => code as u16,
    };
    match color {
        Color::Black => code,
        Color::White => code | WHITE_BIT,
    }
}

fn read_entry(area: &[u8], index: usize) -> Option<(Color, u16)> {
    let at = HEAD_BYTES.checked_add(index.checked_mul(2)?)?;
    let bytes = area.get(at..at.checked_add(2)?)?;
    let entry = u16::from_ne_bytes([bytes[0], bytes[1]]);
    let color = if entry & WHITE_BIT != 0 {
        Color::White
    } else {
        Color::Black
    };
    Some((color, entry & !WHITE_BIT))
}

/// Where a call rebuilds its game: a slot in the entry point's frame, filled in place, so
/// that the player (about 33 KB) is not also returned by value (a second copy on the stack).
pub(super) type PlayerSlot<'s> = Option<Player<'s>>;

/// Rebuilds the game of a game area in `slot` by replaying it. Errors: `NotInitialised`
/// (anything out of range or refused: a damaged area).
pub(super) fn load_game<'p, 's>(
    area: &[u8],
    slot: &'p mut PlayerSlot<'s>,
) -> Result<&'p mut Player<'s>, Error> {
    fn damaged<E>(_: E) -> Error {
        Error::NotInitialised
    }
    let head = Head::read(area)?;
    let size = board_size(head.size).map_err(damaged)?;
    // An area shorter than its preparation made it: a damaged buffer header.
    let prepared = board_size(head.capacity).map_err(damaged)?;
    if area.len() < area_bytes(prepared) {
        return Err(Error::NotInitialised);
    }
    let (setup, moves) = (head.setup as usize, head.moves as usize);
    let capacity = area.len().saturating_sub(HEAD_BYTES) / 2;
    if setup.checked_add(moves).is_none_or(|n| n > capacity) {
        return Err(Error::NotInitialised);
    }
    let mut board = Board::new(size).map_err(damaged)?;
    board.set_komi(head.komi).map_err(damaged)?;
    for index in 0..setup {
        let (color, code) = read_entry(area, index).ok_or(Error::NotInitialised)?;
        let Some(Move::Play(point)) = move_of(&board, u32::from(code)) else {
            return Err(Error::NotInitialised);
        };
        board.set_stone(point, color).map_err(damaged)?;
    }
    let player = slot.insert(Player::with_start(
        &mut [],
        board,
        PlayerConfig::for_size(size),
    ));
    for index in setup..setup + moves {
        let (color, code) = read_entry(area, index).ok_or(Error::NotInitialised)?;
        let code = match code {
            PASS_ENTRY => ARBOR_GO_PASS,
            code => u32::from(code),
        };
        let mv = move_of(player.board(), code).ok_or(Error::NotInitialised)?;
        player.play(color, mv).map_err(damaged)?;
    }
    Ok(player)
}

/// The board size a game area was prepared for (its head's, which [`load_game`] checked),
/// or `size` for an area about to be prepared.
pub(super) fn prepared_size(area: &[u8], size: u8) -> u8 {
    Head::read(area)
        .ok()
        .and_then(|head| board_size(head.capacity).ok())
        .unwrap_or(size)
}

/// Writes the game of `player` into a game area prepared for boards of `prepared`, or
/// nothing. Errors: `CapacityExhausted` (more setup stones and moves than the area holds).
pub(super) fn store_game(area: &mut [u8], player: &Player<'_>, prepared: u8) -> Result<(), Error> {
    let start = player.start();
    let [black, white] = start.stone_counts();
    let setup = usize::from(black) + usize::from(white);
    let moves = player.record().len();
    let capacity = area.len().saturating_sub(HEAD_BYTES) / 2;
    if setup + moves > capacity {
        return Err(Error::CapacityExhausted);
    }
    Head {
        size: u32::from(start.size()),
        komi: start.komi(),
        setup: setup as u32,
        moves: moves as u32,
        capacity: u32::from(prepared),
    }
    .write(area);
    let setup_stones = points(start).filter_map(|point| {
        let color = start.color_at(point)?;
        Some(entry(start, color, Move::Play(point)))
    });
    let played = player
        .record()
        .iter()
        .map(|played| entry(start, played.color, played.mv));
    let slots = area[HEAD_BYTES..].chunks_exact_mut(2);
    for (slot, value) in slots.zip(setup_stones.chain(played)) {
        slot.copy_from_slice(&value.to_ne_bytes());
    }
    Ok(())
}

/// A game buffer opened: its area after the buffer header, as prepared.
struct GameBuffer<'a> {
    area: &'a mut [u8],
}

/// The game area of a game buffer prepared by `arbor_go_game_init` (not yet checked: see
/// [`load_game`]). Errors: those of `check_header` (boundary.rs).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes during `'a`, used by nothing else.
pub(super) unsafe fn open_game_area<'a>(
    buf: *mut c_void,
    len: usize,
) -> Result<&'a mut [u8], Error> {
    // SAFETY: forwarded caller guarantee.
    let bytes = unsafe { check_header(buf, len, ARBOR_GO_GAME_ALIGN, GAME_MAGIC) }?;
    // SAFETY: `check_header` found BUFFER_HEADER_BYTES <= `bytes` <= `len` bytes, valid for
    // reads and writes during 'a and ours alone (caller's contract).
    Ok(unsafe {
        core::slice::from_raw_parts_mut(
            buf.cast::<u8>().add(BUFFER_HEADER_BYTES),
            bytes - BUFFER_HEADER_BYTES,
        )
    })
}

/// Opens a game buffer ([`open_game_area`]).
///
/// # Safety
/// As [`open_game_area`].
unsafe fn open<'a>(buf: *mut c_void, len: usize) -> Result<GameBuffer<'a>, Error> {
    // SAFETY: forwarded caller guarantee.
    let area = unsafe { open_game_area(buf, len) }?;
    Ok(GameBuffer { area })
}

impl GameBuffer<'_> {
    fn load<'p>(
        &self,
        slot: &'p mut PlayerSlot<'static>,
    ) -> Result<&'p mut Player<'static>, Error> {
        load_game(self.area, slot)
    }

    fn store(self, player: &Player<'_>) -> Result<(), Error> {
        let prepared = prepared_size(self.area, MAX_SIZE);
        store_game(self.area, player, prepared)
    }
}

/// Writes to `*out_bytes` the size of a game buffer that holds any game on boards up to
/// `size` x `size`: `ARBOR_GO_GAME_HEAD_BYTES` (40) plus 8 bytes a point (2 bytes for a
/// setup stone on every point and for the `3 * size * size` moves of the longest game);
/// 2,928 bytes for 19x19, 688 for 9x9. A buffer prepared for a smaller board may take a
/// game on a larger one (from SGF) as long as its setup stones and moves fit.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (`size` not 5..=19).
///
/// # Safety
/// `out_bytes` must be NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_bytes(size: u32, out_bytes: *mut usize) -> arbor_status {
    boundary(|| {
        let bytes = board_size(size)
            .ok()
            .map(|size| BUFFER_HEADER_BYTES + area_bytes(size));
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// Prepares the caller's buffer `buf` of `len` bytes as a game on an empty `size` x `size`
/// board, Black to move, with `komi` points for White (7.5 is usual; 0.5 steps avoid draws).
///
/// The buffer stays owned by the caller, who frees it (arbor keeps no pointer to it); it
/// must be aligned to `ARBOR_GO_GAME_ALIGN` and at least `arbor_go_game_bytes(size)` long.
/// It may be copied with `memcpy` (and saved): a copy is the same game.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`,
/// `ARBOR_INVALID_LENGTH` (`len` above `PTRDIFF_MAX`), `ARBOR_BUFFER_TOO_SMALL` (shorter
/// than `arbor_go_game_bytes(size)`), `ARBOR_INVALID_ARGUMENT` (`size` not 5..=19, `komi`
/// not finite or beyond ±1000).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes, used by nothing else during the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_init(
    buf: *mut c_void,
    len: usize,
    size: u32,
    komi: f64,
) -> arbor_status {
    boundary(|| {
        let size = board_size(size)?;
        let komi = komi_of(komi)?;
        let mut board = Board::new(size).map_err(|_| Error::InvalidArgument)?;
        board.set_komi(komi).map_err(|_| Error::InvalidArgument)?;
        let mut slot: PlayerSlot<'static> = None;
        let player = slot.insert(Player::with_start(
            &mut [],
            board,
            PlayerConfig::for_size(size),
        ));
        let min_len = BUFFER_HEADER_BYTES + area_bytes(size);
        // SAFETY: forwarded caller guarantee (exclusive use of `len` writable bytes).
        let area = unsafe { prepare_buffer(buf, len, ARBOR_GO_GAME_ALIGN, min_len, GAME_MAGIC) }?;
        area.fill(0);
        store_game(area, player, size)
    })
}

/// Sets the komi of the game in `buf`: points given to White, finite and within ±1000.
///
/// Errors (the game unchanged): `ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`,
/// `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`len` shorter than at `_init`),
/// `ARBOR_NOT_INITIALISED` (not prepared by `arbor_go_game_init`, or damaged),
/// `ARBOR_WRONG_VERSION`, `ARBOR_INVALID_ARGUMENT` (`komi` not finite or beyond ±1000).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes, used by nothing else during the
/// call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_set_komi(
    buf: *mut c_void,
    len: usize,
    komi: f64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let game = unsafe { open(buf, len) }?;
        let mut slot = None;
        let player = game.load(&mut slot)?;
        let komi = komi_of(komi)?;
        player.set_komi(komi).map_err(|_| Error::InvalidArgument)?;
        game.store(player)
    })
}

/// Plays the move `mv` (a point code or `ARBOR_GO_PASS`) for the player to move: captures
/// are taken, the turn passes. Refused, changing nothing, when it is not legal:
/// `arbor_go_game_check` says why.
///
/// After two passes in a row the game is over, but a stone resumes it (the count of passes
/// starts again, as GTP GUIs and GNU Go's cleanup phase expect); a third pass is refused
/// with `ARBOR_GAME_OVER`, and so is any move once `3 * size * size` moves are played (the
/// length cap is final). The same rule as GTP's `play` and `arbor_go_search_play`.
///
/// Errors (the game unchanged): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_INVALID_ARGUMENT` (`mv` is no point of this board nor a pass), `ARBOR_GAME_OVER`,
/// `ARBOR_ILLEGAL_MOVE` (occupied, suicide, ko or superko), `ARBOR_CAPACITY_EXHAUSTED`
/// (a buffer prepared for a smaller board, holding a larger game from SGF, is full).
///
/// # Safety
/// As `arbor_go_game_set_komi`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_play(buf: *mut c_void, len: usize, mv: u32) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let game = unsafe { open(buf, len) }?;
        let mut slot = None;
        let player = game.load(&mut slot)?;
        let mv = move_in(player.board(), mv)?;
        let color = player.board().to_move();
        player.play(color, mv).map_err(refused)?;
        game.store(player)
    })
}

/// The status of a refused move.
pub(super) fn refused(error: PlayError) -> Error {
    match error {
        PlayError::GameOver => Error::GameOver,
        _ => Error::IllegalMove,
    }
}

/// Writes to `*out_reason` whether the player to move may play `mv` now, and if not why:
/// `ARBOR_GO_LEGAL`, `ARBOR_GO_OCCUPIED`, `ARBOR_GO_SUICIDE`, `ARBOR_GO_KO`,
/// `ARBOR_GO_SUPERKO` or `ARBOR_GO_OVER`. Changes nothing.
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER` (`out_reason`), `ARBOR_INVALID_ARGUMENT` (`mv` is no point of this
/// board nor a pass).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_reason` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_check(
    buf: *mut c_void,
    len: usize,
    mv: u32,
    out_reason: *mut u32,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_reason) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        let mv = move_in(player.board(), mv)?;
        let reason = match player.check(player.board().to_move(), mv) {
            Ok(()) => ARBOR_GO_LEGAL,
            Err(PlayError::Occupied | PlayError::OffBoard) => ARBOR_GO_OCCUPIED,
            Err(PlayError::Suicide) => ARBOR_GO_SUICIDE,
            Err(PlayError::Ko) => ARBOR_GO_KO,
            Err(PlayError::Superko) => ARBOR_GO_SUPERKO,
            Err(PlayError::GameOver) => ARBOR_GO_OVER,
        };
        out.write(reason);
        Ok(())
    })
}

/// Writes the legal moves of the player to move (positional superko included) to
/// `out_moves` (room for `capacity` codes), in increasing point code then the pass, and
/// their number to `*out_count`; none once the game is over (a stone played after two
/// passes resumes it all the same: see `arbor_go_game_play`). `ARBOR_GO_MAX_MOVES` (362)
/// entries always suffice. `out_moves` may be NULL when `capacity` is 0.
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER` (`out_count`, or `out_moves` with `capacity` > 0),
/// `ARBOR_INVALID_LENGTH`, `ARBOR_MISALIGNED` (`out_moves` not aligned for `uint32_t`),
/// `ARBOR_BUFFER_TOO_SMALL` (more moves than `capacity`).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_moves` NULL or valid for `capacity` writes of
/// `uint32_t`; `out_count` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_legal_moves(
    buf: *mut c_void,
    len: usize,
    out_moves: *mut u32,
    capacity: usize,
    out_count: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let count = unsafe { Out::new(out_count) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        // SAFETY: as above; formed after the game buffer is no longer used.
        let moves = unsafe { slice_out(out_moves, capacity) }?;
        let board = player.board();
        let color = board.to_move();
        let mut listed = [0u32; ARBOR_GO_MAX_MOVES];
        let mut n = 0;
        if !board.is_over() {
            for code in 0..u32::from(board.size()) * u32::from(board.size()) {
                let legal = move_of(board, code).is_some_and(|mv| player.check(color, mv).is_ok());
                if legal {
                    listed[n] = code;
                    n += 1;
                }
            }
            listed[n] = ARBOR_GO_PASS;
            n += 1;
        }
        let moves = moves.get_mut(..n).ok_or(Error::BufferTooSmall)?;
        moves.copy_from_slice(&listed[..n]);
        count.write(n);
        Ok(())
    })
}

/// Writes the board to `out_points` (room for `capacity` bytes), one byte a point in point
/// code order (row by row from A1): `ARBOR_GO_EMPTY`, `ARBOR_GO_BLACK` or `ARBOR_GO_WHITE`;
/// and their number (`size * size`) to `*out_count`. `ARBOR_GO_MAX_POINTS` (361) bytes
/// always suffice.
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`capacity`
/// below `size * size`).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_points` NULL or valid for `capacity` writes;
/// `out_count` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_board(
    buf: *mut c_void,
    len: usize,
    out_points: *mut u8,
    capacity: usize,
    out_count: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let count = unsafe { Out::new(out_count) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        // SAFETY: as above; formed after the game buffer is no longer used.
        let out = unsafe { slice_out(out_points, capacity) }?;
        let board = player.board();
        let n = usize::from(board.size()) * usize::from(board.size());
        let out = out.get_mut(..n).ok_or(Error::BufferTooSmall)?;
        for (slot, point) in out.iter_mut().zip(points(board)) {
            *slot = board.color_at(point).map_or(0, color_code) as u8;
        }
        count.write(n);
        Ok(())
    })
}

/// Writes the state of the game to `*out_info`: size, player to move, moves played, passes
/// in a row, captures, stones, the ko point, the last move, whether it is over, the komi.
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER` (`out_info`).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_info` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_info(
    buf: *mut c_void,
    len: usize,
    out_info: *mut arbor_go_info,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_info) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        out.write(info(player));
        Ok(())
    })
}

/// The `arbor_go_info` of a game.
pub(super) fn info(player: &Player<'_>) -> arbor_go_info {
    let board = player.board();
    let [captures_black, captures_white] = player.captures();
    let [stones_black, stones_white] = board.stone_counts();
    arbor_go_info {
        size: u32::from(board.size()),
        to_move: color_code(board.to_move()),
        moves: player.record().len() as u32,
        passes: u32::from(board.passes()),
        captures_black: u32::from(captures_black),
        captures_white: u32::from(captures_white),
        stones_black: u32::from(stones_black),
        stones_white: u32::from(stones_white),
        ko: board
            .ko()
            .map_or(ARBOR_GO_NONE, |ko| code_of(board, Move::Play(ko))),
        last_move: player
            .record()
            .last()
            .map_or(ARBOR_GO_NONE, |played| code_of(board, played.mv)),
        over: u32::from(board.is_over()),
        reserved: 0,
        komi: f64::from(board.komi()),
    }
}

/// Takes back the last move, restoring the position before it exactly (ko and superko
/// history included).
///
/// Errors (the game unchanged): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_INVALID_ARGUMENT` (no move to take back: the start position).
///
/// # Safety
/// As `arbor_go_game_set_komi`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_undo(buf: *mut c_void, len: usize) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let game = unsafe { open(buf, len) }?;
        let mut slot = None;
        let player = game.load(&mut slot)?;
        if !player.undo() {
            return Err(Error::InvalidArgument);
        }
        game.store(player)
    })
}

/// Writes the area score of the position as it stands (every stone counted alive; play
/// the game out, or remove dead stones first, for a final count) to `*out_score`.
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER` (`out_score`).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_score` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_score(
    buf: *mut c_void,
    len: usize,
    out_score: *mut arbor_go_score,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_score) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        out.write(score_out(&player.board().score()));
        Ok(())
    })
}

/// The `arbor_go_score` of a core score.
fn score_out(score: &Score) -> arbor_go_score {
    arbor_go_score {
        black: u32::from(score.black),
        white: u32::from(score.white),
        winner: score.winner().map_or(ARBOR_GO_EMPTY, color_code),
        reserved: 0,
        komi: f64::from(score.komi),
        margin: f64::from(score.margin()),
    }
}

/// Writes the final area score of the position to `*out_score`, what GTP's `final_score`
/// answers: the status of every stone is judged first (`arbor_go_game_final_status`) from
/// 400 light playouts drawn with `seed` (the same seed gives the same score); dead stones
/// count for the opponent, seki stones for their colour and their shared liberties for no
/// one, every other point for the colour that owns it in more than half of the playouts.
/// O(400 playouts): well under a millisecond on 9x9.
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER` (`out_score`).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_score` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_final_score(
    buf: *mut c_void,
    len: usize,
    seed: u64,
    out_score: *mut arbor_go_score,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_score) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        player.set_rng(seeded_rng(seed));
        out.write(score_out(&player.final_score()));
        Ok(())
    })
}

/// Writes the status of every point to `out_status` (room for `capacity` bytes), one byte a
/// point in point code order (row by row from A1): `ARBOR_GO_STATUS_EMPTY`, `_ALIVE`,
/// `_DEAD` or `_SEKI`; and their number (`size * size`) to `*out_count`.
/// `ARBOR_GO_MAX_POINTS` (361) bytes always suffice. Judged from 400 light playouts drawn
/// with `seed`, as `arbor_go_game_final_score` judges them with the same seed: a string is
/// seki when it has a shared liberty that neither side can fill without self-atari, its
/// other liberties are eyes of its own, and the stones around it are alive by the
/// playouts; dead when its stones are owned by the opponent in more than half of the
/// playouts; alive otherwise (docs/go.md, "Dead stones and seki").
///
/// Errors (nothing written): the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`),
/// `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`capacity`
/// below `size * size`).
///
/// # Safety
/// As `arbor_go_game_set_komi`; `out_status` NULL or valid for `capacity` writes;
/// `out_count` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_final_status(
    buf: *mut c_void,
    len: usize,
    seed: u64,
    out_status: *mut u8,
    capacity: usize,
    out_count: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let count = unsafe { Out::new(out_count) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?.load(&mut slot)?;
        // SAFETY: as above; formed after the game buffer is no longer used.
        let out = unsafe { slice_out(out_status, capacity) }?;
        let n = usize::from(player.board().size()) * usize::from(player.board().size());
        let out = out.get_mut(..n).ok_or(Error::BufferTooSmall)?;
        player.set_rng(seeded_rng(seed));
        let (statuses, _) = player.statuses();
        for (slot, point) in out.iter_mut().zip(points(player.board())) {
            *slot = match statuses.status(point) {
                None => ARBOR_GO_STATUS_EMPTY,
                Some(Status::Alive) => ARBOR_GO_STATUS_ALIVE,
                Some(Status::Dead) => ARBOR_GO_STATUS_DEAD,
                Some(Status::Seki) => ARBOR_GO_STATUS_SEKI,
            };
        }
        count.write(n);
        Ok(())
    })
}

/// Writes the board as a diagram (text out): a line of column letters (A to T without I),
/// then a line per row from the top, `X` Black, `O` White, `.` empty, for example
/// `"   A B C D E\n 5 . . . . .\n…"`. `ARBOR_GO_DIAGRAM_TEXT_MAX` bytes always suffice.
///
/// Errors: the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`), `ARBOR_NULL_POINTER` (`buf`
/// NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`*out_len` says
/// the length needed).
///
/// # Safety
/// `game` must be NULL or valid for `game_len` reads and writes, used by nothing else
/// during the call; `buf` NULL or valid for `len` writes; `out_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_format(
    game: *mut c_void,
    game_len: usize,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let mut slot = None;
        let player = unsafe { open(game, game_len) }?.load(&mut slot)?;
        // SAFETY: as above.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        out.write_display::<{ ARBOR_GO_DIAGRAM_TEXT_MAX }>(Diagram(player.board()))
    })
}

struct Diagram<'b>(&'b Board);

impl core::fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        crate::go::diagram::write(self.0, f)
    }
}

/// Replaces the game in `game` by the one of the SGF text in (`text`, `len`): its board
/// size (`SZ`, 19 when absent) and komi (`KM`, 0 when absent), its setup stones (`AB`,
/// `AW`) and the main line of moves, each checked as `arbor_go_game_play` checks it (but
/// for the colour, taken from the record). Names, result and other properties are not
/// kept. On any error the game is unchanged.
///
/// Errors: the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`), `ARBOR_NULL_POINTER` (`text`
/// NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR`
/// (the line and column of the problem, or line 0 and column 0 for a well-formed record
/// that is not a legal game, with the setup stone or move refused in the message),
/// `ARBOR_BUFFER_TOO_SMALL` (the buffer, prepared for a smaller board, cannot hold the
/// game's setup stones and moves).
///
/// # Safety
/// As `arbor_go_game_format` for `game`; `text` NULL or valid for `len` reads;
/// `out_error` NULL or valid for one write of `arbor_parse_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_sgf_parse(
    game: *mut c_void,
    game_len: usize,
    text: *const u8,
    len: usize,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        // SAFETY: as above. The text is read, into the record, before the game is opened.
        let text = unsafe { text_in(text, len) }?;
        let parsed = GameRecord::parse_sgf(text.as_bytes());
        // SAFETY: as above.
        let game = unsafe { open(game, game_len) }?;
        let mut slot = None;
        let player = game.load(&mut slot)?;
        let record = match parsed {
            Ok(record) => record,
            Err(error) => {
                let failure = ParseFailure {
                    line: error.line(),
                    column: error.column(),
                    message: error.message(),
                };
                return Err(failure.report(out_error));
            }
        };
        if let Err(error) = player.load_record(&record) {
            let failure = ParseFailure {
                line: 0,
                column: 0,
                message: error,
            };
            return Err(failure.report(out_error));
        }
        game.store(player).map_err(|_| Error::BufferTooSmall)
    })
}

/// Writes the game as SGF (text out): `(;FF[4]GM[1]SZ[…]KM[…]`, the stones of the start
/// position as `AB` and `AW` (row by row from A1), then the moves, ten a line, passes as
/// `[]`; what `arbor_go_game_sgf_parse` reads back to the same game.
/// `ARBOR_GO_SGF_TEXT_MAX` bytes always suffice.
///
/// Errors: the buffer errors
/// (`ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `arbor_go_game_set_komi`), `ARBOR_NULL_POINTER` (`buf`
/// NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`*out_len` says
/// the length needed).
///
/// # Safety
/// As `arbor_go_game_format`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_game_sgf_format(
    game: *mut c_void,
    game_len: usize,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let mut slot = None;
        let player = unsafe { open(game, game_len) }?.load(&mut slot)?;
        // SAFETY: as above.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        let mut record = GameRecord::default();
        player.write_record(&mut record);
        out.write_display::<{ ARBOR_GO_SGF_TEXT_MAX }>(record)
    })
}

/// Parses a GTP move (`pass`, or a vertex such as `D4`: a column letter A to T without I,
/// any case, and the row from 1 at the bottom) on a `size` x `size` board into its code
/// `*out_move`. Nothing may come before or after.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER` (`out_move`, or `text`
/// NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_INVALID_ARGUMENT` (`size` not 5..=19), `ARBOR_PARSE_ERROR` (line 1 and the
/// column of the problem, such as a vertex off the board).
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `out_move` NULL or valid for one write;
/// `out_error` NULL or valid for one write of `arbor_parse_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_move_parse(
    size: u32,
    text: *const u8,
    len: usize,
    out_move: *mut u32,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let text = unsafe { text_in(text, len) }?;
        // SAFETY: as above.
        let out = unsafe { Out::new(out_move) }?;
        // SAFETY: as above.
        let out_error = unsafe { OptionalOut::new(out_error) };
        let size = board_size(size)?;
        let board = Board::new(size).map_err(|_| Error::InvalidArgument)?;
        let mv = GoMove::parse_gtp(text.as_bytes(), size)
            .map_err(|error| vertex_failure(error).report(out_error))?;
        let code = match mv {
            GoMove::Pass => ARBOR_GO_PASS,
            GoMove::Play(vertex) => code_of(&board, Move::Play(point_of(&board, vertex)?)),
        };
        out.write(code);
        Ok(())
    })
}

fn point_of(board: &Board, vertex: Vertex) -> Result<crate::go::Point, Error> {
    board
        .point(vertex.col, vertex.row)
        .ok_or(Error::InvalidArgument)
}

fn vertex_failure(error: VertexError) -> ParseFailure<&'static str> {
    ParseFailure {
        line: 1,
        column: u32::try_from(error.offset()).map_or(u32::MAX, |offset| offset.saturating_add(1)),
        message: error.message(),
    }
}

/// Writes the GTP text of the move `mv` on a `size` x `size` board (text out): `pass` or a
/// vertex such as `D4`. `ARBOR_GO_MOVE_TEXT_MAX` (5) bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_INVALID_LENGTH`,
/// `ARBOR_INVALID_ARGUMENT` (`size` not 5..=19, or `mv` no point of that board nor a pass;
/// `*out_len` not written either), `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_move_format(
    size: u32,
    mv: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        let size = board_size(size)?;
        let board = Board::new(size).map_err(|_| Error::InvalidArgument)?;
        let text = match move_in(&board, mv)? {
            Move::Pass => GoMove::Pass,
            Move::Play(point) => {
                let (col, row) = board.coords(point).ok_or(Error::InvalidArgument)?;
                GoMove::Play(Vertex::on_board(col, row, size).ok_or(Error::InvalidArgument)?)
            }
        };
        out.write_display::<{ ARBOR_GO_MOVE_TEXT_MAX }>(text)
    })
}

#[cfg(test)]
pub(super) mod tests {
    extern crate std;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    use super::*;

    pub(crate) fn game(size: u32, komi: f64) -> Vec<u64> {
        let mut bytes = 0usize;
        // SAFETY: valid pointers to locals and to a buffer of `bytes` bytes, 8-aligned.
        unsafe {
            assert_eq!(
                arbor_go_game_bytes(size, &mut bytes),
                arbor_status::ARBOR_OK
            );
            let mut buf = vec![0u64; bytes.div_ceil(8)];
            let status = arbor_go_game_init(buf.as_mut_ptr().cast(), bytes, size, komi);
            assert_eq!(status, arbor_status::ARBOR_OK);
            buf
        }
    }

    fn play(buf: &mut [u64], text: &str) -> arbor_status {
        let size = info_of(buf).size;
        let mut code = 0u32;
        // SAFETY: valid pointers.
        unsafe {
            let status = arbor_go_move_parse(
                size,
                text.as_ptr(),
                text.len(),
                &mut code,
                core::ptr::null_mut(),
            );
            assert_eq!(status, arbor_status::ARBOR_OK, "{text}");
            arbor_go_game_play(buf.as_mut_ptr().cast(), buf.len() * 8, code)
        }
    }

    fn reason(buf: &mut [u64], code: u32) -> u32 {
        let mut reason = 99;
        // SAFETY: valid pointers.
        let status = unsafe {
            arbor_go_game_check(buf.as_mut_ptr().cast(), buf.len() * 8, code, &mut reason)
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        reason
    }

    fn info_of(buf: &mut [u64]) -> arbor_go_info {
        let mut info = arbor_go_info::default();
        // SAFETY: valid pointers.
        let status =
            unsafe { arbor_go_game_info(buf.as_mut_ptr().cast(), buf.len() * 8, &mut info) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        info
    }

    fn text_of(
        buf: &mut [u64],
        f: unsafe extern "C" fn(*mut c_void, usize, *mut c_char, usize, *mut usize) -> arbor_status,
    ) -> String {
        let mut text = vec![0u8; ARBOR_GO_SGF_TEXT_MAX];
        let mut len = 0usize;
        // SAFETY: valid pointers.
        let status = unsafe {
            f(
                buf.as_mut_ptr().cast(),
                buf.len() * 8,
                text.as_mut_ptr().cast(),
                text.len(),
                &mut len,
            )
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        String::from_utf8(text[..len].to_vec()).unwrap()
    }

    #[test]
    fn a_game_captures_and_refuses_occupied_points_ko_and_suicide() {
        let mut buf = game(5, 0.5);
        // A ko around B3 and C3 (Black B2 A3 B4 C3, White C2 D3 C4).
        for (i, v) in ["B2", "C2", "A3", "D3", "B4", "C4", "C3"]
            .iter()
            .enumerate()
        {
            assert_eq!(play(&mut buf, v), arbor_status::ARBOR_OK, "move {i} {v}");
        }
        // White takes the ko on B3, capturing C3.
        assert_eq!(play(&mut buf, "B3"), arbor_status::ARBOR_OK);
        let info = info_of(&mut buf);
        assert_eq!((info.captures_white, info.captures_black), (1, 0));
        assert_eq!(info.to_move, ARBOR_GO_BLACK);
        let c3 = 2 * 5 + 2;
        assert_eq!(info.ko, c3);
        assert_eq!(reason(&mut buf, c3), ARBOR_GO_KO);
        let before = buf.clone();
        assert_eq!(play(&mut buf, "C3"), arbor_status::ARBOR_ILLEGAL_MOVE);
        assert!(buf == before, "a refused move changes nothing");
        assert_eq!(reason(&mut buf, 5 + 1), ARBOR_GO_OCCUPIED); // B2
        assert_eq!(reason(&mut buf, ARBOR_GO_PASS), ARBOR_GO_LEGAL);
        assert_eq!(play(&mut buf, "pass"), arbor_status::ARBOR_OK);
        // Two passes end the game; undo takes the second back.
        assert_eq!(play(&mut buf, "pass"), arbor_status::ARBOR_OK);
        assert_eq!(info_of(&mut buf).over, 1);
        // Over: a third pass is refused; a stone resumes the game (undone below).
        assert_eq!(play(&mut buf, "pass"), arbor_status::ARBOR_GAME_OVER);
        assert_eq!(reason(&mut buf, ARBOR_GO_PASS), ARBOR_GO_OVER);
        assert_eq!(reason(&mut buf, 0), ARBOR_GO_LEGAL);
        assert_eq!(play(&mut buf, "A1"), arbor_status::ARBOR_OK);
        let resumed = info_of(&mut buf);
        assert_eq!((resumed.over, resumed.passes), (0, 0));
        let undo = |buf: &mut Vec<u64>| {
            // SAFETY: valid pointers.
            unsafe { arbor_go_game_undo(buf.as_mut_ptr().cast(), buf.len() * 8) }
        };
        assert_eq!(undo(&mut buf), arbor_status::ARBOR_OK);
        assert_eq!(info_of(&mut buf).over, 1);
        assert_eq!(undo(&mut buf), arbor_status::ARBOR_OK);
        assert_eq!(info_of(&mut buf).over, 0);

        // Suicide: Black on A1 of a corner surrounded by White.
        let mut corner = game(5, 7.5);
        for v in ["E5", "A2", "E4", "B1"] {
            assert_eq!(play(&mut corner, v), arbor_status::ARBOR_OK);
        }
        assert_eq!(reason(&mut corner, 0), ARBOR_GO_SUICIDE);
    }

    #[test]
    fn sgf_and_diagrams_round_trip_and_bad_input_changes_nothing() {
        let mut buf = game(9, 7.5);
        for v in ["E5", "C3", "G7"] {
            assert_eq!(play(&mut buf, v), arbor_status::ARBOR_OK);
        }
        let sgf = text_of(&mut buf, arbor_go_game_sgf_format);
        assert!(sgf.starts_with("(;FF[4]GM[1]SZ[9]KM[7.5]"), "{sgf}");
        let diagram = text_of(&mut buf, arbor_go_game_format);
        let mut other = game(19, 0.0);
        // SAFETY: valid pointers.
        unsafe {
            let status = arbor_go_game_sgf_parse(
                other.as_mut_ptr().cast(),
                other.len() * 8,
                sgf.as_ptr(),
                sgf.len(),
                core::ptr::null_mut(),
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
        }
        assert_eq!(text_of(&mut other, arbor_go_game_format), diagram);
        assert_eq!(text_of(&mut other, arbor_go_game_sgf_format), sgf);

        let before = other.clone();
        let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
        // SAFETY: valid pointers.
        unsafe {
            let bad = "(;SZ[9];B[ee];W[ee])";
            let status = arbor_go_game_sgf_parse(
                other.as_mut_ptr().cast(),
                other.len() * 8,
                bad.as_ptr(),
                bad.len(),
                error.as_mut_ptr(),
            );
            assert_eq!(status, arbor_status::ARBOR_PARSE_ERROR);
            let error = error.assume_init();
            let message =
                core::str::from_utf8(&error.message[..error.message_len as usize]).unwrap();
            assert_eq!(message, "move 2: the point is occupied");
            assert_eq!(
                arbor_go_game_set_komi(other.as_mut_ptr().cast(), other.len() * 8, f64::NAN),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            assert_eq!(
                arbor_go_game_set_komi(other.as_mut_ptr().cast(), other.len() * 8, f64::INFINITY),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
        }
        assert!(other == before);
        // A 19x19 game does not fit a buffer for 9x9.
        let big = "(;SZ[19];B[ss])";
        // SAFETY: valid pointers.
        unsafe {
            let status = arbor_go_game_sgf_parse(
                buf.as_mut_ptr().cast(),
                buf.len() * 8,
                big.as_ptr(),
                big.len(),
                core::ptr::null_mut(),
            );
            assert_eq!(status, arbor_status::ARBOR_OK, "one move fits");
        }
        assert_eq!(info_of(&mut buf).size, 19);
    }

    #[test]
    fn a_damaged_buffer_is_refused() {
        let mut buf = game(9, 7.5);
        assert_eq!(play(&mut buf, "E5"), arbor_status::ARBOR_OK);
        // The move's entry (after the 40-byte head) made a point off the board.
        let bytes: &mut [u8] = bytemuck_bytes(&mut buf);
        bytes[40] = 0xFF;
        bytes[41] = 0x7E;
        let mut info = arbor_go_info::default();
        // SAFETY: valid pointers.
        let status =
            unsafe { arbor_go_game_info(buf.as_mut_ptr().cast(), buf.len() * 8, &mut info) };
        assert_eq!(status, arbor_status::ARBOR_NOT_INITIALISED);
        let mut sizes = [0usize; 2];
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_go_game_bytes(4, &mut sizes[0]),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            assert_eq!(
                arbor_go_game_bytes(25, &mut sizes[0]),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            assert_eq!(
                arbor_go_game_bytes(19, &mut sizes[1]),
                arbor_status::ARBOR_OK
            );
        }
        assert_eq!(sizes, [0, 2928]);
    }

    fn bytemuck_bytes(words: &mut [u64]) -> &mut [u8] {
        // SAFETY: any u64 is 8 bytes; u8 has no alignment; the borrow is exclusive.
        unsafe { core::slice::from_raw_parts_mut(words.as_mut_ptr().cast(), words.len() * 8) }
    }
}
