//! Breakthrough for the generic MCTS engine: the [`Game`] implementation, the prior H(d)
//! that the MoGo score reads, and ready-made players (random, UCT, RAVE, MoGo).
//!
//! # The prior H(d)
//!
//! [`prior`] scores a move in [0, 1] from the mover's point of view, from a few bitboard
//! facts about the position (no search). It starts at 0.4 and adds:
//!
//! | fact | effect | why |
//! |---|---|---|
//! | the move wins (far rank, or last enemy pawn taken) | 1.0, nothing else counts | a decisive move |
//! | it captures an enemy pawn on our two home rows | 0.95 | that pawn wins next move if left alone |
//! | it reaches the rank before the goal where no enemy pawn attacks it | 0.9 | it cannot be stopped |
//! | any other capture | +0.25, plus 0.05 per rank the taken pawn had advanced past the middle | material, and the more dangerous pawns first |
//! | the to-square is attacked and not defended afterwards | −0.25 | the pawn is simply lost |
//! | the to-square is not attacked (a safe advance) | +0.05 + 0.15 · progress | progress = ranks advanced / (rows − 1) |
//! | the pawn leaves our first rank | −0.1 | the home row is the last line of defence |
//!
//! then clamps to [0, 1]. "Attacked" means an enemy pawn stands diagonally in front of the
//! to-square (it could capture there next ply); "defended" means one of our pawns (other
//! than the one moving) stands diagonally behind it, so a capture there can be recaptured.
//! Small boards use the same rules: ranks are counted from each side's own first rank.
//!
//! The weights are a hand design in the spirit of the MoGo paper's "rules" part of H(d), not
//! tuned; they order moves (win, stop a loss, run, capture, safe advance, hang a pawn), and the
//! MoGo score fades them out as real simulations accumulate.
use rand_xorshift::XorShiftRng;

use super::{Bitboard, Color, Move, MoveList, Position};
use crate::search::game::{Knowledge, MoveIndex, Ply, Prior, PriorSink, Turn};
use crate::search::mcts::{Config, Game, Mcts, MoGo, Rave, Selection, Stats, Ucb1, random_index};

/// Most plies of a game on the largest board, 8x8: every move takes a pawn one rank forward,
/// so 16 pawns a side make at most 2·16·7 = 224 moves.
pub const MAX_PLIES: usize = 224;

impl Game for Position {
    type Move = Move;
    type Moves = MoveList;
    type Trace = heapless::Vec<Ply<Move>, MAX_PLIES>;

    #[inline]
    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Over
        } else {
            Turn::Player(Position::side_to_move(self) as u8)
        }
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList) {
        Position::legal_moves(self, moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv);
    }

    /// 1 for the winner, 0 for the loser; 0.5 for both while the game goes on.
    fn returns(&self) -> [f32; 2] {
        match self.status().winner() {
            Some(Color::White) => [1.0, 0.0],
            Some(Color::Black) => [0.0, 1.0],
            None => [0.5, 0.5],
        }
    }

    /// The Zobrist hash (pawns, side to move, board size).
    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    /// The listed default's draw and move, found in the destination sets without a list.
    #[inline]
    fn play_random_move(&mut self, rng: &mut XorShiftRng) -> Option<Move> {
        self.play_nth_move(|count| random_index(rng, count as usize) as u32)
    }

    /// The same moves as `play_random_move` one after another, through the fastest bit
    /// kernel of this processor, chosen once for the whole simulation.
    #[inline]
    fn play_random_moves(
        &mut self,
        rng: &mut XorShiftRng,
        limit: u32,
        mut record: impl FnMut(Move, Turn),
    ) -> u32 {
        self.play_nth_moves(
            limit,
            |count| random_index(rng, count as usize) as u32,
            |mv, mover| record(mv, Turn::Player(mover as u8)),
        )
    }
}

impl MoveIndex for Position {
    /// A from-square (64), a direction (3) and whether it captures (2): moves that differ
    /// in any of them are different moves for AMAF.
    const MOVE_SPACE: usize = 64 * 3 * 2;
    type PlayerMoveTable = [u8; 2 * 64 * 3 * 2];

