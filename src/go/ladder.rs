//! Ladder reading for the priors: whether a string that has just been put in atari, or
//! has just extended out of atari to two liberties, is captured by a run of ataris (a
//! ladder).
//!
//! MCTS at a few thousand playouts does not read ladders (the playouts' save-atari rule runs
//! them out, the tree is too shallow to see the end), and an engine that does, like GNU Go,
//! wins the stones. The reading is the textbook one: the defender extends at its one
//! liberty; with three or more liberties it escapes, with one or none it is lost, with two
//! the attacker ataris from a side where the next extension does not reach three
//! liberties at once (in a ladder the other side always does; where both sides qualify the
//! first is read, so a rare capture is missed, never a false one invented). A defender that
//! can capture a stone next to its string escapes (a reading, cheap and on the safe side:
//! such a capture is how ladders are usually broken). The reading stops at [`MAX_PLIES`]
//! plies, counted as an escape.
//!
//! no_std and allocation-free, and iterative: it plays on two boards whatever the length of
//! the ladder (a recursion with a board a ply would need hundreds of KB of stack on 19x19,
//! which the embedded targets of the C ABI do not have).

use super::board::{Board, EMPTY, Move};
use super::tactics::around;

/// Plies read at most: longer than any ladder across a 19x19 board.
pub const MAX_PLIES: u32 = 120;

/// Whether the mover's stone on the empty point `p`, extending a string in atari to two
/// liberties, is captured in a ladder. `p` must be a legal move on `board`.
pub fn extension_is_captured(board: &Board, p: usize) -> bool {
    read(board, p, p, true)
}

/// Whether the string of the opponent's stone `string`, put in atari by the mover's stone
/// on the empty point `p`, is captured in a ladder. `p` must be a legal move on `board`.
pub fn atari_is_inescapable(board: &Board, p: usize, string: usize) -> bool {
    read(board, p, string, false)
}

/// Plays `first` on a copy of `board`, then reads the ladder of the string of the stone
/// `string` with the attacker to move first or not: whether it is captured.
fn read(board: &Board, first: usize, string: usize, attacker_first: bool) -> bool {
    let mut work = board.clone();
    work.play(Move::Play(Board::point_at(first)));
    if work.cell(string) == EMPTY {
        return true;
    }
    let mut scratch = work.clone();
    let mut attacker_to_move = attacker_first;
    for _ in 0..MAX_PLIES {
        if attacker_to_move {
            match attack(&work, string, &mut scratch) {
                Attack::Captured => return true,
                Attack::Fails => return false,
                Attack::Atari => core::mem::swap(&mut work, &mut scratch),
            }
        } else {
            if touches_string_in_atari(&work, string) {
                return false;
            }
            let (libs, count) = liberties(&work, string);
            if count != 1 {
                return count == 0;
            }
            if work.try_play(Move::Play(Board::point_at(libs[0]))).is_err() {
                return true;
            }
            match liberties(&work, string).1 {
                0 | 1 => return true,
                2 => {}
                _ => return false,
            }
        }
        attacker_to_move = !attacker_to_move;
    }
    false
}

/// What the attacker's atari on a two-liberty string comes to.
enum Attack {
    /// The string is taken (it had fewer liberties than it seemed).
    Captured,
    /// No atari keeps the string from three liberties or a capture.
    Fails,
    /// `scratch` holds the position after the atari.
    Atari,
}

