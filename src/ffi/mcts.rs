//! C ABI of MCTS over Breakthrough: the tree lives in a caller buffer.
//!
//! The buffer is a small header (magic number, capacity, the configuration) followed by
//! the nodes. `arbor_mcts_bytes(capacity)` says how big it must be, `arbor_mcts_init`
//! prepares it, `arbor_mcts_search` searches a position in it, and
//! `arbor_mcts_search_threads` does so on several threads (root parallelism: each thread
//! grows its own tree in an equal share of the buffer, see `Mcts::search_parallel`). Every
//! search starts a fresh tree, so a buffer can serve any sequence of positions (one search
//! at a time).
use core::ffi::c_void;
use core::mem::{align_of, size_of};

use super::arbor_status;
use super::breakthrough::{arbor_breakthrough, read_state};
use crate::breakthrough::{Heuristics, Move};
use crate::search::mcts::{
    Config, MAX_CAPACITY, Mcts, MoGo, Node, Proof, Rave, Selection, Ucb1, node_size, seeded_rng,
};

/// `arbor_mcts_config.policy`: UCB1 (UCT), exploration constant `c`.
pub const ARBOR_MCTS_UCT: u32 = 0;
/// `arbor_mcts_config.policy`: UCT-RAVE, exploration constant `c` and RAVE constant `c1`.
pub const ARBOR_MCTS_RAVE: u32 = 1;
/// `arbor_mcts_config.policy`: the MoGo score with arbor's Breakthrough prior H(d), with
/// `c` (prior weight), `c1` (RAVE) and `c2` (prior fading).
pub const ARBOR_MCTS_MOGO: u32 = 2;

/// `arbor_mcts_stats.root_proof`: nothing proven.
pub const ARBOR_MCTS_PROOF_UNKNOWN: u32 = 0;
/// `arbor_mcts_stats.root_proof`: the side to move loses with best play.
pub const ARBOR_MCTS_PROOF_LOSS: u32 = 1;
/// `arbor_mcts_stats.root_proof`: a forced draw (never in Breakthrough).
pub const ARBOR_MCTS_PROOF_DRAW: u32 = 2;
/// `arbor_mcts_stats.root_proof`: the side to move wins with best play.
pub const ARBOR_MCTS_PROOF_WIN: u32 = 3;

/// Required alignment of an MCTS buffer, in bytes (`malloc` and `alignas(8)` satisfy it).
pub const ARBOR_MCTS_ALIGN: usize = 8;

/// Most threads `arbor_mcts_search_threads` accepts.
pub const ARBOR_MCTS_MAX_THREADS: u32 = 64;
#[cfg(feature = "std")]
const _: () = assert!(ARBOR_MCTS_MAX_THREADS as usize == crate::search::mcts::MAX_SEARCH_THREADS);

/// No playout cutoff (`arbor_mcts_config.playout_cutoff`): playouts run to the end.
pub const ARBOR_MCTS_NO_CUTOFF: u32 = 0xFFFF_FFFF;

/// Search settings. `arbor_mcts_default_config` fills one; change fields after that.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct arbor_mcts_config {
    /// `ARBOR_MCTS_UCT`, `ARBOR_MCTS_RAVE` or `ARBOR_MCTS_MOGO`.
    pub policy: u32,
    /// 1: MCTS-Solver on (proven wins are played, proven losses avoided); 0: off.
    pub solver: u32,
    /// Exploration constant C (UCT, RAVE) or prior weight C (MoGo); finite, >= 0.
    pub c: f64,
    /// RAVE's c1 (RAVE, MoGo); finite, >= 0. Ignored by UCT.
    pub c1: f64,
    /// MoGo's c2; finite, >= 0. Ignored by UCT and RAVE.
    pub c2: f64,
    /// A leaf is expanded once it has had this many visits (0: at first visit).
    pub expand_threshold: u32,
    /// At most this many playout moves (then the game counts as a draw for the backup);
    /// `ARBOR_MCTS_NO_CUTOFF` plays to the end.
    pub playout_cutoff: u32,
}

/// What one search did.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct arbor_mcts_stats {
    /// Iterations run (fewer than asked only when the solver proved the root).
    pub iterations: u32,
    /// Nodes in use at the end, root included.
    pub nodes_used: u32,
    /// Deepest leaf reached, in plies from the root.
    pub max_depth: u32,
    /// 1 if the tree ran out of nodes (the search went on without growing), else 0.
    pub storage_full: u32,
    /// `ARBOR_MCTS_PROOF_*`: the solver's verdict for the side to move.
    pub root_proof: u32,
}

/// The start of an MCTS buffer; the nodes follow it.
#[repr(C)]
#[derive(Clone, Copy)]
struct Header {
    magic: u32,
    capacity: u32,
    config: arbor_mcts_config,
}

