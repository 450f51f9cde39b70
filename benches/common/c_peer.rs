//! In-run C peers: a measuring tool compiles a peer's C source from `benches/c/` beside its
//! own binary and runs it, so that arbor and the peer are timed in the same run (this
//! machine's speed drifts from day to day; only figures from one run compare).
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags every peer is compiled with: the warnings of the project's other C, and `-O2`.
/// No `-march=native`: arbor is built for the baseline x86-64 too.
pub const CFLAGS: [&str; 6] = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-O2",
];

/// Compiles `benches/c/<name>.c` with gcc, [`CFLAGS`] and `extra` flags into the directory
/// of the running tool; the executable's path, or why it could not be built.
pub fn compile(name: &str, extra: &[&str]) -> Result<PathBuf, String> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/c")
        .join(format!("{name}.c"));
    let dir = std::env::current_exe()
        .map_err(|e| format!("where is this tool: {e}"))?
        .parent()
        .ok_or("this tool has no directory")?
        .to_path_buf();
    let binary = dir.join(name);
    let output = Command::new("gcc")
        .args(CFLAGS)
        .args(extra)
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .output()
        .map_err(|e| format!("cannot run gcc ({e}); the C peers need gcc (apt-get install gcc)"))?;
    if !output.status.success() {
        return Err(format!(
            "gcc failed on {}:\n{}",
            source.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(binary)
}

/// Runs a compiled peer with `args` and returns its standard output, or why it failed.
pub fn run(binary: &Path, args: &[String]) -> Result<String, String> {
    let output = Command::new(binary)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            binary.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| format!("{} wrote non-UTF-8", binary.display()))
}

/// The number after `key` in a line of `key value` pairs.
pub fn field<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    let mut words = line.split_whitespace();
    while let Some(word) = words.next() {
        if word == key {
            return words.next()?.parse().ok();
        }
    }
    None
}
