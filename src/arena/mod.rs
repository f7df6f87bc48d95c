//! `catena match`: engine against engine, SSCC or chess, refereed by Catena in
//! the manner of cutechess-cli (no chess GUI can switch sides).
//!
//! The arbiter (`arbiter.rs`) owns the rules; engines (`engine.rs`) are child
//! processes spoken to with deadlines, so that a crash, a hang or garbage costs
//! the engine that game and nothing else; the match (`tournament.rs`) shares the
//! games among threads and writes each to the PGN as it ends.
//!
//! Engines come from an engine list or from the command line (`--engine
//! KEY=VALUE…`, `engine_fields.rs`); a command line written for fastchess is
//! rewritten into these options first (`fastchess.rs`), and `--output
//! fastchess` prints what fastchess prints (`fastchess_output.rs`).

mod adjudication;
mod arbiter;
mod engine;
mod engine_fields;
mod engine_list;
pub mod fastchess;
mod fastchess_output;
mod live;
mod openings;
mod standings;
mod stats;
mod tablebase;
mod time_control;
mod tournament;

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use crate::cli::{Failure, FailureKind, RulesArgs, VariantArgs};

pub use adjudication::{Adjudication, DrawRule, ResignRule};
pub use arbiter::{
    Ending, GameSettings, Offence, Played, color_of, go_command, position_command, read_bestmove,
};
pub use engine::{EngineProcess, EngineSlot};
pub use engine_fields::{EngineField, EngineLimits, InlineEngines};
pub use engine_list::EngineSpec;
pub use openings::{Opening, OpeningsFormat, OpeningsOrder, load as load_openings};
pub use standings::{Forfeits, MatchSettings, OutputFormat, Standings};
pub use stats::{Pentanomial, Sprt, SprtState, Tally};
pub use tablebase::{TablebaseRule, TbResults};
pub use time_control::{Clock, Clocks, TimeControl};
pub use tournament::today;

use catena_core::game::Rules;

/// The engine list at the top of the repository this binary was built from.
const DEFAULT_ENGINES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engines.json");
/// The time control without `--tc`.
const DEFAULT_TC: &str = "5+0.05";
/// Milliseconds past zero without `--timemargin`.
const DEFAULT_TIME_MARGIN: u64 = 50;

/// Play a match between two engines of an engine list (Cute Chess's engines.json format).
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The two engines, by name (default: the list's first two).
    #[arg(value_name = "NAME", num_args = 0..=2)]
    names: Vec<String>,
    /// The engine list [default: engines.json at the top of the repository].
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    #[command(flatten)]
    engine: InlineEngines,
    /// Words for both engines, as --engine takes them, applied after each engine's own.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<EngineField>,
    /// Games to play [default: 2].
    #[arg(long, value_name = "N", conflicts_with = "rounds", value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// Rounds to play, each an opening with either engine White: 2 games a round.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    rounds: Option<u32>,
    /// Time control, as cutechess-cli writes it: 40/60+0.6, 10+0.1, st=0.5 [default: 5+0.05].
    #[arg(long, value_name = "SPEC")]
    tc: Option<TimeControl>,
    /// Games played at once, each by its own pair of engine processes.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// Openings, EPD (one position a line) or PGN (.pgn); each is played twice, colours reversed.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// How the openings file is written [default: PGN if it ends in .pgn, else EPD].
    #[arg(long, value_enum, value_name = "FORMAT", requires = "openings")]
    openings_format: Option<OpeningsFormat>,
    /// The order the openings are played in; random is fixed by --srand.
    #[arg(long, value_enum, value_name = "ORDER", default_value = "sequential")]
    openings_order: OpeningsOrder,
    /// Start with this opening of the sequence (1 is the first).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    openings_start: u32,
    /// Play at most this many plies of each PGN opening.
    #[arg(long, value_name = "N")]
    openings_plies: Option<u32>,
    /// The seed of --openings-order random: the same seed, the same order.
    #[arg(long, value_name = "N", default_value_t = 1)]
    srand: u64,
    /// Append each finished game to this PGN file [default: print the games].
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Empty the PGN file first instead of appending to it.
    #[arg(long, requires = "pgn")]
    pgn_overwrite: bool,
    /// What to print: Catena's cutechess-like lines and table, or fastchess's lines and results.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "cutechess")]
    output: OutputFormat,
    /// With --output fastchess, a results block every N pairs of games (0: only at the end).
    #[arg(long, value_name = "N", default_value_t = 10)]
    rating_interval: u32,
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    rules: RulesArgs,
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
    /// Tablebase adjudication: a game reaching a position the Syzygy tables
    /// in these folders hold ends with their result (separated as SyzygyPath).
    #[arg(long, value_name = "PATH")]
    tb: Option<String>,
    /// Judge by the tables only positions of at most N men [default: the largest tables'].
    #[arg(long, value_name = "N", requires = "tb", value_parser = clap::value_parser!(u32).range(3..))]
    tb_pieces: Option<u32>,
    /// Judge by the tables without the fifty-move rule: cursed wins win.
    #[arg(long, requires = "tb")]
    tb_ignore_50: bool,
    /// Which of the tables' results end a game.
    #[arg(
        long,
        value_enum,
        value_name = "RESULTS",
        default_value = "both",
        requires = "tb"
    )]
    tb_adjudicate: TbResults,
    /// Milliseconds a clock may run past zero before the flag falls [default: 50].
    #[arg(long, value_name = "MS")]
    timemargin: Option<u64>,
    /// Keep the match in this JSON file as it goes, move by move, for
    /// `catena gui` to follow.
    #[arg(long, value_name = "FILE")]
    live: Option<PathBuf>,
    /// The PGN tag Event.
    #[arg(long, default_value = "Catena match")]
    event: String,
    /// The PGN tag Site.
    #[arg(long, default_value = "?")]
    site: String,
}

