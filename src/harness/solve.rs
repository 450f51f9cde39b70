//! `arbor solve breakthrough`: solve a Breakthrough position with proof-number search
//! (`pns`), PN² (`pn2`), parallel PN² (`ppn2`), df-pn (`dfpn`) or parallel df-pn
//! (`pdfpn`), within a memory budget, with a progress line; `--patterns on` adds the race
//! patterns as static knowledge. The solving and its sizing are the library's
//! ([`crate::search::proof::run`]); this file reads options and prints.
use std::time::Instant;

use super::{Args, Failure};
use crate::breakthrough::{Position, Size, race};
use crate::search::proof::run::{Algorithm, SolveError, SolveOptions};
use crate::search::proof::{Outcome, Progress};

pub fn run(mut args: Args) -> Result<(), Failure> {
    match args.next_positional().as_deref() {
        Some("breakthrough") => {}
        Some(other) => return Err(Failure::Usage(format!("cannot solve '{other}'"))),
        None => return Err(Failure::Usage("solve what? (breakthrough)".into())),
    }
    let size: Size = args
        .option("size")?
        .unwrap_or(Size::new_checked(5, 5).unwrap_or_default());
    let position: Option<String> = args.option("position")?;
    let algo: String = args.option("algo")?.unwrap_or_else(|| "dfpn".into());
    let memory: String = args.option("memory")?.unwrap_or_else(|| "1G".into());
    let mobility = on_off(args.option("mobility")?, true, "mobility")?;
    let patterns = on_off(args.option("patterns")?, false, "patterns")?;
    let threads: u32 = args.option("threads")?.unwrap_or(1);
    let budget: u64 = args.option("budget")?.unwrap_or(u64::MAX);
    let epsilon: f64 = args.option("epsilon")?.unwrap_or(1.0);
    let job: u64 = args.option("job")?.unwrap_or(1000);
    let partial: u64 = args.option("partial")?.unwrap_or(100);
    args.finish()?;
    let bytes = parse_bytes(&memory).ok_or_else(|| {
        Failure::Usage(format!("--memory: cannot read '{memory}' (like 512M, 4G)"))
    })?;
    if threads == 0
        || threads > 256
        || (threads != 1 && !["ppn2", "pdfpn"].contains(&algo.as_str()))
    {
        return Err(Failure::Usage(
            "--threads: 1..=256, and more than 1 only with --algo ppn2 or pdfpn".into(),
        ));
    }
    if !(0.0..=1000.0).contains(&epsilon) {
        return Err(Failure::Usage("--epsilon: 0..=1000".into()));
    }
    let epsilon_1024 = (epsilon * 1024.0) as u32;
    let threads = threads as usize;
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
            SolveError::TooLittleMemory { .. } | SolveError::BadOption(_) => {
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
            format!("storage exhausted: --memory {memory} is too small to solve this")
        } else {
            "not solved within budget".into()
        }));
    }
    Ok(())
}

fn on_off(value: Option<String>, default: bool, name: &str) -> Result<bool, Failure> {
    match value.as_deref() {
        None => Ok(default),
        Some("on") => Ok(true),
        Some("off") => Ok(false),
        Some(other) => Err(Failure::Usage(format!(
            "--{name}: '{other}' is not on or off"
        ))),
    }
}

/// `4G`, `512M`, `64K` or plain bytes.
fn parse_bytes(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale: u64 = match unit {
        "" | "B" => 1,
        "K" | "k" | "KB" => 1 << 10,
        "M" | "m" | "MB" => 1 << 20,
        "G" | "g" | "GB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
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
