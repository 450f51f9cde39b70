//! The transposition table of parallel df-pn: the layout and replacement policy of
//! [`super::table`] (16-byte entries, 4-entry buckets on one 64-byte cache line, a power
//! of two of buckets, the small-tree-size policy), shared between threads without locks.
//!
//! Each entry is two `AtomicU64` words: `data` (`pn | dn << 32`) and `check`, the entry's
//! tag word XOR `data` (the "lockless hashing" of Hyatt and Mann). Threads read and write
//! the words with relaxed ordering, so two writers of one entry, or a reader meeting a
//! half-written entry, can pair one write's `check` with another's `data`; the XOR then
//! yields a tag that matches no position (but with the odds of a hash collision), and the
//! reader sees a miss. A lost or stale entry only costs work: numbers are re-derived from
//! the children, and a solved value, once written, is the truth about its position.
//! Atomics with relaxed ordering compile to plain loads and stores on x86-64 and AArch64.
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::table::{BUCKET, Stored, Tag};
use super::table_memory::table_vec;

/// One bucket: [`BUCKET`] entries of two words (`check`, `data`), one cache line.
#[repr(C, align(64))]
pub(crate) struct Bucket([AtomicU64; 2 * BUCKET]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket([const { AtomicU64::new(0) }; 2 * BUCKET])
    }
}

/// The shared table; `&SharedTable` is used by every thread at once.
pub(crate) struct SharedTable {
    buckets: Vec<Bucket>,
    /// Buckets minus one (a power of two minus one).
    mask: usize,
}

impl SharedTable {
    /// A cleared table of the largest power of two of buckets that fits in `entries`
    /// entries (the sequential table's rule, so equal budgets give equal tables); `None`
    /// below one bucket.
    pub(crate) fn new(entries: usize) -> Option<SharedTable> {
        let buckets = entries / BUCKET;
        if buckets == 0 {
            return None;
        }
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        Some(SharedTable {
            buckets: table_vec(buckets, Bucket::empty)?,
            mask: buckets - 1,
        })
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[key as usize & self.mask]
    }

    /// Starts loading the bucket of `key` into the cache (see the sequential table's
    /// `prefetch`: df-pn reads all children of a node at once).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        super::prefetch(self.bucket(key));
    }

    /// The `(tag, data)` of entry `i` of a bucket; a torn entry gives a tag that holds no
    /// position.
    #[inline(always)]
    fn read(bucket: &Bucket, i: usize) -> (Tag, u64) {
        let check = bucket.0[2 * i].load(Relaxed);
        let data = bucket.0[2 * i + 1].load(Relaxed);
        (Tag(check ^ data), data)
    }

    /// The numbers stored for the position with hash `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Stored> {
        let bucket = self.bucket(key);
        (0..BUCKET).find_map(|i| {
            let (tag, data) = Self::read(bucket, i);
            tag.holds(key)
                .then(|| tag.stored(data as u32, (data >> 32) as u32))
        })
    }

    /// Stores the numbers of the position with hash `key` (the same position's entry,
    /// else an empty one, else the one with the least work). Returns `true` if it took an
    /// empty entry (for the count of entries in use; two threads racing for one entry
    /// may both count it).
    #[inline]
    pub(crate) fn store(&self, key: u64, pn: u32, dn: u32, work: u32, best: u16) -> bool {
        let bucket = self.bucket(key);
        let tags: [Tag; BUCKET] = core::array::from_fn(|i| Self::read(bucket, i).0);
        let (index, fresh) = Tag::slot_for(&tags, key);
        let tag = Tag::new(key, work, best);
        let data = u64::from(pn) | u64::from(dn) << 32;
        bucket.0[2 * index + 1].store(data, Relaxed);
        bucket.0[2 * index].store(tag.0 ^ data, Relaxed);
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_probes_replaces_and_survives_two_writers() {
        assert_eq!(size_of::<Bucket>(), 64);
        let table = SharedTable::new(4 * 8 + 3).unwrap();
        assert_eq!(table.mask, 7);
        assert_eq!(table.buckets.as_ptr() as usize % 64, 0);
        let keys = [1u64 << 40, 2 << 40, 3 << 40, 4 << 40, 5 << 40];
        for (i, &key) in keys.iter().enumerate() {
            let fresh = table.store(key, i as u32 + 1, 7, [100, 3, 1000, 50, 9][i], i as u16);
            assert_eq!(fresh, i < 4);
        }
        assert_eq!(table.probe(keys[1]), None);
        let stored = table.probe(keys[4]).unwrap();
        assert_eq!((stored.pn, stored.dn, stored.best), (5, 7, 4));
        assert!(SharedTable::new(3).is_none());
        // Two threads hammering the same bucket: every hit is a value some thread wrote
        // for that key, never a mix of two writes.
        let table = SharedTable::new(4).unwrap();
        std::thread::scope(|scope| {
            for thread in 0..2u32 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..20_000u32 {
                        let key = u64::from(round % 6) << 40;
                        let value = round % 6 + 10 * thread;
                        table.store(key, value, value + 1, round, 0);
                        if let Some(stored) = table.probe(key) {
                            assert_eq!(stored.pn % 10, round % 6);
                            assert_eq!(stored.dn, stored.pn + 1);
                        }
                    }
                });
            }
        });
    }
}
