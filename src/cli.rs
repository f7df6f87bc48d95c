//! What the commands share on the command line: the SSCC rules
//! (`--rule`, `--min-enclosed`) and the game (`--variant`, or `--sscc`),
//! each declared once and flattened into every command that takes it; and
//! how a command fails, which decides its exit status.

use clap::Args;
use clap::builder::{PossibleValuesParser, RangedU64ValueParser, TypedValueParser};

use catena_core::game::{Rules, SwitchRule, Variant};

/// `--min-enclosed N`, checked against `Rules::MIN_ENCLOSED_RANGE`.
#[derive(Args, Debug, Clone, Copy)]
pub struct MinEnclosedArgs {
    #[arg(
        long,
        value_name = "N",
        default_value_t = Rules::default().min_enclosed,
        value_parser = min_enclosed_parser(),
        help = min_enclosed_help(),
    )]
    pub min_enclosed: u32,
}

fn min_enclosed_parser() -> RangedU64ValueParser<u32> {
    let range = Rules::MIN_ENCLOSED_RANGE;
    RangedU64ValueParser::new().range(u64::from(*range.start())..=u64::from(*range.end()))
}

fn min_enclosed_help() -> String {
    let range = Rules::MIN_ENCLOSED_RANGE;
    format!(
        "The smallest group of adjacent empty squares a chain must surround ({} to {})",
        range.start(),
        range.end()
    )
}

/// The SSCC rules: `--rule` and `--min-enclosed`.
#[derive(Args, Debug, Clone, Copy)]
pub struct RulesArgs {
    /// What limits a run of consecutive switches: chain, moves or unlimited (docs/rules.md, section 3).
    #[arg(long, value_name = "R", default_value_t = Rules::default().switch_rule)]
    pub rule: SwitchRule,
    #[command(flatten)]
    pub enclosed: MinEnclosedArgs,
}

impl RulesArgs {
    pub fn rules(&self) -> Rules {
        Rules::new(self.rule, self.enclosed.min_enclosed)
            .expect("--min-enclosed is checked against the range by clap")
    }
}

/// The game: `--variant chess|sscc`, or `--sscc` for `--variant sscc`.
///
/// `--variant` defaults to `sscc`; a command that plays chess by default
/// says so with `#[command(mut_arg("variant", |arg| arg.default_value("chess")))]`.
#[derive(Args, Debug, Clone, Copy)]
pub struct VariantArgs {
    /// The game: chess (nobody switches) or SSCC under --rule and --min-enclosed.
    #[arg(long, value_name = "VARIANT", default_value = "sscc", value_parser = variant_parser())]
    variant: Variant,
    /// The same as --variant sscc.
    #[arg(long, conflicts_with = "variant")]
    sscc: bool,
}

fn variant_parser() -> impl TypedValueParser<Value = Variant> {
    PossibleValuesParser::new(Variant::NAMES)
        .map(|name| name.parse::<Variant>().expect("a possible value"))
}

impl VariantArgs {
    /// The chosen game, SSCC played under `rules`.
    pub fn variant(&self, rules: Rules) -> Variant {
        if self.sscc || self.variant.is_sscc() {
            Variant::Sscc(rules)
        } else {
            Variant::Chess
        }
    }
}

/// Why a command failed: its message and its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Bad input, as clap's own errors: an argument, or a file named on the
    /// command line that cannot be read or created, or what is in it. Status 2.
    Usage(String),
    /// A failure while running: an engine that crashed, a write that failed.
    /// Status 1.
    Runtime(String),
}

impl Failure {
    /// The exit status: 2 for bad input, 1 for a failure at run time.
    pub fn status(&self) -> u8 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Runtime(_) => 1,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Failure::Usage(message) | Failure::Runtime(message) => message,
        }
    }
}

/// Says which kind of failure an error is: `.or_usage()?`, `.or_runtime()?`.
pub trait FailureKind<T> {
    fn or_usage(self) -> Result<T, Failure>;
    fn or_runtime(self) -> Result<T, Failure>;
}

impl<T, E: Into<String>> FailureKind<T> for Result<T, E> {
    fn or_usage(self) -> Result<T, Failure> {
        self.map_err(|error| Failure::Usage(error.into()))
    }

    fn or_runtime(self) -> Result<T, Failure> {
        self.map_err(|error| Failure::Runtime(error.into()))
    }
}
