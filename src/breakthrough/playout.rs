//! Uniformly random moves and games, for Monte-Carlo search.
//!
//! A random move is drawn without listing the moves: the three destination sets are
//! counted (one byte-sum each), one number `k` is drawn uniformly below the total, and the
//! `k`-th move is found from the same byte sums (see `bits`). Every legal move is one bit
//! of exactly one set, so each has probability exactly `1 / total`. The number is drawn by
//! Lemire's multiply-and-reject method, which is exact (no modulo bias) and almost never
//! draws twice.

use rand_core::Rng;

use super::bits;
use super::rules::{self, Geometry, Targets};
use super::{Color, Move, Position, Square};

/// How a random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Playout {
    /// The side that won.
    pub winner: Color,
    /// The number of plies played to get there (0 if the position was already over).
    pub plies: u32,
}

/// A number drawn uniformly from `0..n`, for `n >= 1`.
#[inline(always)]
fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    // The high half of x * n is uniform over 0..n once the low half avoids the
    // 2^32 mod n values that would over-represent some results.
    let mut product = u64::from(rng.next_u32()) * u64::from(n);
    if (product as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (product >> 32) as u32
}

/// The outcome of one random ply.
enum Step {
    Continue,
    /// The mover won.
    Won,
    /// The mover had no move. Impossible in a valid position (see `Position`); handled so
    /// that a broken invariant cannot loop or pick a phantom move.
    Stuck,
}

/// Draws the random move of `side` and returns it as (from, to) bits, or `None` when there
/// are no moves.
#[inline(always)]
fn draw<R: Rng + ?Sized>(
    side: Color,
    own: u64,
    opp: u64,
    board: u64,
    rng: &mut R,
) -> Option<rules::Picked> {
    let targets = Targets::new(side, own, opp, board);
    let prefix = [
        bits::prefix_counts(targets.sets[0]),
        bits::prefix_counts(targets.sets[1]),
        bits::prefix_counts(targets.sets[2]),
    ];
    let n = bits::total(prefix[0]) + bits::total(prefix[1]) + bits::total(prefix[2]);
    if n == 0 {
        return None;
    }
    Some(rules::pick(side, &targets, &prefix, below(rng, n)))
}

/// Plays one random ply of `side`; the winner if that ended the game.
#[inline(always)]
fn ply<R: Rng + ?Sized>(
    side: Color,
    own: &mut u64,
    opp: &mut u64,
    geometry: &Geometry,
    rng: &mut R,
) -> Option<Color> {
    match step(side, own, opp, geometry, rng) {
        Step::Continue => None,
        Step::Won => Some(side),
        Step::Stuck => Some(side.other()),
    }
}

#[inline(always)]
fn step<R: Rng + ?Sized>(
    side: Color,
    own: &mut u64,
    opp: &mut u64,
    geometry: &Geometry,
    rng: &mut R,
) -> Step {
    match draw(side, *own, *opp, geometry.board, rng) {
        None => Step::Stuck,
        Some(picked) => {
            let goal = geometry.goal[side.index()];
            if rules::apply(own, opp, picked.from, picked.to, goal) {
                Step::Won
            } else {
                Step::Continue
            }
        }
    }
}

