//! The status of every stone at the end of a game (alive, dead or in seki) and the final
//! area score that follows from it. no_std and allocation-free.
//!
//! # The rule
//!
//! A string is judged by its shape on the board (the board's incremental strings and their
//! exact liberty counts) and by the playout ownership estimate ([`Ownership`]):
//!
//! - **Seki**: the string has the *shape* of a seki ([`has_seki_shape`]): a shared
//!   liberty no one can fill ([`is_unfillable_dame`]: an empty point beside stones of both
//!   colours where a stone of either colour would capture nothing and leave its own string
//!   with at most one liberty), and every other liberty an eye of its own that the opponent
//!   cannot play in; and the shape is *enclosed by living stones*: every opponent stone
//!   beside it is in a seki shape that holds too, or owned by its colour in more than half
//!   of the playouts (a shape beside a dead stone breaks, and so does a shape beside a
//!   broken one, until nothing changes). This is the classic mutual life: two strings sharing two liberties
//!   and no other, or one eye each and a shared liberty.
//! - **Dead**: not seki, and its stones are owned by the opponent in more than half of the
//!   playouts on average (the rule GTP's `final_status_list dead` has always used).
//! - **Alive**: every other string.
//!
//! Why not the ownership of the seki strings themselves: light playouts fill everything
//! but one-point eyes, so whoever must move first once only the shared liberties are left
//! fills one and is captured. That is decided by the parity of the moves left, not by a
//! coin: the seki strings' own colour owned them in 65% / 35% of the playouts in one test
//! diagram and 1% / 95% in the other, so a "split ownership" test would miss real sekis.
//! The shape test is exact for these shapes; the ownership keeps out a seki shape inside
//! a group that dies (it is captured with the group: tested). Sekis with larger eyes or with a
//! ko are not recognised: their strings are judged alive or dead by ownership.
//!
//! # The score
//!
//! Chinese area scoring counts the stones of a seki, not its shared liberties: a seki
//! stone counts for its colour, an empty point beside a seki string counts for the one
//! colour of all its neighbouring stones (an eye of the seki) or for no one (a shared
//! liberty). Every other point goes to its owner by the ownership estimate, as before.

use super::Color;
use super::board::{Board, CELLS, MAX_POINTS, Point, Score};
use super::player::{Ownership, area_score, points};

/// The status of a stone at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Alive,
    Dead,
    /// Alive without territory: in seki with an opponent string.
    Seki,
}

const NONE: u8 = 0;
const ALIVE: u8 = 1;
const DEAD: u8 = 2;
const SEKI: u8 = 3;
/// While judging: a seki shape whose surroundings broke it.
const BROKEN: u8 = 4;

/// The status of every stone of a board (see the module text), by point.
#[derive(Clone, Debug)]
pub struct Statuses {
    /// `NONE` (empty), `ALIVE`, `DEAD` or `SEKI`, by index in the padded array.
    cells: [u8; CELLS],
}

impl Statuses {
    /// Judges every string of `board` with the ownership estimate `own` of its position.
    pub fn judge(board: &Board, own: &Ownership) -> Statuses {
        // First the shape: which strings could be in seki (`SEKI` marks them for now).
        let mut cells = [NONE; CELLS];
        let mut seen = [false; CELLS];
        let mut stones = [None; MAX_POINTS];
        for point in points(board) {
            if board.color_at(point).is_none() || seen[point.index()] {
                continue;
            }
            let count = string_of(board, point, &mut seen, &mut stones);
            if has_seki_shape(board, stones[..count].iter().flatten()) {
                for &p in stones[..count].iter().flatten() {
                    cells[p.index()] = SEKI;
                }
            }
        }
        // Then the ownership: a seki shape stays one while every opponent stone around it
        // is alive or in a seki shape itself; a shape that touches a dead stone, or a
        // broken shape, breaks too, until nothing changes (each pass breaks a string or
        // ends). The strings left are seki; every other string is dead or alive by the
        // owner of its stones.
        loop {
            let mut broke = false;
            let mut seen = [false; CELLS];
            for point in points(board) {
                if cells[point.index()] != SEKI || seen[point.index()] {
                    continue;
                }
                let count = string_of(board, point, &mut seen, &mut stones);
                let string = stones[..count].iter().flatten();
                if !is_enclosed_by_living_stones(board, own, &cells, string.clone()) {
                    for &p in string {
                        cells[p.index()] = BROKEN;
                    }
                    broke = true;
                }
            }
            if !broke {
                break;
            }
        }
        let mut seen = [false; CELLS];
        for point in points(board) {
            let Some(color) = board.color_at(point) else {
                continue;
            };
            if seen[point.index()] || cells[point.index()] == SEKI {
                continue;
            }
            let count = string_of(board, point, &mut seen, &mut stones);
            let string = || stones[..count].iter().flatten();
            let theirs = string()
                .map(|&p| own.share(p, color.opponent()))
                .sum::<f32>();
            let status = if theirs > 0.5 * count as f32 {
                DEAD
            } else {
                ALIVE
            };
            for &p in string() {
                cells[p.index()] = status;
            }
        }
        Statuses { cells }
    }

