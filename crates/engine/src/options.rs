//! The UCI options, in one table: each option's name, kind, default, range
//! and what setting it does. `uci` prints the table, `setoption` is checked
//! against it, the defaults come from it, and a test holds the README's
//! table of options to it.

use catena_core::game::{Rules, SwitchRule, Variant};

/// Which option a row of [`OPTIONS`] is, for the code that acts on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    Hash,
    Threads,
    MoveOverhead,
    MultiPv,
    Ponder,
    ClearHash,
    ShowWdl,
    Variant,
    SwitchRule,
    MinEnclosed,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    SyzygyProbeLimit,
}

/// An option's kind, with its default and what values it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    Button,
    /// Any text, such as a path.
    Text {
        default: &'static str,
    },
}

/// One UCI option.
#[derive(Clone, Copy, Debug)]
pub struct UciOption {
    pub id: Id,
    /// As `uci` prints it; `setoption` reads it in any case.
    pub name: &'static str,
    pub kind: Kind,
    /// What setting it does, as the README's table says.
    pub meaning: &'static str,
}

/// A value of an option, checked against its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Spin(i64),
    Check(bool),
    /// One of the option's choices, as the table writes it.
    Combo(&'static str),
    Button,
    Text(String),
}

const fn spin(
    id: Id,
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
    meaning: &'static str,
) -> UciOption {
    UciOption {
        id,
        name,
        kind: Kind::Spin { default, min, max },
        meaning,
    }
}

/// Every option, in the order `uci` prints them.
pub const OPTIONS: [UciOption; 14] = [
    spin(
        Id::Hash,
        "Hash",
        16,
        1,
        8192,
        "transposition table size in MB",
    ),
    spin(
        Id::Threads,
        "Threads",
        1,
        1,
        256,
        "search threads (Lazy SMP)",
    ),
    spin(
        Id::MoveOverhead,
        "Move Overhead",
        10,
        0,
        5000,
        "milliseconds kept back for the GUI and the pipe",
    ),
    spin(Id::MultiPv, "MultiPV", 1, 1, 256, "best lines to report"),
    UciOption {
        id: Id::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
        meaning: "think on the opponent's time (`go ponder`, `ponderhit`)",
    },
    UciOption {
        id: Id::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
        meaning: "empty the transposition table",
    },
    UciOption {
        id: Id::ShowWdl,
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
        meaning: "add `wdl W D L` (per mille) to each line, from a model fitted to Catena's games",
    },
    UciOption {
        id: Id::Variant,
        name: "UCI_Variant",
        kind: Kind::Combo {
            default: "chess",
            choices: &Variant::NAMES,
        },
        meaning: "`chess` never switches; `sscc` plays the SSCC game tree",
    },
    UciOption {
        id: Id::SwitchRule,
        name: "SwitchRule",
        kind: Kind::Combo {
            default: SwitchRule::Chain.name(),
            choices: &SwitchRule::NAMES,
        },
        meaning: "what limits a run of switches ([docs/rules.md](docs/rules.md))",
    },
    spin(
        Id::MinEnclosed,
        "MinEnclosed",
        2,
        *Rules::MIN_ENCLOSED_RANGE.start() as i64,
        *Rules::MIN_ENCLOSED_RANGE.end() as i64,
        "the smallest group of empty squares a chain must surround",
    ),
    UciOption {
        id: Id::SyzygyPath,
        name: "SyzygyPath",
        kind: Kind::Text { default: "<empty>" },
        meaning: "folders of Syzygy tablebases, separated by `:` (`;` on Windows) ([docs/syzygy.md](docs/syzygy.md))",
    },
    spin(
        Id::SyzygyProbeDepth,
        "SyzygyProbeDepth",
        1,
        1,
        100,
        "the least depth at which the search probes positions with `SyzygyProbeLimit` men",
    ),
    UciOption {
        id: Id::Syzygy50MoveRule,
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
        meaning: "wins and losses that the fifty-move rule spoils count as draws",
    },
    spin(
        Id::SyzygyProbeLimit,
        "SyzygyProbeLimit",
        7,
        0,
        7,
        "the most men a probed position has; 0 probes none",
    ),
];

impl Kind {
    pub fn default_value(self) -> Value {
        match self {
            Kind::Spin { default, .. } => Value::Spin(default),
            Kind::Check { default } => Value::Check(default),
            Kind::Combo { default, .. } => Value::Combo(default),
            Kind::Button => Value::Button,
            Kind::Text { default } => Value::Text(default.to_string()),
        }
    }
}

