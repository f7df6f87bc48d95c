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
//!
//! With `--probe-nodes N` each line has a fifth field, `<handing> <moves>`:
//! of the side to move's `moves` legal moves, how many, played to end the
//! turn, leave the opponent a run that mates (`runs::RunMates`, up to
//! [`PROBE_SWITCHES`] switches, at most N positions searched a move): the
//! probe, too dear for the search, is cheap enough here, and `catena train
//! --probe-weight` reads it as a label (docs/network.md says what it is
//! worth).
//!
//! With `--proofs FILE...` no game is played: the positions of the proven
//! lines in the files (the wins of `catena book`'s books, the puzzles of
//! `perft/puzzles.epd`) are written instead, each labelled by the proof,
//! a win for the attacker: the result that of the player controlling
//! White, and the score [`PROVEN_SCORE`] for that player. Positions in
//! check are left out (the evaluation never sees them), and each position
//! with its run once.

use catena_core::game::Action;
use catena_core::game::Variant;
use catena_engine::score::MATE_BOUND;
use catena_engine::thread::{Control, Limits, Root};
use catena_engine::threadpool;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::cli::{Failure, FailureKind, RulesArgs};
use crate::tools::progress::Progress;
use crate::tools::puzzles::{Puzzle, read_puzzle};
use catena_core::board::{Color, Position};
use catena_core::game::{GameState, Rules, SwitchRun};
use catena_core::rng::SplitMix64;
use catena_engine::movepick::is_tactical;
use catena_engine::runs::RunMates;
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
    /// Probe every legal move of each kept position for a run that mates it
    /// hands the opponent, searching at most this many positions a move, and
    /// write the count as a fifth field (0: no probe, four fields).
    #[arg(long, default_value_t = 0)]
    probe_nodes: u32,
    /// Instead of playing games, write the positions of the proven lines in
    /// these books or puzzle files, labelled by the proofs.
    #[arg(long, num_args = 1..)]
    proofs: Vec<PathBuf>,
}

/// The score written for a proven win: its expectation, logistic(score /
/// 400) in `catena train`, is 1 to within 1e-10.
pub const PROVEN_SCORE: i32 = 10_000;

/// The longest run the hand-over probe looks for, in switches.
pub const PROBE_SWITCHES: u32 = 8;

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
    if !args.proofs.is_empty() {
        return write_proofs(args, rules, &mut out);
    }
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
    let mut probe = RunMates::default();
    // (fen, score from White's view, run and probe fields, the colour to move) of each kept position.
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
            let mut fields = run_field(game.run());
            if args.probe_nodes > 0 {
                let (handing, moves) = handing_over(&root, &rules, &mut probe, args.probe_nodes);
                fields += &format!(" | {handing} {moves}");
            }
            kept.push((
                position.to_fen(),
                white_score,
                fields,
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

/// The run of the side to move as a line writes it: switches made in a row,
/// and 1 when the run's limit allows no more.
fn run_field(run: SwitchRun) -> String {
    format!("{} {}", run.switches(), u8::from(!run.allows_switch()))
}

/// How many of the legal moves of `root`'s position, each ending the turn,
/// leave the opponent a run that mates as far as `nodes` positions a move
/// show, and how many legal moves there are.
fn handing_over(root: &Root, rules: &Rules, probe: &mut RunMates, nodes: u32) -> (usize, usize) {
    let position = &root.position;
    let mut keys = root.history.clone();
    keys.push(position.key());
    let moves = position.legal_moves();
    let handing = moves
        .iter()
        .filter(|&&mv| {
            probe
                .refutation(position, mv, rules, PROBE_SWITCHES, nodes, &mut keys)
                .is_some()
        })
        .count();
    (handing, moves.len())
}

/// `--proofs`: every position of every proven line under `rules` in the
/// files, once, as a training line labelled by the proof.
fn write_proofs(args: &DatagenArgs, rules: Rules, out: &mut impl Write) -> Result<bool, Failure> {
    let mut seen = HashSet::new();
    let (mut lines, mut proofs) = (0, 0);
    for path in &args.proofs {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))
            .or_usage()?;
        for (number, line) in text.lines().enumerate() {
            // Comments, and the books' records of positions without a win.
            if line.trim_start().starts_with('#') || !line.contains(" pv ") {
                continue;
            }
            let written_lines = read_puzzle(line)
                .and_then(|(puzzle, line_rules)| {
                    (line_rules == rules)
                        .then(|| proof_lines(&puzzle, rules))
                        .transpose()
                })
                .map_err(|error| format!("{}:{}: {error}", path.display(), number + 1))
                .or_usage()?;
            // A line under other rules.
            let Some(written_lines) = written_lines else {
                continue;
            };
            proofs += 1;
            for written in written_lines {
                if seen.insert(written.clone()) {
                    lines += 1;
                    writeln!(out, "{written}")
                        .map_err(|error| error.to_string())
                        .or_runtime()?;
                }
            }
        }
    }
    out.flush()
        .map_err(|error| error.to_string())
        .or_runtime()?;
    eprintln!("{proofs} proven lines, {lines} positions");
    Ok(true)
}

/// The training lines of one proven line: each position before an action,
/// not in check, with its run, won by the player who moves first.
fn proof_lines(puzzle: &Puzzle, rules: Rules) -> Result<Vec<String>, String> {
    let mut game = GameState::from_fen(&puzzle.fen, rules).map_err(|error| error.to_string())?;
    let attacker = game.controller(game.position().side_to_move());
    let mut lines = Vec::new();
    for &action in &puzzle.line {
        let position = game.position();
        if !position.in_check() {
            let white = game.controller(Color::White);
            let (result, score) = if white == attacker {
                (1, PROVEN_SCORE)
            } else {
                (0, -PROVEN_SCORE)
            };
            lines.push(format!(
                "{} | {result} | {score} | {}",
                position.to_fen(),
                run_field(game.run())
            ));
        }
        game.apply(action)
            .map_err(|error| format!("the pv's {action}: {error}"))?;
    }
    Ok(lines)
}
