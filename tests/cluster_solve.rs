#![cfg(feature = "mpi")]
//! `mpirun -np K arbor solve breakthrough --algo ppn2 --distributed`: on small boards the
//! server and its K-1 client ranks reach the outcome and the winning move of the
//! one-process parallel PN² and df-pn runs, and the misuses of `--distributed` are clear
//! usage errors.
mod common;
#[path = "common/mpi.rs"]
mod mpi;

use common::arbor;
use mpi::mpirun;

/// The answer of a solve: the `result` word, the winning move (if any), and how many
/// clients the run had (if distributed).
fn answer(code: i32, out: &str, err: &str) -> (String, Option<String>, Option<String>) {
    assert_eq!(code, 0, "{out}\n{err}");
    let last = out.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"result"), "{out}");
    let best = out
        .lines()
        .find_map(|line| line.strip_prefix("winning move "))
        .map(str::to_string);
    let clients = out
        .lines()
        .find_map(|line| line.strip_prefix("clients "))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string);
    (words[1].to_string(), best, clients)
}

fn solve_args<'a>(board: &'a [&'a str], algo: &'a str) -> Vec<&'a str> {
    let mut args = vec!["solve", "breakthrough", "--memory", "256M", "--algo", algo];
    args.extend_from_slice(board);
    args
}

#[test]
fn ranks_agree_with_one_process_on_small_boards() {
    let boards: [&[&str]; 3] = [
        &["--size", "4x5"],
        &["--size", "5x4"],
        // A 4x5 position after one White move: Black to move wins, so there is a move.
        &["--position", "BBBB/BBBB/W.../.WWW/WWWW b"],
    ];
    for board in boards {
        let (code, out, err) = arbor(&solve_args(board, "ppn2"));
        let (word, best, _) = answer(code, &out, &err);
        let (code, out, err) = arbor(&solve_args(board, "dfpn"));
        assert_eq!(answer(code, &out, &err), (word.clone(), best.clone(), None));
        for ranks in [3, 4] {
            let mut args = solve_args(board, "ppn2");
            args.push("--distributed");
            let (code, out, err) = mpirun(ranks, &args);
            let (distributed_word, distributed_best, clients) = answer(code, &out, &err);
            assert_eq!(
                (distributed_word, distributed_best),
                (word.clone(), best.clone()),
                "{board:?} on {ranks} ranks:\n{out}"
            );
            assert_eq!(clients, Some((ranks - 1).to_string()));
            assert!(out.contains(" jobs "), "{out}");
            // Only the root prints: one header, one result.
            assert_eq!(out.matches("position ").count(), 1, "{out}");
        }
    }
}

/// Two 5x4 positions with two winning moves each (c4xb3 then a4xb3 in move order; e4xd3
/// then c4xd3): before the settling, the move reported depended on the number of clients
/// (5 ranks gave c4xb3 where 2 to 4 gave a4xb3). Every rank count, and one process with
/// any number of threads, now reports the first winning move in move order.
#[test]
fn every_rank_count_reports_the_first_winning_move() {
    for (position, first) in [
        ("BBBBB/BWBBB/WW.WW/WWWWW b", "c4xb3"),
        ("BBBBB/BBBWB/WW.WW/WWWWW b", "e4xd3"),
    ] {
        let board = ["--position", position];
        for threads in ["1", "3"] {
            let mut args = solve_args(&board, "ppn2");
            args.extend_from_slice(&["--threads", threads]);
            let (code, out, err) = arbor(&args);
            let (word, best, _) = answer(code, &out, &err);
            assert_eq!((word.as_str(), best.as_deref()), ("first", Some(first)));
            assert!(
                out.contains("the first winning move in move order"),
                "{out}"
            );
        }
        for ranks in 2..=5 {
            let mut args = solve_args(&board, "ppn2");
            args.push("--distributed");
            let (code, out, err) = mpirun(ranks, &args);
            let (word, best, _) = answer(code, &out, &err);
            assert_eq!(
                (word.as_str(), best.as_deref()),
                ("first", Some(first)),
                "{position} on {ranks} ranks:\n{out}"
            );
            assert!(
                out.contains("the first winning move in move order"),
                "{out}"
            );
        }
    }
}

#[test]
fn misuses_of_distributed_are_usage_errors() {
    let board = ["--size", "4x5"];
    let mut with_dfpn = solve_args(&board, "dfpn");
    with_dfpn.push("--distributed");
    let (code, _, err) = mpirun(3, &with_dfpn);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("only with --algo ppn2"), "{err}");

    let (code, _, err) = mpirun(3, &solve_args(&board, "ppn2"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("add --distributed"), "{err}");

    let mut alone = solve_args(&board, "ppn2");
    alone.push("--distributed");
    for (code, err) in [
        {
            let (code, _, err) = mpirun(1, &alone);
            (code, err)
        },
        {
            let (code, _, err) = arbor(&alone);
            (code, err)
        },
    ] {
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("start it with mpirun -np K (K ≥ 2)"), "{err}");
    }

    let mut threads = alone.clone();
    threads.extend_from_slice(&["--threads", "2"]);
    let (code, _, err) = mpirun(3, &threads);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("leave out --threads"), "{err}");

    let mut times_alone = solve_args(&board, "ppn2");
    times_alone.extend_from_slice(&["--job-times", "/tmp/never-written.csv"]);
    let (code, _, err) = arbor(&times_alone);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("only with --distributed"), "{err}");

    // A command that does not spread its work refuses more than one rank; the message comes
    // once, from the root, although every rank meets the same error.
    let (code, out, err) = mpirun(3, &["hand"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.matches("runs in one process").count(), 1, "{err}");
}

#[test]
fn job_times_are_written_by_the_root() {
    let dir = std::env::temp_dir().join(format!("arbor-cluster-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("times.csv");
    let file_text = file.to_str().unwrap();
    let mut args = solve_args(&["--size", "5x4"], "ppn2");
    args.extend_from_slice(&["--distributed", "--job-times", file_text]);
    let (code, out, err) = mpirun(3, &args);
    answer(code, &out, &err);
    let text = std::fs::read_to_string(&file).unwrap();
    let jobs: Vec<&str> = text.lines().filter(|l| l.starts_with("job,")).collect();
    let line = out
        .lines()
        .find(|l| l.starts_with("clients 2  jobs"))
        .unwrap();
    let reported: usize = line.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert_eq!(jobs.len(), reported, "{line}\n{text}");
    assert!(text.starts_with("kind,micros\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
