//! Choosing the bit kernel (`bits`) for random playouts at run time.
//!
//! A default x86-64 build targets the baseline instruction set, without POPCNT or BMI2, so
//! the byte-sum kernel would be all that every user gets. Instead [`dispatch`] asks the
//! processor once (`cpuid`, cached in an atomic) and runs a whole playout through a copy of
//! the same generic code compiled with `#[target_feature(enable = "popcnt,bmi2")]`, where
//! `count_ones` is `popcnt` and the k-th set bit one `pdep`. The choice is made outside the
//! loop: a `#[target_feature]` function cannot be inlined into code compiled without the
//! feature, so switching per move would cost a call per bit trick.
//!
//! The measured reason for the `unsafe` here (calling the `#[target_feature]` copy, and
//! `pdep` in `bits`): on this machine's Xeon (2026-11-27, `cargo bench --bench breakthrough
//! -- random_playout`, under load) an 8x8 random playout took 2.54–2.96 µs and about 11,900
//! instructions through the portable kernel, 1.04–1.37 µs and 5,600 through this one; see
//! docs/breakthrough-mcts.md.
//!
//! `pdep` is fast (one instruction, 3 cycles) on Intel since Haswell and on AMD since Zen 3
//! (family 19h), but microcoded on earlier AMD processors that have it (Excavator, Zen 1 and
//! 2, and Hygon's Zen-1 Dhyana: families 15h–18h), taking up to hundreds of cycles for a set
//! with many bits: there the portable kernel is used. The check is by vendor and family,
//! which needs no table of models. Builds whose target already has both extensions
//! (`-C target-cpu=native`, `x86-64-v3`) use them everywhere without asking.

#[cfg(target_arch = "x86_64")]
use super::bits::Bmi2;
use super::bits::{Kernel, Portable};

/// Work generic over the kernel, run once by [`dispatch`] through the chosen instantiation.
pub(crate) trait WithKernel {
    /// What the work returns.
    type Output;

    /// Does the work with `kernel`. Implementations mark it `#[inline(always)]`, so that it
    /// is compiled inside the dispatched copy, with its instruction set.
    fn run<K: Kernel>(self, kernel: K) -> Self::Output;
}

/// Runs `work` with the fastest kernel this processor has (see the module notes).
#[inline]
pub(crate) fn dispatch<W: WithKernel>(work: W) -> W::Output {
    #[cfg(test)]
    if forced_portable() {
        return work.run(Portable);
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(bmi2) = detect_bmi2() {
        // SAFETY: `run_bmi2` needs POPCNT and BMI2, and `bmi2` proves the processor has them.
        return unsafe { run_bmi2(work, bmi2) };
    }
    work.run(Portable)
}

/// `work` compiled for POPCNT and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi2")]
fn run_bmi2<W: WithKernel>(work: W, kernel: Bmi2) -> W::Output {
    work.run(kernel)
}

/// The `Bmi2` kernel if this build's target has POPCNT and BMI2: no question asked.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "popcnt",
    target_feature = "bmi2"
))]
#[inline(always)]
pub(crate) fn detect_bmi2() -> Option<Bmi2> {
    Some(super::bits::BUILD)
}

/// Asking the processor, in builds whose target does not promise POPCNT and BMI2.
#[cfg(all(
    target_arch = "x86_64",
    not(all(target_feature = "popcnt", target_feature = "bmi2"))
))]
mod asked {
    use core::sync::atomic::{AtomicU8, Ordering};

    use crate::breakthrough::bits::Bmi2;

    /// What the processor said, cached: 0 not asked yet, then one of these.
    static FAST_PDEP: AtomicU8 = AtomicU8::new(UNKNOWN);
    const UNKNOWN: u8 = 0;
    const ABSENT: u8 = 1;
    const PRESENT: u8 = 2;

    /// The `Bmi2` kernel if this processor has POPCNT and a fast BMI2 `pdep`, asked once.
    #[inline]
    pub(crate) fn detect_bmi2() -> Option<Bmi2> {
        let mut known = FAST_PDEP.load(Ordering::Relaxed);
        if known == UNKNOWN {
            // Every thread that races here computes the same answer.
            known = if cpu_has_fast_pdep() { PRESENT } else { ABSENT };
            FAST_PDEP.store(known, Ordering::Relaxed);
        }
        // SAFETY: PRESENT is stored only after `cpuid` said this processor has POPCNT and BMI2.
        (known == PRESENT).then(|| unsafe { Bmi2::new_unchecked() })
    }

    /// Whether `cpuid` reports POPCNT and BMI2, on a processor where `pdep` is not microcoded.
    fn cpu_has_fast_pdep() -> bool {
        use core::arch::x86_64::{__cpuid, __cpuid_count};
        // `cpuid` exists on every x86-64 processor; leaves above the maximum are not asked.
        let vendor = __cpuid(0);
        if vendor.eax < 7 {
            return false;
        }
        let features = __cpuid(1);
        let popcnt = features.ecx & (1 << 23) != 0;
        let bmi2 = __cpuid_count(7, 0).ebx & (1 << 8) != 0;
        // The family: the base field, plus the extended field when the base is 0Fh.
        let base_family = (features.eax >> 8) & 0xF;
        let family = if base_family == 0xF {
            base_family + ((features.eax >> 20) & 0xFF)
        } else {
            base_family
        };
        // "AuthenticAMD" and "HygonGenuine", as cpuid returns them in ebx, edx, ecx.
        let name = [vendor.ebx, vendor.edx, vendor.ecx];
        let amd_like = name == [0x6874_7541, 0x6974_6E65, 0x444D_4163]
            || name == [0x6F67_7948, 0x6E65_476E, 0x656E_6975];
        popcnt && bmi2 && !(amd_like && family < 0x19)
    }
}
#[cfg(all(
    target_arch = "x86_64",
    not(all(target_feature = "popcnt", target_feature = "bmi2"))
))]
pub(crate) use asked::detect_bmi2;

/// Tests run each path on purpose: while `f` runs on this thread, `dispatch` takes the
/// portable kernel whatever the processor has.
#[cfg(test)]
pub(crate) fn with_portable<T>(f: impl FnOnce() -> T) -> T {
    FORCE_PORTABLE.with(|forced| {
        let before = forced.replace(true);
        let result = f();
        forced.set(before);
        result
    })
}

#[cfg(test)]
std::thread_local! {
    static FORCE_PORTABLE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

#[cfg(test)]
fn forced_portable() -> bool {
    FORCE_PORTABLE.with(|forced| forced.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl WithKernel for Name {
        type Output = &'static str;
        fn run<K: Kernel>(self, _kernel: K) -> &'static str {
            core::any::type_name::<K>()
        }
    }

    #[test]
    fn the_switch_forces_the_portable_kernel_and_detection_is_stable() {
        assert!(with_portable(|| dispatch(Name)).ends_with("Portable"));
        let chosen = dispatch(Name);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(chosen.ends_with("Bmi2"), detect_bmi2().is_some());
        assert_eq!(dispatch(Name), chosen);
        // Not forced any more once the closure returned.
        assert_eq!(
            with_portable(|| dispatch(Name)),
            "arbor::breakthrough::bits::Portable"
        );
    }
}
