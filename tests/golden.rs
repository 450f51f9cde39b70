//! Outputs that a refactor must not change, pinned by a hash of their bytes: the moves of
//! seeded Breakthrough games between the MCTS players (UCT, RAVE, MoGo with its prior), the
//! moves of the shipped personas' and Vanilla's Match-3 games (known and sampled refills), the
//! checkpoints of short seeded evolve runs and a playtest report. The hashes were taken from
//! the code before the search core became one game interface (commit 1906812); a change of
//! any of them is a change of behaviour, to be made on purpose or not at all.
mod common;

use arbor::breakthrough::{Player, Position, Size};
use arbor::match3::{
    Agent, Goal, Level, SearchConfig, Storage, nodes_for, play_game, shipped, states_for,
};
use arbor::search::mcts::{Node, seeded_rng};
use common::arbor;

/// FNV-1a, 64 bits: a fixed hash with no dependency, enough to tell outputs apart.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Every move of `games` seeded games between `white` and `black` (colours kept), with each
/// search's statistics, as bytes.
fn breakthrough_games(size: Size, white: Player, black: Player, games: u64) -> Vec<u8> {
    let mut nodes = vec![Node::default(); white.nodes_needed().max(black.nodes_needed())];
    let mut record = Vec::new();
    for game in 0..games {
        let mut rng = seeded_rng(100 + game);
        let mut position = Position::start(size);
        while !position.is_over() {
            let player = if position.side_to_move() as u8 == 0 {
                white
            } else {
                black
            };
            let mut tree = arbor::search::mcts::Mcts::new(&mut nodes);
            let (mv, stats) = player.choose(&position, &mut tree, &mut rng);
            let mv = mv.expect("a game in progress has a move");
            record.extend(mv.to_u16().to_le_bytes());
            record.extend(stats.nodes_used.to_le_bytes());
            record.extend(stats.max_depth.to_le_bytes());
            record.push(stats.root_proof as u8);
            position.play(mv);
        }
    }
    record
}

#[test]
fn breakthrough_mcts_games_are_unchanged() {
    let small = Size::new_checked(6, 5).unwrap();
    let full = Size::new_checked(8, 8).unwrap();
    let hashes = [
        // RAVE against MoGo on 6x5, UCT against MoGo and RAVE against UCT on 8x8.
        fnv(&breakthrough_games(
            small,
            Player::rave(300),
            Player::mogo(300),
            4,
        )),
        fnv(&breakthrough_games(
            full,
            Player::uct(200),
            Player::mogo(200),
            2,
        )),
        fnv(&breakthrough_games(
            full,
            Player::rave(200),
            Player::uct(200),
            2,
        )),
    ];
    assert_eq!(
        hashes,
        [
            407023848312663311,
            14622744508526681014,
            14684044515422434891
        ]
    );
}

/// The moves and metrics of `games` games of `agent` on the default level.
fn match3_games(agent: Agent<'_>, config: &SearchConfig, games: u64) -> Vec<u8> {
    let level = Level::default();
    let mut nodes = vec![Node::default(); nodes_for(config.iterations)];
    let mut states = vec![Default::default(); states_for(config.iterations)];
    let mut record = Vec::new();
    for game in 0..games {
        let mut storage = Storage {
            nodes: &mut nodes,
            states: &mut states,
        };
        let metrics = play_game(
            &level,
            7 + game,
            agent,
            config,
            &mut storage,
            game,
            |mv, _| record.extend(mv.to_string().bytes()),
        )
        .unwrap();
        record.extend(metrics.score.to_le_bytes());
        record.extend(metrics.legal_sum.to_le_bytes());
    }
    record
}

#[test]
fn match3_agents_games_are_unchanged() {
    let config = SearchConfig {
        iterations: 100,
        ..SearchConfig::default()
    };
    let personas = shipped().unwrap();
    let mut hashes = Vec::new();
    for persona in &personas {
        let agent = Agent::Persona(&persona.program, persona.goal);
        hashes.push(fnv(&match3_games(agent, &config, 2)));
    }
    hashes.push(fnv(&match3_games(
        Agent::Vanilla(Goal::MaxScore),
        &config,
        2,
    )));
    let sampled = SearchConfig {
        sample_refills: true,
        target: Some(3000.0),
        ..config
    };
    hashes.push(fnv(&match3_games(
        Agent::Vanilla(Goal::MinMoves),
        &sampled,
        2,
    )));
    let expected = [
        13391181361291512180,
        15911724402073315293,
        1429324197020180768,
        16975589141688885240,
        5783224328877679057,
        9718615062165990998,
    ];
    assert_eq!(hashes, expected);
}

/// The checkpoint of a short seeded evolve run, without its elapsed time and without the
/// checksum line (a checksum over that time).
fn evolve_checkpoint(persona: &str) -> String {
    let dir = std::env::temp_dir().join(format!("arbor-golden-{persona}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let args = [
        "evolve",
        "--persona",
        persona,
        "--generations",
        "2",
        "--population",
        "12",
        "--games",
        "6",
        "--seed",
        "1",
        "--out",
        out,
    ];
    let (code, _, err) = arbor(&args);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("checkpoint.txt")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    text.lines()
        .filter(|line| !line.starts_with("elapsed ") && !line.starts_with("checksum "))
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn evolve_checkpoints_and_the_playtest_report_are_unchanged() {
    let checkpoints: Vec<String> = ["max-score", "min-moves"]
        .iter()
        .map(|persona| evolve_checkpoint(persona))
        .collect();
    // Format 2 added only the version in the first line and the checksum line: with the
    // first line as format 1 wrote it, the checkpoints are those of before, byte for byte.
    let format_1: Vec<u64> = checkpoints
        .iter()
        .map(|text| {
            let rest = text.strip_prefix("arbor-evolve-checkpoint 2\n").unwrap();
            fnv(format!("arbor-evolve-checkpoint 1\n{rest}").as_bytes())
        })
        .collect();
    assert_eq!(format_1, [6018335035382412673, 12128828608014797913]);
    let mut hashes: Vec<u64> = checkpoints
        .iter()
        .map(|text| fnv(text.as_bytes()))
        .collect();
    let (code, out, err) = arbor(&[
        "playtest",
        "board1",
        "board2",
        "--games",
        "2",
        "--iterations",
        "60",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: String = out
        .lines()
        .filter(|line| !line.starts_with("time "))
        .map(|line| format!("{line}\n"))
        .collect();
    hashes.push(fnv(report.as_bytes()));
    // The two checkpoints (format 2: as format 1 above, with its version and checksum
    // lines), then the report.
    let expected = [
        4292553941105349262,
        12715772286366477836,
        16754849347790217524,
    ];
    assert_eq!(hashes, expected, "{report}");
}
