//! Watching a match: one the page starts (`catena match … --live FILE`, a
//! child process of the server), or one started in a terminal with
//! `--live FILE` and named on the server's command line (`catena gui
//! --follow FILE`). Either way the live file is read a few times a second,
//! and every change reaches the page as a `match` event: each game's board,
//! moves in SAN with their switches and the chain of its last move, the
//! score table and the SPRT. The page names engines, never files.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

use super::events::Events;
use super::info;
use super::session::chain_closed;
use super::view;
use crate::arena::EngineSpec;
use catena_core::board::{Color, Position};
use catena_core::game::{GameState, Player, Rules, SwitchRule};

/// How often the live file is read.
const POLL: Duration = Duration::from_millis(200);
/// Lines of the match's own output kept for the page.
const LOG_LINES: usize = 40;

/// A match to start from the page.
#[derive(Clone, Debug)]
pub struct MatchRequest {
    pub engines: [EngineSpec; 2],
    pub games: u32,
    pub time_control: String,
    pub max_moves: Option<u32>,
    /// `None` for chess.
    pub rules: Option<Rules>,
    /// `elo0=A elo1=B [alpha=X beta=Y]`, as `catena match --sprt` takes it.
    pub sprt: Vec<String>,
}

#[derive(Default)]
struct Watched {
    /// The live file read, if any.
    path: Option<PathBuf>,
    /// Whether the page started it (else it is followed).
    started: bool,
    child: Option<Child>,
    log: VecDeque<String>,
    /// The file's text when last read.
    seen: String,
    view: Value,
}

pub struct Watch {
    state: Arc<Mutex<Watched>>,
    /// Where matches started from the page keep their files.
    dir: PathBuf,
    /// This program, which plays the matches.
    catena: PathBuf,
}

fn lock(state: &Mutex<Watched>) -> MutexGuard<'_, Watched> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Watch {
    /// Starts the reader; with `follow`, follows that live file from the start.
    pub fn new(catena: PathBuf, follow: Option<PathBuf>, events: Events) -> Watch {
        let dir = std::env::temp_dir().join(format!("catena-gui-{}", std::process::id()));
        let state = Arc::new(Mutex::new(Watched {
            path: follow,
            ..Watched::default()
        }));
        let reader = state.clone();
        thread::Builder::new()
            .name("gui-match".to_string())
            .spawn(move || {
                loop {
                    thread::sleep(POLL);
                    poll(&reader, &events);
                }
            })
            .expect("cannot start the match reader");
        Watch { state, dir, catena }
    }

    /// The match as the page last saw it.
    pub fn view(&self) -> Value {
        let state = lock(&self.state);
        if state.view.is_null() {
            json!({ "active": false, "log": state.log })
        } else {
            state.view.clone()
        }
    }

    /// Starts a match, stopping any match this page started before.
    pub fn start(&self, request: &MatchRequest) -> Result<(), String> {
        if !(1..=1000).contains(&request.games) {
            return Err(format!("{} games: ask for 1 to 1000", request.games));
        }
        request.time_control.parse::<crate::arena::TimeControl>()?;
        if !request.sprt.is_empty() {
            crate::arena::Sprt::parse(&request.sprt)?;
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|error| format!("cannot make {}: {error}", self.dir.display()))?;
        let [first, second] = request.engines.clone();
        let mut second = second;
        if second.name == first.name {
            second.name = format!("{} 2", second.name);
        }
        let list = json!([entry(&first), entry(&second)]);
        let engines = self.dir.join("engines.json");
        let live = self.dir.join("live.json");
        let pgn = self.dir.join("games.pgn");
        std::fs::write(&engines, list.to_string())
            .map_err(|error| format!("cannot write {}: {error}", engines.display()))?;
        let _ = std::fs::remove_file(&live);
        let mut command = Command::new(&self.catena);
        command
            .arg("match")
            .args([&first.name, &second.name])
            .arg("--engines")
            .arg(&engines)
            .args(["--games", &request.games.to_string()])
            .args(["--tc", &request.time_control])
            .arg("--live")
            .arg(&live)
            .arg("--pgn")
            .arg(&pgn)
            .arg("--pgn-overwrite");
        if !request.sprt.is_empty() {
            command.arg("--sprt").args(&request.sprt);
        }
        if let Some(moves) = request.max_moves {
            command.args(["--max-moves", &moves.to_string()]);
        }
        match request.rules {
            Some(rules) => command
                .args(["--variant", "sscc", "--rule", rules.switch_rule.name()])
                .args(["--min-enclosed", &rules.min_enclosed.to_string()]),
            None => command.args(["--variant", "chess"]),
        };
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot start the match: {error}"))?;
        let mut state = lock(&self.state);
        stop_child(&mut state);
        state.log.clear();
        state.seen.clear();
        state.view = Value::Null;
        for output in [
            child
                .stdout
                .take()
                .map(|out| Box::new(out) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|err| Box::new(err) as Box<dyn Read + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let log = self.state.clone();
            thread::spawn(move || {
                for line in BufReader::new(output).lines().map_while(Result::ok) {
                    let line = line.trim_end().to_string();
                    if line.is_empty() {
                        continue;
                    }
                    let mut state = lock(&log);
                    state.log.push_back(line);
                    while state.log.len() > LOG_LINES {
                        state.log.pop_front();
                    }
                    state.seen.clear();
                }
            });
        }
        state.child = Some(child);
        state.path = Some(live);
        state.started = true;
        Ok(())
    }

    /// Stops a match this page started.
    pub fn stop(&self) -> Result<(), String> {
        let mut state = lock(&self.state);
        if state.child.is_none() {
            return Err("no match of this page is running".to_string());
        }
        stop_child(&mut state);
        state.log.push_back("Stopped from the page.".to_string());
        state.seen.clear();
        Ok(())
    }
}

