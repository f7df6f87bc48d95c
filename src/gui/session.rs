//! The game on the page: a [`GameState`] (which owns the rules), the moves
//! taken back that can be replayed, who plays which side, and the clocks.
//! Every change either succeeds or leaves everything as it was, with a
//! message for the page.

use catena_core::game::Action;
use catena_core::game::Variant;
use std::time::{Duration, Instant};

use crate::arena::{Clocks, TimeControl, color_of};
use crate::play;
use catena_core::board::{Color, Move, Position};
use catena_core::chain::{self, Chain};
use catena_core::game::pgn::{self, GameRecord, GameResult};
use catena_core::game::{ChainTest, GameState, Player, Rules, closed_chain};

/// Who faces whom: the person, and the engine (if any) that plays the other player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The engine's name (`Catena` or an entry of the engine list); `None`:
    /// the person moves for both players.
    pub engine: Option<String>,
    /// The person, named by the colour they start with.
    pub human: Player,
    pub control: TimeControl,
}

impl Default for Opponent {
    fn default() -> Opponent {
        Opponent {
            engine: None,
            human: Player::StartedWhite,
            control: DEFAULT_CONTROL,
        }
    }
}

/// The engine's think time without another time control, as in `catena play`.
pub const DEFAULT_CONTROL: TimeControl = TimeControl::PerMove(Duration::from_secs(1));
/// How far past zero a clock may run before its flag falls.
const FLAG_MARGIN: Duration = Duration::from_millis(100);

/// What the engine thinking for the engine's player needs to know.
#[derive(Clone, Debug)]
pub struct EngineTurn {
    pub generation: u64,
    pub engine: String,
    pub game: GameState,
    pub clocks: Clocks,
    pub variant: Variant,
}

/// The chain a move closes, as the page draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawnChain {
    /// The smallest loop, square by square around it.
    pub loop_squares: Vec<String>,
    /// The empty squares inside that loop.
    pub enclosed: Vec<String>,
    /// The move's chain size (the largest of its chains).
    pub size: u32,
}

impl From<&Chain> for DrawnChain {
    fn from(found: &Chain) -> DrawnChain {
        let names = |cells: &[chain::Cell]| {
            cells
                .iter()
                .map(|&cell| chain::square_of(cell).to_string())
                .collect()
        };
        DrawnChain {
            loop_squares: names(&found.smallest),
            enclosed: names(&found.enclosed),
            size: found.size,
        }
    }
}

