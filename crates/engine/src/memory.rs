//! Large tables in memory that the processor's address translation covers:
//! a table of hundreds of megabytes read at random misses the TLB at
//! almost every probe with 4 KB pages, and far less with 2 MB ones. Linux
//! gives huge pages to memory advised so (transparent huge pages in
//! `madvise` mode, the common default) when it is first touched; so the
//! memory is advised before it is filled.

/// `len` values made by `make`, in memory advised for huge pages before
/// it is filled.
pub fn large_vec_with<T>(len: usize, make: impl FnMut() -> T) -> Vec<T> {
    let mut vec = Vec::with_capacity(len);
    advise_huge_pages(&vec);
    vec.resize_with(len, make);
    vec
}

/// Asks the system to back the whole 2 MB pages of `vec`'s buffer with
/// huge pages; nothing happens elsewhere, or where the system declines.
fn advise_huge_pages<T>(vec: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let start = vec.as_ptr() as usize;
        let end = start + vec.capacity() * size_of::<T>();
        let (first, last) = (
            start.next_multiple_of(HUGE_PAGE),
            end / HUGE_PAGE * HUGE_PAGE,
        );
        if last > first {
            // SAFETY: the range lies inside the vector's own allocation, and
            // MADV_HUGEPAGE only changes how its pages are backed, never
            // their contents; a refusal (huge pages off) is harmless, so its
            // result is not needed.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = vec;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_vectors_hold_what_they_are_given() {
        let mut next = 0u32;
        let counted = large_vec_with(5 << 20, || {
            next += 1;
            next
        });
        assert!(
            counted
                .iter()
                .enumerate()
                .all(|(index, &n)| n == index as u32 + 1)
        );
    }
}
