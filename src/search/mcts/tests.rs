//! Behaviour tests of the MCTS on the toy games of `toys`.
extern crate std;

use std::vec;
use std::vec::Vec;

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::toys::{
    Coin, Collect, Counted, DiceRace, Hints, Kuhn, Nim, Rogue, Scored, Stuck, TicTacToe, Toy, Walk,
};
use super::*;
use crate::Error;
use crate::search::game::Turn;

fn rng(seed: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(seed)
}

fn storage(capacity: usize) -> Vec<Node<u8>> {
    vec![Node::default(); capacity]
}

fn no_solver() -> Config {
    Config {
        solver: false,
        ..Config::default()
    }
}

/// One search on a fresh tree of `capacity` nodes.
fn search<G: Toy, P: Policy<G>>(
    game: &G,
    policy: &P,
    config: &Config,
    iterations: u32,
    capacity: usize,
    seed: u64,
) -> (SearchResult<u8>, Vec<ChildInfo<u8>>) {
    let mut nodes = storage(capacity);
    let mut tree = Mcts::new(&mut nodes);
    let result = tree
        .search(game, policy, &Hints, config, iterations, &mut rng(seed))
        .unwrap();
    (result, tree.root_children().collect())
}

#[test]
fn node_is_small_and_sizes_are_exact() {
    assert_eq!(node_size::<u16>(), 40);
    assert_eq!(node_align::<u16>(), 4);
    assert_eq!(storage_bytes::<u16>(1000), Some(40_000));
    assert_eq!(storage_bytes::<u16>(0), Some(0));
    assert_eq!(storage_bytes::<u16>(usize::MAX), None);
    assert_eq!(capacity_for_bytes::<u16>(40_039), 1000);
}

#[test]
fn ucb1_finds_the_winning_nim_move() {
    for stones in [5u8, 6, 7, 9, 10, 11, 13, 14, 15] {
        for seed in 0..3 {
            let (result, _) = search(
                &Nim::new(stones),
                &Ucb1::default(),
                &no_solver(),
                3000,
                20_000,
                seed,
            );
            assert_eq!(
                result.best,
                Some(stones % 4),
                "{stones} stones, seed {seed}"
            );
        }
    }
}

#[test]
fn ucb1_wins_and_blocks_at_tic_tac_toe() {
    // X to move completes the top row.
    let win = TicTacToe::parse("XX. OO. ...");
    // O to move must block X's diagonal 0-4-8 (O has no win of its own).
    let block = TicTacToe::parse("XO. .X. ...");
    for seed in 0..3 {
        let (result, _) = search(&win, &Ucb1::default(), &no_solver(), 2000, 50_000, seed);
        assert_eq!(result.best, Some(2));
        let (result, _) = search(&block, &Ucb1::default(), &no_solver(), 4000, 50_000, seed);
        assert_eq!(result.best, Some(8));
    }
}

#[test]
fn solver_proves_a_forced_win_and_stops_early() {
    let (result, children) = search(
        &Nim::new(13),
        &Ucb1::default(),
        &Config::default(),
        100_000,
        50_000,
        1,
    );
    assert_eq!(result.best, Some(1));
    assert_eq!(result.stats.root_proof, Proof::Win);
    assert!(result.stats.iterations < 100_000);
    let winning = children.iter().find(|c| c.mv == 1).unwrap();
    assert_eq!(winning.proof, Proof::Win);

    // A lost position is proven lost, and a move is still returned.
    let (result, children) = search(
        &Nim::new(12),
        &Ucb1::default(),
        &Config::default(),
        100_000,
        50_000,
        1,
    );
    assert_eq!(result.stats.root_proof, Proof::Loss);
    assert!(children.iter().all(|c| c.proof == Proof::Loss));
    assert!(matches!(result.best, Some(1..=3)));
}

#[test]
fn solver_plays_a_win_found_deep_in_a_tiny_budget() {
    // X to move: 6 completes the left column (while O threatens 7). Forty iterations cannot
    // rank moves by statistics, but the solver proves the win and plays it.
    let game = TicTacToe::parse("XO. XO. ...");
    let (result, children) = search(&game, &Ucb1::default(), &Config::default(), 40, 10_000, 3);
    assert_eq!(result.best, Some(6));
    assert_eq!(result.stats.root_proof, Proof::Win);
    assert_eq!(
        children.iter().find(|c| c.mv == 6).unwrap().proof,
        Proof::Win
    );
}