    /// The status of the stone on `point`, `None` for an empty point (or one off the board).
    pub fn status(&self, point: Point) -> Option<Status> {
        match self.cells.get(point.index()) {
            Some(&ALIVE) => Some(Status::Alive),
            Some(&DEAD) => Some(Status::Dead),
            Some(&SEKI) => Some(Status::Seki),
            _ => None,
        }
    }

    /// The area score of `board` (see the module text): seki stones and the eyes of a seki
    /// for their colour, a seki's shared liberties for no one, every other point for its
    /// owner in `own`.
    pub fn score(&self, board: &Board, own: &Ownership) -> Score {
        area_score(board, |point| match board.color_at(point) {
            Some(color) if self.status(point) == Some(Status::Seki) => Some(color),
            Some(_) => own.owner(point),
            None if self.touches_seki(board, point) => sole_neighbour_color(board, point),
            None => own.owner(point),
        })
    }

    /// Whether a stone beside `point` is in seki.
    fn touches_seki(&self, board: &Board, point: Point) -> bool {
        board
            .neighbours(point)
            .any(|n| self.status(n) == Some(Status::Seki))
    }
}

/// The colour of every stone beside `point`, `None` if they are of both colours (or if
/// there are none).
fn sole_neighbour_color(board: &Board, point: Point) -> Option<Color> {
    let mut sole = None;
    for n in board.neighbours(point) {
        match (board.color_at(n), sole) {
            (None, _) => {}
            (Some(color), None) => sole = Some(color),
            (Some(color), Some(seen)) if color != seen => return None,
            _ => {}
        }
    }
    sole
}

/// Whether the stones `string` (one string) have the shape of a seki: a shared liberty no
/// one can fill ([`is_unfillable_dame`]), and every other liberty an eye of their own (an
/// empty point whose neighbours are all stones of their colour, none in atari, so that the
/// opponent cannot play there). A liberty the opponent could fill safely (an outside
/// liberty, an approach move) leaves the string to be captured: no seki.
fn has_seki_shape<'a>(board: &Board, string: impl Iterator<Item = &'a Point> + Clone) -> bool {
    let Some(color) = string.clone().next().and_then(|&p| board.color_at(p)) else {
        return false;
    };
    let mut liberties = string
        .flat_map(|&p| board.neighbours(p))
        .filter(|&n| board.color_at(n).is_none());
    let mut dame = false;
    let every = liberties.all(|liberty| {
        if is_unfillable_dame(board, liberty) {
            dame = true;
            true
        } else {
            is_own_eye(board, liberty, color)
        }
    });
    every && dame
}

/// Whether the empty `point` is an eye of `color` the opponent cannot play in: every
/// neighbour a stone of `color` whose string has two liberties or more.
fn is_own_eye(board: &Board, point: Point, color: Color) -> bool {
    board
        .neighbours(point)
        .all(|n| board.color_at(n) == Some(color) && board.liberties(n).is_some_and(|l| l >= 2))
}

