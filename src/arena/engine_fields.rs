//! Engines described on the command line rather than in an engine list, by
//! fastchess's `KEY=VALUE` words: `--engine cmd=./sf name=SF option.Hash=64
//! depth=8`, and `--each KEY=VALUE…` for what both engines share.
//!
//! Keys: `cmd` (the program, a path taken as it is), `name` (default: the
//! program's file name), `dir` (working directory, default the current one),
//! `args` (arguments, split at white space, double quotes grouping), `proto`
//! (`uci` only), `option.NAME` (a UCI option), `tc` and `st` (the time control;
//! Catena plays one for both engines), `timemargin` (ms), `nodes`, `depth` or
//! `plies`, and `restart` (`on`: a fresh process for every game). As in
//! fastchess, `--each` is applied after each engine's own words.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use clap::{Arg, ArgAction, ArgMatches, Command};

use super::engine_list::{self, EngineSpec};
use super::time_control::TimeControl;

/// The option's name and id.
const ENGINE_ARG: &str = "engine";

/// The keys, as error messages list them.
const KEYS: &str =
    "cmd, name, dir, args, proto, option.NAME, tc, st, timemargin, nodes, depth, plies, restart";

/// One `KEY=VALUE` word of `--engine` or `--each`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineField {
    /// `cmd=`: the program.
    Command(String),
    Name(String),
    /// `dir=`: the working directory.
    Directory(PathBuf),
    /// `args=`: the program's arguments.
    Arguments(Vec<String>),
    /// `proto=uci`, the only protocol.
    Protocol,
    /// `option.NAME=VALUE`: sent as `setoption`.
    UciOption(String, String),
    /// `tc=` or `st=`.
    TimeControl(TimeControl),
    /// `timemargin=MS`.
    TimeMargin(u64),
    Nodes(u64),
    /// `depth=` or `plies=`.
    Depth(u32),
    /// `restart=on|off`.
    Restart(bool),
}

impl FromStr for EngineField {
    type Err = String;

    fn from_str(word: &str) -> Result<EngineField, String> {
        let (key, value) = word
            .split_once('=')
            .filter(|(key, _)| !key.is_empty())
            .ok_or_else(|| format!("'{word}' is not KEY=VALUE ({KEYS})"))?;
        if let Some(option) = key.strip_prefix("option.") {
            if option.is_empty() {
                return Err(format!("'{word}': option. needs a name"));
            }
            return Ok(EngineField::UciOption(
                option.to_string(),
                value.to_string(),
            ));
        }
        let number = |what: &str| format!("{key}={value}: {what}");
        Ok(match key {
            "cmd" if value.is_empty() => return Err("cmd= needs a program".to_string()),
            "cmd" => EngineField::Command(value.to_string()),
            "name" if value.is_empty() => return Err("name= needs a name".to_string()),
            "name" => EngineField::Name(value.to_string()),
            "dir" => EngineField::Directory(PathBuf::from(value)),
            "args" => EngineField::Arguments(engine_list::split_command(value)?),
            "proto" if value == "uci" => EngineField::Protocol,
            "proto" => return Err(format!("proto={value}: only uci is supported")),
            "tc" => EngineField::TimeControl(value.parse()?),
            "st" => EngineField::TimeControl(format!("st={value}").parse()?),
            "timemargin" => EngineField::TimeMargin(
                value
                    .parse()
                    .map_err(|_| number("not a number of milliseconds"))?,
            ),
            "nodes" => EngineField::Nodes(
                value
                    .parse()
                    .ok()
                    .filter(|&nodes| nodes > 0)
                    .ok_or_else(|| number("not a node count above zero"))?,
            ),
            "depth" | "plies" => EngineField::Depth(
                value
                    .parse()
                    .ok()
                    .filter(|&depth| depth > 0)
                    .ok_or_else(|| number("not a depth above zero"))?,
            ),
            "restart" => EngineField::Restart(match value {
                "on" => true,
                "off" => false,
                _ => return Err(number("restart is on or off")),
            }),
            _ => return Err(format!("unknown key '{key}' ({KEYS})")),
        })
    }
}

