//! Match-3 speed: one move with its cascades and refill, one legal-move count, and a whole
//! 20-move Vanilla MCTS game and a 20-move persona game at the paper's 250 iterations per
//! move.
//!
//! Run: `cargo bench --bench match3`.
use std::hint::black_box;
use std::time::Duration;

use arbor::match3::{
    Agent, Goal, Level, Match3, Program, SearchConfig, Storage, Swap, nodes_for, play_game,
    states_for,
};
use arbor::search::mcts::{CachedState, Node};
use criterion::{Criterion, criterion_group, criterion_main};

/// Starting positions of the default level and the move each one plays: the first legal
/// move of 64 generated boards, so the measured moves are a mix of plain matches and
/// cascades with refills.
fn positions(level: &Level) -> Vec<(Match3<'_>, Swap)> {
    (0..64)
        .map(|seed| {
            let game = Match3::new(level, seed);
            let mv = game.legal_moves()[0];
            (game, mv)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let level = Level::default();
    let starts = positions(&level);

    let mut i = 0usize;
    c.bench_function(
        "match3 move with cascades and refill (7x7, 6 colours)",
        |b| {
            b.iter(|| {
                i = (i + 1) & 63;
                let (game, mv) = &starts[i];
                let mut game = game.clone();
                black_box(game.play(*mv))
            })
        },
    );

    let boards: Vec<_> = starts.iter().map(|(g, _)| *g.board()).collect();
    let mut j = 0usize;
    c.bench_function("match3 legal-move count (7x7, 6 colours)", |b| {
        b.iter(|| {
            j = (j + 1) & 63;
            black_box(black_box(&boards[j]).legal_count())
        })
    });

    let config = SearchConfig::default();
    let mut nodes = vec![Node::default(); nodes_for(config.iterations)];
    let mut states = vec![CachedState::default(); states_for(config.iterations)];
    let mut storage = Storage {
        nodes: &mut nodes,
        states: &mut states,
    };
    let mut seed = 0u64;
    let mut group = c.benchmark_group("match3 game");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("20-move Vanilla MCTS game, 250 iterations per move", |b| {
        b.iter(|| {
            seed += 1;
            let agent = Agent::Vanilla(Goal::MaxScore);
            black_box(
                play_game(&level, seed, agent, &config, &mut storage, seed, |_, _| {}).unwrap(),
            )
        })
    });
    // A persona formula of typical evolved size that reads every variable, M included.
    let formula = Program::parse("add(add(div(W, N), mul(0.5, sqrt(div(NP, N)))), mul(0.01, M))")
        .expect("the bench formula parses");
    group.bench_function("20-move persona MCTS game, 250 iterations per move", |b| {
        b.iter(|| {
            seed += 1;
            let agent = Agent::Persona(&formula, Goal::MaxScore);
            black_box(
                play_game(&level, seed, agent, &config, &mut storage, seed, |_, _| {}).unwrap(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
