#![cfg(feature = "mpi")]
//! `arbor evolve` and `arbor play breakthrough` under `mpirun`: the games spread over the
//! ranks, the results are those of one process byte for byte (timings aside), the root alone
//! reads and writes the run's files, and a damaged checkpoint ends every rank with a message.
mod common;
#[path = "common/mpi.rs"]
mod mpi;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::arbor;
use mpi::mpirun;

/// A small run: 4 generations of 8 formulas, 3 games of 20 moves at 60 iterations.
const SMALL: [&str; 12] = [
    "--generations",
    "4",
    "--population",
    "8",
    "--games",
    "3",
    "--iterations",
    "60",
    "--seed",
    "11",
    "--progress",
    "off",
];

/// Longer than any of these runs takes; a run still going then is taken for a hang.
const HANG: Duration = Duration::from_secs(180);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-cluster-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `arbor evolve` of the small run into `out`.
fn evolve_args(out: &str) -> Vec<&str> {
    let mut args = vec!["evolve", "--persona", "max-moves", "--threads", "1"];
    args.extend(SMALL);
    args.extend(["--out", out]);
    args
}

/// The run's files and printed lines without the wall-clock ones (`seconds`, `elapsed`, the
/// checkpoint's `checksum`, which covers `elapsed`, and the printed time), with the output
/// directory (part of the recorded command) written `DIR`.
fn results(dir: &Path, stdout: &str) -> Vec<String> {
    let timeless = |text: &str| -> String {
        text.replace(dir.to_str().unwrap(), "DIR")
            .lines()
            .filter(|l| {
                let timing = ["seconds ", "elapsed ", "checksum "]
                    .iter()
                    .any(|key| l.starts_with(key))
                    || l.starts_with("generations ") && l.contains(" time ");
                !timing
            })
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let mut files: Vec<String> = [
        "generations.csv",
        "figure.svg",
        "best.txt",
        "checkpoint.txt",
        "max-moves.persona",
    ]
    .iter()
    .map(|f| timeless(&std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"))))
    .collect();
    files.push(timeless(stdout));
    files
}

/// `mpirun` with the root (rank 0) started in `root_dir` and the `others` ranks in
/// `others_dir`, each running `arbor args`; stopped (SIGTERM, so that mpirun takes its ranks
/// down) after [`HANG`]. Exit code (124 on a hang), stdout, stderr.
fn mpirun_split(
    root_dir: &Path,
    others: usize,
    others_dir: &Path,
    args: &[&str],
) -> (i32, String, String) {
    let arbor = env!("CARGO_BIN_EXE_arbor");
    let mut command = Command::new("timeout");
    command
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .arg(HANG.as_secs().to_string())
        .args(["mpirun", "--oversubscribe", "-np", "1", "-wdir"])
        .arg(root_dir)
        .arg(arbor)
        .args(args)
        .args([":", "-np", &others.to_string(), "-wdir"])
        .arg(others_dir)
        .arg(arbor)
        .args(args);
    let output = command.output().expect("timeout and mpirun run");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn evolution_under_mpirun_gives_the_one_process_files_and_output() {
    let dir = scratch("evolve");
    let one = dir.join("one");
    let (code, out, err) = arbor(&evolve_args(one.to_str().unwrap()));
    assert_eq!(code, 0, "{err}");
    let expected = results(&one, &out);
    assert_eq!(expected[0].lines().count(), 5, "{}", expected[0]);
    for ranks in [3, 4] {
        let many = dir.join(format!("np{ranks}"));
        let (code, out, err) = mpirun(ranks, &evolve_args(many.to_str().unwrap()));
        assert_eq!(code, 0, "{ranks} ranks: {err}");
        let got = results(&many, &out);
        for (file, (want, got)) in expected.iter().zip(&got).enumerate() {
            assert_eq!(got, want, "{ranks} ranks, output {file}");
        }
        // The root alone prints.
        assert_eq!(out.matches("best formula ").count(), 1, "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The other ranks neither read nor write the run's directory: started in another working
/// directory, where the relative `--out` does not exist, they resume a run killed part-way
/// from the root's checkpoint, to the uninterrupted one-process result.
#[test]
fn a_killed_run_resumes_under_mpirun_from_the_roots_checkpoint() {
    let dir = scratch("resume");
    let one = dir.join("one");
    let (code, out, err) = arbor(&evolve_args(one.to_str().unwrap()));
    assert_eq!(code, 0, "{err}");
    let expected = results(&one, &out);

    // One process, killed as soon as the first generation is checkpointed.
    let (root_dir, others_dir) = (dir.join("root"), dir.join("others"));
    std::fs::create_dir_all(&root_dir).unwrap();
    std::fs::create_dir_all(&others_dir).unwrap();
    let run = root_dir.join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(evolve_args(run.to_str().unwrap()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = run.join("checkpoint.txt");
    let start = Instant::now();
    while start.elapsed() < HANG {
        let text = std::fs::read_to_string(&checkpoint).unwrap_or_default();
        if text.contains("\nrow 0 ") || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    let interrupted = std::fs::read_to_string(&checkpoint).expect("a checkpoint");
    // Killed before the last generation: the resumed run has generations left to play.
    assert!(!interrupted.contains("\nrow 3 "), "{interrupted}");

    let (code, out, err) = mpirun_split(&root_dir, 2, &others_dir, &evolve_args("run"));
    assert_eq!(code, 0, "{err}");
    let resumed = results(&run, &out);
    // The directory differs from the one-process run's: compare the recorded command apart.
    let relative = |text: &String| {
        text.replace("--out run", "--out DIR")
            .replace(" run/", " DIR/")
    };
    for (file, (want, got)) in expected.iter().zip(&resumed).enumerate() {
        assert_eq!(relative(got), *want, "output {file}");
    }
    assert!(
        std::fs::read_dir(&others_dir).unwrap().next().is_none(),
        "the other ranks wrote files"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_checkpoint_ends_every_rank_with_a_message() {
    let dir = scratch("damaged");
    let run = dir.join("run");
    let (code, _, err) = arbor(&evolve_args(run.to_str().unwrap()));
    assert_eq!(code, 0, "{err}");
    let path = run.join("checkpoint.txt");
    let good = std::fs::read_to_string(&path).unwrap();
    let damaged = good.replacen("\nindividual ", "\nindividual 1", 1);
    assert_ne!(damaged, good);
    std::fs::write(&path, &damaged).unwrap();
    let others = dir.join("others");
    std::fs::create_dir_all(&others).unwrap();
    let (code, out, err) = mpirun_split(&dir, 2, &others, &evolve_args("run"));
    assert_ne!(code, 0, "{out}{err}");
    assert_ne!(code, 124, "mpirun hung: {err}");
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(!out.contains("best formula"), "{out}");
    // Refused, not overwritten.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `play breakthrough`'s lines apart from the timings (moves per second, time per move).
fn timeless_match(stdout: &str) -> String {
    stdout
        .lines()
        .map(|l| match l.find(" moves, ") {
            Some(at) if l.contains(" ms/move") => l[..at].to_string(),
            _ if l.contains(" moves/s over the match") => String::new(),
            _ => l.to_string(),
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_breakthrough_match_under_mpirun_is_the_one_process_match() {
    let dir = scratch("play");
    let args = |csv: &'static str| {
        vec![
            "play",
            "breakthrough",
            "--size",
            "5x5",
            "--white",
            "mcts:iterations=60",
            "--black",
            "mcts:iterations=30",
            "--games",
            "11",
            "--seed",
            "5",
            "--threads",
            "1",
            "--csv",
            csv,
        ]
    };
    let one = dir.join("one");
    std::fs::create_dir_all(&one).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbor"));
    let output = command
        .current_dir(&one)
        .args(args("games.csv"))
        .output()
        .unwrap();
    assert!(output.status.success());
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(out.contains("A wins "), "{out}");
    let csv = std::fs::read_to_string(one.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 12, "{csv}");
    for ranks in [3, 4] {
        let (root_dir, others_dir) = (dir.join(format!("root{ranks}")), dir.join("others"));
        std::fs::create_dir_all(&root_dir).unwrap();
        std::fs::create_dir_all(&others_dir).unwrap();
        let (code, got, err) = mpirun_split(&root_dir, ranks - 1, &others_dir, &args("games.csv"));
        assert_eq!(code, 0, "{ranks} ranks: {err}");
        assert_eq!(timeless_match(&got), timeless_match(&out), "{ranks} ranks");
        assert!(got.contains(&format!("on each of {ranks} ranks")), "{got}");
        assert_eq!(
            std::fs::read_to_string(root_dir.join("games.csv")).unwrap(),
            csv
        );
        assert!(std::fs::read_dir(&others_dir).unwrap().next().is_none());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Standard output without the lines that start with `time ` (the wall clock).
fn without_time(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| !l.starts_with("time "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn playtest_and_match3_play_under_mpirun_are_the_one_process_runs() {
    let dir = scratch("match3");
    let playtest = |csv: &Path| {
        let csv = csv.to_str().unwrap().to_string();
        let mut args: Vec<String> = [
            "playtest",
            "board3",
            "board1",
            "--games",
            "3",
            "--iterations",
            "20",
            "--seed",
            "2",
            "--threads",
            "1",
            "--csv",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(csv);
        args
    };
    let match3 = |csv: &Path| {
        let csv = csv.to_str().unwrap().to_string();
        let mut args: Vec<String> = [
            "match3",
            "play",
            "--level",
            "board1",
            "--agent",
            "vanilla",
            "--games",
            "7",
            "--iterations",
            "20",
            "--seed",
            "3",
            "--threads",
            "1",
            "--moves-out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(csv);
        args
    };
    for (name, command) in [
        ("playtest", &playtest as &dyn Fn(&Path) -> Vec<String>),
        ("match3", &match3),
    ] {
        let one_csv = dir.join(format!("{name}-one.csv"));
        let args = command(&one_csv);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, one, err) = arbor(&args);
        assert_eq!(code, 0, "{name}: {err}");
        let expected_csv = std::fs::read_to_string(&one_csv).unwrap();
        for ranks in [3, 4] {
            let csv = dir.join(format!("{name}-np{ranks}.csv"));
            let args = command(&csv);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, many, err) = mpirun(ranks, &args);
            assert_eq!(code, 0, "{name}, {ranks} ranks: {err}");
            let renamed = many.replace(csv.to_str().unwrap(), one_csv.to_str().unwrap());
            assert_eq!(
                without_time(&renamed),
                without_time(&one),
                "{name}, {ranks} ranks"
            );
            assert_eq!(
                std::fs::read_to_string(&csv).unwrap(),
                expected_csv,
                "{name}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
