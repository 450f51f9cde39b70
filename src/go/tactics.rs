//! Cheap local tactics for the MoGo playout policy ([`super::mogo`]): what a move does to the
//! liberties of its string (self-atari), the strings in atari it can save or capture, the
//! vital point of a three-point eye space (nakade), and 3x3 neighbourhood codes for the
//! patterns and the fill-board rule. Everything reads the board's incremental strings (exact
//! liberty counts and liberty sums, the set of strings in atari) and looks at a few cells
//! around a point; nothing walks the board.
//!
//! Points are indices into the board's padded array (`Point::index`), as the board keeps
//! them; every function takes a point of the board.

use rand_xorshift::XorShiftRng;

use super::Color;
use super::board::{Board, EMPTY, MAX_POINTS, stone};
use crate::search::game::random_index;

/// The four orthogonal neighbours of `p`.
#[inline(always)]
pub(crate) fn around(board: &Board, p: usize) -> [usize; 4] {
    let s = board.stride_cells();
    [p - 1, p + 1, p - s, p + s]
}

/// The eight neighbours of `p` in the patterns' order: NW, N, NE, W, E, SW, S, SE (north is
/// the row of lower indices; the pattern table is closed under the 8 symmetries, so any
/// rigid reading will do).
#[inline(always)]
pub(crate) fn window(board: &Board, p: usize) -> [usize; 8] {
    let s = board.stride_cells();
    [
        p - s - 1,
        p - s,
        p - s + 1,
        p - 1,
        p + 1,
        p + s - 1,
        p + s,
        p + s + 1,
    ]
}

/// Whether `p` and its 8 neighbours are all empty points (the fill-board test; a point on
/// the edge never is, its window holds border cells).
#[inline(always)]
pub(crate) fn is_empty_3x3(board: &Board, p: usize) -> bool {
    // One test rather than two: the cell and its code are both 0.
    (u16::from(board.cell(p)) | board.code(p)) == 0
}

/// What playing on an empty point does to the string of the new stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct After {
    /// Its distinct liberties after the move, counted up to 2. Stones the move captures
    /// that touch the new stone count as liberties; other captured stones do not (a lower
    /// bound, exact unless a captured string of several stones has stones that touch
    /// neither the new stone nor a string it joins).
    pub liberties: u8,
    /// The one liberty when `liberties` is 1.
    pub liberty: usize,
    /// Whether the move captures (exact only when `liberties` is below 2: the count stops
    /// looking once it reaches 2).
    pub captures: bool,
}

/// The liberties of the string a stone of `color` on the empty point `p` would make, up to 2.
#[inline]
pub(crate) fn liberties_after(board: &Board, p: usize, color: Color) -> After {
    let own = stone(color);
    let enemy = own ^ 3;
    let mut found = [0usize; 2];
    let mut count = 0usize;
    let mut captures = false;
    let add = |q: usize, found: &mut [usize; 2], count: &mut usize| {
        if *count == 0 || (*count == 1 && found[0] != q) {
            found[*count] = q;
            *count += 1;
        }
    };
    for n in around(board, p) {
        let cell = board.cell(n);
        if cell == EMPTY {
            add(n, &mut found, &mut count);
        } else if cell == own {
            match board.string_liberties(n) {
                0 | 1 => {}
                2 => {
                    // Its other liberty: the sum of both minus `p`.
                    let other = board.string_liberty_sum(n).wrapping_sub(p as u16);
                    add(usize::from(other), &mut found, &mut count);
                }
                _ => count = 2,
            }
        } else if cell == enemy && board.string_liberties(n) == 1 {
            captures = true;
            add(n, &mut found, &mut count);
        }
        if count >= 2 {
            return After {
                liberties: 2,
                liberty: 0,
                captures,
            };
        }
    }
    After {
        liberties: count as u8,
        liberty: found[0],
        captures,
    }
}

/// Whether a stone of `color` on the empty point `p` is a self-atari: its string would have
/// at most one liberty and the move captures nothing (the notes' definition, 3.6).
#[inline]
pub(crate) fn is_self_atari(board: &Board, p: usize, color: Color) -> bool {
    let after = liberties_after(board, p, color);
    after.liberties < 2 && !after.captures
}

