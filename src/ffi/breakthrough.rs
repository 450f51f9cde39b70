//! C ABI of Breakthrough: a position C holds by value, text, moves, play, status, hash.
//!
//! Moves cross the boundary as `uint16_t` in the packed form of `Move::to_u16` (bits 0–5
//! from-square, 6–11 to-square, 12 capture; squares are `rank * 8 + file`, a1 = 0).
use core::ffi::c_char;

use super::arbor_status;
use super::boundary::{
    OptionalOut, Out, Plain, boundary, check_version, magic, read_in, slice_out,
};
use super::status::ARBOR_ABI_VERSION;
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
use crate::breakthrough::{
    Color, IllegalMove, MAX_MOVES, Move, MoveList, ParseError, ParseErrorKind, Position, Size,
    Status,
};

/// The most legal moves a Breakthrough position can have (16 pawns, 3 moves each): an array
/// of this many `uint16_t` always holds the result of `arbor_breakthrough_legal_moves`.
pub const ARBOR_BREAKTHROUGH_MAX_MOVES: usize = 48;
/// Stack, in bytes, that every `arbor_breakthrough_*` position and move call needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 1,104 bytes, including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_BREAKTHROUGH_STACK_BYTES: usize = 2048;
const _: () = assert!(ARBOR_BREAKTHROUGH_MAX_MOVES == MAX_MOVES);

/// Bytes that hold any position's text and its NUL (8 rows of 8 cells, 7 slashes, a space,
/// the side, NUL).
pub const ARBOR_BREAKTHROUGH_TEXT_MAX: usize = 74;
const _: () = assert!(ARBOR_BREAKTHROUGH_TEXT_MAX == Position::MAX_TEXT_LEN + 1);

/// Bytes that hold a move's text (`a2-a3`, `b4xa3`) and its NUL.
pub const ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX: usize = 6;
const _: () = assert!(ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX == Move::TEXT_LEN + 1);

/// `arbor_breakthrough_status`: the game goes on.
pub const ARBOR_BREAKTHROUGH_ONGOING: u32 = 0;
/// `arbor_breakthrough_status`: White has won.
pub const ARBOR_BREAKTHROUGH_WHITE_WON: u32 = 1;
/// `arbor_breakthrough_status`: Black has won.
pub const ARBOR_BREAKTHROUGH_BLACK_WON: u32 = 2;

/// The `magic` of `arbor_breakthrough`: "BTPS" (Breakthrough position).
const POSITION_MAGIC: u32 = magic(b"BTPS");

/// A Breakthrough position, 40 bytes, held by value by C (copy it with `memcpy`, save it):
/// filled by `arbor_breakthrough_init` or `arbor_breakthrough_parse`; the fields may be read.
///
/// Every function that takes one checks `magic` and `version` first (`ARBOR_NOT_INITIALISED`,
/// `ARBOR_WRONG_VERSION`), then the position (board size, pawns on the board, no overlap,
/// pawn counts, side to move, a side to move that has not already won), and recomputes the
/// hash, so a struct changed by hand is either taken as the position it describes or refused
/// with `ARBOR_INVALID_ARGUMENT`, never undefined behaviour.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct arbor_breakthrough {
    /// Set by arbor: marks a position it filled.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
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

/// Bytes of `arbor_breakthrough`.
pub const ARBOR_BREAKTHROUGH_BYTES: usize = 40;
const _: () = assert!(core::mem::size_of::<arbor_breakthrough>() == ARBOR_BREAKTHROUGH_BYTES);

// SAFETY: `repr(C)`, integers and an integer array only, laid out without padding (the size
// assertion above: 4 + 4 + 3 * 8 + 3 + 5 = 40), so every bit pattern is a value.
unsafe impl Plain for arbor_breakthrough {}

impl arbor_breakthrough {
    pub(crate) fn from_position(position: &Position) -> Self {
        arbor_breakthrough {
            magic: POSITION_MAGIC,
            version: ARBOR_ABI_VERSION,
            white: position.pawns(Color::White),
            black: position.pawns(Color::Black),
            hash: position.hash(),
            columns: position.size().columns(),
            rows: position.size().rows(),
            turn: position.side_to_move() as u8,
            reserved: [0; 5],
        }
    }

