//! Breakthrough as a [`SolverGame`]: terminal test, moves, Zobrist hash, mobility and
//! early win detection for the generic proof-number solvers of `crate::search::proof`.

use super::{Color, Move, MoveList, Position};
use crate::search::proof::SolverGame;

impl SolverGame for Position {
    type Move = Move;
    type MoveList = MoveList;
    const NULL_MOVE: Move = match Move::from_u16(0) {
        Some(mv) => mv,
        None => panic!("move 0 is a1-a1, a valid encoding"),
    };

    #[inline]
    fn terminal(&self) -> Option<bool> {
        self.status()
            .winner()
            .map(|winner| winner == self.side_to_move())
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList) {
        Position::legal_moves(self, moves);
    }

    #[inline]
    fn after(&self, mv: Move) -> Position {
        let mut next = *self;
        next.play(mv);
        next
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    #[inline]
    fn mobility(&self) -> u32 {
        self.count_legal_moves()
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
}

#[cfg(test)]
mod tests {
    use crate::breakthrough::{Position, Size};
    use crate::search::proof::dfpn::{Dfpn, DfpnConfig, Entry};
    use crate::search::proof::pns::{Node, Pns, PnsConfig};
    use crate::search::proof::{Outcome, SolverGame};

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
    fn pns_and_dfpn_agree_on_small_boards() {
        // 3x4: solved both ways, and the answers agree.
        for (columns, rows) in [(2u8, 4u8), (3, 4), (2, 5), (4, 4), (3, 5)] {
            let root = start(columns, rows);
            let mut nodes = vec![Node::blank(Position::NULL_MOVE); 2_000_000];
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
