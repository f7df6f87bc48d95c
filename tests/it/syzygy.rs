//! Syzygy tablebases (docs/syzygy.md): the four options, the scores and
//! `tbhits` the binary reports with the tables of `tests/data/syzygy/`, a won
//! endgame converted within the fifty-move rule, bad paths refused, and the
//! bound on men below which SSCC is chess, proved with the chain oracle.

use std::process::Command;

use rayon::prelude::*;

use crate::common::oracle::{OGrid, Options, XY, oracle};
use crate::common::scratch::ScratchDir;
use crate::common::tablebase::{stockfish, tables, won_4_man_positions};
use crate::common::uci_engine::Engine;
use catena_core::board::{Color, Position, Square};
use catena_core::chain;
use catena_core::game::{Rules, SwitchRule};

/// An engine with `SyzygyPath` set to the test tables, in `variant`.
fn engine_with_tables(variant: &str) -> Engine {
    let mut engine = Engine::start();
    engine.send(&format!("setoption name UCI_Variant value {variant}"));
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    let lines = engine.ready();
    assert!(
        !lines.iter().any(|line| line.contains("error")),
        "the test tables are refused: {lines:#?}"
    );
    engine
}

/// The last `info … score …` line of a search of `fen` with `go`, and the
/// `bestmove` line.
fn search(engine: &mut Engine, fen: &str, go: &str) -> (Scored, String) {
    engine.send(&format!("position fen {fen}"));
    engine.send(go);
    let (bestmove, lines) = engine.bestmove();
    let last = lines
        .iter()
        .rev()
        .find(|line| line.contains(" score "))
        .unwrap_or_else(|| panic!("no score for {fen}: {lines:#?}"));
    (Scored::read(last), bestmove)
}

/// What an `info` line says of the score and the tablebase hits.
#[derive(Debug)]
struct Scored {
    line: String,
    depth: u32,
    /// `score cp N`; `None` for a mate score.
    cp: Option<i32>,
    tb_hits: u64,
}

impl Scored {
    fn read(line: &str) -> Scored {
        let words: Vec<&str> = line.split_whitespace().collect();
        let after = |key: &str| {
            let at = words.iter().position(|&word| word == key)?;
            words.get(at + 1).copied()
        };
        let number = |key: &str| after(key).unwrap_or_else(|| panic!("no {key} in '{line}'"));
        Scored {
            line: line.to_string(),
            depth: number("depth").parse().unwrap(),
            cp: after("cp").map(|cp| cp.parse().unwrap()),
            tb_hits: number("tbhits").parse().unwrap(),
        }
    }
}

/// White wins with the rook, and with the queen, neither with a mate in one.
const KRVK: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
const KQVK: &str = "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1";
/// Black's king in the corner of the rook pawn: a draw.
const KPVK_DRAW: &str = "k7/8/8/8/8/8/P7/K7 w - - 0 1";

#[test]
fn uci_lists_the_four_syzygy_options_with_stockfishs_defaults() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(
            lines.iter().any(|line| line == option),
            "missing '{option}' in {lines:#?}"
        );
    }
    engine.quit();
}

/// At depth 1 a won root in the tables reports `cp 20000`, as Stockfish
/// reports a tablebase win, and the loser `cp -20000`; without the tables
/// the same searches report an evaluation.
#[test]
fn won_endgames_report_a_tablebase_win_at_depth_1() {
    let mut engine = engine_with_tables("chess");
    let mut without = Engine::start();
    for (fen, cp) in [
        (KRVK, 20_000),
        (KQVK, 20_000),
        ("8/8/8/3k4/8/8/8/Q3K3 b - - 0 1", -20_000),
    ] {
        let (scored, _) = search(&mut engine, fen, "go depth 1");
        assert_eq!(scored.depth, 1, "{}", scored.line);
        assert_eq!(scored.cp, Some(cp), "{fen}: {}", scored.line);
        assert!(scored.tb_hits > 0, "{fen}: {}", scored.line);
        let (plain, _) = search(&mut without, fen, "go depth 1");
        assert_eq!(plain.tb_hits, 0, "{}", plain.line);
        assert!(
            plain.cp.is_some_and(|plain| plain.abs() < 10_000),
            "{}",
            plain.line
        );
    }
    engine.quit();
    without.quit();
}

