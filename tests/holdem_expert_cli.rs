//! `arbor holdem chart` and `arbor holdem styles` as a user runs them: the shipped data is
//! exactly what the generator writes, the styles table prints every style, and bad input
//! is a usage error, not a panic.
mod common;

use common::arbor;

#[test]
fn the_shipped_data_is_what_the_chart_command_writes() {
    let dir = std::env::temp_dir().join(format!("arbor-expert-chart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let (code, stdout, stderr) = arbor(&["holdem", "chart", "--out", out]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/holdem/expert/data");
    for name in ["preflop_equity.bin", "chart.bin"] {
        let written = std::fs::read(dir.join(name)).unwrap();
        let shipped = std::fs::read(data.join(name)).unwrap();
        assert!(written == shipped, "{name} differs from the shipped file");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_styles_table_has_a_row_per_style() {
    let (code, stdout, stderr) = arbor(&[
        "holdem",
        "styles",
        "--hands",
        "40",
        "--opponent",
        "call",
        "--styles",
        "rock,maniac,0.5/0.5/0.1/0.5",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        rows[0].starts_with("rock") && rows[1].starts_with("maniac"),
        "{stdout}"
    );
    // 40 deals, each played twice.
    assert!(
        rows.iter()
            .all(|r| r.split_whitespace().nth(1) == Some("80")),
        "{stdout}"
    );
}

#[test]
fn bad_styles_and_opponents_are_usage_errors() {
    for args in [
        &["holdem", "styles", "--styles", "shark"][..],
        &["holdem", "styles", "--styles", "2/0/0/0"],
        &["holdem", "styles", "--opponent", "bluff"],
        &["holdem", "chart"],
        &[
            "acpc",
            "dealer",
            "--bot0",
            "expert:style=wild",
            "--bot1",
            "call",
        ],
    ] {
        let (code, stdout, stderr) = arbor(args);
        assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn the_expert_bot_plays_through_the_acpc_dealer() {
    let (code, stdout, stderr) = arbor(&[
        "acpc",
        "dealer",
        "--bot0",
        "expert:style=tag,seed=3",
        "--bot1",
        "random",
        "--hands",
        "30",
        "--duplicate",
        "on",
        "--progress",
        "off",
    ]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stderr.contains("WARNING"), "{stderr}");
    assert!(stdout.contains("mbb/hand"), "{stdout}");
}
