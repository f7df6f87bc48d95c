//! The solver's listing cache, shared by its threads: the actions of a node
//! in the engine's order. df-pn comes back to a node many times, and
//! listing its actions (generating the moves, ordering them, testing each
//! for a chain) costs more than all the rest of a visit.
//!
//! One listing a slot, the newest kept, under a seqlock
//! (`crate::seqlock`): a reader keeps a listing only if no writer was
//! inside, and a writer that finds another inside skips its store. The
//! cache starts small and grows fourfold as the visits grow, up to
//! `MAX_LISTINGS` slots (each 264 bytes).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use arrayvec::ArrayVec;

use crate::memory::large_vec_with;
use crate::seqlock::{Sequence, Sizes};
use catena_core::game::Action;

/// A node's action as the cache keeps it, with whether its move gives check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listed {
    pub action: Action,
    pub check: bool,
}

impl Listed {
    fn bits(self) -> u32 {
        u32::from(self.action.pack()) | u32::from(self.check) << 16
    }

    fn from_bits(bits: u32) -> Listed {
        Listed {
            action: Action::unpack(bits as u16),
            check: bits >> 16 & 1 != 0,
        }
    }
}

/// The most actions a cached listing holds; a node with more is listed anew
/// at every visit.
pub const LISTED: usize = 62;

/// At most this many actions are listed for one node.
pub type Actions = ArrayVec<Listed, 512>;

/// One node's listing.
struct Listing {
    sequence: Sequence,
    /// 0 for a free slot: a node without actions is never cached.
    len: AtomicU32,
    key: AtomicU64,
    actions: [AtomicU32; LISTED],
}

impl Default for Listing {
    fn default() -> Listing {
        Listing {
            sequence: Sequence::default(),
            len: AtomicU32::new(0),
            key: AtomicU64::new(0),
            actions: std::array::from_fn(|_| AtomicU32::new(0)),
        }
    }
}

impl Listing {
    /// The listing's key, length and actions as they are now (torn if a
    /// writer is inside).
    fn copy(&self) -> (u64, usize, [u32; LISTED]) {
        let mut actions = [0; LISTED];
        let len = (self.len.load(Ordering::Relaxed) as usize).min(LISTED);
        for (copy, action) in actions.iter_mut().zip(&self.actions[..len]) {
            *copy = action.load(Ordering::Relaxed);
        }
        (self.key.load(Ordering::Relaxed), len, actions)
    }

    /// Writes `key`'s listing, its actions as `Listed::bits`; the caller
    /// holds the slot (its sequence, or a size not yet published).
    fn set(&self, key: u64, bits: &[u32]) {
        self.key.store(key, Ordering::Relaxed);
        self.len.store(bits.len() as u32, Ordering::Relaxed);
        for (slot, &bits) in self.actions.iter().zip(bits) {
            slot.store(bits, Ordering::Relaxed);
        }
    }
}

const FIRST_LISTINGS: usize = 1 << 8;
const MAX_LISTINGS: usize = 1 << 18;

/// The cache grows when its visits reach this many a slot.
const VISITS_A_SLOT: u64 = 2;

/// The listings, by the node's board and whether it may switch.
pub struct Listings {
    slots: Sizes<Listing>,
    /// Visits counted so far, over all threads.
    visits: AtomicU64,
}

impl Default for Listings {
    fn default() -> Listings {
        Listings {
            slots: Sizes::new(large_vec_with(FIRST_LISTINGS, Listing::default).into_boxed_slice()),
            visits: AtomicU64::new(0),
        }
    }
}

impl Listings {
    fn slot(slots: &[Listing], key: u64) -> &Listing {
        &slots[(key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as usize & (slots.len() - 1)]
    }

    /// Fills `actions` with `key`'s listing, if the cache has it; else
    /// leaves `actions` empty.
    pub fn get(&self, key: u64, actions: &mut Actions) -> bool {
        let listing = Self::slot(self.slots.current(), key);
        actions.clear();
        match listing.sequence.read(|| listing.copy()) {
            Some((found, len, bits)) if found == key && len > 0 => {
                actions.extend(bits[..len].iter().map(|&bits| Listed::from_bits(bits)));
                true
            }
            _ => false,
        }
    }

    /// Keeps `actions` as `key`'s listing, unless another thread is writing
    /// its slot or there are too many.
    pub fn store(&self, key: u64, actions: &[Listed]) {
        if actions.is_empty() || actions.len() > LISTED {
            return;
        }
        let bits: ArrayVec<u32, LISTED> = actions.iter().map(|action| action.bits()).collect();
        let listing = Self::slot(self.slots.current(), key);
        listing.sequence.try_write(|| listing.set(key, &bits));
    }

    /// Counts `visits` more visits, and grows the cache fourfold once they
    /// reach `VISITS_A_SLOT` a slot.
    pub fn visited(&self, visits: u64) {
        let total = self.visits.fetch_add(visits, Ordering::Relaxed) + visits;
        let len = self.slots.current().len();
        if total <= VISITS_A_SLOT * len as u64 || len >= MAX_LISTINGS {
            return;
        }
        self.slots.grow(len, |old| {
            let larger = large_vec_with(len * 4, Listing::default);
            for listing in old {
                if let Some((key, len, bits)) = listing.sequence.read(|| listing.copy())
                    && len > 0
                {
                    Self::slot(&larger, key).set(key, &bits[..len]);
                }
            }
            larger.into_boxed_slice()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catena_core::board::Position;

    /// A listing reads back as stored, across the cache's growth, and a
    /// listing too long is not kept.
    #[test]
    fn listings_read_back_what_was_stored_as_the_cache_grows() {
        let position = Position::startpos();
        let actions: Vec<Listed> = position
            .legal_moves()
            .iter()
            .enumerate()
            .map(|(index, &mv)| Listed {
                action: if index % 3 == 0 {
                    Action::switching(mv)
                } else {
                    Action::stay(mv)
                },
                check: index % 2 == 0,
            })
            .collect();
        let listings = Listings::default();
        let mut read = Actions::new();
        for key in 1..=200u64 {
            listings.store(key, &actions[..(key as usize % actions.len()) + 1]);
        }
        listings.visited(100 * FIRST_LISTINGS as u64);
        assert_eq!(listings.slots.current().len(), FIRST_LISTINGS * 4);
        let found = (1..=200u64)
            .filter(|&key| {
                listings.get(key, &mut read)
                    && read[..] == actions[..(key as usize % actions.len()) + 1]
            })
            .count();
        // Only slot collisions among the first 256 slots lose listings.
        assert!(found > 100, "{found} of 200 read back");
        assert!(!listings.get(1000, &mut read) && read.is_empty());
        let long = vec![actions[0]; LISTED + 1];
        listings.store(1000, &long);
        assert!(!listings.get(1000, &mut read));
    }
}
