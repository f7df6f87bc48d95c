//! How a game ends, by colour and by player.

use std::fmt;

use crate::board::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Checkmate,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoveRule,
    DeadPosition,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::ThreefoldRepetition => "threefold repetition",
            Termination::FiftyMoveRule => "50-move rule",
            Termination::DeadPosition => "dead position",
        })
    }
}

/// The end of a game, scored by colour as in chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub termination: Termination,
    /// `None` for a draw.
    pub winner: Option<Color>,
}

impl Outcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The points `color` scores: 1, ½ or 0.
    pub fn score_of(&self, color: Color) -> f64 {
        match self.winner {
            None => 0.5,
            Some(winner) if winner == color => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The two players of a game, named by the colour each had at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    StartedWhite,
    StartedBlack,
}

impl Player {
    pub const fn other(self) -> Player {
        match self {
            Player::StartedWhite => Player::StartedBlack,
            Player::StartedBlack => Player::StartedWhite,
        }
    }
}
