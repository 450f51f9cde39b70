//! `arbor solve breakthrough`: solve a Breakthrough position with proof-number search
//! (`pns`), PN² (`pn2`), parallel PN² (`ppn2`) or df-pn (`dfpn`), within a memory budget,
//! with a progress line; `--patterns on` adds the race patterns as static knowledge.
use std::fmt::Display;
use std::time::Instant;

use super::{Args, Failure};
use crate::breakthrough::{Position, Size, WithRacePatterns, race};
use crate::search::proof::dfpn::{BUCKET, Dfpn, DfpnConfig, Entry};
use crate::search::proof::pns::{Node, Pns, PnsConfig};
use crate::search::proof::{Outcome, SolveStats, SolverGame};

/// Expansions between progress lines.
const CHUNK: u64 = 1 << 20;

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
    if threads == 0 || threads > 256 || (threads != 1 && algo != "ppn2") {
        return Err(Failure::Usage(
            "--threads: 1..=256, and more than 1 only with --algo ppn2".into(),
        ));
    }
    let bytes = parse_bytes(&memory).ok_or_else(|| {
        Failure::Usage(format!("--memory: cannot read '{memory}' (like 512M, 4G)"))
    })?;
    let root = match position {
        Some(text) => text
            .parse::<Position>()
            .map_err(|error| Failure::Usage(format!("--position: {error}")))?,
        None => Position::start(size),
    };
    if !["pns", "pn2", "ppn2", "dfpn"].contains(&algo.as_str()) {
        return Err(Failure::Usage(format!("--algo: unknown '{algo}'")));
    }
    outln!("position {root}");
    outln!(
        "algo {algo}  memory {memory}  mobility {}  patterns {}",
        if mobility { "on" } else { "off" },
        if patterns { "on" } else { "off" }
    );
    let settings = Settings {
        algo,
        bytes,
        mobility,
        threads,
        budget,
        epsilon,
        job,
        partial,
    };
    if patterns {
        // The patterns are proved by the test suite; proving them here would take seconds.
        outln!(
            "race patterns: {} ({} with mirror images)",
            race::PATTERNS.len(),
            race::SHIPPED.len()
        );
    }
    let start = Instant::now();
    let (outcome, best, stats) = if patterns {
        solve_with(WithRacePatterns(root), &settings, &start)?
    } else {
        solve_with(root, &settings, &start)?
    };
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
        return Err(Failure::Job("not solved within budget".into()));
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

pub(super) fn progress(start: &Instant, stats: &SolveStats, pn: u32, dn: u32) {
    let seconds = start.elapsed().as_secs_f64();
    note!(
        "\r{seconds:8.1} s  expanded {:>12}  {:>9.0}/s  root pn {pn} dn {dn}   ",
        stats.expanded,
        stats.expanded as f64 / seconds.max(1e-9)
    );
}

type Solved<G> = (Outcome, Option<<G as SolverGame>::Move>, SolveStats);

/// The options that pick and size a solver.
struct Settings {
    algo: String,
    bytes: u64,
    mobility: bool,
    threads: u32,
    budget: u64,
    epsilon: f64,
    job: u64,
    partial: u64,
}

/// Runs the chosen solver on `root`, a plain position or one with race patterns.
fn solve_with<G>(root: G, s: &Settings, start: &Instant) -> Result<Solved<G>, Failure>
where
    G: SolverGame + Send + 'static,
    G::Move: Send + Display,
{
    let (bytes, mobility, budget) = (s.bytes, s.mobility, s.budget);
    Ok(match s.algo.as_str() {
        "pns" => solve_pns(root, bytes, mobility, budget, None, start)?,
        "pn2" => solve_pns(root, bytes, mobility, budget, Some(s.job), start)?,
        "dfpn" => solve_dfpn(root, bytes, mobility, s.epsilon, budget, start)?,
        _ => {
            let node_bytes = size_of::<Node<G::Move>>() as u64;
            // Each worker: room for its whole job; the server tree (about 64 bytes a node
            // with its position) gets the rest.
            let threads = u64::from(s.threads);
            let worker_nodes = (s.job.saturating_mul(crate::breakthrough::MAX_MOVES as u64) + 1)
                .min(bytes / node_bytes / (2 * threads));
            let server = (bytes - worker_nodes * node_bytes * threads) / 64;
            super::ppn2::solve(
                root,
                s.threads as usize,
                s.job,
                s.partial,
                server as usize,
                worker_nodes as usize,
                mobility,
                start,
            )
        }
    })
}

fn solve_pns<G: SolverGame>(
    root: G,
    bytes: u64,
    mobility: bool,
    budget: u64,
    job: Option<u64>,
    start: &Instant,
) -> Result<Solved<G>, Failure> {
    let node_bytes = size_of::<Node<G::Move>>() as u64;
    // PN²: the second level gets room for its whole job (an expansion adds at most
    // MAX_MOVES nodes), taken out of the memory budget.
    let second_nodes = job.map_or(0, |job| {
        (job.saturating_mul(crate::breakthrough::MAX_MOVES as u64) + 1).min(bytes / node_bytes / 2)
    });
    let mut second = vec![Node::blank(G::NULL_MOVE); second_nodes as usize];
    let capacity =
        ((bytes / node_bytes).saturating_sub(second_nodes)).min(u32::MAX as u64 - 1) as usize;
    let mut nodes = vec![Node::blank(G::NULL_MOVE); capacity];
    let mut pns = Pns::new(&mut nodes, root, PnsConfig { mobility })
        .map_err(|_| Failure::Usage("--memory is too small for one node".into()))?;
    let mut outcome = Outcome::Unknown;
    while pns.stats().expanded < budget {
        let step = CHUNK.min(budget - pns.stats().expanded);
        outcome = match job {
            None => pns.run(step),
            Some(job) => pns.run_pn2(step.min(1 << 12), &mut second, |_| job),
        };
        let (pn, dn) = pns.root_numbers();
        progress(start, &pns.stats(), pn, dn);
        if outcome != Outcome::Unknown || pns.stats().out_of_storage {
            break;
        }
    }
    Ok((outcome, pns.winning_move(), pns.stats()))
}

fn solve_dfpn<G: SolverGame>(
    root: G,
    bytes: u64,
    mobility: bool,
    epsilon: f64,
    budget: u64,
    start: &Instant,
) -> Result<Solved<G>, Failure> {
    // BUCKET - 1 entries of slack, so that the buckets can start on a cache line whatever
    // the allocator's alignment (see the table's notes).
    let entries = (bytes / size_of::<Entry>() as u64) as usize + BUCKET - 1;
    let mut table = vec![Entry::default(); entries];
    let config = DfpnConfig {
        mobility,
        max_expansions: CHUNK.min(budget),
        epsilon_1024: (epsilon.clamp(0.0, 1000.0) * 1024.0) as u32,
    };
    let mut dfpn = Dfpn::new(&mut table, config)
        .map_err(|_| Failure::Usage("--memory is too small for one table bucket".into()))?;
    let mut outcome;
    loop {
        outcome = dfpn.solve(&root);
        let (pn, dn) = dfpn.table_numbers(&root).unwrap_or((1, 1));
        progress(start, &dfpn.stats(), pn, dn);
        let spent = dfpn.stats().expanded;
        if outcome != Outcome::Unknown || spent >= budget {
            break;
        }
        dfpn.set_max_expansions(spent.saturating_add(CHUNK).min(budget));
    }
    let best = if outcome == Outcome::Win {
        dfpn.set_max_expansions(u64::MAX);
        dfpn.winning_move(&root)
    } else {
        None
    };
    Ok((outcome, best, dfpn.stats()))
}
