//! Hand-evaluator speed: random access on 10 million pre-generated seven-card hands, the
//! full enumeration of all 133,784,560 seven-card hands, the batch call, and five cards.
//!
//! Run: `cargo bench --bench hand_eval`. Throughput is reported in hands per second.
//!
//! Timings on a shared machine only compare within one run, so `versus_rs_poker` ranks the
//! same 10 million hands with arbor and with rs_poker 5.0.0 (the in-run reference)
//! back to back: `cargo bench --bench hand_eval -- versus_rs_poker`. The `equity` group times
//! exact equity (hand against hand preflop, hand and range against a full range on a turn,
//! range against range on a flop). Each gets its own card
//! representation, converted before timing; both results are folded with `max`.
//!
//! The `ffi_…` benches call the checked C entry points `arbor_hand_rank` and
//! `arbor_hand_rank7_batch` over the same hands as the unchecked ones, through a function
//! pointer the optimiser cannot see through, so each call costs what a C caller pays (no
//! inlining into the loop); `ffi_shaped_unchecked_10M` calls `rank7_unchecked` the same way,
//! to show what the call alone costs without the checks. Compare them in one run:
//! `cargo bench --bench hand_eval -- 'seven_card/(random_access|batch_unchecked|ffi)'`.
#[path = "common/hands.rs"]
mod hands;

use std::hint::black_box;
use std::time::Duration;

use arbor::ffi::{arbor_hand_rank, arbor_hand_rank7_batch, arbor_status};
use arbor::holdem::{for_each_seven_card_rank, rank5_unchecked, rank7_batch, rank7_unchecked};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use hands::{random_hands, rank7_unchecked_c};

const HANDS: usize = 10_000_000;

fn seven_card(c: &mut Criterion) {
    let hands = random_hands::<7>(HANDS);
    let flat: Vec<u8> = hands.iter().flatten().copied().collect();
    let mut ranks = vec![0u16; HANDS];
    let mut group = c.benchmark_group("seven_card");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));

    group.throughput(Throughput::Elements(HANDS as u64));
    group.bench_function("random_access_10M", |b| {
        b.iter(|| {
            hands.iter().fold(0u64, |sum, hand| {
                sum + u64::from(rank7_unchecked(black_box(hand)))
            })
        })
    });
    group.bench_function("batch_unchecked_10M", |b| {
        b.iter(|| arbor::holdem::rank7_batch_unchecked(black_box(&flat), &mut ranks))
    });
    group.bench_function("batch_checked_10M", |b| {
        b.iter(|| rank7_batch(black_box(&flat), &mut ranks).expect("valid hands"))
    });

    // Both take (cards, count, out) and return a status.
    type CardsFn = unsafe extern "C" fn(*const u8, usize, *mut u16) -> arbor_status;
    let rank: CardsFn = black_box(arbor_hand_rank);
    let shaped: CardsFn = black_box(rank7_unchecked_c);
    let batch: CardsFn = black_box(arbor_hand_rank7_batch);
    group.bench_function("ffi_hand_rank_10M", |b| {
        b.iter(|| {
            hands.iter().fold(0u64, |sum, hand| {
                let mut out = 0u16;
                // SAFETY: `hand` is 7 readable bytes and `out` a writable u16.
                let status = unsafe { rank(black_box(hand).as_ptr(), 7, &mut out) };
                debug_assert_eq!(status, arbor_status::ARBOR_OK);
                sum + u64::from(out)
            })
        })
    });
    group.bench_function("ffi_shaped_unchecked_10M", |b| {
        b.iter(|| {
            hands.iter().fold(0u64, |sum, hand| {
                let mut out = 0u16;
                // SAFETY: `hand` is 7 readable bytes and `out` a writable u16.
                unsafe { shaped(black_box(hand).as_ptr(), 7, &mut out) };
                sum + u64::from(out)
            })
        })
    });
    group.bench_function("ffi_batch_10M", |b| {
        b.iter(|| {
            // SAFETY: `flat` holds 7 * HANDS bytes and `ranks` HANDS aligned u16.
            let status = unsafe { batch(black_box(flat.as_ptr()), HANDS, ranks.as_mut_ptr()) };
            assert_eq!(status, arbor_status::ARBOR_OK);
        })
    });

    group.throughput(Throughput::Elements(133_784_560));
    group.bench_function("enumerate_all_133M", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for_each_seven_card_rank(|rank| sum += u64::from(rank));
            black_box(sum)
        })
    });
    group.finish();
}

fn versus_rs_poker(c: &mut Criterion) {
    use rs_poker::core::{Card as PokerCard, Rankable, Suit, Value};
    let hands = random_hands::<7>(HANDS);
    let theirs: Vec<[PokerCard; 7]> = hands
        .iter()
        .map(|hand| hand.map(|card| PokerCard::new(Value::from(card / 4), Suit::from(card % 4))))
        .collect();
    let mut group = c.benchmark_group("versus_rs_poker");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(HANDS as u64));
    group.bench_function("arbor_rank7_unchecked_10M", |b| {
        b.iter(|| {
            hands.iter().fold(0u16, |best, hand| {
                best.max(rank7_unchecked(black_box(hand)))
            })
        })
    });
    group.bench_function("rs_poker_rank_10M", |b| {
        b.iter(|| theirs.iter().map(|hand| black_box(&hand[..]).rank()).max())
    });
    group.finish();
}

fn five_card(c: &mut Criterion) {
    let hands = random_hands::<5>(HANDS);
    let mut group = c.benchmark_group("five_card");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(HANDS as u64));
    group.bench_function("random_access_10M", |b| {
        b.iter(|| {
            hands.iter().fold(0u64, |sum, hand| {
                sum + u64::from(rank5_unchecked(black_box(hand)))
            })
        })
    });
    group.finish();
}

/// Exact equity: the bot's hot path is a range against a range on a turn board.
fn equity(c: &mut Criterion) {
    use arbor::holdem::{COMBOS, Card, hand_vs_hand, hand_vs_range, range_vs_range};
    let cards = |text: &str| -> Vec<Card> {
        text.split(' ')
            .map(|card| Card::parse(card).expect("a card"))
            .collect()
    };
    let turn = cards("Kh 9d 5c 2s");
    let hero: [Card; 2] = cards("Qs Js").try_into().expect("two cards");
    let villain: [Card; 2] = cards("Ah Ad").try_into().expect("two cards");
    // Every combo, weights varying as a solver's would.
    let full: [f32; COMBOS] = core::array::from_fn(|i| 0.25 + (i % 4) as f32 * 0.25);
    let mut group = c.benchmark_group("equity");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("hand_vs_hand_preflop", |b| {
        b.iter(|| hand_vs_hand(black_box(hero), villain, &[]))
    });
    group.bench_function("hand_vs_range_turn", |b| {
        b.iter(|| hand_vs_range(black_box(hero), &full, black_box(&turn)))
    });
    group.bench_function("range_vs_range_turn", |b| {
        b.iter(|| range_vs_range(black_box(&full), &full, black_box(&turn)))
    });
    group.bench_function("range_vs_range_flop", |b| {
        b.iter(|| range_vs_range(black_box(&full), &full, black_box(&turn[..3])))
    });
    group.finish();
}

criterion_group!(benches, versus_rs_poker, seven_card, five_card, equity);
criterion_main!(benches);
