//! The game state and how moves change it.

use core::fmt;

use super::rules::{self, Geometry, Targets};
use super::zobrist::{self, KEYS};
use super::{Color, Move, MoveList, Size, Square, Status};
use crate::Error;

/// A Breakthrough position: both sides' pawns, the side to move, the board size and the
/// Zobrist hash, in 32 bytes. It is `Copy`, so search code takes a copy and plays on it
/// rather than undoing moves.
///
/// Every `Position` is valid: its pawns lie on the board, neither side has more pawns than
/// it started with, and the side to move has not already won. Constructors check this, and
/// legal moves keep it; so the side to move always has a move unless the game is over.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: u64,
    black: u64,
    hash: u64,
    size: Size,
    turn: Color,
}

/// Why a set of bitboards is not a valid position ([`Position::from_bitboards`], parsing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidPosition {
    /// A pawn lies outside the board.
    OffBoard,
    /// A cell holds a pawn of each side.
    Overlap,
    /// A side has more pawns than its two starting rows hold.
    TooManyPawns,
    /// The side to move has already won, so the game would have ended before its turn.
    SideToMoveHasWon,
}

impl InvalidPosition {
    /// What is wrong, in English.
    pub const fn message(self) -> &'static str {
        match self {
            InvalidPosition::OffBoard => "a pawn lies outside the board",
            InvalidPosition::Overlap => "a cell holds both a white and a black pawn",
            InvalidPosition::TooManyPawns => {
                "a side has more pawns than its two starting rows hold"
            }
            InvalidPosition::SideToMoveHasWon => {
                "the side to move has already won, so the game would have ended"
            }
        }
    }
}

impl fmt::Display for InvalidPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for InvalidPosition {}

impl From<InvalidPosition> for Error {
    fn from(_: InvalidPosition) -> Error {
        Error::InvalidArgument
    }
}

/// Why a move cannot be played ([`Position::try_play`], [`Position::check_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// Someone has already won.
    GameOver,
    /// The from- or to-square is outside this board.
    OffBoard,
    /// The from-square holds no pawn of the side to move.
    NoPawn,
    /// The to-square is not one rank forward, straight or diagonally.
    NotForward,
    /// A straight move onto an occupied cell.
    Blocked,
    /// A diagonal move onto a pawn of the same side.
    OwnPawn,
    /// The move's capture mark does not match the to-square: a capture is written with `x`,
    /// any other move with `-`.
    CaptureMark,
}

