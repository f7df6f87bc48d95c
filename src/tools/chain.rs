//! `catena chain`: whether a move formed a chain, shown for people and for scripts.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use super::epd::{EpdLine, parse_suite};
use crate::board::{Bitboard, Placement, Square};
use crate::chain::{self, Chain};
use crate::game::Rules;

#[derive(clap::Args, Debug)]
#[command(
    about = "Whether the piece(s) on SQUARE close a chain in FEN, with its size and smallest loop",
    after_help = "Suite lines: <fen> ; moved <sq>[ <sq>] [; chain 0|1] [; size N]   (# starts a comment)"
)]
pub struct ChainArgs {
    /// The position after the move.
    #[arg(required_unless_present = "suite", conflicts_with = "suite")]
    fen: Option<String>,
    /// The square(s) the move put a piece on (two for castling: king and rook).
    #[arg(num_args = 1..=2, required_unless_present = "suite", conflicts_with = "suite")]
    squares: Vec<String>,
    /// Smallest group of adjacent empty squares a chain must surround.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    min_enclosed: u32,
    /// One JSON object: chain, size, smallest, enclosed.
    #[arg(long, conflicts_with = "suite")]
    json: bool,
    /// Check every line of a chain suite file.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    chain: bool,
    size: u32,
    smallest: Vec<String>,
    enclosed: Vec<String>,
}

impl Report {
    fn of(found: Option<&Chain>) -> Report {
        let names = |cells: &[chain::Cell]| {
            cells
                .iter()
                .map(|&cell| chain::square_of(cell).to_string())
                .collect()
        };
        Report {
            chain: found.is_some(),
            size: found.map_or(0, |chain| chain.size),
            smallest: found.map_or_else(Vec::new, |chain| names(&chain.smallest)),
            enclosed: found.map_or_else(Vec::new, |chain| names(&chain.enclosed)),
        }
    }
}

/// Runs the command; `Ok(false)` when a suite expectation failed.
pub fn run(args: &ChainArgs) -> Result<bool, String> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.min_enclosed);
    }
    let fen = args.fen.as_deref().unwrap_or_default();
    let board = read_board(fen)?;
    let moved = moved_squares(&board, args.squares.iter().map(String::as_str))?;
    let found = chain::analyse_board(board.occupied(), moved, args.min_enclosed);
    let report = Report::of(found.as_ref());
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("a report always serializes")
        );
    } else {
        print!("{}", describe(&board, found.as_ref(), &report));
    }
    Ok(true)
}

/// The board of a FEN, of which only the placement is read: the chain rule
/// knows only where men stand, so a diagram needs no kings and may hold any
/// number of men.
fn read_board(fen: &str) -> Result<Placement, String> {
    Placement::from_fen(fen).map_err(|error| format!("bad FEN: {error}"))
}

/// The moved squares, each holding a piece.
fn moved_squares<'a>(
    board: &Placement,
    names: impl Iterator<Item = &'a str>,
) -> Result<Bitboard, String> {
    let mut moved = Bitboard::EMPTY;
    for name in names {
        let square: Square = name
            .parse()
            .map_err(|_| format!("'{name}' is not a square (a1 to h8)"))?;
        if !board.occupied().contains(square) {
            return Err(format!(
                "{square} is empty: a chain passes through the piece that moved"
            ));
        }
        moved |= square.bitboard();
    }
    Ok(moved)
}

/// The board, then the verdict with the chain's size, pieces and squares.
fn describe(board: &Placement, found: Option<&Chain>, report: &Report) -> String {
    let mut text = diagram(board, found);
    text.push('\n');
    let _ = writeln!(text, "chain: {}", if report.chain { "yes" } else { "no" });
    if report.chain {
        let _ = writeln!(text, "size: {}", report.size);
        let _ = writeln!(
            text,
            "smallest: {} ({} pieces)",
            report.smallest.join(" "),
            report.smallest.len()
        );
        let _ = writeln!(text, "enclosed: {}", report.enclosed.join(" "));
    }
    text
}

/// The board, White at the bottom, with the smallest chain's pieces in
/// brackets and the squares it surrounds as `+`.
pub fn diagram(board: &Placement, found: Option<&Chain>) -> String {
    let squares = |cells: &[chain::Cell]| -> Bitboard {
        cells.iter().map(|&cell| chain::square_of(cell)).collect()
    };
    let on_loop = found.map_or(Bitboard::EMPTY, |chain| squares(&chain.smallest));
    let inside = found.map_or(Bitboard::EMPTY, |chain| squares(&chain.enclosed));
    let mut text = String::new();
    for rank in (0..8).rev() {
        let _ = write!(text, "{} ", rank + 1);
        for file in 0..8 {
            let square = Square::new(file, rank);
            let symbol = match board.man_on(square) {
                Some((piece, color)) => piece.fen_letter(color),
                _ if inside.contains(square) => '+',
                _ => '.',
            };
            if on_loop.contains(square) {
                let _ = write!(text, "[{symbol}]");
            } else {
                let _ = write!(text, " {symbol} ");
            }
        }
        text.push('\n');
    }
    text.push_str("   a  b  c  d  e  f  g  h\n");
    text
}

/// Checks a suite file; prints `<line> <0|1> <size>` a position and a summary.
fn run_suite(path: &PathBuf, min_enclosed: u32) -> Result<bool, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let (mut positions, mut failures) = (0, 0);
    for line in parse_suite(&text) {
        positions += 1;
        match check_line(&line, min_enclosed) {
            Ok((chain, size, problems)) => {
                let mark = if problems.is_empty() {
                    String::new()
                } else {
                    format!("  MISMATCH {}", problems.join(", "))
                };
                println!("{} {} {size}{mark}", line.number, chain as u8);
                failures += !problems.is_empty() as usize;
            }
            Err(message) => {
                println!("{} error: {message}", line.number);
                failures += 1;
            }
        }
    }
    println!("{positions} positions, {failures} failures");
    Ok(failures == 0)
}

/// The verdict and size for one suite line, and every expectation it failed.
fn check_line(line: &EpdLine, default_min: u32) -> Result<(bool, u32, Vec<String>), String> {
    let board = read_board(&line.fen)?;
    let moved_field = line
        .operand("moved")
        .ok_or("no 'moved' field naming the moved square(s)")?;
    let moved = moved_squares(&board, moved_field.split_whitespace())?;
    let min_enclosed = match line.operand("min-enclosed") {
        Some(text) => text
            .parse()
            .ok()
            .filter(|n| Rules::MIN_ENCLOSED_RANGE.contains(n))
            .ok_or_else(|| format!("bad min-enclosed '{text}'"))?,
        None => default_min,
    };
    let chain = chain::forms_chain(board.occupied(), moved, min_enclosed);
    let size = chain::chain_size(board.occupied(), moved, min_enclosed);
    let mut problems = Vec::new();
    if let Some(expected) = line.operand("chain") {
        let expected = match expected {
            "0" => false,
            "1" => true,
            other => return Err(format!("'chain {other}' must be 0 or 1")),
        };
        if expected != chain {
            problems.push(format!("chain expected {}", expected as u8));
        }
    }
    if let Some(expected) = line.operand("size") {
        let expected: u32 = expected
            .parse()
            .map_err(|_| format!("'size {expected}' is not a number"))?;
        if expected != size {
            problems.push(format!("size expected {expected}"));
        }
    }
    Ok((chain, size, problems))
}
