//! Rules pinned by hand-built boards, generated-board invariants, replay determinism,
//! level and formula parsing, and the agents.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::*;
use crate::search::mcts::{CachedState, Node};

fn board(rows: &str, colours: u8) -> Board {
    Board::parse(rows, colours).unwrap()
}

#[test]
fn group_points_follow_the_paper() {
    assert_eq!(group_points(3), 60);
    assert_eq!(group_points(4), 120);
    assert_eq!(group_points(5), 200);
    assert_eq!(group_points(6), 300);
    assert_eq!(group_points(2), 0);
}

#[test]
fn level_parsing_never_panics_on_scrambled_text() {
    let pieces = [
        "size ",
        "7x7",
        "9x9",
        "colours ",
        "6",
        "0",
        "moves ",
        "grid\n",
        "fall ",
        "a ",
        "z ",
        "ABCDEF",
        "ABCDEFA\n",
        "\n",
        " ",
        "#",
        "x",
        "seed ",
        "18446744073709551616",
        "\u{e9}",
        "AAA\n",
    ];
    let mut rng = XorShiftRng::seed_from_u64(77);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let mut text = std::string::String::new();
        for _ in 0..(rng.next_u32() % 24) {
            text += pieces[(rng.next_u32() as usize) % pieces.len()];
        }
        if let Ok(level) = Level::parse(&text) {
            parsed += 1;
            // Whatever parses also plays and prints back to itself.
            let game = Match3::start(&level);
            assert_eq!(game.board().matched(), 0);
            assert_eq!(Level::parse(&level.to_string()).unwrap(), level);
        }
    }
    assert!(parsed > 100, "{parsed}");
}

/// (rows top first, points of the lines on the board, cells removed)
const SCORING: &[(&str, u32, u32)] = &[
    // A line of three, four, five.
    ("AAAB/BCBC/CBCB", 60, 3),
    ("AAAA/BCBC/CBCB", 120, 4),
    ("AAAAA/BCBCB/CBCBC", 200, 5),
    // An L of five: three across the bottom, three up the left, sharing a corner.
    ("ABC/ACB/AAA", 200, 5),
    // A T of five.
    ("AAA/CAB/BAC", 200, 5),
    // A cross of five.
    ("BAC/AAA/CAB", 200, 5),
    // An L of six (four across, three up).
    ("ABCB/ACBC/AAAA", 300, 6),
    // Two lines of one colour that do not share a cell: two groups.
    ("AAAB/BBCC/AAAC", 120, 6),
    // Parallel lines side by side do not merge (they share no cell).
    ("AAA/AAA/BCB", 120, 6),
    // Two colours at once.
    ("AAAC/BBBC/CACB", 120, 6),
    // Nothing.
    ("ABAB/BABA/ABAB", 0, 0),
];

#[test]
fn lines_and_groups_score_as_the_paper_says() {
    for &(rows, points, cells) in SCORING {
        let b = board(rows, 3);
        let (p, removed) = b.score_lines();
        assert_eq!((p, removed.count_ones()), (points, cells), "{rows}");
    }
}

/// Legal swaps by the definition: exchange the two cells and look for a line.
fn brute_force_legal(b: &Board) -> (u64, u64) {
    let (mut h, mut v) = (0, 0);
    for row in 0..b.height() {
        for col in 0..b.width() {
            for vertical in [false, true] {
                let Some(swap) = Swap::new(col, row, vertical) else {
                    continue;
                };
                let (c1, r1) = swap.to();
                if c1 >= b.width() || r1 >= b.height() {
                    continue;
                }
                let mut copy = *b;
                copy.exchange(swap);
                if copy.matched() != 0 {
                    let bit = 1u64 << swap.cell();
                    if vertical {
                        v |= bit;
                    } else {
                        h |= bit;
                    }
                }
            }
        }
    }
    (h, v)
}

