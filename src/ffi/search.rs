//! What every anytime search handle of the C ABI shares: the limits of one call
//! (`arbor_search_limits`: iterations, a deadline, the clock that measures it), what the
//! call reports (`arbor_search_progress`) and why it stopped (`ARBOR_STOP_…`).
//!
//! A handle's `_run` searches until the first of: `max_iterations` iterations in this call,
//! `deadline_us` microseconds since the call began, or a cancel from another thread (the
//! handle's `_cancel`). Its tree is kept in the caller's buffer between calls, so `k` calls
//! of `n` iterations give the same result as one call of `k · n` with the same seed.
use core::ffi::c_void;

use super::arbor_status;
use super::boundary::{Out, Plain, boundary, check_version, magic};
use super::status::ARBOR_ABI_VERSION;
use crate::Error;

/// `arbor_search_progress.stop_reason`: the call ran its `max_iterations`.
pub const ARBOR_STOP_ITERATIONS: u32 = 1;
/// The call reached its `deadline_us`.
pub const ARBOR_STOP_DEADLINE: u32 = 2;
/// The handle's `_cancel` was called (during the call, or before it and since the last call
/// that stopped for it).
pub const ARBOR_STOP_CANCELLED: u32 = 3;
/// There was nothing left to do: an agent that does not search (Random) chose at once, or
/// a stepped playtest has played every game.
pub const ARBOR_STOP_DONE: u32 = 4;

/// `arbor_search_progress.best_move` when there is no move yet.
pub const ARBOR_SEARCH_NO_MOVE: u32 = 0xFFFF_FFFF;

/// A clock of the caller: a monotonic count of microseconds (any origin), called with the
/// `ctx` of the limits, from the thread that runs the search, about once per iteration.
#[allow(non_camel_case_types)]
pub type arbor_clock_fn = Option<unsafe extern "C" fn(ctx: *mut c_void) -> u64>;

/// The limits of one `…_search_run` (or `…_step`) call. Fill it with
/// `arbor_search_limits_init`, then change the fields; it may be reused for every call.
/// `max_iterations` 0 means no iteration limit (the call then ends at its deadline or on a
/// cancel). The one struct of the ABI with pointers (the clock and its context): 40 bytes on
/// 64-bit targets (`ARBOR_SEARCH_LIMITS_BYTES`), 32 on 32-bit ones, with no padding on
/// either.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct arbor_search_limits {
    /// Written by `arbor_search_limits_init`; a struct not filled by it is refused.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// Most iterations of this call; 0 for no limit.
    pub max_iterations: u32,
    /// Written as zero.
    pub reserved: u32,
    /// Microseconds the call may take from its start, measured by `now_us` (or, when that
    /// is NULL, by the monotonic clock of the `std` build; a `no_std` build without `now_us`
    /// refuses a deadline with `ARBOR_UNSUPPORTED`); 0 for none. Checked before every
    /// iteration, so a call overruns it by at most one iteration.
    pub deadline_us: u64,
    /// The caller's clock, or NULL.
    pub now_us: arbor_clock_fn,
    /// Passed to `now_us`; arbor does nothing else with it.
    pub ctx: *mut c_void,
}

/// Bytes of `arbor_search_limits` on 64-bit targets (24 and two pointers). The header is
/// generated for them; a 32-bit target has 32 (its static size check then fails, see the
/// struct).
#[cfg(target_pointer_width = "64")]
pub const ARBOR_SEARCH_LIMITS_BYTES: usize = 40;
#[cfg(target_pointer_width = "64")]
const _: () = assert!(core::mem::size_of::<arbor_search_limits>() == ARBOR_SEARCH_LIMITS_BYTES);
const _: () =
    assert!(core::mem::size_of::<arbor_search_limits>() == 24 + 2 * core::mem::size_of::<usize>());

// SAFETY: `#[repr(C)]`, integers, a nullable function pointer (NULL is `None`, any other
// value `Some`) and a raw pointer, without padding (the assert above: 24 bytes of integers
// then two pointer-sized, pointer-aligned fields): every bit pattern is a value. Calling
// `now_us` is the caller's contract, as documented.
unsafe impl Plain for arbor_search_limits {}

/// What a `…_search_run` call did and where its search stands.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_search_progress {
    /// Iterations of the search so far, over every call since it started on this position.
    pub iterations: u64,
    /// Iterations of this call.
    pub iterations_this_call: u32,
    /// Why this call stopped: `ARBOR_STOP_ITERATIONS`, `_DEADLINE`, `_CANCELLED`, `_DONE`.
    pub stop_reason: u32,
    /// The move the search would play now (the game's move code), or
    /// `ARBOR_SEARCH_NO_MOVE` before the root has a child.
    pub best_move: u32,
    /// Simulations through that move.
    pub best_visits: u32,
    /// Its mean reward, in [0, 1], for the player to move; 0 without visits.
    pub best_value: f64,
    /// Simulations through the root.
    pub root_visits: u64,
}

/// Bytes of `arbor_search_progress`.
pub const ARBOR_SEARCH_PROGRESS_BYTES: usize = 40;
const _: () = assert!(core::mem::size_of::<arbor_search_progress>() == ARBOR_SEARCH_PROGRESS_BYTES);

pub(super) const LIMITS_MAGIC: u32 = magic(b"LIMT");

/// Fills `*out_limits` with `max_iterations`, no deadline and no clock.
///
/// Errors: `ARBOR_NULL_POINTER`.
///
/// # Safety
/// `out_limits` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_search_limits_init(
    max_iterations: u32,
    out_limits: *mut arbor_search_limits,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_limits) }?;
        out.write(arbor_search_limits {
            magic: LIMITS_MAGIC,
            version: ARBOR_ABI_VERSION,
            max_iterations,
            reserved: 0,
            deadline_us: 0,
            now_us: None,
            ctx: core::ptr::null_mut(),
        });
        Ok(())
    })
}

/// The limits of a call, checked: the caller's struct was filled by
/// `arbor_search_limits_init` of this ABI. Errors: `Error::NotInitialised`,
/// `Error::WrongVersion`.
#[allow(dead_code)] // Used by the search handles (next commits).
pub(super) fn check_limits(limits: &arbor_search_limits) -> Result<(), Error> {
    check_version(limits.magic, limits.version, LIMITS_MAGIC)
}
