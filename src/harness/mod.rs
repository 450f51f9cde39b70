//! The `arbor` command-line harness (std only): one subcommand per job. Each subcommand
//! lives in its own file; this one only dispatches and prints usage.
use std::process::ExitCode;

/// `print!` for the harness: when stdout is closed (`arbor playtest | head -3`), the process
/// ends quietly, with success, where `print!` would panic.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::harness::write_stdout(format_args!($($arg)*))
    };
}

/// `eprint!` for the harness: progress and error lines are lost, not a panic, when stderr is
/// closed (`arbor … 2>&-`, or a reader that went away).
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::harness::write_stderr(format_args!($($arg)*))
    };
}

/// `eprintln!` with [`note!`]'s handling of a closed stderr.
macro_rules! noteln {
    () => {
        note!("\n")
    };
    ($($arg:tt)*) => {
        note!("{}\n", format_args!($($arg)*))
    };
}

/// `println!` with [`out!`]'s handling of a closed stdout.
macro_rules! outln {
    () => {
        out!("\n")
    };
    ($($arg:tt)*) => {
        out!("{}\n", format_args!($($arg)*))
    };
}

mod agent_storage;
mod args;
pub mod evolve;
mod hand;
mod match3;
mod parallel;
mod perft;
mod play;
mod playtest;
mod solve;

pub use args::Args;

const USAGE: &str = "\
usage: arbor <command> [options]

commands:
  hand [CARD...]    rank the best five of 5, 6 or 7 cards (e.g. As Kd Qh Jc Ts 2c 3d);
                    with no cards, ranks a built-in example hand
  perft breakthrough [--size CxR] [--depth D] [--position TEXT]
                    count the positions after 1..D plies (default 8x8, depth 5), one
                    line per depth: depth <d> nodes <n>
  play breakthrough [--size CxR] [--white SPEC] [--black SPEC] [--games N]
                    [--seed S] [--threads T] [--search-threads N] [--csv FILE]
                    play a match, colours alternating each game (game 0: --white
                    plays White); report wins, draws and losses of the --white player,
                    the win rate with a 95% interval, and moves per second.
                    SPEC: random | mcts:iterations=N | rave:iterations=N |
                    mogo:iterations=N, with optional ,c=X ,c1=X ,c2=X (policy
                    constants) ,solver=0 ,threads=N (root-parallel search threads,
                    1..=64; --search-threads sets it for both players)
                    (default: mcts:iterations=1000 vs random)
  match3 play [--level FILE|board1|board2|board3] [--agent random|vanilla|persona:FILE]
              [--games 50] [--seed 1] [--iterations 250] [--goal MaxS|MinS|MaxM|MinM]
              [--colours N] [--moves N] [--refills known|sampled] [--threads N]
              [--moves-out FILE.csv]
                    play games of a Match-3 level; print mean/min/max score and the
                    average available moves (a persona file holds `goal MaxS` and
                    `formula add(div(W, N), ...)`)
  match3 replay --level FILE|NAME --moves \"d4-d5,c3-c4,...\" [--seed CHANCE_SEED]
                    replay moves: `move <i> points <p> combos <c> score <s>` per move
  match3 calibrate [--games 1000] [--seed 1]
                    Random agent's mean score for 4 to 8 colours (README table)
  playtest [LEVEL...] [--games 50] [--seed 1] [--iterations 250] [--threads N]
           [--csv FILE] [--personas DIR]
                    the paper's Table II per level (files or board1/board2/board3;
                    default: all three presets): the MaxS, MinS, MaxM, MinM personas,
                    Vanilla MCTS and Random play the same games; prints mean/min/max
                    score and mean available moves per agent, a difficulty summary,
                    and the levels ranked easiest first by Vanilla mean score (ties
                    by MaxS). --personas DIR reads DIR/{max-score,min-score,
                    max-moves,min-moves}.persona instead of the bundled ones
  solve breakthrough [--size 5x5] [--position TEXT] [--algo pns|pn2|ppn2|dfpn|pdfpn]
                    [--job 1000] [--threads N (ppn2, pdfpn)] [--partial 100 (0: none)] [--memory 1G]
                    [--mobility on|off] [--budget EXPANSIONS] [--epsilon 1]
                    prove who wins; ends with `result <first|second> time <s> expanded <n>`
  evolve --persona max-score|min-score|max-moves|min-moves [--generations 100]
         [--population 100] [--games 50] [--moves 20] [--iterations 250] [--seed 1]
         [--goal-strategy on|off] [--threads N] [--out DIR] [--progress on|off]
                    evolve a persona's selection formula (paper defaults); checkpoints
                    each generation in DIR and resumes when run again with the same
                    options; writes generations.csv, figure.svg, best.txt and
                    <persona>.persona (default DIR: evolve-<persona>-seed<seed>)
  help              print this text
";

/// Runs the harness with the given arguments (program name excluded) and returns the
/// process exit code: 0 on success, 2 on a usage error, 1 when the job itself failed.
pub fn run(args: Vec<String>) -> ExitCode {
    let mut args = Args::new(args);
    let result = match args.next_positional().as_deref() {
        Some("hand") => hand::run(args),
        Some("perft") => perft::run(args),
        Some("play") => play::run(args),
        Some("match3") => match3::run(args),
        Some("playtest") => playtest::run(args),
        Some("solve") => solve::run(args),
        Some("evolve") => evolve::run(args),
        None | Some("help" | "--help" | "-h") => {
            out!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(Failure::Usage(format!("unknown command '{other}'"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            noteln!("arbor: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Job(message)) => {
            noteln!("arbor: {message}");
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

/// Writes to stdout; a reader that went away (broken pipe) ends the process with success,
/// since nobody is left to read the rest. Other write errors still panic, as `print!` does.
pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(error) = std::io::stdout().lock().write_fmt(args) {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        panic!("failed printing to stdout: {error}");
    }
}

/// Writes to stderr and flushes; any error is ignored, since stderr carries only progress and
/// messages for a person, and there is nowhere else to report its loss.
pub(crate) fn write_stderr(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_fmt(args).and_then(|()| stderr.flush());
}
