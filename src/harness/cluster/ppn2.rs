//! Parallel PN² on MPI ranks: rank 0 is the server of
//! [`crate::search::proof::ppn2`] with the main tree, ranks 1..K-1 are its clients, each a
//! worker with its own tree. The same `serve_on` and `work_on` loops as the threads' run;
//! only their messages travel differently, as byte vectors with a tag each:
//!
//! | tag | from → to | bytes |
//! | --- | --- | --- |
//! | job | server → client | budget (u64) then the position ([`JobPosition`]) |
//! | partial | client → server | the job root's pn, dn (u32 each) |
//! | final | client → server | pn, dn, touched (u64), the job's time on the client in µs (u64), then each child's pn, dn |
//! | stop | server → client | nothing |
//! | done | client → server | nothing: the client's last message |
//!
//! Shutdown: the server sends stop to every client, then takes (and drops) whatever
//! each client still sends until its done, so no message is left pending when MPI is
//! finalised. Messages between two ranks arrive in the order sent, so a client's done
//! comes after its last result.
//!
//! Waiting never spins: Open MPI's blocking receive polls at full speed, which on an
//! oversubscribed machine takes the CPU from the clients that have work. Both sides poll
//! with `MPI_Iprobe` and sleep between polls, from 1 µs doubling up to 50 µs (in practice
//! the kernel's timer slack makes each nap about 50 to 100 µs).
use std::thread;
use std::time::{Duration, Instant};

use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::topology::{Communicator, SimpleCommunicator};

use super::mpi_ranks::world;
use crate::breakthrough::{Position, WithRacePatterns};
use crate::search::proof::pns::Node;
use crate::search::proof::ppn2::{
    Job, Ppn2Config, Received, Report, Served, ServerTransport, WorkerTransport, serve_on, work_on,
};
use crate::search::proof::{Progress, Solvable};

const JOB: i32 = 1;
const PARTIAL: i32 = 2;
const FINAL: i32 = 3;
const STOP: i32 = 4;
const DONE: i32 = 5;

/// The shortest and the longest sleep between two polls for a message. Linux rounds a
/// sleep up by its timer slack (50 µs by default), so a nap is at least about that long.
const FIRST_NAP: Duration = Duration::from_micros(1);
const LONGEST_NAP: Duration = Duration::from_micros(50);

/// A position that travels as bytes between ranks.
pub trait JobPosition: Sized {
    /// The position's bytes.
    fn to_wire(&self) -> Vec<u8>;
    /// The position from its bytes, `None` if they are not one.
    fn from_wire(bytes: &[u8]) -> Option<Self>;
}

impl JobPosition for Position {
    fn to_wire(&self) -> Vec<u8> {
        self.to_bytes().to_vec()
    }

    fn from_wire(bytes: &[u8]) -> Option<Self> {
        Position::from_bytes(bytes).ok()
    }
}

impl JobPosition for WithRacePatterns {
    fn to_wire(&self) -> Vec<u8> {
        self.0.to_wire()
    }

    fn from_wire(bytes: &[u8]) -> Option<Self> {
        Position::from_wire(bytes).map(WithRacePatterns)
    }
}

/// How the server's time went, for the scaling estimates of `docs/cluster-ppn2.md`.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    /// Each job's time on its client, in µs, in the order the results came.
    pub job_micros: Vec<u64>,
    /// Each job's time from the server's send to its final result's arrival, in µs (the
    /// job's time plus the messages' latency), in the same order.
    pub turnaround_micros: Vec<u64>,
    /// The server's time on each partial result, from the probe that found it (so its
    /// receipt counts) until the server waited again, in µs.
    pub partial_micros: Vec<u64>,
    /// The server's time on each final result, in µs: taking it and handing out the next
    /// jobs.
    pub final_micros: Vec<u64>,
    /// The server's whole run, in µs.
    pub total_micros: u64,
}

/// What a rank did: the server's answer on rank 0, nothing to say on a client.
pub enum Role<M> {
    /// Rank 0: the solve's answer (boxed: a client's role is empty) and how its time went.
    Server(Box<Served<M>>, Timings),
    /// Ranks 1..K-1.
    Client,
}

