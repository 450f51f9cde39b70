//! Offline knowledge H(d) for the Go search: a prior for every listed move, in "equivalent
//! simulations" (the MoGo implementation notes, section 4: the paper's expert rules enter
//! "as an initial number of RAVE simulations, and as the additive H term"; the published
//! realisation the notes quote is Pachi 10.00's priors).
//!
//! Each term that applies to a move adds `weight` simulations at `value` (a win rate for the
//! mover in [0, 1]); the move's [`Prior`] is the weighted mean of the values and the sum of
//! the weights. The search reads the value as H(d) in the MoGo score and enters the weight
//! as that many simulations of that mean when the child is created, so a term of weight 20
//! at value 1 reads "as if the move had won 20 more playouts", and fades as real simulations
//! accumulate. The terms, with the source of each (the notes' list of the paper's rules and
//! Pachi's values):
//!
//! | term | value x weight | source |
//! |---|---|---|
//! | every move (even prior) | 0.5 x 14 | Pachi: every move 0.5 x 14 |
//! | captures a string in atari | 1 x (20 + 6 per stone, up to 80) | paper: captures; Pachi: playout-policy moves 1 x 14 |
//! | saves an own string in atari (2+ liberties after) | 1 x (20 + 6 per stone, up to 80) | paper: extensions out of atari |
//! | self-atari (one liberty after, no capture), unless it ataris a string whose capture of it leaves the capturer, two stones or more, in atari (a snapback or double atari; a lone capturer is a ko) | 0 x 30 | paper: self-atari avoided; the exception is reading |
//! | a MoGo 3x3 pattern matches for the mover | 1 x 14 | paper: 3x3 patterns; notes 3.3 |
//! | distance 1 / 2 / 3 to the last move (Manhattan; in the common-fate graph with [`Closeness::CommonFate`]) | 1 x 30 / 20 / 10 | paper: closeness to the last move; Pachi: CFG distance 1 x 45/40/15 |
//! | first line, nothing within distance 2 | 0 x 14 | paper: distance to the edge; Pachi: first line 0 x 14 |
//! | second line, nothing within distance 2 | 0.25 x 14 | reading (between Pachi's first and third line) |
//! | third line, nothing within distance 2 | 1 x 14 | Pachi: third line 1 x 14 |
//! | pass | 0 x 14 | reading: a pass is a last resort; the player judges passes by ownership |
//! | extends a string in atari into a ladder (two liberties after, captured by ataris) | 0 x 30, no save term | paper: extensions, especially out of a ladder; read by `ladder.rs` |
//! | ataris a string that cannot escape by a ladder | 1 x (20 + 6 per stone, up to 80) | paper: ataris; GNU Go reads ladders, MCTS at a few thousand playouts does not |
//!
//! A self-atari gets no distance bonus. The tree never lists a move that fills one's own
//! eye (Pachi's 0 x 14 for those), so there is no such term. Everything reads the board's
//! incremental strings and a few cells around each move: no walk of the board, no
//! allocation, deterministic.

use super::Color;
use super::board::{BLACK, BORDER, Board, CELLS, EMPTY, Move, Point, WHITE, stone};
use super::ladder;
use super::patterns::is_mogo_pattern_for;
use super::tactics;
use crate::search::game::{Prior, PriorSink};

/// The weights of the terms, in equivalent simulations (see the module text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoPriors {
    /// Every move, at 0.5.
    pub even: f32,
    /// A capture, at 1: this plus `per_stone` for each stone taken, up to `max_tactical`.
    pub capture: f32,
    /// Saving an own string in atari, at 1: this plus `per_stone` for each stone saved.
    pub save: f32,
    /// Added per stone captured or saved.
    pub per_stone: f32,
    /// Cap of the capture and save weights.
    pub max_tactical: f32,
    /// A self-atari, at 0.
    pub self_atari: f32,
    /// A MoGo 3x3 pattern match, at 1.
    pub pattern: f32,
    /// Distance 1, 2, 3 to the opponent's last move, at 1, counted as `closeness` says.
    pub near: [f32; 3],
    /// How `near` counts the distance.
    pub closeness: Closeness,
    /// Lines 1, 2, 3 with no stone within distance 2, at 0, 0.25 and 1.
    pub empty_lines: [f32; 3],
    /// The pass, at 0.
    pub pass: f32,
    /// Read ladders: an extension into a ladder counts as a self-atari, and an atari that
    /// starts a working ladder as a capture.
    pub ladders: bool,
    /// Read snapbacks: a self-atari that ataris a string whose capture of it leaves the
    /// capturer, two stones or more, in atari is no self-atari (off: every self-atari is).
    pub snapbacks: bool,
}

