#![cfg(feature = "mpi")]
//! `arbor go match` and `arbor acpc dealer` under `mpirun -np 3` and `-np 4`: the files and
//! results are those of one process for the same seed, a run resumes from the files of
//! another run (of any number of ranks), and what cannot be distributed is refused clearly.
mod common;
#[path = "common/mpi.rs"]
mod mpi;

use std::fs;
use std::path::{Path, PathBuf};

use common::arbor;
use mpi::mpirun;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "arbor-cluster-matches-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `arbor <args>` in one process (`ranks` 1) or under `mpirun -np <ranks>`.
fn run(ranks: usize, args: &[&str]) -> (i32, String, String) {
    if ranks == 1 {
        arbor(args)
    } else {
        mpirun(ranks, args)
    }
}

// ---- go match -------------------------------------------------------------------------

/// An arbor GTP engine with a few playouts a move; `{game}` seeds it per game.
fn engine(seed: &str) -> String {
    format!(
        "{} gtp go --playouts 50 --seed {seed}",
        env!("CARGO_BIN_EXE_arbor")
    )
}

/// A match of `games` games on 5x5 into `out`, on `ranks` ranks.
fn go_match(ranks: usize, out: &Path, games: usize) -> (i32, String, String) {
    let (black, white) = (engine("{game}"), engine("7"));
    let games = games.to_string();
    run(
        ranks,
        &[
            "go",
            "match",
            "--black",
            &black,
            "--white",
            &white,
            "--games",
            &games,
            "--size",
            "5",
            "--max-moves",
            "30",
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ],
    )
}

/// Everything a match leaves that must not depend on the ranks: its standard output (no
/// timings there: progress and ETAs go to stderr), games.csv (no time columns) and the SGFs.
fn go_files(out: &Path) -> Vec<(String, String)> {
    let mut names: Vec<String> = fs::read_dir(out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let body = text(&out.join(&name));
            (name, body)
        })
        .collect()
}

