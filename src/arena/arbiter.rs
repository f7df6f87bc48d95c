//! One game between two engines, refereed: the arbiter owns the rules (the
//! game state), the clocks and the adjudication, and the engines only propose.

use catena_core::game::Action;
use catena_core::game::Variant;
use std::time::Duration;

use super::EngineSpec;
use super::adjudication::{Adjudication, Adjudicator, Verdict};
use super::engine::{EngineSlot, Fault};
use super::openings::Opening;
use super::tablebase::TablebaseRule;
use super::time_control::{Clocks, TimeControl};
use catena_core::board::{Color, Position};
use catena_core::game::pgn::GameResult;
use catena_core::game::{GameState, Player, Rules, Termination};

/// How every game of a match is played.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub variant: Variant,
    pub time_control: TimeControl,
    /// How far past zero a clock may run before its flag falls.
    pub time_margin: Duration,
    pub adjudication: Adjudication,
    /// `--tb`: games that reach the tables end with their result.
    pub tablebase: Option<TablebaseRule>,
}

impl GameSettings {
    /// The rules the arbiter keeps: SSCC's, or for chess the defaults with
    /// every switch refused before it reaches the game.
    pub fn rules(&self) -> Rules {
        match self.variant {
            Variant::Sscc(rules) => rules,
            Variant::Chess => Rules::default(),
        }
    }
}

/// What an engine did to lose a game by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offence {
    /// Its clock ran out, or it never answered.
    Time,
    /// A legal-looking move that is not legal here, or `0000`.
    IllegalMove(String),
    /// A `bestmove` line that names no move at all.
    Unreadable(String),
    /// A switch the rules do not allow, and why.
    IllegalSwitch(String),
    /// The engine could not start or went away: how.
    Disconnected(String),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Over the board: mate, stalemate, repetition, 50 moves, dead position.
    Board(Termination),
    /// `player`, controlling `color`, resigned through the resign rule.
    Resigned { player: Player, color: Color },
    /// Drawn by the draw rule, or at the move limit.
    AdjudicatedDraw { move_limit: bool },
    /// Ended with the tablebases' result.
    Tablebase,
    /// `player`, whose turn it was with `color`, lost by `offence`.
    Forfeit {
        player: Player,
        color: Color,
        offence: Offence,
    },
}

impl Ending {
    /// The comment after the last move, in Cute Chess's words.
    pub fn comment(&self, result: GameResult) -> String {
        let name = |color: Color| match color {
            Color::White => "White",
            Color::Black => "Black",
        };
        match self {
            Ending::Board(Termination::Checkmate) => {
                let winner = if result == GameResult::WhiteWins {
                    Color::White
                } else {
                    Color::Black
                };
                format!("{} mates", name(winner))
            }
            Ending::Board(Termination::Stalemate) => "Draw by stalemate".to_string(),
            Ending::Board(Termination::ThreefoldRepetition) => {
                "Draw by 3-fold repetition".to_string()
            }
            Ending::Board(Termination::FiftyMoveRule) => "Draw by fifty moves rule".to_string(),
            Ending::Board(Termination::DeadPosition) => {
                "Draw by insufficient mating material".to_string()
            }
            Ending::Resigned { color, .. } => format!("{} resigns", name(*color)),
            Ending::AdjudicatedDraw { move_limit: false } => "Draw by adjudication".to_string(),
            Ending::AdjudicatedDraw { move_limit: true } => {
                "Draw by adjudication: move limit".to_string()
            }
            Ending::Tablebase => match result {
                GameResult::WhiteWins => "White wins by adjudication: SyzygyTB".to_string(),
                GameResult::BlackWins => "Black wins by adjudication: SyzygyTB".to_string(),
                _ => "Draw by adjudication: SyzygyTB".to_string(),
            },
            Ending::Forfeit { color, offence, .. } => {
                let side = name(*color);
                match offence {
                    Offence::Time => format!("{side} loses on time"),
                    Offence::IllegalMove(mv) => format!("{side} makes an illegal move: {mv}"),
                    Offence::Unreadable(line) => format!("{side} sends an unreadable move: {line}"),
                    Offence::IllegalSwitch(why) => format!("{side} makes an illegal switch: {why}"),
                    Offence::Disconnected(how) => format!("{side} disconnects: {how}"),
                }
            }
        }
    }

