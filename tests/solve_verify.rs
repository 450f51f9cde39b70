//! The verifier: solved values of Breakthrough positions checked by an independent,
//! deliberately plain search — negamax with alpha-beta over win/loss and a `HashMap`
//! transposition table keyed by the position itself, using only the rules
//! (`legal_moves`, `play`, `status`), none of the solvers' Breakthrough knowledge.
//!
//! Parallel df-pn and parallel PN² are checked the same way (outcome and winning move).
//! Every solver reports the *first* winning move in move order: the verifier checks that
//! each move before it loses.
//! Fast boards run with `cargo test`; 4x5, 3x7 and 5x5 are `#[ignore]`d (4x5 alone takes
//! two minutes, 5x5 far longer):
//! `cargo test --test solve_verify -- --ignored`.
use std::collections::HashMap;

use arbor::breakthrough::race::race_value;
use arbor::breakthrough::{MoveList, Position, Size, WithRacePatterns};
use arbor::search::proof::dfpn::{Dfpn, DfpnConfig, Entry};
use arbor::search::proof::parallel_dfpn::ParallelDfpn;
use arbor::search::proof::pns::{Node, Pns, PnsConfig};
use arbor::search::proof::ppn2::{self, Ppn2Config};
use arbor::search::proof::{Outcome, Solvable};