/// The game, its replayable future, the players and the clocks.
pub struct Session {
    game: GameState,
    /// An SSCC game, played under the game's rules; false: chess, in which
    /// nobody switches. Seen from outside as [`Session::variant`].
    sscc: bool,
    /// Moves taken back, the next one last.
    redo: Vec<Action>,
    opponent: Opponent,
    clocks: Clocks,
    /// The clocks run once the game has this many plies: each side's first
    /// move after they were set is free, as on lichess, so that no clock
    /// runs before anyone has moved.
    clocks_from: usize,
    turn_started: Instant,
    lost_on_time: Option<Color>,
    /// A loaded game's result decided off the board, with the reason.
    verdict: Option<(GameResult, String)>,
    /// Why the engine could not move, until the game changes.
    engine_failure: Option<String>,
    /// Tags of a loaded game, kept when it is saved again.
    tags: Vec<(String, String)>,
    /// The day the game began, as PGN writes it (`2026.11.29`, UTC).
    date: String,
    /// Grows with every change, so that an engine's late answer to an older
    /// position is recognized and dropped.
    generation: u64,
    /// Grows with every new or loaded game.
    game_number: u64,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        let opponent = Opponent::default();
        Session {
            game: GameState::new(Position::startpos(), Rules::default()),
            sscc: true,
            redo: Vec::new(),
            clocks: Clocks::new(opponent.control),
            clocks_from: 2,
            opponent,
            turn_started: Instant::now(),
            lost_on_time: None,
            verdict: None,
            engine_failure: None,
            tags: Vec::new(),
            date: crate::arena::today(),
            generation: 0,
            game_number: 0,
        }
    }

    pub fn game(&self) -> &GameState {
        &self.game
    }

    pub fn opponent(&self) -> &Opponent {
        &self.opponent
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Which game this is: a new or loaded game counts up.
    pub fn game_number(&self) -> u64 {
        self.game_number
    }

    pub fn redo_moves(&self) -> &[Action] {
        &self.redo
    }

    pub fn engine_failure(&self) -> Option<&str> {
        self.engine_failure.as_deref()
    }

    /// The game played: chess, or SSCC under the game's rules.
    pub fn variant(&self) -> Variant {
        if self.sscc {
            Variant::Sscc(*self.game.rules())
        } else {
            Variant::Chess
        }
    }

    /// Something changed: clocks of the side to move restart, old engine answers are void.
    fn changed(&mut self) {
        self.generation += 1;
        self.turn_started = Instant::now();
    }

    /// A new game of `variant` from `fen` (the start position if `None`);
    /// on a bad FEN the game in progress stays.
    pub fn new_game(&mut self, variant: Variant, fen: Option<&str>) -> Result<(), String> {
        let start = match fen.map(str::trim).filter(|fen| !fen.is_empty()) {
            Some(fen) => {
                Position::from_fen(fen).map_err(|error| format!("bad FEN '{fen}': {error}"))?
            }
            None => Position::startpos(),
        };
        self.game = GameState::new(start, variant.rules().unwrap_or_default());
        self.sscc = variant.is_sscc();
        self.reset_game();
        Ok(())
    }

    fn reset_game(&mut self) {
        self.redo.clear();
        self.set_clocks();
        self.lost_on_time = None;
        self.verdict = None;
        self.engine_failure = None;
        self.tags.clear();
        self.date = crate::arena::today();
        self.game_number += 1;
        self.changed();
    }

    /// Sets who plays: the game goes on, the clocks start afresh.
    pub fn set_opponent(&mut self, opponent: Opponent) {
        self.opponent = opponent;
        self.set_clocks();
        self.lost_on_time = None;
        self.engine_failure = None;
        self.changed();
    }

    /// Sets the clocks afresh, to run once both sides have moved.
    fn set_clocks(&mut self) {
        self.clocks = Clocks::new(self.opponent.control);
        self.clocks_from = self.game.plies().len() + 2;
    }

    /// Whether the clocks run: under a time per move always (it binds the
    /// engine only), on a clock once both sides have moved since it was set.
    pub fn clocks_run(&self) -> bool {
        matches!(self.opponent.control, TimeControl::PerMove(_))
            || self.game.plies().len() >= self.clocks_from
    }

    /// The move `text` (SAN, or UCI) in the current position, or what is
    /// wrong with it, said in the notation it is written in (the same
    /// reader as `catena play`'s).
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        let text = text.trim();
        play::read_move(self.game.position(), text).map_err(|why| {
            why.unwrap_or_else(|| {
                format!("'{text}' is not a move: type one in SAN (e4, Nf3, O-O, e8=Q) or UCI (e2e4, e7e8q)")
            })
        })
    }

    /// Whether the player to move may switch after `mv`, and why not.
    pub fn switch_refusal(&self, mv: Move) -> Option<String> {
        if !self.sscc {
            return Some("this is a game of chess: nobody switches sides".to_string());
        }
        self.game
            .can_switch_after(mv)
            .err()
            .map(|error| error.to_string())
    }

    /// The chain `mv` would close here, if any.
    pub fn chain_of(&self, mv: Move) -> Option<DrawnChain> {
        chain_closed(self.game.position(), mv, self.game.rules())
    }

    /// The chain the last move closed, if it closed one.
    pub fn last_chain(&self) -> Option<DrawnChain> {
        let ply = self.game.plies().last()?;
        ply.formed_chain
            .then(|| chain_closed(ply.before(), ply.mv, self.game.rules()))
            .flatten()
    }

    /// How the game ended, if it has: its result and why, in Cute Chess's words.
    pub fn ending(&self) -> Option<(GameResult, String)> {
        crate::play::ending(&self.game, self.verdict.as_ref(), self.lost_on_time)
    }

    /// How the game ended, in words that follow "won" or "drawn": `by
    /// checkmate`, `on time`, `by stalemate`, …
    pub fn ended_how(&self) -> Option<String> {
        if self.verdict.is_some() {
            return Some("as the game loaded records".to_string());
        }
        if self.lost_on_time.is_some() {
            return Some("on time".to_string());
        }
        self.game
            .outcome()
            .map(|outcome| format!("by {}", outcome.termination))
    }

    /// Whether the engine is the player to move (and may move now).
    pub fn engine_to_move(&self) -> bool {
        self.opponent.engine.is_some()
            && self.redo.is_empty()
            && self.ending().is_none()
            && self.engine_failure.is_none()
            && self.game.controller(self.game.position().side_to_move()) != self.opponent.human
    }

    /// What the engine needs to think, if it is its turn.
    pub fn engine_turn(&self) -> Option<EngineTurn> {
        if !self.engine_to_move() {
            return None;
        }
        Some(EngineTurn {
            generation: self.generation,
            engine: self.opponent.engine.clone()?,
            game: self.game.clone(),
            clocks: self.clocks,
            variant: self.variant(),
        })
    }

    /// The person's move, with a switch after it if `switch`.
    pub fn play(&mut self, text: &str, switch: bool) -> Result<(), String> {
        if let Some((result, why)) = self.ending() {
            return Err(format!("the game is over ({result}, {why})"));
        }
        if let Some(engine) = &self.opponent.engine
            && self.game.controller(self.game.position().side_to_move()) != self.opponent.human
        {
            return Err(match &self.engine_failure {
                Some(why) => format!("it is {engine}'s turn, but it could not move: {why}"),
                None => format!("it is {engine}'s turn"),
            });
        }
        let mv = self.parse_move(text)?;
        if switch && let Some(why) = self.switch_refusal(mv) {
            return Err(why);
        }
        self.apply(Action { mv, switch })
    }

    /// The engine's move, if it still answers the game as it is; `used` is
    /// its time from `go` to `bestmove` (starting the engine is not charged).
    pub fn play_engine(
        &mut self,
        generation: u64,
        action: Action,
        used: Duration,
    ) -> Result<(), String> {
        if generation != self.generation || !self.engine_to_move() {
            return Err("the game changed while the engine thought".to_string());
        }
        let switch = action.switch && self.switch_refusal(action.mv).is_none();
        self.apply_timed(Action { switch, ..action }, used)
    }

    /// The engine failed to move: its turn waits until the game changes.
    pub fn engine_failed(&mut self, generation: u64, why: String) {
        if generation == self.generation {
            self.engine_failure = Some(why);
            self.generation += 1;
        }
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        self.apply_timed(action, self.turn_started.elapsed())
    }

    fn apply_timed(&mut self, action: Action, used: Duration) -> Result<(), String> {
        let color = self.game.position().side_to_move();
        // A free move still counts towards the clock's period and increment.
        let used = if self.clocks_run() {
            used
        } else {
            Duration::ZERO
        };
        if self.flag_falls(color, used) {
            self.lost_on_time = Some(color);
            self.changed();
            return Err(format!("{color}'s time ran out"));
        }
        self.game.apply(action).map_err(|error| error.to_string())?;
        if self.opponent.engine.is_some() {
            self.clocks.of(color).punch(used, FLAG_MARGIN);
        }
        if self.redo.last() == Some(&action) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.engine_failure = None;
        self.changed();
        Ok(())
    }

    /// Whether `color`'s flag falls if its move takes `used`.
    fn flag_falls(&self, color: Color, used: Duration) -> bool {
        if self.opponent.engine.is_none() {
            return false;
        }
        // A time per move binds the engine only: a person may take their time.
        let binds = matches!(self.opponent.control, TimeControl::Clock { .. })
            || self.game.controller(color) != self.opponent.human;
        let mut clocks = self.clocks;
        binds && !clocks.of(color).punch(used, FLAG_MARGIN)
    }

    /// Ends the game on time if the person, to move, has run out of time
    /// (the engine's clock is charged when it answers); true if it did now.
    pub fn check_flag(&mut self) -> bool {
        let color = self.game.position().side_to_move();
        let persons_turn = self.game.controller(color) == self.opponent.human;
        if !persons_turn
            || !self.clocks_run()
            || !self.redo.is_empty()
            || self.ending().is_some()
            || !self.flag_falls(color, self.turn_started.elapsed())
        {
            return false;
        }
        self.lost_on_time = Some(color);
        self.changed();
        true
    }

    /// Takes back one ply, or with an engine playing, back to the person's
    /// last turn; the moves can be replayed with [`redo`](Self::redo).
    pub fn undo(&mut self) -> Result<(), String> {
        if self.verdict.is_some() || self.lost_on_time.is_some() {
            // Stepping back through a finished game is fine; the verdict stays with its end.
            self.verdict = None;
            self.lost_on_time = None;
        }
        if self.game.plies().is_empty() {
            return Err("there is no move to take back".to_string());
        }
        while let Some(ply) = self.game.plies().last() {
            self.redo.push(ply.action());
            self.game.undo();
            let person = self.opponent.engine.is_none()
                || self.game.controller(self.game.position().side_to_move()) == self.opponent.human;
            if person {
                break;
            }
        }
        self.engine_failure = None;
        self.changed();
        Ok(())
    }

    /// Replays the next move taken back.
    pub fn redo(&mut self) -> Result<(), String> {
        let Some(&action) = self.redo.last() else {
            return Err("there is no move to replay".to_string());
        };
        self.game.apply(action).map_err(|error| error.to_string())?;
        self.redo.pop();
        self.changed();
        Ok(())
    }

    /// Goes to the position after `ply` plies of the game and its replayable future.
    pub fn go_to(&mut self, ply: usize) -> Result<(), String> {
        let total = self.game.plies().len() + self.redo.len();
        if ply > total {
            return Err(format!("the game has only {total} plies"));
        }
        self.verdict = None;
        self.lost_on_time = None;
        while self.game.plies().len() > ply {
            let last = self.game.plies().last().expect("more plies than asked");
            self.redo.push(last.action());
            self.game.undo();
        }
        while self.game.plies().len() < ply {
            let action = *self.redo.last().expect("enough plies to replay");
            self.game.apply(action).map_err(|error| error.to_string())?;
            self.redo.pop();
        }
        self.engine_failure = None;
        self.changed();
        Ok(())
    }

    /// The game up to the position on the board, as PGN.
    pub fn pgn(&self) -> String {
        let mut record = GameRecord::new(self.game.clone());
        record.set_variant(self.variant());
        record.tags = self.tags.clone();
        for (tag, value) in [("Event", "Catena gui"), ("Date", &self.date)] {
            if !self.tags.iter().any(|(name, _)| name == tag) {
                record.set_tag(tag, value);
            }
        }
        if self.opponent.engine.is_some() || self.tags.is_empty() {
            record.set_tag("White", self.player_name(Player::StartedWhite));
            record.set_tag("Black", self.player_name(Player::StartedBlack));
            if self.opponent.engine.is_some() {
                record.set_tag("TimeControl", self.opponent.control.to_string());
            }
        }
        if self.redo.is_empty()
            && let Some((result, why)) = self.ending()
        {
            record.result = result;
            record.comment = Some(why);
        }
        pgn::write(&record)
    }

    /// Loads a PGN game or a FEN position, read by the same code as `catena
    /// play`; on error the game in progress stays.
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_LOAD {
            return Err(format!(
                "the text is {} bytes, more than the {MAX_LOAD} a game may take",
                text.len()
            ));
        }
        let loaded = play::load_text(text, "the text", *self.game.rules())?;
        let record_tags = pgn::read(text.trim()).map(|record| record.tags).ok();
        let switched = loaded.game.plies().iter().any(|ply| ply.switched);
        let sscc_tag = record_tags
            .as_ref()
            .is_some_and(|tags| tags.iter().any(|(name, _)| name == "SSCC"));
        self.game = loaded.game;
        if switched || sscc_tag {
            self.sscc = true;
        }
        self.reset_game();
        self.verdict = loaded.verdict;
        if let Some(human) = loaded.human {
            self.opponent.human = human;
        }
        self.tags = record_tags.unwrap_or_default();
        Ok(())
    }

    /// The name of `player` as the page and the PGN show it.
    pub fn player_name(&self, player: Player) -> String {
        match &self.opponent.engine {
            Some(engine) if player != self.opponent.human => engine.clone(),
            Some(_) => play::HUMAN.to_string(),
            None => match player {
                Player::StartedWhite => "Player 1".to_string(),
                Player::StartedBlack => "Player 2".to_string(),
            },
        }
    }

    /// Who controls `color` now, by name.
    pub fn controller_name(&self, color: Color) -> String {
        self.player_name(self.game.controller(color))
    }

    /// The colour the person controls now.
    pub fn human_color(&self) -> Color {
        color_of(&self.game, self.opponent.human)
    }

    /// Time left on each clock (the side to move's running), with an engine playing.
    pub fn clock_left(&self) -> Option<[Duration; 2]> {
        self.opponent.engine.as_ref()?;
        // A time per move is no clock to show.
        if let TimeControl::PerMove(_) = self.opponent.control {
            return None;
        }
        let mut clocks = self.clocks;
        let to_move = self.game.position().side_to_move();
        Some(Color::ALL.map(|color| {
            let left = clocks.of(color).budget();
            if self.lost_on_time == Some(color) {
                Duration::ZERO
            } else if color == to_move && self.ending().is_none() && self.clocks_run() {
                left.saturating_sub(self.turn_started.elapsed())
            } else {
                left
            }
        }))
    }

    /// The legal moves here: each with whether it closes a chain and whether
    /// a switch may follow it.
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        if self.ending().is_some() {
            return Vec::new();
        }
        let position = self.game.position();
        let test = ChainTest::new(position, self.game.rules());
        let run = self.game.run();
        let run_allows = self.sscc && run.allows_switch();
        position
            .legal_moves()
            .iter()
            .map(|&mv| {
                let closes = test.forms_chain(mv);
                LegalMove {
                    mv,
                    closes_chain: closes,
                    switchable: closes && run_allows,
                }
            })
            .collect()
    }
}

