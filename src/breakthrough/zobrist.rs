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
pub(crate) const fn hash(size: Size, white: u64, black: u64, turn: Color) -> u64 {
    let mut h = KEYS.size[size.index()];
    if let Color::Black = turn {
        h ^= KEYS.black_to_move;
    }
    let mut i = 0;
    while i < 64 {
        if white & (1 << i) != 0 {
            h ^= KEYS.pawn[0][i];
        }
        if black & (1 << i) != 0 {
            h ^= KEYS.pawn[1][i];
        }
        i += 1;
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

    /// Keys are part of every stored hash (transposition tables, solver logs): these are the
    /// values the first release computed, so a change to the generator shows here.
    #[test]
    fn keys_keep_their_values() {
        assert_eq!(KEYS.pawn[0][0], 0x01A0_1F74_2A42_7852);
        assert_eq!(KEYS.black_to_move, 0x0316_2DA7_CEC7_CB5C);
        assert_eq!(KEYS.size[63], 0x12E0_5CAA_40EF_7A79);
    }
}
