//! Breakthrough's [`ProofHints`] for the generic proof-number solvers of
//! `crate::search::proof` (the rest they need is its [`Game`] implementation): the player to
//! move, mobility, early win detection, static values and losing moves left out.
//!
//! Three pieces of Breakthrough knowledge, each exact (the verifier test in
//! `tests/solve_verify.rs` checks solved values against a plain alpha-beta search):
//!
//! - *win next move*: a pawn one rank from its goal always gets there.
//! - *forced defence*: if the opponent has a pawn one rank from its goal (a threat) and the
//!   side to move cannot win at once, every move but a capture of that pawn loses, so only
//!   those captures are generated; two threats, or one that no pawn attacks, lose.
//! - *win in three plies*: with no threat against it, the side to move wins if a pawn two
//!   ranks from its goal can step to a cell one rank from its goal that no enemy pawn
//!   attacks: the opponent can neither take it nor win first.
//!
//! [`WithRacePatterns`] adds the race patterns of [`super::race`] on top, as a further
//! static value; the plain [`Position`] leaves them out, so both can be compared.

use super::bits::Kernel;
use super::kernel::{self, WithKernel};
use super::rules::{self, Targets};
use super::{Bitboard, Color, Move, MoveList, Position};
use crate::search::game::{Game, Ply, ProofHint, ProofHints, Turn};
use crate::search::proof::dfpn::{Dfpn, DfpnConfig, Entry, TableTooSmall};
use crate::search::proof::{Outcome, SolveStats};

/// One rank towards `side`'s goal.
#[inline]
const fn forward(side: Color, bits: u64) -> u64 {
    Bitboard(bits).forward(side).bits()
}

/// The cells that pawns of `side` could capture on (diagonally forward), on any board
/// (callers clip to the board).
#[inline]
const fn attacks(side: Color, pawns: u64) -> u64 {
    Bitboard(pawns).pawn_attacks(side).bits()
}

/// A position as the proof hints read it, with the masks they share worked out once:
/// each hint is a method here, and a solver's one call for a new node
/// ([`ProofHints::proof_hint`]) reads them all from one `Sides`.
struct Sides {
    side: Color,
    own: u64,
    opp: u64,
    board: u64,
    rows: u32,
}

impl Sides {
    #[inline(always)]
    fn of(position: &Position) -> Sides {
        let side = position.side_to_move();
        let size = position.size();
        Sides {
            side,
            own: position.pawns(side),
            opp: position.pawns(side.other()),
            board: size.board_mask(),
            rows: u32::from(size.rows()),
        }
    }

    /// The rank one step before `side`'s goal (the top rank is White's goal, rank 1
    /// Black's).
    #[inline(always)]
    fn before_goal(&self, side: Color) -> u64 {
        let rank = match side {
            Color::White => self.rows - 2,
            Color::Black => 1,
        };
        self.board & Bitboard::RANK_1.bits() << (8 * rank)
    }

    /// The opponent's pawns one step from its goal.
    #[inline(always)]
    fn threats(&self) -> u64 {
        self.opp & self.before_goal(self.side.other())
    }

    /// See [`ProofHints::wins_next_move`] for `Position`.
    #[inline(always)]
    fn wins_next_move(&self) -> bool {
        self.own & self.before_goal(self.side) != 0
    }

    /// See [`ProofHints::static_value`] for `Position`.
    #[inline(always)]
    fn static_value(&self) -> Option<bool> {
        let (side, own, opp) = (self.side, self.own, self.opp);
        let threats = self.threats();
        if threats != 0 {
            if threats.count_ones() >= 2 || attacks(side, own) & threats == 0 {
                return Some(false);
            }
            return None;
        }
        let two_away = Bitboard(self.before_goal(side)).backward(side).bits();
        let runners = own & two_away;
        if runners == 0 {
            return None;
        }
        let board = self.board;
        let empty = board & !own & !opp;
        let steps = (forward(side, runners) & empty) | (attacks(side, runners) & board & !own);
        let guarded = attacks(side.other(), opp);
        (steps & !guarded != 0).then_some(true)
    }

