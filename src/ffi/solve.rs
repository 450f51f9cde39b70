//! C ABI of the Breakthrough solver: df-pn, single-threaded, its transposition table in a
//! caller buffer.
//!
//! The position crosses the boundary as text (the format of `arbor_breakthrough_parse`,
//! which carries the board size), so a caller needs no position struct to solve.
//!
//! The table is one-call scratch: every `arbor_breakthrough_solve` clears the entries it
//! uses before reading any, and keeps nothing in the buffer that a later call reads. So it
//! has no `_init`, no magic and no version: nothing in it is ever interpreted across calls
//! (or across library versions), and any bytes, even garbage, are a valid starting point.
//! It still follows the sizing and alignment rules of every caller buffer:
//! `arbor_breakthrough_solve_bytes` and `ARBOR_BREAKTHROUGH_SOLVE_ALIGN`.
use core::ffi::c_void;
use core::mem::{align_of, size_of};

use super::arbor_status;
use super::boundary::{OptionalOut, Out, Plain, boundary, report_bytes, slice_out};
use super::breakthrough::parse_failure;
use super::text::{arbor_parse_error, text_in};
use crate::Error;
use crate::breakthrough::{Move, Position};
use crate::search::proof::Outcome;
use crate::search::proof::dfpn::{BUCKET, Entry};

/// `outcome` of a solve: not decided when the expansion budget ran out, while the table
/// still had free entries (a larger `max_expansions` may decide it).
pub const ARBOR_BREAKTHROUGH_SOLVE_BUDGET_SPENT: u32 = 0;
/// `outcome` of a solve: the side to move wins (`best_move` is a winning move).
pub const ARBOR_BREAKTHROUGH_SOLVE_WIN: u32 = 1;
/// `outcome` of a solve: the side to move loses.
pub const ARBOR_BREAKTHROUGH_SOLVE_LOSS: u32 = 2;
/// `outcome` of a solve: not decided when the expansion budget ran out, and every table
/// entry was in use, so the solver was overwriting what it had learnt (a larger table is
/// what helps; with a table far too small, a larger budget alone may never decide it).
pub const ARBOR_BREAKTHROUGH_SOLVE_TABLE_FULL: u32 = 3;

/// Option bit of `arbor_breakthrough_solve`: use the race patterns as static knowledge (the
/// same answers in fewer expansions).
pub const ARBOR_BREAKTHROUGH_SOLVE_PATTERNS: u32 = 1;

/// `best_move` when there is none (the position is not a proved win).
pub const ARBOR_BREAKTHROUGH_NO_MOVE: u16 = 0xFFFF;

/// Alignment of the solver's table buffer (that of `malloc`, which always suffices).
pub const ARBOR_BREAKTHROUGH_SOLVE_ALIGN: usize = 16;
/// Stack, in bytes, that `arbor_breakthrough_solve` (5x5, 6x6 and 8x8 starts within 300,000 expansions; df-pn recurses along the current path, so a longer game needs more) needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 25,416 bytes (5x5, the deepest), including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_BREAKTHROUGH_SOLVE_STACK_BYTES: usize = 32768;
const _: () = assert!(
    ARBOR_BREAKTHROUGH_SOLVE_ALIGN == align_of::<Entry>()
        && size_of::<Entry>() == size_of::<EntrySlot>()
        && align_of::<Entry>() == align_of::<EntrySlot>()
);

/// Bytes of one table entry.
const ENTRY_BYTES: usize = size_of::<Entry>();

