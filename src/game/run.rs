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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
enum RunLimit {
    /// No run in progress: the next switch is always allowed.
    #[default]
    NoRun,
    Known(u32),
    /// Rule `chain`: the size of the chain that started the run, computed only
    /// when a run gets long enough for it to matter.
    ChainSize {
        occupied: Bitboard,
        landing: Bitboard,
        min_enclosed: u32,
    },
    Unlimited,
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
                occupied,
                landing,
                min_enclosed,
            } => {
                let size = chain::chain_size(occupied, landing, min_enclosed);
                self.limit = RunLimit::Known(size);
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
