//! The `arbor solve breakthrough` command, run as a user would: every algorithm with and
//! without race patterns agrees on the 4x5 start (a second-player win), and the patterns
//! save main-tree expansions.
mod common;

use common::arbor;

/// The expansions from the last line, `result <word> time <s> expanded <n>`.
fn result(out: &str) -> (String, u64) {
    let last = out.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"result"), "{out}");
    (words[1].to_string(), words[5].parse().unwrap())
}

#[test]
fn every_algorithm_with_and_without_patterns() {
    for algo in ["pns", "pn2", "ppn2", "dfpn"] {
        let mut expanded = [0u64; 2];
        for (i, patterns) in ["off", "on"].into_iter().enumerate() {
            let (code, out, err) = arbor(&[
                "solve",
                "breakthrough",
                "--size",
                "4x5",
                "--algo",
                algo,
                "--memory",
                "256M",
                "--threads",
                "1",
                "--patterns",
                patterns,
            ]);
            assert_eq!(code, 0, "{algo} {patterns}: {err}");
            let (word, n) = result(&out);
            assert_eq!(word, "second", "{algo} {patterns}");
            expanded[i] = n;
            if patterns == "on" {
                assert!(out.contains("race patterns: 18"), "{out}");
            }
        }
        assert!(expanded[1] < expanded[0], "{algo}: {expanded:?}");
    }
    let (code, _, err) = arbor(&[
        "solve",
        "breakthrough",
        "--size",
        "4x4",
        "--patterns",
        "yes",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--patterns"), "{err}");
}
