//! `catena chain`: whether a move formed a chain, on a chess diagram or a
//! grid of any size, shown for people and for scripts.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::cli::{Failure, FailureKind, MinEnclosedArgs};

use super::epd::{EpdLine, parse_suite};
use super::progress::Progress;
use catena_core::board::{Bitboard, Placement};
use catena_core::chain::{self, Cell, Chain, Grid};
use catena_core::game::Rules;

#[derive(clap::Args, Debug)]
#[command(
    about = "Whether the piece(s) on CELL close a chain on BOARD, with its size and smallest loop",
    after_help = "BOARD: a FEN, of which only the placement is read (no kings needed), or a grid \
                  'WxH rows' such as '5x5 xxxxx/x...x/x.x.x/x...x/xxxxx' (top row first, '.' \
                  empty, any letter a piece; 1x1 to 255x255).\n\
                  CELL: a square such as c3 (files a to z, ranks from 1), or x,y counted from 0,0 \
                  at the bottom left.\n\
                  Suite lines: <board> ; moved <cell>[ <cell>] [; chain 0|1] [; size N] \
                  [; min-enclosed N]   (# starts a comment)"
)]
pub struct ChainArgs {
    /// The board after the move: a FEN or a `WxH` grid.
    #[arg(required_unless_present = "suite", conflicts_with = "suite")]
    board: Option<String>,
    /// The cell(s) the move put a piece on (two for castling: king and rook).
    #[arg(num_args = 1..=2, required_unless_present = "suite", conflicts_with = "suite")]
    cells: Vec<String>,
    #[command(flatten)]
    enclosed: MinEnclosedArgs,
    /// One JSON object: chain, size, smallest, enclosed.
    #[arg(long, conflicts_with = "suite")]
    json: bool,
    /// Check every line of a chain suite file.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
}

/// What `catena chain` reads: its occupancy as a grid, and for a chess
/// diagram the men, which are drawn as they are.
struct Board {
    grid: Grid,
    men: Option<Placement>,
}

impl Board {
    /// A grid when the first word names one (`WxH`), a FEN otherwise. Only
    /// the placement of a FEN is read: the chain rule knows only where men
    /// stand, so a diagram needs no kings and may hold any number of men.
    fn read(text: &str) -> Result<Board, String> {
        let first = text.split_whitespace().next().unwrap_or_default();
        let names_a_grid = first.split_once('x').is_some_and(|(width, height)| {
            [width, height]
                .iter()
                .all(|side| !side.is_empty() && side.bytes().all(|byte| byte.is_ascii_digit()))
        });
        if names_a_grid {
            let grid = Grid::parse(text).map_err(|error| format!("bad grid: {error}"))?;
            Ok(Board { grid, men: None })
        } else {
            let men = Placement::from_fen(text).map_err(|error| format!("bad FEN: {error}"))?;
            Ok(Board {
                grid: Grid::from_bitboard(men.occupied()),
                men: Some(men),
            })
        }
    }

    fn width(&self) -> usize {
        self.grid.width()
    }

    /// The cell called `name`: a square (`c3`) where the board is at most
    /// 26 files wide, or `x,y` on any board.
    fn cell(&self, name: &str) -> Result<Cell, String> {
        let grid = &self.grid;
        let cell = match name.split_once(',') {
            Some((x, y)) => x
                .trim()
                .parse()
                .ok()
                .zip(y.trim().parse().ok())
                .map(|(x, y)| Cell::new(x, y)),
            None => {
                let mut letters = name.chars();
                let file = letters.next().filter(char::is_ascii_lowercase);
                let rank: Option<usize> = letters.as_str().parse().ok().filter(|&rank| rank >= 1);
                file.zip(rank)
                    .filter(|_| self.width() <= 26)
                    .map(|(file, rank)| Cell::new(usize::from(file as u8 - b'a'), rank - 1))
            }
        }
        .ok_or_else(|| {
            format!("'{name}' is not a cell: name it as a square (a1) or as x,y from 0,0")
        })?;
        if !grid.contains(cell) {
            return Err(format!("{name} is off the {} board", grid.name()));
        }
        if !grid.is_occupied(cell) {
            return Err(format!(
                "{name} is empty: a chain passes through the piece that moved"
            ));
        }
        Ok(cell)
    }

    /// A cell's name as `cell` reads it: a square where the board allows.
    fn name(&self, cell: Cell) -> String {
        if self.width() <= 26 {
            format!("{}{}", char::from(b'a' + cell.x as u8), cell.y + 1)
        } else {
            format!("{},{}", cell.x, cell.y)
        }
    }

    /// The verdict and size of the chain rule, by the path the engine takes
    /// on a chess board (bitboards) and by the general one on a grid.
    fn verdict(&self, moved: &[Cell], min_enclosed: u32) -> (bool, u32) {
        match &self.men {
            Some(men) => {
                let landing: Bitboard = moved.iter().map(|&cell| chain::square_of(cell)).collect();
                (
                    chain::forms_chain(men.occupied(), landing, min_enclosed),
                    chain::chain_size(men.occupied(), landing, min_enclosed),
                )
            }
            None => (
                chain::grid_forms_chain(&self.grid, moved, min_enclosed),
                chain::grid_chain_size(&self.grid, moved, min_enclosed),
            ),
        }
    }

