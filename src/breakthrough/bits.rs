//! Bit tricks for counting and picking moves.
//!
//! [`Counted`] is a set of bits ready for both questions a random move asks: how many bits
//! it has, and which is its `k`-th. A [`Kernel`] answers them; two kernels give the same
//! answers:
//!
//! - [`Portable`], for every target: counting goes through per-byte counts (what
//!   `count_ones` compiles to on baseline x86-64, which has no `popcnt`), and the same byte
//!   counts then locate the k-th set bit without a loop: a prefix sum across bytes finds the
//!   byte, a table the bit;
//! - [`Bmi2`], on x86-64 processors with POPCNT and BMI2: counting is one `popcnt`, and
//!   `pdep` deposits the bit `1 << k` onto the `k`-th set bit, also one instruction.
//!
//! Code generic over the kernel is instantiated for each; `super::kernel` picks one at run
//! time, once per playout, and runs the whole playout loop through it. A `Bmi2` value is the
//! proof that the processor has both extensions: it can only be made by `kernel` after
//! checking (or by a build whose target guarantees them).

/// A one in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The top bit of every byte.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Running bit counts by byte: byte `i` of the result is the number of set bits of `x` in
/// bytes `0..=i`, so the top byte is the total. No byte overflows (the total is at most 64).
#[inline(always)]
pub(crate) const fn prefix_counts(x: u64) -> u64 {
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    let bytes = (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    bytes.wrapping_mul(ONES)
}

/// The total number of set bits, given `prefix_counts(x)`.
#[inline(always)]
pub(crate) const fn total(prefix: u64) -> u32 {
    (prefix >> 56) as u32
}

/// The single-bit mask of the `k`-th set bit of `x` (counting from bit 0), given
/// `prefix = prefix_counts(x)`. Needs `k < x.count_ones()`; otherwise the result is some
/// unspecified bit (never a panic).
#[inline(always)]
pub(crate) fn select(x: u64, prefix: u64, k: u32) -> u64 {
    debug_assert!(k < total(prefix));
    // Byte by byte, (128 + k) - prefix keeps its top bit exactly where prefix <= k, that is
    // for the bytes lying wholly before the wanted bit; no byte borrows from its neighbour
    // because every prefix is at most 64. Counting those bytes names the wanted byte.
    let before = ((u64::from(k & 63) * ONES) | HIGHS).wrapping_sub(prefix) & HIGHS;
    let byte = ((before >> 7).wrapping_mul(ONES) >> 56) as u32;
    let shift = (8 * byte) & 63;
    // Bits already passed in the earlier bytes: the previous byte of the prefix sums.
    let passed = ((prefix << 8) >> shift) as u32 & 0xFF;
    let rank = k.wrapping_sub(passed) & 7;
    let cell = ((x >> shift) & 0xFF) as usize;
    1u64 << (shift + u32::from(SELECT_IN_BYTE[cell * 8 + rank as usize]))
}

/// `SELECT_IN_BYTE[b * 8 + r]` is the position of the `r`-th set bit of the byte `b`
/// (0 where `b` has fewer than `r + 1` bits). 2 KiB, built at compile time.
static SELECT_IN_BYTE: [u8; 256 * 8] = {
    let mut table = [0u8; 256 * 8];
    let mut byte = 0;
    while byte < 256 {
        let mut rank = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte * 8 + rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// A set of bits with what counting and selecting in it need, computed once by a kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counted {
    set: u64,
    /// `prefix_counts(set)` for [`Portable`]; unused (0) for [`Bmi2`].
    prefix: u64,
}

impl Counted {
    /// One of three sets, chosen without a branch by two all-ones-or-zero masks: the first
    /// where `past_a` is 0, the last where `past_b` is all ones, the middle one between.
    #[inline(always)]
    pub(crate) fn blend(sets: &[Counted; 3], past_a: u64, past_b: u64) -> Counted {
        let [a, b, c] = sets;
        let choose = |x: u64, y: u64, z: u64| (x & !past_a) | (y & past_a & !past_b) | (z & past_b);
        Counted {
            set: choose(a.set, b.set, c.set),
            prefix: choose(a.prefix, b.prefix, c.prefix),
        }
    }
}

/// A way to count and select bits. All kernels give the same answers.
pub(crate) trait Kernel: Copy {
    /// Prepares `set`.
    fn counted(self, set: u64) -> Counted;

    /// The number of set bits.
    fn count(self, counted: &Counted) -> u32;

    /// The single-bit mask of the `k`-th set bit (counting from bit 0). Needs
    /// `k < self.count(counted)`; otherwise the result is some bit or none (never a panic).
    fn select(self, counted: &Counted, k: u32) -> u64;
}

/// Byte sums and a table: any processor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn counted(self, set: u64) -> Counted {
        Counted {
            set,
            prefix: prefix_counts(set),
        }
    }

    #[inline(always)]
    fn count(self, counted: &Counted) -> u32 {
        total(counted.prefix)
    }

    #[inline(always)]
    fn select(self, counted: &Counted, k: u32) -> u64 {
        select(counted.set, counted.prefix, k)
    }
}

