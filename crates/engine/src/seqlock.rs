//! What the solver's shared tables are built from: a sequence number that
//! guards one slot as a seqlock, and a table that doubles under the
//! threads' feet.
//!
//! A seqlock's writer makes the slot's sequence odd, writes, and makes it
//! even again; a reader copies the slot and keeps the copy only if the
//! sequence was even and unchanged around it. So a reader never sees half
//! of one entry and half of another, and never writes, which keeps the
//! cache line shared between the threads that read it. The slot's fields
//! are atomics read and written relaxed (plain loads and stores on x86).

use std::sync::Mutex;
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering, fence};

/// A slot's sequence number: even when no writer is inside.
#[derive(Default)]
pub struct Sequence(AtomicU32);

impl Sequence {
    /// `copy`'s result if no writer was inside the slot while it ran.
    #[inline]
    pub fn read<T>(&self, copy: impl FnOnce() -> T) -> Option<T> {
        let before = self.0.load(Ordering::Acquire);
        if before & 1 != 0 {
            return None;
        }
        let value = copy();
        fence(Ordering::Acquire);
        (self.0.load(Ordering::Relaxed) == before).then_some(value)
    }

    /// `copy`'s result, waiting out the writers.
    #[inline]
    pub fn read_waiting<T>(&self, copy: impl Fn() -> T) -> T {
        loop {
            if let Some(value) = self.read(&copy) {
                return value;
            }
            std::hint::spin_loop();
        }
    }

    /// Runs `write` with the slot to itself, waiting for another writer.
    pub fn write<R>(&self, write: impl FnOnce() -> R) -> R {
        loop {
            let sequence = self.0.load(Ordering::Relaxed);
            if sequence & 1 == 0
                && self
                    .0
                    .compare_exchange_weak(
                        sequence,
                        sequence + 1,
                        Ordering::Acquire,
                        Ordering::Relaxed,
                    )
                    .is_ok()
            {
                return self.written(sequence, write);
            }
            std::hint::spin_loop();
        }
    }

    /// Runs `write` with the slot to itself, or nothing if another writer
    /// is inside: for a cache, where a store may as well be skipped.
    pub fn try_write(&self, write: impl FnOnce()) -> bool {
        let sequence = self.0.load(Ordering::Relaxed);
        if sequence & 1 != 0
            || self
                .0
                .compare_exchange(sequence, sequence + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return false;
        }
        self.written(sequence, write);
        true
    }

    fn written<R>(&self, sequence: u32, write: impl FnOnce() -> R) -> R {
        fence(Ordering::Release);
        let result = write();
        self.0.store(sequence.wrapping_add(2), Ordering::Release);
        result
    }
}

/// A table of `T` slots that grows: threads read and write the newest size,
/// and a growth makes a larger one from it and publishes it. Threads still
/// in the old size go on there until their next access (what they write
/// there is lost: these tables are caches). Every size is kept until the
/// table is dropped, since a thread may still be reading an old one.
pub struct Sizes<T> {
    /// The newest size; points into `sizes`.
    current: AtomicPtr<Box<[T]>>,
    /// Every size made so far, the newest last; the growth's lock.
    #[allow(
        clippy::vec_box,
        reason = "`current` points into the boxes, which must stay put as the vector grows"
    )]
    sizes: Mutex<Vec<Box<Box<[T]>>>>,
}

impl<T> Sizes<T> {
    pub fn new(first: Box<[T]>) -> Sizes<T> {
        let mut first = Box::new(first);
        Sizes {
            current: AtomicPtr::new(&raw mut *first),
            sizes: Mutex::new(vec![first]),
        }
    }

    /// The newest size.
    #[inline]
    pub fn current(&self) -> &[T] {
        // SAFETY: `current` always points to a size owned by `sizes`, which
        // never drops one before the table itself is dropped, and no size
        // is mutated once published but through its slots' atomics.
        unsafe { &*self.current.load(Ordering::Acquire) }
    }

    /// Publishes `larger(old)` if the newest size still has `len` slots (else
    /// another thread grew it meanwhile).
    pub fn grow(&self, len: usize, larger: impl FnOnce(&[T]) -> Box<[T]>) {
        let mut sizes = self
            .sizes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let old = sizes.last().expect("a table has a size");
        if old.len() != len {
            return;
        }
        let mut next = Box::new(larger(old));
        self.current.store(&raw mut *next, Ordering::Release);
        sizes.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// Sixteen words written together are read together, by a reader
    /// while a writer rewrites them all the time (the reads that a writer
    /// interrupted are retried, and would otherwise mix two writes).
    #[test]
    fn a_seqlock_reader_never_sees_half_a_write() {
        let sequence = Sequence::default();
        let words: [AtomicU64; 16] = std::array::from_fn(|_| AtomicU64::new(0));
        let done = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for value in 1..=2_000_000u64 {
                    sequence.write(|| {
                        for word in &words {
                            word.store(value, Ordering::Relaxed);
                        }
                    });
                }
                done.store(true, Ordering::Relaxed);
            });
            let mut reads = 0u64;
            while !done.load(Ordering::Relaxed) || reads < 1000 {
                let copy: [u64; 16] = sequence.read_waiting(|| {
                    std::array::from_fn(|index| words[index].load(Ordering::Relaxed))
                });
                assert!(copy.iter().all(|&word| word == copy[0]), "{copy:?}");
                reads += 1;
            }
        });
    }
}
