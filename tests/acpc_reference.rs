//! `arbor acpc` against what the ACPC reference dealer is known to do: its messages and log
//! lines for a recorded seed-0 match, the options taken over from it (fixed seats, the cap
//! on invalid actions, the start timeout), and `arbor acpc play` within a per-action budget.
#[path = "common/acpc.rs"]
mod acpc;
mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdout};

use acpc::{dealer, dealer_awaiting, finish, scratch, text};
use arbor::holdem::acpc::MatchState;
use arbor::holdem::rules::HoldemConfig;
use common::arbor;

/// Starts a dealer whose seats are `port` seats (the caller connects); returns it, the two
/// ports and its standard output after the port line.
fn dealer_awaiting_clients(args: &[&str]) -> (Child, [u16; 2], BufReader<ChildStdout>) {
    let (child, ports, stdout) = dealer_awaiting(args);
    (child, [ports[0], ports[1]], stdout)
}

/// A client on `port` answering every state where it acts with `reply(hand, betting)`.
fn scripted_client(port: u16, reply: fn(u32, &str) -> String) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut writer = stream.try_clone().unwrap();
        writer.write_all(b"VERSION:2.0.0\r\n").unwrap();
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            let state = MatchState::parse(line.as_bytes(), HoldemConfig::ACPC).unwrap();
            if !state.is_my_turn() {
                continue;
            }
            let betting = line.split(':').nth(3).unwrap_or_default().to_owned();
            let action = reply(state.hand_number, &betting);
            // The script's way to crash: the connection closes without an answer.
            if action == "quit" {
                return;
            }
            if writer
                .write_all(format!("{line}:{action}\r\n").as_bytes())
                .is_err()
            {
                return;
            }
        }
    })
}

/// The actions of the recorded match (below) where they are known, calls elsewhere.
fn recorded_actions(hand: u32, betting: &str) -> String {
    let action = match (hand, betting) {
        (0, "") => "r19686",
        (0, "r19686") => "r20000",
        (998, "cc/") => "r5841",
        (998, "cc/r5841") => "r19996",
        (998, "cc/r5841r19996") => "r20000",
        (999, "") => "f",
        _ => "c",
    };
    action.to_owned()
}

/// A transcript's lines without their times (`TO 1 at 1341695920.914700 X` → `TO 1 X`).
fn without_times(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .filter(|line| line.starts_with("TO ") || line.starts_with("FROM "))
        .map(|line| {
            let words: Vec<&str> = line.splitn(5, ' ').collect();
            format!("{} {} {}", words[0], words[1], words[4])
        })
        .collect()
}

/// A real match of the reference dealer, `dealer 2p.nolimit.h1000.r0
/// holdem.nolimit.2p.reverse_blinds.game 1000 0 p1 p2` (seed 0, 1,000 hands), as it was
/// recorded in the test data of the public Ruby gem acpc_poker_types
/// (`spec/dealer_data/poker_match_data_spec.rb`: the log header, hand 0's messages and its
/// STATE line; `spec/dealer_data/action_messages_spec.rb`: the last messages of hand 998 and
/// all of hand 999). The lines are copied here with their times removed.
const REFERENCE_HEADER: [&str; 4] = [
    "# name/game/hands/seed 2p.nolimit.h1000.r0 holdem.nolimit.2p.reverse_blinds.game 1000 0",
    "#--t_response 600000",
    "#--t_hand 600000",
    "#--t_per_hand 7000",
];
const REFERENCE_HAND_0: [&str; 11] = [
    "TO 1 MATCHSTATE:0:0::5d5c|",
    "TO 2 MATCHSTATE:1:0::|9hQd",
    "FROM 2 MATCHSTATE:1:0::|9hQd:r19686",
    "TO 1 MATCHSTATE:0:0:r19686:5d5c|",
    "TO 2 MATCHSTATE:1:0:r19686:|9hQd",
    "FROM 1 MATCHSTATE:0:0:r19686:5d5c|:r20000",
    "TO 1 MATCHSTATE:0:0:r19686r20000:5d5c|",
    "TO 2 MATCHSTATE:1:0:r19686r20000:|9hQd",
    "FROM 2 MATCHSTATE:1:0:r19686r20000:|9hQd:c",
    "TO 1 MATCHSTATE:0:0:r19686r20000c///:5d5c|9hQd/8dAs8s/4h/6d",
    "TO 2 MATCHSTATE:1:0:r19686r20000c///:5d5c|9hQd/8dAs8s/4h/6d",
];
const REFERENCE_STATE_0: &str =
    "STATE:0:r19686r20000c///:5d5c|9hQd/8dAs8s/4h/6d:20000|-20000:p1|p2";
