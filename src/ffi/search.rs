//! What every anytime search handle of the C ABI shares: the limits of one call
//! (`arbor_search_limits`: iterations, a deadline, the clock that measures it), what the
//! call reports (`arbor_search_progress`) and why it stopped (`ARBOR_STOP_…`).
//!
//! A handle's `_run` searches until the first of: `max_iterations` iterations in this call,
//! `deadline_us` microseconds since the call began, or a cancel from another thread (the
//! handle's `_cancel`). Its tree is kept in the caller's buffer between calls, so `k` calls
//! of `n` iterations give the same result as one call of `k · n` with the same seed.
//!
//! For an area's handle: put the cancel flag in the first [`CANCEL_BYTES`] of the area
//! after the buffer header and reach it only through [`cancel_flag`]; `_cancel` is
//! [`cancel_buffer`]; `_run` reads the limits (`read_in`, [`check_limits`]), makes a
//! [`CallStop`] from them and the flag, passes `&mut stop` as the core's `Stop` with
//! [`max_iterations`], and reports [`CallStop::finish`] as the stop reason.
use core::ffi::c_void;
use core::sync::atomic::{AtomicU32, Ordering};

use super::arbor_status;
use super::boundary::{BUFFER_HEADER_BYTES, Out, Plain, boundary, check_version, magic};
use super::status::ARBOR_ABI_VERSION;
use crate::Error;
use crate::search::mcts::Stop;

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
/// The call did its one step of work (a stepped playtest's game).
pub const ARBOR_STOP_STEP: u32 = 5;

/// `arbor_search_progress.best_move` when there is no move yet.
pub const ARBOR_SEARCH_NO_MOVE: u32 = 0xFFFF_FFFF;

/// A clock of the caller: a monotonic count of microseconds (any origin), called with the
/// `ctx` of the limits, from the thread that runs the search, about once per iteration.
#[allow(non_camel_case_types)]
pub type arbor_clock_fn = Option<unsafe extern "C" fn(ctx: *mut c_void) -> u64>;

/// The limits of one `…_search_run` call. Fill it with
/// `arbor_search_limits_init`, then change the fields; it may be reused for every call.
/// `max_iterations` 0 means no iteration limit (the call then ends at its deadline or on a
/// cancel). The one struct of the ABI with pointers (the clock and its context), so the
/// one whose size depends on the target (`ARBOR_SEARCH_LIMITS_BYTES`).
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

/// Bytes of `arbor_search_limits`: 24 and two pointers (40 on 64-bit targets, 32 on
/// 32-bit ones; no padding on either).
pub const ARBOR_SEARCH_LIMITS_BYTES: usize = 24 + 2 * core::mem::size_of::<usize>();
const _: () = assert!(core::mem::size_of::<arbor_search_limits>() == ARBOR_SEARCH_LIMITS_BYTES);

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
pub(super) fn check_limits(limits: &arbor_search_limits) -> Result<(), Error> {
    check_version(limits.magic, limits.version, LIMITS_MAGIC)
}

/// The iteration budget of a call: `max_iterations`, 0 meaning no limit.
pub(super) fn max_iterations(limits: &arbor_search_limits) -> u32 {
    match limits.max_iterations {
        0 => u32::MAX,
        n => n,
    }
}

/// A monotonic clock in microseconds: the caller's, or the `std` build's own.
enum Clock {
    Caller(unsafe extern "C" fn(*mut c_void) -> u64, *mut c_void),
    #[cfg(feature = "std")]
    Std(std::time::Instant),
}

impl Clock {
    fn now_us(&self) -> u64 {
        match *self {
            // SAFETY: the caller's contract on `arbor_search_limits.now_us` and `ctx`.
            Clock::Caller(now, ctx) => unsafe { now(ctx) },
            #[cfg(feature = "std")]
            Clock::Std(start) => u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
        }
    }
}

/// What ends one call of a handle's search: its cancel flag and the limits' deadline, polled
/// before every iteration; it remembers which stopped the call.
pub(super) struct CallStop<'a> {
    cancel: &'a AtomicU32,
    deadline: Option<(Clock, u64)>,
    reason: u32,
}

impl<'a> CallStop<'a> {
    /// Starts the deadline's clock. Errors: `Error::Unsupported` (a deadline, no clock given
    /// and no `std`).
    pub(super) fn new(limits: &arbor_search_limits, cancel: &'a AtomicU32) -> Result<Self, Error> {
        let deadline = if limits.deadline_us == 0 {
            None
        } else {
            let clock = match limits.now_us {
                Some(now) => Clock::Caller(now, limits.ctx),
                #[cfg(feature = "std")]
                None => Clock::Std(std::time::Instant::now()),
                #[cfg(not(feature = "std"))]
                None => return Err(Error::Unsupported),
            };
            let until = clock.now_us().saturating_add(limits.deadline_us);
            Some((clock, until))
        };
        Ok(CallStop {
            cancel,
            deadline,
            reason: ARBOR_STOP_ITERATIONS,
        })
    }

    /// Whether to stop now (and why, for [`CallStop::finish`]).
    pub(super) fn poll(&mut self) -> bool {
        if self.cancel.load(Ordering::Relaxed) != 0 {
            self.reason = ARBOR_STOP_CANCELLED;
            return true;
        }
        if let Some((clock, until)) = &self.deadline {
            if clock.now_us() >= *until {
                self.reason = ARBOR_STOP_DEADLINE;
                return true;
            }
        }
        false
    }

