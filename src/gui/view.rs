//! The game as the page sees it: one JSON object with the board, the legal
//! moves per square, the chain of the last move, the run of switches, the
//! move list in SAN with its switches, who plays which army, and the clocks.

use catena_core::game::Action;
use catena_engine::book::{Book, Verdict};
use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::book::{AnalysisSettings, EngineBook};
use super::session::{DrawnChain, Session};
use catena_core::board::{Color, Position, san};
use catena_core::game::Player;
use catena_core::game::pgn::GameResult;

/// `White` or `Black`.
pub fn capitalized(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(crate) use crate::play::numbered;

pub fn chain_json(found: &DrawnChain) -> Value {
    json!({
        "loop": found.loop_squares,
        "enclosed": found.enclosed,
        "size": found.size,
    })
}

fn player_json(player: Player) -> &'static str {
    match player {
        Player::StartedWhite => "white",
        Player::StartedBlack => "black",
    }
}

/// One ply of the move list.
fn ply_json(index: usize, before: &Position, action: Action, chain: bool) -> Value {
    json!({
        "ply": index + 1,
        "number": before.fullmove_number(),
        "color": before.side_to_move().to_string(),
        "san": san::format(before, action.mv),
        "uci": action.mv.to_string(),
        "switched": action.switch,
        "chain": chain,
    })
}

/// What the built-in opening book proved of the position on the board, in
/// SSCC with no run in progress: a win for the player to move in N plies,
/// or no win within D.
fn theory_json(session: &Session) -> Value {
    let game = session.game();
    let Some(rules) = session.variant().rules() else {
        return Value::Null;
    };
    if game.run().switches() > 0 {
        return Value::Null;
    }
    let book = Book::built_in();
    let position = game.position();
    if let Some(record) = book.win(position, rules)
        && let Verdict::Win { plies, line } = &record.verdict
    {
        return json!({"win_in": plies, "first": line[0].to_string()});
    }
    book.no_win_within(position, rules)
        .map_or(Value::Null, |bound| json!({"none_within": bound}))
}

/// How the game ended: the result and Cute Chess's reason, how in a few
/// words (`by checkmate`, `on time`), and the winner as a player: the army
/// it held at the end, its name, and whether it is the person at the board.
fn ending_json(session: &Session, result: GameResult, why: String) -> Value {
    let winner = match result {
        GameResult::WhiteWins => Some(Color::White),
        GameResult::BlackWins => Some(Color::Black),
        GameResult::Draw | GameResult::Unfinished => None,
    };
    let opponent = session.opponent();
    json!({
        "result": result.as_str(),
        "reason": why,
        "how": session.ended_how(),
        "winner": winner.map(|army| json!({
            "army": army.to_string(),
            "name": session.controller_name(army),
            "you": opponent.engine.is_some() && session.game().controller(army) == opponent.human,
        })),
    })
}

pub fn state(session: &Session, analysis: &AnalysisSettings, book: &EngineBook) -> Value {
    let game = session.game();
    let position = game.position();
    let legal = session.legal_moves();
    let mut dests: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let moves: Vec<Value> = legal
        .iter()
        .map(|legal| {
            let mv = legal.mv;
            dests
                .entry(mv.from().to_string())
                .or_default()
                .push(mv.to().to_string());
            json!({
                "uci": mv.to_string(),
                "from": mv.from().to_string(),
                "to": mv.to().to_string(),
                "promotion": mv.promotion().map(|piece| piece.letter().to_ascii_lowercase().to_string()),
                "chain": legal.closes_chain,
                "switchable": legal.switchable,
            })
        })
        .collect();
    for targets in dests.values_mut() {
        targets.dedup();
    }
    let history: Vec<Value> = game
        .plies()
        .iter()
        .enumerate()
        .map(|(index, ply)| ply_json(index, ply.before(), ply.action(), ply.formed_chain))
        .collect();
    let mut future = Vec::new();
    let mut replay = game.clone();
    for &action in session.redo_moves().iter().rev() {
        let before = replay.position().clone();
        let chain = replay.forms_chain(action.mv);
        if replay.apply(action).is_err() {
            break;
        }
        future.push(ply_json(
            history.len() + future.len(),
            &before,
            action,
            chain,
        ));
    }
    let run = game.run();
    let last_move = game
        .plies()
        .last()
        .map(|ply| [ply.mv.from().to_string(), ply.mv.to().to_string()]);
    let opponent = session.opponent();
    let clocks = session.clock_left().map(|[white, black]| {
        json!({
            "white_ms": white.as_millis() as u64,
            "black_ms": black.as_millis() as u64,
            "running": (session.ending().is_none() && session.clocks_run())
                .then(|| position.side_to_move().to_string()),
        })
    });
    json!({
        "generation": session.generation(),
        "game": session.game_number(),
        "mode": session.variant().name(),
        "rules": {
            "switch_rule": game.rules().switch_rule.name(),
            "min_enclosed": game.rules().min_enclosed,
        },
        "fen": position.to_fen(),
        "start_fen": game.start().to_fen(),
        "turn": position.side_to_move().to_string(),
        "check": position.in_check(),
        "dests": dests,
        "moves": moves,
        "last_move": last_move,
        "last_chain": session.last_chain().as_ref().map(chain_json),
        "run": {
            "switches": run.switches(),
            "limit": run.limit(),
        },
        "theory": theory_json(session),
        "history": history,
        "future": future,
        "players": {
            "white": session.controller_name(Color::White),
            "black": session.controller_name(Color::Black),
        },
        "human": {
            "started": player_json(opponent.human),
            "now": session.human_color().to_string(),
        },
        "opponent": {
            "engine": opponent.engine,
            "human": player_json(opponent.human),
            "tc": opponent.control.to_string(),
        },
        "engine_to_move": session.engine_to_move(),
        "engine_failure": session.engine_failure(),
        "ending": session.ending().map(|(result, why)| ending_json(session, result, why)),
        "clocks": clocks,
        "analysis": {
            "on": analysis.on,
            "multipv": analysis.multipv,
            "engine": analysis.engine,
        },
        "engines": book.engines.iter().map(|spec| spec.name.as_str()).collect::<Vec<_>>(),
        "engine_list_problem": book.list_problem,
    })
}
