//! C ABI of the anytime Go search: a handle in a caller buffer that keeps a game (as a game
//! buffer does, go.rs), the core player's MCTS tree, its generator and its knowledge between
//! calls.
//!
//! `arbor_go_search_bytes` sizes the buffer, `arbor_go_search_init` prepares it from a game
//! buffer, `arbor_go_search_run` grows the tree for as many iterations, or as long, as the
//! `arbor_search_limits` of the call allow and may be stopped from another thread by
//! `arbor_go_search_cancel`; `arbor_go_search_decide` judges the tree as GTP's `genmove`
//! does (pass, resign, or the search's move); `arbor_go_search_play` plays a move (either
//! side's) and keeps the subtree below it; `arbor_go_search_game` copies the handle's game
//! out to a game buffer.
//! `k` runs of `n` iterations on one thread grow the tree of one run of `k · n`.
//!
//! Layout of the buffer (8-aligned): the 24 bytes every handle begins with (search.rs: the
//! buffer header with magic `GOSH`, then the cancel flag), the handle's [`State`] (64
//! bytes), the game area of go.rs (its size in `State::area_len`), then the tree's 44-byte
//! nodes. Nodes hold the core's `go::Move`, an enum: a call forms into nodes only the slots
//! it may touch (the tree in use, and the room a run may grow into: [`Room`]), after
//! checking the tag of each of their moves (`repr(u16)`: 0 or 1), and the moves of the
//! nodes in use must be points of the board, so a damaged buffer is refused, never misread,
//! and bytes past those slots are never read as nodes.
use core::ffi::c_void;
use core::mem::{align_of, offset_of, size_of};
use core::sync::atomic::AtomicU32;

use super::arbor_status;
use super::boundary::{Out, boundary, read_in, report_bytes};
use super::go::{
    PlayerSlot, area_bytes, board_size, code_of, load_game, move_in, prepared_size, refused,
    store_game,
};
use super::mcts::{rng_from_words, rng_words};
use super::search::{
    ARBOR_SEARCH_NO_MOVE, CallStop, HANDLE_HEAD_BYTES, HandleKind, arbor_search_limits,
    arbor_search_progress, cancel_handle, check_limits, handle_state, max_iterations, open_handle,
    prepare_handle,
};
use crate::Error;
use crate::go::player::{Player, PlayerConfig};
use crate::go::{Board, MIN_SIZE, Move};
use crate::search::mcts::{MAX_CAPACITY, Mcts, Node, TreeParts, node_size, seeded_rng};

/// `arbor_go_search_init`'s `player`: RAVE (C = 0, c1 = 0.01) with light playouts (uniform
/// over the moves that do not fill one's own eye), expansion after 2 visits.
pub const ARBOR_GO_PLAYER_LIGHT: u32 = 0;
/// MoGo's player, the strong default: MoGo's sequence-like playouts with 3x3 patterns,
/// priors from Go knowledge, MoGo's selection score, expansion after 40 visits (priors
/// included).
pub const ARBOR_GO_PLAYER_MOGO: u32 = 1;

/// Alignment of a search handle buffer, in bytes (`malloc` and `alignas(8)` satisfy it).
pub const ARBOR_GO_SEARCH_ALIGN: usize = 8;
/// Bytes of a tree node in a handle buffer.
pub const ARBOR_GO_SEARCH_NODE_BYTES: usize = 44;
const _: () = assert!(ARBOR_GO_SEARCH_NODE_BYTES == node_size::<Move>());
/// Most threads `arbor_go_search_run` accepts in a build with threads (1 without `std`).
pub const ARBOR_GO_SEARCH_MAX_THREADS: u32 = 64;
#[cfg(feature = "std")]
const _: () =
    assert!(ARBOR_GO_SEARCH_MAX_THREADS as usize == crate::search::mcts::MAX_SEARCH_THREADS);

/// Stack, in bytes, that every `arbor_go_search_*` call on one thread (light and MoGo players, 19x19) needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 144,192 bytes, with std and without (`_decide` included), including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_GO_SEARCH_STACK_BYTES: usize = 180224;

/// What the tree of a handle holds (`arbor_go_search_tree_stats`). 16 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct arbor_go_search_stats {
    /// Nodes in use, root included.
    pub nodes_used: u32,
    /// Nodes the buffer holds.
    pub capacity_nodes: u32,
    /// 1 if a run since `_init` or the last `_play` found no room to expand a leaf (it went
    /// on refining the tree it had), else 0.
    pub storage_full: u32,
    /// Written as zero.
    pub reserved: u32,
}

/// Bytes of `arbor_go_search_stats`.
pub const ARBOR_GO_SEARCH_STATS_BYTES: usize = 16;
const _: () = assert!(size_of::<arbor_go_search_stats>() == ARBOR_GO_SEARCH_STATS_BYTES);

/// What the player to move should do now (`arbor_go_search_decide`): the move GTP's
/// `genmove` would play from the handle's tree, or a resignation. 24 bytes.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_go_decision {
    /// The move to play: a point code or `ARBOR_GO_PASS` (the search's own move when
    /// `resign` is 1).
    pub move_to_play: u32,
    /// 1 if the player should resign (and play nothing), else 0.
    pub resign: u32,
    /// 1 if the search's own move was replaced (a pass into a loss refused, or a pass
    /// taken because the position is won), else 0.
    pub judged: u32,
    /// The search's own move (`arbor_search_progress.best_move`), or
    /// `ARBOR_SEARCH_NO_MOVE` while the root has no children.
    pub search_move: u32,
    /// The search's win rate of its move for the player to move, in [0, 1]; 0 without
    /// visits.
    pub win_rate: f64,
}

