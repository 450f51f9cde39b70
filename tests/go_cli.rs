//! The `arbor go playouts` command, run as a user would: its one result line, and its
//! refusals of bad options.
mod common;

use common::arbor;

/// The fields of `result playouts <n> stones <mean> black <rate>% speed <n> playouts/s`.
fn parse_result(line: &str) -> (u64, f64, f64, u64) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 10, "{line}");
    assert_eq!(
        [words[0], words[1], words[3], words[5], words[7], words[9]],
        [
            "result",
            "playouts",
            "stones",
            "black",
            "speed",
            "playouts/s"
        ],
        "{line}"
    );
    let rate = words[6].strip_suffix('%').expect("a percentage");
    (
        words[2].parse().unwrap(),
        words[4].parse().unwrap(),
        rate.parse().unwrap(),
        words[8].parse().unwrap(),
    )
}

#[test]
fn playouts_end_with_one_result_line() {
    let args = [
        "go", "playouts", "--size", "9", "--policy", "light", "--count", "2000", "--seed", "3",
    ];
    let (code, out, err) = arbor(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let (playouts, stones, black, speed) = parse_result(out.trim_end());
    assert_eq!(playouts, 2000);
    // 2,000 playouts: the mean is within a few tenths of 107, the rate within a few points.
    assert!((100.0..115.0).contains(&stones), "{stones}");
    assert!((35.0..50.0).contains(&black), "{black}");
    assert!(speed > 0);
    // The same seed gives the same playouts (the speed aside).
    let (_, again, _) = arbor(&args);
    assert_eq!(parse_result(again.trim_end()).1, stones);
    // Other sizes and komi.
    let (code, out, _) = arbor(&[
        "go", "playouts", "--size", "5", "--count", "100", "--komi", "-100",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        parse_result(out.trim_end()).2,
        100.0,
        "Black always wins with komi -100"
    );
}

#[test]
fn bad_options_are_refused() {
    for bad in [
        &["go", "playouts", "--size", "4"][..],
        &["go", "playouts", "--size", "20"],
        &["go", "playouts", "--count", "0"],
        &["go", "playouts", "--komi", "nan"],
        &["go", "playouts", "--komi", "inf"],
        &["go", "playouts", "--komi", "5000"],
        &["go", "playouts", "--policy", "heavy"],
        &["go", "playouts", "extra"],
        &["go", "nothing"],
    ] {
        let (code, out, err) = arbor(bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(out.is_empty());
        assert!(err.starts_with("arbor: "), "{err}");
    }
}

#[test]
fn mogo_playouts_end_with_the_same_result_line() {
    let args = [
        "go", "playouts", "--size", "9", "--policy", "mogo", "--count", "300", "--seed", "3",
    ];
    let (code, out, err) = arbor(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let (playouts, stones, black, speed) = parse_result(out.trim_end());
    assert_eq!(playouts, 300);
    assert!((40.0..160.0).contains(&stones), "{stones}");
    assert!((10.0..90.0).contains(&black), "{black}");
    assert!(speed > 0);
    let (_, again, _) = arbor(&args);
    assert_eq!(parse_result(again.trim_end()).1, stones);
}

#[test]
fn playouts_start_from_an_sgf_position() {
    let dir = std::env::temp_dir().join(format!("arbor-go-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    // Black holds a large area on 5x5 and White has no stone: Black wins nearly every
    // playout at komi 0, where from the empty board it wins about half.
    let strong = file(
        "black.sgf",
        "(;FF[4]SZ[5]KM[0]AB[bb][cb][db][bc][dc][bd][cd][dd];W[])",
    );
    let (code, out, err) = arbor(&["go", "playouts", "--sgf", &strong, "--count", "500"]);
    assert_eq!(code, 0, "{err}");
    let (_, stones, black, _) = parse_result(out.trim_end());
    assert!(black > 90.0, "{out}");
    // Fewer points are left to fill than on an empty 5x5 board.
    assert!(stones < 25.0, "{out}");
    // --komi overrides the record's.
    let (_, out, _) = arbor(&[
        "go", "playouts", "--sgf", &strong, "--count", "100", "--komi", "100",
    ]);
    assert_eq!(parse_result(out.trim_end()).2, 0.0, "{out}");

    // A record that cannot be replayed, a missing file, a finished game, --size beside it.
    let occupied = file("occupied.sgf", "(;SZ[9];B[ee];W[ee])");
    let (code, _, err) = arbor(&["go", "playouts", "--sgf", &occupied]);
    assert_eq!(
        (code, err.trim_end()),
        (
            1,
            format!("arbor: {occupied}: move 2: the point is occupied").as_str()
        )
    );
    let malformed = file("malformed.sgf", "(;SZ[9];B[ee");
    let (code, _, err) = arbor(&["go", "playouts", "--sgf", &malformed]);
    assert_eq!(code, 1);
    assert!(err.starts_with(&format!("arbor: {malformed}: ")), "{err}");
    let over = file("over.sgf", "(;SZ[9];B[];W[])");
    let (code, _, err) = arbor(&["go", "playouts", "--sgf", &over]);
    assert_eq!(code, 1);
    assert!(err.contains("the game is over"), "{err}");
    let missing = dir.join("missing.sgf");
    let (code, _, err) = arbor(&["go", "playouts", "--sgf", missing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
    let (code, _, _) = arbor(&["go", "playouts", "--sgf", &strong, "--size", "5"]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
