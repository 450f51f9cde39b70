//! Solving within a memory budget, for the command line and other std callers: one
//! function per algorithm that sizes the solver's storage from a number of bytes, runs it
//! with progress reports, and answers a [`Solution`] or a [`SolveError`]. The sizing rules
//! live here, next to the solvers, and nowhere else.
use core::fmt;

use super::dfpn::{BUCKET, Dfpn, DfpnConfig, Entry, INITIAL_SLOTS, InitialSlot};
use super::parallel_dfpn::{ParallelDfpn, ParallelDfpnError};
use super::pns::{Node, Pns, PnsConfig};
use super::ppn2::{self, Ppn2Config, Ppn2Error};
use super::{Outcome, Progress, Settling, Solvable, SolveStats};

/// Expansions between progress reports of the sequential solvers. df-pn resumes from its
/// table after each chunk, which shapes its search: the published expansion counts were
/// measured with this chunk, so it stays.
const CHUNK: u64 = 1 << 20;

/// df-pn's table must hold at least the children of this many plies of its current path,
/// or it may evict what it is working on and thrash without end.
const DFPN_MIN_PLIES: u64 = 64;

/// A proof-number algorithm and its own options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// Proof-number search on a tree.
    Pns,
    /// PN²: a second-level PNS of `job` expansions before each main-tree expansion.
    Pn2 {
        /// Expansions of each second-level search.
        job: u64,
    },
    /// Parallel PN² ([`super::ppn2`]): a server tree and `threads` workers.
    Ppn2 {
        /// Worker threads.
        threads: usize,
        /// Expansions per job.
        job: u64,
        /// Expansions between partial results (0: none).
        partial: u64,
    },
    /// df-pn with the 1+ε trick ([`super::dfpn`]).
    Dfpn {
        /// ε in 1/1024ths.
        epsilon_1024: u32,
    },
    /// Parallel df-pn on a shared table ([`super::parallel_dfpn`]); one thread is
    /// [`Algorithm::Dfpn`], bit for bit.
    ParallelDfpn {
        /// Search threads.
        threads: usize,
        /// ε in 1/1024ths.
        epsilon_1024: u32,
    },
}

/// What every algorithm honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Bytes for the solver's trees or table, all included; each df-pn thread keeps a
    /// further [`INITIAL_SLOTS`] slots (1 MiB) of initial numbers apart.
    pub memory_bytes: u64,
    /// Initial disproof numbers from the number of legal moves.
    pub mobility: bool,
    /// Stop with `Unknown` after this many expansions (main-tree expansions for PN² and
    /// PPN²; all threads together for parallel df-pn).
    pub max_expansions: u64,
}

/// A solver's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// Win or loss for the side to move, or unknown (see `stats.out_of_storage`).
    pub outcome: Outcome,
    /// The first winning move in move order when the outcome is a win, whatever the
    /// algorithm and its threads (a winning move all the same if the settling ran out of
    /// storage: see `settling.first`).
    pub winning_move: Option<M>,
    /// The proof's counters, up to the moment the root was solved.
    pub stats: SolveStats,
    /// The settling of the winning move after a win: its own counters, apart.
    pub settling: Settling,
}

/// Why a solve could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The memory budget is below what the algorithm needs to make progress.
    TooLittleMemory {
        /// The least budget accepted, in bytes.
        needed_bytes: u64,
    },
    /// The memory budget could not be allocated.
    Allocation,
    /// A thread count of zero, or a job of zero expansions.
    BadOption(&'static str),
    /// The operating system refused a thread.
    Threads,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLittleMemory { needed_bytes } => write!(
                f,
                "too little memory for this algorithm: it needs at least {needed_bytes} bytes"
            ),
            SolveError::Allocation => write!(f, "could not allocate the memory budget"),
            SolveError::BadOption(what) => write!(f, "{what}"),
            SolveError::Threads => write!(f, "could not start the search threads"),
        }
    }
}

impl std::error::Error for SolveError {}

/// The result type of the solvers here.
pub type Solved<M> = Result<Solution<M>, SolveError>;