/// Bytes of `arbor_go_decision`.
pub const ARBOR_GO_DECISION_BYTES: usize = 24;
const _: () = assert!(size_of::<arbor_go_decision>() == ARBOR_GO_DECISION_BYTES);

const HANDLE_MAGIC: u32 = super::boundary::magic(b"GOSH");

/// The handle's state, after the head every handle has. Plain numbers only, so any bytes
/// are a `State`; every field is checked when a handle is opened ([`Handle::load`]).
#[repr(C)]
#[derive(Clone, Copy)]
struct State {
    /// Iterations run on this root since `_init` or the last `_play`.
    iterations: u64,
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
    /// `ARBOR_GO_PLAYER_LIGHT` or `_MOGO`.
    player: u32,
    /// 1 once a run on this root filled the storage.
    storage_full: u32,
    /// Bytes of the game area that follows the state (a multiple of 8).
    area_len: u32,
    reserved: u32,
}

const STATE_BYTES: usize = 64;
const _: () = assert!(size_of::<State>() == STATE_BYTES);
const _: () = assert!(HANDLE_HEAD_BYTES.is_multiple_of(align_of::<State>()));
const _: () = assert!(ARBOR_GO_SEARCH_ALIGN.is_multiple_of(align_of::<Node<Move>>()));
const _: () = assert!(ARBOR_GO_SEARCH_ALIGN >= align_of::<State>());
/// Where a node's move tag lies in the node (the tag is the first `u16` of a `repr(u16)`
/// enum).
const TAG_OFFSET: usize = offset_of!(Node<Move>, mv);
/// The fewest bytes of any handle: the head, the state, the game area of the smallest
/// board, one node.
const MIN_BYTES: usize =
    HANDLE_HEAD_BYTES + STATE_BYTES + handle_area_bytes(MIN_SIZE) + ARBOR_GO_SEARCH_NODE_BYTES;
const HANDLE: HandleKind = HandleKind {
    magic: HANDLE_MAGIC,
    align: ARBOR_GO_SEARCH_ALIGN,
    min_len: MIN_BYTES,
};

/// The game area's bytes in a handle for boards of `size`, rounded up so the nodes start
/// 8-aligned.
const fn handle_area_bytes(size: u8) -> usize {
    area_bytes(size).next_multiple_of(8)
}

fn config_of(player: u32, size: u8) -> Option<PlayerConfig> {
    match player {
        ARBOR_GO_PLAYER_LIGHT => Some(PlayerConfig::for_size(size)),
        ARBOR_GO_PLAYER_MOGO => Some(PlayerConfig::mogo(size)),
        _ => None,
    }
}

fn threads_supported(threads: u32) -> bool {
    let most = if cfg!(feature = "std") {
        ARBOR_GO_SEARCH_MAX_THREADS
    } else {
        1
    };
    (1..=most).contains(&threads)
}