/// What `arbor_breakthrough_solve` found, written on success.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct arbor_breakthrough_solve_result {
    /// Nodes expanded (re-expansions count again); at most `max_expansions`.
    pub expanded: u64,
    /// Numbers read for positions (table lookups or initial evaluations).
    pub touched: u64,
    /// Largest number of table entries in use.
    pub peak_entries: u64,
    /// Entries the table had: the largest power of two of 4-entry buckets that fit.
    pub table_entries: u64,
    /// `ARBOR_BREAKTHROUGH_SOLVE_WIN`, `_LOSS`, `_BUDGET_SPENT` or `_TABLE_FULL`.
    pub outcome: u32,
    /// For a win, a winning move packed as the moves of `arbor_breakthrough_legal_moves`;
    /// else `ARBOR_BREAKTHROUGH_NO_MOVE`.
    pub best_move: u16,
    /// Written as zero.
    pub reserved: u16,
}

/// Bytes of `arbor_breakthrough_solve_result`.
pub const ARBOR_BREAKTHROUGH_SOLVE_RESULT_BYTES: usize = 40;
const _: () =
    assert!(size_of::<arbor_breakthrough_solve_result>() == ARBOR_BREAKTHROUGH_SOLVE_RESULT_BYTES);

/// The caller's buffer seen as entry-sized, entry-aligned slots, so that `slice_out` checks
/// it (NULL, length, alignment) like any other caller array.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct EntrySlot([u64; 2]);

// SAFETY: `repr(C)` over two `u64` (16 bytes, alignment 16: no padding); every bit pattern
// is a value.
unsafe impl Plain for EntrySlot {}

/// Entries of the table in a buffer of `len` bytes, as the solver lays it out: the largest
/// power of two of buckets that fits (see `search::proof::table`), 0 below one bucket.
fn table_entries(len: usize) -> usize {
    let buckets = len / ENTRY_BYTES / BUCKET;
    if buckets == 0 {
        0
    } else {
        BUCKET << buckets.ilog2()
    }
}

