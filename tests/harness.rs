//! The `arbor` command as a user runs it.
mod common;

use common::arbor;

#[test]
fn hand_prints_rank_category_and_best_five() {
    let (code, out, _) = arbor(&["hand", "As", "Kd", "Qh", "Jc", "Ts", "2c", "3d"]);
    assert_eq!(code, 0);
    assert!(out.contains("rank     5863 of 7462"), "{out}");
    assert!(out.contains("category straight"), "{out}");
    assert!(out.contains("best     As Kd Qh Jc Ts"), "{out}");
}

#[test]
fn hand_without_cards_ranks_the_built_in_example() {
    let (code, out, _) = arbor(&["hand"]);
    assert_eq!(code, 0);
    assert!(out.contains("category"), "{out}");
}

#[test]
fn bad_input_is_a_usage_error() {
    for args in [
        &["hand", "As", "As", "Kd", "Qh", "Jc"][..],
        &["hand", "Xx"],
        &["hand", "As", "Kd"],
        &["nonsense"],
    ] {
        let (code, _, err) = arbor(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("arbor:"), "{err}");
    }
}

#[test]
fn a_closed_stderr_loses_progress_and_errors_but_not_the_result() {
    use std::process::{Command, Stdio};
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the arbor binary runs");
        // The progress bar and error lines go to a reader that is already gone;
        // eprint! would panic with a broken pipe.
        drop(child.stderr.take());
        child.wait_with_output().expect("arbor ends")
    };
    let output = run(&["playtest", "board1", "--games", "2", "--iterations", "20"]);
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?} {out}", output.status);
    assert!(out.contains("ranking, easiest first"), "{out}");
    // A failing command still fails with its own exit code, not a panic's.
    let output = run(&["playtest", "no-such-level"]);
    assert_eq!(output.status.code(), Some(1), "{:?}", output.status);
    let output = run(&["no-such-command"]);
    assert_eq!(output.status.code(), Some(2), "{:?}", output.status);
}

#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    use std::process::{Command, Stdio};
    // The reader is gone before the playtest (some milliseconds of games) prints, as in
    // `arbor playtest | true`; print! would panic with a broken pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["playtest", "board1", "--games", "2", "--iterations", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbor binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("arbor ends");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?} {err}", output.status);
    assert!(!err.contains("panicked"), "{err}");
}
