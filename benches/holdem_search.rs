//! Staged-search speed: one decision of `arbor::holdem::search::search` on a river, a turn
//! (exact, every river) and a flop (4 cards per deal), with the stand-in `StrengthModel` on
//! both sides, a uniform range and the bot's default settings.
//!
//! `staged_deadline`: the paper's bot (`staged`, default spec) deciding under a 16 ms
//! deadline (`HoldemBot::act_until`) at every postflop decision of a few dealt hands against
//! the equity bot; it prints each street's overrun past the deadline (p50, p99, max) and the
//! share of decisions cut short, then times one cut decision per street.
//!
//! Run: `cargo bench --bench holdem_search` (`-- staged_deadline` for the deadline alone).
use std::hint::black_box;
use std::time::{Duration, Instant};

use arbor::holdem::bots::{BotView, HoldemBot, parse_bot};
use arbor::holdem::deal::Dealer;
use arbor::holdem::search::models::StrengthModel;
use arbor::holdem::search::{ChanceMode, SearchConfig, search};
use arbor::holdem::{Action, Card, HandState, HoldemConfig, Range};
use arbor::search::mcts::InstantDeadline;
use criterion::{Criterion, criterion_group, criterion_main};

/// The budget a game frame leaves the bot.
const BUDGET: Duration = Duration::from_millis(16);
/// Hands dealt for the overrun table (each half: the staged bot in either seat).
const OVERRUN_HANDS: u64 = 40;

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

/// The `p` quantile (0..=1) of sorted `values`.
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at]
}

/// Plays `OVERRUN_HANDS` hands of `staged` against `equity`, the staged bot deciding every
/// postflop action under `BUDGET`; returns per street (flop, turn, river) the overruns past
/// the deadline in milliseconds (negative: it finished early) and the decisions cut short,
/// and one spot per street to time.
fn overruns() -> ([Vec<f64>; 3], [(HandState, BotView); 3]) {
    let mut staged = parse_bot("staged:seed=3").expect("the staged bot");
    let mut other = parse_bot("equity:seed=4").expect("the equity bot");
    let mut dealer = Dealer::new(17);
    let mut out: [Vec<f64>; 3] = Default::default();
    let mut spots: [Option<(HandState, BotView)>; 3] = Default::default();
    for number in 0..OVERRUN_HANDS {
        let deal = dealer.next_hand();
        let staged_seat = (number % 2) as u8;
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(0, deal.holes[0]).expect("hole cards");
        hand.deal_hole_cards(1, deal.holes[1]).expect("hole cards");
        while !hand.is_over() {
            if hand.board_cards_due() > 0 {
                let next = deal.board[hand.board().len()];
                hand.deal_board_card(next).expect("a board card");
                continue;
            }
            let actor = hand.to_act().expect("someone to act");
            let view = BotView::from_state(&hand, actor, number).expect("a view");
            let seen = hand.seen_by(actor);
            let street = hand.board().len().saturating_sub(3).min(2);
            let action = if actor == staged_seat && !hand.board().is_empty() {
                let started = Instant::now();
                let mut stop = InstantDeadline(started + BUDGET);
                let action = staged.act_until(&view, &seen, &mut stop);
                let overrun = started.elapsed().as_secs_f64() * 1e3 - BUDGET.as_secs_f64() * 1e3;
                out[street].push(overrun);
                spots[street].get_or_insert((seen.clone(), view));
                action
            } else if actor == staged_seat {
                staged.act(&view, &seen)
            } else {
                other.act(&view, &seen)
            };
            hand.apply(action).expect("a legal action");
        }
        staged.hand_over(&hand.seen_by(staged_seat), staged_seat);
        other.hand_over(&hand.seen_by(1 - staged_seat), 1 - staged_seat);
    }
    let spots = spots.map(|spot| spot.expect("every street reached"));
    (out, spots)
}

fn staged_deadline(c: &mut Criterion) {
    let (mut overruns, spots) = overruns();
    println!("staged under a 16 ms deadline, overrun past it in ms ({OVERRUN_HANDS} hands):");
    println!("street  decisions  cut short  p50     p99     max");
    for (name, values) in ["flop", "turn", "river"].iter().zip(overruns.iter_mut()) {
        values.sort_by(f64::total_cmp);
        // A decision that ends at or past the deadline was cut short (or ran out its time).
        let cut = values.iter().filter(|&&v| v >= 0.0).count();
        println!(
            "{name:<7} {:>9}  {cut:>9}  {:>6.2}  {:>6.2}  {:>6.2}",
            values.len(),
            quantile(values, 0.5),
            quantile(values, 0.99),
            values.last().copied().unwrap_or(0.0),
        );
    }
    let mut staged = parse_bot("staged:seed=3").expect("the staged bot");
    let mut group = c.benchmark_group("staged_deadline_16ms");
    group.sample_size(20);
    for (name, (seen, view)) in ["flop", "turn", "river"].iter().zip(spots) {
        group.bench_function(*name, |b| {
            b.iter(|| {
                let mut stop = InstantDeadline(Instant::now() + BUDGET);
                staged.act_until(black_box(&view), &seen, &mut stop)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, staged_search, staged_deadline);
criterion_main!(benches);
