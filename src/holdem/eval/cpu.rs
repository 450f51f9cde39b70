//! Which optional x86-64 instructions the processor has, asked once with CPUID and cached,
//! so that a hot path picks its `#[target_feature]` copy with one load and one branch. The
//! same code in std and no_std builds: CPUID needs no operating system, and these features
//! add no register state that the system must save.
use core::sync::atomic::{AtomicU8, Ordering};

/// Bits of the cache: `ASKED` once CPUID has been read, then one bit a feature.
const ASKED: u8 = 1;
const POPCNT: u8 = 2;
const SSSE3: u8 = 4;

static FEATURES: AtomicU8 = AtomicU8::new(0);

/// Whether the processor has `popcnt`.
#[inline(always)]
pub(crate) fn has_popcnt() -> bool {
    has(POPCNT)
}

/// Whether the processor has SSSE3 (`pshufb`).
#[inline(always)]
pub(crate) fn has_ssse3() -> bool {
    has(SSSE3)
}

#[inline(always)]
fn has(feature: u8) -> bool {
    // Relaxed: every thread that asks gets the same answer, so a race only asks twice.
    let known = FEATURES.load(Ordering::Relaxed);
    if known & feature != 0 {
        return true;
    }
    // A processor without the feature answers from the cache too, after one more test.
    known & ASKED == 0 && ask() & feature != 0
}

/// Reads CPUID leaf 1 (which every x86-64 processor has) into the cache.
#[cold]
#[inline(never)]
fn ask() -> u8 {
    // SAFETY: every x86-64 processor has CPUID and its leaf 1. (`__cpuid` is a safe
    // function in newer Rust; the block is for the oldest the crate supports, 1.87.)
    #[allow(unused_unsafe)]
    let ecx = unsafe { core::arch::x86_64::__cpuid(1) }.ecx;
    let mut features = ASKED;
    if ecx & (1 << 23) != 0 {
        features |= POPCNT;
    }
    if ecx & (1 << 9) != 0 {
        features |= SSSE3;
    }
    FEATURES.store(features, Ordering::Relaxed);
    features
}

#[cfg(all(test, feature = "std"))]
mod tests {
    #[test]
    fn cpuid_agrees_with_std() {
        for _ in 0..2 {
            // The first round asks CPUID, the second reads the cache.
            assert_eq!(
                super::has_popcnt(),
                std::arch::is_x86_feature_detected!("popcnt")
            );
            assert_eq!(
                super::has_ssse3(),
                std::arch::is_x86_feature_detected!("ssse3")
            );
        }
    }
}
