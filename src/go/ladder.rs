//! Ladder reading for the priors: whether a string that has just been put in atari, or
//! has just extended out of atari to two liberties, is captured by a run of ataris (a
//! ladder).
//!
//! MCTS at a few thousand playouts does not read ladders (the playouts' save-atari rule runs
//! them out, the tree is too shallow to see the end), and an engine that does, like GNU Go,
//! wins the stones. The reading is the textbook one: the defender extends at its one
//! liberty; with three or more liberties it escapes, with one or none it is lost, with two
//! the attacker ataris from either side where the next extension does not reach three
//! liberties at once. A defender that can capture a stone next to its string escapes (a
//! reading, cheap and on the safe side: such a capture is how ladders are usually broken).
//!
//! Where both ataris qualify, both are read, depth first: a line that ends in an escape is
//! played again from the start with the deepest untried atari taken instead (ladders along
//! the edge are often won only by the second atari). The reading stops after [`MAX_PLIES`]
//! plies in one line or [`MAX_READ_PLIES`] in all, counted as an escape.
//!
//! no_std and allocation-free, and iterative: it plays on two boards whatever the length of
//! the ladder and replays a line instead of keeping a board a ply (a recursion with a board
//! a ply would need hundreds of KB of stack on 19x19, which the embedded targets of the C
//! ABI do not have).

use super::board::{Board, EMPTY, Move};
use super::tactics::around;

/// Plies read at most in one line: longer than any ladder across a 19x19 board.
pub const MAX_PLIES: u32 = 120;

/// Plies read at most over all the lines of one reading.
pub const MAX_READ_PLIES: u32 = 3 * MAX_PLIES;

/// Attacker moves in one line at most.
const MAX_ATTACKS: usize = MAX_PLIES as usize / 2 + 1;

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

/// The atari an attacker move of a line took: the index of its liberty in [`liberties`]'
/// order, and whether the other one is still to be read.
#[derive(Clone, Copy, Default)]
struct Choice {
    taken: u8,
    other_open: bool,
}

/// Plays `first` on a copy of `board`, then reads the ladder of the string of the stone
/// `string` with the attacker to move first or not: whether it is captured.
fn read(board: &Board, first: usize, string: usize, attacker_first: bool) -> bool {
    let mut work = board.clone();
    let mut scratch = board.clone();
    let mut choices = [Choice::default(); MAX_ATTACKS];
    let mut forced = 0;
    let mut budget = MAX_READ_PLIES;
    loop {
        work.copy_from(board);
        work.play(Move::Play(Board::point_at(first)));
        if work.cell(string) == EMPTY {
            return true;
        }
        let line = Line {
            string,
            choices: &mut choices,
            forced,
            budget: &mut budget,
        };
        match line.play(&mut work, &mut scratch, attacker_first) {
            Ok(()) => return true,
            Err(attacks) => {
                // The deepest attacker move whose other atari is unread, taken instead.
                let Some(k) = (0..attacks).rev().find(|&k| choices[k].other_open) else {
                    return false;
                };
                choices[k] = Choice {
                    taken: 1,
                    other_open: false,
                };
                forced = k + 1;
            }
        }
        if budget == 0 {
            return false;
        }
    }
}

/// One line of a reading: the attacker's first `forced` moves as `choices` says, the first
/// qualifying atari after that.
struct Line<'a> {
    string: usize,
    choices: &'a mut [Choice; MAX_ATTACKS],
    forced: usize,
    budget: &'a mut u32,
}

impl Line<'_> {
    /// Plays the line on `work`: `Ok` if the string is captured, else the number of
    /// attacker moves played before it escaped (or the reading ran out of plies).
    fn play(
        self,
        work: &mut Board,
        scratch: &mut Board,
        attacker_first: bool,
    ) -> Result<(), usize> {
        let string = self.string;
        let mut attacker_to_move = attacker_first;
        let mut attacks = 0;
        for _ in 0..MAX_PLIES {
            if *self.budget == 0 {
                break;
            }
            *self.budget -= 1;
            if attacker_to_move {
                if attacks == MAX_ATTACKS {
                    break;
                }
                let from = if attacks < self.forced {
                    self.choices[attacks].taken
                } else {
                    0
                };
                match attack(work, string, scratch, from) {
                    Attack::Captured => return Ok(()),
                    Attack::Fails => return Err(attacks),
                    Attack::Atari(taken) => {
                        if attacks >= self.forced {
                            self.choices[attacks] = Choice {
                                taken,
                                other_open: taken == 0,
                            };
                        }
                        attacks += 1;
                        core::mem::swap(work, scratch);
                    }
                }
            } else {
                if touches_string_in_atari(work, string) {
                    return Err(attacks);
                }
                let (libs, count) = liberties(work, string);
                if count != 1 {
                    return if count == 0 { Ok(()) } else { Err(attacks) };
                }
                if work.try_play(Move::Play(Board::point_at(libs[0]))).is_err() {
                    return Ok(());
                }
                match liberties(work, string).1 {
                    0 | 1 => return Ok(()),
                    2 => {}
                    _ => return Err(attacks),
                }
            }
            attacker_to_move = !attacker_to_move;
        }
        Err(attacks)
    }
}

/// What the attacker's atari on a two-liberty string comes to.
enum Attack {
    /// The string is taken (it had fewer liberties than it seemed).
    Captured,
    /// No atari keeps the string from three liberties or a capture.
    Fails,
    /// `scratch` holds the position after the atari on the liberty of this index.
    Atari(u8),
}

/// The attacker's first qualifying atari, from the liberty of index `from` on, on the
/// string of `string` (two liberties, attacker to move on `work`), played on `scratch`.
fn attack(work: &Board, string: usize, scratch: &mut Board, from: u8) -> Attack {
    let (libs, count) = liberties(work, string);
    if count != 2 {
        return if count < 2 {
            Attack::Captured
        } else {
            Attack::Fails
        };
    }
    for (index, &atari) in (0u8..).zip(&libs[..2]).skip(usize::from(from)) {
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
            return Attack::Atari(index);
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
    fn a_ladder_won_only_by_the_second_atari_is_read() {
        // From a game against GNU Go: White's C5 ataris Black C4, which extends to B4. White's
        // first atari, A4, lets B4's extension at B5 atari C5 and escape; the other, B5, drives
        // the string into the corner (A4, then A3 and A5 take its last liberties).
        let mut board = diagram::parse(
            "
 9 . . . . . . . . .
 8 . . . O . . . . .
 7 . O O X . . . . .
 6 . . X . . . X . .
 5 . . . . X . . . .
 4 . . X O O O X . .
 3 . O O X . X . . .
 2 . . X . . . . . .
 1 . . . . . . . . .
",
        )
        .unwrap();
        board.set_to_move(Color::White);
        assert!(atari_is_inescapable(
            &board,
            at(&board, "C5"),
            at(&board, "C4")
        ));
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
