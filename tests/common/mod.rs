//! Runs the `arbor` command as a user would, for the command-line tests.
use std::process::Command;

/// Exit code (-1 if killed by a signal), standard output and standard error.
pub fn arbor(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .output()
        .expect("the arbor binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
