//! What a match is (its settings) and where it stands (the score, the
//! forfeits, the pairs and the SPRT): shared by the match (`tournament.rs`)
//! and its live file (`live.rs`), below both.

use std::collections::HashMap;
use std::path::PathBuf;

use clap::ValueEnum;

use super::EngineSpec;
use super::arbiter::GameSettings;
use super::openings::Opening;
use super::stats::{Pentanomial, Sprt, SprtState, Tally};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The first engine and the second; scores are the first's.
    pub engines: [EngineSpec; 2],
    pub games: u32,
    /// Each opening is played twice, colours reversed, in order, from the
    /// first again when they run out.
    pub openings: Vec<Opening>,
    pub game: GameSettings,
    pub concurrency: usize,
    /// The file each finished game is appended to.
    pub pgn: Option<PathBuf>,
    /// Whether each finished game's PGN is printed too.
    pub print_games: bool,
    pub sprt: Option<Sprt>,
    pub event: String,
    /// The PGN tag Site.
    pub site: String,
    /// Whether the PGN file is appended to, rather than emptied first.
    pub pgn_append: bool,
    /// Whether each engine gets a fresh process for every game.
    pub restart: [bool; 2],
    pub output: OutputFormat,
    /// With fastchess output, a results block after every this many completed
    /// pairs (0: only at the end).
    pub rating_interval: u32,
    /// The openings file's name, for the fastchess results block.
    pub book: Option<String>,
    /// A file to keep the match in as it goes, move by move (`live.rs`).
    pub live: Option<PathBuf>,
}

/// What `catena match` prints as the games end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Catena's lines in the manner of cutechess-cli: every game, the running
    /// score, the SPRT, and a table at the end.
    #[default]
    Cutechess,
    /// fastchess's: `Started game` and `Finished game` lines, and results
    /// blocks with pentanomial statistics.
    Fastchess,
}

/// Forfeits of one engine, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forfeits {
    pub time: u32,
    /// Illegal or unreadable moves and illegal switches.
    pub illegal: u32,
    /// Failures to start, crashes and exits.
    pub disconnects: u32,
}

/// The state of a match, shared by its workers.
#[derive(Debug, Default)]
pub struct Standings {
    /// From the first engine's side.
    pub tally: Tally,
    pub forfeits: [Forfeits; 2],
    pub switches: u32,
    pub sprt: Option<SprtState>,
    /// Both games of an opening, from the first engine's side.
    pub pairs: Pentanomial,
    /// The first engine's points in the game that ended first, for each pair
    /// whose other game is still to end.
    open_pairs: HashMap<u32, f64>,
}

impl Standings {
    /// Counts the first engine's points in game `index`; true when that
    /// completes its pair (games 0 and 1 are the first pair, and so on).
    pub(super) fn count_pair(&mut self, index: u32, points: f64) -> bool {
        match self.open_pairs.remove(&(index / 2)) {
            Some(other) => {
                self.pairs.add(other, points);
                true
            }
            None => {
                self.open_pairs.insert(index / 2, points);
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_complete_whichever_game_ends_first() {
        let mut standings = Standings::default();
        // Games 2 and 1 end before their partners (concurrency), then 0 and 3.
        assert!(!standings.count_pair(2, 1.0));
        assert!(!standings.count_pair(1, 0.5));
        assert!(standings.count_pair(0, 0.0));
        assert_eq!(standings.pairs.counts(), [0, 1, 0, 0, 0]);
        assert!(standings.count_pair(3, 1.0));
        assert_eq!(standings.pairs.ww, 1);
        assert!(standings.open_pairs.is_empty());
    }
}
