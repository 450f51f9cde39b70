//! Runs independent, numbered tasks on several threads. Results come back in task order and
//! each task sees only its own number, so the outcome does not depend on the thread count.
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::Failure;

/// How often `report` is called while tasks run.
const REPORT_EVERY: Duration = Duration::from_millis(250);
/// How often the calling thread looks whether the workers are done.
const POLL_EVERY: Duration = Duration::from_millis(10);

/// The number of threads `--threads` asks for, or every core.
pub fn default_threads(requested: Option<usize>) -> usize {
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    requested.unwrap_or(available).max(1)
}

/// Runs `work(&mut scratch, i)` for every `i` in `0..count` on `threads` threads, each
/// thread with its own scratch from `scratch()` (which may fail, e.g. to allocate), and
/// returns the results in task order.
/// `report(done)` is called on the calling thread about every 250 ms with the number of
/// finished tasks. The first failing task stops the run and its message is returned.
pub fn run_tasks<S, T, W>(
    count: usize,
    threads: usize,
    scratch: impl Fn() -> Result<S, String> + Sync,
    work: W,
    mut report: impl FnMut(usize),
) -> Result<Vec<T>, Failure>
where
    T: Send,
    W: Fn(&mut S, usize) -> Result<T, String> + Sync,
{
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, count.max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut state = match scratch() {
                        Ok(state) => state,
                        Err(message) => {
                            if let Ok(mut first) = failure.lock() {
                                first.get_or_insert(message);
                            }
                            stop.store(true, Ordering::Relaxed);
                            return;
                        }
                    };
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            break;
                        }
                        match work(&mut state, i) {
                            Ok(value) => {
                                if let Ok(mut slots) = results.lock() {
                                    slots[i] = Some(value);
                                }
                            }
                            Err(message) => {
                                if let Ok(mut first) = failure.lock() {
                                    first.get_or_insert(message);
                                }
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        finished.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        let mut last = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(POLL_EVERY);
            if last.elapsed() >= REPORT_EVERY {
                report(finished.load(Ordering::Relaxed));
                last = Instant::now();
            }
        }
    });
    if let Some(message) = failure.into_inner().ok().flatten() {
        return Err(Failure::Job(message));
    }
    let slots = results
        .into_inner()
        .map_err(|_| Failure::Job("a worker thread failed".into()))?;
    slots
        .into_iter()
        .map(|slot| slot.ok_or_else(|| Failure::Job("a task was not run".into())))
        .collect()
}

/// Time before a run shows progress, and between two updates of the line.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// The progress line of a long run of games: `done/total games, ETA s` on stderr, rewritten
/// in place every two seconds once the run has taken two seconds (quick runs print nothing).
/// Pass `|done| progress.update(done)` as the `report` of [`run_tasks`], then `finish`.
pub struct Progress {
    total: usize,
    start: Instant,
    shown: Option<Instant>,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            start: Instant::now(),
            shown: None,
        }
    }

    /// Shows `done` finished games if it is time to.
    pub fn update(&mut self, done: usize) {
        let now = Instant::now();
        let due = self.shown.map_or(now - self.start >= PROGRESS_EVERY, |t| {
            now - t >= PROGRESS_EVERY
        });
        if !due || done == 0 {
            return;
        }
        let elapsed = (now - self.start).as_secs_f64();
        let eta = elapsed / done as f64 * self.total.saturating_sub(done) as f64;
        // Never `NaN s` or `inf s`: a line without an estimate rather than a wrong one.
        if eta.is_finite() {
            note!("\r{done}/{} games, ETA {eta:.0} s   ", self.total);
        } else {
            note!("\r{done}/{} games   ", self.total);
        }
        self.shown = Some(now);
    }

    /// Ends the line if anything was shown.
    pub fn finish(self) {
        if self.shown.is_some() {
            noteln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_task_order_for_any_thread_count() {
        for threads in [1, 2, 5] {
            let out = run_tasks(50, threads, || Ok(0u64), |_, i| Ok(i * i), |_| {}).unwrap();
            assert_eq!(out, (0..50).map(|i| i * i).collect::<Vec<_>>());
        }
        let none: Vec<u8> = run_tasks(0, 3, || Ok(()), |_, _| Ok(0), |_| {}).unwrap();
        assert!(none.is_empty());
    }

    #[test]
    fn a_failing_task_stops_the_run_with_its_message() {
        let result = run_tasks(
            100,
            2,
            || Ok(()),
            |_, i| {
                if i == 7 {
                    Err("task 7 broke".into())
                } else {
                    Ok(i)
                }
            },
            |_| {},
        );
        assert!(matches!(result, Err(Failure::Job(m)) if m == "task 7 broke"));
    }
}