    /// Ranks between the opponent's most advanced pawn and its goal rank (0 with no pawn:
    /// the game is over and no estimate is asked).
    #[inline(always)]
    fn opponent_front_distance(&self) -> u32 {
        let pawns = self.opp;
        if pawns == 0 {
            return 0;
        }
        match self.side.other() {
            Color::White => self.rows - 1 - (63 - pawns.leading_zeros()) / 8,
            Color::Black => pawns.trailing_zeros() / 8,
        }
    }

    /// The factor of [`ProofHints::disproof_estimate`] for `Position`: 3 for every rank the
    /// opponent's front pawn stands beyond two ranks from its goal.
    #[inline(always)]
    fn disproof_factor(&self) -> u32 {
        const FACTOR: u32 = 3;
        FACTOR.saturating_pow(self.opponent_front_distance().saturating_sub(2))
    }

    /// The legal moves of a position that goes on.
    #[inline(always)]
    fn mobility_going_on(&self) -> u32 {
        kernel::dispatch(MoveCount(Targets::new(
            self.side, self.own, self.opp, self.board,
        )))
    }

    /// [`ProofHints::proof_hint`] of a position that goes on, with `extra` as a further
    /// static value after the plain one.
    #[inline(always)]
    fn proof_hint(&self, estimate: bool, extra: impl FnOnce() -> Option<bool>) -> ProofHint {
        if self.wins_next_move() {
            return ProofHint::Win;
        }
        match self.static_value().or_else(extra) {
            Some(true) => ProofHint::Win,
            Some(false) => ProofHint::Loss,
            None if estimate => ProofHint::Open(
                self.mobility_going_on()
                    .saturating_mul(self.disproof_factor()),
            ),
            None => ProofHint::Open(0),
        }
    }
}

/// The number of moves of a position, counted through the fastest bit kernel of this
/// processor ([`kernel::dispatch`]): `popcnt` where there is one. A call (about 10
/// instructions) against about 40 for the byte sums of the three move sets.
struct MoveCount(Targets);

impl WithKernel for MoveCount {
    type Output = u32;

    #[inline(always)]
    fn run<K: Kernel>(self, kernel: K) -> u32 {
        rules::total(kernel, &self.0.counted(kernel))
    }
}

impl ProofHints for Position {
    #[inline]
    fn to_move(&self) -> u8 {
        self.side_to_move() as u8
    }

    /// Under a threat (see the module notes), only its captures: every other move loses at
    /// once.
    #[inline]
    fn prune_losing_moves(&self, moves: &mut MoveList) {
        let sides = Sides::of(self);
        let threats = sides.threats();
        if threats != 0 && !sides.wins_next_move() {
            moves.retain(|mv| threats.count_ones() == 1 && mv.to().bit() & threats != 0);
        }
    }

    #[inline]
    fn mobility(&self) -> u32 {
        self.count_legal_moves()
    }

    /// Mobility times 3 for each rank that the opponent's most advanced pawn stands beyond
    /// two ranks from its goal: the side to move is disproved when the opponent breaks
    /// through, which takes longer the further back its front pawn is (a pawn two ranks
    /// away is already the static value's business). Measured against mobility alone
    /// (docs/breakthrough-solving.md): 1–18% fewer df-pn expansions on 4x5, 5x5, 6x5 and
    /// 3x7; factors 2, 4, 8 and 16 saved less.
    #[inline]
    fn disproof_estimate(&self) -> u32 {
        self.mobility()
            .saturating_mul(Sides::of(self).disproof_factor())
    }

    /// A pawn one rank from its goal always gets there next move: a diagonal step stays
    /// on a board at least two wide, and its target cannot hold an own pawn (that pawn
    /// would already have won), so it is empty or a capture.
    #[inline]
    fn wins_next_move(&self) -> bool {
        Sides::of(self).wins_next_move()
    }

    /// Forced-defence losses and wins in three plies (see the module notes); called only
    /// when the game goes on and the side to move cannot win next move.
    fn static_value(&self) -> Option<bool> {
        Sides::of(self).static_value()
    }

    /// The hints above from one reading of the position.
    #[inline]
    fn proof_hint(&self, estimate: bool) -> ProofHint {
        Sides::of(self).proof_hint(estimate, || None)
    }
}

/// A position whose static value also consults the shipped race patterns
/// ([`super::race::race_value`]). Everything else is the plain [`Position`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WithRacePatterns(pub Position);

