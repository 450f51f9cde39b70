//! The `arbor` command-line harness (std only): one subcommand per job. Each subcommand
//! lives in its own file and declares its options (an `args::Command`); this one only
//! dispatches and prints usage and help.
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

mod acpc;
mod agent_storage;
mod args;
mod cfr;
pub mod cluster;
pub mod evolve;
mod go;
mod go_match;
mod gtp;
mod hand;
mod holdem_expert;
mod holdem_model;
mod match3;
mod parallel;
mod perft;
mod play;
mod playtest;
mod resources;
mod solve;

use std::ffi::OsString;

pub use args::Args;
use args::{Command, is_help, shown};

/// Every subcommand, in the order of the usage text.
const COMMANDS: [&Command; 20] = [
    &hand::COMMAND,
    &perft::COMMAND,
    &play::COMMAND,
    &match3::PLAY,
    &match3::REPLAY,
    &match3::CALIBRATE,
    &playtest::COMMAND,
    &solve::COMMAND,
    &evolve::COMMAND,
    &go::PLAYOUTS,
    &go_match::COMMAND,
    &gtp::COMMAND,
    &acpc::DEALER,
    &acpc::PLAY,
    &acpc::COMPARE,
    &holdem_model::TRAIN,
    &holdem_model::EVAL,
    &cfr::COMMAND,
    &holdem_expert::CHART,
    &holdem_expert::STYLES,
];

/// The commands that spread their work over the ranks of an MPI run (`mpirun -np K arbor …`,
/// with the `mpi` feature); any other refuses to start with more than one rank rather than
/// do the same work K times.
const DISTRIBUTED: [&str; 7] = [
    "solve breakthrough",
    "evolve",
    "play breakthrough",
    "playtest",
    "match3 play",
    "go match",
    "acpc dealer",
];