/// The engines of the `--engine` options, each occurrence one engine's words.
/// Written out rather than derived: clap's derive would run the words of
/// both occurrences together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InlineEngines(pub Vec<Vec<EngineField>>);

impl clap::FromArgMatches for InlineEngines {
    fn from_arg_matches(matches: &ArgMatches) -> Result<InlineEngines, clap::Error> {
        let engines = matches
            .get_occurrences::<EngineField>(ENGINE_ARG)
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(InlineEngines(engines))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = InlineEngines::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for InlineEngines {
    fn augment_args(command: Command) -> Command {
        command.arg(
            Arg::new(ENGINE_ARG)
                .long(ENGINE_ARG)
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .value_parser(clap::value_parser!(EngineField))
                .conflicts_with_all(["names", "engines"])
                .help(
                    "An engine given here instead of by list, twice: cmd=PROGRAM [name=NAME] \
                     [dir=DIR] [args=\"A B\"] [option.NAME=VALUE] [tc=SPEC] [st=S] [depth=N] \
                     [nodes=N] [timemargin=MS] [restart=on]",
                ),
        )
    }

    fn augment_args_for_update(command: Command) -> Command {
        InlineEngines::augment_args(command)
    }
}

/// What an engine's words say about the match rather than about the engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    pub time_control: Option<TimeControl>,
    pub time_margin: Option<u64>,
    /// A fresh process for every game.
    pub restart: bool,
}

/// The engine `own` describes, with `each` applied after its words.
pub fn inline_engine(
    own: &[EngineField],
    each: &[EngineField],
) -> Result<(EngineSpec, EngineLimits), String> {
    let (mut command, mut name, mut directory, mut args) = (None, None, None, Vec::new());
    for field in own.iter().chain(each) {
        match field {
            EngineField::Command(text) => command = Some(text.as_str()),
            EngineField::Name(text) => name = Some(text.clone()),
            EngineField::Directory(path) => directory = Some(path.clone()),
            EngineField::Arguments(words) => args = words.clone(),
            _ => {}
        }
    }
    let command = command.ok_or("--engine needs cmd=PROGRAM")?;
    let working_directory = directory.unwrap_or_else(|| PathBuf::from("."));
    let name = name.unwrap_or_else(|| default_name(command));
    let mut spec = EngineSpec {
        program: engine_list::resolve_program(command, &working_directory),
        name,
        args,
        working_directory,
        options: Vec::new(),
        init_strings: Vec::new(),
        stderr_file: None,
        depth: None,
        nodes: None,
    };
    let limits = overlay(&mut spec, own.iter().chain(each));
    Ok((spec, limits))
}

/// An engine of a list with `each` applied: it may set limits and options,
/// but the list says what the engine is.
pub fn with_each(
    mut spec: EngineSpec,
    each: &[EngineField],
) -> Result<(EngineSpec, EngineLimits), String> {
    if let Some(field) = each.iter().find(|field| is_identity(field)) {
        return Err(format!(
            "--each {}: an engine of a list keeps its command, name and directory (describe both engines with --engine instead)",
            key_of(field)
        ));
    }
    let limits = overlay(&mut spec, each.iter());
    Ok((spec, limits))
}

/// The program's file name, as fastchess names an engine given no name.
fn default_name(command: &str) -> String {
    Path::new(command).file_name().map_or_else(
        || command.to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

fn is_identity(field: &EngineField) -> bool {
    matches!(
        field,
        EngineField::Command(_)
            | EngineField::Name(_)
            | EngineField::Directory(_)
            | EngineField::Arguments(_)
    )
}

fn key_of(field: &EngineField) -> &'static str {
    match field {
        EngineField::Command(_) => "cmd",
        EngineField::Name(_) => "name",
        EngineField::Directory(_) => "dir",
        EngineField::Arguments(_) => "args",
        _ => "KEY",
    }
}

/// Applies the words that are not about what the engine is, in order: a
/// later option of the same name replaces an earlier one.
fn overlay<'a>(
    spec: &mut EngineSpec,
    fields: impl Iterator<Item = &'a EngineField>,
) -> EngineLimits {
    let mut limits = EngineLimits::default();
    for field in fields {
        match field {
            EngineField::UciOption(name, value) => {
                spec.options.retain(|(set, _)| set != name);
                spec.options.push((name.clone(), value.clone()));
            }
            EngineField::TimeControl(control) => limits.time_control = Some(*control),
            EngineField::TimeMargin(margin) => limits.time_margin = Some(*margin),
            EngineField::Nodes(nodes) => spec.nodes = Some(*nodes),
            EngineField::Depth(depth) => spec.depth = Some(*depth),
            EngineField::Restart(restart) => limits.restart = *restart,
            EngineField::Command(_)
            | EngineField::Name(_)
            | EngineField::Directory(_)
            | EngineField::Arguments(_)
            | EngineField::Protocol => {}
        }
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn fields(text: &str) -> Vec<EngineField> {
        text.split_whitespace()
            .map(|word| word.parse().unwrap())
            .collect()
    }

    #[test]
    fn reads_fastchess_engine_words() {
        assert_eq!(
            "option.Move Overhead=10".parse::<EngineField>(),
            Ok(EngineField::UciOption(
                "Move Overhead".to_string(),
                "10".to_string()
            ))
        );
        assert_eq!(
            "args=--uci \"a b\"".parse::<EngineField>(),
            Ok(EngineField::Arguments(vec![
                "--uci".to_string(),
                "a b".to_string()
            ]))
        );
        assert_eq!(
            "st=0.5".parse::<EngineField>(),
            Ok(EngineField::TimeControl(TimeControl::PerMove(
                Duration::from_millis(500)
            )))
        );
        assert_eq!("plies=7".parse(), Ok(EngineField::Depth(7)));
        for (word, expected) in [
            ("ponder=true", "unknown key 'ponder'"),
            ("cmd", "not KEY=VALUE"),
            ("proto=xboard", "only uci"),
            ("depth=0", "depth above zero"),
            ("restart=auto", "on or off"),
            ("tc=fast", "time control 'fast'"),
            ("option.=1", "needs a name"),
        ] {
            let error = word.parse::<EngineField>().unwrap_err();
            assert!(error.contains(expected), "{word}: {error}");
        }
    }

    #[test]
    fn builds_an_inline_engine_with_each_applied_last() {
        let own = fields("cmd=engines/sf name=SF dir=/opt option.Hash=16 depth=3 tc=10+0.1");
        let each = fields("option.Hash=64 option.Threads=1 nodes=500 restart=on");
        let (spec, limits) = inline_engine(&own, &each).unwrap();
        assert_eq!(spec.name, "SF");
        assert_eq!(spec.program, Path::new("/opt/engines/sf"));
        assert_eq!(spec.working_directory, Path::new("/opt"));
        assert_eq!(
            spec.options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
        assert_eq!((spec.depth, spec.nodes), (Some(3), Some(500)));
        assert_eq!(limits.time_control, Some("10+0.1".parse().unwrap()));
        assert!(limits.restart);
        let (bare, _) = inline_engine(&fields("cmd=stockfish"), &[]).unwrap();
        assert_eq!(bare.name, "stockfish");
        assert_eq!(bare.program, Path::new("stockfish"));
        assert!(inline_engine(&fields("name=X"), &[]).is_err());
    }

    #[test]
    fn each_may_not_replace_an_engine_of_a_list() {
        let (spec, _) = inline_engine(&fields("cmd=./catena name=C"), &[]).unwrap();
        let (changed, limits) = with_each(spec.clone(), &fields("depth=2 timemargin=80")).unwrap();
        assert_eq!(changed.depth, Some(2));
        assert_eq!(limits.time_margin, Some(80));
        let error = with_each(spec, &fields("name=D")).unwrap_err();
        assert!(error.contains("--each name"), "{error}");
    }
}
