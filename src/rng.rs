//! Seed derivation with SplitMix64 (Steele, Lea and Flood, 2014), written once for the whole
//! crate: compile-time key tables, per-game seeds of a playtest, per-game seeds of a match.
//!
//! Every function is a `const fn` on integers only, so it gives the same bits on every
//! platform and build, can fill `static` tables at compile time, and needs no `std`. The
//! search itself draws from `rand_xorshift` generators; these functions only choose the seeds
//! those generators start from, so that neighbouring numbers (seed 1 and 2, game 7 and 8)
//! give unrelated streams.

/// The increment of SplitMix64's Weyl sequence: 2⁶⁴ divided by the golden ratio, made odd.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The output of one SplitMix64 step from `state`: the state advances by [`GOLDEN_GAMMA`]
/// and is then mixed (Stafford's variant 13 of the MurmurHash3 finaliser). A bijection of
/// `u64`, so distinct states give distinct outputs.
///
/// ```
/// // The first output of the reference generator seeded with 0.
/// assert_eq!(arbor::rng::splitmix64(0), 0xE220_A839_7B1D_CDAF);
/// ```
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Output number `n` (from 0) of the SplitMix64 generator seeded with 0: the generator's
/// state before that step is `n` increments of [`GOLDEN_GAMMA`]. Distinct for every `n`, which
/// is what a table of hashing keys needs.
pub const fn splitmix64_nth(n: u64) -> u64 {
    splitmix64(n.wrapping_mul(GOLDEN_GAMMA))
}

/// The seed of stream `index` of a run seeded with `seed` (game `index` of a match): it
/// depends on these two numbers only, never on which thread runs the stream.
pub const fn stream_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ index.wrapping_mul(GOLDEN_GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference sequence of SplitMix64 seeded with 1234567 (`splitmix64.c` by Vigna,
    /// as the xoshiro authors publish it): the first outputs, computed independently.
    #[test]
    fn matches_the_reference_sequence() {
        let mut state = 1_234_567u64;
        let mut next = || {
            let out = splitmix64(state);
            state = state.wrapping_add(GOLDEN_GAMMA);
            out
        };
        assert_eq!(next(), 6_457_827_717_110_365_317);
        assert_eq!(next(), 3_203_168_211_198_807_973);
        assert_eq!(next(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn nth_output_is_the_seed_zero_sequence() {
        let mut state = 0u64;
        for n in 0..5 {
            assert_eq!(splitmix64_nth(n), splitmix64(state));
            state = state.wrapping_add(GOLDEN_GAMMA);
        }
    }

    #[test]
    fn stream_seeds_differ_by_seed_and_by_index() {
        assert_ne!(stream_seed(1, 0), stream_seed(1, 1));
        assert_ne!(stream_seed(1, 0), stream_seed(2, 0));
        // Index 0 is the plain SplitMix64 step from the run's seed.
        assert_eq!(stream_seed(9, 0), splitmix64(9));
        // Pinned: `arbor play breakthrough --seed 5` plays game 3 from this seed, as it did
        // before the derivation moved here.
        assert_eq!(stream_seed(5, 3), 0xD8EF_386F_27F1_0A03);
    }
}
