//! Parallel PN² with one worker is deterministic: these figures were recorded on main
//! before the server and the worker were made to talk through transport traits (so that
//! MPI could carry their messages), and must not move. (Re-recorded once since, on
//! 2026-11-28, when Breakthrough's disproof estimate changed the initial numbers; the
//! transports had kept the earlier figures.) They are the proof's: the settling
//! of the winning move after it (the first in move order, whatever the solver and its
//! threads) counts apart.
use arbor::breakthrough::{Position, Size};
use arbor::search::proof::Outcome;
use arbor::search::proof::run::{Algorithm, SolveOptions};

/// The start position of a board, after its `nth` legal move when given (the opponent then
/// moves and wins, so the run has a winning move to report).
fn position(columns: u8, rows: u8, nth: Option<usize>) -> Position {
    let mut root = Position::start(Size::new_checked(columns, rows).unwrap());
    if let Some(nth) = nth {
        let mut moves = Default::default();
        root.legal_moves(&mut moves);
        let moves: &[_] = AsRef::as_ref(&moves);
        root.play(moves[nth]);
    }
    root
}

fn one_worker(root: Position, patterns: bool, job: u64, partial: u64) -> String {
    let options = SolveOptions {
        memory_bytes: 64 << 20,
        mobility: true,
        max_expansions: u64::MAX,
    };
    let algorithm = Algorithm::Ppn2 {
        threads: 1,
        job,
        partial,
    };
    let solution = root
        .solve_with_budget(patterns, algorithm, options, &mut |_| {})
        .unwrap();
    let stats = solution.stats;
    let outcome = match solution.outcome {
        Outcome::Win => "win",
        Outcome::Loss => "loss",
        Outcome::Unknown => "unknown",
    };
    let best = solution
        .winning_move
        .map_or_else(|| "-".to_string(), |mv| mv.to_string());
    format!(
        "{root} patterns {patterns} job {job} partial {partial}: {outcome} {best} \
         expanded {} touched {} peak {} collections {}",
        stats.expanded, stats.touched, stats.peak_used, stats.collections
    )
}

#[test]
fn one_worker_figures_are_those_recorded_before_the_transports() {
    let runs = [
        one_worker(position(4, 4, None), false, 1000, 100),
        one_worker(position(5, 4, None), false, 1000, 100),
        one_worker(position(3, 5, None), false, 50, 10),
        one_worker(position(4, 5, None), false, 1000, 100),
        one_worker(position(4, 5, None), true, 200, 0),
        one_worker(position(4, 5, Some(0)), false, 300, 30),
        one_worker(position(4, 5, Some(3)), true, 1000, 100),
        one_worker(position(5, 4, Some(2)), false, 100, 7),
    ];
    let recorded = [
        "BBBB/BBBB/WWWW/WWWW w patterns false job 1000 partial 100: loss - expanded 1 touched 16965 peak 7 collections 0",
        "BBBBB/BBBBB/WWWWW/WWWWW w patterns false job 1000 partial 100: loss - expanded 23 touched 350590 peak 137 collections 0",
        "BBB/BBB/.../WWW/WWW w patterns false job 50 partial 10: loss - expanded 636 touched 205810 peak 3792 collections 0",
        "BBBB/BBBB/..../WWWW/WWWW w patterns false job 1000 partial 100: loss - expanded 1351 touched 11708769 peak 11568 collections 0",
        "BBBB/BBBB/..../WWWW/WWWW w patterns true job 200 partial 0: loss - expanded 4081 touched 7218715 peak 33621 collections 0",
        "BBBB/BBBB/W.../.WWW/WWWW b patterns false job 300 partial 30: win b4xa3 expanded 742 touched 1893287 peak 6211 collections 0",
        "BBBB/BBBB/...W/WWW./WWWW b patterns true job 1000 partial 100: win c4xd3 expanded 121 touched 1026527 peak 992 collections 0",
        "BBBBB/BBWBB/WWW.W/WWWWW b patterns false job 100 partial 7: win d4xc3 expanded 56 touched 48076 peak 336 collections 0",
    ];
    assert_eq!(runs, recorded);
}

/// Two 5x4 positions after one White move, each with two winning moves for Black: after
/// c2xb3, c4xb3 then a4xb3 in move order; after c2xd3, e4xd3 then c4xd3. Before the
/// settling, one worker reported a4xb3 on the first (the one it proved first), three and
/// four workers c4xb3, and four workers sometimes c4xd3 on the second. Now every solver,
/// with any number of threads, reports the first winning move in move order.
#[test]
fn every_solver_and_thread_count_reports_the_first_winning_move() {
    let options = SolveOptions {
        memory_bytes: 64 << 20,
        mobility: true,
        max_expansions: u64::MAX,
    };
    for (text, first, one_worker_leaves_it_open) in [
        ("BBBBB/BWBBB/WW.WW/WWWWW b", "c4xb3", true),
        ("BBBBB/BBBWB/WW.WW/WWWWW b", "e4xd3", false),
    ] {
        let root: Position = text.parse().unwrap();
        let mut algorithms = vec![
            Algorithm::Pns,
            Algorithm::Pn2 { job: 100 },
            Algorithm::Dfpn { epsilon_1024: 1024 },
            Algorithm::ParallelDfpn {
                threads: 2,
                epsilon_1024: 1024,
            },
        ];
        for threads in 1..=4 {
            algorithms.push(Algorithm::Ppn2 {
                threads,
                job: 1000,
                partial: 100,
            });
        }
        for algorithm in algorithms {
            for patterns in [false, true] {
                let solution = root
                    .solve_with_budget(patterns, algorithm, options, &mut |_| {})
                    .unwrap();
                let best = solution.winning_move.map(|mv| mv.to_string());
                let context = format!("{text} {algorithm:?} patterns {patterns}");
                assert_eq!(solution.outcome, Outcome::Win, "{context}");
                assert_eq!(best.as_deref(), Some(first), "{context}");
                assert!(solution.settling.first, "{context}");
            }
        }
        // The case the settling is for: one worker's proof leaves the first winning move
        // open, and the settling solves it.
        let one = root
            .solve_with_budget(
                false,
                Algorithm::Ppn2 {
                    threads: 1,
                    job: 1000,
                    partial: 100,
                },
                options,
                &mut |_| {},
            )
            .unwrap();
        assert_eq!(
            one.settling.settled > 0,
            one_worker_leaves_it_open,
            "{text}: {:?}",
            one.settling
        );
    }
}
