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

/// Two subtraction piles: take 1 to 3 stones from either; who takes the last stone wins.
/// The side to move wins exactly when the piles differ modulo 4, often with two winning
/// moves (one on each pile), which is what the settling tests need. A move is
/// `take + 4 * pile`, the first pile's moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TwoPiles(pub(crate) [u32; 2]);

impl TwoPiles {
    /// Whether the side to move wins.
    pub(crate) fn wins(&self) -> bool {
        self.0[0] % 4 != self.0[1] % 4
    }
}

impl Game for TwoPiles {
    type Move = u8;
    type Moves = heapless::Vec<u8, 8>;
    type Trace = heapless::Vec<Ply<u8>, 8>;

    fn turn(&self) -> Turn {
        if self.0 == [0, 0] {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        for (pile, &stones) in self.0.iter().enumerate() {
            for take in 1..=3u8 {
                if u32::from(take) <= stones {
                    let _ = moves.push(take + 4 * pile as u8);
                }
            }
        }
    }

    fn play(&mut self, mv: u8) {
        self.0[usize::from(mv / 4)] -= u32::from(mv % 4);
    }

    /// The player to move (always "player 0") has lost.
    fn returns(&self) -> [f32; 2] {
        [0.0, 1.0]
    }

    fn hash(&self) -> u64 {
        (u64::from(self.0[0]) << 32 | u64::from(self.0[1])).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl ProofHints for TwoPiles {
    fn to_move(&self) -> u8 {
        0
    }

    fn mobility(&self) -> u32 {
        self.0.iter().map(|&stones| stones.min(3)).sum()
    }
}
