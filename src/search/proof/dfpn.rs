//! Depth-first proof-number search (Nagai's df-pn) with a fixed-size transposition table in
//! caller storage.
//!
//! The recursion `mid(n, thpn, thdn)` searches below `n` until its proof number reaches
//! `thpn` or its disproof number reaches `thdn`, always into the child with the smallest
//! disproof number, with the 1+ε trick (Pawlewicz and Lew) for the second-best threshold:
//! the best child may work until its disproof number exceeds `second * (1 + ε) + 1` rather
//! than `second + 1`, which cuts the switching between siblings.
//!
//! # Transposition table
//!
//! See [`super::table`]: 16-byte entries in one-cache-line buckets, the small-tree-size
//! replacement policy. Nothing is allocated.
//!
//! Positions must form a DAG (no repetition), so there is no graph-history interaction.
//! The recursion is as deep as the longest line explored; each frame keeps a move list and
//! 64 pairs of numbers on the stack (about 1 KiB for Breakthrough).
//! Expansions are counted; the search stops with [`Outcome::Unknown`] at the budget.

use super::initial_cache::InitialCache;
pub use super::initial_cache::{INITIAL_SLOTS, InitialSlot};
use super::numbers::FromChildren;
use super::table::Table;
pub use super::table::{BUCKET, Entry, TableTooSmall};
use super::{INFINITY, Outcome, Settling, Solvable, SolveStats, first_winning_child};

/// Children whose numbers a frame of the recursion keeps (more are read from the table
/// each time). Each frame holds this many pairs of `u32` on the stack.
const CACHE: usize = 64;

/// ε of the 1+ε trick by default, in 1/1024ths (ε = 0.375).
pub const DEFAULT_EPSILON_1024: u32 = 384;

/// Options of df-pn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DfpnConfig {
    /// Initial disproof numbers from the number of legal moves.
    pub mobility: bool,
    /// ε of the 1+ε trick, in 1/1024ths (0 gives plain df-pn). The default, 384 (ε =
    /// 0.375), took the fewest expansions on 5x5 and 6x5 with the race patterns (31% and
    /// 42% fewer than ε = 1, see docs/breakthrough-solving.md), 10% fewer on 4x5, 18% more
    /// on 3x7.
    pub epsilon_1024: u32,
    /// Stop with `Unknown` after this many expansions.
    pub max_expansions: u64,
}

impl Default for DfpnConfig {
    fn default() -> DfpnConfig {
        DfpnConfig {
            mobility: true,
            epsilon_1024: DEFAULT_EPSILON_1024,
            max_expansions: u64::MAX,
        }
    }
}

/// A df-pn solver over a borrowed table.
pub struct Dfpn<'a, G: Solvable> {
    table: Table<'a>,
    /// The initial numbers of children not in the table, kept for the parent's next
    /// expansion (see [`super::initial_cache`]).
    initial: InitialCache<'a>,
    config: DfpnConfig,
    stats: SolveStats,
    stop: bool,
    _game: core::marker::PhantomData<G>,
}

impl<'a, G: Solvable> Dfpn<'a, G> {
    /// A solver over `table` (at least one bucket; the largest power of two of buckets
    /// that fits is used, see [`super::table`]). The table is cleared.
    pub fn new(table: &'a mut [Entry], config: DfpnConfig) -> Result<Self, TableTooSmall> {
        Dfpn::with_initial_cache(table, &mut [], config)
    }

    /// A solver over `table` that also keeps the initial numbers of the positions it reads
    /// in `initial` (the largest power of two of slots; [`INITIAL_SLOTS`] is a good size):
    /// the same search, expansion for expansion, with fewer instructions each (see
    /// [`super::initial_cache`]). Both are cleared.
    pub fn with_initial_cache(
        table: &'a mut [Entry],
        initial: &'a mut [InitialSlot],
        config: DfpnConfig,
    ) -> Result<Self, TableTooSmall> {
        Ok(Dfpn {
            table: Table::new(table)?,
            initial: InitialCache::new(initial),
            config,
            stats: SolveStats::default(),
            stop: false,
            _game: core::marker::PhantomData,
        })
    }

