//! Issue 16's light-playout target against an in-run peer: arbor's `LightPlayouts` and a
//! plain-C program written for this bench from the same rules (`benches/c/go_light_peer.c`),
//! both from the empty 9x9 board at komi 7.5, one core.
//!
//! ```text
//! cargo bench --bench go_peer                       # 100,000 playouts a round, 5 rounds
//! cargo bench --bench go_peer -- PLAYOUTS ROUNDS
//! ```
//!
//! The peer is compiled at run time with gcc and `c_peer::CFLAGS` into the target
//! directory. Each round times arbor's playouts and then the peer's (the
//! peer times its own playout loop, so its process start is not counted), with a new seed;
//! the fastest round of each is kept, so load from other jobs on a shared machine slows
//! single rounds more than the ratio. Printed: playouts/s of both and their ratio, and each
//! one's mean stones placed and Black's win rate over all its rounds (the peer is a second,
//! independent statistics reference).
#[path = "common/c_peer.rs"]
mod c_peer;

use std::path::Path;
use std::process::exit;
use std::time::Instant;

use arbor::go::{Board, Color, LightPlayouts};
use arbor::search::game::seeded_rng;

/// Playouts, stones placed and Black's wins, summed over rounds.
#[derive(Default)]
struct Tally {
    playouts: u64,
    stones: f64,
    black_wins: f64,
}

impl Tally {
    fn add(&mut self, playouts: u64, mean_stones: f64, black_percent: f64) {
        let n = playouts as f64;
        self.playouts += playouts;
        self.stones += mean_stones * n;
        self.black_wins += black_percent / 100.0 * n;
    }

    fn line(&self, name: &str, best: f64) -> String {
        let n = self.playouts as f64;
        let black = self.black_wins / n;
        format!(
            "{name:6} {best:9.0} playouts/s   stones {:.3}   black {:.2}% (s.e. {:.2}) over {} playouts",
            self.stones / n,
            100.0 * black,
            100.0 * (black * (1.0 - black) / n).sqrt(),
            self.playouts
        )
    }
}

fn fail(message: &str) -> ! {
    eprintln!("go_peer: {message}");
    exit(1)
}

/// One run of the peer: playouts/s over its own loop, mean stones and Black's win rate (%).
fn run_peer(peer: &Path, playouts: u64, seed: u64) -> (f64, f64, f64) {
    // "playouts N stones S black B seconds T"
    let text =
        c_peer::run(peer, &[playouts.to_string(), seed.to_string()]).unwrap_or_else(|e| fail(&e));
    let field = |name: &str| -> f64 {
        c_peer::field(&text, name)
            .unwrap_or_else(|| fail(&format!("unexpected peer output: {text:?}")))
    };
    (
        playouts as f64 / field("seconds"),
        field("stones"),
        field("black"),
    )
}

/// One round of arbor's light playouts: playouts/s, mean stones and Black's win rate (%).
fn run_arbor(playouts: u64, seed: u64) -> (f64, f64, f64) {
    let mut runs = LightPlayouts::new(&Board::new(9).expect("9 is a board size"));
    let mut rng = seeded_rng(seed);
    let (mut stones, mut black) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..playouts {
        let playout = runs.run(&mut rng);
        stones += u64::from(playout.stones_placed);
        black += u64::from(playout.winner == Color::Black);
    }
    let seconds = start.elapsed().as_secs_f64();
    let n = playouts as f64;
    (n / seconds, stones as f64 / n, 100.0 * black as f64 / n)
}

fn main() {
    // `cargo bench` passes `--bench` to every benchmark binary.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let number = |i: usize, default: u64| match args.get(i).map(|a| a.parse::<u64>()) {
        None => default,
        Some(Ok(n)) if n > 0 => n,
        _ => fail("usage: go_peer [PLAYOUTS [ROUNDS]] (both positive)"),
    };
    let (playouts, rounds) = (number(0, 100_000), number(1, 5));
    let peer = c_peer::compile("go_light_peer", &[]).unwrap_or_else(|e| fail(&e));
    println!(
        "light playouts, empty 9x9, komi 7.5, one core: {rounds} rounds of {playouts}; peer: gcc {}",
        c_peer::CFLAGS.join(" ")
    );
    let (mut ours, mut theirs) = (Tally::default(), Tally::default());
    let (mut best_ours, mut best_theirs) = (0f64, 0f64);
    for round in 1..=rounds {
        let (speed, stones, black) = run_arbor(playouts, round);
        ours.add(playouts, stones, black);
        best_ours = best_ours.max(speed);
        let (peer_speed, stones, black) = run_peer(&peer, playouts, round);
        theirs.add(playouts, stones, black);
        best_theirs = best_theirs.max(peer_speed);
        println!("round {round}: arbor {speed:.0}/s, peer {peer_speed:.0}/s");
    }
    println!("{}", ours.line("arbor", best_ours));
    println!("{}", theirs.line("peer", best_theirs));
    println!(
        "arbor / peer: {:.3} (issue 16's target: 120/122 = 0.984)",
        best_ours / best_theirs
    );
}
