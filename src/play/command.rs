//! What the person types at the prompt: a command, or a move in SAN or UCI,
//! and for a move that cannot be played, what is wrong with it.

use catena_core::board::Move;
use catena_core::board::san::{self, SanError};
use catena_core::board::{MoveParseError, Piece, Position, Square};

use super::refusal;

/// A line typed at the move prompt.
#[derive(Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// A move as typed, and whether `switch` followed it.
    Move {
        text: &'a str,
        switch: bool,
    },
    Undo,
    New,
    Save(&'a str),
    Load(&'a str),
    Help,
    Quit,
    /// An empty line.
    Nothing,
}

/// The command in `line`, or why there is none.
pub fn parse(line: &str) -> Result<Command<'_>, String> {
    let line = line.trim();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    Ok(match tokens[..] {
        [] => Command::Nothing,
        ["undo"] => Command::Undo,
        ["new"] => Command::New,
        ["help" | "?"] => Command::Help,
        ["quit" | "exit"] => Command::Quit,
        [name @ ("save" | "load")] => {
            return Err(format!("{name} needs a file name: {name} FILE"));
        }
        ["save", ..] => Command::Save(line["save".len()..].trim()),
        ["load", ..] => Command::Load(line["load".len()..].trim()),
        [text] => Command::Move {
            text,
            switch: false,
        },
        [text, "switch"] => Command::Move { text, switch: true },
        _ => {
            return Err(format!(
                "'{line}' is not a move or a command: type one move (e4, Nf3 or e2e4), \
                 a move and 'switch', or 'help'"
            ));
        }
    })
}

/// The legal move `text` names in UCI or SAN, or what is wrong with it.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, String> {
    read_move(position, text).map_err(|why| {
        why.unwrap_or_else(|| {
            format!(
                "'{text}' is not a move or a command: type a move in SAN (e4, Nf3, O-O, e8=Q) \
                 or UCI (e2e4, g1f3, e7e8q), or 'help'"
            )
        })
    })
}

/// The legal move `text` names in UCI or SAN, or what is wrong with it in
/// the notation it is written in: `Err(None)` if it is written in neither.
pub fn read_move(position: &Position, text: &str) -> Result<Move, Option<String>> {
    match position.parse_move(text) {
        Ok(mv) => Ok(mv),
        Err(MoveParseError::Notation(_)) => match san::parse(position, text) {
            Ok(mv) => Ok(mv),
            Err(SanError::Notation(_)) => Err(None),
            Err(error) => Err(Some(error.to_string())),
        },
        Err(error) => {
            // The notation was good: two squares and perhaps a promotion letter.
            let square = |at| {
                text.get(at)
                    .and_then(|name: &str| name.parse::<Square>().ok())
            };
            let promotion = text.get(4..).and_then(|rest| rest.chars().next());
            Err(Some(match (square(0..2), square(2..4)) {
                (Some(from), Some(to)) => {
                    refusal::explain(position, from, to, promotion.and_then(Piece::from_letter))
                }
                _ => error.to_string(),
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_commands_and_moves() {
        assert_eq!(parse("  undo "), Ok(Command::Undo));
        assert_eq!(parse("save my game.pgn"), Ok(Command::Save("my game.pgn")));
        assert_eq!(parse("load x.fen"), Ok(Command::Load("x.fen")));
        assert_eq!(parse(""), Ok(Command::Nothing));
        assert_eq!(
            parse("d3 switch"),
            Ok(Command::Move {
                text: "d3",
                switch: true
            })
        );
        assert!(parse("save").is_err());
        assert!(parse("e4 e5").is_err());
    }

    #[test]
    fn takes_uci_and_san() {
        let start = Position::startpos();
        for text in ["g1f3", "Nf3", "Ng1f3", "Nf3+"] {
            assert_eq!(
                parse_move(&start, text).map(|mv| mv.to_string()),
                Ok("g1f3".to_string()),
                "{text}"
            );
        }
        assert_eq!(
            parse_move(&start, "Nf4"),
            Err("Nf4: that piece cannot move there".to_string())
        );
        assert!(
            parse_move(&start, "Zz9")
                .unwrap_err()
                .contains("is not a move or a command")
        );
    }
}
