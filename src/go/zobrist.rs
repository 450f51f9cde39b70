//! Zobrist keys for Go, generated at compile time from SplitMix64 so that they are the same
//! on every platform and build and cost nothing at start-up.

use super::board::CELLS;
use crate::rng::splitmix64_nth;

/// One key per (colour, cell) for stones, and the keys of what else makes a game state
/// differ for the search (side to move, ko point, passes, board size).
pub(crate) struct Keys {
    pub(crate) stone: [[u64; CELLS]; 2],
    pub(crate) ko: [u64; CELLS],
    pub(crate) white_to_move: u64,
    pub(crate) passes: [u64; 3],
    pub(crate) size: [u64; 20],
}

pub(crate) static KEYS: Keys = {
    // Arbitrary, fixed: changing it changes every hash, which is allowed between versions.
    const SEED: u64 = 0x60B0_A2D0_9E5E_0000;
    let mut stone = [[0u64; CELLS]; 2];
    let mut ko = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        stone[0][i] = splitmix64_nth(SEED + i as u64);
        stone[1][i] = splitmix64_nth(SEED + (CELLS + i) as u64);
        ko[i] = splitmix64_nth(SEED + (2 * CELLS + i) as u64);
        i += 1;
    }
    let base = SEED + 3 * CELLS as u64;
    let mut size = [0u64; 20];
    let mut s = 0;
    while s < 20 {
        size[s] = splitmix64_nth(base + 4 + s as u64);
        s += 1;
    }
    Keys {
        stone,
        ko,
        white_to_move: splitmix64_nth(base),
        // No pass yet adds nothing, so a fresh position's hash is its stones and size.
        passes: [0, splitmix64_nth(base + 1), splitmix64_nth(base + 2)],
        size,
    }
};