impl Default for GoPriors {
    fn default() -> Self {
        GoPriors {
            even: 14.0,
            capture: 20.0,
            save: 20.0,
            per_stone: 6.0,
            max_tactical: 80.0,
            self_atari: 30.0,
            pattern: 14.0,
            near: [30.0, 20.0, 10.0],
            closeness: Closeness::Manhattan,
            empty_lines: [14.0, 14.0, 14.0],
            pass: 14.0,
            ladders: true,
            snapbacks: true,
        }
    }
}

/// Weighted values summed: `wins / weight` is the prior's value.
#[derive(Clone, Copy, Default)]
struct Sum {
    wins: f32,
    weight: f32,
}

impl Sum {
    #[inline]
    fn add(&mut self, value: f32, weight: f32) {
        if weight > 0.0 {
            self.wins += value * weight;
            self.weight += weight;
        }
    }

    fn prior(self) -> Prior {
        if self.weight > 0.0 {
            Prior {
                value: (self.wins / self.weight).clamp(0.0, 1.0),
                weight: self.weight,
            }
        } else {
            Prior::default()
        }
    }
}

impl GoPriors {
    /// Every weight multiplied by `factor` (the values, and so H(d), stay as they are).
    pub fn scaled(self, factor: f32) -> GoPriors {
        let scale3 = |w: [f32; 3]| w.map(|x| x * factor);
        GoPriors {
            even: self.even * factor,
            capture: self.capture * factor,
            save: self.save * factor,
            per_stone: self.per_stone * factor,
            max_tactical: self.max_tactical * factor,
            self_atari: self.self_atari * factor,
            pattern: self.pattern * factor,
            near: scale3(self.near),
            closeness: self.closeness,
            empty_lines: scale3(self.empty_lines),
            pass: self.pass * factor,
            ladders: self.ladders,
            snapbacks: self.snapbacks,
        }
    }

    /// Writes the prior of each of `moves` (moves of the player to move on `board`) to `out`.
    pub fn write(&self, board: &Board, moves: &[Move], out: &mut impl PriorSink) {
        let near = Near::of(board, self.closeness);
        for (i, &mv) in moves.iter().enumerate() {
            out.set(i, self.prior_near(board, mv, &near));
        }
    }

    /// The prior of `mv` for the player to move.
    pub fn prior(&self, board: &Board, mv: Move) -> Prior {
        self.prior_near(board, mv, &Near::of(board, self.closeness))
    }

    /// [`GoPriors::prior`] with the distances to the last move counted.
    fn prior_near(&self, board: &Board, mv: Move, near: &Near) -> Prior {
        let mut sum = Sum::default();
        sum.add(0.5, self.even);
        let point = match mv {
            Move::Pass => {
                sum.add(0.0, self.pass);
                return sum.prior();
            }
            Move::Play(point) => point,
        };
        let Some((col, row)) = board.coords(point) else {
            return sum.prior();
        };
        if board.color_at(point).is_some() {
            return sum.prior();
        }
        let me = board.to_move();
        let p = point.index();
        let (captured, saved) = tactical_stones(board, p, me);
        if captured > 0 {
            sum.add(1.0, self.tactical(self.capture, captured));
        }
        let after = tactics::liberties_after(board, p, me);
        // An extension into a ladder saves nothing: it is read as a self-atari.
        let doomed = saved > 0
            && after.liberties == 2
            && self.ladders
            && ladder::extension_is_captured(board, p);
        if saved > 0 && after.liberties >= 2 && !doomed {
            sum.add(1.0, self.tactical(self.save, saved));
        }
        let self_atari = doomed
            || (after.liberties < 2
                && !after.captures
                && captured == 0
                && !(self.snapbacks && is_snapback_atari(board, p, me)));
        if self_atari {
            sum.add(0.0, self.self_atari);
        }
        if !self_atari && self.ladders {
            let taken = ladder_captures(board, p, me);
            if taken > 0 {
                sum.add(1.0, self.tactical(self.capture, taken));
            }
        }
        if is_mogo_pattern_for(board.code(p), me) {
            sum.add(1.0, self.pattern);
        }
        if !self_atari {
            let d = near.distance(p, col, row);
            if (1..=3).contains(&d) {
                sum.add(1.0, self.near[d - 1]);
            }
        }
        let size = board.size();
        let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
        if line < 3 && empty_around(board, col, row) {
            let value = [0.0, 0.25, 1.0][usize::from(line)];
            sum.add(value, self.empty_lines[usize::from(line)]);
        }
        sum.prior()
    }