#[test]
fn solver_avoids_proven_losses() {
    // O to move must block at 8; every other move lets X complete the diagonal.
    let game = TicTacToe::parse("XO. .X. ...");
    let (result, children) = search(&game, &Ucb1::default(), &Config::default(), 3000, 50_000, 5);
    assert_eq!(result.best, Some(8));
    for child in children.iter().filter(|c| c.mv != 8) {
        assert_eq!(child.proof, Proof::Loss, "move {}", child.mv);
    }
}

#[test]
fn solver_proves_a_draw() {
    // X to move; with best play the game is drawn.
    let game = TicTacToe::parse("XOX .O. ...");
    let (result, _) = search(
        &game,
        &Ucb1::default(),
        &Config::default(),
        200_000,
        100_000,
        2,
    );
    assert_eq!(result.stats.root_proof, Proof::Draw);
    // X must block at 7.
    assert_eq!(result.best, Some(7));
}

#[test]
fn tiny_storage_still_returns_a_legal_move_and_reports_full() {
    let game = Nim::new(10);
    for capacity in [1usize, 2, 3, 4, 6] {
        let (result, _) = search(
            &game,
            &Ucb1::default(),
            &Config::default(),
            200,
            capacity,
            9,
        );
        assert!(matches!(result.best, Some(1..=3)), "capacity {capacity}");
        assert!(result.stats.storage_full, "capacity {capacity}");
        assert!(result.stats.nodes_used as usize <= capacity);
        assert_eq!(result.stats.iterations, 200);
    }
    // Room for the root and its children only: the children's statistics decide.
    let (result, children) = search(&game, &Ucb1::default(), &no_solver(), 300, 4, 9);
    assert_eq!(result.stats.nodes_used, 4);
    assert_eq!(children.iter().map(|c| c.visits).sum::<u32>(), 300);
}

#[test]
fn full_storage_keeps_refining_what_it_has() {
    let game = TicTacToe::parse("... ... ...");
    let mut nodes = storage(200);
    let mut tree = Mcts::new(&mut nodes);
    let result = tree
        .search(
            &game,
            &Ucb1::default(),
            &Hints,
            &no_solver(),
            5000,
            &mut rng(4),
        )
        .unwrap();
    assert!(result.stats.storage_full);
    assert_eq!(result.stats.iterations, 5000);
    assert_eq!(tree.root_visits(), 5000);
    assert!(result.stats.nodes_used <= 200);
    // The centre or a corner: the moves that do not lose a point.
    assert!(
        matches!(result.best, Some(0 | 2 | 4 | 6 | 8)),
        "{:?}",
        result.best
    );
}

#[test]
fn empty_storage_is_an_error() {
    let mut nodes: [Node<u8>; 0] = [];
    let mut tree = Mcts::new(&mut nodes);
    let result = tree.search(
        &Nim::new(5),
        &Ucb1::default(),
        &Hints,
        &Config::default(),
        10,
        &mut rng(0),
    );
    assert_eq!(result, Err(Error::CapacityExhausted));
}

#[test]
fn zero_iterations_return_a_legal_move() {
    let (result, _) = search(
        &Nim::new(7),
        &Ucb1::default(),
        &Config::default(),
        0,
        100,
        0,
    );
    assert!(matches!(result.best, Some(1..=3)));
    assert_eq!(result.stats.iterations, 0);
    assert_eq!(result.stats.nodes_used, 1);
}

#[test]
fn positions_without_moves_return_none() {
    let (result, _) = search(&Stuck, &Ucb1::default(), &Config::default(), 100, 100, 0);
    assert_eq!(result.best, None);
    assert_eq!(result.stats.iterations, 0);
    let (result, _) = search(
        &Nim::new(0),
        &Ucb1::default(),
        &Config::default(),
        100,
        100,
        0,
    );
    assert_eq!(result.best, None);
    let over = TicTacToe::parse("XXX OO. ...");
    let (result, _) = search(&over, &MoGo::default(), &Config::default(), 100, 100, 0);
    assert_eq!(result.best, None);
}

#[test]
fn misbehaving_games_do_not_panic() {
    let game = Rogue(Nim::new(9));
    let policies = [
        Selection::Ucb1(Ucb1::default()),
        Selection::Rave(Rave::default()),
        Selection::MoGo(MoGo::default()),
        Selection::MoGo(MoGo {
            c: f64::NAN,
            c1: -1.0,
            c2: f64::INFINITY,
        }),
        Selection::Ucb1(Ucb1 { c: f64::NAN }),
    ];
    for policy in policies {
        for capacity in [1, 5, 1000] {
            let (result, _) = search(&game, &policy, &Config::default(), 300, capacity, 1);
            assert!(matches!(result.best, Some(1..=3)));
        }
    }
    let nan = Scored(|_: f64, _: f64, _: f64, f: f64| f);
    let (result, _) = search(&game, &nan, &Config::default(), 300, 1000, 1);
    assert!(matches!(result.best, Some(1..=3)));
}

