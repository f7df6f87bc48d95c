//! The UCI protocol, with the SSCC extension of docs/rules.md, section 5: text in and
//! text out, as Stockfish's `uci.cpp`. The engine's state and what it does
//! with a command are in `engine.rs`.
//!
//! Commands are read with `vampirc-uci`, `go` after a rewrite of what that
//! crate cannot hold ([`readable_go`]); `position` is read here, since its
//! move list carries `switch` tokens. Answers are written with its types,
//! `switch` appended where SSCC needs it. Bad input is answered with
//! `info string error: …` and never stops the loop.

use crate::score::uci_score;
use crate::thread;
use crate::thread::{Info, Report, SearchResult};
use catena_core::game::Action;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use vampirc_uci::{
    Serializable, UciInfoAttribute, UciMessage, UciMove, UciOptionConfig, UciPiece, UciSquare,
    UciTimeControl,
};

use crate::bench;
use crate::engine::{Engine, GoCommand, Output};
use crate::eval;
use crate::options::{Kind, OPTIONS, UciOption};
use crate::quote::{excerpt, quote};
use std::sync::Arc;

use crate::transposition::Bound;
use crate::wdl::WinDrawLoss;
use catena_core::board::{Move, Position};
use catena_core::chain;
use catena_core::perft::{self, RootCount};

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

/// Reports a bad input on stderr and as an `info string`; never longer than
/// 500 characters, whatever parts of the input the message quotes.
fn error(text: &str) {
    let text = excerpt(text, 500);
    log::warn!("{text}");
    info_string(&format!("error: {text}"));
}

/// Reports a refused command as [`error`] does.
fn report(outcome: Result<(), String>) {
    if let Err(why) = outcome {
        error(&why);
    }
}

/// An option of the table as vampirc-uci writes it.
fn option_config(option: &UciOption) -> UciOptionConfig {
    let name = option.name.to_string();
    match option.kind {
        Kind::Spin { default, min, max } => UciOptionConfig::Spin {
            name,
            default: Some(default),
            min: Some(min),
            max: Some(max),
        },
        Kind::Check { default } => UciOptionConfig::Check {
            name,
            default: Some(default),
        },
        Kind::Combo { default, choices } => UciOptionConfig::Combo {
            name,
            default: Some(default.to_string()),
            var: choices.iter().map(|choice| choice.to_string()).collect(),
        },
        Kind::Button => UciOptionConfig::Button { name },
        Kind::Text { default } => UciOptionConfig::String {
            name,
            default: Some(default.to_string()),
        },
    }
}

