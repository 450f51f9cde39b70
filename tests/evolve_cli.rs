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

/// A finished small run's checkpoint, damaged in each way a file can be (edited by hand,
/// cut short, written by another version, or belonging to other settings), is refused with
/// a message saying which, and left as it was; the intact one finishes as before.
#[test]
fn a_damaged_or_mismatched_checkpoint_is_refused_saying_why() {
    let dir = scratch("damaged");
    let run = |dir: &Path| {
        let mut args = vec!["evolve", "--persona", "max-score", "--threads", "2"];
        args.extend(SMALL);
        args.extend(["--generations", "2", "--out", dir.to_str().unwrap()]);
        // `--generations` given twice would be refused: replace SMALL's.
        let at = args.iter().position(|a| *a == "--generations").unwrap();
        args.drain(at..at + 2);
        arbor(&args)
    };
    let (code, _, err) = run(&dir);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("checkpoint.txt");
    let good = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    let rows: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("row "))
        .collect();
    let people: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("individual "))
        .collect();
    assert_eq!((rows.len(), people.len()), (2, 8), "{good}");
    let joined = |lines: &[&str]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let without = |drop: usize| {
        let mut kept = lines.clone();
        kept.remove(drop);
        joined(&kept)
    };
    let swapped = {
        let mut swapped = lines.clone();
        swapped.swap(people[0], people[1]);
        joined(&swapped)
    };
    let duplicated = {
        let mut more = lines.clone();
        more.insert(people[1], lines[people[1]]);
        joined(&more)
    };
    let doubled = {
        let mut more = lines.clone();
        let at = *people.last().unwrap() + 1;
        for &i in people.iter().rev() {
            more.insert(at, lines[i]);
        }
        joined(&more)
    };
    // Another program: the bytecode of the second individual in the first one's line.
    let other_program = {
        let mut edited = lines.clone();
        let hex = lines[people[1]].rsplit(' ').next().unwrap();
        let first = lines[people[0]];
        let replaced = format!("{} {hex}", &first[..first.rfind(' ').unwrap()]);
        edited[people[0]] = &replaced;
        joined(&edited)
    };
    let renumbered = good.replace("\nrow 1 ", "\nrow 0 ");
    let settings_edited = good.replace(" seed=4 ", " seed=5 ");
    let damages = [
        ("row dropped", without(rows[0]), "checksum mismatch"),
        ("rows renumbered", renumbered, "checksum mismatch"),
        ("individuals swapped", swapped, "checksum mismatch"),
        (
            "individual dropped",
            without(people[3]),
            "checksum mismatch",
        ),
        ("individual duplicated", duplicated, "checksum mismatch"),
        ("another program", other_program, "checksum mismatch"),
        ("population doubled", doubled, "checksum mismatch"),
        ("settings edited", settings_edited, "checksum mismatch"),
        (
            "cut short",
            good[..good.len() / 2].to_owned(),
            "checksum mismatch",
        ),
        (
            "checksum dropped",
            without(lines.len() - 1),
            "checksum mismatch",
        ),
        (
            "format 1",
            good.replace("arbor-evolve-checkpoint 2", "arbor-evolve-checkpoint 1"),
            "wrong version",
        ),
        ("not a checkpoint", "hello\n".to_owned(), "wrong version"),
    ];
    for (what, text, why) in damages {
        assert_ne!(text, good, "{what}");
        std::fs::write(&path, &text).unwrap();
        let (code, out, err) = run(&dir);
        assert_eq!(code, 1, "{what}: {out} {err}");
        assert!(
            err.contains(why) && err.contains("checkpoint.txt"),
            "{what}: {err}"
        );
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{what}");
    }
    // The intact checkpoint of other settings.
    std::fs::write(&path, &good).unwrap();
    let mut args = vec!["evolve", "--persona", "max-score", "--progress", "off"];
    args.extend([
        "--generations",
        "2",
        "--seed",
        "5",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let (code, _, err) = arbor(&args);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("settings differ"), "{err}");
    // And the intact one of these settings: the run is finished, nothing changes.
    let (code, _, err) = run(&dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), good);
    let _ = std::fs::remove_dir_all(&dir);
}
