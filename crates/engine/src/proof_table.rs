//! The solver's table of proof and disproof numbers, shared by its threads.
//!
//! Each bucket is one cache line holding three entries and a sequence
//! number, written under the sequence as a seqlock: a writer makes it odd,
//! writes, and makes it even again; a reader copies the bucket and keeps
//! the copy only if the sequence was even and unchanged around it. So a
//! reader never sees half of one entry and half of another, which would
//! hand a node another node's proof. Entries are only a cache: an entry
//! lost (replaced, or written into a bucket already moved by a growth) is
//! searched again, never wrong.
//!
//! The table starts small and doubles while the search fills it: a short
//! solve touches little memory, and memory first touched is slow to get
//! (the system clears every page it hands out). A growth copies every
//! bucket into a table twice the size and publishes it; threads still
//! working in the old one go on there until their next access. The old
//! tables are kept until the whole table is dropped, since a thread may
//! still be reading one.

use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering, fence};

use crate::memory::large_vec_with;

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
    sequence: AtomicU32,
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
    /// A consistent copy, waiting out a writer.
    fn read(&self) -> Snapshot {
        loop {
            let before = self.sequence.load(Ordering::Acquire);
            if before & 1 == 0 {
                let snapshot = self.copy();
                fence(Ordering::Acquire);
                if self.sequence.load(Ordering::Relaxed) == before {
                    return snapshot;
                }
            }
            std::hint::spin_loop();
        }
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

    /// Runs `write` with the bucket to itself; returns its result.
    fn write<R>(
        &self,
        write: impl FnOnce(&Snapshot) -> (R, Option<(usize, u64, Entry, u32)>),
    ) -> R {
        let mut sequence = self.sequence.load(Ordering::Relaxed);
        loop {
            if sequence & 1 == 0 {
                match self.sequence.compare_exchange_weak(
                    sequence,
                    sequence + 1,
                    Ordering::Acquire,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break,
                    Err(now) => sequence = now,
                }
            } else {
                std::hint::spin_loop();
                sequence = self.sequence.load(Ordering::Relaxed);
            }
        }
        fence(Ordering::Release);
        let (result, change) = write(&self.copy());
        if let Some((slot, key, entry, work)) = change {
            self.set(slot, key, entry, work);
        }
        self.sequence.store(sequence + 2, Ordering::Release);
        result
    }

    fn set(&self, slot: usize, key: u64, entry: Entry, work: u32) {
        self.keys[slot].store(key, Ordering::Relaxed);
        self.proof[slot].store(entry.proof, Ordering::Relaxed);
        self.disproof[slot].store(entry.disproof, Ordering::Relaxed);
        self.work[slot].store(work, Ordering::Relaxed);
    }
}

/// One size of the table.
struct Buckets(Box<[Bucket]>);

impl Buckets {
    fn new(count: usize) -> Buckets {
        Buckets(large_vec_with(count, Bucket::default).into_boxed_slice())
    }

    #[inline]
    fn of(&self, key: u64) -> &Bucket {
        // Multiplied, so that keys differing only in low bits spread too.
        let hash = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.0[(hash >> 32) as usize & (self.0.len() - 1)]
    }
}

/// The proof-number table.
pub struct ProofTable {
    /// The newest size; points into `sizes`.
    current: AtomicPtr<Buckets>,
    /// Every size made so far, the newest last; the growth's lock.
    #[allow(
        clippy::vec_box,
        reason = "`current` points into the boxes, which must stay put as the vector grows"
    )]
    sizes: Mutex<Vec<Box<Buckets>>>,
    /// Entries in use (about: entries written into a bucket already moved
    /// count too).
    used: AtomicUsize,
    max_buckets: usize,
}

impl ProofTable {
    /// A table of `FIRST_BUCKETS` buckets (fewer if `max_buckets` is
    /// smaller) that grows up to `max_buckets`, a power of two.
    pub fn new(max_buckets: usize) -> ProofTable {
        let mut first = Box::new(Buckets::new(FIRST_BUCKETS.min(max_buckets)));
        ProofTable {
            current: AtomicPtr::new(&raw mut *first),
            sizes: Mutex::new(vec![first]),
            used: AtomicUsize::new(0),
            max_buckets,
        }
    }

    #[inline]
    fn buckets(&self) -> &Buckets {
        // SAFETY: `current` always points to a `Buckets` owned by `sizes`,
        // which never drops one before the table itself is dropped.
        unsafe { &*self.current.load(Ordering::Acquire) }
    }

    /// The number of buckets now.
    #[cfg(test)]
    fn bucket_count(&self) -> usize {
        self.buckets().0.len()
    }

    /// Asks the processor for `key`'s bucket, to be read a little later.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = std::ptr::from_ref(self.buckets().of(key)).cast::<i8>();
            // SAFETY: a prefetch is only a hint; it never faults, and the
            // address lies inside the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let snapshot = self.buckets().of(key).read();
        snapshot.find(key).map(|slot| Entry {
            proof: snapshot.proof[slot],
            disproof: snapshot.disproof[slot],
        })
    }

    /// Keeps `entry` for `key`, whose search took `work` nodes.
    pub fn store(&self, key: u64, entry: Entry, work: u64) {
        let work = work.min(u64::from(u32::MAX)) as u32;
        loop {
            let buckets = self.buckets();
            // Below a quarter full, a full bucket is bad luck: replace in it.
            let count = buckets.0.len();
            let full =
                count >= self.max_buckets || self.used.load(Ordering::Relaxed) * 4 < count * BUCKET;
            let stored = buckets.of(key).write(|bucket| {
                let slot = bucket.find(key).or_else(|| {
                    let free = (0..BUCKET).find(|&slot| bucket.is_free(slot));
                    if free.is_some() {
                        self.used.fetch_add(1, Ordering::Relaxed);
                    }
                    free
                });
                let slot = match slot {
                    Some(slot) => slot,
                    None if !full => return (false, None),
                    None => (0..BUCKET)
                        .min_by_key(|&slot| bucket.work[slot])
                        .unwrap_or(0),
                };
                (true, Some((slot, key, entry, work)))
            });
            if stored {
                return;
            }
            self.grow(count);
        }
    }

    /// Twice the buckets, if the table still has `count`: each entry
    /// copied to its bucket in the new size (the one it was in, or the one
    /// `count` further on).
    fn grow(&self, count: usize) {
        let mut sizes = self
            .sizes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let old = sizes.last().expect("the table has a size");
        if old.0.len() != count {
            // Another thread grew it meanwhile.
            return;
        }
        let mut larger = Box::new(Buckets::new(count * 2));
        for index in 0..count {
            let bucket = old.0[index].read();
            let mut next = [0, 0];
            for slot in (0..BUCKET).filter(|&slot| !bucket.is_free(slot)) {
                let key = bucket.keys[slot];
                let target = larger.of(key);
                let half = usize::from(!std::ptr::eq(target, &raw const larger.0[index]));
                target.set(
                    next[half],
                    key,
                    Entry {
                        proof: bucket.proof[slot],
                        disproof: bucket.disproof[slot],
                    },
                    bucket.work[slot],
                );
                next[half] += 1;
            }
        }
        self.current.store(&raw mut *larger, Ordering::Release);
        sizes.push(larger);
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