    #[inline]
    fn move_index(mv: Move) -> usize {
        let (from, to) = (mv.from().index(), mv.to().index());
        // Forward for White is +7, +8 or +9 squares, for Black −9, −8 or −7 (247, 248, 249
        // as a byte); the player is a separate dimension of AMAF tables, so the two may share
        // indices. One more, the low two bits are 0, 1, 2 for both: no branch (AMAF asks this
        // of every child on the path). Anything else, never a legal move, stays below 3.
        let direction = usize::from(to.wrapping_sub(from).wrapping_add(1) & 3).min(2);
        let capture = usize::from(mv.is_capture());
        (usize::from(from) * 3 + direction) * 2 + capture
    }
}

/// Breakthrough's knowledge for MCTS: [`prior`] as the prior value H(d) (weight 0: the
/// MoGo score reads it, no simulations are assumed), uniform playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Heuristics;

impl Knowledge<Position> for Heuristics {
    fn priors(&self, state: &Position, moves: &[Move], out: &mut impl PriorSink) {
        for (i, &mv) in moves.iter().enumerate() {
            let value = prior(state, mv);
            out.set(i, Prior { value, weight: 0.0 });
        }
    }

    /// Uniform playouts, so the game's whole-simulation loop (one bit kernel per simulation).
    #[inline]
    fn play_playout_moves(
        &self,
        state: &mut Position,
        rng: &mut XorShiftRng,
        limit: u32,
        record: impl FnMut(Move, Turn),
    ) -> u32 {
        state.play_random_moves(rng, limit, record)
    }
}

/// Squares a pawn of `side` standing on `pawns` could capture on next ply.
#[inline]
const fn attacks(side: Color, pawns: u64) -> u64 {
    Bitboard(pawns).pawn_attacks(side).bits()
}

/// Rank counted from `side`'s own first rank: 0 on its home row, `rows - 1` on its goal.
#[inline]
const fn progress_rank(side: Color, rank: u8, rows: u8) -> u8 {
    match side {
        Color::White => rank,
        // Saturating: an off-board square (from an illegal move) must not underflow.
        Color::Black => (rows - 1).saturating_sub(rank),
    }
}

/// The prior H(d) of `mv` in `position`, in [0, 1]: see the [module documentation](self)
/// for the rules. `mv` should be legal; anything else gets a meaningless but finite value.
pub fn prior(position: &Position, mv: Move) -> f32 {
    let side = position.side_to_move();
    let enemy = side.other();
    let size = position.size();
    let rows = size.rows();
    let own = position.pawns(side);
    let opp = position.pawns(enemy);
    let (from, to) = (mv.from(), mv.to());
    let to_bit = to.bit();
    let captures = opp & to_bit != 0;

    let opp_after = opp & !to_bit;
    if size.goal_mask(side) & to_bit != 0 || (captures && opp_after == 0) {
        return 1.0;
    }
    let to_rank = progress_rank(side, to.rank(), rows);
    if captures {
        // The taken pawn's progress, counted from its own side.
        let its_rank = progress_rank(enemy, to.rank(), rows);
        if its_rank >= rows - 2 {
            return 0.95;
        }
    }
    let own_after = (own & !from.bit()) | to_bit;
    let attacked = attacks(enemy, opp_after) & to_bit != 0;
    if to_rank == rows - 2 && !attacked {
        return 0.9;
    }
    let mut h = 0.4f32;
    if captures {
        let its_rank = progress_rank(enemy, to.rank(), rows);
        let past_middle = (2 * u32::from(its_rank)).saturating_sub(u32::from(rows - 1)) / 2;
        h += 0.25 + 0.05 * past_middle as f32;
    }
    if attacked {
        let defended = attacks(side, own_after & !to_bit) & to_bit != 0;
        if !defended {
            h -= 0.25;
        }
    } else {
        let advanced = f32::from(to_rank) / f32::from(rows - 1);
        h += 0.05 + 0.15 * advanced;
    }
    if progress_rank(side, from.rank(), rows) == 0 {
        h -= 0.1;
    }
    h.clamp(0.0, 1.0)
}

/// The algorithm behind a [`Player`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A uniformly random legal move.
    Random,
    /// MCTS with UCB1 (UCT).
    Uct,
    /// MCTS with UCT-RAVE.
    Rave,
    /// MCTS with the MoGo score and [`prior`] as H(d).
    MoGo,
}