/// Writes to `*out_bytes` the size of a handle buffer for games on a `size` x `size` board
/// whose tree holds `capacity_nodes` nodes for each of `threads` threads: 88 bytes, the game
/// (`8 * size * size + 24`, rounded up to 8) and 44 bytes a node.
///
/// How many nodes: an iteration expands at most one leaf, adding a node per move listed
/// there (at most `size * size + 1`), and the light player expands a leaf after 2 visits,
/// the MoGo player after about 40 (priors count as visits); so `N` iterations need fewer
/// than `N * (size * size + 1) / 2` nodes with the light player and far fewer with MoGo's.
/// A tree that fills goes on searching without growing (`storage_full` in
/// `arbor_go_search_tree_stats`); 100,000 nodes (4.4 MB) are plenty for a few thousand
/// iterations a move on 9x9. With `threads` > 1 a run splits the nodes into `threads`
/// equal trees (root parallelism), hence the product.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (`size` not 5..=19,
/// `capacity_nodes` 0, `threads` 0 or above `ARBOR_GO_SEARCH_MAX_THREADS` (1 without
/// threads), more than 2^32 - 1 nodes in all, or a size above `PTRDIFF_MAX`).
///
/// # Safety
/// `out_bytes` must be NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_bytes(
    size: u32,
    capacity_nodes: u32,
    threads: u32,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        let bytes = match board_size(size) {
            Ok(size) if capacity_nodes > 0 && threads_supported(threads) => (capacity_nodes
                as usize)
                .checked_mul(threads as usize)
                .filter(|&nodes| nodes <= MAX_CAPACITY)
                .and_then(|nodes| nodes.checked_mul(ARBOR_GO_SEARCH_NODE_BYTES))
                .and_then(|nodes| {
                    nodes.checked_add(HANDLE_HEAD_BYTES + STATE_BYTES + handle_area_bytes(size))
                }),
            _ => None,
        };
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// Prepares the caller's buffer `buf` of `len` bytes as a search handle for the game in
/// `game` (a buffer prepared by `arbor_go_game_init`, copied: the two are independent
/// afterwards), searching as `player` says (`ARBOR_GO_PLAYER_LIGHT` or
/// `ARBOR_GO_PLAYER_MOGO`) with all randomness from `seed`. The tree is empty, the cancel
/// flag clear; the nodes are zeroed: O(len).
///
/// The buffer stays owned by the caller, who frees it (arbor keeps no pointer to it); it
/// must be aligned to `ARBOR_GO_SEARCH_ALIGN` and should be `arbor_go_search_bytes` long
/// for the game's board size (any length with room for the game and one node works; the
/// nodes are what fits). Must not overlap any other call on the same buffer, `_cancel`
/// included.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER` (`buf`, `game`), `ARBOR_MISALIGNED`,
/// `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (no room for the game and one node, or
/// `game_len` shorter than at its `_init`), `ARBOR_NOT_INITIALISED` /
/// `ARBOR_WRONG_VERSION` (`game` not prepared by `arbor_go_game_init` of this version, or
/// damaged), `ARBOR_INVALID_ARGUMENT` (unknown `player`).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes, used by nothing else during the call;
/// `game` NULL or valid for `game_len` reads and writes, used by nothing else.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_init(
    buf: *mut c_void,
    len: usize,
    game: *mut c_void,
    game_len: usize,
    player: u32,
    seed: u64,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee. The game is copied out before `buf` is
        // prepared.
        let area = unsafe { super::go::open_game_area(game, game_len) }?;
        let mut slot = None;
        let loaded = load_game(area, &mut slot)?;
        let size = loaded.start().size();
        config_of(player, size).ok_or(Error::InvalidArgument)?;
        let area_len = handle_area_bytes(size);
        let min_len = HANDLE_HEAD_BYTES + STATE_BYTES + area_len + ARBOR_GO_SEARCH_NODE_BYTES;
        // SAFETY: forwarded caller guarantee (exclusive use of `len` writable bytes).
        let own = unsafe { prepare_handle(buf, len, &HANDLE, min_len) }?;
        own.fill(0);
        // SAFETY: `State` is plain numbers (u64, u32 and arrays of them), valid for any
        // bytes, aligned to 8, and `own` starts 8-aligned.
        let (state, rest) = unsafe { handle_state::<State>(own) }?;
        *state = State {
            iterations: 0,
            root_key: 0,
            rng: rng_words(&seeded_rng(seed)),
            tree_len: 0,
            has_root_key: 0,
            last_iterations: 0,
            last_reason: 0,
            player,
            storage_full: 0,
            area_len: area_len as u32,
            reserved: 0,
        };
        // Room checked by prepare_handle (min_len).
        store_game(&mut rest[..area_len], loaded, size)
    })
}

/// Grows the handle's tree for the player to move until the first of:
/// `limits->max_iterations` iterations in this call (per thread; 0 for no limit),
/// `limits->deadline_us` microseconds since the call began, or a cancel
/// (`arbor_go_search_cancel`, from any thread, also one made before this call). Plays
/// nothing. Writes the progress to `*out_progress`: iterations on this root so far and in
/// this call, why it stopped (`ARBOR_STOP_ITERATIONS`, `_DEADLINE`, `_CANCELLED`), the move
/// the search would play now (a point code or `ARBOR_GO_PASS`; `ARBOR_SEARCH_NO_MOVE`
/// while the root has no children), its visits, its win rate for the player to move, and
/// the root's visits. The move is the search's own: it may be a pass in a lost position;
/// `arbor_go_search_decide` adds `genmove`'s pass and resignation judgement.
///
/// Resumable: on one thread, `k` runs of `n` iterations give exactly the tree and the move
/// of one run of `k · n`, and the tree is kept across `arbor_go_search_play`. With
/// `threads` > 1 (root parallelism, up to `ARBOR_GO_SEARCH_MAX_THREADS`; 1 without `std`)
/// a run splits the nodes into `threads` trees that each run up to `max_iterations`; the
/// handle keeps the first thread's tree with the summed root statistics and counts this
/// run's iterations only.
///
/// Deadline and cancel as for every handle (`arbor_search_limits`): a run overruns its
/// deadline by at most one iteration (a playout: microseconds on 9x9). Each call replays
/// the game (O(moves)) and checks the tree in use (O(nodes in use)) and the node slots the
/// run may grow into, which counts against the deadline: with `max_iterations` set and one
/// thread, `max_iterations * (size * size + 1) + 1` slots past the tree (a 1-iteration run
/// on a 1 M-node handle checks a few hundred); without an iteration limit, or on several
/// threads, every slot of the buffer (O(capacity)).
///
/// Errors (neither `*out_progress` nor the handle changed): `ARBOR_NULL_POINTER` (`buf`,
/// `limits`, `out_progress`), `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (`limits`
/// not filled by `arbor_search_limits_init`; a buffer not prepared by `_init` or damaged),
/// `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL` (`len` shorter than
/// at `_init`), `ARBOR_INVALID_ARGUMENT` (`threads` 0 or too many), `ARBOR_UNSUPPORTED` (a
/// deadline without a clock in a `no_std` build), `ARBOR_GAME_OVER` (nothing to search:
/// `arbor_go_search_decide` answers a pass, and a stone played resumes a game that two
/// passes ended).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes, used by no other call during
/// this one except `arbor_go_search_cancel`; `limits` NULL or readable, its `now_us` NULL
/// or a function callable with its `ctx`; `out_progress` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_run(
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
        // The deadline counts from here, so the checks below count against it.
        let stop = CallStop::new(&limits, handle.cancel)?;
        let mut slot = None;
        let iterations = max_iterations(&limits);
        let room = if threads > 1 || iterations == u32::MAX {
            Room::All
        } else {
            Room::Iterations(iterations)
        };
        let Opened { state, player, .. } = handle.load(&mut slot, room)?;
        if player.board().is_over() {
            return Err(Error::GameOver);
        }
        let config = PlayerConfig {
            threads: threads as usize,
            ..*player.config()
        };
        player.set_config(config);
        let parallel = threads > 1 && player.tree().capacity() > 1;
        let searched = player.search(iterations, &stop)?;
        let done = searched.iterations;
        state.iterations = if parallel {
            u64::from(done)
        } else {
            state.iterations.saturating_add(u64::from(done))
        };
        state.rng = rng_words(player.rng());
        state.set_tree(player.tree().parts());
        state.last_iterations = done;
        state.last_reason = stop.finish();
        state.storage_full |= u32::from(searched.storage_full);
        let summary = searched.summary;
        out.write(arbor_search_progress {
            iterations: state.iterations,
            iterations_this_call: done,
            stop_reason: state.last_reason,
            best_move: summary
                .best
                .map_or(ARBOR_SEARCH_NO_MOVE, |mv| code_of(player.board(), mv)),
            best_visits: summary.best_visits,
            best_value: f64::from(summary.best_value),
            root_visits: u64::from(summary.root_visits),
        });
        Ok(())
    })
}