    fn tactical(&self, base: f32, stones: u16) -> f32 {
        (base + self.per_stone * f32::from(stones)).min(self.max_tactical)
    }
}

/// Stones a move of `me` on the empty point `p` captures, and own stones in atari (their one
/// liberty is `p`) it joins, each string counted once.
fn tactical_stones(board: &Board, p: usize, me: Color) -> (u16, u16) {
    let own = stone(me);
    let mut seen = [usize::MAX; 4];
    let (mut captured, mut saved) = (0u16, 0u16);
    for (k, n) in tactics::around(board, p).into_iter().enumerate() {
        let cell = board.cell(n);
        if cell != BLACK && cell != WHITE {
            continue;
        }
        if board.string_liberties(n) != 1 {
            continue;
        }
        let id = board.string_id(n);
        if seen[..k].contains(&id) {
            continue;
        }
        seen[k] = id;
        let stones = board
            .string_size(Board::point_at(n))
            .unwrap_or(1)
            .min(u16::MAX / 2);
        if cell == own {
            saved = saved.saturating_add(stones);
        } else {
            captured = captured.saturating_add(stones);
        }
    }
    (captured, saved)
}

/// Whether `me`'s self-atari on the empty point `p` puts an opponent string in atari and the
/// opponent cannot take the stone without its capturing string being left in atari itself
/// (a snapback, or a double atari whose capture leaves one liberty): such a move is a
/// tesuji, not the self-atari the prior avoids. A lone capturing stone left in atari is a ko
/// (`me` may not retake at once), so it does not count. Read on a copy of the board, only for
/// self-ataris that atari something (a few moves a position).
fn is_snapback_atari(board: &Board, p: usize, me: Color) -> bool {
    let enemy = stone(me.opponent());
    let ataris = tactics::around(board, p)
        .into_iter()
        .any(|n| board.cell(n) == enemy && board.string_liberties(n) == 2);
    if !ataris {
        return false;
    }
    let mut after = board.clone();
    if after.try_play(Move::Play(Board::point_at(p))).is_err() {
        return false;
    }
    if after.string_liberties(p) != 1 {
        return true;
    }
    let capture = usize::from(after.string_liberty_sum(p));
    match after.try_play(Move::Play(Board::point_at(capture))) {
        // The opponent cannot take the stone at once (suicide or ko): the atari stands.
        Err(_) => true,
        Ok(()) => {
            after.string_liberties(capture) == 1
                && after.string_size(Board::point_at(capture)).unwrap_or(1) >= 2
        }
    }
}

/// Opponent stones that `me`'s move on the empty point `p` puts in atari and that cannot
/// escape by a ladder (each string counted once).
fn ladder_captures(board: &Board, p: usize, me: Color) -> u16 {
    let enemy = stone(me.opponent());
    let mut seen = [usize::MAX; 4];
    let mut taken = 0u16;
    for (k, n) in tactics::around(board, p).into_iter().enumerate() {
        if board.cell(n) != enemy || board.string_liberties(n) != 2 {
            continue;
        }
        let id = board.string_id(n);
        if seen[..k].contains(&id) {
            continue;
        }
        seen[k] = id;
        if ladder::atari_is_inescapable(board, p, n) {
            let stones = board.string_size(Board::point_at(n)).unwrap_or(1);
            taken = taken.saturating_add(stones.min(u16::MAX / 2));
        }
    }
    taken
}

/// Whether no stone lies within Manhattan distance 2 of (`col`, `row`).
fn empty_around(board: &Board, col: u8, row: u8) -> bool {
    for dc in -2i16..=2 {
        for dr in -2i16..=2 {
            if dc.abs() + dr.abs() > 2 {
                continue;
            }
            let (c, r) = (i16::from(col) + dc, i16::from(row) + dr);
            if !(0..256).contains(&c) || !(0..256).contains(&r) {
                continue;
            }
            if let Some(q) = board.point(c as u8, r as u8) {
                if board.color_at(q).is_some() {
                    return false;
                }
            }
        }
    }
    true
}

