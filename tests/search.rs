//! The search through the library: mates in chess and wins that need a switch in SSCC.

use std::sync::Arc;
use std::time::Instant;

use catena::board::Position;
use catena::game::{Rules, SwitchRun};
use catena::movepick::describe_action;
use catena::search::{self, Control, Limits, MATE, Root, SearchResult, Variant};
use catena::transposition::TranspositionTable;

fn search(fen: &str, variant: Variant, depth: i32) -> SearchResult {
    catena::board::attacks::init();
    let root = Root {
        position: Position::from_fen(fen).unwrap(),
        run: SwitchRun::default(),
        history: Vec::new(),
        variant,
    };
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    let tt = Arc::new(TranspositionTable::new(8));
    search::search(
        &root,
        &limits,
        &tt,
        &Control::default(),
        Instant::now(),
        &mut |_| {},
    )
}

#[test]
fn finds_a_mate_in_two() {
    // Ra7 takes the seventh rank, then Rb8 mates.
    let result = search("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", Variant::Chess, 6);
    assert_eq!(result.score, MATE - 3, "{result:?}");
}

#[test]
fn sees_being_mated() {
    // Black to move is mated next move whatever it does.
    let result = search("k7/8/1K6/8/8/8/8/7R b - - 0 1", Variant::Chess, 5);
    assert!(result.score <= -(MATE - 10), "{result:?}");
}

#[test]
fn switches_into_a_mate_in_sscc_only() {
    // d2d3 closes b2-c3-d3-e2-d1-c1; after a switch the same player, now
    // Black, mates with Qh4.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/2P2P2/PP1PP2P/RNBQKBNR w KQkq - 0 3";
    let sscc = search(fen, Variant::Sscc(Rules::default()), 4);
    let best = sscc.best.unwrap();
    assert!(best.switch, "{}", describe_action(best));
    assert_eq!(sscc.score, MATE - 2);
    let chess = search(fen, Variant::Chess, 4);
    assert!(!chess.best.unwrap().switch);
    assert!(chess.score < MATE - 100, "no mate in chess: {chess:?}");
}

#[test]
fn a_run_changes_the_transposition_key() {
    catena::board::attacks::init();
    let position =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 2").unwrap();
    let mv = position.parse_move("d2d3").unwrap();
    let run = SwitchRun::default().after_switch(&position, mv, &Rules::default());
    assert_eq!(search::run_key(SwitchRun::default()), 0);
    assert_ne!(search::run_key(run), 0);
}
