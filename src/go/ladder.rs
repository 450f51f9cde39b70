//! Ladder reading for the priors: whether a string with two liberties, the attacker to
//! move, is captured by a run of ataris (a ladder), and whether a string in atari, its owner
//! to move, escapes one.
//!
//! MCTS at a few thousand playouts does not read ladders (the playouts' save-atari rule runs
//! them out, the tree is too shallow to see the end), and an engine that does, like GNU Go,
//! wins the stones. The reading is the textbook one: the defender extends at its one
//! liberty; with three or more liberties it escapes, with one or none it is lost, with two
//! the attacker ataris from either side. A defender that can capture a stone next to its
//! string is counted as escaping (a reading, cheap and on the safe side: such a capture is
//! how ladders are usually broken). The search is cut at [`MAX_PLIES`] plies and
//! [`MAX_BOARDS`] positions, counted as an escape. no_std and allocation-free: each ply
//! plays on a copy of the board.

use super::board::{Board, EMPTY, Move};
use super::tactics::around;

/// Plies read at most: longer than any ladder across a 19x19 board.
pub const MAX_PLIES: u32 = 80;
/// Positions played at most in one reading.
pub const MAX_BOARDS: u32 = 200;

/// Whether the string of the stone `p` (two liberties, its opponent to move on `board`) is
/// captured in a ladder.
pub fn captured_by_attacker(board: &Board, p: usize) -> bool {
    let mut budget = MAX_BOARDS;
    attacker_captures(board, p, 0, &mut budget)
}

/// Whether the string of the stone `p` (one liberty, its owner to move on `board`)
/// escapes.
pub fn escapes(board: &Board, p: usize) -> bool {
    let mut budget = MAX_BOARDS;
    defender_escapes(board, p, 0, &mut budget)
}

/// Up to three distinct liberties of the string of the stone `p`, and how many were found.
fn liberties(board: &Board, p: usize) -> ([usize; 3], usize) {
    let mut found = [0usize; 3];
    let mut count = 0;
    let mut stone = p;
    loop {
        for n in around(board, stone) {
            if board.cell(n) == EMPTY && !found[..count].contains(&n) {
                found[count] = n;
                count += 1;
                if count == 3 {
                    return (found, count);
                }
            }
        }
        stone = board.next_stone(stone);
        if stone == p {
            return (found, count);
        }
    }
}

/// Whether a stone of the opponent next to the string of `p` is in atari (its owner can
/// capture it).
fn touches_string_in_atari(board: &Board, p: usize) -> bool {
    let own = board.cell(p);
    let mut stone = p;
    loop {
        for n in around(board, stone) {
            let cell = board.cell(n);
            if cell != EMPTY && cell != own && cell <= 2 && board.string_liberties(n) == 1 {
                return true;
            }
        }
        stone = board.next_stone(stone);
        if stone == p {
            return false;
        }
    }
}

fn attacker_captures(board: &Board, p: usize, plies: u32, budget: &mut u32) -> bool {
    let (libs, count) = liberties(board, p);
    if count < 2 {
        return count == 0 || !defender_escapes(board, p, plies, budget);
    }
    if count > 2 {
        return false;
    }
    for &atari in &libs[..2] {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut next = board.clone();
        if next.try_play(Move::Play(Board::point_at(atari))).is_err() {
            continue;
        }
        if next.cell(p) == EMPTY {
            return true;
        }
        // An atari from a stone that is itself in atari is answered by its capture.
        if next.string_liberties(atari) < 2 {
            continue;
        }
        if !defender_escapes(&next, p, plies + 1, budget) {
            return true;
        }
    }
    false
}

fn defender_escapes(board: &Board, p: usize, plies: u32, budget: &mut u32) -> bool {
    if plies >= MAX_PLIES || *budget == 0 || touches_string_in_atari(board, p) {
        return true;
    }
    let (libs, count) = liberties(board, p);
    if count != 1 {
        return count >= 2;
    }
    *budget -= 1;
    let mut next = board.clone();
    if next.try_play(Move::Play(Board::point_at(libs[0]))).is_err() {
        return false;
    }
    match liberties(&next, p).1 {
        0 | 1 => false,
        2 => !attacker_captures(&next, p, plies + 1, budget),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;
    use crate::go::diagram;
    use crate::go::vertex::Vertex;

    fn at(board: &Board, vertex: &str) -> usize {
        let v = vertex.parse::<Vertex>().unwrap();
        board.point(v.col, v.row).unwrap().index()
    }

    // White C3 in atari (B3, C2, D3 Black): its one liberty is C4, where it has two
    // liberties (B4 is Black), and Black ladders it to the upper edge.
    const LADDER: &str = "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . . . . .
 5 . . . . . . . . .
 4 . X . . . . . . .
 3 . X O X . . . . .
 2 . . X . . . . . .
 1 . . . . . . . . .
";

    // The same with a White stone on the ladder's path (F6): the ladder is broken.
    const BREAKER: &str = "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . O . . .
 5 . . . . . . . . .
 4 . X . . . . . . .
 3 . X O X . . . . .
 2 . . X . . . . . .
 1 . . . . . . . . .
";

    #[test]
    fn a_string_in_a_ladder_does_not_escape_unless_a_stone_breaks_it() {
        let mut board = diagram::parse(LADDER).unwrap();
        board.set_to_move(Color::White);
        let c3 = at(&board, "C3");
        assert_eq!(board.string_liberties(c3), 1);
        assert!(!escapes(&board, c3));

        let mut broken = diagram::parse(BREAKER).unwrap();
        broken.set_to_move(Color::White);
        assert!(escapes(&broken, at(&broken, "C3")));
    }

    #[test]
    fn the_attacker_captures_a_two_liberty_string_in_a_ladder() {
        // White extended to C4: two liberties (C5, D4), Black to move.
        let mut board = diagram::parse(LADDER).unwrap();
        board.set_to_move(Color::White);
        let c4 = board.point(2, 3).unwrap();
        board.try_play(Move::Play(c4)).unwrap();
        assert!(captured_by_attacker(&board, at(&board, "C3")));
    }

    #[test]
    fn a_string_that_can_capture_a_neighbour_escapes() {
        // White C3 is in atari, but the Black stone D3 next to it has one liberty left (D2).
        let board_text = "
 5 . . . . .
 4 . . . O .
 3 . X O X O
 2 . . X . .
 1 . . . . .
";
        let mut board = diagram::parse(board_text).unwrap();
        board.set_to_move(Color::White);
        assert!(escapes(&board, at(&board, "C3")));
    }
}
