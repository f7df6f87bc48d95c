//! The rule set of a game: how switches are limited and how big a chain must be.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// What limits the switches one player makes in a row (docs/rules.md, section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum SwitchRule {
    /// The size of the chain that started the run (the 2018 rules).
    #[default]
    Chain,
    /// The full-move number of the position in which the run started (the 2017 rules).
    Moves,
    /// No limit (the 2013 rules).
    Unlimited,
}

impl SwitchRule {
    pub const ALL: [SwitchRule; 3] = [SwitchRule::Chain, SwitchRule::Moves, SwitchRule::Unlimited];

    /// The names of [`ALL`](Self::ALL), in its order.
    pub const NAMES: [&'static str; 3] = ["chain", "moves", "unlimited"];

    pub const fn name(self) -> &'static str {
        SwitchRule::NAMES[self as usize]
    }
}

impl fmt::Display for SwitchRule {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SwitchRule {
    type Err = String;

    fn from_str(text: &str) -> Result<SwitchRule, String> {
        SwitchRule::ALL
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| format!("'{text}' is not a switch rule (chain, moves or unlimited)"))
    }
}

/// The SSCC rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub switch_rule: SwitchRule,
    /// The smallest group of adjacent empty squares a chain must surround.
    pub min_enclosed: u32,
}

impl Rules {
    pub const MIN_ENCLOSED_RANGE: RangeInclusive<u32> = 1..=16;

    /// Rules with `min_enclosed` checked against `MIN_ENCLOSED_RANGE`.
    pub fn new(switch_rule: SwitchRule, min_enclosed: u32) -> Result<Rules, String> {
        if Rules::MIN_ENCLOSED_RANGE.contains(&min_enclosed) {
            Ok(Rules {
                switch_rule,
                min_enclosed,
            })
        } else {
            Err(format!("MinEnclosed {min_enclosed} is outside 1 to 16"))
        }
    }

    /// The most men a board can hold without any chain on it. Men are never
    /// added, so from a position with this many or fewer no move ever closes
    /// a chain, nobody can switch, and the rest of the game is chess: a
    /// tablebase's value for the side to move is the player's.
    ///
    /// A link encloses a group of `min_enclosed` empty squares: one square
    /// takes a loop of four men (the diamond around it), two adjacent ones
    /// six (spec case 1). Every larger group needs a group of two inside it,
    /// so six stays a bound that is safe, if not the least, for any
    /// `min_enclosed` from 2 on. `no_chain_fits_on_the_smaller_boards` in
    /// `tests/it/syzygy.rs` proves both numbers with the chain oracle.
    pub const fn chainless_men(self) -> u32 {
        if self.min_enclosed <= 1 { 3 } else { 5 }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            switch_rule: SwitchRule::Chain,
            min_enclosed: 2,
        }
    }
}

impl fmt::Display for Rules {
    /// The form of the PGN tag `SSCC`: `SwitchRule=chain;MinEnclosed=2`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "SwitchRule={};MinEnclosed={}",
            self.switch_rule, self.min_enclosed
        )
    }
}