const USAGE: &str = "\
usage: arbor <command> [options]
       arbor <command> --help     (or: arbor help <command>) for a command's options

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
  match3 calibrate [--games 1000] [--seed 1] [--threads N]
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
                    [--mobility on|off] [--patterns on|off] [--budget EXPANSIONS] [--epsilon 0.375]
                    [--distributed (ppn2 under mpirun -np K)] [--job-times FILE]
                    prove who wins; ends with `result <first|second> time <s> expanded <n>`
  evolve --persona max-score|min-score|max-moves|min-moves [--generations 100]
         [--population 100] [--games 50] [--moves 20] [--iterations 250] [--seed 1]
         [--goal-strategy on|off] [--threads N] [--out DIR] [--progress on|off]
                    evolve a persona's selection formula (paper defaults); checkpoints
                    each generation in DIR and resumes when run again with the same
                    options; writes generations.csv, figure.svg, best.txt and
                    <persona>.persona (default DIR: evolve-<persona>-seed<seed>)
  go playouts [--size 9 | --sgf FILE] [--policy light|mogo] [--count 10000] [--seed 1]
              [--komi 7.5]
                    play light or MoGo playouts from the empty board (or the position at
                    the end of an SGF record) on one thread; ends
                    with `result playouts <n> stones <mean> black <rate>% speed <n> playouts/s`
                    (mean stones placed per playout, Black's win rate)
  go match --black CMD --white CMD --games N [--size 9] [--komi 7.5] [--move-time 60]
           [--max-moves M] [--out DIR] [--seed 1]
                    referee two GTP engines (commands split on whitespace, `{game}` in
                    them becomes the game's number), colours
                    alternating; illegal moves, crashes, bad replies and timeouts lose by
                    forfeit; writes games.csv and SGFs in DIR (default go-match-seed<S>),
                    resumes from games.csv; ends with each engine's wins and 95% interval
  gtp go [--playouts N | --time S] [--threads 1] [--seed 1] [--size 9] [--komi 7.5]
         [--resign 0.1] [--nodes 4000000] [--policy light|mogo] [--priors on|off]
         [--mogo-c C] [--c1 X] [--c2 X] [--rave on|off] [--expand N] [--prior-scale 1]
         [--ladders on|off] [--snapbacks on|off] [--closeness manhattan|cfg] [--near W1,W2,W3]
         [--rules-off LIST]
                    a Go engine speaking GTP 2 on stdin/stdout (for GUIs such as Sabaki
                    and GoGui, and matches against GNU Go): MCTS with MoGo playouts and
                    priors (or RAVE and light playouts), default 1000 playouts a move;
                    time_settings/time_left set the time per move; the other options
                    tune MoGo's score, the priors and the playout rules (ablations)
  acpc dealer --bot0 SPEC --bot1 SPEC [--hands 1000] [--seed 1] [--duplicate on|off]
              [--log FILE] [--csv FILE] [--action-ms 600000] [--hand-ms 600000]
              [--match-ms-per-hand 7000] [--transcript FILE|-] [--name0 NAME]
              [--name1 NAME] [--progress on|off] [--reset-every N] [--start-ms MS]
              [--fixed-seats on|off] [--max-invalid N] [--transactions FILE]
                    an ACPC 2.0.0 dealer for heads-up no-limit (the reference dealer's
                    cards, log, SCORE line and warnings), seats rotating every hand
                    (--fixed-seats on keeps the button, the reference's -f).
                    SPEC: call | min-raise | all-in | random[:seed=S] |
                    equity[:samples=N,seed=S] | expert[:style=STYLE,seed=S,exploit=P] |
                    staged[:style=STYLE,opponent=expert|cnn|online,model-rounds=N,
                    model-buckets=N,
                    resolve=N,resolve-turn=N,samples=N,raises=N,flop-raises=N,
                    exact-turn=0|1,seed=S]
                    (in-process), cmd:COMMAND (a client started
                    with `{port}` replaced) or port (a client connecting to the printed
                    port). --duplicate on replays each deal with the seats swapped;
                    --reset-every N seats the players afresh every N hands (blocks that
                    mpirun can spread over ranks); prints
                    bot0's mbb/hand with a 95% interval, latency p50/p99/max, hands/s;
                    --csv resumes an interrupted match (mid-hand with --transactions,
                    which records every action); --max-invalid N ends the match
                    at a player's invalid action past N, --start-ms limits the wait for
                    clients to connect
  acpc play --port PORT [--host 127.0.0.1] [--bot SPEC] [--action-ms 1000]
                    an ACPC 2.0.0 client playing an arbor bot against a dealer; a bot
                    that searches stops at half of --action-ms (the dealer's limit)
  acpc compare A.csv B.csv
                    pair two dealer matches on the same deals (same --seed, --hands,
                    --duplicate and --bot1): A's bot0 minus B's bot0 per duplicate pair,
                    mbb/hand with a 95% interval, and each alone
  holdem train-model [--hands 300] [--seed 1] [--epochs 8] [--max-samples 200000]
                     [--learning-rate 0.003] [--dropout 0.25] [--population LIST]
                     [--holdout SPEC] [--prior-strength 10] [--out FILE] [--progress on|off]
                    play every pair of a bot population, train the opponent models on
                    four hands in five and report accuracy and log-loss of the majority
                    class, betting-frequency, CNN and online models on the fifth hands
                    and on a held-out bot; --out writes the CNN weights as Rust source
  holdem eval-model [--hands 300] [--seed 1001] [--population LIST] [--holdout SPEC]
                    [--prior-strength 10] [--progress on|off]
                    the same report for the shipped CNN weights, and the time per
                    prediction (full network, per holding of a range sweep, frequency)
  cfr [--game kuhn|leduc] [--algo cfr+|dcfr|mccfr-es|mccfr-os] [--iterations 1000] [--seed 1]
      [--report-every K]
                    solve Kuhn poker or Leduc Hold'em with counterfactual regret
                    minimization; one line per report (at 1, 10, 100, ... iterations, or
                    every K): exploitability of the average strategy in milli-chips per
                    hand, player 0's value in chips, information sets, solving time
  holdem chart --out DIR [--samples 4096] [--seed 1]
                    regenerate the expert library's data (the 169 x 169 preflop equity
                    table by seeded Monte Carlo, and the preflop chart derived from it)
  holdem styles [--hands 5000] [--opponent equity] [--styles LIST] [--seed 1]
                    play each expert style against a bot, duplicate, and print VPIP, PFR,
                    aggression factor and mbb/hand with a 95% interval
  help [COMMAND]    print this text, or a command's options
";

/// Runs the harness with the given arguments (program name excluded) and returns the
/// process exit code: 0 on success, 2 on a usage error, 1 when the job itself failed.
pub fn run(words: Vec<OsString>) -> ExitCode {
    let (hint, result) = dispatch(words);
    let (status, message): (u8, String) = match result {
        Ok(()) => (0, String::new()),
        Err(Failure::Usage(message)) => (2, format!("{message}\nsee '{hint}'")),
        Err(Failure::Job(message)) => (1, message),
    };
    if status != 0 {
        failed(&message);
    }
    flush_stdout();
    if status != 0 {
        // The other ranks of a distributed run may be waiting for this one.
        cluster::stop_all(status);
    }
    ExitCode::from(status)
}

/// Prints why the run failed. In a distributed run every rank usually fails alike (each
/// reads the same command line and the same broadcast files), so another rank than the root
/// first gives the root two seconds to print and end the run: ranks aborting together can
/// kill the root before it prints, and they make Open MPI's mpirun fail on its own help
/// messages ("ORTE_ERROR_LOG: Data unpack would read past end of buffer"). A rank still alive
/// then failed alone (its share of the memory, say) and names itself.
fn failed(message: &str) {
    if cluster::is_root() {
        noteln!("arbor: {message}");
        return;
    }
    std::thread::sleep(std::time::Duration::from_secs(2));
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr(),
        format_args!("arbor (rank {}): {message}\n", cluster::rank()),
    );
}

/// Finds the command `words` name and runs it; returns where to look for help too.
fn dispatch(words: Vec<OsString>) -> (String, Result<(), Failure>) {
    let general = "arbor help".to_owned();
    let texts: Vec<Option<&str>> = words.iter().map(|w| w.to_str()).collect();
    let Some(&first) = texts.first() else {
        out!("{USAGE}");
        return (general, Ok(()));
    };
    let Some(first) = first else {
        let word = words.first().map(|w| shown(w)).unwrap_or_default();
        return (
            general,
            Err(Failure::Usage(format!("unknown command '{word}'"))),
        );
    };
    if first == "help" || is_help(first.as_ref()) {
        let topic: Vec<&str> = texts.iter().skip(1).map(|t| t.unwrap_or("?")).collect();
        return (general, help(&topic));
    }
    let family: Vec<&Command> = COMMANDS
        .iter()
        .copied()
        .filter(|c| c.name.split(' ').next() == Some(first))
        .collect();
    if family.is_empty() {
        return (
            general,
            Err(Failure::Usage(format!("unknown command '{first}'"))),
        );
    }
    let hint = format!("arbor {first} --help");
    // The second word picks among `perft breakthrough`, `match3 play` and the like.
    let (command, skip) = match family.as_slice() {
        [only] if !only.name.contains(' ') => (*only, 1),
        _ => {
            let second = texts.get(1).copied().flatten();
            match family.iter().find(|c| c.name.split(' ').nth(1) == second) {
                Some(command) => (*command, 2),
                None if words.get(1).is_some_and(|w| is_help(w)) => {
                    return (hint, help(&[first]));
                }
                None => {
                    let choices: Vec<&str> = family
                        .iter()
                        .filter_map(|c| c.name.split(' ').nth(1))
                        .collect();
                    let message = match words.get(1) {
                        None => format!("'{first}' needs one of: {}", choices.join(", ")),
                        Some(word) => format!(
                            "unknown {first} command '{}' (expected {})",
                            shown(word),
                            choices.join(", ")
                        ),
                    };
                    return (hint, Err(Failure::Usage(message)));
                }
            }
        }
    };
    let hint = format!("arbor {} --help", command.name);
    if cluster::size() > 1 && !DISTRIBUTED.contains(&command.name) {
        let message = format!(
            "'arbor {}' runs in one process; under mpirun only these spread their work over \
             the ranks: {}",
            command.name,
            DISTRIBUTED.join(", ")
        );
        return (hint, Err(Failure::Usage(message)));
    }
    let rest: Vec<OsString> = words.get(skip..).unwrap_or_default().to_vec();
    if rest.iter().any(|w| is_help(w)) {
        out!("{}", command.help());
        return (hint, Ok(()));
    }
    let result = Args::parse(command, rest).and_then(|args| match first {
        "hand" => hand::run(args),
        "perft" => perft::run(args),
        "play" => play::run(args),
        "match3" => match3::run(command, args),
        "playtest" => playtest::run(args),
        "solve" => solve::run(args),
        "evolve" => evolve::run(args),
        "go" if command.name == "go match" => go_match::run(args),
        "go" => go::run(command, args),
        "gtp" => gtp::run(args),
        "acpc" if command.name == "acpc play" => acpc::run_play(args),
        "acpc" if command.name == "acpc compare" => acpc::run_compare(args),
        "acpc" => acpc::run_dealer(args),
        "holdem" if command.name.ends_with("-model") => holdem_model::run(command, args),
        "cfr" => cfr::run(args),
        "holdem" => holdem_expert::run(command, args),
        _ => Err(Failure::Usage(format!("unknown command '{first}'"))),
    });
    (hint, result)
}

/// `arbor help [COMMAND [SUBCOMMAND]]`: the usage text, or the help of the commands named.
fn help(topic: &[&str]) -> Result<(), Failure> {
    if topic.is_empty() {
        out!("{USAGE}");
        return Ok(());
    }
    let wanted = topic.join(" ");
    let chosen: Vec<&Command> = COMMANDS
        .iter()
        .copied()
        .filter(|c| c.name == wanted || c.name.split(' ').next() == Some(wanted.as_str()))
        .collect();
    if chosen.is_empty() {
        return Err(Failure::Usage(format!(
            "no help on '{wanted}': unknown command"
        )));
    }
    let texts: Vec<String> = chosen.iter().map(|c| c.help()).collect();
    out!("{}", texts.join("\n"));
    Ok(())
}

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum Failure {
    /// The command line was wrong: the message says how.
    Usage(String),
    /// The job could not be done: the message says why.
    Job(String),
}

/// Writes to stdout (the root rank's only, in a distributed run). A reader that went away (broken pipe) ends the process with success,
/// since nobody is left to read the rest; any other error (a full disk) ends it with a
/// message and failure, since the output is lost.
pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if !cluster::is_root() {
        return;
    }
    let written = std::io::stdout().lock().write_fmt(args);
    stdout_written(written);
}

/// Flushes stdout, with [`write_stdout`]'s handling of errors.
fn flush_stdout() {
    use std::io::Write;
    stdout_written(std::io::stdout().lock().flush());
}

fn stdout_written(result: std::io::Result<()>) {
    if let Err(error) = result {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        noteln!("arbor: cannot write output: {error}");
        std::process::exit(1);
    }
}

/// Writes to stderr and flushes; any error is ignored, since stderr carries only progress and
/// messages for a person, and there is nowhere else to report its loss.
pub(crate) fn write_stderr(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if !cluster::is_root() {
        return;
    }
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_fmt(args).and_then(|()| stderr.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_in_the_usage_and_every_default_reads() {
        for command in COMMANDS {
            for opt in command.options {
                let flag = format!("--{}", opt.name);
                assert!(USAGE.contains(&flag), "{} {flag}", command.name);
                assert!(command.help().contains(&flag), "{} {flag}", command.name);
            }
            // Parsing nothing reads every default through the option's own check.
            let args = Args::parse(command, Vec::new()).unwrap();
            for opt in command.options.iter().filter(|o| o.default.is_some()) {
                let read = match opt.kind {
                    args::Kind::Int { .. } | args::Kind::Bytes { .. } => {
                        args.get::<u64>(opt.name).map(|v| v.is_some())
                    }
                    args::Kind::Real { .. } => args.get::<f64>(opt.name).map(|v| v.is_some()),
                    args::Kind::Path => args
                        .get::<std::path::PathBuf>(opt.name)
                        .map(|v| v.is_some()),
                    _ => args.get::<String>(opt.name).map(|v| v.is_some()),
                };
                assert!(matches!(read, Ok(true)), "{} --{}", command.name, opt.name);
            }
        }
        for name in DISTRIBUTED {
            assert!(COMMANDS.iter().any(|c| c.name == name), "{name}");
        }
        let paper = match3::ITERATIONS.default.map(str::parse::<u32>);
        assert_eq!(paper, Some(Ok(crate::match3::PAPER_ITERATIONS)));
        let moves = evolve::COMMAND.options.iter().find(|o| o.name == "moves");
        let moves = moves.and_then(|o| o.default).map(str::parse::<u8>);
        assert_eq!(moves, Some(Ok(crate::match3::DEFAULT_MOVES)));
    }
}
