//! Proof-number solvers, generic over a small game trait: proof-number search (PNS, and
//! PN² on top of it) on a node tree in caller storage, and depth-first proof-number search
//! (df-pn) with a transposition table in caller storage. With the `std` feature, two
//! parallel solvers on threads, parallel PN² ([`ppn2`]) and parallel df-pn on a shared
//! table ([`parallel_dfpn`]), and entry points that size any of them from a memory budget
//! ([`run`]).
//!
//! # Conventions
//!
//! Numbers are kept in *negamax* form: every node stores `pn`, the effort to prove that the
//! side to move there wins, and `dn`, the effort to prove that it loses. A node's numbers
//! come from its children's by `pn = min dn(child)` and `dn = sum pn(child)`. This is
//! Table 1 of Saffidine, Jouandeau and Cazenave (Max nodes: PN = min, DN = sum; Min nodes:
//! PN = sum, DN = min) with the two numbers swapped at every Min node, so the descent to a
//! most-proving node always follows the child with the smallest `dn`.
//!
//! A terminal node where the side to move has lost is `(INFINITY, 0)`; a frontier node is
//! `(1, 1)`, or `(1, d)` with the mobility heuristic, `d` the game's
//! [`ProofHints::disproof_estimate`]: by default the number of legal moves (to disprove a
//! node every move must be refuted). Sums saturate below [`INFINITY`].

use crate::search::game::{ProofHint, ProofHints, Turn};

pub mod dfpn;
mod initial_cache;
mod numbers;
#[cfg(feature = "std")]
pub mod parallel_dfpn;
pub mod pns;
#[cfg(feature = "std")]
pub mod ppn2;
#[cfg(feature = "std")]
pub mod run;
#[cfg(feature = "std")]
mod shared_table;
mod table;
#[cfg(feature = "std")]
mod table_memory;

/// The proof or disproof number of a solved node: "cannot be done".
pub const INFINITY: u32 = u32::MAX;

/// The largest finite proof or disproof number; sums saturate here.
pub const MAX_FINITE: u32 = u32::MAX - 1;

/// The game interface as the solvers call it, derived once for every copyable game with
/// [`ProofHints`] (two players alternating, no draws, no cycles, no chance, the game ends):
/// callers implement `Game` and `ProofHints`, never this.
pub trait Solvable: ProofHints + Copy {
    /// `Some(true)` when the game is over and the side to move has won, `Some(false)` when
    /// it is over and the side to move has lost, `None` while it goes on.
    fn terminal(&self) -> Option<bool>;
    /// The legal moves less those [`ProofHints::prune_losing_moves`] leaves out, in the
    /// game's order.
    fn proof_moves(&self, moves: &mut Self::Moves);
    /// The position after a legal move.
    fn after(&self, mv: Self::Move) -> Self;
}

impl<G: ProofHints + Copy> Solvable for G {
    #[inline]
    fn terminal(&self) -> Option<bool> {
        match self.turn() {
            Turn::Over => Some(self.returns()[usize::from(self.to_move().min(1))] >= 1.0),
            Turn::Player(_) | Turn::Chance => None,
        }
    }

    #[inline]
    fn proof_moves(&self, moves: &mut Self::Moves) {
        self.legal_moves(moves);
        self.prune_losing_moves(moves);
    }

    #[inline]
    fn after(&self, mv: Self::Move) -> Self {
        let mut next = *self;
        next.play(mv);
        next
    }
}

/// The answer of a solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move at the root wins.
    Win,
    /// The side to move at the root loses.
    Loss,
    /// Not decided within the node budget or the storage.
    Unknown,
}

/// Counters that every solver fills in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Nodes whose children were generated (with df-pn, re-expansions count again).
    pub expanded: u64,
    /// Nodes whose numbers were set or read for a child (touched nodes).
    pub touched: u64,
    /// Times the solver freed solved subtrees (PNS) to make room.
    pub collections: u32,
    /// Largest number of nodes (PNS) or table entries (df-pn) in use at once.
    pub peak_used: u64,
    /// Whether the search stopped because storage was exhausted (rather than the budget).
    pub out_of_storage: bool,
}

