//! C ABI of the anytime Breakthrough search: a handle in a caller buffer that keeps an MCTS
//! tree, its root position, its generator and its settings between calls.
//!
//! `arbor_breakthrough_search_bytes` sizes the buffer, `arbor_breakthrough_search_init`
//! prepares it for a position, `arbor_breakthrough_search_run` grows the tree for as many
//! iterations, or as long, as the `arbor_search_limits` of the call allow (a frame's budget)
//! and may be stopped from another thread by `arbor_breakthrough_search_cancel`;
//! `arbor_breakthrough_search_best` reads the progress without searching,
//! `arbor_breakthrough_search_play` advances the root by a move played and keeps the subtree
//! below it. `k` runs of `n` iterations on one thread give exactly one run of `k · n`.
//!
//! Layout of the buffer (every offset a multiple of 8 from an 8-aligned start): the 24 bytes
//! every handle begins with (search.rs: the buffer header with magic `BTSH`, then the cancel
//! flag), the handle's state ([`State`], 120 bytes), then the tree's 40-byte nodes. Every
//! call opens it through search.rs, which never forms a reference over the flag but the
//! atomic one, so `_cancel` may store into it while they run.
use core::ffi::c_void;
use core::mem::{align_of, size_of};
use core::sync::atomic::AtomicU32;

use rand_xorshift::XorShiftRng;

use super::arbor_status;
use super::boundary::{Out, Plain, boundary, check_version, magic, read_in, report_bytes};
use super::breakthrough::{arbor_breakthrough, read_state};
use super::search::{
    ARBOR_SEARCH_NO_MOVE, ARBOR_STOP_CANCELLED, ARBOR_STOP_DONE, CallStop, HANDLE_HEAD_BYTES,
    HandleKind, arbor_search_limits, arbor_search_progress, cancel_handle, check_limits,
    handle_state, max_iterations, open_handle, prepare_handle,
};
use super::status::ARBOR_ABI_VERSION;
use crate::Error;
use crate::breakthrough::{Color, Heuristics, Move, Position, Size};
use crate::search::mcts::{
    Config, MAX_CAPACITY, Mcts, MoGo, Node, Proof, Rave, Selection, TreeParts, Ucb1, node_size,
    seeded_rng,
};

/// `arbor_breakthrough_search_config.policy`: UCB1 (UCT), exploration constant `c`.
pub const ARBOR_BREAKTHROUGH_SEARCH_UCT: u32 = 0;
/// `policy`: UCT-RAVE, exploration constant `c` and RAVE constant `c1`.
pub const ARBOR_BREAKTHROUGH_SEARCH_RAVE: u32 = 1;
/// `policy`: the MoGo score with arbor's Breakthrough prior H(d), with `c` (prior weight),
/// `c1` (RAVE) and `c2` (prior fading).
pub const ARBOR_BREAKTHROUGH_SEARCH_MOGO: u32 = 2;

/// `arbor_breakthrough_search_config.playout_cutoff`: playouts run to the end of the game.
pub const ARBOR_BREAKTHROUGH_SEARCH_NO_CUTOFF: u32 = 0xFFFF_FFFF;

/// `arbor_breakthrough_search_stats.root_proof`: nothing proven.
pub const ARBOR_BREAKTHROUGH_SEARCH_PROOF_UNKNOWN: u32 = 0;
/// `root_proof`: the side to move wins with best play (the best move is the win).
pub const ARBOR_BREAKTHROUGH_SEARCH_PROOF_WIN: u32 = 1;
/// `root_proof`: the side to move loses with best play.
pub const ARBOR_BREAKTHROUGH_SEARCH_PROOF_LOSS: u32 = 2;

/// Alignment of a search handle buffer, in bytes (`malloc` and `alignas(8)` satisfy it).
pub const ARBOR_BREAKTHROUGH_SEARCH_ALIGN: usize = 8;
/// Stack, in bytes, that every `arbor_breakthrough_search_*` call on one thread (UCT, RAVE, MoGo on 8x8) needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 3,448 bytes without std, 11,480 with std (its thread and clock paths), including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_BREAKTHROUGH_SEARCH_STACK_BYTES: usize = 16384;

/// Most threads `arbor_breakthrough_search_run` accepts in a build with threads; see
/// `arbor_breakthrough_search_max_threads`.
pub const ARBOR_BREAKTHROUGH_SEARCH_MAX_THREADS: u32 = 64;
#[cfg(feature = "std")]
const _: () = assert!(
    ARBOR_BREAKTHROUGH_SEARCH_MAX_THREADS as usize == crate::search::mcts::MAX_SEARCH_THREADS
);

/// Bytes of a handle buffer before its nodes (header, cancel flag, state); a buffer of
/// `capacity` nodes is `ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES + 40 * capacity` bytes.
pub const ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES: usize = 144;
const _: () = assert!(ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES == NODES_OFFSET);

/// Bytes of a tree node in a handle buffer.
pub const ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES: usize = 40;
const _: () = assert!(ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES == node_size::<Move>());

