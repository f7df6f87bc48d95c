//! Every count of `perft/chess.epd` up to a budget of leaves per count; the
//! deeper ones are left to `catena perft --suite perft/chess.epd`.

use rayon::prelude::*;

use catena::tools::epd::parse_suite;
use catena_core::board::Position;
use catena_core::perft::perft;

/// About a tenth of a second per count in a release build.
const MAX_LEAVES_PER_COUNT: u64 = 30_000_000;

#[test]
fn chess_suite_counts_match() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess.epd")).unwrap();
    let lines = parse_suite(&text);
    assert!(
        lines.len() >= 100,
        "the suite holds only {} positions",
        lines.len()
    );
    let mismatches: Vec<String> = lines
        .par_iter()
        .flat_map_iter(|line| {
            let position = Position::from_fen(&line.fen)
                .unwrap_or_else(|error| panic!("line {}: {error}", line.number));
            line.operations
                .iter()
                .filter_map(|(opcode, operand)| {
                    let depth: u32 = opcode.strip_prefix('D')?.parse().ok()?;
                    let expected: u64 = operand.parse().ok()?;
                    (expected <= MAX_LEAVES_PER_COUNT).then_some((depth, expected))
                })
                .filter_map(|(depth, expected)| {
                    let counted = perft(&position, depth);
                    (counted != expected).then(|| {
                        format!(
                            "line {} D{depth}: expected {expected}, counted {counted}",
                            line.number
                        )
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn every_suite_position_is_checked_at_depth_four_or_more() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess.epd")).unwrap();
    for line in parse_suite(&text) {
        let deepest = line
            .operations
            .iter()
            .filter_map(|(opcode, _)| opcode.strip_prefix('D')?.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        assert!(
            deepest >= 4,
            "line {} lists no count at depth 4 or more",
            line.number
        );
    }
}

/// `gives_check` answers as playing the move and looking does, for every move
/// two plies into each suite position: direct and uncovered checks, checks by
/// promotion, by castling's rook and by en passant's vanished pawn.
#[test]
fn gives_check_agrees_with_playing_the_move() {
    fn walk(position: &Position, depth: u32, checks: &mut u64) -> Vec<String> {
        let mut wrong = Vec::new();
        for mv in position.legal_moves() {
            let child = position.after(mv);
            if position.gives_check(mv) != child.in_check() {
                wrong.push(format!("{} in {}", mv, position.to_fen()));
            }
            *checks += u64::from(child.in_check());
            if depth > 1 {
                wrong.extend(walk(&child, depth - 1, checks));
            }
        }
        wrong
    }
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess.epd")).unwrap();
    let (wrong, checks) = parse_suite(&text)
        .par_iter()
        .map(|line| {
            let mut checks = 0;
            let position = Position::from_fen(&line.fen).unwrap();
            (walk(&position, 3, &mut checks), checks)
        })
        .reduce(
            || (Vec::new(), 0),
            |(mut a, x), (b, y)| {
                a.extend(b);
                (a, x + y)
            },
        );
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checks > 10_000, "only {checks} checks were tried");
}
