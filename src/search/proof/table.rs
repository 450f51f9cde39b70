//! The transposition table of df-pn, in caller storage.
//!
//! An entry is 16 bytes and a bucket of [`BUCKET`] entries is 64 bytes, laid on a 64-byte
//! boundary where the storage allows (see [`Table::new`]), so a lookup reads one cache
//! line. The number of buckets is the largest power of two that fits, so the hash's low
//! bits pick the bucket with a mask. An entry keeps the hash's
//! bits above the lowest 20; with the bucket index that checks all 64 bits on tables of
//! 2^20 buckets (64 MiB) or more, and 44 plus log2(buckets) bits on smaller ones.
//!
//! A store overwrites the entry of the same position, else an empty entry, else the entry
//! with the least work (expansions spent below it, kept as its base-2 logarithm): the
//! small-tree-size policy, which keeps the costly results and the solved nodes of big
//! proofs; on ties the first in the bucket.

/// Entries per bucket.
pub const BUCKET: usize = 4;

/// One entry (16 bytes). Every field is an integer, so any bit pattern is a valid `Entry`
/// (the C ABI views a caller's byte buffer as entries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Entry {
    /// Bits 63..20: the hash's bits 63..20; 19..14: log2 of the work plus one; 13..1: the
    /// index of the best move ([`NO_BEST`] if none); bit 0: in use.
    tag: u64,
    pn: u32,
    dn: u32,
}

/// Hash bits below this are implied by the bucket (on large tables), not stored.
const KEY_SHIFT: u32 = 20;
const WORK_SHIFT: u32 = 14;
const WORK_MASK: u64 = 0x3F;
const BEST_SHIFT: u32 = 1;
const BEST_MASK: u64 = 0x1FFF;
/// The stored best-move index that means "none" (also used for indices too large).
const NO_BEST: u16 = 0x1FFF;
const USED: u64 = 1;

/// What the table holds for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stored {
    pub pn: u32,
    pub dn: u32,
    /// Index of the best move in move order, `u16::MAX` if none.
    pub best: u16,
}

/// Why a table (and so [`super::dfpn::Dfpn::new`]) refused its storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooSmall;

/// The table over borrowed entries.
pub(crate) struct Table<'a> {
    entries: &'a mut [Entry],
    /// Index of the first entry of bucket 0.
    base: usize,
    /// Buckets minus one (a power of two minus one).
    mask: usize,
    in_use: u64,
}

impl<'a> Table<'a> {
    /// A cleared table over `entries`; at least one bucket is needed. The bucket count is
    /// the largest power of two with `buckets * BUCKET <= entries.len()`, whatever the
    /// address of the storage, so a search's work depends only on the length; the buckets
    /// start on a 64-byte boundary when the entries before it can be skipped without
    /// losing a bucket (give [`BUCKET`] - 1 entries of slack to be sure of it).
    pub(crate) fn new(entries: &'a mut [Entry]) -> Result<Table<'a>, TableTooSmall> {
        let buckets = entries.len() / BUCKET;
        if buckets == 0 {
            return Err(TableTooSmall);
        }
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let misaligned = (entries.as_ptr() as usize % 64) / size_of::<Entry>();
        let skip = (BUCKET - misaligned) % BUCKET;
        let base = if skip + buckets * BUCKET <= entries.len() {
            skip
        } else {
            0
        };
        entries[base..base + buckets * BUCKET].fill(Entry::default());
        Ok(Table {
            entries,
            base,
            mask: buckets - 1,
            in_use: 0,
        })
    }

    /// Entries in use now.
    pub(crate) fn in_use(&self) -> u64 {
        self.in_use
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        self.base + (key as usize & self.mask) * BUCKET
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after does
    /// not wait for memory: df-pn reads all children of a node at once, and their buckets
    /// are random lines of a table far larger than the caches.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        super::prefetch(&self.entries[self.bucket(key)]);
    }

    /// The numbers stored for the position with hash `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Stored> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| Tag(e.tag).holds(key))
            .map(|e| Tag(e.tag).stored(e.pn, e.dn))
    }

    /// Stores the numbers of the position with hash `key` (see the module notes for what
    /// it replaces).
    #[inline]
    pub(crate) fn store(&mut self, key: u64, pn: u32, dn: u32, work: u32, best: u16) {
        let b = self.bucket(key);
        let tags: [Tag; BUCKET] = core::array::from_fn(|i| Tag(self.entries[b + i].tag));
        let (index, fresh) = Tag::slot_for(&tags, key);
        if fresh {
            self.in_use += 1;
        }
        self.entries[b + index] = Entry {
            tag: Tag::new(key, work, best).0,
            pn,
            dn,
        };
    }
}