/// Search settings, kept in the handle by `arbor_breakthrough_search_init`. Fill it with
/// `arbor_breakthrough_search_default_config`, then change fields. 48 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct arbor_breakthrough_search_config {
    /// Written by `arbor_breakthrough_search_default_config`; a struct not filled by it is
    /// refused.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// Exploration constant C (UCT, RAVE) or prior weight C (MoGo); finite, >= 0.
    pub c: f64,
    /// RAVE's c1 (RAVE, MoGo); finite, >= 0. Ignored by UCT.
    pub c1: f64,
    /// MoGo's c2; finite, >= 0. Ignored by UCT and RAVE.
    pub c2: f64,
    /// `ARBOR_BREAKTHROUGH_SEARCH_UCT`, `_RAVE` or `_MOGO`.
    pub policy: u32,
    /// 1: MCTS-Solver on (proven wins are played, proven losses avoided, and a run stops
    /// once the root is proven); 0: off.
    pub solver: u32,
    /// A leaf is expanded once it has had this many visits (0: at first visit).
    pub expand_threshold: u32,
    /// At most this many playout moves, after which the playout counts as a draw;
    /// `ARBOR_BREAKTHROUGH_SEARCH_NO_CUTOFF` plays to the end.
    pub playout_cutoff: u32,
}

/// Bytes of `arbor_breakthrough_search_config`.
pub const ARBOR_BREAKTHROUGH_SEARCH_CONFIG_BYTES: usize = 48;
const _: () = assert!(
    size_of::<arbor_breakthrough_search_config>() == ARBOR_BREAKTHROUGH_SEARCH_CONFIG_BYTES
);

// SAFETY: `#[repr(C)]`, u32 and f64 fields only, 48 bytes with no padding (asserted above:
// 8 + 24 + 16): every bit pattern is a value.
unsafe impl Plain for arbor_breakthrough_search_config {}

/// What the tree of a handle holds (`arbor_breakthrough_search_tree_stats`), for sizing the
/// buffer and for the solver's verdict. 16 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct arbor_breakthrough_search_stats {
    /// Nodes in use, root included.
    pub nodes_used: u32,
    /// Nodes the buffer holds.
    pub capacity_nodes: u32,
    /// 1 if a run since `_init` or the last `_play` found no room to expand a leaf (it went
    /// on refining the tree it had), else 0.
    pub storage_full: u32,
    /// `ARBOR_BREAKTHROUGH_SEARCH_PROOF_*`: the solver's verdict for the side to move.
    pub root_proof: u32,
}

/// Bytes of `arbor_breakthrough_search_stats`.
pub const ARBOR_BREAKTHROUGH_SEARCH_STATS_BYTES: usize = 16;
const _: () =
    assert!(size_of::<arbor_breakthrough_search_stats>() == ARBOR_BREAKTHROUGH_SEARCH_STATS_BYTES);

const CONFIG_MAGIC: u32 = magic(b"BTSC");
const HANDLE_MAGIC: u32 = magic(b"BTSH");

/// The handle's state, after the head every handle has (search.rs). Plain numbers only, so any
/// bytes are a `State`; every field is validated when a handle is opened ([`Opened`]).
#[repr(C)]
#[derive(Clone, Copy)]
struct State {
    config: arbor_breakthrough_search_config,
    /// Iterations run on this root since `_init` or the last `_play`.
    iterations: u64,
    /// The root position's pawns.
    white: u64,
    black: u64,
    /// `TreeParts::root_key`, if `has_root_key` is 1.
    root_key: u64,
    /// The generator's state (never all zero).
    rng: [u32; 4],
    /// `TreeParts::len`.
    tree_len: u32,
    has_root_key: u32,
    /// `iterations_this_call` and `stop_reason` of the last run on this root (0 before one).
    last_iterations: u32,
    last_reason: u32,
    columns: u8,
    rows: u8,
    /// 0 White, 1 Black.
    turn: u8,
    /// 1 once a run on this root filled the storage.
    storage_full: u8,
    reserved: u32,
}

const STATE_BYTES: usize = 120;
const _: () = assert!(size_of::<State>() == STATE_BYTES);
/// The state follows the head of every handle (header and cancel flag, 24 bytes).
const STATE_OFFSET: usize = HANDLE_HEAD_BYTES;
const NODES_OFFSET: usize = STATE_OFFSET + STATE_BYTES;
const _: () = assert!(STATE_OFFSET == 24);
const _: () = assert!(STATE_OFFSET.is_multiple_of(align_of::<State>()));
const _: () = assert!(NODES_OFFSET.is_multiple_of(align_of::<Node<Move>>()));
const _: () = assert!(ARBOR_BREAKTHROUGH_SEARCH_ALIGN >= align_of::<State>());
const _: () = assert!(ARBOR_BREAKTHROUGH_SEARCH_ALIGN.is_multiple_of(align_of::<Node<Move>>()));
/// A prepared handle holds at least one node.
const MIN_BYTES: usize = NODES_OFFSET + ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES;
const HANDLE: HandleKind = HandleKind {
    magic: HANDLE_MAGIC,
    align: ARBOR_BREAKTHROUGH_SEARCH_ALIGN,
    min_len: MIN_BYTES,
};

