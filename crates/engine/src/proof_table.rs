//! The solver's table of proof and disproof numbers, shared by its threads.
//!
//! Each bucket is one cache line holding three entries under a seqlock
//! (`crate::seqlock`), so that no thread reads one node's key with
//! another's numbers. Entries are only a cache: an entry lost (replaced,
//! or written into a size already copied by a growth) is searched again,
//! never wrong.
//!
//! The table starts small and doubles while the search fills it: a short
//! solve touches little memory, and memory touched for the first time is
//! slow to get (the system clears every page it hands out).

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};

use crate::memory::large_vec_with;
use crate::seqlock::{Sequence, Sizes};

/// Entries that share a bucket, one cache line.
const BUCKET: usize = 3;

/// The table starts with this many buckets and doubles when a bucket is
/// full and a quarter of the entries are used, up to its maximum; else a
/// new entry replaces the one of its bucket whose search took the fewest
/// nodes.
pub const FIRST_BUCKETS: usize = 1 << 10;

/// Proof and disproof numbers as the table keeps them (`u32::MAX` for
/// infinite).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub proof: u32,
    pub disproof: u32,
}

/// Three entries and the sequence number that guards them. No node has
/// both numbers 0: an entry so is free.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    keys: [AtomicU64; BUCKET],
    proof: [AtomicU32; BUCKET],
    disproof: [AtomicU32; BUCKET],
    work: [AtomicU32; BUCKET],
    sequence: Sequence,
}

/// A bucket as read: plain numbers.
#[derive(Clone, Copy, Default)]
struct Snapshot {
    keys: [u64; BUCKET],
    proof: [u32; BUCKET],
    disproof: [u32; BUCKET],
    work: [u32; BUCKET],
}

impl Snapshot {
    fn is_free(&self, slot: usize) -> bool {
        self.proof[slot] == 0 && self.disproof[slot] == 0
    }

    fn find(&self, key: u64) -> Option<usize> {
        (0..BUCKET).find(|&slot| self.keys[slot] == key && !self.is_free(slot))
    }
}

impl Bucket {
    /// A consistent copy.
    fn read(&self) -> Snapshot {
        self.sequence.read_waiting(|| self.copy())
    }

    fn copy(&self) -> Snapshot {
        let mut snapshot = Snapshot::default();
        for slot in 0..BUCKET {
            snapshot.keys[slot] = self.keys[slot].load(Ordering::Relaxed);
            snapshot.proof[slot] = self.proof[slot].load(Ordering::Relaxed);
            snapshot.disproof[slot] = self.disproof[slot].load(Ordering::Relaxed);
            snapshot.work[slot] = self.work[slot].load(Ordering::Relaxed);
        }
        snapshot
    }

    fn set(&self, slot: usize, key: u64, entry: Entry, work: u32) {
        self.keys[slot].store(key, Ordering::Relaxed);
        self.proof[slot].store(entry.proof, Ordering::Relaxed);
        self.disproof[slot].store(entry.disproof, Ordering::Relaxed);
        self.work[slot].store(work, Ordering::Relaxed);
    }
}

/// `key`'s bucket among `buckets`, a power of two of them.
#[inline]
fn bucket_of(buckets: &[Bucket], key: u64) -> usize {
    // Multiplied, so that keys differing only in low bits spread too.
    let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (hash >> 32) as usize & (buckets.len() - 1)
}

/// The proof-number table.
pub struct ProofTable {
    buckets: Sizes<Bucket>,
    /// Entries in use (about: entries written into a size already copied
    /// count too).
    used: AtomicUsize,
    max_buckets: usize,
}

impl ProofTable {
    /// A table of `FIRST_BUCKETS` buckets (fewer if `max_buckets` is
    /// smaller) that grows up to `max_buckets`, a power of two.
    pub fn new(max_buckets: usize) -> ProofTable {
        let first = FIRST_BUCKETS.min(max_buckets);
        ProofTable {
            buckets: Sizes::new(large_vec_with(first, Bucket::default).into_boxed_slice()),
            used: AtomicUsize::new(0),
            max_buckets,
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let buckets = self.buckets.current();
        &buckets[bucket_of(buckets, key)]
    }

    /// Asks the processor for `key`'s bucket, to be read a little later.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = std::ptr::from_ref(self.bucket(key)).cast::<i8>();
            // SAFETY: a prefetch is only a hint; it never faults, and the
            // address lies inside the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let snapshot = self.bucket(key).read();
        snapshot.find(key).map(|slot| Entry {
            proof: snapshot.proof[slot],
            disproof: snapshot.disproof[slot],
        })
    }

