//! CFR speed: iterations of CFR+ on Kuhn poker and Leduc Hold'em (full traversals of both
//! players), and one river re-solve of heads-up no-limit (200 CFR+ iterations on the public
//! tree with ranges of all 1,326 holdings; half pot, pot, all-in, two raises) and one
//! depth-limited turn re-solve (20 iterations, its leaves valued by checking down the river).
//!
//! Run: `cargo bench --bench cfr`. One core.
use std::hint::black_box;
use std::time::Duration;

use arbor::holdem::resolve::{BetAbstraction, RiverSolver, TurnSolver};
use arbor::holdem::{Action, Card, HandState, HoldemConfig, Range};
use arbor::search::cfr::{Algorithm, Cfr, Kuhn, Leduc};
use arbor::search::game::seeded_rng;
use criterion::{Criterion, criterion_group, criterion_main};

/// Iterations of one river re-solve in the benchmark (docs/cfr.md reports its time).
const RESOLVE_ITERATIONS: u32 = 200;

/// Iterations of one turn re-solve in the benchmark (docs/holdem-bot.md reports its cost).
const TURN_RESOLVE_ITERATIONS: u32 = 20;

fn cfr_iterations(c: &mut Criterion) {
    let mut group = c.benchmark_group("cfr");
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("kuhn cfr+ 100 iterations", |b| {
        let mut keys = vec![0u64; Kuhn::INFOSETS];
        let mut values = vec![0.0; Cfr::values_len(Kuhn::INFOSETS, Kuhn::ACTIONS).unwrap_or(0)];
        b.iter(|| {
            let mut cfr = Cfr::new(&mut keys, &mut values, Kuhn::ACTIONS, Algorithm::CfrPlus)
                .expect("storage sized for Kuhn");
            cfr.iterate(&Kuhn::new(), 100, &mut seeded_rng(1))
                .expect("Kuhn fits");
            black_box(cfr.infosets())
        })
    });
    group.bench_function("leduc cfr+ 10 iterations", |b| {
        let mut keys = vec![0u64; Leduc::INFOSETS];
        let mut values = vec![0.0; Cfr::values_len(Leduc::INFOSETS, Leduc::ACTIONS).unwrap_or(0)];
        b.iter(|| {
            let mut cfr = Cfr::new(&mut keys, &mut values, Leduc::ACTIONS, Algorithm::CfrPlus)
                .expect("storage sized for Leduc");
            cfr.iterate(&Leduc::new(), 10, &mut seeded_rng(1))
                .expect("Leduc fits");
            black_box(cfr.infosets())
        })
    });
    group.finish();
}

/// Checked down to the street of `board` (a turn or river of Kh 8d 5c 2s 3h): pot 200,
/// position 0 to act.
fn checked_down(board: &[&str]) -> HandState {
    let mut hand = HandState::new(HoldemConfig::ACPC);
    let board: Vec<Card> = board.iter().filter_map(|t| Card::parse(t).ok()).collect();
    let _ = hand.apply(Action::Call);
    let _ = hand.apply(Action::Call);
    for (start, count) in [(0, 3), (3, 1), (4, 1)] {
        for card in board.iter().skip(start).take(count) {
            let _ = hand.deal_board_card(*card);
        }
        if start + count < board.len() {
            let _ = hand.apply(Action::Call);
            let _ = hand.apply(Action::Call);
        }
    }
    hand
}

fn river_resolve(c: &mut Criterion) {
    let hand = checked_down(&["Kh", "8d", "5c", "2s", "3h"]);
    let bets = BetAbstraction::default();
    let uniform = Range::uniform();
    let mut values = vec![0.0f32; RiverSolver::values_len(&hand, &bets).unwrap_or(0)];
    let mut group = c.benchmark_group("resolve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("river 200 iterations", |b| {
        b.iter(|| {
            let mut solver = RiverSolver::new(&hand, [&uniform, &uniform], &bets, &mut values)
                .expect("a river spot");
            solver.solve(RESOLVE_ITERATIONS);
            black_box(solver.iterations())
        })
    });
    group.finish();
}

/// One depth-limited turn re-solve of Kh 8d 5c 2s as the bot runs it: uniform ranges (the
/// densest), the default bets, [`TURN_RESOLVE_ITERATIONS`] iterations, the setup included.
fn turn_resolve(c: &mut Criterion) {
    let hand = checked_down(&["Kh", "8d", "5c", "2s"]);
    let bets = BetAbstraction::default();
    let uniform = Range::uniform();
    let mut values = vec![0.0f32; TurnSolver::values_len(&hand, &bets).unwrap_or(0)];
    let mut group = c.benchmark_group("resolve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("turn 20 iterations", |b| {
        b.iter(|| {
            let mut solver = TurnSolver::new(&hand, [&uniform, &uniform], &bets, &mut values)
                .expect("a turn spot");
            solver.solve(TURN_RESOLVE_ITERATIONS);
            black_box(solver.iterations())
        })
    });
    group.finish();
}

criterion_group!(benches, cfr_iterations, river_resolve, turn_resolve);
criterion_main!(benches);
