//! A memo of the initial numbers of positions, for the df-pn solvers.
//!
//! df-pn reads the numbers of every child of the node it expands, and a child it has never
//! searched is not in the table: its initial numbers ([`super::initial`]: terminal test,
//! win in one, static knowledge such as the race patterns, mobility) are computed, and
//! computed again at each re-expansion of the parent, which df-pn does many times. Those
//! numbers are a function of the position alone, so a small direct-mapped memo keyed by
//! the full 64-bit hash returns exactly what the computation would, and the search is the
//! same expansion for expansion: only cheaper (see docs/breakthrough-solving.md for the
//! measurements). Like the table, it takes two positions with the same hash for one.
//!
//! A slot is 16 bytes: the hash and the numbers. Initial numbers are never `(0, 0)`, so a
//! zeroed slot holds nothing. A memo of no slots computes every time.

use super::{Solvable, initial};

/// Slots of the memo that [`super::run`] and parallel df-pn give each search thread:
/// 1 MiB, the size of one core's L2 cache here. Measured on 5x5 and 6x5 (see
/// docs/breakthrough-solving.md): larger memos hit little more and miss the L2.
pub const INITIAL_SLOTS: usize = 1 << 16;

/// One slot: a position's hash and its initial numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct InitialSlot {
    key: u64,
    pn: u32,
    dn: u32,
}

/// The memo over borrowed slots.
pub(crate) struct InitialCache<'a> {
    slots: &'a mut [InitialSlot],
    /// Slots used minus one (a power of two minus one); unused when there are no slots.
    mask: usize,
}

impl<'a> InitialCache<'a> {
    /// A cleared memo over the largest power of two of `slots` (none: no memo).
    pub(crate) fn new(slots: &'a mut [InitialSlot]) -> InitialCache<'a> {
        let used = match slots.len() {
            0 => 0,
            n => 1usize << (usize::BITS - 1 - n.leading_zeros()),
        };
        slots[..used].fill(InitialSlot::default());
        InitialCache {
            slots,
            mask: used.wrapping_sub(1),
        }
    }

    /// Starts loading the slot of `key` into the cache (the df-pns prefetch their
    /// children's table buckets the same way, all at once).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        if let Some(slot) = self.slots.get(key as usize & self.mask) {
            super::prefetch(slot);
        }
    }

    /// The initial numbers ([`super::initial`] with `mobility`) of the position with hash
    /// `key`, which `position` makes: from the memo when its slot holds them, else made,
    /// computed and kept there. A memo serves one solver, so one value of `mobility`.
    #[inline]
    pub(crate) fn numbers<G: Solvable>(
        &mut self,
        key: u64,
        position: impl FnOnce() -> G,
        mobility: bool,
    ) -> (u32, u32) {
        let Some(slot) = self.slots.get_mut(key as usize & self.mask) else {
            return initial(&position(), mobility);
        };
        if slot.key == key && (slot.pn, slot.dn) != (0, 0) {
            return (slot.pn, slot.dn);
        }
        let (pn, dn) = initial(&position(), mobility);
        *slot = InitialSlot { key, pn, dn };
        (pn, dn)
    }
}

#[cfg(test)]
mod tests {
    use super::super::toys::Take;
    use super::*;
    use crate::search::Game;
    use crate::search::proof::INFINITY;

    #[test]
    fn answers_what_initial_computes_with_any_number_of_slots() {
        for (slots, mobility) in [0usize, 1, 3, 64]
            .into_iter()
            .zip([false, true, true, false])
        {
            let mut storage = vec![InitialSlot::default(); slots];
            let mut memo = InitialCache::new(&mut storage);
            // Twice over, so the second round reads what the first kept (or what a
            // colliding pile left behind, which must not be taken for its own).
            for _ in 0..2 {
                for pile in 0..100 {
                    for limit in [2u8, 3] {
                        let game = Take { pile, limit };
                        assert_eq!(
                            memo.numbers(game.hash(), || game, mobility),
                            initial(&game, mobility),
                            "{slots} slots, pile {pile}"
                        );
                    }
                }
            }
            let kept = storage.iter().filter(|s| (s.pn, s.dn) != (0, 0)).count();
            assert!(
                kept <= slots && (kept > 0) == (slots > 0),
                "{slots}: {kept}"
            );
        }
        // The memo answers what its slot holds for the hash (here made up, to see it).
        let game = Take { pile: 9, limit: 3 };
        let mut storage = [InitialSlot::default(); 4];
        storage[game.hash() as usize & 3] = InitialSlot {
            key: game.hash(),
            pn: 5,
            dn: 7,
        };
        let mut memo = InitialCache {
            slots: &mut storage,
            mask: 3,
        };
        assert_eq!(memo.numbers(game.hash(), || game, true), (5, 7));
        // A slot whose hash matches but holds nothing (zeroed) is computed, not taken.
        let game = Take { pile: 0, limit: 1 };
        let mut storage = [InitialSlot {
            key: game.hash(),
            pn: 0,
            dn: 0,
        }];
        let mut memo = InitialCache {
            slots: &mut storage,
            mask: 0,
        };
        assert_eq!(memo.numbers(game.hash(), || game, true), (INFINITY, 0));
    }
}
