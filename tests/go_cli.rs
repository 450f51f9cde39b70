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
