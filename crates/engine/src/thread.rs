//! What a search is given, what it tells and answers, and what its threads
//! share: the types between the engine, the thread set-up
//! (`threadpool.rs`) and the search itself (`search.rs`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::score::MATE_BOUND;
use crate::tablebase::{Probing, Settings};
use crate::time::Budget;
use crate::transposition::{Bound, TranspositionTable};
use catena_core::board::{Move, Position};
use catena_core::game::{Action, GameState, SwitchRun, Variant};

pub const MAX_DEPTH: i32 = 100;

/// What bounds a search, besides `stop`.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Mate in this many moves.
    pub mate: Option<i32>,
    pub budget: Option<Budget>,
    /// Only these root actions (`go searchmoves`); empty means all.
    pub search_moves: Vec<Move>,
    pub multipv: usize,
    pub threads: usize,
    /// The endgame tables and how to probe them, if any are set.
    pub tablebases: Option<Settings>,
}

/// Flags the UCI thread sets while a search runs.
#[derive(Default)]
pub struct Control {
    pub stop: AtomicBool,
    /// Set during `go ponder` until `ponderhit`: time limits do not apply.
    pub pondering: AtomicBool,
    /// Milliseconds from `started` at which the clock started (the `ponderhit`).
    pub clock_offset_ms: AtomicU64,
    /// Set by the thread that answers `go` just before it prints `bestmove`.
    pub answered: AtomicBool,
}

/// Where the search starts: the position, the switch run and the earlier
/// positions' keys (for repetitions), oldest first.
#[derive(Clone, Debug)]
pub struct Root {
    pub position: Position,
    pub run: SwitchRun,
    pub history: Vec<u64>,
    pub variant: Variant,
}

impl Root {
    /// The current position of `game`, searched in `variant` (the switch run
    /// counts in SSCC only), with every earlier position for repetitions.
    pub fn of_game(game: &GameState, variant: Variant) -> Root {
        Root {
            position: game.position().clone(),
            run: match variant {
                Variant::Chess => SwitchRun::default(),
                Variant::Sscc(_) => game.run(),
            },
            history: game.plies().iter().map(|ply| ply.before().key()).collect(),
            variant,
        }
    }
}

/// What the search tells as it goes.
#[derive(Clone, Debug)]
pub enum Info {
    /// A line at the end of an iteration.
    Line(Report),
    /// The root action being searched, from the first second on, as
    /// Stockfish tells it: `currmove` and `currmovenumber` (from 1).
    CurrentMove {
        depth: i32,
        action: Action,
        number: usize,
    },
}

/// One line of `info`.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    pub score: i32,
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u16,
    /// Positions whose value came from the tablebases.
    pub tb_hits: u64,
    pub pv: Vec<Action>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// `None` only when there is no legal move.
    pub best: Option<Action>,
    /// The expected reply, when the best action gives the opponent the move.
    pub ponder: Option<Action>,
    pub score: i32,
    pub nodes: u64,
    pub depth: i32,
    /// The share of the first thread's nodes spent under the best action,
    /// from 0 to 1: the time manager reads a low share as a contested choice.
    pub best_share: f64,
}

/// A root action with what the iterations so far found under it.
pub struct RootMove {
    pub action: Action,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Action>,
    /// The nodes searched under this action, over all iterations so far.
    pub nodes: u64,
    /// The tablebases' score of the action, when they rank the root: what
    /// is reported unless the search finds a mate.
    pub tb_score: Option<i32>,
}

impl RootMove {
    /// The score to report: the tablebases' where they rank the root,
    /// unless the search found a mate, as Stockfish reports it.
    pub fn reported_score(&self) -> i32 {
        match self.tb_score {
            Some(tb_score) if self.score.abs() < MATE_BOUND => tb_score,
            _ => self.score,
        }
    }
}

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub limits: &'a Limits,
    pub started: Instant,
    pub nodes: AtomicU64,
    /// Positions whose value the tablebases gave, the root's included.
    pub tb_hits: AtomicU64,
    /// How the search probes the tablebases, if at all.
    pub probing: Option<Probing>,
    pub variant: Variant,
    /// Set when the main thread has finished, to stop the helpers.
    pub done: AtomicBool,
    /// Whether the main thread's principal variation gives the clock away,
    /// which moves the hard limit (`Budget::hard_limit`).
    pub giving_away: AtomicBool,
}

impl Shared<'_> {
    /// The time searched, from the clock's start (`ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed().saturating_sub(Duration::from_millis(
            self.control.clock_offset_ms.load(Ordering::Relaxed),
        ))
    }

    /// Whether the clock's hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.limits.budget.is_some_and(|budget| {
            self.elapsed() >= budget.hard_limit(self.giving_away.load(Ordering::Relaxed))
        })
    }
}