#[test]
fn same_seed_same_result_different_seeds_differ() {
    let game = TicTacToe::parse("X.. .O. ...");
    let config = no_solver();
    let run = |seed| search(&game, &Ucb1::default(), &config, 1500, 30_000, seed);
    let first = run(42);
    assert_eq!(first, run(42));
    let differ = (0..10).any(|seed| run(seed).1 != first.1);
    assert!(differ);

    let rave = |seed| search(&game, &Rave::default(), &config, 800, 30_000, seed);
    assert_eq!(rave(7), rave(7));
}

#[test]
fn tree_reuse_keeps_the_subtree_statistics() {
    let game = TicTacToe::parse("... ... ...");
    let mut nodes = storage(20_000);
    let mut tree = Mcts::new(&mut nodes);
    let config = no_solver();
    tree.search(&game, &Ucb1::default(), &Hints, &config, 3000, &mut rng(11))
        .unwrap();
    let used_before = tree.len();

    // What the tree knows below the centre, before reuse.
    let centre = tree.nodes[tree.nodes[0].children_usize()]
        .iter()
        .position(|n| n.mv == 4)
        .unwrap();
    let centre = tree.nodes[0].first_child as usize + centre;
    let centre_node = tree.nodes[centre];
    let expected: Vec<(u8, u32, f32)> = tree.nodes[centre_node.children_usize()]
        .iter()
        .map(|n| (n.mv, n.visits, n.wins))
        .collect();
    let subtree = subtree_size(&tree, centre as u32);

    assert!(tree.advance(4));
    assert_eq!(tree.len(), subtree);
    assert!(tree.len() < used_before);
    assert_eq!(tree.root_visits(), centre_node.visits);
    let kept: Vec<(u8, u32, f32)> = tree
        .root_children()
        .map(|c| (c.mv, c.visits, c.wins))
        .collect();
    assert_eq!(kept, expected);
    let len = tree.len();
    assert!(
        Mcts::from_parts(&mut nodes, len).is_ok(),
        "compacted tree is well formed"
    );

    // The search continues on top of the kept statistics.
    let mut tree = Mcts::from_parts(&mut nodes, len).unwrap();
    let mut after = game.clone();
    after.play(4);
    let result = tree
        .search(
            &after,
            &Ucb1::default(),
            &Hints,
            &config,
            1000,
            &mut rng(12),
        )
        .unwrap();
    assert_eq!(tree.root_visits(), centre_node.visits + 1000);
    assert!(
        matches!(result.best, Some(0 | 2 | 6 | 8)),
        "O must take a corner"
    );

    // Two more plies, then a move the tree does not know.
    let reply = result.best.unwrap();
    assert!(tree.advance(reply));
    after.play(reply);
    tree.search(&after, &Ucb1::default(), &Hints, &config, 500, &mut rng(13))
        .unwrap();
    assert!(!tree.advance(99));
    assert!(tree.is_empty());
}

fn subtree_size(tree: &Mcts<'_, u8>, index: u32) -> u32 {
    let node = tree.nodes[index as usize];
    1 + node
        .children()
        .map(|child| subtree_size(tree, child))
        .sum::<u32>()
}

/// UCB1 without the solver on `nim` for `iterations`, continuing whatever `tree` holds.
fn search_nim(tree: &mut Mcts<'_, u8>, nim: u8, iterations: u32, seed: u64) -> SearchResult<u8> {
    let config = no_solver();
    tree.search(
        &Nim::new(nim),
        &Ucb1::default(),
        &Hints,
        &config,
        iterations,
        &mut rng(seed),
    )
    .unwrap()
}

#[test]
fn reused_tree_with_a_different_position_starts_afresh() {
    let mut nodes = storage(5000);
    let mut tree = Mcts::new(&mut nodes);
    search_nim(&mut tree, 9, 300, 1);
    // The caller advances by 2 (a pile of 7 should follow) but searches a pile of 2: its
    // moves (take 1 or 2) differ from the kept root's, so the tree starts afresh. A position
    // with the same moves cannot be told apart; keeping them in step is the caller's job.
    assert!(tree.advance(2));
    let result = search_nim(&mut tree, 2, 300, 1);
    assert_eq!(result.best, Some(2));
    assert_eq!(tree.root_visits(), 300);
}

#[test]
fn a_position_with_the_same_moves_but_another_key_starts_afresh() {
    let mut nodes = storage(5000);
    let mut tree = Mcts::new(&mut nodes);
    search_nim(&mut tree, 9, 300, 1);
    // Searching the same position again continues the tree.
    search_nim(&mut tree, 9, 200, 2);
    assert_eq!(tree.root_visits(), 500);
    // A pile of 10 offers the same moves (take 1, 2 or 3) but its key differs.
    search_nim(&mut tree, 10, 300, 3);
    assert_eq!(tree.root_visits(), 300);
}