impl SolveStats {
    /// The work done since `before` (an earlier snapshot of the same solver): the
    /// differences of the counts, the peak and the storage flag as they are now.
    pub fn since(&self, before: &SolveStats) -> SolveStats {
        SolveStats {
            expanded: self.expanded.saturating_sub(before.expanded),
            touched: self.touched.saturating_sub(before.touched),
            collections: self.collections.saturating_sub(before.collections),
            peak_used: self.peak_used,
            out_of_storage: self.out_of_storage,
        }
    }
}

/// The work after a proof of a win that makes the reported winning move the *first*
/// winning move in move order, a function of the position alone: every child of the root
/// before it that the proof left open is solved, in move order, until one is a win. A
/// parallel proof may prove any winning child first; the settling makes every solver,
/// thread count and rank count report the same move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settling {
    /// Children of the root that the settling had to solve (the proof had left them open).
    pub settled: u32,
    /// Whether the winning move reported is the first in move order (`false` when the
    /// outcome is not a win, or when the settling ran out of storage).
    pub first: bool,
    /// The settling's own counters, apart from the proof's.
    pub stats: SolveStats,
}

/// The settling of the table solvers (df-pn, parallel df-pn): the children of `position`
/// (a proved win) in move order, each through `solve_child`, which says whether the child
/// was open before and solves it, until one is a loss for its side to move: that move,
/// with `settling.first` set and `settling.settled` counting the open children solved.
/// `None` if a child stays unknown (a budget) or every move loses.
pub(crate) fn first_winning_child<G: Solvable, E>(
    position: &G,
    settling: &mut Settling,
    mut solve_child: impl FnMut(&G) -> Result<(bool, Outcome), E>,
) -> Result<Option<G::Move>, E> {
    let mut moves = G::Moves::default();
    position.proof_moves(&mut moves);
    for &mv in moves.iter() {
        let (open, outcome) = solve_child(&position.after(mv))?;
        settling.settled += u32::from(open);
        match outcome {
            Outcome::Win => continue,
            Outcome::Loss => {
                settling.first = true;
                return Ok(Some(mv));
            }
            Outcome::Unknown => return Ok(None),
        }
    }
    Ok(None)
}

/// What a long solve reports now and then: the counters and the root's numbers so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The counters so far.
    pub stats: SolveStats,
    /// The root's proof number.
    pub pn: u32,
    /// The root's disproof number.
    pub dn: u32,
}

/// Saturating sum of proof numbers, never reaching [`INFINITY`] unless one term is.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    if a == INFINITY || b == INFINITY {
        INFINITY
    } else {
        a.saturating_add(b).min(MAX_FINITE)
    }
}

/// A child's hash held in the slot its numbers will take (its two halves), so that the
/// df-pns read their children without a separate array of hashes to clear each expansion.
#[inline(always)]
pub(crate) fn hash_in_slot(key: u64) -> (u32, u32) {
    (key as u32, (key >> 32) as u32)
}

/// The hash that [`hash_in_slot`] put in `slot`.
#[inline(always)]
pub(crate) fn hash_from_slot(slot: (u32, u32)) -> u64 {
    u64::from(slot.0) | u64::from(slot.1) << 32
}

/// Starts loading the cache line of `item` (a table bucket or memo slot whose probe comes
/// soon): df-pn reads all children of a node at once, and their lines are random lines of
/// tables far larger than the caches. Measured: the prefetch halved the sequential 5x5
/// solve, whose time is mostly table misses.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let line: *const T = item;
        // SAFETY: SSE is part of the x86-64 baseline, so the instruction exists; a prefetch
        // only hints the cache, never reads into the program nor faults, and the pointer is
        // to a value we borrow.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Initial numbers of a node that has just been reached (not expanded): terminal values,