const REFERENCE_HANDS_998_999: [&str; 10] = [
    "TO 1 MATCHSTATE:0:998:cc/r5841r19996r20000:Kc6h|/QhAh8d",
    "TO 2 MATCHSTATE:1:998:cc/r5841r19996r20000:|Qc3s/QhAh8d",
    "FROM 2 MATCHSTATE:1:998:cc/r5841r19996r20000:|Qc3s/QhAh8d:c",
    "TO 1 MATCHSTATE:0:998:cc/r5841r19996r20000c//:Kc6h|Qc3s/QhAh8d/Th/9d",
    "TO 2 MATCHSTATE:1:998:cc/r5841r19996r20000c//:Kc6h|Qc3s/QhAh8d/Th/9d",
    "TO 1 MATCHSTATE:1:999::|TdQd",
    "TO 2 MATCHSTATE:0:999::Jc8d|",
    "FROM 1 MATCHSTATE:1:999::|TdQd:f",
    "TO 1 MATCHSTATE:1:999:f:|TdQd",
    "TO 2 MATCHSTATE:0:999:f:Jc8d|",
];

#[test]
fn the_dealer_sends_and_logs_what_the_reference_dealer_did_in_a_recorded_match() {
    let dir = scratch("recorded");
    // Named as the reference's match, so that the log header names it the same.
    let log = dir.join("2p.nolimit.h1000.r0.log");
    let transcript = dir.join("t.txt");
    let (child, ports, stdout) = dealer_awaiting_clients(&[
        "--bot0",
        "port",
        "--bot1",
        "port",
        "--name0",
        "p1",
        "--name1",
        "p2",
        "--hands",
        "1000",
        "--seed",
        "0",
        "--log",
        log.to_str().unwrap(),
        "--transcript",
        transcript.to_str().unwrap(),
    ]);
    let clients = ports.map(|port| scripted_client(port, recorded_actions));
    let (code, _out, err) = finish(child, stdout);
    for client in clients {
        client.join().unwrap();
    }
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("WARNING"), "{err}");
    let log = text(&log);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[..4], REFERENCE_HEADER);
    assert_eq!(lines[4], REFERENCE_STATE_0);
    let messages = without_times(&text(&transcript));
    assert_eq!(messages[..REFERENCE_HAND_0.len()], REFERENCE_HAND_0);
    // The recorded part of hand 998 starts at its flop's last raise; it runs to the end.
    let tail = &messages[messages.len() - REFERENCE_HANDS_998_999.len()..];
    assert_eq!(tail, REFERENCE_HANDS_998_999);
    // Hand 998's showdown and hand 999's fold as the log says them, seat names rotating.
    assert!(log.contains(
        "\nSTATE:998:cc/r5841r19996r20000c//:Kc6h|Qc3s/QhAh8d/Th/9d:-20000|20000:p1|p2\n"
    ));
    assert!(log.contains("\nSTATE:999:f:Jc8d|TdQd:50|-50:p2|p1\n"));
}