impl arbor_breakthrough_search_config {
    fn defaults(policy: u32) -> Option<Self> {
        let (c, c1, c2) = match policy {
            ARBOR_BREAKTHROUGH_SEARCH_UCT => (Ucb1::default().c, 0.0, 0.0),
            ARBOR_BREAKTHROUGH_SEARCH_RAVE => (Rave::default().c, Rave::default().c1, 0.0),
            ARBOR_BREAKTHROUGH_SEARCH_MOGO => {
                let m = MoGo::default();
                (m.c, m.c1, m.c2)
            }
            _ => return None,
        };
        let config = Config::default();
        Some(arbor_breakthrough_search_config {
            magic: CONFIG_MAGIC,
            version: ARBOR_ABI_VERSION,
            c,
            c1,
            c2,
            policy,
            solver: u32::from(config.solver),
            expand_threshold: config.expand_threshold,
            playout_cutoff: config.playout_cutoff,
        })
    }

    /// The Rust settings. Errors: `NotInitialised`, `WrongVersion` (magic and version), then
    /// `InvalidArgument` (a field out of range).
    fn to_rust(self) -> Result<(Selection, Config), Error> {
        check_version(self.magic, self.version, CONFIG_MAGIC)?;
        let ok = |x: f64| x.is_finite() && x >= 0.0;
        if !ok(self.c) || !ok(self.c1) || !ok(self.c2) || self.solver > 1 {
            return Err(Error::InvalidArgument);
        }
        let selection = match self.policy {
            ARBOR_BREAKTHROUGH_SEARCH_UCT => Selection::Ucb1(Ucb1 { c: self.c }),
            ARBOR_BREAKTHROUGH_SEARCH_RAVE => Selection::Rave(Rave {
                c: self.c,
                c1: self.c1,
            }),
            ARBOR_BREAKTHROUGH_SEARCH_MOGO => Selection::MoGo(MoGo {
                c: self.c,
                c1: self.c1,
                c2: self.c2,
            }),
            _ => return Err(Error::InvalidArgument),
        };
        let config = Config {
            expand_threshold: self.expand_threshold,
            playout_cutoff: self.playout_cutoff,
            solver: self.solver == 1,
            ..Config::default()
        };
        Ok((selection, config))
    }
}

/// Fills `*out_config` with the default settings of `policy`
/// (`ARBOR_BREAKTHROUGH_SEARCH_UCT`: C = 1/sqrt(2); `_RAVE`: C = 0, c1 = 0.01; `_MOGO`:
/// C = 1, c1 = 0.01, c2 = 1), the solver on, expansion at first visit, no playout cutoff.
///
/// `out_config` is caller-owned and written during the call only.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (unknown policy).
///
/// # Safety
/// `out_config` must be NULL or valid for one write of `arbor_breakthrough_search_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_default_config(
    policy: u32,
    out_config: *mut arbor_breakthrough_search_config,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_config) }?;
        let config =
            arbor_breakthrough_search_config::defaults(policy).ok_or(Error::InvalidArgument)?;
        out.write(config);
        Ok(())
    })
}

/// Writes to `*out_bytes` the size of a handle buffer whose tree holds `capacity_nodes`
/// nodes for each of `threads` threads: `ARBOR_BREAKTHROUGH_SEARCH_HEAD_BYTES` (144) plus 40
/// bytes a node, nothing more.
///
/// How many nodes: an iteration expands at most one leaf, adding one node per legal move
/// there, so a run of `N` iterations from a fresh root adds at most `N * m` nodes, `m` the
/// most legal moves of a position: 3 per pawn, at most 48 (8 columns), 36 (6), 30 (5).
/// `arbor_breakthrough_search_nodes_for_iterations` computes `1 + N * m` for a position
/// (it never fills). Real trees are smaller, because leaves have fewer moves than that and
/// the solver stops expanding proven lines: from the 8x8 start, 10,000 iterations with the
/// default settings use 23–26 nodes an iteration (UCT 23.2, RAVE 25.3, MoGo 23.8: 48–53 %
/// of `1 + 48 N`), from the 6x5 start about 15 (of 36: 41–43 %), measured by the unit test
/// `typical_trees_use_a_share_of_the_bound`. So `27 * N` nodes (8x8) or `17 * N` (6x5) is
/// a realistic size that rarely fills, half the bound; a tree that fills goes on searching
/// without growing (`storage_full` in `arbor_breakthrough_search_tree_stats` says so). A
/// tree kept by `_play` brings its subtree's nodes along.
///
/// With `threads` > 1 a run splits the nodes into `threads` equal trees (root
/// parallelism), hence the product.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (`capacity_nodes` 0, `threads` 0
/// or above `arbor_breakthrough_search_max_threads()`, more than 2^32 - 1 nodes in all, or
/// a size above `PTRDIFF_MAX`).
///
/// # Safety
/// `out_bytes` must be NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_bytes(
    capacity_nodes: u32,
    threads: u32,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        let bytes = if capacity_nodes == 0 || !threads_supported(threads) {
            None
        } else {
            (capacity_nodes as usize)
                .checked_mul(threads as usize)
                .filter(|&nodes| nodes <= MAX_CAPACITY)
                .and_then(|nodes| nodes.checked_mul(ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES))
                .and_then(|nodes| nodes.checked_add(NODES_OFFSET))
        };
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// Writes to `*out_nodes` the nodes a tree grown from a fresh root at `*position` needs so
/// that `iterations` iterations never fill it: `1 + iterations * 3 * p`, `p` the larger
/// pawn count of the two sides (a pawn has at most 3 moves, and pawns are only ever
/// captured). Typical trees use about half of it (see `arbor_breakthrough_search_bytes`).
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (an invalid position, or more than
/// 2^32 - 1 nodes), `ARBOR_GAME_OVER` (nothing to search).
///
/// # Safety
/// `position` must be NULL or readable; `out_nodes` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_nodes_for_iterations(
    position: *const arbor_breakthrough,
    iterations: u32,
    out_nodes: *mut u32,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_nodes) }?;
        // SAFETY: as above.
        let position = unsafe { read_position(position) }?;
        if position.is_over() {
            return Err(Error::GameOver);
        }
        let pawns = position
            .pawns(Color::White)
            .count_ones()
            .max(position.pawns(Color::Black).count_ones());
        let nodes = u64::from(iterations) * 3 * u64::from(pawns) + 1;
        let nodes = u32::try_from(nodes).map_err(|_| Error::InvalidArgument)?;
        out.write(nodes);
        Ok(())
    })
}

