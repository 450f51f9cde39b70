//! C ABI of Breakthrough: a position C holds by value, text, moves, play, status, hash.
//!
//! Moves cross the boundary as `uint16_t` in the packed form of `Move::to_u16` (bits 0–5
//! from-square, 6–11 to-square, 12 capture; squares are `rank * 8 + file`, a1 = 0).
use core::ffi::c_char;

use super::arbor_status;
use super::legacy::write_display;
use crate::breakthrough::{Color, MAX_MOVES, Move, MoveList, Position, Size, Status};

/// The most legal moves a Breakthrough position can have (16 pawns, 3 moves each): an array
/// of this many `uint16_t` always holds the result of `arbor_breakthrough_legal_moves`.
pub const ARBOR_BREAKTHROUGH_MAX_MOVES: usize = 48;
const _: () = assert!(ARBOR_BREAKTHROUGH_MAX_MOVES == MAX_MOVES);

/// Bytes a buffer needs for any position's text and its terminating NUL (8 rows of 8
/// cells, 7 slashes, a space, the side, NUL).
pub const ARBOR_BREAKTHROUGH_TEXT_MAX: usize = 74;
const _: () = assert!(ARBOR_BREAKTHROUGH_TEXT_MAX == Position::MAX_TEXT_LEN + 1);

/// Bytes a buffer needs for a move's text (`a2-a3`, `b4xa3`) and its NUL.
pub const ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX: usize = 6;

/// `arbor_breakthrough_status`: the game goes on.
pub const ARBOR_BREAKTHROUGH_ONGOING: u32 = 0;
/// `arbor_breakthrough_status`: White has won.
pub const ARBOR_BREAKTHROUGH_WHITE_WON: u32 = 1;
/// `arbor_breakthrough_status`: Black has won.
pub const ARBOR_BREAKTHROUGH_BLACK_WON: u32 = 2;

/// A Breakthrough position, 32 bytes, held by value by C. Fill it only through
/// `arbor_breakthrough_init` or `arbor_breakthrough_parse`; the fields may be read.
///
/// Every function that takes one checks it first (board size, pawns on the board, no
/// overlap, pawn counts, side to move, a side to move that has not already won) and
/// recomputes the hash, so a struct changed by hand is either accepted as the position it
/// describes or rejected with `ARBOR_INVALID_ARGUMENT`, never undefined behaviour.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct arbor_breakthrough {
    /// White pawns, bit `rank * 8 + file` (a1 = bit 0, b1 = bit 1, a2 = bit 8).
    pub white: u64,
    /// Black pawns, same numbering.
    pub black: u64,
    /// Zobrist hash of the position (also returned by `arbor_breakthrough_hash`).
    pub hash: u64,
    /// Columns, 2..=8.
    pub columns: u8,
    /// Rows, 4..=8.
    pub rows: u8,
    /// Side to move: 0 White, 1 Black.
    pub turn: u8,
    /// Written as zero by arbor; ignored when read.
    pub reserved: [u8; 5],
}

impl arbor_breakthrough {
    pub(crate) fn from_position(position: &Position) -> Self {
        arbor_breakthrough {
            white: position.pawns(Color::White),
            black: position.pawns(Color::Black),
            hash: position.hash(),
            columns: position.size().columns(),
            rows: position.size().rows(),
            turn: position.side_to_move() as u8,
            reserved: [0; 5],
        }
    }

    /// The position this struct describes, if it is valid.
    pub(crate) fn to_position(self) -> Result<Position, arbor_status> {
        let size = Size::new_checked(self.columns, self.rows)
            .map_err(|_| arbor_status::ARBOR_INVALID_ARGUMENT)?;
        let turn = match self.turn {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(arbor_status::ARBOR_INVALID_ARGUMENT),
        };
        Position::from_bitboards(size, self.white, self.black, turn)
            .map_err(|_| arbor_status::ARBOR_INVALID_ARGUMENT)
    }
}

/// Reads the position behind `state`, or says why it cannot.
///
/// # Safety
/// `state` must be NULL or valid for one read of `arbor_breakthrough`.
pub(crate) unsafe fn read_state(
    state: *const arbor_breakthrough,
) -> Result<Position, arbor_status> {
    if state.is_null() {
        return Err(arbor_status::ARBOR_NULL_POINTER);
    }
    // SAFETY: non-NULL, and the caller guarantees one readable struct; every bit pattern of
    // its plain integer fields is a valid value, and an unaligned pointer is read unaligned.
    let raw = unsafe { state.read_unaligned() };
    raw.to_position()
}

/// Writes `position` into `state` (non-NULL, checked by the caller).
///
/// # Safety
/// `state` must be valid for one write of `arbor_breakthrough`.
unsafe fn write_state(state: *mut arbor_breakthrough, position: &Position) {
    // SAFETY: the caller guarantees `state` is writable; unaligned writes are allowed.
    unsafe { state.write_unaligned(arbor_breakthrough::from_position(position)) };
}

