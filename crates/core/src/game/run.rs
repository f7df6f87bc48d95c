//! The run of switches in progress: how many the player to move has made in a row, and their limit.

use super::{Rules, SwitchRule};
use crate::board::{Bitboard, Move, Position};
use crate::chain::{self, MoveScreen};

/// `k` and `L` of spec section 4, small enough to copy with every node of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct SwitchRun {
    switches: u32,
    limit: RunLimit,
}

#[derive(Clone, Copy, Debug, Default)]
enum RunLimit {
    /// No run in progress: the next switch is always allowed.
    #[default]
    NoRun,
    Known(u32),
    /// Rule `chain`: the size of the chain that started the run, computed only
    /// when a run gets long enough for it to matter, and then kept in `size`
    /// (which equality and hashing ignore: the chain alone decides it).
    ChainSize {
        occupied: Bitboard,
        landing: Bitboard,
        min_enclosed: u32,
        size: Option<u32>,
    },
    Unlimited,
}

impl RunLimit {
    /// What decides the limit, without the chain size computed from it.
    fn identity(&self) -> (u8, u64, u64, u32) {
        match *self {
            RunLimit::NoRun => (0, 0, 0, 0),
            RunLimit::Known(limit) => (1, 0, 0, limit),
            RunLimit::ChainSize {
                occupied,
                landing,
                min_enclosed,
                ..
            } => (2, occupied.0, landing.0, min_enclosed),
            RunLimit::Unlimited => (3, 0, 0, 0),
        }
    }
}

impl PartialEq for RunLimit {
    fn eq(&self, other: &RunLimit) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for RunLimit {}

impl std::hash::Hash for RunLimit {
    /// As `#[derive(Hash)]` would hash it without `size`, so that keys do
    /// not depend on whether the size was computed.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            RunLimit::NoRun | RunLimit::Unlimited => {}
            RunLimit::Known(limit) => limit.hash(state),
            RunLimit::ChainSize {
                occupied,
                landing,
                min_enclosed,
                ..
            } => {
                occupied.hash(state);
                landing.hash(state);
                min_enclosed.hash(state);
            }
        }
    }
}

impl SwitchRun {
    /// Switches the player to move has made in a row.
    pub fn switches(&self) -> u32 {
        self.switches
    }

    /// Whether the player to move, having just formed a chain, may switch once more.
    pub fn allows_switch(&mut self) -> bool {
        match self.limit {
            RunLimit::NoRun | RunLimit::Unlimited => true,
            RunLimit::Known(limit) => self.switches < limit,
            // Every chain surrounds at least `min_enclosed` empty squares, so its
            // size is needed only once the run has reached that many switches.
            RunLimit::ChainSize { min_enclosed, .. } if self.switches < min_enclosed => true,
            RunLimit::ChainSize { .. } => self.switches < self.limit().unwrap_or(u32::MAX),
        }
    }

    /// The limit of the run in progress, if there is one and it is finite.
    pub fn limit(&mut self) -> Option<u32> {
        match self.limit {
            RunLimit::NoRun | RunLimit::Unlimited => None,
            RunLimit::Known(limit) => Some(limit),
            RunLimit::ChainSize {
                size: Some(size), ..
            } => Some(size),
            RunLimit::ChainSize {
                occupied,
                landing,
                min_enclosed,
                size: None,
            } => {
                let size = chain_size(occupied, landing, min_enclosed);
                self.limit = RunLimit::ChainSize {
                    occupied,
                    landing,
                    min_enclosed,
                    size: Some(size),
                };
                Some(size)
            }
        }
    }

    /// The run after the player to move plays `mv` from `position`, which forms a chain, and switches.
    pub fn after_switch(&self, position: &Position, mv: Move, rules: &Rules) -> SwitchRun {
        let limit = match (self.limit, rules.switch_rule) {
            (RunLimit::NoRun, SwitchRule::Chain) => RunLimit::ChainSize {
                occupied: position.occupied_after(mv),
                landing: position.landing_squares(mv),
                min_enclosed: rules.min_enclosed,
                size: None,
            },
            (RunLimit::NoRun, SwitchRule::Moves) => {
                RunLimit::Known(position.fullmove_number().into())
            }
            (RunLimit::NoRun, SwitchRule::Unlimited) => RunLimit::Unlimited,
            (running, _) => running,
        };
        SwitchRun {
            switches: self.switches + 1,
            limit,
        }
    }
}

