//! The lines of an opening book written by `catena book` (docs/solver.md,
//! "Opening theory"): one position's verdict a line, in the EPD manner of
//! the puzzles, written and read back here.
//!
//! ```text
//! <fen> result win; bm "<uci>[ switch]"; dm <d>; pv "<actions>"; bound <D>; rule <r>; min-enclosed <n>; nodes <n>; time <ms>;
//! <fen> result none; bound <D>; rule <r>; min-enclosed <n>; nodes <n>; time <ms>;
//! <fen> result unsettled; bound <D>; rule <r>; min-enclosed <n>; nodes <n>; time <ms>;
//! ```

use std::collections::HashMap;
use std::fmt;

use once_cell::sync::Lazy;

use catena_core::board::Position;
use catena_core::game::{Action, Rules, SwitchRule};

/// What the solver proved about a position within the bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A forced win for the player to move within `plies` plies, the
    /// smallest such bound, along `line` (the first action first) against
    /// the longest defence.
    Win { plies: u32, line: Vec<Action> },
    /// No forced win within the bound, proven.
    None,
    /// The position's budget ran out first: nothing is known.
    Unsettled,
}

impl Verdict {
    /// `win`, `none` or `unsettled`, as the `result` field writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Win { .. } => "win",
            Verdict::None => "none",
            Verdict::Unsettled => "unsettled",
        }
    }

    /// Whether the solver decided the position (`win` or `none`).
    pub fn settled(&self) -> bool {
        !matches!(self, Verdict::Unsettled)
    }
}

/// One line of a book: a position, the question asked of it (rules and
/// bound) and the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position, as `Position::to_fen` writes it (six fields).
    pub fen: String,
    pub rules: Rules,
    /// D: the bound on plies within which a win was sought.
    pub bound: u32,
    pub verdict: Verdict,
    /// Solver nodes spent on the position.
    pub nodes: u64,
    /// Milliseconds spent on the position.
    pub time: u64,
}

/// What makes two lines answers to the same question: the position, the
/// rules and the bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Question {
    pub fen: String,
    pub rules: Rules,
    pub bound: u32,
}

impl Record {
    pub fn question(&self) -> Question {
        Question {
            fen: self.fen.clone(),
            rules: self.rules,
            bound: self.bound,
        }
    }

    /// Reads a line as `Display` writes it. The FEN must be a legal
    /// position and the winning line must be playable from it, each action
    /// in turn; opcodes this version does not know are passed over.
    ///
    /// ```
    /// use catena_engine::book::{Record, Verdict};
    /// let text = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 result none; bound 4; \
    ///             rule chain; min-enclosed 2; nodes 1; time 0;";
    /// let record = Record::parse(text).unwrap();
    /// assert_eq!(record.verdict, Verdict::None);
    /// assert_eq!(record.to_string(), text);
    /// ```
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut rest = text.trim();
        let mut fields = Vec::with_capacity(6);
        for _ in 0..6 {
            let (field, tail) = rest
                .split_once(char::is_whitespace)
                .ok_or("a book line starts with a FEN of six fields, then `result`")?;
            fields.push(field);
            rest = tail.trim_start();
        }
        let fen = fields.join(" ");
        let position = Position::from_fen(&fen).map_err(|error| format!("bad FEN: {error}"))?;
        let mut operations: Vec<(&str, &str)> = Vec::new();
        for field in rest.split(';').map(str::trim).filter(|f| !f.is_empty()) {
            let (opcode, operand) = field
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("'{field}' has no operand"))?;
            if operations.iter().any(|&(seen, _)| seen == opcode) {
                return Err(format!("{opcode} is given twice"));
            }
            let operand = operand.trim();
            let operand = operand
                .strip_prefix('"')
                .and_then(|inner| inner.strip_suffix('"'))
                .unwrap_or(operand);
            operations.push((opcode, operand));
        }
        let operand = |opcode: &str| {
            operations
                .iter()
                .find(|&&(name, _)| name == opcode)
                .map(|&(_, operand)| operand)
        };
        let required = |opcode: &str| operand(opcode).ok_or(format!("no {opcode}"));
        let number = |opcode: &str| -> Result<u64, String> {
            let text = required(opcode)?;
            text.parse()
                .map_err(|_| format!("{opcode} '{text}' is not a number"))
        };
        let small = |opcode: &str| -> Result<u32, String> {
            u32::try_from(number(opcode)?).map_err(|_| format!("{opcode} is too large"))
        };
        let rule: SwitchRule = required("rule")?.parse()?;
        let rules = Rules::new(rule, small("min-enclosed")?)?;
        let bound = small("bound")?;
        if bound == 0 {
            return Err("bound 0: a win needs at least one ply".to_string());
        }
        let verdict = match required("result")? {
            "win" => {
                let plies = small("dm")?;
                if plies == 0 || plies > bound {
                    return Err(format!("dm {plies} is not within bound {bound}"));
                }
                let line = read_line(&position, required("pv")?)?;
                let first = required("bm")?;
                if line.first().map(ToString::to_string).as_deref() != Some(first) {
                    return Err(format!("bm \"{first}\" is not the first action of pv"));
                }
                Verdict::Win { plies, line }
            }
            result @ ("none" | "unsettled") => {
                if let Some(opcode) = ["bm", "dm", "pv"]
                    .into_iter()
                    .find(|&o| operand(o).is_some())
                {
                    return Err(format!("result {result} with {opcode}"));
                }
                if result == "none" {
                    Verdict::None
                } else {
                    Verdict::Unsettled
                }
            }
            other => return Err(format!("result '{other}' is not win, none or unsettled")),
        };
        Ok(Record {
            fen: position.to_fen(),
            rules,
            bound,
            verdict,
            nodes: number("nodes")?,
            time: number("time")?,
        })
    }
}

