//! `catena play`: a person against an engine in the terminal.
//!
//! The conversation goes through any `BufRead` and `Write`, so that tests drive
//! it exactly as a person does. The game itself is a [`GameState`], which owns
//! the rules; this module reads what the person types, explains whatever
//! cannot be played, draws the board with the last move and its chain, asks
//! whether to switch after a move that closes a chain, and keeps the clocks.

mod command;
mod files;
mod opponent;
mod refusal;

use catena_core::game::Action;
use catena_core::game::Variant;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::arena::{self, Clocks, Ending, Offence, TimeControl};
use crate::cli::{Failure, FailureKind, RulesArgs};
use crate::tools::chain::diagram;
use catena_core::board::{Color, Move, Placement, Position, san};
use catena_core::chain::{self, Chain};
use catena_core::game::pgn::{GameRecord, GameResult};
use catena_core::game::{GameError, GameState, Player, Rules, closed_chain};

use command::Command;
pub(crate) use command::read_move;
pub use files::{HUMAN, Loaded, load_text};
pub use opponent::{InProcess, Opponent, Process};

/// Play against an engine in the terminal.
#[derive(clap::Args, Debug)]
#[command(about = "Play Switch-Side Chain-Chess against an engine in the terminal")]
pub struct PlayArgs {
    /// The colour you start with.
    #[arg(long, default_value = "white", value_parser = parse_color)]
    color: Color,
    /// Time control, as cutechess-cli writes it: 40/60+0.6, 10+0.1, st=0.5
    /// [default: st=1, the engine thinks a second a move and you as long as you like].
    #[arg(long, value_name = "SPEC")]
    tc: Option<TimeControl>,
    /// An engine of the engine list instead of Catena in this process.
    #[arg(long, value_name = "NAME")]
    engine: Option<String>,
    /// The engine list for --engine [default: engines.json at the top of the repository].
    #[arg(long, value_name = "FILE", requires = "engine")]
    engines: Option<std::path::PathBuf>,
    /// The most Catena searches a move, within the time control.
    #[arg(long, conflicts_with = "engine", value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    #[command(flatten)]
    rules: RulesArgs,
}

/// The engine's think time when no time control is given.
const DEFAULT_THINK: TimeControl = TimeControl::PerMove(Duration::from_secs(1));

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("'{text}' is not a colour (white or black)")),
    }
}

/// Runs the command on stdin and stdout.
pub fn run(args: &PlayArgs) -> Result<bool, Failure> {
    let rules = args.rules.rules();
    let opponent: Box<dyn Opponent> = match &args.engine {
        Some(name) => {
            let (path, list) = arena::engine_list(args.engines.as_deref()).or_usage()?;
            let spec = arena::engine_named(&list, &path, name).or_usage()?;
            Box::new(Process::new(spec, Variant::Sscc(rules)))
        }
        None => Box::new(InProcess::new(args.depth)),
    };
    let human = match args.color {
        Color::White => Player::StartedWhite,
        Color::Black => Player::StartedBlack,
    };
    let control = args.tc.unwrap_or(DEFAULT_THINK);
    let mut session = Session::new(rules, human, opponent, control);
    session
        .run(&mut io::stdin().lock(), &mut io::stdout().lock())
        .map_err(|error| format!("cannot talk to the terminal: {error}"))
        .or_runtime()?;
    Ok(true)
}

const HELP: &str = "\
Moves: SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e7e8q).
  After a move that closes a chain you are asked whether to switch sides;
  'MOVE switch' (like 'd3 switch') switches without asking.
