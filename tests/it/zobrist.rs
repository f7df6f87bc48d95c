//! The incremental Zobrist key, checkers, pins and occupancy equal those computed from scratch after every move of random games.

use catena_core::board::Position;
use proptest::prelude::*;

use crate::common::strategies::chess_game;

fn assert_null_move_is_the_fen_with_the_other_side_to_move(position: &Position) {
    let Some(passed) = position.null_move() else {
        assert!(position.in_check(), "{position}");
        return;
    };
    let fen = position.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let other_side = if fields[1] == "w" { "b" } else { "w" };
    let flipped = [fields[0], other_side, fields[2], "-", fields[4], fields[5]].join(" ");
    assert_eq!(passed, Position::from_fen(&flipped).unwrap(), "{position}");
    assert_eq!(passed.key(), passed.key_from_scratch(), "{position}");
}

/// Starts where castling, en passant and promotion come up.
const STARTS: [&str; 4] = [
    Position::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

proptest! {
    #![proptest_config(crate::common::strategies::config(400))]

    /// After every move of a random game. A failure shrinks to the shortest
    /// game that shows it.
    #[test]
    fn incremental_state_equals_state_from_scratch_in_random_games(
        game in chess_game(&STARTS, 0..200),
    ) {
        for (position, mv) in game.moves() {
            let child = position.after(mv);
            prop_assert_eq!(position.occupied_after(mv), child.occupied(), "{} {}", position, mv);
            prop_assert!(
                (position.landing_squares(mv) - child.occupied()).is_empty(),
                "{} {}",
                position,
                mv
            );
            prop_assert_eq!(child.key(), child.key_from_scratch(), "{}", child);
            // Rebuilding from the FEN recomputes the key, checkers and pins from nothing.
            let rebuilt = Position::from_fen(&child.to_fen()).unwrap();
            prop_assert_eq!(&rebuilt, &child, "{}", child);
            assert_null_move_is_the_fen_with_the_other_side_to_move(&child);
        }
    }
}

#[test]
fn transpositions_meet_on_one_key() {
    let play = |moves: &[&str]| {
        moves.iter().fold(Position::startpos(), |position, text| {
            let mv = position
                .legal_moves()
                .into_iter()
                .find(|mv| mv.to_string() == *text)
                .unwrap();
            position.after(mv)
        })
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    let moved_king = play(&["e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"]);
    let unmoved = play(&["e2e4", "e7e5"]);
    assert_ne!(
        moved_king.key(),
        unmoved.key(),
        "castling rights are part of the key"
    );
}
