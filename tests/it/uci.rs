//! The UCI engine driven as a GUI drives it: the real binary over stdin and stdout.

use std::process::Command;
use std::time::{Duration, Instant};

use catena_core::board::Position;
use catena_core::game::Rules;
use catena_engine::book::{Book, Verdict};
use catena_engine::options::{OPTIONS, UciOption};

use crate::common::uci_engine::{Engine, PATIENCE};

/// Asserts that `line` is `bestmove <m> …` with `<m>` legal in `position`, and returns the move.
fn assert_legal(position: &Position, line: &str) -> String {
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields[0], "bestmove", "{line}");
    let mv = fields[1];
    assert!(
        position.parse_move(mv).is_ok(),
        "illegal {line} in {}",
        position.to_fen()
    );
    if let Some(&"ponder") = fields.get(2) {
        let reply = position.after(position.parse_move(mv).unwrap());
        assert!(
            reply.parse_move(fields[3]).is_ok(),
            "illegal ponder move in {line}"
        );
    }
    mv.to_string()
}

fn position_of(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn handshake_lists_every_option() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines.iter().any(|line| line.starts_with("id name Catena")));
    assert!(lines.iter().any(|line| line.starts_with("id author")));
    for option in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name Move Overhead type spin",
        "option name MultiPV type spin",
        "option name Ponder type check",
        "option name Clear Hash type button",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_Variant type combo default chess var chess var sscc",
        "option name SwitchRule type combo default chain var chain var moves var unlimited",
        "option name MinEnclosed type spin default 2 min 1 max 16",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(option)),
            "missing '{option}' in {lines:#?}"
        );
    }
    assert_eq!(engine.ready().last().unwrap(), "readyok");
    engine.quit();
}

/// `UCI_ShowWDL` adds `wdl W D L` (per mille, summing to 1000) after the
/// score of every line, certain for a mate; without it there is none.
#[test]
fn show_wdl_adds_the_odds_to_every_line() {
    for (variant, fen, mates) in [
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        ("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", true),
        (
            "sscc",
            "rnbqkbnr/pppp1ppp/8/4p3/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 2",
            false,
        ),
    ] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        for show in [false, true] {
            engine.send(&format!("setoption name UCI_ShowWDL value {show}"));
            engine.send(&format!("position fen {fen}"));
            engine.send("go depth 6");
            let (_, lines) = engine.bestmove();
            let scored: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
            assert!(!scored.is_empty(), "{lines:#?}");
            for line in scored {
                let words: Vec<&str> = line.split_whitespace().collect();
                let Some(at) = words.iter().position(|&word| word == "wdl") else {
                    assert!(!show, "no wdl in '{line}'");
                    continue;
                };
                assert!(show, "wdl without UCI_ShowWDL in '{line}'");
                let odds: Vec<u32> = words[at + 1..at + 4]
                    .iter()
                    .map(|word| word.parse().unwrap())
                    .collect();
                assert_eq!(odds.iter().sum::<u32>(), 1000, "{line}");
                if mates && line.contains("score mate") {
                    assert_eq!(odds, [1000, 0, 0], "{line}");
                }
            }
        }
        engine.quit();
    }
}

#[test]
fn every_go_form_returns_a_legal_move() {
    let mut engine = Engine::start();
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let position = position_of(fen);
    for go in [
        "go depth 5",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 500 btime 500 movestogo 1",
        "go wtime 5 btime 5",
        "go nodes 5000",
        "go mate 2 depth 6",
        "go depth 4 searchmoves a2a3 b2b3",
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send(go);
        let (line, lines) = engine.bestmove();
        let mv = assert_legal(&position, &line);
        assert!(
            lines.iter().any(|line| line.starts_with("info depth")),
            "{go}: no info line"
        );
        if go.contains("searchmoves") {
            assert!(["a2a3", "b2b3"].contains(&mv.as_str()), "{line}");
        }
    }
    engine.quit();
}