fn stop_child(state: &mut Watched) {
    if let Some(mut child) = state.child.take() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// An engine list entry (Cute Chess's format) for `spec`.
fn entry(spec: &EngineSpec) -> Value {
    let quote = |word: &str| format!("\"{word}\"");
    let mut command = quote(&spec.program.to_string_lossy());
    for arg in &spec.args {
        command.push(' ');
        command.push_str(&quote(arg));
    }
    let mut entry = json!({
        "name": spec.name,
        "command": command,
        "workingDirectory": spec.working_directory,
        "protocol": "uci",
        "options": spec.options.iter().map(|(name, value)| json!({"name": name, "value": value})).collect::<Vec<_>>(),
        "initStrings": spec.init_strings,
    });
    if let Some(depth) = spec.depth {
        entry["depth"] = depth.into();
    }
    if let Some(nodes) = spec.nodes {
        entry["nodes"] = nodes.into();
    }
    entry
}

/// Reads the live file; tells the page when anything changed.
fn poll(state: &Mutex<Watched>, events: &Events) {
    let mut state = lock(state);
    let mut ended = None;
    if let Some(child) = state.child.as_mut()
        && let Ok(Some(status)) = child.try_wait()
    {
        ended = Some(status);
    }
    if let Some(status) = ended {
        state.child = None;
        state
            .log
            .push_back(format!("The match process ended ({status})."));
        state.seen.clear();
    }
    let Some(path) = state.path.clone() else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let running = state.child.is_some();
    // What was seen: the text, or a mark for no file yet.
    let seen = if text.is_empty() {
        "\u{0}none".to_string()
    } else {
        text.clone()
    };
    if seen == state.seen {
        return;
    }
    state.seen = seen;
    let view = match serde_json::from_str::<Value>(&text) {
        Ok(live) => match_view(&live, &path, state.started, running, &state.log),
        Err(_) if text.is_empty() => json!({
            "active": true,
            "started": state.started,
            "running": running,
            "games": [],
            "log": state.log,
            "waiting": format!("waiting for {}", file_name(&path)),
        }),
        Err(error) => json!({
            "active": true,
            "running": running,
            "games": [],
            "log": state.log,
            "error": format!("{} is not a live match file: {error}", file_name(&path)),
        }),
    };
    state.view = view.clone();
    drop(state);
    events.send("match", view);
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// The rules of a live file's `variant` (`SSCC (SwitchRule=chain;MinEnclosed=2)`).
fn rules_of(variant: &str) -> Rules {
    let mut rules = Rules::default();
    for part in variant
        .trim_start_matches("SSCC (")
        .trim_end_matches(')')
        .split(';')
    {
        match part.split_once('=') {
            Some(("SwitchRule", rule)) => {
                rules.switch_rule = rule.parse().unwrap_or(SwitchRule::Chain)
            }
            Some(("MinEnclosed", n)) => {
                rules.min_enclosed = n
                    .parse()
                    .ok()
                    .filter(|n| Rules::MIN_ENCLOSED_RANGE.contains(n))
                    .unwrap_or(2)
            }
            _ => {}
        }
    }
    rules
}

/// The match for the page: each game replayed under the rules, in SAN.
fn match_view(
    live: &Value,
    path: &Path,
    started: bool,
    running: bool,
    log: &VecDeque<String>,
) -> Value {
    let rules = rules_of(live["variant"].as_str().unwrap_or(""));
    let games: Vec<Value> = live["games"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|game| game_view(game, rules))
        .collect();
    json!({
        "active": true,
        "started": started,
        "running": running,
        "file": file_name(path),
        "engines": live["engines"],
        "games_total": live["games_total"],
        "time_control": live["time_control"],
        "variant": live["variant"],
        "score": live["score"],
        "sprt": live["sprt"],
        "finished": live["finished"],
        "games": games,
        "log": log,
    })
}

fn game_view(game: &Value, rules: Rules) -> Value {
    let text = |key: &str| game[key].as_str().unwrap_or("").to_string();
    let start = Position::from_fen(&text("start_fen")).unwrap_or_else(|_| Position::startpos());
    let start_game = GameState::new(start.clone(), rules);
    let moves = text("moves");
    let words: Vec<&str> = moves.split_whitespace().collect();
    let line = info::read_pv(&words, &start_game);
    let mut replay = start_game.clone();
    for mv in &line {
        let tokens: Vec<&str> = if mv.switch {
            vec![&mv.uci, "switch"]
        } else {
            vec![&mv.uci]
        };
        if replay.apply_uci_moves(&tokens).is_err() {
            break;
        }
    }
    // Who held each army at the end: the engine that started with it, unless
    // a switch gave it to the other; the winner is whoever held the winning army.
    let holder = |army: Color| match replay.controller(army) {
        Player::StartedWhite => game["white"].clone(),
        Player::StartedBlack => game["black"].clone(),
    };
    let winning_army = match game["result"].as_str() {
        Some("1-0") => Some(Color::White),
        Some("0-1") => Some(Color::Black),
        _ => None,
    };
    let last = replay.plies().last();
    let last_chain = last
        .and_then(|ply| chain_closed(ply.before(), ply.mv, &rules))
        .as_ref()
        .map(view::chain_json);
    json!({
        "number": game["number"],
        "white": game["white"],
        "black": game["black"],
        "result": game["result"],
        "comment": game["comment"],
        "white_at_end": holder(Color::White),
        "black_at_end": holder(Color::Black),
        "winner": winning_army.map(holder),
        "winning_army": winning_army.map(|army| army.to_string()),
        "fen": replay.position().to_fen(),
        "turn": replay.position().side_to_move().to_string(),
        "last_move": last.map(|ply| [ply.mv.from().to_string(), ply.mv.to().to_string()]),
        "last_chain": last_chain,
        "plies": line.len(),
        "switches": line.iter().filter(|mv| mv.switch).count(),
        "text": info::pv_text(&start, &line),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_rules_of_a_live_file() {
        let rules = rules_of("SSCC (SwitchRule=moves;MinEnclosed=3)");
        assert_eq!(rules.switch_rule, SwitchRule::Moves);
        assert_eq!(rules.min_enclosed, 3);
        assert_eq!(rules_of("chess"), Rules::default());
        assert_eq!(
            rules_of("SSCC (SwitchRule=x;MinEnclosed=99)"),
            Rules::default()
        );
    }

    #[test]
    fn writes_engine_list_entries_that_read_back() {
        let spec = EngineSpec {
            name: "Some engine".to_string(),
            program: PathBuf::from("/opt/my engines/catena"),
            args: vec!["--flag".to_string()],
            working_directory: PathBuf::from("."),
            options: vec![("Hash".to_string(), "16".to_string())],
            init_strings: Vec::new(),
            stderr_file: None,
            depth: Some(3),
            nodes: None,
        };
        let path = std::env::temp_dir().join(format!("catena-entry-{}.json", std::process::id()));
        std::fs::write(&path, json!([entry(&spec)]).to_string()).unwrap();
        let (_, list) = crate::arena::engine_list(Some(&path)).unwrap();
        let _ = std::fs::remove_file(&path);
        let read = list[0].clone();
        assert_eq!(read.program, spec.program);
        assert_eq!(read.args, spec.args);
        assert_eq!(read.options, spec.options);
        assert_eq!(read.depth, Some(3));
    }
}