impl core::fmt::Display for WithRacePatterns {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

/// The plain position's rules: only the proof hints differ.
impl Game for WithRacePatterns {
    type Move = Move;
    type Moves = MoveList;
    type Trace = heapless::Vec<Ply<Move>, { super::MAX_PLIES }>;

    #[inline]
    fn turn(&self) -> Turn {
        self.0.turn()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList) {
        Game::legal_moves(&self.0, moves);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.0.play(mv);
    }

    #[inline]
    fn returns(&self) -> [f32; 2] {
        self.0.returns()
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(&self.0)
    }
}

impl ProofHints for WithRacePatterns {
    #[inline]
    fn to_move(&self) -> u8 {
        self.0.to_move()
    }

    #[inline]
    fn mobility(&self) -> u32 {
        self.0.mobility()
    }

    #[inline]
    fn disproof_estimate(&self) -> u32 {
        self.0.disproof_estimate()
    }

    #[inline]
    fn wins_next_move(&self) -> bool {
        self.0.wins_next_move()
    }

    /// The plain knowledge first (it is cheaper), then the race patterns.
    #[inline]
    fn static_value(&self) -> Option<bool> {
        self.0
            .static_value()
            .or_else(|| super::race::race_value(&self.0))
    }

    /// The hints above from one reading of the position.
    #[inline]
    fn proof_hint(&self, estimate: bool) -> ProofHint {
        Sides::of(&self.0).proof_hint(estimate, || super::race::race_value(&self.0))
    }

    #[inline]
    fn prune_losing_moves(&self, moves: &mut MoveList) {
        self.0.prune_losing_moves(moves);
    }
}

/// Solving a Breakthrough position with the generic solvers: the race patterns switched
/// on or off, and Breakthrough's move count for the solvers' sizing.
impl Position {
    /// df-pn on this position in the caller's `table` (with the race patterns as static
    /// knowledge when `patterns`), within `max_expansions`, and a winning move for a win.
    pub fn solve_in_table(
        self,
        patterns: bool,
        table: &mut [Entry],
        max_expansions: u64,
    ) -> Result<(Outcome, Option<Move>, SolveStats), TableTooSmall> {
        let config = DfpnConfig {
            max_expansions,
            ..DfpnConfig::default()
        };
        if patterns {
            Dfpn::solve_in(table, &WithRacePatterns(self), config)
        } else {
            Dfpn::solve_in(table, &self, config)
        }
    }