/// "ARB1" in little-endian order: marks a buffer prepared by `arbor_mcts_init`.
const MAGIC: u32 = u32::from_le_bytes(*b"ARB1");
const HEADER_BYTES: usize = size_of::<Header>();
// The nodes start right after the header, so it must keep them aligned.
const _: () = assert!(HEADER_BYTES.is_multiple_of(align_of::<Node<Move>>()));
const _: () = assert!(ARBOR_MCTS_ALIGN >= align_of::<Header>());
const _: () = assert!(ARBOR_MCTS_ALIGN.is_multiple_of(align_of::<Node<Move>>()));

impl arbor_mcts_config {
    fn defaults(policy: u32) -> Option<Self> {
        let (c, c1, c2) = match policy {
            ARBOR_MCTS_UCT => (Ucb1::default().c, 0.0, 0.0),
            ARBOR_MCTS_RAVE => (Rave::default().c, Rave::default().c1, 0.0),
            ARBOR_MCTS_MOGO => {
                let m = MoGo::default();
                (m.c, m.c1, m.c2)
            }
            _ => return None,
        };
        let config = Config::default();
        Some(arbor_mcts_config {
            policy,
            solver: u32::from(config.solver),
            c,
            c1,
            c2,
            expand_threshold: config.expand_threshold,
            playout_cutoff: config.playout_cutoff,
        })
    }

    /// The Rust settings, or `None` if a field is out of range.
    fn to_rust(self) -> Option<(Selection, Config)> {
        let ok = |x: f64| x.is_finite() && x >= 0.0;
        if !ok(self.c) || !ok(self.c1) || !ok(self.c2) || self.solver > 1 {
            return None;
        }
        let selection = match self.policy {
            ARBOR_MCTS_UCT => Selection::Ucb1(Ucb1 { c: self.c }),
            ARBOR_MCTS_RAVE => Selection::Rave(Rave {
                c: self.c,
                c1: self.c1,
            }),
            ARBOR_MCTS_MOGO => Selection::MoGo(MoGo {
                c: self.c,
                c1: self.c1,
                c2: self.c2,
            }),
            _ => return None,
        };
        let config = Config {
            expand_threshold: self.expand_threshold,
            playout_cutoff: self.playout_cutoff,
            solver: self.solver == 1,
            ..Config::default()
        };
        Some((selection, config))
    }
}

/// Fills `*out` with the default settings of `policy` (`ARBOR_MCTS_UCT`: C = 1/sqrt(2);
/// `ARBOR_MCTS_RAVE`: C = 0, c1 = 0.01; `ARBOR_MCTS_MOGO`: C = 1, c1 = 0.01, c2 = 1), the
/// solver on, expansion at first visit, no playout cutoff.
///
/// `out` is caller-owned and written during the call only; unchanged on error.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (unknown policy).
///
/// # Safety
/// `out` must be NULL or valid for one write of `arbor_mcts_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_mcts_default_config(
    policy: u32,
    out: *mut arbor_mcts_config,
) -> arbor_status {
    if out.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    match arbor_mcts_config::defaults(policy) {
        Some(config) => {
            // SAFETY: non-NULL and writable by the caller's guarantee; unaligned is allowed.
            unsafe { out.write_unaligned(config) };
            arbor_status::ARBOR_OK
        }
        None => arbor_status::ARBOR_INVALID_ARGUMENT,
    }
}

/// Bytes of a buffer for an MCTS tree of `capacity` nodes (a small header plus 40 bytes a
/// node), or 0 if `capacity` is 0 or the size does not fit `size_t`.
///
/// A search expands at most one node per iteration, adding at most
/// `ARBOR_BREAKTHROUGH_MAX_MOVES` (48) nodes, so `48 * iterations + 1` nodes never fill;
/// with fewer, the search keeps refining the tree it has and reports `storage_full`.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_mcts_bytes(capacity: u32) -> usize {
    if capacity == 0 {
        return 0;
    }
    (capacity as usize)
        .checked_mul(node_size::<Move>())
        .and_then(|nodes| nodes.checked_add(HEADER_BYTES))
        .filter(|&bytes| bytes <= isize::MAX as usize)
        .unwrap_or(0)
}

/// Checks a buffer pointer and length: non-NULL, aligned, room for a header and a node.
fn check_buffer(buf: *const c_void, len: usize) -> Result<usize, arbor_status> {
    if buf.is_null() {
        return Err(arbor_status::ARBOR_NULL_POINTER);
    }
    if !(buf as usize).is_multiple_of(ARBOR_MCTS_ALIGN) {
        return Err(arbor_status::ARBOR_INVALID_ARGUMENT);
    }
    if len > isize::MAX as usize {
        return Err(arbor_status::ARBOR_INVALID_LENGTH);
    }
    let capacity = len.saturating_sub(HEADER_BYTES) / node_size::<Move>();
    if len < HEADER_BYTES || capacity == 0 {
        return Err(arbor_status::ARBOR_BUFFER_TOO_SMALL);
    }
    Ok(capacity.min(MAX_CAPACITY))
}

