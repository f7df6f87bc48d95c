//! The puzzle trainer's puzzles: `perft/puzzles.epd` (docs/rules.md,
//! section 8), built into the binary and read once with the reader of
//! `catena puzzles`. The page plays them; the server lists them, and
//! refutes a wrong action with the solver.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use catena_core::board::{Color, san};
use catena_core::game::{GameState, Ply, Rules};
use catena_engine::solve::{Problem, refute_after};
use serde_json::{Value, json};

use crate::tools::puzzles::{Puzzle, read_puzzle};

const FILE: &str = include_str!("../../perft/puzzles.epd");

/// How long the solver may take over a wrong action's refutation.
const PATIENCE: Duration = Duration::from_secs(10);

/// The puzzles of the file that can be read, each with its id and rules.
fn read() -> &'static [(String, Puzzle, Rules)] {
    static PUZZLES: OnceLock<Vec<(String, Puzzle, Rules)>> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        FILE.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .filter_map(|line| match read_puzzle(line) {
                Ok((puzzle, rules)) => Some((id_of(line), puzzle, rules)),
                Err(why) => {
                    log::warn!("a puzzle of perft/puzzles.epd cannot be read: {why}: {line}");
                    None
                }
            })
            .collect()
    })
}

/// Every puzzle as the page takes it: `id`, `fen`, `rule`, `min_enclosed`,
/// `plies` (D, the attacker's shortest win) and `line`, the solver's
/// actions in UCI, each with ` switch` after it where the player switches.
pub fn all() -> &'static Value {
    static PUZZLES: OnceLock<Value> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        let puzzles: Vec<Value> = read()
            .iter()
            .map(|(id, puzzle, rules)| {
                json!({
                    "id": id,
                    "fen": puzzle.fen,
                    "rule": rules.switch_rule.name(),
                    "min_enclosed": rules.min_enclosed,
                    "plies": puzzle.plies,
                    "line": puzzle.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })
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

/// What the solver says of the puzzle `id` after the actions `after` (UCI,
/// ` switch` after a move that switches, as `catena solve --after` takes
/// them), the last of them the person's wrong one: whether the attacker
/// still wins within the plies of D left (`wins`), and if not, the
/// defender's answer that keeps it so (`reply`, with its SAN and the army
/// that plays it), when the defender is to move there. `settled` is false
/// when the solver ran out of time.
pub fn refutation(id: &str, after: &str) -> Result<Value, String> {
    let (_, puzzle, rules) = read()
        .iter()
        .find(|(known, _, _)| known == id)
        .ok_or_else(|| format!("there is no puzzle '{id}'"))?;
    let mut game = GameState::from_fen(&puzzle.fen, *rules).map_err(|error| error.to_string())?;
    let start = game.position().clone();
    let tokens: Vec<&str> = after.split_whitespace().collect();
    game.apply_uci_moves(&tokens)
        .map_err(|(index, token, error)| format!("'{token}' (word {}): {error}", index + 1))?;
    let path: Vec<_> = game.plies().iter().map(Ply::action).collect();
    if path.is_empty() || path.len() > puzzle.plies as usize {
        return Err(format!(
            "give from 1 to {} actions of the puzzle (its D)",
            puzzle.plies
        ));
    }
    let plies_left = puzzle.plies - path.len() as u32;
    let problem = Problem {
        rules: Some(*rules),
        attacker_switches: true,
    };
    let stop = AtomicBool::new(false);
    let (done, waiting) = channel::<()>();
    let found = std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            if waiting.recv_timeout(PATIENCE) == Err(RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let found = refute_after(&start, &path, problem, plies_left, stop);
        drop(done);
        found
    })
    .map_err(|error| format!("action {}: {}", error.index + 1, error.reason))?;
    let position = game.position();
    let to_move: Color = position.side_to_move();
    let Some(found) = found else {
        return Ok(json!({ "id": id, "plies_left": plies_left, "settled": false }));
    };
    let reply = found.reply.map(|action| {
        json!({
            "uci": action.mv.to_string(),
            "from": action.mv.from().to_string(),
            "to": action.mv.to().to_string(),
            "san": san::format(position, action.mv),
            "switch": action.switch,
            "army": to_move.to_string(),
        })
    });
    Ok(json!({
        "id": id,
        "plies_left": plies_left,
        "settled": true,
        "wins": found.wins,
        "over": found.over,
        "attacker_to_move": found.attacker_to_move,
        "to_move": to_move.to_string(),
        "reply": reply,
    }))
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

    /// A wrong first action of chain-1-1-28 (D 3) is refuted by a reply of
    /// the defender's after which the solver finds no win in the one ply
    /// left; the solution's first action still wins; nonsense is refused.
    #[test]
    fn refutes_a_wrong_action_with_the_solver() {
        let answer = refutation("chain-1-1-28", "f4d5").unwrap();
        assert_eq!(answer["settled"], true, "{answer}");
        assert_eq!(answer["wins"], false, "{answer}");
        assert_eq!(answer["attacker_to_move"], false, "{answer}");
        assert_eq!(answer["plies_left"], 2);
        assert_eq!(answer["to_move"], "black");
        let reply = answer["reply"]["uci"].as_str().unwrap();
        let after = format!("f4d5 {reply}");
        let (_, puzzle, rules) = read().iter().find(|(id, ..)| id == "chain-1-1-28").unwrap();
        let mut game = GameState::from_fen(&puzzle.fen, *rules).unwrap();
        let tokens: Vec<&str> = after.split_whitespace().collect();
        game.apply_uci_moves(&tokens).unwrap();
        let path: Vec<_> = game.plies().iter().map(Ply::action).collect();
        let problem = Problem {
            rules: Some(*rules),
            attacker_switches: true,
        };
        let start = catena_core::board::Position::from_fen(&puzzle.fen).unwrap();
        let solved = catena_engine::solve::solve_after(&start, &path, problem, 1, 1).unwrap();
        assert_eq!(solved.win, None, "after {after}");

        let right = refutation("chain-1-1-28", "f4d5 switch").unwrap();
        assert_eq!(right["wins"], true, "{right}");
        assert_eq!(right["reply"], Value::Null, "{right}");

        assert!(refutation("no-such-puzzle", "f4d5").is_err());
        assert!(refutation("chain-1-1-28", "").is_err());
        assert!(refutation("chain-1-1-28", "f4d5 e7e5 e2e4 d2d3").is_err());
    }
}