/// Prepares the caller's buffer `buf` of `len` bytes as a search handle for `*position`,
/// with the settings `*config` (copied into it) and all randomness from `seed`: the tree is
/// empty, the iteration count 0, the cancel flag clear. The nodes are zeroed: O(len).
///
/// The buffer stays owned by the caller, who frees it (arbor keeps no pointer to it); it
/// must be aligned to `ARBOR_BREAKTHROUGH_SEARCH_ALIGN` and should be
/// `arbor_breakthrough_search_bytes` long (any length from 184 bytes, one node, works; the
/// nodes are what fits). Must not overlap any other call on the same buffer, `_cancel`
/// included.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf`, `config`, `position`), `ARBOR_NOT_INITIALISED` /
/// `ARBOR_WRONG_VERSION` (`config` not filled by `_default_config` of this version),
/// `ARBOR_INVALID_ARGUMENT` (unknown policy, `solver` not 0 or 1, a constant negative or not
/// finite, an invalid position), `ARBOR_GAME_OVER` (the position is won), `ARBOR_MISALIGNED`,
/// `ARBOR_INVALID_LENGTH` (`len` above `PTRDIFF_MAX`), `ARBOR_BUFFER_TOO_SMALL` (no room
/// for one node). Nothing is written on error.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes, used by nothing else during the call;
/// `config` and `position` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_init(
    buf: *mut c_void,
    len: usize,
    config: *const arbor_breakthrough_search_config,
    position: *const arbor_breakthrough,
    seed: u64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let config = unsafe { read_in(config) }?;
        config.to_rust()?;
        // SAFETY: as above.
        let position = unsafe { read_position(position) }?;
        if position.is_over() {
            return Err(Error::GameOver);
        }
        let mut state = State {
            config,
            iterations: 0,
            white: 0,
            black: 0,
            root_key: 0,
            rng: rng_words(&seeded_rng(seed)),
            tree_len: 0,
            has_root_key: 0,
            last_iterations: 0,
            last_reason: 0,
            columns: 0,
            rows: 0,
            turn: 0,
            storage_full: 0,
            reserved: 0,
        };
        state.set_position(&position);
        state.set_tree(TreeParts::default());
        // SAFETY: forwarded caller guarantee (exclusive use of `len` writable bytes).
        let own = unsafe { prepare_handle(buf, len, &HANDLE, 0) }?;
        // The state, then the nodes (at least one, checked by prepare_handle), zeroed.
        own.fill(0);
        // SAFETY: as in `open`.
        let (slot, _) = unsafe { handle_state::<State>(own) }?;
        *slot = state;
        Ok(())
    })
}

