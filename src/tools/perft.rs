//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::epd::parse_suite;
use crate::board::{Move, Position};

/// Deeper than any perft anyone waits for; keeps depths sane on the command line.
pub const MAX_DEPTH: u32 = 15;

/// Leaves of the legal move tree `depth` plies deep; the last ply is counted, not played.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves() as u64,
        _ => {
            let mut nodes = 0;
            position.generate_moves(|piece_moves| {
                for mv in piece_moves {
                    nodes += perft(&position.after(mv), depth - 1);
                }
                false
            });
            nodes
        }
    }
}

/// Perft of each root move, in move-generation order, over `threads` threads.
pub fn divide(position: &Position, depth: u32, threads: usize) -> Result<Vec<(Move, u64)>, String> {
    let moves = position.legal_moves();
    let count = |&mv: &Move| (mv, perft(&position.after(mv), depth - 1));
    if threads <= 1 {
        return Ok(moves.iter().map(count).collect());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| format!("cannot start {threads} threads: {error}"))?;
    Ok(pool.install(|| moves.par_iter().map(count).collect()))
}

/// The closing line of every perft run: `nodes <N> time <ms> nps <nps>`.
pub fn summary_line(nodes: u64, elapsed: Duration) -> String {
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    format!("nodes {nodes} time {} nps {nps}", elapsed.as_millis())
}

#[derive(clap::Args, Debug)]
#[command(
    about = "Count the leaves of the move tree",
    long_about = "Count the leaves of the legal move tree to DEPTH plies, or check every count of an EPD suite \
                  (lines `<fen> ;D1 <n> ;D2 <n> …`).",
    arg_required_else_help = true
)]
pub struct PerftArgs {
    /// Plies to count (1 to 15).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64), required_unless_present = "suite", conflicts_with = "suite")]
    depth: Option<u32>,
    /// The position to start from (default: the start position).
    #[arg(long, conflicts_with = "suite")]
    fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long, conflicts_with = "suite")]
    divide: bool,
    /// Check every count of an EPD suite file; exit non-zero on any mismatch.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// With --suite, skip counts deeper than this.
    #[arg(long, requires = "suite", value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    max_depth: Option<u32>,
    /// Threads that share the root moves.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
}

/// Runs `catena perft`; `Ok(false)` means a suite had mismatches.
pub fn run(args: &PerftArgs) -> Result<bool, String> {
    match (&args.suite, args.depth) {
        (Some(file), _) => run_suite(
            file,
            args.max_depth.unwrap_or(MAX_DEPTH),
            args.threads.into(),
        ),
        (None, Some(depth)) => {
            let position = match &args.fen {
                Some(fen) => {
                    Position::from_fen(fen).map_err(|error| format!("bad FEN: {error}"))?
                }
                None => Position::startpos(),
            };
            let start = Instant::now();
            let counts = divide(&position, depth, args.threads.into())?;
            let elapsed = start.elapsed();
            if args.divide {
                for (mv, nodes) in &counts {
                    println!("{mv}: {nodes}");
                }
                println!();
            }
            let nodes = if depth == 0 {
                1
            } else {
                counts.iter().map(|(_, nodes)| nodes).sum()
            };
            println!("{}", summary_line(nodes, elapsed));
            Ok(true)
        }
        (None, None) => Err("give a DEPTH or --suite FILE".to_string()),
    }
}

fn run_suite(file: &PathBuf, max_depth: u32, threads: usize) -> Result<bool, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
    let lines = parse_suite(&text);
    if lines.is_empty() {
        return Err(format!("{} holds no positions", file.display()));
    }
    let start = Instant::now();
    let (mut total_nodes, mut mismatches, mut checked) = (0u64, 0usize, 0usize);
    for line in &lines {
        let position = Position::from_fen(&line.fen)
            .map_err(|error| format!("line {}: bad FEN: {error}", line.number))?;
        let mut verdicts = Vec::new();
        for (opcode, operand) in &line.operations {
            let Some(depth) = opcode
                .strip_prefix('D')
                .and_then(|depth| depth.parse::<u32>().ok())
            else {
                continue;
            };
            if depth > max_depth || depth == 0 {
                continue;
            }
            let expected: u64 = operand.parse().map_err(|_| {
                format!(
                    "line {}: count '{operand}' for {opcode} is not a number",
                    line.number
                )
            })?;
            let counted: u64 = divide(&position, depth, threads)?
                .iter()
                .map(|(_, nodes)| nodes)
                .sum();
            total_nodes += counted;
            checked += 1;
            if counted == expected {
                verdicts.push(format!("D{depth} ok"));
            } else {
                mismatches += 1;
                verdicts.push(format!(
                    "D{depth} MISMATCH expected {expected} counted {counted}"
                ));
            }
        }
        println!("{} {} {}", line.number, line.fen, verdicts.join(" "));
    }
    println!(
        "{} positions, {checked} counts, {mismatches} mismatches, {}",
        lines.len(),
        summary_line(total_nodes, start.elapsed())
    );
    Ok(mismatches == 0)
}