    /// Keeps `entry` for `key`, whose search took `work` nodes.
    pub fn store(&self, key: u64, entry: Entry, work: u64) {
        let work = work.min(u64::from(u32::MAX)) as u32;
        loop {
            let buckets = self.buckets.current();
            // Below a quarter full, a full bucket is bad luck: replace in it.
            let count = buckets.len();
            let full =
                count >= self.max_buckets || self.used.load(Ordering::Relaxed) * 4 < count * BUCKET;
            let bucket = &buckets[bucket_of(buckets, key)];
            let stored = bucket.sequence.write(|| {
                let snapshot = bucket.copy();
                let slot = snapshot.find(key).or_else(|| {
                    let free = (0..BUCKET).find(|&slot| snapshot.is_free(slot));
                    if free.is_some() {
                        self.used.fetch_add(1, Ordering::Relaxed);
                    }
                    free
                });
                let slot = match slot {
                    Some(slot) => slot,
                    None if !full => return false,
                    None => (0..BUCKET)
                        .min_by_key(|&slot| snapshot.work[slot])
                        .unwrap_or(0),
                };
                bucket.set(slot, key, entry, work);
                true
            });
            if stored {
                return;
            }
            self.buckets.grow(count, |old| {
                // Each entry to its bucket in the new size: the one it was
                // in, or the one `count` further on.
                let larger = large_vec_with(count * 2, Bucket::default);
                for (index, bucket) in old.iter().enumerate() {
                    let bucket = bucket.read();
                    let mut next = [0, 0];
                    for slot in (0..BUCKET).filter(|&slot| !bucket.is_free(slot)) {
                        let key = bucket.keys[slot];
                        let target = bucket_of(&larger, key);
                        let half = usize::from(target != index);
                        let entry = Entry {
                            proof: bucket.proof[slot],
                            disproof: bucket.disproof[slot],
                        };
                        larger[target].set(next[half], key, entry, bucket.work[slot]);
                        next[half] += 1;
                    }
                }
                larger.into_boxed_slice()
            });
        }
    }

    /// The number of buckets now.
    #[cfg(test)]
    fn bucket_count(&self) -> usize {
        self.buckets.current().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catena_core::rng::SplitMix64;

    fn entry(proof: u32) -> Entry {
        Entry {
            proof,
            disproof: u32::MAX,
        }
    }

    /// Entries survive the table's growth, and a full table replaces
    /// the entry whose search took the fewest nodes.
    #[test]
    fn the_proof_table_keeps_entries_as_it_grows_and_replaces_the_cheapest() {
        let table = ProofTable::new(1 << 16);
        let mut random = SplitMix64::new(7);
        let keys: Vec<u64> = (0..20_000).map(|_| random.next_u64()).collect();
        for (index, &key) in keys.iter().enumerate() {
            table.store(key, entry(index as u32 + 1), 1);
        }
        assert!(table.bucket_count() > FIRST_BUCKETS);
        let kept = keys
            .iter()
            .enumerate()
            .filter(|&(index, &key)| table.get(key) == Some(entry(index as u32 + 1)))
            .count();
        // Replacement only in buckets that were full before a quarter of
        // the table was.
        assert!(kept > 19_500, "{kept} of 20000 kept");

        let small = ProofTable::new(1);
        let same_bucket: Vec<u64> = (0..4).map(|k| k << 40).collect();
        for (work, &key) in [5, 1, 9].iter().zip(&same_bucket) {
            small.store(key, entry(0), *work);
        }
        small.store(same_bucket[3], entry(7), 3);
        assert_eq!(small.get(same_bucket[1]), None);
        assert_eq!(small.get(same_bucket[3]), Some(entry(7)));
        assert_eq!(small.get(same_bucket[0]), Some(entry(0)));
    }

    /// Threads writing and growing the same table at once never read one
    /// key's numbers under another key: each key's proof number is derived
    /// from the key, so a torn entry would show.
    #[test]
    fn threads_sharing_the_proof_table_never_read_a_torn_entry() {
        let table = ProofTable::new(1 << 12);
        std::thread::scope(|scope| {
            for seed in 0..4 {
                let table = &table;
                scope.spawn(move || {
                    let mut random = SplitMix64::new(seed);
                    for _ in 0..200_000 {
                        let key = random.next_u64() % 50_000 + 1;
                        let numbers = Entry {
                            proof: key as u32,
                            disproof: (key >> 1) as u32 | 1,
                        };
                        table.store(key, numbers, key % 7);
                        if let Some(read) = table.get(key ^ 1) {
                            assert_eq!(read.proof as u64, key ^ 1);
                            assert_eq!(read.disproof, ((key ^ 1) >> 1) as u32 | 1);
                        }
                    }
                });
            }
        });
        assert_eq!(table.bucket_count(), 1 << 12);
    }
}