/// A Breakthrough player: random, or an MCTS with a selection policy, an iteration budget
/// per move and search settings. Every move is searched from scratch (no tree reuse), so a
/// move depends only on the position and the generator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// What kind of player this is (for display; `selection` decides the search).
    pub kind: PlayerKind,
    /// Iterations per move (ignored by the random player).
    pub iterations: u32,
    /// The selection policy.
    pub selection: Selection,
    /// Search settings (expansion, playouts, solver).
    pub config: Config,
    /// Threads searching each move by root parallelism ([`Mcts::search_parallel`]), each
    /// with `iterations` iterations in its own share of the tree storage; 1 is the serial
    /// search. Without the `std` feature there are no threads and the search is serial.
    pub search_threads: usize,
}

impl Player {
    /// Plays uniformly random moves.
    pub fn random() -> Player {
        Player {
            kind: PlayerKind::Random,
            iterations: 0,
            selection: Selection::default(),
            config: Config::default(),
            search_threads: 1,
        }
    }

    /// UCT with C = 1/√2, the MCTS-Solver and uniform playouts.
    pub fn uct(iterations: u32) -> Player {
        Player {
            kind: PlayerKind::Uct,
            iterations,
            selection: Selection::Ucb1(Ucb1::default()),
            config: Config::default(),
            search_threads: 1,
        }
    }

    /// UCT-RAVE with the engine's defaults (C = 0, c1 = 0.01).
    pub fn rave(iterations: u32) -> Player {
        Player {
            kind: PlayerKind::Rave,
            selection: Selection::Rave(Rave::default()),
            ..Player::uct(iterations)
        }
    }

    /// The MoGo score with the engine's defaults (C = 1, c1 = 0.01, c2 = 1) and [`prior`].
    pub fn mogo(iterations: u32) -> Player {
        Player {
            kind: PlayerKind::MoGo,
            selection: Selection::MoGo(MoGo::default()),
            ..Player::uct(iterations)
        }
    }

    /// Nodes of storage with which this player's trees can never fill: one expansion per
    /// iteration at most, [`MAX_MOVES`](super::MAX_MOVES) children each, plus the root, for
    /// each search thread. Less storage is fine too; the search then stops growing and
    /// says so.
    pub fn nodes_needed(&self) -> usize {
        match self.kind {
            PlayerKind::Random => 0,
            _ => (self.iterations as usize)
                .saturating_mul(super::MAX_MOVES)
                .saturating_add(1)
                .saturating_mul(self.search_threads.max(1)),
        }
    }