/// Sets `*state` to the start position of a `columns` x `rows` board (two full rows per
/// side, White to move).
///
/// `state` is caller-owned and written during the call only. On error it is unchanged.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (columns not in 2..=8 or rows not
/// in 4..=8).
///
/// # Safety
/// `state` must be NULL or valid for one write of `arbor_breakthrough`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_init(
    state: *mut arbor_breakthrough,
    columns: u32,
    rows: u32,
) -> arbor_status {
    if state.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let (Ok(columns), Ok(rows)) = (u8::try_from(columns), u8::try_from(rows)) else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    match Size::new_checked(columns, rows) {
        Ok(size) => {
            // SAFETY: non-NULL and writable by the caller's guarantee.
            unsafe { write_state(state, &Position::start(size)) };
            arbor_status::ARBOR_OK
        }
        Err(error) => error.into(),
    }
}

/// Parses `len` bytes of position text at `text` (no NUL needed; a NUL inside is an error),
/// for example "BBBBB/BBBBB/...../WWWWW/WWWWW w": ranks from the top, `W`, `B` or `.` per
/// cell, `/` between ranks, a space, then `w` or `b`. The size follows from the text.
///
/// `text` is read and `state` written during the call only; on error `state` is unchanged.
/// `len` 0 with a NULL `text` is a parse error, not a NULL-pointer error.
/// Errors: `ARBOR_NULL_POINTER` (`state` NULL, or `text` NULL with `len` > 0),
/// `ARBOR_PARSE_ERROR` (malformed text, or text describing an invalid position).
///
/// # Safety
/// `text` must be valid for `len` reads (or NULL), `state` for one write (or NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_parse(
    text: *const c_char,
    len: usize,
    state: *mut arbor_breakthrough,
) -> arbor_status {
    if state.is_null() || (text.is_null() && len > 0) {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if len == 0 || len > Position::MAX_TEXT_LEN {
        return arbor_status::ARBOR_PARSE_ERROR;
    }
    // SAFETY: `text` is non-NULL (len > 0) and valid for `len` <= 73 reads.
    let bytes = unsafe { core::slice::from_raw_parts(text.cast::<u8>(), len) };
    match Position::parse_bytes(bytes) {
        Ok(position) => {
            // SAFETY: non-NULL and writable by the caller's guarantee.
            unsafe { write_state(state, &position) };
            arbor_status::ARBOR_OK
        }
        Err(error) => crate::Error::from(error).into(),
    }
}

/// Writes the text of `*state` and a NUL into `buf`, which has room for `len` bytes.
/// `ARBOR_BREAKTHROUGH_TEXT_MAX` bytes always suffice (an 8x8 position takes 74).
///
/// Both buffers are caller-owned and used during the call only. Nothing is written on error.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (`*state` is not a valid position),
/// `ARBOR_BUFFER_TOO_SMALL` (`len` shorter than the text and its NUL).
///
/// # Safety
/// `state` must be NULL or readable, `buf` NULL or valid for `len` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_print(
    state: *const arbor_breakthrough,
    buf: *mut c_char,
    len: usize,
) -> arbor_status {
    if buf.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: forwarded caller guarantee.
    let position = match unsafe { read_state(state) } {
        Ok(position) => position,
        Err(status) => return status,
    };
    // SAFETY: `buf` is non-NULL and valid for `len` writes.
    unsafe { write_display::<{ Position::MAX_TEXT_LEN }>(position, buf, len) }
}

