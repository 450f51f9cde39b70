//! Parallel df-pn on threads with one shared transposition table, after Kaneko's parallel
//! df-pn with *virtual* proof and disproof numbers (AAAI 2010): every thread runs the
//! sequential algorithm of [`super::dfpn`] from the root, and a node that other threads
//! are searching looks costlier than it is, so a thread picks another good child rather
//! than repeat their work.
//!
//! # Design
//!
//! - *Shared table* ([`super::shared_table`]): the sequential table's layout and policy,
//!   lock-free. What one thread proves, the others read at once.
//! - *Busy counts*: a small array of counters, indexed by hash bits, counts the threads
//!   inside each node's recursion (a node is on a thread's current path). Collisions only
//!   make a node look busy by mistake.
//! - *Virtual numbers*: when a thread reads a child that `k` other threads are searching,
//!   it sees both numbers multiplied by `1 + k` (solved numbers stay as they are). A
//!   node's virtual numbers come from its children's by the usual rules; the thread picks
//!   the child, the thresholds and when to return with the virtual numbers, and stores the
//!   *real* numbers (from the real children's) in the table, so the table never holds a
//!   guess. A child returns its virtual numbers to its parent, which uses them for that
//!   child: a node whose children are all busy is abandoned the way an exhausted one is,
//!   and the parent turns to a sibling. With ε = 1 a sequential search switches to the
//!   second-best child once the best one's `dn` passes twice the second's; the factor
//!   `1 + k` sends a second thread to the child the first would take next.
//! - *End*: a thread that finds the root solved, or the shared expansion budget spent,
//!   raises a flag that every thread checks at every node.
//!
//! # What it guarantees
//!
//! The outcome and the winning move are exact whatever the interleaving: a node is stored
//! proved only when its children in the table prove it, and proofs are never undone. The
//! expansion counts, which child each thread explored and the time vary from run to run:
//! this is a parallel mode, not bit-reproducible. With one thread, use the sequential
//! [`super::dfpn::Dfpn`] (the entry points of [`super::run`] do), which is.
//!
//! Why this design rather than the others published: PPN² (job-level, a server and
//! workers, see [`super::ppn2`]) pays a message round trip and a fresh worker tree per job
//! and here touched six times the nodes of df-pn; Pawlewicz and Hayward's SPDFPN shares a
//! table too but hands out jobs with two tuned parameters, which pays off on many cores;
//! on two to a few cores the virtual numbers need no tuning, no server, and keep each
//! thread as fast as the sequential search.
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use super::dfpn::DfpnConfig;
use super::initial_cache::{INITIAL_SLOTS, InitialCache, InitialSlot};
use super::numbers::FromChildren;
use super::shared_table::SharedTable;
use super::{
    INFINITY, MAX_FINITE, Outcome, Progress, Settling, Solvable, SolveStats, first_winning_child,
    initial,
};

/// Children whose numbers a frame keeps (as in the sequential search).
const CACHE: usize = 64;

/// Busy counters: enough that the paths of a few threads (tens of nodes each) rarely
/// share one.
const BUSY_SLOTS: usize = 1 << 16;

/// Expansions a thread takes from the shared budget at a time.
const TICKET: u64 = 1 << 12;

/// Stack of each search thread: the recursion takes about 1.5 KiB a ply, and games may
/// run to hundreds of plies.
const STACK_BYTES: usize = 16 << 20;

/// Why [`ParallelDfpn::new`] or a solve could not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParallelDfpnError {
    /// Fewer entries than one bucket, or no memory for them.
    TableTooSmall,
    /// Zero threads.
    NoThreads,
    /// The operating system refused a thread.
    Spawn,
}

/// Counters one thread publishes (on its own cache line) for progress reports.
#[derive(Default)]
#[repr(align(64))]
struct Published {
    expanded: AtomicU64,
    touched: AtomicU64,
    filled: AtomicU64,
}

/// A parallel df-pn solver owning its shared table.
pub struct ParallelDfpn {
    table: SharedTable,
    busy: Vec<AtomicU16>,
    config: DfpnConfig,
    threads: usize,
    /// Expansions left in the budget.
    remaining: AtomicU64,
    stats: SolveStats,
}

impl ParallelDfpn {
    /// A solver with a table of `entries` entries (the largest power of two of 4-entry
    /// buckets that fits) and `threads` search threads.
    pub fn new(
        entries: usize,
        threads: usize,
        config: DfpnConfig,
    ) -> Result<ParallelDfpn, ParallelDfpnError> {
        if threads == 0 {
            return Err(ParallelDfpnError::NoThreads);
        }
        let table = SharedTable::new(entries).ok_or(ParallelDfpnError::TableTooSmall)?;
        Ok(ParallelDfpn {
            table,
            busy: (0..BUSY_SLOTS).map(|_| AtomicU16::new(0)).collect(),
            config,
            threads,
            remaining: AtomicU64::new(config.max_expansions),
            stats: SolveStats::default(),
        })
    }

