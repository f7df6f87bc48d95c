//! Verdicts past the cheap rejection, remembered per thread by board: perft
//! and search meet the same boards again and again (transpositions, iterative
//! deepening, the same square reached by different pieces), and a verdict
//! costs a few hundred nanoseconds where a lookup costs a few.

use std::cell::RefCell;

use crate::board::Bitboard;

const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Entry {
    occupied: Bitboard,
    landing: Bitboard,
    /// `MinEnclosed`, 0 for an unused entry (the rule allows 1 to 16).
    min_enclosed: u32,
    forms_chain: bool,
}

thread_local! {
    static VERDICTS: RefCell<Box<[Entry]>> =
        RefCell::new(vec![Entry::default(); ENTRIES].into_boxed_slice());
}

/// The verdict for the board, from memory or else from `decide`.
#[inline]
pub(in crate::chain) fn remembered(
    occupied: Bitboard,
    landing: Bitboard,
    min_enclosed: u32,
    decide: impl FnOnce() -> bool,
) -> bool {
    let hash = (occupied.0 ^ landing.0.rotate_left(29) ^ u64::from(min_enclosed))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let index = (hash >> (64 - ENTRIES.trailing_zeros())) as usize;
    let found = VERDICTS.with_borrow(|entries| {
        let entry = entries[index];
        (entry.occupied == occupied
            && entry.landing == landing
            && entry.min_enclosed == min_enclosed)
            .then_some(entry.forms_chain)
    });
    found.unwrap_or_else(|| {
        let forms_chain = decide();
        VERDICTS.with_borrow_mut(|entries| {
            entries[index] = Entry {
                occupied,
                landing,
                min_enclosed,
                forms_chain,
            }
        });
        forms_chain
    })
}