    /// The position this struct describes: its magic and version first, then its fields.
    /// Errors: `NotInitialised`, `WrongVersion`, `InvalidArgument`.
    pub(crate) fn to_position(self) -> Result<Position, Error> {
        check_version(self.magic, self.version, POSITION_MAGIC)?;
        let size =
            Size::new_checked(self.columns, self.rows).map_err(|_| Error::InvalidArgument)?;
        let turn = match self.turn {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(Error::InvalidArgument),
        };
        Position::from_bitboards(size, self.white, self.black, turn)
            .map_err(|_| Error::InvalidArgument)
    }
}

/// Reads the position behind `state`, or says why it cannot. Errors: `NullPointer`,
/// `NotInitialised`, `WrongVersion`, `InvalidArgument`.
///
/// # Safety
/// `state` must be NULL or valid for one read of `arbor_breakthrough`.
pub(crate) unsafe fn read_state(state: *const arbor_breakthrough) -> Result<Position, Error> {
    // SAFETY: forwarded caller guarantee.
    unsafe { read_in(state) }?.to_position()
}

/// A parse error of the core as the C ABI reports it: position and move texts are one
/// line, so the column is the byte offset plus one, or 0 when the text is well formed but
/// describes an invalid position.
pub(super) fn parse_failure(error: ParseError) -> ParseFailure<&'static str> {
    let column = match error.kind() {
        ParseErrorKind::Invalid(_) => 0,
        _ => u32::try_from(error.offset()).map_or(u32::MAX, |offset| offset.saturating_add(1)),
    };
    ParseFailure {
        line: 1,
        column,
        message: error.message(),
    }
}

/// The status of a refused move: the game being over is `GameOver`, the rest `IllegalMove`.
fn refused(error: IllegalMove) -> Error {
    match error {
        IllegalMove::GameOver => Error::GameOver,
        _ => Error::IllegalMove,
    }
}

/// Writes the start position of a `columns` x `rows` board (two full rows per side, White
/// to move) to `*out_state`.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (columns not in
/// 2..=8 or rows not in 4..=8).
///
/// # Safety
/// `out_state` must be NULL or valid for one write of `arbor_breakthrough`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_init(
    columns: u32,
    rows: u32,
    out_state: *mut arbor_breakthrough,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_state) }?;
        let columns = u8::try_from(columns).map_err(|_| Error::InvalidArgument)?;
        let rows = u8::try_from(rows).map_err(|_| Error::InvalidArgument)?;
        let size = Size::new_checked(columns, rows)?;
        out.write(arbor_breakthrough::from_position(&Position::start(size)));
        Ok(())
    })
}

/// Parses a position from text in, for example "BBBBB/BBBBB/...../WWWWW/WWWWW w": ranks
/// from the top, `W`, `B` or `.` per cell, `/` between ranks, a space, then `w` or `b`;
/// nothing before or after. The board size follows from the text. Writes it to `*out_state`.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER` (`out_state` NULL, or
/// `text` NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (line 1, the column of the first wrong byte, or column 0 when the
/// text is well formed but the position is not valid, such as a side to move that has
/// already won).
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `out_state` NULL or valid for one write of
/// `arbor_breakthrough`; `out_error` NULL or valid for one write of `arbor_parse_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_parse(
    text: *const u8,
    len: usize,
    out_state: *mut arbor_breakthrough,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let text = unsafe { text_in(text, len) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_state) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        let position = Position::parse_bytes(text.as_bytes())
            .map_err(|error| parse_failure(error).report(out_error))?;
        out.write(arbor_breakthrough::from_position(&position));
        Ok(())
    })
}