/// `popcnt` and `pdep`: x86-64 processors with POPCNT and BMI2. Holding one is the proof
/// that the processor has them. Its methods are fast only when inlined into code compiled
/// for those extensions (`super::kernel` sees to it); elsewhere `pdep` is a call.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2 {
    _checked: (),
}

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    /// The kernel, unchecked.
    ///
    /// # Safety
    ///
    /// The processor running the program must have POPCNT and BMI2.
    #[inline(always)]
    pub(crate) const unsafe fn new_unchecked() -> Bmi2 {
        Bmi2 { _checked: () }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Bmi2 {
    #[inline(always)]
    fn counted(self, set: u64) -> Counted {
        Counted { set, prefix: 0 }
    }

    #[inline(always)]
    fn count(self, counted: &Counted) -> u32 {
        counted.set.count_ones()
    }

    #[inline(always)]
    fn select(self, counted: &Counted, k: u32) -> u64 {
        // SAFETY: `pdep` needs BMI2, and a `Bmi2` exists only on a processor that has it
        // (`Bmi2::new_unchecked`'s contract); its arguments are plain integers.
        unsafe { core::arch::x86_64::_pdep_u64(1u64 << (k & 63), counted.set) }
    }
}

/// The kernel for code that runs outside a dispatched playout (move lists, single random
/// moves): `Bmi2` on builds whose target has it, `Portable` otherwise.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "popcnt",
    target_feature = "bmi2"
))]
pub(crate) const BUILD: Bmi2 = {
    // SAFETY: this build's target has POPCNT and BMI2 (the cfg above), so every processor
    // that runs it does.
    unsafe { Bmi2::new_unchecked() }
};

/// The kernel for code that runs outside a dispatched playout (move lists, single random
/// moves): `Bmi2` on builds whose target has it, `Portable` otherwise.
#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "popcnt",
    target_feature = "bmi2"
)))]
pub(crate) const BUILD: Portable = Portable;

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious k-th set bit: clear the lowest bit k times.
    fn slow_select(mut x: u64, k: u32) -> u64 {
        for _ in 0..k {
            x &= x - 1;
        }
        x & x.wrapping_neg()
    }

    /// Dense, sparse and structured words from a fixed xorshift sequence, and the extremes.
    fn words() -> impl Iterator<Item = u64> {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mixed = (0..4000).map(move |round| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match round % 4 {
                0 => state,
                1 => state & (state >> 3) & (state >> 7),
                2 => state & 0x00FF_0000_FF00_00FF,
                _ => !state,
            }
        });
        mixed.chain([0, u64::MAX, 1, 1 << 63])
    }

    #[test]
    fn counts_and_selects_every_bit_of_many_words() {
        for x in words() {
            let prefix = prefix_counts(x);
            assert_eq!(total(prefix), x.count_ones());
            for k in 0..x.count_ones() {
                assert_eq!(select(x, prefix, k), slow_select(x, k), "x={x:#x} k={k}");
            }
        }
        assert_eq!(select(u64::MAX, prefix_counts(u64::MAX), 63), 1 << 63);
    }

    fn agrees_with_the_obvious_count_and_select(kernel: impl Kernel) {
        for x in words() {
            let counted = kernel.counted(x);
            assert_eq!(kernel.count(&counted), x.count_ones());
            for k in 0..x.count_ones() {
                assert_eq!(
                    kernel.select(&counted, k),
                    slow_select(x, k),
                    "x={x:#x} k={k}"
                );
            }
        }
    }

    #[test]
    fn every_kernel_agrees_with_the_obvious_count_and_select() {
        agrees_with_the_obvious_count_and_select(Portable);
        agrees_with_the_obvious_count_and_select(BUILD);
        #[cfg(target_arch = "x86_64")]
        if let Some(bmi2) = super::super::kernel::detect_bmi2() {
            agrees_with_the_obvious_count_and_select(bmi2);
        }
    }
}
