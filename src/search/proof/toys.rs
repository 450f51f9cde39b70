//! Toy games for the solver tests.
use super::SolverGame;

/// Subtraction game: a pile of stones, take 1, 2 or 3 (or `limit`); who takes the last
/// stone wins. The side to move wins exactly when `pile % (limit + 1) != 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Take {
    pub(crate) pile: u32,
    pub(crate) limit: u8,
}

impl SolverGame for Take {
    type Move = u8;
    type MoveList = heapless::Vec<u8, 8>;
    const NULL_MOVE: u8 = 0;

    fn terminal(&self) -> Option<bool> {
        (self.pile == 0).then_some(false)
    }
    fn legal_moves(&self, moves: &mut Self::MoveList) {
        moves.clear();
        for take in 1..=self.limit {
            if take as u32 <= self.pile {
                let _ = moves.push(take);
            }
        }
    }
    fn after(&self, mv: u8) -> Take {
        Take {
            pile: self.pile - mv as u32,
            limit: self.limit,
        }
    }
    fn hash(&self) -> u64 {
        (self.pile as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.limit as u64
    }
    fn mobility(&self) -> u32 {
        (self.limit as u32).min(self.pile)
    }
}