/// Asks a running `arbor_go_search_run` on this handle to stop: it returns within one
/// iteration with `ARBOR_STOP_CANCELLED`. Without a run in progress the request waits for
/// the next run, which then returns at once; the run that reports `ARBOR_STOP_CANCELLED`
/// clears it (so does `_init`).
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
pub unsafe extern "C" fn arbor_go_search_cancel(buf: *mut c_void, len: usize) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { cancel_handle(buf, len, &HANDLE) }
    })
}

/// Plays the move `mv` (a point code or `ARBOR_GO_PASS`) for the player to move in the
/// handle's game, whoever chose it (the search, or the opponent), and keeps the subtree
/// below it as the tree (tree reuse; O(nodes in use)). The iteration count and the last
/// run's figures restart at 0. After two passes a stone resumes the game (a third pass, or
/// any move at the length cap, is `ARBOR_GAME_OVER`), as `arbor_go_game_play` says; the
/// tree starts afresh then.
///
/// Errors (the handle unchanged): `ARBOR_NULL_POINTER`, the buffer errors
/// (`ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `_run`),
/// `ARBOR_INVALID_ARGUMENT` (`mv` is no point of the board nor a pass), `ARBOR_GAME_OVER`,
/// `ARBOR_ILLEGAL_MOVE` (occupied, suicide, ko or superko: `arbor_go_game_check` on a
/// game buffer says which).
///
/// # Safety
/// As `arbor_go_search_run` for `buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_play(
    buf: *mut c_void,
    len: usize,
    mv: u32,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let mut slot = None;
        let Opened {
            state,
            area,
            player,
            ..
        } = unsafe { open(buf, len) }?.load(&mut slot, Room::InUse)?;
        let mv = move_in(player.board(), mv)?;
        let color = player.board().to_move();
        player.play(color, mv).map_err(refused)?;
        let prepared = prepared_size(area, player.start().size());
        store_game(area, player, prepared)?;
        state.set_tree(player.tree().parts());
        state.iterations = 0;
        state.last_iterations = 0;
        state.last_reason = 0;
        state.storage_full = 0;
        Ok(())
    })
}

/// Writes to `*out_decision` what the player to move should do now, judged from the
/// handle's tree as it stands (grown by `arbor_go_search_run`): the judgement GTP's
/// `genmove` makes after its search, in the core (`Player::decide`), so a game client
/// plays as `arbor gtp go` does. In order:
///
/// - a finished game (two passes, or the length cap): a pass;
/// - the opponent has just passed and the count with dead stones removed says the player
///   to move wins: a pass (`judged`);
/// - resign when the search's win rate is below 10% (the root has visits and the game is
///   at least `size * size / 4` moves old);
/// - the search's move, except a pass when the count says the player to move does not
///   win: then the most visited other move, if the tree has one (`judged`).
///
/// The counts draw light playouts (400) from a copy of the handle's generator: the call
/// changes nothing, and the same handle gives the same decision. Play the decision with
/// `arbor_go_search_play` (a resignation ends the game on the caller's side).
///
/// Errors (nothing written): `ARBOR_NULL_POINTER` (`buf`, `out_decision`), the buffer
/// errors (`ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `_run`).
///
/// # Safety
/// As `arbor_go_search_run` for `buf`; `out_decision` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_decide(
    buf: *mut c_void,
    len: usize,
    out_decision: *mut arbor_go_decision,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_decision) }?;
        // SAFETY: as above.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?
            .load(&mut slot, Room::InUse)?
            .player;
        let summary = player.summary();
        let judgement = player.decide();
        let board = player.board();
        out.write(arbor_go_decision {
            move_to_play: code_of(board, judgement.mv),
            resign: u32::from(judgement.resign),
            judged: u32::from(judgement.judged),
            search_move: summary
                .best
                .map_or(ARBOR_SEARCH_NO_MOVE, |mv| code_of(board, mv)),
            win_rate: f64::from(summary.best_value),
        });
        Ok(())
    })
}