impl Position {
    /// A legal move drawn uniformly at random, or `None` once the game is over. Draws from
    /// `rng` exactly as one ply of [`random_playout`](Self::random_playout) does.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let (own, opp) = self.sides();
        let picked = draw(self.side_to_move(), own, opp, self.size().board_mask(), rng)?;
        let capture = opp & picked.to != 0;
        Some(Move::new(
            Square::from_bit(picked.from),
            Square::from_bit(picked.to),
            capture,
        ))
    }

    /// Plays uniformly random legal moves until someone wins, and says who and after how
    /// many plies. Leaves `self` as it is. Games always end: every move advances a pawn.
    ///
    /// The same position and generator state give the same game on every platform.
    pub fn random_playout<R: Rng + ?Sized>(&self, rng: &mut R) -> Playout {
        if let Some(winner) = self.status().winner() {
            return Playout { winner, plies: 0 };
        }
        let geometry = Geometry::new(self.size());
        let mut white = self.pawns(Color::White);
        let mut black = self.pawns(Color::Black);
        let mut plies = 0;
        // The loop plays White then Black, so the side is a constant in each half and the
        // move generation specialises; a game that starts with Black plays one ply first.
        if self.side_to_move() == Color::Black {
            plies += 1;
            if let Some(winner) = ply(Color::Black, &mut black, &mut white, &geometry, rng) {
                return Playout { winner, plies };
            }
        }
        loop {
            plies += 1;
            if let Some(winner) = ply(Color::White, &mut white, &mut black, &geometry, rng) {
                return Playout { winner, plies };
            }
            plies += 1;
            if let Some(winner) = ply(Color::Black, &mut black, &mut white, &geometry, rng) {
                return Playout { winner, plies };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::{MoveList, Size};
    use rand_core::SeedableRng;
    use rand_xorshift::XorShiftRng;

    fn start(columns: u8, rows: u8) -> Position {
        Position::start(Size::new_checked(columns, rows).unwrap())
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = XorShiftRng::seed_from_u64(1);
        for n in 1..=48 {
            let mut seen = 0u64;
            for _ in 0..2000 {
                let k = below(&mut rng, n);
                assert!(k < n);
                seen |= 1 << k;
            }
            assert_eq!(seen, (1u64 << n) - 1);
        }
    }

    #[test]
    fn playouts_replay_move_by_move_with_a_correct_hash() {
        // The fast playout and the public move-by-move path draw the same numbers, so they
        // must play the same game; the hash stays right along the way.
        for (columns, rows) in [(2, 4), (4, 5), (5, 5), (6, 5), (8, 8), (3, 8), (8, 4)] {
            for seed in 0..20 {
                let p = start(columns, rows);
                let fast = p.random_playout(&mut XorShiftRng::seed_from_u64(seed));
                let mut rng = XorShiftRng::seed_from_u64(seed);
                let mut q = p;
                let mut plies = 0;
                let mut moves = MoveList::new();
                while let Some(mv) = q.random_move(&mut rng) {
                    q.legal_moves(&mut moves);
                    assert!(moves.contains(&mv), "{mv} in {q}");
                    q.try_play(mv).unwrap();
                    assert_eq!(q.hash(), q.hash_from_scratch());
                    plies += 1;
                }
                assert_eq!(q.status().winner(), Some(fast.winner));
                assert_eq!(plies, fast.plies, "{columns}x{rows} seed {seed}");
            }
        }
    }

    #[test]
    fn playouts_are_deterministic_for_a_seed() {
        let p = start(8, 8);
        let run = |seed| {
            let mut rng = XorShiftRng::seed_from_u64(seed);
            let mut results = [(Color::White, 0u32); 50];
            for r in &mut results {
                let g = p.random_playout(&mut rng);
                *r = (g.winner, g.plies);
            }
            results
        };
        assert_eq!(run(42), run(42));
        assert_ne!(run(42), run(43));
        // Pinned: the first game for seed 42, the same on every platform.
        let first = p.random_playout(&mut XorShiftRng::seed_from_u64(42));
        assert_eq!(first, PINNED_FIRST_GAME);
    }

    const PINNED_FIRST_GAME: Playout = Playout {
        winner: Color::Black,
        plies: 84,
    };

    #[test]
    fn playouts_from_ended_and_black_to_move_positions() {
        let over: Position = "..../..../..../B... w".parse().unwrap();
        let mut rng = XorShiftRng::seed_from_u64(3);
        assert_eq!(
            over.random_playout(&mut rng),
            Playout {
                winner: Color::Black,
                plies: 0
            }
        );
        assert_eq!(over.random_move(&mut rng), None);
        // Black to move with a win in one on every move: b2-b1, b2-a1, b2xc1 (... all reach
        // rank 1).
        let p: Position = "..../..../.B../..W. b".parse().unwrap();
        for seed in 0..10 {
            let g = p.random_playout(&mut XorShiftRng::seed_from_u64(seed));
            assert_eq!(
                g,
                Playout {
                    winner: Color::Black,
                    plies: 1
                }
            );
        }
    }

    #[test]
    fn random_moves_are_uniform() {
        // A position with straight, diagonal and capture moves in all three sets.
        let p: Position = "BBBBB/..B../.W.B./W.W.W/..... w".parse().unwrap();
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let n = moves.len();
        assert_eq!(n, 8);
        let draws = 4000 * n;
        let mut counts = [0u32; crate::breakthrough::MAX_MOVES];
        let mut rng = XorShiftRng::seed_from_u64(2024);
        for _ in 0..draws {
            let mv = p.random_move(&mut rng).unwrap();
            let i = moves.iter().position(|&m| m == mv).unwrap();
            counts[i] += 1;
        }
        // Pearson's chi-square with n - 1 degrees of freedom: mean n - 1, far below 3n for
        // a uniform draw, far above it for any real bias at this sample size.
        let expected = 4000.0;
        let chi2: f64 = counts[..n]
            .iter()
            .map(|&c| (f64::from(c) - expected) * (f64::from(c) - expected) / expected)
            .sum();
        assert!(
            chi2 < 3.0 * n as f64,
            "chi2 = {chi2} over {n} moves: {counts:?}"
        );
    }
}