/// `true` if the side to move wins. Win/loss only, so alpha-beta reduces to "stop at the
/// first winning move".
fn wins(position: &Position, table: &mut HashMap<Position, bool>) -> bool {
    if let Some(winner) = position.status().winner() {
        return winner == position.side_to_move();
    }
    if let Some(&known) = table.get(position) {
        return known;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut result = false;
    for &mv in moves.iter() {
        let mut next = *position;
        next.play(mv);
        if !wins(&next, table) {
            result = true;
            break;
        }
    }
    table.insert(*position, result);
    result
}

fn start(columns: u8, rows: u8) -> Position {
    Position::start(Size::new_checked(columns, rows).unwrap())
}

fn dfpn<G: Solvable>(position: &G, entries: usize) -> (Outcome, Option<G::Move>) {
    let mut table = vec![Entry::default(); entries];
    let mut solver = Dfpn::new(&mut table, DfpnConfig::default()).unwrap();
    let outcome = solver.solve(position);
    let best = solver.winning_move(position);
    (outcome, best)
}

/// Parallel df-pn on two threads (a parallel mode: its path varies, its answer must not).
fn parallel_dfpn<G: Solvable + Sync>(position: &G, entries: usize) -> (Outcome, Option<G::Move>) {
    let mut solver = ParallelDfpn::new(entries, 2, DfpnConfig::default()).unwrap();
    let outcome = solver.solve(position, &mut |_| {}).unwrap();
    let best = solver.winning_move(position).unwrap();
    (outcome, best)
}

/// Parallel PN² with two workers.
fn ppn2<G>(position: &G, nodes: usize) -> (Outcome, Option<G::Move>)
where
    G: Solvable + Send,
    G::Move: Send,
{
    let config = Ppn2Config {
        threads: 2,
        job: 100,
        partial: 20,
        server_nodes: nodes,
        worker_nodes: 100 * 48 + 1,
        mobility: true,
        max_expansions: u64::MAX,
    };
    let served = ppn2::solve(*position, &config, &mut |_| {}).unwrap();
    (served.outcome, served.winning_move)
}

fn pns<G: Solvable>(position: &G, nodes: usize) -> (Outcome, Option<G::Move>) {
    let mut storage = vec![Node::blank(G::Move::default()); nodes];
    let mut solver = Pns::new(&mut storage, *position, PnsConfig::default()).unwrap();
    let outcome = solver.run(u64::MAX);
    solver.settle(|solver| {
        solver.run(u64::MAX);
    });
    (outcome, solver.winning_move())
}

/// `mv` wins on `position` (alpha-beta), and is the first winning move in `game`'s move
/// order: every move before it loses.
fn assert_first_winning_move<G>(
    game: &G,
    position: &Position,
    mv: arbor::breakthrough::Move,
    table: &mut HashMap<Position, bool>,
    name: &str,
) where
    G: Solvable<Move = arbor::breakthrough::Move>,
{
    let mut moves = G::Moves::default();
    game.proof_moves(&mut moves);
    for &earlier in moves.iter() {
        let mut next = *position;
        next.play(earlier);
        if earlier == mv {
            assert!(!wins(&next, table), "{name} move {mv} on {position}");
            return;
        }
        assert!(
            wins(&next, table),
            "{name} move {mv} on {position}: {earlier} comes first and wins too"
        );
    }
    panic!("{name} move {mv} on {position} is not a move");
}

fn as_outcome(win: bool) -> Outcome {
    if win { Outcome::Win } else { Outcome::Loss }
}

/// df-pn, parallel df-pn (two threads) and PNS, without and with race patterns, agree with alpha-beta on `position`, and
/// a claimed winning move leads to a position that alpha-beta says the opponent loses.
fn check(position: &Position, table: &mut HashMap<Position, bool>, pns_nodes: usize) {
    check_as(position, position, table, pns_nodes);
    check_as(&WithRacePatterns(*position), position, table, pns_nodes);
}

fn check_as<G>(game: &G, position: &Position, table: &mut HashMap<Position, bool>, nodes: usize)
where
    G: Solvable<Move = arbor::breakthrough::Move> + Send + Sync,
{
    let truth = as_outcome(wins(position, table));
    for (name, (outcome, best)) in [
        ("df-pn", dfpn(game, 1 << 16)),
        ("parallel df-pn", parallel_dfpn(game, 1 << 16)),
    ] {
        assert_eq!(outcome, truth, "{name} on {position}");
        if let Some(mv) = best {
            assert_first_winning_move(game, position, mv, table, name);
        }
        assert_eq!(
            truth == Outcome::Win,
            best.is_some(),
            "{name} on {position}"
        );
    }
    if nodes > 0 {
        let (outcome, best) = pns(game, nodes);
        assert_eq!(outcome, truth, "pns on {position}");
        if let Some(mv) = best {
            assert_first_winning_move(game, position, mv, table, "pns");
        }
    }
}

#[test]
fn start_positions_of_small_boards() {
    // PNS keeps no transposition table: on 3x6 its tree outgrows a test-sized storage.
    for (columns, rows, pns_nodes) in [
        (2, 4, 1 << 16),
        (3, 4, 1 << 16),
        (4, 4, 1 << 20),
        (5, 4, 1 << 20),
        (2, 5, 1 << 16),
        (3, 5, 1 << 20),
        (2, 6, 1 << 20),
        (3, 6, 0),
    ] {
        let mut table = HashMap::new();
        check(&start(columns, rows), &mut table, pns_nodes);
        if pns_nodes > 0 {
            let root = start(columns, rows);
            let truth = as_outcome(wins(&root, &mut table));
            let (outcome, best) = ppn2(&root, pns_nodes);
            assert_eq!(outcome, truth, "PPN² on {columns}x{rows}");
            if let Some(mv) = best {
                assert_first_winning_move(&root, &root, mv, &mut table, "PPN²");
            }
        }
    }
}

/// Many positions from random games on several boards: every solved value, of both
/// solvers, agrees with alpha-beta. This is what catches a wrong piece of knowledge
/// (forced defence, wins in three plies), which the start positions alone might not.
#[test]
fn positions_along_random_games() {
    use rand_core::SeedableRng;
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(4);
    for (columns, rows) in [(3, 5), (4, 4), (4, 5), (5, 4), (3, 6), (5, 5), (6, 5)] {
        let mut table = HashMap::new();
        for _ in 0..25 {
            let mut position = start(columns, rows);
            let mut plies = 0;
            while !position.is_over() {
                // Solve positions late enough in the game that alpha-beta is quick.
                let late = position
                    .pawns(arbor::breakthrough::Color::White)
                    .count_ones()
                    + position
                        .pawns(arbor::breakthrough::Color::Black)
                        .count_ones()
                    <= 2 * columns as u32 + 1
                    || rows * columns <= 16;
                if late && plies % 2 == 0 {
                    check(&position, &mut table, 1 << 18);
                }
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                let pick = rand_core::Rng::next_u32(&mut rng) as usize % moves.len();
                position.play(moves[pick]);
                plies += 1;
            }
        }
    }
}

/// The race-pattern rule alone, on every position of random games where it speaks: its
/// verdict is the alpha-beta value. Boards with more rows leave room for the longer claims.
#[test]
fn race_patterns_agree_with_alpha_beta() {
    use rand_core::SeedableRng;
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(11);
    let mut decided = [0u32; 2];
    for (columns, rows) in [(4, 5), (5, 5), (6, 5), (3, 6), (4, 6), (3, 7), (5, 6)] {
        let mut table = HashMap::new();
        for _ in 0..60 {
            let mut position = start(columns, rows);
            while !position.is_over() {
                let late = position
                    .pawns(arbor::breakthrough::Color::White)
                    .count_ones()
                    + position
                        .pawns(arbor::breakthrough::Color::Black)
                        .count_ones()
                    <= 2 * columns as u32 + 2;
                if let Some(verdict) = race_value(&position)
                    && (late || columns * rows <= 20)
                {
                    assert_eq!(verdict, wins(&position, &mut table), "{position}");
                    decided[usize::from(verdict)] += 1;
                }
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                let pick = rand_core::Rng::next_u32(&mut rng) as usize % moves.len();
                position.play(moves[pick]);
            }
        }
    }
    // Both kinds of verdict were met often enough for the comparison to mean something.
    assert!(decided[0] >= 20 && decided[1] >= 20, "{decided:?}");
}

#[test]
#[ignore = "minutes to hours: alpha-beta over the whole 4x5, 3x7 and 5x5 games"]
fn larger_boards_are_second_player_wins() {
    for (columns, rows) in [(4, 5), (3, 7), (5, 5)] {
        let mut table = HashMap::new();
        let root = start(columns, rows);
        assert!(!wins(&root, &mut table), "{columns}x{rows}");
        assert_eq!(dfpn(&root, 1 << 24).0, Outcome::Loss, "{columns}x{rows}");
        let with_patterns = WithRacePatterns(root);
        assert_eq!(
            dfpn(&with_patterns, 1 << 24).0,
            Outcome::Loss,
            "{columns}x{rows}"
        );
    }
}