/// Copies the handle's game (setup, moves, komi) into the game buffer `game` (prepared by
/// `arbor_go_game_init`, whose game it replaces), to show, score or save it.
///
/// Errors (`game` unchanged): `ARBOR_NULL_POINTER`, the buffer errors
/// (`ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `_run`) for `buf`
/// and of `arbor_go_game_set_komi` for `game`, `ARBOR_BUFFER_TOO_SMALL` (`game` was
/// prepared for a smaller board than the handle's game).
///
/// # Safety
/// As `arbor_go_search_run` for `buf`; `game` NULL or valid for `game_len` reads and
/// writes, used by nothing else.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_game(
    buf: *mut c_void,
    len: usize,
    game: *mut c_void,
    game_len: usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee. The handle's game is copied out first.
        let mut slot = None;
        let player = unsafe { open(buf, len) }?
            .load(&mut slot, Room::InUse)?
            .player;
        // SAFETY: forwarded caller guarantee.
        let area = unsafe { super::go::open_game_area(game, game_len) }?;
        load_game(area, &mut None)?;
        let prepared = prepared_size(area, player.start().size());
        store_game(area, player, prepared).map_err(|_| Error::BufferTooSmall)
    })
}

/// Writes what the handle's tree holds to `*out_stats`: nodes used and available, and
/// whether a run on this root filled them.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf`, `out_stats`), the buffer errors
/// (`ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`: see `_run`).
///
/// # Safety
/// As `arbor_go_search_run` for `buf`; `out_stats` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_go_search_tree_stats(
    buf: *mut c_void,
    len: usize,
    out_stats: *mut arbor_go_search_stats,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_stats) }?;
        // SAFETY: as above.
        let mut slot = None;
        let Opened {
            state,
            player,
            capacity,
            ..
        } = unsafe { open(buf, len) }?.load(&mut slot, Room::InUse)?;
        out.write(arbor_go_search_stats {
            nodes_used: player.tree().len(),
            // At most MAX_CAPACITY, which fits in u32.
            capacity_nodes: capacity as u32,
            storage_full: state.storage_full,
            reserved: 0,
        });
        Ok(())
    })
}

impl State {
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

/// A handle's parts, opened without a reference over the cancel flag.
struct Handle<'a> {
    cancel: &'a AtomicU32,
    state: &'a mut State,
    area: &'a mut [u8],
    nodes: &'a mut [u8],
}

/// A handle with every field checked: its game replayed, with its tree and generator.
struct Opened<'a, 'p> {
    state: &'a mut State,
    /// The game area, for a call that changes the game.
    area: &'a mut [u8],
    player: &'p mut Player<'a>,
    /// Nodes the buffer holds (the player's tree may see fewer: [`Room`]).
    capacity: usize,
}

/// How many node slots past the tree in use a call may write: the slots a call hands the
/// core are the only ones whose move tags it checks (see [`Handle::load`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Room {
    /// None: the call reads the tree, or shrinks it (`_play`).
    InUse,
    /// Enough for a search of this many iterations on one thread: an iteration expands at
    /// most one leaf, into at most `size * size + 1` children, and a new tree needs a root.
    Iterations(u32),
    /// Every slot: a search without an iteration limit, or on several threads (which split
    /// the whole storage).
    All,
}

impl<'a> Handle<'a> {
    /// Replays the game, checks the settings, the generator, the move tag of every node
    /// slot the call may touch ([`Room`]: the tree in use, and the slots it may grow into),
    /// and the tree: O(moves + nodes in use + room), not O(capacity). Anything out of range
    /// is `Error::NotInitialised` (damaged).
    ///
    /// Only the checked slots become nodes: the core's tree gets the slice of them, never
    /// the slots past it, so no byte the caller may have damaged there is ever read as a
    /// `Node`. A search whose room is a bound on its growth finds the same tree and move as
    /// with the whole storage (its expansions never reach the end of the slice unless that
    /// is the end of the storage).
    fn load<'p>(self, slot: &'p mut PlayerSlot<'a>, room: Room) -> Result<Opened<'a, 'p>, Error> {
        let Handle {
            state, area, nodes, ..
        } = self;
        let player = load_game(area, slot)?;
        let size = player.start().size();
        let config = config_of(state.player, size).ok_or(Error::NotInitialised)?;
        player.set_config(config);
        player.set_rng(rng_from_words(state.rng).ok_or(Error::NotInitialised)?);
        let parts = state.tree()?;
        let capacity = capacity_of(nodes);
        let in_use = parts.len as usize;
        if in_use > capacity {
            return Err(Error::NotInitialised);
        }
        let growth = match room {
            Room::InUse => 0,
            Room::Iterations(iterations) => {
                let children = usize::from(size) * usize::from(size) + 1;
                (iterations as usize)
                    .saturating_mul(children)
                    .saturating_add(1)
            }
            Room::All => capacity,
        };
        let window = in_use.saturating_add(growth).min(capacity);
        let nodes = nodes_of(nodes, window)?;
        let board: &Board = player.board();
        let on_board = |node: &Node<Move>| match node.mv {
            Move::Pass => true,
            Move::Play(point) => board.is_on_board(point),
        };
        if !nodes[..in_use].iter().all(on_board) {
            return Err(Error::NotInitialised);
        }
        let tree = Mcts::from_tree_parts(nodes, parts).map_err(|_| Error::NotInitialised)?;
        player.replace_tree(tree);
        Ok(Opened {
            state,
            area,
            player,
            capacity,
        })
    }
}

