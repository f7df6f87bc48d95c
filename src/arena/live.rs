//! `catena match --live FILE`: the match as it stands, as JSON, rewritten
//! after every move and every finished game, so that another program (the
//! browser page of `catena gui`) can follow the games as they are played.
//!
//! The file is replaced whole (written beside it, then renamed), so a reader
//! never sees half of it. Its fields: `engines`, `games_total`,
//! `time_control`, `variant`; `games`, each with `number`, `white`,
//! `black`, `start_fen`, `moves` (UCI with `switch` tokens), `result`
//! (`*` while it runs) and `comment`; `score` (`wins`, `losses`, `draws`
//! of the first engine, `games`, `score`, `elo`, `elo_margin`); `sprt` (the
//! report line, if an SPRT runs) and `finished`.

use catena_core::game::Variant;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;

use super::standings::{MatchSettings, Standings};
use catena_core::game::GameState;
use catena_core::game::pgn::GameRecord;

#[derive(Clone, Debug, Serialize)]
struct LiveGame {
    number: u32,
    white: String,
    black: String,
    start_fen: String,
    moves: String,
    result: String,
    comment: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
struct LiveScore {
    wins: u32,
    losses: u32,
    draws: u32,
    games: u32,
    score: Option<f64>,
    elo: Option<f64>,
    elo_margin: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
struct LiveMatch {
    engines: [String; 2],
    games_total: u32,
    time_control: String,
    variant: String,
    games: Vec<LiveGame>,
    score: LiveScore,
    sprt: Option<String>,
    finished: bool,
}

/// The live file and what it says.
pub struct Live {
    path: PathBuf,
    state: Mutex<(LiveMatch, BTreeMap<u32, LiveGame>)>,
}

impl Live {
    /// Starts the file for `settings`' match.
    pub fn new(path: &Path, settings: &MatchSettings) -> Result<Live, String> {
        let state = LiveMatch {
            engines: settings.engines.clone().map(|spec| spec.name),
            games_total: settings.games,
            time_control: settings.game.time_control.to_string(),
            variant: match settings.game.variant {
                Variant::Sscc(rules) => format!("SSCC ({rules})"),
                Variant::Chess => "chess".to_string(),
            },
            games: Vec::new(),
            score: LiveScore::default(),
            sprt: None,
            finished: false,
        };
        let live = Live {
            path: path.to_path_buf(),
            state: Mutex::new((state, BTreeMap::new())),
        };
        live.write_now()?;
        Ok(live)
    }

    /// Game `index` (from 0) between `white` and `black` stands at `game`.
    pub fn moved(&self, index: u32, names: [&str; 2], game: &GameState) {
        let mut state = self.lock();
        let entry = state.1.entry(index).or_insert_with(|| LiveGame {
            number: index + 1,
            white: names[0].to_string(),
            black: names[1].to_string(),
            start_fen: game.start().to_fen(),
            moves: String::new(),
            result: "*".to_string(),
            comment: None,
        });
        entry.moves = game.uci_moves();
        drop(state);
        self.write();
    }

    /// Game `index` ended as `record` says, and the match stands at `standings`.
    pub fn ended(
        &self,
        index: u32,
        record: &GameRecord,
        standings: &Standings,
        settings: &MatchSettings,
    ) {
        let mut state = self.lock();
        state.1.insert(
            index,
            LiveGame {
                number: index + 1,
                white: record.tag("White").unwrap_or("?").to_string(),
                black: record.tag("Black").unwrap_or("?").to_string(),
                start_fen: record.game.start().to_fen(),
                moves: record.game.uci_moves(),
                result: record.result.to_string(),
                comment: record.comment.clone(),
            },
        );
        let tally = standings.tally;
        let elo = tally.elo().filter(|(_, margin)| margin.is_finite());
        state.0.score = LiveScore {
            wins: tally.wins,
            losses: tally.losses,
            draws: tally.draws,
            games: tally.games(),
            score: (tally.games() > 0).then(|| tally.score()),
            elo: elo.map(|(elo, _)| elo),
            elo_margin: elo.map(|(_, margin)| margin),
        };
        state.0.sprt = settings
            .sprt
            .zip(standings.sprt)
            .map(|(sprt, sprt_state)| sprt.report(&standings.pairs, sprt_state));
        drop(state);
        self.write();
    }

    /// The match is over.
    pub fn finished(&self) {
        self.lock().0.finished = true;
        self.write();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (LiveMatch, BTreeMap<u32, LiveGame>)> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Writes the file; a failure is logged, and the match goes on.
    fn write(&self) {
        if let Err(problem) = self.write_now() {
            log::warn!("{problem}");
        }
    }

    fn write_now(&self) -> Result<(), String> {
        let state = self.lock();
        let mut whole = state.0.clone();
        whole.games = state.1.values().cloned().collect();
        let text = serde_json::to_string(&whole).map_err(|error| error.to_string())?;
        // Rename within the lock: writers never cross.
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".part");
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|error| format!("cannot write {}: {error}", self.path.display()))
    }
}