    /// Why the call stopped (`ARBOR_STOP_ITERATIONS` when nothing else stopped it). A
    /// cancel is consumed by the call it stopped: the flag is cleared.
    pub(super) fn finish(self) -> u32 {
        if self.reason == ARBOR_STOP_CANCELLED {
            self.cancel.store(0, Ordering::Relaxed);
        }
        self.reason
    }
}

impl Stop for &mut CallStop<'_> {
    fn stop(&mut self, _: u32) -> bool {
        self.poll()
    }
}

/// Bytes at the start of a handle's area for its cancel flag (a `u32`, then 4 reserved).
pub(super) const CANCEL_BYTES: usize = 8;

/// The cancel flag at the start of a handle's area (the bytes after the buffer header).
///
/// # Safety
/// `area` must point to at least 4 bytes, aligned to 4, that live for `'a` and that are
/// only ever accessed atomically.
pub(super) unsafe fn cancel_flag<'a>(area: *mut u8) -> &'a AtomicU32 {
    // SAFETY: the caller's guarantees are `AtomicU32::from_ptr`'s.
    unsafe { AtomicU32::from_ptr(area.cast::<u32>()) }
}

/// Sets the cancel flag of the handle in `buf`, the one call allowed while another thread
/// uses the handle: it checks the buffer header with plain reads (the header is written only
/// by `…_init`) and touches nothing else but the flag, atomically, so it never forms a
/// reference to memory the running call owns. Errors: `Error::NullPointer`,
/// `Error::Misaligned`, `Error::BufferTooSmall`, `Error::NotInitialised`,
/// `Error::WrongVersion`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes.
pub(super) unsafe fn cancel_buffer(
    buf: *mut c_void,
    len: usize,
    align: usize,
    expected_magic: u32,
) -> Result<(), Error> {
    if buf.is_null() {
        return Err(Error::NullPointer);
    }
    if !(buf as usize).is_multiple_of(align.max(8)) {
        return Err(Error::Misaligned);
    }
    if len < BUFFER_HEADER_BYTES + CANCEL_BYTES {
        return Err(Error::BufferTooSmall);
    }
    // SAFETY: `buf` is non-NULL, 8-aligned and readable for `len` >= 24 bytes: the header's
    // magic (offset 0), version (4) and prepared length (8) are plain integers.
    let (found, version, bytes) = unsafe {
        (
            buf.cast::<u32>().read(),
            buf.cast::<u32>().add(1).read(),
            buf.cast::<u64>().add(1).read(),
        )
    };
    check_version(found, version, expected_magic)?;
    if bytes > len as u64 {
        return Err(Error::BufferTooSmall);
    }
    // SAFETY: the flag's 4 bytes follow the 16-byte header inside the buffer, 4-aligned,
    // and every call reaches them only through `cancel_flag` (atomically).
    let flag = unsafe { cancel_flag(buf.cast::<u8>().add(BUFFER_HEADER_BYTES)) };
    flag.store(1, Ordering::Relaxed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn ticking(ctx: *mut c_void) -> u64 {
        // SAFETY: the test passes a `u64` it owns.
        let now = unsafe { &mut *ctx.cast::<u64>() };
        *now += 10;
        *now
    }

    fn limits(max_iterations: u32) -> arbor_search_limits {
        let mut limits = core::mem::MaybeUninit::uninit();
        // SAFETY: writable.
        let status = unsafe { arbor_search_limits_init(max_iterations, limits.as_mut_ptr()) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        // SAFETY: written on success.
        unsafe { limits.assume_init() }
    }

    #[test]
    fn a_call_stops_for_its_cancel_once_and_for_its_deadline() {
        let flag = AtomicU32::new(1);
        let mut plain = limits(0);
        assert_eq!(check_limits(&plain), Ok(()));
        assert_eq!(max_iterations(&plain), u32::MAX);
        let mut stop = CallStop::new(&plain, &flag).unwrap();
        assert!(stop.poll());
        assert_eq!(stop.finish(), ARBOR_STOP_CANCELLED);
        assert_eq!(flag.load(Ordering::Relaxed), 0, "a cancel is consumed");
        let stop = CallStop::new(&plain, &flag).unwrap();
        assert_eq!(stop.finish(), ARBOR_STOP_ITERATIONS);

        let mut now = 0u64;
        plain.deadline_us = 35;
        plain.now_us = Some(ticking);
        plain.ctx = (&mut now as *mut u64).cast();
        // Start at 10: readings 20, 30 go on, 40 >= 45? no; 50 stops.
        let mut stop = CallStop::new(&plain, &flag).unwrap();
        assert!(!stop.poll() && !stop.poll() && !stop.poll());
        assert!(stop.poll());
        assert_eq!(stop.finish(), ARBOR_STOP_DEADLINE);

        plain.now_us = None;
        let without_clock = CallStop::new(&plain, &flag);
        #[cfg(feature = "std")]
        assert!(without_clock.is_ok());
        #[cfg(not(feature = "std"))]
        assert!(matches!(without_clock, Err(Error::Unsupported)));

        plain.version += 1;
        assert_eq!(check_limits(&plain), Err(Error::WrongVersion));
        plain.magic = 0;
        assert_eq!(check_limits(&plain), Err(Error::NotInitialised));
    }
}
