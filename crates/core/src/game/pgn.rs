//! Game records in PGN (docs/rules.md, section 6): board moves in SAN, the comment
//! `{switch}` right after every move whose player switched sides, and the tags
//! `SSCC`, `WhiteAtEnd` and `BlackAtEnd` beside the seven standard ones.
//! Chess tools read such a record as an ordinary chess game.
//!
//! ```
//! use catena_core::game::{GameState, Rules, pgn};
//! let mut game = GameState::new(catena_core::board::Position::startpos(), Rules::default());
//! game.apply_uci_moves(&["c2c3", "e7e5", "d2d3", "switch", "g8f6"]).unwrap();
//! let mut record = pgn::GameRecord::new(game);
//! record.set_tag("White", "Alice");
//! record.set_tag("Black", "Bob");
//! let text = pgn::write(&record);
//! assert!(text.contains("2. d3 {switch} 2... Nf6 *"));
//! assert!(text.contains("[WhiteAtEnd \"Bob\"]\n[BlackAtEnd \"Alice\"]"));
//! assert_eq!(pgn::read(&text).unwrap().game.uci_moves(), "c2c3 e7e5 d2d3 switch g8f6");
//! ```

use crate::game::Action;
use std::fmt;
use std::str::FromStr;

use super::{GameState, Outcome, Player, Rules, SwitchRule, Variant};
use crate::board::{Color, Position, san};

/// The result of a game by colour, as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: the game has not ended.
    Unfinished,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result in which `color` wins.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The points `color` scores (1, ½ or 0), if the game has ended.
    pub fn score_of(self, color: Color) -> Option<f64> {
        match self {
            GameResult::Unfinished => None,
            GameResult::Draw => Some(0.5),
            result if result == GameResult::win_for(color) => Some(1.0),
            _ => Some(0.0),
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        outcome.winner.map_or(GameResult::Draw, GameResult::win_for)
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameResult {
    type Err = String;

    fn from_str(text: &str) -> Result<GameResult, String> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|result| result.as_str() == text)
        .ok_or_else(|| format!("'{text}' is not a PGN result (1-0, 0-1, 1/2-1/2 or *)"))
    }
}

/// One game: its tags, its moves and switches, and how it ended.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Tags in order. `Result`, `SetUp`, `FEN`, `SSCC`, `WhiteAtEnd` and
    /// `BlackAtEnd` may be here (as read) but are written from the fields below.
    pub tags: Vec<(String, String)>,
    pub game: GameState,
    /// The result by colour: the game's own outcome, or one an arbiter decided
    /// (time forfeit, adjudication).
    pub result: GameResult,
    /// Why the game ended, written as a comment after the last move in the
    /// manner of Cute Chess (`{Black loses on time}`).
    pub comment: Option<String>,
    /// Whether this is an SSCC game, whose tags `SSCC`, `WhiteAtEnd` and
    /// `BlackAtEnd` are written; false for a plain chess game. Private, so
    /// that the rules are only ever the game's: see [`GameRecord::variant`].
    sscc: bool,
}

/// The seven standard tags, in the order PGN requires, with the values of an unknown.
const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Tags written from the game rather than from `GameRecord::tags`.
const DERIVED_TAGS: [&str; 6] = ["Result", "SetUp", "FEN", "SSCC", "WhiteAtEnd", "BlackAtEnd"];

/// Lines of PGN movetext stay within this many characters.
const LINE_WIDTH: usize = 79;

impl GameRecord {
    /// An SSCC record of `game` with no tags yet, its result the game's outcome (or `*`).
    pub fn new(game: GameState) -> GameRecord {
        let result = game
            .outcome()
            .map_or(GameResult::Unfinished, GameResult::from);
        GameRecord {
            tags: Vec::new(),
            game,
            result,
            comment: None,
            sscc: true,
        }
    }

    /// The game recorded: SSCC under the game's own rules, or chess.
    pub fn variant(&self) -> Variant {
        if self.sscc {
            Variant::Sscc(*self.game.rules())
        } else {
            Variant::Chess
        }
    }

