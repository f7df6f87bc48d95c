//! `catena match`: engine against engine, SSCC or chess, refereed by Catena in
//! the manner of cutechess-cli (no chess GUI can switch sides).
//!
//! The arbiter (`arbiter.rs`) owns the rules; engines (`engine.rs`) are child
//! processes spoken to with deadlines, so that a crash, a hang or garbage costs
//! the engine that game and nothing else; the match (`tournament.rs`) shares the
//! games among threads and writes each to the PGN as it ends.

mod adjudication;
mod arbiter;
mod engine;
mod engine_list;
mod openings;
mod stats;
mod time_control;
mod tournament;

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};

pub use adjudication::{Adjudication, DrawRule, ResignRule};
pub use arbiter::{
    Ending, GameSettings, Offence, Played, color_of, go_command, position_command, read_bestmove,
};
pub use engine::{Engine, EngineSlot};
pub use engine_list::EngineSpec;
pub use openings::Opening;
pub use stats::{Sprt, SprtState, Tally};
pub use time_control::{Clock, Clocks, TimeControl};
pub use tournament::{Forfeits, MatchSettings, Standings};

use crate::game::{Rules, SwitchRule};
use crate::search::Variant;

/// The engine list at the top of the repository this binary was built from.
const DEFAULT_ENGINES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engines.json");

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantName {
    Sscc,
    Chess,
}

/// Play a match between two engines of an engine list (Cute Chess's engines.json format).
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The two engines, by name (default: the list's first two).
    #[arg(value_name = "NAME", num_args = 0..=2)]
    names: Vec<String>,
    /// The engine list [default: engines.json at the top of the repository].
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Games to play [default: 2].
    #[arg(long, value_name = "N", conflicts_with = "rounds", value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// Rounds to play, each an opening with either engine White: 2 games a round.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    rounds: Option<u32>,
    /// Time control, as cutechess-cli writes it: 40/60+0.6, 10+0.1, st=0.5.
    #[arg(long, value_name = "SPEC", default_value = "5+0.05")]
    tc: TimeControl,
    /// Games played at once, each by its own pair of engine processes.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// Openings, EPD (one position a line) or PGN (.pgn); each is played twice, colours reversed.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Append each finished game to this PGN file [default: print the games].
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// SSCC, or chess (every switch refused, no SSCC tags).
    #[arg(long, value_enum, default_value = "sscc")]
    variant: VariantName,
    /// The SSCC switch rule (spec section 3).
    #[arg(long, value_name = "R", default_value = "chain")]
    rule: SwitchRule,
    /// The smallest group of empty squares a chain must surround.
    #[arg(long, value_name = "N", default_value_t = 2)]
    min_enclosed: u32,
    /// Stop when a sequential probability ratio test decides: elo0=A elo1=B [alpha=X beta=Y].
    #[arg(long, value_name = "KEY=VALUE", num_args = 2..=4)]
    sprt: Vec<String>,
    /// Resign adjudication: movecount=N score=CP [twosided=true].
    #[arg(long, value_name = "KEY=VALUE", num_args = 2..=3)]
    resign: Vec<String>,
    /// Draw adjudication: movenumber=N movecount=M score=CP.
    #[arg(long, value_name = "KEY=VALUE", num_args = 3)]
    draw: Vec<String>,
    /// Draw a game when it reaches this many moves.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_moves: Option<u32>,
    /// Milliseconds a clock may run past zero before the flag falls.
    #[arg(long, value_name = "MS", default_value_t = 50)]
    timemargin: u64,
    /// The PGN tag Event.
    #[arg(long, default_value = "Catena match")]
    event: String,
}

/// Runs `catena match`.
pub fn run(args: &MatchArgs) -> Result<bool, String> {
    let settings = settings(args)?;
    tournament::run(&settings)?;
    Ok(true)
}

/// The engine list at `path`, by default the one at the top of the repository, and its path.
pub fn engine_list(path: Option<&Path>) -> Result<(PathBuf, Vec<EngineSpec>), String> {
    let path = path.map_or_else(|| PathBuf::from(DEFAULT_ENGINES), Path::to_path_buf);
    let list = engine_list::load(&path)?;
    Ok((path, list))
}

/// The entry of `list` (read from `path`) called `name`.
pub fn engine_named(list: &[EngineSpec], path: &Path, name: &str) -> Result<EngineSpec, String> {
    list.iter()
        .find(|spec| spec.name == name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = list.iter().map(|spec| spec.name.as_str()).collect();
            format!(
                "no engine '{name}' in {} (it has: {})",
                path.display(),
                names.join(", ")
            )
        })
}

/// The match the arguments describe, every file read and every value checked.
pub fn settings(args: &MatchArgs) -> Result<MatchSettings, String> {
    let (engines_path, list) = engine_list(args.engines.as_deref())?;
    let pick = |name: &str| engine_named(&list, &engines_path, name);
    let engines = match &args.names[..] {
        [] if list.len() >= 2 => [list[0].clone(), list[1].clone()],
        [] => {
            return Err(format!(
                "{} lists fewer than two engines: name them",
                engines_path.display()
            ));
        }
        [first] => {
            let second = list.iter().find(|spec| spec.name != *first).cloned();
            [pick(first)?, second.ok_or("name the second engine")?]
        }
        [first, second, ..] => [pick(first)?, pick(second)?],
    };
    let rules = Rules::new(args.rule, args.min_enclosed)?;
    let variant = match args.variant {
        VariantName::Sscc => Variant::Sscc(rules),
        VariantName::Chess => Variant::Chess,
    };
    let openings = match &args.openings {
        Some(path) => openings::load(path, rules)?,
        None => vec![Opening::startpos()],
    };
    let adjudication = Adjudication {
        resign: (!args.resign.is_empty())
            .then(|| ResignRule::parse(&args.resign))
            .transpose()?,
        draw: (!args.draw.is_empty())
            .then(|| DrawRule::parse(&args.draw))
            .transpose()?,
        max_moves: args.max_moves,
    };
    let sprt = (!args.sprt.is_empty())
        .then(|| Sprt::parse(&args.sprt))
        .transpose()?;
    let games = match (args.games, args.rounds) {
        (Some(games), _) => games,
        (None, Some(rounds)) => rounds.saturating_mul(2),
        (None, None) => 2,
    };
    Ok(MatchSettings {
        engines,
        games,
        openings,
        game: GameSettings {
            variant,
            time_control: args.tc,
            time_margin: Duration::from_millis(args.timemargin),
            adjudication,
        },
        concurrency: args.concurrency as usize,
        print_games: args.pgn.is_none(),
        pgn: args.pgn.clone(),
        sprt,
        event: args.event.clone(),
    })
}