/// Runs `catena match`: what the arguments name is checked first (bad
/// input), then the match is played (a failure at run time).
pub fn run(args: &MatchArgs) -> Result<bool, Failure> {
    let settings = settings(args).or_usage()?;
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
    let [(first, first_limits), (second, second_limits)] = engines(args)?;
    let names = [first.name.as_str(), second.name.as_str()];
    let time_control = agreed(
        "time control",
        ("--tc", args.tc),
        names,
        [first_limits.time_control, second_limits.time_control],
    )?
    .map_or_else(|| DEFAULT_TC.parse(), Ok)?;
    let time_margin = agreed(
        "time margin",
        ("--timemargin", args.timemargin),
        names,
        [first_limits.time_margin, second_limits.time_margin],
    )?
    .unwrap_or(DEFAULT_TIME_MARGIN);
    let rules = args.rules.rules();
    let variant = args.variant.variant(rules);
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
        engines: [first, second],
        games,
        openings: openings(args, rules)?,
        game: GameSettings {
            variant,
            time_control,
            time_margin: Duration::from_millis(time_margin),
            adjudication,
            tablebase: args
                .tb
                .as_deref()
                .map(|path| {
                    TablebaseRule::open(path, args.tb_pieces, args.tb_ignore_50, args.tb_adjudicate)
                })
                .transpose()?,
        },
        concurrency: args.concurrency as usize,
        print_games: args.pgn.is_none() && args.output == OutputFormat::Cutechess,
        pgn: args.pgn.clone(),
        pgn_append: !args.pgn_overwrite,
        sprt,
        event: args.event.clone(),
        site: args.site.clone(),
        restart: [first_limits.restart, second_limits.restart],
        output: args.output,
        rating_interval: args.rating_interval,
        book: args.openings.as_ref().map(|path| {
            path.file_name()
                .unwrap_or(path.as_os_str())
                .to_string_lossy()
                .into_owned()
        }),
        live: args.live.clone(),
    })
}

/// The two engines, from the command line or from the list, `--each` applied.
fn engines(args: &MatchArgs) -> Result<[(EngineSpec, EngineLimits); 2], String> {
    let pair = if args.engine.0.is_empty() {
        let [first, second] = listed_engines(args)?;
        [
            engine_fields::with_each(first, &args.each)?,
            engine_fields::with_each(second, &args.each)?,
        ]
    } else {
        let [first, second] = &args.engine.0[..] else {
            return Err(format!(
                "--engine: give two engines, not {}",
                args.engine.0.len()
            ));
        };
        [
            engine_fields::inline_engine(first, &args.each)?,
            engine_fields::inline_engine(second, &args.each)?,
        ]
    };
    if pair[0].0.name == pair[1].0.name {
        return Err(format!(
            "both engines are called '{}': give them different names",
            pair[0].0.name
        ));
    }
    Ok(pair)
}

/// The two engines of the list the NAMEs pick.
fn listed_engines(args: &MatchArgs) -> Result<[EngineSpec; 2], String> {
    let (engines_path, list) = engine_list(args.engines.as_deref())?;
    let pick = |name: &str| engine_named(&list, &engines_path, name);
    Ok(match &args.names[..] {
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
    })
}

/// The one value of a setting the match and both engines may each give:
/// they must agree, as Catena plays both engines under one clock.
fn agreed<T: Copy + PartialEq + Display>(
    what: &str,
    (option, given): (&str, Option<T>),
    names: [&str; 2],
    per_engine: [Option<T>; 2],
) -> Result<Option<T>, String> {
    let sources: Vec<(&str, T)> = [
        (option, given),
        (names[0], per_engine[0]),
        (names[1], per_engine[1]),
    ]
    .into_iter()
    .filter_map(|(source, value)| Some((source, value?)))
    .collect();
    match sources.first() {
        Some(&(_, value)) if sources.iter().any(|&(_, other)| other != value) => {
            let listed: Vec<String> = sources
                .iter()
                .map(|(source, value)| format!("{source}: {value}"))
                .collect();
            Err(format!(
                "the {what}s differ ({}): catena match gives both engines one {what}",
                listed.join(", ")
            ))
        }
        first => Ok(first.map(|&(_, value)| value)),
    }
}

/// The openings in the order they are played: the file's, shuffled or not,
/// from the chosen start; without a file, the start position.
fn openings(args: &MatchArgs, rules: Rules) -> Result<Vec<Opening>, String> {
    let Some(path) = &args.openings else {
        return Ok(vec![Opening::startpos()]);
    };
    let mut openings = openings::load(path, rules, args.openings_format)?;
    if let Some(plies) = args.openings_plies {
        openings::truncate(&mut openings, plies as usize);
    }
    if args.openings_order == OpeningsOrder::Random {
        openings::shuffle(&mut openings, args.srand);
    }
    openings::start_at(&mut openings, args.openings_start as usize);
    Ok(openings)
}