    /// Chooses a move for the side to move in `position`, searching in `tree` (cleared
    /// first) with randomness from `rng`, on `search_threads` threads (an invalid count
    /// searches serially). `None` only when the game is over. Without room for a root in
    /// `tree` the search falls back to a random move. `Stats::iterations` counts the
    /// iterations of all threads.
    pub fn choose(
        &self,
        position: &Position,
        tree: &mut Mcts<'_, Move>,
        rng: &mut XorShiftRng,
    ) -> (Option<Move>, Stats) {
        if self.kind == PlayerKind::Random {
            return (position.random_move(rng), Stats::default());
        }
        tree.clear();
        let searched = tree.search_on_threads(
            position,
            &self.selection,
            &Heuristics,
            &self.config,
            self.iterations,
            self.search_threads,
            rng,
        );
        match searched {
            Ok(result) => (result.best, result.stats),
            Err(_) => (position.random_move(rng), Stats::default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::{Size, Status};
    use crate::search::mcts::{Node, Proof, seeded_rng};

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn the_game_trait_follows_the_position() {
        let p = Position::start(Size::new_checked(5, 5).unwrap());
        assert_eq!(Game::turn(&p), Turn::Player(0));
        let mut moves = MoveList::new();
        Game::legal_moves(&p, &mut moves);
        assert_eq!(moves.len(), 13);
        assert_eq!(Game::returns(&p), [0.5, 0.5]);
        let won = pos("..W../...../...../...../BB... b");
        assert_eq!(won.status(), Status::WhiteWon);
        assert_eq!(Game::turn(&won), Turn::Over);
        assert_eq!(Game::returns(&won), [1.0, 0.0]);
        assert_eq!(Move::default().to_u16(), 0);
        assert_eq!(<Position as Game>::MAX_MOVES, super::super::MAX_MOVES);
    }

    #[test]
    fn move_indices_tell_every_legal_move_of_a_player_apart() {
        let mut rng = seeded_rng(3);
        for (columns, rows) in [(2, 4), (5, 5), (8, 8), (3, 8)] {
            let mut p = Position::start(Size::new_checked(columns, rows).unwrap());
            // Every move either player ever makes, with its index: one index, one move.
            let mut seen = std::collections::HashMap::new();
            while let Some(m) = p.random_move(&mut rng) {
                let mut moves = MoveList::new();
                Game::legal_moves(&p, &mut moves);
                let side = Position::side_to_move(&p) as usize;
                for &other in moves.iter() {
                    let index = Position::move_index(other);
                    assert!(index < Position::MOVE_SPACE);
                    // The index the first AMAF tables used, by a match on the direction.
                    let (from, to) = (other.from().index(), other.to().index());
                    let direction = match to.wrapping_sub(from) {
                        7 | 247 => 0,
                        8 | 248 => 1,
                        _ => 2,
                    };
                    let first = (usize::from(from) * 3 + direction) * 2;
                    assert_eq!(index, first + usize::from(other.is_capture()));
                    assert_eq!(*seen.entry((side, index)).or_insert(other), other);
                }
                p.play(m);
            }
        }
    }

    #[test]
    fn the_prior_orders_moves_as_documented() {
        let p = pos("BB.../..BW./...BW/WB..W/W.... w");
        let h = |text: &str| {
            let m = mv(text);
            assert!(p.is_legal(m), "{text}");
            prior(&p, m)
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        assert_eq!(h("d4-d5"), 1.0); // reaches the last rank
        assert_eq!(h("a1xb2"), 0.95); // takes a pawn about to win
        assert_eq!(h("e3-e4"), 0.9); // unstoppable runner
        assert!(close(h("a2-a3"), 0.4 + 0.05 + 0.15 * 0.5)); // safe advance
        assert!(close(h("a2-b3"), 0.4 - 0.25)); // hangs on b3 (c4 takes)
        assert!(close(h("e2xd3"), 0.4 + 0.25 - 0.25)); // c4 retakes
        // Black's view: the same rules counted from the top.
        let q = pos("..B../...../...../W..../..... b");
        assert!(close(
            prior(&q, mv("c5-c4")),
            0.4 + 0.05 + 0.15 * 0.25 - 0.1
        ));
        assert_eq!(prior(&q, mv("c5-b4")), prior(&q, mv("c5-d4")));
    }

    #[test]
    fn every_prior_is_in_range_along_random_games() {
        let mut rng = seeded_rng(5);
        for (columns, rows) in [(2, 4), (5, 5), (6, 5), (8, 8), (3, 8)] {
            let mut p = Position::start(Size::new_checked(columns, rows).unwrap());
            while let Some(m) = p.random_move(&mut rng) {
                let mut moves = MoveList::new();
                Game::legal_moves(&p, &mut moves);
                for &other in moves.iter() {
                    let h = prior(&p, other);
                    assert!((0.0..=1.0).contains(&h), "{other} in {p}: {h}");
                }
                p.play(m);
            }
        }
    }

    #[test]
    fn the_prior_of_any_move_number_is_in_range() {
        let small = Position::start(Size::new_checked(2, 4).unwrap());
        for p in [small, pos("..B../...../...../W..../..... b")] {
            for raw in 0..1u16 << 13 {
                let h = prior(&p, Move::from_u16(raw).unwrap());
                assert!((0.0..=1.0).contains(&h), "{raw}: {h}");
            }
        }
    }

    #[test]
    fn every_player_takes_a_win_in_one() {
        // White wins with c4-c5 (or b4-... none); Black threatens to win next move.
        let p = pos("B..../..W../...../....B/..... w");
        let mut storage = [Node::default(); 20_000];
        let mut tree = Mcts::new(&mut storage);
        for player in [Player::uct(300), Player::rave(300), Player::mogo(300)] {
            let (best, stats) = player.choose(&p, &mut tree, &mut seeded_rng(1));
            let best = best.unwrap();
            assert!(
                p.size().goal_mask(Color::White) & best.to().bit() != 0,
                "{best}"
            );
            assert_eq!(stats.root_proof, Proof::Win, "{player:?}");
        }
        let (best, _) = Player::random().choose(&p, &mut tree, &mut seeded_rng(1));
        assert!(p.is_legal(best.unwrap()));
        let over = pos("..W../...../...../...../B.... b");
        assert_eq!(
            Player::uct(10)
                .choose(&over, &mut tree, &mut seeded_rng(1))
                .0,
            None
        );
    }

    #[test]
    fn searches_are_deterministic_and_fall_back_without_storage() {
        let p = Position::start(Size::new_checked(6, 5).unwrap());
        let mut storage = [Node::default(); 5_000];
        let mut tree = Mcts::new(&mut storage);
        for player in [Player::uct(200), Player::rave(200), Player::mogo(200)] {
            let a = player.choose(&p, &mut tree, &mut seeded_rng(9));
            let b = player.choose(&p, &mut tree, &mut seeded_rng(9));
            assert_eq!(a, b);
            assert_eq!(a.1.iterations, 200);
            assert!(!a.1.storage_full);
        }
        // Ten nodes: the root expands (16 children do not fit) never, yet a move comes back.
        let mut tiny = [Node::default(); 10];
        let mut tree = Mcts::new(&mut tiny);
        let (best, stats) = Player::uct(50).choose(&p, &mut tree, &mut seeded_rng(2));
        assert!(p.is_legal(best.unwrap()));
        assert!(stats.storage_full);
        let mut none: [Node<Move>; 0] = [];
        let mut tree = Mcts::new(&mut none);
        let (best, _) = Player::uct(50).choose(&p, &mut tree, &mut seeded_rng(2));
        assert!(p.is_legal(best.unwrap()));
        assert_eq!(Player::uct(1000).nodes_needed(), 48_001);
        assert_eq!(Player::random().nodes_needed(), 0);
    }

    /// Search threads need `std`; without it a player searches on one thread.
    #[test]
    #[cfg(feature = "std")]
    fn search_threads_multiply_the_iterations_and_stay_deterministic() {
        let p = Position::start(Size::new_checked(6, 5).unwrap());
        let serial = Player::mogo(300);
        let parallel = Player {
            search_threads: 2,
            ..serial
        };
        assert_eq!(parallel.nodes_needed(), 2 * serial.nodes_needed());
        let mut storage = std::vec![Node::default(); parallel.nodes_needed()];
        let mut tree = Mcts::new(&mut storage);
        let a = parallel.choose(&p, &mut tree, &mut seeded_rng(4));
        let b = parallel.choose(&p, &mut tree, &mut seeded_rng(4));
        assert_eq!(a, b);
        assert!(p.is_legal(a.0.unwrap()));
        assert_eq!(a.1.iterations, 600);
        assert!(!a.1.storage_full);
        // One thread is the serial search, also after a parallel search left its trees.
        let one = Player {
            search_threads: 1,
            ..serial
        };
        let c = one.choose(&p, &mut tree, &mut seeded_rng(4));
        let mut fresh = std::vec![Node::default(); serial.nodes_needed()];
        let d = serial.choose(&p, &mut Mcts::new(&mut fresh), &mut seeded_rng(4));
        assert_eq!(c, d);
    }

    #[test]
    fn uct_beats_random_on_6x5() {
        let size = Size::new_checked(6, 5).unwrap();
        let mut storage = std::vec![Node::default(); Player::uct(200).nodes_needed()];
        let mut tree = Mcts::new(&mut storage);
        let mut rng = seeded_rng(11);
        let mut wins = 0;
        for game in 0..8 {
            let uct_color = if game % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut p = Position::start(size);
            while !p.is_over() {
                let player = if p.side_to_move() == uct_color {
                    Player::uct(200)
                } else {
                    Player::random()
                };
                let m = player.choose(&p, &mut tree, &mut rng).0.unwrap();
                p.play(m);
            }
            wins += u32::from(p.status().winner() == Some(uct_color));
        }
        assert!(wins >= 7, "UCT won {wins} of 8");
    }
}