/// early win detection, static knowledge, then the frontier values.
#[inline]
pub(crate) fn initial<G: Solvable>(position: &G, mobility: bool) -> (u32, u32) {
    match position.terminal() {
        Some(true) => return (0, INFINITY),
        Some(false) => return (INFINITY, 0),
        None => {}
    }
    match position.proof_hint(mobility) {
        ProofHint::Win => (0, INFINITY),
        ProofHint::Loss => (INFINITY, 0),
        ProofHint::Open(estimate) if mobility => (1, estimate.clamp(1, MAX_FINITE)),
        ProofHint::Open(_) => (1, 1),
    }
}

#[cfg(test)]
pub(crate) mod toys;

#[cfg(test)]
mod tests {
    use super::dfpn::{Dfpn, DfpnConfig, Entry};
    use super::pns::{Node, Pns, PnsConfig};
    use super::toys::{Take, TwoPiles};
    use super::*;

    fn expected(game: Take) -> Outcome {
        if !game.pile.is_multiple_of(game.limit as u32 + 1) {
            Outcome::Win
        } else {
            Outcome::Loss
        }
    }

    #[test]
    fn pns_solves_the_subtraction_game() {
        for pile in 0..14 {
            for mobility in [false, true] {
                let game = Take { pile, limit: 3 };
                let mut nodes = [Node::default(); 4000];
                let mut pns = Pns::new(&mut nodes, game, PnsConfig { mobility }).unwrap();
                assert_eq!(pns.run(u64::MAX), expected(game), "pile {pile}");
                if expected(game) == Outcome::Win {
                    let mv = pns.winning_move().unwrap();
                    assert_eq!(expected(game.after(mv)), Outcome::Loss);
                }
            }
        }
    }

    #[test]
    fn pns_collects_solved_subtrees_and_reports_unknown_when_it_cannot_go_on() {
        let game = Take { pile: 12, limit: 3 };
        // Plenty: no collection needed.
        let mut big = vec![Node::default(); 200_000];
        let mut pns = Pns::new(&mut big, game, PnsConfig::default()).unwrap();
        assert_eq!(pns.run(u64::MAX), Outcome::Loss);
        let peak = pns.stats().peak_used;
        assert_eq!(pns.stats().collections, 0);
        // A fraction of the peak: collections make it fit.
        let mut small = [Node::default(); 200];
        assert!(peak > 200);
        let mut pns = Pns::new(&mut small, game, PnsConfig::default()).unwrap();
        assert_eq!(pns.run(u64::MAX), Outcome::Loss);
        assert!(pns.stats().collections > 0);
        assert!(!pns.stats().out_of_storage);
        // Far too little: unknown, never a panic.
        let mut tiny = [Node::default(); 5];
        let mut pns = Pns::new(&mut tiny, game, PnsConfig::default()).unwrap();
        assert_eq!(pns.run(u64::MAX), Outcome::Unknown);
        assert!(pns.stats().out_of_storage);
        assert!(Pns::new(&mut [], game, PnsConfig::default()).is_err());
    }

    #[test]
    fn pn2_solves_with_a_small_main_tree() {
        for pile in [12u32, 17, 24] {
            let game = Take { pile, limit: 3 };
            let mut plain = vec![Node::default(); 100_000];
            let mut pns = Pns::new(&mut plain, game, PnsConfig::default()).unwrap();
            assert_eq!(pns.run(u64::MAX), expected(game));
            let plain_peak = pns.stats().peak_used;
            let mut main = vec![Node::default(); 100_000];
            let mut second = vec![Node::default(); 1000];
            let mut pn2 = Pns::new(&mut main, game, PnsConfig::default()).unwrap();
            assert_eq!(pn2.run_pn2(u64::MAX, &mut second, |_| 50), expected(game));
            assert!(pn2.stats().peak_used < plain_peak, "pile {pile}");
            // An empty second level is just PNS.
            let mut main = vec![Node::default(); 100_000];
            let mut pn2 = Pns::new(&mut main, game, PnsConfig::default()).unwrap();
            assert_eq!(pn2.run_pn2(u64::MAX, &mut [], |_| 50), expected(game));
        }
    }