    /// The PGN `Termination` tag.
    pub fn termination_tag(&self) -> &'static str {
        match self {
            Ending::Board(_) => "normal",
            Ending::Resigned { .. } | Ending::AdjudicatedDraw { .. } | Ending::Tablebase => {
                "adjudication"
            }
            Ending::Forfeit {
                offence: Offence::Time,
                ..
            } => "time forfeit",
            Ending::Forfeit {
                offence: Offence::Disconnected(_),
                ..
            } => "abandoned",
            Ending::Forfeit { .. } => "rules infraction",
        }
    }

    /// The player who forfeited, and why.
    pub fn forfeit(&self) -> Option<(Player, &Offence)> {
        match self {
            Ending::Forfeit {
                player, offence, ..
            } => Some((*player, offence)),
            _ => None,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    pub game: GameState,
    pub result: GameResult,
    pub ending: Ending,
}

/// The engine slot of each player, `StartedWhite` first.
pub type Seats<'a> = [&'a mut EngineSlot; 2];

fn seat<'s>(seats: &'s mut Seats, player: Player) -> &'s mut EngineSlot {
    match player {
        Player::StartedWhite => seats[0],
        Player::StartedBlack => seats[1],
    }
}

/// Plays a game from `opening` (which must be playable under the settings'
/// rules), showing `watch` the game at its start and after every move.
pub fn play_watched(
    seats: &mut Seats,
    opening: &Opening,
    settings: &GameSettings,
    watch: &mut dyn FnMut(&GameState),
) -> Played {
    let mut game = opening
        .game(settings.rules())
        .expect("openings are checked against the rules when loaded");
    watch(&game);
    let forfeit = |game: GameState, player: Player, offence: Offence| {
        let color = color_of(&game, player);
        Played {
            game,
            result: GameResult::win_for(!color),
            ending: Ending::Forfeit {
                player,
                color,
                offence,
            },
        }
    };
    for player in [Player::StartedWhite, Player::StartedBlack] {
        let slot = seat(seats, player);
        let ready = slot
            .engine()
            .and_then(|engine| engine.new_game().map_err(|fault| fault.to_string()));
        if let Err(how) = ready {
            slot.discard();
            return forfeit(game, player, Offence::Disconnected(how));
        }
    }
    let mut clocks = Clocks::new(settings.time_control);
    let mut judge = Adjudicator::new(settings.adjudication);
    loop {
        if let Some(outcome) = game.outcome() {
            return Played {
                game,
                result: outcome.into(),
                ending: Ending::Board(outcome.termination),
            };
        }
        let color = game.position().side_to_move();
        let player = game.controller(color);
        let slot = seat(seats, player);
        let engine = match slot.engine() {
            Ok(engine) => engine,
            Err(how) => return forfeit(game, player, Offence::Disconnected(how)),
        };
        let sscc = engine.sscc() && matches!(settings.variant, Variant::Sscc(_));
        let go = go_command(engine.spec(), &clocks, color);
        let allowed = clocks.of(color).budget() + settings.time_margin;
        let answer = match engine.think(&position_command(&game, sscc), &go, allowed) {
            Ok(answer) => answer,
            Err(fault) => {
                slot.discard();
                let offence = match fault {
                    Fault::Timeout(_) => Offence::Time,
                    Fault::Gone(how) => Offence::Disconnected(format!("the engine {how}")),
                };
                return forfeit(game, player, offence);
            }
        };
        if !clocks.of(color).punch(answer.elapsed, settings.time_margin) {
            return forfeit(game, player, Offence::Time);
        }
        let action = match read_bestmove(game.position(), &answer.bestmove) {
            Ok(action) => action,
            Err(offence) => {
                slot.discard();
                return forfeit(game, player, offence);
            }
        };
        if action.switch {
            let refusal = match settings.variant {
                Variant::Chess => Err("switching is not part of chess".to_string()),
                Variant::Sscc(_) => game
                    .can_switch_after(action.mv)
                    .map_err(|error| error.to_string()),
            };
            if let Err(why) = refusal {
                slot.discard();
                return forfeit(game, player, Offence::IllegalSwitch(why));
            }
        }
        game.apply(action)
            .expect("the move is legal and the switch allowed");
        watch(&game);
        // The board first, as Cute Chess does: a move that mates or repeats
        // ends the game on the board even when it is also the last one
        // `--max-moves` allows; the loop's head scores it.
        if game.outcome().is_some() {
            continue;
        }
        // Then the tables, as fastchess does: their result is exact, the
        // engines' scores are not.
        let tablebase = settings.tablebase.as_ref();
        if let Some(result) = tablebase.and_then(|rule| rule.judge(&game, settings.variant)) {
            return Played {
                game,
                result,
                ending: Ending::Tablebase,
            };
        }
        if let Some(verdict) = judge.judge(&game, player, answer.score) {
            let color = color_of(&game, player);
            return match verdict {
                Verdict::Resign(player) => Played {
                    game,
                    result: GameResult::win_for(!color),
                    ending: Ending::Resigned { player, color },
                },
                Verdict::Draw | Verdict::MaxMoves => Played {
                    game,
                    result: GameResult::Draw,
                    ending: Ending::AdjudicatedDraw {
                        move_limit: verdict == Verdict::MaxMoves,
                    },
                },
            };
        }
    }
}

