//! Which game is played: plain chess, or SSCC under some rules.

use std::fmt;
use std::str::FromStr;

use super::Rules;

/// Plain chess, or SSCC under some rules (docs/rules.md, section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Variant {
    #[default]
    Chess,
    Sscc(Rules),
}

impl Variant {
    /// The names `FromStr` reads and `Display` writes.
    pub const NAMES: [&'static str; 2] = ["chess", "sscc"];

    /// The rules of an SSCC game; `None` in chess, where nobody switches.
    pub const fn rules(self) -> Option<Rules> {
        match self {
            Variant::Chess => None,
            Variant::Sscc(rules) => Some(rules),
        }
    }

    pub const fn is_sscc(self) -> bool {
        matches!(self, Variant::Sscc(_))
    }

    /// `chess` or `sscc`, as `UCI_Variant` and `--variant` name them.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Sscc(_) => "sscc",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;

    /// `chess`, or `sscc` under the default rules (any case).
    fn from_str(text: &str) -> Result<Variant, String> {
        if text.eq_ignore_ascii_case("chess") {
            Ok(Variant::Chess)
        } else if text.eq_ignore_ascii_case("sscc") {
            Ok(Variant::Sscc(Rules::default()))
        } else {
            Err(format!("'{text}' is not a variant (chess or sscc)"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SwitchRule;

    #[test]
    fn names_round_trip_and_sscc_keeps_its_rules() {
        for name in Variant::NAMES {
            assert_eq!(name.parse::<Variant>().unwrap().to_string(), name);
        }
        assert_eq!("SSCC".parse(), Ok(Variant::Sscc(Rules::default())));
        assert!("shogi".parse::<Variant>().is_err());
        let rules = Rules::new(SwitchRule::Moves, 3).unwrap();
        assert_eq!(Variant::Sscc(rules).rules(), Some(rules));
        assert_eq!(Variant::Chess.rules(), None);
    }
}