/// Writes to `*out_bytes` the size of a table buffer of `entries` entries (a power of two,
/// at least 4): `(entries + 3) * 16` bytes. The entries are what the solver uses; the 3
/// more let it start its 4-entry buckets on a 64-byte cache line whatever the 16-byte
/// aligned address (`malloc`'s), one cache line read per lookup. As a guide, 2^20 entries
/// (16 MiB) solve the 4x5 start; the result's `peak_entries` shows what a solve used.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (`entries`
/// not a power of two, below 4, or the size above `PTRDIFF_MAX`).
///
/// # Safety
/// `out_bytes` must be NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_solve_bytes(
    entries: usize,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        let bytes = Some(entries)
            .filter(|&entries| entries >= BUCKET && entries.is_power_of_two())
            .and_then(|entries| entries.checked_add(BUCKET - 1))
            .and_then(|slots| slots.checked_mul(ENTRY_BYTES));
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// Solves the Breakthrough position given as text in (such as "BBBB/BBBB/..../WWWW/WWWW w";
/// the text sets the board size) with df-pn, its transposition table in `buf` (`len` bytes),
/// for at most `max_expansions` expansions (finding the winning move of a win counts in the
/// same budget), and writes what it found to `*out_result`.
///
/// `options` is 0 or `ARBOR_BREAKTHROUGH_SOLVE_PATTERNS`. The buffer is sized by
/// `arbor_breakthrough_solve_bytes` (any length of at least 4 entries works: the solver uses
/// the largest power of two of 4-entry buckets that fits) and aligned to
/// `ARBOR_BREAKTHROUGH_SOLVE_ALIGN`; it is scratch, overwritten by each call, and needs no
/// preparation. arbor keeps no pointer to it or to the text.
///
/// An undecided solve says why in `outcome`: `ARBOR_BREAKTHROUGH_SOLVE_BUDGET_SPENT` (the
/// table had room: raise the budget) or `ARBOR_BREAKTHROUGH_SOLVE_TABLE_FULL` (every entry
/// was in use: give a larger table). A call always stops at the budget; with a table far too
/// small for the position, give a finite one.
///
/// df-pn recurses once per ply of the deepest line it explores, about 1 KiB of stack per
/// ply (a game is finite: every move advances a pawn, so at most about 50 plies on 5x5
/// and 180 on 8x8): give the calling thread enough stack.
///
/// Errors (nothing written but `*out_error`): `ARBOR_NULL_POINTER` (`out_result` NULL,
/// `text` NULL with `text_len` > 0, or `buf` NULL with `len` of 4 entries or more), `ARBOR_INVALID_LENGTH` (a length above
/// `PTRDIFF_MAX`), `ARBOR_INVALID_UTF8`, `ARBOR_INVALID_ARGUMENT` (an unknown bit in
/// `options`), `ARBOR_BUFFER_TOO_SMALL` (`len` below 4 entries), `ARBOR_MISALIGNED`,
/// `ARBOR_PARSE_ERROR` (not a position: `*out_error` as `arbor_breakthrough_parse` writes it).
///
/// # Safety
/// `text` must be NULL or valid for `text_len` reads; `buf` NULL or valid for `len` reads
/// and writes, overlapping nothing else passed; `out_result` NULL or valid for one write;
/// `out_error` NULL or valid for one write.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn arbor_breakthrough_solve(
    text: *const u8,
    text_len: usize,
    buf: *mut c_void,
    len: usize,
    max_expansions: u64,
    options: u32,
    out_result: *mut arbor_breakthrough_solve_result,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let text = unsafe { text_in(text, text_len) }?;
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_result) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        if options & !ARBOR_BREAKTHROUGH_SOLVE_PATTERNS != 0 {
            return Err(Error::InvalidArgument);
        }
        let entries = table_entries(len);
        if entries == 0 {
            return Err(Error::BufferTooSmall);
        }
        // SAFETY: forwarded caller guarantee (exclusive use of the buffer for the call).
        let slots = unsafe { slice_out(buf.cast::<EntrySlot>(), len / ENTRY_BYTES) }?;
        let position = Position::parse_bytes(text.as_bytes())
            .map_err(|error| parse_failure(error).report(out_error))?;
        // SAFETY: `EntrySlot` and `Entry` have the same size and alignment (asserted above)
        // and `Entry` is made only of integers, so every slot's bytes are a valid `Entry`;
        // the slice keeps the slots' exclusive borrow.
        let table = unsafe {
            core::slice::from_raw_parts_mut(slots.as_mut_ptr().cast::<Entry>(), slots.len())
        };
        let patterns = options & ARBOR_BREAKTHROUGH_SOLVE_PATTERNS != 0;
        let (outcome, best, stats) = position
            .solve_in_table(patterns, table, max_expansions)
            .map_err(|_| Error::BufferTooSmall)?;
        let outcome = match outcome {
            Outcome::Win => ARBOR_BREAKTHROUGH_SOLVE_WIN,
            Outcome::Loss => ARBOR_BREAKTHROUGH_SOLVE_LOSS,
            // Entries are never freed, so a table whose every entry has been used stays
            // full: the last stores overwrote other positions.
            Outcome::Unknown if stats.peak_used >= entries as u64 => {
                ARBOR_BREAKTHROUGH_SOLVE_TABLE_FULL
            }
            Outcome::Unknown => ARBOR_BREAKTHROUGH_SOLVE_BUDGET_SPENT,
        };
        out.write(arbor_breakthrough_solve_result {
            expanded: stats.expanded,
            touched: stats.touched,
            peak_entries: stats.peak_used,
            table_entries: entries as u64,
            outcome,
            best_move: best.map_or(ARBOR_BREAKTHROUGH_NO_MOVE, Move::to_u16),
            reserved: 0,
        });
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_the_largest_power_of_two_of_buckets() {
        assert_eq!(table_entries(0), 0);
        assert_eq!(table_entries(63), 0);
        assert_eq!(table_entries(64), 4);
        assert_eq!(table_entries((16 + 3) * 16), 16);
        assert_eq!(table_entries(31 * 16), 16);
        assert_eq!(table_entries(32 * 16), 32);
    }
}
