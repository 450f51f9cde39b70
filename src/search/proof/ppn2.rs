//! Parallel PN² (Algorithms 1 and 2 of the Breakthrough paper): a server keeps the main
//! proof-number tree (a [`Pns`], so it shares PNS's update rules, collection and storage
//! accounting); each worker runs a PN search on the position of a job for at most `job`
//! expansions, sends the root's numbers every `partial` expansions (a partial result) and,
//! at the end, the numbers of the root's children (the final result), which the server uses
//! to expand the leaf.
//!
//! Leaves given to workers are *reserved*, never assumed lost; the next job is the first
//! most-proving leaf that is not reserved, found by backtracking over the children that
//! tie on the smallest disproof number. When every most-proving leaf is reserved the
//! server waits for the next result. With one worker the run is deterministic (one job at
//! a time, results in order); with more, the outcome is the same but the counts depend on
//! the workers' timing. The winning move of a won root does not: once the root is proved,
//! the server goes on handing out jobs below each child that comes before the first
//! winning one and is still open, in move order ([`Pns::settle`]), so the move reported
//! is the first winning move in move order whatever the workers did.
//!
//! The server ([`serve_on`], Algorithm 1) and a worker ([`work_on`], Algorithm 2) talk
//! through two small traits, [`ServerTransport`] and [`WorkerTransport`], so that the same
//! loops run on threads and channels ([`solve`], here) or on processes that exchange
//! messages (the harness's MPI transport).
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::pns::{Node, Pns, PnsConfig};
use super::{Outcome, Progress, Settling, Solvable, SolveStats};

/// "No leaf": a worker without a job.
const NONE: u32 = u32::MAX;

/// How long the server waits for a result before it reports progress anyway.
const PROGRESS_PERIOD: Duration = Duration::from_secs(1);

/// The sizes and options of a parallel PN² run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ppn2Config {
    /// Workers (at least one; the server runs on the calling thread).
    pub threads: usize,
    /// Expansions of a worker's search per job.
    pub job: u64,
    /// Expansions between partial results; 0 sends none.
    pub partial: u64,
    /// Nodes of the server's tree.
    pub server_nodes: usize,
    /// Nodes of each worker's tree (room for the whole job avoids collections).
    pub worker_nodes: usize,
    /// Initial disproof numbers from the number of legal moves.
    pub mobility: bool,
    /// Stop with `Unknown` after this many server expansions.
    pub max_expansions: u64,
}

/// A job: the position of a reserved leaf and the expansions the worker may spend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job<G> {
    /// The leaf's position.
    pub position: G,
    /// Expansions of the worker's search.
    pub budget: u64,
}

/// A worker's result: partial (root numbers only) or final (the root children's numbers
/// in move order, empty if the worker did not expand its root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The proof number of the job's root.
    pub pn: u32,
    /// The disproof number of the job's root.
    pub dn: u32,
    /// `None` for a partial result; the children's `(pn, dn)` for the final one.
    pub children: Option<Vec<(u32, u32)>>,
    /// Nodes the worker touched for the job (final results only).
    pub touched: u64,
}

/// What the server hears when it waits for a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    /// Worker `worker` sent `report`.
    Report {
        /// The worker's number, `0..workers()`.
        worker: usize,
        /// Its result.
        report: Report,
    },
    /// Nothing came within the timeout.
    Timeout,
    /// The workers are gone: no result will come.
    Closed,
}

/// The server's side of the messages: hand a job to worker `i`, wait for the next
/// result, stop every worker.
pub trait ServerTransport<G> {
    /// The number of workers.
    fn workers(&self) -> usize;
    /// Gives `job` to `worker`, which is idle; `false` if the worker is gone.
    fn send_job(&mut self, worker: usize, job: &Job<G>) -> bool;
    /// The next result of any worker, waiting at most `timeout`.
    fn next_report(&mut self, timeout: Duration) -> Received;
    /// Tells every worker to stop (a busy one may still be sending results).
    fn stop(&mut self);
}