    /// The counters, summed over the threads and the solves so far. `peak_used` counts
    /// the entries taken (an entry two threads raced for may count twice).
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Sets the expansion budget, counted over the solver's life (all threads).
    pub fn set_max_expansions(&mut self, max_expansions: u64) {
        self.config.max_expansions = max_expansions;
        self.remaining = AtomicU64::new(max_expansions.saturating_sub(self.stats.expanded));
    }

    /// The numbers the table holds for `position`, if any.
    pub fn table_numbers<G: Solvable>(&self, position: &G) -> Option<(u32, u32)> {
        self.table.probe(position.hash()).map(|e| (e.pn, e.dn))
    }

    /// Solves `root` within what is left of the expansion budget; `progress` hears about
    /// once a second. The table is kept between calls.
    pub fn solve<G>(
        &mut self,
        root: &G,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Outcome, ParallelDfpnError>
    where
        G: Solvable + Sync,
    {
        if let Some(outcome) = self.decided(root) {
            return Ok(outcome);
        }
        let done = AtomicBool::new(false);
        let answer = AtomicU8::new(NOT_YET);
        let published: Vec<Published> = (0..self.threads).map(|_| Published::default()).collect();
        let shared = Shared {
            table: &self.table,
            busy: &self.busy,
            remaining: &self.remaining,
            done: &done,
            answer: &answer,
            config: self.config,
        };
        let before = self.stats;
        let spawned = thread::scope(|scope| {
            let (finished_tx, finished_rx) = mpsc::channel::<()>();
            let mut handles = Vec::with_capacity(self.threads);
            for slot in &published {
                let finished = finished_tx.clone();
                let shared = &shared;
                let handle = thread::Builder::new()
                    .name("parallel-dfpn".into())
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut memo = initial_slots();
                        let mut searcher = Searcher::new(shared, slot, &mut memo);
                        searcher.search_root(root);
                        searcher.publish();
                        let _ = finished.send(());
                    });
                match handle {
                    Ok(handle) => handles.push(handle),
                    Err(_) => {
                        done.store(true, Relaxed);
                        return false;
                    }
                }
            }
            drop(finished_tx);
            let mut running = handles.len();
            while running > 0 {
                match finished_rx.recv_timeout(Duration::from_secs(1)) {
                    Ok(()) => running -= 1,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        let (pn, dn) = self.table_numbers(root).unwrap_or((1, 1));
                        let stats = sum(before, &published);
                        progress(&Progress { stats, pn, dn });
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            true
        });
        self.stats = sum(before, &published);
        if !spawned {
            return Err(ParallelDfpnError::Spawn);
        }
        Ok(match answer.load(Relaxed) {
            WIN => Outcome::Win,
            LOSS => Outcome::Loss,
            _ => self.decided(root).unwrap_or(Outcome::Unknown),
        })
    }

    /// The first winning move of `position` in move order if it is a proved win (see
    /// [`settle`](Self::settle)); `None` otherwise.
    pub fn winning_move<G>(&mut self, position: &G) -> Result<Option<G::Move>, ParallelDfpnError>
    where
        G: Solvable + Sync,
    {
        Ok(self.settle(position)?.0)
    }

    /// The first winning move of `position` in move order when it is a proved win, and
    /// the work that took ([`Settling`]): its children are solved in move order, on all
    /// the threads (the table answers those it knows), until one is a loss for its side
    /// to move; so every thread count reports the same move. If the budget stops that,
    /// the winning move the table's entry names, with `first` false.
    pub fn settle<G>(
        &mut self,
        position: &G,
    ) -> Result<(Option<G::Move>, Settling), ParallelDfpnError>
    where
        G: Solvable + Sync,
    {
        let before = self.stats;
        let mut settling = Settling::default();
        let mut best = None;
        if self.solve(position, &mut |_| {})? == Outcome::Win {
            best = first_winning_child(position, &mut settling, |child| {
                let open = self.decided(child).is_none();
                Ok((open, self.solve(child, &mut |_| {})?))
            })?
            .or_else(|| self.table_winning_move(position));
        }
        settling.stats = self.stats.since(&before);
        Ok((best, settling))
    }

    /// The winning move the table's entry for `position` names, if its child is decided
    /// lost for the opponent: the answer when the settling was stopped.
    fn table_winning_move<G: Solvable>(&self, position: &G) -> Option<G::Move> {
        let entry = self.table.probe(position.hash())?;
        let mut moves = G::Moves::default();
        position.proof_moves(&mut moves);
        let mv = *moves.get(entry.best as usize)?;
        (self.decided(&position.after(mv)) == Some(Outcome::Loss)).then_some(mv)
    }

    /// The outcome of `position` if the table or its initial numbers decide it.
    fn decided<G: Solvable>(&self, position: &G) -> Option<Outcome> {
        let (pn, dn) = match self.table.probe(position.hash()) {
            Some(e) => (e.pn, e.dn),
            None => initial(position, self.config.mobility),
        };
        match (pn, dn) {
            (0, _) => Some(Outcome::Win),
            (_, 0) => Some(Outcome::Loss),
            _ => None,
        }
    }
}

/// A thread's memo of initial numbers ([`super::initial_cache`]): [`INITIAL_SLOTS`]
/// slots, or none if the memory cannot be had (the search is the same, only slower).
fn initial_slots() -> Vec<InitialSlot> {
    let mut slots = Vec::new();
    if slots.try_reserve_exact(INITIAL_SLOTS).is_ok() {
        slots.resize(INITIAL_SLOTS, InitialSlot::default());
    }
    slots
}

/// `before` plus what the threads have published.
fn sum(before: SolveStats, published: &[Published]) -> SolveStats {
    let mut stats = before;
    for p in published {
        stats.expanded += p.expanded.load(Relaxed);
        stats.touched += p.touched.load(Relaxed);
        stats.peak_used += p.filled.load(Relaxed);
    }
    stats
}

/// What the threads share.
struct Shared<'a> {
    table: &'a SharedTable,
    busy: &'a [AtomicU16],
    remaining: &'a AtomicU64,
    done: &'a AtomicBool,
    /// The root's outcome as the thread that saw it solved read it ([`NOT_YET`] before):
    /// the table entry may be replaced by the time the threads have stopped.
    answer: &'a AtomicU8,
    config: DfpnConfig,
}

