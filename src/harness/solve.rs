//! `arbor solve breakthrough`: solve a Breakthrough position with proof-number search
//! (`pns`), PN² (`pn2`), parallel PN² (`ppn2`), df-pn (`dfpn`) or parallel df-pn
//! (`pdfpn`), within a memory budget, with a progress line; `--patterns on` adds the race
//! patterns as static knowledge. The solving and its sizing are the library's
//! ([`crate::search::proof::run`]); this file reads options and prints.
use std::time::Instant;

use super::args::{Command, Kind, Opt, bytes_text};
use super::resources::check_memory;
use super::{Args, Failure};
use crate::breakthrough::{Position, Size, race};
use crate::search::proof::run::{Algorithm, SolveError, SolveOptions};
use crate::search::proof::{Outcome, Progress};

const ON_OFF: Kind = Kind::Choice(&["on", "off"]);

pub const COMMAND: Command = Command {
    name: "solve breakthrough",
    operands: "",
    about: "prove who wins; ends with `result <first|second> time <s> expanded <n>`",
    options: &[
        Opt::new("size", "CxR", Kind::Text, "board size, columns x rows").or("5x5"),
        Opt::new(
            "position",
            "TEXT",
            Kind::Text,
            "solve this position (default: the start)",
        ),
        Opt::new(
            "algo",
            "ALGO",
            Kind::Choice(&["pns", "pn2", "ppn2", "dfpn", "pdfpn"]),
            "the algorithm",
        )
        .or("dfpn"),
        Opt::new(
            "job",
            "N",
            Kind::Int {
                min: 1,
                max: 1 << 32,
            },
            "expansions of each second-level search (pn2, ppn2)",
        )
        .or("1000"),
        Opt::new(
            "threads",
            "N",
            Kind::Int { min: 1, max: 256 },
            "threads; more than 1 only with ppn2 or pdfpn",
        )
        .or("1"),
        Opt::new(
            "partial",
            "N",
            Kind::Int {
                min: 0,
                max: u64::MAX,
            },
            "expansions between a ppn2 worker's partial results, 0 for none",
        )
        .or("100"),
        Opt::new(
            "memory",
            "BYTES",
            Kind::Bytes {
                min: 1,
                max: 1 << 50,
            },
            "memory for the trees or table, like 512M or 4G",
        )
        .or("1G"),
        Opt::new(
            "mobility",
            "on|off",
            ON_OFF,
            "initial disproof numbers from mobility",
        )
        .or("on"),
        Opt::new(
            "patterns",
            "on|off",
            ON_OFF,
            "race patterns as static knowledge",
        )
        .or("off"),
        Opt::new(
            "budget",
            "EXPANSIONS",
            Kind::Int {
                min: 1,
                max: u64::MAX,
            },
            "stop unsolved after this many expansions; no limit without it",
        ),
        Opt::new(
            "epsilon",
            "X",
            Kind::Real {
                min: 0.0,
                max: 1000.0,
            },
            "df-pn's 1+epsilon threshold (dfpn, pdfpn)",
        )
        .or("1"),
    ],
};

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let size: String = args.need("size")?;
    let size: Size = size
        .parse()
        .map_err(|e| Failure::Usage(format!("--size '{size}': {e}")))?;
    let position: Option<String> = args.get("position")?;
    let algo: String = args.need("algo")?;
    let bytes: u64 = args.need("memory")?;
    let memory = bytes_text(bytes);
    let mobility = args.need::<String>("mobility")? == "on";
    let patterns = args.need::<String>("patterns")? == "on";
    let threads: usize = args.need("threads")?;
    let budget: u64 = args.get("budget")?.unwrap_or(u64::MAX);
    let epsilon: f64 = args.need("epsilon")?;
    let job: u64 = args.need("job")?;
    let partial: u64 = args.need("partial")?;
    if threads != 1 && !["ppn2", "pdfpn"].contains(&algo.as_str()) {
        return Err(Failure::Usage(
            "--threads: more than 1 only with --algo ppn2 or pdfpn".into(),
        ));
    }
    check_memory(Some(bytes), &format!("--memory {memory}"))?;
    let epsilon_1024 = (epsilon * 1024.0) as u32;
    let algorithm = match algo.as_str() {
        "pns" => Algorithm::Pns,
        "pn2" => Algorithm::Pn2 { job },
        "ppn2" => Algorithm::Ppn2 {
            threads,
            job,
            partial,
        },
        "dfpn" => Algorithm::Dfpn { epsilon_1024 },
        "pdfpn" => Algorithm::ParallelDfpn {
            threads,
            epsilon_1024,
        },
        _ => return Err(Failure::Usage(format!("--algo: unknown '{algo}'"))),
    };
    let root = match position {
        Some(text) => text
            .parse::<Position>()
            .map_err(|error| Failure::Usage(format!("--position: {error}")))?,
        None => Position::start(size),
    };
    outln!("position {root}");
    outln!(
        "algo {algo}  threads {threads}  memory {memory}  mobility {}  patterns {}",
        if mobility { "on" } else { "off" },
        if patterns { "on" } else { "off" }
    );
    if patterns {
        // The patterns are proved by the test suite; proving them here would take seconds.
        outln!(
            "race patterns: {} ({} with mirror images)",
            race::PATTERNS.len(),
            race::SHIPPED.len()
        );
    }
    let options = SolveOptions {
        memory_bytes: bytes,
        mobility,
        max_expansions: budget,
    };
    let start = Instant::now();
    let solution = root
        .solve_with_budget(patterns, algorithm, options, &mut |p| progress(&start, p))
        .map_err(|error| match error {
            SolveError::TooLittleMemory { needed_bytes } => Failure::Usage(format!(
                "--algo {algo} --memory {memory}: {error} (--memory {})",
                bytes_text(needed_bytes.next_multiple_of(1 << 10))
            )),
            SolveError::BadOption(_) => {
                Failure::Usage(format!("--algo {algo} --memory {memory}: {error}"))
            }
            SolveError::Allocation | SolveError::Threads => Failure::Job(error.to_string()),
        })?;
    let (outcome, best, stats) = (solution.outcome, solution.winning_move, solution.stats);
    let seconds = start.elapsed().as_secs_f64();
    noteln!();
    let word = match outcome {
        Outcome::Win => "first",
        Outcome::Loss => "second",
        Outcome::Unknown => "unknown",
    };
    match outcome {
        Outcome::Win => outln!("outcome first-player win (the side to move wins)"),
        Outcome::Loss => outln!("outcome second-player win (the side to move loses)"),
        Outcome::Unknown if stats.out_of_storage => outln!("outcome unknown: out of memory"),
        Outcome::Unknown => outln!("outcome unknown within budget"),
    }
    if let Some(mv) = best {
        outln!("winning move {mv}");
    }
    outln!("time {seconds:.3} s");
    outln!("expanded {}", stats.expanded);
    outln!("touched {}", stats.touched);
    outln!(
        "peak storage {} ({} collections)",
        stats.peak_used,
        stats.collections
    );
    outln!(
        "nodes/s {:.0} expanded, {:.0} touched",
        stats.expanded as f64 / seconds.max(1e-9),
        stats.touched as f64 / seconds.max(1e-9)
    );
    outln!(
        "result {word} time {seconds:.3} expanded {}",
        stats.expanded
    );
    if outcome == Outcome::Unknown {
        return Err(Failure::Job(if stats.out_of_storage {
            format!(
                "out of memory: storage exhausted before a proof; --memory {memory} is too small \
                 to solve this"
            )
        } else {
            "not solved within budget".into()
        }));
    }
    Ok(())
}

fn progress(start: &Instant, p: &Progress) {
    let seconds = start.elapsed().as_secs_f64();
    note!(
        "\r{seconds:8.1} s  expanded {:>12}  {:>9.0}/s  root pn {} dn {}   ",
        p.stats.expanded,
        p.stats.expanded as f64 / seconds.max(1e-9),
        p.pn,
        p.dn
    );
}
