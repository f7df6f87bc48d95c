//! The cost of the engine's chain check on positions from games, after every
//! move, beside the cost of generating the same positions' legal moves and of
//! the paper's criterion. `cargo bench --bench chain` prints one table.

use std::hint::black_box;
use std::time::Instant;

use catena::board::{Bitboard, Position};
use catena::chain::{self, Cell, Grid, paper};

/// Positions after every move of pseudo-random games: each move is taken from
/// the legal ones, preferring quiet pawn and minor-piece moves early on as
/// real openings do, so pockets form as they do in play.
fn game_positions(games: u64, plies: usize) -> Vec<(Position, Bitboard)> {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut position = Position::startpos();
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[random() as usize % moves.len()];
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
