//! How SSCC games are lost: at the start of every turn of the games in a
//! PGN file, what the run probe (`crates/engine/src/runs.rs`) sees for the player to move.
//!
//! ```text
//! cargo run --release --example turn_threats -- GAMES.pgn [ENGINE]
//! ```
//!
//! A turn starts when a player receives the move with no run in progress.
//! For each, in this order:
//! - *win*: the player has a run that mates (up to 8 switches, 200,000
//!   positions searched); *taken* when the game ended with that player's
//!   mate in the same turn;
//! - *lost*: every move hands the opponent a run that mates (8 switches,
//!   50,000 positions a move), so only a switch can still save the player;
//! - *blunder*: the player's move of the turn (when it was a plain move, not
//!   a switch) handed the opponent such a run while another move did not.
//!
//! The rules are those of the games (the `SSCC` tag); a search out of
//! positions claims nothing, so every count is a lower bound. Given the name
//! of one of a match's engines (the `White` or `Black` tag), the turns are
//! counted apart: those the named engine played, and its opponents'.

use catena_core::game::{GameState, Player, pgn};
use catena_engine::runs::RunMates;

const SWITCHES: u32 = 8;
const OWN_NODES: u32 = 200_000;
const REPLY_NODES: u32 = 50_000;

#[derive(Default)]
struct Tally {
    turns: u32,
    wins: u32,
    taken: u32,
    lost: u32,
    lost_then_lost_game: u32,
    blunders: u32,
    blunders_then_lost_game: u32,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: turn_threats GAMES.pgn [ENGINE]");
        std::process::exit(2);
    };
    let engine = args.next();
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(problem) => {
            eprintln!("{path}: {problem}");
            std::process::exit(2);
        }
    };
    let records = match pgn::read_all(&text) {
        Ok(records) => records,
        Err(problem) => {
            eprintln!("{path}: {problem}");
            std::process::exit(2);
        }
    };
    // The named engine's turns, then its opponents'; all in the first
    // without a name.
    let mut tallies = [Tally::default(), Tally::default()];
    for record in &records {
        let named = match engine.as_deref() {
            None => None,
            Some(engine) if record.tag("White") == Some(engine) => Some(Player::StartedWhite),
            Some(engine) if record.tag("Black") == Some(engine) => Some(Player::StartedBlack),
            Some(engine) => {
                eprintln!("{path}: a game without {engine} as White or Black");
                std::process::exit(2);
            }
        };
        let side = |mover: Player| usize::from(named.is_some_and(|named| named != mover));
        tally_game(&record.game, &mut tallies, side);
    }
    println!("{} games", records.len());
    match &engine {
        None => report("all", &tallies[0]),
        Some(engine) => {
            report(engine, &tallies[0]);
            report("opponents", &tallies[1]);
        }
    }
}

fn report(label: &str, tally: &Tally) {
    let Tally {
        turns,
        wins,
        taken,
        lost,
        lost_then_lost_game,
        blunders,
        blunders_then_lost_game,
    } = tally;
    println!("{label}: {turns} turns");
    println!("  win: {wins} turns began with a run that mates; {taken} ended with it");
    println!(
        "  lost: in {lost} turns every move handed over a run that mates; {lost_then_lost_game} of those players lost the game"
    );
    println!(
        "  blunder: {blunders} moves handed over a run while a safe move existed; {blunders_then_lost_game} of those players lost the game"
    );
}

fn tally_game(game: &GameState, tallies: &mut [Tally; 2], side: impl Fn(Player) -> usize) {
    let rules = *game.rules();
    let winner: Option<Player> = game
        .outcome()
        .and_then(|outcome| outcome.winner)
        .map(|color| game.controller(color));
    let plies = game.plies();
    let mut replay = GameState::new(game.start().clone(), rules);
    for (index, ply) in plies.iter().enumerate() {
        if replay.run() == Default::default() {
            let position = replay.position().clone();
            let mover = replay.controller(position.side_to_move());
            let tally = &mut tallies[side(mover)];
            let loses = winner.is_some_and(|winner| winner != mover);
            let mut keys: Vec<u64> = replay.plies().iter().map(|p| p.before().key()).collect();
            let mut probe = RunMates::default();
            tally.turns += 1;
            let win = probe.first_action(
                &position,
                replay.run(),
                &rules,
                SWITCHES,
                OWN_NODES,
                &mut keys,
            );
            if win.is_some() {
                tally.wins += 1;
                // The turn's last ply is its first without a switch.
                let last = (index..plies.len()).find(|&i| !plies[i].switched);
                if last == Some(plies.len() - 1) && winner == Some(mover) {
                    tally.taken += 1;
                }
            } else {
                keys.push(position.key());
                let refuted: Vec<_> = position
                    .legal_moves()
                    .into_iter()
                    .map(|mv| {
                        let refuted = probe
                            .refutation(&position, mv, &rules, SWITCHES, REPLY_NODES, &mut keys)
                            .is_some();
                        (mv, refuted)
                    })
                    .collect();
                let safe = refuted.iter().any(|&(_, refuted)| !refuted);
                if !safe {
                    tally.lost += 1;
                    tally.lost_then_lost_game += u32::from(loses);
                }
                let played_refuted =
                    !ply.switched && refuted.iter().any(|&(mv, refuted)| mv == ply.mv && refuted);
                if played_refuted && safe {
                    tally.blunders += 1;
                    tally.blunders_then_lost_game += u32::from(loses);
                }
            }
        }
        replay
            .apply(ply.action())
            .expect("the games' moves are legal");
    }
}
