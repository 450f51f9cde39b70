//! arbor's raw 8x8 Breakthrough playout against a minimal C peer in the same run (issue 14,
//! point 5: "one raw 8x8 random playout ≤ 0.5 µs", where the issue measured a minimal
//! bitboard playout with POPCNT and BMI2 at 0.42 µs on its day).
//!
//! `cargo bench --bench breakthrough_peer [-- GAMES [ROUNDS]]` (100,000 games, 8 rounds by
//! default). The peer (`benches/c/breakthrough_peer.c`) is compiled with gcc at run time
//! (`c_peer::CFLAGS` and `-mpopcnt -mbmi2`, which arbor's default build picks at run time). Each
//! round plays GAMES uniformly random games from the start with arbor
//! (`Position::random_playout`) and then with the peer, both from the same generator state;
//! the two must play the same games (the sums of their plies are compared), and the fastest
//! round of each is kept, so a burst of load from other jobs slows single rounds, not the
//! comparison.
#[path = "common/c_peer.rs"]
mod c_peer;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use arbor::breakthrough::{Color, Position, Size};
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// The generator's four words, shared by arbor and the peer.
const STATE: [u32; 4] = [0x9E37_79B9, 0x7F4A_7C15, 0x6A09_E667, 0xBB67_AE85];

fn main() -> ExitCode {
    match measure() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("breakthrough_peer: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The positional arguments after the ones cargo passes to every bench (`--bench`).
fn numbers() -> Result<(u64, u32), String> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let games = args
        .first()
        .map_or(Ok(100_000), |a| a.parse())
        .map_err(|_| "GAMES: a number")?;
    let rounds = args
        .get(1)
        .map_or(Ok(8), |a| a.parse())
        .map_err(|_| "ROUNDS: a number")?;
    if games == 0 || rounds == 0 {
        return Err("GAMES and ROUNDS must be positive".into());
    }
    Ok((games, rounds))
}

fn measure() -> Result<(), String> {
    let (games, rounds) = numbers()?;
    let peer = c_peer::compile("breakthrough_peer", &["-mpopcnt", "-mbmi2"])?;
    let seed: Vec<u8> = STATE.iter().flat_map(|word| word.to_le_bytes()).collect();
    let seed: [u8; 16] = seed.try_into().expect("four words are 16 bytes");
    let peer_args: Vec<String> = std::iter::once(games.to_string())
        .chain(STATE.iter().map(u32::to_string))
        .collect();
    let start = Position::start(Size::STANDARD);
    let (mut arbor_best, mut peer_best) = (u64::MAX, u64::MAX);
    for round in 1..=rounds {
        let mut rng = XorShiftRng::from_seed(seed);
        let (mut plies, mut white_wins) = (0u64, 0u64);
        let clock = Instant::now();
        for _ in 0..games {
            let playout = black_box(start).random_playout(&mut rng);
            plies += u64::from(playout.plies);
            white_wins += u64::from(playout.winner == Color::White);
        }
        let arbor_ns = clock.elapsed().as_nanos() as u64;
        let line = c_peer::run(&peer, &peer_args)?;
        let field = |key| c_peer::field::<u64>(&line, key).ok_or(format!("peer said {line:?}"));
        let peer_ns = field("ns")?;
        if (field("plies")?, field("white_wins")?) != (plies, white_wins) {
            return Err(format!(
                "the peer played other games: {line:?}, arbor plies {plies} white_wins {white_wins}"
            ));
        }
        arbor_best = arbor_best.min(arbor_ns);
        peer_best = peer_best.min(peer_ns);
        println!(
            "round {round}: arbor {:.3} µs, peer {:.3} µs a playout ({plies} plies, {white_wins} White wins)",
            micros(arbor_ns, games),
            micros(peer_ns, games)
        );
    }
    println!(
        "result games {games} arbor {:.3} µs peer {:.3} µs ratio {:.2}",
        micros(arbor_best, games),
        micros(peer_best, games),
        arbor_best as f64 / peer_best as f64
    );
    Ok(())
}

fn micros(ns: u64, games: u64) -> f64 {
    ns as f64 / games as f64 / 1000.0
}