#[test]
fn reuse_keeps_proofs_for_the_new_side_to_move() {
    let mut nodes = storage(50_000);
    let mut tree = Mcts::new(&mut nodes);
    let mut game = Nim::new(13);
    let config = Config::default();
    let result = tree
        .search(
            &game,
            &Ucb1::default(),
            &Hints,
            &config,
            50_000,
            &mut rng(3),
        )
        .unwrap();
    assert_eq!(result.stats.root_proof, Proof::Win);
    let mv = result.best.unwrap();
    assert!(tree.advance(mv));
    game.play(mv);
    // Now the opponent is to move in a lost position.
    let result = tree
        .search(&game, &Ucb1::default(), &Hints, &config, 10, &mut rng(3))
        .unwrap();
    assert_eq!(result.stats.root_proof, Proof::Loss);
    assert_eq!(result.stats.iterations, 0);
}

#[test]
fn rave_picks_sensible_moves() {
    let config = no_solver();
    for seed in 0..3 {
        let (result, children) = search(
            &TicTacToe::parse("XX. OO. ..."),
            &Rave::default(),
            &config,
            2000,
            50_000,
            seed,
        );
        assert_eq!(result.best, Some(2));
        assert!(children.iter().all(|c| c.amaf_visits >= c.visits));
        let (result, _) = search(&Nim::new(10), &Rave::default(), &config, 3000, 50_000, seed);
        assert_eq!(result.best, Some(2));
        // AMAF's blind spot: below "take 2 now" the tree takes 3 later, so the root child 3
        // inherits the AMAF value of child 2's subtree and, with C = 0, can starve there.
        // An exploration term repairs it.
        let explore = Rave {
            c: 0.3,
            ..Rave::default()
        };
        let (result, _) = search(&Collect::new(4), &explore, &config, 2000, 50_000, seed);
        assert_eq!(result.best, Some(3));
    }
}

#[test]
fn mogo_picks_sensible_moves() {
    let config = no_solver();
    let mogo = MoGo::default();
    for seed in 0..3 {
        let (result, _) = search(
            &TicTacToe::parse("XX. OO. ..."),
            &mogo,
            &config,
            2000,
            50_000,
            seed,
        );
        assert_eq!(result.best, Some(2));
        let (result, _) = search(
            &TicTacToe::parse("XO. .X. ..."),
            &mogo,
            &config,
            4000,
            50_000,
            seed,
        );
        assert_eq!(result.best, Some(8));
        // The same AMAF blind spot as under RAVE; here the prior H(d) (value / 3) repairs it.
        let (result, _) = search(&Collect::with_prior(4), &mogo, &config, 2000, 50_000, seed);
        assert_eq!(result.best, Some(3));
    }
}

#[test]
fn mogo_follows_the_prior_before_statistics_exist() {
    // First iteration of an empty board: no simulation yet, so H(d) alone ranks moves and
    // the centre (prior 0.9) is tried first.
    let game = TicTacToe::parse("... ... ...");
    let (_, children) = search(&game, &MoGo::default(), &no_solver(), 1, 100, 0);
    let tried: Vec<u8> = children
        .iter()
        .filter(|c| c.visits > 0)
        .map(|c| c.mv)
        .collect();
    assert_eq!(tried, [4]);
}

#[test]
fn mogo_weights_follow_equations_2_to_4() {
    let mogo = MoGo {
        c: 1.0,
        c1: 0.01,
        c2: 2.0,
    };
    // r = 100, n = 50: β = 100 / (100 + 50 + 0.01·50·100) = 0.5, γ = 0.02, α = 0.48.
    let (alpha, beta, gamma) = mogo.weights(50, 100);
    assert!((beta - 0.5).abs() < 1e-12);
    assert!((gamma - 0.02).abs() < 1e-12);
    assert!((alpha - 0.48).abs() < 1e-12);
    // Few AMAF simulations: γ capped at 1 and the weights stay a convex combination.
    for (n, r) in [(0, 0), (0, 1), (1, 1), (3, 2), (1000, 5000)] {
        let (a, b, g) = mogo.weights(n, r);
        assert!((a + b + g - 1.0).abs() < 1e-12);
        assert!([a, b, g].iter().all(|w| (0.0..=1.0).contains(w)), "{n} {r}");
    }
    // Score of Eq. 1.
    let child = ChildStats {
        wins: 30.0,
        visits: 50,
        parent_visits: 200,
        amaf_wins: 60.0,
        amaf_visits: 100,
        feature: 0.0,
        prior: 0.8,
    };
    let expected = 0.48 * 0.6 + 0.5 * 0.6 + (0.02 + 1.0 / libm::log(52.0)) * 0.8;
    assert!((mogo.score(&child) - expected).abs() < 1e-12);
}

