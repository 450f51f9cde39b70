//! `arbor go match` as a user runs it: matches between real and fake GTP engines, the
//! files it writes, resuming, forfeits and refusals.
mod common;

use std::fs;
use std::path::{Path, PathBuf};

use arbor::go::sgf::GameRecord;
use arbor::go::vertex::GoMove;
use arbor::go::{Color, GoGame, Move};
use common::arbor;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-go-match-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The command of an arbor GTP engine with a few playouts a move.
fn arbor_engine(extra: &str) -> String {
    format!(
        "{} gtp go --playouts 50 {extra}",
        env!("CARGO_BIN_EXE_arbor")
    )
}

/// A fake engine: a shell script that answers every command with `= x` and every genmove
/// with `genmove_reply`, run through `sh` (no executable bit needed).
fn fake_engine(dir: &Path, genmove_reply: &str) -> String {
    let script = dir.join("fake-engine.sh");
    let text = format!(
        "while read command rest; do\n\
         case \"$command\" in\n\
         genmove) printf '= {genmove_reply}\\n\\n' ;;\n\
         quit) printf '=\\n\\n'; exit 0 ;;\n\
         *) printf '= x\\n\\n' ;;\n\
         esac\n\
         done\n"
    );
    fs::write(&script, text).unwrap();
    format!("sh {}", script.display())
}

/// The rows of games.csv, header first.
fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(dir.join("games.csv")).unwrap();
    text.lines()
        .map(|line| line.split(',').map(str::to_owned).collect())
        .collect()
}

/// Reads game `number`'s SGF and replays it on arbor's board: every move must be legal,
/// colours alternating from Black. Returns the record.
fn replay(dir: &Path, number: usize) -> GameRecord {
    let text = fs::read(dir.join(format!("game-{number:04}.sgf"))).unwrap();
    let record = GameRecord::parse_sgf(&text).unwrap();
    let mut game = GoGame::new(record.size).unwrap();
    game.set_komi(record.komi).unwrap();
    for (i, played) in record.moves.iter().enumerate() {
        let expected = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(played.color, expected, "move {i}");
        let mv = match played.mv {
            GoMove::Pass => Move::Pass,
            GoMove::Play(v) => Move::Play(game.board().point(v.col, v.row).unwrap()),
        };
        game.try_play(mv).unwrap();
    }
    record
}

fn summary_line(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.starts_with("result games "))
        .unwrap_or_else(|| panic!("no summary line in:\n{stdout}"))
}