/// Prepares the caller's buffer `buf` of `len` bytes for MCTS searches with the settings
/// `*config` (copied into the buffer), and writes the number of nodes it holds to
/// `*out_capacity` if that is not NULL. The nodes are zeroed: O(len).
///
/// The buffer stays owned by the caller, who frees it (arbor keeps no pointer to it after
/// the call); it must be aligned to `ARBOR_MCTS_ALIGN` (8) bytes and should be
/// `arbor_mcts_bytes(capacity)` long. On error nothing is written.
/// Errors: `ARBOR_NULL_POINTER` (`buf` or `config`), `ARBOR_INVALID_ARGUMENT` (misaligned
/// `buf`, unknown policy, `solver` not 0 or 1, a constant negative or not finite),
/// `ARBOR_INVALID_LENGTH` (`len` above `PTRDIFF_MAX`), `ARBOR_BUFFER_TOO_SMALL` (no room for
/// the header and one node).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `config` NULL or readable; `out_capacity`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_mcts_init(
    buf: *mut c_void,
    len: usize,
    config: *const arbor_mcts_config,
    out_capacity: *mut u32,
) -> arbor_status {
    if config.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let capacity = match check_buffer(buf, len) {
        Ok(capacity) => capacity,
        Err(status) => return status,
    };
    // SAFETY: non-NULL and readable by the caller's guarantee; all bit patterns of its
    // integer and float fields are values.
    let config = unsafe { config.read_unaligned() };
    if config.to_rust().is_none() {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    let header = Header {
        magic: MAGIC,
        capacity: capacity as u32,
        config,
    };
    let node_bytes = capacity * node_size::<Move>();
    // SAFETY: `buf` is non-NULL, aligned for `Header`, and valid for `len` >= HEADER_BYTES +
    // node_bytes writes (check_buffer), so both writes stay inside it.
    unsafe {
        buf.cast::<Header>().write(header);
        core::ptr::write_bytes(buf.cast::<u8>().add(HEADER_BYTES), 0, node_bytes);
    }
    if !out_capacity.is_null() {
        // SAFETY: non-NULL and writable by the caller's guarantee.
        unsafe { out_capacity.write_unaligned(capacity as u32) };
    }
    arbor_status::ARBOR_OK
}

/// Searches the position `*state` for `iterations` MCTS iterations in the buffer `buf`
/// (`len` bytes, prepared by `arbor_mcts_init`), with all randomness from `seed`, and writes
/// the chosen move (packed as `arbor_breakthrough_legal_moves` lists them) to `*out_move`
/// and, if `out_stats` is not NULL, what the search did to `*out_stats`.
///
/// The same buffer settings, position, iterations and seed give the same move and
/// statistics on every platform. Each search starts a fresh tree in the buffer. With 0
/// iterations the move is a uniformly random legal one. The buffer is caller-owned and used
/// during the call only; one search at a time per buffer.
/// On error nothing is written to `*out_move` or `*out_stats`.
/// Errors: `ARBOR_NULL_POINTER` (`buf`, `state` or `out_move`), `ARBOR_INVALID_ARGUMENT`
/// (misaligned or uninitialised buffer, a buffer shorter than when it was initialised,
/// settings changed to invalid values, an invalid position, or a game that is already over),
/// `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes and not used by anyone else
/// during the call; `state` NULL or readable; `out_move` and `out_stats` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_mcts_search(
    buf: *mut c_void,
    len: usize,
    state: *const arbor_breakthrough,
    iterations: u32,
    seed: u64,
    out_move: *mut u16,
    out_stats: *mut arbor_mcts_stats,
) -> arbor_status {
    // SAFETY: forwarded caller guarantee.
    unsafe { search_buffer(buf, len, state, iterations, 1, seed, out_move, out_stats) }
}

