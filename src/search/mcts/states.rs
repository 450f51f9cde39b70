//! Optional caller storage for the states a search reaches at its nodes, so that a game whose
//! moves replay exactly ([`Game::replays_exactly`](super::Game::replays_exactly)) starts each
//! iteration from the state of the deepest node it already knows instead of replaying the
//! tree's moves from the root.
use super::node::NONE;

/// One slot of a state cache: a node index and the state reached there. Callers only
/// allocate them (`vec![CachedState::default(); n]`); the search owns their contents.
#[derive(Clone, Debug)]
pub struct CachedState<G> {
    node: u32,
    state: Option<G>,
}

impl<G> Default for CachedState<G> {
    fn default() -> Self {
        CachedState {
            node: NONE,
            state: None,
        }
    }
}

/// The states of one search: an open-addressing table over the caller's slots keyed by node
/// index, filled to at most three quarters (a state that does not fit is simply not kept, so
/// an empty slice turns the cache off). Linear probing always meets a free slot.
pub(crate) struct StateCache<'c, G> {
    slots: &'c mut [CachedState<G>],
    len: usize,
}

impl<'c, G: Clone> StateCache<'c, G> {
    /// An empty cache over `slots`; whatever they held belongs to an earlier search.
    pub(crate) fn new(slots: &'c mut [CachedState<G>]) -> Self {
        for slot in slots.iter_mut() {
            slot.node = NONE;
        }
        StateCache { slots, len: 0 }
    }

    /// Where probing for `node` starts: Fibonacci hashing mapped onto the table by a
    /// multiply-shift, with no division.
    fn home(&self, node: u32) -> usize {
        let hash = node.wrapping_mul(0x9E37_79B9);
        ((u64::from(hash) * self.slots.len() as u64) >> 32) as usize
    }

    fn next(&self, slot: usize) -> usize {
        if slot + 1 == self.slots.len() {
            0
        } else {
            slot + 1
        }
    }

    /// The slot holding the state of `node`, if kept.
    pub(crate) fn find(&self, node: u32) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let mut slot = self.home(node);
        loop {
            match self.slots[slot].node {
                found if found == node => return Some(slot),
                NONE => return None,
                _ => slot = self.next(slot),
            }
        }
    }

    /// Keeps `state` as the state of `node`, unless it is kept already or the table is
    /// three quarters full.
    pub(crate) fn insert(&mut self, node: u32, state: &G) {
        if self.len >= self.slots.len() / 4 * 3 {
            return;
        }
        let mut slot = self.home(node);
        loop {
            match self.slots[slot].node {
                found if found == node => return,
                NONE => break,
                _ => slot = self.next(slot),
            }
        }
        let entry = &mut self.slots[slot];
        entry.node = node;
        match &mut entry.state {
            Some(kept) => kept.clone_from(state),
            None => entry.state = Some(state.clone()),
        }
        self.len += 1;
    }

    /// Sets `state` to the state kept in `slot` (taken from `pending`, so a later call does
    /// nothing); with no pending slot, `state` is already current.
    pub(crate) fn restore(&self, state: &mut G, pending: &mut Option<usize>) {
        if let Some(kept) = pending
            .take()
            .and_then(|slot| self.slots.get(slot))
            .and_then(|entry| entry.state.as_ref())
        {
            state.clone_from(kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_states_are_found_and_a_full_table_keeps_no_more() {
        let mut slots = vec![CachedState::<u64>::default(); 8];
        let mut cache = StateCache::new(&mut slots);
        assert_eq!(cache.find(0), None);
        for node in 0..10u32 {
            cache.insert(node * 7, &u64::from(node));
        }
        // Six of eight slots at most: nodes 0, 7, ..., 35 are kept, the rest are not.
        for node in 0..10u32 {
            let found = cache.find(node * 7);
            assert_eq!(found.is_some(), node < 6, "node {}", node * 7);
            if found.is_some() {
                let mut state = 999;
                cache.restore(&mut state, &mut { found });
                assert_eq!(state, u64::from(node));
            }
        }
        // Inserting a kept node again changes nothing.
        cache.insert(0, &555);
        let mut state = 1;
        cache.restore(&mut state, &mut cache.find(0));
        assert_eq!(state, 0);
        // A new search over the same slots starts empty.
        let cache = StateCache::new(&mut slots);
        assert_eq!(cache.find(7), None);
    }

    #[test]
    fn a_table_too_small_for_a_free_slot_keeps_nothing() {
        for len in 0..4 {
            let mut slots = vec![CachedState::<u8>::default(); len];
            let mut cache = StateCache::new(&mut slots);
            cache.insert(3, &1);
            assert_eq!(cache.find(3), None);
        }
    }
}