/// `go infinite` answers `isready` while it searches, gives no `bestmove`
/// before `stop`, and a legal one after it. (How fast `stop` is answered is
/// a matter for a benchmark, not for a test that a loaded machine could fail.)
#[test]
fn stop_during_infinite_answers_with_a_legal_move() {
    let mut engine = Engine::start();
    let position = Position::startpos();
    for _ in 0..3 {
        engine.send("position startpos");
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let lines = engine.ready();
        assert!(!lines.iter().any(|line| line.starts_with("bestmove")));
        engine.send("stop");
        let (line, _) = engine.bestmove();
        assert_legal(&position, &line);
    }
    engine.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4");
    engine.send("go ponder wtime 1000 btime 1000 depth 3");
    std::thread::sleep(Duration::from_millis(200));
    let lines = engine.ready();
    assert!(
        !lines.iter().any(|line| line.starts_with("bestmove")),
        "{lines:#?}"
    );
    engine.send("ponderhit");
    let (line, _) = engine.bestmove();
    assert_legal(
        &position_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        &line,
    );
    engine.quit();
}

#[test]
fn finds_mate_in_one() {
    let mut engine = Engine::start();
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    engine.send("go depth 4");
    let (line, lines) = engine.bestmove();
    assert_eq!(line, "bestmove d1d8");
    assert!(
        lines.iter().any(|line| line.contains("score mate 1")),
        "{lines:#?}"
    );
    engine.quit();
}

#[test]
fn no_legal_move_gives_0000() {
    let mut engine = Engine::start();
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 3");
        assert_eq!(engine.bestmove().0, "bestmove 0000");
    }
    engine.quit();
}

#[test]
fn bad_input_is_named_and_the_position_kept() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let lines = engine.ready();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string error:") && line.contains("e1e3")),
        "{lines:#?}"
    );
    assert_eq!(
        engine.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    for bad in [
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        // Impossible in a game: 17 men, 9 pawns, a check by two pawns.
        "position fen rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen 4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1",
        "position fen 8/8/8/4k3/3P1P2/8/8/4K3 b - - 0 1",
        "frobnicate",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "position startpos moves e2e4 switch",
        "go depth x",
    ] {
        engine.send(bad);
        let lines = engine.ready();
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("info string error:")),
            "no error for '{bad}': {lines:#?}"
        );
        if bad.starts_with("go") {
            engine.send("stop");
            engine.bestmove();
        }
    }
    engine.quit();
}

#[test]
fn switch_tokens_are_checked() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value sscc");
    // 1.c3 e5 2.d3 forms a chain (docs/rules.md, section 2): the switch is accepted.
    engine.send("position startpos moves c2c3 e7e5 d2d3 switch g8f6");
    let lines = engine.ready();
    assert!(
        !lines.iter().any(|line| line.contains("error")),
        "{lines:#?}"
    );
    // e2e4 forms none: the switch is refused and the position keeps e2e4.
    engine.send("position startpos moves e2e4 switch e7e5");
    let lines = engine.ready();
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string error:") && line.contains("chain")),
        "{lines:#?}"
    );
    let fen = engine.fen();
    assert!(
        fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"),
        "{fen}"
    );
    engine.quit();
}

/// The GUI decides when its game ends: a move list that goes on past a
/// threefold repetition is played to its end, in chess and in SSCC, and the
/// search answers from there.
#[test]
fn moves_after_a_draw_by_rule_are_played() {
    let knights = "g1f3 g8f6 f3g1 f6g8 ".repeat(2);
    for variant in ["chess", "sscc"] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name UCI_Variant value {variant}"));
        engine.send(&format!("position startpos moves {knights}e2e4"));
        let lines = engine.ready();
        assert!(
            !lines.iter().any(|line| line.contains("error")),
            "{variant}: {lines:#?}"
        );
        assert_eq!(
            engine.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 5",
            "{variant}"
        );
        let position = position_of(&engine.fen());
        engine.send("go depth 2");
        let (line, _) = engine.bestmove();
        assert_legal(&position, &line);
        engine.quit();
    }
}

#[test]
fn display_and_perft_follow_the_switch_run() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value sscc");
    // 2.d3 closes b2-c3-d3-e2-d1-c1 around c2 d2: `d` names the chain.
    engine.send("position startpos moves c2c3 e7e5 d2d3 switch");
    engine.send("d");
    let lines = engine.until("Last move");
    assert_eq!(
        lines.last().unwrap(),
        "Last move: d2d3, formed a chain of size 2; smallest: d3 e2 d1 c1 b2 c3 around c2 d2"
    );
    // After ...Ba3 and a second switch the run of 2 is at its limit (the
    // chain's size): none of White's six chain-closing moves may switch.
    let fen = "rnbqk1nr/pppp1ppp/8/4p3/8/b1PP4/PP2PPPP/RNBQKBNR w KQkq - 1 3";
    for (position, switches) in [
        (
            "startpos moves c2c3 e7e5 d2d3 switch f8a3 switch".to_string(),
            0,
        ),
        (format!("fen {fen}"), 6),
    ] {
        engine.send(&format!("position {position}"));
        engine.send("go perft 1");
        let lines = engine.until("Nodes searched");
        let switch_lines = lines
            .iter()
            .filter(|line| line.contains(" switch:"))
            .count();
        assert_eq!(switch_lines, switches, "{position}: {lines:#?}");
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {}", 27 + switches)
        );
    }
    engine.quit();
}