/// A board of random size (3x3 to 8x8), 3 to `max_colours` colours and random cells, lines
/// allowed.
fn random_board(rng: &mut XorShiftRng, max_colours: u32) -> Board {
    let w = 3 + (rng.next_u32() % 6) as u8;
    let h = 3 + (rng.next_u32() % 6) as u8;
    let colours = 3 + (rng.next_u32() % (max_colours - 2)) as u8;
    let mut b = Board::filled(w, h, colours).unwrap();
    for row in 0..h {
        for col in 0..w {
            b.set(col, row, (rng.next_u32() % u32::from(colours)) as u8);
        }
    }
    b
}

#[test]
fn legal_masks_agree_with_the_definition_on_random_boards() {
    let mut rng = XorShiftRng::seed_from_u64(5);
    let mut checked = 0;
    for _ in 0..4000 {
        let b = random_board(&mut rng, 8);
        if b.matched() != 0 {
            continue; // the masks are defined on stable boards
        }
        assert_eq!(b.legal_masks(), brute_force_legal(&b), "\n{b}");
        checked += 1;
    }
    assert!(checked > 500, "only {checked} stable boards");
}

#[test]
fn rect_is_the_cells_below_and_left_of_its_corner() {
    for cols in 0..=8u8 {
        for rows in 0..=8u8 {
            let mut want = 0u64;
            for row in 0..rows {
                for col in 0..cols {
                    want |= 1 << (row * 8 + col);
                }
            }
            assert_eq!(board::rect(cols, rows), want, "{cols}x{rows}");
        }
    }
}

/// Scoring only the two swapped colours finds what scoring every colour finds, on random
/// stable boards and every legal swap.
#[test]
fn scoring_the_swapped_colours_finds_every_line() {
    let mut rng = XorShiftRng::seed_from_u64(8);
    let mut swaps = 0;
    for _ in 0..2000 {
        let b = random_board(&mut rng, 6);
        if b.matched() != 0 {
            continue;
        }
        let (hl, vl) = b.legal_masks();
        for (mut mask, vertical) in [(hl, 0u8), (vl, 0x40u8)] {
            while mask != 0 {
                let swap = Swap::from_code(mask.trailing_zeros() as u8 | vertical).unwrap();
                mask &= mask - 1;
                let mut copy = b;
                let colours = copy
                    .exchange(swap)
                    .expect("a legal swap exchanges two colours");
                let found = copy.score_swap(colours);
                assert_ne!(found.1, 0, "\n{b}{swap}");
                assert_eq!(found, copy.score_lines(), "\n{b}{swap}");
                swaps += 1;
            }
        }
    }
    assert!(swaps > 2000, "only {swaps} swaps");
}

/// A 4x4 level whose first move makes a line of four and whose fall lists then bring a line
/// of three in the top row: 120 + 2 × 60 = 240 points, one combo.
const CASCADE: &str = "\
size 4x4
colours 4
grid
CDCA
DCDC
DCAD
AABA
fall a BC
fall b BA
fall c BD
fall d C
";

#[test]
fn a_known_cascade_scores_with_the_multiplier() {
    let level = Level::parse(CASCADE).unwrap();
    let mut game = Match3::start(&level);
    let before = game.legal_count();
    let outcome = game.try_play(Swap::parse("c1-c2").unwrap()).unwrap();
    assert_eq!((outcome.points, outcome.combos), (240, 1));
    assert_eq!(outcome.legal_before, before);
    assert_eq!(
        game.board().to_string(),
        "CADC\nCDCA\nDCDC\nDCBD\n",
        "rows after the cascade, top first"
    );
    let m = game.metrics();
    assert_eq!(
        (m.score, m.moves, m.combos, m.legal_sum),
        (240, 1, 1, before)
    );
}