/// Runs parallel PN² on every rank (a collective: every rank calls it, with the same
/// `root` and `config`; `config.threads` must be the number of ranks less one).
pub fn solve<G>(
    root: G,
    config: &Ppn2Config,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Role<G::Move>, String>
where
    G: Solvable + JobPosition,
{
    let world = world();
    let rank = world.rank();
    let nodes = if rank == 0 {
        config.server_nodes
    } else {
        config.worker_nodes
    };
    let mut storage = Vec::new();
    storage
        .try_reserve_exact(nodes.max(1))
        .map_err(|_| "could not allocate the memory budget".to_string())?;
    storage.resize(nodes.max(1), Node::blank(G::Move::default()));
    if rank == 0 {
        let clients = usize::try_from(world.size()).unwrap_or(1).saturating_sub(1);
        let mut server = Server {
            world,
            clients,
            timings: Timings::default(),
            handling_since: None,
            sent: vec![Instant::now(); clients],
        };
        let started = Instant::now();
        let served = serve_on(&mut storage, root, config, &mut server, progress)
            .map_err(|error| format!("parallel PN² could not start: {error:?}"))?;
        let mut timings = server.timings;
        timings.total_micros = micros(started.elapsed());
        Ok(Role::Server(Box::new(served), timings))
    } else {
        let mut client = Client {
            world,
            stopped: false,
            job_started: Instant::now(),
            _position: std::marker::PhantomData::<G>,
        };
        work_on(&mut storage, config, &mut client);
        client.finish();
        Ok(Role::Client)
    }
}

fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

/// A message: its bytes, sender and tag, and when the probe found it.
type Message = (Vec<u8>, i32, i32, Instant);

/// Polls for a message from `source` until one comes or `deadline` passes, sleeping
/// between polls.
fn poll<S: Source>(source: &S, deadline: Option<Instant>) -> Option<Message> {
    let mut nap = FIRST_NAP;
    loop {
        if let Some(probed) = source.immediate_matched_probe() {
            let found = Instant::now();
            let (bytes, status) = probed.matched_receive_vec::<u8>();
            return Some((bytes, status.source_rank(), status.tag(), found));
        }
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return None;
        }
        thread::sleep(nap);
        nap = (nap * 2).min(LONGEST_NAP);
    }
}

/// Rank 0's side: client `i` is worker `i - 1`.
struct Server {
    world: SimpleCommunicator,
    clients: usize,
    timings: Timings,
    /// When the server took the result it is handling now, and whether it is final.
    handling_since: Option<(Instant, bool)>,
    /// When each worker's job was sent.
    sent: Vec<Instant>,
}

impl Server {
    /// Counts the time since the last result was taken as that result's handling.
    fn handled(&mut self) {
        if let Some((since, last)) = self.handling_since.take() {
            let spent = micros(since.elapsed());
            if last {
                self.timings.final_micros.push(spent);
            } else {
                self.timings.partial_micros.push(spent);
            }
        }
    }
}

/// Reads `N` bytes at `at` (a short message reads as zeros: a message is never short
/// between ranks of one build).
fn read<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut out = [0; N];
    if let Some(part) = bytes.get(at..at + N) {
        out.copy_from_slice(part);
    }
    out
}

impl<G: JobPosition> ServerTransport<G> for Server {
    fn workers(&self) -> usize {
        self.clients
    }

    fn send_job(&mut self, worker: usize, job: &Job<G>) -> bool {
        let Ok(rank) = i32::try_from(worker + 1) else {
            return false;
        };
        let mut bytes = job.budget.to_le_bytes().to_vec();
        bytes.extend(job.position.to_wire());
        self.world
            .process_at_rank(rank)
            .send_with_tag(&bytes[..], JOB);
        if let Some(sent) = self.sent.get_mut(worker) {
            *sent = Instant::now();
        }
        true
    }