/// The prior the module text gives `point` (for tests and tools).
pub fn prior_of(board: &Board, priors: &GoPriors, point: Point) -> Prior {
    priors.prior(board, Move::Play(point))
}

/// How the `near` terms count the distance from a move to the opponent's last stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closeness {
    /// On the grid: |dx| + |dy|.
    Manhattan,
    /// In the common-fate graph: a string is one node, so every liberty of the last stone's
    /// string is at distance 1, however long the string (the notes' Pachi priors).
    CommonFate,
}

/// The distances to the opponent's last stone of one position.
// One lives on the stack for one `write`; boxing the large variant would need an allocator.
#[allow(clippy::large_enum_variant)]
enum Near {
    /// No stone played last (a pass, the start, or the stone was captured).
    Nothing,
    /// The last stone's coordinates.
    Manhattan(u8, u8),
    /// Per cell, its common-fate-graph distance up to 3, `u8::MAX` beyond.
    CommonFate([u8; CELLS]),
}

impl Near {
    fn of(board: &Board, closeness: Closeness) -> Near {
        let Move::Play(last) = board.last_move() else {
            return Near::Nothing;
        };
        if board.color_at(last).is_none() {
            return Near::Nothing;
        }
        match (closeness, board.coords(last)) {
            (_, None) => Near::Nothing,
            (Closeness::Manhattan, Some((col, row))) => Near::Manhattan(col, row),
            (Closeness::CommonFate, Some(_)) => {
                Near::CommonFate(common_fate_distances(board, last.index()))
            }
        }
    }

    /// The distance of the point `p` at (`col`, `row`); 0 when there is no last stone.
    fn distance(&self, p: usize, col: u8, row: u8) -> usize {
        match self {
            Near::Nothing => 0,
            Near::Manhattan(lc, lr) => {
                usize::from(col.abs_diff(*lc)) + usize::from(row.abs_diff(*lr))
            }
            Near::CommonFate(distances) => usize::from(distances[p]),
        }
    }
}