#[test]
fn illegal_moves_change_nothing() {
    let level = Level::parse(CASCADE).unwrap();
    let mut game = Match3::start(&level);
    let (board, metrics) = (*game.board(), game.metrics());
    let legal = game.legal_moves();
    let mut illegal = 0;
    for code in 0..=255u8 {
        let Some(swap) = Swap::from_code(code) else {
            continue;
        };
        if !legal.contains(&swap) {
            assert_eq!(
                game.try_play(swap),
                Err(crate::Error::IllegalMove),
                "{swap}"
            );
            illegal += 1;
        }
    }
    assert!(illegal > 100);
    for text in ["a1-b1", "d3-d4", "a1-a2"] {
        assert!(!legal.contains(&Swap::parse(text).unwrap()), "{text}");
    }
    assert!(
        legal.contains(&Swap::parse("a4-b4").unwrap()),
        "D falls into a4: a2-a4"
    );
    // A swap off this 4x4 board.
    assert!(game.try_play(Swap::parse("e1-f1").unwrap()).is_err());
    assert_eq!((*game.board(), game.metrics()), (board, metrics));
}

#[test]
fn swaps_parse_and_print() {
    let swap = Swap::parse("d4-d5").unwrap();
    assert_eq!(swap, Swap::parse("D5-d4").unwrap());
    assert_eq!(
        (swap.from(), swap.to(), swap.is_vertical()),
        ((3, 3), (3, 4), true)
    );
    assert_eq!(swap.to_string(), "d4-d5");
    assert_eq!(Swap::from_code(swap.code()), Some(swap));
    for bad in [
        "", "d4", "d4-d6", "d4-e5", "i1-h1", "a0-a1", "a9-a8", "d4-d4", "d4--d5",
    ] {
        assert!(Swap::parse(bad).is_err(), "{bad}");
    }
    assert_eq!(Swap::from_code(0x80), None);
    assert_eq!(Swap::from_code(7), None); // h1 has no right neighbour
    assert_eq!(Swap::from_code(0x40 | 56), None); // a8 has no cell above
}

#[test]
fn generated_boards_are_stable_and_playable() {
    for colours in 3..=8 {
        for (w, h) in [(3, 3), (5, 4), (7, 7), (8, 8)] {
            let level = Level::generated(w, h, colours, 20, 0).unwrap();
            for seed in 0..30 {
                let game = Match3::new(&level, seed);
                assert_eq!(game.board().matched(), 0);
                assert!(game.legal_count() > 0 || game.is_over());
                if (w, h) == (7, 7) {
                    assert_eq!(game.metrics().reshuffles, 0, "7x7 starts playable");
                }
            }
        }
    }
}

#[test]
fn a_board_without_moves_is_reshuffled_deterministically() {
    let text = "size 3x3\ncolours 3\ngrid\nABC\nBCA\nCAB\n";
    let level = Level::parse(text).unwrap();
    assert_eq!(level.grid().unwrap().legal_count(), 0);
    let a = Match3::new(&level, 9);
    let b = Match3::new(&level, 9);
    assert_eq!(a.metrics().reshuffles, 1);
    assert_eq!(a.board(), b.board());
    assert_eq!(a.board().matched(), 0);
    assert!(a.legal_count() > 0);
}

fn random_game(level: &Level, chance: u64, agent: u64) -> (Metrics, std::vec::Vec<Swap>) {
    let mut moves = std::vec::Vec::new();
    let metrics = play_game(
        level,
        chance,
        Agent::Random,
        &SearchConfig::default(),
        &mut Storage::nodes_only(&mut []),
        agent,
        |mv, _| moves.push(mv),
    )
    .unwrap();
    (metrics, moves)
}

#[test]
fn the_same_seed_and_moves_replay_the_same_game() {
    let level = Level::default();
    let (metrics, moves) = random_game(&level, 11, 12);
    assert_eq!(metrics.moves, 20);
    assert!(metrics.score >= 20 * 60);
    // Replaying the move list on the same chance seed gives the same game.
    let mut game = Match3::new(&level, 11);
    for &mv in &moves {
        game.try_play(mv).unwrap();
    }
    assert_eq!(game.metrics(), metrics);
    assert_eq!(random_game(&level, 11, 12), (metrics, moves.clone()));
    // Another chance seed gives another game.
    assert_ne!(random_game(&level, 13, 12).1, moves);
}

