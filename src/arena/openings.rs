//! Opening positions for a match, from EPD or PGN files, in file order or
//! shuffled by a seed, from any starting point of the file.

use catena_core::game::Action;
use catena_core::rng::SplitMix64;
use std::path::Path;

use clap::ValueEnum;

use catena_core::board::Position;
use catena_core::game::pgn;
use catena_core::game::{GameError, GameState, Rules};

/// Where a game starts: a position and the moves (with switches) played from it
/// before the engines take over.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Action>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }

    /// The game after the opening, under `rules`.
    pub fn game(&self, rules: Rules) -> Result<GameState, GameError> {
        let mut game = GameState::new(self.start.clone(), rules);
        for &action in &self.moves {
            game.apply(action)?;
        }
        Ok(game)
    }
}

/// How an openings file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpeningsFormat {
    Epd,
    Pgn,
}

/// The order the openings are played in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OpeningsOrder {
    /// As in the file.
    #[default]
    Sequential,
    /// Shuffled, the same way for the same seed.
    Random,
}

/// The openings of a file in `format`, by default PGN if its name ends in
/// `.pgn`, else EPD.
pub fn load(
    path: &Path,
    rules: Rules,
    format: Option<OpeningsFormat>,
) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the openings {}: {error}", path.display()))?;
    let is_pgn = format.map_or_else(
        || {
            path.extension()
                .is_some_and(|extension| extension.eq_ignore_ascii_case("pgn"))
        },
        |format| format == OpeningsFormat::Pgn,
    );
    let openings = if is_pgn {
        from_pgn(&text, rules)
    } else {
        from_epd(&text)
    }
    .map_err(|error| format!("openings {}: {error}", path.display()))?;
    if openings.is_empty() {
        return Err(format!(
            "openings {}: no position in the file",
            path.display()
        ));
    }
    Ok(openings)
}

/// One opening per game of the text, replayed under `rules`.
pub fn from_pgn(text: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let records = pgn::read_all(text).map_err(|error| error.to_string())?;
    records
        .into_iter()
        .enumerate()
        .map(|(index, record)| {
            let opening = Opening {
                start: record.game.start().clone(),
                moves: record.game.plies().iter().map(|ply| ply.action()).collect(),
            };
            // The file's own rules may differ from the match's.
            opening
                .game(rules)
                .map_err(|error| format!("game {}: {error} under the match's rules", index + 1))?;
            Ok(opening)
        })
        .collect()
}

/// One opening per line: an EPD's four FEN fields (`# …` lines and blank lines
/// skipped), then optionally the two move counters; EPD operations are ignored.
pub fn from_epd(text: &str) -> Result<Vec<Opening>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let mut fen: Vec<&str> = fields.iter().take(4).copied().collect();
            let counters = fields.get(4..6).unwrap_or_default();
            if counters.len() == 2 && counters.iter().all(|field| field.parse::<u32>().is_ok()) {
                fen.extend(counters);
            }
            let start = Position::from_fen(&fen.join(" "))
                .map_err(|error| format!("line {}: {error}", index + 1))?;
            Ok(Opening {
                start,
                moves: Vec::new(),
            })
        })
        .collect()
}

/// Keeps at most `plies` moves of each opening.
pub fn truncate(openings: &mut [Opening], plies: usize) {
    for opening in openings {
        opening.moves.truncate(plies);
    }
}

/// Puts the openings in an order fixed by `seed` (Fisher-Yates).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut random = SplitMix64::new(seed);
    for last in (1..openings.len()).rev() {
        let pick = random.below(last + 1);
        openings.swap(last, pick);
    }
}

/// Starts the sequence at the `start`th opening (1 is the first), the ones
/// before it following the last.
pub fn start_at(openings: &mut [Opening], start: usize) {
    if !openings.is_empty() {
        openings.rotate_left(start.saturating_sub(1) % openings.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_epd_lines_with_or_without_counters_and_operations() {
        let text = "# openings\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"e4\";\n\
            \n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 5 30\n";
        let openings = from_epd(text).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].start.fullmove_number(), 1);
        assert_eq!(openings[1].start.fullmove_number(), 30);
        let error = from_epd("8/8/8 w - -\n").unwrap_err();
        assert!(error.starts_with("line 1:"), "{error}");
    }

    /// Ten openings told apart by their fullmove number.
    fn numbered() -> Vec<Opening> {
        let text: String = (1..=10)
            .map(|n| format!("4k3/8/8/8/8/8/4P3/4K3 w - - 0 {n}\n"))
            .collect();
        from_epd(&text).unwrap()
    }

    fn numbers(openings: &[Opening]) -> Vec<u32> {
        openings
            .iter()
            .map(|opening| opening.start.fullmove_number() as u32)
            .collect()
    }

    #[test]
    fn shuffles_by_seed_and_starts_anywhere() {
        let mut once = numbered();
        shuffle(&mut once, 7);
        let mut again = numbered();
        shuffle(&mut again, 7);
        assert_eq!(
            numbers(&once),
            numbers(&again),
            "the same seed, the same order"
        );
        let mut sorted = numbers(&once);
        sorted.sort();
        assert_eq!(sorted, (1..=10).collect::<Vec<_>>(), "a permutation");
        assert_ne!(numbers(&once), (1..=10).collect::<Vec<_>>());
        let mut other = numbered();
        shuffle(&mut other, 8);
        assert_ne!(numbers(&once), numbers(&other));
        let mut started = numbered();
        start_at(&mut started, 9);
        assert_eq!(numbers(&started)[..3], [9, 10, 1]);
        let mut wrapped = numbered();
        start_at(&mut wrapped, 12);
        assert_eq!(numbers(&wrapped)[0], 2);
    }

    #[test]
    fn reads_pgn_openings_with_switches_under_the_match_rules() {
        let text = "1. c3 e5 2. d3 {switch} 2... Nf6 *\n\n1. e4 *\n";
        let openings = from_pgn(text, Rules::default()).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].moves.len(), 4);
        assert!(openings[0].moves[2].switch);
        let game = openings[0].game(Rules::default()).unwrap();
        assert_eq!(game.uci_moves(), "c2c3 e7e5 d2d3 switch g8f6");
        let mut short = openings.clone();
        truncate(&mut short, 2);
        assert_eq!(short[0].moves.len(), 2);
        assert_eq!(short[1].moves.len(), 1);
        // MinEnclosed 3: 2.d3 surrounds only two squares, so the switch is refused.
        let strict = Rules::new(Default::default(), 3).unwrap();
        assert!(from_pgn(text, strict).unwrap_err().contains("game 1"));
    }
}