/// Common-fate-graph distances from the string of the stone `from`, up to 3 (`u8::MAX`
/// beyond): a breadth-first walk where stepping onto a string reaches all of its stones.
fn common_fate_distances(board: &Board, from: usize) -> [u8; CELLS] {
    /// Every cell of the node of `p` (its string, or the empty point) at distance `d`.
    struct Walk {
        distances: [u8; CELLS],
        queue: [u16; CELLS],
        tail: usize,
    }
    impl Walk {
        fn reach(&mut self, board: &Board, p: usize, d: u8) {
            let mut s = p;
            loop {
                self.distances[s] = d;
                self.queue[self.tail] = s as u16;
                self.tail += 1;
                if board.cell(s) == EMPTY {
                    return;
                }
                s = board.next_stone(s);
                if s == p {
                    return;
                }
            }
        }
    }
    let mut walk = Walk {
        distances: [u8::MAX; CELLS],
        queue: [0; CELLS],
        tail: 0,
    };
    walk.reach(board, from, 0);
    let mut head = 0;
    while head < walk.tail {
        let c = usize::from(walk.queue[head]);
        head += 1;
        let d = walk.distances[c];
        if d >= 3 {
            continue;
        }
        for n in tactics::around(board, c) {
            if walk.distances[n] == u8::MAX && board.cell(n) != BORDER {
                walk.reach(board, n, d + 1);
            }
        }
    }
    walk.distances
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::diagram;

    fn at(board: &Board, vertex: &str) -> Point {
        let v = vertex.parse::<crate::go::vertex::Vertex>().unwrap();
        board.point(v.col, v.row).unwrap()
    }

    /// A diagram, then `last` played by `by`: the other player is to move.
    fn position(text: &str, by: Color, last: &str) -> Board {
        let mut board = diagram::parse(text).unwrap();
        board.set_to_move(by);
        let mv = Move::Play(at(&board, last));
        board.try_play(mv).unwrap();
        board
    }

    fn value(board: &Board, vertex: &str) -> f32 {
        prior_of(board, &GoPriors::default(), at(board, vertex)).value
    }

    /// Every empty point's prior, with its vertex.
    fn all(board: &Board) -> std::vec::Vec<(Point, Prior)> {
        let moves: std::vec::Vec<Move> = board.empty_points().map(Move::Play).collect();
        let mut out = Collect(std::vec![None; moves.len()]);
        GoPriors::default().write(board, &moves, &mut out);
        moves
            .iter()
            .zip(out.0)
            .map(|(&m, p)| match m {
                Move::Play(q) => (q, p.unwrap()),
                Move::Pass => unreachable!(),
            })
            .collect()
    }

    struct Collect(std::vec::Vec<Option<Prior>>);

    impl PriorSink for Collect {
        fn set(&mut self, index: usize, prior: Prior) {
            if let Some(slot) = self.0.get_mut(index) {
                *slot = Some(prior);
            }
        }
    }

    // White's three stones C4-E4 are in atari (liberty F4) after White's F5; Black G1 would
    // be a self-atari next to White F1.
    const BIG: &str = "
 7 . . . . . . .
 6 . . . . . . .
 5 . . X X X . .
 4 . X O O O . .
 3 . . X X X . .
 2 . . . . . . .
 1 . . . . . O .
";

    #[test]
    fn the_capture_of_a_big_string_gets_the_highest_prior_and_a_self_atari_the_lowest() {
        let board = position(BIG, Color::White, "F5");
        assert_eq!(board.liberties(at(&board, "D4")), Some(1));
        let priors = all(&board);
        let best = priors
            .iter()
            .max_by(|a, b| a.1.value.total_cmp(&b.1.value))
            .unwrap();
        assert_eq!(best.0, at(&board, "F4"));
        let worst = priors
            .iter()
            .map(|p| p.1.value)
            .fold(f32::INFINITY, f32::min);
        let g1 = value(&board, "G1");
        assert!(g1 <= worst + 1e-6, "{g1} {worst}");
        assert!(g1 < 0.5);
    }

    #[test]
    fn a_pattern_move_gets_more_than_a_plain_point() {
        let board = position(BIG, Color::White, "F5");
        let me = board.to_move();
        let plain = GoPriors {
            near: [0.0; 3],
            ..GoPriors::default()
        };
        let mut seen = (false, false);
        for p in board.empty_points() {
            let i = p.index();
            if tactics::liberties_after(&board, i, me).liberties < 2 {
                continue;
            }
            let (captured, saved) = tactical_stones(&board, i, me);
            let (col, row) = board.coords(p).unwrap();
            let line = col.min(row).min(6 - col).min(6 - row);
            if captured + saved > 0 || (line < 3 && empty_around(&board, col, row)) {
                continue;
            }
            let v = prior_of(&board, &plain, p).value;
            if is_mogo_pattern_for(board.code(i), me) {
                assert!(v > 0.5, "{v}");
                seen.0 = true;
            } else {
                assert_eq!(v, 0.5);
                seen.1 = true;
            }
        }
        assert_eq!(seen, (true, true));
    }

    #[test]
    fn an_extension_into_a_ladder_is_a_self_atari_and_the_ladder_atari_a_capture() {
        use crate::go::ladder::tests::LADDER;
        // Black's D3 ataris C3; White to move.
        let board = position(LADDER, Color::Black, "D3");
        let extend = value(&board, "C4");
        assert!(extend < 0.5, "{extend}");
        let no_ladders = GoPriors {
            ladders: false,
            ..GoPriors::default()
        };
        let c4 = at(&board, "C4");
        assert!(prior_of(&board, &no_ladders, c4).value > 0.5);

        // Before D3, with Black to move: D3 starts the ladder and C4 ataris into an escape.
        let mut before = diagram::parse(LADDER).unwrap();
        before.set_to_move(Color::Black);
        let ladder_atari = prior_of(&before, &GoPriors::default(), at(&before, "D3"));
        let plain = prior_of(&before, &no_ladders, at(&before, "D3"));
        assert!(
            ladder_atari.weight > plain.weight,
            "{ladder_atari:?} {plain:?}"
        );
        assert!(ladder_atari.value > plain.value);
    }

    // A game arbor lost to GNU Go (9x9, arbor White): Black's J2 is a self-atari, but it
    // ataris White H1-H2 and J3-J4 at once, and White's capture on J1 leaves H1-H2-J1 in
    // atari; arbor's search, with the self-atari prior on J2, never looked at it.
    const DOUBLE_ATARI: &str = "
 9 X X X X . . . . .
 8 O O X . X X . O .
 7 . . O X X . O . X
 6 . . O O X X O O X
 5 . . . O X O X X X
 4 . . . . O O X . O
 3 . . O . O X X X O
 2 . . . . O X X O .
 1 . . . . O O X O .
";

    #[test]
    fn a_self_atari_that_ataris_with_a_snapback_is_not_avoided() {
        let board = position(DOUBLE_ATARI, Color::White, "H7");
        let j2 = at(&board, "J2");
        assert!(tactics::is_self_atari(&board, j2.index(), Color::Black));
        assert!(value(&board, "J2") >= 0.5, "{}", value(&board, "J2"));
        // Without Black's G1, White takes J2 from J1 with two liberties left: J2 is a plain
        // self-atari again.
        let plain = DOUBLE_ATARI.replace(" 1 . . . . O O X O .", " 1 . . . . O O . O .");
        let board = position(&plain, Color::White, "H7");
        assert!(value(&board, "J2") < 0.5, "{}", value(&board, "J2"));
        // With snapbacks not read, J2 is a self-atari like any other.
        let board = position(DOUBLE_ATARI, Color::White, "H7");
        let unread = GoPriors {
            snapbacks: false,
            ..GoPriors::default()
        };
        let j2 = prior_of(&board, &unread, at(&board, "J2")).value;
        assert!(j2 < 0.5, "{j2}");
    }

    #[test]
    fn a_self_atari_whose_capture_is_a_ko_stays_avoided() {
        // Black's B2 ataris A2, B1 and B3, but White's C2 takes it with a lone stone whose one
        // liberty is B2: Black may not retake at once (ko), so B2 is a plain self-atari.
        const KO: &str = "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . . . . .
 5 . . . . . . . . .
 4 . . . . . . . . .
 3 X O X . . . . . .
 2 O . . X . . . . .
 1 . O X . . . . . .
";
        let board = position(KO, Color::White, "G7");
        let b2 = at(&board, "B2");
        assert!(tactics::is_self_atari(&board, b2.index(), Color::Black));
        assert!(value(&board, "B2") < 0.5, "{}", value(&board, "B2"));
    }

    #[test]
    fn priors_are_deterministic_and_one_per_move() {
        let board = position(BIG, Color::White, "F5");
        assert_eq!(all(&board), all(&board));
        assert_eq!(all(&board).len(), board.empty_points().count());
        let mut pass = Collect(std::vec![None; 1]);
        GoPriors::default().write(&board, &[Move::Pass], &mut pass);
        assert!(pass.0[0].unwrap().value < 0.5);
    }

    #[test]
    fn common_fate_distances_count_a_string_as_one_point() {
        // Black's last stone E5 joins the string E5-E4-E3-D3-C3; White's F6 string touches
        // it. Its liberty B3 is 4 points from E5 on the grid but 1 in the common-fate graph.
        let board = position(
            "
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . O O . .
 5 . . . . . . . . .
 4 . . . . X . . . .
 3 . . X X X . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
",
            Color::Black,
            "E5",
        );
        let cfg = common_fate_distances(&board, at(&board, "E5").index());
        let d = |v: &str| cfg[at(&board, v).index()];
        assert_eq!(d("E5"), 0);
        assert_eq!(d("C3"), 0);
        assert_eq!(d("B3"), 1);
        assert_eq!(d("F5"), 1);
        // White's F6-G6 is one node, next to E5's liberties E6 and F5.
        assert_eq!(d("E6"), 1);
        assert_eq!(d("F6"), 2);
        assert_eq!(d("G6"), 2);
        assert_eq!(d("H6"), 3);
        assert_eq!(d("A3"), 2);
        assert_eq!(d("J6"), u8::MAX);
        // The weights follow the measure.
        let near = |closeness| {
            let priors = GoPriors {
                closeness,
                near: [30.0, 0.0, 0.0],
                ..GoPriors::default()
            };
            prior_of(&board, &priors, at(&board, "B3")).weight
                - prior_of(
                    &board,
                    &GoPriors {
                        near: [0.0; 3],
                        ..priors
                    },
                    at(&board, "B3"),
                )
                .weight
        };
        assert_eq!(near(Closeness::CommonFate), 30.0);
        assert_eq!(near(Closeness::Manhattan), 0.0);
    }
}