/// The colour `player` controls now.
pub fn color_of(game: &GameState, player: Player) -> Color {
    if game.controller(Color::White) == player {
        Color::White
    } else {
        Color::Black
    }
}

/// `go` with the clocks' limits for `color`, and the engine's own depth and node limits.
pub fn go_command(spec: &EngineSpec, clocks: &Clocks, color: Color) -> String {
    let mut go = format!("go {}", clocks.go_limits(color));
    if let Some(depth) = spec.depth {
        go.push_str(&format!(" depth {depth}"));
    }
    if let Some(nodes) = spec.nodes {
        go.push_str(&format!(" nodes {nodes}"));
    }
    go
}

/// `position startpos|fen … [moves …]`, with `switch` tokens for an SSCC engine.
pub fn position_command(game: &GameState, with_switches: bool) -> String {
    let start = game.start().to_fen();
    let mut command = if start == Position::START_FEN {
        "position startpos".to_string()
    } else {
        format!("position fen {start}")
    };
    let moves: Vec<String> = if with_switches {
        game.uci_moves()
            .split_whitespace()
            .map(String::from)
            .collect()
    } else {
        game.plies().iter().map(|ply| ply.mv.to_string()).collect()
    };
    if !moves.is_empty() {
        command.push_str(" moves ");
        command.push_str(&moves.join(" "));
    }
    command
}

/// The move and switch of the words after `bestmove`: `<move> [switch | ponder <move>]`.
pub fn read_bestmove(position: &Position, words: &[String]) -> Result<Action, Offence> {
    let line = || format!("'bestmove {}'", words.join(" "));
    let (text, switch) = match words {
        [mv] => (mv, false),
        [mv, switch] if switch == "switch" => (mv, true),
        [mv, ponder, _] if ponder == "ponder" => (mv, false),
        _ => return Err(Offence::Unreadable(line())),
    };
    let well_formed = (4..=5).contains(&text.len())
        && text
            .get(0..2)
            .is_some_and(|square| square.parse::<catena_core::board::Square>().is_ok())
        && text
            .get(2..4)
            .is_some_and(|square| square.parse::<catena_core::board::Square>().is_ok());
    if !well_formed && text != "0000" {
        return Err(Offence::Unreadable(line()));
    }
    position
        .parse_move(text)
        .map(|mv| Action { mv, switch })
        .map_err(|_| Offence::IllegalMove(text.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn reads_bestmove_lines() {
        let start = Position::startpos();
        let read = |text: &str| read_bestmove(&start, &words(text));
        assert_eq!(read("e2e4").unwrap().to_string(), "e2e4");
        assert!(read("c2c3 switch").unwrap().switch);
        assert!(!read("e2e4 ponder e7e5").unwrap().switch);
        assert_eq!(read("e4e2"), Err(Offence::IllegalMove("e4e2".to_string())));
        assert_eq!(read("0000"), Err(Offence::IllegalMove("0000".to_string())));
        assert_eq!(
            read("e7e8k"),
            Err(Offence::IllegalMove("e7e8k".to_string()))
        );
        // "zze4" and "e2zz" have one good square: each half is checked.
        for garbage in [
            "",
            "xyzzy",
            "e2e4 please",
            "e2e4 switch now",
            "e2",
            "zze4",
            "e2zz",
        ] {
            assert!(
                matches!(read(garbage), Err(Offence::Unreadable(_))),
                "{garbage}"
            );
        }
    }

    #[test]
    fn position_commands_carry_switches_only_for_sscc_engines() {
        let mut game = GameState::new(Position::startpos(), Rules::default());
        assert_eq!(position_command(&game, true), "position startpos");
        game.apply_uci_moves(&["c2c3", "e7e5", "d2d3", "switch"])
            .unwrap();
        assert_eq!(
            position_command(&game, true),
            "position startpos moves c2c3 e7e5 d2d3 switch"
        );
        assert_eq!(
            position_command(&game, false),
            "position startpos moves c2c3 e7e5 d2d3"
        );
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let game = GameState::from_fen(fen, Rules::default()).unwrap();
        assert_eq!(
            position_command(&game, false),
            format!("position fen {fen}")
        );
    }
}
