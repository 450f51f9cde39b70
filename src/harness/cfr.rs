//! `arbor cfr --game kuhn|leduc --algo cfr+|dcfr|mccfr-es|mccfr-os --iterations N --seed S
//! [--report-every K]`: solve a toy poker game with the library's CFR
//! ([`crate::search::cfr`]) and print the exploitability of the average strategy as it
//! falls. This file reads options, sizes the caller storage and prints.
use std::time::{Duration, Instant};

use super::args::{Command, Kind, Opt};
use super::{Args, Failure};
use crate::search::Hidden;
use crate::search::cfr::{Algorithm, BestResponse, Cfr, Kuhn, Leduc, exploitability};
use crate::search::game::seeded_rng;

pub const COMMAND: Command = Command {
    name: "cfr",
    operands: "",
    about: "solve Kuhn poker or Leduc Hold'em with CFR; one line per report: iterations, \
            exploitability in milli-chips per hand, player 0's value in chips, solving time",
    options: &[
        Opt::new("game", "GAME", Kind::Choice(&["kuhn", "leduc"]), "the game").or("kuhn"),
        Opt::new(
            "algo",
            "ALGO",
            Kind::Choice(&Algorithm::NAMES),
            "CFR+, discounted CFR, or Monte-Carlo CFR with external or outcome sampling",
        )
        .or("cfr+"),
        Opt::new(
            "iterations",
            "N",
            Kind::Int {
                min: 1,
                max: 100_000_000,
            },
            "iterations (each updates both players)",
        )
        .or("1000"),
        Opt::new(
            "seed",
            "S",
            Kind::Int {
                min: 0,
                max: u64::MAX,
            },
            "seed of the sampling (mccfr-es)",
        )
        .or("1"),
        Opt::new(
            "report-every",
            "K",
            Kind::Int {
                min: 0,
                max: u64::MAX,
            },
            "report every K iterations; 0: at 1, 10, 100, ... and the end",
        )
        .or("0"),
    ],
};

/// What the run needs to know of a game.
struct Spec {
    infosets: usize,
    actions: usize,
    chips_per_unit: f64,
}

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let game: String = args.need("game")?;
    let algo: String = args.need("algo")?;
    let algorithm = Algorithm::from_name(&algo)
        .ok_or_else(|| Failure::Usage(format!("--algo '{algo}': unknown")))?;
    let iterations: u64 = args.need("iterations")?;
    let seed: u64 = args.need("seed")?;
    let every: u64 = args.need("report-every")?;
    let options = Options {
        algorithm,
        iterations,
        seed,
        every,
    };
    match game.as_str() {
        "kuhn" => solve(
            &Kuhn::new(),
            Spec {
                infosets: Kuhn::INFOSETS,
                actions: Kuhn::ACTIONS,
                chips_per_unit: Kuhn::CHIPS_PER_UNIT,
            },
            &options,
        ),
        _ => solve(
            &Leduc::new(),
            Spec {
                infosets: Leduc::INFOSETS,
                actions: Leduc::ACTIONS,
                chips_per_unit: Leduc::CHIPS_PER_UNIT,
            },
            &options,
        ),
    }
}

struct Options {
    algorithm: Algorithm,
    iterations: u64,
    seed: u64,
    every: u64,
}

/// The iteration counts to report at: multiples of `every`, or powers of ten; always the last.
fn reports(iterations: u64, every: u64) -> Vec<u64> {
    let mut at: Vec<u64> = if let Some(count) = iterations.checked_div(every) {
        (1..=count).map(|k| k * every).collect()
    } else {
        std::iter::successors(Some(1u64), |n| n.checked_mul(10))
            .take_while(|&n| n < iterations)
            .collect()
    };
    if at.last() != Some(&iterations) {
        at.push(iterations);
    }
    at
}

fn solve<G: Hidden>(root: &G, spec: Spec, options: &Options) -> Result<(), Failure> {
    let job = |e: crate::search::cfr::CfrError| Failure::Job(e.to_string());
    let values = Cfr::values_len(spec.infosets, spec.actions)
        .ok_or_else(|| Failure::Job("table size overflows".into()))?;
    let (mut keys, mut table) = (vec![0u64; spec.infosets], vec![0.0; values]);
    let mut cfr = Cfr::new(&mut keys, &mut table, spec.actions, options.algorithm).map_err(job)?;
    let br_values = BestResponse::values_len(spec.infosets, spec.actions)
        .ok_or_else(|| Failure::Job("table size overflows".into()))?;
    let (mut br_keys, mut br_table) = (vec![0u64; spec.infosets], vec![0.0; br_values]);
    let mut br = BestResponse::new(&mut br_keys, &mut br_table, spec.actions).map_err(job)?;
    let mut rng = seeded_rng(options.seed);
    let mut solving = Duration::ZERO;
    outln!("# exploitability: (best response as player 0 + as player 1) / 2, milli-chips per hand");
    for at in reports(options.iterations, options.every) {
        let start = Instant::now();
        cfr.iterate(root, at - cfr.iterations(), &mut rng)
            .map_err(job)?;
        solving += start.elapsed();
        let found = exploitability(root, &cfr, &mut br).map_err(job)?;
        outln!(
            "iterations {at} exploitability {:.4} mchips/hand value {:.6} chips infosets {} time {:.3} s",
            found.exploitability * spec.chips_per_unit * 1000.0,
            found.value * spec.chips_per_unit,
            cfr.infosets(),
            solving.as_secs_f64()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::reports;

    #[test]
    fn reports_come_at_decades_or_every_k_and_at_the_end() {
        assert_eq!(reports(1000, 0), vec![1, 10, 100, 1000]);
        assert_eq!(reports(250, 0), vec![1, 10, 100, 250]);
        assert_eq!(reports(250, 100), vec![100, 200, 250]);
        assert_eq!(reports(1, 0), vec![1]);
    }
}
