//! The `arbor` command-line harness (std only): one subcommand per job.
use std::process::ExitCode;

/// Runs the harness with the given arguments (program name excluded).
pub fn run(args: Vec<String>) -> ExitCode {
    let _ = args;
    ExitCode::SUCCESS
}