/// [`chain::chain_size`], remembered per thread: every node of a long run
/// asks for the size of the chain that started it, and computing it
/// allocates and takes tens of microseconds.
fn chain_size(occupied: Bitboard, landing: Bitboard, min_enclosed: u32) -> u32 {
    const ENTRIES: usize = 1 << 10;
    type Remembered = (Bitboard, Bitboard, u32, u32);
    thread_local! {
        static SIZES: std::cell::RefCell<Vec<Remembered>> =
            std::cell::RefCell::new(vec![(Bitboard::EMPTY, Bitboard::EMPTY, 0, 0); ENTRIES]);
    }
    let hash = (occupied.0 ^ landing.0.rotate_left(17) ^ u64::from(min_enclosed))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let index = (hash >> (64 - ENTRIES.trailing_zeros())) as usize;
    SIZES.with_borrow_mut(|sizes| {
        let (seen_occupied, seen_landing, seen_min, size) = sizes[index];
        // `min_enclosed` is at least 1, so an unused entry never matches.
        if (seen_occupied, seen_landing, seen_min) == (occupied, landing, min_enclosed) {
            return size;
        }
        let size = chain::chain_size(occupied, landing, min_enclosed);
        sizes[index] = (occupied, landing, min_enclosed, size);
        size
    })
}

/// The chain test for the moves of one position: cheaper per move than
/// [`forms_chain`] once a position has more than a few moves to test.
pub struct ChainTest<'a> {
    position: &'a Position,
    screen: MoveScreen,
}

impl<'a> ChainTest<'a> {
    pub fn new(position: &'a Position, rules: &Rules) -> ChainTest<'a> {
        ChainTest {
            position,
            screen: MoveScreen::new(position.occupied(), rules.min_enclosed),
        }
    }

    /// Whether `mv` forms a chain.
    #[inline]
    pub fn forms_chain(&self, mv: Move) -> bool {
        self.screen.forms_chain(
            self.position.vacated_squares(mv),
            self.position.landing_squares(mv),
        )
    }
}

/// Whether `mv`, played from `position`, forms a chain under `rules`.
#[inline]
pub fn forms_chain(position: &Position, mv: Move, rules: &Rules) -> bool {
    chain::forms_chain(
        position.occupied_after(mv),
        position.landing_squares(mv),
        rules.min_enclosed,
    )
}

/// The chain `mv`, played from `position`, closes under `rules`, if any,
/// with its smallest loop for display.
pub fn closed_chain(position: &Position, mv: Move, rules: &Rules) -> Option<chain::Chain> {
    if !forms_chain(position, mv, rules) {
        return None;
    }
    chain::analyse_board(
        position.occupied_after(mv),
        position.landing_squares(mv),
        rules.min_enclosed,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{DefaultHasher, Hash, Hasher};

    fn run(switches: u32, limit: RunLimit) -> SwitchRun {
        SwitchRun { switches, limit }
    }

    fn chain(occupied: u64, landing: u64, min_enclosed: u32, size: Option<u32>) -> RunLimit {
        RunLimit::ChainSize {
            occupied: Bitboard(occupied),
            landing: Bitboard(landing),
            min_enclosed,
            size,
        }
    }

    fn hash(run: &SwitchRun) -> u64 {
        let mut hasher = DefaultHasher::new();
        run.hash(&mut hasher);
        hasher.finish()
    }

    /// Runs are told apart by their switches and by what decides their
    /// limit, never by whether a chain's size has been computed yet.
    #[test]
    fn runs_are_equal_by_their_switches_and_what_decides_their_limit() {
        let unsized_run = run(2, chain(0xff00, 0x0100, 2, None));
        let sized = run(2, chain(0xff00, 0x0100, 2, Some(8)));
        assert_eq!(unsized_run, sized);
        assert_eq!(hash(&unsized_run), hash(&sized));
        let all = [
            run(0, RunLimit::NoRun),
            run(1, RunLimit::Known(3)),
            run(2, RunLimit::Known(3)),
            run(1, RunLimit::Known(4)),
            run(1, chain(0xff00, 0x0100, 2, None)),
            run(1, chain(0xfe00, 0x0100, 2, None)),
            run(1, chain(0xff00, 0x0200, 2, None)),
            run(1, chain(0xff00, 0x0100, 3, None)),
            run(1, RunLimit::Unlimited),
        ];
        for (i, a) in all.iter().enumerate() {
            for (j, b) in all.iter().enumerate() {
                assert_eq!(a == b, i == j, "{a:?} against {b:?}");
                // The transposition key of a run hashes it (`search::run_key`).
                assert_eq!(hash(a) == hash(b), i == j, "{a:?} against {b:?}");
            }
        }
    }
}
