//! The `arbor perft breakthrough` and `arbor play breakthrough` commands, run as a user would.
mod common;

use common::arbor;

#[test]
fn perft_prints_one_line_per_depth() {
    let (code, out, _) = arbor(&["perft", "breakthrough", "--size", "6x5", "--depth", "5"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "depth 1 nodes 16\ndepth 2 nodes 240\ndepth 3 nodes 3666\ndepth 4 nodes 54448\ndepth 5 nodes 839494\n"
    );
    let (code, out, _) = arbor(&[
        "perft",
        "breakthrough",
        "--position",
        "BBBBB/BBBBB/...../WWWWW/WWWWW w",
        "--depth",
        "3",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "depth 1 nodes 13\ndepth 2 nodes 156\ndepth 3 nodes 1924\n"
    );
    for bad in [
        &["perft", "chess"][..],
        &["perft", "breakthrough", "--size", "9x9"],
        &["perft", "breakthrough", "--position", "BB/.. w"],
        &[
            "perft",
            "breakthrough",
            "--size",
            "6x5",
            "--position",
            "BBBBB/BBBBB/...../WWWWW/WWWWW w",
        ],
    ] {
        let (code, _, err) = arbor(bad);
        assert!(code != 0 && err.contains("arbor:"), "{bad:?}: {err}");
    }
}

/// The report without its timing lines, which vary from run to run.
fn results_only(out: &str) -> String {
    out.lines()
        .filter(|line| !line.contains("/s") && !line.contains("threads"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn play_reports_a_match_independent_of_the_thread_count() {
    let run = |threads: &str| {
        let (code, out, err) = arbor(&[
            "play",
            "breakthrough",
            "--size",
            "5x5",
            "--white",
            "mcts:iterations=100",
            "--black",
            "random",
            "--games",
            "12",
            "--seed",
            "3",
            "--threads",
            threads,
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run("1");
    let three = run("3");
    assert!(one.contains("A wins "), "{one}");
    assert!(one.contains("95% Wilson interval"), "{one}");
    assert!(one.contains("moves/s"), "{one}");
    assert_eq!(results_only(&one), results_only(&three));
    // UCT at 100 iterations beats random on 5x5 in nearly every game.
    let wins: u32 = one
        .lines()
        .find_map(|line| line.strip_prefix("A wins "))
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .expect("a wins count");
    assert!(wins >= 10, "{one}");
    let (code, _, err) = arbor(&["play", "breakthrough", "--white", "minimax"]);
    assert!(code != 0 && err.contains("minimax"), "{err}");
}

#[test]
fn play_searches_on_several_threads_and_validates_the_count() {
    let run = |extra: &[&str], threads: &str| {
        let mut args = vec![
            "play",
            "breakthrough",
            "--size",
            "5x5",
            "--white",
            "mcts:iterations=60,threads=2",
            "--black",
            "mcts:iterations=60",
            "--games",
            "6",
            "--seed",
            "4",
            "--threads",
            threads,
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = arbor(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run(&[], "1");
    assert!(one.contains("over 2 search threads"), "{one}");
    assert!(one.contains("over 1 search threads"), "{one}");
    // Root-parallel games are as reproducible as serial ones, whatever `--threads` says.
    assert_eq!(results_only(&one), results_only(&run(&[], "2")));
    // `--search-threads` applies to both players unless a spec says otherwise.
    let both = run(&["--search-threads", "3"], "1");
    assert!(both.contains("over 2 search threads"), "{both}");
    assert!(both.contains("over 3 search threads"), "{both}");
    assert!(!both.contains("over 1 search threads"), "{both}");

    for bad in [
        &["--search-threads", "0"][..],
        &["--search-threads", "65"],
        &["--search-threads", "two"],
        &["--search-threads", "-1"],
        &["--white", "mcts:threads=0"],
        &["--black", "rave:iterations=10,threads=100000"],
    ] {
        let mut args = vec!["play", "breakthrough", "--games", "1"];
        args.extend_from_slice(bad);
        let (code, _, err) = arbor(&args);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.contains("threads"), "{bad:?}: {err}");
    }
}
