//! The `arbor` command-line harness (std only): one subcommand per job. Each subcommand
//! lives in its own file; this one only dispatches and prints usage.
use std::process::ExitCode;

mod args;
mod hand;
mod ppn2;
mod solve;

pub use args::Args;

const USAGE: &str = "\
usage: arbor <command> [options]

commands:
  hand [CARD...]    rank the best five of 5, 6 or 7 cards (e.g. As Kd Qh Jc Ts 2c 3d);
                    with no cards, ranks a built-in example hand
  solve breakthrough [--size 5x5] [--position TEXT] [--algo pns|pn2|ppn2|dfpn] [--job 1000]
                    [--threads N] [--partial 100 (0: none)] [--memory 1G]
                    [--mobility on|off] [--budget EXPANSIONS] [--epsilon 1]
                    prove who wins; ends with `result <first|second> time <s> expanded <n>`
  help              print this text
";

/// Runs the harness with the given arguments (program name excluded) and returns the
/// process exit code: 0 on success, 2 on a usage error, 1 when the job itself failed.
pub fn run(args: Vec<String>) -> ExitCode {
    let mut args = Args::new(args);
    let result = match args.next_positional().as_deref() {
        Some("hand") => hand::run(args),
        Some("solve") => solve::run(args),
        None | Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(Failure::Usage(format!("unknown command '{other}'"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("arbor: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Job(message)) => {
            eprintln!("arbor: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum Failure {
    /// The command line was wrong: the message says how.
    Usage(String),
    /// The job could not be done: the message says why.
    Job(String),
}