/// The tag word of an entry: which position it holds, the work below it, its best move;
/// shared with the parallel table so both encode and replace alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tag(pub(crate) u64);

impl Tag {
    /// The tag of the position with hash `key`, `work` expansions below it and best move
    /// index `best` (`u16::MAX`: none).
    #[inline(always)]
    pub(crate) fn new(key: u64, work: u32, best: u16) -> Tag {
        let work_log = u64::from(u32::BITS - work.leading_zeros());
        let best = u64::from(best.min(NO_BEST));
        Tag((key >> KEY_SHIFT << KEY_SHIFT)
            | (work_log << WORK_SHIFT)
            | (best << BEST_SHIFT)
            | USED)
    }

    #[inline(always)]
    fn used(self) -> bool {
        self.0 & USED != 0
    }

    #[inline(always)]
    fn work(self) -> u64 {
        (self.0 >> WORK_SHIFT) & WORK_MASK
    }

    /// Whether the entry holds the position with hash `key`.
    #[inline(always)]
    pub(crate) fn holds(self, key: u64) -> bool {
        self.used() && self.0 >> KEY_SHIFT == key >> KEY_SHIFT
    }

    /// What the entry holds, with its numbers.
    #[inline(always)]
    pub(crate) fn stored(self, pn: u32, dn: u32) -> Stored {
        let best = ((self.0 >> BEST_SHIFT) & BEST_MASK) as u16;
        Stored {
            pn,
            dn,
            best: if best == NO_BEST { u16::MAX } else { best },
        }
    }

    /// The entry of a bucket that a store of `key` takes: the same position's, else the
    /// first empty one, else the one with the least work (the first on ties); and whether
    /// it was empty.
    #[inline(always)]
    pub(crate) fn slot_for(tags: &[Tag; BUCKET], key: u64) -> (usize, bool) {
        if let Some(i) = tags.iter().position(|t| t.holds(key)) {
            return (i, false);
        }
        if let Some(i) = tags.iter().position(|t| !t.used()) {
            return (i, true);
        }
        let mut victim = 0;
        for (i, t) in tags.iter().enumerate() {
            if t.work() < tags[victim].work() {
                victim = i;
            }
        }
        (victim, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_and_replaces_the_least_work() {
        assert_eq!(size_of::<Entry>(), 16);
        let mut storage = [Entry::default(); 4 * 8 + 3];
        let mut table = Table::new(&mut storage).unwrap();
        assert_eq!(table.mask, 7);
        assert_eq!(table.entries[table.base..].as_ptr() as usize % 64, 0);
        // Five positions in the same bucket (same low bits): the fifth evicts the one with
        // the least work.
        let keys = [1u64 << 40, 2 << 40, 3 << 40, 4 << 40, 5 << 40];
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, i as u32 + 1, 7, [100, 3, 1000, 50, 9][i], i as u16);
        }
        assert_eq!(table.in_use(), 4);
        assert_eq!(table.probe(keys[1]), None);
        let stored = table.probe(keys[4]).unwrap();
        assert_eq!((stored.pn, stored.dn, stored.best), (5, 7, 4));
        assert_eq!(table.probe(keys[2]).unwrap().pn, 3);
        // Overwriting keeps one entry; "no best move" survives the round trip.
        table.store(keys[2], 0, u32::MAX, 1, u16::MAX);
        let stored = table.probe(keys[2]).unwrap();
        assert_eq!((stored.pn, stored.dn, stored.best), (0, u32::MAX, u16::MAX));
        assert_eq!(table.in_use(), 4);
        assert!(Table::new(&mut [Entry::default(); 3]).is_err());
        // The bucket count depends on the length only, never on the address: 35 entries
        // give 8 buckets at every alignment, 32 entries give 8 buckets (unaligned if need
        // be), 31 give 4.
        let mut storage = [Entry::default(); 40];
        for start in 0..4 {
            for (len, mask) in [(35, 7), (32, 7), (31, 3)] {
                let table = Table::new(&mut storage[start..start + len]).unwrap();
                assert_eq!(table.mask, mask, "start {start} len {len}");
                if len == 35 {
                    assert_eq!(table.entries[table.base..].as_ptr() as usize % 64, 0);
                }
            }
        }
    }
}
