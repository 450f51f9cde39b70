//! Uniformly random moves and games, for Monte-Carlo search.
//!
//! A random move is drawn without listing the moves: the three destination sets are
//! counted (one byte-sum each), one number `k` is drawn uniformly below the total, and the
//! `k`-th move is found from the same byte sums (see `bits`). Every legal move is one bit
//! of exactly one set, so each has probability exactly `1 / total`. The number is drawn by
//! Lemire's multiply-and-reject method, which is exact (no modulo bias) and almost never
//! draws twice.

use rand_core::Rng;

use super::bits::{self, Kernel};
use super::kernel::{WithKernel, dispatch};
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

/// The outcome of one random ply. (`step` and `ply` stay two functions: folded into one,
/// the playout measured 8% slower on x86-64, the same instructions laid out worse.)
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
fn draw<K: Kernel, R: Rng + ?Sized>(
    kernel: K,
    side: Color,
    own: u64,
    opp: u64,
    board: u64,
    rng: &mut R,
) -> Option<rules::Picked> {
    let counted = Targets::new(side, own, opp, board).counted(kernel);
    let n = rules::total(kernel, &counted);
    if n == 0 {
        return None;
    }
    Some(rules::pick(kernel, side, &counted, below(rng, n)))
}

/// Plays one random ply of `side`; the winner if that ended the game.
#[inline(always)]
fn ply<K: Kernel, R: Rng + ?Sized>(
    kernel: K,
    side: Color,
    own: &mut u64,
    opp: &mut u64,
    geometry: &Geometry,
    rng: &mut R,
) -> Option<Color> {
    match step(kernel, side, own, opp, geometry, rng) {
        Step::Continue => None,
        Step::Won => Some(side),
        Step::Stuck => Some(side.other()),
    }
}

#[inline(always)]
fn step<K: Kernel, R: Rng + ?Sized>(
    kernel: K,
    side: Color,
    own: &mut u64,
    opp: &mut u64,
    geometry: &Geometry,
    rng: &mut R,
) -> Step {
    match draw(kernel, side, *own, *opp, geometry.board, rng) {
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
    /// The `k`-th legal move in [`legal_moves`](Self::legal_moves) order, with `k` the
    /// answer of `choose` to the number of legal moves (an answer out of range means the
    /// first move), found in the destination sets without listing the moves. `None`, and
    /// `choose` is not called, once the game is over.
    #[inline]
    pub(crate) fn nth_move(&self, choose: impl FnOnce(u32) -> u32) -> Option<Move> {
        self.nth_move_with(bits::BUILD, choose)
    }

    /// [`nth_move`](Self::nth_move) with the bit kernel `kernel`.
    #[inline(always)]
    fn nth_move_with(&self, kernel: impl Kernel, choose: impl FnOnce(u32) -> u32) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let (own, opp) = self.sides();
        let side = self.side_to_move();
        let targets = Targets::new(side, own, opp, self.size().board_mask());
        let counted = targets.counted(kernel);
        let n = rules::total(kernel, &counted);
        if n == 0 {
            return None;
        }
        let k = choose(n);
        let picked = rules::pick(kernel, side, &counted, if k < n { k } else { 0 });
        Some(Move::new(
            Square::from_bit(picked.from),
            Square::from_bit(picked.to),
            opp & picked.to != 0,
        ))
    }

    /// Plays [`nth_move`](Self::nth_move)'s move and returns it; `None`, playing nothing,
    /// once the game is over. The MCTS playout plays through this, so that it picks the move
    /// its listed default would pick, with the same draw, without building the list.
    #[inline]
    pub(crate) fn play_nth_move(&mut self, choose: impl FnOnce(u32) -> u32) -> Option<Move> {
        self.play_nth_move_with(bits::BUILD, choose)
    }

    /// [`play_nth_move`](Self::play_nth_move) with the bit kernel `kernel`.
    #[inline(always)]
    fn play_nth_move_with(
        &mut self,
        kernel: impl Kernel,
        choose: impl FnOnce(u32) -> u32,
    ) -> Option<Move> {
        let mv = self.nth_move_with(kernel, choose)?;
        self.play(mv);
        Some(mv)
    }

    /// Plays up to `limit` moves, each [`play_nth_move`](Self::play_nth_move)'s with the
    /// answer of `choose`, until the game is over, handing each move and its mover to
    /// `record`; returns the number played. The whole loop runs through the fastest bit
    /// kernel of this processor (`kernel::dispatch`). The MCTS simulation plays through this.
    #[inline]
    pub(crate) fn play_nth_moves(
        &mut self,
        limit: u32,
        choose: impl FnMut(u32) -> u32,
        record: impl FnMut(Move, Color),
    ) -> u32 {
        dispatch(NthMoves {
            position: self,
            limit,
            choose,
            record,
        })
    }

    /// A legal move drawn uniformly at random, or `None` once the game is over. Draws from
    /// `rng` exactly as one ply of [`random_playout`](Self::random_playout) does.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        self.nth_move(|n| below(rng, n))
    }

    /// Plays uniformly random legal moves until someone wins, and says who and after how
    /// many plies. Leaves `self` as it is. Games always end: every move advances a pawn.
    ///
    /// The same position and generator state give the same game on every platform.
    pub fn random_playout<R: Rng + ?Sized>(&self, rng: &mut R) -> Playout {
        dispatch(RandomPlayout {
            position: self,
            rng,
        })
    }

    /// [`random_playout`](Self::random_playout) with the bit kernel `kernel`.
    #[inline(always)]
    fn random_playout_with<R: Rng + ?Sized>(&self, kernel: impl Kernel, rng: &mut R) -> Playout {
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
            if let Some(winner) = ply(kernel, Color::Black, &mut black, &mut white, &geometry, rng)
            {
                return Playout { winner, plies };
            }
        }
        loop {
            plies += 1;
            if let Some(winner) = ply(kernel, Color::White, &mut white, &mut black, &geometry, rng)
            {
                return Playout { winner, plies };
            }
            plies += 1;
            if let Some(winner) = ply(kernel, Color::Black, &mut black, &mut white, &geometry, rng)
            {
                return Playout { winner, plies };
            }
        }
    }
}

