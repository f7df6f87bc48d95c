//! `catena datagen`: training positions from Catena's own SSCC self-play.
//!
//! Each game starts from the initial position and a few random plies
//! (seeded), then Catena plays both players at a fixed number of nodes a
//! move, one thread, a fresh table each game, so that a rerun writes the
//! same lines. The positions kept are the quiet ones, as for the chess data
//! (`tests/data/make_training_set.py`): the side to move not in check, the
//! action chosen neither a capture, a promotion nor a switch, the score not a
//! mate. A line is
//!
//! `<fen> | <result> | <score> | <switches> <spent>`
//!
//! where the result (1, 0.5, 0) is that of the player controlling White at
//! that moment (docs/rules.md, section 3: results go by player, and a switch hands
//! White to the other player), the score Catena's from White's view, and the
//! last field the switch run of the side to move: switches made in a row
//! before this move, and 1 when the run's limit allows no more.

use catena_core::game::Action;
use catena_core::game::Variant;
use catena_engine::score::MATE_BOUND;
use catena_engine::thread::{Control, Limits, Root};
use catena_engine::threadpool;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::cli::{Failure, FailureKind, RulesArgs};
use crate::tools::progress::Progress;
use catena_core::board::{Color, Position};
use catena_core::game::{GameState, Rules};
use catena_core::rng::SplitMix64;
use catena_engine::movepick::is_tactical;
use catena_engine::transposition::TranspositionTable;

#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Where to write the positions (appended to, a game at a time).
    out: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the random opening plies; game `i` uses `seed` and `i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes a move.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Random plies before Catena plays.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    #[command(flatten)]
    rules: RulesArgs,
    /// Plies after which a game is given up as a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
}

/// Games played between two writes to the file.
const CHUNK: u64 = 64;

/// Runs the command: a file that cannot be opened is bad input, a write
/// that fails a failure at run time.
pub fn run(args: &DatagenArgs) -> Result<bool, Failure> {
    let rules = args.rules.rules();
    let file = File::options()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|error| format!("cannot open {}: {error}", args.out.display()))
        .or_usage()?;
    let mut out = BufWriter::new(file);
    let start = Instant::now();
    let progress = Progress::new(args.games, "games");
    let mut lines = 0usize;
    let mut first = 0;
    while first < args.games {
        let last = (first + CHUNK).min(args.games);
        let games: Vec<Vec<String>> = (first..last)
            .into_par_iter()
            .map(|index| play_game(args, rules, index))
            .collect();
        for game in games {
            lines += game.len();
            for line in game {
                writeln!(out, "{line}")
                    .map_err(|error| error.to_string())
                    .or_runtime()?;
            }
            progress.advance(format!("{lines} positions"));
        }
        out.flush()
            .map_err(|error| error.to_string())
            .or_runtime()?;
        first = last;
    }
    drop(progress);
    eprintln!(
        "{} games, {lines} positions, {:.0} s",
        args.games,
        start.elapsed().as_secs_f64()
    );
    Ok(true)
}

/// One self-play game: its kept positions as lines, results filled in at the end.
fn play_game(args: &DatagenArgs, rules: Rules, index: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
    let mut game = GameState::new(Position::startpos(), rules);
    for _ in 0..args.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return Vec::new();
        }
        let mv = moves[rng.below(moves.len())];
        game.apply(Action::stay(mv)).expect("a legal move");
    }
    let variant = Variant::Sscc(rules);
    let tt = Arc::new(TranspositionTable::new(16));
    let mut histories = Vec::new();
    let limits = Limits {
        nodes: Some(args.nodes),
        threads: 1,
        multipv: 1,
        ..Limits::default()
    };
    // (fen, score from White's view, run, the colour to move) of each kept position.
    let mut kept = Vec::new();
    while game.outcome().is_none() && game.plies().len() < args.max_plies {
        let root = Root::of_game(&game, variant);
        let result = threadpool::search(
            &root,
            &limits,
            &tt,
            &mut histories,
            &Control::default(),
            Instant::now(),
            &mut |_| {},
        );
        let Some(action) = result.best else {
            break;
        };
        let position = game.position();
        if !position.in_check()
            && !action.switch
            && !is_tactical(position, action.mv)
            && result.score.abs() < MATE_BOUND
        {
            let us = position.side_to_move();
            let white_score = if us == Color::White {
                result.score
            } else {
                -result.score
            };
            let run = game.run();
            let spent = u8::from(!run.allows_switch());
            kept.push((
                position.to_fen(),
                white_score,
                format!("{} {spent}", run.switches()),
                game.controller(Color::White),
            ));
        }
        game.apply(action).expect("the search plays legal actions");
    }
    let final_score = |player| game.score_of(player).unwrap_or(0.5);
    kept.into_iter()
        .map(|(fen, score, run, white_player)| {
            format!("{fen} | {} | {score} | {run}", final_score(white_player))
        })
        .collect()
}