/// The largest text [`Session::load`] reads.
pub const MAX_LOAD: usize = 1 << 20;

/// A legal move and what it does to the chain rules.
#[derive(Clone, Copy, Debug)]
pub struct LegalMove {
    pub mv: Move,
    pub closes_chain: bool,
    pub switchable: bool,
}

/// The chain `mv` closes from `position`, if any.
pub fn chain_closed(position: &Position, mv: Move, rules: &Rules) -> Option<DrawnChain> {
    closed_chain(position, mv, rules)
        .as_ref()
        .map(DrawnChain::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session_after(moves: &[&str]) -> Session {
        let mut session = Session::new();
        for mv in moves {
            session.play(mv, false).unwrap();
        }
        session
    }

    #[test]
    fn finds_the_chain_of_c3_e5_d3() {
        let mut session = session_after(&["c2c3", "e7e5"]);
        let mv = session.parse_move("d2d3").unwrap();
        let found = session.chain_of(mv).unwrap();
        assert_eq!(found.size, 2);
        let mut enclosed = found.enclosed.clone();
        enclosed.sort();
        assert_eq!(enclosed, ["c2", "d2"]);
        assert!(session.switch_refusal(mv).is_none());
        session.play("d3", true).unwrap();
        assert_eq!(session.last_chain(), Some(found));
        assert_eq!(session.game().uci_moves(), "c2c3 e7e5 d2d3 switch");
    }

    #[test]
    fn undo_redo_and_go_to() {
        let mut session = session_after(&["e2e4", "e7e5", "g1f3"]);
        session.undo().unwrap();
        session.undo().unwrap();
        assert_eq!(session.game().plies().len(), 1);
        session.redo().unwrap();
        assert_eq!(session.game().plies().len(), 2);
        session.go_to(0).unwrap();
        assert_eq!(session.redo_moves().len(), 3);
        session.go_to(3).unwrap();
        assert_eq!(session.game().uci_moves(), "e2e4 e7e5 g1f3");
        assert!(session.go_to(4).is_err());
        // A different move forgets the future; the same one keeps it.
        session.go_to(1).unwrap();
        session.play("e7e5", false).unwrap();
        assert_eq!(session.redo_moves().len(), 1);
        session.play("d2d4", false).unwrap();
        assert!(session.redo_moves().is_empty());
    }

    #[test]
    fn the_persons_flag_falls_on_a_clock() {
        let mut session = session_after(&["e2e4"]);
        session.set_opponent(Opponent {
            engine: Some("Catena".to_string()),
            human: Player::StartedBlack,
            control: "0.05+0".parse().unwrap(),
        });
        // Each side's first move is free: no clock runs before both have moved.
        std::thread::sleep(Duration::from_millis(200));
        assert!(!session.check_flag());
        session.play("e7e5", false).unwrap();
        let knight = Action::stay(session.parse_move("g1f3").unwrap());
        let generation = session.generation();
        session
            .play_engine(generation, knight, Duration::from_millis(200))
            .unwrap();
        assert!(session.clocks_run());
        assert!(!session.check_flag());
        std::thread::sleep(Duration::from_millis(200));
        assert!(session.check_flag());
        let (result, why) = session.ending().unwrap();
        assert_eq!(result, GameResult::WhiteWins);
        assert!(why.contains("time"), "{why}");
        assert!(session.play("b8c6", false).is_err());
        // A time per move binds only the engine.
        let mut session = session_after(&["e2e4"]);
        session.set_opponent(Opponent {
            engine: Some("Catena".to_string()),
            human: Player::StartedBlack,
            control: "st=0.05".parse().unwrap(),
        });
        std::thread::sleep(Duration::from_millis(200));
        assert!(!session.check_flag());
        session.play("e7e5", false).unwrap();
    }

    #[test]
    fn refusals_keep_the_game() {
        let mut session = session_after(&["e2e4"]);
        assert!(session.play("e2e4", false).is_err());
        assert!(session.play("e7e5", true).is_err());
        assert!(session.play("zz", false).is_err());
        assert!(
            session
                .new_game(Variant::Sscc(Rules::default()), Some("not a fen"))
                .is_err()
        );
        assert!(session.load("[Event \"x\"]\n\n1. e4 e4 *").is_err());
        assert_eq!(session.game().uci_moves(), "e2e4");
        session.play("e5", false).unwrap();
        assert_eq!(session.game().uci_moves(), "e2e4 e7e5");
    }
}