#[test]
fn a_kpvk_draw_is_reported_as_a_draw() {
    let mut engine = engine_with_tables("chess");
    for go in ["go depth 1", "go depth 8"] {
        let (scored, _) = search(&mut engine, KPVK_DRAW, go);
        assert_eq!(scored.cp, Some(0), "{}", scored.line);
        assert!(scored.tb_hits > 0, "{}", scored.line);
    }
    engine.quit();
}

/// Below the root the search reads the tables after a capture: taking the
/// bishop leaves KQvK, a tablebase win a ply down (`cp 19999` and less),
/// where the test tables have no KQvKB.
#[test]
fn the_search_probes_after_a_capture() {
    let fen = "8/7k/8/3b4/3Q4/8/8/K7 w - - 0 1";
    let mut engine = engine_with_tables("chess");
    let (scored, bestmove) = search(&mut engine, fen, "go depth 4");
    assert!(
        scored.cp.is_some_and(|cp| (19_900..20_000).contains(&cp)),
        "{}",
        scored.line
    );
    assert!(scored.tb_hits > 0, "{}", scored.line);
    assert!(bestmove.starts_with("bestmove d4d5"), "{bestmove}");
    engine.quit();
}

/// The defender of the conversion games: Stockfish where it is installed
/// (without tables), Catena otherwise, but never under CI (`CI=true`),
/// where `.ci/run` installs Stockfish; and its `go`.
fn defender() -> (Engine, &'static str) {
    let (mut engine, go) = match stockfish() {
        Some(command) => (Engine::start_with(Command::new(command)), "go depth 12"),
        None => (Engine::start(), "go depth 8"),
    };
    engine.send("uci");
    engine.until("uciok");
    (engine, go)
}

/// Plays from `start` (White to move, winning), `winner` with White and
/// `defender` with Black, a move each, until the game ends: the moves, and
/// the final position.
fn play_out(
    start: &str,
    winner: &mut Engine,
    (defender, defender_go): (&mut Engine, &str),
) -> (Vec<String>, Position) {
    let mut position = Position::from_fen(start).unwrap();
    let mut moves: Vec<String> = Vec::new();
    while position.has_legal_move() && position.halfmove_clock() < 100 {
        let (engine, go) = match position.side_to_move() {
            Color::White => (&mut *winner, "go depth 6"),
            Color::Black => (&mut *defender, defender_go),
        };
        engine.send(&format!("position fen {start} moves {}", moves.join(" ")));
        engine.send(go);
        let (bestmove, _) = engine.bestmove();
        let mv = bestmove.split_whitespace().nth(1).unwrap().to_string();
        let parsed = position
            .parse_move(&mv)
            .unwrap_or_else(|_| panic!("illegal {mv} after {moves:?}"));
        position.play(parsed);
        moves.push(mv);
    }
    (moves, position)
}

/// Whether the game ended with White mating: every capture or pawn move
/// of the winner resets the clock, so a mate reached means the fifty-move
/// rule did not draw first.
fn white_mated(position: &Position) -> bool {
    position.side_to_move() == Color::Black && position.in_check() && !position.has_legal_move()
}

/// The engine with the tables plays the won side of KQvK against a
/// defender without them: it mates before the fifty-move rule draws.
#[test]
fn a_won_kqvk_is_mated_within_the_fifty_move_rule() {
    // Far from mate: the defending king in the centre, the attackers apart.
    let start = "8/8/8/4k3/8/8/8/K6Q w - - 0 1";
    let mut winner = engine_with_tables("chess");
    let (mut defender, go) = defender();
    let (moves, position) = play_out(start, &mut winner, (&mut defender, go));
    assert!(
        white_mated(&position),
        "no mate after {} plies ({}): {moves:?}",
        moves.len(),
        position.to_fen()
    );
    winner.quit();
    defender.send("quit");
}

