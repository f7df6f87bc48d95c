//! The UCI protocol loop, with the SSCC extension of spec section 5.
//!
//! Standard messages are parsed and written with `vampirc-uci`; `position` and
//! `go` are read here, because they carry `switch` tokens and numbers beyond
//! that crate's types. The search runs on its own thread, so `stop`,
//! `isready` and `ponderhit` are answered while it thinks. Bad input is
//! answered with `info string error: …` and never stops the loop.

use std::io::{BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use vampirc_uci::{
    Serializable, UciInfoAttribute, UciMessage, UciMove, UciOptionConfig, UciPiece, UciSquare,
    UciTimeControl,
};

use crate::board::{Color, Move, Position};
use crate::chain;
use crate::eval;
use crate::game::{GameError, GameState, Rules, SwitchRule};
use crate::movepick::{Action, describe_action};
use crate::search::{
    self, Control, Histories, Info, Limits, Report, Root, SearchResult, Variant, uci_score,
};
use crate::time::{Budget, TimeLeft};
use crate::tools::{bench, perft};
use crate::transposition::{Bound, TranspositionTable};

const NAME: &str = concat!("Catena ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the Catena developers";

/// Writes one line to stdout at once, so that lines of two threads never mix.
pub fn send(line: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

fn info_string(text: &str) {
    send(&UciMessage::info_string(text.to_string()).serialize());
}

/// At most `limit` characters of `text`, with `…` where it was cut: what is
/// echoed of a bad input, which may be megabytes long.
fn excerpt(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Input quoted in a message: its first 100 characters.
fn quote(input: &str) -> String {
    excerpt(input, 100)
}

/// Reports a bad input on stderr and as an `info string`; never longer than
/// 500 characters, whatever parts of the input the message quotes.
fn error(text: &str) {
    let text = excerpt(text, 500);
    log::warn!("{text}");
    info_string(&format!("error: {text}"));
}

/// The engine's options, as `setoption` leaves them.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    threads: usize,
    move_overhead: u64,
    multipv: usize,
    ponder: bool,
    sscc: bool,
    switch_rule: SwitchRule,
    min_enclosed: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            move_overhead: 10,
            multipv: 1,
            ponder: false,
            sscc: false,
            switch_rule: SwitchRule::Chain,
            min_enclosed: 2,
        }
    }
}

const HASH_MAX_MB: i64 = 8192;
const THREADS_MAX: i64 = 256;

fn option_configs() -> Vec<UciOptionConfig> {
    let spin = |name: &str, default: i64, min: i64, max: i64| UciOptionConfig::Spin {
        name: name.to_string(),
        default: Some(default),
        min: Some(min),
        max: Some(max),
    };
    let combo = |name: &str, default: &str, vars: &[&str]| UciOptionConfig::Combo {
        name: name.to_string(),
        default: Some(default.to_string()),
        var: vars.iter().map(|var| var.to_string()).collect(),
    };
    let rules = SwitchRule::ALL.map(SwitchRule::name);
    vec![
        spin("Hash", 16, 1, HASH_MAX_MB),
        spin("Threads", 1, 1, THREADS_MAX),
        spin("Move Overhead", 10, 0, 5000),
        spin("MultiPV", 1, 1, 256),
        UciOptionConfig::Check {
            name: "Ponder".to_string(),
            default: Some(false),
        },
        UciOptionConfig::Button {
            name: "Clear Hash".to_string(),
        },
        combo("UCI_Variant", "chess", &["chess", "sscc"]),
        combo("SwitchRule", SwitchRule::Chain.name(), &rules),
        spin(
            "MinEnclosed",
            2,
            i64::from(*Rules::MIN_ENCLOSED_RANGE.start()),
            i64::from(*Rules::MIN_ENCLOSED_RANGE.end()),
        ),
    ]
}

/// A search, or a `go perft` or `bench`, in progress on its own thread.
struct Running {
    handle: JoinHandle<()>,
    control: Arc<Control>,
    started: Instant,
    /// A `go perft` or `bench`: a later command waits for its end, where it
    /// would stop a search.
    task: bool,
}

pub struct Engine {
    options: Options,
    game: GameState,
    tt: Arc<TranspositionTable>,
    /// The search threads' histories, kept from one `go` to the next of a game.
    histories: Arc<Mutex<Vec<Histories>>>,
    running: Option<Running>,
}

/// What `go` asked for.
#[derive(Default)]
struct GoCommand {
    limits: Limits,
    white: TimeLeft,
    black: TimeLeft,
    clock_given: [bool; 2],
    movetime: Option<Duration>,
    infinite: bool,
    ponder: bool,
}

/// `go` as vampirc-uci can read it, and what it cannot hold.
struct ReadableGo {
    line: String,
    ponder: bool,
    infinite: bool,
}

/// The words of `go` rewritten so that vampirc-uci reads them all. Read as
/// they come, it would lose some, or the whole command, or the process:
/// - it holds one time control of `ponder`, `infinite`, `movetime` and the
///   clock, so `go ponder wtime …` would lose `ponder`: the two flags are
///   taken out here (and `movetime` wins over the clock, as UCI GUIs mean);
/// - it reads `depth`, `mate` and `movestogo` into a `u8` and panics above
///   255, and refuses numbers of more than 12 digits: numbers are clamped
///   here (a negative clock, which some GUIs send, counts as 0);
/// - one unknown word, a missing number or an SSCC `switch` in
///   `searchmoves` fails the whole command: such words are named on stderr
///   and dropped, and the search goes on with the rest.
fn readable_go(tokens: &[&str]) -> ReadableGo {
    const LARGEST: u64 = 999_999_999_999;
    let mut readable = ReadableGo {
        line: String::from("go"),
        ponder: false,
        infinite: false,
    };
    let movetime_given = tokens.contains(&"movetime");
    let mut index = 0;
    while index < tokens.len() {
        let keyword = tokens[index];
        index += 1;
        match keyword {
            "ponder" => readable.ponder = true,
            "infinite" => readable.infinite = true,
            "searchmoves" => {
                let mut moves = String::new();
                while let Some(&token) = tokens.get(index) {
                    if token != "switch" {
                        if !looks_like_a_move(token) {
                            break;
                        }
                        moves.push(' ');
                        moves.push_str(token);
                    }
                    index += 1;
                }
                if !moves.is_empty() {
                    readable.line.push_str(" searchmoves");
                    readable.line.push_str(&moves);
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                let Some(value) = tokens.get(index).and_then(|token| parse_count(token)) else {
                    error(&format!(
                        "go {keyword} needs a number, not '{}'",
                        quote(tokens.get(index).unwrap_or(&""))
                    ));
                    continue;
                };
                index += 1;
                let clock = matches!(keyword, "wtime" | "btime" | "winc" | "binc" | "movestogo");
                if clock && movetime_given {
                    continue;
                }
                let largest = match keyword {
                    "movestogo" | "depth" | "mate" => u64::from(u8::MAX),
                    _ => LARGEST,
                };
                readable
                    .line
                    .push_str(&format!(" {keyword} {}", value.min(largest)));
            }
            other => error(&format!("go: unknown parameter '{}'", quote(other))),
        }
    }
    readable
}

/// A number for `go`: negative clocks (some GUIs send them) count as 0 and
/// numbers too big for a `u64` as the biggest one.
fn parse_count(token: &str) -> Option<u64> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

/// Whether `token` has the shape of a UCI move (`e2e4`, `e7e8q`), as
/// vampirc-uci's grammar reads one.
fn looks_like_a_move(token: &str) -> bool {
    let bytes = token.as_bytes();
    let square = |at: usize| {
        matches!(bytes.get(at), Some(b'a'..=b'h' | b'A'..=b'H'))
            && matches!(bytes.get(at + 1), Some(b'1'..=b'8'))
    };
    square(0)
        && square(2)
        && match bytes.get(4) {
            None => true,
            Some(piece) => bytes.len() == 5 && b"qrbnQRBN".contains(piece),
        }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            histories: Arc::default(),
            options,
            game: GameState::new(Position::startpos(), Rules::default()).playing_on(),
            running: None,
        }
    }

    fn variant(&self) -> Variant {
        if self.options.sscc {
            Variant::Sscc(Rules {
                switch_rule: self.options.switch_rule,
                min_enclosed: self.options.min_enclosed,
            })
        } else {
            Variant::Chess
        }
    }

    fn rules(&self) -> Option<Rules> {
        match self.variant() {
            Variant::Chess => None,
            Variant::Sscc(rules) => Some(rules),
        }
    }

    /// Reads commands from `input` until `quit` or the end of input.
    pub fn run(&mut self, input: impl BufRead) {
        let mut input = input;
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buffer).into_owned();
            if !self.handle(&line) {
                return;
            }
        }
        // End of input: the GUI has gone, so this is `quit`, as in Stockfish.
        // A search still running is stopped and prints its move.
        self.wait_for_search(true);
    }

    /// Handles one line; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        // A search that has printed its move is over: collect its thread.
        if self
            .running
            .as_ref()
            .is_some_and(|running| running.control.answered.load(Ordering::Acquire))
        {
            self.wait_for_search(false);
        }
        match command {
            // Read here, not by vampirc-uci: its move list would silently drop
            // the SSCC `switch` tokens and stop at the first word it cannot
            // read, and its FEN refuses the counters of more than four digits
            // that Catena prints (and so must read back).
            "position" => self.position(&tokens[1..]),
            // `go perft` is not UCI (Stockfish's habit); the rest of `go` is
            // read by vampirc-uci (see `readable_go`).
            "go" if tokens.get(1) == Some(&"perft") => self.perft(tokens.get(2).copied()),
            "go" => self.go(&tokens[1..]),
            "uci" | "debug" | "isready" | "setoption" | "register" | "ucinewgame" | "stop"
            | "ponderhit" | "quit" => return self.message(vampirc_uci::parse_one(line), line),
            "d" => self.display(),
            "eval" => send(&eval::describe(self.game.position())),
            "bench" => {
                let depth = match tokens.get(1).map(|token| token.parse::<i32>()) {
                    None => bench::DEFAULT_DEPTH,
                    Some(Ok(depth)) if (1..=search::MAX_DEPTH).contains(&depth) => depth,
                    Some(_) => {
                        error("bench needs a depth from 1 to 100");
                        return true;
                    }
                };
                let (hash_mb, threads) = (self.options.hash_mb, self.options.threads);
                self.spawn_task("bench", move |control| {
                    bench::run(depth, hash_mb, threads, control, &mut |line| send(line));
                });
            }
            _ => error(&format!("unknown command '{}'", quote(line.trim()))),
        }
        true
    }

    /// A UCI command as vampirc-uci read it; false after `quit`.
    fn message(&mut self, message: UciMessage, line: &str) -> bool {
        match message {
            UciMessage::Uci => self.uci(),
            UciMessage::IsReady => send(&UciMessage::ReadyOk.serialize()),
            UciMessage::Debug(on) => log::set_max_level(if on {
                log::LevelFilter::Debug
            } else {
                log::LevelFilter::Warn
            }),
            UciMessage::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            UciMessage::Register { .. } => {}
            UciMessage::UciNewGame => {
                self.finish_task();
                self.wait_for_search(true);
                self.clear_hash();
                self.histories
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clear();
                self.game = GameState::new(Position::startpos(), Rules::default()).playing_on();
            }
            UciMessage::Stop => self.wait_for_search(true),
            UciMessage::PonderHit => {
                if let Some(running) = &self.running {
                    // The clock runs from now: the budget is measured from here.
                    let waited = running.started.elapsed().as_millis() as u64;
                    running
                        .control
                        .clock_offset_ms
                        .store(waited, Ordering::Relaxed);
                    running.control.pondering.store(false, Ordering::Relaxed);
                } else {
                    error("ponderhit without a search");
                }
            }
            UciMessage::Quit => {
                self.wait_for_search(true);
                return false;
            }
            _ => {
                let usage = match line.split_whitespace().next() {
                    Some("debug") => ": use debug on|off",
                    Some("setoption") => ": use setoption name <name> [value <value>]",
                    Some("register") => ": use register later|name <name> code <code>",
                    _ => "",
                };
                error(&format!("cannot read '{}'{usage}", quote(line.trim())));
            }
        }
        true
    }

    fn uci(&self) {
        send(&UciMessage::id_name(NAME).serialize());
        send(&UciMessage::id_author(AUTHOR).serialize());
        for option in option_configs() {
            send(&UciMessage::Option(option).serialize());
        }
        send(&UciMessage::UciOk.serialize());
    }

    /// Stops the search if `stop` or it has no end of its own, and waits for its `bestmove`.
    fn wait_for_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.control.stop.store(true, Ordering::Relaxed);
            } else {
                running.control.pondering.store(false, Ordering::Relaxed);
            }
            if running.handle.join().is_err() {
                error("the search thread failed");
            }
        }
    }

    /// Waits for a running `go perft` or `bench` to end by itself: commands
    /// sent after it are answered after it, as they were sent.
    fn finish_task(&mut self) {
        if self.running.as_ref().is_some_and(|running| running.task) {
            self.wait_for_search(false);
        }
    }

    /// Runs `task` on its own thread, where searches run, so that `stop`,
    /// `isready`, `quit` and the end of input are answered while it works.
    /// A search in progress is stopped first; an earlier task is finished.
    fn spawn_task(&mut self, name: &str, task: impl FnOnce(&Control) + Send + 'static) {
        self.finish_task();
        self.wait_for_search(true);
        let control = Arc::new(Control::default());
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(64 << 20)
            .spawn(move || {
                task(&thread_control);
                thread_control.answered.store(true, Ordering::Release);
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    started: Instant::now(),
                    task: true,
                })
            }
            Err(problem) => error(&format!("cannot start the {name} thread: {problem}")),
        }
    }

    /// Empties the hash table. A fresh table of zero pages costs nothing
    /// until used, where writing zeros over a large one took seconds; the old
    /// one is cleared in place only if the memory for a new one is short.
    fn clear_hash(&mut self) {
        match TranspositionTable::try_new(self.options.hash_mb) {
            Ok(table) => self.tt = Arc::new(table),
            Err(_) => self.tt.clear(),
        }
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        self.finish_task();
        if self.running.is_some() {
            error(&format!("option {name} cannot change during a search"));
            return;
        }
        let value = value.unwrap_or_default().trim();
        let spin = |min: i64, max: i64| -> Result<i64, String> {
            match value.parse::<i64>() {
                Ok(number) if (min..=max).contains(&number) => Ok(number),
                _ => Err(format!(
                    "option {name} needs a number from {min} to {max}, not '{value}'"
                )),
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            // The old table stays until the new one is had.
            "hash" => spin(1, HASH_MAX_MB).and_then(|mb| {
                self.tt = Arc::new(TranspositionTable::try_new(mb as usize)?);
                self.options.hash_mb = mb as usize;
                Ok(())
            }),
            "threads" => {
                spin(1, THREADS_MAX).map(|threads| self.options.threads = threads as usize)
            }
            "move overhead" => spin(0, 5000).map(|ms| self.options.move_overhead = ms as u64),
            "multipv" => spin(1, 256).map(|lines| self.options.multipv = lines as usize),
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" => {
                    self.options.ponder = true;
                    Ok(())
                }
                "false" => {
                    self.options.ponder = false;
                    Ok(())
                }
                _ => Err(format!("option Ponder needs true or false, not '{value}'")),
            },
            "clear hash" => {
                self.clear_hash();
                Ok(())
            }
            "uci_variant" => match value.to_ascii_lowercase().as_str() {
                "chess" => {
                    self.options.sscc = false;
                    Ok(())
                }
                "sscc" => {
                    self.options.sscc = true;
                    Ok(())
                }
                _ => Err(format!(
                    "option UCI_Variant is chess or sscc, not '{value}'"
                )),
            },
            "switchrule" => value
                .parse::<SwitchRule>()
                .map(|rule| self.options.switch_rule = rule),
            "minenclosed" => spin(
                i64::from(*Rules::MIN_ENCLOSED_RANGE.start()),
                i64::from(*Rules::MIN_ENCLOSED_RANGE.end()),
            )
            .map(|min| self.options.min_enclosed = min as u32),
            _ => Err(format!("no such option '{name}'")),
        };
        if let Err(message) = result {
            error(&message);
        }
    }

    /// `position startpos|fen <fen> [moves <move> [switch] …]`: on a bad token
    /// the position keeps every move before it.
    fn position(&mut self, tokens: &[&str]) {
        let moves_at = tokens.iter().position(|&token| token == "moves");
        let (setup, moves) = match moves_at {
            Some(index) => (&tokens[..index], &tokens[index + 1..]),
            None => (tokens, &[][..]),
        };
        let start = match setup {
            ["startpos"] => Position::startpos(),
            ["fen", fields @ ..] if !fields.is_empty() => {
                match Position::from_fen(&fields.join(" ")) {
                    Ok(position) => position,
                    Err(problem) => {
                        error(&format!(
                            "invalid FEN '{}': {problem}",
                            quote(&fields.join(" "))
                        ));
                        return;
                    }
                }
            }
            _ => {
                error("position needs 'startpos' or 'fen <fen>', then optionally 'moves …'");
                return;
            }
        };
        // The GUI decides when its game ends: moves after a draw by rule are played.
        let mut game = GameState::new(start, self.rules().unwrap_or_default()).playing_on();
        // Chess has no switch: the list is played up to the first one.
        let chess_switch = if self.options.sscc {
            None
        } else {
            moves.iter().position(|&token| token == "switch")
        };
        let playable = &moves[..chess_switch.unwrap_or(moves.len())];
        let refusal = match game.apply_uci_moves(playable) {
            Err((index, token, why)) => Some((index, token, why.to_string())),
            Ok(()) => chess_switch.map(|index| {
                let why = if index == 0 {
                    GameError::SwitchWithoutMove.to_string()
                } else {
                    "'switch' needs setoption name UCI_Variant value sscc".to_string()
                };
                (index, "switch", why)
            }),
        };
        if let Some((index, token, why)) = refusal {
            let number = index + 1;
            match (token, game.plies().last()) {
                ("switch", Some(ply)) if index > 0 => {
                    error(&format!("move {number} 'switch' after {}: {why}", ply.mv))
                }
                ("switch", _) => error(&format!("move {number}: {why}")),
                _ => error(&format!("move {number} '{}': {why}", quote(token))),
            }
        }
        self.game = game;
    }

    /// `go`, read by vampirc-uci from the words [`readable_go`] leaves.
    fn parse_go(&self, tokens: &[&str]) -> GoCommand {
        let readable = readable_go(tokens);
        let mut go = GoCommand {
            infinite: readable.infinite,
            ponder: readable.ponder,
            ..GoCommand::default()
        };
        go.limits.multipv = self.options.multipv;
        go.limits.threads = self.options.threads;
        let UciMessage::Go {
            time_control,
            search_control,
        } = vampirc_uci::parse_one(&readable.line)
        else {
            // Unreachable while `readable_go` writes only what the grammar reads.
            error(&format!("cannot read '{}'", quote(&readable.line)));
            return go;
        };
        let millis = |time: vampirc_uci::Duration| {
            Duration::from_millis(time.num_milliseconds().max(0) as u64)
        };
        match time_control {
            Some(UciTimeControl::MoveTime(time)) => go.movetime = Some(millis(time)),
            Some(UciTimeControl::TimeLeft {
                white_time,
                black_time,
                white_increment,
                black_increment,
                moves_to_go,
            }) => {
                go.clock_given = [white_time.is_some(), black_time.is_some()];
                go.white.time = white_time.map(millis).unwrap_or_default();
                go.black.time = black_time.map(millis).unwrap_or_default();
                go.white.increment = white_increment.map(millis).unwrap_or_default();
                go.black.increment = black_increment.map(millis).unwrap_or_default();
                let moves_to_go = moves_to_go.map(u32::from).filter(|&moves| moves > 0);
                go.white.moves_to_go = moves_to_go;
                go.black.moves_to_go = moves_to_go;
            }
            Some(UciTimeControl::Ponder | UciTimeControl::Infinite) | None => {}
        }
        if let Some(search) = search_control {
            go.limits.depth = search
                .depth
                .map(|depth| i32::from(depth).clamp(1, search::MAX_DEPTH));
            go.limits.nodes = search.nodes.map(|nodes| nodes.max(1));
            go.limits.mate = search.mate.map(|moves| i32::from(moves).max(1));
            for mv in search.search_moves {
                match self.game.position().parse_move(&mv.to_string()) {
                    Ok(mv) => go.limits.search_moves.push(mv),
                    Err(problem) => error(&format!("go searchmoves: {problem}")),
                }
            }
        }
        go
    }

    fn budget(&self, go: &GoCommand) -> Option<Budget> {
        let overhead = Duration::from_millis(self.options.move_overhead);
        let (clock, given) = match self.game.position().side_to_move() {
            Color::White => (go.white, go.clock_given[0]),
            Color::Black => (go.black, go.clock_given[1]),
        };
        match go.movetime {
            Some(movetime) => Some(Budget::fixed(movetime, overhead)),
            None if given && !go.infinite => Some(Budget::from_clock(clock, overhead)),
            None => None,
        }
    }

    fn go(&mut self, tokens: &[&str]) {
        self.finish_task();
        if self.running.is_some() {
            error("go while a search runs: send stop first");
            return;
        }
        let started = Instant::now();
        let mut go = self.parse_go(tokens);
        go.limits.budget = self.budget(&go);
        // `go` with no limit at all searches until `stop`, as `go infinite` does.
        let endless = go.infinite
            || (go.limits.budget.is_none()
                && go.limits.depth.is_none()
                && go.limits.nodes.is_none()
                && go.limits.mate.is_none());
        let control = Arc::new(Control::default());
        control.pondering.store(go.ponder, Ordering::Relaxed);
        let root = Root::of_game(&self.game, self.variant());
        let tt = Arc::clone(&self.tt);
        let histories = Arc::clone(&self.histories);
        let thread_control = Arc::clone(&control);
        let limits = go.limits;
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(64 << 20)
            .spawn(move || {
                let mut histories = histories.lock().unwrap_or_else(PoisonError::into_inner);
                search_and_answer(
                    &root,
                    &limits,
                    &tt,
                    &mut histories,
                    &thread_control,
                    started,
                    endless,
                );
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    started,
                    task: false,
                })
            }
            Err(problem) => {
                error(&format!("cannot start the search thread: {problem}"));
                send("bestmove 0000");
            }
        }
    }

    fn perft(&mut self, depth: Option<&str>) {
        let Some(depth) = depth
            .and_then(|depth| depth.parse::<u32>().ok())
            .filter(|depth| (1..=perft::MAX_DEPTH).contains(depth))
        else {
            error(&format!(
                "go perft needs a depth from 1 to {}",
                perft::MAX_DEPTH
            ));
            return;
        };
        let tree = match self.rules() {
            Some(rules) => perft::Tree::Sscc(rules),
            None => perft::Tree::Chess { bulk: true },
        };
        let (position, run) = (self.game.position().clone(), self.game.run());
        let threads = self.options.threads;
        self.spawn_task("perft", move |control| {
            let start = Instant::now();
            match perft::divide(&tree, &position, run, depth, threads, &control.stop) {
                Ok(counts) => {
                    for count in &counts {
                        let switch = if count.switched { " switch" } else { "" };
                        send(&format!("{}{switch}: {}", count.mv, count.nodes));
                    }
                    let total: u64 = counts.iter().map(|count| count.nodes).sum();
                    send("");
                    send(&format!("Nodes searched: {total}"));
                    log::info!("{}", perft::summary_line(total, start.elapsed()));
                }
                Err(problem) => error(&problem),
            }
        });
    }

    fn display(&self) {
        let position = self.game.position();
        let mut text = String::from("\n +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let square = crate::board::Square::new(file, rank);
                let letter = match (position.piece_on(square), position.color_on(square)) {
                    (Some(piece), Some(color)) => piece.fen_letter(color),
                    _ => ' ',
                };
                text.push_str(&format!(" | {letter}"));
            }
            text.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        text.push_str("   a   b   c   d   e   f   g   h\n\n");
        text.push_str(&format!("Fen: {}\n", position.to_fen()));
        text.push_str(&format!("Key: {:016X}\n", position.key()));
        let checkers: Vec<String> = position
            .checkers()
            .into_iter()
            .map(|s| s.to_string())
            .collect();
        text.push_str(&format!("Checkers: {}", checkers.join(" ")));
        if let Some(rules) = self.rules() {
            let mut run = self.game.run();
            let limit = match run.limit() {
                Some(limit) if run.switches() > 0 => limit.to_string(),
                _ if run.switches() > 0 => "none".to_string(),
                _ => "-".to_string(),
            };
            text.push_str(&format!(
                "\nVariant: sscc ({rules})\nSwitch run: {} switches in a row, limit {limit}, another switch {}",
                run.switches(),
                if run.allows_switch() { "allowed after a chain" } else { "not allowed" },
            ));
            if let Some(ply) = self.game.plies().last() {
                let (mv, formed_chain) = (ply.mv, ply.formed_chain);
                let landing = ply.before().landing_squares(mv);
                let chain = formed_chain
                    .then(|| chain::analyse_board(position.occupied(), landing, rules.min_enclosed))
                    .flatten();
                let verdict = match chain {
                    Some(chain) => format!(
                        "formed a chain of size {}; smallest: {} around {}",
                        chain.size,
                        squares(&chain.smallest),
                        squares(&chain.enclosed)
                    ),
                    None => "formed no chain".to_string(),
                };
                text.push_str(&format!("\nLast move: {mv}, {verdict}"));
            }
        }
        send(&text);
    }
}