/// A worker's side of the messages.
pub trait WorkerTransport<G> {
    /// Waits for the next job; `None` when the server says stop.
    fn next_job(&mut self) -> Option<Job<G>>;
    /// Sends a result; `false` when the server says stop (the worker then gives up its job).
    fn send_report(&mut self, report: Report) -> bool;
}

/// What the server's loop did, besides the tree's own counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServeSummary {
    /// Jobs handed out.
    pub jobs: u64,
    /// Partial results taken.
    pub partial_results: u64,
    /// Final results taken.
    pub final_results: u64,
}

/// The answer of a parallel PN² server: outcome, the first winning move of the root in
/// move order when it is won, the server's counters (plus the nodes its workers touched)
/// for the proof and for the settling apart, and its message counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Served<M> {
    /// Win or loss for the side to move, or unknown.
    pub outcome: Outcome,
    /// The first winning move of the root in move order, when it is won (a winning move
    /// all the same if the settling ran out of storage: see `settling.first`).
    pub winning_move: Option<M>,
    /// The proof's counters, up to the moment the root was solved.
    pub stats: SolveStats,
    /// The settling of the winning move, after the proof.
    pub settling: Settling,
    /// The jobs and results, the proof's and the settling's.
    pub summary: ServeSummary,
}

/// Why [`solve`] could not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ppn2Error {
    /// No worker thread, or no node for the server.
    NothingToRunOn,
    /// The operating system refused a thread.
    Spawn,
    /// The server's or a worker's storage could not be allocated.
    Allocation,
}

/// `len` blank nodes, or [`Ppn2Error::Allocation`].
fn blank_nodes<M: Copy>(len: usize, null: M) -> Result<Vec<Node<M>>, Ppn2Error> {
    let mut nodes = Vec::new();
    nodes
        .try_reserve_exact(len)
        .map_err(|_| Ppn2Error::Allocation)?;
    nodes.resize(len, Node::blank(null));
    Ok(nodes)
}