/// [`Shared::answer`] before the root is solved.
const NOT_YET: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

/// One thread's search.
struct Searcher<'a> {
    shared: &'a Shared<'a>,
    published: &'a Published,
    /// The initial numbers of children not in the table, kept for the parent's next
    /// expansion.
    initial: InitialCache<'a>,
    expanded: u64,
    touched: u64,
    filled: u64,
    /// Expansions taken from the shared budget and not spent yet.
    allowance: u64,
}

impl<'a> Searcher<'a> {
    fn new(
        shared: &'a Shared<'a>,
        published: &'a Published,
        initial: &'a mut [InitialSlot],
    ) -> Searcher<'a> {
        Searcher {
            shared,
            published,
            initial: InitialCache::new(initial),
            expanded: 0,
            touched: 0,
            filled: 0,
            allowance: 0,
        }
    }

    fn publish(&self) {
        self.published.expanded.store(self.expanded, Relaxed);
        self.published.touched.store(self.touched, Relaxed);
        self.published.filled.store(self.filled, Relaxed);
    }

    /// Searches from the root until it is solved or the search must stop.
    fn search_root<G: Solvable>(&mut self, root: &G) {
        while !self.shared.done.load(Relaxed) {
            self.mid(root, INFINITY, INFINITY);
            let (pn, dn) = self.real(root);
            if pn == 0 || dn == 0 {
                self.shared
                    .answer
                    .store(if pn == 0 { WIN } else { LOSS }, Relaxed);
                self.shared.done.store(true, Relaxed);
            }
        }
    }

    /// One more expansion from the budget, `false` (and the end for everyone) if spent.
    fn take_expansion(&mut self) -> bool {
        if self.allowance == 0 {
            let taken = self
                .shared
                .remaining
                .fetch_update(Relaxed, Relaxed, |left| {
                    (left > 0).then(|| left - left.min(TICKET))
                })
                .map_or(0, |left| left.min(TICKET));
            if taken == 0 {
                self.shared.done.store(true, Relaxed);
                return false;
            }
            self.allowance = taken;
        }
        self.allowance -= 1;
        true
    }

    #[inline(always)]
    fn busy_slot(&self, key: u64) -> &AtomicU16 {
        &self.shared.busy[(key >> 40) as usize & (BUSY_SLOTS - 1)]
    }

    /// The real numbers of a position: from the table, else its initial numbers.
    #[inline]
    fn real<G: Solvable>(&mut self, position: &G) -> (u32, u32) {
        self.real_of(position.hash(), || *position)
    }

    /// The real numbers of the position with hash `key`, which `position` makes (only
    /// when neither the table nor the memo knows them).
    #[inline]
    fn real_of<G: Solvable>(&mut self, key: u64, position: impl FnOnce() -> G) -> (u32, u32) {
        self.touched += 1;
        match self.shared.table.probe(key) {
            Some(e) => (e.pn, e.dn),
            None => self
                .initial
                .numbers(key, position, self.shared.config.mobility),
        }
    }

    /// The real and the virtual numbers of the child with hash `key`, which `child`
    /// makes: the virtual ones multiplied by one plus the threads searching it.
    #[inline]
    fn real_and_virtual<G: Solvable>(
        &mut self,
        key: u64,
        child: impl FnOnce() -> G,
    ) -> ((u32, u32), (u32, u32)) {
        let real = self.real_of(key, child);
        let others = u64::from(self.busy_slot(key).load(Relaxed));
        (real, inflate(real, others))
    }

    fn store(&mut self, key: u64, (pn, dn): (u32, u32), work: u32, best: u16) {
        if self.shared.table.store(key, pn, dn, work, best) {
            self.filled += 1;
        }
    }

    /// Searches `position` until its virtual `pn >= thpn` or `dn >= thdn` (or it is
    /// solved, or the search stops); stores its real numbers and returns the expansions
    /// spent and its virtual numbers.
    fn mid<G: Solvable>(&mut self, position: &G, thpn: u32, thdn: u32) -> (u32, (u32, u32)) {
        let key = position.hash();
        let mut moves = G::Moves::default();
        position.proof_moves(&mut moves);
        if moves.is_empty() {
            let numbers = match position.terminal() {
                Some(true) => (0, INFINITY),
                _ => (INFINITY, 0),
            };
            self.store(key, numbers, 0, u16::MAX);
            return (0, numbers);
        }
        if self.shared.done.load(Relaxed) || !self.take_expansion() {
            return (0, self.real(position));
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(1024) {
            self.publish();
        }
        let busy = self.busy_slot(key);
        busy.fetch_add(1, Relaxed);
        let result = self.mid_children(position, key, &moves, thpn, thdn);
        self.busy_slot(key).fetch_sub(1, Relaxed);
        result
    }

    /// The loop of [`mid`](Self::mid) over the children, with this node marked busy.
    fn mid_children<G: Solvable>(
        &mut self,
        position: &G,
        key: u64,
        moves: &[G::Move],
        thpn: u32,
        thdn: u32,
    ) -> (u32, (u32, u32)) {
        let mut work: u32 = 1;
        let mut best_index = u16::MAX;
        let mut real = [(0u32, 0u32); CACHE];
        let mut seen = [(0u32, 0u32); CACHE];
        // Each child's hash waits in its slot of `real` (its two halves) until its numbers
        // replace it, as in the sequential search: no third array to clear.
        for (slot, &mv) in real.iter_mut().zip(moves.iter()) {
            let key = position.after(mv).hash();
            self.shared.table.prefetch(key);
            self.initial.prefetch(key);
            super::prefetch(self.busy_slot(key));
            *slot = super::hash_in_slot(key);
        }
        // Bit i: child i looks different to this thread than the table says (busy, or
        // its own view returned); while none does, the virtual numbers are the real ones.
        let mut differs = 0u64;
        for (i, &mv) in moves.iter().enumerate().take(CACHE) {
            let key = super::hash_from_slot(real[i]);
            (real[i], seen[i]) = self.real_and_virtual(key, || position.after(mv));
            differs |= u64::from(real[i] != seen[i]) << i;
            // A child lost for its side to move proves this node, which returns at once:
            // the children after it would not be read by the rule (`FromChildren::of`).
            if real[i].1 == 0 {
                break;
            }
        }
        let mut searched = usize::MAX;
        let mut searched_key = 0u64;
        let mut returned = (0, 0);
        loop {
            if searched < CACHE {
                let mv = moves[searched];
                real[searched] = self.real_of(searched_key, || position.after(mv));
                // The child's own view of itself, unless the table now knows better.
                let (pn, dn) = real[searched];
                seen[searched] = if pn == 0 || dn == 0 {
                    (pn, dn)
                } else {
                    returned
                };
                differs &= !(1 << searched);
                differs |= u64::from(real[searched] != seen[searched]) << searched;
            }
            let actual =
                FromChildren::of_kept(&real, moves.len(), |i| self.real(&position.after(moves[i])));
            if actual.pn == 0 {
                best_index = actual.best as u16;
            }
            let solved = actual.pn == 0 || actual.dn == 0;
            let virtual_numbers = if solved || (differs == 0 && moves.len() <= CACHE) {
                actual
            } else {
                FromChildren::of_kept(&seen, moves.len(), |i| {
                    let child = position.after(moves[i]);
                    self.real_and_virtual(child.hash(), || child).1
                })
            };
            let stop = self.shared.done.load(Relaxed);
            let actual_numbers = (actual.pn, actual.dn);
            if solved || stop || virtual_numbers.pn >= thpn || virtual_numbers.dn >= thdn {
                self.store(key, actual_numbers, work, best_index);
                let seen_numbers = if solved {
                    actual_numbers
                } else {
                    (virtual_numbers.pn, virtual_numbers.dn)
                };
                return (work, seen_numbers);
            }
            let (child_thpn, child_thdn) =
                virtual_numbers.child_thresholds(thpn, thdn, self.shared.config.epsilon_1024);
            self.store(key, actual_numbers, work, best_index);
            let best = virtual_numbers.best;
            let child = position.after(moves[best]);
            let (spent, child_seen) = self.mid(&child, child_thpn, child_thdn);
            work = work.saturating_add(spent);
            returned = child_seen;
            searched = best;
            searched_key = child.hash();
        }
    }
}