/// Chess names of chain cells, space separated.
fn squares(cells: &[chain::Cell]) -> String {
    let names: Vec<String> = cells
        .iter()
        .map(|&cell| chain::square_of(cell).to_string())
        .collect();
    names.join(" ")
}

/// The `info` line of what the search tells.
fn info_line(info: &Info) -> String {
    match info {
        Info::Line(report) => line_info(report),
        Info::CurrentMove {
            depth,
            action,
            number,
        } => UciMessage::Info(vec![
            UciInfoAttribute::Depth((*depth).clamp(0, 255) as u8),
            UciInfoAttribute::Any("currmove".to_string(), describe_action(*action)),
            // vampirc-uci writes `currmovenum`; UCI says `currmovenumber`.
            UciInfoAttribute::Any("currmovenumber".to_string(), number.to_string()),
        ])
        .serialize(),
    }
}

/// The `info` line of an iteration's line.
fn line_info(report: &Report) -> String {
    let (cp, mate) = uci_score(report.score);
    let millis = report.time.as_millis().max(1) as u64;
    let mut attributes = vec![
        UciInfoAttribute::Depth(report.depth.clamp(0, 255) as u8),
        UciInfoAttribute::SelDepth(report.seldepth.clamp(0, 255) as u8),
        UciInfoAttribute::MultiPv(report.multipv.min(u16::MAX as usize) as u16),
        UciInfoAttribute::Score {
            cp,
            mate: mate.map(|moves| moves.clamp(-127, 127) as i8),
            lower_bound: (report.bound == Some(Bound::Lower)).then_some(true),
            upper_bound: (report.bound == Some(Bound::Upper)).then_some(true),
        },
        UciInfoAttribute::Nodes(report.nodes),
        UciInfoAttribute::Nps(report.nodes.saturating_mul(1000) / millis),
        UciInfoAttribute::HashFull(report.hashfull),
        UciInfoAttribute::Time(vampirc_uci::Duration::milliseconds(
            report.time.as_millis() as i64
        )),
    ];
    if !report.pv.is_empty() {
        let pv: Vec<String> = report
            .pv
            .iter()
            .map(|&action| describe_action(action))
            .collect();
        attributes.push(UciInfoAttribute::Any("pv".to_string(), pv.join(" ")));
    }
    UciMessage::Info(attributes).serialize()
}

