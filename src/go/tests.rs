//! The rules pinned down on diagrams: captures, suicide, ko, superko, scoring, the end of
//! the game, refused moves, and the incremental structures against recounts after random
//! games.

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use super::diagram::parse;
use super::{Board, Color, GoGame, Move, PlayError, Point};
use crate::search::{Game, Turn};

/// The point named like `C3` (column letter without I, row from 1) on `board`.
fn at(board: &Board, name: &str) -> Move {
    let bytes = name.as_bytes();
    let col = super::diagram::COLUMNS
        .iter()
        .position(|&c| c == bytes[0])
        .expect("a column letter") as u8;
    let row: u8 = name[1..].parse().expect("a row number");
    Move::Play(board.point(col, row - 1).expect("a point of the board"))
}

/// The point named like `C3` on `board`.
fn point(board: &Board, name: &str) -> Point {
    match at(board, name) {
        Move::Play(p) => p,
        Move::Pass => unreachable!(),
    }
}

/// Plays `moves` in order on `board`, each one required to be legal.
fn play_all(board: &mut Board, moves: &[&str]) {
    for name in moves {
        let mv = at(board, name);
        board.try_play(mv).unwrap_or_else(|e| panic!("{name}: {e}"));
        board.assert_consistent();
    }
}

fn color_at(board: &Board, name: &str) -> Option<Color> {
    match at(board, name) {
        Move::Play(p) => board.color_at(p),
        Move::Pass => None,
    }
}

fn diagram_of(board: &Board) -> String {
    let mut text = String::new();
    super::diagram::write(board, &mut text).unwrap();
    text
}

#[test]
fn a_single_stone_is_captured() {
    let mut board = parse(
        "   A B C D E
          5 . . . . .
          4 . . X . .
          3 . X O . .
          2 . . X . .
          1 . . . . .",
    )
    .unwrap();
    assert_eq!(board.liberties(point(&board, "C3")), Some(1));
    play_all(&mut board, &["D3"]);
    assert_eq!(color_at(&board, "C3"), None);
    assert_eq!(board.stone_counts(), [4, 0]);
    assert_eq!(
        diagram_of(&board),
        "   A B C D E
 5 . . . . .
 4 . . X . .
 3 . X . X .
 2 . . X . .
 1 . . . . .
"
    );
}

#[test]
fn a_string_of_several_stones_is_captured_and_its_captors_gain_liberties() {
    let mut board = parse(
        "   A B C D E
          5 . . . . .
          4 . . . . .
          3 X X X . .
          2 O O O X .
          1 . X X O .",
    )
    .unwrap();
    // White's three stones and Black's B1-C1 share one liberty, A1: Black captures first.
    play_all(&mut board, &["A1"]);
    for name in ["A2", "B2", "C2"] {
        assert_eq!(color_at(&board, name), None, "{name}");
    }
    assert_eq!(color_at(&board, "D1"), Some(Color::White));
    assert_eq!(board.stone_counts(), [7, 1]);
    assert_eq!(
        board.liberties(point(&board, "A1")),
        Some(3),
        "A2, B2 and C2"
    );
    assert_eq!(board.string_size(point(&board, "A1")), Some(3));
    assert_eq!(board.liberties(point(&board, "C3")), Some(7));
    assert_eq!(board.liberties(point(&board, "D1")), Some(1));
    assert_eq!(
        board.atari_liberty(point(&board, "D1")),
        Some(point(&board, "E1"))
    );
}

#[test]
fn a_capture_makes_a_move_without_liberties_legal_and_sets_the_ko() {
    let mut board = parse(
        "   A B C D E
          5 . . . . .
          4 . X O . .
          3 X O . O .
          2 . X O . .
          1 . . . . .",
    )
    .unwrap();
    play_all(&mut board, &["C3"]);
    assert_eq!(color_at(&board, "B3"), None, "captured");
    assert_eq!(board.ko(), Some(point(&board, "B3")));
    // White may not take back at once.
    let before = board.clone();
    assert_eq!(board.try_play(at(&board, "B3")), Err(PlayError::Ko));
    assert_eq!(board, before);
    // After an exchange elsewhere the ko may be taken.
    play_all(&mut board, &["E5", "E1", "B3"]);
    assert_eq!(color_at(&board, "C3"), None, "retaken");
}

