//! What every anytime search handle of the C ABI shares: the limits of one call
//! (`arbor_search_limits`: iterations, a deadline, the clock that measures it), what the
//! call reports (`arbor_search_progress`) and why it stopped (`ARBOR_STOP_…`).
//!
//! A handle's `_run` searches until the first of: `max_iterations` iterations in this call,
//! `deadline_us` microseconds since the call began, or a cancel from another thread (the
//! handle's `_cancel`). Its tree is kept in the caller's buffer between calls, so `k` calls
//! of `n` iterations give the same result as one call of `k · n` with the same seed.
//!
//! A handle is a caller buffer laid out the same in every area: the buffer header of
//! `boundary.rs`, the cancel flag (a `u32` only ever accessed atomically, then 4 reserved
//! bytes), then the area's own bytes ([`HANDLE_HEAD_BYTES`] from the start). The area's
//! `_init` calls [`prepare_handle`], its other calls [`open_handle`], which gives the flag
//! (shared, atomic) and the area's own bytes (exclusive) apart, so `_cancel`
//! ([`cancel_handle`]) may store into the flag while another thread's call has them open.
//! A `_run` reads the limits (`read_in`, [`check_limits`]), makes a [`CallStop`] from them
//! and the flag, passes `&stop` as the core's `Stop` (on one thread or several) with
//! [`max_iterations`], and reports [`CallStop::finish`] as the stop reason.
use core::ffi::c_void;
use core::sync::atomic::{AtomicU32, Ordering};

use super::arbor_status;
use super::boundary::{
    BUFFER_HEADER_BYTES, Out, Plain, boundary, check_header, check_version, magic, prepare_buffer,
};
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

/// Bytes of a handle's cancel flag: a `u32`, then 4 reserved bytes (zero).
const CANCEL_BYTES: usize = 8;

/// Bytes of every handle before the area's own: the buffer header, then the cancel flag.
/// The area's own bytes start here, 8-aligned in a buffer aligned to 8.
pub(super) const HANDLE_HEAD_BYTES: usize = BUFFER_HEADER_BYTES + CANCEL_BYTES;
const _: () = assert!(BUFFER_HEADER_BYTES.is_multiple_of(core::mem::align_of::<AtomicU32>()));
const _: () = assert!(HANDLE_HEAD_BYTES.is_multiple_of(8));

/// One area's handles: what tells them from other buffers, and what they need.
pub(super) struct HandleKind {
    /// The buffer header's magic.
    pub(super) magic: u32,
    /// The area's `ARBOR_…_ALIGN`.
    pub(super) align: usize,
    /// The fewest bytes a handle of this kind is prepared with, in all: one shorter is
    /// refused (`_init`: too small; the other calls: damaged).
    pub(super) min_len: usize,
}

/// Prepares a handle of `kind` in `buf` (`prepare_buffer`, with at least `kind.min_len`
/// and `min_len` bytes in all; 0 when the kind's least suffices), clears its cancel flag,
/// and returns the area's own bytes after it, for `_init` to fill. Errors: those of
/// `prepare_buffer`.
///
/// # Safety
/// As `prepare_buffer` (no other call, `_cancel` included, may use `buf` meanwhile).
pub(super) unsafe fn prepare_handle<'a>(
    buf: *mut c_void,
    len: usize,
    kind: &HandleKind,
    min_len: usize,
) -> Result<&'a mut [u8], Error> {
    let min_len = min_len.max(kind.min_len).max(HANDLE_HEAD_BYTES);
    // SAFETY: forwarded caller guarantee.
    let area = unsafe { prepare_buffer(buf, len, kind.align, min_len, kind.magic) }?;
    // At least HANDLE_HEAD_BYTES - BUFFER_HEADER_BYTES = CANCEL_BYTES long.
    let (flag, own) = area.split_at_mut(CANCEL_BYTES);
    flag.fill(0);
    Ok(own)
}