/// `eval` gives the chess network's view, and in SSCC also the SSCC
/// network's, which reads the run in progress and the pockets.
#[test]
fn eval_shows_the_sscc_network_in_sscc() {
    let mut engine = Engine::start();
    engine.send("position startpos moves c2c3 e7e5 d2d3 switch");
    engine.send("eval");
    let chess = engine.until("Network evaluation");
    assert!(
        chess.last().unwrap().contains("(side to move)"),
        "{chess:#?}"
    );
    engine.send("setoption name UCI_Variant value sscc");
    engine.send("position startpos moves c2c3 e7e5 d2d3 switch");
    engine.send("eval");
    let lines = engine.until("SSCC network evaluation");
    assert!(
        lines
            .last()
            .unwrap()
            .contains("switches in a row: 1; empty squares cut off: 2"),
        "{lines:#?}"
    );
    engine.quit();
}

#[test]
fn sscc_switches_into_a_mate() {
    // White to move: d2d3 closes b2-c3-d3-e2-d1-c1 around c2 and d2, and after
    // a switch the same player, now Black, mates with Qh4.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/2P2P2/PP1PP2P/RNBQKBNR w KQkq - 0 3";
    let position = position_of(fen);
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value sscc");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 4");
    let (line, lines) = engine.bestmove();
    assert!(line.ends_with(" switch"), "{line}");
    assert_legal(&position, &line);
    assert!(
        lines.iter().any(|line| line.contains("score mate 1")),
        "{lines:#?}"
    );
    // In chess mode the same position never switches.
    engine.send("setoption name UCI_Variant value chess");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 4");
    let (line, _) = engine.bestmove();
    assert!(!line.contains("switch"), "{line}");
    engine.quit();
}

#[test]
fn malformed_script_never_crashes() {
    let mut engine = Engine::start();
    let mut script: Vec<String> = vec![
        "go depth 2".into(),
        "stop".into(),
        "ponderhit".into(),
        "".into(),
        "   ".into(),
        "position".into(),
        "position fen".into(),
        "position moves e2e4".into(),
        "position startpos moves".into(),
        "position startpos moves zzzz".into(),
        "position startpos moves e2e4 e2e4".into(),
        "position startpos moves e7e5".into(),
        "position startpos moves e2e4 switch switch".into(),
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1".into(),
        "position fen k7/8/8/8/8/8/8/K7 w - - 0 1 moves a1a2".into(),
        "position fen 4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1".into(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1"
            .into(),
        "go depth 99999999999999999999999".into(),
        "stop".into(),
        "go nodes -5".into(),
        "go wtime -100 btime -100".into(),
        "go movetime 0".into(),
        "go mate 0".into(),
        "go perft 0".into(),
        "go perft 2".into(),
        "go perft x".into(),
        "go searchmoves".into(),
        "stop".into(),
        "setoption".into(),
        "setoption name".into(),
        "setoption name Hash".into(),
        "setoption name Hash value 0".into(),
        "setoption name Hash value 99999999999999999999".into(),
        "setoption name Threads value -1".into(),
        "setoption name MinEnclosed value 17".into(),
        "setoption name SwitchRule value sometimes".into(),
        "setoption name UCI_Variant value shogi".into(),
        "debug maybe".into(),
        "quit now please".into(),
    ];
    for index in 0..300 {
        let garbage: String = (0..(index % 40))
            .map(|i| char::from(b' ' + ((index * 31 + i * 17) % 95) as u8))
            .collect();
        script.push(garbage);
        script.push(format!(
            "position startpos moves e2e4 {}",
            &script[script.len() - 1]
        ));
    }
    let position = Position::startpos();
    for line in &script {
        if line.starts_with("quit") {
            continue;
        }
        engine.send(line);
        if line.starts_with("go") && !line.contains("perft") {
            engine.send("stop");
            let (best, _) = engine.bestmove();
            assert!(best.starts_with("bestmove "), "{best}");
        }
    }
    engine.ready();
    engine.send("position startpos");
    engine.send("go depth 3");
    assert_legal(&position, &engine.bestmove().0);
    engine.quit();
}

/// The score of an `info … multipv K … score cp N …` line, as (depth, K, N).
fn multipv_score(line: &str) -> Option<(u32, usize, i32)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        let at = words.iter().position(|word| *word == key)?;
        words.get(at + 1).copied()
    };
    let depth = after("depth")?.parse().ok()?;
    let line_number = after("multipv")?.parse().ok()?;
    let score = match after("score")? {
        "cp" => after("cp")?.parse().ok()?,
        "mate" => {
            let moves: i32 = after("mate")?.parse().ok()?;
            if moves > 0 {
                100_000 - moves
            } else {
                -100_000 - moves
            }
        }
        _ => return None,
    };
    Some((depth, line_number, score))
}