    /// The counters.
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Raises (or lowers) the expansion budget, counted over the solver's life; a solve
    /// stopped by the budget resumes from its table when called again.
    pub fn set_max_expansions(&mut self, max_expansions: u64) {
        self.config.max_expansions = max_expansions;
    }

    /// The numbers the table holds for `position`, if any.
    pub fn table_numbers(&self, position: &G) -> Option<(u32, u32)> {
        self.table.probe(position.hash()).map(|e| (e.pn, e.dn))
    }

    /// Table entries in use now.
    pub fn entries_in_use(&self) -> u64 {
        self.table.in_use()
    }

    /// Solves `root` within the expansion budget (counted over the solver's life). The
    /// table is kept between calls, so later solves reuse earlier work.
    pub fn solve(&mut self, root: &G) -> Outcome {
        self.stop = false;
        let (pn, dn) = self.numbers(root);
        if pn == 0 {
            return Outcome::Win;
        }
        if dn == 0 {
            return Outcome::Loss;
        }
        self.mid(root, INFINITY, INFINITY);
        match self.numbers(root) {
            (0, _) => Outcome::Win,
            (_, 0) => Outcome::Loss,
            _ => Outcome::Unknown,
        }
    }

    /// The first winning move of `position` in move order if it is won (see
    /// [`settle`](Self::settle)); `None` if it is not a proved win.
    pub fn winning_move(&mut self, position: &G) -> Option<G::Move> {
        self.settle(position).0
    }

    /// The first winning move of `position` in move order when it is a proved win, and
    /// the work that took ([`Settling`]): its children are solved in move order (the
    /// table answers those it knows) until one is a loss for its side to move. If the
    /// budget stops that, the winning move the table's entry names, with `first` false.
    pub fn settle(&mut self, position: &G) -> (Option<G::Move>, Settling) {
        let before = self.stats;
        let mut settling = Settling::default();
        let mut best = None;
        if self.solve(position) == Outcome::Win {
            let Ok(found) = first_winning_child(position, &mut settling, |child| {
                let (pn, dn) = self.numbers(child);
                Ok::<_, core::convert::Infallible>((pn != 0 && dn != 0, self.solve(child)))
            });
            best = found.or_else(|| self.table_winning_move(position));
        }
        settling.stats = self.stats.since(&before);
        (best, settling)
    }

    /// The winning move the table's entry for `position` names, if its child is proved lost
    /// for the opponent: the answer when the settling was stopped.
    fn table_winning_move(&mut self, position: &G) -> Option<G::Move> {
        let entry = self.table.probe(position.hash())?;
        let mut moves = G::Moves::default();
        position.proof_moves(&mut moves);
        let mv = *moves.get(entry.best as usize)?;
        (self.numbers(&position.after(mv)).1 == 0).then_some(mv)
    }

    /// Solves `root` in `table` with `config` and, for a win, finds a winning move (within
    /// the same budget): the whole job of a caller that brings its own table, such as the
    /// C ABI. `Err` if the table is below one bucket.
    pub fn solve_in(
        table: &'a mut [Entry],
        root: &G,
        config: DfpnConfig,
    ) -> Result<(Outcome, Option<G::Move>, SolveStats), TableTooSmall> {
        let mut solver = Dfpn::new(table, config)?;
        let outcome = solver.solve(root);
        let best = match outcome {
            Outcome::Win => solver.winning_move(root),
            _ => None,
        };
        Ok((outcome, best, solver.stats()))
    }

    fn store(&mut self, key: u64, pn: u32, dn: u32, work: u32, best: u16) {
        self.table.store(key, pn, dn, work, best);
        self.stats.peak_used = self.stats.peak_used.max(self.table.in_use());
    }

    /// The numbers of a position: from the table, else its initial numbers.
    fn numbers(&mut self, position: &G) -> (u32, u32) {
        self.numbers_of(position.hash(), || *position)
    }