/// The point a self-atari on `m` should be replaced by (approach move, 3.6): the one
/// liberty the string would have left, the connecting or outside-liberty move, when playing
/// there is not a self-atari itself. `None` when `m` is no self-atari or there is no such
/// move. The caller checks that the answer is playable (ko, eye).
#[inline]
pub(crate) fn approach_move(board: &Board, m: usize, color: Color) -> Option<usize> {
    // Two empty neighbours are two liberties: no self-atari (the common case, without the
    // look at the neighbours' strings).
    if board.neighbour_counts(m)[usize::from(EMPTY)] >= 2 {
        return None;
    }
    let after = liberties_after(board, m, color);
    if after.liberties != 1 || after.captures {
        return None;
    }
    let l = after.liberty;
    (board.cell(l) == EMPTY && board.is_legal_at(l, color) && !is_self_atari(board, l, color))
        .then_some(l)
}

/// A small set of candidate points: pushes keep the first [`Candidates::CAPACITY`] distinct
/// points and ignore the rest (a position needs many strings in atari around one move to
/// reach it; a dropped candidate only narrows the playout's choice).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidates {
    points: [u16; Candidates::CAPACITY],
    len: usize,
}

impl Candidates {
    /// Four strings around the last move, each with its escape and its neighbours in atari,
    /// fit with room to spare in ordinary play.
    pub const CAPACITY: usize = 32;

    #[inline(always)]
    pub fn new() -> Self {
        Candidates {
            points: [0; Candidates::CAPACITY],
            len: 0,
        }
    }