/// `arbor_mcts_search` on `threads` threads (1 to `ARBOR_MCTS_MAX_THREADS`) by root
/// parallelism: the buffer's nodes are split into `threads` equal parts (fewer threads if
/// it holds fewer nodes than that), thread k searches a fresh tree in part k for
/// `iterations` iterations with a generator seeded from the k-th number drawn from `seed`,
/// and the move is chosen from the root children's statistics summed over the threads
/// (a move proven won by any thread is played). Size the buffer for `threads` trees:
/// `arbor_mcts_bytes(threads * (48 * iterations + 1))` never fills.
///
/// With `threads == 1` this is `arbor_mcts_search`, bit for bit. The same buffer settings,
/// capacity, position, iterations, seed and thread count give the same move and statistics
/// on every platform, however the threads are scheduled. `*out_stats` gives totals over the
/// threads: `iterations` and `nodes_used` summed, `max_depth` the deepest, `storage_full`
/// if any thread filled its part, `root_proof` what any thread proved. The call returns
/// when every thread is done; arbor keeps no thread afterwards.
/// Errors: as `arbor_mcts_search`, and `ARBOR_INVALID_ARGUMENT` when `threads` is 0 or above
/// `arbor_mcts_max_threads()` (`ARBOR_MCTS_MAX_THREADS`, or 1 in a build without the `std`
/// feature, which has no threads).
///
/// # Safety
/// As `arbor_mcts_search`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn arbor_mcts_search_threads(
    buf: *mut c_void,
    len: usize,
    state: *const arbor_breakthrough,
    iterations: u32,
    threads: u32,
    seed: u64,
    out_move: *mut u16,
    out_stats: *mut arbor_mcts_stats,
) -> arbor_status {
    // SAFETY: forwarded caller guarantee.
    unsafe {
        search_buffer(
            buf, len, state, iterations, threads, seed, out_move, out_stats,
        )
    }
}

/// The most threads `arbor_mcts_search_threads` accepts in this build:
/// `ARBOR_MCTS_MAX_THREADS` when the library was built with the `std` feature (the
/// default), 1 without it (a no_std build has no threads). Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_mcts_max_threads() -> u32 {
    if cfg!(feature = "std") {
        ARBOR_MCTS_MAX_THREADS
    } else {
        1
    }
}

/// The body of both searches.
///
/// # Safety
/// As `arbor_mcts_search`.
#[allow(clippy::too_many_arguments)]
unsafe fn search_buffer(
    buf: *mut c_void,
    len: usize,
    state: *const arbor_breakthrough,
    iterations: u32,
    threads: u32,
    seed: u64,
    out_move: *mut u16,
    out_stats: *mut arbor_mcts_stats,
) -> arbor_status {
    if out_move.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if threads == 0 || threads > arbor_mcts_max_threads() {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    let room = match check_buffer(buf, len) {
        Ok(capacity) => capacity,
        Err(status) => return status,
    };
    // SAFETY: forwarded caller guarantee.
    let position = match unsafe { read_state(state) } {
        Ok(position) => position,
        Err(error) => return error.into(),
    };
    // SAFETY: `buf` is non-NULL, aligned and holds at least HEADER_BYTES readable bytes
    // (check_buffer); the header's fields are plain numbers, valid for any bits.
    let header = unsafe { buf.cast::<Header>().read() };
    let capacity = header.capacity as usize;
    if header.magic != MAGIC || capacity == 0 || capacity > room {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    let Some((selection, config)) = header.config.to_rust() else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    if position.is_over() {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    // SAFETY: the nodes start HEADER_BYTES into the buffer, a multiple of their alignment
    // (asserted at compile time) from an ARBOR_MCTS_ALIGN-aligned start; `capacity` nodes fit
    // in `len` bytes (capacity <= room); the caller gives us exclusive use of the buffer for
    // the call. The bytes were initialised by arbor_mcts_init or a previous search, and every
    // field of a node is a plain integer or float (the move a u16), valid for any bits; a
    // fresh tree also writes each node before reading it.
    let nodes = unsafe {
        core::slice::from_raw_parts_mut(
            buf.cast::<u8>().add(HEADER_BYTES).cast::<Node<Move>>(),
            capacity,
        )
    };
    let mut tree = Mcts::new(nodes);
    let mut rng = seeded_rng(seed);
    let searched = tree.search_on_threads(
        &position,
        &selection,
        &Heuristics,
        &config,
        iterations,
        threads as usize,
        &mut rng,
    );
    let result = match searched {
        Ok(result) => result,
        Err(error) => return error.into(),
    };
    let Some(best) = result.best else {
        // Unreachable for an ongoing position; reported rather than assumed.
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    // SAFETY: non-NULL and writable by the caller's guarantee.
    unsafe { out_move.write_unaligned(best.to_u16()) };
    if !out_stats.is_null() {
        let stats = result.stats;
        let proof = match stats.root_proof {
            Proof::Unknown => ARBOR_MCTS_PROOF_UNKNOWN,
            Proof::Loss => ARBOR_MCTS_PROOF_LOSS,
            Proof::Draw => ARBOR_MCTS_PROOF_DRAW,
            Proof::Win => ARBOR_MCTS_PROOF_WIN,
        };
        let out = arbor_mcts_stats {
            iterations: stats.iterations,
            nodes_used: stats.nodes_used,
            max_depth: stats.max_depth,
            storage_full: u32::from(stats.storage_full),
            root_proof: proof,
        };
        // SAFETY: non-NULL and writable by the caller's guarantee.
        unsafe { out_stats.write_unaligned(out) };
    }
    arbor_status::ARBOR_OK
}