#[test]
fn a_client_with_a_small_budget_answers_in_time_where_its_bot_would_not() {
    let dir = scratch("budget");
    let exe = env!("CARGO_BIN_EXE_arbor");
    // 10 million deals take about 0.8 s a decision preflop and on the flop: over the
    // dealer's 500 ms, unless the client stops the bot at half of its 40 ms.
    let client =
        format!("cmd:{exe} acpc play --port {{port}} --bot equity:samples=10000000 --action-ms 40");
    let csv = dir.join("m.csv");
    let (code, out, err) = dealer(&[
        "--bot0",
        &client,
        "--bot1",
        "call",
        "--hands",
        "12",
        "--seed",
        "4",
        "--action-ms",
        "500",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("WARNING") && !err.contains("ERROR"), "{err}");
    assert_eq!(text(&csv).lines().count(), 2 + 12);
    let latency = out
        .lines()
        .find(|line| line.starts_with("latency bot0"))
        .unwrap();
    let actions: u32 = latency.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(actions >= 12, "{latency}");
}

#[test]
fn fixed_seats_keep_the_button() {
    let dir = scratch("fixed");
    let run = |fixed: &str| {
        let log = dir.join(format!("{fixed}.log"));
        let csv = dir.join(format!("{fixed}.csv"));
        let (code, _, err) = dealer(&[
            "--bot0",
            "equity:samples=100",
            "--bot1",
            "random:seed=2",
            "--name0",
            "a",
            "--name1",
            "b",
            "--hands",
            "6",
            "--seed",
            "9",
            "--duplicate",
            "on",
            "--fixed-seats",
            fixed,
            "--log",
            log.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        (
            text(&log),
            text(&dir.join(format!("{fixed}.swapped.log"))),
            text(&csv),
        )
    };
    let names = |log: &str| -> Vec<String> {
        log.lines()
            .filter(|l| l.starts_with("STATE:"))
            .map(|l| l.rsplit(':').next().unwrap().to_owned())
            .collect()
    };
    let (log, swapped, csv) = run("on");
    // Seat 0 is the big blind (position 0, named first) in every hand.
    assert_eq!(names(&log), vec!["a|b"; 6]);
    assert_eq!(names(&swapped), vec!["b|a"; 6]);
    assert!(
        csv.lines().next().unwrap().ends_with(" fixed-seats on"),
        "{csv}"
    );
    // bot0's position column is its seat's.
    for line in csv.lines().skip(2) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[3], f[2], "{line}");
    }
    // The cards are the same deals as with rotating seats.
    let (rotating, _, _) = run("off");
    assert_eq!(names(&rotating), ["a|b", "b|a", "a|b", "b|a", "a|b", "b|a"]);
    let cards = |log: &str| -> Vec<String> {
        log.lines()
            .filter(|l| l.starts_with("STATE:"))
            .map(|l| l.split(':').nth(3).unwrap().to_owned())
            .collect()
    };
    let hole_sets = |log: &str| -> Vec<[String; 2]> {
        cards(log)
            .iter()
            .map(|c| {
                let holes = c.split('/').next().unwrap();
                let (a, b) = holes.split_once('|').unwrap();
                [a.to_owned(), b.to_owned()]
            })
            .collect()
    };
    assert_eq!(hole_sets(&log), hole_sets(&rotating));
    // A CSV of rotating seats does not resume a fixed-seat match.
    let csv_path = dir.join("off.csv");
    let (code, _, err) = dealer(&[
        "--bot0",
        "equity:samples=100",
        "--bot1",
        "random:seed=2",
        "--name0",
        "a",
        "--name1",
        "b",
        "--hands",
        "6",
        "--seed",
        "9",
        "--duplicate",
        "on",
        "--fixed-seats",
        "on",
        "--csv",
        csv_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("holds another match"), "{err}");
}

/// Seat 0's client: garbage for the first `BAD` actions, then calls.
fn invalid_then_calls(_: u32, _: &str) -> String {
    thread_local! { static SENT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) } }
    SENT.with(|sent| {
        sent.set(sent.get() + 1);
        if sent.get() <= 3 {
            "xyz".into()
        } else {
            "c".into()
        }
    })
}

#[test]
fn a_player_past_the_cap_on_invalid_actions_ends_the_match() {
    let run = |cap: &str| {
        let (mut child, ports, stdout) = dealer_awaiting_clients(&[
            "--bot0",
            "port",
            "--bot1",
            "call",
            "--hands",
            "10",
            "--seed",
            "3",
            "--max-invalid",
            cap,
        ]);
        let client = scripted_client(ports[0], invalid_then_calls);
        let _ = &mut child;
        let result = finish(child, stdout);
        client.join().unwrap();
        result
    };
    // Three invalid actions within a cap of 3: warnings, the match goes on.
    let (code, out, err) = run("3");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.matches("WARNING: invalid action, changed to call")
            .count(),
        3
    );
    assert!(out.contains("SCORE:"), "{out}");
    // The third past a cap of 2 ends the match, as the reference does, with no SCORE.
    let (code, out, err) = run("2");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("seat 0 (port): invalid action: more than 2 invalid actions"),
        "{err}"
    );
    assert!(!out.contains("SCORE:"), "{out}");
}

