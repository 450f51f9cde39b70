//! `arbor solve breakthrough`: solve a Breakthrough position with proof-number search
//! (`pns`), PN² (`pn2`), parallel PN² (`ppn2`), df-pn (`dfpn`) or parallel df-pn
//! (`pdfpn`), within a memory budget, with a progress line; `--patterns on` adds the race
//! patterns as static knowledge. The solving and its sizing are the library's
//! ([`crate::search::proof::run`]); this file reads options and prints. `--distributed`
//! runs parallel PN² on MPI ranks (`mpirun -np K`, the `mpi` feature): rank 0 is the server,
//! the others its clients ([`super::cluster::ppn2`]).
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
        .or("0.375"),
        Opt::new(
            "distributed",
            "",
            Kind::Switch,
            "ppn2 on MPI ranks: mpirun -np K, rank 0 the server, K-1 clients (mpi feature)",
        ),
        Opt::new(
            "job-times",
            "FILE",
            Kind::Path,
            "with --distributed: write each job's time on its client (µs) as CSV",
        ),
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
    let distributed = args.has("distributed");
    let job_times: Option<std::path::PathBuf> = args.get("job-times")?;
    if distributed {
        check_distributed(&algo, threads)?;
    } else if super::cluster::size() > 1 {
        // Every rank would solve the same position alone.
        return Err(Failure::Usage(
            "under mpirun, solve spreads only --algo ppn2 over the ranks: add --distributed".into(),
        ));
    } else if job_times.is_some() {
        return Err(Failure::Usage(
            "--job-times: only with --distributed".into(),
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
    let solve_error = |error: SolveError| match error {
        SolveError::TooLittleMemory { needed_bytes } => Failure::Usage(format!(
            "--algo {algo} --memory {memory}: {error} (--memory {})",
            bytes_text(needed_bytes.next_multiple_of(1 << 10))
        )),
        SolveError::BadOption(_) => {
            Failure::Usage(format!("--algo {algo} --memory {memory}: {error}"))
        }
        SolveError::Allocation | SolveError::Threads => Failure::Job(error.to_string()),
    };
    #[cfg(feature = "mpi")]
    if distributed {
        let run = distributed::Run {
            job,
            partial,
            options,
            job_times,
        };
        let solved = if patterns {
            run.solve(crate::breakthrough::WithRacePatterns(root), &start)
        } else {
            run.solve(root, &start)
        };
        let Some((solution, summary)) = solved.map_err(|e| match e {
            distributed::Error::Solve(error) => solve_error(error),
            distributed::Error::Job(message) => Failure::Job(message),
        })?
        else {
            // A client: the server speaks for the run.
            return Ok(());
        };
        return report(solution, &summary, &start, &memory);
    }
    let _ = job_times;
    let solution = root
        .solve_with_budget(patterns, algorithm, options, &mut |p| progress(&start, p))
        .map_err(solve_error)?;
    report(solution, "", &start, &memory)
}

/// `--distributed` with `--algo` and `--threads`: ppn2 alone, on ranks rather than threads,
/// in a build with the mpi feature, started by mpirun with a client at least.
fn check_distributed(algo: &str, threads: usize) -> Result<(), Failure> {
    if algo != "ppn2" {
        return Err(Failure::Usage(format!(
            "--distributed: only with --algo ppn2 (not {algo})"
        )));
    }
    if threads != 1 {
        return Err(Failure::Usage(
            "--distributed: the clients are the MPI ranks; leave out --threads".into(),
        ));
    }
    if !cfg!(feature = "mpi") {
        return Err(Failure::Usage(
            "--distributed: this arbor was built without the mpi feature: cargo build \
             --release --features mpi"
                .into(),
        ));
    }
    if super::cluster::size() < 2 {
        return Err(Failure::Usage(
            "--distributed needs a server and at least one client: start it with mpirun -np K \
             (K ≥ 2)"
                .into(),
        ));
    }
    Ok(())
}

/// Prints a solve's answer, `extra` lines (the distributed run's jobs) before the closing
/// `result` line; an unsolved root is a failed job.
fn report(
    solution: crate::search::proof::run::Solution<crate::breakthrough::Move>,
    extra: &str,
    start: &Instant,
    memory: &str,
) -> Result<(), Failure> {
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
        let settling = solution.settling;
        let (settled, expanded) = (settling.settled, settling.stats.expanded);
        if settling.first {
            outln!(
                "the first winning move in move order (settled {settled} earlier moves after \
                 the proof: expanded {expanded}, touched {})",
                settling.stats.touched
            );
        } else {
            outln!(
                "not known to be the first winning move in move order: settling {settled} \
                 earlier moves ran out of memory after {expanded} expansions"
            );
        }
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
    out!("{extra}");
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

/// The distributed run (`--distributed`): parallel PN² on the MPI ranks.
#[cfg(feature = "mpi")]
mod distributed {
    use std::fmt::Write as _;
    use std::path::PathBuf;
    use std::time::Instant;

    use crate::breakthrough::Move;
    use crate::harness::cluster::{self, ppn2};
    use crate::search::proof::Solvable;
    use crate::search::proof::run::{Solution, SolveError, SolveOptions, ppn2_config_per_process};

    /// The options of a distributed solve.
    pub struct Run {
        pub job: u64,
        pub partial: u64,
        pub options: SolveOptions,
        pub job_times: Option<PathBuf>,
    }

    pub enum Error {
        Solve(SolveError),
        Job(String),
    }

    impl Run {
        /// Solves `root` on every rank; the root rank gets the solution and the lines
        /// about the jobs, the clients `None`.
        pub fn solve<G>(
            &self,
            root: G,
            start: &Instant,
        ) -> Result<Option<(Solution<Move>, String)>, Error>
        where
            G: Solvable<Move = Move> + ppn2::JobPosition,
        {
            let clients = cluster::size() - 1;
            let config =
                ppn2_config_per_process::<G>(clients, self.job, self.partial, &self.options)
                    .map_err(Error::Solve)?;
            outln!("clients {clients} (ranks 1 to {clients}; rank 0 serves; --memory per rank)");
            let role = ppn2::solve(root, &config, &mut |p| super::progress(start, p))
                .map_err(Error::Job)?;
            let ppn2::Role::Server(served, timings) = role else {
                return Ok(None);
            };
            if let Some(path) = &self.job_times {
                write_times(path, &timings)?;
            }
            let solution = Solution {
                outcome: served.outcome,
                winning_move: served.winning_move,
                stats: served.stats,
                settling: served.settling,
            };
            let summary = served.summary;
            let mut lines = format!(
                "clients {clients}  jobs {}  partial results {}  final results {}\n",
                summary.jobs, summary.partial_results, summary.final_results
            );
            let mut jobs = timings.job_micros.clone();
            jobs.sort_unstable();
            if let Some(&longest) = jobs.last() {
                let at = |q: usize| jobs[(jobs.len() - 1) * q / 100] as f64 / 1e3;
                let mean = jobs.iter().sum::<u64>() as f64 / jobs.len() as f64 / 1e3;
                let _ = writeln!(
                    lines,
                    "job time on a client: mean {mean:.3} ms  median {:.3} ms  p90 {:.3} ms  \
                     max {:.3} ms",
                    at(50),
                    at(90),
                    longest as f64 / 1e3
                );
            }
            let mean = |times: &[u64]| times.iter().sum::<u64>() as f64 / times.len().max(1) as f64;
            let handled: u64 = timings
                .partial_micros
                .iter()
                .chain(&timings.final_micros)
                .sum();
            let _ = writeln!(
                lines,
                "server time per result: partial {:.1} µs  final {:.1} µs  busy {:.1}% of its \
                 {:.3} s",
                mean(&timings.partial_micros),
                mean(&timings.final_micros),
                100.0 * handled as f64 / timings.total_micros.max(1) as f64,
                timings.total_micros as f64 / 1e6
            );
            Ok(Some((solution, lines)))
        }
    }

    /// `kind,micros` lines: `job` for each job's time on its client, `turnaround` for its
    /// time from the server's send to its result's arrival (same order), `partial` and
    /// `final` for the server's time on each result of that kind.
    fn write_times(path: &PathBuf, timings: &ppn2::Timings) -> Result<(), Error> {
        let mut text = String::from("kind,micros\n");
        for (kind, times) in [
            ("job", &timings.job_micros),
            ("turnaround", &timings.turnaround_micros),
            ("partial", &timings.partial_micros),
            ("final", &timings.final_micros),
        ] {
            for micros in times {
                let _ = writeln!(text, "{kind},{micros}");
            }
        }
        std::fs::write(path, text)
            .map_err(|e| Error::Job(format!("--job-times {}: {e}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(algo: &str, threads: usize) -> String {
        match check_distributed(algo, threads) {
            Err(Failure::Usage(message)) => message,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn distributed_is_ppn2_on_ranks_only() {
        assert!(refusal("dfpn", 1).contains("only with --algo ppn2"));
        assert!(refusal("ppn2", 2).contains("leave out --threads"));
        // A unit test runs as one process: no client, or no MPI at all.
        let alone = refusal("ppn2", 1);
        if cfg!(feature = "mpi") {
            assert!(
                alone.contains("start it with mpirun -np K (K ≥ 2)"),
                "{alone}"
            );
        } else {
            assert!(
                alone.contains(
                    "this arbor was built without the mpi feature: cargo build --release \
                     --features mpi"
                ),
                "{alone}"
            );
        }
    }
}