/// Writes the legal moves of `*state` into `moves` (room for `capacity` values) and their
/// number into `*count`: straight moves first, then diagonals towards file a, then towards
/// file h, each by ascending to-square. A game that is over has no moves (`*count` = 0).
///
/// `ARBOR_BREAKTHROUGH_MAX_MOVES` (48) entries always suffice. Buffers are caller-owned and
/// used during the call only. On `ARBOR_BUFFER_TOO_SMALL`, `*count` receives the number of
/// moves needed and `moves` is untouched; on other errors nothing is written.
/// `moves` may be NULL when `capacity` is 0 (to ask for the count).
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (invalid position, or `moves` not
/// aligned for `uint16_t`), `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `state` must be NULL or readable; `moves` NULL or valid for `capacity` aligned `uint16_t`
/// writes; `count` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_legal_moves(
    state: *const arbor_breakthrough,
    moves: *mut u16,
    capacity: usize,
    count: *mut usize,
) -> arbor_status {
    if count.is_null() || (moves.is_null() && capacity > 0) {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if capacity > 0 && !moves.is_aligned() {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    // SAFETY: forwarded caller guarantee.
    let position = match unsafe { read_state(state) } {
        Ok(position) => position,
        Err(status) => return status,
    };
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    // SAFETY: `count` is non-NULL and writable; unaligned writes are allowed.
    unsafe { count.write_unaligned(list.len()) };
    if list.len() > capacity {
        return arbor_status::ARBOR_BUFFER_TOO_SMALL;
    }
    for (i, mv) in list.iter().enumerate() {
        // SAFETY: `moves` is non-NULL (capacity >= len > i, or the loop is empty), aligned
        // and valid for `capacity` writes; `i` < `capacity`.
        unsafe { moves.add(i).write(mv.to_u16()) };
    }
    arbor_status::ARBOR_OK
}

/// Plays the move `mv` (packed as the moves `arbor_breakthrough_legal_moves` lists) on
/// `*state`.
///
/// `state` is caller-owned and updated in place during the call only. An illegal move
/// (including one whose capture bit does not match the board, any move once the game is
/// over, and numbers with bits 13–15 set) returns `ARBOR_ILLEGAL_MOVE` and leaves `*state`
/// unchanged.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (invalid position),
/// `ARBOR_ILLEGAL_MOVE`.
///
/// # Safety
/// `state` must be NULL or valid for one read and one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_play(
    state: *mut arbor_breakthrough,
    mv: u16,
) -> arbor_status {
    // SAFETY: forwarded caller guarantee.
    let mut position = match unsafe { read_state(state) } {
        Ok(position) => position,
        Err(status) => return status,
    };
    let Some(mv) = Move::from_u16(mv) else {
        return arbor_status::ARBOR_ILLEGAL_MOVE;
    };
    match position.try_play(mv) {
        Ok(()) => {
            // SAFETY: non-NULL (read_state checked) and writable by the caller's guarantee.
            unsafe { write_state(state, &position) };
            arbor_status::ARBOR_OK
        }
        Err(error) => crate::Error::from(error).into(),
    }
}

/// Writes the status of `*state` to `*out`: `ARBOR_BREAKTHROUGH_ONGOING`,
/// `ARBOR_BREAKTHROUGH_WHITE_WON` or `ARBOR_BREAKTHROUGH_BLACK_WON`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (invalid position; `*out` is then
/// unchanged).
///
/// # Safety
/// `state` must be NULL or readable, `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_status(
    state: *const arbor_breakthrough,
    out: *mut u32,
) -> arbor_status {
    if out.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: forwarded caller guarantee.
    let position = match unsafe { read_state(state) } {
        Ok(position) => position,
        Err(status) => return status,
    };
    let code = match position.status() {
        Status::Ongoing => ARBOR_BREAKTHROUGH_ONGOING,
        Status::WhiteWon => ARBOR_BREAKTHROUGH_WHITE_WON,
        Status::BlackWon => ARBOR_BREAKTHROUGH_BLACK_WON,
    };
    // SAFETY: non-NULL and writable; unaligned writes are allowed.
    unsafe { out.write_unaligned(code) };
    arbor_status::ARBOR_OK
}

/// Writes the Zobrist hash of `*state` to `*out`: the same for equal positions on every
/// platform, different for different board sizes. It is recomputed from the pawns, so it is
/// right even if the struct's `hash` field was changed.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (invalid position; `*out` is then
/// unchanged).
///
/// # Safety
/// `state` must be NULL or readable, `out` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_hash(
    state: *const arbor_breakthrough,
    out: *mut u64,
) -> arbor_status {
    if out.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: forwarded caller guarantee.
    let position = match unsafe { read_state(state) } {
        Ok(position) => position,
        Err(status) => return status,
    };
    // SAFETY: non-NULL and writable; unaligned writes are allowed.
    unsafe { out.write_unaligned(position.hash()) };
    arbor_status::ARBOR_OK
}

/// Parses `len` bytes of move text at `text` (`a2-a3`, or `b4xa3` for a capture; no NUL
/// needed) into `*out`. Only the text is checked; legality is `arbor_breakthrough_play`'s
/// business.
///
/// Errors: `ARBOR_NULL_POINTER` (`out` NULL, or `text` NULL with `len` > 0),
/// `ARBOR_PARSE_ERROR` (`*out` is then unchanged).
///
/// # Safety
/// `text` must be valid for `len` reads (or NULL), `out` writable (or NULL).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_move_parse(
    text: *const c_char,
    len: usize,
    out: *mut u16,
) -> arbor_status {
    if out.is_null() || (text.is_null() && len > 0) {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if len != Move::TEXT_LEN {
        return arbor_status::ARBOR_PARSE_ERROR;
    }
    // SAFETY: `text` is non-NULL and valid for `len` = 5 reads.
    let bytes = unsafe { core::slice::from_raw_parts(text.cast::<u8>(), len) };
    match Move::parse_bytes(bytes) {
        Ok(mv) => {
            // SAFETY: non-NULL and writable; unaligned writes are allowed.
            unsafe { out.write_unaligned(mv.to_u16()) };
            arbor_status::ARBOR_OK
        }
        Err(error) => crate::Error::from(error).into(),
    }
}

/// Writes the text of the move `mv` (for example "b4xa3") and a NUL into `buf` of `len`
/// bytes; `ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX` (6) bytes are needed.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (bits 13–15 of `mv` set),
/// `ARBOR_BUFFER_TOO_SMALL`. Nothing is written on error.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_move_print(
    mv: u16,
    buf: *mut c_char,
    len: usize,
) -> arbor_status {
    if buf.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let Some(mv) = Move::from_u16(mv) else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    // SAFETY: `buf` is non-NULL and valid for `len` writes.
    unsafe { write_display::<{ Move::TEXT_LEN }>(mv, buf, len) }
}
