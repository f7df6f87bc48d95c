//! The chain method on grids too large for the oracle, against answers known
//! by construction (`tests/it/common/large_grids.rs`), forced sequential and
//! parallel. (The 5x5 fortress is the diamond that
//! `chain_oracle.rs` checks against the oracle; larger ones are beyond it.)

use crate::common::large_grids::{fortress, maze};
use catena_core::chain::{self, Cell, Grid, Parallelism};

/// The verdict on `grid`, sequential and parallel, which must agree.
fn verdict(grid: &Grid, moved: Cell, min_enclosed: u32) -> bool {
    let sequential =
        chain::grid_forms_chain_with(grid, &[moved], min_enclosed, Parallelism::Sequential);
    let parallel =
        chain::grid_forms_chain_with(grid, &[moved], min_enclosed, Parallelism::Parallel);
    assert_eq!(
        sequential,
        parallel,
        "{}x{} {moved:?} MinEnclosed {min_enclosed}: sequential and parallel disagree\n{grid}",
        grid.width(),
        grid.height()
    );
    sequential
}

fn empty_cells(grid: &Grid) -> u32 {
    grid.cells().filter(|&cell| !grid.is_occupied(cell)).count() as u32
}

/// A maze's only enclosed cells are its pocket, which the seal closed: a
/// chain through the seal takes it in whole, and nothing more.
#[test]
fn a_maze_pocket_is_a_chain_through_its_seal() {
    for size in [9, 16, 24, 32, 48, 64] {
        for seed in 0..4 {
            let maze = maze(seed, size, size + seed as usize % 3);
            let pocket = maze.pocket as u32;
            for min_enclosed in [1, 2, pocket, pocket + 1] {
                assert_eq!(
                    verdict(&maze.grid, maze.seal, min_enclosed),
                    min_enclosed <= pocket,
                    "maze(seed {seed}, {size}), pocket {pocket}, MinEnclosed {min_enclosed}\n{}",
                    maze.grid
                );
            }
            verdict(&maze.grid, maze.far_wall, 2);
        }
    }
    let maze = maze(0, 24, 24);
    let size = chain::grid_chain_size(&maze.grid, &[maze.seal], 2);
    assert_eq!(size, maze.pocket as u32);
}

/// A loop through a fortress's centre can take in all its moat but one cell,
/// never the whole moat.
#[test]
fn a_fortress_moat_is_never_taken_whole() {
    for size in [5, 6, 7, 8, 9, 11, 16] {
        let (grid, centre) = fortress(size, size);
        let moat = empty_cells(&grid);
        for min_enclosed in 1..=moat {
            assert_eq!(
                verdict(&grid, centre, min_enclosed),
                min_enclosed < moat,
                "fortress {size}, moat {moat}, MinEnclosed {min_enclosed}\n{grid}"
            );
        }
    }
    let (grid, centre) = fortress(32, 32);
    let moat = empty_cells(&grid);
    for min_enclosed in [2, moat - 1, moat] {
        assert_eq!(verdict(&grid, centre, min_enclosed), min_enclosed < moat);
    }
    let (grid, centre) = fortress(64, 64);
    assert!(verdict(&grid, centre, 2));
}
