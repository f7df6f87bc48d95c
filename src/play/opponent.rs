//! The engine the player faces: Catena searching in this process, or an
//! engine of `engines.json` run as a UCI process.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::GameState;
use crate::movepick::Action;
use crate::search::{self, Control, Limits, Root, Variant};
use crate::time::Budget;
use crate::transposition::TranspositionTable;

/// How long the engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Think {
    Depth(i32),
    MoveTime(Duration),
}

/// An engine that plays one side of the game.
pub trait Opponent {
    fn name(&self) -> &str;
    /// Forgets everything about the game before.
    fn new_game(&mut self) -> Result<(), String>;
    /// The action (a move, and whether to switch after it) for the side to
    /// move in `game`, which must not be over.
    fn choose(&mut self, game: &GameState, think: Think) -> Result<Action, String>;
}

/// Catena's own search, run in this process.
pub struct InProcess {
    tt: Arc<TranspositionTable>,
}

/// The transposition table's size: plenty for moves of a second or two.
const HASH_MB: usize = 64;
/// The search recurses deeply; the UCI engine gives its thread the same stack.
const SEARCH_STACK: usize = 64 << 20;

impl InProcess {
    pub fn new() -> InProcess {
        InProcess {
            tt: Arc::new(TranspositionTable::new(HASH_MB)),
        }
    }
}

impl Default for InProcess {
    fn default() -> InProcess {
        InProcess::new()
    }
}

impl Opponent for InProcess {
    fn name(&self) -> &str {
        "Catena"
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.tt.clear();
        Ok(())
    }

    fn choose(&mut self, game: &GameState, think: Think) -> Result<Action, String> {
        let started = Instant::now();
        let root = root_of(game);
        let mut limits = Limits {
            multipv: 1,
            threads: 1,
            ..Limits::default()
        };
        match think {
            Think::Depth(depth) => limits.depth = Some(depth),
            Think::MoveTime(time) => limits.budget = Some(Budget::fixed(time, Duration::ZERO)),
        }
        let control = Control::default();
        let tt = &self.tt;
        let result = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("search".to_string())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, || {
                    search::search(&root, &limits, tt, &control, started, &mut |_| {})
                })
                .map_err(|error| format!("cannot start the search thread: {error}"))?
                .join()
                .map_err(|_| "the search failed".to_string())
        })?;
        log::info!(
            "search: depth {} score {} nodes {} in {:?}",
            result.depth,
            result.score,
            result.nodes,
            started.elapsed()
        );
        result
            .best
            .ok_or_else(|| "the engine found no move".to_string())
    }
}

/// The search's root for the game as it stands: position, switch run and the
/// keys of every earlier position, for repetitions.
fn root_of(game: &GameState) -> Root {
    Root {
        position: game.position().clone(),
        run: game.run(),
        history: game.plies().iter().map(|ply| ply.before().key()).collect(),
        variant: Variant::Sscc(*game.rules()),
    }
}