/// Opens a handle of `kind` prepared by [`prepare_handle`]: its cancel flag, shared and
/// atomic, and apart from it the area's own bytes it was prepared with, exclusive. No
/// reference is formed over the flag's bytes but the atomic one, so `_cancel` may store
/// into it meanwhile. Errors: those of `check_header` (boundary.rs),
/// `Error::NotInitialised` (prepared with fewer than `kind.min_len` bytes, which `_init`
/// never does: damaged).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes during `'a`, used by no other
/// call but the handle's `_cancel`.
pub(super) unsafe fn open_handle<'a>(
    buf: *mut c_void,
    len: usize,
    kind: &HandleKind,
) -> Result<(&'a AtomicU32, &'a mut [u8]), Error> {
    // SAFETY: forwarded caller guarantee.
    let (flag, bytes) = unsafe { check_handle(buf, len, kind) }?;
    // SAFETY: `check_handle` found HANDLE_HEAD_BYTES <= `bytes` <= `len` prepared bytes;
    // the own bytes (HANDLE_HEAD_BYTES..bytes) are disjoint from the flag, valid for reads
    // and writes during 'a and used by no one else (caller's contract: `_cancel` touches
    // only the flag).
    let own = unsafe {
        core::slice::from_raw_parts_mut(
            buf.cast::<u8>().add(HANDLE_HEAD_BYTES),
            bytes - HANDLE_HEAD_BYTES,
        )
    };
    Ok((flag, own))
}

/// `_cancel`: sets the cancel flag of the handle in `buf`, the one call allowed while
/// another thread uses the handle. It checks the header by plain reads (only `_init` writes
/// it) and touches nothing else but the flag, atomically, so it never forms a reference to
/// memory the running call owns. Errors: those of [`open_handle`].
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes, not prepared meanwhile.
pub(super) unsafe fn cancel_handle(
    buf: *mut c_void,
    len: usize,
    kind: &HandleKind,
) -> Result<(), Error> {
    // SAFETY: forwarded caller guarantee.
    let (flag, _) = unsafe { check_handle(buf, len, kind) }?;
    flag.store(1, Ordering::Relaxed);
    Ok(())
}

/// The checks of [`open_handle`]; the flag and the bytes prepared.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes during `'a`.
unsafe fn check_handle<'a>(
    buf: *mut c_void,
    len: usize,
    kind: &HandleKind,
) -> Result<(&'a AtomicU32, usize), Error> {
    // SAFETY: forwarded caller guarantee.
    let bytes = unsafe { check_header(buf, len, kind.align, kind.magic) }?;
    if bytes < kind.min_len.max(HANDLE_HEAD_BYTES) {
        return Err(Error::NotInitialised);
    }
    // SAFETY: the flag's 4 bytes follow the header inside the `bytes` checked, 4-aligned
    // (the buffer is aligned for the header), live for 'a (caller's contract) and are only
    // ever accessed atomically: every call reaches them through this function (`_init`,
    // which clears them through a plain reference, may overlap no call).
    let flag = unsafe { AtomicU32::from_ptr(buf.cast::<u8>().add(BUFFER_HEADER_BYTES).cast()) };
    Ok((flag, bytes))
}

/// A handle's state at the start of its own bytes, and the bytes after it (from its size
/// rounded up to 8): the area's tree. Errors: `Error::NotInitialised` (too short, which
/// [`open_handle`]'s `min_len` rules out).
///
/// # Safety
/// Any bytes must be a `T` (integers, floats and arrays of them), whose alignment is at
/// most 8; `own` must start 8-aligned (as [`prepare_handle`] and [`open_handle`] give it).
pub(super) unsafe fn handle_state<T>(own: &mut [u8]) -> Result<(&mut T, &mut [u8]), Error> {
    const { assert!(core::mem::align_of::<T>() <= 8) };
    let at = core::mem::size_of::<T>().next_multiple_of(8);
    let (state, rest) = own.split_at_mut_checked(at).ok_or(Error::NotInitialised)?;
    debug_assert!((state.as_ptr() as usize).is_multiple_of(8));
    // SAFETY: `state` holds at least `size_of::<T>()` bytes, aligned (caller's contract),
    // borrowed exclusively for the result's lifetime; any bytes are a `T` (contract).
    Ok((unsafe { &mut *state.as_mut_ptr().cast::<T>() }, rest))
}

