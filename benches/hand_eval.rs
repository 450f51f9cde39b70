//! Hand-evaluator speed: random access on 10 million pre-generated seven-card hands, the
//! full enumeration of all 133,784,560 seven-card hands, the batch call, and five cards.
//!
//! Run: `cargo bench --bench hand_eval`. Throughput is reported in hands per second.
use std::hint::black_box;
use std::time::Duration;

use arbor::holdem::{for_each_seven_card_rank, rank5_unchecked, rank7_batch, rank7_unchecked};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

const HANDS: usize = 10_000_000;

/// `count` hands of `N` distinct random cards, from a fixed seed.
fn random_hands<const N: usize>(count: usize) -> Vec<[u8; N]> {
    let mut rng = XorShiftRng::seed_from_u64(2026);
    (0..count)
        .map(|_| {
            let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
            let mut hand = [0u8; N];
            for (i, card) in hand.iter_mut().enumerate() {
                let j = i + (rng.next_u64() % (52 - i) as u64) as usize;
                deck.swap(i, j);
                *card = deck[i];
            }
            hand
        })
        .collect()
}

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

criterion_group!(benches, seven_card, five_card);
criterion_main!(benches);