/// Twenty won 4-man positions, drawn by a seeded generator from KBNvK
/// (mates up to 33 moves from a zeroing move, which an engine without
/// tables often misses), KQvKR and KRvKN, each with at least 20 plies to
/// the next capture or pawn move: the engine with the tables mates in
/// every one within the fifty-move rule.
#[test]
#[ignore = "long tier: twenty games, about a minute"]
fn twenty_won_4_man_positions_are_mated_within_the_fifty_move_rule() {
    let starts = won_4_man_positions(20);
    let mut winner = engine_with_tables("chess");
    let (mut defender, go) = defender();
    for start in &starts {
        winner.send("ucinewgame");
        defender.send("ucinewgame");
        let (moves, position) = play_out(start, &mut winner, (&mut defender, go));
        assert!(
            white_mated(&position),
            "{start}: no mate after {} plies ({}): {moves:?}",
            moves.len(),
            position.to_fen()
        );
    }
    winner.quit();
    defender.send("quit");
}

/// A missing folder, a path that is a file, a file named as a table that is
/// none, and a table cut short: each is refused with `info string error`,
/// the engine searches on without tables, and a good path still works after.
#[test]
fn bad_syzygy_paths_are_refused_and_the_engine_goes_on() {
    let scratch = ScratchDir::new("bad-syzygy");
    let not_a_table = scratch.join("not-a-table");
    std::fs::create_dir_all(&not_a_table).unwrap();
    std::fs::write(not_a_table.join("KQvK.rtbw"), "these are not the tables\n").unwrap();
    let cut_short = scratch.join("cut-short");
    std::fs::create_dir_all(&cut_short).unwrap();
    let whole = std::fs::read(tables().join("KQvK.rtbz")).unwrap();
    std::fs::write(cut_short.join("KQvK.rtbz"), &whole[..whole.len() / 2]).unwrap();
    let a_file = tables().join("KQvK.rtbw");
    let missing = scratch.join("no-such-folder");

    let mut engine = Engine::start();
    for (path, why) in [
        (&missing, "cannot read folder"),
        (&a_file, "cannot read folder"),
        (&not_a_table, "is not a Syzygy table"),
        (&cut_short, "is damaged"),
    ] {
        engine.send(&format!(
            "setoption name SyzygyPath value {}",
            path.display()
        ));
        let lines = engine.ready();
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("info string error: ") && line.contains(why)),
            "{}: {lines:#?}",
            path.display()
        );
        let (scored, bestmove) = search(&mut engine, KQVK, "go depth 1");
        assert_eq!(scored.tb_hits, 0, "{}", scored.line);
        assert_ne!(scored.cp, Some(20_000), "{}", scored.line);
        assert!(bestmove.starts_with("bestmove "), "{bestmove}");
    }
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    let (scored, _) = search(&mut engine, KQVK, "go depth 1");
    assert_eq!(scored.cp, Some(20_000), "{}", scored.line);
    engine.quit();
}

/// A table cut short by a whole number of 64-byte blocks looks whole by its
/// size: its probes fail, and the engine searches on as without it.
#[test]
fn a_table_cut_at_a_block_boundary_fails_its_probes_not_the_engine() {
    let scratch = ScratchDir::new("cut-at-block");
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        let whole = std::fs::read(tables().join(name)).unwrap();
        std::fs::write(scratch.join(name), &whole[..whole.len() - 128]).unwrap();
    }
    let mut engine = Engine::start();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        scratch.display()
    ));
    for _ in 0..2 {
        let (scored, bestmove) = search(&mut engine, KQVK, "go depth 6");
        assert_ne!(scored.cp, Some(20_000), "{}", scored.line);
        assert!(bestmove.starts_with("bestmove "), "{bestmove}");
    }
    engine.quit();
}

/// In SSCC the tables hold below `Rules::chainless_men`: KQvK is a
/// tablebase win, KRvKR (4 men) is read at MinEnclosed 2 (5 men at most)
/// but not at MinEnclosed 1, where four men can hold a chain. (No capture
/// is in reach at depth 1, which would reach the 3-man tables below.)
#[test]
fn sscc_reads_the_tables_only_below_the_chain_bound() {
    let krvkr = "8/8/2k5/6r1/8/1R6/3K4/8 w - - 0 1";
    let mut engine = engine_with_tables("sscc");
    let (scored, _) = search(&mut engine, KQVK, "go depth 1");
    assert_eq!(scored.cp, Some(20_000), "{}", scored.line);
    let (scored, _) = search(&mut engine, krvkr, "go depth 1");
    assert!(scored.tb_hits > 0, "{}", scored.line);
    assert_eq!(scored.cp, Some(0), "{}", scored.line);
    engine.send("setoption name MinEnclosed value 1");
    let (scored, _) = search(&mut engine, krvkr, "go depth 1");
    assert_eq!(scored.tb_hits, 0, "{}", scored.line);
    engine.quit();
}

