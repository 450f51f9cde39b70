//! What the hand-evaluator benches share: the hands they rank and the unchecked ranker behind
//! the C call's signature.
use arbor::ffi::arbor_status;
use arbor::holdem::rank7_unchecked;
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// `count` hands of `N` distinct random cards, from a fixed seed (2026).
pub fn random_hands<const N: usize>(count: usize) -> Vec<[u8; N]> {
    let mut rng = XorShiftRng::seed_from_u64(2026);
    (0..count)
        .map(|_| {
            let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
            let mut hand = [0u8; N];
            for (i, card) in hand.iter_mut().enumerate() {
                let j = i + (rng.next_u64() % (52 - i) as u64) as usize;
                deck.swap(i, j);
                *card = deck[i];
            }
            hand
        })
        .collect()
}

/// `rank7_unchecked` behind the signature of `arbor_hand_rank`, without its checks: what the
/// call alone costs.
///
/// # Safety
/// `cards` must be valid for 7 reads and `out` for one write.
pub unsafe extern "C" fn rank7_unchecked_c(
    cards: *const u8,
    _len: usize,
    out: *mut u16,
) -> arbor_status {
    // SAFETY: the caller's guarantee above.
    unsafe { out.write(rank7_unchecked(&*cards.cast::<[u8; 7]>())) };
    arbor_status::ARBOR_OK
}
