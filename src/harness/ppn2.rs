//! Parallel PN² (Algorithms 1 and 2 of the paper) on threads: a server keeps the main
//! proof-number tree; each worker runs a PN search on the position of a job for at most
//! `budget` expansions, sends the root's numbers every `period` expansions (a partial
//! result) and, at the end, the numbers of the root's children (the final result), which
//! the server uses to expand the leaf.
//!
//! Leaves given to workers are *reserved* (flagged), never assumed lost; the next job is a
//! most-proving leaf that is not reserved, found by backtracking over the children that
//! tie on the minimum disproof number. When every most-proving leaf is reserved the worker
//! waits for the next result. Jobs and results are plain data. With one worker the run is
//! deterministic (one job at a time, results in order).
use std::sync::mpsc;
use std::thread;
use std::time::Instant;

use crate::search::proof::pns::{Node, Pns, PnsConfig};
use crate::search::proof::{INFINITY, Outcome, SolveStats, SolverGame, add, initial_numbers};

/// A job: the position (with its side to move) and the expansion budget.
#[derive(Clone, Copy, Debug)]
pub struct Job<G> {
    pub leaf: u32,
    pub position: G,
    pub budget: u64,
}

/// A result: partial (root numbers only) or final (with the root children's numbers in
/// move order, empty if the worker did not expand its root).
#[derive(Clone, Debug)]
pub struct Report {
    pub worker: usize,
    pub leaf: u32,
    pub pn: u32,
    pub dn: u32,
    pub children: Option<Vec<(u32, u32)>>,
    pub touched: u64,
}

struct ServerNode<G: SolverGame> {
    pn: u32,
    dn: u32,
    parent: u32,
    first_child: u32,
    children: u16,
    reserved: bool,
    mv: G::Move,
    position: G,
}

const NONE: u32 = u32::MAX;

fn worker<G: SolverGame>(
    index: usize,
    jobs: mpsc::Receiver<Job<G>>,
    results: mpsc::Sender<Report>,
    period: u64,
    nodes: usize,
    mobility: bool,
) {
    let mut storage = vec![Node::blank(G::NULL_MOVE); nodes.max(1)];
    while let Ok(job) = jobs.recv() {
        let Ok(mut pns) = Pns::new(&mut storage, job.position, PnsConfig { mobility }) else {
            return;
        };
        let mut spent = 0;
        while spent < job.budget {
            // Period 0: no partial results.
            let period = if period == 0 { job.budget } else { period };
            let step = period.min(job.budget - spent);
            let outcome = pns.run(step);
            spent += step;
            if outcome != Outcome::Unknown || pns.stats().out_of_storage || spent >= job.budget {
                break;
            }
            let (pn, dn) = pns.root_numbers();
            let partial = Report {
                worker: index,
                leaf: job.leaf,
                pn,
                dn,
                children: None,
                touched: 0,
            };
            if results.send(partial).is_err() {
                return;
            }
        }
        let (pn, dn) = pns.root_numbers();
        let tree = pns.nodes();
        let root = tree[0];
        let children = root
            .first_child()
            .map(|first| {
                tree[first..first + root.child_count()]
                    .iter()
                    .map(|c| (c.pn, c.dn))
                    .collect()
            })
            .unwrap_or_default();
        let report = Report {
            worker: index,
            leaf: job.leaf,
            pn,
            dn,
            children: Some(children),
            touched: pns.stats().touched,
        };
        if results.send(report).is_err() {
            return;
        }
    }
}