/// The actions of `text` played from `position` in turn; a switch leaves
/// the board as its move left it.
fn read_line(position: &Position, text: &str) -> Result<Vec<Action>, String> {
    let mut position = position.clone();
    let mut words = text.split_whitespace().peekable();
    let mut line = Vec::new();
    while let Some(word) = words.next() {
        let switch = words.next_if_eq(&"switch").is_some();
        let written = if switch {
            format!("{word} switch")
        } else {
            word.to_string()
        };
        let action = Action::parse(&position, &written)
            .map_err(|error| format!("pv: {written} after {} actions: {error}", line.len()))?;
        position = position.after(action.mv);
        line.push(action);
    }
    if line.is_empty() {
        return Err("an empty pv".to_string());
    }
    Ok(line)
}

impl fmt::Display for Record {
    /// The line, without its newline.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} result {};", self.fen, self.verdict.name())?;
        if let Verdict::Win { plies, line } = &self.verdict {
            let actions: Vec<String> = line.iter().map(ToString::to_string).collect();
            write!(
                f,
                " bm \"{}\"; dm {plies}; pv \"{}\";",
                actions.first().map_or("", String::as_str),
                actions.join(" ")
            )?;
        }
        write!(
            f,
            " bound {}; rule {}; min-enclosed {}; nodes {}; time {};",
            self.bound, self.rules.switch_rule, self.rules.min_enclosed, self.nodes, self.time
        )
    }
}

/// The books the engine is built with, by their files in `book/`: the
/// committed verdicts on the openings of `openings/` and on the start
/// position under each rule (docs/solver.md, "The books in `book/`").
macro_rules! built_in_books {
    ($($file:literal),+) => {
        /// The files of `book/` built into the engine.
        pub const BUILT_IN_FILES: &[&str] = &[$($file),+];
        const BUILT_IN: &[&str] = &[$(include_str!(concat!("../../../book/", $file))),+];
    };
}

built_in_books!(
    "openings-balanced.epd",
    "openings-sscc-balanced.epd",
    "start.epd"
);

/// What a book proved of a position, by position and rules: its fastest
/// win, and the largest bound within which it has none.
#[derive(Default)]
pub struct Book {
    wins: HashMap<(String, Rules), Record>,
    nones: HashMap<(String, Rules), u32>,
}

/// The book's answer to "a forced win within D plies?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<'a> {
    /// The shortest win, within D.
    Win { plies: u32, line: &'a [Action] },
    /// None within D: the book proved none within a bound of at least D, or
    /// its shortest win is longer than D.
    NoneWithin,
}