/// Numbers seen through `others` other threads at work below: both multiplied by
/// `1 + others`, below [`INFINITY`]; solved numbers unchanged.
#[inline]
fn inflate((pn, dn): (u32, u32), others: u64) -> (u32, u32) {
    if others == 0 || pn == 0 || dn == 0 {
        return (pn, dn);
    }

    let scale = |n: u32| (u64::from(n) * (1 + others)).min(u64::from(MAX_FINITE)) as u32;
    (scale(pn), scale(dn))
}

#[cfg(test)]
mod tests {
    use super::super::toys::Take;
    use super::*;

    fn expected(game: Take) -> Outcome {
        if game.pile.is_multiple_of(game.limit as u32 + 1) {
            Outcome::Loss
        } else {
            Outcome::Win
        }
    }

    #[test]
    fn two_and_three_threads_solve_the_subtraction_game_with_any_table() {
        // A table far too small may thrash; the budget bounds it, and whatever is
        // answered must be right.
        let config = DfpnConfig {
            max_expansions: 100_000,
            ..DfpnConfig::default()
        };
        for entries in [16usize, 64, 4096] {
            for threads in [2, 3] {
                for pile in 0..40 {
                    for limit in [2u8, 3, 5] {
                        let game = Take { pile, limit };
                        let mut solver = ParallelDfpn::new(entries, threads, config).unwrap();
                        let outcome = solver.solve(&game, &mut |_| {}).unwrap();
                        if entries < 4096 && outcome == Outcome::Unknown {
                            continue;
                        }
                        assert_eq!(outcome, expected(game), "pile {pile} limit {limit}");
                        let best = solver.winning_move(&game).unwrap();
                        assert_eq!(best.is_some(), outcome == Outcome::Win);
                        if let Some(mv) = best {
                            assert_eq!(expected(game.after(mv)), Outcome::Loss);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_budget_is_shared_and_honoured_and_solving_resumes() {
        // One thread needs 1,128 expansions for this pile.
        let game = Take {
            pile: 100,
            limit: 3,
        };
        let config = DfpnConfig {
            max_expansions: 500,
            ..DfpnConfig::default()
        };
        let mut solver = ParallelDfpn::new(1 << 16, 2, config).unwrap();
        assert_eq!(solver.solve(&game, &mut |_| {}), Ok(Outcome::Unknown));
        let expanded = solver.stats().expanded;
        assert!(expanded <= 500, "{expanded}");
        solver.set_max_expansions(u64::MAX);
        assert_eq!(solver.solve(&game, &mut |_| {}), Ok(Outcome::Loss));
        assert!(ParallelDfpn::new(3, 2, config).is_err());
        assert!(ParallelDfpn::new(64, 0, config).is_err());
    }

    #[test]
    fn busy_children_look_costlier_but_solved_ones_do_not() {
        assert_eq!(inflate((3, 5), 0), (3, 5));
        assert_eq!(inflate((3, 5), 1), (6, 10));
        assert_eq!(inflate((3, 5), 2), (9, 15));
        assert_eq!(inflate((0, INFINITY), 3), (0, INFINITY));
        assert_eq!(inflate((INFINITY, 0), 3), (INFINITY, 0));
        assert_eq!(inflate((MAX_FINITE, 7), 1), (MAX_FINITE, 14));
    }
}