/// Grows the handle's tree until the first of: `limits->max_iterations` iterations in this
/// call (per thread; 0 for no limit), `limits->deadline_us` microseconds since the call
/// began, a cancel (`arbor_breakthrough_search_cancel`, from any thread, also one made
/// before this call), or the solver proving the root. Writes the progress to `*out_progress`:
/// iterations on this root so far and in this call, why it stopped (`ARBOR_STOP_ITERATIONS`,
/// `_DEADLINE`, `_CANCELLED`, `_DONE` for a proven root, which no further run changes), the
/// move the search would play now (`ARBOR_SEARCH_NO_MOVE` while the root has no children:
/// a first run of 0 iterations, or a buffer too small to expand the root), its visits and
/// mean reward for the side to move, and the root's visits.
///
/// Resumable: on one thread, `k` runs of `n` iterations give exactly the tree, the progress
/// and the move of one run of `k · n` (same buffer size, settings, position and seed).
/// With `threads` > 1 (root parallelism, 1 to `arbor_breakthrough_search_max_threads()`),
/// each run starts afresh: the tree is split into `threads` trees of equal share that each
/// run up to `max_iterations`, with generators drawn from the handle's; their root
/// statistics are summed. The handle then keeps the first thread's tree with the summed
/// root statistics (a later run on 1 thread continues it) and counts this run's iterations
/// only. The same buffer size, settings, position, seed and thread count give the same
/// result whatever the scheduler does, unless a deadline or cancel ends the run.
///
/// Deadline: measured by `limits->now_us(limits->ctx)` if set (called on the calling
/// thread only, about once per iteration), else by the monotonic clock of a `std` build;
/// a `no_std` build without `now_us` refuses a deadline with `ARBOR_UNSUPPORTED`. A run
/// overruns it by at most one iteration (a few microseconds, see below). The cancel flag
/// stays set until a run returns `ARBOR_STOP_CANCELLED`, which clears it, so a cancel made
/// just before a run is not lost.
///
/// Speed (8x8, from the start, default settings, one thread, a fresh handle, 10,000
/// iterations: `cargo bench --bench breakthrough -- c_handle`, 2026-11-24, a 2-core machine
/// at load 4): UCT 386, RAVE 185, MoGo 222 iterations a millisecond (2.6, 5.4 and 4.5 µs an
/// iteration); later positions are faster (shorter playouts). A 16 ms frame thus holds about
/// 6,000 UCT, 2,900 RAVE or 3,500 MoGo iterations, less the call's check below; a deadline
/// is the simpler budget.
///
/// Every call that opens the handle (this one, `_play`, `_best`, `_tree_stats`) first checks
/// the tree's structure (`Mcts::from_tree_parts`), O(nodes in use), and that counts against
/// the deadline: measured 0.37 ms at 69,000 nodes and 1.3 ms at 232,000 (5–6 ns a node while
/// the tree fits the cache), 15 ms at 712,000 and 57 ms at 2.4 million (21–24 ns a node).
/// So a search spread over frames should keep its tree to a few hundred thousand nodes (the
/// buffer's size caps it; a full tree goes on searching without growing); a longer think
/// is one run on a worker thread, ended by a deadline or `_cancel`.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf`, `limits`, `out_progress`), `ARBOR_NOT_INITIALISED` /
/// `ARBOR_WRONG_VERSION` (`limits` not filled by `arbor_search_limits_init`; a buffer not
/// prepared by `_init` or damaged: any of its fields out of range, or nodes that do not
/// form a tree), `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`
/// (`len` shorter than at `_init`), `ARBOR_INVALID_ARGUMENT` (`threads` 0 or too many),
/// `ARBOR_UNSUPPORTED` (a deadline without a clock in a `no_std` build), `ARBOR_GAME_OVER`
/// (the root position is won). On error neither `*out_progress` nor the handle is changed.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes, used by no other call during
/// this one except `arbor_breakthrough_search_cancel`; `limits` NULL or readable, its
/// `now_us` NULL or a function callable with its `ctx`; `out_progress` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_run(
    buf: *mut c_void,
    len: usize,
    limits: *const arbor_search_limits,
    threads: u32,
    out_progress: *mut arbor_search_progress,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_progress) }?;
        // SAFETY: as above.
        let limits = unsafe { read_in(limits) }?;
        check_limits(&limits)?;
        if !threads_supported(threads) {
            return Err(Error::InvalidArgument);
        }
        // SAFETY: forwarded caller guarantee.
        let handle = unsafe { open(buf, len) }?;
        // The deadline counts from here, so the tree's check below counts against it.
        let stop = CallStop::new(&limits, handle.cancel)?;
        let Opened {
            state,
            mut tree,
            position,
            selection,
            config,
            mut rng,
        } = handle.load()?;
        if position.is_over() {
            return Err(Error::GameOver);
        }

        let parallel = threads > 1 && tree.capacity() > 1;
        let result = tree.search_on_threads_until(
            &position,
            &selection,
            &Heuristics,
            &config,
            max_iterations(&limits),
            threads as usize,
            &stop,
            &mut rng,
        )?;

        let done = result.stats.iterations;
        let reason = match stop.finish() {
            ARBOR_STOP_CANCELLED => ARBOR_STOP_CANCELLED,
            _ if config.solver && tree.root_proof() != Proof::Unknown => ARBOR_STOP_DONE,
            why => why,
        };
        state.iterations = if parallel {
            u64::from(done)
        } else {
            state.iterations.saturating_add(u64::from(done))
        };
        state.rng = rng_words(&rng);
        state.set_tree(tree.parts());
        state.last_iterations = done;
        state.last_reason = reason;
        state.storage_full |= u8::from(result.stats.storage_full);
        out.write(progress(state, &tree, &selection, &config));
        Ok(())
    })
}

