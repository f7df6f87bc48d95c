//! The engine's state between UCI commands, as Stockfish's `engine.cpp`
//! beside `uci.cpp`: the options, the game `position` set up (a
//! [`GameState`], so the rules and switch checks are those of the game
//! module), the transposition table and histories, and the search or task
//! running on its own thread, so that `stop`, `isready` and `ponderhit` are
//! answered while it thinks. The engine never prints: what it has to tell
//! goes to its [`Listener`] as an [`Output`] (as Stockfish's engine calls
//! `on_update_full` and `on_bestmove`), which `uci.rs` writes as protocol text.

use crate::history::Histories;
use crate::thread::{Control, Info, Limits, Report, Root, SearchResult};
use crate::threadpool;
use catena_core::game::{Action, Variant};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::bench;
use crate::book::{Book, Verdict};
use crate::options::{Id, Options, UciOption};
use crate::quote::quote;
use crate::score::MATE;
use crate::tablebase::{Settings, Tablebases};
use crate::time::{Budget, TimeLeft};
use crate::transposition::TranspositionTable;
use crate::wdl::{self, WinDrawLoss};
use catena_core::board::{Color, Position};
use catena_core::game::{GameError, GameState, Rules};
use catena_core::perft::{self, RootCount};

/// What the engine tells as it works, from whichever thread does the work.
#[derive(Clone, Debug)]
pub enum Output {
    /// A line of the search, with the odds of its score when `UCI_ShowWDL` is on.
    Info(Info, Option<WinDrawLoss>),
    /// The search's answer.
    BestMove(SearchResult),
    /// `go perft`: the count below each root child.
    Perft(Vec<RootCount>),
    /// A line of `bench`'s report.
    Text(String),
    /// Something worth telling the GUI beside the search's lines.
    Note(String),
    /// Something failed on the engine's own thread.
    Error(String),
}

/// Where the engine's [`Output`] goes.
pub type Listener = Arc<dyn Fn(Output) + Send + Sync>;

/// A search, or a `go perft` or `bench`, in progress on its own thread.
struct Running {
    handle: JoinHandle<()>,
    control: Arc<Control>,
    started: Instant,
    /// A `go perft` or `bench`: a later command waits for its end, where it
    /// would stop a search.
    task: bool,
}

/// The engine between commands: its options, the game `position` set, the
/// table and histories, and what runs on its own thread.
pub struct Engine {
    options: Options,
    game: GameState,
    tt: Arc<TranspositionTable>,
    /// The search threads' histories, kept from one `go` to the next of a game.
    histories: Arc<Mutex<Vec<Histories>>>,
    running: Option<Running>,
    listener: Listener,
    /// The tables `SyzygyPath` names, once opened.
    tablebases: Option<Arc<Tablebases>>,
}

/// What `go` asked for.
#[derive(Default)]
pub struct GoCommand {
    pub limits: Limits,
    pub white: TimeLeft,
    pub black: TimeLeft,
    pub clock_given: [bool; 2],
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
}

