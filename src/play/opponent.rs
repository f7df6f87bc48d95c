//! The engine the player faces: Catena searching in this process, or an
//! engine of an engine list run as a UCI process.

use catena_core::game::{Action, Variant};
use catena_engine::history::Histories;
use catena_engine::thread::{Control, Limits, Root};
use catena_engine::threadpool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::arena::{
    Clocks, EngineSlot, EngineSpec, Offence, go_command, position_command, read_bestmove,
};
use catena_core::game::GameState;
use catena_engine::transposition::TranspositionTable;

/// An engine that plays one side of the game.
pub trait Opponent {
    fn name(&self) -> &str;
    /// Forgets everything about the game before.
    fn new_game(&mut self) -> Result<(), String>;
    /// The action (a move, and whether to switch after it) for the side to
    /// move in `game`, which must not be over, within the time `clocks` give
    /// that side.
    fn choose(&mut self, game: &GameState, clocks: &Clocks) -> Result<Action, String>;
}

/// Catena's own search, run in this process.
pub struct InProcess {
    tt: Arc<TranspositionTable>,
    /// A fixed search depth, which also ends the search when the clock allows more.
    depth: Option<i32>,
    histories: Vec<Histories>,
}

/// The transposition table's size: plenty for moves of a few seconds.
const HASH_MB: usize = 64;
/// The search recurses deeply; the UCI engine gives its thread the same stack.
const SEARCH_STACK: usize = 64 << 20;
/// Time kept back from every move for printing and drawing.
const OVERHEAD: Duration = Duration::from_millis(20);

impl InProcess {
    pub fn new(depth: Option<i32>) -> InProcess {
        InProcess {
            tt: Arc::new(TranspositionTable::new(HASH_MB)),
            depth,
            histories: Vec::new(),
        }
    }
}

impl Opponent for InProcess {
    fn name(&self) -> &str {
        "Catena"
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.tt.clear();
        self.histories.clear();
        Ok(())
    }

    fn choose(&mut self, game: &GameState, clocks: &Clocks) -> Result<Action, String> {
        let started = Instant::now();
        let root = Root::of_game(game, Variant::Sscc(*game.rules()));
        let limits = Limits {
            depth: self.depth,
            budget: Some(clocks.sscc_budget(root.position.side_to_move(), OVERHEAD)),
            multipv: 1,
            threads: 1,
            ..Limits::default()
        };
        let control = Control::default();
        let tt = &self.tt;
        let histories = &mut self.histories;
        let result = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("search".to_string())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, || {
                    threadpool::search(
                        &root,
                        &limits,
                        tt,
                        histories,
                        &control,
                        started,
                        &mut |_| {},
                    )
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

/// An engine of an engine list, run as a UCI process and restarted after a fault.
pub struct Process {
    slot: EngineSlot,
    /// How far past its clock an engine may answer before it counts as hanging.
    margin: Duration,
}

impl Process {
    pub fn new(spec: EngineSpec, variant: Variant) -> Process {
        Process {
            slot: EngineSlot::new(spec, variant),
            margin: Duration::from_secs(1),
        }
    }
}

impl Opponent for Process {
    fn name(&self) -> &str {
        self.slot.name()
    }

    fn new_game(&mut self) -> Result<(), String> {
        let started = self.slot.engine().and_then(|engine| {
            engine
                .new_game()
                .map_err(|fault| format!("the engine {fault}"))
        });
        if started.is_err() {
            self.slot.discard();
        }
        started
    }

    fn choose(&mut self, game: &GameState, clocks: &Clocks) -> Result<Action, String> {
        let color = game.position().side_to_move();
        let mut clocks = *clocks;
        let allowed = clocks.of(color).budget() + self.margin;
        let engine = self.slot.engine()?;
        let answer = engine.think(
            &position_command(game, engine.sscc()),
            &go_command(engine.spec(), &clocks, color),
            allowed,
        );
        let chosen = answer
            .map_err(|fault| format!("the engine {fault}"))
            .and_then(|answer| {
                read_bestmove(game.position(), &answer.bestmove).map_err(|offence| match offence {
                    Offence::IllegalMove(mv) => format!("it sent the illegal move {mv}"),
                    Offence::Unreadable(line) => format!("it sent {line}, which names no move"),
                    other => format!("{other:?}"),
                })
            });
        if chosen.is_err() {
            // Whatever state it is in, the next move gets a fresh process.
            self.slot.discard();
        }
        chosen
    }
}