const WHY_CANCEL: u32 = 1;
const WHY_DEADLINE: u32 = 2;

/// Which thread this is: a `std` build's thread id; arbor starts no thread without `std`.
#[cfg(feature = "std")]
type ThreadMark = std::thread::ThreadId;
#[cfg(not(feature = "std"))]
type ThreadMark = ();

#[cfg(feature = "std")]
fn this_thread() -> ThreadMark {
    std::thread::current().id()
}

#[cfg(not(feature = "std"))]
fn this_thread() -> ThreadMark {}

/// The deadline of one call.
enum Deadline {
    None,
    /// The caller's clock and the reading at which the call ends: read only on the thread
    /// that made the stop (the calling thread, as `arbor_clock_fn` promises the caller).
    Caller {
        now_us: unsafe extern "C" fn(*mut c_void) -> u64,
        ctx: *mut c_void,
        until: u64,
        owner: ThreadMark,
    },
    /// The `std` build's monotonic clock, which any thread may read.
    #[cfg(feature = "std")]
    Instant(std::time::Instant),
}

// SAFETY: the caller's clock and context are called only on the thread that made the
// deadline (`Deadline::passed` checks the thread in a `std` build; without `std` arbor
// starts no thread, so every poll is on it); other threads only read the plain values.
unsafe impl Sync for Deadline {}

impl Deadline {
    /// Errors: `Error::Unsupported` (a deadline, no clock given and no `std`).
    fn new(limits: &arbor_search_limits) -> Result<Self, Error> {
        if limits.deadline_us == 0 {
            return Ok(Deadline::None);
        }
        if let Some(now_us) = limits.now_us {
            // SAFETY: the caller's contract on `arbor_search_limits.now_us` and `ctx`; this
            // is the calling thread.
            let start = unsafe { now_us(limits.ctx) };
            return Ok(Deadline::Caller {
                now_us,
                ctx: limits.ctx,
                until: start.saturating_add(limits.deadline_us),
                owner: this_thread(),
            });
        }
        #[cfg(feature = "std")]
        {
            let budget = core::time::Duration::from_micros(limits.deadline_us);
            Ok(std::time::Instant::now()
                .checked_add(budget)
                .map_or(Deadline::None, Deadline::Instant))
        }
        #[cfg(not(feature = "std"))]
        {
            Err(Error::Unsupported)
        }
    }

    /// Whether the deadline has passed, as far as this thread can tell: another thread
    /// than the caller's never reads the caller's clock (it learns of the deadline through
    /// the `why` of [`CallStop`]).
    fn passed(&self) -> bool {
        match *self {
            Deadline::None => false,
            Deadline::Caller {
                now_us,
                ctx,
                until,
                owner,
            } => {
                #[cfg(feature = "std")]
                if this_thread() != owner {
                    return false;
                }
                #[cfg(not(feature = "std"))]
                let () = owner;
                // SAFETY: the caller's contract: `now_us` is callable with `ctx` on the
                // calling thread, which this is (checked above, or the only one).
                unsafe { now_us(ctx) >= until }
            }
            #[cfg(feature = "std")]
            Deadline::Instant(until) => std::time::Instant::now() >= until,
        }
    }
}

/// What ends one call of a handle's search: its cancel flag and the limits' deadline,
/// polled before every iteration by each thread of the call through `&CallStop` (the
/// core's `Stop`). What stopped it is recorded atomically in `why`, so that every thread
/// of the call stops with the first, and [`CallStop::finish`] says why.
pub(super) struct CallStop<'a> {
    cancel: &'a AtomicU32,
    why: AtomicU32,
    deadline: Deadline,
}

