//! Zobrist keys, generated at compile time.
//!
//! The keys come from splitmix64 evaluated in a `const` context, so they are the same on
//! every platform and build, cost nothing at start-up and need no `std`.

use super::{Color, Size};

/// One key per (side, square), one for "Black to move", one per board size (so positions
/// of different sizes with the same pawns do not collide in a shared table).
pub(crate) struct Keys {
    pub(crate) pawn: [[u64; 64]; 2],
    pub(crate) black_to_move: u64,
    pub(crate) size: [u64; 64],
}

/// The finaliser of splitmix64 (Steele, Lea and Flood, 2014) applied to the `n`-th step of
/// its Weyl sequence: a well-mixed 64-bit value for every `n`.
const fn splitmix64(n: u64) -> u64 {
    let mut z = n
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(crate) static KEYS: Keys = {
    // Arbitrary, fixed: changing it changes every hash, which is allowed between versions.
    const SEED: u64 = 0xA4B0_4B1E_7B0A_D000;
    let mut pawn = [[0u64; 64]; 2];
    let mut size = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        pawn[0][i] = splitmix64(SEED + i as u64);
        pawn[1][i] = splitmix64(SEED + 64 + i as u64);
        size[i] = splitmix64(SEED + 129 + i as u64);
        i += 1;
    }
    Keys {
        pawn,
        black_to_move: splitmix64(SEED + 128),
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
}