    fn next_report(&mut self, timeout: Duration) -> Received {
        self.handled();
        let deadline = Instant::now() + timeout;
        loop {
            let Some((bytes, source, tag, found)) = poll(&self.world.any_process(), Some(deadline))
            else {
                return Received::Timeout;
            };
            // The server's time on a result starts with its receipt.
            let now = Instant::now();
            self.handling_since = Some((found, tag == FINAL));
            let Some(worker) = usize::try_from(source - 1).ok() else {
                continue;
            };
            let pn = u32::from_le_bytes(read(&bytes, 0));
            let dn = u32::from_le_bytes(read(&bytes, 4));
            let report = match tag {
                PARTIAL => Report {
                    pn,
                    dn,
                    children: None,
                    touched: 0,
                },
                FINAL => {
                    self.timings
                        .job_micros
                        .push(u64::from_le_bytes(read(&bytes, 16)));
                    let sent = self.sent.get(worker).copied().unwrap_or(now);
                    self.timings
                        .turnaround_micros
                        .push(micros(now.saturating_duration_since(sent)));
                    let children = bytes
                        .get(24..)
                        .unwrap_or_default()
                        .chunks_exact(8)
                        .map(|pair| {
                            (
                                u32::from_le_bytes(read(pair, 0)),
                                u32::from_le_bytes(read(pair, 4)),
                            )
                        })
                        .collect();
                    Report {
                        pn,
                        dn,
                        children: Some(children),
                        touched: u64::from_le_bytes(read(&bytes, 8)),
                    }
                }
                // Nothing else comes before the server says stop.
                _ => continue,
            };
            return Received::Report { worker, report };
        }
    }

    fn stop(&mut self) {
        self.handled();
        for client in 1..=self.clients {
            if let Ok(rank) = i32::try_from(client) {
                self.world
                    .process_at_rank(rank)
                    .send_with_tag(&[0u8; 0][..], STOP);
            }
        }
        // Drain: results still on their way, then each client's done.
        let mut done = vec![false; self.clients + 1];
        done[0] = true;
        while done.contains(&false) {
            if let Some((_, source, DONE, _)) = poll(&self.world.any_process(), None) {
                if let Some(flag) = usize::try_from(source).ok().and_then(|s| done.get_mut(s)) {
                    *flag = true;
                }
            }
        }
    }
}

/// A client rank's side.
struct Client<G> {
    world: SimpleCommunicator,
    /// Whether the server said stop.
    stopped: bool,
    job_started: Instant,
    _position: std::marker::PhantomData<G>,
}

impl<G> Client<G> {
    /// Waits for the server's stop if the worker ended without it, then says done.
    fn finish(&mut self) {
        let server = self.world.process_at_rank(0);
        while !self.stopped {
            if let Some((_, _, STOP, _)) = poll(&server, None) {
                self.stopped = true;
            }
        }
        server.send_with_tag(&[0u8; 0][..], DONE);
    }
}

impl<G: JobPosition> WorkerTransport<G> for Client<G> {
    fn next_job(&mut self) -> Option<Job<G>> {
        if self.stopped {
            return None;
        }
        let server = self.world.process_at_rank(0);
        loop {
            let (bytes, _, tag, _) = poll(&server, None)?;
            match tag {
                JOB => {
                    let budget = u64::from_le_bytes(read(&bytes, 0));
                    // A job that does not decode cannot come from this build's server;
                    // it is skipped rather than trusted.
                    let Some(position) = bytes.get(8..).and_then(G::from_wire) else {
                        continue;
                    };
                    self.job_started = Instant::now();
                    return Some(Job { position, budget });
                }
                STOP => {
                    self.stopped = true;
                    return None;
                }
                _ => {}
            }
        }
    }

    fn send_report(&mut self, report: Report) -> bool {
        let server = self.world.process_at_rank(0);
        let mut bytes = Vec::with_capacity(24);
        bytes.extend(report.pn.to_le_bytes());
        bytes.extend(report.dn.to_le_bytes());
        let tag = match &report.children {
            None => PARTIAL,
            Some(children) => {
                bytes.extend(report.touched.to_le_bytes());
                bytes.extend(micros(self.job_started.elapsed()).to_le_bytes());
                for &(pn, dn) in children {
                    bytes.extend(pn.to_le_bytes());
                    bytes.extend(dn.to_le_bytes());
                }
                FINAL
            }
        };
        server.send_with_tag(&bytes[..], tag);
        // A busy client has no job waiting, so a message now is the server's stop.
        if server.immediate_probe_with_tag(STOP).is_some() {
            let (_, _) = server.receive_vec_with_tag::<u8>(STOP);
            self.stopped = true;
            return false;
        }
        true
    }
}