/// [`Position::random_playout`] as work for `kernel::dispatch`.
struct RandomPlayout<'a, R: Rng + ?Sized> {
    position: &'a Position,
    rng: &'a mut R,
}

impl<R: Rng + ?Sized> WithKernel for RandomPlayout<'_, R> {
    type Output = Playout;

    #[inline(always)]
    fn run<K: Kernel>(self, kernel: K) -> Playout {
        self.position.random_playout_with(kernel, self.rng)
    }
}

/// [`Position::play_nth_moves`] as work for `kernel::dispatch`.
struct NthMoves<'a, C, F> {
    position: &'a mut Position,
    limit: u32,
    choose: C,
    record: F,
}

impl<C: FnMut(u32) -> u32, F: FnMut(Move, Color)> WithKernel for NthMoves<'_, C, F> {
    type Output = u32;

    /// The moves of `play_nth_move` one after another, played on bare bitboards: the game
    /// ends with the move that wins (`rules::apply` says so), and the position is rebuilt
    /// and rehashed once at the end. The loop plays White then Black, so that the side is a
    /// constant in each half (as in `random_playout_with`); a simulation that starts with
    /// Black plays one ply first.
    #[inline(always)]
    fn run<K: Kernel>(mut self, kernel: K) -> u32 {
        let position = self.position;
        if self.limit == 0 || position.is_over() {
            return 0;
        }
        let geometry = Geometry::new(position.size());
        let mut white = position.pawns(Color::White);
        let mut black = position.pawns(Color::Black);
        let mut side = position.side_to_move();
        let mut played = 0;
        let (choose, record) = (&mut self.choose, &mut self.record);
        let limit = self.limit;
        // One ply of the constant `$side` (so that the move generation specialises): stop
        // at `$stop` when it has no move, else count it and stop when it won or the limit
        // is reached.
        macro_rules! ply {
            ($stop:lifetime, $side:expr, $own:ident, $opp:ident) => {
                let Some(won) = nth_ply(
                    kernel, $side, &mut $own, &mut $opp, &geometry, choose, record,
                ) else {
                    break $stop;
                };
                played += 1;
                side = $side.other();
                if won || played >= limit {
                    break $stop;
                }
            };
        }
        // `limit` is not 0, so the first ply is always played.
        'game: {
            if side == Color::Black {
                ply!('game, Color::Black, black, white);
            }
            loop {
                ply!('game, Color::White, white, black);
                ply!('game, Color::Black, black, white);
            }
        }
        position.set_reached(white, black, side);
        played
    }
}

/// One ply of [`NthMoves::run`] for `side`: the move `choose` picks among the `n` legal ones
/// (an answer out of range means the first), handed to `record` and played. `None`, playing
/// nothing, when `side` has no move; else whether the move won.
#[inline(always)]
fn nth_ply<K: Kernel>(
    kernel: K,
    side: Color,
    own: &mut u64,
    opp: &mut u64,
    geometry: &Geometry,
    choose: &mut impl FnMut(u32) -> u32,
    record: &mut impl FnMut(Move, Color),
) -> Option<bool> {
    let counted = Targets::new(side, *own, *opp, geometry.board).counted(kernel);
    let n = rules::total(kernel, &counted);
    if n == 0 {
        return None;
    }
    let k = choose(n);
    let picked = rules::pick(kernel, side, &counted, if k < n { k } else { 0 });
    let capture = *opp & picked.to != 0;
    let won = rules::apply(
        own,
        opp,
        picked.from,
        picked.to,
        geometry.goal[side.index()],
    );
    let mv = Move::new(
        Square::from_bit(picked.from),
        Square::from_bit(picked.to),
        capture,
    );
    record(mv, side);
    Some(won)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::{Heuristics, MoveList, Size};
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

    /// Every size, 20 games each, at every ply: `nth_move` names every listed move by its
    /// index, and an index out of range names the first.
    #[test]
    fn the_nth_move_is_the_nth_listed_move() {
        let mut rng = XorShiftRng::seed_from_u64(17);
        let mut moves = MoveList::new();
        let mut checked = 0u32;
        for columns in 2..=8 {
            for rows in 4..=8 {
                for _ in 0..20 {
                    let mut p = start(columns, rows);
                    loop {
                        p.legal_moves(&mut moves);
                        for (k, &listed) in moves.iter().enumerate() {
                            assert_eq!(p.nth_move(|_| k as u32), Some(listed), "{k} in {p}");
                            checked += 1;
                        }
                        let n = moves.len() as u32;
                        assert_eq!(p.nth_move(|_| n), moves.first().copied());
                        assert_eq!(p.nth_move(|_| u32::MAX), moves.first().copied());
                        let Some(mv) = p.random_move(&mut rng) else {
                            break;
                        };
                        p.play(mv);
                    }
                    let mut called = false;
                    assert_eq!(
                        p.nth_move(|_| {
                            called = true;
                            0
                        }),
                        None
                    );
                    assert!(!called);
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// The MCTS playout move (`Game::play_random_move`, overridden in `mcts.rs`) is the
    /// move the trait's listed default picks, with the same draw: many games on every size,
    /// compared move by move, position and generator state included.
    #[test]
    fn the_playout_move_is_the_listed_pick() {
        use crate::search::mcts::{Game, random_index};
        let mut plies = 0u32;
        for columns in 2..=8 {
            for rows in 4..=8 {
                for seed in 0..40 {
                    let mut fast = start(columns, rows);
                    let mut listed = fast;
                    let mut fast_rng = XorShiftRng::seed_from_u64(seed);
                    let mut listed_rng = fast_rng.clone();
                    loop {
                        let mut moves = crate::breakthrough::MoveList::new();
                        Game::legal_moves(&listed, &mut moves);
                        let want = moves.first().map(|_| {
                            let mv = moves[random_index(&mut listed_rng, moves.len())];
                            listed.play(mv);
                            mv
                        });
                        let got = fast.play_random_move(&mut fast_rng);
                        assert_eq!(got, want, "{columns}x{rows} seed {seed}");
                        assert_eq!(fast, listed);
                        assert!(fast_rng == listed_rng, "{columns}x{rows} seed {seed}");
                        if got.is_none() {
                            break;
                        }
                        plies += 1;
                    }
                }
            }
        }
        assert!(plies > 20_000, "{plies}");
    }

    /// Whole searches agree too: playouts through the override and playouts that list the
    /// moves and pick one give the same move and statistics for every player.
    #[test]
    fn searches_with_the_override_match_listed_playouts() {
        use crate::breakthrough::{Heuristics, Player};
        use crate::search::game::{Knowledge, PriorSink, play_listed};
        use crate::search::mcts::{Mcts, Node, random_index};

        /// Breakthrough's knowledge with playouts that list every move.
        struct Listed;
        impl Knowledge<Position> for Listed {
            fn priors(&self, state: &Position, moves: &[Move], out: &mut impl PriorSink) {
                Heuristics.priors(state, moves, out)
            }
            fn play_playout_move(
                &self,
                state: &mut Position,
                rng: &mut XorShiftRng,
            ) -> Option<Move> {
                play_listed(state, rng, |_, moves, rng| random_index(rng, moves.len()))
            }
        }

        let mut storage = std::vec![Node::default(); Player::uct(300).nodes_needed()];
        for (columns, rows) in [(8, 8), (6, 5), (3, 6)] {
            let p = start(columns, rows);
            for player in [Player::uct(300), Player::rave(300), Player::mogo(300)] {
                let mut search =
                    |knowledge: &dyn Fn(&mut Mcts<'_, Move>, &mut XorShiftRng) -> _| {
                        let mut tree = Mcts::new(&mut storage);
                        let mut rng = XorShiftRng::seed_from_u64(5);
                        let result = knowledge(&mut tree, &mut rng);
                        (
                            result,
                            tree.root_children().collect::<std::vec::Vec<_>>(),
                            rng,
                        )
                    };
                let (s, c, i) = (&player.selection, &player.config, player.iterations);
                let fast = search(&|tree, rng| tree.search(&p, s, &Heuristics, c, i, rng));
                let slow = search(&|tree, rng| tree.search(&p, s, &Listed, c, i, rng));
                assert_eq!(fast.0, slow.0, "{columns}x{rows} {player:?}");
                assert_eq!(fast.1, slow.1, "{columns}x{rows} {player:?}");
                assert!(fast.2 == slow.2);
            }
        }
    }

    /// The kernel chosen at run time (`kernel::dispatch`: POPCNT and BMI2 where the processor
    /// has them) and the portable one play the same games and searches, move for move: raw
    /// playouts on every size, and whole UCT, RAVE and MoGo searches, whose trees hold
    /// every playout's outcome and whose generators every draw.
    #[test]
    fn the_dispatched_and_the_portable_kernel_play_the_same_moves() {
        use crate::breakthrough::Player;
        use crate::breakthrough::kernel::{detect_bmi2, with_portable};
        use crate::search::mcts::{Mcts, Node, random_index};

        std::eprintln!("kernel: BMI2 {}", detect_bmi2().is_some());
        let mut games = 0u32;
        for columns in 2..=8 {
            for rows in 4..=8 {
                let p = start(columns, rows);
                for seed in 0..30 {
                    let mut fast_rng = XorShiftRng::seed_from_u64(seed);
                    let mut portable_rng = fast_rng.clone();
                    let fast = p.random_playout(&mut fast_rng);
                    let portable = with_portable(|| p.random_playout(&mut portable_rng));
                    assert_eq!(fast, portable, "{columns}x{rows} seed {seed}");
                    assert!(fast_rng == portable_rng);
                    // The MCTS simulation loop, every move recorded, against one move at
                    // a time through the build's kernel.
                    let (mut a, mut b) = (p, p);
                    let mut rng_a = XorShiftRng::seed_from_u64(seed);
                    let mut rng_b = rng_a.clone();
                    let mut moves = std::vec::Vec::new();
                    let played = a.play_nth_moves(
                        u32::MAX,
                        |n| random_index(&mut rng_a, n as usize) as u32,
                        |mv, mover| moves.push((mv, mover)),
                    );
                    for &(mv, mover) in &moves {
                        assert_eq!(mover, b.side_to_move());
                        let k = |n: u32| random_index(&mut rng_b, n as usize) as u32;
                        assert_eq!(with_portable(|| b.play_nth_move(k)), Some(mv));
                    }
                    assert_eq!(played as usize, moves.len());
                    assert!(a.is_over() && a == b && rng_a == rng_b);
                    games += 1;
                }
            }
        }
        assert_eq!(games, 7 * 5 * 30);

        let mut storage = std::vec![Node::default(); Player::uct(400).nodes_needed()];
        for (columns, rows) in [(8, 8), (6, 5), (3, 6), (5, 8)] {
            let p = start(columns, rows);
            for player in [Player::uct(400), Player::rave(400), Player::mogo(400)] {
                let mut search = || {
                    let mut tree = Mcts::new(&mut storage);
                    let mut rng = XorShiftRng::seed_from_u64(11);
                    let (s, c, i) = (&player.selection, &player.config, player.iterations);
                    let result = tree.search(&p, s, &Heuristics, c, i, &mut rng);
                    let children = tree.root_children().collect::<std::vec::Vec<_>>();
                    (result, children, rng)
                };
                let fast = search();
                let portable = with_portable(&mut search);
                assert_eq!(fast.0, portable.0, "{columns}x{rows} {player:?}");
                assert_eq!(fast.1, portable.1, "{columns}x{rows} {player:?}");
                assert!(fast.2 == portable.2);
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