/// Whether every opponent stone beside the stones `string` is in a seki shape still marked
/// `SEKI` in `cells`, or alive by the ownership estimate (owned by its own colour in more
/// than half of the playouts) and not a broken seki shape: a seki shape inside a dead group
/// is no seki (the group around it is captured, the shape with it), nor is one whose
/// partner broke.
fn is_enclosed_by_living_stones<'a>(
    board: &Board,
    own: &Ownership,
    cells: &[u8; CELLS],
    string: impl Iterator<Item = &'a Point>,
) -> bool {
    string
        .flat_map(|&p| board.neighbours(p))
        .all(|n| match (board.color_at(n), cells[n.index()]) {
            (None, _) | (Some(_), SEKI) => true,
            (Some(_), BROKEN) => false,
            (Some(color), _) => own.owner(n) == Some(color),
        })
}

/// Whether the empty `point` is a shared liberty that neither side can fill: it lies beside
/// stones of both colours, and a stone of either colour there would capture nothing and
/// leave its own string with at most one liberty ([`fills_safely`] is false for both).
pub fn is_unfillable_dame(board: &Board, point: Point) -> bool {
    if board.color_at(point).is_some() || !board.is_on_board(point) {
        return false;
    }
    let beside = |color| {
        board
            .neighbours(point)
            .any(|n| board.color_at(n) == Some(color))
    };
    beside(Color::Black)
        && beside(Color::White)
        && !fills_safely(board, point, Color::Black)
        && !fills_safely(board, point, Color::White)
}

/// Whether a stone of `color` on the empty `point` would capture (an opponent string
/// beside it has `point` as its last liberty) or leave its string with two liberties or
/// more. Ko and superko are not considered: this judges shapes, not moves.
pub fn fills_safely(board: &Board, point: Point, color: Color) -> bool {
    let captures = board
        .neighbours(point)
        .any(|n| board.color_at(n) == Some(color.opponent()) && board.liberties(n) == Some(1));
    captures || liberties_after(board, point, color) >= 2
}

/// The liberties, up to 2, of the string a stone of `color` on the empty `point` would
/// make (the stones of `color` beside it joined), captures aside.
fn liberties_after(board: &Board, point: Point, color: Color) -> usize {
    let mut found: [Option<Point>; 2] = [None; 2];
    let mut note = |liberty: Point| {
        if liberty == point || found.contains(&Some(liberty)) {
            return;
        }
        if let Some(slot) = found.iter_mut().find(|slot| slot.is_none()) {
            *slot = Some(liberty);
        }
    };
    let mut seen = [false; CELLS];
    let mut stones = [None; MAX_POINTS];
    for n in board.neighbours(point) {
        match board.color_at(n) {
            None => note(n),
            Some(c) if c == color && !seen[n.index()] => {
                let count = string_of(board, n, &mut seen, &mut stones);
                for &stone in stones[..count].iter().flatten() {
                    for liberty in board.neighbours(stone) {
                        if board.color_at(liberty).is_none() {
                            note(liberty);
                        }
                    }
                }
            }
            Some(_) => {}
        }
    }
    found.iter().flatten().count()
}