Commands:
  undo        take back your last move (and the engine's moves after it)
  new         start a new game
  save FILE   write the game as PGN
  load FILE   load a game from a PGN file or a position from a FEN file
  help        this text
  quit        leave";

/// One game after another between a person and an engine.
pub struct Session {
    game: GameState,
    /// The person, named by the colour they started with; the engine is the other player.
    human: Player,
    opponent: Box<dyn Opponent>,
    control: TimeControl,
    clocks: Clocks,
    /// When the person's turn began, while it lasts.
    turn_started: Option<Instant>,
    /// The colour whose flag fell.
    lost_on_time: Option<Color>,
    /// A loaded game's result decided off the board (a forfeit, an
    /// adjudication): the game is over, as it was.
    verdict: Option<(GameResult, String)>,
    /// Why the engine could not move, until the game changes.
    engine_failure: Option<String>,
}

/// The conversation: lines in, text out.
struct Console<'a> {
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

impl Console<'_> {
    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.output, "{text}")
    }

    /// Prints `prompt` and reads a line; `None` at the end of the input.
    fn ask(&mut self, prompt: &str) -> io::Result<Option<String>> {
        write!(self.output, "{prompt}> ")?;
        self.output.flush()?;
        let mut line = Vec::new();
        if self.input.read_until(b'\n', &mut line)? == 0 {
            writeln!(self.output)?;
            return Ok(None);
        }
        // Bytes that are not UTF-8 become U+FFFD, to be refused like any other typo.
        Ok(Some(String::from_utf8_lossy(&line).trim().to_string()))
    }
}

/// Whether the session goes on after a command.
enum Flow {
    Continue,
    Quit,
}

impl Session {
    pub fn new(
        rules: Rules,
        human: Player,
        opponent: Box<dyn Opponent>,
        control: TimeControl,
    ) -> Session {
        Session {
            game: GameState::new(Position::startpos(), rules),
            human,
            opponent,
            control,
            clocks: Clocks::new(control),
            turn_started: None,
            lost_on_time: None,
            verdict: None,
            engine_failure: None,
        }
    }

    /// Plays until the person quits or the input ends.
    pub fn run(&mut self, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
        let mut console = Console { input, output };
        let rules = *self.game.rules();
        console.say(&format!(
            "Switch-Side Chain-Chess against {}: SwitchRule {}, MinEnclosed {}, time control {}. \
             Type 'help' for the commands.",
            self.opponent.name(),
            rules.switch_rule,
            rules.min_enclosed,
            self.control
        ))?;
        self.start_game(&mut console)?;
        loop {
            self.engine_moves(&mut console)?;
            if self.ending().is_none() {
                self.turn_started.get_or_insert_with(Instant::now);
            }
            let Some(line) = console.ask(&self.prompt())? else {
                return Ok(());
            };
            let flow = match command::parse(&line) {
                Ok(command) => self.obey(command, &mut console)?,
                Err(problem) => {
                    console.say(&problem)?;
                    Flow::Continue
                }
            };
            if let Flow::Quit = flow {
                return Ok(());
            }
        }
    }

    fn obey(&mut self, command: Command, console: &mut Console) -> io::Result<Flow> {
        match command {
            Command::Nothing => {}
            Command::Help => console.say(HELP)?,
            Command::Quit => return Ok(Flow::Quit),
            Command::New => {
                self.game = GameState::new(Position::startpos(), *self.game.rules());
                self.start_game(console)?;
            }
            Command::Undo => self.undo(console)?,
            Command::Save(path) => {
                let saved = files::save(Path::new(path), &self.record());
                console.say(
                    &saved
                        .map_or_else(|problem| problem, |()| format!("Saved the game to {path}.")),
                )?;
            }
            Command::Load(path) => match files::load(Path::new(path), *self.game.rules()) {
                Ok(loaded) => {
                    self.game = loaded.game;
                    self.human = loaded.human.unwrap_or(self.human);
                    console.say(&format!(
                        "Loaded {path}: {} moves from {}.",
                        self.game.plies().len(),
                        self.game.start().to_fen()
                    ))?;
                    self.start_game(console)?;
                    self.verdict = loaded.verdict;
                    self.announce_end(console)?;
                }
                Err(problem) => console.say(&problem)?,
            },
            Command::Move { text, switch } => return self.play_move(text, switch, console),
        }
        Ok(Flow::Continue)
    }

    fn humans_turn(&self) -> bool {
        self.game.controller(self.game.position().side_to_move()) == self.human
    }

    /// The colour `player` controls now.
    fn color_of(&self, player: Player) -> Color {
        arena::color_of(&self.game, player)
    }

    /// Who plays which colour now: `you play White, Catena plays Black`.
    fn sides(&self) -> String {
        format!(
            "you play {}, {} plays {}",
            capitalized(self.color_of(self.human)),
            self.opponent.name(),
            capitalized(self.color_of(self.human.other()))
        )
    }

