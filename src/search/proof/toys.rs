//! Toy games for the solver tests.
use crate::search::game::{Game, Ply, ProofHints, Turn};

/// Subtraction game: a pile of stones, take 1, 2 or 3 (or `limit`); who takes the last
/// stone wins. The side to move wins exactly when `pile % (limit + 1) != 0`. The game is
/// impartial, so it keeps no player: whoever is to move is player 0, and an empty pile is a
/// loss for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Take {
    pub(crate) pile: u32,
    pub(crate) limit: u8,
}

impl Game for Take {
    type Move = u8;
    type Moves = heapless::Vec<u8, 8>;
    type Trace = heapless::Vec<Ply<u8>, 8>;

    fn turn(&self) -> Turn {
        if self.pile == 0 {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        for take in 1..=self.limit {
            if take as u32 <= self.pile {
                let _ = moves.push(take);
            }
        }
    }

    fn play(&mut self, mv: u8) {
        self.pile -= mv as u32;
    }

    /// The player to move (always "player 0") has lost.
    fn returns(&self) -> [f32; 2] {
        [0.0, 1.0]
    }

    fn hash(&self) -> u64 {
        (self.pile as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.limit as u64
    }
}

impl ProofHints for Take {
    fn to_move(&self) -> u8 {
        0
    }

    fn mobility(&self) -> u32 {
        (self.limit as u32).min(self.pile)
    }
}
