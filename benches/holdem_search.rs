//! Staged-search speed: one decision of `arbor::holdem::search::search` on a river, a turn
//! (exact, every river) and a flop (4 cards per deal), with the stand-in `StrengthModel` on
//! both sides, a uniform range and the bot's default settings.
//!
//! Run: `cargo bench --bench holdem_search`.
use std::hint::black_box;
use std::time::Duration;

use arbor::holdem::search::models::StrengthModel;
use arbor::holdem::search::{ChanceMode, SearchConfig, search};
use arbor::holdem::{Action, Card, HandState, HoldemConfig, Range};
use criterion::{Criterion, criterion_group, criterion_main};

/// Position 0 holds `hole`; everything is checked or called to the last street of `board`.
fn checked_to(hole: [&str; 2], board: &[&str]) -> HandState {
    let card = |text: &str| Card::parse(text).expect("a card");
    let mut hand = HandState::new(HoldemConfig::ACPC);
    hand.deal_hole_cards(0, [card(hole[0]), card(hole[1])])
        .expect("hole cards");
    let mut dealt = 0;
    loop {
        while hand.board_cards_due() > 0 {
            hand.deal_board_card(card(board[dealt]))
                .expect("a board card");
            dealt += 1;
        }
        if dealt == board.len() {
            return hand;
        }
        hand.apply(Action::Call).expect("a call");
    }
}

fn staged_search(c: &mut Criterion) {
    let model = StrengthModel::default();
    let range = Range::uniform();
    let config = |chance| SearchConfig {
        chance,
        max_raises_per_round: 1,
        min_branch_probability: 0.02,
        seed: 1,
    };
    let spots = [
        (
            "river_exact",
            checked_to(["Ah", "Td"], &["Kd", "7c", "2h", "Ts", "4d"]),
            ChanceMode::Exact,
        ),
        (
            "turn_exact",
            checked_to(["Qh", "Jh"], &["Kd", "7c", "2h", "Th"]),
            ChanceMode::Exact,
        ),
        (
            "flop_sampled_4",
            checked_to(["Ah", "Kh"], &["Kd", "7c", "2h"]),
            ChanceMode::Sampled { cards_per_deal: 4 },
        ),
    ];
    let mut group = c.benchmark_group("staged_search");
    group.measurement_time(Duration::from_secs(5));
    for (name, hand, chance) in spots {
        group.bench_function(name, |b| {
            b.iter(|| search(black_box(&hand), 0, &range, &model, &model, config(chance)))
        });
    }
    group.finish();
}

criterion_group!(benches, staged_search);
criterion_main!(benches);
