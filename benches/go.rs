//! Go speed: light and MoGo playouts from the empty 9x9 board (komi 7.5), one core, in
//! playouts per second; and the GTP player's tree search in iterations per second, one and
//! two threads.
//!
//! Run: `cargo bench --bench go`.
use std::hint::black_box;

use arbor::go::{Board, LightPlayouts, MogoPlayouts, MogoPolicy};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

fn light_playouts(c: &mut Criterion) {
    const PLAYOUTS: u64 = 1_000;
    let mut playouts = LightPlayouts::new(&Board::new(9).expect("9 is a board size"));
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut group = c.benchmark_group("go_light_playout");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("9x9_empty_1k_playouts", |b| {
        b.iter(|| {
            let mut stones = 0u32;
            for _ in 0..PLAYOUTS {
                stones = stones.wrapping_add(black_box(&mut playouts).run(&mut rng).stones_placed);
            }
            stones
        })
    });
    group.finish();
}

/// Tree iterations per second of the GTP player's search (MCTS with RAVE, light playouts)
/// from the empty 9x9 board, on one and on two threads (root parallelism): one genmove of
/// 10,000 iterations per thread on a fresh tree of a million nodes.
fn tree_search(c: &mut Criterion) {
    use arbor::go::player::{Player, PlayerConfig};
    use arbor::go::{Color, Move};
    use arbor::search::mcts::{Never, Node};
    const ITERATIONS: u32 = 10_000;
    let mut storage = vec![Node::<Move>::default(); 1_000_000];
    let mut group = c.benchmark_group("go_tree_search");
    group.sample_size(10);
    for threads in [1usize, 2] {
        group.throughput(Throughput::Elements(u64::from(ITERATIONS) * threads as u64));
        group.bench_function(format!("9x9_empty_10k_iterations_{threads}_threads"), |b| {
            b.iter(|| {
                let config = PlayerConfig {
                    threads,
                    ..PlayerConfig::for_size(9)
                };
                let mut player = Player::new(&mut storage, 9, config).expect("a 9x9 player");
                let decision = player.genmove(Color::Black, ITERATIONS, Never);
                black_box(decision.expect("storage for the root").iterations)
            })
        });
    }
    group.finish();
}

/// MoGo playouts (the full default policy) from the empty 9x9 board, komi 7.5, on a reused
/// scratch board as the light ones are.
fn mogo_playouts(c: &mut Criterion) {
    const PLAYOUTS: u64 = 1_000;
    let mut playouts = MogoPlayouts::new(
        &Board::new(9).expect("9 is a board size"),
        MogoPolicy::default(),
    );
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut group = c.benchmark_group("go_mogo_playout");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("9x9_empty_1k_playouts", |b| {
        b.iter(|| {
            let mut stones = 0u32;
            for _ in 0..PLAYOUTS {
                stones = stones.wrapping_add(black_box(&mut playouts).run(&mut rng).stones_placed);
            }
            stones
        })
    });
    group.finish();
}

/// The tree search with MoGo's knowledge (`PlayerConfig::mogo`: MoGo playouts, the Go
/// priors, MoGo's score), one thread, from the empty 9x9 board.
fn mogo_tree_search(c: &mut Criterion) {
    use arbor::go::player::{Player, PlayerConfig};
    use arbor::go::{Color, Move};
    use arbor::search::mcts::{Never, Node};
    const ITERATIONS: u32 = 10_000;
    let mut storage = vec![Node::<Move>::default(); 1_000_000];
    let mut group = c.benchmark_group("go_tree_search_mogo");
    group.sample_size(10);
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    group.bench_function("9x9_empty_10k_iterations_mogo_priors", |b| {
        b.iter(|| {
            let mut player =
                Player::new(&mut storage, 9, PlayerConfig::mogo(9)).expect("a 9x9 player");
            let decision = player.genmove(Color::Black, ITERATIONS, Never);
            black_box(decision.expect("storage for the root").iterations)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    light_playouts,
    mogo_playouts,
    tree_search,
    mogo_tree_search
);
criterion_main!(benches);
