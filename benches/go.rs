//! Go playout speed: light and MoGo playouts from the empty 9x9 board (komi 7.5), one core, in
//! playouts per second.
//!
//! Run: `cargo bench --bench go`.
use std::hint::black_box;

use arbor::go::{Board, MogoPolicy, light_playout, mogo_playout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

fn light_playouts(c: &mut Criterion) {
    const PLAYOUTS: u64 = 1_000;
    let board = Board::new(9).expect("9 is a board size");
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut group = c.benchmark_group("go_light_playout");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("9x9_empty_1k_playouts", |b| {
        b.iter(|| {
            let mut stones = 0u32;
            for _ in 0..PLAYOUTS {
                stones =
                    stones.wrapping_add(light_playout(black_box(&board), &mut rng).stones_placed);
            }
            stones
        })
    });
    group.finish();
}

/// MoGo playouts (the full default policy) from the empty 9x9 board, komi 7.5.
fn mogo_playouts(c: &mut Criterion) {
    const PLAYOUTS: u64 = 1_000;
    let board = Board::new(9).expect("9 is a board size");
    let policy = MogoPolicy::default();
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut group = c.benchmark_group("go_mogo_playout");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("9x9_empty_1k_playouts", |b| {
        b.iter(|| {
            let mut stones = 0u32;
            for _ in 0..PLAYOUTS {
                stones = stones
                    .wrapping_add(mogo_playout(black_box(&board), &policy, &mut rng).stones_placed);
            }
            stones
        })
    });
    group.finish();
}

criterion_group!(benches, light_playouts, mogo_playouts);
criterion_main!(benches);