/// Solves `root` with parallel PN² on `config.threads` worker threads; `progress` hears
/// about once a second. Returns the outcome, the first winning move of the root in move
/// order when it is won, and the server's counters (plus the nodes its workers touched);
/// `Unknown` with [`SolveStats::out_of_storage`] when the server's tree is full of
/// unsolved nodes.
pub fn solve<G>(
    root: G,
    config: &Ppn2Config,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Served<G::Move>, Ppn2Error>
where
    G: Solvable + Send,
    G::Move: Send,
{
    if config.threads == 0 || config.server_nodes == 0 {
        return Err(Ppn2Error::NothingToRunOn);
    }
    let mut storage = blank_nodes(config.server_nodes, G::Move::default())?;
    // The workers' storage too is allocated here, so that a budget too large for the
    // machine is an error rather than a worker that dies.
    let mut workers_storage = Vec::with_capacity(config.threads);
    for _ in 0..config.threads {
        workers_storage.push(blank_nodes(config.worker_nodes.max(1), G::Move::default())?);
    }
    thread::scope(|scope| {
        let (result_tx, result_rx) = mpsc::channel::<(usize, Report)>();
        let mut job_txs = Vec::with_capacity(config.threads);
        for (index, mut storage) in workers_storage.into_iter().enumerate() {
            let (tx, rx) = mpsc::channel::<Job<G>>();
            let mut transport = ChannelWorker {
                index,
                jobs: rx,
                reports: result_tx.clone(),
            };
            let spawned = thread::Builder::new()
                .name(format!("ppn2-worker-{index}"))
                .spawn_scoped(scope, move || {
                    work_on(&mut storage, config, &mut transport);
                });
            if spawned.is_err() {
                return Err(Ppn2Error::Spawn);
            }
            job_txs.push(tx);
        }
        drop(result_tx);
        let mut transport = ChannelServer {
            jobs: job_txs,
            reports: result_rx,
        };
        let served = serve_on(&mut storage, root, config, &mut transport, progress);
        // Dropping the channels stops the workers (a busy one at its next report).
        drop(transport);
        served
    })
}

/// Runs the server (Algorithm 1) in `storage` (the server's tree) on `root`, talking to
/// the workers through `transport`, until the root is solved, `config.max_expansions` is
/// spent or the tree is full; settles a win (whatever the budget left: the settling is
/// bounded by the storage only); then tells the workers to stop. `progress` hears about
/// once a second. `config.threads` is not read: the transport knows its workers.
pub fn serve_on<G: Solvable, T: ServerTransport<G>>(
    storage: &mut [Node<G::Move>],
    root: G,
    config: &Ppn2Config,
    transport: &mut T,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Served<G::Move>, Ppn2Error> {
    let pns_config = PnsConfig {
        mobility: config.mobility,
    };
    let mut tree = Pns::new(storage, root, pns_config).map_err(|_| Ppn2Error::NothingToRunOn)?;
    let workers = transport.workers();
    if workers == 0 {
        return Err(Ppn2Error::NothingToRunOn);
    }
    let mut server = Server {
        reserved: vec![NONE; workers],
        positions: vec![None; workers],
        busy: vec![false; workers],
        summary: ServeSummary::default(),
        last_progress: Instant::now(),
    };
    server.serve(
        &mut tree,
        config,
        config.max_expansions,
        transport,
        progress,
    );
    let stats = tree.stats();
    // Jobs still out when the root was proved come back during the settling, and count
    // in it.
    let settling = tree.settle(|tree| server.serve(tree, config, u64::MAX, transport, progress));
    transport.stop();
    Ok(Served {
        outcome: tree.outcome(),
        winning_move: tree.winning_move(),
        stats,
        settling,
        summary: server.summary,
    })
}

/// The server's record of its workers, kept from the proof to the settling (jobs handed
/// out during the proof may still be out).
struct Server<G> {
    /// The leaf each worker is on. A reserved leaf that a collection frees becomes NONE
    /// while its worker is still on the job, so whether a worker is busy is kept apart: a
    /// busy worker gets no new job until its final result, which is then dropped (taking
    /// it for the next job's leaf would give that leaf another position's numbers).
    reserved: Vec<u32>,
    /// The position of each worker's leaf.
    positions: Vec<Option<G>>,
    busy: Vec<bool>,
    summary: ServeSummary,
    last_progress: Instant,
}

impl<G: Solvable> Server<G> {
    /// The server loop (Algorithm 1): hand out jobs, take results, until the top of the
    /// search (the root, or the child being settled) is solved, the tree has
    /// `expansion_limit` expansions or is full.
    fn serve<T: ServerTransport<G>>(
        &mut self,
        tree: &mut Pns<'_, G>,
        config: &Ppn2Config,
        expansion_limit: u64,
        transport: &mut T,
        progress: &mut dyn FnMut(&Progress),
    ) {
        let workers = transport.workers();
        let Server {
            reserved,
            positions,
            busy,
            summary,
            last_progress,
        } = self;
        loop {
            let stats = tree.stats();
            if tree.top_solved() || stats.out_of_storage || stats.expanded >= expansion_limit {
                return;
            }
            // Give every idle worker a job while unreserved most-proving leaves exist; the
            // lowest-numbered idle worker first, so that one worker is deterministic.
            for worker in 0..workers {
                if busy[worker] {
                    continue;
                }
                let Some((leaf, position)) = tree.most_proving_except(reserved) else {
                    break;
                };
                let job = Job {
                    position,
                    budget: config.job,
                };
                if !transport.send_job(worker, &job) {
                    return;
                }
                summary.jobs += 1;
                reserved[worker] = leaf;
                positions[worker] = Some(position);
                busy[worker] = true;
            }
            if !busy.contains(&true) {
                // Nothing to hand out and nobody working: cannot happen with an open root.
                return;
            }
            let (worker, report) = match transport.next_report(PROGRESS_PERIOD) {
                Received::Report { worker, report } if worker < workers && busy[worker] => {
                    (worker, report)
                }
                // A result from a worker without a job is not for any leaf.
                Received::Report { .. } | Received::Timeout => {
                    report_progress(tree, progress, last_progress);
                    continue;
                }
                Received::Closed => return,
            };
            match report.children {
                None => {
                    summary.partial_results += 1;
                    if reserved[worker] != NONE {
                        tree.set_leaf_numbers(reserved[worker], report.pn, report.dn);
                    }
                }
                Some(children) => {
                    summary.final_results += 1;
                    tree.add_touched(report.touched);
                    // A solved leaf keeps its numbers only, to spare the server's storage; the
                    // root is expanded all the same, for its winning move.
                    let solved = report.pn == 0 || report.dn == 0;
                    if solved && reserved[worker] != 0 {
                        if reserved[worker] != NONE {
                            tree.set_leaf_numbers(reserved[worker], report.pn, report.dn);
                        }
                    } else if let Some(position) = positions[worker] {
                        tree.expand_reserved(worker, &position, &children, reserved);
                    }
                    reserved[worker] = NONE;
                    positions[worker] = None;
                    busy[worker] = false;
                }
            }
            report_progress(tree, progress, last_progress);
        }
    }
}

fn report_progress<G: Solvable>(
    tree: &Pns<'_, G>,
    progress: &mut dyn FnMut(&Progress),
    last: &mut Instant,
) {
    if last.elapsed() >= PROGRESS_PERIOD {
        *last = Instant::now();
        let (pn, dn) = tree.root_numbers();
        progress(&Progress {
            stats: tree.stats(),
            pn,
            dn,
        });
    }
}

/// A worker (Algorithm 2): a PN search per job in `storage`, until the server says stop.
pub fn work_on<G: Solvable, T: WorkerTransport<G>>(
    storage: &mut [Node<G::Move>],
    config: &Ppn2Config,
    transport: &mut T,
) {
    let pns_config = PnsConfig {
        mobility: config.mobility,
    };
    while let Some(job) = transport.next_job() {
        let Ok(mut pns) = Pns::new(storage, job.position, pns_config) else {
            return;
        };
        // Period 0: no partial results.
        let period = if config.partial == 0 {
            job.budget
        } else {
            config.partial
        };
        let mut spent = 0;
        while spent < job.budget {
            let step = period.min(job.budget - spent);
            let outcome = pns.run(step);
            spent += step;
            if outcome != Outcome::Unknown || pns.stats().out_of_storage || spent >= job.budget {
                break;
            }
            let (pn, dn) = pns.root_numbers();
            let partial = Report {
                pn,
                dn,
                children: None,
                touched: 0,
            };
            if !transport.send_report(partial) {
                return;
            }
        }
        let (pn, dn) = pns.root_numbers();
        let nodes = pns.nodes();
        let root = nodes[0];
        let children = root
            .first_child()
            .map(|first| {
                nodes[first..first + root.child_count()]
                    .iter()
                    .map(|c| (c.pn, c.dn))
                    .collect()
            })
            .unwrap_or_default();
        let report = Report {
            pn,
            dn,
            children: Some(children),
            touched: pns.stats().touched,
        };
        if !transport.send_report(report) {
            return;
        }
    }
}

/// The server's end of the threads' channels: a job channel per worker, one result channel.
struct ChannelServer<G> {
    jobs: Vec<mpsc::Sender<Job<G>>>,
    reports: mpsc::Receiver<(usize, Report)>,
}

impl<G> ServerTransport<G> for ChannelServer<G>
where
    G: Copy,
{
    fn workers(&self) -> usize {
        self.jobs.len()
    }

    fn send_job(&mut self, worker: usize, job: &Job<G>) -> bool {
        self.jobs
            .get(worker)
            .is_some_and(|jobs| jobs.send(*job).is_ok())
    }

    fn next_report(&mut self, timeout: Duration) -> Received {
        match self.reports.recv_timeout(timeout) {
            Ok((worker, report)) => Received::Report { worker, report },
            Err(mpsc::RecvTimeoutError::Timeout) => Received::Timeout,
            Err(mpsc::RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    fn stop(&mut self) {
        // A worker waiting for a job sees its channel close.
        self.jobs.clear();
    }
}

/// A worker thread's end of the channels.
struct ChannelWorker<G> {
    index: usize,
    jobs: mpsc::Receiver<Job<G>>,
    reports: mpsc::Sender<(usize, Report)>,
}

impl<G> WorkerTransport<G> for ChannelWorker<G> {
    fn next_job(&mut self) -> Option<Job<G>> {
        self.jobs.recv().ok()
    }

    fn send_report(&mut self, report: Report) -> bool {
        self.reports.send((self.index, report)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::super::toys::Take;
    use super::*;

    fn config(threads: usize, server_nodes: usize) -> Ppn2Config {
        Ppn2Config {
            threads,
            job: 20,
            partial: 5,
            server_nodes,
            worker_nodes: 200,
            mobility: true,
            max_expansions: u64::MAX,
        }
    }

    #[test]
    fn one_and_two_workers_solve_the_subtraction_game() {
        for pile in [5u32, 9, 12, 17, 22] {
            let game = Take { pile, limit: 3 };
            let expected = if pile % 4 == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            let one = solve(game, &config(1, 100_000), &mut |_| {}).unwrap();
            let again = solve(game, &config(1, 100_000), &mut |_| {}).unwrap();
            let two = solve(game, &config(2, 100_000), &mut |_| {}).unwrap();
            assert_eq!(one.outcome, expected, "pile {pile}");
            assert_eq!(two.outcome, expected, "pile {pile}");
            assert_eq!(one, again, "one worker is deterministic");
            for served in [one, two] {
                assert_eq!(
                    served.outcome == Outcome::Win,
                    served.winning_move.is_some()
                );
                assert_eq!(served.outcome == Outcome::Win, served.settling.first);
                if let Some(mv) = served.winning_move {
                    assert_eq!(game.after(mv).pile % 4, 0);
                }
            }
        }
    }

    #[test]
    fn a_small_server_collects_and_a_tiny_one_reports_out_of_storage() {
        let game = Take { pile: 12, limit: 3 };
        let mut small = config(2, 100);
        small.job = 3;
        // Collections free leaves that workers are still on; whether a result then lands on
        // the right leaf depends on the threads' timing, so the run is repeated (a stale
        // result taken for a new job's leaf once gave Win here about one run in twenty).
        // How full the 100 nodes get depends on that timing too: a run may end out of
        // storage, but never with a wrong outcome.
        let mut solved_with_collections = 0;
        for _ in 0..200 {
            let served = solve(game, &small, &mut |_| {}).unwrap();
            let (outcome, stats) = (served.outcome, served.stats);
            match outcome {
                Outcome::Loss => solved_with_collections += u32::from(stats.collections > 0),
                Outcome::Unknown => assert!(stats.out_of_storage, "{stats:?}"),
                Outcome::Win => panic!("12 is lost for the player to move: {stats:?}"),
            }
        }
        assert!(solved_with_collections > 100, "{solved_with_collections}");
        let served = solve(game, &config(2, 2), &mut |_| {}).unwrap();
        assert_eq!(served.outcome, Outcome::Unknown);
        assert!(served.stats.out_of_storage);
        assert_eq!(
            solve(game, &config(0, 100), &mut |_| {}),
            Err(Ppn2Error::NothingToRunOn)
        );
    }

    #[test]
    fn the_budget_counts_server_expansions() {
        let game = Take {
            pile: 200,
            limit: 3,
        };
        let mut budgeted = config(2, 100_000);
        budgeted.job = 2;
        budgeted.max_expansions = 5;
        let Served { outcome, stats, .. } = solve(game, &budgeted, &mut |_| {}).unwrap();
        assert_eq!(outcome, Outcome::Unknown);
        assert!(!stats.out_of_storage);
        assert!((5..5 + 2).contains(&stats.expanded), "{}", stats.expanded);
    }
}