/// Asks a running `arbor_breakthrough_search_run` on this handle to stop: it returns within
/// one iteration (a few microseconds) with `ARBOR_STOP_CANCELLED`. Without a run in
/// progress the request waits for the next run, which then returns at once; the run that
/// reports `ARBOR_STOP_CANCELLED` clears it (so does `_init`).
///
/// The one call that may overlap other calls on the same buffer, from any thread: it
/// checks the buffer's header (which only `_init` writes) and stores into the cancel flag
/// (an atomic), touching nothing else. It must not overlap `_init` of the buffer, nor its
/// freeing.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`,
/// `ARBOR_BUFFER_TOO_SMALL`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes (prepared by `_init`, or any
/// bytes, which are refused).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_cancel(
    buf: *mut c_void,
    len: usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { cancel_handle(buf, len, &HANDLE) }
    })
}

/// Advances the handle's root by `mv` (packed as `arbor_breakthrough_legal_moves` lists
/// them), played by either side: the root position becomes the one after `mv`, and the
/// subtree below `mv` becomes the tree, with its statistics (tree reuse; O(nodes in use)).
/// If the tree has no node for `mv` it is cleared. The iteration count and the last run's
/// figures restart at 0; the root's visits are those of the subtree kept.
///
/// Errors: `ARBOR_NULL_POINTER`, the buffer errors of `_run`, `ARBOR_GAME_OVER` (the root
/// position is already won), `ARBOR_ILLEGAL_MOVE` (`mv` is not a legal move there; the
/// handle is unchanged).
///
/// # Safety
/// As `arbor_breakthrough_search_run` for `buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_play(
    buf: *mut c_void,
    len: usize,
    mv: u16,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let handle = unsafe { open(buf, len) }?;
        let Opened {
            state,
            mut tree,
            mut position,
            ..
        } = handle.load()?;
        if position.is_over() {
            return Err(Error::GameOver);
        }
        let mv = Move::from_u16(mv).ok_or(Error::IllegalMove)?;
        position.try_play(mv).map_err(|_| Error::IllegalMove)?;
        tree.advance(mv);
        state.set_position(&position);
        state.set_tree(tree.parts());
        state.iterations = 0;
        state.last_iterations = 0;
        state.last_reason = 0;
        state.storage_full = 0;
        Ok(())
    })
}

/// Writes the progress of the handle's search to `*out_progress` without searching (one pass over
/// the root's children): as `arbor_breakthrough_search_run` wrote it after its last run on
/// this root (iterations, move, visits, value), or with 0 iterations, stop reason 0 and
/// whatever a tree kept by `_play` says before any run.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf`, `out_progress`), the buffer errors of `_run`,
/// `ARBOR_GAME_OVER` (the root position is won: there is no move to choose).
///
/// # Safety
/// As `arbor_breakthrough_search_run` for `buf`; `out_progress` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_best(
    buf: *mut c_void,
    len: usize,
    out_progress: *mut arbor_search_progress,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_progress) }?;
        // SAFETY: as above.
        let handle = unsafe { open(buf, len) }?;
        let Opened {
            state,
            tree,
            position,
            selection,
            config,
            ..
        } = handle.load()?;
        if position.is_over() {
            return Err(Error::GameOver);
        }
        out.write(progress(state, &tree, &selection, &config));
        Ok(())
    })
}

/// Writes what the handle's tree holds to `*out_stats`: nodes used and available, whether a run
/// on this root filled them, and the solver's verdict on the root.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf`, `out_stats`), the buffer errors of `_run`.
///
/// # Safety
/// As `arbor_breakthrough_search_best`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_breakthrough_search_tree_stats(
    buf: *mut c_void,
    len: usize,
    out_stats: *mut arbor_breakthrough_search_stats,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_stats) }?;
        // SAFETY: as above.
        let handle = unsafe { open(buf, len) }?;
        let Opened { state, tree, .. } = handle.load()?;
        let root_proof = match tree.root_proof() {
            Proof::Win => ARBOR_BREAKTHROUGH_SEARCH_PROOF_WIN,
            Proof::Loss => ARBOR_BREAKTHROUGH_SEARCH_PROOF_LOSS,
            Proof::Unknown | Proof::Draw => ARBOR_BREAKTHROUGH_SEARCH_PROOF_UNKNOWN,
        };
        out.write(arbor_breakthrough_search_stats {
            nodes_used: tree.len(),
            capacity_nodes: tree.capacity(),
            storage_full: u32::from(state.storage_full),
            root_proof,
        });
        Ok(())
    })
}

/// The most threads `arbor_breakthrough_search_run` accepts in this build:
/// `ARBOR_BREAKTHROUGH_SEARCH_MAX_THREADS` with the `std` feature (the default), 1 without
/// it (a `no_std` build has no threads). Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_breakthrough_search_max_threads() -> u32 {
    if cfg!(feature = "std") {
        ARBOR_BREAKTHROUGH_SEARCH_MAX_THREADS
    } else {
        1
    }
}

fn threads_supported(threads: u32) -> bool {
    (1..=arbor_breakthrough_search_max_threads()).contains(&threads)
}

/// The one reader of a caller's `arbor_breakthrough` in this file.
///
/// # Safety
/// `position` must be NULL or valid for one read of `arbor_breakthrough`.
unsafe fn read_position(position: *const arbor_breakthrough) -> Result<Position, Error> {
    // SAFETY: forwarded caller guarantee.
    unsafe { read_state(position) }
}

