//! `cargo bench --bench chain [board|grids]`:
//! * `board`: the cost of the engine's chain check on positions from games,
//!   after every move, beside the cost of generating the same positions'
//!   legal moves and of the paper's criterion;
//! * `grids`: the verdict on large grids (mazes with one far pocket, and
//!   fortresses), sequential and parallel.
//!
//! Without an argument, both.

use std::hint::black_box;
use std::time::Instant;

use catena::board::{Bitboard, Position};
use catena::chain::{self, Cell, Grid, Parallelism, paper};
use catena::rng::SplitMix64;

#[path = "../tests/common/mod.rs"]
mod common;

use common::large_grids::{fortress, maze};

/// Positions after every move of pseudo-random games: each move is taken from
/// the legal ones, preferring quiet pawn and minor-piece moves early on as
/// real openings do, so pockets form as they do in play.
fn game_positions(games: u64, plies: usize) -> Vec<(Position, Bitboard)> {
    let mut random = SplitMix64::new(0x2545_f491_4f6c_dd1d);
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut position = Position::startpos();
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[random.below(moves.len())];
            let landing = position.landing_squares(mv);
            position = position.after(mv);
            positions.push((position.clone(), landing));
        }
    }
    positions
}

/// Nanoseconds per call of `work` over `items`, repeated `rounds` times.
fn mean_ns<T>(items: &[T], rounds: u32, mut work: impl FnMut(&T)) -> f64 {
    let start = Instant::now();
    for _ in 0..rounds {
        for item in items {
            work(item);
        }
    }
    start.elapsed().as_nanos() as f64 / (items.len() as f64 * f64::from(rounds))
}

/// Each item timed on its own (best of `repeats`), sorted: for percentiles.
fn each_ns<T>(items: &[T], repeats: u32, mut work: impl FnMut(&T)) -> Vec<f64> {
    let mut times: Vec<f64> = items
        .iter()
        .map(|item| {
            (0..repeats)
                .map(|_| {
                    let start = Instant::now();
                    work(item);
                    start.elapsed().as_nanos() as f64
                })
                .fold(f64::MAX, f64::min)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn percentile(sorted: &[f64], fraction: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * fraction) as usize]
}

fn main() {
    let part = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    if part.as_deref() != Some("grids") {
        board();
    }
    if part.as_deref() != Some("board") {
        grids();
    }
}

/// The chess board: positions from games.
fn board() {
    catena::board::attacks::init();
    let positions = game_positions(400, 160);
    let past_rejection: Vec<&(Position, Bitboard)> = positions
        .iter()
        .filter(|(position, _)| chain::cuts_off_a_group(position.occupied(), 2))
        .collect();
    let forming: Vec<&(Position, Bitboard)> = positions
        .iter()
        .filter(|(position, landing)| chain::forms_chain(position.occupied(), *landing, 2))
        .collect();

    let movegen = mean_ns(&positions, 5, |(position, _)| {
        black_box(position.legal_moves());
    });
    let check = mean_ns(&positions, 5, |(position, landing)| {
        black_box(chain::forms_chain(position.occupied(), *landing, 2));
    });
    let hard = each_ns(&past_rejection, 5, |(position, landing)| {
        black_box(chain::forms_chain(position.occupied(), *landing, 2));
    });
    let sizes = each_ns(&forming, 3, |(position, landing)| {
        black_box(chain::chain_size(position.occupied(), *landing, 2));
    });
    let grids: Vec<(Grid, Cell)> = positions
        .iter()
        .map(|(position, landing)| {
            let piece = landing.first().expect("a move lands somewhere");
            (Grid::from_bitboard(position.occupied()), Cell::from(piece))
        })
        .collect();
    let paper = mean_ns(&grids, 1, |(grid, cell)| {
        black_box(paper::paper_criterion(grid, *cell));
    });

    println!(
        "positions from games: {} (after every move of 400 games)",
        positions.len()
    );
    println!("chains formed (MinEnclosed 2): {}", forming.len());
    println!("legal move generation, mean:        {movegen:8.0} ns");
    println!("engine chain check, mean:           {check:8.0} ns");
    println!("paper's criterion, mean:            {paper:8.0} ns");
    println!(
        "past the cheap rejection ({} positions): median {:.0} ns, p99 {:.0} ns, max {:.0} ns",
        hard.len(),
        percentile(&hard, 0.5),
        percentile(&hard, 0.99),
        percentile(&hard, 1.0)
    );
    if !sizes.is_empty() {
        println!(
            "chain size where a chain formed ({}): median {:.0} ns, p99 {:.0} ns, max {:.0} ns",
            sizes.len(),
            percentile(&sizes, 0.5),
            percentile(&sizes, 0.99),
            percentile(&sizes, 1.0)
        );
    }
}

/// Microseconds per verdict, sequential and parallel:
/// the two alternate in rounds, and each keeps its best round, the one least
/// disturbed by other work on the machine.
fn sequential_and_parallel(grid: &Grid, piece: Cell, min_enclosed: u32) -> (f64, f64) {
    let calls = (400_000 / (grid.width() * grid.height())).clamp(4, 2000);
    let mut best = [f64::MAX; 2];
    for _round in 0..7 {
        for (way, parallelism) in [Parallelism::Sequential, Parallelism::Parallel]
            .into_iter()
            .enumerate()
        {
            let start = Instant::now();
            for _ in 0..calls {
                black_box(chain::grid_forms_chain_with(
                    grid,
                    &[piece],
                    min_enclosed,
                    parallelism,
                ));
            }
            let micros = start.elapsed().as_secs_f64() * 1e6 / calls as f64;
            best[way] = best[way].min(micros);
        }
    }
    (best[0], best[1])
}

/// Large grids: the verdict through a maze's seal (a chain), through a wall
/// far from its pocket (none), and through a fortress's centre, where the
/// corridor search floods everything inside the moat.
fn grids() {
    println!(
        "verdict on large grids, MinEnclosed 2, microseconds (sequential / parallel, best of 7 rounds)"
    );
    println!(
        "{:>7}  {:>22}  {:>22}  {:>22}",
        "grid", "maze, seal", "maze, far wall", "fortress, centre"
    );
    for side in [8, 16, 24, 32, 48, 64, 96, 128, 192, 255] {
        let mut line = format!("{:>7}", format!("{side}x{side}"));
        let mazes: Vec<_> = (0..4).map(|seed| maze(seed, side, side)).collect();
        for piece in [
            |m: &common::large_grids::Maze| m.seal,
            |m: &common::large_grids::Maze| m.far_wall,
        ] {
            let (mut sequential, mut parallel) = (0.0, 0.0);
            for maze in &mazes {
                let (s, p) = sequential_and_parallel(&maze.grid, piece(maze), 2);
                sequential += s / mazes.len() as f64;
                parallel += p / mazes.len() as f64;
            }
            line += &format!("  {sequential:>9.1} / {parallel:>9.1}");
        }
        let (grid, centre) = fortress(side, side);
        let (sequential, parallel) = sequential_and_parallel(&grid, centre, 2);
        line += &format!("  {sequential:>9.1} / {parallel:>9.1}");
        println!("{line}");
    }
}
