//! The chain check's cost, under criterion (`cargo bench --bench chain`,
//! then `-- --save-baseline NAME` and `-- --baseline NAME` to compare):
//! * `board`: positions after every move of pseudo-random games, each group a
//!   pass over a set of positions (criterion's throughput is per position):
//!   the engine's chain check beside legal move generation and the paper's
//!   criterion, the check on the positions past its cheap rejection, and the
//!   chain size where a chain formed;
//! * `grid_*`: the verdict on large grids (mazes with one far pocket, through
//!   the seal and through a far wall, and fortresses through their centre),
//!   sequential and parallel, 8x8 to 255x255.
//!
//! A filter picks a part: `cargo bench --bench chain -- board` or `-- grid`.
//! Samples are few and short, so that the whole run takes about two minutes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use catena_core::board::{Bitboard, Position};
use catena_core::chain::{self, Cell, Grid, Parallelism};
use catena_core::rng::SplitMix64;

#[path = "../tests/it/common/mod.rs"]
mod common;

use common::large_grids::{Maze, fortress, maze};
use common::paper;

/// Positions after every move of pseudo-random games, with the squares the
/// move landed on: moves drawn uniformly from the legal ones.
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

fn forms_chain((position, landing): &(Position, Bitboard)) -> bool {
    chain::forms_chain(position.occupied(), *landing, 2)
}

/// The chess board: one pass over the positions of 100 games per iteration.
fn board(c: &mut Criterion) {
    let positions = game_positions(100, 160);
    let past_rejection: Vec<_> = positions
        .iter()
        .filter(|(position, _)| chain::cuts_off_a_group(position.occupied(), 2))
        .cloned()
        .collect();
    let forming: Vec<_> = positions
        .iter()
        .filter(|p| forms_chain(p))
        .cloned()
        .collect();
    let grids: Vec<(Grid, Cell)> = positions
        .iter()
        .map(|(position, landing)| {
            let piece = landing.first().expect("a move lands somewhere");
            (Grid::from_bitboard(position.occupied()), Cell::from(piece))
        })
        .collect();
    println!(
        "board: {} positions from 100 games, {} past the cheap rejection, {} forming a chain",
        positions.len(),
        past_rejection.len(),
        forming.len()
    );

    let mut group = c.benchmark_group("board");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            for (position, _) in &positions {
                black_box(position.legal_moves());
            }
        })
    });
    group.bench_function("forms_chain", |b| {
        b.iter(|| {
            for position in &positions {
                black_box(forms_chain(black_box(position)));
            }
        })
    });
    group.bench_function("paper_criterion", |b| {
        b.iter(|| {
            for (grid, cell) in &grids {
                black_box(paper::paper_criterion(grid, *cell));
            }
        })
    });
    group.throughput(Throughput::Elements(past_rejection.len() as u64));
    group.bench_function("forms_chain_past_rejection", |b| {
        b.iter(|| {
            for position in &past_rejection {
                black_box(forms_chain(black_box(position)));
            }
        })
    });
    group.throughput(Throughput::Elements(forming.len() as u64));
    group.bench_function("chain_size_where_formed", |b| {
        b.iter(|| {
            for (position, landing) in &forming {
                black_box(chain::chain_size(position.occupied(), *landing, 2));
            }
        })
    });
    group.finish();
}

const SIDES: [usize; 6] = [8, 16, 32, 64, 128, 255];

/// One group of large grids: the verdict at MinEnclosed 2 on each side's
/// cases (one iteration runs them all), sequential and parallel.
fn grid_group(c: &mut Criterion, name: &str, cases: impl Fn(usize) -> Vec<(Grid, Cell)>) {
    let mut group = c.benchmark_group(name);
    for side in SIDES {
        let cases = cases(side);
        group.throughput(Throughput::Elements(cases.len() as u64));
        for parallelism in [Parallelism::Sequential, Parallelism::Parallel] {
            let id = BenchmarkId::new(format!("{parallelism:?}").to_lowercase(), side);
            group.bench_with_input(id, &cases, |b, cases| {
                b.iter(|| {
                    for (grid, piece) in cases {
                        black_box(chain::grid_forms_chain_with(
                            grid,
                            &[*piece],
                            2,
                            parallelism,
                        ));
                    }
                })
            });
        }
    }
    group.finish();
}

/// Large grids: the verdict through a maze's seal (a chain), through a wall
/// far from its pocket (none), and through a fortress's centre, where the
/// corridor search floods everything inside the moat. Four mazes a side.
fn grids(c: &mut Criterion) {
    let mazes = |side, piece: fn(&Maze) -> Cell| {
        (0..4)
            .map(|seed| {
                let maze = maze(seed, side, side);
                let piece = piece(&maze);
                (maze.grid, piece)
            })
            .collect()
    };
    grid_group(c, "grid_maze_seal", |side| mazes(side, |m| m.seal));
    grid_group(c, "grid_maze_far_wall", |side| mazes(side, |m| m.far_wall));
    grid_group(c, "grid_fortress_centre", |side| vec![fortress(side, side)]);
}

/// Few short samples and a lighter analysis, without plots: on two busy
/// cores the analysis and the plots, not the measurements, took most of
/// the time.
fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .nresamples(10_000)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = quick();
    targets = board, grids
}
criterion_main!(benches);
