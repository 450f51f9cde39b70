//! Root-parallel MCTS (`std` only): several threads each grow their own tree in an equal
//! share of the caller's storage, and their root children's statistics are summed before
//! the final move is chosen.
//!
//! Why root parallelism rather than one shared tree: Chaslot, Winands and van den Herik
//! ("Parallel Monte-Carlo Tree Search", 2008) found it the strongest of leaf, root and
//! tree parallelism at the small thread counts a game client gives a search, and Cazenave
//! and Jouandeau (2007) found the same for root parallelism against tree parallelism.
//! It needs no atomics, locks or virtual loss, so a node stays the 40-byte `Node` of the
//! serial search and every thread runs exactly the serial code: the threads never touch
//! the same memory, the scaling is that of independent searches, and the result is
//! deterministic for a fixed thread count whatever the scheduler does. The cost is that
//! each thread's tree is a share of the storage, and deep lines are explored once per
//! thread; at 2 to 8 threads the wider root statistics more than make up for it.
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::config::{Config, SearchResult, Stats};
use super::node::{Node, Proof};
use super::policy::Policy;
use super::stop::{Never, Stop};
use super::tree::Mcts;
use crate::Error;
use crate::search::game::{Game, Knowledge, seeded_rng};

/// Most threads one search may use: enough for any desktop, and a bound that keeps the
/// per-thread bookkeeping in fixed arrays on the stack.
pub const MAX_SEARCH_THREADS: usize = 64;