#[test]
fn two_games_between_arbor_engines_write_csv_and_sgfs_that_replay() {
    let dir = scratch("two-games");
    let out = dir.join("match");
    // `{game}` gives each game its own seed.
    let (black, white) = (arbor_engine("--seed {game}"), arbor_engine("--seed 7"));
    let (code, stdout, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &black,
        "--white",
        &white,
        "--games",
        "2",
        "--size",
        "5",
        "--max-moves",
        "30",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(
        rows[0].join(","),
        "game,black,white,result,winner,moves,reason,black_score,white_score"
    );
    assert_eq!(&rows[1][..3], ["1", "A", "B"]);
    assert_eq!(&rows[2][..3], ["2", "B", "A"]);
    for number in [1, 2] {
        let record = replay(&out, number);
        assert_eq!(record.size, 5);
        assert_eq!(record.komi, 7.5);
        assert_eq!(record.rules.as_str(), "Chinese");
        assert_eq!(record.black_name.as_str(), "arbor");
        assert_eq!(record.result.as_str(), rows[number][3]);
        assert!(record.moves.len() <= 30);
        assert_eq!(record.moves.len().to_string(), rows[number][5]);
        assert!(!rows[number][6].contains("+F"), "{:?}", rows[number]);
    }
    let summary = summary_line(&stdout);
    assert!(
        summary.contains("A wins ") && summary.contains("B wins "),
        "{summary}"
    );
    assert!(summary.contains("95% "), "{summary}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_match_resumes_from_games_csv_and_a_damaged_csv_is_refused() {
    let dir = scratch("resume");
    let out = dir.join("match");
    let engine = arbor_engine("");
    let run = |games: &str| {
        arbor(&[
            "go",
            "match",
            "--black",
            &engine,
            "--white",
            &engine,
            "--games",
            games,
            "--size",
            "5",
            "--max-moves",
            "20",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (code, _, stderr) = run("1");
    assert_eq!(code, 0);
    assert!(stderr.contains("game 1/1:"), "{stderr}");
    let (code, stdout, stderr) = run("2");
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("resuming after 1 games"), "{stdout}");
    assert!(
        !stderr.contains("game 1/") && stderr.contains("game 2/2:"),
        "{stderr}"
    );
    assert!(stderr.contains("ETA"), "{stderr}");
    assert!(summary_line(&stdout).starts_with("result games 2 "));
    assert_eq!(csv_rows(&out).len(), 3);
    // Asking for no more games than are there plays none.
    let (code, _, stderr) = run("2");
    assert_eq!(code, 0);
    assert!(!stderr.contains("game 2/"));

    let csv = out.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    fs::write(&csv, text.replace("2,B,A,", "7,B,A,")).unwrap();
    let (code, _, stderr) = run("3");
    assert_eq!(code, 1);
    assert!(
        stderr.contains("games.csv is damaged at line 3"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"));

    // Another match's directory is refused rather than mixed.
    fs::write(&csv, text).unwrap();
    let (code, _, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &engine,
        "--white",
        &engine,
        "--games",
        "3",
        "--size",
        "7",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("another match"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses_by_forfeit() {
    let dir = scratch("illegal");
    let out = dir.join("match");
    let always_a1 = fake_engine(&dir, "A1");
    let (code, stdout, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &always_a1,
        "--white",
        &arbor_engine(""),
        "--games",
        "2",
        "--size",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let rows = csv_rows(&out);
    // Game 1: A1 as Black is legal once, then occupied. Game 2: A is White.
    assert_eq!(rows[1][3], "W+F", "{:?}", rows[1]);
    assert_eq!(rows[1][4], "B");
    assert!(
        rows[1][6].contains("black (A) played illegal A1"),
        "{:?}",
        rows[1]
    );
    assert_eq!(rows[2][3], "B+F", "{:?}", rows[2]);
    assert_eq!(rows[2][4], "B");
    replay(&out, 1);
    replay(&out, 2);
    assert!(summary_line(&stdout).contains("A wins 0 "));

    // A malformed genmove reply and a move off the board forfeit too.
    for (reply, why) in [("banana", "answered 'banana'"), ("Z9", "answered 'Z9'")] {
        let out = dir.join(reply);
        let engine = fake_engine(&dir, reply);
        let (code, _, stderr) = arbor(&[
            "go",
            "match",
            "--black",
            &engine,
            "--white",
            &arbor_engine(""),
            "--games",
            "1",
            "--size",
            "5",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        let rows = csv_rows(&out);
        assert_eq!(rows[1][3], "W+F");
        assert!(rows[1][6].contains(why), "{:?}", rows[1]);
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn crashing_silent_and_missing_engines_are_errors_or_forfeits_never_panics() {
    let dir = scratch("crash");
    let engine = arbor_engine("");
    // An engine that dies at once is a clear error: it never answered `name`.
    let (code, _, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        "false",
        "--white",
        &engine,
        "--games",
        "1",
        "--out",
        dir.join("false").to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("--black engine 'false' does not speak GTP"),
        "{stderr}"
    );
    let (code, _, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &engine,
        "--white",
        "/nonexistent/engine",
        "--games",
        "1",
        "--out",
        dir.join("missing").to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot start --white engine"), "{stderr}");

    // An engine that answers its name and then exits loses by forfeit.
    let script = dir.join("dies.sh");
    fs::write(&script, "read line; printf '= dies\\n\\n'; exit 3\n").unwrap();
    let dies = format!("sh {}", script.display());
    let out = dir.join("dies");
    let (code, _, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &engine,
        "--white",
        &dies,
        "--games",
        "1",
        "--size",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let rows = csv_rows(&out);
    assert_eq!(rows[1][3], "B+F");
    assert!(rows[1][6].contains("white (B) exited"), "{:?}", rows[1]);

    // An engine slower than --move-time loses on its first genmove.
    let script = dir.join("slow.sh");
    fs::write(
        &script,
        "while read c rest; do case \"$c\" in genmove) sleep 5; printf '= A1\\n\\n';; \
         *) printf '=\\n\\n';; esac; done\n",
    )
    .unwrap();
    let slow = format!("sh {}", script.display());
    let out = dir.join("slow");
    let (code, _, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &slow,
        "--white",
        &engine,
        "--games",
        "1",
        "--size",
        "5",
        "--move-time",
        "0.2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let rows = csv_rows(&out);
    assert_eq!(rows[1][3], "W+F");
    assert!(
        rows[1][6].contains("no reply within 0.2 s"),
        "{:?}",
        rows[1]
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn every_option_is_checked() {
    let engine = arbor_engine("");
    let base = ["go", "match", "--black", &engine, "--white", &engine];
    for bad in [
        &["--games", "0"][..],
        &["--games", "2", "--size", "4"],
        &["--games", "2", "--size", "20"],
        &["--games", "2", "--komi", "nan"],
        &["--games", "2", "--komi", "inf"],
        &["--games", "2", "--move-time", "0"],
        &["--games", "2", "--move-time", "-1"],
        &["--games", "2", "--max-moves", "0"],
        &["--games", "2", "--black", ""],
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(bad);
        let (code, _, stderr) = arbor(&args);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let (code, _, stderr) = arbor(&["go", "match", "--black", "x", "--games", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--white"), "{stderr}");
    let (code, _, stderr) = arbor(&[
        "go", "match", "--black", " ", "--white", "x", "--games", "1",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--black: the engine command is empty"),
        "{stderr}"
    );
}

#[test]
fn a_game_against_gnu_go_level_1() {
    let gnugo = "/usr/games/gnugo";
    if !Path::new(gnugo).exists() {
        eprintln!(
            "SKIPPED: GNU Go is not installed ({gnugo}); `apt-get install gnugo` runs this test"
        );
        return;
    }
    let dir = scratch("gnugo");
    let out = dir.join("match");
    let gnugo = format!("{gnugo} --mode gtp --level 1 --chinese-rules --positional-superko");
    let (code, stdout, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &arbor_engine(""),
        "--white",
        &gnugo,
        "--games",
        "1",
        "--size",
        "9",
        "--max-moves",
        "40",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let rows = csv_rows(&out);
    assert_eq!(rows.len(), 2);
    assert!(!rows[1][3].ends_with("+F"), "{:?}", rows[1]);
    let record = replay(&out, 1);
    assert_eq!(record.white_name.as_str(), "GNU Go");
    assert!(summary_line(&stdout).starts_with("result games 1 "));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn engines_that_disagree_on_the_score_are_scored_by_arbor() {
    let dir = scratch("disagree");
    let out = dir.join("match");
    // Both pass at once and claim the win for Black and for White: arbor's own count (its
    // ownership playouts on the empty board) decides.
    let passer = |name: &str, score: &str| {
        let script = dir.join(format!("{name}.sh"));
        let text = format!(
            "while read c rest; do case \"$c\" in genmove) printf '= pass\\n\\n';; \
             final_score) printf '= {score}\\n\\n';; *) printf '=\\n\\n';; esac; done\n"
        );
        fs::write(&script, text).unwrap();
        format!("sh {}", script.display())
    };
    let (code, stdout, stderr) = arbor(&[
        "go",
        "match",
        "--black",
        &passer("a", "B+1"),
        "--white",
        &passer("b", "W+1"),
        "--games",
        "1",
        "--size",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let rows = csv_rows(&out);
    let result = &rows[1][3];
    assert!(
        result.starts_with("B+") || result.starts_with("W+"),
        "{:?}",
        rows[1]
    );
    assert!(result[2..].parse::<f32>().is_ok(), "{:?}", rows[1]);
    assert!(rows[1][6].contains("engines disagree"), "{:?}", rows[1]);
    assert_eq!(&rows[1][7..], ["B+1", "W+1"]);
    assert!(
        summary_line(&stdout).ends_with("disagreements 1"),
        "{stdout}"
    );
    replay(&out, 1);
    let _ = fs::remove_dir_all(&dir);
}
