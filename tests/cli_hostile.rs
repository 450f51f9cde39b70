//! Nothing a user types crashes `arbor` (issue 15): each bad input found by hand ends with a
//! non-zero exit and a short message on stderr naming the problem, never a panic or an
//! abort, and never leaves a half-written output file.
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Exit code (`None`: killed by a signal), stdout and stderr of `arbor args`.
fn arbor_os(args: &[OsString], stdout: Stdio) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("the arbor binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn words(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// Checks that `args` fail cleanly with a message containing `needle`, and returns stderr.
fn refused_os(args: &[OsString], stdout: Stdio, code: i32, needle: &str) -> String {
    let (status, _, err) = arbor_os(args, stdout);
    assert_eq!(status, Some(code), "{args:?}: {err}");
    assert!(err.starts_with("arbor: "), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: wanted '{needle}' in {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{args:?}: {err}"
    );
    // Short: the problem, and for a usage error where to read more.
    assert!(err.lines().count() <= 2, "{args:?}: {err}");
    if code == 2 {
        assert!(err.contains("see 'arbor "), "{args:?}: {err}");
    }
    err
}

fn usage_error(args: &[&str], needle: &str) {
    refused_os(&words(args), Stdio::piped(), 2, needle);
}

fn job_error(args: &[&str], needle: &str) {
    refused_os(&words(args), Stdio::piped(), 1, needle);
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn options_are_checked_against_their_ranges_and_names() {
    let solve = |extra: &[&'static str]| {
        let mut args = vec!["solve", "breakthrough", "--size", "4x4"];
        args.extend_from_slice(extra);
        args
    };
    for (args, needle) in [
        (vec!["--bogus"], "unknown command '--bogus'"),
        (vec!["bogus"], "unknown command 'bogus'"),
        (
            vec!["play", "breakthrough", "--games", "1", "--bogus", "3"],
            "unknown option '--bogus'",
        ),
        (vec!["hand", "--bogus"], "unknown option '--bogus'"),
        (
            vec!["play", "breakthrough", "--threads", "0"],
            "--threads 0",
        ),
        (vec!["playtest", "--threads", "0"], "--threads 0"),
        (vec!["match3", "play", "--threads", "0"], "--threads 0"),
        (vec!["play", "breakthrough", "--games", "0"], "--games 0"),
        (vec!["match3", "play", "--games", "0"], "--games 0"),
        (vec!["match3", "calibrate", "--games", "0"], "--games 0"),
        (
            vec!["evolve", "--persona", "max-score", "--games", "0"],
            "--games 0",
        ),
        (solve(&["--epsilon", "nan"]), "not a finite number"),
        (solve(&["--epsilon", "inf"]), "not a finite number"),
        (
            solve(&["--epsilon", "-1"]),
            "--epsilon -1: must be 0 to 1000",
        ),
        (
            vec!["evolve", "--persona", "max-score", "--progress", "maybe"],
            "--progress maybe: must be on, off",
        ),
        (
            vec!["match3", "replay", "--level", "board1", "--moves", ""],
            "--moves needs a value",
        ),
        (
            vec!["match3", "replay", "--level", "board1"],
            "needs --moves",
        ),
        (
            vec!["match3", "replay", "--level", "board1", "--moves", ",, ,"],
            "--moves lists no moves",
        ),
        (
            vec!["play", "breakthrough", "--games", "3", "--games", "4"],
            "--games given twice",
        ),
        (vec!["play", "breakthrough", "--csv"], "--csv needs a value"),
        (
            vec!["play", "breakthrough", "--csv", "--games"],
            "--csv needs a value",
        ),
        (vec!["perft", "breakthrough", "--depth", "0"], "--depth 0"),
        (vec!["perft", "breakthrough", "--depth", "65"], "--depth 65"),
        (vec!["perft"], "needs one of: breakthrough"),
        (vec!["perft", "chess"], "unknown perft command 'chess'"),
        (vec!["match3"], "needs one of: play, replay, calibrate"),
        (vec!["hand", "extra", "As"], "'extra' is not a card"),
        (
            vec!["solve", "breakthrough", "extra"],
            "unexpected argument 'extra'",
        ),
        (
            solve(&["--algo", "minimax"]),
            "must be pns, pn2, ppn2, dfpn, pdfpn",
        ),
        (solve(&["--threads", "2"]), "more than 1 only with"),
        (solve(&["--budget", "0"]), "--budget 0"),
        (solve(&["--job", "0"]), "--job 0"),
        (solve(&["--patterns", "yes"]), "--patterns yes"),
        (solve(&["--memory", "lots"]), "not a size"),
        (solve(&["--memory", "0"]), "too small"),
        (
            vec!["play", "breakthrough", "--white", "mcts:iterations=0"],
            "iterations",
        ),
        (vec!["help", "chess"], "unknown command"),
    ] {
        usage_error(&args, needle);
    }
}

#[test]
fn huge_values_are_refused_before_anything_is_allocated() {
    for (args, needle) in [
        (
            vec![
                "match3",
                "play",
                "--agent",
                "vanilla",
                "--iterations",
                "4000000000",
            ],
            "--iterations 4000000000",
        ),
        (
            vec!["playtest", "--iterations", "4000000000"],
            "--iterations 4000000000",
        ),
        (
            vec![
                "evolve",
                "--persona",
                "max-score",
                "--iterations",
                "4000000000",
            ],
            "--iterations 4000000000",
        ),
        (
            vec![
                "evolve",
                "--persona",
                "max-score",
                "--population",
                "4294967296",
            ],
            "--population 4294967296",
        ),
        (
            vec!["solve", "breakthrough", "--memory", "18446744073709551615"],
            "too large",
        ),
        (
            vec!["solve", "breakthrough", "--memory", "100000T"],
            "too large",
        ),
        (
            vec!["play", "breakthrough", "--games", "99999999999999999999"],
            "--games",
        ),
    ] {
        usage_error(&args, needle);
    }
    // Within the documented range but more than any machine has.
    job_error(
        &["solve", "breakthrough", "--memory", "1000T"],
        "cannot allocate 1099511627776000 bytes for --memory 1000T",
    );
    // The 100G, where the machine has less (checked, not assumed).
    let small_machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info
                .lines()
                .find(|l| l.starts_with("MemTotal:"))?
                .to_owned();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .is_some_and(|kib| kib * 1024 < 100 << 30);
    if small_machine {
        job_error(
            &["solve", "breakthrough", "--memory", "100G"],
            "cannot allocate 107374182400 bytes",
        );
    }
}

#[test]
fn too_little_memory_names_the_minimum_and_running_out_is_not_the_budget() {
    usage_error(
        &["solve", "breakthrough", "--memory", "64"],
        "too little memory for this algorithm: it needs at least",
    );
    usage_error(
        &["solve", "breakthrough", "--algo", "dfpn", "--memory", "2K"],
        "(--memory 48K)",
    );
    let solve = |algo: &str, extra: &[&str]| {
        let mut args = vec!["solve", "breakthrough", "--size", "4x5", "--algo", algo];
        args.extend_from_slice(extra);
        let (code, out, err) = arbor_os(&words(&args), Stdio::piped());
        assert_eq!(code, Some(1), "{args:?}: {out} {err}");
        assert!(!err.contains("NaN") && !err.contains("inf "), "{err}");
        (out, err)
    };
    // PPN² honours --budget (server expansions).
    let (out, err) = solve("ppn2", &["--budget", "40"]);
    assert!(out.contains("outcome unknown within budget"), "{out}");
    assert!(err.contains("not solved within budget"), "{err}");
    let expanded: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("expanded "))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(expanded <= 40, "{out}");
    // A tree that fills up is out of memory, not out of budget.
    for algo in ["pns", "ppn2"] {
        let (out, err) = solve(algo, &["--memory", "64K"]);
        assert!(
            out.contains("outcome unknown: out of memory"),
            "{algo}: {out}"
        );
        assert!(err.contains("out of memory"), "{algo}: {err}");
        assert!(!err.contains("budget"), "{algo}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn text_that_is_not_utf8_is_an_error_and_a_path_that_is_not_still_works() {
    use std::os::unix::ffi::OsStringExt;
    let latin1 = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
    let mut args = words(&["hand"]);
    args.push(latin1(b"A\xe9"));
    refused_os(&args, Stdio::piped(), 2, "not valid UTF-8");
    let mut args = words(&["solve", "breakthrough", "--algo"]);
    args.push(latin1(b"pn\xe9"));
    refused_os(&args, Stdio::piped(), 2, "not valid UTF-8");
    refused_os(&[latin1(b"h\xe9nd")], Stdio::piped(), 2, "unknown command");
    refused_os(
        &[latin1(b"hand"), latin1(b"--\xe9")],
        Stdio::piped(),
        2,
        "unknown option",
    );

    // A level file named café.txt in Latin-1 is just a file.
    let dir = scratch("latin1");
    let mut name = dir.clone().into_os_string();
    name.push("/");
    name.push(latin1(b"caf\xe9.txt"));
    let level = PathBuf::from(&name);
    std::fs::write(&level, arbor::match3::preset("board1").unwrap()).unwrap();
    let play = |level: &Path| {
        let mut args = words(&["match3", "play", "--games", "2", "--level"]);
        args.push(level.as_os_str().to_owned());
        arbor_os(&args, Stdio::piped())
    };
    let (code, out, err) = play(&level);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("score mean"), "{out}");
    let mut args = words(&["playtest", "--games", "1", "--iterations", "10"]);
    args.push(name.clone());
    let (code, out, err) = arbor_os(&args, Stdio::piped());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("caf"), "{out}");
    // So is a persona file.
    let mut persona = dir.clone().into_os_string();
    persona.push("/");
    persona.push(latin1(b"p\xe9.persona"));
    std::fs::write(&persona, "goal MinM\nformula div(W, N)\n").unwrap();
    let mut agent = OsString::from("persona:");
    agent.push(&persona);
    let mut args = words(&[
        "match3",
        "play",
        "--games",
        "1",
        "--iterations",
        "10",
        "--agent",
    ]);
    args.push(agent);
    let (code, out, err) = arbor_os(&args, Stdio::piped());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("agent persona:"), "{out}");
    // And a missing level is reported, not a panic.
    std::fs::remove_file(&level).unwrap();
    let (code, _, err) = play(&level);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("cannot read level"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_and_leaves_no_half_written_file() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    // stdout on a full disk.
    let err = refused_os(
        &words(&["hand"]),
        Stdio::from(full()),
        1,
        "cannot write output: No space left on device",
    );
    assert!(!err.contains("failed printing"), "{err}");
    let help = refused_os(
        &words(&["help"]),
        Stdio::from(full()),
        1,
        "cannot write output",
    );
    assert!(!help.contains("usage"), "{help}");
    // Output files on a full disk.
    for args in [
        &[
            "play",
            "breakthrough",
            "--games",
            "1",
            "--white",
            "random",
            "--csv",
            "/dev/full",
        ][..],
        &["match3", "play", "--games", "1", "--moves-out", "/dev/full"],
        &[
            "playtest",
            "board1",
            "--games",
            "1",
            "--iterations",
            "10",
            "--csv",
            "/dev/full",
        ],
    ] {
        job_error(args, "cannot write /dev/full: No space left on device");
    }
    // A write that fails (here: the temporary file cannot be created) keeps the previous
    // file whole and leaves nothing beside it.
    let dir = scratch("atomic");
    let csv = dir.join("games.csv");
    let csv_arg = csv.to_str().unwrap();
    let play = [
        "play",
        "breakthrough",
        "--games",
        "2",
        "--white",
        "random",
        "--csv",
        csv_arg,
    ];
    let (code, _, err) = arbor_os(&words(&play), Stdio::piped());
    assert_eq!(code, Some(0), "{err}");
    let before = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(before.lines().count(), 3, "{before}");
    std::fs::create_dir(dir.join("games.csv.partial")).unwrap();
    let play = [
        "play",
        "breakthrough",
        "--games",
        "5",
        "--white",
        "random",
        "--csv",
        csv_arg,
    ];
    job_error(&play, "cannot write");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), before);
    std::fs::remove_dir(dir.join("games.csv.partial")).unwrap();
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_pipe_still_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["playtest", "board1", "--games", "2", "--iterations", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?} {err}", output.status);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn usage_errors_are_short_and_every_command_has_its_help() {
    let (code, _, err) = arbor_os(
        &words(&["solve", "breakthrough", "--bogus", "1"]),
        Stdio::piped(),
    );
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "arbor: unknown option '--bogus' for 'solve breakthrough'\n\
         see 'arbor solve breakthrough --help'\n"
    );
    let (code, general, _) = arbor_os(&words(&["help"]), Stdio::piped());
    assert_eq!(code, Some(0));
    assert!(general.contains("--patterns on|off"), "{general}");
    for command in [
        &["hand"][..],
        &["perft", "breakthrough"],
        &["play", "breakthrough"],
        &["match3", "play"],
        &["match3", "replay"],
        &["match3", "calibrate"],
        &["playtest"],
        &["solve", "breakthrough"],
        &["evolve"],
    ] {
        let mut args = command.to_vec();
        args.push("--help");
        let (code, help, err) = arbor_os(&words(&args), Stdio::piped());
        assert_eq!(code, Some(0), "{command:?}: {err}");
        assert!(
            help.starts_with(&format!("usage: arbor {}", command.join(" "))),
            "{help}"
        );
        let mut args = vec!["help"];
        args.extend_from_slice(command);
        let (code, same, _) = arbor_os(&words(&args), Stdio::piped());
        assert_eq!((code, &same), (Some(0), &help), "{command:?}");
    }
    let (_, solve, _) = arbor_os(&words(&["solve", "--help"]), Stdio::piped());
    for option in [
        "--size",
        "--position",
        "--algo",
        "--job",
        "--threads",
        "--partial",
        "--memory",
        "--mobility",
        "--patterns",
        "--budget",
        "--epsilon",
    ] {
        assert!(solve.contains(option), "{option}: {solve}");
    }
    let (_, match3, _) = arbor_os(&words(&["match3", "--help"]), Stdio::piped());
    assert_eq!(match3.matches("usage: arbor match3").count(), 3, "{match3}");
}