impl<'a> CallStop<'a> {
    /// Starts the deadline's clock, on the calling thread. Errors: `Error::Unsupported` (a
    /// deadline, no clock given and no `std`).
    pub(super) fn new(limits: &arbor_search_limits, cancel: &'a AtomicU32) -> Result<Self, Error> {
        Ok(CallStop {
            cancel,
            why: AtomicU32::new(0),
            deadline: Deadline::new(limits)?,
        })
    }

    /// A stop for the cancel flag alone.
    pub(super) fn cancel_only(cancel: &'a AtomicU32) -> Self {
        CallStop {
            cancel,
            why: AtomicU32::new(0),
            deadline: Deadline::None,
        }
    }

    /// Whether to stop now (and why, for [`CallStop::finish`]); once true, always true.
    pub(super) fn poll(&self) -> bool {
        if self.why.load(Ordering::Relaxed) != 0 {
            return true;
        }
        if self.cancel.load(Ordering::Relaxed) != 0 {
            self.why.fetch_or(WHY_CANCEL, Ordering::Relaxed);
            return true;
        }
        if self.deadline.passed() {
            self.why.fetch_or(WHY_DEADLINE, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Why the call stopped: `ARBOR_STOP_CANCELLED`, else `ARBOR_STOP_DEADLINE`, else
    /// `ARBOR_STOP_ITERATIONS` (nothing stopped it). A cancel is consumed by the call it
    /// stopped: the flag is cleared.
    pub(super) fn finish(self) -> u32 {
        let why = self.why.into_inner();
        if why & WHY_CANCEL != 0 {
            self.cancel.store(0, Ordering::Relaxed);
            ARBOR_STOP_CANCELLED
        } else if why & WHY_DEADLINE != 0 {
            ARBOR_STOP_DEADLINE
        } else {
            ARBOR_STOP_ITERATIONS
        }
    }
}

impl Stop for &CallStop<'_> {
    #[inline]
    fn stop(&mut self, _: u32) -> bool {
        self.poll()
    }
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
        let stop = CallStop::new(&plain, &flag).unwrap();
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
        let stop = CallStop::new(&plain, &flag).unwrap();
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

    #[test]
    fn a_handle_keeps_its_flag_apart_and_refuses_a_damaged_header() {
        let mut words = [u64::MAX; 8];
        let buf = words.as_mut_ptr().cast::<c_void>();
        let kind = HandleKind {
            magic: magic(b"TEST"),
            align: 8,
            min_len: 40,
        };
        let other = HandleKind {
            magic: magic(b"ELSE"),
            ..kind
        };
        // SAFETY: `words` is 64 bytes, 8-aligned, used by nothing else.
        unsafe {
            let own = prepare_handle(buf, 64, &kind, 0).unwrap();
            assert_eq!(own.len(), 64 - HANDLE_HEAD_BYTES);
            let (state, rest) = handle_state::<u64>(own).unwrap();
            *state = 7;
            assert_eq!(rest.len(), 32);
            let (flag, own) = open_handle(buf, 64, &kind).unwrap();
            assert_eq!(flag.load(Ordering::Relaxed), 0, "cleared by prepare");
            assert_eq!(own[..8], 7u64.to_ne_bytes());
            // `_cancel` while the handle is open: only the flag changes.
            assert_eq!(cancel_handle(buf, 64, &kind), Ok(()));
            assert_eq!(flag.load(Ordering::Relaxed), 1);
            let stop = CallStop::cancel_only(flag);
            assert!(stop.poll());
            assert_eq!(stop.finish(), ARBOR_STOP_CANCELLED);
            assert_eq!(flag.load(Ordering::Relaxed), 0);
            assert_eq!(own[..8], 7u64.to_ne_bytes());

            assert_eq!(
                open_handle(buf, 63, &kind).err(),
                Some(Error::BufferTooSmall)
            );
            assert_eq!(cancel_handle(buf, 64, &other), Err(Error::NotInitialised));
            assert_eq!(
                prepare_handle(buf, 64, &kind, 65).err(),
                Some(Error::BufferTooSmall)
            );
            // A header that says fewer bytes than the kind's least, or than a handle's
            // head: damaged.
            buf.cast::<u64>().add(1).write(32);
            assert_eq!(
                open_handle(buf, 64, &kind).err(),
                Some(Error::NotInitialised)
            );
            let any = HandleKind { min_len: 0, ..kind };
            buf.cast::<u64>().add(1).write(20);
            assert_eq!(
                open_handle(buf, 64, &any).err(),
                Some(Error::NotInitialised)
            );
            assert_eq!(cancel_handle(buf, 64, &any), Err(Error::NotInitialised));
            assert_eq!(
                cancel_handle(core::ptr::null_mut(), 64, &any),
                Err(Error::NullPointer)
            );
        }
    }

    /// The caller's clock of a test: counts its readings, and the readings made on another
    /// thread than `owner`.
    #[cfg(feature = "std")]
    struct TestClock {
        owner: std::thread::ThreadId,
        now: core::sync::atomic::AtomicU64,
        foreign: AtomicU32,
    }

    #[cfg(feature = "std")]
    unsafe extern "C" fn test_clock(ctx: *mut c_void) -> u64 {
        // SAFETY: the test passes a `TestClock` that outlives the stop.
        let clock = unsafe { &*ctx.cast::<TestClock>() };
        if std::thread::current().id() != clock.owner {
            clock.foreign.fetch_add(1, Ordering::Relaxed);
        }
        clock.now.fetch_add(10, Ordering::Relaxed) + 10
    }

    /// Several threads poll one stop (a parallel run): only the calling thread reads the
    /// caller's clock; when it sees the deadline, or any thread sees a cancel, every thread
    /// stops, and `finish` says why.
    #[cfg(feature = "std")]
    #[test]
    fn several_threads_stop_together_and_only_the_caller_reads_its_clock() {
        let clock = TestClock {
            owner: std::thread::current().id(),
            now: core::sync::atomic::AtomicU64::new(0),
            foreign: AtomicU32::new(0),
        };
        let flag = AtomicU32::new(0);
        let mut plain = limits(0);
        plain.deadline_us = 1_000;
        plain.now_us = Some(test_clock);
        plain.ctx = (&clock as *const TestClock).cast_mut().cast();
        let polls_until_stopped = |stop: &CallStop<'_>| {
            let mut polls = 0u64;
            while !stop.poll() {
                polls += 1;
                std::thread::yield_now();
            }
            polls
        };

        // The deadline, seen by the calling thread only.
        let stop = CallStop::new(&plain, &flag).unwrap();
        std::thread::scope(|scope| {
            let workers: std::vec::Vec<_> = (0..3)
                .map(|_| scope.spawn(|| polls_until_stopped(&stop)))
                .collect();
            polls_until_stopped(&stop);
            for worker in workers {
                worker.join().unwrap();
            }
        });
        assert_eq!(clock.foreign.load(Ordering::Relaxed), 0);
        assert!(clock.now.load(Ordering::Relaxed) >= 1_010);
        assert_eq!(stop.finish(), ARBOR_STOP_DEADLINE);

        // A cancel, seen by whichever thread polls first; the deadline is far.
        plain.deadline_us = u64::MAX;
        let stop = CallStop::new(&plain, &flag).unwrap();
        std::thread::scope(|scope| {
            let workers: std::vec::Vec<_> = (0..3)
                .map(|_| scope.spawn(|| polls_until_stopped(&stop)))
                .collect();
            flag.store(1, Ordering::Relaxed);
            for worker in workers {
                worker.join().unwrap();
            }
        });
        assert!(stop.poll(), "stays stopped");
        assert_eq!(clock.foreign.load(Ordering::Relaxed), 0);
        assert_eq!(stop.finish(), ARBOR_STOP_CANCELLED);
        assert_eq!(flag.load(Ordering::Relaxed), 0, "a cancel is consumed");
    }
}
