//! What the property tests share: their configuration, random legal chess
//! games that shrink to their fewest and earliest moves, and boards after a
//! move that shrink to their fewest pieces.

use std::fmt;
use std::ops::{Range, RangeInclusive};

use catena_core::board::{Move, Position};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::FileFailurePersistence;

use super::generators::Case;
use super::oracle::{OGrid, XY};

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

/// How a property's grid is laid out around a rectangle of at least 3x3.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// Every cell at one density, in tenths; the moved cell anywhere.
    Uniform(u32),
    /// The rectangle's border at 95%, the rest at 20%; the moved cell on the
    /// border, so that loops and near-loops through it are common.
    Ring,
    /// The border at 95%, inside at 40%, outside at 10%; the moved cell
    /// inside, so that it often stands deep in a block, where only part of
    /// a group can be surrounded.
    Room,
}

/// A `width` x `height` grid (sides drawn from `sides`) and a moved cell,
/// occupied by force, in one of the three layouts, uniform ones at 10% to
/// `densest` tenths (the oracle needs 40% or less on 8x8 boards). Proptest shrinks a
/// failing grid by emptying cells one at a time (and by trying other
/// rectangles and smaller grids), so a failure ends on a grid where every
/// piece matters.
pub fn grid_after_a_move(
    sides: RangeInclusive<usize>,
    densest: u32,
) -> impl Strategy<Value = Case> {
    let layout = prop_oneof![
        (1..=densest).prop_map(Layout::Uniform),
        Just(Layout::Ring),
        Just(Layout::Room),
    ];
    let shape = (sides.clone(), sides, layout);
    let places = [(); 5].map(|_| any::<Index>());
    (shape, places).prop_flat_map(|((width, height, layout), [xa, xb, ya, yb, pick])| {
        // A rectangle of at least 3x3 where the grid allows.
        let span = |a: Index, b: Index, side: usize| {
            let low = a.index(side.saturating_sub(2).max(1));
            let high = low + 2 + b.index(side.saturating_sub(low + 2).max(1));
            (low, high.min(side - 1))
        };
        let ((x0, x1), (y0, y1)) = (span(xa, xb, width), span(ya, yb, height));
        let inside = move |(x, y): XY| (x0..=x1).contains(&x) && (y0..=y1).contains(&y);
        let on_border =
            move |(x, y): XY| inside((x, y)) && (x == x0 || x == x1 || y == y0 || y == y1);
        let cells: Vec<XY> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .collect();
        let choices: Vec<XY> = match layout {
            Layout::Uniform(_) => cells.clone(),
            Layout::Ring => cells.iter().copied().filter(|&c| on_border(c)).collect(),
            Layout::Room => cells
                .iter()
                .copied()
                .filter(|&c| inside(c) && !on_border(c))
                .collect(),
        };
        // A room too thin to have an inside: the moved cell anywhere.
        let choices = if choices.is_empty() {
            cells.clone()
        } else {
            choices
        };
        let moved = choices[pick.index(choices.len())];
        let occupancy: Vec<_> = cells
            .iter()
            .map(|&cell| {
                prop::bool::weighted(match layout {
                    Layout::Uniform(tenths) => f64::from(tenths) / 10.0,
                    _ if on_border(cell) => 0.95,
                    Layout::Ring => 0.2,
                    Layout::Room if inside(cell) => 0.4,
                    Layout::Room => 0.1,
                })
            })
            .collect();
        occupancy.prop_map(move |occupied| {
            let mut grid = OGrid::new(width, height);
            for (&cell, occupied) in cells.iter().zip(occupied) {
                grid.set(cell, occupied);
            }
            grid.set(moved, true);
            Case {
                grid,
                moved: vec![moved],
                origin: format!("proptest {width}x{height}, {layout:?}"),
            }
        })
    })
}