/// A position as the book keys it: the FEN without its move counters, which
/// a position met in a game seldom shares with the book's.
fn board_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

impl Book {
    /// The settled lines of `text`, a book as `catena book` writes it;
    /// lines that are not records (comments, lines cut short) are passed over.
    pub fn from_text(text: &str) -> Book {
        let mut book = Book::default();
        let records = text
            .lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .filter_map(|line| Record::parse(line).ok());
        for record in records {
            let key = (board_key(&record.fen), record.rules);
            match record.verdict {
                Verdict::None => {
                    let bound = book.nones.entry(key).or_default();
                    *bound = (*bound).max(record.bound);
                }
                Verdict::Win { plies, .. } => {
                    // The fastest win known wins a tie of two lines.
                    let faster = |known: &Record| match known.verdict {
                        Verdict::Win { plies: known, .. } => plies < known,
                        _ => true,
                    };
                    if book.wins.get(&key).is_none_or(faster) {
                        book.wins.insert(key, record);
                    }
                }
                Verdict::Unsettled => {}
            }
        }
        book
    }

    /// The books built into the engine.
    pub fn built_in() -> &'static Book {
        static BOOK: Lazy<Book> = Lazy::new(|| Book::from_text(&BUILT_IN.join("\n")));
        &BOOK
    }

    /// The proven win from `position` under `rules`, with no run of switches
    /// in progress (the book's positions have none), if the book has one.
    pub fn win(&self, position: &Position, rules: Rules) -> Option<&Record> {
        self.wins.get(&(board_key(&position.to_fen()), rules))
    }

    /// Whether `position` under `rules` has a forced win within `plies`,
    /// if the book settles it.
    pub fn answer(&self, position: &Position, rules: Rules, plies: u32) -> Option<Answer<'_>> {
        let key = (board_key(&position.to_fen()), rules);
        if let Some(Record {
            verdict:
                Verdict::Win {
                    plies: shortest,
                    line,
                },
            ..
        }) = self.wins.get(&key)
        {
            return Some(if *shortest <= plies {
                Answer::Win {
                    plies: *shortest,
                    line,
                }
            } else {
                Answer::NoneWithin
            });
        }
        let bound = *self.nones.get(&key)?;
        (bound >= plies).then_some(Answer::NoneWithin)
    }

    /// The largest bound within which the book proved no win, if any.
    pub fn no_win_within(&self, position: &Position, rules: Rules) -> Option<u32> {
        self.nones
            .get(&(board_key(&position.to_fen()), rules))
            .copied()
    }

    /// How many positions have a proven win.
    pub fn len(&self) -> usize {
        self.wins.len()
    }

    pub fn is_empty(&self) -> bool {
        self.wins.is_empty()
    }

    /// Every proven win, in no order.
    pub fn wins(&self) -> impl Iterator<Item = &Record> {
        self.wins.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's book keeps the wins only, the fastest of two, keyed by
    /// the board without its move counters and by the rules.
    #[test]
    fn the_book_keeps_the_fastest_proven_win_of_each_position() {
        let built = Book::built_in();
        assert!(!built.is_empty());
        let record = built.wins().next().expect("a win").clone();
        let Verdict::Win { plies, .. } = record.verdict else {
            unreachable!("wins only");
        };
        let slower = Record {
            verdict: Verdict::Win {
                plies: plies + 2,
                line: match &record.verdict {
                    Verdict::Win { line, .. } => line.clone(),
                    _ => unreachable!(),
                },
            },
            ..record.clone()
        };
        let none = Record {
            verdict: Verdict::None,
            ..record.clone()
        };
        let text = format!("# a comment\n{slower}\n{record}\n{none}\ncut sh");
        let book = Book::from_text(&text);
        assert_eq!(book.len(), 1);
        let position = Position::from_fen(&record.fen).unwrap();
        let counters_apart = Position::from_fen(&record.fen.replace(" 0 1", " 3 9")).unwrap();
        assert_eq!(book.win(&position, record.rules), Some(&record));
        assert_eq!(book.win(&counters_apart, record.rules), Some(&record));
        let other_rules = Rules::new(SwitchRule::Unlimited, 3).unwrap();
        assert_eq!(book.win(&position, other_rules), None);
    }
}