    fn moved<'a>(&self, names: impl Iterator<Item = &'a str>) -> Result<Vec<Cell>, String> {
        names.map(|name| self.cell(name)).collect()
    }
}

#[derive(Serialize)]
struct Report {
    chain: bool,
    size: u32,
    smallest: Vec<String>,
    enclosed: Vec<String>,
}

impl Report {
    fn of(board: &Board, found: Option<&Chain>) -> Report {
        let names = |cells: &[Cell]| cells.iter().map(|&cell| board.name(cell)).collect();
        Report {
            chain: found.is_some(),
            size: found.map_or(0, |chain| chain.size),
            smallest: found.map_or_else(Vec::new, |chain| names(&chain.smallest)),
            enclosed: found.map_or_else(Vec::new, |chain| names(&chain.enclosed)),
        }
    }
}

/// Runs the command; `Ok(false)` when a suite expectation failed.
pub fn run(args: &ChainArgs) -> Result<bool, Failure> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.enclosed.min_enclosed);
    }
    let board = Board::read(args.board.as_deref().unwrap_or_default()).or_usage()?;
    let moved = board
        .moved(args.cells.iter().map(String::as_str))
        .or_usage()?;
    let found = chain::analyse(&board.grid, &moved, args.enclosed.min_enclosed);
    let report = Report::of(&board, found.as_ref());
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

/// The board, then the verdict with the chain's size, pieces and squares.
fn describe(board: &Board, found: Option<&Chain>, report: &Report) -> String {
    let grid = &board.grid;
    let mut text = match &board.men {
        Some(men) => diagram(men, found),
        None => draw(grid.width(), grid.height(), found, |cell| {
            grid.is_occupied(cell).then_some('x')
        }),
    };
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
    draw(8, 8, found, |cell| {
        board
            .man_on(chain::square_of(cell))
            .map(|(piece, color)| piece.fen_letter(color))
    })
}

/// A board `width` cells wide, top row first, each cell `man`'s letter or
/// empty; the smallest chain's cells in brackets and the cells it surrounds
/// as `+`. Ranks are numbered on the left, files lettered below where there
/// are letters enough.
fn draw(
    width: usize,
    height: usize,
    found: Option<&Chain>,
    man: impl Fn(Cell) -> Option<char>,
) -> String {
    let on_loop = found.map_or(&[][..], |chain| &chain.smallest[..]);
    let inside = found.map_or(&[][..], |chain| &chain.enclosed[..]);
    let margin = height.to_string().len();
    let mut text = String::new();
    for y in (0..height).rev() {
        let _ = write!(text, "{:>margin$} ", y + 1);
        for x in 0..width {
            let cell = Cell::new(x, y);
            let symbol = match man(cell) {
                Some(letter) => letter,
                None if inside.contains(&cell) => '+',
                None => '.',
            };
            if on_loop.contains(&cell) {
                let _ = write!(text, "[{symbol}]");
            } else {
                let _ = write!(text, " {symbol} ");
            }
        }
        text.push('\n');
    }
    if width <= 26 {
        let files: String = (0..width)
            .map(|x| format!(" {} ", char::from(b'a' + x as u8)))
            .collect();
        let _ = writeln!(text, "{:margin$} {}", "", files.trim_end());
    }
    text
}

/// Checks a suite file; prints `<line> <0|1> <size>` a position and a summary.
fn run_suite(path: &PathBuf, min_enclosed: u32) -> Result<bool, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))
        .or_usage()?;
    let (mut positions, mut failures) = (0, 0);
    let lines = parse_suite(&text);
    let progress = Progress::new(lines.len() as u64, "positions");
    for line in lines {
        positions += 1;
        match check_line(&line, min_enclosed) {
            Ok((chain, size, problems)) => {
                let mark = if problems.is_empty() {
                    String::new()
                } else {
                    format!("  MISMATCH {}", problems.join(", "))
                };
                progress.println(&format!("{} {} {size}{mark}", line.number, chain as u8));
                failures += !problems.is_empty() as usize;
            }
            Err(message) => {
                progress.println(&format!("{} error: {message}", line.number));
                failures += 1;
            }
        }
        progress.advance(format!("{failures} failures"));
    }
    drop(progress);
    println!("{positions} positions, {failures} failures");
    Ok(failures == 0)
}

/// The verdict and size for one suite line, and every expectation it failed.
fn check_line(line: &EpdLine, default_min: u32) -> Result<(bool, u32, Vec<String>), String> {
    let board = Board::read(&line.fen)?;
    let moved_field = line
        .operand("moved")
        .ok_or("no 'moved' field naming the moved cell(s)")?;
    let moved = board.moved(moved_field.split_whitespace())?;
    let min_enclosed = match line.operand("min-enclosed") {
        Some(text) => text
            .parse()
            .ok()
            .filter(|n| Rules::MIN_ENCLOSED_RANGE.contains(n))
            .ok_or_else(|| format!("bad min-enclosed '{text}'"))?,
        None => default_min,
    };
    let (chain, size) = board.verdict(&moved, min_enclosed);
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
