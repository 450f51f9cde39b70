//! Breakthrough and MCTS speed: perft on 8x8 (depth 6) in nodes per second, uniformly random
//! playouts from the 8x8 start in games per second, and MCTS iterations per second on 8x8
//! and 6x5 for the UCT, RAVE and MoGo players. `8x8_uct_listed_10k_iterations` is UCT with
//! playouts that list every legal move and pick one (knowledge `Listed` below) instead of the
//! game's own `play_random_move`: the same search, move for move, so the pair measures what
//! the override saves in one run.
//!
//! `c_handle` runs the C ABI's anytime search handle (`arbor_breakthrough_search_run`, one
//! thread) for 10,000 iterations from the 8x8 start in a fresh handle, the figures quoted in
//! that function's documentation (iterations a millisecond = throughput / 1000).
//!
//! Run: `cargo bench --bench breakthrough`. One core; throughput is per second.
use std::hint::black_box;
use std::time::Duration;

use arbor::breakthrough::{Move, Player, Position, Size};
use arbor::search::game::play_listed;
use arbor::search::mcts::{Knowledge, Mcts, Node, random_index};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

fn perft(c: &mut Criterion) {
    let start = Position::start(Size::STANDARD);
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(149_264_638));
    group.bench_function("8x8_depth_6", |b| {
        b.iter(|| {
            let nodes = black_box(start).perft(6);
            assert_eq!(nodes, 149_264_638);
            nodes
        })
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    const GAMES: u64 = 10_000;
    let start = Position::start(Size::STANDARD);
    let mut rng = XorShiftRng::seed_from_u64(1);
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("8x8_start_10k_games", |b| {
        b.iter(|| {
            let mut plies = 0u32;
            for _ in 0..GAMES {
                plies = plies.wrapping_add(black_box(start).random_playout(&mut rng).plies);
            }
            plies
        })
    });
    group.finish();
}

fn mcts(c: &mut Criterion) {
    const ITERATIONS: u32 = 10_000;
    let mut group = c.benchmark_group("mcts");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    for (name, size) in [
        ("8x8", Size::STANDARD),
        ("6x5", Size::new_checked(6, 5).expect("6x5 is a board size")),
    ] {
        let start = Position::start(size);
        let uct = Player::uct(ITERATIONS);
        let mut storage = vec![Node::default(); uct.nodes_needed()];
        let mut rng = XorShiftRng::seed_from_u64(7);
        group.bench_function(format!("{name}_uct_listed_10k_iterations"), |b| {
            b.iter(|| {
                let mut tree = Mcts::new(&mut storage);
                let (policy, config) = (&uct.selection, &uct.config);
                let found = tree.search(
                    black_box(&start),
                    policy,
                    &Listed,
                    config,
                    ITERATIONS,
                    &mut rng,
                );
                found.ok().and_then(|result| result.best)
            })
        });
        for (policy, player) in [
            ("uct", uct),
            ("rave", Player::rave(ITERATIONS)),
            ("mogo", Player::mogo(ITERATIONS)),
        ] {
            let mut storage = vec![Node::default(); player.nodes_needed()];
            let mut rng = XorShiftRng::seed_from_u64(7);
            group.bench_function(format!("{name}_{policy}_10k_iterations"), |b| {
                b.iter(|| {
                    let mut tree = Mcts::new(&mut storage);
                    player.choose(black_box(&start), &mut tree, &mut rng).0
                })
            });
        }
    }
    group.finish();
}

/// Uniform playouts that list every legal move and pick one, as the engine's default does
/// for a game without a fast path: the same moves and draws as Breakthrough's own.
struct Listed;

impl Knowledge<Position> for Listed {
    fn play_playout_move(&self, state: &mut Position, rng: &mut XorShiftRng) -> Option<Move> {
        play_listed(state, rng, |_, moves, rng| random_index(rng, moves.len()))
    }
}

fn c_handle(c: &mut Criterion) {
    use arbor::ffi::{
        ARBOR_BREAKTHROUGH_SEARCH_MOGO, ARBOR_BREAKTHROUGH_SEARCH_RAVE,
        ARBOR_BREAKTHROUGH_SEARCH_UCT, arbor_breakthrough, arbor_breakthrough_init,
        arbor_breakthrough_search_bytes, arbor_breakthrough_search_config,
        arbor_breakthrough_search_default_config, arbor_breakthrough_search_init,
        arbor_breakthrough_search_run, arbor_search_limits, arbor_search_limits_init,
        arbor_search_progress, arbor_status,
    };
    use std::mem::MaybeUninit;

    const ITERATIONS: u32 = 10_000;
    let mut group = c.benchmark_group("c_handle");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    // SAFETY (every block below): pointers to live locals and to `buf`, 8-aligned, of the
    // length the calls are given.
    let position = unsafe {
        let mut position = MaybeUninit::<arbor_breakthrough>::uninit();
        assert_eq!(
            arbor_breakthrough_init(8, 8, position.as_mut_ptr()),
            arbor_status::ARBOR_OK
        );
        position.assume_init()
    };
    let limits = unsafe {
        let mut limits = MaybeUninit::<arbor_search_limits>::uninit();
        assert_eq!(
            arbor_search_limits_init(ITERATIONS, limits.as_mut_ptr()),
            arbor_status::ARBOR_OK
        );
        limits.assume_init()
    };
    let mut bytes = 0usize;
    let status = unsafe { arbor_breakthrough_search_bytes(25 * ITERATIONS, 1, &mut bytes) };
    assert_eq!(status, arbor_status::ARBOR_OK);
    for (name, policy) in [
        ("8x8_uct_10k_iterations", ARBOR_BREAKTHROUGH_SEARCH_UCT),
        ("8x8_rave_10k_iterations", ARBOR_BREAKTHROUGH_SEARCH_RAVE),
        ("8x8_mogo_10k_iterations", ARBOR_BREAKTHROUGH_SEARCH_MOGO),
    ] {
        let config = unsafe {
            let mut config = MaybeUninit::<arbor_breakthrough_search_config>::uninit();
            let status = arbor_breakthrough_search_default_config(policy, config.as_mut_ptr());
            assert_eq!(status, arbor_status::ARBOR_OK);
            config.assume_init()
        };
        let mut buf = vec![0u64; bytes.div_ceil(8)];
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || {
                    seed += 1;
                    let status = unsafe {
                        arbor_breakthrough_search_init(
                            buf.as_mut_ptr().cast(),
                            bytes,
                            &config,
                            &position,
                            seed,
                        )
                    };
                    assert_eq!(status, arbor_status::ARBOR_OK);
                    buf.as_mut_ptr()
                },
                |handle| {
                    let mut progress = arbor_search_progress::default();
                    let status = unsafe {
                        arbor_breakthrough_search_run(
                            handle.cast(),
                            bytes,
                            &limits,
                            1,
                            &mut progress,
                        )
                    };
                    assert_eq!(status, arbor_status::ARBOR_OK);
                    progress.best_move
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, perft, playouts, mcts, c_handle);
criterion_main!(benches);