/// UCB1 scoring a batch straight from the nodes gives, bit for bit, what scoring each
/// child's `ChildStats` gives (ties are broken on exact equality, so the bits matter).
#[test]
fn ucb1_scores_children_from_the_nodes_bit_for_bit() {
    let mut rng = XorShiftRng::seed_from_u64(9);
    for policy in [Ucb1::default(), Ucb1 { c: 1.3 }, Ucb1 { c: 0.0 }] {
        for parent_visits in [0u32, 1, 2, 7, 100, 12_345, u32::MAX] {
            let parent = Node::<u8> {
                visits: parent_visits,
                ..Node::default()
            };
            let children: Vec<Node<u8>> = (0..40)
                .map(|i| {
                    let visits = if i % 5 == 0 { 0 } else { rng.next_u32() % 5000 };
                    Node::<u8> {
                        visits,
                        wins: (rng.next_u32() % (2 * visits + 1)) as f32 / 2.0,
                        ..Node::default()
                    }
                })
                .collect();
            let mut scores = vec![0.0f64; children.len()];
            Policy::<Nim>::score_children(&policy, &parent, &children, &mut scores);
            for (child, score) in children.iter().zip(&scores) {
                let want = policy.score(&child.stats(&parent));
                assert_eq!(
                    score.to_bits(),
                    want.to_bits(),
                    "{child:?} under {parent_visits}"
                );
            }
        }
    }
}

#[test]
fn ucb1_matches_equation_1() {
    let child = ChildStats {
        wins: 6.0,
        visits: 10,
        parent_visits: 100,
        ..ChildStats::default()
    };
    let expected =
        0.6 + core::f64::consts::FRAC_1_SQRT_2 * libm::sqrt(2.0 * libm::log(100.0) / 10.0);
    assert!((Ucb1::default().score(&child) - expected).abs() < 1e-12);
    assert_eq!(Ucb1::default().score(&ChildStats::default()), f64::INFINITY);
}

#[test]
fn formula_policy_reads_the_game_feature() {
    // A greedy persona: the child's feature (its value) alone, also for the final move.
    let greedy = Scored(|_: f64, _: f64, _: f64, feature: f64| feature);
    let config = Config {
        final_move: FinalMove::BestScore,
        ..no_solver()
    };
    let (result, _) = search(&Collect::new(3), &greedy, &config, 20, 1000, 0);
    assert_eq!(result.best, Some(3));
    // A contrarian persona minimises it.
    let contrarian = Scored(|_: f64, _: f64, _: f64, feature: f64| -feature);
    let (result, _) = search(&Collect::new(3), &contrarian, &config, 20, 1000, 0);
    assert_eq!(result.best, Some(0));
}

#[test]
fn formula_policy_sees_wins_and_visits() {
    // UCB1 written as a formula behaves like UCB1.
    let ucb = |w: f64, n: f64, p: f64, _: f64| w / n + libm::sqrt(libm::log(p) / n);
    let config = no_solver();
    let (formula, _) = search(&Nim::new(10), &Scored(ucb), &config, 2000, 20_000, 4);
    let (builtin, _) = search(&Nim::new(10), &Ucb1::default(), &config, 2000, 20_000, 4);
    assert_eq!(formula.best, Some(2));
    assert_eq!(formula.best, builtin.best);
    // As a trait object.
    let dynamic: &dyn Fn(f64, f64, f64, f64) -> f64 = &ucb;
    let (result, _) = search(&Nim::new(10), &Scored(dynamic), &config, 2000, 20_000, 4);
    assert_eq!(result.best, Some(2));
}

#[test]
fn one_player_search_maximises_the_score() {
    for seed in 0..3 {
        let (result, _) = search(
            &Collect::new(5),
            &Ucb1::default(),
            &Config::default(),
            3000,
            50_000,
            seed,
        );
        assert_eq!(result.best, Some(3));
    }
}

