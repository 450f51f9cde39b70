//! `arbor cfr` as a user runs it.
mod common;

use common::arbor;

/// The exploitability figures of the report lines, in order.
fn exploitabilities(out: &str) -> Vec<f64> {
    out.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            words.find(|&w| w == "exploitability")?;
            words.next()?.parse().ok()
        })
        .collect()
}

#[test]
fn kuhn_reaches_its_value_and_exploitability_falls() {
    let (code, out, err) = arbor(&["cfr", "--game", "kuhn", "--iterations", "1000"]);
    assert_eq!(code, 0, "{err}");
    let found = exploitabilities(&out);
    assert_eq!(found.len(), 4, "{out}"); // 1, 10, 100, 1000
    assert!(found.windows(2).all(|w| w[1] < w[0]), "{out}");
    assert!(found[3] < 1.0, "{out}"); // below 0.001 chip
    let last = out.lines().last().unwrap_or_default();
    assert!(last.contains("value -0.05"), "{last}"); // -1/18 = -0.0556
}

#[test]
fn leduc_with_every_algorithm_and_the_same_output_for_the_same_seed() {
    for algo in ["cfr+", "dcfr", "mccfr-es", "mccfr-os"] {
        let args = [
            "cfr",
            "--game",
            "leduc",
            "--algo",
            algo,
            "--iterations",
            "100",
            "--report-every",
            "50",
        ];
        let (code, out, err) = arbor(&args);
        assert_eq!(code, 0, "{algo} {err}");
        let found = exploitabilities(&out);
        assert_eq!(found.len(), 2, "{out}");
        // Outcome sampling is too noisy to fall between 50 and 100 iterations for sure.
        if algo != "mccfr-os" {
            assert!(found[1] < found[0], "{algo} {out}");
        }
        let (_, again, _) = arbor(&args);
        let strip = |text: &str| -> Vec<String> {
            text.lines()
                .map(|l| l.split(" time ").next().unwrap_or_default().to_owned())
                .collect()
        };
        assert_eq!(strip(&out), strip(&again), "{algo}");
    }
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["cfr", "--game", "chess"][..],
        &["cfr", "--algo", "cfr++"],
        &["cfr", "--iterations", "0"],
        &["cfr", "--iterations", "many"],
        &["cfr", "stray"],
    ] {
        let (code, _, err) = arbor(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("arbor:"), "{err}");
    }
}
