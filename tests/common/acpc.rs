//! Helpers of the ACPC dealer tests (`tests/acpc_dealer.rs`, `tests/acpc_reference.rs`):
//! scratch directories, the dealer run to its end or started with seats awaiting clients.
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

use super::arbor;

/// A fresh directory for the test `name` of this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-acpc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The file's text, or a panic naming it.
pub fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `arbor acpc dealer --progress off <args>` to its end.
pub fn dealer(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["acpc", "dealer", "--progress", "off"];
    all.extend_from_slice(args);
    arbor(&all)
}

/// Starts `arbor acpc dealer --progress off <args>` (with `port` seats, whose clients the
/// caller connects); returns it, the words of its port line read as ports (0 for a seat
/// without one) and its standard output after that line.
pub fn dealer_awaiting(args: &[&str]) -> (Child, Vec<u16>, BufReader<ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["acpc", "dealer", "--progress", "off"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let ports = line
        .split_whitespace()
        .map(|word| word.parse().unwrap_or(0))
        .collect();
    (child, ports, stdout)
}

/// Waits for a dealer started by [`dealer_awaiting`]: exit code, the rest of its standard
/// output, its standard error.
pub fn finish(child: Child, mut stdout: BufReader<ChildStdout>) -> (i32, String, String) {
    let mut out = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        out,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
