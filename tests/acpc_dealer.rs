//! `arbor acpc dealer` and `arbor acpc play` as a user runs them: a long duplicate match,
//! card-blind bots cancelling under duplicate, a client over loopback giving the same log as
//! in-process bots, the reference dealer's warnings for invalid replies, time limits, and
//! resuming from the CSV, the per-hand and per-match time limits with slow clients, and the
//! TO/FROM transcript.
#[path = "common/acpc.rs"]
mod acpc;
mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use acpc::{dealer, dealer_awaiting, finish, scratch, text};
use arbor::holdem::acpc::MatchState;
use arbor::holdem::rules::HoldemConfig;
use common::arbor;

/// The CSV rows as (half, hand, bot0 chips, bot1 chips, warnings).
fn rows(csv: &Path) -> Vec<(u8, u64, i64, i64, u32)> {
    text(csv)
        .lines()
        .skip(2)
        .map(|line| {
            let f: Vec<&str> = line.splitn(10, ',').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[4].parse().unwrap(),
                f[5].parse().unwrap(),
                f[6].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_ten_thousand_hand_duplicate_match_has_no_warning_and_sums_to_zero() {
    let dir = scratch("long");
    let csv = dir.join("m.csv");
    let log = dir.join("m.log");
    let (code, out, err) = dealer(&[
        "--bot0",
        "random:seed=3",
        "--bot1",
        "min-raise",
        "--hands",
        "10000",
        "--seed",
        "42",
        "--duplicate",
        "on",
        "--csv",
        csv.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("WARNING"), "{err}");
    assert!(out.contains("warnings 0"), "{out}");
    let rows = rows(&csv);
    assert_eq!(rows.len(), 20_000);
    assert!(rows.iter().all(|r| r.2 + r.3 == 0 && r.4 == 0));
    // Each log: header, 10,000 STATE lines whose values sum to zero, the SCORE line.
    for path in [log.clone(), dir.join("m.swapped.log")] {
        let log = text(&path);
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 4 + 10_000 + 1, "{}", path.display());
        assert!(
            lines[0].starts_with("# name/game/hands/seed m"),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with(" holdem.nolimit.2p.reverse_blinds.game 10000 42"));
        let mut total = [0i64; 2];
        for (hand, line) in lines[4..10_004].iter().enumerate() {
            assert!(line.starts_with(&format!("STATE:{hand}:")), "{line}");
            let values = line.rsplit(':').nth(1).unwrap();
            let (a, b) = values.split_once('|').unwrap();
            let (a, b): (i64, i64) = (a.parse().unwrap(), b.parse().unwrap());
            assert_eq!(a + b, 0, "{line}");
            // Seats rotate: seat 0 is position 0 in even hands.
            let seat0 = hand % 2;
            total[0] += if seat0 == 0 { a } else { b };
            total[1] += if seat0 == 0 { b } else { a };
        }
        let score = lines[10_004];
        assert!(
            score.starts_with(&format!("SCORE:{}|{}:", total[0], total[1])),
            "{score}"
        );
        assert!(out.contains(score), "{out}");
    }
}

#[test]
fn card_blind_bots_cancel_exactly_under_duplicate() {
    let dir = scratch("blind");
    for (a, b) in [
        ("call", "min-raise"),
        ("call", "all-in"),
        ("min-raise", "all-in"),
    ] {
        let csv = dir.join(format!("{a}-{b}.csv"));
        let (code, out, err) = dealer(&[
            "--bot0",
            a,
            "--bot1",
            b,
            "--hands",
            "2000",
            "--seed",
            "7",
            "--duplicate",
            "on",
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("result bot0 +0 ± 0 mbb/hand"),
            "{a} {b}: {out}"
        );
        let rows = rows(&csv);
        let (first, second) = rows.split_at(2000);
        for (x, y) in first.iter().zip(second) {
            assert_eq!((x.0, y.0, x.1), (0, 1, y.1));
            assert_eq!(x.2 + y.2, 0, "{a} {b} hand {}", x.1);
        }
        // Not a trivial zero: chips did change hands in each half.
        assert!(first.iter().any(|r| r.2 != 0));
    }
}

#[test]
fn a_client_over_loopback_plays_the_same_match_as_in_process_bots() {
    let dir = scratch("loopback");
    let exe = env!("CARGO_BIN_EXE_arbor");
    let client = format!("cmd:{exe} acpc play --port {{port}} --bot random:seed=5");
    let run = |bot0: &str, name: &str| {
        let log = dir.join(format!("{name}.log"));
        let transcript = dir.join(format!("{name}.transcript"));
        let (code, out, err) = dealer(&[
            "--bot0",
            bot0,
            "--bot1",
            "equity:samples=200",
            "--name0",
            "random",
            "--name1",
            "equity",
            "--hands",
            "150",
            "--seed",
            "11",
            "--duplicate",
            "on",
            "--action-ms",
            "20000",
            "--log",
            log.to_str().unwrap(),
            "--transcript",
            transcript.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{bot0}: {err}");
        assert!(!err.contains("WARNING"), "{err}");
        (
            out,
            text(&log),
            text(&dir.join(format!("{name}.swapped.log"))),
            without_times(&text(&transcript)),
        )
    };
    let (tcp_out, tcp_a, tcp_b, tcp_transcript) = run(&client, "tcp");
    let (bot_out, bot_a, bot_b, bot_transcript) = run("random:seed=5", "inprocess");
    // A client's messages are the ones an in-process bot is noted with.
    assert!(
        tcp_transcript.len() > 2 * 150 * 4,
        "{}",
        tcp_transcript.len()
    );
    assert!(tcp_transcript == bot_transcript);
    // The header names the match after the file; everything after it is the same.
    let body = |log: &str| log.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&tcp_a), body(&bot_a));
    assert_eq!(body(&tcp_b), body(&bot_b));
    // The client's seat printed its port (the other seat is in-process).
    let ports = tcp_out.lines().next().unwrap();
    assert!(ports.ends_with(" -") && ports.split(' ').next().unwrap().parse::<u16>().is_ok());
    let result = |out: &str| {
        out.lines()
            .find(|l| l.contains("mbb/hand"))
            .map(str::to_owned)
    };
    assert_eq!(result(&tcp_out), result(&bot_out));
}

/// Starts a dealer whose seat 0 awaits a client; returns it and the port.
fn dealer_awaiting_seat0(args: &[&str]) -> (Child, u16, BufReader<ChildStdout>) {
    let mut all = vec!["--bot0", "port"];
    all.extend_from_slice(args);
    let (child, ports, stdout) = dealer_awaiting(&all);
    assert_ne!(ports[0], 0, "no port for seat 0");
    (child, ports[0], stdout)
}

#[test]
fn invalid_replies_get_the_reference_dealers_warnings() {
    let dir = scratch("invalid");
    let log = dir.join("bad.log");
    let (child, port, stdout) = dealer_awaiting_seat0(&[
        "--bot1",
        "call",
        "--hands",
        "4",
        "--seed",
        "3",
        "--log",
        log.to_str().unwrap(),
    ]);
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut writer = stream.try_clone().unwrap();
    writer.write_all(b"VERSION:2.0.0\r\n").unwrap();
    let mut turns = 0;
    for line in BufReader::new(stream).lines() {
        let line = line.unwrap();
        if line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let state = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC).unwrap();
        if !state.is_my_turn() {
            continue;
        }
        let reply = match turns {
            // A raise below the minimum, garbage, a reply to another state, a raise past the
            // stack; then calls.
            0 => format!("{line}:r1"),
            1 => format!("{line}:xyz"),
            2 => format!("MATCHSTATE:0:999::|:c\r\n{line}:f"),
            3 => format!("{line}:r999999"),
            _ => format!("{line}:c"),
        };
        turns += 1;
        writer.write_all(format!("{reply}\r\n").as_bytes()).unwrap();
    }
    let (code, out, err) = finish(child, stdout);
    assert_eq!(code, 0, "{err}");
    assert!(turns >= 4, "{turns}");
    for warning in [
        "WARNING: raise of 1 increased to ",
        "WARNING: invalid action, changed to call",
        "WARNING: ignoring un-requested response",
        "WARNING: raise of 999999 decreased to 20000",
    ] {
        assert!(err.contains(warning), "{warning}: {err}");
    }
    assert!(out.contains("warnings "), "{out}");
    let log = text(&log);
    assert!(log.contains("r20000"), "{log}");
}

#[test]
fn a_client_over_the_time_limit_is_an_error() {
    let (child, port, stdout) =
        dealer_awaiting_seat0(&["--bot1", "call", "--hands", "2", "--action-ms", "300"]);
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut writer = stream.try_clone().unwrap();
    writer.write_all(b"VERSION:2.0.0\r\n").unwrap();
    // Read everything, answer nothing.
    let mut reader = BufReader::new(stream);
    let mut sink = String::new();
    while reader.read_line(&mut sink).is_ok_and(|n| n > 0) {}
    let (code, _, err) = finish(child, stdout);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("ERROR") && err.contains("300 ms"), "{err}");
}

#[test]
fn a_resumed_match_equals_one_run_and_another_match_is_refused() {
    let dir = scratch("resume");
    let args = |csv: &Path, seed: &str| {
        vec![
            "--bot0".to_owned(),
            "random:seed=9".to_owned(),
            "--bot1".to_owned(),
            "equity:samples=100".to_owned(),
            "--hands".to_owned(),
            "120".to_owned(),
            "--seed".to_owned(),
            seed.to_owned(),
            "--duplicate".to_owned(),
            "on".to_owned(),
            "--csv".to_owned(),
            csv.to_str().unwrap().to_owned(),
        ]
    };
    let call = |args: Vec<String>| {
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        dealer(&words)
    };
    let whole = dir.join("whole.csv");
    let (code, whole_out, err) = call(args(&whole, "5"));
    assert_eq!(code, 0, "{err}");
    // An interrupted run: the first 170 hands (into the second half) and half a line.
    let full = text(&whole);
    let mut cut: String = full
        .lines()
        .take(2 + 170)
        .map(|l| format!("{l}\n"))
        .collect();
    cut.push_str("1,50,1,1,-");
    let resumed = dir.join("resumed.csv");
    std::fs::write(&resumed, cut).unwrap();
    let (code, resumed_out, err) = call(args(&resumed, "5"));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming after 170 hands"), "{err}");
    // Latencies differ from run to run; everything else is the same.
    let without_times = |csv: &str| {
        csv.lines()
            .map(|l| {
                let f: Vec<&str> = l.splitn(10, ',').collect();
                if f.len() == 10 {
                    let kept = [f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[9]];
                    kept.join(",")
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(without_times(&text(&resumed)), without_times(&full));
    let result = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with("SCORE") || l.starts_with("result"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(result(&resumed_out), result(&whole_out));
    // The same file with another seed is another match.
    let (code, _, err) = call(args(&resumed, "6"));
    assert_eq!(code, 1);
    assert!(err.contains("another match"), "{err}");
}

#[test]
fn bad_options_and_specs_are_usage_errors() {
    for args in [
        &["--bot0", "bluff", "--bot1", "call"][..],
        &["--bot0", "random:sead=1", "--bot1", "call"],
        &["--bot0", "call"],
        &["--bot0", "call", "--bot1", "cmd:"],
        &["--bot0", "call", "--bot1", "call", "--hands", "0"],
        &["--bot0", "call", "--bot1", "call", "--duplicate", "yes"],
        &["--bot0", "call", "--bot1", "call", "--hand-ms", "0"],
        &[
            "--bot0",
            "call",
            "--bot1",
            "call",
            "--match-ms-per-hand",
            "0",
        ],
        &[
            "--bot0",
            "call",
            "--bot1",
            "call",
            "--match-ms-per-hand",
            "x",
        ],
    ] {
        let (code, _, err) = dealer(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("arbor:"), "{err}");
    }
    let (code, _, err) = arbor(&["acpc", "play", "--port", "1", "--bot", "nobody"]);
    assert_eq!(code, 2, "{err}");
    // Nothing listens on port 1: a clear error, not a panic.
    let (code, _, err) = arbor(&["acpc", "play", "--port", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot connect"), "{err}");
}

#[test]
fn the_client_skips_comments_answers_its_turns_and_ends_when_the_dealer_closes() {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let client = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["acpc", "play", "--port", &port, "--bot", "min-raise"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (stream, _) = listener.accept().unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert_eq!(line, "VERSION:2.0.0\r\n");
    // Comments, a state where the opponent acts (no reply), then our turn as the small blind.
    writer
        .write_all(
            b"# a comment\r\n; another\r\nMATCHSTATE:0:0::Ah2c|\r\nMATCHSTATE:1:1::|Kd3s\r\n",
        )
        .unwrap();
    line.clear();
    reader.read_line(&mut line).unwrap();
    assert_eq!(line, "MATCHSTATE:1:1::|Kd3s:r200\r\n");
    drop(writer);
    drop(reader);
    let output = client.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{err}");
}

/// Transcript lines without their times (`TO 1 at 1700000000.123456 MSG` → `TO 1 MSG`),
/// after checking the time's form.
fn without_times(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .map(|line| {
            let (head, rest) = line.split_once(" at ").unwrap_or_else(|| panic!("{line}"));
            let (time, message) = rest.split_once(' ').unwrap_or((rest, ""));
            let (seconds, micros) = time.split_once('.').unwrap();
            assert!(seconds.parse::<u64>().unwrap() > 1_600_000_000, "{line}");
            assert!(micros.len() == 6 && micros.parse::<u32>().is_ok(), "{line}");
            format!("{head} {message}")
        })
        .collect()
}

#[test]
fn the_transcript_has_every_message_sent_and_every_reply_in_order() {
    let dir = scratch("transcript");
    let log = dir.join("t.log");
    let transcript = dir.join("t.transcript");
    let hands = 30;
    let (code, _, err) = dealer(&[
        "--bot0",
        "random:seed=4",
        "--bot1",
        "equity:samples=100",
        "--hands",
        &hands.to_string(),
        "--log",
        log.to_str().unwrap(),
        "--transcript",
        transcript.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines = without_times(&text(&transcript));
    assert_eq!(lines.first().map(String::as_str), Some("STARTED "));
    assert_eq!(lines.last().map(String::as_str), Some("FINISHED "));
    let log = text(&log);
    let states: Vec<&str> = log.lines().filter(|l| l.starts_with("STATE:")).collect();
    assert_eq!(states.len(), hands);
    // Walk the transcript hand by hand: every state goes to seat 1 then seat 2, the seat
    // to act answers it (`state:action`), and the last two messages of a hand show its log
    // line's betting (and, at a showdown, its cards).
    let mut last_sent: [String; 2] = Default::default();
    let mut replies_in_hand = vec![0usize; hands];
    let mut sent_in_hand = vec![0usize; hands];
    let mut final_states: Vec<Vec<String>> = vec![Vec::new(); hands];
    for line in &lines[1..lines.len() - 1] {
        let (kind, rest) = line.split_once(' ').unwrap();
        let (seat, message) = rest.split_once(' ').unwrap();
        let seat: usize = seat.parse::<usize>().unwrap() - 1;
        match kind {
            "TO" => {
                let state = MatchState::parse(message.as_bytes(), HoldemConfig::ACPC).unwrap();
                let hand = state.hand_number as usize;
                sent_in_hand[hand] += 1;
                if state.state.is_over() {
                    final_states[hand].push(message.to_owned());
                }
                last_sent[seat] = message.to_owned();
            }
            "FROM" => {
                let (state, action) = message.rsplit_once(':').unwrap();
                assert_eq!(state, last_sent[seat], "{line}");
                let parsed = MatchState::parse(state.as_bytes(), HoldemConfig::ACPC).unwrap();
                assert!(parsed.is_my_turn(), "{line}");
                assert!(matches!(&action[..1], "f" | "c" | "r"), "{line}");
                replies_in_hand[parsed.hand_number as usize] += 1;
            }
            _ => panic!("{line}"),
        }
    }
    for (hand, state) in states.iter().enumerate() {
        let fields: Vec<&str> = state.split(':').collect();
        let (betting, cards) = (fields[2], fields[3]);
        let actions = betting.matches(['f', 'c', 'r']).count();
        assert_eq!(replies_in_hand[hand], actions, "{state}");
        // Each state before an action, and the final one, to both seats.
        assert_eq!(sent_in_hand[hand], 2 * (actions + 1), "{state}");
        assert_eq!(final_states[hand].len(), 2, "{state}");
        for message in &final_states[hand] {
            let sent: Vec<&str> = message.split(':').collect();
            assert_eq!(sent[3], betting, "{message} vs {state}");
            if !betting.contains('f') {
                assert_eq!(sent[4], cards, "{message} vs {state}");
            }
        }
    }
    // Without --transcript nothing of it is printed.
    let (code, _, err) = dealer(&["--bot0", "call", "--bot1", "call", "--hands", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("TO ") && !err.contains("FROM "), "{err}");
}

/// A client in a thread that connects to `port` and calls whenever it acts, after `delay`.
fn slow_client(port: u16, delay: Duration) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let Ok(stream) = TcpStream::connect(("127.0.0.1", port)) else {
            return;
        };
        let mut writer = stream.try_clone().unwrap();
        let _ = writer.write_all(b"VERSION:2.0.0\r\n");
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            let Ok(state) = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC) else {
                continue;
            };
            if state.is_my_turn() {
                std::thread::sleep(delay);
                if writer
                    .write_all(format!("{line}:c\r\n").as_bytes())
                    .is_err()
                {
                    return;
                }
            }
        }
    })
}

#[test]
fn a_client_over_the_time_limit_of_a_hand_is_an_error() {
    // 120 ms an action: the big blind's second action of hand 0 (on the flop) goes past
    // 200 ms in the hand, though every action is far within --action-ms.
    let (child, port, stdout) = dealer_awaiting_seat0(&[
        "--bot1",
        "call",
        "--hands",
        "3",
        "--action-ms",
        "5000",
        "--hand-ms",
        "200",
    ]);
    let client = slow_client(port, Duration::from_millis(120));
    let (code, out, err) = finish(child, stdout);
    let _ = client.join();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("ERROR: hand 0: seat 0 (port): ran out of time in this hand:")
            && err.contains("the limit is 200 ms a hand"),
        "{err}"
    );
    assert!(!out.contains("SCORE"), "{out}");
    // The same client within a larger limit plays its hand.
    let (child, port, stdout) =
        dealer_awaiting_seat0(&["--bot1", "call", "--hands", "1", "--hand-ms", "2000"]);
    let client = slow_client(port, Duration::from_millis(120));
    let (code, out, err) = finish(child, stdout);
    let _ = client.join();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("SCORE"), "{out}");
}

#[test]
fn a_client_over_the_average_time_per_hand_of_the_match_is_an_error() {
    // Check and call to the river: 4 actions of 50 ms, 200 ms a hand, against an average
    // of 75 ms over 10 hands (750 ms): the fourth hand (hand 3) goes over.
    let dir = scratch("match-time");
    let csv = dir.join("m.csv");
    let (child, port, stdout) = dealer_awaiting_seat0(&[
        "--bot1",
        "call",
        "--hands",
        "10",
        "--match-ms-per-hand",
        "75",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let client = slow_client(port, Duration::from_millis(50));
    let (code, out, err) = finish(child, stdout);
    let _ = client.join();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("ERROR: hand 3: seat 0 (port): ran out of time:")
            && err.contains("over the limit of 75 ms a hand on average (750 ms for 10 hands)"),
        "{err}"
    );
    assert!(!out.contains("SCORE"), "{out}");
    // The hands before it are kept; the one that went over is not.
    assert_eq!(rows(&csv).len(), 3);
}