impl<M: Copy + PartialEq + Default + Send> Mcts<'_, M> {
    /// [`Mcts::search`] on `threads` threads by root parallelism: `iterations` iterations
    /// per thread, so `threads * iterations` in all.
    ///
    /// With `threads == 1` this is exactly `search` with `rng` (same tree, same result, bit
    /// for bit; a root kept from before is continued). With more, the tree is cleared and
    /// its storage split into `threads` equal parts (fewer threads if the storage holds
    /// fewer nodes than that); thread `k` searches a fresh tree in part `k` with a generator
    /// seeded by the `k`-th `u64` drawn from `rng`, and the root children's visits, rewards
    /// and AMAF counts are summed child by child (every tree lists the same moves in the
    /// same order, as they come from the same position). The move is then chosen from the
    /// sums as `config.final_move` says; with the solver, a child proven won by any thread
    /// is played and one proven lost by any thread is avoided. So the same tree storage
    /// size, state, settings, generator and thread count give the same result.
    ///
    /// Afterwards the tree is thread 0's tree with the summed statistics on its root's
    /// children ([`Mcts::root_children`] reads them); the other parts hold nothing the tree
    /// refers to. `stats` are totals over the threads: iterations and nodes used summed,
    /// the deepest leaf, `storage_full` if any thread filled its part, and the combined
    /// root proof.
    ///
    /// Fails with `Error::InvalidArgument` when `threads` is 0 or above
    /// [`MAX_SEARCH_THREADS`], and like `search` with `Error::CapacityExhausted` when the
    /// storage cannot hold even one root.
    #[allow(clippy::too_many_arguments)]
    pub fn search_parallel<G, P, K>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        iterations: u32,
        threads: usize,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M> + Sync,
        P: Policy<G> + Sync + ?Sized,
        K: Knowledge<G> + Sync + ?Sized,
    {
        self.search_parallel_until(
            state, policy, knowledge, config, iterations, threads, Never, rng,
        )
    }

    /// [`Mcts::search_parallel`] that also ends when `stop` says so: every thread polls its
    /// own clone of `stop` before each of its iterations (with its own iteration count), so
    /// a [`Cancel`](super::Cancel) flag or a [`Deadline`](super::Deadline) clock ends them
    /// all within an iteration. The result sums whatever each thread ran.
    #[allow(clippy::too_many_arguments)]
    pub fn search_parallel_until<G, P, K, S>(
        &mut self,
        state: &G,
        policy: &P,
        knowledge: &K,
        config: &Config,
        max_iterations: u32,
        threads: usize,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> Result<SearchResult<M>, Error>
    where
        G: Game<Move = M> + Sync,
        P: Policy<G> + Sync + ?Sized,
        K: Knowledge<G> + Sync + ?Sized,
        S: Stop + Clone + Send,
    {
        let iterations = max_iterations;
        if threads == 0 || threads > MAX_SEARCH_THREADS {
            return Err(Error::InvalidArgument);
        }
        let capacity = self.capacity() as usize;
        // Every thread needs room for a root; with less storage fewer threads run.
        let threads = threads.min(capacity.max(1));
        if threads == 1 {
            return self.search_until(state, policy, knowledge, config, iterations, stop, rng);
        }
        self.clear();
        let part = capacity / threads;
        let mut seeds = [0u64; MAX_SEARCH_THREADS];
        for seed in &mut seeds[..threads] {
            *seed = rng.next_u64();
        }

        let mut trees: heapless::Vec<Mcts<'_, M>, MAX_SEARCH_THREADS> = heapless::Vec::new();
        for chunk in self.nodes[..part * threads].chunks_mut(part) {
            // `threads` <= MAX_SEARCH_THREADS chunks: every push fits.
            let _ = trees.push(Mcts::new(chunk));
        }
        let mut results: [Option<Result<SearchResult<M>, Error>>; MAX_SEARCH_THREADS] =
            [const { None }; MAX_SEARCH_THREADS];
        std::thread::scope(|scope| {
            let (head, tail) = trees.split_at_mut(1);
            let mut handles: heapless::Vec<_, MAX_SEARCH_THREADS> = heapless::Vec::new();
            for (tree, &seed) in tail.iter_mut().zip(&seeds[1..]) {
                let stop = stop.clone();
                let handle = scope.spawn(move || {
                    let mut rng = seeded_rng(seed);
                    tree.search_until(state, policy, knowledge, config, iterations, stop, &mut rng)
                });
                let _ = handles.push(handle);
            }
            // Thread 0's share runs on the calling thread: one spawn fewer per move.
            let mut rng0 = seeded_rng(seeds[0]);
            let first = head.first_mut().map(|tree| {
                tree.search_until(
                    state, policy, knowledge, config, iterations, stop, &mut rng0,
                )
            });
            results[0] = first;
            for (slot, handle) in results[1..].iter_mut().zip(handles) {
                // A search that panicked is a bug: pass its panic on rather than hide it.
                *slot = Some(
                    handle
                        .join()
                        .unwrap_or_else(|p| std::panic::resume_unwind(p)),
                );
            }
        });

        let mut stats = Stats::default();
        let mut fallback = None;
        for result in results[..threads].iter().flatten() {
            let Ok(result) = result else { continue };
            fallback = fallback.or(result.best);
            stats.iterations = stats.iterations.saturating_add(result.stats.iterations);
            stats.nodes_used = stats.nodes_used.saturating_add(result.stats.nodes_used);
            stats.max_depth = stats.max_depth.max(result.stats.max_depth);
            stats.storage_full |= result.stats.storage_full;
        }
        if let Some(Err(error)) = &results[0] {
            // Equal parts: if thread 0 had no room for a root, none had.
            return Err(*error);
        }

        let (head, tail) = trees.split_at_mut(1);
        let Some(summed) = head.first_mut() else {
            return Err(Error::CapacityExhausted);
        };
        for tree in tail.iter() {
            add_root_statistics(summed, tree);
        }
        stats.root_proof = summed.root_proof();
        let (len, key) = (summed.len, summed.root_key);
        let best = summed.best_move(policy, config).or(fallback);
        drop(trees);
        self.len = len;
        self.root_key = key;
        Ok(SearchResult { best, stats })
    }
}

/// Adds the root statistics of `other` to those of `into`, child by child, and combines the
/// proofs; a tree whose root children differ (one that could not expand its root) adds
/// nothing.
fn add_root_statistics<M: Copy + PartialEq>(into: &mut Mcts<'_, M>, other: &Mcts<'_, M>) {
    if into.len == 0 || other.len == 0 {
        return;
    }
    let (root, other_root) = (into.nodes[0], other.nodes[0]);
    let mine = root.children_usize();
    let theirs = other_root.children_usize();
    let same_moves = mine.len() == theirs.len()
        && into.nodes[mine.clone()]
            .iter()
            .zip(&other.nodes[theirs.clone()])
            .all(|(a, b)| a.mv == b.mv);
    if !same_moves || mine.is_empty() {
        return;
    }
    for (child, theirs) in into.nodes[mine].iter_mut().zip(&other.nodes[theirs]) {
        add_node_statistics(child, theirs);
    }
    add_node_statistics(&mut into.nodes[0], &other_root);
}