#[test]
fn level_files_round_trip() {
    for (name, text) in PRESETS {
        let level = Level::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = Level::parse(&level.to_string()).unwrap();
        assert_eq!(level, again, "{name}");
        assert!(level.grid().is_some(), "{name} has a preset grid");
        assert!(!level.fall(0).is_empty(), "{name} has fall lists");
    }
    let level = Level::parse(CASCADE).unwrap();
    assert_eq!(Level::parse(&level.to_string()).unwrap(), level);
    assert_eq!(preset("board2"), Some(PRESETS[1].1));
}

#[test]
fn level_errors_name_the_line_and_the_problem() {
    let cases: &[(&str, u32, &str)] = &[
        ("size 9x7", 1, "3 to 8"),
        ("# c\nsize 7", 2, "WIDTHxHEIGHT"),
        ("size 7x7\ncolours 2", 2, "3 to 8"),
        ("colours six", 1, "number"),
        ("moves 0", 1, "1 to 255"),
        ("moves 300", 1, "1 to 255"),
        ("seed -1", 1, "seed"),
        ("size 7x7\nspeed 3", 2, "unknown keyword"),
        ("moves 20 30", 1, "unexpected"),
        ("size 3x3\ncolours 3\ngrid\nABC\nBCA", 3, "as many rows"),
        ("size 3x3\ncolours 3\ngrid\nABC\nBCA\nCABA", 6, "row length"),
        (
            "size 3x3\ncolours 3\ngrid\nABC\nBCD\nCAB",
            5,
            "beyond the number of colours",
        ),
        (
            "size 3x3\ncolours 3\ngrid\nABC\nBBB\nCAB",
            5,
            "already has a line",
        ),
        ("size 3x3\nfall d ABC", 2, "beyond the width"),
        ("colours 3\nfall a ABD", 2, "beyond the number of colours"),
        ("fall a", 1, "list of colour letters"),
        ("fall z AB", 1, "column letter"),
        ("fall a AB\nfall a C", 2, "twice"),
        ("grid\ngrid", 1, "as many rows"),
    ];
    for &(text, line, message) in cases {
        let error = Level::parse(text).unwrap_err();
        assert_eq!(error.line, line, "{text:?}: {error}");
        assert!(error.message.contains(message), "{text:?}: {error}");
    }
    // Long or odd input never panics.
    let long: std::string::String = "fall a ".to_owned() + &"A".repeat(300);
    assert!(Level::parse(&long).is_err());
    assert!(Level::parse("size 7x\u{e9}7\n\0\0").is_err());
}

#[test]
fn formulas_parse_print_encode_and_decode() {
    let text = "add(div(W, N), mul(0.5, sqrt(div(NP, N))))";
    let program = Program::parse(text).unwrap();
    assert_eq!(program, Program::sample());
    assert_eq!(program.to_string(), text);
    assert_eq!(Program::parse(&program.to_string()).unwrap(), program);
    let mut bytes = [0u8; 128];
    let len = program.encode(&mut bytes).unwrap();
    assert_eq!(len, program.encoded_len());
    assert_eq!(Program::decode(&bytes[..len]).unwrap(), program);
    // W/N + 0.5·√(NP/N) at W = 3, N = 4, NP = 16: 0.75 + 0.5·2 = 1.75.
    assert_eq!(program.eval(3.0, 4.0, 16.0, 0.0), 1.75);
    // Protected operators.
    let p = Program::parse("add(div(W, sub(N, N)), sqrt(sub(0, M)))").unwrap();
    assert_eq!(p.eval(5.0, 2.0, 1.0, 9.0), 1.0 + 3.0);
    // Errors.
    assert!(Program::parse("add(W)").is_err());
    assert!(Program::parse("log(W)").is_err());
    assert!(Program::parse("W N").is_err());
    assert!(Program::parse("").is_err());
    assert!(Program::parse(&"sqrt(".repeat(40)).is_err());
    assert!(Program::parse(&("add(W, ".repeat(40) + "W" + &")".repeat(40))).is_err());
    assert_eq!(Program::decode(&[]), Err(crate::Error::InvalidLength));
    assert_eq!(
        Program::decode(&[2, 1, 5]),
        Err(crate::Error::InvalidArgument)
    );
    assert_eq!(
        Program::decode(&[1, 1, 42]),
        Err(crate::Error::InvalidArgument)
    );
    assert_eq!(
        Program::decode(&[1, 1, 0]),
        Err(crate::Error::InvalidArgument)
    ); // underflow
    assert_eq!(
        Program::decode(&[1, 2, 5, 5]),
        Err(crate::Error::InvalidArgument)
    ); // two left
    assert_eq!(
        Program::decode(&[1, 1, 9, 0, 0]),
        Err(crate::Error::InvalidLength)
    );
    assert_eq!(
        Program::decode(&[1, 1, 5, 5]),
        Err(crate::Error::InvalidLength)
    ); // trailing
    let nan = f32::NAN.to_le_bytes();
    assert_eq!(
        Program::decode(&[1, 1, 9, nan[0], nan[1], nan[2], nan[3]]),
        Err(crate::Error::InvalidArgument)
    );
    let mut short = [0u8; 3];
    assert_eq!(
        program.encode(&mut short),
        Err(crate::Error::BufferTooSmall)
    );
}

