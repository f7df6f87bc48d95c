//! The helper threads of a multi-threaded search, kept alive from one search
//! to the next (issue 23, point 4).
//!
//! Starting `Threads - 1` threads at every `go` cost more than a short search
//! itself when there are many more threads than cores: each must be created
//! and scheduled before the search can even begin. The helpers now live in a
//! rayon pool that is built once for a thread count and rebuilt only when the
//! count changes; a search hands its helper workers to it as jobs.
//!
//! The search itself uses no rayon parallelism inside a node (chains on the
//! 8x8 board take the bitboard path), so a pool thread runs one helper search
//! from start to end and never picks up a second one while it waits.

use std::sync::{Arc, Mutex, PoisonError};

use rayon::{ThreadPool, ThreadPoolBuilder};

/// The pool of the last thread count asked for, shared by every search of
/// the process (one engine per process, as UCI has it).
static HELPERS: Mutex<Option<(usize, Arc<ThreadPool>)>> = Mutex::new(None);

/// A pool of `count` helper threads, the same one as last time when the count
/// is unchanged. `None` when no helper is wanted, or when the system refuses
/// the threads: the search then runs on its own thread alone.
pub fn helpers(count: usize) -> Option<Arc<ThreadPool>> {
    if count == 0 {
        return None;
    }
    let mut cached = HELPERS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((size, pool)) = cached.as_ref()
        && *size == count
    {
        return Some(Arc::clone(pool));
    }
    // The old pool's threads end once its last search has let go of it.
    *cached = None;
    let built = ThreadPoolBuilder::new()
        .num_threads(count)
        .thread_name(|index| format!("catena-helper-{}", index + 1))
        .build();
    match built {
        Ok(pool) => {
            let pool = Arc::new(pool);
            *cached = Some((count, Arc::clone(&pool)));
            Some(pool)
        }
        Err(error) => {
            log::error!("cannot start {count} helper threads ({error}); searching on one");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_is_kept_for_the_same_count_and_rebuilt_for_another() {
        assert!(helpers(0).is_none());
        let first = helpers(3).expect("three threads start");
        let again = helpers(3).expect("three threads start");
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(first.current_num_threads(), 3);
        let other = helpers(2).expect("two threads start");
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(other.current_num_threads(), 2);
    }
}