/// Every depth's lines come out best first, as Stockfish prints them, from
/// the position where, before the fix, line 3 (cp 13) followed line 2 (cp −24).
#[test]
fn multipv_lines_are_in_score_order() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.until("uciok");
    engine.send("setoption name MultiPV value 3");
    engine.ready();
    engine.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    engine.send("go depth 12");
    let (_, lines) = engine.bestmove();
    let scores: Vec<(u32, usize, i32)> = lines.iter().filter_map(|l| multipv_score(l)).collect();
    assert!(
        scores
            .iter()
            .any(|&(depth, line, _)| depth == 12 && line == 3),
        "{lines:#?}"
    );
    for pair in scores.windows(2) {
        let ((depth, line, score), (next_depth, next_line, next_score)) = (pair[0], pair[1]);
        if depth == next_depth && next_line == line + 1 {
            assert!(
                score >= next_score,
                "depth {depth}: line {line} {score} before {next_score}"
            );
        }
    }
    engine.quit();
}

/// The end of input means the GUI has gone: a search still running, even one
/// with a depth it would take hours to reach, is stopped, gives its move, and
/// the process ends, as Stockfish's does.
#[test]
fn end_of_input_ends_the_process() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 100");
    engine.ready();
    let Engine {
        mut child,
        stdin,
        lines,
    } = engine;
    drop(stdin);
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the engine runs on after the end of input"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(status.success(), "exit status {status}");
    // The reader thread ends when the pipe closes: every line is in by then.
    let output: Vec<String> = lines.iter().collect();
    let bestmove = output.iter().find(|line| line.starts_with("bestmove"));
    let start = position_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_legal(&start, bestmove.expect("a bestmove before the exit"));
}

/// A 10 MB line of nonsense, as a command, a move and a `go` parameter, is
/// named in a short message (quoting at most 100 characters of it, and never
/// over 500 in all), and the engine answers the next command as before.
#[test]
fn a_huge_bad_line_gets_a_short_answer() {
    let mut engine = Engine::start();
    let junk = "x".repeat(10 << 20);
    for line in [
        junk.clone(),
        format!("position startpos moves {junk}"),
        format!("go depth 1 {junk}"),
    ] {
        engine.send(&line);
        let lines = engine.ready();
        let errors: Vec<&String> = lines.iter().filter(|line| line.contains("error")).collect();
        assert_eq!(
            errors.len(),
            1,
            "{:?}",
            lines.iter().map(|l| l.len()).collect::<Vec<_>>()
        );
        // At most 500 characters of message, whatever parts of the input it quotes.
        assert!(
            errors[0].chars().count() <= 520,
            "a message of {} bytes",
            errors[0].len()
        );
        assert!(
            errors[0].contains(&format!("{}…", "x".repeat(100))),
            "{}",
            errors[0]
        );
    }
    engine.send("position startpos moves e2e4");
    assert!(engine.fen().starts_with("rnbqkbnr/pppppppp/8/8/4P3"));
    engine.quit();
}

