//! The puzzle trainer's puzzles: `perft/puzzles.epd` (docs/rules.md,
//! section 8), built into the binary and read once with the reader of
//! `catena puzzles`. The page plays them; the server only lists them.

use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::tools::puzzles::read_puzzle;

const FILE: &str = include_str!("../../perft/puzzles.epd");

/// Every puzzle as the page takes it: `id`, `fen`, `rule`, `min_enclosed`,
/// `plies` (D, the attacker's shortest win) and `line`, the solver's
/// actions in UCI, each with ` switch` after it where the player switches.
pub fn all() -> &'static Value {
    static PUZZLES: OnceLock<Value> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        let puzzles: Vec<Value> = FILE
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .filter_map(|line| match read_puzzle(line) {
                Ok((puzzle, rules)) => Some(json!({
                    "id": id_of(line),
                    "fen": puzzle.fen,
                    "rule": rules.switch_rule.name(),
                    "min_enclosed": rules.min_enclosed,
                    "plies": puzzle.plies,
                    "line": puzzle.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })),
                Err(why) => {
                    log::warn!("a puzzle of perft/puzzles.epd cannot be read: {why}: {line}");
                    None
                }
            })
            .collect();
        json!({ "puzzles": puzzles })
    })
}

/// The `id "…"` of an EPD line, or empty.
fn id_of(line: &str) -> String {
    line.split(';')
        .map(str::trim)
        .find_map(|field| field.strip_prefix("id "))
        .map_or_else(String::new, |id| id.trim_matches('"').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_puzzle_with_its_id() {
        let puzzles = all()["puzzles"].as_array().unwrap();
        let lines = FILE
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .count();
        assert_eq!(puzzles.len(), lines);
        assert_eq!(puzzles[0]["id"], "chain-1-1-28");
        assert_eq!(
            puzzles[0]["line"],
            json!(["f4d5 switch", "e5d4 switch", "d5f6"])
        );
    }
}