#[test]
fn a_client_that_does_not_connect_within_the_start_timeout_is_an_error() {
    let (code, _, err) = dealer(&[
        "--bot0",
        "port",
        "--bot1",
        "call",
        "--hands",
        "1",
        "--start-ms",
        "200",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("ERROR: seat 0"), "{err}");
    assert!(
        err.contains("no client connected and sent its version within 200 ms"),
        "{err}"
    );
}

/// Raises in every third hand, calls otherwise.
fn raise_every_third(hand: u32, betting: &str) -> String {
    if hand.is_multiple_of(3) && betting.is_empty() {
        "r300".into()
    } else {
        "c".into()
    }
}

/// [`raise_every_third`], crashing when asked on hand 5's flop.
fn crash_in_hand_5(hand: u32, betting: &str) -> String {
    if hand == 5 && betting == "cc/c" {
        "quit".into()
    } else {
        raise_every_third(hand, betting)
    }
}

/// Lines of a transaction file without the times.
fn actions_of(transactions: &str) -> Vec<String> {
    transactions
        .lines()
        .skip(1)
        .map(|line| line.rsplit_once(' ').unwrap().0.to_owned())
        .collect()
}

#[test]
fn a_match_stopped_in_the_middle_of_a_hand_resumes_there_from_the_transaction_file() {
    let run = |dir: &Path, client: fn(u32, &str) -> String| {
        let (child, ports, stdout) = dealer_awaiting_clients(&[
            "--bot0",
            "port",
            "--bot1",
            "call",
            "--hands",
            "9",
            "--seed",
            "6",
            "--log",
            dir.join("m.log").to_str().unwrap(),
            "--csv",
            dir.join("m.csv").to_str().unwrap(),
            "--transactions",
            dir.join("m.tlog").to_str().unwrap(),
            "--transcript",
            dir.join("m.transcript").to_str().unwrap(),
        ]);
        let client = scripted_client(ports[0], client);
        let result = finish(child, stdout);
        client.join().unwrap();
        result
    };
    let whole = scratch("tlog-whole");
    let (code, _, err) = run(&whole, raise_every_third);
    assert_eq!(code, 0, "{err}");
    let stopped = scratch("tlog-stopped");
    let (code, _, err) = run(&stopped, crash_in_hand_5);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("ERROR: hand 5: seat 0 (port)"), "{err}");
    // Hands 0 to 4 are in the CSV, hand 5's first three actions in the transaction file.
    assert_eq!(text(&stopped.join("m.csv")).lines().count(), 2 + 5);
    let recorded = actions_of(&text(&stopped.join("m.tlog")));
    assert_eq!(recorded[recorded.len() - 3..], ["0 5 c", "0 5 c", "0 5 c"]);
    std::fs::remove_file(stopped.join("m.transcript")).unwrap();
    let (code, _, err) = run(&stopped, raise_every_third);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("resuming after 5 hands in the CSV"), "{err}");
    assert!(
        err.contains("resuming 3 actions from the transaction file"),
        "{err}"
    );
    // The client is first asked on hand 5's flop, where the match stopped.
    let transcript = text(&stopped.join("m.transcript"));
    let first = transcript.lines().find(|l| l.starts_with("TO 1 ")).unwrap();
    assert!(first.contains(" MATCHSTATE:1:5:cc/c:"), "{first}");
    // The match is the uninterrupted one, and every action is recorded once.
    assert_eq!(text(&stopped.join("m.log")), text(&whole.join("m.log")));
    assert_eq!(
        actions_of(&text(&stopped.join("m.tlog"))),
        actions_of(&text(&whole.join("m.tlog")))
    );
    let outcomes = |csv: &str| -> Vec<String> {
        csv.lines()
            .map(|l| {
                let f: Vec<&str> = l.splitn(10, ',').collect();
                format!("{} {}", f[..7.min(f.len())].join(","), f.last().unwrap())
            })
            .collect()
    };
    assert_eq!(
        outcomes(&text(&stopped.join("m.csv"))),
        outcomes(&text(&whole.join("m.csv")))
    );
}