impl IllegalMove {
    /// What is wrong, in English.
    pub const fn message(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "the game is over",
            IllegalMove::OffBoard => "the move leaves the board",
            IllegalMove::NoPawn => "no pawn of the side to move stands on the from-square",
            IllegalMove::NotForward => "a pawn moves one rank forward, straight or diagonally",
            IllegalMove::Blocked => "a pawn moves straight only onto an empty cell",
            IllegalMove::OwnPawn => "a pawn cannot move onto a pawn of its own side",
            IllegalMove::CaptureMark => "a capture is written with 'x' and any other move with '-'",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for IllegalMove {}

impl From<IllegalMove> for Error {
    fn from(_: IllegalMove) -> Error {
        Error::IllegalMove
    }
}

impl Position {
    /// The start: two full rows per side, White to move.
    pub const fn start(size: Size) -> Position {
        let white = size.home_mask(Color::White);
        let black = size.home_mask(Color::Black);
        Position {
            white,
            black,
            hash: zobrist::hash(size, white, black, Color::White),
            size,
            turn: Color::White,
        }
    }

    /// The position with these pawns (bit `rank * 8 + file`) and `turn` to move, if it is
    /// valid; see [`InvalidPosition`] for what is checked.
    pub const fn from_bitboards(
        size: Size,
        white: u64,
        black: u64,
        turn: Color,
    ) -> Result<Position, InvalidPosition> {
        let board = size.board_mask();
        if (white | black) & !board != 0 {
            return Err(InvalidPosition::OffBoard);
        }
        if white & black != 0 {
            return Err(InvalidPosition::Overlap);
        }
        // Pawns are only ever removed, so more than the start means an impossible position,
        // and the move list bound (MAX_MOVES) relies on it.
        if white.count_ones() > size.start_pawns() || black.count_ones() > size.start_pawns() {
            return Err(InvalidPosition::TooManyPawns);
        }
        let geometry = Geometry::new(size);
        let status = rules::status(&geometry, white, black);
        if let Some(winner) = status.winner() {
            if winner as u8 == turn as u8 {
                return Err(InvalidPosition::SideToMoveHasWon);
            }
        }
        Ok(Position {
            white,
            black,
            hash: zobrist::hash(size, white, black, turn),
            size,
            turn,
        })
    }

    /// The board size.
    #[inline]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The side whose turn it is (after a win: the side that lost).
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The pawns of `side`, bit `rank * 8 + file`.
    #[inline]
    pub const fn pawns(&self, side: Color) -> u64 {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Whose pawn stands on `square`, if any.
    #[inline]
    pub const fn pawn_at(&self, square: Square) -> Option<Color> {
        if self.white & square.bit() != 0 {
            Some(Color::White)
        } else if self.black & square.bit() != 0 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The Zobrist hash, kept up to date by every move. Equal positions have equal hashes,
    /// on every platform; positions of different sizes hash differently.
    #[inline]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether the game goes on, and who has won if not.
    #[inline]
    pub const fn status(&self) -> Status {
        rules::status(&Geometry::new(self.size), self.white, self.black)
    }

    /// `true` once someone has won.
    #[inline]
    pub const fn is_over(&self) -> bool {
        self.status().is_over()
    }

    /// Own and enemy pawns from the point of view of the side to move.
    #[inline(always)]
    pub(crate) const fn sides(&self) -> (u64, u64) {
        match self.turn {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    /// The moves of the side to move, or `None` when the game is over.
    #[inline]
    pub(crate) const fn targets(&self) -> Option<Targets> {
        if self.is_over() {
            return None;
        }
        let (own, opp) = self.sides();
        Some(Targets::new(self.turn, own, opp, self.size.board_mask()))
    }

    /// Replaces the contents of `moves` with the legal moves: straight moves first, then
    /// diagonals towards file a, then towards file h, each by ascending to-square. Empty
    /// once the game is over; never empty before.
    pub fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let Some(targets) = self.targets() else {
            return;
        };
        let (_, opp) = self.sides();
        for (dir, &set) in targets.sets.iter().enumerate() {
            // A plain bit loop rather than `Bitboard::squares`: with the iterator, generating
            // the moves along random games took 5% more instructions (callgrind).
            let mut rest = set;
            while rest != 0 {
                let to = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let from = rules::source(self.turn, dir, to);
                let mv = Move::new(Square::from_bit(from), Square::from_bit(to), opp & to != 0);
                // Cannot fail: a valid position has at most MAX_MOVES moves.
                let pushed = moves.push(mv);
                debug_assert!(pushed.is_ok());
            }
        }
    }

    /// The number of legal moves (0 once the game is over), without listing them.
    #[inline]
    pub const fn count_legal_moves(&self) -> u32 {
        match self.targets() {
            Some(targets) => targets.count(),
            None => 0,
        }
    }

    /// Checks `mv` against the rules, saying what is wrong if it is illegal.
    pub const fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let (from, to) = (mv.from(), mv.to());
        let board = self.size.board_mask();
        if board & from.bit() == 0 || board & to.bit() == 0 {
            return Err(IllegalMove::OffBoard);
        }
        let (own, opp) = self.sides();
        if own & from.bit() == 0 {
            return Err(IllegalMove::NoPawn);
        }
        let forward = match self.turn {
            Color::White => to.rank() == from.rank() + 1,
            Color::Black => to.rank() + 1 == from.rank(),
        };
        if !forward || from.file().abs_diff(to.file()) > 1 {
            return Err(IllegalMove::NotForward);
        }
        let occupant_is_enemy = opp & to.bit() != 0;
        if from.file() == to.file() {
            if (own | opp) & to.bit() != 0 {
                return Err(IllegalMove::Blocked);
            }
        } else if own & to.bit() != 0 {
            return Err(IllegalMove::OwnPawn);
        }
        if mv.is_capture() != occupant_is_enemy {
            return Err(IllegalMove::CaptureMark);
        }
        Ok(())
    }

    /// Whether `mv` is legal here.
    #[inline]
    pub const fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// The legal move from `from` to `to`, with its capture mark filled in, if there is one.
    /// Handy for interfaces that know only the two squares.
    pub const fn find_move(&self, from: Square, to: Square) -> Option<Move> {
        let (_, opp) = self.sides();
        let mv = Move::new(from, to, opp & to.bit() != 0);
        if self.is_legal(mv) { Some(mv) } else { None }
    }

    /// Plays a move known to be legal (from [`legal_moves`](Self::legal_moves) or checked).
    ///
    /// The move is trusted for speed: an illegal one leaves an unspecified but memory-safe
    /// position (debug builds assert instead). Use [`try_play`](Self::try_play) for moves
    /// from outside.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        let (from, to) = (mv.from(), mv.to());
        let side = self.turn.index();
        let mut hash = self.hash ^ KEYS.pawn[side][from.index() as usize];
        hash ^= KEYS.pawn[side][to.index() as usize] ^ KEYS.black_to_move;
        let goal = self.size.goal_mask(self.turn);
        let (own, opp) = match self.turn {
            Color::White => (&mut self.white, &mut self.black),
            Color::Black => (&mut self.black, &mut self.white),
        };
        if *opp & to.bit() != 0 {
            hash ^= KEYS.pawn[side ^ 1][to.index() as usize];
        }
        // The win is read back by `status`, which looks at the same bits.
        let _won = rules::apply(own, opp, from.bit(), to.bit(), goal);
        self.hash = hash;
        self.turn = self.turn.other();
    }

    /// Plays `mv` if it is legal; otherwise says why and leaves the position unchanged.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.play(mv);
        Ok(())
    }

    /// Replaces the pawns and the side to move with those reached by legal moves from this
    /// position (a random simulation played on bare bitboards), and rehashes: one lookup
    /// per pawn at the end instead of two or three per move played.
    #[inline]
    pub(crate) fn set_reached(&mut self, white: u64, black: u64, turn: Color) {
        self.white = white;
        self.black = black;
        self.turn = turn;
        self.hash = zobrist::hash(self.size, white, black, turn);
    }

    /// The hash computed from scratch, for checking the incremental one.
    #[cfg(test)]
    pub(crate) const fn hash_from_scratch(&self) -> u64 {
        zobrist::hash(self.size, self.white, self.black, self.turn)
    }
}

impl Default for Position {
    /// The start of the standard 8x8 game.
    fn default() -> Position {
        Position::start(Size::STANDARD)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.size, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(columns: u8, rows: u8) -> Size {
        Size::new_checked(columns, rows).unwrap()
    }

    fn sq(text: &str) -> Square {
        let b = text.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1').unwrap()
    }

    #[test]
    fn start_positions() {
        let p = Position::start(size(5, 5));
        assert_eq!(p.side_to_move(), Color::White);
        assert_eq!(p.status(), Status::Ongoing);
        assert_eq!(p.pawns(Color::White), 0x1F1F);
        assert_eq!(p.pawns(Color::Black), 0x1F_1F00_0000);
        assert_eq!(p.count_legal_moves(), 13);
        assert_eq!(p.hash(), p.hash_from_scratch());
        assert_eq!(core::mem::size_of::<Position>(), 32);
        assert_ne!(p.hash(), Position::start(size(5, 6)).hash());
        assert_eq!(Position::default(), Position::start(Size::STANDARD));
    }

    #[test]
    fn from_bitboards_checks_validity() {
        let s = size(4, 5);
        let ok = Position::from_bitboards(s, 0x1, 0x2 << 24, Color::White);
        assert!(ok.is_ok());
        assert_eq!(
            Position::from_bitboards(s, 1 << 4, 1 << 24, Color::White),
            Err(InvalidPosition::OffBoard)
        );
        assert_eq!(
            Position::from_bitboards(s, 1, 1, Color::White),
            Err(InvalidPosition::Overlap)
        );
        assert_eq!(
            Position::from_bitboards(s, 0x0F0F01, 1 << 32, Color::White),
            Err(InvalidPosition::TooManyPawns)
        );
        // White on the top rank: White has won, so it cannot be White's turn.
        assert_eq!(
            Position::from_bitboards(s, 1 << 32, 1 << 8, Color::White),
            Err(InvalidPosition::SideToMoveHasWon)
        );
        let won = Position::from_bitboards(s, 1 << 32, 1 << 8, Color::Black).unwrap();
        assert_eq!(won.status(), Status::WhiteWon);
        // No black pawn left: White captured the last one.
        assert_eq!(
            Position::from_bitboards(s, 1, 0, Color::White),
            Err(InvalidPosition::SideToMoveHasWon)
        );
        let won = Position::from_bitboards(s, 1, 0, Color::Black).unwrap();
        assert_eq!(won.status(), Status::WhiteWon);
        assert_eq!(won.count_legal_moves(), 0);
    }

    #[test]
    fn the_move_list_bound_is_reached() {
        // Sixteen white pawns on files b-g of ranks 1, 3 and 5 (all but g5 and f5), nothing
        // in between: three moves each.
        let rows = 0x7E | 0x7E << 16 | 0x1E << 32;
        let p = Position::from_bitboards(Size::STANDARD, rows, 1 << 63, Color::White).unwrap();
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves.len(), crate::breakthrough::MAX_MOVES);
    }

    #[test]
    fn illegal_moves_leave_the_position_unchanged() {
        let s = size(4, 5);
        // White a2 b3, black b4 c4 d5: various wrong moves.
        let white = sq("a2").bit() | sq("b3").bit();
        let black = sq("b4").bit() | sq("c4").bit() | sq("d5").bit();
        let p = Position::from_bitboards(s, white, black, Color::White).unwrap();
        let cases = [
            (
                Move::new(sq("a2"), sq("a1"), false),
                IllegalMove::NotForward,
            ),
            (
                Move::new(sq("a2"), sq("c3"), false),
                IllegalMove::NotForward,
            ),
            (
                Move::new(sq("a2"), sq("a4"), false),
                IllegalMove::NotForward,
            ),
            (Move::new(sq("c2"), sq("c3"), false), IllegalMove::NoPawn),
            (Move::new(sq("b4"), sq("b3"), false), IllegalMove::NoPawn),
            (Move::new(sq("a2"), sq("b3"), false), IllegalMove::OwnPawn),
            (Move::new(sq("b3"), sq("b4"), false), IllegalMove::Blocked),
            (Move::new(sq("b3"), sq("b4"), true), IllegalMove::Blocked),
            (
                Move::new(sq("b3"), sq("c4"), false),
                IllegalMove::CaptureMark,
            ),
            (
                Move::new(sq("b3"), sq("a4"), true),
                IllegalMove::CaptureMark,
            ),
            (
                Move::new(sq("a2"), sq("a3"), true),
                IllegalMove::CaptureMark,
            ),
            (Move::new(sq("d4"), sq("e5"), false), IllegalMove::OffBoard),
            (Move::new(sq("a5"), sq("a6"), false), IllegalMove::OffBoard),
        ];
        for (mv, why) in cases {
            let mut q = p;
            assert_eq!(q.try_play(mv), Err(why), "{mv}");
            assert_eq!(q, p);
            assert!(!p.is_legal(mv));
        }
        let mut q = p;
        assert_eq!(q.try_play(Move::new(sq("b3"), sq("c4"), true)), Ok(()));
        assert_eq!(q.side_to_move(), Color::Black);
        assert_eq!(q.pawn_at(sq("c4")), Some(Color::White));
        assert_eq!(q.hash(), q.hash_from_scratch());
        assert_eq!(
            p.find_move(sq("b3"), sq("c4")),
            Some(Move::new(sq("b3"), sq("c4"), true))
        );
        assert_eq!(p.find_move(sq("b3"), sq("b4")), None);
        // Black wins by reaching rank 1, after which nothing is legal.
        let black = sq("c2").bit() | sq("d5").bit();
        let mut q = Position::from_bitboards(s, white, black, Color::Black).unwrap();
        q.try_play(Move::new(sq("c2"), sq("c1"), false)).unwrap();
        assert_eq!(q.status(), Status::BlackWon);
        let before = q;
        assert_eq!(
            q.try_play(Move::new(sq("b3"), sq("b4"), false)),
            Err(IllegalMove::GameOver)
        );
        assert_eq!(q, before);
    }

    /// Every (from, to, capture) triple on the 8x8 numbering: legal for `check_move`, the
    /// square-by-square statement of the rules, exactly when the bitboard generator lists it.
    fn assert_generator_agrees(p: &Position) {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves.len() as u32, p.count_legal_moves());
        assert_eq!(moves.is_empty(), p.is_over());
        for from in 0..64 {
            for to in 0..64 {
                for capture in [false, true] {
                    let mv = Move::new(
                        Square::from_index(from).unwrap(),
                        Square::from_index(to).unwrap(),
                        capture,
                    );
                    assert_eq!(p.is_legal(mv), moves.contains(&mv), "{mv} in {p}");
                }
            }
        }
    }

    #[test]
    fn legal_moves_agree_with_check_move_on_every_size() {
        let p = Position::from_bitboards(
            size(5, 6),
            sq("a2").bit() | sq("b3").bit() | sq("e1").bit() | sq("c4").bit(),
            sq("b4").bit() | sq("c5").bit() | sq("d5").bit() | sq("e6").bit(),
            Color::White,
        )
        .unwrap();
        assert_generator_agrees(&p);
        // One pseudo-random game per board size, checked at every ply.
        let mut seed = 0x9E37_79B9u32;
        let mut moves = MoveList::new();
        for columns in 2..=8 {
            for rows in 4..=8 {
                let mut p = Position::start(size(columns, rows));
                loop {
                    assert_generator_agrees(&p);
                    p.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    p.play(moves[seed as usize % moves.len()]);
                }
            }
        }
    }
}