#[test]
fn playout_cutoff_uses_the_heuristic() {
    // The walk's end is worth 0 whatever happens, so only cut-off playouts see a difference.
    let cut = Config {
        playout_cutoff: 10,
        ..no_solver()
    };
    let (result, children) = search(&Walk::default(), &Ucb1::default(), &cut, 500, 5000, 1);
    assert_eq!(result.best, Some(1));
    assert!(children.iter().any(|c| c.wins > 0.0));
    let uncut = no_solver();
    let (_, children) = search(&Walk::default(), &Ucb1::default(), &uncut, 100, 5000, 1);
    assert!(children.iter().all(|c| c.wins == 0.0));
    // Cutoff 0: every leaf is scored by the heuristic at once.
    let zero = Config {
        playout_cutoff: 0,
        ..no_solver()
    };
    let (result, _) = search(&Walk::default(), &Ucb1::default(), &zero, 200, 5000, 1);
    assert_eq!(result.best, Some(1));
}

#[test]
fn expansion_threshold_delays_growth() {
    let game = TicTacToe::parse("... ... ...");
    let eager = no_solver();
    let lazy = Config {
        expand_threshold: 8,
        ..no_solver()
    };
    let (eager, _) = search(&game, &Ucb1::default(), &eager, 2000, 100_000, 0);
    let (lazy, _) = search(&game, &Ucb1::default(), &lazy, 2000, 100_000, 0);
    assert!(lazy.stats.nodes_used * 4 < eager.stats.nodes_used);
    assert!(lazy.stats.max_depth > 0);
    assert!(!lazy.stats.storage_full && !eager.stats.storage_full);
}

#[test]
fn from_parts_rejects_what_is_not_a_tree() {
    let mut nodes = storage(100);
    assert_eq!(
        Mcts::from_parts(&mut nodes, 101).unwrap_err(),
        Error::InvalidLength
    );
    // Blank nodes: node 0 must be the only one without a parent.
    assert_eq!(
        Mcts::from_parts(&mut nodes, 2).unwrap_err(),
        Error::InvalidArgument
    );
    assert!(Mcts::from_parts(&mut nodes, 0).is_ok());

    let mut tree = Mcts::new(&mut nodes);
    tree.search(
        &Nim::new(6),
        &Ucb1::default(),
        &Hints,
        &no_solver(),
        30,
        &mut rng(0),
    )
    .unwrap();
    let len = tree.len();
    let grown = nodes.clone();
    assert!(Mcts::from_parts(&mut nodes, len).is_ok());
    type Damage = fn(&mut [Node<u8>], u32) -> u32;
    let damaged: [Damage; 4] = [
        // A child that names another parent.
        |nodes, len| {
            nodes[2].parent = 5;
            len
        },
        // A node in no block: one more node, copied from a real child.
        |nodes, len| {
            nodes[len as usize] = nodes[1];
            len + 1
        },
        // The root's block moved by one: it overlaps nodes that are not its children.
        |nodes, len| {
            nodes[0].first_child += 1;
            len
        },
        // The root with a parent.
        |nodes, len| {
            nodes[0].parent = 1;
            len
        },
    ];
    for damage in damaged {
        let mut copy = grown.clone();
        let len = damage(&mut copy, len);
        assert_eq!(
            Mcts::from_parts(&mut copy, len).unwrap_err(),
            Error::InvalidArgument
        );
    }
}

#[test]
fn chance_inside_play_is_fixed_per_state_unless_reseeded() {
    let config = no_solver();
    // Without reseeding every iteration sees the same flip, so the search learns it.
    let fixed = Coin {
        seed: 5,
        reseed: false,
        right: None,
    };
    let (result, children) = search(&fixed, &Ucb1::default(), &config, 500, 100, 1);
    let flip = (seeded_rng(5).next_u32() & 1) as u8;
    assert_eq!(result.best, Some(flip));
    let best = children.iter().find(|c| c.mv == flip).unwrap();
    assert_eq!(best.wins, best.visits as f32);
    // Reseeded per iteration, both guesses are worth about one half.
    let fresh = Coin {
        reseed: true,
        ..fixed
    };
    let (_, children) = search(&fresh, &Ucb1::default(), &config, 4000, 100, 1);
    for child in &children {
        let mean = child.wins / child.visits as f32;
        assert!((mean - 0.5).abs() < 0.06, "move {} mean {mean}", child.mv);
    }
}