    /// The numbers of the position with hash `key`, which `position` makes (only when
    /// neither the table nor the memo knows them).
    #[inline]
    fn numbers_of(&mut self, key: u64, position: impl FnOnce() -> G) -> (u32, u32) {
        self.stats.touched += 1;
        match self.table.probe(key) {
            Some(e) => (e.pn, e.dn),
            None => self.initial.numbers(key, position, self.config.mobility),
        }
    }

    /// Searches `position` until `pn >= thpn` or `dn >= thdn`; leaves its numbers in the
    /// table and returns the expansions spent and those numbers (`None` when the budget
    /// stopped it before it stored any), which a probe of the table would read back.
    fn mid(&mut self, position: &G, thpn: u32, thdn: u32) -> (u32, Option<(u32, u32)>) {
        let key = position.hash();
        let mut moves = G::Moves::default();
        position.proof_moves(&mut moves);
        if moves.is_empty() {
            let (pn, dn) = match position.terminal() {
                Some(true) => (0, INFINITY),
                _ => (INFINITY, 0),
            };
            self.store(key, pn, dn, 0, u16::MAX);
            return (0, Some((pn, dn)));
        }
        if self.stats.expanded >= self.config.max_expansions {
            self.stop = true;
            return (0, None);
        }
        self.stats.expanded += 1;
        let mut work: u32 = 1;
        let mut best_index = u16::MAX;
        // The children's numbers, read once; afterwards only the child just searched is
        // read again. Siblings may go stale through transpositions, which only makes their
        // numbers less informed: solved values never change, so proofs stay exact.
        let mut cache = [(0u32, 0u32); CACHE];
        self.read_children(position, &moves, &mut cache);
        let mut searched = usize::MAX;
        let mut searched_key = 0u64;
        let mut returned = None;
        loop {
            if searched < CACHE {
                cache[searched] = match returned {
                    // What the child stored, as the table's probe would read it (counted
                    // as the probe was).
                    Some(numbers) => {
                        self.stats.touched += 1;
                        numbers
                    }
                    None => {
                        let mv = moves[searched];
                        self.numbers_of(searched_key, || position.after(mv))
                    }
                };
            }
            let numbers = FromChildren::of_kept(&cache, moves.len(), |i| {
                self.numbers(&position.after(moves[i]))
            });
            let (pn, dn, best) = (numbers.pn, numbers.dn, numbers.best);
            if pn == 0 {
                best_index = best as u16;
            }
            if pn >= thpn || dn >= thdn || self.stop {
                self.store(key, pn, dn, work, best_index);
                return (work, Some((pn, dn)));
            }
            let (child_thpn, child_thdn) =
                numbers.child_thresholds(thpn, thdn, self.config.epsilon_1024);
            // Record progress before descending so that the child's entry does not evict
            // this node's current numbers for nothing.
            self.store(key, pn, dn, work, best_index);
            let child = position.after(moves[best]);
            let spent;
            (spent, returned) = self.mid(&child, child_thpn, child_thdn);
            work = work.saturating_add(spent);
            searched = best;
            searched_key = child.hash();
        }
    }

    /// Reads the numbers of the first [`CACHE`] children into `cache`, each child's hash
    /// computed once for its prefetches and its probe, and kept in the child's slot (its
    /// two halves) until the numbers replace it: a second array for the hashes cost a
    /// 512-byte clear every expansion. Apart from `mid` so that its work space is off the
    /// stack while `mid` recurses (embedded callers size their stacks by the solve's need).
    #[inline(never)]
    fn read_children(&mut self, position: &G, moves: &[G::Move], cache: &mut [(u32, u32); CACHE]) {
        for (slot, &mv) in cache.iter_mut().zip(moves.iter()) {
            let key = position.after(mv).hash();
            self.table.prefetch(key);
            self.initial.prefetch(key);
            *slot = super::hash_in_slot(key);
        }
        for (slot, &mv) in cache.iter_mut().zip(moves.iter()) {
            let key = super::hash_from_slot(*slot);
            *slot = self.numbers_of(key, || position.after(mv));
            // A child lost for its side to move proves this node, which returns at once:
            // the children after it (their slots still hold hashes) are never read, as
            // the rule reads none after it (`FromChildren::of`).
            if slot.1 == 0 {
                break;
            }
        }
    }
}
