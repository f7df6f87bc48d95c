//! Tablebase adjudication, as cutechess-cli's and fastchess's `-tb`: a game
//! that reaches a position the Syzygy tables hold ends there with their
//! result, probed through the engine's own reader
//! (`catena_engine::tablebase`).
//!
//! In SSCC only positions without a possible chain are judged
//! ([`Rules::chainless_men`]): the rest of the game is chess, and the result
//! by colour is credited to the player who holds the colour, as every SSCC
//! result is.

use std::sync::Arc;

use clap::ValueEnum;

use catena_core::board::CastlingRights;
use catena_core::game::pgn::GameResult;
use catena_core::game::{GameState, Variant};
use catena_engine::tablebase::Tablebases;

/// `--tb-adjudicate`: which of the tables' results end a game, as
/// fastchess's `-tbadjudicate`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TbResults {
    /// Wins and losses only: drawn positions are played on.
    WinLoss,
    /// Draws only: won positions are played on.
    Draw,
    #[default]
    Both,
}

/// `--tb PATH [--tb-pieces N] [--tb-ignore-50] [--tb-adjudicate RESULTS]`.
#[derive(Clone, Debug)]
pub struct TablebaseRule {
    tables: Arc<Tablebases>,
    /// The most men of a position judged.
    men: u32,
    /// Whether wins the fifty-move rule spoils, and losses it saves, are draws.
    rule50: bool,
    results: TbResults,
}

impl TablebaseRule {
    /// The tables in the folders of `path`, separated as `SyzygyPath`
    /// separates them or by `;` as cutechess-cli and fastchess document it,
    /// judging positions of at most `men` men (default:
    /// the largest tables found). A folder that cannot be read, a damaged
    /// table, or no table at all is an error.
    pub fn open(
        path: &str,
        men: Option<u32>,
        ignore_50: bool,
        results: TbResults,
    ) -> Result<TablebaseRule, String> {
        // Where `:` separates folders, `;` does as well.
        let folders = if cfg!(windows) {
            path.to_string()
        } else {
            path.replace(';', ":")
        };
        let tables = Tablebases::open(&folders)
            .map_err(|problem| format!("--tb: {problem}"))?
            .filter(|tables| tables.max_men() > 0)
            .ok_or_else(|| format!("--tb: no Syzygy tables in '{path}'"))?;
        log::info!("--tb: {}", tables.summary());
        Ok(TablebaseRule {
            men: men.unwrap_or(tables.max_men()),
            tables: Arc::new(tables),
            rule50: !ignore_50,
            results,
        })
    }

    /// The result the tables give the game where it stands, if they hold the
    /// position and the rules allow judging it.
    pub fn judge(&self, game: &GameState, variant: Variant) -> Option<GameResult> {
        let position = game.position();
        let men = position.occupied().len();
        let limit = match variant {
            Variant::Chess => self.men,
            Variant::Sscc(rules) => self.men.min(rules.chainless_men()),
        };
        if men > limit || position.castling_rights() != CastlingRights::NONE {
            return None;
        }
        let wdl = if self.rule50 {
            self.tables.wdl(position)?
        } else {
            // Without the rule the clock does not matter: a cursed win is a win.
            2 * self.tables.wdl_after_zeroing(position)?.signum()
        };
        let mover = position.side_to_move();
        let result = match wdl {
            2 => GameResult::win_for(mover),
            -2 => GameResult::win_for(!mover),
            _ => GameResult::Draw,
        };
        let wanted = match self.results {
            TbResults::Both => true,
            TbResults::WinLoss => result != GameResult::Draw,
            TbResults::Draw => result == GameResult::Draw,
        };
        wanted.then_some(result)
    }
}