#[test]
fn suicide_is_refused() {
    let mut board = parse(
        "   A B C D E
          5 . O . . .
          4 O O . . .
          3 . . . . .
          2 . . X X .
          1 . . X . X",
    )
    .unwrap();
    assert_eq!(board.try_play(at(&board, "A5")), Err(PlayError::Suicide));
    // Filling one's own last liberty is suicide too (a string of several stones).
    board.set_to_move(Color::White);
    assert_eq!(board.try_play(at(&board, "D1")), Err(PlayError::Suicide));
    board.set_to_move(Color::Black);
    // Black's own D1 fills an eye but keeps liberties: legal.
    play_all(&mut board, &["D1"]);
}

/// Black C1 gives two stones, White A1 takes them, and Black B1 would take one back and
/// recreate the position before C1: positional superko forbids it, simple ko does not.
#[test]
fn sending_two_and_returning_one_is_refused_by_superko() {
    let start = parse(
        "   A B C D E
          5 . . . . .
          4 . . . . .
          3 . . . . .
          2 X O O . .
          1 . X . O .",
    )
    .unwrap();
    let mut game = GoGame::from_board(start.clone());
    for name in ["C1", "A1"] {
        game.try_play(at(&start, name)).unwrap();
    }
    assert_eq!(game.board().stone_counts(), [1, 4], "B1 and C1 captured");
    let before = game.board().clone();
    assert_eq!(game.try_play(at(&start, "B1")), Err(PlayError::Superko));
    assert_eq!(game.board(), &before);
    let mut moves = <GoGame as Game>::Moves::default();
    game.legal_moves(&mut moves);
    assert!(!moves.contains(&at(&start, "B1")));
    assert!(moves.contains(&Move::Pass));
    // The board alone knows simple ko only and allows it, back to the start.
    let mut board = game.board().clone();
    board.try_play(at(&start, "B1")).unwrap();
    assert_eq!(board.position_hash(), start.position_hash());
    assert_eq!(diagram_of(&board), diagram_of(&start));
}

#[test]
fn area_scoring_counts_stones_and_surrounded_regions() {
    let board = parse(
        "   A B C D E
          5 . X . O .
          4 . X . O .
          3 . X . O .
          2 . X . O .
          1 . X . O .",
    )
    .unwrap();
    let score = board.score();
    assert_eq!((score.black, score.white), (10, 10), "column C is neutral");
    assert_eq!(score.margin(), -7.5);
    assert_eq!(score.winner(), Some(Color::White));
}

/// A seki: Black's five stones and White's B5 share the liberties A5 and C5, and whoever
/// plays one is captured. The shared liberties are nobody's; rows 1-2 are White's.
#[test]
fn a_seki_leaves_its_shared_liberties_to_nobody() {
    let mut board = parse(
        "   A B C D E
          5 . O . X O
          4 X X X X O
          3 O O O O O
          2 . . . . .
          1 . . . . .",
    )
    .unwrap();
    let score = board.score();
    assert_eq!((score.black, score.white), (5, 18));
    // Black filling a shared liberty puts its own group in atari: White captures it all.
    play_all(&mut board, &["A5", "C5"]);
    assert_eq!(board.stone_counts()[0], 0);
}

#[test]
fn two_passes_end_the_game() {
    let mut game = GoGame::new(9).unwrap();
    game.try_play(Move::Pass).unwrap();
    assert_eq!(game.turn(), Turn::Player(1));
    game.try_play(Move::Pass).unwrap();
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.try_play(Move::Pass), Err(PlayError::GameOver));
    let mut moves = <GoGame as Game>::Moves::default();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty());
    // Empty board, komi 7.5: White wins.
    assert_eq!(game.returns(), [0.0, 1.0]);
}

#[test]
fn a_pass_between_moves_does_not_end_the_game() {
    let mut board = Board::new(5).unwrap();
    board.try_play(Move::Pass).unwrap();
    play_all(&mut board, &["C3"]);
    board.try_play(Move::Pass).unwrap();
    assert!(!board.is_over());
}

