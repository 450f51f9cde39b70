//! `arbor match3` as a user runs it: replay output format, play summary, and errors.
mod common;

use common::arbor;

const CASCADE: &str = "size 4x4\ncolours 4\ngrid\nCDCA\nDCDC\nDCAD\nAABA\n\
                       fall a BC\nfall b BA\nfall c BD\nfall d C\n";

#[test]
fn replay_prints_points_combos_and_score_per_move() {
    let dir = std::env::temp_dir().join(format!("arbor-m3cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = dir.join("cascade.txt");
    std::fs::write(&level, CASCADE).unwrap();
    let level = level.to_str().unwrap();
    let (code, out, err) = arbor(&["match3", "replay", "--level", level, "--moves", "c1-c2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "move 1 points 240 combos 1 score 240\n");
    // An illegal move stops the replay with the board shown.
    let (code, out, err) = arbor(&[
        "match3",
        "replay",
        "--level",
        level,
        "--moves",
        "c1-c2,a1-b1",
    ]);
    assert_eq!(code, 1);
    assert!(out.starts_with("move 1 points 240"), "{out}");
    assert!(err.contains("move 2: a1-b1 is not legal"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_summarises_the_games_of_a_preset() {
    let (code, out, err) = arbor(&[
        "match3", "play", "--level", "board2", "--agent", "random", "--games", "5", "--seed", "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("score mean"), "{out}");
    assert!(out.contains("available moves mean"), "{out}");
    // The same command twice gives the same numbers (timing line aside).
    let (_, again, _) = arbor(&[
        "match3", "play", "--level", "board2", "--agent", "random", "--games", "5", "--seed", "3",
    ]);
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("time"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&out), strip(&again));
}

#[test]
fn bad_match3_input_is_reported() {
    let (code, _, err) = arbor(&["match3", "play", "--agent", "greedy"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = arbor(&["match3", "play", "--level", "/nonexistent/level.txt"]);
    assert_eq!(code, 1);
    assert!(err.contains("board1"), "lists the presets: {err}");
    let (code, _, err) = arbor(&["match3", "replay", "--level", "board1", "--moves", "a1-c1"]);
    assert_eq!(code, 2, "{err}");
}
