//! The server's shared state: the session, the engines it may run, the two
//! engine threads (the opponent, the analyser) and the event stream; and what
//! follows every change of the game.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use super::book::{AnalysisSettings, EngineBook};
use super::events::Events;
use super::guard::Guard;
use super::session::Session;
use super::view;
use super::watch::Watch;
use super::worker::{Job, Outcome, Role, Task, Worker};
use crate::arena::go_command;
use catena_core::board::san;

/// How often the person's clock is looked at.
const FLAG_CHECK: Duration = Duration::from_millis(200);

pub struct App {
    session: Mutex<Session>,
    analysis: Mutex<AnalysisSettings>,
    pub events: Events,
    pub book: EngineBook,
    pub guard: Guard,
    pub watch: Watch,
    player: Worker,
    analyser: Worker,
}

/// A lock that outlives a panic elsewhere: the session is changed only by
/// steps that leave it whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl App {
    /// The server's state; with `follow`, the match in that live file is followed.
    pub fn new(book: EngineBook, guard: Guard, follow: Option<PathBuf>) -> Arc<App> {
        let events = Events::new();
        let catena = book.engines[0].program.clone();
        Arc::new_cyclic(|weak: &Weak<App>| {
            let for_player = weak.clone();
            let for_clock = weak.clone();
            std::thread::Builder::new()
                .name("gui-clock".to_string())
                .spawn(move || {
                    let mut seen = false;
                    loop {
                        std::thread::sleep(FLAG_CHECK);
                        match for_clock.upgrade() {
                            Some(app) => {
                                seen = true;
                                app.check_flag();
                            }
                            // Gone: stop; not built yet: wait.
                            None if seen => return,
                            None => {}
                        }
                    }
                })
                .expect("cannot start the clock thread");
            App {
                session: Mutex::new(Session::new()),
                analysis: Mutex::new(AnalysisSettings::default()),
                player: Worker::spawn(Role::Player, events.clone(), move |job, outcome| {
                    if let Some(app) = for_player.upgrade() {
                        app.engine_moved(job, outcome);
                    }
                }),
                analyser: Worker::spawn(Role::Analysis, events.clone(), |_, _| {}),
                watch: Watch::new(catena, follow, events.clone()),
                events,
                book,
                guard,
            }
        })
    }

    pub fn session(&self) -> MutexGuard<'_, Session> {
        lock(&self.session)
    }

    pub fn analysis(&self) -> AnalysisSettings {
        lock(&self.analysis).clone()
    }

    pub fn set_analysis(&self, settings: AnalysisSettings) -> Result<(), String> {
        if self.book.named(&settings.engine).is_none() {
            return Err(format!("no engine called '{}'", settings.engine));
        }
        if !(1..=16).contains(&settings.multipv) {
            return Err(format!("{} lines: ask for 1 to 16", settings.multipv));
        }
        *lock(&self.analysis) = settings;
        Ok(())
    }

    /// The page's picture of everything, as JSON.
    pub fn state(&self, session: &Session) -> serde_json::Value {
        view::state(session, &self.analysis(), &self.book)
    }

    /// After every change: every page hears of it, the engine moves if it is
    /// its turn, and the analysis follows the board.
    pub fn changed(&self, session: &Session) {
        self.events.send("state", self.state(session));
        match session.engine_turn() {
            Some(turn) => match self.book.named(&turn.engine) {
                Some(spec) => {
                    let mut clocks = turn.clocks;
                    let color = turn.game.position().side_to_move();
                    let go = go_command(spec, &clocks, color);
                    let allowed = clocks.of(color).budget() + Duration::from_secs(1);
                    self.player.submit(Task::Think(Box::new(Job {
                        generation: turn.generation,
                        spec: spec.clone(),
                        variant: turn.variant,
                        game: turn.game,
                        go,
                        allowed: Some(allowed),
                        multipv: None,
                    })));
                }
                None => self
                    .events
                    .message(&format!("no engine called '{}'", turn.engine), true),
            },
            None => self.player.submit(Task::Idle),
        }
        let analysis = self.analysis();
        let spec = self.book.named(&analysis.engine);
        match spec {
            Some(spec) if analysis.on && session.ending().is_none() => {
                self.analyser.submit(Task::Think(Box::new(Job {
                    generation: session.generation(),
                    spec: spec.clone(),
                    variant: session.variant(),
                    game: session.game().clone(),
                    go: "go infinite".to_string(),
                    allowed: None,
                    multipv: Some(analysis.multipv),
                })))
            }
            _ => self.analyser.submit(Task::Idle),
        }
    }

    /// Ends the game if the person's flag fell while they thought.
    fn check_flag(&self) {
        let mut session = self.session();
        if session.check_flag() {
            if let Some((result, why)) = session.ending() {
                self.events
                    .message(&format!("Game over: {result} ({why})."), false);
            }
            self.changed(&session);
        }
    }

    /// The opponent's search ended: its move is played if the game is still
    /// where it was, and the page told what it did.
    fn engine_moved(&self, job: &Job, outcome: Outcome) {
        let mut session = self.session();
        if job.generation != session.generation() {
            return;
        }
        let before = session.game().position().clone();
        let name = job.spec.name.clone();
        match outcome {
            Ok((action, used)) => {
                let number = view::numbered(&before, action.mv);
                match session.play_engine(job.generation, action, used) {
                    Ok(()) => {
                        let switched = session
                            .game()
                            .plies()
                            .last()
                            .is_some_and(|ply| ply.switched);
                        let text = if switched {
                            format!(
                                "{name} plays {number} and switches sides: you play {}, {name} plays {}.",
                                view::capitalized(session.human_color()),
                                view::capitalized(!session.human_color())
                            )
                        } else {
                            format!("{name} plays {number}.")
                        };
                        self.events.message(&text, false);
                    }
                    Err(why) => match session.ending() {
                        // Its flag fell while it thought.
                        Some((result, reason)) => self
                            .events
                            .message(&format!("Game over: {result} ({reason})."), false),
                        None => {
                            let text = format!(
                                "{name} chose {} and {why}",
                                san::format(&before, action.mv)
                            );
                            session.engine_failed(job.generation, text.clone());
                            self.events.message(&text, true);
                        }
                    },
                }
            }
            Err(why) => {
                let text = format!(
                    "{name} could not move: {why}. Undo, start a new game or pick another engine."
                );
                session.engine_failed(job.generation, text.clone());
                self.events.message(&text, true);
            }
        }
        self.changed(&session);
    }
}