    /// Records the game as `variant`: chess writes no SSCC tags. An SSCC
    /// game keeps the rules it was played under, which `variant` must name.
    pub fn set_variant(&mut self, variant: Variant) {
        debug_assert!(
            variant
                .rules()
                .is_none_or(|rules| rules == *self.game.rules()),
            "{variant:?} recorded of a game played under {}",
            self.game.rules()
        );
        self.sscc = variant.is_sscc();
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name`, replacing its value if it is there.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(tag, _)| tag == name) {
            Some((_, old)) => *old = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The name (the `White` or `Black` tag) of the player who controls `color` now.
    pub fn controller_name(&self, color: Color) -> &str {
        let tag = match self.game.controller(color) {
            Player::StartedWhite => "White",
            Player::StartedBlack => "Black",
        };
        self.tag(tag).unwrap_or("?")
    }
}

/// The record as PGN, ending with a blank line so that records can be concatenated.
pub fn write(record: &GameRecord) -> String {
    let mut text = String::new();
    let mut put_tag = |name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[{name} \"{escaped}\"]\n"));
    };
    for (name, unknown) in SEVEN_TAG_ROSTER {
        if name == "Result" {
            put_tag(name, record.result.as_str());
        } else {
            put_tag(name, record.tag(name).unwrap_or(unknown));
        }
    }
    let start = record.game.start();
    if start.to_fen() != Position::START_FEN {
        put_tag("SetUp", "1");
        put_tag("FEN", &start.to_fen());
    }
    if record.sscc {
        put_tag("SSCC", &record.game.rules().to_string());
        put_tag("WhiteAtEnd", record.controller_name(Color::White));
        put_tag("BlackAtEnd", record.controller_name(Color::Black));
    }
    for (name, value) in &record.tags {
        let roster = SEVEN_TAG_ROSTER.iter().any(|(tag, _)| tag == name);
        if !roster && !DERIVED_TAGS.contains(&name.as_str()) {
            put_tag(name, value);
        }
    }
    text.push('\n');
    text.push_str(&wrap(&movetext(record)));
    text.push_str("\n\n");
    text
}

/// The movetext as tokens: move numbers, SAN, comments and the result.
fn movetext(record: &GameRecord) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut position = record.game.start().clone();
    let mut after_comment = true;
    for ply in record.game.plies() {
        let number = position.fullmove_number();
        match position.side_to_move() {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if after_comment => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(san::format(&position, ply.mv));
        after_comment = ply.switched;
        if ply.switched {
            tokens.push("{switch}".to_string());
        }
        position.play(ply.mv);
    }
    if let Some(comment) = &record.comment {
        // A brace would end the comment early.
        tokens.push(format!("{{{}}}", comment.replace('}', ")")));
    }
    tokens.push(record.result.as_str().to_string());
    tokens
}

fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut line_length = 0;
    for token in tokens {
        if line_length > 0 && line_length + 1 + token.len() > LINE_WIDTH {
            text.push('\n');
            line_length = 0;
        } else if line_length > 0 {
            text.push(' ');
            line_length += 1;
        }
        text.push_str(token);
        line_length += token.len();
    }
    text
}

/// Why a PGN text cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The game's number in the text, counting from 1.
    pub game: usize,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "PGN game {}: {}", self.game, self.message)
    }
}

impl std::error::Error for PgnError {}

/// The first game of a PGN text.
pub fn read(text: &str) -> Result<GameRecord, PgnError> {
    read_all(text)?.into_iter().next().ok_or_else(|| PgnError {
        game: 1,
        message: "no game in the text".to_string(),
    })
}

/// Every game of a PGN text, each replayed under the SSCC rules (those of its
/// `SSCC` tag, else the default ones): every move must be legal and every
/// switch allowed. A comment whose first word is `switch` marks a switch, so
/// that `{switch}` survives tools that merge comments. Variations, NAGs,
/// `%` lines and other comments are skipped; the last comment after the last
/// move becomes `GameRecord::comment`.
pub fn read_all(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    let mut games = Vec::new();
    let mut tokens = Tokens::new(text);
    loop {
        let number = games.len() + 1;
        let fail = |message: String| PgnError {
            game: number,
            message,
        };
        let mut tags = Vec::new();
        while let Some(Token::Tag(name, value)) = tokens.peek().map_err(fail)? {
            tags.push((name, value));
            tokens.next().map_err(fail)?;
        }
        let mut movetext = Vec::new();
        loop {
            match tokens.peek().map_err(fail)? {
                None | Some(Token::Tag(..)) => break,
                Some(Token::Result(_)) => {
                    movetext.push(tokens.next().map_err(fail)?.expect("peeked"));
                    break;
                }
                Some(_) => movetext.push(tokens.next().map_err(fail)?.expect("peeked")),
            }
        }
        if tags.is_empty() && movetext.is_empty() {
            return Ok(games);
        }
        games.push(replay(tags, &movetext).map_err(fail)?);
    }
}

/// The game of one record's tags and movetext tokens.
fn replay(tags: Vec<(String, String)>, movetext: &[Token]) -> Result<GameRecord, String> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    };
    let rules = match tag("SSCC") {
        Some(value) => parse_rules(value)?,
        None => Rules::default(),
    };
    let mut game = match tag("FEN") {
        Some(fen) => {
            GameState::from_fen(fen, rules).map_err(|error| format!("FEN tag: {error}"))?
        }
        None => GameState::new(Position::startpos(), rules),
    };
    let mut result = match tag("Result") {
        Some(value) => value.parse().unwrap_or(GameResult::Unfinished),
        None => GameResult::Unfinished,
    };
    let mut comment = None;
    for (index, token) in movetext.iter().enumerate() {
        match token {
            Token::San(text) => {
                let mv = san::parse(game.position(), text).map_err(|error| {
                    format!("move {}: {error}", game.position().fullmove_number())
                })?;
                let switch = movetext[index + 1..]
                    .iter()
                    .take_while(|token| matches!(token, Token::Comment(_)))
                    .any(|token| matches!(token, Token::Comment(text) if is_switch(text)));
                game.apply(Action { mv, switch }).map_err(|error| {
                    let marked = if switch { " {switch}" } else { "" };
                    format!("{text}{marked}: {error}")
                })?;
                comment = None;
            }
            Token::Comment(text) if !is_switch(text) => comment = Some(text.clone()),
            Token::Comment(_) => {}
            Token::Result(value) => result = *value,
            Token::Tag(..) => unreachable!("tags end the movetext"),
        }
    }
    Ok(GameRecord {
        sscc: tag("SSCC").is_some() || game.plies().iter().any(|ply| ply.switched),
        tags,
        game,
        result,
        comment,
    })
}

fn is_switch(comment: &str) -> bool {
    comment.split_whitespace().next() == Some("switch")
}

/// The rules of an `SSCC` tag: `SwitchRule=chain;MinEnclosed=2`, either part optional.
fn parse_rules(value: &str) -> Result<Rules, String> {
    let mut switch_rule = SwitchRule::default();
    let mut min_enclosed = Rules::default().min_enclosed;
    for field in value.split(';').map(str::trim).filter(|f| !f.is_empty()) {
        match field.split_once('=') {
            Some(("SwitchRule", rule)) => switch_rule = rule.trim().parse()?,
            Some(("MinEnclosed", count)) => {
                min_enclosed = count
                    .trim()
                    .parse()
                    .map_err(|_| format!("SSCC tag: MinEnclosed '{count}' is not a number"))?;
            }
            _ => return Err(format!("SSCC tag: cannot read '{field}'")),
        }
    }
    Rules::new(switch_rule, min_enclosed).map_err(|error| format!("SSCC tag: {error}"))
}

/// A unit of PGN text that matters for replaying a game.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Tag(String, String),
    San(String),
    Comment(String),
    Result(GameResult),
}

/// PGN tokens, skipping move numbers, NAGs, variations and escape lines.
struct Tokens<'a> {
    rest: &'a str,
    peeked: Option<Option<Token>>,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            rest: text,
            peeked: None,
        }
    }

    fn peek(&mut self) -> Result<Option<Token>, String> {
        if self.peeked.is_none() {
            self.peeked = Some(self.read()?);
        }
        Ok(self.peeked.clone().flatten())
    }

    fn next(&mut self) -> Result<Option<Token>, String> {
        match self.peeked.take() {
            Some(token) => Ok(token),
            None => self.read(),
        }
    }

    /// Moves past `length` bytes and returns them.
    fn take(&mut self, length: usize) -> &'a str {
        let (taken, rest) = self.rest.split_at(length);
        self.rest = rest;
        taken
    }

    /// The text up to the first `end` (excluded), moving past the `end` too.
    fn take_until(&mut self, end: char, what: &str) -> Result<&'a str, String> {
        let length = self
            .rest
            .find(end)
            .ok_or_else(|| format!("{what} is not closed"))?;
        let taken = self.take(length);
        self.take(end.len_utf8());
        Ok(taken)
    }

    fn read(&mut self) -> Result<Option<Token>, String> {
        loop {
            self.rest = self.rest.trim_start();
            let Some(first) = self.rest.chars().next() else {
                return Ok(None);
            };
            match first {
                // An escape line; nothing else in PGN starts with '%'.
                '%' => {
                    self.take_until_line_end();
                }
                ';' => {
                    self.take(1);
                    let text = self.take_until_line_end();
                    return Ok(Some(Token::Comment(text.trim().to_string())));
                }
                '{' => {
                    self.take(1);
                    let text = self.take_until('}', "a comment")?;
                    return Ok(Some(Token::Comment(text.trim().to_string())));
                }
                '[' => {
                    self.take(1);
                    return self.read_tag().map(Some);
                }
                '(' => self.skip_variation()?,
                ')' => return Err("')' without '('".to_string()),
                '$' => {
                    self.take(1);
                    self.take_word();
                }
                _ => {
                    let word = self.take_word();
                    if let Ok(result) = word.parse() {
                        return Ok(Some(Token::Result(result)));
                    }
                    // Move numbers (`12.`, `12...`) may be glued to the move (`12.e4`).
                    let san = match word.rfind('.') {
                        Some(dot) if word.starts_with(|c: char| c.is_ascii_digit()) => {
                            &word[dot + 1..]
                        }
                        _ => word,
                    };
                    if !san.is_empty() {
                        return Ok(Some(Token::San(san.to_string())));
                    }
                }
            }
        }
    }

    fn take_until_line_end(&mut self) -> &'a str {
        let length = self.rest.find('\n').unwrap_or(self.rest.len());
        self.take(length)
    }

    /// A word of movetext: up to white space or a character that starts another token.
    fn take_word(&mut self) -> &'a str {
        let length = self
            .rest
            .find(|c: char| c.is_whitespace() || "{}()[];$".contains(c))
            .unwrap_or(self.rest.len())
            .max(1);
        self.take(length)
    }

    /// `Name "value"]`, after the `[`.
    fn read_tag(&mut self) -> Result<Token, String> {
        self.rest = self.rest.trim_start();
        let name_length = self
            .rest
            .find(|c: char| c.is_whitespace() || c == '"')
            .ok_or("a tag is not closed")?;
        let name = self.take(name_length).to_string();
        self.rest = self.rest.trim_start();
        if !self.rest.starts_with('"') {
            return Err(format!("tag {name}: the value must be in double quotes"));
        }
        self.take(1);
        let mut value = String::new();
        let mut chars = self.rest.char_indices();
        let end = loop {
            match chars.next() {
                Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                Some((index, '"')) => break index,
                Some((_, c)) if c != '\n' => value.push(c),
                _ => return Err(format!("tag {name}: the value is not closed")),
            }
        };
        // The closing quote is skipped with the rest up to the `]`.
        self.take(end);
        self.take_until(']', &format!("tag {name}"))?;
        Ok(Token::Tag(name, value))
    }

    /// A variation `( … )`, nested ones and comments inside included, after the `(`.
    fn skip_variation(&mut self) -> Result<(), String> {
        self.take(1);
        let mut depth = 1;
        while depth > 0 {
            let index = self
                .rest
                .find(['(', ')', '{'])
                .ok_or("a variation is not closed")?;
            let found = self.take(index + 1);
            match found.chars().last() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                _ => {
                    self.take_until('}', "a comment")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> GameState {
        let mut game = GameState::new(Position::startpos(), Rules::default());
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        game.apply_uci_moves(&tokens).unwrap();
        game
    }

    #[test]
    fn writes_the_tags_in_order_and_switches_as_comments() {
        let mut record = GameRecord::new(game("c2c3 e7e5 d2d3 switch g8f6 b1d2"));
        record.set_tag("Event", "Test \"quoted\"");
        record.set_tag("White", "Alice");
        record.set_tag("Black", "Bob");
        record.set_tag("Termination", "adjudication");
        record.result = GameResult::Draw;
        record.comment = Some("Draw by adjudication".to_string());
        let text = write(&record);
        let expected = "[Event \"Test \\\"quoted\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
            [Round \"?\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n\
            [SSCC \"SwitchRule=chain;MinEnclosed=2\"]\n[WhiteAtEnd \"Bob\"]\n\
            [BlackAtEnd \"Alice\"]\n[Termination \"adjudication\"]\n\n\
            1. c3 e5 2. d3 {switch} 2... Nf6 3. Nd2 {Draw by adjudication} 1/2-1/2\n\n";
        assert_eq!(text, expected);
        let read = read(&text).unwrap();
        assert_eq!(read.game.uci_moves(), record.game.uci_moves());
        assert_eq!(read.result, GameResult::Draw);
        assert_eq!(read.comment.as_deref(), Some("Draw by adjudication"));
        assert_eq!(read.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(write(&read), text);
    }

    #[test]
    fn lines_fill_to_the_width_and_a_long_token_stands_alone() {
        let words =
            |lengths: &[usize]| -> Vec<String> { lengths.iter().map(|&n| "x".repeat(n)).collect() };
        // 39 + 1 + 39 fills the line exactly; one more character breaks it.
        assert_eq!(wrap(&words(&[39, 39])).lines().count(), 1);
        assert_eq!(wrap(&words(&[39, 40])).lines().count(), 2);
        // A token longer than the line (a long comment) is not preceded by a
        // line break of its own.
        let long = wrap(&words(&[100, 1]));
        assert_eq!(long, format!("{}\nx", "x".repeat(100)));
    }

    #[test]
    fn results_score_by_colour_and_not_before_the_end() {
        for (result, white, black) in [
            (GameResult::WhiteWins, Some(1.0), Some(0.0)),
            (GameResult::BlackWins, Some(0.0), Some(1.0)),
            (GameResult::Draw, Some(0.5), Some(0.5)),
            (GameResult::Unfinished, None, None),
        ] {
            assert_eq!(result.score_of(Color::White), white, "{result}");
            assert_eq!(result.score_of(Color::Black), black, "{result}");
        }
    }

    #[test]
    fn a_set_up_position_gets_fen_tags_and_black_move_numbers() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40";
        let mut game = GameState::from_fen(fen, Rules::default()).unwrap();
        game.apply_uci_moves(&["e8d7", "e2e4"]).unwrap();
        let mut record = GameRecord::new(game);
        record.set_variant(Variant::Chess);
        let text = write(&record);
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\"]\n"));
        assert!(!text.contains("SSCC") && !text.contains("AtEnd"));
        assert!(text.ends_with("\n40... Kd7 41. e4 *\n\n"), "{text}");
        assert_eq!(read(&text).unwrap().game.uci_moves(), "e8d7 e2e4");
    }

    #[test]
    fn long_games_wrap_at_80_columns() {
        let mut game = game("");
        for ply in 0..120 {
            let moves = game.position().legal_moves();
            if game.outcome().is_some() {
                break;
            }
            game.apply(Action::stay(moves[ply * 7 % moves.len()]))
                .unwrap();
        }
        let record = GameRecord::new(game);
        let text = write(&record);
        assert!(text.lines().count() > 10);
        assert!(text.lines().all(|line| line.len() < 80));
        assert_eq!(
            read(&text).unwrap().game.uci_moves(),
            record.game.uci_moves()
        );
    }

    #[test]
    fn reads_what_other_programs_write() {
        let text = "% exported\n[Event \"Cute Chess\"]\n[White \"a\"]\n[Black \"b\"]\n\
            [Result \"1-0\"]\n[PlyCount \"7\"]\n\n\
            1.e4 {+0.20/12 0.51s} e5 $1 (1... c5 {Sicilian} 2. Nf3 (2. c3)) 2. Bc4 Nc6\n\
            3. Qh5 ; attack\nNf6?? 4. Qxf7# {White mates} 1-0\n\n\
            [Event \"second\"]\n\n1. d4 d5 *\n";
        let games = read_all(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].game.uci_moves(),
            "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7"
        );
        assert_eq!(games[0].result, GameResult::WhiteWins);
        assert_eq!(games[0].comment.as_deref(), Some("White mates"));
        assert_eq!(games[0].variant(), Variant::Chess);
        assert_eq!(games[1].game.uci_moves(), "d2d4 d7d5");
        assert_eq!(games[1].tag("Event"), Some("second"));
        // Values may be empty, or hold brackets and escaped quotes.
        let tags = read("[Site \"\"]\n[Event \"a]b \\\"c\\\"\" ]\n*").unwrap();
        assert_eq!(tags.tag("Site"), Some(""));
        assert_eq!(tags.tag("Event"), Some("a]b \"c\""));
    }

    #[test]
    fn merged_switch_comments_still_switch() {
        let text = "[SSCC \"SwitchRule=moves;MinEnclosed=2\"]\n\n\
            1. c3 e5 2. d3 { switch +0.3/10 } Nf6 *";
        let record = read(text).unwrap();
        assert_eq!(record.game.rules().switch_rule, SwitchRule::Moves);
        assert_eq!(record.game.uci_moves(), "c2c3 e7e5 d2d3 switch g8f6");
    }

    #[test]
    fn bad_records_are_refused_with_the_reason() {
        let cases = [
            ("1. e4 e5 2. Ke3 *", "Ke3"),
            ("1. e4 {switch} e5 *", "formed no chain"),
            ("1. e4 {unclosed", "not closed"),
            ("[Event \"x]\n1. e4 *", "not closed"),
            // A tag's value ends on its line, even if a quote comes later.
            ("[Event \"x]\n[Site \"y\"]\n*", "Event: the value is not"),
            ("[FEN \"8/8/8 w - - 0 1\"]\n1. e4 *", "FEN tag"),
            ("[SSCC \"SwitchRule=sometimes\"]\n*", "switch rule"),
            ("1. e4 (1. d4 *", "variation"),
            ("1. e4 ) e5 *", "')' without '('"),
            // Only a move number may end in dots: a bare ellipsis is no move.
            ("1. e4 ... e5 *", "..."),
        ];
        for (text, expected) in cases {
            let error = read(text).unwrap_err();
            assert!(error.to_string().contains(expected), "{text}: {error}");
        }
        assert!(read("").is_err());
        // An error names its game by its place in the text, from 1.
        assert_eq!(read_all("1. Ke3 *").unwrap_err().game, 1);
        let second = read_all("1. e4 *\n\n1. Ke3 *").unwrap_err();
        assert!(second.to_string().starts_with("PGN game 2: "), "{second}");
    }

    #[test]
    fn a_record_is_sscc_by_its_tag_or_its_switches() {
        let switched = read("1. c3 e5 2. d3 {switch} *").unwrap();
        assert!(switched.variant().is_sscc());
        // A switch after the last move is no closing comment.
        assert_eq!(switched.comment, None);
        assert!(
            read("[SSCC \"SwitchRule=chain\"]\n\n1. e4 *")
                .unwrap()
                .variant()
                .is_sscc()
        );
        assert_eq!(read("1. e4 *").unwrap().variant(), Variant::Chess);
    }
}