/// Every set of `men` occupied squares of the 8x8 board, each as a bitboard.
fn placements(men: u32) -> Vec<u64> {
    fn extend(from: u32, left: u32, bits: u64, out: &mut Vec<u64>) {
        if left == 0 {
            out.push(bits);
            return;
        }
        for square in from..=64 - left {
            extend(square + 1, left - 1, bits | 1 << square, out);
        }
    }
    let mut out = Vec::new();
    extend(0, men, 0, &mut out);
    out
}

/// Whether the oracle finds a chain on `bits` through any of its men.
fn holds_a_chain(bits: u64, min_enclosed: u32) -> bool {
    let grid = OGrid::from_u64(bits);
    let men: Vec<XY> = grid.occupied_cells();
    let options = Options {
        budget: u64::MAX,
        rim_pruning: true,
    };
    let (verdicts, _) = oracle(&grid, &men, &[min_enclosed], options).expect("no budget");
    verdicts[0].chain
}

/// The bound of `Rules::chainless_men`, proved: the oracle finds no chain
/// on any placement of at most 5 men (MinEnclosed 2) or 3 men
/// (MinEnclosed 1) on the whole board, and one position with a man more
/// holds one, a legal position whose chain the engine sees too. So 6 men
/// (4 at MinEnclosed 1) is the least number that can hold a chain, and
/// positions with fewer are chess.
#[test]
fn no_chain_fits_on_fewer_men_than_the_bound() {
    for (min_enclosed, most) in [(1, 3), (2, 5)] {
        let rules = Rules::new(SwitchRule::Chain, min_enclosed).unwrap();
        assert_eq!(rules.chainless_men(), most);
        for men in 1..=most {
            let with_a_chain: Vec<u64> = placements(men)
                .into_par_iter()
                .filter(|&bits| holds_a_chain(bits, min_enclosed))
                .collect();
            assert!(
                with_a_chain.is_empty(),
                "{men} men hold a chain at MinEnclosed {min_enclosed}: {}",
                OGrid::from_u64(with_a_chain[0]).render(&[])
            );
        }
    }
    // The same enumeration finds the chains of one man more where they are
    // few enough to list: the diamonds around one square.
    let diamonds = placements(4)
        .into_par_iter()
        .filter(|&bits| holds_a_chain(bits, 1))
        .count();
    assert_eq!(diamonds, 36, "one around each square off the edge");
    // One more man: a loop around c2 and d2 (six men), around d4 (four).
    for (fen, min_enclosed, moved) in [
        ("8/8/8/8/8/2bP4/1k2K3/2bR4 w - - 0 1", 2, "d3"),
        ("8/8/8/3k4/2N1N3/3K4/8/8 w - - 0 1", 1, "e4"),
    ] {
        let position = Position::from_fen(fen).unwrap();
        let occupied = position.occupied();
        let men = occupied.len();
        let rules = Rules::new(SwitchRule::Chain, min_enclosed).unwrap();
        assert_eq!(men, rules.chainless_men() + 1, "{fen}");
        assert!(holds_a_chain(occupied.0, min_enclosed), "{fen}");
        let landing: Square = moved.parse().unwrap();
        assert!(
            chain::forms_chain(occupied, landing.bitboard(), min_enclosed),
            "{fen}"
        );
    }
    // A larger group needs a group of two inside it: the bound of MinEnclosed
    // 2 is safe for every larger one.
    for min_enclosed in 2..=16 {
        let rules = Rules::new(SwitchRule::Chain, min_enclosed).unwrap();
        assert_eq!(rules.chainless_men(), 5);
    }
}
