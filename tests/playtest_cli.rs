//! `arbor playtest` as a user runs it: the table per level, the ranking, the CSV file,
//! independence from the thread count, and errors. Few games and iterations keep it quick.
mod common;

use common::arbor;

const AGENTS: [&str; 6] = ["MaxS", "MinS", "MaxM", "MinM", "Vanilla", "Random"];

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-playtest-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Standard output without the timing line, which is the one thing allowed to vary.
fn without_time(out: &str) -> String {
    out.lines()
        .filter(|line| !line.starts_with("time "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn prints_a_table_per_level_and_a_ranking_and_writes_the_same_csv() {
    let dir = temp_dir("csv");
    let csv = dir.join("table.csv");
    let csv = csv.to_str().unwrap();
    let (code, out, err) = arbor(&[
        "playtest",
        "board1",
        "board3",
        "--games",
        "2",
        "--iterations",
        "10",
        "--seed",
        "5",
        "--threads",
        "2",
        "--csv",
        csv,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("playtest: 2 level(s), 2 games per agent, seed 5"),
        "{out}"
    );
    assert!(
        out.lines()
            .next()
            .unwrap_or("")
            .ends_with("personas bundled"),
        "{out}"
    );
    for level in ["board1", "board3"] {
        assert!(
            out.contains(&format!("\nlevel {level} (7x7, 6 colours, 20 moves)\n")),
            "{out}"
        );
    }
    assert_eq!(
        out.matches("| agent | mean score | min | max | mean available moves |")
            .count(),
        2
    );
    assert_eq!(
        out.matches("\ndifficulty: expected score ").count(),
        2,
        "{out}"
    );
    for agent in AGENTS {
        assert_eq!(
            out.matches(&format!("\n| {agent} | ")).count(),
            2,
            "{agent}: {out}"
        );
    }
    let ranking: Vec<&str> = out
        .lines()
        .skip_while(|line| !line.starts_with("ranking, easiest first"))
        .skip(1)
        .take_while(|line| !line.is_empty() && !line.starts_with("table written"))
        .collect();
    assert_eq!(ranking.len(), 2, "{out}");
    assert!(ranking[0].starts_with("1. board") && ranking[1].starts_with("2. board"));

    // The CSV holds the same numbers as the printed table.
    let text = std::fs::read_to_string(csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "level",
            "agent",
            "games",
            "mean_score",
            "min_score",
            "max_score",
            "mean_available_moves"
        ]
    );
    assert_eq!(rows.len(), 1 + 2 * 6);
    for (i, row) in rows[1..].iter().enumerate() {
        assert_eq!(row[0], if i < 6 { "board1" } else { "board3" });
        assert_eq!(row[1], AGENTS[i % 6]);
        assert_eq!(row[2], "2");
        let mean: f64 = row[3].parse().unwrap();
        let (min, max): (u32, u32) = (row[4].parse().unwrap(), row[5].parse().unwrap());
        assert!(f64::from(min) <= mean && mean <= f64::from(max), "{row:?}");
        let moves: f64 = row[6].parse().unwrap();
        let printed = format!("| {} | {mean:.1} | {min} | {max} | ", row[1]);
        let line = out
            .lines()
            .find(|line| line.starts_with(&printed))
            .unwrap_or_else(|| panic!("{printed} not in:\n{out}"));
        let shown: f64 = line
            .trim_end_matches(" |")
            .rsplit("| ")
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            (shown - moves).abs() <= 0.005 + 1e-9,
            "{line} against {moves}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = temp_dir("threads");
    let run = |threads: &str| {
        let csv = dir.join(format!("t{threads}.csv"));
        let (code, out, err) = arbor(&[
            "playtest",
            "board2",
            "--games",
            "3",
            "--iterations",
            "8",
            "--threads",
            threads,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let out = without_time(&out).replace(csv.to_str().unwrap(), "FILE");
        (out, std::fs::read_to_string(&csv).unwrap())
    };
    let one = run("1");
    let three = run("3");
    assert_eq!(one, three);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn persona_directories_are_read_and_checked() {
    let dir = temp_dir("personas");
    let files = [
        ("max-score", "MaxS"),
        ("min-score", "MinS"),
        ("max-moves", "MaxM"),
        ("min-moves", "MinM"),
    ];
    for (name, goal) in files {
        let text = format!("goal {goal}\nformula add(div(W, N), sqrt(div(NP, N)))\n");
        std::fs::write(dir.join(format!("{name}.persona")), text).unwrap();
    }
    let dir_text = dir.to_str().unwrap();
    let args = [
        "playtest",
        "board1",
        "--games",
        "1",
        "--iterations",
        "5",
        "--personas",
        dir_text,
    ];
    let (code, out, err) = arbor(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("personas from {dir_text}")), "{out}");
    // A file whose goal does not fit its role is refused, naming it.
    std::fs::write(dir.join("min-moves.persona"), "goal MaxM\nformula W\n").unwrap();
    let (code, _, err) = arbor(&args);
    assert_eq!(code, 1);
    assert!(
        err.contains("min-moves.persona: goal MaxM where min-moves needs MinM"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_levels_and_bad_options_are_reported() {
    let dir = temp_dir("bad");
    let level = dir.join("bad.txt");
    std::fs::write(&level, "size 7x7\ncolours 12\n").unwrap();
    let (code, out, err) = arbor(&["playtest", level.to_str().unwrap(), "--games", "1"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("bad.txt: level line 2:"), "{err}");
    let (code, _, err) = arbor(&["playtest", "board9", "--games", "1"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cannot read level 'board9'") && err.contains("board1"),
        "{err}"
    );
    let (code, _, err) = arbor(&["playtest", "--games", "0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--games 0: must be a whole number from 1"),
        "{err}"
    );
    let (code, _, err) = arbor(&["playtest", "--games", "many"]);
    assert_eq!(code, 2);
    assert!(err.contains("--games many: not a whole number"), "{err}");
    let (code, _, err) = arbor(&["playtest", "--colour", "3"]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn vanilla_and_random_rows_repeat_match3_play() {
    let (code, table, err) = arbor(&[
        "playtest",
        "board2",
        "--games",
        "3",
        "--seed",
        "4",
        "--iterations",
        "6",
    ]);
    assert_eq!(code, 0, "{err}");
    for (agent, row) in [("vanilla", "Vanilla"), ("random", "Random")] {
        let (code, out, err) = arbor(&[
            "match3",
            "play",
            "--level",
            "board2",
            "--agent",
            agent,
            "--games",
            "3",
            "--seed",
            "4",
            "--iterations",
            "6",
        ]);
        assert_eq!(code, 0, "{err}");
        let number = |prefix: &str, index: usize| -> String {
            let line = out.lines().find(|l| l.starts_with(prefix)).unwrap();
            line.split_whitespace().nth(index).unwrap().to_owned()
        };
        // `score mean M min A max B` and `available moves mean X`.
        let expected = format!(
            "| {row} | {} | {} | {} | {} |",
            number("score mean", 2),
            number("score mean", 4),
            number("score mean", 6),
            number("available moves mean", 3)
        );
        assert!(table.contains(&expected), "{expected} not in:\n{table}");
    }
}