fn mean_score(agent: Agent<'_>, games: u64, iterations: u32) -> f64 {
    let level = Level::default();
    let mut nodes = vec![Node::default(); nodes_for(iterations)];
    let mut states = vec![CachedState::default(); states_for(iterations)];
    let mut storage = Storage {
        nodes: &mut nodes,
        states: &mut states,
    };
    let config = SearchConfig {
        iterations,
        ..SearchConfig::default()
    };
    let total: u64 = (0..games)
        .map(|g| {
            let m = play_game(&level, 100 + g, agent, &config, &mut storage, g, |_, _| {}).unwrap();
            u64::from(m.score)
        })
        .sum();
    total as f64 / games as f64
}

#[test]
fn vanilla_mcts_outscores_random_and_min_score_undercuts_it() {
    let random = mean_score(Agent::Random, 8, 0);
    let vanilla = mean_score(Agent::Vanilla(Goal::MaxScore), 8, 250);
    let min = mean_score(Agent::Vanilla(Goal::MinScore), 8, 250);
    assert!(vanilla > random * 1.2, "vanilla {vanilla} random {random}");
    assert!(min < random, "min-score {min} random {random}");
}

/// Same seed, same game; and the same again whether the searches keep states or replay their
/// moves (with sampled refills nothing is kept: a replay meets other boards).
#[test]
fn agents_are_deterministic_for_a_seed() {
    let level = Level::parse(PRESETS[0].1).unwrap();
    let program = Program::sample();
    let mut nodes = vec![Node::default(); nodes_for(60)];
    let mut states = vec![CachedState::default(); states_for(60)];
    for agent in [
        Agent::Vanilla(Goal::MaxScore),
        Agent::Persona(&program, Goal::MaxMoves),
    ] {
        for sample_refills in [false, true] {
            let config = SearchConfig {
                iterations: 60,
                sample_refills,
                ..SearchConfig::default()
            };
            let mut run = |seed, keep_states: bool| {
                let mut storage = Storage {
                    nodes: &mut nodes,
                    states: if keep_states { &mut states } else { &mut [] },
                };
                let mut moves = std::vec::Vec::new();
                let m = play_game(&level, 3, agent, &config, &mut storage, seed, |mv, _| {
                    moves.push(mv)
                })
                .unwrap();
                (m, moves)
            };
            let first = run(1, false);
            assert_eq!(first.0.moves, 20);
            assert_eq!(run(1, false), first);
            assert_eq!(run(1, true), first);
        }
    }
}