impl Engine {
    /// An engine at its default options, telling `listener` what it has to tell.
    pub fn new(listener: Listener) -> Engine {
        let options = Options::default();
        Engine {
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            histories: Arc::default(),
            options,
            game: GameState::new(Position::startpos(), Rules::default()).playing_on(),
            running: None,
            listener,
            tablebases: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.options.variant()
    }

    pub fn rules(&self) -> Option<Rules> {
        self.variant().rules()
    }

    fn tell(&self, output: Output) {
        (self.listener)(output);
    }

    pub fn game(&self) -> &GameState {
        &self.game
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// `ucinewgame`: a fresh table, histories and game.
    pub fn new_game(&mut self) {
        self.finish_task();
        self.wait_for_search(true);
        self.clear_hash();
        self.histories
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.game = GameState::new(Position::startpos(), Rules::default()).playing_on();
    }

    /// `ponderhit`: the search goes on, on the clock from now.
    pub fn ponderhit(&mut self) -> Result<(), String> {
        let Some(running) = &self.running else {
            return Err("ponderhit without a search".to_string());
        };
        // The clock runs from now: the budget is measured from here.
        let waited = running.started.elapsed().as_millis() as u64;
        running
            .control
            .clock_offset_ms
            .store(waited, Ordering::Relaxed);
        running.control.pondering.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// Collects the thread of a search that has printed its move.
    pub fn collect_finished(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|running| running.control.answered.load(Ordering::Acquire))
        {
            self.wait_for_search(false);
        }
    }

    /// `bench depth`, on the search's thread.
    pub fn bench(&mut self, depth: i32) {
        let (hash_mb, threads) = (self.options.hash_mb, self.options.threads);
        let listener = Arc::clone(&self.listener);
        self.spawn_task("bench", move |control| {
            bench::run(depth, hash_mb, threads, control, &mut |line| {
                listener(Output::Text(line.to_string()))
            });
        });
    }

    /// Stops the search if `stop` or it has no end of its own, and waits for its `bestmove`.
    pub fn wait_for_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.control.stop.store(true, Ordering::Relaxed);
            } else {
                running.control.pondering.store(false, Ordering::Relaxed);
            }
            if running.handle.join().is_err() {
                self.tell(Output::Error("the search thread failed".to_string()));
            }
        }
    }

    /// Waits for a running `go perft` or `bench` to end by itself: commands
    /// sent after it are answered after it, as they were sent.
    pub fn finish_task(&mut self) {
        if self.running.as_ref().is_some_and(|running| running.task) {
            self.wait_for_search(false);
        }
    }

    /// Runs `task` on its own thread, where searches run, so that `stop`,
    /// `isready`, `quit` and the end of input are answered while it works.
    /// A search in progress is stopped first; an earlier task is finished.
    fn spawn_task(&mut self, name: &str, task: impl FnOnce(&Control) + Send + 'static) {
        self.finish_task();
        self.wait_for_search(true);
        let control = Arc::new(Control::default());
        let thread_control = Arc::clone(&control);
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(64 << 20)
            .spawn(move || {
                task(&thread_control);
                thread_control.answered.store(true, Ordering::Release);
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    started: Instant::now(),
                    task: true,
                })
            }
            Err(problem) => self.tell(Output::Error(format!(
                "cannot start the {name} thread: {problem}"
            ))),
        }
    }

    /// Empties the hash table. A fresh table of zero pages costs nothing
    /// until used, where writing zeros over a large one took seconds; the old
    /// one is cleared in place only if the memory for a new one is short.
    fn clear_hash(&mut self) {
        match TranspositionTable::try_new(self.options.hash_mb) {
            Ok(table) => self.tt = Arc::new(table),
            Err(_) => self.tt.clear(),
        }
    }

    /// `setoption`: the option named (in any case) takes `value`, or the
    /// refusal says why not and nothing changes.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        self.finish_task();
        if self.running.is_some() {
            return Err(format!("option {name} cannot change during a search"));
        }
        let option = UciOption::find(name)?;
        let value = option.parse(value)?;
        let mut options = self.options.clone();
        options.set(option.id, value);
        match option.id {
            // The old table stays until the new one is had.
            Id::Hash => self.tt = Arc::new(TranspositionTable::try_new(options.hash_mb)?),
            Id::ClearHash => self.clear_hash(),
            Id::SyzygyPath => {
                // Bad tables are refused whole: the search goes on without any.
                self.options = options;
                self.tablebases = None;
                let tables = Tablebases::open(&self.options.syzygy_path)
                    .map_err(|problem| format!("SyzygyPath: {problem}"))?;
                if let Some(tables) = &tables {
                    self.tell(Output::Note(tables.summary()));
                }
                self.tablebases = tables.map(Arc::new);
                return Ok(());
            }
            _ => {}
        }
        self.options = options;
        Ok(())
    }

    /// `position`: the game from `start` through the UCI `moves` (with
    /// SSCC `switch` tokens). On a bad token the game keeps every move before
    /// it, and the refusal names the token.
    pub fn set_position(&mut self, start: Position, moves: &[&str]) -> Result<(), String> {
        // The GUI decides when its game ends: moves after a draw by rule are played.
        let mut game = GameState::new(start, self.rules().unwrap_or_default()).playing_on();
        // Chess has no switch: the list is played up to the first one.
        let chess_switch = if self.variant().is_sscc() {
            None
        } else {
            moves.iter().position(|&token| token == "switch")
        };
        let playable = &moves[..chess_switch.unwrap_or(moves.len())];
        let refusal = match game.apply_uci_moves(playable) {
            Err((index, token, why)) => Some((index, token, why.to_string())),
            Ok(()) => chess_switch.map(|index| {
                let why = if index == 0 {
                    GameError::SwitchWithoutMove.to_string()
                } else {
                    "'switch' needs setoption name UCI_Variant value sscc".to_string()
                };
                (index, "switch", why)
            }),
        };
        let refusal = refusal.map(|(index, token, why)| {
            let number = index + 1;
            match (token, game.plies().last()) {
                ("switch", Some(ply)) if index > 0 => {
                    format!("move {number} 'switch' after {}: {why}", ply.mv)
                }
                ("switch", _) => format!("move {number}: {why}"),
                _ => format!("move {number} '{}': {why}", quote(token)),
            }
        });
        self.game = game;
        refusal.map_or(Ok(()), Err)
    }

    pub fn budget(&self, go: &GoCommand) -> Option<Budget> {
        let overhead = Duration::from_millis(self.options.move_overhead);
        let (clock, given) = match self.game.position().side_to_move() {
            Color::White => (go.white, go.clock_given[0]),
            Color::Black => (go.black, go.clock_given[1]),
        };
        match go.movetime {
            Some(movetime) => Some(Budget::fixed(movetime, overhead)),
            None if given && !go.infinite => Some(match self.variant() {
                Variant::Chess => Budget::from_clock(clock, overhead),
                Variant::Sscc(_) => Budget::sscc(clock, overhead),
            }),
            None => None,
        }
    }

    /// `go`: starts the search on its own thread, which answers `bestmove`.
    /// `started` is when the command arrived: the clock runs from there.
    pub fn go(&mut self, mut go: GoCommand, started: Instant) -> Result<(), String> {
        self.finish_task();
        if self.running.is_some() {
            return Err("go while a search runs: send stop first".to_string());
        }
        go.limits.budget = self.budget(&go);
        go.limits.tablebases = self.tablebases.as_ref().map(|tables| Settings {
            tables: Arc::clone(tables),
            probe_depth: self.options.syzygy_probe_depth,
            rule50: self.options.syzygy_rule50,
            probe_limit: self.options.syzygy_probe_limit,
        });
        // `go` with no limit at all searches until `stop`, as `go infinite` does.
        let endless = go.infinite
            || (go.limits.budget.is_none()
                && go.limits.depth.is_none()
                && go.limits.nodes.is_none()
                && go.limits.mate.is_none());
        // A proven win of the book is played at once, unless the GUI waits
        // for `stop` (`bestmove` may not come before it then).
        if !endless
            && !go.ponder
            && let Some((plies, line)) = self.book_win(&go.limits)
        {
            self.answer_from_book(plies, line, started);
            return Ok(());
        }
        let control = Arc::new(Control::default());
        control.pondering.store(go.ponder, Ordering::Relaxed);
        let job = SearchJob {
            root: Root::of_game(&self.game, self.variant()),
            limits: go.limits,
            tt: Arc::clone(&self.tt),
            started,
            endless,
            show_wdl: self.options.show_wdl,
        };
        let histories = Arc::clone(&self.histories);
        let thread_control = Arc::clone(&control);
        let listener = Arc::clone(&self.listener);
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(64 << 20)
            .spawn(move || {
                let mut histories = histories.lock().unwrap_or_else(PoisonError::into_inner);
                search_and_answer(&job, &mut histories, &thread_control, &*listener);
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    started,
                    task: false,
                })
            }
            Err(problem) => {
                self.tell(Output::BestMove(SearchResult::default()));
                return Err(format!("cannot start the search thread: {problem}"));
            }
        }
        Ok(())
    }

    /// The book's proven win from the game's position, in SSCC with no run
    /// of switches in progress (the book's positions have none): its
    /// length in plies and its line, the first action first. None where
    /// `searchmoves` leaves the first action out, or where the fifty-move
    /// rule could end the game first.
    fn book_win(&self, limits: &Limits) -> Option<(u32, Vec<Action>)> {
        let rules = self.rules()?;
        let position = self.game.position();
        if self.game.run().switches() > 0 {
            return None;
        }
        let record = Book::built_in().win(position, rules)?;
        let Verdict::Win { plies, line } = &record.verdict else {
            return None;
        };
        let first = line.first()?;
        let allowed = limits.search_moves.is_empty() || limits.search_moves.contains(&first.mv);
        let in_time = u32::from(position.halfmove_clock()) + plies < 100;
        (allowed && in_time).then(|| (*plies, line.clone()))
    }

    /// Answers `go` with the book's win: its line as the search would report
    /// a found mate, a note that it is proven, and its first action.
    fn answer_from_book(&self, plies: u32, line: Vec<Action>, started: Instant) {
        let score = MATE - plies as i32;
        let depth = plies as i32;
        self.tell(Output::Note(format!(
            "book: proven win in {plies} plies (catena book, docs/solver.md)"
        )));
        self.tell(Output::Info(
            Info::Line(Report {
                depth,
                seldepth: depth,
                multipv: 1,
                score,
                bound: None,
                nodes: 0,
                time: started.elapsed(),
                hashfull: 0,
                tb_hits: 0,
                pv: line.clone(),
            }),
            None,
        ));
        let best = line[0];
        self.tell(Output::BestMove(SearchResult {
            best: Some(best),
            ponder: line.get(1).copied().filter(|_| !best.switch),
            score,
            depth,
            ..SearchResult::default()
        }));
    }

    /// `go perft depth`: the divided count, on the search's thread.
    pub fn perft(&mut self, depth: u32) {
        let tree = match self.rules() {
            Some(rules) => perft::Tree::Sscc(rules),
            None => perft::Tree::Chess { bulk: true },
        };
        let (position, run) = (self.game.position().clone(), self.game.run());
        let threads = self.options.threads;
        let listener = Arc::clone(&self.listener);
        self.spawn_task("perft", move |control| {
            let start = Instant::now();
            match perft::divide(&tree, &position, run, depth, threads, &control.stop) {
                Ok(counts) => {
                    let total: u64 = counts.iter().map(|count| count.nodes).sum();
                    log::info!("{}", perft::summary_line(total, start.elapsed()));
                    listener(Output::Perft(counts));
                }
                Err(problem) => listener(Output::Error(problem)),
            }
        });
    }
}