/// A search of `game` with `slots` state slots, then (with `reuse`) one more from the
/// position after the best move and the first reply, reusing the tree: the results, every
/// node of the final tree, and the moves the game's copies played.
fn search_keeping<G: Toy, P: Policy<Counted<G>>>(
    game: &G,
    policy: &P,
    config: &Config,
    slots: usize,
    reuse: bool,
) -> (Vec<SearchResult<u8>>, Vec<Node<u8>>, u64) {
    let counted = Counted::new(game.clone());
    let mut nodes = storage(30_000);
    let mut states = vec![CachedState::default(); slots];
    let mut tree = Mcts::new(&mut nodes);
    let mut rng = rng(21);
    let mut results = Vec::new();
    let result = tree
        .search_with_states(
            &counted,
            policy,
            &Hints,
            config,
            1500,
            &mut rng,
            &mut states,
        )
        .unwrap();
    results.push(result);
    if let (Some(best), true) = (result.best, reuse) {
        let mut after = counted.clone();
        after.play(best);
        let mut replies = G::Moves::default();
        after.legal_moves(&mut replies);
        let reply = replies[0];
        after.play(reply);
        assert!(tree.advance(best) && tree.advance(reply));
        let result = tree
            .search_with_states(&after, policy, &Hints, config, 800, &mut rng, &mut states)
            .unwrap();
        results.push(result);
    }
    let len = tree.len() as usize;
    nodes.truncate(len);
    (results, nodes, counted.plays.get())
}

/// Kept states change only the work: the same results and the same tree, node for node, as
/// replaying every move, with solver, RAVE, features, priors, an expansion threshold, a
/// playout cutoff and tree reuse; too few slots keep some states, none keep nothing.
#[test]
fn kept_states_give_the_same_tree_with_fewer_moves_played() {
    fn check<G: Toy + Clone, P: Policy<Counted<G>>>(
        game: G,
        policy: &P,
        config: Config,
        reuse: bool,
    ) {
        let (results, nodes, replayed) = search_keeping(&game, policy, &config, 0, reuse);
        let mut plays = Vec::new();
        for slots in [5, 64, 4000] {
            let kept = search_keeping(&game, policy, &config, slots, reuse);
            assert_eq!(kept.0, results, "{slots} slots");
            assert!(kept.1 == nodes, "{slots} slots: another tree");
            plays.push(kept.2);
        }
        // More slots, fewer moves played; with every state kept, far fewer.
        assert!(plays[0] < replayed, "{plays:?} against {replayed}");
        assert!(plays[1] < plays[0] && plays[2] < plays[1], "{plays:?}");
        assert!(plays[2] * 3 < replayed * 2, "{plays:?} against {replayed}");
    }
    let empty = TicTacToe::parse("... ... ...");
    check(empty.clone(), &Ucb1::default(), Config::default(), true);
    check(empty.clone(), &Rave::default(), no_solver(), true);
    let thresholded = Config {
        expand_threshold: 3,
        playout_cutoff: 2,
        ..no_solver()
    };
    check(empty, &MoGo::default(), thresholded, false);
    let greedy = Scored(|w: f64, n: f64, _: f64, feature: f64| w / n + feature);
    check(Collect::with_prior(12), &greedy, no_solver(), true);
    check(
        Collect::with_prior(12),
        &MoGo::default(),
        no_solver(),
        false,
    );
}

/// The exact chance of reaching the goal from `state` with best play: the maximum over the
/// player's moves, the probability-weighted mean over chance's outcomes.
fn race_value(state: &DiceRace) -> f64 {
    let mut moves = heapless::Vec::<u8, 14>::new();
    state.legal_moves(&mut moves);
    let after = |mv: u8| {
        let mut next = state.clone();
        next.play(mv);
        race_value(&next)
    };
    match state.turn() {
        Turn::Over => f64::from(state.returns()[0]),
        Turn::Chance => {
            let total = 6f64.powi(i32::from(state.dice));
            let weighted = |mv: u8| f64::from(state.outcome_weight(mv)) / total * after(mv);
            moves.iter().map(|&mv| weighted(mv)).sum()
        }
        Turn::Player(_) => moves.iter().map(|&mv| after(mv)).fold(0.0, f64::max),
    }
}

