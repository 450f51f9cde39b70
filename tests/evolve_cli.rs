//! `arbor evolve` as a user runs it: a run killed part-way and started again with the same
//! command ends with exactly the files of an uninterrupted run, on any thread count.
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arbor::match3::{Goal, Persona};
use common::arbor;

/// A small run: 6 generations of 8 formulas, 3 games of 20 moves at 30 iterations.
const SMALL: [&str; 12] = [
    "--generations",
    "6",
    "--population",
    "8",
    "--games",
    "3",
    "--iterations",
    "30",
    "--seed",
    "4",
    "--progress",
    "off",
];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-evolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn evolve(persona: &str, out: &Path, threads: &str) -> (i32, String, String) {
    let mut args = vec!["evolve", "--persona", persona, "--threads", threads];
    args.extend(SMALL);
    args.extend(["--out", out.to_str().unwrap()]);
    arbor(&args)
}

/// The run's outputs, without the wall-clock lines (`seconds`, `elapsed`, and the checkpoint's
/// `checksum`, which covers `elapsed`) and with the
/// output directory (part of the recorded command) replaced by `DIR`.
fn results(dir: &Path, persona: &str) -> Vec<String> {
    let timeless = |text: String| -> String {
        text.replace(dir.to_str().unwrap(), "DIR")
            .lines()
            .filter(|l| {
                !l.starts_with("seconds ")
                    && !l.starts_with("elapsed ")
                    && !l.starts_with("checksum ")
            })
            .map(|l| format!("{l}\n"))
            .collect()
    };
    [
        "generations.csv",
        "figure.svg",
        "best.txt",
        "checkpoint.txt",
    ]
    .iter()
    .map(|f| f.to_string())
    .chain([format!("{persona}.persona")])
    .map(|f| timeless(std::fs::read_to_string(dir.join(&f)).unwrap_or_else(|e| panic!("{f}: {e}"))))
    .collect()
}

#[test]
fn a_killed_run_resumes_to_the_uninterrupted_result() {
    let whole = scratch("whole");
    let (code, out, err) = evolve("min-score", &whole, "2");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("persona MinS") && out.contains("best formula "),
        "{out}"
    );
    let expected = results(&whole, "min-score");
    let csv = &expected[0];
    assert_eq!(csv.lines().count(), 7, "{csv}");
    assert!(csv.starts_with(
        "generation,min,median,max,mean,vanilla_mean,random_mean,target,best_formula\n"
    ));
    // The persona file loads as a persona of its goal, with the printed best formula.
    let persona = Persona::parse(&expected[4]).unwrap();
    assert_eq!(persona.goal, Goal::MinScore);
    assert!(
        out.contains(&format!("prefix {}\n", persona.program)),
        "{out}"
    );

    // Killed as soon as the first generation is checkpointed, then started again.
    let resumed = scratch("resumed");
    let mut args: Vec<String> = ["evolve", "--persona", "min-score", "--threads", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(SMALL.iter().map(|s| s.to_string()));
    args.extend(["--out".to_string(), resumed.to_str().unwrap().to_string()]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let checkpoint = resumed.join("checkpoint.txt");
    let start = Instant::now();
    let mut killed_early = false;
    while start.elapsed() < Duration::from_secs(120) {
        if let Ok(text) = std::fs::read_to_string(&checkpoint) {
            if text.contains("\nrow 0 ") {
                killed_early = !text.contains("\nrow 5 ");
                break;
            }
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    let (code, _, err) = evolve("min-score", &resumed, "1");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        results(&resumed, "min-score"),
        expected,
        "killed early: {killed_early}"
    );
    // Running the finished command again changes nothing.
    let (code, _, _) = evolve("min-score", &resumed, "2");
    assert_eq!(code, 0);
    assert_eq!(results(&resumed, "min-score"), expected);
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&resumed);
}

#[test]
fn a_checkpoint_of_other_settings_is_refused() {
    let dir = scratch("other");
    let (code, _, err) = evolve("max-moves", &dir, "2");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = evolve("min-moves", &dir, "2");
    assert_eq!(code, 1);
    assert!(err.contains("settings differ"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        vec!["evolve"],
        vec!["evolve", "--persona", "max-fun"],
        vec!["evolve", "--persona", "max-score", "--population", "1"],
        vec![
            "evolve",
            "--persona",
            "max-score",
            "--goal-strategy",
            "maybe",
        ],
        vec!["evolve", "--persona", "max-score", "--games", "0"],
    ] {
        let (code, _, err) = arbor(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}