/// Nodes a handle's node bytes hold.
fn capacity_of(bytes: &[u8]) -> usize {
    (bytes.len() / ARBOR_GO_SEARCH_NODE_BYTES).min(MAX_CAPACITY)
}

/// The first `count` node slots of a handle's node bytes as nodes, once each of their move
/// tags is checked (`count` at most [`capacity_of`] the bytes). The slots past them are
/// never formed into nodes.
fn nodes_of(bytes: &mut [u8], count: usize) -> Result<&mut [Node<Move>], Error> {
    let bytes = count
        .checked_mul(ARBOR_GO_SEARCH_NODE_BYTES)
        .and_then(|end| bytes.get_mut(..end))
        .ok_or(Error::NotInitialised)?;
    let valid = bytes.chunks_exact(ARBOR_GO_SEARCH_NODE_BYTES).all(|node| {
        let tag = u16::from_ne_bytes([node[TAG_OFFSET], node[TAG_OFFSET + 1]]);
        tag <= 1
    });
    if !valid {
        return Err(Error::NotInitialised);
    }
    debug_assert!((bytes.as_ptr() as usize).is_multiple_of(align_of::<Node<Move>>()));
    // SAFETY: `bytes` starts aligned for nodes (an 8-aligned buffer, 8-aligned offsets:
    // asserted), holds exactly `count` of them and is borrowed exclusively for the result's
    // lifetime. `Node<Move>` is integers and floats (any bits) and a `repr(u16)` `Move`
    // whose tag, checked above in every one of the `count` slots, is 0 (`Pass`, no
    // payload) or 1 (`Play`, a `Point`: a `u16`, any bits); its other bytes are padding.
    Ok(unsafe { core::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<Node<Move>>(), count) })
}