/// Writes the text of `*state` (the form `arbor_breakthrough_parse` reads) as text out;
/// `ARBOR_BREAKTHROUGH_TEXT_MAX` bytes always suffice (an 8x8 position takes 73 and the NUL).
///
/// Errors: `ARBOR_NULL_POINTER` (`state` NULL, or `buf` NULL with `len` > 0),
/// `ARBOR_INVALID_LENGTH`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`,
/// `ARBOR_INVALID_ARGUMENT` (`*state` is not a valid position), `ARBOR_BUFFER_TOO_SMALL`
/// (`*out_len` says the length needed).
///
/// # Safety
/// `state` must be NULL or valid for one read; `buf` NULL or valid for `len` writes;
/// `out_len` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_format(
    state: *const arbor_breakthrough,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let position = unsafe { read_state(state) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        out.write_display::<{ Position::MAX_TEXT_LEN }>(position)
    })
}

/// Writes the legal moves of `*state` to `out_moves` (room for `capacity` values) and their
/// number to `*out_count`: straight moves first, then diagonals towards file a, then towards
/// file h, each by ascending to-square. A game that is over has none (`*out_count` = 0).
///
/// `ARBOR_BREAKTHROUGH_MAX_MOVES` (48) entries always suffice. `out_moves` may be NULL when
/// `capacity` is 0 (only a finished game then succeeds).
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_LENGTH`,
/// `ARBOR_MISALIGNED` (`out_moves` not aligned for `uint16_t`), `ARBOR_NOT_INITIALISED`,
/// `ARBOR_WRONG_VERSION`, `ARBOR_INVALID_ARGUMENT` (invalid position),
/// `ARBOR_BUFFER_TOO_SMALL` (more moves than `capacity`).
///
/// # Safety
/// `state` must be NULL or valid for one read; `out_moves` NULL or valid for `capacity`
/// writes of `uint16_t`; `out_count` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_legal_moves(
    state: *const arbor_breakthrough,
    out_moves: *mut u16,
    capacity: usize,
    out_count: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let position = unsafe { read_state(state) }?;
        // SAFETY: forwarded caller guarantee.
        let moves = unsafe { slice_out(out_moves, capacity) }?;
        // SAFETY: forwarded caller guarantee.
        let count = unsafe { Out::new(out_count) }?;
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let moves = moves.get_mut(..list.len()).ok_or(Error::BufferTooSmall)?;
        for (slot, mv) in moves.iter_mut().zip(list.iter()) {
            *slot = mv.to_u16();
        }
        count.write(list.len());
        Ok(())
    })
}

/// Plays the move `mv` (packed as `arbor_breakthrough_legal_moves` lists them) on `*state`,
/// in place.
///
/// Errors (`*state` unchanged): `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`,
/// `ARBOR_WRONG_VERSION`, `ARBOR_INVALID_ARGUMENT` (invalid position, or bits 13–15 of
/// `mv` set), `ARBOR_GAME_OVER` (someone has already won), `ARBOR_ILLEGAL_MOVE` (including
/// a capture bit that does not match the board).
///
/// # Safety
/// `state` must be NULL or valid for one read and one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_play(
    state: *mut arbor_breakthrough,
    mv: u16,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let mut position = unsafe { read_state(state) }?;
        // SAFETY: forwarded caller guarantee (the same struct, written after the reads).
        let out = unsafe { Out::new(state) }?;
        let mv = Move::from_u16(mv).ok_or(Error::InvalidArgument)?;
        position.try_play(mv).map_err(refused)?;
        out.write(arbor_breakthrough::from_position(&position));
        Ok(())
    })
}

/// Writes the status of `*state` to `*out_status`: `ARBOR_BREAKTHROUGH_ONGOING`,
/// `ARBOR_BREAKTHROUGH_WHITE_WON` or `ARBOR_BREAKTHROUGH_BLACK_WON`.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`,
/// `ARBOR_WRONG_VERSION`, `ARBOR_INVALID_ARGUMENT` (invalid position).
///
/// # Safety
/// `state` must be NULL or valid for one read, `out_status` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_status(
    state: *const arbor_breakthrough,
    out_status: *mut u32,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let position = unsafe { read_state(state) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_status) }?;
        out.write(match position.status() {
            Status::Ongoing => ARBOR_BREAKTHROUGH_ONGOING,
            Status::WhiteWon => ARBOR_BREAKTHROUGH_WHITE_WON,
            Status::BlackWon => ARBOR_BREAKTHROUGH_BLACK_WON,
        });
        Ok(())
    })
}