    fn prompt(&self) -> String {
        if self.ending().is_some() {
            return "game over".to_string();
        }
        let mover = self.game.position().side_to_move();
        let mut prompt = format!("{} to move", capitalized(mover));
        let run = self.game.run();
        if run.switches() > 0 {
            let limit = run
                .limit()
                .map_or_else(|| "no limit".to_string(), |limit| format!("limit {limit}"));
            let switches = match run.switches() {
                1 => "1 switch".to_string(),
                many => format!("{many} switches"),
            };
            prompt += &format!(" ({switches} in a row, {limit})");
        }
        prompt
    }

    /// How the game ended, if it has: its result, and why in Cute Chess's words.
    fn ending(&self) -> Option<(GameResult, String)> {
        ending(&self.game, self.verdict.as_ref(), self.lost_on_time)
    }

    /// Starts the game in `self.game` afresh: clocks reset, the engine
    /// forgets, the board is shown.
    fn start_game(&mut self, console: &mut Console) -> io::Result<()> {
        self.clocks = Clocks::new(self.control);
        self.turn_started = None;
        self.lost_on_time = None;
        self.verdict = None;
        self.engine_failure = self.opponent.new_game().err();
        console.say(&format!("{}.", sentence(&self.sides())))?;
        self.show_board(console)
    }

    /// Lets the engine move for as long as it controls the side to move.
    fn engine_moves(&mut self, console: &mut Console) -> io::Result<()> {
        while !self.humans_turn() && self.ending().is_none() && self.engine_failure.is_none() {
            let color = self.game.position().side_to_move();
            let started = Instant::now();
            let chosen = self.opponent.choose(&self.game, &self.clocks);
            // A move that comes after the flag fell is not played.
            if !self.charge(color, started.elapsed()) {
                self.announce_end(console)?;
                continue;
            }
            let before = self.game.position().clone();
            let played = chosen.and_then(|action| {
                self.game.apply(action).map_err(|error| {
                    format!("it chose {} and {error}", san::format(&before, action.mv))
                })?;
                Ok(action)
            });
            match played {
                Ok(action) => {
                    let mut line = format!(
                        "{} plays {}",
                        self.opponent.name(),
                        numbered(&before, action.mv)
                    );
                    if action.switch {
                        line += &format!(" and switches sides: {}", self.sides());
                    }
                    console.say(&line)?;
                    self.show_board(console)?;
                }
                Err(problem) => {
                    console.say(&format!(
                        "{} could not move: {problem}. Type undo, new, load FILE or quit.",
                        self.opponent.name()
                    ))?;
                    self.engine_failure = Some(problem);
                }
            }
        }
        Ok(())
    }

    /// Whether `color`'s flag falls if its move takes `used`.
    fn flag_falls(&self, color: Color, used: Duration) -> bool {
        // A time per move binds the engine only: a person may take their time.
        let binds = matches!(self.control, TimeControl::Clock { .. })
            || self.game.controller(color) != self.human;
        let mut clocks = self.clocks;
        binds && !clocks.of(color).punch(used, FLAG_MARGIN)
    }

    /// Charges `color`'s clock for a move; false, and the game lost on time, if its flag fell.
    fn charge(&mut self, color: Color, used: Duration) -> bool {
        if self.flag_falls(color, used) {
            self.lost_on_time = Some(color);
            return false;
        }
        self.clocks.of(color).punch(used, FLAG_MARGIN);
        true
    }

    /// How long the person's turn has lasted.
    fn thinking_time(&self) -> Duration {
        self.turn_started
            .map_or(Duration::ZERO, |started| started.elapsed())
    }