#[test]
fn a_go_match_over_3_or_4_ranks_is_the_one_process_match() {
    let dir = scratch("go-same");
    let one = dir.join("one");
    let (code, stdout_one, stderr) = go_match(1, &one, 5);
    assert_eq!(code, 0, "{stderr}");
    let files_one = go_files(&one);
    // match.txt, games.csv and 5 SGFs; the games differ from one another (the seeds).
    assert_eq!(files_one.len(), 7, "{files_one:?}");
    assert!(files_one.iter().any(|(name, _)| name == "game-0005.sgf"));
    assert_ne!(files_one[2].1, files_one[3].1);
    assert!(stdout_one.contains("result games 5 "), "{stdout_one}");
    for ranks in [3, 4] {
        let out = dir.join(format!("ranks{ranks}"));
        let (code, stdout, stderr) = go_match(ranks, &out, 5);
        assert_eq!(code, 0, "{ranks} ranks: {stderr}");
        assert_eq!(
            stdout.replace(out.to_str().unwrap(), ""),
            stdout_one.replace(one.to_str().unwrap(), "")
        );
        assert_eq!(go_files(&out), files_one, "{ranks} ranks");
        // The root reports every game, those of the other ranks too.
        for number in 1..=5 {
            assert!(stderr.contains(&format!("game {number}/5: ")), "{stderr}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_go_match_resumes_across_rank_counts() {
    let dir = scratch("go-resume");
    let whole = dir.join("whole");
    assert_eq!(go_match(1, &whole, 5).0, 0);
    // Two games on 4 ranks (fewer games than ranks), then the rest on 3 ranks.
    let parts = dir.join("parts");
    let (code, _, stderr) = go_match(4, &parts, 2);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(text(&parts.join("games.csv")).lines().count(), 3);
    let (code, stdout, stderr) = go_match(3, &parts, 5);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("resuming after 2 games"), "{stdout}");
    assert!(
        !stderr.contains("game 2/5"),
        "game 2 was played again: {stderr}"
    );
    assert_eq!(go_files(&parts), go_files(&whole));
    // Another match's directory is refused on every rank, before any game.
    let (black, white) = (engine("{game}"), engine("8"));
    let (code, _, stderr) = mpirun(
        3,
        &[
            "go",
            "match",
            "--black",
            &black,
            "--white",
            &white,
            "--games",
            "6",
            "--size",
            "5",
            "--max-moves",
            "30",
            "--seed",
            "3",
            "--out",
            parts.to_str().unwrap(),
        ],
    );
    assert_ne!(code, 0);
    assert!(stderr.contains("holds games of another match"), "{stderr}");
    assert_eq!(go_files(&parts), go_files(&whole));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_does_not_start_on_another_rank_fails_the_whole_match() {
    let dir = scratch("go-missing");
    let out = dir.join("m");
    // Every rank's game needs the missing engine B: the root reports the failure (its own,
    // the first in rank order) and every rank stops.
    let (code, _, stderr) = mpirun(
        3,
        &[
            "go",
            "match",
            "--black",
            &engine("{game}"),
            "--white",
            "/nonexistent/engine",
            "--games",
            "3",
            "--size",
            "5",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("cannot start --white engine '/nonexistent/engine'"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // No game was finished, so none was recorded.
    assert!(!out.join("games.csv").exists());
    let _ = fs::remove_dir_all(&dir);
}

// ---- acpc dealer ----------------------------------------------------------------------

/// A duplicate match of `hands` hands a half between the expert (which keeps statistics on
/// its opponent, so its play depends on the hands before) and a cheap equity bot.
fn dealer(ranks: usize, dir: &Path, hands: u64, extra: &[&str]) -> (i32, String, String) {
    let hands = hands.to_string();
    let (csv, log) = (dir.join("m.csv"), dir.join("m.log"));
    let mut args = vec![
        "acpc",
        "dealer",
        "--progress",
        "off",
        "--bot0",
        "expert",
        "--bot1",
        "equity:samples=30",
        "--hands",
        &hands,
        "--seed",
        "5",
        "--duplicate",
        "on",
        "--csv",
        csv.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(ranks, &args)
}

/// What must not depend on the ranks: the SCORE and result lines, the CSV without its two
/// latency columns, and both logs.
fn dealer_results(dir: &Path, stdout: &str) -> (Vec<String>, Vec<String>, String, String) {
    let lines = stdout
        .lines()
        .filter(|l| l.starts_with("SCORE:") || l.starts_with("result "))
        .map(str::to_owned)
        .collect();
    let csv = text(&dir.join("m.csv"))
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.splitn(10, ',').collect();
            if fields.len() == 10 {
                [&fields[..7], &fields[9..]].concat().join(",")
            } else {
                line.to_owned()
            }
        })
        .collect();
    (
        lines,
        csv,
        text(&dir.join("m.log")),
        text(&dir.join("m.swapped.log")),
    )
}

#[test]
fn a_dealer_match_over_3_or_4_ranks_is_the_one_process_match() {
    let root = scratch("dealer-same");
    for extra in [&["--reset-every", "40"][..], &[][..]] {
        let one = root.join(format!("one{}", extra.len()));
        fs::create_dir_all(&one).unwrap();
        let (code, stdout, stderr) = dealer(1, &one, 200, extra);
        assert_eq!(code, 0, "{stderr}");
        let expected = dealer_results(&one, &stdout);
        assert_eq!(expected.0.len(), 4, "{stdout}");
        assert_eq!(expected.1.len(), 2 + 400);
        for ranks in [3, 4] {
            let dir = root.join(format!("r{ranks}-{}", extra.len()));
            fs::create_dir_all(&dir).unwrap();
            let (code, stdout, stderr) = dealer(ranks, &dir, 200, extra);
            assert_eq!(code, 0, "{extra:?} {ranks} ranks: {stderr}");
            assert_eq!(
                dealer_results(&dir, &stdout),
                expected,
                "{extra:?} {ranks} ranks"
            );
        }
    }
    // Resetting the players is a different match: the expert forgets what it learnt.
    let reset = text(&root.join("one2").join("m.log"));
    let kept = text(&root.join("one0").join("m.log"));
    assert_ne!(reset, kept);
    let _ = fs::remove_dir_all(&root);
}

/// Keeps the settings, the column line and the first `rows` hands of `dir`'s CSV.
fn cut_csv(dir: &Path, rows: usize) {
    let path = dir.join("m.csv");
    let kept: Vec<String> = text(&path)
        .lines()
        .take(2 + rows)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&path, kept.concat()).unwrap();
}

#[test]
fn a_dealer_match_resumes_from_the_csv_on_any_number_of_ranks() {
    let root = scratch("dealer-resume");
    let reset = ["--reset-every", "40"];
    let whole = root.join("whole");
    fs::create_dir_all(&whole).unwrap();
    let (code, stdout, stderr) = dealer(1, &whole, 200, &reset);
    assert_eq!(code, 0, "{stderr}");
    let expected = dealer_results(&whole, &stdout);
    // Cut at a block boundary (hand 80 of the first half): the resumed match is the whole
    // match, whether one process or four finish it.
    for ranks in [1, 4] {
        let dir = root.join(format!("boundary{ranks}"));
        fs::create_dir_all(&dir).unwrap();
        fs::copy(whole.join("m.csv"), dir.join("m.csv")).unwrap();
        cut_csv(&dir, 80);
        let (code, stdout, stderr) = dealer(ranks, &dir, 200, &reset);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("resuming after 80 hands"), "{stderr}");
        assert_eq!(dealer_results(&dir, &stdout), expected, "{ranks} ranks");
    }
    // Cut inside a block (hand 250: hand 50 of the second half): the players restart there,
    // in one process as on three ranks, so both finish the same way.
    let mut resumed = Vec::new();
    for ranks in [1, 3] {
        let dir = root.join(format!("inside{ranks}"));
        fs::create_dir_all(&dir).unwrap();
        fs::copy(whole.join("m.csv"), dir.join("m.csv")).unwrap();
        cut_csv(&dir, 250);
        let (code, stdout, stderr) = dealer(ranks, &dir, 200, &reset);
        assert_eq!(code, 0, "{stderr}");
        resumed.push(dealer_results(&dir, &stdout));
    }
    assert_eq!(resumed[0], resumed[1]);
    // The CSV of another match (no --reset-every) is refused on every rank.
    let (code, _, stderr) = dealer(3, &whole, 200, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("holds another match"), "{stderr}");
    let _ = fs::remove_dir_all(&root);
}

#[test]
fn client_seats_start_on_every_rank_and_port_seats_are_refused() {
    let dir = scratch("dealer-seats");
    let exe = env!("CARGO_BIN_EXE_arbor");
    let client = format!("cmd:{exe} acpc play --port {{port}} --bot random:seed=5");
    let logs: Vec<String> = [client.as_str(), "random:seed=5"]
        .iter()
        .map(|bot0| {
            let log = dir.join("m.log");
            let (code, _, stderr) = mpirun(
                3,
                &[
                    "acpc",
                    "dealer",
                    "--progress",
                    "off",
                    "--bot0",
                    bot0,
                    "--name0",
                    "random",
                    "--bot1",
                    "call",
                    "--hands",
                    "60",
                    "--reset-every",
                    "20",
                    "--seed",
                    "2",
                    "--log",
                    log.to_str().unwrap(),
                    "--action-ms",
                    "20000",
                ],
            );
            assert_eq!(code, 0, "{bot0}: {stderr}");
            assert!(!stderr.contains("WARNING"), "{stderr}");
            text(&log)
        })
        .collect();
    assert_eq!(logs[0], logs[1]);
    assert_eq!(
        logs[0].lines().filter(|l| l.starts_with("STATE:")).count(),
        60
    );
    // One port cannot serve several ranks; nor can a client that connects once be restarted.
    let (code, _, stderr) = mpirun(
        3,
        &[
            "acpc", "dealer", "--bot0", "port", "--bot1", "call", "--hands", "10",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("a `port` seat waits for one client"),
        "{stderr}"
    );
    let (code, _, stderr) = arbor(&[
        "acpc",
        "dealer",
        "--bot0",
        "call",
        "--bot1",
        "port",
        "--hands",
        "10",
        "--reset-every",
        "5",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--reset-every restarts the players"),
        "{stderr}"
    );
    let _ = fs::remove_dir_all(&dir);
}
