//! A game in progress: the position, the switch run, who controls which colour, and the history.

use std::fmt;

use super::Action;
use super::Rules;
use super::outcome::{Outcome, Player, Termination};
use super::run::{SwitchRun, forms_chain};
use crate::board::{Color, FenError, Move, MoveParseError, Position};

/// Why a move or a switch cannot be applied. The game is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A move that is not legal on the board.
    IllegalMove(MoveParseError),
    /// A switch after a move that formed no chain.
    SwitchWithoutChain(Move),
    /// A switch beyond the limit of the run in progress.
    SwitchOverLimit { switches: u32, limit: u32 },
    /// A move after the game has ended.
    GameOver(Termination),
    /// `switch` with no move before it.
    SwitchWithoutMove,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GameError::IllegalMove(error) => write!(f, "illegal move: {error}"),
            GameError::SwitchWithoutChain(mv) => {
                write!(f, "cannot switch after {mv}: it formed no chain")
            }
            GameError::SwitchOverLimit { switches, limit } => write!(
                f,
                "cannot switch: {switches} switches in a row already, the limit of this run is {limit}"
            ),
            GameError::GameOver(termination) => write!(f, "the game is over ({termination})"),
            GameError::SwitchWithoutMove => f.write_str("'switch' must follow a move"),
        }
    }
}

impl std::error::Error for GameError {}

/// One ply played: the move, whether its player switched, and the state before it.
#[derive(Clone, Debug)]
pub struct Ply {
    pub mv: Move,
    pub switched: bool,
    pub formed_chain: bool,
    before: Position,
    run_before: SwitchRun,
}

impl Ply {
    /// What was played: the move and the switch choice.
    pub fn action(&self) -> Action {
        Action {
            mv: self.mv,
            switch: self.switched,
        }
    }

    /// The position the move was played from.
    pub fn before(&self) -> &Position {
        &self.before
    }
}

/// An SSCC game from a start position.
#[derive(Clone, Debug)]
pub struct GameState {
    rules: Rules,
    start: Position,
    position: Position,
    run: SwitchRun,
    /// The player controlling White now.
    white_player: Player,
    plies: Vec<Ply>,
    /// Whether moves may follow a draw by rule (see [`GameState::playing_on`]).
    plays_on: bool,
}

impl GameState {
    pub fn new(start: Position, rules: Rules) -> GameState {
        GameState {
            rules,
            position: start.clone(),
            start,
            run: SwitchRun::default(),
            white_player: Player::StartedWhite,
            plies: Vec::new(),
            plays_on: false,
        }
    }

    /// The same game, going on past a draw by rule (fifty moves, threefold
    /// repetition, a dead position). A UCI engine needs this: the GUI, not
    /// the engine, decides when its game ends, and may play on.
    pub fn playing_on(mut self) -> GameState {
        self.plays_on = true;
        self
    }

    pub fn from_fen(fen: &str, rules: Rules) -> Result<GameState, FenError> {
        Ok(GameState::new(Position::from_fen(fen)?, rules))
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn run(&self) -> SwitchRun {
        self.run
    }

    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The player who controls `color` now.
    pub fn controller(&self, color: Color) -> Player {
        match color {
            Color::White => self.white_player,
            Color::Black => self.white_player.other(),
        }
    }

    /// Whether `mv` (legal here) forms a chain.
    pub fn forms_chain(&self, mv: Move) -> bool {
        forms_chain(&self.position, mv, &self.rules)
    }

    /// Whether playing `mv` and then switching would be accepted.
    pub fn can_switch_after(&self, mv: Move) -> Result<(), GameError> {
        if !self.forms_chain(mv) {
            return Err(GameError::SwitchWithoutChain(mv));
        }
        let run = self.run;
        if run.allows_switch() {
            Ok(())
        } else {
            Err(GameError::SwitchOverLimit {
                switches: run.switches(),
                limit: run.limit().unwrap_or(u32::MAX),
            })
        }
    }

    /// Plays the action's move, and switches sides after it if the action
    /// says so; on error nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<(), GameError> {
        let Action { mv, switch } = action;
        if !self.plays_on
            && let Some(outcome) = self.outcome()
        {
            return Err(GameError::GameOver(outcome.termination));
        }
        if !self.position.is_legal(mv) {
            return Err(GameError::IllegalMove(MoveParseError::Illegal(
                mv.to_string(),
            )));
        }
        let formed_chain = self.forms_chain(mv);
        if switch {
            self.can_switch_after(mv)?;
        }
        let run_after = if switch {
            self.white_player = self.white_player.other();
            self.run.after_switch(&self.position, mv, &self.rules)
        } else {
            SwitchRun::default()
        };
        let after = self.position.after(mv);
        let before = std::mem::replace(&mut self.position, after);
        self.plies.push(Ply {
            mv,
            switched: switch,
            formed_chain,
            before,
            run_before: self.run,
        });
        self.run = run_after;
        Ok(())
    }

