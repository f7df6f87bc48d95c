//! Engine lists in Cute Chess's `engines.json` format (docs/rules.md, section 7).
//!
//! Keys read: `name`, `command`, `workingDirectory`, `protocol` (`uci` only),
//! `options` (`name` and `value`; Cute Chess's other option keys are ignored),
//! `stderrFile` and `initStrings` (lines sent after the options). Two keys are
//! Catena's, in the manner of cutechess-cli's per-engine `depth=` and `nodes=`:
//! `depth` and `nodes` add that limit to every `go`. Other keys are ignored.
//!
//! Paths: a relative `workingDirectory` is taken from the directory of the
//! list file; a `command` containing `/` is taken from the working directory,
//! and a bare program name is looked up in `PATH`. So `"command":
//! "./target/release/catena", "workingDirectory": "."` in the repository's own
//! list names the binary `cargo build --release` makes, wherever the match is
//! started from.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Entry {
    name: String,
    command: String,
    #[serde(default)]
    working_directory: String,
    #[serde(default = "uci")]
    protocol: String,
    #[serde(default)]
    options: Vec<OptionEntry>,
    #[serde(default)]
    stderr_file: String,
    #[serde(default)]
    init_strings: Vec<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

fn uci() -> String {
    "uci".to_string()
}

#[derive(Deserialize, Debug)]
struct OptionEntry {
    name: String,
    value: Value,
}

/// One engine of a list, its paths resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub working_directory: PathBuf,
    /// UCI options to set, as `setoption` values.
    pub options: Vec<(String, String)>,
    pub init_strings: Vec<String>,
    pub stderr_file: Option<PathBuf>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Reads an engine list file.
pub fn load(path: &Path) -> Result<Vec<EngineSpec>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the engine list {}: {error}", path.display()))?;
    // `engines.json` has the parent "", which no process can start in.
    let base = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    parse(&text, base).map_err(|error| format!("engine list {}: {error}", path.display()))
}

/// An engine list's entries, relative paths taken from `base`.
pub fn parse(text: &str, base: &Path) -> Result<Vec<EngineSpec>, String> {
    let entries: Vec<Entry> = serde_json::from_str(text).map_err(|error| error.to_string())?;
    entries
        .into_iter()
        .map(|entry| resolve(entry, base))
        .collect()
}

fn resolve(entry: Entry, base: &Path) -> Result<EngineSpec, String> {
    let name = entry.name;
    if entry.protocol != "uci" {
        return Err(format!(
            "engine '{name}': protocol '{}' is not supported (only uci)",
            entry.protocol
        ));
    }
    let mut words = split_command(&entry.command)
        .map_err(|error| format!("engine '{name}': {error}"))?
        .into_iter();
    let program = words
        .next()
        .ok_or_else(|| format!("engine '{name}': the command is empty"))?;
    let working_directory = base.join(&entry.working_directory);
    let program = resolve_program(&program, &working_directory);
    let options = entry
        .options
        .into_iter()
        .map(|option| {
            let value = match option.value {
                Value::String(text) => text,
                Value::Bool(flag) => flag.to_string(),
                Value::Number(number) => number.to_string(),
                other => {
                    return Err(format!(
                        "engine '{name}': option '{}' has the value {other}, not a string, number or boolean",
                        option.name
                    ));
                }
            };
            Ok((option.name, value))
        })
        .collect::<Result<_, _>>()?;
    Ok(EngineSpec {
        program,
        args: words.collect(),
        options,
        init_strings: entry.init_strings,
        stderr_file: (!entry.stderr_file.is_empty())
            .then(|| working_directory.join(entry.stderr_file)),
        working_directory,
        depth: entry.depth,
        nodes: entry.nodes,
        name,
    })
}

/// A program containing `/` taken from the working directory, a bare name
/// looked up in `PATH`.
pub(super) fn resolve_program(program: &str, working_directory: &Path) -> PathBuf {
    if program.contains('/') {
        working_directory.join(program)
    } else {
        PathBuf::from(program)
    }
}

/// A command line split into words at white space, double quotes grouping.
pub(super) fn split_command(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                }
                in_word = false;
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quoted {
        return Err(format!("unbalanced quotes in the command '{command}'"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_cute_chess_list() {
        let text = r#"[
            {"command": "./target/release/catena", "name": "Catena", "protocol": "uci",
             "workingDirectory": ".", "ponder": false, "restart": "auto",
             "options": [{"name": "Hash", "value": 64, "type": "spin", "default": 16, "min": 1, "max": 8192},
                         {"name": "Ponder", "value": false}, {"name": "SwitchRule", "value": "moves"}]},
            {"command": "\"/opt/my engines/sf\" --bench-free", "name": "SF", "protocol": "uci",
             "workingDirectory": "/tmp", "stderrFile": "sf.log", "depth": 3}
        ]"#;
        let list = parse(text, Path::new("/repo")).unwrap();
        assert_eq!(list[0].name, "Catena");
        assert_eq!(list[0].program, Path::new("/repo/./target/release/catena"));
        assert_eq!(list[0].working_directory, Path::new("/repo/."));
        assert_eq!(
            list[0].options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Ponder".to_string(), "false".to_string()),
                ("SwitchRule".to_string(), "moves".to_string())
            ]
        );
        assert_eq!(list[1].program, Path::new("/opt/my engines/sf"));
        assert_eq!(list[1].args, ["--bench-free"]);
        assert_eq!(
            list[1].stderr_file.as_deref(),
            Some(Path::new("/tmp/sf.log"))
        );
        assert_eq!(list[1].depth, Some(3));
        let bare = parse(
            r#"[{"name": "s", "command": "stockfish"}]"#,
            Path::new("/x"),
        )
        .unwrap();
        assert_eq!(bare[0].program, Path::new("stockfish"));
    }

    #[test]
    fn bad_lists_say_what_is_wrong() {
        let cases = [
            ("{}", "expected a sequence"),
            (r#"[{"name": "x"}]"#, "missing field `command`"),
            (
                r#"[{"name": "x", "command": "a", "protocol": "xboard"}]"#,
                "only uci",
            ),
            (r#"[{"name": "x", "command": " "}]"#, "empty"),
            (r#"[{"name": "x", "command": "\"a"}]"#, "quotes"),
            (
                r#"[{"name": "x", "command": "a", "options": [{"name": "o", "value": [1]}]}]"#,
                "option 'o'",
            ),
        ];
        for (text, expected) in cases {
            let error = parse(text, Path::new(".")).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