    /// The person's move, checked and explained when it cannot be played.
    fn play_move(
        &mut self,
        text: &str,
        wants_switch: bool,
        console: &mut Console,
    ) -> io::Result<Flow> {
        if let Some((result, why)) = self.ending() {
            console.say(&format!(
                "the game is over ({result}, {why}): type new, undo, save FILE, load FILE or quit"
            ))?;
            return Ok(Flow::Continue);
        }
        // An engine that failed blocks only its own turn: on the person's
        // turn the move is played, and the engine is tried again after it.
        if let Some(problem) = &self.engine_failure
            && !self.humans_turn()
        {
            console.say(&format!(
                "it is {}'s turn, but it could not move ({problem}): type undo, new, load FILE or quit",
                self.opponent.name()
            ))?;
            return Ok(Flow::Continue);
        }
        let position = self.game.position().clone();
        let mv = match command::parse_move(&position, text) {
            Ok(mv) => mv,
            Err(problem) => {
                console.say(&problem)?;
                return Ok(Flow::Continue);
            }
        };
        let color = position.side_to_move();
        if self.flag_falls(color, self.thinking_time()) {
            // The move comes too late to be played.
            self.lost_on_time = Some(color);
            self.announce_end(console)?;
            return Ok(Flow::Continue);
        }
        let switchable = self.game.can_switch_after(mv);
        if wants_switch && let Err(error) = &switchable {
            console.say(&explain_switch(&position, error))?;
            return Ok(Flow::Continue);
        }
        let after = position.after(mv);
        let found = self.chain_of(&position, mv);
        console.say(&format!("You play {}", numbered(&position, mv)))?;
        console.say(&self.board_text(&after, Some((&position, mv)), found.as_ref()))?;
        let mut switch = wants_switch;
        // A switch after a move that ends the game only hands over the finished side.
        if !wants_switch && found.is_some() && after.has_legal_move() {
            match &switchable {
                Ok(()) => {
                    let question = format!(
                        "Switch sides and move again with {}? [y/n]",
                        capitalized(after.side_to_move())
                    );
                    match ask_yes_no(&question, console)? {
                        Some(answer) => switch = answer,
                        None => return Ok(Flow::Quit),
                    }
                }
                Err(error) => {
                    console.say(&format!("{}: no switch", explain_switch(&position, error)))?
                }
            }
        }
        // Charged before the move, while `color` is still the person's, with the
        // time spent on the switch question: should the flag fall during it,
        // the move stands and the game is lost on time.
        self.charge(color, self.thinking_time());
        self.turn_started = None;
        if let Err(error) = self.game.apply(Action { mv, switch }) {
            // Checked above: only a fault of this program gets here.
            log::error!("the game refused {mv} (switch {switch}): {error}");
            console.say(&format!("cannot play that: {error}"))?;
            return Ok(Flow::Continue);
        }
        if switch {
            console.say(&format!("You switch sides: {}.", self.sides()))?;
        }
        self.engine_failure = None;
        self.announce_end(console)?;
        Ok(Flow::Continue)
    }

    /// Takes back the person's last move and the engine's moves after it.
    fn undo(&mut self, console: &mut Console) -> io::Result<()> {
        if self.lost_on_time.is_some() {
            return console.say("the game was lost on time: type new, load FILE or quit");
        }
        if let Some((result, why)) = &self.verdict {
            return console.say(&format!(
                "the game was decided off the board ({result}, {why}): type new, load FILE or quit"
            ));
        }
        let mut game = self.game.clone();
        let mut taken = Vec::new();
        loop {
            let Some(ply) = game.plies().last() else {
                return console.say("there is no move of yours to take back");
            };
            taken.push(numbered(ply.before(), ply.mv));
            game.undo();
            if game.controller(game.position().side_to_move()) == self.human {
                break;
            }
        }
        self.game = game;
        self.engine_failure = None;
        self.turn_started = None;
        taken.reverse();
        console.say(&format!("Taken back: {}", taken.join(", ")))?;
        self.show_board(console)
    }

    /// The chain `mv` closes from `position`, if any.
    fn chain_of(&self, position: &Position, mv: Move) -> Option<Chain> {
        closed_chain(position, mv, self.game.rules())
    }

    /// The board as the game stands, with its last move.
    fn show_board(&self, console: &mut Console) -> io::Result<()> {
        let last = self.game.plies().last().map(|ply| (ply.before(), ply.mv));
        let found = last.and_then(|(before, mv)| self.chain_of(before, mv));
        console.say(&self.board_text(self.game.position(), last, found.as_ref()))?;
        self.announce_end(console)
    }