    /// Takes back the last ply; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(ply) = self.plies.pop() else {
            return false;
        };
        if ply.switched {
            self.white_player = self.white_player.other();
        }
        self.position = ply.before;
        self.run = ply.run_before;
        true
    }

    /// Applies a UCI move list with `switch` tokens (`c2c3 e7e5 d2d3 switch g8f6`).
    /// Stops at the first bad token, keeping everything before it, and returns
    /// that token's index with the error.
    pub fn apply_uci_moves<'a>(
        &mut self,
        tokens: &[&'a str],
    ) -> Result<(), (usize, &'a str, GameError)> {
        let mut index = 0;
        while index < tokens.len() {
            let token = tokens[index];
            if token == "switch" {
                return Err((index, token, GameError::SwitchWithoutMove));
            }
            let mv = self
                .position
                .parse_move(token)
                .map_err(|error| (index, token, GameError::IllegalMove(error)))?;
            let switch = tokens.get(index + 1) == Some(&"switch");
            if let Err(error) = self.apply(Action { mv, switch }) {
                if !switch {
                    return Err((index, token, error));
                }
                // Keep the move (if it is at fault, it fails again here); report the switch.
                self.apply(Action::stay(mv))
                    .map_err(|error| (index, token, error))?;
                return Err((index + 1, tokens[index + 1], error));
            }
            index += if switch { 2 } else { 1 };
        }
        Ok(())
    }

    /// The moves as a UCI move list with `switch` tokens.
    pub fn uci_moves(&self) -> String {
        let mut tokens = Vec::with_capacity(self.plies.len());
        for ply in &self.plies {
            tokens.push(ply.mv.to_string());
            if ply.switched {
                tokens.push("switch".to_string());
            }
        }
        tokens.join(" ")
    }

    /// How many times the current position occurred before, counting only
    /// positions since the last capture or pawn move (nothing earlier can recur).
    fn earlier_occurrences(&self) -> usize {
        let window = self.position.halfmove_clock() as usize;
        self.plies
            .iter()
            .rev()
            .take(window)
            .filter(|ply| ply.before.key() == self.position.key())
            .count()
    }

    /// The end of the game, if it has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        let position = &self.position;
        let ended = |termination, winner| {
            Some(Outcome {
                termination,
                winner,
            })
        };
        if !position.has_legal_move() {
            return if position.in_check() {
                ended(Termination::Checkmate, Some(!position.side_to_move()))
            } else {
                ended(Termination::Stalemate, None)
            };
        }
        if position.halfmove_clock() >= 100 {
            return ended(Termination::FiftyMoveRule, None);
        }
        if self.earlier_occurrences() >= 2 {
            return ended(Termination::ThreefoldRepetition, None);
        }
        if position.is_dead() {
            return ended(Termination::DeadPosition, None);
        }
        None
    }

    /// The points of `player` in the finished game: that of the colour it controls at the end.
    pub fn score_of(&self, player: Player) -> Option<f64> {
        let outcome = self.outcome()?;
        let color = if self.white_player == player {
            Color::White
        } else {
            Color::Black
        };
        Some(outcome.score_of(color))
    }
}
