//! Breakthrough solving speed: df-pn, parallel df-pn (two threads) and PN² on the 4x5 and
//! 5x4 starts, with and without race patterns (time per solve; the expansion counts are exact and printed by
//! `arbor solve`), and race-pattern matching throughput over positions of random games.
//!
//! Run: `cargo bench --bench solve`. One core, but two for parallel df-pn.
use std::hint::black_box;
use std::time::Duration;

use arbor::breakthrough::race::race_value;
use arbor::breakthrough::{MoveList, Position, Size, WithRacePatterns};
use arbor::search::proof::dfpn::{Dfpn, DfpnConfig, Entry, INITIAL_SLOTS, InitialSlot};
use arbor::search::proof::parallel_dfpn::ParallelDfpn;
use arbor::search::proof::pns::{Node, Pns, PnsConfig};
use arbor::search::proof::{Outcome, Solvable};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// The boards, with the value of their start for the side to move (both second-player
/// wins).
const BOARDS: [(&str, u8, u8, Outcome); 2] =
    [("5x4", 5, 4, Outcome::Loss), ("4x5", 4, 5, Outcome::Loss)];

/// df-pn as `arbor solve` runs it: with a memo of initial numbers.
fn dfpn_solve<G: Solvable>(root: G, table: &mut [Entry], memo: &mut [InitialSlot]) -> Outcome {
    let mut solver = Dfpn::with_initial_cache(table, memo, DfpnConfig::default())
        .expect("table of 2^20 entries");
    solver.solve(&root)
}

fn parallel_dfpn_solve<G: Solvable + Sync>(root: G) -> Outcome {
    let mut solver =
        ParallelDfpn::new(1 << 20, 2, DfpnConfig::default()).expect("table of 2^20 entries");
    solver.solve(&root, &mut |_| {}).expect("two threads")
}

fn pn2_solve<G: Solvable>(
    root: G,
    main: &mut [Node<G::Move>],
    second: &mut [Node<G::Move>],
) -> Outcome {
    let mut solver = Pns::new(main, root, PnsConfig::default()).expect("main tree storage");
    solver.run_pn2(u64::MAX, second, |_| 1000)
}

fn solvers(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut table = vec![Entry::default(); 1 << 20];
    let mut memo = vec![InitialSlot::default(); INITIAL_SLOTS];
    let null = arbor::breakthrough::Move::default();
    let mut main = vec![Node::blank(null); 1 << 21];
    let mut second = vec![Node::blank(null); 1 << 16];
    for (name, columns, rows, value) in BOARDS {
        let root = Position::start(Size::new_checked(columns, rows).expect("a board size"));
        let patterned = WithRacePatterns(root);
        group.bench_function(format!("dfpn_{name}_patterns_off"), |b| {
            b.iter(|| assert_eq!(dfpn_solve(black_box(root), &mut table, &mut memo), value))
        });
        group.bench_function(format!("dfpn_{name}_patterns_on"), |b| {
            b.iter(|| {
                assert_eq!(
                    dfpn_solve(black_box(patterned), &mut table, &mut memo),
                    value
                )
            })
        });
        group.bench_function(
            format!("parallel_dfpn_2_threads_{name}_patterns_off"),
            |b| b.iter(|| assert_eq!(parallel_dfpn_solve(black_box(root)), value)),
        );
        group.bench_function(format!("pn2_{name}_patterns_off"), |b| {
            b.iter(|| assert_eq!(pn2_solve(black_box(root), &mut main, &mut second), value))
        });
        group.bench_function(format!("pn2_{name}_patterns_on"), |b| {
            b.iter(|| {
                assert_eq!(
                    pn2_solve(black_box(patterned), &mut main, &mut second),
                    value
                )
            })
        });
    }
    group.finish();
}

/// Positions along uniformly random games on 5x5, 6x5 and 3x7: where the solvers ask.
fn sample_positions() -> Vec<Position> {
    let mut rng = XorShiftRng::seed_from_u64(3);
    let mut out = Vec::new();
    for (columns, rows) in [(5, 5), (6, 5), (3, 7)] {
        for _ in 0..200 {
            let mut position = Position::start(Size::new_checked(columns, rows).expect("size"));
            while !position.is_over() {
                out.push(position);
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                position.play(moves[rng.next_u32() as usize % moves.len()]);
            }
        }
    }
    out
}

fn matching(c: &mut Criterion) {
    let positions = sample_positions();
    let mut group = c.benchmark_group("race_patterns");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("race_value_random_games", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| race_value(black_box(p)).is_some())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, solvers, matching);
criterion_main!(benches);
