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

use super::{Bitboard, Color, Move, MoveList, Position};
use crate::search::game::{Game, Ply, ProofHints, Turn};
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

/// The rank one step before `side`'s goal.
#[inline]
const fn before_goal(position: &Position, side: Color) -> u64 {
    let goal = position.size().goal_mask(side);
    match side {
        Color::White => goal >> 8,
        Color::Black => goal << 8,
    }
}

/// Ranks between `side`'s most advanced pawn and its goal rank (0 on the goal; with no
/// pawn, 0: the game is over and no estimate is asked).
#[inline]
fn front_distance(position: &Position, side: Color) -> u32 {
    let pawns = position.pawns(side);
    if pawns == 0 {
        return 0;
    }
    match side {
        Color::White => u32::from(position.size().rows()) - 1 - (63 - pawns.leading_zeros()) / 8,
        Color::Black => pawns.trailing_zeros() / 8,
    }
}

/// The opponent's pawns one step from its goal.
#[inline]
fn threats(position: &Position) -> u64 {
    let them = position.side_to_move().other();
    position.pawns(them) & before_goal(position, them)
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
        let threats = threats(self);
        if threats != 0 && !self.wins_next_move() {
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
        const FACTOR: u32 = 3;
        let beyond = front_distance(self, self.side_to_move().other()).saturating_sub(2);
        self.mobility()
            .saturating_mul(FACTOR.saturating_pow(beyond))
    }

    /// A pawn one rank from its goal always gets there next move: a diagonal step stays
    /// on a board at least two wide, and its target cannot hold an own pawn (that pawn
    /// would already have won), so it is empty or a capture.
    #[inline]
    fn wins_next_move(&self) -> bool {
        let side = self.side_to_move();
        let goal = self.size().goal_mask(side);
        let before_goal = match side {
            Color::White => goal >> 8,
            Color::Black => goal << 8,
        };
        self.pawns(side) & before_goal != 0
    }

    /// Forced-defence losses and wins in three plies (see the module notes); called only
    /// when the game goes on and the side to move cannot win next move.
    fn static_value(&self) -> Option<bool> {
        let side = self.side_to_move();
        let own = self.pawns(side);
        let opp = self.pawns(side.other());
        let threats = threats(self);
        if threats != 0 {
            if threats.count_ones() >= 2 || attacks(side, own) & threats == 0 {
                return Some(false);
            }
            return None;
        }
        let board = self.size().board_mask();
        let two_away = match side {
            Color::White => before_goal(self, side) >> 8,
            Color::Black => before_goal(self, side) << 8,
        };
        let runners = own & two_away;
        if runners == 0 {
            return None;
        }
        let empty = board & !own & !opp;
        let steps = (forward(side, runners) & empty) | (attacks(side, runners) & board & !own);
        let guarded = attacks(side.other(), opp);
        (steps & !guarded != 0).then_some(true)
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