impl UciOption {
    /// The option named `name`, in any case.
    pub fn find(name: &str) -> Result<&'static UciOption, String> {
        OPTIONS
            .iter()
            .find(|option| option.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("no such option '{name}'"))
    }

    /// The row of `id`.
    pub fn of(id: Id) -> &'static UciOption {
        OPTIONS
            .iter()
            .find(|option| option.id == id)
            .expect("every id has a row")
    }

    /// `text` read as a value of this option, or why it is none.
    pub fn parse(&self, text: Option<&str>) -> Result<Value, String> {
        let name = self.name;
        let text = text.unwrap_or_default().trim();
        match self.kind {
            Kind::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(number) if (min..=max).contains(&number) => Ok(Value::Spin(number)),
                _ => Err(format!(
                    "option {name} needs a number from {min} to {max}, not '{text}'"
                )),
            },
            Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Check(true)),
                "false" => Ok(Value::Check(false)),
                _ => Err(format!("option {name} needs true or false, not '{text}'")),
            },
            Kind::Combo { choices, .. } => choices
                .iter()
                .find(|choice| choice.eq_ignore_ascii_case(text))
                .map(|&choice| Value::Combo(choice))
                .ok_or_else(|| format!("option {name} is {}, not '{text}'", choices.join(" or "))),
            Kind::Button => Ok(Value::Button),
            Kind::Text { .. } => Ok(Value::Text(text.to_string())),
        }
    }

    /// The option as the README's table writes it: `| name | kind | default | meaning |`.
    pub fn readme_row(&self) -> String {
        let (kind, default) = match self.kind {
            Kind::Spin { default, min, max } => {
                (format!("spin {min} to {max}"), default.to_string())
            }
            Kind::Check { default } => ("check".to_string(), default.to_string()),
            Kind::Combo { default, choices } => {
                let choices: Vec<String> =
                    choices.iter().map(|choice| format!("`{choice}`")).collect();
                (
                    format!("combo {}", choices.join(", ")),
                    format!("`{default}`"),
                )
            }
            Kind::Button => ("button".to_string(), String::new()),
            Kind::Text { default } => ("string".to_string(), format!("`{default}`")),
        };
        let name = format!("`{}`", self.name);
        let cells = [name.as_str(), &kind, &default, self.meaning];
        // An empty cell is written `| |`, as the README has it.
        format!("| {} |", cells.join(" | ")).replace("|  |", "| |")
    }
}

/// The engine's options, as `setoption` leaves them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead: u64,
    pub multipv: usize,
    pub ponder: bool,
    pub show_wdl: bool,
    /// `UCI_Variant`: kept apart from the rules, which may be set before or after it.
    pub sscc: bool,
    pub rules: Rules,
    /// `SyzygyPath` as set; the engine opens the tables.
    pub syzygy_path: String,
    pub syzygy_probe_depth: i32,
    pub syzygy_rule50: bool,
    pub syzygy_probe_limit: u32,
}

impl Default for Options {
    /// Every option at its table's default.
    fn default() -> Options {
        let mut options = Options {
            hash_mb: 0,
            threads: 0,
            move_overhead: 0,
            multipv: 0,
            ponder: false,
            show_wdl: false,
            sscc: false,
            rules: Rules::default(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_rule50: false,
            syzygy_probe_limit: 0,
        };
        for option in &OPTIONS {
            options.set(option.id, option.kind.default_value());
        }
        options
    }
}

impl Options {
    /// Keeps `value` of the option `id`, as [`UciOption::parse`] checked it.
    /// What setting an option does beyond what it keeps (a new table, a
    /// cleared one) is the engine's.
    pub fn set(&mut self, id: Id, value: Value) {
        let count = |value: &Value| match value {
            Value::Spin(number) => *number,
            other => unreachable!("{id:?} is a spin, not {other:?}"),
        };
        let on = |value: &Value| matches!(value, Value::Check(true));
        match id {
            Id::Hash => self.hash_mb = count(&value) as usize,
            Id::Threads => self.threads = count(&value) as usize,
            Id::MoveOverhead => self.move_overhead = count(&value) as u64,
            Id::MultiPv => self.multipv = count(&value) as usize,
            Id::Ponder => self.ponder = on(&value),
            Id::ShowWdl => self.show_wdl = on(&value),
            Id::ClearHash => {}
            Id::Variant => self.sscc = value == Value::Combo("sscc"),
            Id::SwitchRule => {
                if let Value::Combo(name) = value
                    && let Ok(rule) = name.parse()
                {
                    self.rules.switch_rule = rule;
                }
            }
            Id::MinEnclosed => self.rules.min_enclosed = count(&value) as u32,
            Id::SyzygyPath => {
                if let Value::Text(path) = value {
                    self.syzygy_path = path;
                }
            }
            Id::SyzygyProbeDepth => self.syzygy_probe_depth = count(&value) as i32,
            Id::Syzygy50MoveRule => self.syzygy_rule50 = on(&value),
            Id::SyzygyProbeLimit => self.syzygy_probe_limit = count(&value) as u32,
        }
    }

    /// The game the options say: chess, or SSCC under the rules set.
    pub fn variant(&self) -> Variant {
        if self.sscc {
            Variant::Sscc(self.rules)
        } else {
            Variant::Chess
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_reads_back_and_every_id_has_one_row() {
        for option in &OPTIONS {
            let default = option.kind.default_value();
            let text = match &default {
                Value::Spin(number) => number.to_string(),
                Value::Check(on) => on.to_string(),
                Value::Combo(choice) => choice.to_string(),
                Value::Button => String::new(),
                Value::Text(text) => text.clone(),
            };
            assert_eq!(option.parse(Some(&text)), Ok(default), "{}", option.name);
            assert_eq!(UciOption::of(option.id).name, option.name);
            assert_eq!(
                UciOption::find(&option.name.to_uppercase()).unwrap().id,
                option.id
            );
        }
        assert_eq!(Options::default().variant(), Variant::Chess);
        assert_eq!(Options::default().rules, Rules::default());
    }

    #[test]
    fn values_outside_an_option_are_refused() {
        let hash = UciOption::of(Id::Hash);
        assert!(hash.parse(Some("0")).is_err());
        assert!(hash.parse(Some("8193")).is_err());
        assert!(hash.parse(Some("lots")).is_err());
        assert!(UciOption::of(Id::Ponder).parse(Some("yes")).is_err());
        assert!(UciOption::of(Id::Variant).parse(Some("shogi")).is_err());
        assert_eq!(
            UciOption::of(Id::SwitchRule).parse(Some("MOVES")),
            Ok(Value::Combo("moves"))
        );
        assert!(UciOption::find("Contempt").is_err());
    }
}