/// A hash size the machine cannot give is refused with a message, and the
/// engine keeps its old table and goes on; before, the failed allocation
/// aborted the process. Here the engine may use 2 GB of address space.
#[test]
fn a_hash_too_big_for_the_machine_is_refused_and_the_engine_goes_on() {
    let mut shell = Command::new("sh");
    shell.args([
        "-c",
        &format!(
            "ulimit -v 2000000 && exec \"{}\"",
            env!("CARGO_BIN_EXE_catena")
        ),
    ]);
    let mut engine = Engine::start_with(shell);
    engine.send("uci");
    engine.until("uciok");
    engine.send("setoption name Hash value 4096");
    let lines = engine.ready();
    assert!(
        lines
            .iter()
            .any(|line| line.contains("error: cannot allocate 4096 MB")),
        "{lines:#?}"
    );
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4");
    engine.send("go depth 6");
    let (bestmove, _) = engine.bestmove();
    assert_legal(
        &position_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        &bestmove,
    );
    engine.quit();
}

/// `go perft` and `bench` run where searches run: `isready` is answered
/// while they count (before their result), `stop` ends them, and the
/// commands after them are answered as before. Either would take minutes.
#[test]
fn perft_and_bench_answer_isready_and_stop() {
    let mut engine = Engine::start();
    for (command, result) in [("go perft 8", "Nodes searched"), ("bench 40", "nodes ")] {
        engine.send("position startpos");
        engine.send(command);
        let lines = engine.ready();
        assert!(
            !lines.iter().any(|line| line.contains(result)),
            "{command} finished before isready was answered: {lines:#?}"
        );
        engine.send("stop");
        engine.send("position startpos moves e2e4");
        let lines = engine.ready();
        assert!(
            lines.iter().any(|line| line.contains("stopped")),
            "{command}: {lines:#?}"
        );
        assert!(engine.fen().starts_with("rnbqkbnr/pppppppp/8/8/4P3"));
    }
    engine.quit();
}

/// Words the fuzzer builds UCI lines from: commands, parameters, option
/// names and values, moves, FEN fields, numbers out of every range.
const FUZZ_COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "setoption",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "debug",
    "register",
    "",
    "Position",
    "GO",
    "moves",
];
const FUZZ_WORDS: &[&str] = &[
    "startpos",
    "fen",
    "moves",
    "switch",
    "e2e4",
    "e7e5",
    "c2c3",
    "d2d3",
    "d7d5",
    "g1f3",
    "e1g1",
    "a7a8q",
    "0000",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "e3",
    "8/8/8/8/8/8/8/8",
    "4k3/8/8/8/8/8/8/4K3",
    "depth",
    "movetime",
    "nodes",
    "mate",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Ponder",
    "Move",
    "Overhead",
    "Clear",
    "UCI_Variant",
    "sscc",
    "chess",
    "SwitchRule",
    "MinEnclosed",
    "UCI_ShowWDL",
    "chain",
    "unlimited",
    "true",
    "false",
    "on",
    "off",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "17",
    "1000",
    "-99999999999999999999",
    "99999999999999999999999",
    "1e3",
    "0x10",
    "+5",
    "é",
    "\t",
];

/// Legal in `position`, or `0000` where no move is: the move of a `bestmove` line.
fn assert_bestmove_fits(fen: &str, line: &str) {
    let position = position_of(fen);
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields.first(), Some(&"bestmove"), "{line}");
    match fields.get(1) {
        Some(&"0000") => assert!(position.legal_moves().is_empty(), "0000 in {fen}"),
        Some(mv) => assert!(position.parse_move(mv).is_ok(), "illegal {line} in {fen}"),
        None => panic!("a bestmove without a move: {line}"),
    }
}

fn fuzz_line() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let word = prop_oneof![
        6 => proptest::sample::select(FUZZ_WORDS).prop_map(String::from),
        1 => "[ -~]{0,10}",
        1 => any::<String>().prop_map(|text| {
            text.chars().filter(|c| *c != '\n' && *c != '\r').take(8).collect()
        }),
    ];
    let command = proptest::sample::select(FUZZ_COMMANDS).prop_map(String::from);
    (command, proptest::collection::vec(word, 0..10))
        .prop_map(|(command, words)| format!("{command} {}", words.join(" ")))
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 20,
        max_shrink_iters: 64,
        ..proptest::test_runner::Config::default()
    })]

    /// 20 runs of 100 generated malformed lines (2,000 in all): after each
    /// line `isready` is answered, and each `go` ends, at `stop`, in a
    /// `bestmove` legal in the position `d` then shows.
    #[test]
    fn fuzzed_lines_never_break_the_protocol(lines in proptest::collection::vec(fuzz_line(), 100)) {
        let mut engine = Engine::start();
        for line in &lines {
            engine.send(line);
            if line.split_whitespace().next() == Some("go") {
                engine.send("stop");
                let (bestmove, _) = engine.bestmove();
                let fen = engine.fen();
                assert_bestmove_fits(&fen, &bestmove);
            }
            engine.ready();
        }
        engine.quit();
    }
}

