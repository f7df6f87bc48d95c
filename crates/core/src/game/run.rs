//! The run of switches in progress: how many the player to move has made in a row, and their limit.

use once_cell::sync::Lazy;

use super::{Rules, SwitchRule};
use crate::board::{Bitboard, Move, Position};
use crate::chain::{self, MoveScreen};
use crate::rng::{SplitMix64, mix};

/// `k` and `L` of docs/rules.md, section 4, small enough to copy with every node of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct SwitchRun {
    switches: u32,
    limit: RunLimit,
}

/// What limits the run in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
enum RunLimit {
    /// No run in progress: the next switch is always allowed.
    #[default]
    NoRun,
    Known(u32),
    /// Rule `chain`: the size of the chain that started the run, known by the
    /// chain's board and computed only when a run gets long enough for it to
    /// matter (then remembered per thread, see [`chain_size`]).
    ChainSize {
        occupied: Bitboard,
        landing: Bitboard,
        min_enclosed: u32,
    },
    Unlimited,
}

/// The random keys of [`SwitchRun::key`]: one per part of a run, drawn from
/// the repository's generator, so that keys (and the search's node counts)
/// are the same on every toolchain and machine.
static RUN_KEYS: Lazy<[u64; 5]> = Lazy::new(|| {
    let mut random = SplitMix64::new(0x5357_4954_4348_5255);
    std::array::from_fn(|_| random.next_u64())
});

impl SwitchRun {
    /// Switches the player to move has made in a row.
    pub fn switches(&self) -> u32 {
        self.switches
    }

    /// Whether the player to move, having just formed a chain, may switch once more.
    pub fn allows_switch(&self) -> bool {
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
    pub fn limit(&self) -> Option<u32> {
        match self.limit {
            RunLimit::NoRun | RunLimit::Unlimited => None,
            RunLimit::Known(limit) => Some(limit),
            RunLimit::ChainSize {
                occupied,
                landing,
                min_enclosed,
            } => Some(chain_size(occupied, landing, min_enclosed)),
        }
    }

    /// The part of the transposition key that tells runs apart
    /// (docs/rules.md, section 4): 0 with no run, else Zobrist-style, each
    /// part of the run (its switches, and what decides its limit) mixed with
    /// a key of its own. Runs whose chain size is the same but whose chains
    /// differ get different keys: the size is not computed to make a key.
    pub fn key(&self) -> u64 {
        if self.switches == 0 {
            return 0;
        }
        let (kind, first, second, third) = match self.limit {
            RunLimit::NoRun => (0, 0, 0, 0),
            RunLimit::Known(limit) => (1, u64::from(limit), 0, 0),
            RunLimit::ChainSize {
                occupied,
                landing,
                min_enclosed,
            } => (2, occupied.0, landing.0, u64::from(min_enclosed)),
            RunLimit::Unlimited => (3, 0, 0, 0),
        };
        let parts = [u64::from(self.switches), kind, first, second, third];
        let key = parts
            .iter()
            .zip(RUN_KEYS.iter())
            .fold(0, |key, (&part, &random)| key ^ mix(part ^ random));
        key | 1
    }

    /// The run after the player to move plays `mv` from `position`, which forms a chain, and switches.
    pub fn after_switch(&self, position: &Position, mv: Move, rules: &Rules) -> SwitchRun {
        let limit = match (self.limit, rules.switch_rule) {
            (RunLimit::NoRun, SwitchRule::Chain) => RunLimit::ChainSize {
                occupied: position.occupied_after(mv),
                landing: position.landing_squares(mv),
                min_enclosed: rules.min_enclosed,
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

    /// The same test without the memo of verdicts, for a caller that
    /// seldom meets a board twice.
    pub fn without_memo(self) -> ChainTest<'a> {
        ChainTest {
            screen: self.screen.without_memo(),
            ..self
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

    fn run(switches: u32, limit: RunLimit) -> SwitchRun {
        SwitchRun { switches, limit }
    }

    fn chain(occupied: u64, landing: u64, min_enclosed: u32) -> RunLimit {
        RunLimit::ChainSize {
            occupied: Bitboard(occupied),
            landing: Bitboard(landing),
            min_enclosed,
        }
    }

    /// Runs are told apart, by equality and by key, by their switches and by
    /// what decides their limit.
    #[test]
    fn runs_differ_in_key_exactly_when_they_differ() {
        let all = [
            run(1, RunLimit::Known(3)),
            run(2, RunLimit::Known(3)),
            run(1, RunLimit::Known(4)),
            run(1, chain(0xff00, 0x0100, 2)),
            run(2, chain(0xff00, 0x0100, 2)),
            run(1, chain(0xfe00, 0x0100, 2)),
            run(1, chain(0xff00, 0x0200, 2)),
            run(1, chain(0xff00, 0x0100, 3)),
            run(1, RunLimit::Unlimited),
            run(2, RunLimit::Unlimited),
        ];
        for (i, a) in all.iter().enumerate() {
            assert_ne!(a.key(), 0, "{a:?}");
            for (j, b) in all.iter().enumerate() {
                assert_eq!(a == b, i == j, "{a:?} against {b:?}");
                assert_eq!(a.key() == b.key(), i == j, "{a:?} against {b:?}");
            }
        }
        assert_eq!(SwitchRun::default().key(), 0);
    }

    /// The keys are the repository's own: a change of toolchain cannot move
    /// them (and with them the bench's node counts).
    #[test]
    fn a_run_key_is_fixed_by_the_repository() {
        assert_eq!(run(1, RunLimit::Known(3)).key(), 0xe476_f55a_1eb9_f2e9);
    }
}