/// Collects into `stones` the string of the stone on `start` (marking its points `seen`) and
/// returns how many stones it has, in the order a flood fill meets them.
pub(crate) fn string_of(
    board: &Board,
    start: Point,
    seen: &mut [bool; CELLS],
    stones: &mut [Option<Point>; MAX_POINTS],
) -> usize {
    let color = board.color_at(start);
    seen[start.index()] = true;
    stones[0] = Some(start);
    let (mut next, mut count) = (0, 1);
    while next < count {
        let Some(p) = stones[next] else { break };
        next += 1;
        for n in board.neighbours(p) {
            if board.color_at(n) == color && !seen[n.index()] && count < MAX_POINTS {
                seen[n.index()] = true;
                stones[count] = Some(n);
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::diagram::parse;
    use crate::go::player::ownership;
    use crate::search::game::seeded_rng;

    fn at(board: &Board, text: &str) -> Point {
        let v = text.parse::<crate::go::vertex::Vertex>().unwrap();
        board.point(v.col, v.row).unwrap()
    }

    fn judged(board: &Board) -> (Statuses, Ownership) {
        let own = ownership(board, 400, &mut seeded_rng(5));
        (Statuses::judge(board, &own), own)
    }

    /// Black's corner string (A7 A6 B6 A5) and White's string around it (C7 … A4) share
    /// B7 and B5 and have no other liberty: whoever fills one is captured.
    const TWO_SHARED: &str = "
           A B C D E F G
         7 X . O X . X O
         6 X X O X X X O
         5 X . O X . X O
         4 O O O X X X O
         3 X X X X O O O
         2 . X . X O . O
         1 X X X X O O .";

    #[test]
    fn two_strings_sharing_two_liberties_are_seki() {
        let board = parse(TWO_SHARED).unwrap();
        let (statuses, own) = judged(&board);
        for v in ["A7", "A6", "B6", "A5", "C7", "C6", "C5", "C4", "B4", "A4"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Seki), "{v}");
        }
        for v in ["D7", "E6", "A1", "G7", "E1"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Alive), "{v}");
        }
        assert!(is_unfillable_dame(&board, at(&board, "B7")));
        assert!(is_unfillable_dame(&board, at(&board, "B5")));
        assert_eq!(statuses.status(at(&board, "B7")), None);
        // Black: 24 stones (4 in the seki) and the eyes E7, E5, A2, C2; White: 17 stones
        // (6 in the seki) and the eyes F2, G1; B7 and B5 for no one.
        let score = statuses.score(&board, &own);
        assert_eq!((score.black, score.white), (28, 19));
    }

    /// Black's B9 A8 B8 C8 with the eye A9 and White's D9 … F9 with the eye E9 share C9.
    const ONE_EYE_EACH: &str = "
           A B C D E F G H J
         9 . X . O . O X . X
         8 X X X O O O X X X
         7 O O O X X X X . X
         6 . O . O X . X X X
         5 O O O O X X X . X
         4 . O . O X . X X X
         3 O O O O X X X X X
         2 . O . O X . X . X
         1 O O O O X X X X X";

    #[test]
    fn one_eye_each_and_a_shared_liberty_is_seki() {
        let board = parse(ONE_EYE_EACH).unwrap();
        let (statuses, own) = judged(&board);
        for v in ["B9", "A8", "B8", "C8", "D9", "D8", "E8", "F8", "F9"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Seki), "{v}");
        }
        for v in ["A7", "D6", "D7", "G9", "E1"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Alive), "{v}");
        }
        assert!(is_unfillable_dame(&board, at(&board, "C9")));
        // The seki's eyes A9 and E9 count for their colours, C9 for no one.
        let score = statuses.score(&board, &own);
        assert_eq!(score.black + score.white, 80);
    }

    /// The seki of [`TWO_SHARED`] in the corner of a 9x9 board, inside a black wall with one
    /// liberty (E5) in White's area: the wall dies, and the seki with it.
    #[test]
    fn a_seki_shape_inside_a_dead_group_is_not_seki() {
        let board = parse(
            "   A B C D E F G H J
             9 X . O X O . O . O
             8 X X O X O O O O O
             7 X . O X O . O . O
             6 O O O X O O O O O
             5 X X X X . O O . O
             4 O O O O O O O O O
             3 . O . O . O . O .
             2 O O O O O O O O O
             1 . O . O . O . O .",
        )
        .unwrap();
        assert!(is_unfillable_dame(&board, at(&board, "B9")));
        let (statuses, _) = judged(&board);
        for point in points(&board) {
            assert_ne!(statuses.status(point), Some(Status::Seki), "{point:?}");
        }
        for v in ["D9", "A5", "A9", "B8"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Dead), "{v}");
        }
        for v in ["C9", "A6", "E9"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Alive), "{v}");
        }
    }

    /// As [`ONE_EYE_EACH`] with White's eye E9 filled: White's string has C9 alone, Black
    /// fills it and captures. Not seki.
    #[test]
    fn a_shared_liberty_one_side_can_fill_is_not_seki() {
        let text = ONE_EYE_EACH.replace(" 9 . X . O . O", " 9 . X . O O O");
        let board = parse(&text).unwrap();
        let c9 = at(&board, "C9");
        assert!(fills_safely(&board, c9, Color::Black));
        assert!(!fills_safely(&board, c9, Color::White));
        assert!(!is_unfillable_dame(&board, c9));
        let (statuses, _) = judged(&board);
        for v in ["D9", "E9", "F8"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Dead), "{v}");
        }
        for v in ["B9", "C8", "G9"] {
            assert_eq!(statuses.status(at(&board, v)), Some(Status::Alive), "{v}");
        }
    }
}
