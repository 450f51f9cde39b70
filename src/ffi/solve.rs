//! C ABI of the Breakthrough solver: df-pn, single-threaded, in a caller buffer.
//!
//! The position crosses the boundary as text (the format of `arbor::breakthrough`, which
//! carries the board size), so this file does not depend on the Breakthrough state ABI.
use core::ffi::c_char;

use super::arbor_status;
use crate::breakthrough::{Move, Position};
use crate::search::proof::Outcome;
use crate::search::proof::dfpn::Entry;

/// Not decided within the expansion budget.
pub const ARBOR_SOLVE_UNKNOWN: u32 = 0;
/// The side to move wins.
pub const ARBOR_SOLVE_WIN: u32 = 1;
/// The side to move loses.
pub const ARBOR_SOLVE_LOSS: u32 = 2;

/// Option bit of `arbor_breakthrough_solve`: use the race patterns as static knowledge.
pub const ARBOR_SOLVE_PATTERNS: u32 = 1;

/// Statistics of a solve.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct arbor_solve_stats {
    /// Nodes expanded (re-expansions count again).
    pub expanded: u64,
    /// Numbers read for positions (table lookups or initial evaluations).
    pub touched: u64,
    /// Largest number of table entries in use.
    pub peak_entries: u64,
}

/// Bytes per transposition-table entry: a buffer of `n * arbor_solve_entry_bytes()`
/// bytes holds `n` entries (at least 4 are needed; 2^20 entries, 16 MiB, solve 4x5). The
/// solver uses the largest power of two of 4-entry buckets that fits, so `2^k + 3` entries
/// are best (room to start the buckets on a cache line).
#[unsafe(no_mangle)]
pub extern "C" fn arbor_solve_entry_bytes() -> usize {
    size_of::<Entry>()
}

/// Solves the Breakthrough position given as text (`text_len` bytes, no NUL needed, e.g.
/// "BBBB/BBBB/..../WWWW/WWWW w"; the text sets the board size) with df-pn, using the
/// caller's `buffer` of `buffer_bytes` bytes as the transposition table, for at most
/// `max_expansions` expansions. Writes `ARBOR_SOLVE_WIN`, `ARBOR_SOLVE_LOSS` or
/// `ARBOR_SOLVE_UNKNOWN` (budget spent) to `*out_outcome`; `options` is 0 or
/// `ARBOR_SOLVE_PATTERNS` (the race patterns as static knowledge: the same answers, fewer
/// expansions); for a win, a winning move packed
/// as 16 bits (from square | to square << 6 | capture << 12, square = rank * 8 + file) to
/// `*out_move`, else 0xFFFF; the statistics to `*out_stats` (may be NULL).
///
/// df-pn recurses once per ply of the deepest line it explores, about 1 KiB of stack per
/// ply (a game is finite: every move advances a pawn, so at most about 50 plies on 5x5
/// and 180 on 8x8): give the calling thread enough stack. The buffer needs no alignment (its aligned part is used) and its
/// contents are overwritten; arbor uses it and the text during the call only and keeps no pointer.
/// Errors (nothing written): `ARBOR_NULL_POINTER` (`text`, `buffer`, `out_outcome` or
/// `out_move` NULL), `ARBOR_INVALID_LENGTH` (a length above `PTRDIFF_MAX`),
/// `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR` (not a position), `ARBOR_INVALID_ARGUMENT`
/// (an unknown bit in `options`),
/// `ARBOR_BUFFER_TOO_SMALL` (fewer than 4 aligned entries).
///
/// # Safety
/// `text` must be valid for `text_len` reads, `buffer` for `buffer_bytes` reads and writes
/// (not overlapping the other arguments), the out pointers writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_solve(
    text: *const c_char,
    text_len: usize,
    buffer: *mut u8,
    buffer_bytes: usize,
    max_expansions: u64,
    options: u32,
    out_outcome: *mut u32,
    out_move: *mut u16,
    out_stats: *mut arbor_solve_stats,
) -> arbor_status {
    if text.is_null() || buffer.is_null() || out_outcome.is_null() || out_move.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if text_len > isize::MAX as usize || buffer_bytes > isize::MAX as usize {
        return arbor_status::ARBOR_INVALID_LENGTH;
    }
    if options & !ARBOR_SOLVE_PATTERNS != 0 {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    // SAFETY: `text` is non-NULL and the caller guarantees `text_len` readable bytes.
    let bytes = unsafe { core::slice::from_raw_parts(text.cast::<u8>(), text_len) };
    let Ok(text) = core::str::from_utf8(bytes) else {
        return arbor_status::ARBOR_INVALID_UTF8;
    };
    let Ok(position) = text.parse::<Position>() else {
        return arbor_status::ARBOR_PARSE_ERROR;
    };
    // SAFETY: `buffer` is non-NULL, valid for `buffer_bytes` reads and writes, and does not
    // overlap anything else we touch.
    let raw = unsafe { core::slice::from_raw_parts_mut(buffer, buffer_bytes) };
    // SAFETY: `Entry` is `repr(C)` and made only of integers, so every bit pattern of its
    // bytes is a valid value; `align_to_mut` hands out only correctly aligned entries.
    let (_, table, _) = unsafe { raw.align_to_mut::<Entry>() };
    let patterns = options & ARBOR_SOLVE_PATTERNS != 0;
    let Ok((outcome, best, stats)) = position.solve_in_table(patterns, table, max_expansions)
    else {
        return arbor_status::ARBOR_BUFFER_TOO_SMALL;
    };
    let code = match outcome {
        Outcome::Win => ARBOR_SOLVE_WIN,
        Outcome::Loss => ARBOR_SOLVE_LOSS,
        Outcome::Unknown => ARBOR_SOLVE_UNKNOWN,
    };
    // SAFETY: the out pointers are non-NULL (checked) and writable by the contract;
    // `out_stats` is written only when non-NULL.
    unsafe {
        out_outcome.write_unaligned(code);
        out_move.write_unaligned(best.map_or(0xFFFF, Move::to_u16));
        if !out_stats.is_null() {
            out_stats.write_unaligned(arbor_solve_stats {
                expanded: stats.expanded,
                touched: stats.touched,
                peak_entries: stats.peak_used,
            });
        }
    }
    arbor_status::ARBOR_OK
}