    /// Adds `p` unless it is already there or the set is full.
    #[inline]
    pub fn push(&mut self, p: usize) {
        let p = p as u16;
        if self.len < Candidates::CAPACITY && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// Adds `p` even when it is already there (one entry per string in atari, so that a
    /// liberty shared by two strings is drawn twice as often), unless the set is full.
    #[inline]
    pub fn push_string(&mut self, p: usize) {
        if self.len < Candidates::CAPACITY {
            self.points[self.len] = p as u16;
            self.len += 1;
        }
    }

    /// Keeps the points for which `keep` holds.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let p = self.points[i];
            if keep(usize::from(p)) {
                self.points[kept] = p;
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// One of the points, uniformly; `None` when there is none.
    #[inline]
    pub fn pick(&self, rng: &mut XorShiftRng) -> Option<usize> {
        match self.len {
            0 => None,
            1 => Some(usize::from(self.points[0])),
            n => Some(usize::from(self.points[random_index(rng, n)])),
        }
    }
}

/// The save-atari candidates after the opponent played on `last` (3.2, rule 1): for each
/// string of `me` next to `last` with one liberty, that liberty when playing there gives at
/// least 2 liberties, and the liberty of every opponent string in atari that touches it.
pub(crate) fn save_atari(board: &Board, last: usize, me: Color, out: &mut Candidates) {
    let own = stone(me);
    let enemy = own ^ 3;
    // Without an opponent string in atari anywhere, the walks below would find none.
    let any_to_capture = board.has_atari(me.opponent());
    let mut seen = [0usize; 4];
    for (k, n) in around(board, last).into_iter().enumerate() {
        if board.cell(n) != own || board.string_liberties(n) != 1 {
            continue;
        }
        let id = board.string_id(n);
        if seen.contains(&id) {
            continue;
        }
        seen[k] = id;
        let escape = usize::from(board.string_liberty_sum(n));
        if liberties_after(board, escape, me).liberties >= 2 {
            out.push(escape);
        }
        if !any_to_capture {
            continue;
        }
        // Opponent strings in atari touching the string: capturing one gives it a liberty.
        let mut s = n;
        loop {
            for m in around(board, s) {
                if board.cell(m) == enemy && board.string_liberties(m) == 1 {
                    out.push(usize::from(board.string_liberty_sum(m)));
                }
            }
            s = board.next_stone(s);
            if s == n {
                break;
            }
        }
    }
}

/// The vital point of the eye space at `x` (3.5): when the empty point `x` lies in a region
/// of exactly 3 empty points with no stone of `mover` next to it (only the opponent's stones
/// and the edge), the region's centre, the point next to the other two (a straight or bent
/// three has one).
///
/// Read from the neighbour counts rather than by a walk: three connected points of the
/// grid make a path (two neighbours of a point never touch), so the region is a centre
/// with two empty neighbours, each end having the centre as its only one.
pub(crate) fn nakade_centre(board: &Board, x: usize, mover: Color) -> Option<usize> {
    let own = usize::from(stone(mover));
    // `p` has no stone of `mover` next to it and `empties` empty neighbours.
    let free = |p: usize, empties: u8| {
        let counts = board.neighbour_counts(p);
        counts[own] == 0 && counts[usize::from(EMPTY)] == empties
    };
    // The first two empty neighbours of `p`, in the order of `around`.
    let empties = |p: usize| {
        let mut found = [0usize; 2];
        let mut len = 0;
        for n in around(board, p) {
            if board.cell(n) == EMPTY && len < 2 {
                found[len] = n;
                len += 1;
            }
        }
        found
    };
    if board.cell(x) != EMPTY {
        return None;
    }
    if free(x, 2) {
        let [a, b] = empties(x);
        return (free(a, 1) && free(b, 1)).then_some(x);
    }
    if !free(x, 1) {
        return None;
    }
    let [centre, _] = empties(x);
    if !free(centre, 2) {
        return None;
    }
    let [a, b] = empties(centre);
    let end = if a == x { b } else { a };
    free(end, 1).then_some(centre)
}

/// [`nakade_centre`] by a walk of the region, as it was first written (the tests' reference).
#[cfg(test)]
fn nakade_centre_by_walk(board: &Board, x: usize, mover: Color) -> Option<usize> {
    let own = stone(mover);
    let mut region = [x, 0, 0];
    let (mut len, mut i) = (1, 0);
    while i < len {
        for n in around(board, region[i]) {
            let cell = board.cell(n);
            if cell == own {
                return None;
            }
            if cell == EMPTY && !region[..len].contains(&n) {
                if len == 3 {
                    return None;
                }
                region[len] = n;
                len += 1;
            }
        }
        i += 1;
    }
    if len != 3 {
        return None;
    }
    let stride = board.stride_cells();
    let touches = |a: usize, b: usize| a.abs_diff(b) == 1 || a.abs_diff(b) == stride;
    region
        .into_iter()
        .find(|&c| region.iter().filter(|&&r| r != c && touches(r, c)).count() == 2)
}

/// The liberties of the strings of `enemy_color` in atari that `playable` accepts, one entry
/// per string, into `out` in the order of the board's empty list (the order a walk of the
/// empty points meets them, which the playouts were pinned with); returns how many.
pub(crate) fn capture_liberties(
    board: &Board,
    enemy_color: Color,
    out: &mut [u16; MAX_POINTS],
    mut playable: impl FnMut(usize) -> bool,
) -> usize {
    // A string has a stone of its own, so there are fewer strings than points.
    let mut count = 0;
    for anchor in board.strings_in_atari(enemy_color) {
        let liberty = usize::from(board.string_liberty_sum(anchor.index()));
        if playable(liberty)
            && let Some(slot) = out.get_mut(count)
        {
            *slot = board.empty_index(liberty) as u16;
            count += 1;
        }
    }
    let found = &mut out[..count];
    found.sort_unstable();
    let empties = board.empty_list();
    for slot in found {
        *slot = empties[usize::from(*slot)];
    }
    count
}

/// The strings of `enemy_color` in atari around the empty point `p`, counted once each.
#[cfg(test)]
#[inline(always)]
fn ataris_at(board: &Board, p: usize, enemy: u8) -> usize {
    if board.neighbour_counts(p)[usize::from(enemy)] == 0 {
        return 0;
    }
    let mut seen = [0usize; 4];
    let mut here = 0;
    for n in around(board, p) {
        if board.cell(n) == enemy && board.string_liberties(n) == 1 {
            let id = board.string_id(n);
            if !seen[..here].contains(&id) {
                seen[here] = id;
                here += 1;
            }
        }
    }
    here
}

/// The strings of `enemy_color` in atari whose liberty `playable` accepts, counted, and
/// whether there is any string of that colour in atari at all. Looks at the empty points only
/// (a string in atari has its liberty there) and at the neighbours of those next to an
/// `enemy_color` stone; each string is counted once, at its liberty. The walk that
/// [`capture_liberties`] replaced, kept as the tests' reference.
#[cfg(test)]
pub(crate) fn count_captures(
    board: &Board,
    enemy_color: Color,
    mut playable: impl FnMut(usize) -> bool,
) -> (usize, bool) {
    let enemy = stone(enemy_color);
    let (mut count, mut any) = (0, false);
    for &e in board.empty_list() {
        let p = usize::from(e);
        let here = ataris_at(board, p, enemy);
        if here > 0 {
            any = true;
            if playable(p) {
                count += here;
            }
        }
    }
    (count, any)
}

/// The liberty of the `k`-th string that [`count_captures`] counts (in the same order).
#[cfg(test)]
pub(crate) fn nth_capture(
    board: &Board,
    enemy_color: Color,
    k: usize,
    mut playable: impl FnMut(usize) -> bool,
) -> Option<usize> {
    let enemy = stone(enemy_color);
    let mut count = 0;
    for &e in board.empty_list() {
        let p = usize::from(e);
        let here = ataris_at(board, p, enemy);
        if here > 0 && playable(p) {
            count += here;
            if k < count {
                return Some(p);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::diagram;

    fn at(board: &Board, vertex: &str) -> usize {
        let b = vertex.as_bytes();
        let col = super::super::diagram::COLUMNS
            .iter()
            .position(|&c| c == b[0])
            .unwrap() as u8;
        let row: u8 = vertex[1..].parse().unwrap();
        board.point(col, row - 1).unwrap().index()
    }

    #[test]
    fn nakade_centres_agree_with_the_walk() {
        use crate::search::game::seeded_rng;
        let mut rng = seeded_rng(16);
        let mut threes = 0;
        for game in 0..300 {
            let mut board = Board::new([5u8, 7, 9, 9, 13][game % 5]).unwrap();
            while !board.is_over() {
                for &p in board.empty_list() {
                    let p = usize::from(p);
                    for color in [Color::Black, Color::White] {
                        let centre = nakade_centre(&board, p, color);
                        assert_eq!(centre, nakade_centre_by_walk(&board, p, color), "{board:?}");
                        threes += usize::from(centre.is_some());
                    }
                }
                board.play_light_move(&mut rng);
            }
        }
        assert!(threes > 1000, "{threes}");
    }

    #[test]
    fn liberties_after_a_move_count_joined_strings_and_captures() {
        let board = diagram::parse(
            "
 5 . . . . .
 4 . . . . .
 3 . . X . .
 2 . X O X .
 1 . . . . .
",
        )
        .unwrap();
        let b = &board;
        // White C1 joins C2 (in atari): the string keeps B1 and D1.
        let after = liberties_after(b, at(b, "C1"), Color::White);
        assert_eq!((after.liberties, after.captures), (2, false));
        // Black C1 captures C2 and has B1 and D1.
        let after = liberties_after(b, at(b, "C1"), Color::Black);
        assert_eq!(after.liberties, 2);
        assert!(!is_self_atari(b, at(b, "C1"), Color::Black));
        // A lone White stone on B3 has A3 and B4.
        assert_eq!(liberties_after(b, at(b, "B3"), Color::White).liberties, 2);
        // Black on D1 joins D2 and keeps C1, E1 and more: no self-atari.
        assert!(!is_self_atari(b, at(b, "D1"), Color::Black));
    }

    #[test]
    fn self_atari_and_its_approach_move() {
        // Black's B2-B1 has two liberties, A1 (inside) and C2 (outside).
        let board = diagram::parse(
            "
 5 . . . . .
 4 . . . . .
 3 . O . . .
 2 O X . . .
 1 . X O . .
",
        )
        .unwrap();
        let b = &board;
        let after = liberties_after(b, at(b, "A1"), Color::Black);
        assert_eq!((after.liberties, after.liberty), (1, at(b, "C2")));
        assert!(is_self_atari(b, at(b, "A1"), Color::Black));
        assert!(!is_self_atari(b, at(b, "C2"), Color::Black));
        assert_eq!(
            approach_move(b, at(b, "A1"), Color::Black),
            Some(at(b, "C2"))
        );
        // No approach for a move that is no self-atari.
        assert_eq!(approach_move(b, at(b, "C2"), Color::Black), None);
        // White on A1 joins A2 and keeps A3 only (and captures nothing): a self-atari whose
        // one liberty A3 is no self-atari, so A3 is White's approach move.
        assert!(is_self_atari(b, at(b, "A1"), Color::White));
        assert_eq!(
            approach_move(b, at(b, "A1"), Color::White),
            Some(at(b, "A3"))
        );
    }

    #[test]
    fn nakade_centres_of_straight_and_bent_threes() {
        let board = diagram::parse(
            "
 6 . . . . . .
 5 . . . . . .
 4 O O O O . .
 3 O . . . O .
 2 O O O O O .
 1 . . . . . .
",
        )
        .unwrap();
        let b = &board;
        for x in ["B3", "C3", "D3"] {
            assert_eq!(nakade_centre(b, at(b, x), Color::Black), Some(at(b, "C3")));
        }
        // The owner of the space sees nothing (its own stones border it).
        assert_eq!(nakade_centre(b, at(b, "C3"), Color::White), None);
        // A big region is no nakade.
        assert_eq!(nakade_centre(b, at(b, "F6"), Color::Black), None);

        let bent = diagram::parse(
            "
 6 . . . . . .
 5 . . . . . .
 4 . . . . . .
 3 O O O . . .
 2 . . O . . .
 1 . . O . . .
",
        )
        .unwrap();
        let b = &bent;
        // A1 A2 B1 B2: four points, no nakade; fill one to make a bent three.
        assert_eq!(nakade_centre(b, at(b, "A1"), Color::Black), None);
        let mut bent = bent.clone();
        bent.set_stone(bent.point(1, 1).unwrap(), Color::White)
            .unwrap(); // B2
        let b = &bent;
        // A2 A1 B1: bent three, centre A1.
        assert_eq!(
            nakade_centre(b, at(b, "B1"), Color::Black),
            Some(at(b, "A1"))
        );
    }

    /// The board's set of strings in atari gives the capture liberties in the order of the
    /// walk it replaced, one per string, over every position of light playouts on 4 sizes.
    #[test]
    fn capture_liberties_come_in_the_walks_order() {
        use rand_core::SeedableRng;
        let mut rng = XorShiftRng::seed_from_u64(3);
        let mut checked = 0;
        for size in [5u8, 9, 13, 19] {
            for _ in 0..40 {
                let mut board = Board::new(size).unwrap();
                while !board.is_over() {
                    for enemy in [Color::Black, Color::White] {
                        // Any filter will do: one that refuses some points.
                        let playable = |p: usize| !p.is_multiple_of(3);
                        let mut out = [0u16; MAX_POINTS];
                        let n = capture_liberties(&board, enemy, &mut out, playable);
                        assert_eq!(n, count_captures(&board, enemy, playable).0);
                        for (k, &p) in out[..n].iter().enumerate() {
                            let walked = nth_capture(&board, enemy, k, playable);
                            assert_eq!(Some(usize::from(p)), walked);
                        }
                        checked += n;
                    }
                    board.play_light_move(&mut rng);
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn the_capture_count_sees_each_string_in_atari_once() {
        let board = diagram::parse(
            "
 5 . . . . .
 4 . X . . .
 3 X O O X .
 2 . X X . .
 1 . . . . .
",
        )
        .unwrap();
        let b = &board;
        // White's B3-C3 has one liberty, C4.
        assert_eq!(b.string_liberties(at(b, "B3")), 1);
        assert_eq!(count_captures(b, Color::White, |_| true), (1, true));
        assert_eq!(nth_capture(b, Color::White, 0, |_| true), Some(at(b, "C4")));
        assert_eq!(nth_capture(b, Color::White, 1, |_| true), None);
        // Not playable: none to capture, one in atari.
        assert_eq!(count_captures(b, Color::White, |_| false), (0, true));
        assert_eq!(count_captures(b, Color::Black, |_| true), (0, false));

        // Two White stones in atari share their liberty C2: two strings, drawn as two.
        let shared = diagram::parse(
            "
 5 . . . . .
 4 . . . . .
 3 . X . X .
 2 X O . O X
 1 . X . X .
",
        )
        .unwrap();
        let b = &shared;
        assert_eq!(count_captures(b, Color::White, |_| true), (2, true));
        for k in 0..2 {
            assert_eq!(nth_capture(b, Color::White, k, |_| true), Some(at(b, "C2")));
        }
    }
}
