//! `catena play`: a person against an engine in the terminal.
//!
//! The conversation goes through any `BufRead` and `Write`, so that tests drive
//! it exactly as a person does. The game itself is a [`GameState`], which owns
//! the rules; this module reads what the person types, explains whatever
//! cannot be played, draws the board with the last move and its chain, and asks
//! whether to switch after a move that closes a chain.

mod opponent;
mod refusal;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::board::{Color, Move, MoveParseError, Piece, Position};
use crate::chain;
use crate::game::{GameError, GameState, Player, Rules, SwitchRule, forms_chain};
use crate::movepick::describe_action;
use crate::tools::chain::diagram;

pub use opponent::{InProcess, Opponent, Think};

/// Play against an engine in the terminal.
#[derive(clap::Args, Debug)]
#[command(about = "Play Switch-Side Chain-Chess against an engine in the terminal")]
pub struct PlayArgs {
    /// The colour you start with.
    #[arg(long, default_value = "white", value_parser = parse_color)]
    color: Color,
    /// The engine's search depth per move, instead of a fixed think time.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=100))]
    depth: Option<i32>,
    /// What limits a run of switches.
    #[arg(long, default_value = "chain")]
    rule: SwitchRule,
    /// Smallest group of adjacent empty squares a chain must surround.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    min_enclosed: u32,
}

/// The engine's think time when nothing else is asked for.
const DEFAULT_THINK: Think = Think::MoveTime(Duration::from_secs(1));

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("'{text}' is not a colour (white or black)")),
    }
}

/// Runs the command on stdin and stdout.
pub fn run(args: &PlayArgs) -> Result<bool, String> {
    let rules = Rules::new(args.rule, args.min_enclosed)?;
    let think = args.depth.map_or(DEFAULT_THINK, Think::Depth);
    let human = match args.color {
        Color::White => Player::StartedWhite,
        Color::Black => Player::StartedBlack,
    };
    let mut session = Session::new(rules, human, Box::new(InProcess::new()), think);
    session
        .run(&mut io::stdin().lock(), &mut io::stdout().lock())
        .map_err(|error| format!("cannot talk to the terminal: {error}"))?;
    Ok(true)
}

const HELP: &str = "\
Moves: SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e7e8q).
  After a move that closes a chain you are asked whether to switch sides;
  'MOVE switch' (e.g. 'd2d3 switch') switches without asking.
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
    think: Think,
    /// Why the engine could not move, until the game changes.
    engine_failure: Option<String>,
}

/// What the person typed at the move prompt.
#[derive(Debug, PartialEq, Eq)]
enum Command<'a> {
    Move { text: &'a str, switch: bool },
    Undo,
    New,
    Save(&'a str),
    Load(&'a str),
    Help,
    Quit,
    Nothing,
}

fn parse_command(line: &str) -> Result<Command<'_>, String> {
    let line = line.trim();
    let tokens: Vec<&str> = line.split_whitespace().collect();
    Ok(match tokens.as_slice() {
        [] => Command::Nothing,
        ["undo"] => Command::Undo,
        ["new"] => Command::New,
        ["help" | "?"] => Command::Help,
        ["quit" | "exit"] => Command::Quit,
        [name @ ("save" | "load")] => {
            return Err(format!("{name} needs a file name: {name} FILE"));
        }
        ["save", ..] => Command::Save(line["save".len()..].trim()),
        ["load", ..] => Command::Load(line["load".len()..].trim()),
        [text] => Command::Move {
            text,
            switch: false,
        },
        [text, "switch"] => Command::Move { text, switch: true },
        _ => {
            return Err(format!(
                "'{line}' is not a move or a command: type one move (e4, Nf3 or e2e4), \
                 a move and 'switch', or 'help'"
            ));
        }
    })
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
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            writeln!(self.output)?;
            return Ok(None);
        }
        Ok(Some(line.trim().to_string()))
    }
}

/// Whether the session goes on after a command.
enum Flow {
    Continue,
    Quit,
}

impl Session {
    pub fn new(rules: Rules, human: Player, opponent: Box<dyn Opponent>, think: Think) -> Session {
        Session {
            game: GameState::new(Position::startpos(), rules),
            human,
            opponent,
            think,
            engine_failure: None,
        }
    }