/// Solves `root` with `threads` workers; the server tree holds at most `capacity` nodes.
#[allow(clippy::too_many_arguments)]
pub fn solve<G>(
    root: G,
    threads: usize,
    job: u64,
    period: u64,
    capacity: usize,
    worker_nodes: usize,
    mobility: bool,
    start: &Instant,
) -> (Outcome, Option<G::Move>, SolveStats)
where
    G: SolverGame + Send + 'static,
    G::Move: Send,
{
    let (pn, dn) = initial_numbers(&root, mobility);
    let mut tree = vec![ServerNode {
        pn,
        dn,
        parent: NONE,
        first_child: NONE,
        children: 0,
        reserved: false,
        mv: G::NULL_MOVE,
        position: root,
    }];
    let mut stats = SolveStats {
        touched: 1,
        peak_used: 1,
        ..SolveStats::default()
    };
    let (result_tx, result_rx) = mpsc::channel::<Report>();
    let mut job_txs = Vec::new();
    let mut handles = Vec::new();
    for index in 0..threads {
        let (tx, rx) = mpsc::channel::<Job<G>>();
        let results = result_tx.clone();
        handles.push(thread::spawn(move || {
            worker(index, rx, results, period, worker_nodes, mobility)
        }));
        job_txs.push(tx);
    }
    drop(result_tx);
    let mut idle: Vec<usize> = (0..threads).collect();
    let mut busy = 0usize;
    let mut last = Instant::now();
    loop {
        if tree[0].pn == 0 || tree[0].dn == 0 {
            break;
        }
        // Give every idle worker a job while unreserved most-proving leaves exist.
        while let Some(&w) = idle.first() {
            let Some(leaf) = most_proving_unreserved(&tree, 0) else {
                break;
            };
            tree[leaf as usize].reserved = true;
            let job = Job {
                leaf,
                position: tree[leaf as usize].position,
                budget: job,
            };
            if job_txs[w].send(job).is_err() {
                return (Outcome::Unknown, None, stats);
            }
            idle.remove(0);
            busy += 1;
        }
        if busy == 0 {
            stats.out_of_storage = true;
            break;
        }
        let Ok(report) = result_rx.recv() else { break };
        let leaf = report.leaf as usize;
        match report.children {
            None => {
                if tree[leaf].children == 0 && !(tree[leaf].pn == 0 || tree[leaf].dn == 0) {
                    tree[leaf].pn = report.pn;
                    tree[leaf].dn = report.dn;
                    let parent = tree[leaf].parent;
                    update(&mut tree, parent);
                }
            }
            Some(children) => {
                busy -= 1;
                idle.push(report.worker);
                idle.sort_unstable();
                tree[leaf].reserved = false;
                stats.touched += report.touched;
                if report.pn == 0 || report.dn == 0 || tree[leaf].children > 0 {
                    tree[leaf].pn = report.pn;
                    tree[leaf].dn = report.dn;
                } else {
                    let position = tree[leaf].position;
                    let mut moves = G::MoveList::default();
                    SolverGame::legal_moves(&position, &mut moves);
                    if tree.len() + moves.len() > capacity {
                        stats.out_of_storage = true;
                        break;
                    }
                    let first = tree.len() as u32;
                    for (i, &mv) in moves.iter().enumerate() {
                        let child = position.after(mv);
                        let (pn, dn) = if children.len() == moves.len() {
                            children[i]
                        } else {
                            initial_numbers(&child, mobility)
                        };
                        tree.push(ServerNode {
                            pn,
                            dn,
                            parent: leaf as u32,
                            first_child: NONE,
                            children: 0,
                            reserved: false,
                            mv,
                            position: child,
                        });
                    }
                    tree[leaf].first_child = first;
                    tree[leaf].children = moves.len() as u16;
                    stats.expanded += 1;
                    stats.touched += moves.len() as u64;
                    stats.peak_used = tree.len() as u64;
                }
                update(&mut tree, leaf as u32);
            }
        }
        if last.elapsed().as_secs_f64() > 1.0 {
            last = Instant::now();
            super::solve::progress(start, &stats, tree[0].pn, tree[0].dn);
        }
    }
    drop(job_txs);
    // Collect and discard the remaining messages, then let the workers stop.
    while result_rx.recv().is_ok() {}
    for handle in handles {
        let _ = handle.join();
    }
    let outcome = match (tree[0].pn, tree[0].dn) {
        (0, _) => Outcome::Win,
        (_, 0) => Outcome::Loss,
        _ => Outcome::Unknown,
    };
    let best = if outcome == Outcome::Win && tree[0].children > 0 {
        let first = tree[0].first_child as usize;
        tree[first..first + tree[0].children as usize]
            .iter()
            .find(|c| c.dn == 0)
            .map(|c| c.mv)
    } else {
        None
    };
    (outcome, best, stats)
}

/// Backtracking search for a most-proving leaf that is not reserved: at each node, the
/// children with the minimum `dn`, in order.
fn most_proving_unreserved<G: SolverGame>(tree: &[ServerNode<G>], index: u32) -> Option<u32> {
    let node = &tree[index as usize];
    if node.pn == 0 || node.dn == 0 {
        return None;
    }
    if node.children == 0 {
        return (!node.reserved).then_some(index);
    }
    let first = node.first_child as usize;
    let kids = &tree[first..first + node.children as usize];
    let min = kids.iter().map(|c| c.dn).min().unwrap_or(INFINITY);
    kids.iter()
        .enumerate()
        .filter(|(_, c)| c.dn == min)
        .find_map(|(i, _)| most_proving_unreserved(tree, (first + i) as u32))
}

fn update<G: SolverGame>(tree: &mut [ServerNode<G>], mut index: u32) {
    while index != NONE {
        let node = &tree[index as usize];
        if node.children > 0 {
            let first = node.first_child as usize;
            let mut pn = INFINITY;
            let mut dn = 0;
            for child in &tree[first..first + node.children as usize] {
                pn = pn.min(child.dn);
                dn = add(dn, child.pn);
            }
            let node = &mut tree[index as usize];
            node.pn = pn;
            node.dn = dn;
        }
        index = tree[index as usize].parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::{Position, Size};

    fn start(columns: u8, rows: u8) -> Position {
        Position::start(Size::new_checked(columns, rows).unwrap())
    }

    #[test]
    fn one_and_two_workers_agree_and_one_worker_is_deterministic() {
        let now = Instant::now();
        for (columns, rows, expected) in [(4, 4, None), (3, 5, None), (4, 5, Some(Outcome::Loss))] {
            let root = start(columns, rows);
            let a = solve(root, 1, 200, 20, 1 << 20, 10_000, true, &now);
            let b = solve(root, 1, 200, 20, 1 << 20, 10_000, true, &now);
            let c = solve(root, 2, 200, 20, 1 << 20, 10_000, true, &now);
            assert_ne!(a.0, Outcome::Unknown);
            assert_eq!(a.0, c.0, "{columns}x{rows}");
            assert_eq!((a.0, a.1, a.2), (b.0, b.1, b.2), "{columns}x{rows}");
            if let Some(outcome) = expected {
                assert_eq!(a.0, outcome);
            }
            if let Some(mv) = a.1 {
                let mut table = vec![crate::search::proof::dfpn::Entry::default(); 1 << 16];
                let mut dfpn = crate::search::proof::dfpn::Dfpn::new(
                    &mut table,
                    crate::search::proof::dfpn::DfpnConfig::default(),
                )
                .unwrap();
                assert_eq!(dfpn.solve(&root.after(mv)), Outcome::Loss);
            }
        }
    }

    #[test]
    fn a_server_tree_too_small_reports_unknown() {
        let now = Instant::now();
        let (outcome, _, stats) = solve(start(4, 5), 2, 10, 5, 20, 1000, true, &now);
        assert_eq!(outcome, Outcome::Unknown);
        assert!(stats.out_of_storage);
    }
}