#[test]
fn the_persona_reward_follows_its_goal() {
    let level = Level::default();
    let mut game = Match3::new(&level, 4);
    let start = game.clone();
    game.try_play(game.legal_moves()[0]).unwrap();
    let points = game.score();
    for (goal, expected) in [
        (
            Goal::MaxScore,
            ((f64::from(points) - 60.0) / 240.0).clamp(0.0, 1.0),
        ),
        (
            Goal::MinScore,
            1.0 - ((f64::from(points) - 60.0) / 240.0).clamp(0.0, 1.0),
        ),
        (Goal::MaxMoves, f64::from(start.legal_count()) / 42.0),
        (Goal::MinMoves, 1.0 - f64::from(start.legal_count()) / 42.0),
    ] {
        let mut searched = Searched::new(&start, goal, &SearchConfig::default());
        crate::search::mcts::Game::play(&mut searched, game_first_move(&start));
        let reward = searched.goal_reward();
        assert!((f64::from(reward) - expected).abs() < 1e-6, "{goal:?}");
    }
}

#[test]
fn a_target_adds_the_goal_reached_flag() {
    let level = Level::default();
    let start = Match3::new(&level, 4);
    let mut after = start.clone();
    after.try_play(game_first_move(&start)).unwrap();
    let points = after.score() as f32;
    let reward = |goal, target| {
        let config = SearchConfig {
            target,
            ..SearchConfig::default()
        };
        let mut searched = Searched::new(&start, goal, &config);
        crate::search::mcts::Game::play(&mut searched, game_first_move(&start));
        searched.goal_reward()
    };
    for goal in [Goal::MaxScore, Goal::MinScore] {
        let plain = reward(goal, None);
        // Reached: the mean of the measure and 1; missed: the mean of the measure and 0.
        let (reached, missed) = match goal {
            Goal::MaxScore => (points, points + 1.0),
            _ => (points, points - 1.0),
        };
        assert!((reward(goal, Some(reached)) - (plain + 1.0) / 2.0).abs() < 1e-6);
        assert!((reward(goal, Some(missed)) - plain / 2.0).abs() < 1e-6);
    }
    let moves = start.legal_count() as f32;
    let plain = reward(Goal::MinMoves, None);
    assert!((reward(Goal::MinMoves, Some(moves)) - (plain + 1.0) / 2.0).abs() < 1e-6);
    assert!(
        (reward(Goal::MaxMoves, Some(moves + 0.5)) - reward(Goal::MaxMoves, None) / 2.0).abs()
            < 1e-6
    );
}

fn game_first_move(game: &Match3<'_>) -> Swap {
    game.legal_moves()[0]
}

/// A playout move found in the legal masks is the move, and the draw, of listing the legal
/// moves and picking among them, all the way through random games.
#[test]
fn playout_moves_from_the_masks_match_the_listed_pick() {
    use crate::search::mcts::{Game, random_index};
    let level = Level::default();
    for seed in 0..20 {
        let start = Match3::new(&level, seed);
        let mut fast = Searched::new(&start, Goal::MaxMoves, &SearchConfig::default());
        let mut listed = fast.clone();
        let mut fast_rng = XorShiftRng::seed_from_u64(seed);
        let mut listed_rng = fast_rng.clone();
        loop {
            let mut moves = Moves::new();
            listed.legal_moves(&mut moves);
            let want = (!moves.is_empty()).then(|| {
                let mv = moves[random_index(&mut listed_rng, moves.len())];
                listed.play(mv);
                mv
            });
            assert_eq!(fast.play_random_move(&mut fast_rng), want, "seed {seed}");
            assert_eq!(fast_rng.next_u32(), listed_rng.next_u32());
            assert_eq!(fast.goal_reward(), listed.goal_reward());
            if want.is_none() {
                break;
            }
        }
    }
}

/// A kept search state costs what `states_for`'s documentation says: about 250 bytes a slot.
#[test]
fn a_kept_state_slot_stays_small() {
    let size = core::mem::size_of::<CachedState<Searched<'_>>>();
    assert!(size <= 256, "a slot takes {size} bytes");
}