/// Opens a handle (`open_handle`, search.rs): the flag (shared, atomic) apart from the
/// state, the game area and the node bytes (exclusive).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes during `'a`, used by no other
/// call but `_cancel`.
unsafe fn open<'a>(buf: *mut c_void, len: usize) -> Result<Handle<'a>, Error> {
    // SAFETY: forwarded caller guarantee.
    let (cancel, own) = unsafe { open_handle(buf, len, &HANDLE) }?;
    // SAFETY: `State` is plain numbers, valid for any bytes, aligned to 8, and `own` starts
    // 8-aligned.
    let (state, rest) = unsafe { handle_state::<State>(own) }?;
    let area_len = state.area_len as usize;
    if !area_len.is_multiple_of(8) || area_len > rest.len() {
        return Err(Error::NotInitialised);
    }
    let (area, nodes) = rest.split_at_mut(area_len);
    Ok(Handle {
        cancel,
        state,
        area,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::super::go::tests::game;
    use super::super::search::arbor_search_limits_init;
    use super::*;

    fn handle(nodes: u32, player: u32, game: &mut [u64], seed: u64) -> Vec<u64> {
        let mut bytes = 0usize;
        // SAFETY: valid pointers to locals and to buffers of the lengths given.
        unsafe {
            assert_eq!(
                arbor_go_search_bytes(9, nodes, 1, &mut bytes),
                arbor_status::ARBOR_OK
            );
            let mut buf = vec![0u64; bytes.div_ceil(8)];
            let status = arbor_go_search_init(
                buf.as_mut_ptr().cast(),
                bytes,
                game.as_mut_ptr().cast(),
                game.len() * 8,
                player,
                seed,
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
            buf
        }
    }

    fn run(buf: &mut [u64], iterations: u32) -> arbor_search_progress {
        let mut limits = core::mem::MaybeUninit::uninit();
        let mut progress = arbor_search_progress::default();
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_search_limits_init(iterations, limits.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            let status = arbor_go_search_run(
                buf.as_mut_ptr().cast(),
                buf.len() * 8,
                limits.as_ptr(),
                1,
                &mut progress,
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
        }
        progress
    }

    #[test]
    fn runs_in_steps_are_one_run_and_the_tree_follows_the_moves() {
        for player in [ARBOR_GO_PLAYER_LIGHT, ARBOR_GO_PLAYER_MOGO] {
            let mut start = game(9, 7.5);
            let mut steps = handle(20_000, player, &mut start, 3);
            let mut once = handle(20_000, player, &mut start, 3);
            let mut last = arbor_search_progress::default();
            for _ in 0..3 {
                last = run(&mut steps, 100);
            }
            let one = run(&mut once, 300);
            assert_eq!(last.iterations, 300);
            assert_eq!(
                (
                    last.best_move,
                    last.best_visits,
                    last.root_visits,
                    last.best_value
                ),
                (
                    one.best_move,
                    one.best_visits,
                    one.root_visits,
                    one.best_value
                )
            );
            // (Not byte for byte: a pass's payload bytes in a node are padding.)
            let (mut a, mut b) = (
                arbor_go_search_stats::default(),
                arbor_go_search_stats::default(),
            );
            // SAFETY: valid pointers.
            unsafe {
                let _ =
                    arbor_go_search_tree_stats(steps.as_mut_ptr().cast(), steps.len() * 8, &mut a);
                let _ =
                    arbor_go_search_tree_stats(once.as_mut_ptr().cast(), once.len() * 8, &mut b);
            }
            assert_eq!(a, b);
            assert_ne!(last.best_move, ARBOR_SEARCH_NO_MOVE);

            // SAFETY: valid pointers.
            let status = unsafe {
                arbor_go_search_play(steps.as_mut_ptr().cast(), steps.len() * 8, last.best_move)
            };
            assert_eq!(status, arbor_status::ARBOR_OK);
            let mut stats = arbor_go_search_stats::default();
            // SAFETY: valid pointers.
            let status = unsafe {
                arbor_go_search_tree_stats(steps.as_mut_ptr().cast(), steps.len() * 8, &mut stats)
            };
            assert_eq!(status, arbor_status::ARBOR_OK);
            assert!(stats.nodes_used > 1, "the subtree is kept: {stats:?}");
            let next = run(&mut steps, 50);
            assert_eq!(next.iterations, 50);
            assert!(next.root_visits > 50, "the kept subtree's visits count");

            // The handle's game, copied out, has the move.
            let mut copy = game(9, 0.0);
            let mut info = super::super::go::arbor_go_info::default();
            // SAFETY: valid pointers.
            unsafe {
                let status = arbor_go_search_game(
                    steps.as_mut_ptr().cast(),
                    steps.len() * 8,
                    copy.as_mut_ptr().cast(),
                    copy.len() * 8,
                );
                assert_eq!(status, arbor_status::ARBOR_OK);
                let status = super::super::go::arbor_go_game_info(
                    copy.as_mut_ptr().cast(),
                    copy.len() * 8,
                    &mut info,
                );
                assert_eq!(status, arbor_status::ARBOR_OK);
            }
            assert_eq!(
                (info.moves, info.last_move, info.komi),
                (1, last.best_move, 7.5)
            );
        }
    }

    /// Root parallelism: the nodes split between two threads, the run's iterations counted,
    /// a legal move, and one thread continuing the first thread's tree afterwards.
    #[cfg(feature = "std")]
    #[test]
    fn two_threads_search_and_one_continues() {
        let mut start = game(9, 7.5);
        let mut bytes = 0usize;
        // SAFETY: valid pointers to locals and to a buffer of `bytes` bytes, 8-aligned.
        let mut buf = unsafe {
            assert_eq!(
                arbor_go_search_bytes(9, 5_000, 2, &mut bytes),
                arbor_status::ARBOR_OK
            );
            let mut buf = vec![0u64; bytes.div_ceil(8)];
            let status = arbor_go_search_init(
                buf.as_mut_ptr().cast(),
                bytes,
                start.as_mut_ptr().cast(),
                start.len() * 8,
                ARBOR_GO_PLAYER_LIGHT,
                2,
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
            buf
        };
        let mut limits = core::mem::MaybeUninit::uninit();
        let mut progress = arbor_search_progress::default();
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_search_limits_init(100, limits.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            let status = arbor_go_search_run(
                buf.as_mut_ptr().cast(),
                buf.len() * 8,
                limits.as_ptr(),
                2,
                &mut progress,
            );
            assert_eq!(status, arbor_status::ARBOR_OK);
        }
        assert_eq!(progress.iterations, progress.iterations_this_call as u64);
        assert!(progress.best_move == super::super::go::ARBOR_GO_PASS || progress.best_move < 81);
        let next = run(&mut buf, 50);
        assert_eq!(next.iterations_this_call, 50);
    }

    #[test]
    fn a_damaged_node_or_state_is_refused_and_slots_past_the_tree_are_never_read() {
        let mut start = game(9, 7.5);
        let mut buf = handle(1_000, ARBOR_GO_PLAYER_LIGHT, &mut start, 1);
        run(&mut buf, 20);
        let nodes_at = HANDLE_HEAD_BYTES + STATE_BYTES + handle_area_bytes(9);
        let mut stats = arbor_go_search_stats::default();
        let tree_stats = |buf: &mut Vec<u64>, stats: &mut arbor_go_search_stats| {
            // SAFETY: valid pointers.
            unsafe { arbor_go_search_tree_stats(buf.as_mut_ptr().cast(), buf.len() * 8, stats) }
        };
        for (at, value) in [
            // The move tag of the root's first child.
            (nodes_at + ARBOR_GO_SEARCH_NODE_BYTES + TAG_OFFSET, 7u8),
            // The move of the root's first child made a point off the board.
            (nodes_at + ARBOR_GO_SEARCH_NODE_BYTES + TAG_OFFSET + 3, 0xFF),
            // The player kind.
            (HANDLE_HEAD_BYTES + offset_of!(State, player), 9),
        ] {
            let mut damaged = buf.clone();
            // SAFETY: `at` is inside the buffer.
            unsafe { damaged.as_mut_ptr().cast::<u8>().add(at).write(value) };
            let status = tree_stats(&mut damaged, &mut stats);
            assert_eq!(status, arbor_status::ARBOR_NOT_INITIALISED, "byte {at}");
        }

        // The move tag of the last node slot, far past the tree: the calls that cannot grow
        // the tree there never form it into a node, and nor does a 1-iteration run; a run
        // without an iteration limit may grow anywhere, so it checks every slot.
        let mut damaged = buf.clone();
        let last = damaged.len() * 8 - ARBOR_GO_SEARCH_NODE_BYTES + TAG_OFFSET;
        // SAFETY: `last` is inside the buffer.
        unsafe { damaged.as_mut_ptr().cast::<u8>().add(last).write(7) };
        assert_eq!(tree_stats(&mut damaged, &mut stats), arbor_status::ARBOR_OK);
        assert_eq!(stats.capacity_nodes, 1_000);
        let mut decision = arbor_go_decision::default();
        // SAFETY: valid pointers.
        let status = unsafe {
            arbor_go_search_decide(
                damaged.as_mut_ptr().cast(),
                damaged.len() * 8,
                &mut decision,
            )
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        assert_eq!(run(&mut damaged, 1).iterations_this_call, 1);
        let mut limits = core::mem::MaybeUninit::uninit();
        let mut progress = arbor_search_progress::default();
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_search_limits_init(0, limits.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            // A cancel first, so that the run would return at once if it were not refused.
            let _ = arbor_go_search_cancel(damaged.as_mut_ptr().cast(), damaged.len() * 8);
            let status = arbor_go_search_run(
                damaged.as_mut_ptr().cast(),
                damaged.len() * 8,
                limits.as_ptr(),
                1,
                &mut progress,
            );
            assert_eq!(status, arbor_status::ARBOR_NOT_INITIALISED);
        }
    }

    /// A run sees only the slots it can grow into; the core's player with the whole
    /// storage, the same seed and the same iterations finds the same tree and move, also
    /// when the storage fills.
    #[test]
    fn a_run_finds_what_the_core_finds_with_the_whole_storage() {
        for (nodes, iterations) in [(100_000u32, 300u32), (300, 400)] {
            let mut start = game(9, 7.5);
            let mut buf = handle(nodes, ARBOR_GO_PLAYER_MOGO, &mut start, 4);
            let progress = run(&mut buf, iterations);
            let mut storage = vec![Node::default(); nodes as usize];
            let config = PlayerConfig {
                seed: 4,
                ..PlayerConfig::mogo(9)
            };
            let mut player = Player::new(&mut storage, 9, config).unwrap();
            let searched = player
                .search(iterations, crate::search::mcts::Never)
                .unwrap();
            let board = player.board();
            assert_eq!(
                progress.best_move,
                searched
                    .summary
                    .best
                    .map_or(ARBOR_SEARCH_NO_MOVE, |mv| code_of(board, mv))
            );
            assert_eq!(progress.best_visits, searched.summary.best_visits);
            assert_eq!(progress.best_value, f64::from(searched.summary.best_value));
            let mut stats = arbor_go_search_stats::default();
            // SAFETY: valid pointers.
            unsafe {
                let _ =
                    arbor_go_search_tree_stats(buf.as_mut_ptr().cast(), buf.len() * 8, &mut stats);
            }
            assert_eq!(stats.nodes_used, searched.nodes);
            assert_eq!(stats.storage_full, u32::from(searched.storage_full));
            assert_eq!(searched.storage_full, nodes == 300, "{nodes}");
        }
    }

    /// `_decide` is the core's `Player::decide` on the handle's tree, and changes nothing.
    #[test]
    fn decide_judges_the_tree_as_the_core_does_and_changes_nothing() {
        let mut start = game(5, 100.5);
        let mut buf = handle(20_000, ARBOR_GO_PLAYER_LIGHT, &mut start, 2);
        let decide = |buf: &mut Vec<u64>| {
            let mut decision = arbor_go_decision::default();
            // SAFETY: valid pointers.
            let status = unsafe {
                arbor_go_search_decide(buf.as_mut_ptr().cast(), buf.len() * 8, &mut decision)
            };
            assert_eq!(status, arbor_status::ARBOR_OK);
            decision
        };
        // Before a run: no move yet, and no visits to resign on.
        let first = decide(&mut buf);
        assert_eq!(first.search_move, ARBOR_SEARCH_NO_MOVE);
        assert_eq!(
            (first.move_to_play, first.resign),
            (super::super::go::ARBOR_GO_PASS, 0)
        );
        // Play past the opening (resignation waits for 25 / 4 moves), then search: a komi
        // of 100.5 is hopeless for Black.
        for mv in [12u32, 6, 18, 8, 16, 0] {
            // SAFETY: valid pointers.
            let status =
                unsafe { arbor_go_search_play(buf.as_mut_ptr().cast(), buf.len() * 8, mv) };
            assert_eq!(status, arbor_status::ARBOR_OK);
        }
        let progress = run(&mut buf, 200);
        let before = buf.clone();
        let decision = decide(&mut buf);
        assert!(buf == before, "decide changes nothing");
        assert_eq!(decide(&mut buf), decision);
        assert_eq!(decision.resign, 1);
        assert_eq!(decision.search_move, progress.best_move);
        assert_eq!(decision.win_rate, progress.best_value);
        assert!(progress.best_value < 0.1);
    }
}