/// Chance nodes: from races whose best number of dice is clear by at least 0.05, the search
/// picks it, and the value it backs up for that move is the exact one.
#[test]
fn chance_nodes_find_the_best_dice_and_their_exact_values() {
    let mut checked = 0;
    for (goal, score, turns) in [(8, 0, 1), (12, 0, 2), (15, 0, 2), (10, 5, 1), (20, 0, 3)] {
        let state = DiceRace {
            goal,
            score,
            turns,
            dice: 0,
        };
        let values: Vec<f64> = (1..=3u8)
            .map(|dice| {
                let mut next = state.clone();
                next.play(dice);
                race_value(&next)
            })
            .collect();
        let mut order: Vec<usize> = (0..3).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        if values[order[0]] - values[order[1]] < 0.05 {
            continue;
        }
        let best = order[0] as u8 + 1;
        let (result, children) = search(&state, &Ucb1::default(), &no_solver(), 20_000, 300_000, 3);
        assert_eq!(
            result.best,
            Some(best),
            "{state:?}: exact values {values:?}"
        );
        let chosen = children.iter().find(|c| c.mv == best).unwrap();
        let mean = f64::from(chosen.wins) / f64::from(chosen.visits);
        let exact = values[order[0]];
        assert!(
            (mean - exact).abs() < 0.03,
            "{state:?}: {mean} against {exact}"
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} races with a clear best move");
}

#[test]
fn a_chance_turn_has_no_move_to_choose() {
    let rolling = DiceRace {
        goal: 8,
        score: 0,
        turns: 1,
        dice: 2,
    };
    let (result, children) = search(&rolling, &Ucb1::default(), &Config::default(), 50, 100, 0);
    assert_eq!(result.best, None);
    assert!(children.is_empty());
}

/// Information-set MCTS on Kuhn poker, whatever the opponent holds: facing a bet, the jack
/// folds (it loses every showdown) and the king calls (it wins every showdown).
#[test]
fn information_set_search_plays_kuhn_pokers_dominant_moves() {
    const PASS: u8 = 0;
    const BET: u8 = 1;
    // (cards, actions so far, the move of the player to act)
    let spots: [([u8; 2], &[u8], u8); 4] = [
        ([1, 0], &[BET], PASS),
        ([1, 2], &[BET], BET),
        ([0, 1], &[PASS, BET], PASS),
        ([2, 1], &[PASS, BET], BET),
    ];
    for (cards, history, dominant) in spots {
        let state = Kuhn::after(cards, history).expect("a Kuhn history");
        for seed in 0..3 {
            let mut nodes = storage(10_000);
            let mut tree = Mcts::new(&mut nodes);
            let result = tree
                .search_information_set(
                    &state,
                    &Ucb1::default(),
                    &Hints,
                    &Config::default(),
                    2000,
                    &mut rng(seed),
                )
                .unwrap();
            assert_eq!(result.best, Some(dominant), "{state:?} seed {seed}");
            assert_eq!(result.stats.root_proof, Proof::Unknown);
        }
    }
}

/// The observer's information set is what the tree is kept for: a search continues a tree
/// built for another deal of the unseen card, and starts afresh for another own card.
#[test]
fn information_set_trees_are_kept_per_information_set() {
    let mut nodes = storage(10_000);
    let mut tree = Mcts::new(&mut nodes);
    let search = |tree: &mut Mcts<'_, u8>, state: &Kuhn| {
        let config = Config::default();
        tree.search_information_set(state, &Ucb1::default(), &Hints, &config, 300, &mut rng(1))
            .unwrap();
        tree.root_visits()
    };
    assert_eq!(
        search(
            &mut tree,
            &Kuhn::after([0, 1], &[1]).expect("a Kuhn history")
        ),
        300
    );
    assert_eq!(
        search(
            &mut tree,
            &Kuhn::after([2, 1], &[1]).expect("a Kuhn history")
        ),
        600
    );
    assert_eq!(
        search(
            &mut tree,
            &Kuhn::after([2, 0], &[1]).expect("a Kuhn history")
        ),
        300
    );
}

/// Knowledge whose priors count as simulations: the toy's prior value, worth four.
struct Weighted;

impl Knowledge<Collect> for Weighted {
    fn priors(&self, state: &Collect, moves: &[u8], out: &mut impl crate::search::PriorSink) {
        for (i, &mv) in moves.iter().enumerate() {
            let value = state.prior(mv);
            out.set(i, crate::search::Prior { value, weight: 4.0 });
        }
    }

    fn weighs_priors(&self) -> bool {
        true
    }
}

/// Weighted priors enter a new child's statistics as that many simulations with that mean,
/// whatever the policy reads; unweighted ones (and `()`) add nothing.
#[test]
fn prior_weights_count_as_simulations() {
    let game = Collect::with_prior(3);
    let mut nodes = storage(100);
    let mut tree = Mcts::new(&mut nodes);
    let config = no_solver();
    tree.search(&game, &Ucb1::default(), &Weighted, &config, 1, &mut rng(0))
        .unwrap();
    let children: Vec<ChildInfo<u8>> = tree.root_children().collect();
    assert_eq!(children.len(), 4);
    // One simulation went through one child, on top of four assumed ones each.
    let visits: u32 = children.iter().map(|c| c.visits).sum();
    assert_eq!(visits, 4 * 4 + 1);
    for child in children.iter().filter(|c| c.visits == 4) {
        assert_eq!(
            child.wins,
            f32::from(child.mv) / 3.0 * 4.0,
            "move {}",
            child.mv
        );
    }
    tree.clear();
    tree.search(&game, &Ucb1::default(), &(), &config, 1, &mut rng(0))
        .unwrap();
    assert_eq!(tree.root_children().map(|c| c.visits).sum::<u32>(), 1);
}