/// Runs `algorithm` on `root` (see the functions per algorithm).
pub fn solve<G>(
    root: G,
    algorithm: Algorithm,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solved<G::Move>
where
    G: Solvable + Send + Sync,
    G::Move: Send,
{
    match algorithm {
        Algorithm::Pns => solve_pns(root, None, options, progress),
        Algorithm::Pn2 { job } => solve_pns(root, Some(job), options, progress),
        Algorithm::Ppn2 {
            threads,
            job,
            partial,
        } => solve_ppn2(root, threads, job, partial, options, progress),
        Algorithm::Dfpn { epsilon_1024 } => solve_dfpn(root, epsilon_1024, options, progress),
        Algorithm::ParallelDfpn {
            threads,
            epsilon_1024,
        } => solve_parallel_dfpn(root, threads, epsilon_1024, options, progress),
    }
}

/// A vector of `len` copies of `value` (in huge pages where the system gives them), or
/// [`SolveError::Allocation`].
fn storage<T: Clone>(len: usize, value: T) -> Result<Vec<T>, SolveError> {
    super::table_memory::table_vec(len, || value.clone()).ok_or(SolveError::Allocation)
}

fn node_bytes<G: Solvable>() -> u64 {
    size_of::<Node<G::Move>>() as u64
}

/// Nodes for a whole job: each expansion adds at most
/// [`Game::MAX_MOVES`](crate::search::Game::MAX_MOVES) children.
fn job_nodes<G: Solvable>(job: u64) -> u64 {
    job.saturating_mul(G::MAX_MOVES as u64).saturating_add(1)
}

/// PNS (`job` `None`) or PN² (`Some(job)`): the main tree gets the memory, less, for PN²,
/// a second level with room for its whole job (at most half). Needs room for the root
/// and its children in each tree.
pub fn solve_pns<G: Solvable>(
    root: G,
    job: Option<u64>,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solved<G::Move> {
    if job == Some(0) {
        return Err(SolveError::BadOption("--job must be at least 1"));
    }
    let node_bytes = node_bytes::<G>();
    let nodes = options.memory_bytes / node_bytes;
    let smallest = G::MAX_MOVES as u64 + 1;
    let trees = if job.is_some() { 2 } else { 1 };
    if nodes < trees * smallest {
        return Err(SolveError::TooLittleMemory {
            needed_bytes: trees * smallest * node_bytes,
        });
    }
    let second_nodes = job.map_or(0, |job| job_nodes::<G>(job).min(nodes / 2));
    let mut second = storage(second_nodes as usize, Node::blank(G::Move::default()))?;
    let capacity = (nodes - second_nodes).min(u32::MAX as u64 - 1) as usize;
    let mut main = storage(capacity, Node::blank(G::Move::default()))?;
    let config = PnsConfig {
        mobility: options.mobility,
    };
    let mut pns = Pns::new(&mut main, root, config).map_err(|_| SolveError::TooLittleMemory {
        needed_bytes: smallest * node_bytes,
    })?;
    // Runs until the top of the search (the root, or the child being settled) is solved,
    // the storage is full or `budget` expansions are done, with a progress report per chunk.
    let mut search = |pns: &mut Pns<'_, G>, budget: u64| {
        while pns.stats().expanded < budget {
            let step = CHUNK.min(budget - pns.stats().expanded);
            match job {
                None => pns.run(step),
                Some(job) => pns.run_pn2(step.min(1 << 12), &mut second, |_| job),
            };
            let (pn, dn) = pns.root_numbers();
            progress(&Progress {
                stats: pns.stats(),
                pn,
                dn,
            });
            if pns.top_solved() || pns.stats().out_of_storage {
                break;
            }
        }
    };
    search(&mut pns, options.max_expansions);
    let stats = pns.stats();
    // The settling is bounded by the storage only, as df-pn's winning move by nothing.
    let settling = pns.settle(|pns| search(pns, u64::MAX));
    Ok(Solution {
        outcome: pns.outcome(),
        winning_move: pns.winning_move(),
        stats,
        settling,
    })
}

/// Parallel PN² with `threads` workers: each worker gets room for its whole job (at most
/// half the memory over all workers), the server tree the rest.
pub fn solve_ppn2<G>(
    root: G,
    threads: usize,
    job: u64,
    partial: u64,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solved<G::Move>
where
    G: Solvable + Send,
    G::Move: Send,
{
    if threads == 0 {
        return Err(SolveError::BadOption("--threads must be at least 1"));
    }
    if job == 0 {
        return Err(SolveError::BadOption("--job must be at least 1"));
    }
    let node_bytes = node_bytes::<G>();
    let nodes = options.memory_bytes / node_bytes;
    let smallest = G::MAX_MOVES as u64 + 1;
    let needed = smallest * (threads as u64 + 1) * 2;
    if nodes < needed {
        return Err(SolveError::TooLittleMemory {
            needed_bytes: needed * node_bytes,
        });
    }
    let worker_nodes = job_nodes::<G>(job).min(nodes / (2 * threads as u64));
    let server_nodes = (nodes - worker_nodes * threads as u64).min(u32::MAX as u64 - 1);
    let config = Ppn2Config {
        threads,
        job,
        partial,
        server_nodes: server_nodes as usize,
        worker_nodes: worker_nodes as usize,
        mobility: options.mobility,
        max_expansions: options.max_expansions,
    };
    let served = ppn2::solve(root, &config, progress).map_err(|error| match error {
        Ppn2Error::NothingToRunOn => SolveError::BadOption("--threads must be at least 1"),
        Ppn2Error::Spawn => SolveError::Threads,
        Ppn2Error::Allocation => SolveError::Allocation,
    })?;
    Ok(Solution {
        outcome: served.outcome,
        winning_move: served.winning_move,
        stats: served.stats,
        settling: served.settling,
    })
}

/// Parallel PN² on processes (one server, `clients` workers, each in a process of its own,
/// as the harness's MPI mode runs it): every process gets `options.memory_bytes`; a client
/// takes room for its whole job (at most half), the server all of it for its tree.
pub fn ppn2_config_per_process<G: Solvable>(
    clients: usize,
    job: u64,
    partial: u64,
    options: &SolveOptions,
) -> Result<Ppn2Config, SolveError> {
    if clients == 0 {
        return Err(SolveError::BadOption(
            "parallel PN² needs at least one client",
        ));
    }
    if job == 0 {
        return Err(SolveError::BadOption("--job must be at least 1"));
    }
    let node_bytes = node_bytes::<G>();
    let nodes = options.memory_bytes / node_bytes;
    let smallest = (G::MAX_MOVES as u64 + 1) * 2;
    if nodes < smallest {
        return Err(SolveError::TooLittleMemory {
            needed_bytes: smallest * node_bytes,
        });
    }
    Ok(Ppn2Config {
        threads: clients,
        job,
        partial,
        server_nodes: nodes.min(u32::MAX as u64 - 1) as usize,
        worker_nodes: job_nodes::<G>(job).min(nodes / 2) as usize,
        mobility: options.mobility,
        max_expansions: options.max_expansions,
    })
}

/// Entries of a df-pn table in `options.memory_bytes`, or the error if too few.
fn dfpn_entries<G: Solvable>(options: &SolveOptions) -> Result<u64, SolveError> {
    let entry_bytes = size_of::<Entry>() as u64;
    let smallest = (DFPN_MIN_PLIES * G::MAX_MOVES as u64).max(BUCKET as u64);
    let entries = options.memory_bytes / entry_bytes;
    if entries < smallest {
        return Err(SolveError::TooLittleMemory {
            needed_bytes: smallest * entry_bytes,
        });
    }
    Ok(entries)
}

/// df-pn with its table in the memory budget (at least 64 plies' worth of children,
/// [`Game::MAX_MOVES`](crate::search::Game::MAX_MOVES) each), in chunks of 2^20 expansions with a progress report
/// after each; then the first winning move in move order, whatever the budget left.
pub fn solve_dfpn<G: Solvable>(
    root: G,
    epsilon_1024: u32,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solved<G::Move> {
    // BUCKET - 1 entries of slack, so that the buckets can start on a cache line whatever
    // the allocator's alignment (see the table's notes).
    let entries = dfpn_entries::<G>(options)? as usize + BUCKET - 1;
    let mut table = storage(entries, Entry::default())?;
    let mut initial = storage(INITIAL_SLOTS, InitialSlot::default())?;
    let budget = options.max_expansions;
    let config = DfpnConfig {
        mobility: options.mobility,
        max_expansions: CHUNK.min(budget),
        epsilon_1024,
    };
    let mut dfpn = Dfpn::with_initial_cache(&mut table, &mut initial, config).map_err(|_| {
        SolveError::TooLittleMemory {
            needed_bytes: (BUCKET * size_of::<Entry>()) as u64,
        }
    })?;
    let mut outcome;
    loop {
        outcome = dfpn.solve(&root);
        let (pn, dn) = dfpn.table_numbers(&root).unwrap_or((1, 1));
        progress(&Progress {
            stats: dfpn.stats(),
            pn,
            dn,
        });
        let spent = dfpn.stats().expanded;
        if outcome != Outcome::Unknown || spent >= budget {
            break;
        }
        dfpn.set_max_expansions(spent.saturating_add(CHUNK).min(budget));
    }
    let stats = dfpn.stats();
    let (winning_move, settling) = if outcome == Outcome::Win {
        dfpn.set_max_expansions(u64::MAX);
        dfpn.settle(&root)
    } else {
        (None, Settling::default())
    };
    Ok(Solution {
        outcome,
        winning_move,
        stats,
        settling,
    })
}

/// Parallel df-pn with `threads` threads on one table in the memory budget; one thread is
/// [`solve_dfpn`]. A parallel mode: the outcome and the move are exact, the counts vary
/// from run to run.
pub fn solve_parallel_dfpn<G>(
    root: G,
    threads: usize,
    epsilon_1024: u32,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solved<G::Move>
where
    G: Solvable + Sync,
{
    match threads {
        0 => return Err(SolveError::BadOption("--threads must be at least 1")),
        1 => return solve_dfpn(root, epsilon_1024, options, progress),
        _ => {}
    }
    let entries = dfpn_entries::<G>(options)?;
    let config = DfpnConfig {
        mobility: options.mobility,
        max_expansions: options.max_expansions,
        epsilon_1024,
    };
    let error = |e| match e {
        ParallelDfpnError::TableTooSmall => SolveError::Allocation,
        ParallelDfpnError::NoThreads => SolveError::BadOption("--threads must be at least 1"),
        ParallelDfpnError::Spawn => SolveError::Threads,
    };
    let mut dfpn = ParallelDfpn::new(entries as usize, threads, config).map_err(error)?;
    let outcome = dfpn.solve(&root, progress).map_err(error)?;
    let stats = dfpn.stats();
    let (winning_move, settling) = if outcome == Outcome::Win {
        dfpn.set_max_expansions(u64::MAX);
        dfpn.settle(&root).map_err(error)?
    } else {
        (None, Settling::default())
    };
    Ok(Solution {
        outcome,
        winning_move,
        stats,
        settling,
    })
}