/// What the search has found, as `_run` and `_best` report it.
fn progress(
    state: &State,
    tree: &Mcts<'_, Move>,
    selection: &Selection,
    config: &Config,
) -> arbor_search_progress {
    let summary = tree.root_summary::<Position, _>(selection, config);
    arbor_search_progress {
        iterations: state.iterations,
        iterations_this_call: state.last_iterations,
        stop_reason: state.last_reason,
        best_move: summary
            .best
            .map_or(ARBOR_SEARCH_NO_MOVE, |mv| u32::from(mv.to_u16())),
        best_visits: summary.best_visits,
        best_value: f64::from(summary.best_value),
        root_visits: u64::from(summary.root_visits),
    }
}

impl State {
    fn set_position(&mut self, position: &Position) {
        self.white = position.pawns(Color::White);
        self.black = position.pawns(Color::Black);
        self.columns = position.size().columns();
        self.rows = position.size().rows();
        self.turn = position.side_to_move() as u8;
    }

    fn position(&self) -> Result<Position, Error> {
        let size = Size::new_checked(self.columns, self.rows).map_err(|_| Error::NotInitialised)?;
        let turn = match self.turn {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(Error::NotInitialised),
        };
        Position::from_bitboards(size, self.white, self.black, turn)
            .map_err(|_| Error::NotInitialised)
    }

    fn set_tree(&mut self, parts: TreeParts) {
        self.tree_len = parts.len;
        self.has_root_key = u32::from(parts.root_key.is_some());
        self.root_key = parts.root_key.unwrap_or(0);
    }

    fn tree(&self) -> Result<TreeParts, Error> {
        let root_key = match self.has_root_key {
            0 => None,
            1 => Some(self.root_key),
            _ => return Err(Error::NotInitialised),
        };
        Ok(TreeParts {
            len: self.tree_len,
            root_key,
        })
    }
}

/// The generator's four words.
pub(super) fn rng_words(rng: &XorShiftRng) -> [u32; 4] {
    // SAFETY: `XorShiftRng` (rand_xorshift 0.5) is four `Wrapping<u32>`, 16 bytes without
    // padding (transmute checks the size), so its bytes are four initialised `u32`.
    unsafe { core::mem::transmute::<XorShiftRng, [u32; 4]>(rng.clone()) }
}

/// The generator [`rng_words`] took apart; `None` for all zeros, which no generator has.
pub(super) fn rng_from_words(words: [u32; 4]) -> Option<XorShiftRng> {
    if words == [0; 4] {
        return None;
    }
    // SAFETY: the reverse of `rng_words`: any four words are four `Wrapping<u32>`; all
    // zeros (the one state the generator never reaches) is refused above.
    Some(unsafe { core::mem::transmute::<[u32; 4], XorShiftRng>(words) })
}

/// A handle's parts, opened without a reference over the cancel flag.
struct Handle<'a> {
    cancel: &'a AtomicU32,
    state: &'a mut State,
    nodes: &'a mut [Node<Move>],
}

/// A handle with every field checked.
struct Opened<'a> {
    state: &'a mut State,
    tree: Mcts<'a, Move>,
    position: Position,
    selection: Selection,
    config: Config,
    rng: XorShiftRng,
}

impl<'a> Handle<'a> {
    /// Checks every field of the state and the tree's structure (O(nodes in use)). A field
    /// out of range is `Error::NotInitialised` (damaged), also for the stored settings.
    fn load(self) -> Result<Opened<'a>, Error> {
        let Handle { state, nodes, .. } = self;
        let (selection, config) = state.config.to_rust().map_err(|_| Error::NotInitialised)?;
        let position = state.position()?;
        let rng = rng_from_words(state.rng).ok_or(Error::NotInitialised)?;
        let parts = state.tree()?;
        let tree = Mcts::from_tree_parts(nodes, parts).map_err(|_| Error::NotInitialised)?;
        Ok(Opened {
            state,
            tree,
            position,
            selection,
            config,
            rng,
        })
    }
}