/// The `bestmove` line of a result.
fn bestmove_line(result: &SearchResult) -> String {
    let Some(Action { mv, switch }) = result.best else {
        // vampirc-uci has no null move to write.
        return "bestmove 0000".to_string();
    };
    let ponder = result
        .ponder
        .filter(|_| !switch)
        .map(|reply| uci_move(reply.mv));
    let line = UciMessage::BestMove {
        best_move: uci_move(mv),
        ponder,
    }
    .serialize();
    // The SSCC switch is no UCI word: it follows what vampirc-uci writes.
    if switch {
        format!("{line} switch")
    } else {
        line
    }
}

/// `mv` in vampirc-uci's type, through the UCI text they share (`e7e8q`).
fn uci_move(mv: Move) -> UciMove {
    let text = mv.to_string();
    let square = |at: usize| {
        let bytes = text.as_bytes();
        UciSquare::from(char::from(bytes[at]), bytes[at + 1] - b'0')
    };
    UciMove {
        from: square(0),
        to: square(2),
        promotion: text
            .get(4..)
            .and_then(|piece| piece.parse::<UciPiece>().ok()),
    }
}

/// The search thread: search, wait while `go infinite` or pondering asks to, answer.
fn search_and_answer(
    root: &Root,
    limits: &Limits,
    tt: &Arc<TranspositionTable>,
    histories: &mut Vec<Histories>,
    control: &Control,
    started: Instant,
    endless: bool,
) {
    let mut reporter = |info: &Info| send(&info_line(info));
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        search::search(root, limits, tt, histories, control, started, &mut reporter)
    }));
    let result = match outcome {
        Ok(result) => result,
        Err(_) => {
            error("the search failed; playing the first legal move");
            let first = root.position.legal_moves().first().copied();
            SearchResult {
                best: first.map(Action::stay),
                ponder: None,
                score: 0,
                nodes: 0,
                depth: 0,
            }
        }
    };
    // The protocol forbids `bestmove` before `stop` in infinite or ponder mode.
    while (endless || control.pondering.load(Ordering::Relaxed))
        && !control.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    control.answered.store(true, Ordering::Release);
    send(&bestmove_line(&result));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What vampirc-uci could not hold or would panic on is taken out or
    /// clamped; what it reads is left for it.
    #[test]
    fn go_is_rewritten_for_vampirc() {
        let read = |text: &str| {
            let tokens: Vec<&str> = text.split_whitespace().collect();
            readable_go(&tokens)
        };
        let go = read("ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 999");
        assert!(go.ponder && !go.infinite);
        assert_eq!(
            go.line,
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 255"
        );
        let go = read("infinite depth 99999999999999999999 mate 300 nodes 1234567890123456");
        assert!(go.infinite && !go.ponder);
        assert_eq!(go.line, "go depth 255 mate 255 nodes 999999999999");
        assert_eq!(
            read("movetime -99999999999999999999 wtime 5 frob").line,
            "go movetime 0"
        );
        assert_eq!(
            read("searchmoves e2e4 switch e7e8q xyz depth 2").line,
            "go searchmoves e2e4 e7e8q depth 2"
        );
        assert_eq!(read("depth x searchmoves").line, "go");
        for text in [
            "ponder wtime 1000 btime 2000 winc 10 binc 20 movestogo 999",
            "infinite depth 99999999999999999999 mate 300 nodes 1234567890123456",
            "searchmoves e2e4 switch e7e8q xyz depth 2",
            "depth x searchmoves",
        ] {
            assert!(
                matches!(
                    vampirc_uci::parse_one(&read(text).line),
                    UciMessage::Go { .. }
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn bestmove_lines_carry_promotions_ponder_moves_and_switches() {
        crate::board::attacks::init();
        let position = Position::from_fen("8/4P3/8/8/8/k7/8/K7 w - - 0 1").unwrap();
        let promotion = position.parse_move("e7e8q").unwrap();
        let king = position.parse_move("a1b1").unwrap();
        let result = |best: Option<Action>, ponder: Option<Action>| SearchResult {
            best,
            ponder,
            score: 0,
            nodes: 0,
            depth: 1,
        };
        assert_eq!(bestmove_line(&result(None, None)), "bestmove 0000");
        assert_eq!(
            bestmove_line(&result(Some(Action::stay(promotion)), None)),
            "bestmove e7e8q"
        );
        assert_eq!(
            bestmove_line(&result(
                Some(Action::stay(king)),
                Some(Action::stay(promotion))
            )),
            "bestmove a1b1 ponder e7e8q"
        );
        let switch = Action {
            mv: king,
            switch: true,
        };
        assert_eq!(
            bestmove_line(&result(Some(switch), Some(Action::stay(promotion)))),
            "bestmove a1b1 switch"
        );
    }

    #[test]
    fn excerpts_cut_long_input_on_a_character() {
        assert_eq!(excerpt("short", 100), "short");
        assert_eq!(excerpt(&"x".repeat(100), 100), "x".repeat(100));
        assert_eq!(
            excerpt(&"x".repeat(101), 100),
            format!("{}…", "x".repeat(100))
        );
        assert_eq!(excerpt("ééé", 2), "éé…");
    }

    #[test]
    fn counts_are_clamped_not_rejected() {
        assert_eq!(parse_count("-5"), Some(0));
        assert_eq!(parse_count("12"), Some(12));
        assert_eq!(
            parse_count("999999999999999999999999999999999999999999"),
            Some(u64::MAX)
        );
        assert_eq!(
            parse_count("-99999999999999999999999999999999999999999999"),
            Some(0)
        );
        assert_eq!(parse_count("+7"), Some(7));
        assert_eq!(parse_count("x"), None);
        assert_eq!(parse_count(""), None);
        assert_eq!(parse_count("-"), None);
        assert_eq!(parse_count("1-2"), None);
    }

    /// The budget `go` would search with after `position`.
    fn budget_after(position: &str, go: &str) -> Budget {
        let mut engine = Engine::new();
        engine.handle("setoption name UCI_Variant value sscc");
        engine.handle(position);
        let tokens: Vec<&str> = go.split_whitespace().skip(1).collect();
        engine
            .budget(&engine.parse_go(&tokens))
            .expect("a clock was given")
    }

    /// Each move is budgeted from the clock of the colour to move: a few
    /// hundred milliseconds left on it bound the search, whatever the other
    /// colour has, and after a switch that is the colour the switcher took.
    #[test]
    fn the_budget_comes_from_the_clock_of_the_colour_to_move() {
        let short = Duration::from_millis(300);
        let cases = [
            ("position startpos", "go wtime 300 btime 600000"),
            ("position startpos moves e2e4", "go wtime 600000 btime 300"),
            // After d2d3 and the switch Black is to move, now the first player's.
            (
                "position startpos moves c2c3 e7e5 d2d3 switch",
                "go wtime 600000 btime 300",
            ),
            (
                "position startpos moves c2c3 e7e5 d2d3 switch g8f6",
                "go wtime 300 btime 600000 winc 0 binc 0",
            ),
        ];
        for (position, go) in cases {
            let budget = budget_after(position, go);
            assert!(budget.hard <= short, "{position} / {go}: {budget:?}");
            // The same clocks the other way round give far more time.
            let swapped = go
                .replace("wtime", "TIME")
                .replace("btime", "wtime")
                .replace("TIME", "btime");
            let roomy = budget_after(position, &swapped);
            assert!(
                roomy.soft > Duration::from_secs(5),
                "{position} / {swapped}: {roomy:?}"
            );
        }
    }
}
