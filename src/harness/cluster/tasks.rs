//! [`run_tasks`] across the ranks of a distributed run: rank `r` of `K` runs the tasks
//! `r, r + K, r + 2K, …` on its own threads, and every rank gets every result, in task order.
//! A task sees only its own number, so the results are those of one process; only the
//! timings they may hold differ.
use super::wire::Wire;
use crate::harness::Failure;
use crate::harness::parallel::run_tasks;

/// Runs `work(&mut scratch, i)` for every `i` in `0..count` over every rank (each on
/// `threads` threads) and returns all the results in task order on every rank; a collective,
/// so every rank must call it with the same `count`. `report(done)` hears the root's progress,
/// scaled to the whole run. A task that fails on any rank fails the call on every rank.
pub fn run_tasks_on_ranks<S, T, W>(
    count: usize,
    threads: usize,
    scratch: impl Fn() -> Result<S, String> + Sync,
    work: W,
    mut report: impl FnMut(usize),
) -> Result<Vec<T>, Failure>
where
    T: Send + Wire,
    W: Fn(&mut S, usize) -> Result<T, String> + Sync,
{
    let (rank, ranks) = (super::rank(), super::size());
    if ranks == 1 {
        return run_tasks(count, threads, scratch, work, report);
    }
    let mine: Vec<usize> = (rank..count).step_by(ranks).collect();
    let local = run_tasks(
        mine.len(),
        threads,
        scratch,
        |scratch, j| work(scratch, mine[j]),
        |done| report((done * ranks).min(count)),
    );
    let mut message = Vec::new();
    match &local {
        Ok(results) => {
            false.put(&mut message);
            for result in results {
                result.put(&mut message);
            }
        }
        Err(Failure::Job(why) | Failure::Usage(why)) => {
            true.put(&mut message);
            why.put(&mut message);
        }
    }
    let parts = super::all_gather(&message);
    gather_in_task_order(count, &parts)
}

/// The results of every rank's `message`, placed at their task numbers.
fn gather_in_task_order<T: Wire>(count: usize, parts: &[Vec<u8>]) -> Result<Vec<T>, Failure> {
    let ranks = parts.len();
    let mut slots: Vec<Option<T>> = (0..count).map(|_| None).collect();
    for (rank, part) in parts.iter().enumerate() {
        let mut input = &part[..];
        let failed = bool::take(&mut input).map_err(Failure::Job)?;
        if failed {
            let why = String::take(&mut input).map_err(Failure::Job)?;
            return Err(Failure::Job(if rank == 0 {
                why
            } else {
                format!("rank {rank}: {why}")
            }));
        }
        for task in (rank..count).step_by(ranks) {
            slots[task] = Some(T::take(&mut input).map_err(Failure::Job)?);
        }
        if !input.is_empty() {
            return Err(Failure::Job(format!(
                "rank {rank} sent {} bytes more than its results",
                input.len()
            )));
        }
    }
    slots
        .into_iter()
        .map(|slot| slot.ok_or_else(|| Failure::Job("a task was run on no rank".into())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What rank `rank` of `ranks` would send for tasks whose result is `task * 10`.
    fn message(rank: usize, ranks: usize, count: usize) -> Vec<u8> {
        let mut out = Vec::new();
        false.put(&mut out);
        for task in (rank..count).step_by(ranks) {
            (task as u64 * 10).put(&mut out);
        }
        out
    }

    #[test]
    fn results_land_in_task_order_for_any_number_of_ranks() {
        for ranks in 1..=5 {
            for count in [0, 1, 4, 7, 12] {
                let parts: Vec<Vec<u8>> = (0..ranks).map(|r| message(r, ranks, count)).collect();
                let results: Vec<u64> = gather_in_task_order(count, &parts).unwrap();
                let expected: Vec<u64> = (0..count as u64).map(|t| t * 10).collect();
                assert_eq!(results, expected, "{ranks} ranks, {count} tasks");
            }
        }
    }

    #[test]
    fn a_failure_or_a_bad_message_fails_the_whole_run() {
        let mut failed = Vec::new();
        true.put(&mut failed);
        String::from("out of memory").put(&mut failed);
        let parts = vec![message(0, 2, 5), failed];
        match gather_in_task_order::<u64>(5, &parts) {
            Err(Failure::Job(why)) => assert_eq!(why, "rank 1: out of memory"),
            other => panic!("{other:?}"),
        }
        let mut short = message(1, 2, 5);
        short.pop();
        assert!(gather_in_task_order::<u64>(5, &[message(0, 2, 5), short]).is_err());
        let mut long = message(1, 2, 5);
        long.push(0);
        assert!(gather_in_task_order::<u64>(5, &[message(0, 2, 5), long]).is_err());
    }
}