    /// Solves this position with `algorithm` within the memory and expansion budgets of
    /// `options`, with the race patterns as
    /// static knowledge when `patterns`; see [`crate::search::proof::run`].
    #[cfg(feature = "std")]
    pub fn solve_with_budget(
        self,
        patterns: bool,
        algorithm: crate::search::proof::run::Algorithm,
        options: crate::search::proof::run::SolveOptions,
        progress: &mut dyn FnMut(&crate::search::proof::Progress),
    ) -> crate::search::proof::run::Solved<Move> {
        use crate::search::proof::run::solve;
        if patterns {
            solve(WithRacePatterns(self), algorithm, &options, progress)
        } else {
            solve(self, algorithm, &options, progress)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::breakthrough::{Position, Size};
    use crate::search::ProofHints;
    use crate::search::proof::dfpn::{Dfpn, DfpnConfig, Entry};
    use crate::search::proof::pns::{Node, Pns, PnsConfig};
    use crate::search::proof::{Outcome, Solvable};

    fn start(columns: u8, rows: u8) -> Position {
        Position::start(Size::new_checked(columns, rows).unwrap())
    }

    #[test]
    fn terminal_and_early_win() {
        let p: Position = "B../.../.W./... b".parse().unwrap();
        assert_eq!(p.terminal(), None);
        assert!(!p.wins_next_move());
        let p: Position = "B../.W./.../... w".parse().unwrap();
        assert!(p.wins_next_move());
        let p: Position = "B../.W./.../... b".parse().unwrap();
        assert!(!p.wins_next_move());
        let p: Position = ".W./B../.../... b".parse().unwrap();
        assert_eq!(p.terminal(), Some(false));
    }

    #[test]
    fn the_one_call_hint_says_what_the_hints_say_one_by_one() {
        use crate::breakthrough::{MoveList, WithRacePatterns};
        use crate::search::game::{Game, ProofHint};
        use rand_core::{Rng, SeedableRng};
        fn by_parts<G: ProofHints>(position: &G, estimate: bool) -> ProofHint {
            let known = if position.wins_next_move() {
                Some(true)
            } else {
                position.static_value()
            };
            match known {
                Some(true) => ProofHint::Win,
                Some(false) => ProofHint::Loss,
                None => ProofHint::Open(if estimate {
                    position.disproof_estimate()
                } else {
                    0
                }),
            }
        }
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(11);
        let mut seen = [0u32; 3];
        for (columns, rows) in [(2u8, 4u8), (3, 5), (4, 5), (5, 5), (6, 5), (3, 7), (8, 8)] {
            for _ in 0..300 {
                let mut position = start(columns, rows);
                let mut moves = MoveList::new();
                while !position.is_over() {
                    for estimate in [false, true] {
                        let hint = position.proof_hint(estimate);
                        assert_eq!(hint, by_parts(&position, estimate), "{position}");
                        let patterned = WithRacePatterns(position);
                        let hint = patterned.proof_hint(estimate);
                        assert_eq!(hint, by_parts(&patterned, estimate), "{position}");
                        seen[match hint {
                            ProofHint::Win => 0,
                            ProofHint::Loss => 1,
                            ProofHint::Open(_) => 2,
                        }] += 1;
                    }
                    Game::legal_moves(&position, &mut moves);
                    position.play(moves[rng.next_u32() as usize % moves.len()]);
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }

    #[test]
    fn the_memo_of_initial_numbers_changes_no_count() {
        // The memo only skips recomputing initial numbers: df-pn expands, touches and
        // stores exactly as without it, with a roomy memo and with one small enough that
        // positions keep evicting each other.
        use crate::search::proof::dfpn::{INITIAL_SLOTS, InitialSlot};
        fn counts<G: Solvable>(root: G, slots: usize) -> (Outcome, Option<G::Move>, String) {
            let mut table = vec![Entry::default(); 1 << 18];
            let mut memo = vec![InitialSlot::default(); slots];
            let mut dfpn =
                Dfpn::with_initial_cache(&mut table, &mut memo, DfpnConfig::default()).unwrap();
            let outcome = dfpn.solve(&root);
            let best = dfpn.winning_move(&root);
            (outcome, best, format!("{:?}", dfpn.stats()))
        }
        for (columns, rows) in [(4u8, 4u8), (3, 5), (4, 5)] {
            let root = start(columns, rows);
            let patterned = crate::breakthrough::WithRacePatterns(root);
            let plain = counts(root, 0);
            assert_ne!(plain.0, Outcome::Unknown);
            let with_patterns = counts(patterned, 0);
            for slots in [1 << 6, INITIAL_SLOTS] {
                assert_eq!(counts(root, slots), plain, "{columns}x{rows} {slots}");
                assert_eq!(counts(patterned, slots), with_patterns, "{columns}x{rows}");
            }
        }
        // A won position, so the winning move's settling is compared too.
        let won: Position = "BBBB/BBBB/W.../.WWW/WWWW b".parse().unwrap();
        let plain = counts(won, 0);
        assert_eq!(plain.0, Outcome::Win);
        assert_eq!(counts(won, INITIAL_SLOTS), plain);
    }

    #[test]
    fn pns_and_dfpn_agree_on_small_boards() {
        // 3x4: solved both ways, and the answers agree.
        for (columns, rows) in [(2u8, 4u8), (3, 4), (2, 5), (4, 4), (3, 5)] {
            let root = start(columns, rows);
            let mut nodes = vec![Node::<crate::breakthrough::Move>::default(); 2_000_000];
            let mut pns = Pns::new(&mut nodes, root, PnsConfig::default()).unwrap();
            let a = pns.run(u64::MAX);
            let mut table = vec![Entry::default(); 1 << 16];
            let mut dfpn = Dfpn::new(&mut table, DfpnConfig::default()).unwrap();
            let b = dfpn.solve(&root);
            assert_ne!(a, Outcome::Unknown, "{columns}x{rows}");
            assert_eq!(a, b, "{columns}x{rows}");
            if a == Outcome::Win {
                let mv = dfpn.winning_move(&root).unwrap();
                assert_eq!(dfpn.solve(&root.after(mv)), Outcome::Loss);
                let mv = pns.winning_move().unwrap();
                assert_eq!(dfpn.solve(&root.after(mv)), Outcome::Loss);
            }
        }
    }
}
