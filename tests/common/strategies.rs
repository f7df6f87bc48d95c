//! What the property tests share: their configuration, and random legal
//! chess games that shrink to their fewest and earliest moves.

use std::fmt;
use std::ops::Range;

use catena::board::{Move, Position};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;

/// `cases` cases, unless `PROPTEST_CASES` asks for another number; a failing
/// case's seed is kept beside the test (`tests/NAME.proptest-regressions`)
/// and tried first on later runs. Shrinking takes up to 20,000 steps (a
/// game of 160 actions, an index each, needs thousands) or 30 seconds (a
/// step of the chain properties asks the oracle).
pub fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            default.cases
        } else {
            cases
        },
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 20_000,
        max_shrink_time: 30_000,
        ..default
    }
}

/// A random legal game: each `Index` picks one of the legal moves, so any
/// list of them is a legal game, and a shorter list is a shorter game.
#[derive(Clone)]
pub struct ChessGame {
    pub start: &'static str,
    picks: Vec<Index>,
}

impl ChessGame {
    /// The moves, each with the position it is played from; the game stops
    /// early at a mate or a stalemate.
    pub fn moves(&self) -> Vec<(Position, Move)> {
        let mut position = Position::from_fen(self.start).unwrap();
        let mut moves = Vec::with_capacity(self.picks.len());
        for pick in &self.picks {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[pick.index(legal.len())];
            let after = position.after(mv);
            moves.push((std::mem::replace(&mut position, after), mv));
        }
        moves
    }

    /// The position the game ends in.
    pub fn end(&self) -> Position {
        match self.moves().pop() {
            Some((before, mv)) => before.after(mv),
            None => Position::from_fen(self.start).unwrap(),
        }
    }
}

impl fmt::Debug for ChessGame {
    /// The start and the moves in UCI: enough to replay a failure by hand.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let moves: Vec<String> = self.moves().iter().map(|(_, mv)| mv.to_string()).collect();
        write!(f, "{} moves {}", self.start, moves.join(" "))
    }
}

/// Games from one of `starts`, of a length in `plies`.
pub fn chess_game(
    starts: &'static [&'static str],
    plies: Range<usize>,
) -> impl Strategy<Value = ChessGame> {
    (
        prop::sample::select(starts),
        prop::collection::vec(any::<Index>(), plies),
    )
        .prop_map(|(start, picks)| ChessGame { start, picks })
}
