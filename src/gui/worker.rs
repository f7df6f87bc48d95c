//! An engine in a thread of its own, fed tasks: think about a game (to move
//! in it, or to analyse it until told otherwise) or stop. Its `info` lines
//! reach the page as `thinking` events at least every [`EMIT_EVERY`] while it
//! thinks; a newer task stops the current search at once.

use catena_core::game::Action;
use catena_core::game::Variant;
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;

use super::events::Events;
use super::info::{self, Line};
use crate::arena::{EngineSlot, EngineSpec, Offence, position_command, read_bestmove};
use catena_core::game::GameState;

/// What the engine thinks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// It plays the engine's side of the game.
    Player,
    /// It analyses the position on the board.
    Analysis,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Analysis => "analysis",
        }
    }
}

/// One search.
#[derive(Clone, Debug)]
pub struct Job {
    pub generation: u64,
    pub spec: EngineSpec,
    pub variant: Variant,
    pub game: GameState,
    /// The `go` command.
    pub go: String,
    /// The longest the engine may take; `None` for `go infinite`.
    pub allowed: Option<Duration>,
    /// MultiPV lines to ask for (analysis).
    pub multipv: Option<usize>,
}

pub enum Task {
    Think(Box<Job>),
    /// Stop thinking, if thinking.
    Idle,
}

/// What a search came to: the move, the switch and the time from `go` to
/// `bestmove`, or why there is none.
pub type Outcome = Result<(Action, Duration), String>;

/// The thread's handle.
pub struct Worker {
    sender: mpsc::Sender<Task>,
}

/// Engine output reaches the page at least this often while a search runs.
pub const EMIT_EVERY: Duration = Duration::from_millis(400);
/// And not more often than this.
const EMIT_AT_MOST: Duration = Duration::from_millis(100);

impl Worker {
    /// Starts the thread; `done` hears how each search ended.
    pub fn spawn(
        role: Role,
        events: Events,
        done: impl Fn(&Job, Outcome) + Send + 'static,
    ) -> Worker {
        let (sender, receiver) = mpsc::channel();
        thread::Builder::new()
            .name(format!("gui-{}", role.name()))
            .spawn(move || serve(role, &receiver, &events, &done))
            .expect("cannot start an engine thread");
        Worker { sender }
    }

    pub fn submit(&self, task: Task) {
        let _ = self.sender.send(task);
    }
}

/// The engine that ran the last task, kept while tasks want the same one.
struct Seat {
    spec: EngineSpec,
    variant: Variant,
    slot: EngineSlot,
    multipv: Option<usize>,
}

fn serve(
    role: Role,
    receiver: &mpsc::Receiver<Task>,
    events: &Events,
    done: &dyn Fn(&Job, Outcome),
) {
    let mut seat: Option<Seat> = None;
    let mut next: Option<Task> = None;
    loop {
        let task = match next.take() {
            Some(task) => task,
            None => match receiver.recv() {
                Ok(task) => task,
                Err(_) => return,
            },
        };
        let Task::Think(job) = task else {
            continue;
        };
        if seat
            .as_ref()
            .is_none_or(|seat| seat.spec != job.spec || seat.variant != job.variant)
        {
            seat = Some(Seat {
                spec: job.spec.clone(),
                variant: job.variant,
                slot: EngineSlot::new(job.spec.clone(), job.variant),
                multipv: None,
            });
        }
        let seat_now = seat.as_mut().expect("seated above");
        let outcome = think(role, seat_now, &job, receiver, &mut next, events);
        if let Err(why) = &outcome {
            log::warn!("{} ({}): {why}", job.spec.name, role.name());
            seat_now.slot.discard();
            seat_now.multipv = None;
        }
        // A search stopped for a newer task answers nothing.
        if next.is_none() || role == Role::Player {
            done(&job, outcome);
        }
    }
}

fn think(
    role: Role,
    seat: &mut Seat,
    job: &Job,
    receiver: &mpsc::Receiver<Task>,
    next: &mut Option<Task>,
    events: &Events,
) -> Outcome {
    let engine = seat.slot.engine()?;
    if let Some(lines) = job.multipv
        && seat.multipv != Some(lines)
    {
        engine
            .set_option("MultiPV", &lines.to_string())
            .map_err(|fault| format!("the engine {fault}"))?;
        seat.multipv = Some(lines);
    }
    let position = position_command(&job.game, engine.sscc());
    let started = Instant::now();
    let mut lines: BTreeMap<usize, Line> = BTreeMap::new();
    let mut last_emit = Instant::now();
    let mut fresh = false;
    let side = job.game.position().side_to_move();
    let emit = |lines: &BTreeMap<usize, Line>, done: bool| {
        events.send(
            "thinking",
            json!({
                "role": role.name(),
                "generation": job.generation,
                "engine": job.spec.name,
                "side": side.to_string(),
                "elapsed_ms": started.elapsed().as_millis() as u64,
                "depth": lines.values().map(|line| line.depth).max(),
                "lines": lines.values().collect::<Vec<_>>(),
                "done": done,
            }),
        );
    };
    let answer = engine.think_watched(&position, &job.go, job.allowed, &mut |line| {
        while let Ok(task) = receiver.try_recv() {
            *next = Some(task);
        }
        if let Some(parsed) = line.and_then(|line| info::read(line, &job.game)) {
            // A new depth of the first line starts a new set of lines.
            if parsed.multipv == 1 && lines.get(&1).is_some_and(|old| old.depth < parsed.depth) {
                lines.retain(|_, old| old.depth >= parsed.depth);
            }
            lines.insert(parsed.multipv, parsed);
            fresh = true;
        }
        let since = last_emit.elapsed();
        if (fresh && since >= EMIT_AT_MOST) || since >= EMIT_EVERY {
            emit(&lines, false);
            last_emit = Instant::now();
            fresh = false;
        }
        next.is_none()
    });
    emit(&lines, true);
    let answer = answer.map_err(|fault| format!("the engine {fault}"))?;
    let action =
        read_bestmove(job.game.position(), &answer.bestmove).map_err(|offence| match offence {
            Offence::IllegalMove(mv) => format!("it sent the illegal move {mv}"),
            Offence::Unreadable(line) => format!("it sent {line}, which names no move"),
            other => format!("{other:?}"),
        })?;
    Ok((action, answer.elapsed))
}