/// The attacker's atari on the string of `string` (two liberties, attacker to move on
/// `work`), played on `scratch`.
fn attack(work: &Board, string: usize, scratch: &mut Board) -> Attack {
    let (libs, count) = liberties(work, string);
    if count != 2 {
        return if count < 2 {
            Attack::Captured
        } else {
            Attack::Fails
        };
    }
    for &atari in &libs[..2] {
        scratch.copy_from(work);
        if scratch
            .try_play(Move::Play(Board::point_at(atari)))
            .is_err()
        {
            continue;
        }
        if scratch.cell(string) == EMPTY {
            return Attack::Captured;
        }
        // An atari from a stone that is itself in atari is answered by its capture.
        if scratch.string_liberties(atari) < 2 || touches_string_in_atari(scratch, string) {
            continue;
        }
        let (escape, _) = liberties(scratch, string);
        if extension_liberties(scratch, string, escape[0]) <= 2 {
            return Attack::Atari;
        }
    }
    Attack::Fails
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

/// The liberties, up to 3, the string of the stone `p` would have after its owner plays on
/// its liberty `at`, without playing it: the empty points around `at` and the liberties of
/// every own string next to `at`, other than `at`. A move there that captures counts as 3
/// (a capture while running breaks a ladder).
fn extension_liberties(board: &Board, p: usize, at: usize) -> usize {
    let own = board.cell(p);
    let mut found = [0usize; 3];
    let mut count = 0;
    let mut add = |q: usize| {
        if q != at && count < 3 && !found[..count].contains(&q) {
            found[count] = q;
            count += 1;
        }
    };
    for n in around(board, at) {
        let cell = board.cell(n);
        if cell == EMPTY {
            add(n);
        } else if cell == own {
            let mut stone = n;
            loop {
                for q in around(board, stone) {
                    if board.cell(q) == EMPTY {
                        add(q);
                    }
                }
                stone = board.next_stone(stone);
                if stone == n {
                    break;
                }
            }
        } else if cell <= 2 && board.string_liberties(n) == 1 {
            return 3;
        }
    }
    count
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::go::Color;
    use crate::go::diagram;
    use crate::go::vertex::Vertex;

    fn at(board: &Board, vertex: &str) -> usize {
        let v = vertex.parse::<Vertex>().unwrap();
        board.point(v.col, v.row).unwrap().index()
    }

    // White C3 with two liberties (C4, D3) next to Black B3, C2 and B4, Black to move: D3
    // puts it in atari, and its extension at C4 runs into a ladder to the upper edge.
    pub(crate) const LADDER: &str = "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . . . . .
 5 . . . . . . . . .
 4 . X . . . . . . .
 3 . X O . . . . . .
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
 3 . X O . . . . . .
 2 . . X . . . . . .
 1 . . . . . . . . .
";

    fn black_to_move(text: &str) -> Board {
        let mut board = diagram::parse(text).unwrap();
        board.set_to_move(Color::Black);
        board
    }

    #[test]
    fn an_atari_that_starts_a_ladder_captures_unless_a_stone_breaks_it() {
        let board = black_to_move(LADDER);
        assert!(atari_is_inescapable(
            &board,
            at(&board, "D3"),
            at(&board, "C3")
        ));
        // From the other side the string extends to three liberties.
        assert!(!atari_is_inescapable(
            &board,
            at(&board, "C4"),
            at(&board, "C3")
        ));
        let broken = black_to_move(BREAKER);
        assert!(!atari_is_inescapable(
            &broken,
            at(&broken, "D3"),
            at(&broken, "C3")
        ));
    }

    #[test]
    fn an_extension_into_a_ladder_is_captured_unless_a_stone_breaks_it() {
        for (text, captured) in [(LADDER, true), (BREAKER, false)] {
            let mut board = black_to_move(text);
            board
                .try_play(Move::Play(Board::point_at(at(&board, "D3"))))
                .unwrap();
            assert_eq!(extension_is_captured(&board, at(&board, "C4")), captured);
        }
    }

    #[test]
    fn a_string_that_can_capture_a_neighbour_escapes() {
        // Black's D3 ataris White C3 but has one liberty itself (D2): White takes it.
        let board = black_to_move(
            "
 5 . . . . .
 4 . . . O .
 3 . X O . O
 2 . . X . .
 1 . . . . .
",
        );
        assert!(!atari_is_inescapable(
            &board,
            at(&board, "D3"),
            at(&board, "C3")
        ));
    }
}
