//! Issue 16's light-playout target against an in-run peer: arbor's `LightPlayouts` and a
//! plain-C program written for this bench from the same rules (`benches/c/go_light_peer.c`),
//! both from the empty 9x9 board at komi 7.5, one core.
//!
//! ```text
//! cargo bench --bench go_peer                       # 100,000 playouts a round, 5 rounds
//! cargo bench --bench go_peer -- PLAYOUTS ROUNDS
//! ```
//!
//! The peer is compiled at run time with `gcc -std=c99 -O2` (the warnings flags of the
//! project's other C; no `-march=native`, since arbor is built for the baseline x86-64 too)
//! into the target directory. Each round times arbor's playouts and then the peer's (the
//! peer times its own playout loop, so its process start is not counted), with a new seed;
//! the fastest round of each is kept, so load from other jobs on a shared machine slows
//! single rounds more than the ratio. Printed: playouts/s of both and their ratio, and each
//! one's mean stones placed and Black's win rate over all its rounds (the peer is a second,
//! independent statistics reference).
use std::path::{Path, PathBuf};
use std::process::{Command, exit};
use std::time::Instant;

use arbor::go::{Board, Color, LightPlayouts};
use arbor::search::game::seeded_rng;

const SOURCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/c/go_light_peer.c");
const CFLAGS: [&str; 6] = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-O2",
];

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

/// Compiles the peer beside this program (target/release/deps/).
fn build_peer() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|e| fail(&format!("no executable path: {e}")));
    let peer = exe.with_file_name("go_light_peer");
    let status = Command::new("gcc")
        .args(CFLAGS)
        .arg(SOURCE)
        .arg("-o")
        .arg(&peer)
        .status();
    match status {
        Ok(status) if status.success() => peer,
        Ok(status) => fail(&format!("gcc failed on {SOURCE} ({status})")),
        Err(e) => fail(&format!(
            "cannot run gcc ({e}); the C peer needs gcc (apt-get install gcc)"
        )),
    }
}

/// One run of the peer: playouts/s over its own loop, mean stones and Black's win rate (%).
fn run_peer(peer: &Path, playouts: u64, seed: u64) -> (f64, f64, f64) {
    let output = Command::new(peer)
        .args([playouts.to_string(), seed.to_string()])
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run {}: {e}", peer.display())));
    let text = String::from_utf8_lossy(&output.stdout);
    // "playouts N stones S black B seconds T"
    let words: Vec<&str> = text.split_whitespace().collect();
    let field = |name: &str| -> f64 {
        words
            .iter()
            .position(|&w| w == name)
            .and_then(|i| words.get(i + 1)?.parse().ok())
            .unwrap_or_else(|| fail(&format!("unexpected peer output: {text:?}")))
    };
    let seconds = field("seconds");
    (playouts as f64 / seconds, field("stones"), field("black"))
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
    let peer = build_peer();
    println!(
        "light playouts, empty 9x9, komi 7.5, one core: {rounds} rounds of {playouts}; peer: gcc {}",
        CFLAGS.join(" ")
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
