//! An engine's `info` lines, read for the page: depth, score, and the line
//! in SAN with its switches marked, checked move by move against the rules.

use catena_core::game::Action;
use serde::Serialize;

use catena_core::board::{Color, Position, san};
use catena_core::game::GameState;

/// One line of analysis (one MultiPV entry).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Line {
    pub multipv: usize,
    pub depth: u32,
    pub seldepth: Option<u32>,
    /// Centipawns from White's army's side (`None` with a mate score).
    pub white_cp: Option<i32>,
    /// Mate in so many moves for White's army (negative: for Black's).
    pub white_mate: Option<i32>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub pv: Vec<PvMove>,
    /// The line as PGN writes it: `2. d3 {switch} 2... Nf6`.
    pub text: String,
}

/// One move of a line.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PvMove {
    pub uci: String,
    pub san: String,
    pub switch: bool,
}

/// The line an `info` line carries, read from `game`'s current position;
/// `None` for an `info` without a score (`currmove`, `string`, …).
pub fn read(line: &str, game: &GameState) -> Option<Line> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.contains(&"string") {
        return None;
    }
    let after = |key: &str| {
        words
            .iter()
            .position(|&word| word == key)
            .and_then(|at| words.get(at + 1))
    };
    let number = |key: &str| after(key).and_then(|word| word.parse::<u64>().ok());
    let score_at = words.iter().position(|&word| word == "score")?;
    let kind = *words.get(score_at + 1)?;
    let value: i32 = words.get(score_at + 2)?.parse().ok()?;
    let sign = match game.position().side_to_move() {
        Color::White => 1,
        Color::Black => -1,
    };
    let (white_cp, white_mate) = match kind {
        "cp" => (Some(value * sign), None),
        "mate" => (None, Some(value * sign)),
        _ => return None,
    };
    let pv_words = words
        .iter()
        .position(|&word| word == "pv")
        .map_or(&[][..], |at| &words[at + 1..]);
    let pv = read_pv(pv_words, game);
    let text = pv_text(game.position(), &pv);
    Some(Line {
        multipv: number("multipv").unwrap_or(1) as usize,
        depth: number("depth")? as u32,
        seldepth: number("seldepth").map(|depth| depth as u32),
        white_cp,
        white_mate,
        nodes: number("nodes"),
        nps: number("nps"),
        time_ms: number("time"),
        pv,
        text,
    })
}

/// The moves of a `pv`, with `switch` tokens, as far as they are legal.
pub fn read_pv(words: &[&str], game: &GameState) -> Vec<PvMove> {
    let mut game = game.clone();
    let mut moves = Vec::new();
    let mut index = 0;
    while index < words.len() {
        let Ok(mv) = game.position().parse_move(words[index]) else {
            break;
        };
        let switch = words.get(index + 1) == Some(&"switch");
        let san = san::format(game.position(), mv);
        if game.apply(Action { mv, switch }).is_err() {
            break;
        }
        moves.push(PvMove {
            uci: mv.to_string(),
            san,
            switch,
        });
        index += if switch { 2 } else { 1 };
    }
    moves
}

/// Moves from `start` numbered as in PGN, `{switch}` after each switch.
pub fn pv_text(start: &Position, moves: &[PvMove]) -> String {
    let mut tokens = Vec::new();
    let mut number = start.fullmove_number();
    let mut color = start.side_to_move();
    let mut needs_number = true;
    for mv in moves {
        match color {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if needs_number => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(mv.san.clone());
        needs_number = mv.switch;
        if mv.switch {
            tokens.push("{switch}".to_string());
        }
        if color == Color::Black {
            number += 1;
        }
        color = !color;
    }
    tokens.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use catena_core::game::Rules;

    #[test]
    fn reads_a_line_with_a_switch() {
        let mut game = GameState::new(Position::startpos(), Rules::default());
        game.apply_uci_moves(&["c2c3", "e7e5"]).unwrap();
        let line = read(
            "info depth 7 seldepth 9 multipv 2 score cp 45 nodes 1000 nps 5000 time 200 pv d2d3 switch g8f6 e2e4",
            &game,
        )
        .unwrap();
        assert_eq!(line.multipv, 2);
        assert_eq!(line.depth, 7);
        assert_eq!(line.white_cp, Some(45));
        assert_eq!(line.text, "2. d3 {switch} 2... Nf6 3. e4");
        assert!(line.pv[0].switch);
        // A move that is not legal ends the line; a score-less info is no line.
        let cut = read("info depth 2 score mate -3 pv d2d3 e2e5", &game).unwrap();
        assert_eq!(cut.white_mate, Some(-3));
        assert_eq!(cut.pv.len(), 1);
        assert!(read("info depth 3 currmove e2e4 currmovenumber 1", &game).is_none());
        assert!(read("info string score cp 3", &game).is_none());
    }
}