/// Writes the Zobrist hash of `*state` to `*out_hash`: the same for equal positions on
/// every platform, different for different board sizes. It is recomputed from the pawns,
/// so it is right even if the struct's `hash` field was changed.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`,
/// `ARBOR_WRONG_VERSION`, `ARBOR_INVALID_ARGUMENT` (invalid position).
///
/// # Safety
/// `state` must be NULL or valid for one read, `out_hash` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_hash(
    state: *const arbor_breakthrough,
    out_hash: *mut u64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let position = unsafe { read_state(state) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_hash) }?;
        out.write(position.hash());
        Ok(())
    })
}

/// Parses a move from text in (`a2-a3`, or `b4xa3` for a capture) into `*out_move`. Only
/// the text is checked; legality is `arbor_breakthrough_play`'s business.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER` (`out_move` NULL, or
/// `text` NULL with `len` > 0), `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (line 1 and the column of the first wrong byte).
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `out_move` and `out_error` NULL or valid
/// for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_move_parse(
    text: *const u8,
    len: usize,
    out_move: *mut u16,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let text = unsafe { text_in(text, len) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_move) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        let mv = Move::parse_bytes(text.as_bytes())
            .map_err(|error| parse_failure(error).report(out_error))?;
        out.write(mv.to_u16());
        Ok(())
    })
}

/// Writes the text of the move `mv` (for example "b4xa3") as text out;
/// `ARBOR_BREAKTHROUGH_MOVE_TEXT_MAX` (6) bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_INVALID_LENGTH`,
/// `ARBOR_INVALID_ARGUMENT` (bits 13–15 of `mv` set; `*out_len` not written either),
/// `ARBOR_BUFFER_TOO_SMALL` (`*out_len` says 5).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_move_format(
    mv: u16,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        let mv = Move::from_u16(mv).ok_or(Error::InvalidArgument)?;
        out.write_display::<{ Move::TEXT_LEN }>(mv)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> arbor_breakthrough {
        let mut state = core::mem::MaybeUninit::uninit();
        // SAFETY: the text and `state` are valid for the lengths given.
        let status = unsafe {
            arbor_breakthrough_parse(
                text.as_ptr(),
                text.len(),
                state.as_mut_ptr(),
                core::ptr::null_mut(),
            )
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        // SAFETY: written on success.
        unsafe { state.assume_init() }
    }

    #[test]
    fn a_struct_from_elsewhere_is_refused_by_its_magic_or_version() {
        let state = parsed("BB/BB/../WW/WW w");
        assert_eq!(state.magic, u32::from_le_bytes(*b"BTPS"));
        let mut hash = 0u64;
        let mut other = state;
        other.version += 1;
        // SAFETY: `other` and `hash` are valid.
        unsafe {
            assert_eq!(
                arbor_breakthrough_hash(&other, &mut hash),
                arbor_status::ARBOR_WRONG_VERSION
            );
            other = state;
            other.magic = 0;
            assert_eq!(
                arbor_breakthrough_hash(&other, &mut hash),
                arbor_status::ARBOR_NOT_INITIALISED
            );
            assert_eq!(hash, 0);
            assert_eq!(
                arbor_breakthrough_hash(&state, &mut hash),
                arbor_status::ARBOR_OK
            );
        }
        assert_eq!(hash, state.hash);
    }

    #[test]
    fn parse_errors_carry_the_core_message_and_column() {
        let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
        let mut state = core::mem::MaybeUninit::uninit();
        let text = "BB/B/../WW/WW w";
        // SAFETY: the text, `state` and `error` are valid.
        let status = unsafe {
            arbor_breakthrough_parse(
                text.as_ptr(),
                text.len(),
                state.as_mut_ptr(),
                error.as_mut_ptr(),
            )
        };
        assert_eq!(status, arbor_status::ARBOR_PARSE_ERROR);
        // SAFETY: written on a parse error.
        let error = unsafe { error.assume_init() };
        assert_eq!((error.line, error.column), (1, 5));
        let expected = Position::parse_bytes(text.as_bytes()).unwrap_err();
        assert_eq!(
            &error.message[..error.message_len as usize],
            expected.message().as_bytes()
        );
    }
}
