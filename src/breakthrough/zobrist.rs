//! Zobrist keys, generated at compile time.
//!
//! The keys are outputs of SplitMix64 ([`crate::rng::splitmix64_nth`]) evaluated in a
//! `const` context, so they are the same on every platform and build, cost nothing at
//! start-up and need no `std`.

use super::{Color, Size};
use crate::rng::splitmix64_nth;

/// One key per (side, square), one for "Black to move", one per board size (so positions
/// of different sizes with the same pawns do not collide in a shared table).
pub(crate) struct Keys {
    pub(crate) pawn: [[u64; 64]; 2],
    pub(crate) black_to_move: u64,
    pub(crate) size: [u64; 64],
}

pub(crate) static KEYS: Keys = {
    // Arbitrary, fixed: changing it changes every hash, which is allowed between versions.
    const SEED: u64 = 0xA4B0_4B1E_7B0A_D000;
    let mut pawn = [[0u64; 64]; 2];
    let mut size = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        pawn[0][i] = splitmix64_nth(SEED + i as u64);
        pawn[1][i] = splitmix64_nth(SEED + 64 + i as u64);
        size[i] = splitmix64_nth(SEED + 129 + i as u64);
        i += 1;
    }
    Keys {
        pawn,
        black_to_move: splitmix64_nth(SEED + 128),
        size,
    }
};

/// The hash of a position, from scratch. Play keeps it up to date incrementally instead.
///
/// One key per pawn, found by walking the set bits (XOR does not care in which order): the
/// end of every MCTS simulation rehashes, and a test of all 64 squares of both sides took
/// about 560 instructions there, this about a third of it.
pub(crate) const fn hash(size: Size, white: u64, black: u64, turn: Color) -> u64 {
    let mut h = KEYS.size[size.index()];
    if let Color::Black = turn {
        h ^= KEYS.black_to_move;
    }
    h ^ keys_of(&KEYS.pawn[0], white) ^ keys_of(&KEYS.pawn[1], black)
}

/// The XOR of `keys[i]` over the set bits `i` of `pawns`.
#[inline(always)]
const fn keys_of(keys: &[u64; 64], mut pawns: u64) -> u64 {
    let mut h = 0;
    while pawns != 0 {
        h ^= keys[pawns.trailing_zeros() as usize];
        pawns &= pawns - 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all = [0u64; 64 * 3 + 1];
        all[..64].copy_from_slice(&KEYS.pawn[0]);
        all[64..128].copy_from_slice(&KEYS.pawn[1]);
        all[128..192].copy_from_slice(&KEYS.size);
        all[192] = KEYS.black_to_move;
        all.sort_unstable();
        assert!(all[0] != 0);
        assert!(all.windows(2).all(|w| w[0] != w[1]));
    }

    /// The walk over set bits gives the square-by-square XOR, on every size and side.
    #[test]
    fn the_hash_is_the_xor_of_every_occupied_square() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (white, black) = (x & 0x5555_5555_5555_5555, x & 0x2222_2222_2222_2222 << 1);
            let size = Size::new_checked(2 + (x >> 60) as u8 % 7, 4 + (x >> 56) as u8 % 5).unwrap();
            let turn = if x & 1 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut want = KEYS.size[size.index()];
            if turn == Color::Black {
                want ^= KEYS.black_to_move;
            }
            for i in 0..64 {
                if white & (1 << i) != 0 {
                    want ^= KEYS.pawn[0][i];
                }
                if black & (1 << i) != 0 {
                    want ^= KEYS.pawn[1][i];
                }
            }
            assert_eq!(hash(size, white, black, turn), want);
        }
    }

    /// Keys are part of every stored hash (transposition tables, solver logs): these are the
    /// values the first release computed, so a change to the generator shows here.
    #[test]
    fn keys_keep_their_values() {
        assert_eq!(KEYS.pawn[0][0], 0x01A0_1F74_2A42_7852);
        assert_eq!(KEYS.black_to_move, 0x0316_2DA7_CEC7_CB5C);
        assert_eq!(KEYS.size[63], 0x12E0_5CAA_40EF_7A79);
    }
}