/// Sums the counts of `other` into `into` and keeps the stronger proof.
fn add_node_statistics<M: Copy>(into: &mut Node<M>, other: &Node<M>) {
    into.visits = into.visits.saturating_add(other.visits);
    into.wins += other.wins;
    into.amaf_visits = into.amaf_visits.saturating_add(other.amaf_visits);
    into.amaf_wins += other.amaf_wins;
    into.set_proof(combined_proof(into.proof(), other.proof()));
}

/// What two trees proved about the same node together. Proofs are game-theoretic facts, so
/// sound trees never contradict each other; a win found by either is a win, then a loss,
/// then a draw.
fn combined_proof(a: Proof, b: Proof) -> Proof {
    for proof in [Proof::Win, Proof::Loss, Proof::Draw] {
        if a == proof || b == proof {
            return proof;
        }
    }
    Proof::Unknown
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec;

    use super::super::toys::{Hints, Nim, TicTacToe};
    use super::super::{ChildInfo, FinalMove, Rave, Ucb1};
    use super::*;

    fn no_solver() -> Config {
        Config {
            solver: false,
            ..Config::default()
        }
    }

    fn children(tree: &Mcts<'_, u8>) -> std::vec::Vec<ChildInfo<u8>> {
        tree.root_children().collect()
    }

    #[test]
    fn one_thread_is_the_serial_search_bit_for_bit() {
        let game = TicTacToe::parse("X........");
        for (config, iterations) in [(Config::default(), 300), (no_solver(), 700)] {
            let mut a = vec![Node::default(); 20_000];
            let mut b = a.clone();
            let mut serial = Mcts::new(&mut a);
            let mut parallel = Mcts::new(&mut b);
            let (mut rng_a, mut rng_b) = (seeded_rng(5), seeded_rng(5));
            let policy = Rave::default();
            let expected = serial
                .search(&game, &policy, &Hints, &config, iterations, &mut rng_a)
                .unwrap();
            let got = parallel
                .search_parallel(&game, &policy, &Hints, &config, iterations, 1, &mut rng_b)
                .unwrap();
            assert_eq!(got, expected);
            assert_eq!(children(&parallel), children(&serial));
            // The caller's generator advanced the same way.
            assert_eq!(rng_a.next_u64(), rng_b.next_u64());
            assert_eq!(a, b);
        }
    }

    #[test]
    fn two_threads_are_deterministic_and_sum_every_iteration() {
        let game = TicTacToe::parse(".........");
        let run = |seed: u64| {
            let mut storage = vec![Node::default(); 40_000];
            let mut tree = Mcts::new(&mut storage);
            let result = tree
                .search_parallel(
                    &game,
                    &Ucb1::default(),
                    &Hints,
                    &no_solver(),
                    1_000,
                    2,
                    &mut seeded_rng(seed),
                )
                .unwrap();
            (result, children(&tree), tree.root_visits())
        };
        let (result, summed, root_visits) = run(9);
        assert_eq!(run(9), (result, summed.clone(), root_visits));
        assert_eq!(result.stats.iterations, 2_000);
        assert_eq!(root_visits, 2_000);
        assert_eq!(summed.len(), 9);
        let visits: u32 = summed.iter().map(|c| c.visits).sum();
        assert_eq!(visits, 2_000);
        // The move played is the most visited of the summed children.
        let most = summed.iter().max_by_key(|c| c.visits).unwrap();
        assert_eq!(result.best, Some(most.mv));
        // Another seed gives other statistics (the threads' seeds come from it).
        assert_ne!(run(10).1, summed);
    }

    #[test]
    fn the_sum_differs_from_either_thread_alone() {
        // Thread 0 searched alone with the first seed drawn gives its own counts; the sum
        // holds more visits on the same children.
        let game = TicTacToe::parse(".........");
        let mut storage = vec![Node::default(); 40_000];
        let mut tree = Mcts::new(&mut storage);
        let mut rng = seeded_rng(3);
        tree.search_parallel(
            &game,
            &Ucb1::default(),
            &Hints,
            &no_solver(),
            500,
            2,
            &mut rng,
        )
        .unwrap();
        let summed = children(&tree);
        let first_seed = seeded_rng(3).next_u64();
        let mut alone = vec![Node::default(); 20_000];
        let mut single = Mcts::new(&mut alone);
        single
            .search(
                &game,
                &Ucb1::default(),
                &Hints,
                &no_solver(),
                500,
                &mut seeded_rng(first_seed),
            )
            .unwrap();
        let thread0 = children(&single);
        assert_eq!(thread0.len(), summed.len());
        for (one, sum) in thread0.iter().zip(&summed) {
            assert_eq!(one.mv, sum.mv);
            assert!(sum.visits >= one.visits);
        }
        let total: u32 = thread0.iter().map(|c| c.visits).sum();
        assert_eq!(total, 500);
    }

    #[test]
    fn a_proven_win_found_by_the_threads_is_played() {
        // Nim with 6 stones: taking 2 leaves a multiple of 4 and wins.
        for final_move in [FinalMove::MostVisited, FinalMove::BestScore] {
            let config = Config {
                final_move,
                ..Config::default()
            };
            let mut storage = vec![Node::default(); 10_000];
            let mut tree = Mcts::new(&mut storage);
            let result = tree
                .search_parallel(
                    &Nim::new(6),
                    &Ucb1::default(),
                    &Hints,
                    &config,
                    400,
                    3,
                    &mut seeded_rng(1),
                )
                .unwrap();
            assert_eq!(result.best, Some(2));
            assert_eq!(result.stats.root_proof, Proof::Win);
            let proofs: std::vec::Vec<_> = children(&tree).iter().map(|c| c.proof).collect();
            assert_eq!(proofs[1], Proof::Win);
            // No thread can prove a losing move won.
            assert!(proofs[0] != Proof::Win && proofs[2] != Proof::Win);
        }
    }

    #[test]
    fn too_little_storage_still_gives_a_legal_move() {
        let game = TicTacToe::parse(".........");
        // 12 nodes for 2 threads: 6 each, too few for the root's nine children.
        for (capacity, threads) in [(12, 2), (3, 4), (1, 8), (17, 64)] {
            let mut storage = vec![Node::default(); capacity];
            let mut tree = Mcts::new(&mut storage);
            let result = tree
                .search_parallel(
                    &game,
                    &Ucb1::default(),
                    &Hints,
                    &Config::default(),
                    50,
                    threads,
                    &mut seeded_rng(2),
                )
                .unwrap();
            let best = result.best.unwrap();
            assert!(best < 9, "{best}");
            assert!(result.stats.storage_full, "{capacity} {threads}");
        }
        let mut none: [Node<u8>; 0] = [];
        let result = Mcts::new(&mut none).search_parallel(
            &game,
            &Ucb1::default(),
            &Hints,
            &Config::default(),
            50,
            2,
            &mut seeded_rng(2),
        );
        assert_eq!(result, Err(Error::CapacityExhausted));
    }

    #[test]
    fn thread_counts_outside_the_range_are_refused() {
        let game = TicTacToe::parse(".........");
        let mut storage = vec![Node::default(); 100];
        let mut tree = Mcts::new(&mut storage);
        for threads in [0, MAX_SEARCH_THREADS + 1, usize::MAX] {
            let result = tree.search_parallel(
                &game,
                &Ucb1::default(),
                &Hints,
                &Config::default(),
                10,
                threads,
                &mut seeded_rng(2),
            );
            assert_eq!(result, Err(Error::InvalidArgument));
        }
    }

    #[test]
    fn a_finished_game_gives_no_move() {
        let over = TicTacToe::parse("XXXOO....");
        let mut storage = vec![Node::default(); 100];
        let result = Mcts::new(&mut storage)
            .search_parallel(
                &over,
                &Ucb1::default(),
                &Hints,
                &Config::default(),
                10,
                2,
                &mut seeded_rng(2),
            )
            .unwrap();
        assert_eq!(result.best, None);
    }
}