    /// Plays until the person quits or the input ends.
    pub fn run(&mut self, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
        let mut console = Console { input, output };
        let rules = *self.game.rules();
        console.say(&format!(
            "Switch-Side Chain-Chess against {}: SwitchRule {}, MinEnclosed {}. Type 'help' for the commands.",
            self.opponent.name(),
            rules.switch_rule,
            rules.min_enclosed
        ))?;
        self.start_game(&mut console)?;
        loop {
            self.engine_moves(&mut console)?;
            let Some(line) = console.ask(&self.prompt())? else {
                return Ok(());
            };
            let command = match parse_command(&line) {
                Ok(command) => command,
                Err(problem) => {
                    console.say(&problem)?;
                    continue;
                }
            };
            if let Flow::Quit = self.obey(command, &mut console)? {
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
            Command::Save(_) | Command::Load(_) => {
                console.say("save and load are not available yet")?;
            }
            Command::Move { text, switch } => return self.play_move(text, switch, console),
        }
        Ok(Flow::Continue)
    }

    fn humans_turn(&self) -> bool {
        self.game.controller(self.game.position().side_to_move()) == self.human
    }

    fn color_of(&self, player: Player) -> Color {
        if self.game.controller(Color::White) == player {
            Color::White
        } else {
            Color::Black
        }
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
        if self.game.outcome().is_some() {
            return "game over".to_string();
        }
        let mover = self.game.position().side_to_move();
        let mut prompt = format!("{} to move", capitalized(mover));
        let mut run = self.game.run();
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

    /// Starts the game in `self.game` afresh: the engine forgets, the board is shown.
    fn start_game(&mut self, console: &mut Console) -> io::Result<()> {
        self.engine_failure = self.opponent.new_game().err();
        console.say(&format!("{}.", capitalized_first(&self.sides())))?;
        self.show_board(console)
    }

    /// Lets the engine move for as long as it controls the side to move.
    fn engine_moves(&mut self, console: &mut Console) -> io::Result<()> {
        while !self.humans_turn() && self.game.outcome().is_none() && self.engine_failure.is_none()
        {
            let chosen = self.opponent.choose(&self.game, self.think);
            let played = chosen.and_then(|action| {
                let before = self.game.position().clone();
                self.game
                    .apply(action.mv, action.switch)
                    .map(|()| (before, action))
                    .map_err(|error| format!("it chose {} and {error}", describe_action(action)))
            });
            match played {
                Ok((before, action)) => {
                    let name = self.opponent.name().to_string();
                    let mut line = format!("{name} plays {}", numbered(&before, action.mv));
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

    /// The person's move, checked and explained when it cannot be played.
    fn play_move(
        &mut self,
        text: &str,
        wants_switch: bool,
        console: &mut Console,
    ) -> io::Result<Flow> {
        if let Some(outcome) = self.game.outcome() {
            console.say(&format!(
                "the game is over ({}, {}): type new, undo, save FILE, load FILE or quit",
                outcome.result(),
                outcome.termination
            ))?;
            return Ok(Flow::Continue);
        }
        if let Some(problem) = &self.engine_failure {
            console.say(&format!(
                "it is {}'s turn, but it could not move ({problem}): type undo, new, load FILE or quit",
                self.opponent.name()
            ))?;
            return Ok(Flow::Continue);
        }
        let position = self.game.position().clone();
        let mv = match parse_move(&position, text) {
            Ok(mv) => mv,
            Err(problem) => {
                console.say(&problem)?;
                return Ok(Flow::Continue);
            }
        };
        let switchable = self.game.can_switch_after(mv);
        if wants_switch && let Err(error) = &switchable {
            console.say(&explain_switch(error))?;
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
                    match self.ask_yes_no(&question, console)? {
                        Some(answer) => switch = answer,
                        None => return Ok(Flow::Quit),
                    }
                }
                Err(error) => console.say(&format!("{}: no switch", explain_switch(error)))?,
            }
        }
        self.apply_human(mv, switch, console)?;
        self.announce_end(console)?;
        Ok(Flow::Continue)
    }

    fn apply_human(&mut self, mv: Move, switch: bool, console: &mut Console) -> io::Result<()> {
        if let Err(error) = self.game.apply(mv, switch) {
            // Checked above: only a fault of this program gets here.
            log::error!("the game refused {mv} (switch {switch}): {error}");
            return console.say(&format!("cannot play that: {error}"));
        }
        if switch {
            console.say(&format!("You switch sides: {}.", self.sides()))?;
        }
        Ok(())
    }

    /// Asks until the answer is yes or no; `None` when the person quits or the input ends.
    fn ask_yes_no(&self, question: &str, console: &mut Console) -> io::Result<Option<bool>> {
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

    /// Takes back the person's last move and the engine's moves after it.
    fn undo(&mut self, console: &mut Console) -> io::Result<()> {
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
        taken.reverse();
        console.say(&format!("Taken back: {}", taken.join(", ")))?;
        self.show_board(console)
    }

    /// The chain `mv` closes from `position`, if any.
    fn chain_of(&self, position: &Position, mv: Move) -> Option<chain::Chain> {
        let rules = self.game.rules();
        if !forms_chain(position, mv, rules) {
            return None;
        }
        chain::analyse_board(
            position.occupied_after(mv),
            position.landing_squares(mv),
            rules.min_enclosed,
        )
    }

    /// The board as the game stands, with its last move.
    fn show_board(&self, console: &mut Console) -> io::Result<()> {
        let last = self.game.plies().last().map(|ply| (ply.before(), ply.mv));
        let found = last.and_then(|(before, mv)| self.chain_of(before, mv));
        console.say(&self.board_text(self.game.position(), last, found.as_ref()))?;
        self.announce_end(console)
    }

    fn board_text(
        &self,
        position: &Position,
        last: Option<(&Position, Move)>,
        found: Option<&chain::Chain>,
    ) -> String {
        let mut text = diagram(position, found);
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
        text
    }

    fn announce_end(&self, console: &mut Console) -> io::Result<()> {
        let Some(outcome) = self.game.outcome() else {
            return Ok(());
        };
        let verdict = match self.game.score_of(self.human) {
            Some(1.0) => "You win.".to_string(),
            Some(0.0) => format!("{} wins.", self.opponent.name()),
            _ => "Draw.".to_string(),
        };
        console.say(&format!(
            "Game over: {} ({}). {verdict} Type new, undo, save FILE, load FILE or quit.",
            outcome.result(),
            outcome.termination
        ))
    }
}

/// The legal move written `text`, or what is wrong with it.
fn parse_move(position: &Position, text: &str) -> Result<Move, String> {
    match position.parse_move(text) {
        Ok(mv) => Ok(mv),
        Err(MoveParseError::Notation(_)) => Err(format!(
            "'{text}' is not a move or a command: type a move in SAN (e4, Nf3, O-O, e8=Q) \
             or UCI (e2e4, g1f3, e7e8q), or 'help'"
        )),
        Err(error) => {
            // The notation was good: two squares and perhaps a promotion letter.
            let square = |range| text.get(range).and_then(|name: &str| name.parse().ok());
            let promotion = text.get(4..).and_then(|rest| rest.chars().next());
            match (square(0..2), square(2..4)) {
                (Some(from), Some(to)) => Err(refusal::explain(
                    position,
                    from,
                    to,
                    promotion.and_then(Piece::from_letter),
                )),
                _ => Err(error.to_string()),
            }
        }
    }
}

fn explain_switch(error: &GameError) -> String {
    match error {
        GameError::SwitchWithoutChain(mv) => {
            format!("{mv} closes no chain, so you cannot switch after it")
        }
        GameError::SwitchOverLimit { switches, limit } => format!(
            "switch limit reached: you have switched {switches} times in a row and this run allows {limit}"
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

fn capitalized_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The move with its number: `12. e2e4` or `12... e7e5`.
fn numbered(before: &Position, mv: Move) -> String {
    let dots = match before.side_to_move() {
        Color::White => ".",
        Color::Black => "...",
    };
    format!("{}{dots} {mv}", before.fullmove_number())
}