    /// The board, the last move with the chain it closed, the FEN, and the clocks.
    fn board_text(
        &self,
        position: &Position,
        last: Option<(&Position, Move)>,
        found: Option<&Chain>,
    ) -> String {
        let mut text = diagram(&Placement::of(position), found);
        if let Some((before, mv)) = last {
            text += &format!("Last move: {}", numbered(before, mv));
            if let Some(found) = found {
                let names = |cells: &[chain::Cell]| {
                    cells
                        .iter()
                        .map(|&cell| chain::square_of(cell).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                text += &format!(
                    ", closing the chain {} around {} (chain size {})",
                    names(&found.smallest),
                    names(&found.enclosed),
                    found.size
                );
            }
            text.push('\n');
        }
        text += &format!("FEN: {}", position.to_fen());
        if let TimeControl::Clock { .. } = self.control {
            let mut clocks = self.clocks;
            text += &format!(
                "\nClocks: White {}, Black {}",
                clock_face(clocks.of(Color::White).budget()),
                clock_face(clocks.of(Color::Black).budget())
            );
        }
        text
    }

    fn announce_end(&self, console: &mut Console) -> io::Result<()> {
        let Some((result, why)) = self.ending() else {
            return Ok(());
        };
        let verdict = match result.score_of(self.color_of(self.human)) {
            Some(1.0) => "You win.".to_string(),
            Some(0.0) => format!("{} wins.", self.opponent.name()),
            _ => "Draw.".to_string(),
        };
        console.say(&format!(
            "Game over: {result} ({why}). {verdict} Type new, undo, save FILE, load FILE or quit."
        ))
    }

    /// The game as a PGN record, the person named `Human`.
    fn record(&self) -> GameRecord {
        let mut record = GameRecord::new(self.game.clone());
        let name = |player| {
            if player == self.human {
                files::HUMAN
            } else {
                self.opponent.name()
            }
        };
        record.set_tag("Event", "Catena play");
        record.set_tag("White", name(Player::StartedWhite));
        record.set_tag("Black", name(Player::StartedBlack));
        record.set_tag("TimeControl", self.control.to_string());
        if let Some((result, why)) = self.ending() {
            record.result = result;
            record.comment = Some(why);
        }
        record
    }
}

/// How far past zero a clock may run before the flag falls, for the time it
/// takes to print a move.
const FLAG_MARGIN: Duration = Duration::from_millis(100);

/// Asks until the answer is yes or no; `None` when the person quits or the input ends.
fn ask_yes_no(question: &str, console: &mut Console) -> io::Result<Option<bool>> {
    console.say(question)?;
    loop {
        let Some(answer) = console.ask("switch?")? else {
            return Ok(None);
        };
        match answer.to_ascii_lowercase().as_str() {
            "y" | "yes" | "switch" => return Ok(Some(true)),
            "n" | "no" | "stay" => return Ok(Some(false)),
            "quit" | "exit" => return Ok(None),
            _ => console.say("answer y to switch sides and move again, or n to stay")?,
        }
    }
}

fn explain_switch(position: &Position, error: &GameError) -> String {
    match error {
        GameError::SwitchWithoutChain(mv) => format!(
            "{} closes no chain, so you cannot switch after it",
            san::format(position, *mv)
        ),
        GameError::SwitchOverLimit { switches, limit } => format!(
            "switch limit reached: this run of switches allows {limit} and you have made {switches}"
        ),
        other => other.to_string(),
    }
}

/// `White` or `Black`.
fn capitalized(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `text` with its first letter in upper case.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// `4:05.3`
fn clock_face(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

/// The move in SAN with its number: `12. Nf3` or `12... e5`.
pub(crate) fn numbered(before: &Position, mv: Move) -> String {
    let dots = match before.side_to_move() {
        Color::White => ".",
        Color::Black => "...",
    };
    format!(
        "{}{dots} {}",
        before.fullmove_number(),
        san::format(before, mv)
    )
}

/// How a game ended, if it has: a `verdict` already given (a loaded PGN's,
/// a resignation), else a fallen flag (`lost_on_time`), else the board; the
/// result and why, in Cute Chess's words. Shared by `catena play` and the GUI.
pub(crate) fn ending(
    game: &GameState,
    verdict: Option<&(GameResult, String)>,
    lost_on_time: Option<Color>,
) -> Option<(GameResult, String)> {
    if let Some(verdict) = verdict {
        return Some(verdict.clone());
    }
    if let Some(color) = lost_on_time {
        let result = GameResult::win_for(!color);
        let ending = Ending::Forfeit {
            player: game.controller(color),
            color,
            offence: Offence::Time,
        };
        return Some((result, ending.comment(result)));
    }
    let outcome = game.outcome()?;
    let result = GameResult::from(outcome);
    Some((result, Ending::Board(outcome.termination).comment(result)))
}