/// After the first second the engine tells which root move it is searching,
/// as Stockfish does: `info depth D currmove M currmovenumber N`, M legal
/// and N counting from 1; a search over within the second tells none.
#[test]
fn long_searches_tell_the_current_move() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 1");
    let (_, lines) = engine.bestmove();
    assert!(
        lines.iter().all(|line| !line.contains(" currmove ")),
        "{lines:#?}"
    );
    engine.send("go movetime 3000");
    let (_, lines) = engine.bestmove();
    let current: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains(" currmove "))
        .collect();
    let start = position_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let mut numbers = Vec::new();
    for line in current {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[..2], ["info", "depth"], "{line}");
        assert_eq!(words[3], "currmove", "{line}");
        assert!(start.parse_move(words[4]).is_ok(), "{line}");
        assert_eq!(words[5], "currmovenumber", "{line}");
        let number: usize = words[6].parse().unwrap();
        assert!((1..=20).contains(&number), "{line}");
        numbers.push(number);
    }
    // Every iteration begun in the last two seconds starts with move 1.
    assert!(numbers.contains(&1), "{lines:#?}");
    engine.quit();
}

/// The README's table of options is the engine's own table, row for row.
#[test]
fn the_readme_lists_the_options_as_the_engine_has_them() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable");
    let section = readme
        .split("\n## UCI options\n")
        .nth(1)
        .expect("the README has a section 'UCI options'");
    let rows: Vec<&str> = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .collect();
    let expected: Vec<String> = OPTIONS.iter().map(UciOption::readme_row).collect();
    assert_eq!(rows, expected);
}

/// `uci` lists exactly the table's options, by name, in its order.
#[test]
fn uci_prints_every_option_of_the_table() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    let names: Vec<&str> = lines
        .iter()
        .filter_map(|line| line.strip_prefix("option name "))
        .map(|rest| rest.split(" type ").next().unwrap_or(rest))
        .collect();
    let expected: Vec<&str> = OPTIONS.iter().map(|option| option.name).collect();
    assert_eq!(names, expected);
}

/// In SSCC the engine plays the book's proven wins at once, the book's
/// first action, and says the win is proven (issue 53, point 3), under
/// the rules each win was proved for; in chess it searches as ever.
#[test]
fn the_engine_plays_every_proven_win_of_its_book() {
    let book = Book::built_in();
    let wins: Vec<_> = book.wins().collect();
    assert!(!wins.is_empty(), "the built-in book has no win");
    assert!(
        wins.iter().any(|record| record.rules != Rules::default()),
        "the built-in book has no win under other rules"
    );
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Variant value sscc");
    for record in &wins {
        let Verdict::Win { plies, line } = &record.verdict else {
            unreachable!("the book keeps wins only");
        };
        engine.send(&format!(
            "setoption name SwitchRule value {}",
            record.rules.switch_rule
        ));
        engine.send(&format!(
            "setoption name MinEnclosed value {}",
            record.rules.min_enclosed
        ));
        engine.send(&format!("position fen {}", record.fen));
        engine.send("go movetime 100");
        let (best, lines) = engine.bestmove();
        let played = best.split(" ponder ").next().unwrap();
        assert_eq!(played, format!("bestmove {}", line[0]), "{}", record.fen);
        let proven = format!("info string book: proven win in {plies} plies");
        assert!(
            lines.iter().any(|line| line.starts_with(&proven)),
            "{}: {lines:#?}",
            record.fen
        );
    }
    engine.send("setoption name UCI_Variant value chess");
    engine.send(&format!("position fen {}", wins[0].fen));
    engine.send("go depth 2");
    let (_, lines) = engine.bestmove();
    assert!(
        !lines.iter().any(|line| line.contains("book:")),
        "{lines:#?}"
    );
    engine.quit();
}
