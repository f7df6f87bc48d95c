//! Saving the game as PGN (docs/rules.md, section 6) and loading a PGN game or a FEN position.

use std::path::Path;

use catena_core::game::pgn::{self, GameRecord, GameResult};
use catena_core::game::{GameState, Player, Rules};

/// The name the person goes by in saved games.
pub const HUMAN: &str = "Human";

/// Writes `record` to `path` as PGN.
pub fn save(path: &Path, record: &GameRecord) -> Result<(), String> {
    std::fs::write(path, pgn::write(record))
        .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// A game loaded from a file, and which player the person was in it, if it says.
pub struct Loaded {
    pub game: GameState,
    pub human: Option<Player>,
    /// A result the board does not give (a loss on time, a forfeit, an
    /// adjudication), with the record's comment on why: the game is over.
    pub verdict: Option<(GameResult, String)>,
}

/// The game in `path`: the first game of a PGN file, or a position in FEN
/// (played under `rules`; a PGN game brings its own in its `SSCC` tag).
pub fn load(path: &Path, rules: Rules) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    load_text(&text, &path.display().to_string(), rules)
}

/// The game in `text`, as [`load`] reads a file; `source` names the text in
/// messages (a file's path, `the pasted text`).
pub fn load_text(text: &str, source: &str, rules: Rules) -> Result<Loaded, String> {
    let text = text.trim();
    let failed = |why: String| format!("cannot load {source}: {why}");
    if looks_like_pgn(text) {
        let record = pgn::read(text).map_err(|error| failed(error.to_string()))?;
        let human = [Player::StartedWhite, Player::StartedBlack]
            .into_iter()
            .zip(["White", "Black"])
            .find(|&(_, tag)| record.tag(tag) == Some(HUMAN))
            .map(|(player, _)| player);
        let verdict = (record.result != GameResult::Unfinished && record.game.outcome().is_none())
            .then(|| {
                let why = record.comment.clone().unwrap_or_else(|| {
                    record
                        .tag("Termination")
                        .unwrap_or("decided off the board")
                        .to_string()
                });
                (record.result, why)
            });
        Ok(Loaded {
            game: record.game,
            human,
            verdict,
        })
    } else {
        let game = GameState::from_fen(text, rules)
            .map_err(|error| failed(format!("not a PGN game, and not a FEN position: {error}")))?;
        Ok(Loaded {
            game,
            human: None,
            verdict: None,
        })
    }
}

/// PGN starts with a tag (`[Event "…"]`) or a move number (`1. e4`); FEN with
/// the eighth rank.
fn looks_like_pgn(text: &str) -> bool {
    let digits = text.trim_start_matches(|c: char| c.is_ascii_digit());
    text.starts_with('[') || (digits.len() < text.len() && digits.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_pgn_from_fen() {
        assert!(looks_like_pgn("[Event \"x\"]\n\n1. e4 *"));
        assert!(looks_like_pgn("1. e4 e5 *"));
        assert!(looks_like_pgn("12... Nf6"));
        assert!(!looks_like_pgn(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        assert!(!looks_like_pgn("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert!(!looks_like_pgn(""));
    }
}
