//! The expert library's cost where a search calls it: `ExpertModel::predict` at a preflop
//! node (a chart lookup) and at a flop node (a strength-table lookup and the rules), the
//! per-board `StrengthTable` build, and one whole decision of the expert bot on the flop
//! (range narrowing by Bayes, sampled equity, the rules).
//!
//! Run: `cargo bench --bench holdem_expert`.
use std::hint::black_box;
use std::time::Duration;

use arbor::holdem::bots::{BotView, HoldemBot};
use arbor::holdem::expert::{ExpertBot, ExpertModel, StrengthTable, Style};
use arbor::holdem::rules::Action;
use arbor::holdem::{ActionModel, COMBOS, Card, HandState, HoldemConfig};
use criterion::{Criterion, criterion_group, criterion_main};

fn card(text: &str) -> Card {
    Card::parse(text).expect("a card")
}

/// A flop after a raise and a call, position 0 to act with `hole`.
fn flop(hole: [Card; 2]) -> HandState {
    let mut hand = HandState::new(HoldemConfig::ACPC);
    hand.deal_hole_cards(0, hole).expect("hole cards");
    hand.apply(Action::RaiseTo(250)).expect("raise");
    hand.apply(Action::Call).expect("call");
    for text in ["Ks", "9d", "4c"] {
        hand.deal_board_card(card(text)).expect("board");
    }
    hand
}

fn expert(c: &mut Criterion) {
    let mut group = c.benchmark_group("holdem_expert");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    let mut preflop = HandState::new(HoldemConfig::ACPC);
    preflop
        .deal_hole_cards(1, [card("Ah"), card("Qd")])
        .expect("hole cards");
    let model = ExpertModel::new(Style::BALANCED, &[], &[1.0; COMBOS]);
    group.bench_function("predict_preflop", |b| {
        b.iter(|| model.predict(black_box(&preflop)))
    });
    let hand = flop([card("Qh"), card("Jh")]);
    let model = ExpertModel::new(Style::BALANCED, hand.board(), &[1.0; COMBOS]);
    group.bench_function("predict_flop", |b| {
        b.iter(|| model.predict(black_box(&hand)))
    });
    group.bench_function("strength_table_flop", |b| {
        b.iter(|| StrengthTable::new(black_box(hand.board()), &[1.0; COMBOS]))
    });
    let view = BotView::from_state(&hand, 0, 1).expect("position 0 acts");
    let mut bot = ExpertBot::new(Style::BALANCED, 1);
    group.bench_function("bot_decision_flop", |b| {
        b.iter(|| bot.act(black_box(&view), black_box(&hand)))
    });
    group.finish();
}

criterion_group!(benches, expert);
criterion_main!(benches);
