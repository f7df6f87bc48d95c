//! The transposition table, shared by every search thread without locks.
//!
//! Each slot is two atomic words: the key XOR the data, and the data. A slot
//! torn by two threads writing at once fails the key check on reading, so a
//! thread never trusts a mix of two entries (the "lockless hashing" of Hyatt and Mann).

use std::alloc::{self, Layout};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper,
    /// The true value is at least the score (a move failed high).
    Lower,
    Exact,
}

impl Bound {
    fn bits(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// One probe's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best action found, packed by the search (0 = none).
    pub action: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The slots one key may use, aligned so that a probe touches one cache line.
#[derive(Default)]
#[repr(align(32))]
struct Bucket([Slot; 2]);

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
}

fn pack(entry: &Entry, generation: u64) -> u64 {
    u64::from(entry.action)
        | (u64::from(entry.score as i16 as u16) << 16)
        | (u64::from(entry.eval as i16 as u16) << 32)
        | ((entry.depth.clamp(0, 255) as u64) << 48)
        | (entry.bound.bits() << 56)
        | ((generation & 63) << 58)
}

fn unpack(data: u64) -> Option<Entry> {
    Some(Entry {
        action: data as u16,
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 255) as i32,
        bound: Bound::from_bits((data >> 56) & 3)?,
    })
}

fn generation_of(data: u64) -> u64 {
    data >> 58
}

fn depth_of(data: u64) -> i64 {
    ((data >> 48) & 255) as i64
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket). Panics if the
    /// machine cannot give the memory; `try_new` says so instead.
    pub fn new(megabytes: usize) -> TranspositionTable {
        Self::try_new(megabytes).unwrap_or_else(|problem| panic!("{problem}"))
    }

    /// A table of about `megabytes` MB (at least one bucket), or why the
    /// machine cannot give that much. The memory comes zeroed from the
    /// allocator: a large table is then the operating system's zero pages,
    /// touched only as the search reaches them, and `Hash 8192` is ready at
    /// once instead of after writing eight gigabytes.
    pub fn try_new(megabytes: usize) -> Result<TranspositionTable, String> {
        let refused = || format!("cannot allocate {megabytes} MB for the hash table");
        let bytes = megabytes.saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let layout = Layout::array::<Bucket>(count).map_err(|_| refused())?;
        // SAFETY: the layout's size is not zero (at least one bucket of 32 bytes).
        let memory = unsafe { alloc::alloc_zeroed(layout) }.cast::<Bucket>();
        if memory.is_null() {
            return Err(refused());
        }
        // SAFETY: `memory` comes from the global allocator with the layout of
        // exactly `count` buckets, and all-zero bytes are a valid `Bucket`
        // (two pairs of atomic zeros), so all `count` buckets are initialised.
        let buckets = unsafe { Vec::from_raw_parts(memory, count, count) };
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU64::new(0),
        })
    }

    /// Forgets every entry; only between searches.
    pub fn clear(&self) {
        for slot in self.slots() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        let next = (self.generation() + 1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index].0
    }

    fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|bucket| &bucket.0)
    }

    /// Asks the processor to fetch `key`'s bucket into the cache, so that the
    /// probe when the search reaches that position finds it there.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: a prefetch is only a hint; it never faults, and the
            // address lies inside the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                unpack(data)
            } else {
                None
            }
        })
    }

    pub fn store(&self, key: u64, entry: Entry) {
        let bucket = self.bucket(key);
        let mut target = &bucket[0];
        let mut worst = i64::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key || data == 0 {
                // A much deeper result outlives a shallow bound from this search.
                if data != 0
                    && entry.bound != Bound::Exact
                    && depth_of(data) > i64::from(entry.depth) + 3
                    && generation_of(data) == self.generation()
                {
                    return;
                }
                target = slot;
                // Keep a deeper entry's move when this store has none.
                if data != 0 && entry.action == 0 {
                    let kept = Entry {
                        action: data as u16,
                        ..entry
                    };
                    return self.write(slot, key, &kept);
                }
                break;
            }
            let age = ((self.generation() + 64 - generation_of(data)) & 63) as i64;
            let value = depth_of(data) - 8 * age;
            if value < worst {
                worst = value;
                target = slot;
            }
        }
        self.write(target, key, &entry);
    }

    fn write(&self, slot: &Slot, key: u64, entry: &Entry) {
        let data = pack(entry, self.generation());
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used in this search, as UCI's `hashfull`.
    pub fn hashfull(&self) -> u16 {
        let (sample, used) = self
            .slots()
            .take(1000)
            .fold((0, 0), |(sample, used), slot| {
                let data = slot.data.load(Ordering::Relaxed);
                let current = data != 0 && generation_of(data) == self.generation();
                (sample + 1, used + usize::from(current))
            });
        (used * 1000 / sample.max(1)) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(1);
        let entry = Entry {
            action: 1234,
            score: -31_000,
            eval: 55,
            depth: 9,
            bound: Bound::Lower,
        };
        table.store(0xdead_beef, entry);
        assert_eq!(table.probe(0xdead_beef), Some(entry));
        assert_eq!(table.probe(0xdead_bee0), None);
    }
}
