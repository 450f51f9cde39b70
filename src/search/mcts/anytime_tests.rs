//! Anytime search: a stopped and continued search is the uninterrupted one, bit for bit, and
//! every stop ends the loop when it says.
extern crate std;

use core::fmt::Debug;
use core::sync::atomic::{AtomicBool, Ordering};
use std::vec;

use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::toys::{DiceRace, Hints, Kuhn, TicTacToe};
use super::*;
use crate::breakthrough::{Heuristics, Position, Size};

/// How a test searches: one call of the search under test, on `tree`, of at most
/// `iterations` iterations with `stop`.
trait Searcher<M> {
    fn run<S: Stop>(
        &self,
        tree: &mut Mcts<'_, M>,
        iterations: u32,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> SearchResult<M>;
}

/// `search_until` on a perfect-information game.
struct Plain<'a, G, P, K> {
    state: &'a G,
    policy: &'a P,
    knowledge: &'a K,
    config: Config,
}

impl<G, P, K> Searcher<G::Move> for Plain<'_, G, P, K>
where
    G: Game,
    G::Move: Copy + PartialEq + Default,
    P: Policy<G>,
    K: Knowledge<G>,
{
    fn run<S: Stop>(
        &self,
        tree: &mut Mcts<'_, G::Move>,
        iterations: u32,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> SearchResult<G::Move> {
        let Plain {
            state,
            policy,
            knowledge,
            config,
        } = self;
        tree.search_until(*state, *policy, *knowledge, config, iterations, stop, rng)
            .unwrap()
    }
}

/// `search_information_set_until` on Kuhn poker.
struct InformationSet(Kuhn);

impl Searcher<u8> for InformationSet {
    fn run<S: Stop>(
        &self,
        tree: &mut Mcts<'_, u8>,
        iterations: u32,
        stop: S,
        rng: &mut XorShiftRng,
    ) -> SearchResult<u8> {
        let config = Config::default();
        tree.search_information_set_until(
            &self.0,
            &Ucb1::default(),
            &(),
            &config,
            iterations,
            stop,
            rng,
        )
        .unwrap()
    }
}

/// How the continued search is split.
#[derive(Clone, Copy, Debug)]
enum Split {
    /// `calls` calls of `per_call` iterations on the same `Mcts`.
    Kept,
    /// The same, the tree detached to its `TreeParts` and re-attached between calls.
    Detached,
    /// Calls asked for many iterations, each ended by a stop after `per_call`.
    Stopped,
}

/// `calls` searches of `per_call` iterations give exactly one search of their sum: the same
/// storage (tree and statistics), tree parts, generator state, move and root summary.
fn continued_is_one_shot<M, S>(
    searcher: &S,
    summary: impl Fn(&Mcts<'_, M>) -> RootSummary<M>,
    calls: u32,
    per_call: u32,
    capacity: usize,
    seed: u64,
) where
    M: Copy + PartialEq + Default + Debug,
    S: Searcher<M>,
{
    let mut one_shot = vec![Node::<M>::default(); capacity];
    let mut one_shot_rng = seeded_rng(seed);
    let (expected, expected_parts, expected_summary) = {
        let mut tree = Mcts::new(&mut one_shot);
        let result = searcher.run(&mut tree, calls * per_call, Never, &mut one_shot_rng);
        (result, tree.parts(), summary(&tree))
    };
    assert!(expected_parts.root_key.is_some());

    for split in [Split::Kept, Split::Detached, Split::Stopped] {
        let mut storage = vec![Node::<M>::default(); capacity];
        let mut rng = seeded_rng(seed);
        let mut parts = TreeParts::default();
        let mut iterations = 0;
        let mut last = None;
        let mut kept = Mcts::new(&mut storage);
        for _ in 0..calls {
            let result = match split {
                Split::Kept => searcher.run(&mut kept, per_call, Never, &mut rng),
                Split::Stopped => {
                    searcher.run(&mut kept, u32::MAX, |done| done == per_call, &mut rng)
                }
                Split::Detached => {
                    // A handle keeps only the storage, the parts and the generator.
                    let mut tree = Mcts::from_tree_parts(&mut *kept.nodes, parts).unwrap();
                    let result = searcher.run(&mut tree, per_call, Never, &mut rng);
                    parts = tree.parts();
                    result
                }
            };
            iterations += result.stats.iterations;
            last = Some(result);
        }
        if !matches!(split, Split::Detached) {
            parts = kept.parts();
        }
        let got_summary = {
            let tree = Mcts::from_tree_parts(&mut *kept.nodes, parts).unwrap();
            summary(&tree)
        };
        let last = last.unwrap();
        assert_eq!(parts, expected_parts, "{split:?}");
        assert_eq!(last.best, expected.best, "{split:?}");
        assert_eq!(iterations, expected.stats.iterations, "{split:?}");
        assert_eq!(
            last.stats.nodes_used, expected.stats.nodes_used,
            "{split:?}"
        );
        assert_eq!(
            last.stats.root_proof, expected.stats.root_proof,
            "{split:?}"
        );
        assert_eq!(got_summary, expected_summary, "{split:?}");
        assert_eq!(got_summary.best, expected.best, "{split:?}");
        assert!(storage == one_shot, "{split:?}: the trees differ");
        let mut expected_rng = one_shot_rng.clone();
        assert_eq!(rng.next_u64(), expected_rng.next_u64(), "{split:?}");
    }
}

fn breakthrough_continued_is_one_shot(selection: Selection, config: Config) {
    let position = Position::start(Size::STANDARD);
    let searcher = Plain {
        state: &position,
        policy: &selection,
        knowledge: &Heuristics,
        config,
    };
    let summary = |tree: &Mcts<'_, _>| tree.root_summary::<Position, _>(&selection, &config);
    let capacity = 1 + 240 * crate::breakthrough::MAX_MOVES;
    continued_is_one_shot(&searcher, summary, 4, 60, capacity, 3);
    // Storage that fills: the continued search refuses the same expansions.
    continued_is_one_shot(&searcher, summary, 3, 80, 2_000, 4);
}

#[test]
fn breakthrough_uct_continued_is_one_shot() {
    breakthrough_continued_is_one_shot(Selection::Ucb1(Ucb1::default()), Config::default());
}

#[test]
fn breakthrough_rave_continued_is_one_shot() {
    let best_score = Config {
        final_move: FinalMove::BestScore,
        ..Config::default()
    };
    breakthrough_continued_is_one_shot(Selection::Rave(Rave::default()), best_score);
}

#[test]
fn breakthrough_mogo_continued_is_one_shot() {
    breakthrough_continued_is_one_shot(Selection::MoGo(MoGo::default()), Config::default());
}

#[test]
fn toys_continued_are_one_shot() {
    // Tic-tac-toe: the solver proves the root on the way, and later calls run nothing.
    let game = TicTacToe::parse(".........");
    let rave = Rave::default();
    let config = Config::default();
    let searcher = Plain {
        state: &game,
        policy: &rave,
        knowledge: &Hints,
        config,
    };
    let summary = |tree: &Mcts<'_, u8>| tree.root_summary::<TicTacToe, _>(&rave, &config);
    continued_is_one_shot(&searcher, summary, 5, 400, 40_000, 9);

    // Chance nodes.
    let race = DiceRace {
        goal: 20,
        score: 0,
        turns: 3,
        dice: 0,
    };
    let ucb = Ucb1::default();
    let searcher = Plain {
        state: &race,
        policy: &ucb,
        knowledge: &(),
        config,
    };
    let summary = |tree: &Mcts<'_, u8>| tree.root_summary::<DiceRace, _>(&ucb, &config);
    continued_is_one_shot(&searcher, summary, 4, 100, 20_000, 5);

    // Information sets: every iteration draws a determinization.
    let no_solver = Config {
        solver: false,
        ..config
    };
    let summary = |tree: &Mcts<'_, u8>| tree.root_summary::<Kuhn, _>(&ucb, &no_solver);
    continued_is_one_shot(
        &InformationSet(Kuhn::after([0, 1], &[1]).expect("a Kuhn history")),
        summary,
        3,
        100,
        5_000,
        6,
    );
}

#[test]
fn a_tree_re_attached_elsewhere_starts_afresh() {
    let mut storage = vec![Node::<u8>::default(); 10_000];
    let ucb = Ucb1::default();
    let config = Config::default();
    let empty = TicTacToe::parse(".........");
    let corner = TicTacToe::parse("X........");
    let mut tree = Mcts::new(&mut storage);
    tree.search(&empty, &ucb, &Hints, &config, 50, &mut seeded_rng(1))
        .unwrap();
    let parts = tree.parts();
    assert_eq!(parts.root_key, Some(empty.hash()));
    assert_eq!(tree.root_visits(), 50);
    // Same key: continued.
    let mut tree = Mcts::from_tree_parts(&mut storage, parts).unwrap();
    assert_eq!(tree.root_key(), Some(empty.hash()));
    tree.search(&empty, &ucb, &Hints, &config, 10, &mut seeded_rng(2))
        .unwrap();
    assert_eq!(tree.root_visits(), 60);
    let parts = tree.parts();
    // Another position: a fresh root.
    let mut tree = Mcts::from_tree_parts(&mut storage, parts).unwrap();
    tree.search(&corner, &ucb, &Hints, &config, 10, &mut seeded_rng(2))
        .unwrap();
    assert_eq!(tree.root_visits(), 10);
    assert_eq!(tree.root_key(), Some(corner.hash()));
    // A length beyond the storage is refused.
    let too_long = TreeParts {
        len: 20_000,
        root_key: None,
    };
    assert_eq!(
        Mcts::from_tree_parts(&mut storage, too_long).err(),
        Some(crate::Error::InvalidLength)
    );
}

#[test]
fn the_summary_reads_the_best_move_and_its_statistics() {
    let mut storage = vec![Node::<u8>::default(); 10_000];
    let mut tree = Mcts::new(&mut storage);
    let ucb = Ucb1::default();
    let config = Config::default();
    assert_eq!(
        tree.root_summary::<TicTacToe, _>(&ucb, &config),
        RootSummary::default()
    );
    let game = TicTacToe::parse("XX.OO....");
    let result = tree
        .search(&game, &ucb, &Hints, &config, 200, &mut seeded_rng(3))
        .unwrap();
    let summary = tree.root_summary::<TicTacToe, _>(&ucb, &config);
    assert_eq!(summary.best, result.best);
    assert_eq!(summary.root_visits, tree.root_visits());
    let child = tree
        .root_children()
        .find(|child| Some(child.mv) == summary.best)
        .unwrap();
    assert_eq!(summary.best_visits, child.visits);
    assert_eq!(summary.best_value, child.wins / child.visits as f32);
    // X completes the top row and wins.
    assert_eq!(summary.best, Some(2));
    assert_eq!(summary.best_value, 1.0);
}

#[test]
fn stops_end_the_search_when_they_say() {
    let game = Position::start(Size::STANDARD);
    let ucb = Selection::Ucb1(Ucb1::default());
    let config = Config::default();
    let mut storage = vec![Node::default(); 50_000];
    let mut tree = Mcts::new(&mut storage);

    // A cancel set before the search: no iteration, still a legal move.
    let flag = AtomicBool::new(true);
    let mut rng = seeded_rng(1);
    let result = tree
        .search_until(
            &game,
            &ucb,
            &Heuristics,
            &config,
            1000,
            Cancel(&flag),
            &mut rng,
        )
        .unwrap();
    assert_eq!(result.stats.iterations, 0);
    assert!(result.best.is_some());

    // A caller's clock read once per iteration: readings 1, 2, 3, 4 go on, 5 stops.
    let mut now = 0;
    let clock = || {
        now += 1;
        now
    };
    tree.clear();
    let result = tree
        .search_until(
            &game,
            &ucb,
            &Heuristics,
            &config,
            1000,
            Deadline::at(clock, 5),
            &mut rng,
        )
        .unwrap();
    assert_eq!(result.stats.iterations, 4);
    assert_eq!(tree.root_visits(), 4);

    // Either of two stops; the budget still bounds the search.
    let never = AtomicBool::new(false);
    let either = (Cancel(&never), |done: u32| done == 7);
    let result = tree
        .search_until(&game, &ucb, &Heuristics, &config, 1000, either, &mut rng)
        .unwrap();
    assert_eq!(result.stats.iterations, 7);
    let result = tree
        .search_until(
            &game,
            &ucb,
            &Heuristics,
            &config,
            3,
            Cancel(&never),
            &mut rng,
        )
        .unwrap();
    assert_eq!(result.stats.iterations, 3);
    assert_eq!(tree.root_visits(), 14);

    // An instant in the past.
    let result = tree
        .search_until(
            &game,
            &ucb,
            &Heuristics,
            &config,
            1000,
            InstantDeadline(std::time::Instant::now()),
            &mut rng,
        )
        .unwrap();
    assert_eq!(result.stats.iterations, 0);
}

/// A cancel from another thread ends an unbounded search, serial or on threads.
#[test]
fn a_cancel_from_another_thread_ends_the_search() {
    let game = Position::start(Size::STANDARD);
    let ucb = Selection::Ucb1(Ucb1::default());
    let config = Config {
        solver: false,
        ..Config::default()
    };
    let mut storage = vec![Node::default(); 100_000];
    for threads in [1, 2] {
        let flag = AtomicBool::new(false);
        let mut tree = Mcts::new(&mut storage);
        let result = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                flag.store(true, Ordering::Relaxed);
            });
            tree.search_on_threads_until(
                &game,
                &ucb,
                &Heuristics,
                &config,
                u32::MAX,
                threads,
                Cancel(&flag),
                &mut seeded_rng(2),
            )
        })
        .unwrap();
        assert!(result.best.is_some());
        assert!(result.stats.iterations > 0 && result.stats.iterations < u32::MAX);
    }
    // A deadline shared by the threads (each gets a copy).
    let mut tree = Mcts::new(&mut storage);
    let deadline = InstantDeadline::after(core::time::Duration::from_millis(20));
    let result = tree
        .search_parallel_until(
            &game,
            &ucb,
            &Heuristics,
            &config,
            u32::MAX,
            2,
            deadline,
            &mut seeded_rng(3),
        )
        .unwrap();
    assert!(result.stats.iterations > 0 && result.stats.iterations < u32::MAX);
}