    #[test]
    fn pns_budget_gives_unknown_then_resumes() {
        let game = Take { pile: 21, limit: 3 };
        let mut nodes = vec![Node::default(); 100_000];
        let mut pns = Pns::new(&mut nodes, game, PnsConfig::default()).unwrap();
        assert_eq!(pns.run(3), Outcome::Unknown);
        assert_eq!(pns.stats().expanded, 3);
        assert_eq!(pns.run(u64::MAX), Outcome::Win);
    }

    #[test]
    fn dfpn_solves_the_subtraction_game_with_any_table() {
        // A table far too small may thrash; the budget bounds it, and whatever is
        // answered must be right.
        let config = DfpnConfig {
            max_expansions: 100_000,
            ..DfpnConfig::default()
        };
        for size in [4usize, 8, 64, 4096] {
            for pile in 0..40 {
                for limit in [2u8, 3, 5] {
                    let game = Take { pile, limit };
                    let mut table = vec![Entry::default(); size];
                    let mut dfpn = Dfpn::new(&mut table, config).unwrap();
                    let outcome = dfpn.solve(&game);
                    if size < 64 && outcome == Outcome::Unknown {
                        continue;
                    }
                    assert_eq!(
                        outcome,
                        expected(game),
                        "pile {pile} limit {limit} size {size}"
                    );
                    if outcome == Outcome::Win {
                        let mv = dfpn.winning_move(&game).unwrap();
                        assert_eq!(expected(game.after(mv)), Outcome::Loss);
                    }
                    assert!(dfpn.entries_in_use() <= size as u64);
                }
            }
        }
        assert!(Dfpn::<Take>::new(&mut [Entry::default(); 3], DfpnConfig::default()).is_err());
    }

    /// The first winning move of a two-pile game, in move order, by brute force.
    fn first_winning(game: TwoPiles) -> Option<u8> {
        let mut moves = <TwoPiles as crate::search::Game>::Moves::default();
        game.proof_moves(&mut moves);
        moves.iter().copied().find(|&mv| !game.after(mv).wins())
    }

    #[test]
    fn settling_gives_the_first_winning_move_in_move_order() {
        let (mut settled_something, mut collected_while_settling) = (false, false);
        for a in 0..9 {
            for b in 0..9 {
                let game = TwoPiles([a, b]);
                let first = first_winning(game);
                assert_eq!(first.is_some(), game.wins());
                // A roomy tree, and one small enough to collect while settling.
                for nodes in [100_000usize, 120] {
                    let mut storage = vec![Node::default(); nodes];
                    let mut pns = Pns::new(&mut storage, game, PnsConfig::default()).unwrap();
                    let outcome = pns.run(u64::MAX);
                    let proof = pns.stats();
                    if outcome == Outcome::Unknown {
                        assert!(nodes < 1000 && proof.out_of_storage, "{game:?}");
                        continue;
                    }
                    let settling = pns.settle(|pns| {
                        pns.run(u64::MAX);
                    });
                    assert_eq!(outcome == Outcome::Win, game.wins(), "{game:?}");
                    if settling.first {
                        assert_eq!(pns.winning_move(), first, "{game:?} {nodes}");
                    } else {
                        // Only a tree too small to settle in may leave the move unsettled.
                        assert!(!game.wins() || settling.stats.out_of_storage, "{game:?}");
                    }
                    settled_something |= settling.settled > 0 && settling.first;
                    collected_while_settling |= settling.stats.collections > 0 && settling.first;
                    assert_eq!(pns.stats().since(&proof), settling.stats);
                }
                let mut table = vec![Entry::default(); 4096];
                let mut dfpn = Dfpn::new(&mut table, DfpnConfig::default()).unwrap();
                dfpn.solve(&game);
                assert_eq!(dfpn.winning_move(&game), first, "{game:?}");
            }
        }
        assert!(settled_something && collected_while_settling);
    }

    #[test]
    fn dfpn_budget_gives_unknown() {
        let game = Take { pile: 37, limit: 3 };
        let mut table = [Entry::default(); 64];
        let config = DfpnConfig {
            max_expansions: 2,
            ..DfpnConfig::default()
        };
        let mut dfpn = Dfpn::new(&mut table, config).unwrap();
        assert_eq!(dfpn.solve(&game), Outcome::Unknown);
    }
}
