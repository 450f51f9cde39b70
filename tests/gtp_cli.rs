//! `arbor gtp go` driven as a GUI or a referee drives it: a scripted session through
//! stdin/stdout, and a short game against GNU Go over GTP with every move checked legal by
//! arbor's own rules.
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use arbor::go::vertex::GoMove;
use arbor::go::{Color, GoGame, Move};

/// Runs `arbor gtp go` with `args` on the whole of `script` and returns its replies (each
/// without its closing blank line), its exit code and its standard error.
fn session(args: &[&str], script: &str) -> (Vec<String>, i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["gtp", "go"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbor runs");
    // An engine that refuses its options exits before reading: the pipe may be closed.
    let written = child.stdin.take().unwrap().write_all(script.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let output = child.wait_with_output().unwrap();
    let out = String::from_utf8(output.stdout).expect("UTF-8 replies");
    assert!(out.is_empty() || out.ends_with("\n\n"), "{out:?}");
    let replies = out.split_terminator("\n\n").map(str::to_owned).collect();
    (
        replies,
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_scripted_session() {
    let script = "protocol_version\r\n\
                  1 name\n\
                  # a comment line\n\
                  \n\
                  2 list_commands\n\
                  boardsize 9 # trailing comment\n\
                  clear_board\n\
                  komi 6.5\n\
                  play b E5\n\
                  play w E5\n\
                  play w Z1\n\
                  10 genmove w\n\
                  11 genmove b\n\
                  undo\n\
                  undo\n\
                  showboard\n\
                  final_score\n\
                  final_status_list dead\n\
                  boardsize 25\n\
                  frobnicate\n\
                  time_settings 60 0 0\n\
                  time_left b 30 0\n\
                  genmove b\n\
                  12 quit\n\
                  name\n";
    let (replies, code, err) = session(&["--playouts", "200", "--seed", "5"], script);
    assert_eq!(code, 0, "{err}");
    let expected_prefix = [
        "= 2",
        "=1 arbor",
        "=2 protocol_version\nname\nversion\nknown_command\nlist_commands\nboardsize",
        "= ",
        "= ",
        "= ",
        "= ",
        "? illegal move",
        "? invalid coordinate",
        "=10 ",
        "=11 ",
        "= ",
        "= ",
        "= \n   A B C D E F G H J\n 9 ",
        "= ",
        "= ",
        "? unacceptable size",
        "? unknown command",
        "= ",
        "= ",
        "= ",
        "=12 ",
    ];
    assert_eq!(replies.len(), expected_prefix.len(), "{replies:#?}");
    for (reply, prefix) in replies.iter().zip(expected_prefix) {
        assert!(
            reply.starts_with(prefix),
            "{reply:?} should start with {prefix:?}"
        );
    }
    // genmove answers a vertex (or pass); after the two undos only Black's E5 is left.
    for reply in [&replies[9], &replies[10], &replies[20]] {
        let vertex = reply.split_once(' ').unwrap().1;
        assert!(vertex.parse::<GoMove>().is_ok(), "{reply}");
    }
    let board = &replies[13];
    assert_eq!(board.matches('X').count(), 1, "{board}");
    assert_eq!(board.matches('O').count(), 0, "{board}");
    assert!(board.ends_with("white to move, komi 6.5"), "{board}");
    let score = replies[14].trim_start_matches("= ");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
}

#[test]
fn refuses_both_a_playout_count_and_a_time() {
    let (replies, code, err) = session(&["--playouts", "10", "--time", "1"], "name\n");
    assert_eq!(code, 2);
    assert!(replies.is_empty());
    assert!(err.contains("not both"), "{err}");
    let (_, code, err) = session(&["--size", "4"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn both_policies_with_and_without_priors_answer_genmove_with_a_legal_move() {
    for (policy, priors) in [
        ("mogo", "on"),
        ("light", "off"),
        ("mogo", "off"),
        ("light", "on"),
    ] {
        let args = [
            "--playouts",
            "200",
            "--seed",
            "3",
            "--policy",
            policy,
            "--priors",
            priors,
        ];
        let script = "play b E5\ngenmove w\ngenmove b\nshowboard\n";
        let (replies, code, err) = session(&args, script);
        assert_eq!(code, 0, "{policy} {priors}: {err}");
        assert_eq!(replies.len(), 4, "{replies:?}");
        for reply in &replies[1..3] {
            let vertex = reply.split_once(' ').unwrap().1;
            assert!(vertex.parse::<GoMove>().is_ok(), "{reply}");
            assert_ne!(vertex, "E5", "{reply}");
        }
        let board = &replies[3];
        assert_eq!(board.matches('X').count(), 2, "{board}");
    }
    let (_, code, err) = session(&["--policy", "heavy"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn tuning_options_are_taken_and_bad_ones_refused() {
    let args = [
        "--playouts",
        "200",
        "--rules-off",
        "nakade, fill-board",
        "--mogo-c",
        "0",
        "--c1",
        "0.001",
        "--c2",
        "2",
        "--expand",
        "10",
        "--prior-scale",
        "0.5",
        "--closeness",
        "cfg",
        "--near",
        "45, 40,15",
    ];
    let (replies, code, err) = session(&args, "genmove b\ngenmove w\n");
    assert_eq!(code, 0, "{err}");
    for reply in &replies {
        let vertex = reply.split_once(' ').unwrap().1;
        assert!(vertex.parse::<GoMove>().is_ok(), "{reply}");
    }
    let (replies, code, err) = session(&["--playouts", "100", "--rave", "off"], "genmove b\n");
    assert_eq!((code, replies.len()), (0, 1), "{err}");
    let (replies, code, err) = session(
        &["--playouts", "100", "--priors", "off", "--c1", "0"],
        "genmove b\n",
    );
    assert_eq!((code, replies.len()), (0, 1), "{err}");
    for (bad, why) in [
        (&["--rules-off", "ladders"][..], "unknown rule 'ladders'"),
        (
            &["--rules-off", "nakade", "--policy", "light"],
            "needs --policy mogo",
        ),
        (&["--mogo-c", "1", "--priors", "off"], "need --priors on"),
        (&["--c2", "-1"], "--c2"),
        (&["--rave", "off", "--priors", "off"], "need --priors on"),
        (
            &["--rave", "off", "--c1", "0.1"],
            "cannot go with --rave off",
        ),
        (&["--expand", "0"], "--expand"),
        (&["--prior-scale", "nan"], "--prior-scale"),
        (&["--closeness", "graph"], "--closeness"),
        (&["--near", "45,40"], "not three weights"),
        (&["--near", "45,40,15,1"], "not three weights"),
        (&["--near", "45,nan,15"], "not three weights"),
        (&["--near", "1,2,3", "--priors", "off"], "need --priors on"),
    ] {
        let (replies, code, err) = session(bad, "name\n");
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(replies.is_empty());
        assert!(err.contains(why), "{bad:?}: {err}");
    }
}

/// A GTP engine in a child process.
struct Engine {
    name: &'static str,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(name: &'static str, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{program} runs: {e}"));
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            name,
            child,
            input,
            output,
        }
    }

    /// Sends a command; `Ok(result)` for `=`, `Err(message)` for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).unwrap();
            assert!(n > 0, "{} closed its output after {command:?}", self.name);
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() && !reply.is_empty() {
                break;
            }
            if line.is_empty() {
                continue;
            }
            if !reply.is_empty() {
                reply.push('\n');
            }
            reply.push_str(line);
        }
        let (status, rest) = reply.split_at(1);
        let result = rest.trim_start().to_owned();
        match status {
            "=" => Ok(result),
            "?" => Err(result),
            _ => panic!("{}: not a GTP reply: {reply:?}", self.name),
        }
    }

    fn ok(&mut self, command: &str) -> String {
        let name = self.name;
        self.send(command)
            .unwrap_or_else(|e| panic!("{name}: {command}: ? {e}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// `B+3.5`, `W+0.5` or `0`: the winner and the margin.
fn parse_score(text: &str) -> (Option<Color>, f32) {
    if text == "0" {
        return (None, 0.0);
    }
    let (who, margin) = text.split_at(2);
    let winner = match who {
        "B+" => Color::Black,
        "W+" => Color::White,
        _ => panic!("not a score: {text:?}"),
    };
    (Some(winner), margin.parse().expect("a margin"))
}

#[test]
fn a_short_game_against_gnu_go() {
    let gnugo = "/usr/games/gnugo";
    if !Path::new(gnugo).exists() {
        println!(
            "SKIPPED: GNU Go is not installed ({gnugo}); `apt-get install gnugo` runs this test"
        );
        return;
    }
    let mut arbor = Engine::start(
        "arbor",
        env!("CARGO_BIN_EXE_arbor"),
        &["gtp", "go", "--playouts", "300", "--seed", "7"],
    );
    let mut gnu = Engine::start(
        "gnugo",
        gnugo,
        &[
            "--mode",
            "gtp",
            "--level",
            "1",
            "--chinese-rules",
            "--positional-superko",
        ],
    );
    for engine in [&mut arbor, &mut gnu] {
        engine.ok("boardsize 9");
        engine.ok("clear_board");
        engine.ok("komi 7.5");
    }
    let mut game = GoGame::new(9).unwrap();
    let mut passes = 0;
    let mut moves = 0;
    let mut resigned = None;
    const MOVE_CAP: usize = 160;
    while passes < 2 && moves < MOVE_CAP {
        let color = game.board().to_move();
        let (mover, other, word) = match color {
            Color::Black => (&mut arbor, &mut gnu, "b"),
            Color::White => (&mut gnu, &mut arbor, "w"),
        };
        let reply = mover.ok(&format!("genmove {word}"));
        if reply.eq_ignore_ascii_case("resign") {
            resigned = Some(color);
            break;
        }
        let text: GoMove = reply
            .parse()
            .unwrap_or_else(|e| panic!("{}: bad vertex {reply:?}: {e}", mover.name));
        let mv = match text {
            GoMove::Pass => Move::Pass,
            GoMove::Play(v) => Move::Play(game.board().point(v.col, v.row).unwrap()),
        };
        if let Err(e) = game.try_play(mv) {
            panic!(
                "{} played an illegal move {reply} ({e}) at move {moves}:\n{:?}",
                mover.name,
                game.board()
            );
        }
        other.ok(&format!("play {word} {reply}"));
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        moves += 1;
    }
    // Both engines saw the same game: arbor's own board agrees with the referee's.
    let board = arbor.ok("showboard");
    let stones = |c: char| board.matches(c).count();
    let counts = game.board().stone_counts();
    assert_eq!(
        (stones('X'), stones('O')),
        (usize::from(counts[0]), usize::from(counts[1]))
    );
    let result = match resigned {
        Some(color) => format!("{:?} resigned after {moves} moves", color),
        None => {
            let gnu_score = gnu.ok("final_score");
            let arbor_score = arbor.ok("final_score");
            let (gnu_winner, _) = parse_score(&gnu_score);
            let (arbor_winner, _) = parse_score(&arbor_score);
            let ending = if passes >= 2 {
                "two passes"
            } else {
                "the move cap"
            };
            format!(
                "ended by {ending} after {moves} moves; GNU Go scores {gnu_score}, arbor \
                 scores {arbor_score}{}",
                if gnu_winner == arbor_winner {
                    " (they agree)"
                } else {
                    " (they disagree)"
                }
            )
        }
    };
    println!("arbor (Black, 300 playouts) vs GNU Go level 1 (White), 9x9, komi 7.5: {result}");
    assert!(moves > 0);
}

#[test]
fn hostile_input_gets_replies_not_a_crash() {
    let long = "x".repeat(100_000);
    let mut script: Vec<u8> = Vec::new();
    script.extend_from_slice(b"\xff\xfe garbage\n");
    script.extend_from_slice(long.as_bytes());
    script.extend_from_slice(b"\n\x00\x01\x02\nplay b \xc3\xa44\nboardsize 99999999999999999999\n");
    script.extend_from_slice(b"komi nan\nplay b E5 E6 E7 E8 E9\n7 genmove b\nname");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["gtp", "go", "--playouts", "50", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&script).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let out = String::from_utf8(output.stdout).unwrap();
    let replies: Vec<&str> = out.split_terminator("\n\n").collect();
    // Garbage, the long word, the bad vertex, the size, the komi and the five arguments are
    // refused; genmove on two threads answers; the last line without a newline is read.
    assert_eq!(replies.len(), 8, "{replies:#?}");
    assert!(
        replies[..6].iter().all(|r| r.starts_with('?')),
        "{replies:#?}"
    );
    assert!(replies[6].starts_with("=7 "), "{replies:#?}");
    assert_eq!(replies[7], "= arbor");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let script = "genmove b\ngenmove w\ngenmove b\ngenmove w\ngenmove b\nshowboard\n";
    let args = ["--playouts", "300", "--seed", "11"];
    let (first, code, err) = session(&args, script);
    assert_eq!(code, 0, "{err}");
    let (second, _, _) = session(&args, script);
    assert_eq!(first, second);
    assert_eq!(first.len(), 6);
}