/// Opens a handle (`open_handle`, search.rs): the flag (shared, atomic) apart from the
/// state and the nodes (exclusive).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes during `'a`, used by no other
/// call but `_cancel`.
unsafe fn open<'a>(buf: *mut c_void, len: usize) -> Result<Handle<'a>, Error> {
    // SAFETY: forwarded caller guarantee.
    let (cancel, own) = unsafe { open_handle(buf, len, &HANDLE) }?;
    // SAFETY: `State` is plain numbers (u64, u32, u8, f64 and arrays of them), valid for any
    // bytes, aligned to 8, and `own` starts 8-aligned.
    let (state, rest) = unsafe { handle_state::<State>(own) }?;
    // `rest` starts at NODES_OFFSET and holds what the handle was prepared with.
    let capacity = (rest.len() / ARBOR_BREAKTHROUGH_SEARCH_NODE_BYTES).min(MAX_CAPACITY);
    // SAFETY: `rest` is aligned for nodes (asserted offsets from an 8-aligned start), holds
    // `capacity` of them and is borrowed exclusively for 'a; `Node<Move>` (u32, f32, u8 and
    // the `u16` of a `Move`, 40 bytes without padding) is valid for any bits.
    let nodes = unsafe {
        core::slice::from_raw_parts_mut(rest.as_mut_ptr().cast::<Node<Move>>(), capacity)
    };
    Ok(Handle {
        cancel,
        state,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::*;

    fn handle(nodes: u32, policy: u32, position: &Position, seed: u64) -> Vec<u64> {
        let mut bytes = 0usize;
        // SAFETY: valid pointers to locals and to a buffer of `bytes` bytes, 8-aligned.
        unsafe {
            assert_eq!(
                arbor_breakthrough_search_bytes(nodes, 1, &mut bytes),
                arbor_status::ARBOR_OK
            );
            let mut buf = vec![0u64; bytes.div_ceil(8)];
            let config = arbor_breakthrough_search_config::defaults(policy).unwrap();
            let state = arbor_breakthrough::from_position(position);
            assert_eq!(
                arbor_breakthrough_search_init(
                    buf.as_mut_ptr().cast(),
                    bytes,
                    &config,
                    &state,
                    seed
                ),
                arbor_status::ARBOR_OK
            );
            buf
        }
    }

    fn run(buf: &mut [u64], iterations: u32) -> arbor_search_progress {
        let mut limits = core::mem::MaybeUninit::uninit();
        let mut progress = arbor_search_progress::default();
        // SAFETY: valid pointers to locals and to `buf`.
        unsafe {
            assert_eq!(
                super::super::search::arbor_search_limits_init(iterations, limits.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_breakthrough_search_run(
                    buf.as_mut_ptr().cast(),
                    buf.len() * 8,
                    limits.as_ptr(),
                    1,
                    &mut progress
                ),
                arbor_status::ARBOR_OK
            );
        }
        progress
    }

    fn tree_stats(buf: &mut [u64]) -> arbor_breakthrough_search_stats {
        let mut stats = arbor_breakthrough_search_stats::default();
        // SAFETY: valid pointers.
        let status = unsafe {
            arbor_breakthrough_search_tree_stats(buf.as_mut_ptr().cast(), buf.len() * 8, &mut stats)
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        stats
    }

    #[test]
    fn the_generator_survives_its_words() {
        let mut rng = seeded_rng(99);
        let _ = rand_core::Rng::next_u64(&mut rng);
        let mut back = rng_from_words(rng_words(&rng)).unwrap();
        for _ in 0..10 {
            assert_eq!(
                rand_core::Rng::next_u64(&mut rng),
                rand_core::Rng::next_u64(&mut back)
            );
        }
        assert!(rng_from_words([0; 4]).is_none());
    }

    #[test]
    fn runs_in_steps_are_one_run() {
        let start = Position::start(Size::STANDARD);
        for policy in [
            ARBOR_BREAKTHROUGH_SEARCH_UCT,
            ARBOR_BREAKTHROUGH_SEARCH_RAVE,
            ARBOR_BREAKTHROUGH_SEARCH_MOGO,
        ] {
            let mut steps = handle(20_000, policy, &start, 5);
            let mut once = handle(20_000, policy, &start, 5);
            let mut last = arbor_search_progress::default();
            for _ in 0..4 {
                last = run(&mut steps, 100);
            }
            let one = run(&mut once, 400);
            assert_eq!(last.iterations, 400);
            assert_eq!(
                (last.best_move, last.best_visits, last.root_visits),
                (one.best_move, one.best_visits, one.root_visits)
            );
            assert_eq!(last.best_value, one.best_value);
            let nodes = NODES_OFFSET / 8;
            assert!(
                steps[nodes..] == once[nodes..],
                "the same nodes, byte for byte"
            );
        }
    }

    /// Measures how much of the `1 + 48 N` bound real trees use (the figures in the doc of
    /// `arbor_breakthrough_search_bytes`); run with `--nocapture` to see them.
    #[test]
    fn typical_trees_use_a_share_of_the_bound() {
        let iterations = 10_000u32;
        for (size, most) in [
            (Size::STANDARD, 48u32),
            (Size::new_checked(6, 5).unwrap(), 36),
        ] {
            let start = Position::start(size);
            for policy in [
                ARBOR_BREAKTHROUGH_SEARCH_UCT,
                ARBOR_BREAKTHROUGH_SEARCH_RAVE,
                ARBOR_BREAKTHROUGH_SEARCH_MOGO,
            ] {
                let bound = 1 + most * iterations;
                let mut buf = handle(bound, policy, &start, 1);
                run(&mut buf, iterations);
                let stats = tree_stats(&mut buf);
                assert_eq!(stats.storage_full, 0);
                let per_iteration = f64::from(stats.nodes_used) / f64::from(iterations);
                std::println!(
                    "{size} policy {policy}: {} nodes, {per_iteration:.1} an iteration, {:.0}% of the bound",
                    stats.nodes_used,
                    100.0 * f64::from(stats.nodes_used) / f64::from(bound)
                );
                assert!(stats.nodes_used < bound);
            }
        }
    }
}