/// What `go` hands its search thread.
struct SearchJob {
    root: Root,
    limits: Limits,
    tt: Arc<TranspositionTable>,
    /// When `go` arrived: the clock runs from there.
    started: Instant,
    /// `go infinite`, or no limit at all: `bestmove` waits for `stop`.
    endless: bool,
    show_wdl: bool,
}

/// The search thread: search, wait while `go infinite` or pondering asks to, answer.
fn search_and_answer(
    job: &SearchJob,
    histories: &mut Vec<Histories>,
    control: &Control,
    tell: &(dyn Fn(Output) + Send + Sync),
) {
    let SearchJob {
        root,
        limits,
        tt,
        started,
        endless,
        show_wdl,
    } = job;
    let material = show_wdl.then(|| wdl::material(&root.position));
    let mut reporter = |info: &Info| {
        let odds = match (info, material) {
            (Info::Line(report), Some(material)) => {
                Some(wdl::win_draw_loss(report.score, material, root.variant))
            }
            _ => None,
        };
        tell(Output::Info(info.clone(), odds));
    };
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        threadpool::search(
            root,
            limits,
            tt,
            histories,
            control,
            *started,
            &mut reporter,
        )
    }));
    let result = match outcome {
        Ok(result) => result,
        Err(_) => {
            tell(Output::Error(
                "the search failed; playing the first legal move".to_string(),
            ));
            let first = root.position.legal_moves().first().copied();
            SearchResult {
                best: first.map(Action::stay),
                ..SearchResult::default()
            }
        }
    };
    // The protocol forbids `bestmove` before `stop` in infinite or ponder mode.
    while (*endless || control.pondering.load(Ordering::Relaxed))
        && !control.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    control.answered.store(true, Ordering::Release);
    tell(Output::BestMove(result));
}