/// Writes what the engine tells as protocol text.
fn write_output(output: Output) {
    match output {
        Output::Info(info, odds) => send(&info_line(&info, odds)),
        Output::BestMove(result) => send(&bestmove_line(&result)),
        Output::Perft(counts) => {
            for RootCount { action, nodes } in &counts {
                send(&format!("{action}: {nodes}"));
            }
            let total: u64 = counts.iter().map(|count| count.nodes).sum();
            send("");
            send(&format!("Nodes searched: {total}"));
        }
        Output::Text(line) => send(&line),
        Output::Note(text) => info_string(&text),
        Output::Error(why) => error(&why),
    }
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

/// The protocol loop over an [`Engine`]: reads each line, acts through the
/// engine, and writes the answers.
pub struct Uci {
    engine: Engine,
}

impl Default for Uci {
    fn default() -> Uci {
        Uci::new()
    }
}

impl Uci {
    pub fn new() -> Uci {
        Uci {
            engine: Engine::new(Arc::new(write_output)),
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
        self.engine.wait_for_search(true);
    }

    /// Handles one line; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        // A search that has printed its move is over: collect its thread.
        self.engine.collect_finished();
        match command {
            // Read here, not by vampirc-uci: its move list would silently drop
            // the SSCC `switch` tokens and stop at the first word it cannot
            // read, and its FEN refuses the counters of more than four digits
            // that Catena prints (and so must read back).
            "position" => self.position(&tokens[1..]),
            // `go perft` is not UCI (Stockfish's habit); the rest of `go` is
            // read by vampirc-uci (see `readable_go`).
            "go" if tokens.get(1) == Some(&"perft") => self.perft(tokens.get(2).copied()),
            "go" => {
                let started = Instant::now();
                let go = self.parse_go(&tokens[1..]);
                report(self.engine.go(go, started));
            }
            "uci" | "debug" | "isready" | "setoption" | "register" | "ucinewgame" | "stop"
            | "ponderhit" | "quit" => return self.message(vampirc_uci::parse_one(line), line),
            "d" => self.display(),
            "eval" => self.describe_evaluation(),
            "bench" => match tokens.get(1).map(|token| token.parse::<i32>()) {
                None => self.engine.bench(bench::DEFAULT_DEPTH),
                Some(Ok(depth)) if (1..=thread::MAX_DEPTH).contains(&depth) => {
                    self.engine.bench(depth)
                }
                Some(_) => error("bench needs a depth from 1 to 100"),
            },
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
            UciMessage::SetOption { name, value } => {
                report(self.engine.set_option(&name, value.as_deref()))
            }
            UciMessage::Register { .. } => {}
            UciMessage::UciNewGame => self.engine.new_game(),
            UciMessage::Stop => self.engine.wait_for_search(true),
            UciMessage::PonderHit => report(self.engine.ponderhit()),
            UciMessage::Quit => {
                self.engine.wait_for_search(true);
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
        for option in &OPTIONS {
            send(&UciMessage::Option(option_config(option)).serialize());
        }
        send(&UciMessage::UciOk.serialize());
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
        report(self.engine.set_position(start, moves));
    }

    /// `go perft <depth>`.
    fn perft(&mut self, depth: Option<&str>) {
        match depth
            .and_then(|depth| depth.parse::<u32>().ok())
            .filter(|depth| (1..=perft::MAX_DEPTH).contains(depth))
        {
            Some(depth) => self.engine.perft(depth),
            None => error(&format!(
                "go perft needs a depth from 1 to {}",
                perft::MAX_DEPTH
            )),
        }
    }

    /// `go`, read by vampirc-uci from the words [`readable_go`] leaves.
    fn parse_go(&self, tokens: &[&str]) -> GoCommand {
        let readable = readable_go(tokens);
        let mut go = GoCommand {
            infinite: readable.infinite,
            ponder: readable.ponder,
            ..GoCommand::default()
        };
        go.limits.multipv = self.engine.options().multipv;
        go.limits.threads = self.engine.options().threads;
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
                .map(|depth| i32::from(depth).clamp(1, thread::MAX_DEPTH));
            go.limits.nodes = search.nodes.map(|nodes| nodes.max(1));
            go.limits.mate = search.mate.map(|moves| i32::from(moves).max(1));
            for mv in search.search_moves {
                match self.engine.game().position().parse_move(&mv.to_string()) {
                    Ok(mv) => go.limits.search_moves.push(mv),
                    Err(problem) => error(&format!("go searchmoves: {problem}")),
                }
            }
        }
        go
    }

    /// `eval`: each man's worth to the chess network, and in SSCC the SSCC
    /// network's evaluation, which the search uses there, in the run in progress.
    fn describe_evaluation(&self) {
        let game = self.engine.game();
        let position = game.position();
        let mut text = eval::describe(position);
        if self.engine.rules().is_some() {
            // The SSCC inputs as the network reads them.
            let state = eval::network::SsccState::new(position, game.run().switches());
            let score = eval::network::evaluate_sscc(position, state.switches);
            text.push_str(&format!(
                "\nSSCC network evaluation {:+.2} (side to move; switches in a row: {}; empty squares cut off: {}), the one the search uses in SSCC",
                f64::from(score) / 100.0,
                state.switches,
                state.pockets.len()
            ));
        }
        send(&text);
    }

    fn display(&self) {
        let game = self.engine.game();
        let position = game.position();
        let mut text = String::from("\n +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let square = catena_core::board::Square::new(file, rank);
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
        if let Some(rules) = self.engine.rules() {
            let run = game.run();
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
            if let Some(ply) = game.plies().last() {
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

/// An `info` line; a line of the search carries the odds of its score
/// when the engine gives them (`UCI_ShowWDL`).
fn info_line(info: &Info, odds: Option<WinDrawLoss>) -> String {
    match info {
        Info::Line(report) => line_info(report, odds),
        Info::CurrentMove {
            depth,
            action,
            number,
        } => UciMessage::Info(vec![
            UciInfoAttribute::Depth((*depth).clamp(0, 255) as u8),
            UciInfoAttribute::Any("currmove".to_string(), action.to_string()),
            // vampirc-uci writes `currmovenum`; UCI says `currmovenumber`.
            UciInfoAttribute::Any("currmovenumber".to_string(), number.to_string()),
        ])
        .serialize(),
    }
}

/// The `info` line of an iteration's line.
fn line_info(report: &Report, odds: Option<WinDrawLoss>) -> String {
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
    ];
    if let Some(odds) = odds {
        // vampirc-uci has no `wdl`; Stockfish writes it after the score.
        attributes.push(UciInfoAttribute::Any(
            "wdl".to_string(),
            format!("{} {} {}", odds.win, odds.draw, odds.loss),
        ));
    }
    attributes.extend([
        UciInfoAttribute::Nodes(report.nodes),
        UciInfoAttribute::Nps(report.nodes.saturating_mul(1000) / millis),
        UciInfoAttribute::HashFull(report.hashfull),
        UciInfoAttribute::TbHits(report.tb_hits),
        UciInfoAttribute::Time(vampirc_uci::Duration::milliseconds(
            report.time.as_millis() as i64
        )),
    ]);
    if !report.pv.is_empty() {
        let pv: Vec<String> = report.pv.iter().map(|&action| action.to_string()).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::time::{Budget, TimeLeft};

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
        let position = Position::from_fen("8/4P3/8/8/8/k7/8/K7 w - - 0 1").unwrap();
        let promotion = position.parse_move("e7e8q").unwrap();
        let king = position.parse_move("a1b1").unwrap();
        let result = |best: Option<Action>, ponder: Option<Action>| SearchResult {
            best,
            ponder,
            score: 0,
            nodes: 0,
            depth: 1,
            best_share: 0.0,
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

    /// The budget `go` would search with after `position`, in SSCC.
    fn budget_after(position: &str, go: &str) -> Budget {
        budget_in("sscc", position, go)
    }

    /// The budget `go` would search with after `position`, in `variant`.
    fn budget_in(variant: &str, position: &str, go: &str) -> Budget {
        let mut uci = Uci::new();
        uci.handle(&format!("setoption name UCI_Variant value {variant}"));
        uci.handle(position);
        let tokens: Vec<&str> = go.split_whitespace().skip(1).collect();
        uci.engine
            .budget(&uci.parse_go(&tokens))
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

    /// SSCC games are short, so the clock is planned over fewer moves: the
    /// same clock gives an SSCC move about twice a chess move's time.
    #[test]
    fn sscc_plans_the_clock_over_fewer_moves() {
        let go = "go wtime 10000 btime 10000 winc 100 binc 100";
        let clock = TimeLeft {
            time: Duration::from_millis(10_000),
            increment: Duration::from_millis(100),
            moves_to_go: None,
        };
        let overhead = Duration::from_millis(Options::default().move_overhead);
        let sscc = budget_in("sscc", "position startpos", go);
        let chess = budget_in("chess", "position startpos", go);
        assert_eq!(sscc, Budget::sscc(clock, overhead));
        assert_eq!(chess, Budget::from_clock(clock, overhead));
        assert!(sscc.soft > chess.soft * 3 / 2, "{sscc:?} {chess:?}");
    }
}
