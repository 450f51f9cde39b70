//! The hand evaluator's hot paths one at a time, for callgrind's instruction counts (exact and
//! independent of the machine's load, unlike timings on a shared machine):
//!
//! ```text
//! cargo bench --bench hand_paths --no-run     # prints the binary, target/release/deps/hand_paths-…
//! valgrind --tool=callgrind --toggle-collect='*measured_*' \
//!     target/release/deps/hand_paths-… PATH [HANDS]
//! ```
//!
//! PATH is `rank7` (`rank7_unchecked`), `ffi` (the checked C call `arbor_hand_rank`),
//! `shaped` (`rank7_unchecked` behind the C call's signature), `batch` (the checked C batch
//! `arbor_hand_rank7_batch`; its sum is the last rank only), `unchecked_batch`
//! (`rank7_batch_unchecked`, the batch's reference) or `enumerate` (all 133,784,560 hands). Instructions a hand:
//! callgrind's total divided by HANDS (1,000,000 unless given). The hands are the benches'
//! (`benches/hand_eval.rs`: seed 2026), and the C calls go through a pointer the optimiser
//! cannot see through, as in the benches.
//!
//! `cargo bench --bench hand_paths -- alternate [HANDS] [ROUNDS]` (also what a bare `cargo
//! bench` runs, with 1,000,000 hands and 8 rounds) times the paths against
//! each other instead: each round passes over the hands once per path, in turn, and the
//! fastest round of each path is kept, so a burst of load from other jobs on a shared machine
//! slows single rounds, not the ratios (criterion, in `benches/hand_eval.rs`, times one
//! benchmark after the other, seconds apart).
#[path = "common/hands.rs"]
mod hands;

use std::hint::black_box;

use arbor::ffi::{arbor_hand_rank, arbor_hand_rank7_batch, arbor_status};
use arbor::holdem::{for_each_seven_card_rank, rank7_batch_unchecked, rank7_unchecked};

use hands::{random_hands, rank7_unchecked_c};

type CardsFn = unsafe extern "C" fn(*const u8, usize, *mut u16) -> arbor_status;

#[inline(never)]
fn measured_rank7(hands: &[[u8; 7]]) -> u64 {
    hands.iter().fold(0, |sum, hand| {
        sum + u64::from(rank7_unchecked(black_box(hand)))
    })
}

#[inline(never)]
fn measured_call(hands: &[[u8; 7]], call: CardsFn) -> u64 {
    hands.iter().fold(0, |sum, hand| {
        let mut out = 0u16;
        // SAFETY: `hand` is 7 readable bytes and `out` a writable u16.
        let status = unsafe { call(black_box(hand).as_ptr(), 7, &mut out) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        sum + u64::from(out)
    })
}

#[inline(never)]
fn measured_batch(flat: &[u8], ranks: &mut [u16]) -> u64 {
    // SAFETY: `flat` holds 7 bytes a rank and `ranks` aligned, writable u16s.
    let status = unsafe { arbor_hand_rank7_batch(flat.as_ptr(), ranks.len(), ranks.as_mut_ptr()) };
    assert_eq!(status, arbor_status::ARBOR_OK);
    ranks.last().map_or(0, |&rank| u64::from(rank))
}

#[inline(never)]
fn measured_unchecked_batch(flat: &[u8], ranks: &mut [u16]) -> u64 {
    rank7_batch_unchecked(black_box(flat), ranks);
    ranks.last().map_or(0, |&rank| u64::from(rank))
}

/// The hands as one byte slice, as the batch calls take them.
fn flat(hands: &[[u8; 7]]) -> Vec<u8> {
    hands.iter().flatten().copied().collect()
}

#[inline(never)]
fn measured_enumerate() -> u64 {
    let mut sum = 0u64;
    for_each_seven_card_rank(|rank| sum += u64::from(rank));
    sum
}

/// The fastest of `rounds` interleaved passes of each path, in ns a hand, and its ratio to
/// the path issue 15 compares it with: `rank7_unchecked` inlined in the loop for the calls,
/// the unchecked batch `rank7_batch_unchecked` for the checked C batch.
fn alternate(hands: &[[u8; 7]], rounds: usize) {
    let flat = flat(hands);
    let mut ranks = vec![0u16; hands.len()];
    // Each path's name and the path its ratio is taken to.
    let paths = [
        ("rank7_unchecked", 0),
        ("shaped C call", 0),
        ("arbor_hand_rank", 0),
        ("unchecked batch", 3),
        ("checked C batch", 3),
    ];
    let mut best = [f64::INFINITY; 5];
    for _ in 0..rounds {
        for (path, best) in best.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            let sum = match path {
                0 => measured_rank7(hands),
                1 => measured_call(hands, black_box(rank7_unchecked_c)),
                2 => measured_call(hands, black_box(arbor_hand_rank)),
                3 => measured_unchecked_batch(&flat, &mut ranks),
                _ => measured_batch(&flat, &mut ranks),
            };
            black_box(sum);
            *best = best.min(start.elapsed().as_secs_f64() * 1e9 / hands.len() as f64);
        }
    }
    for ((name, base), time) in paths.iter().zip(best) {
        let base_name = paths[*base].0;
        println!(
            "{name:16} {time:6.3} ns a hand, {:.3}x {base_name}",
            time / best[*base]
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench` to every benchmark binary; without a path, time them.
    let mut args: Vec<String> = std::env::args().filter(|arg| arg != "--bench").collect();
    if args.len() < 2 {
        args.extend(["alternate", "1000000", "8"].map(String::from));
    }
    let usage = concat!(
        "usage: hand_paths rank7|ffi|shaped|batch|unchecked_batch|enumerate [HANDS]",
        " | alternate [HANDS] [ROUNDS]"
    );
    let path = args.get(1).map(String::as_str).unwrap_or("");
    let count: usize = match args.get(2).map(|text| text.parse()) {
        None => 1_000_000,
        Some(Ok(count)) => count,
        Some(Err(_)) => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let hands = random_hands::<7>(count);
    if path == "alternate" {
        let rounds = match args.get(3).map(|text| text.parse()) {
            None => 50,
            Some(Ok(rounds)) => rounds,
            Some(Err(_)) => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        };
        alternate(&hands, rounds);
        return;
    }
    let sum = match path {
        "rank7" => measured_rank7(&hands),
        "ffi" => measured_call(&hands, black_box(arbor_hand_rank)),
        "shaped" => measured_call(&hands, black_box(rank7_unchecked_c)),
        "batch" => measured_batch(&flat(&hands), &mut vec![0; count]),
        "unchecked_batch" => measured_unchecked_batch(&flat(&hands), &mut vec![0; count]),
        "enumerate" => measured_enumerate(),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    println!("{path}: {count} hands, rank sum {sum}");
}