#[test]
fn refused_moves_change_nothing() {
    let mut board = parse(
        "   A B C D E
          5 . O . . .
          4 O O . . .
          3 . . . . .
          2 . . . . .
          1 . . . . .",
    )
    .unwrap();
    let other_size = Board::new(19).unwrap().point(18, 18).unwrap();
    let before = board.clone();
    for (mv, error) in [
        (at(&board, "B5"), PlayError::Occupied),
        (at(&board, "A5"), PlayError::Suicide),
        (Move::Play(other_size), PlayError::OffBoard),
    ] {
        assert_eq!(board.try_play(mv), Err(error));
        assert_eq!(board, before);
        assert_eq!(board.hash(), before.hash());
        board.assert_consistent();
    }
}

#[test]
fn sizes_and_komi_are_checked() {
    assert!(Board::new(4).is_err());
    assert!(Board::new(20).is_err());
    let mut board = Board::new(19).unwrap();
    assert_eq!(board.point(19, 0), None);
    assert_eq!(board.coords(board.point(3, 15).unwrap()), Some((3, 15)));
    assert!(board.set_komi(f32::NAN).is_err());
    assert!(board.set_komi(f32::INFINITY).is_err());
    assert!(board.set_komi(1e6).is_err());
    assert_eq!(board.komi(), 7.5);
    board.set_komi(-3.0).unwrap();
    assert_eq!(board.komi(), -3.0);
}

#[test]
fn diagram_errors_name_the_line_and_column() {
    let error =
        parse(" 5 . . . . .\n 4 . . . . .\n 3 . . Z . .\n 2 . . . . .\n 1 . . . . .").unwrap_err();
    assert_eq!((error.line, error.column), (3, 8));
    let error =
        parse(" 5 . . . . .\n 4 . . . . .\n 3 é . Z . .\n 2 . . . . .\n 1 . . . . .").unwrap_err();
    assert_eq!(
        (error.line, error.column, error.kind),
        (3, 4, super::diagram::DiagramErrorKind::Cell('é'))
    );
    // Nothing a caller can write makes the parser panic.
    for text in [
        "",
        "\n\n",
        "é",
        " 5",
        "99 . .",
        " 0 . . . . .",
        "A B C",
        " 5 . . . . . . . . . .",
    ] {
        assert!(parse(text).is_err(), "{text:?}");
    }
    let error =
        parse(" 5 . . . . .\n 4 . . . .\n 3 . . . . .\n 2 . . . . .\n 1 . . . . .").unwrap_err();
    assert_eq!(error.line, 2);
    let error =
        parse(" 5 . . . . .\n 3 . . . . .\n 3 . . . . .\n 2 . . . . .\n 1 . . . . .").unwrap_err();
    assert_eq!(error.line, 2);
    assert!(parse(" 1 . .\n").is_err());
    let error =
        parse("   A B C D F\n 5 . . . . .\n 4 . . . . .\n 3 . . . . .\n 2 . . . . .\n 1 . . . . .")
            .unwrap_err();
    assert_eq!(error.line, 1);
    // A string without liberties cannot be set up.
    assert!(parse(" 5 O X . . .\n 4 X . . . .\n 3 . . . . .\n 2 . . . . .\n 1 . . . . .").is_err());
}

/// Random games on every size class, half played from the tree's legal moves (superko) and
/// half by the light policy: after every move the liberties, neighbour counts, string sizes,
/// empty list and hash equal a recount from scratch.
#[test]
fn incremental_structures_match_recounts_in_random_games() {
    let mut rng = XorShiftRng::seed_from_u64(16);
    let mut moves = <GoGame as Game>::Moves::default();
    for (size, games) in [(5u8, 40), (9, 30), (13, 4), (19, 2)] {
        for game_number in 0..games {
            let mut game = GoGame::new(size).unwrap();
            while game.turn() != Turn::Over {
                if game_number % 2 == 0 {
                    game.legal_moves(&mut moves);
                    let mv = moves[crate::search::game::random_index(&mut rng, moves.len())];
                    // Passing at random would end games early: pass only when forced.
                    let mv = if mv == Move::Pass { moves[0] } else { mv };
                    game.play(mv);
                } else {
                    game.play_random_move(&mut rng);
                }
                game.board().assert_consistent();
            }
        }
    }
}
