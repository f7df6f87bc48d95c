//! The verdict on a large grid on two threads.
//!
//! On a large grid the verdict is a few linear passes: the cheap rejection
//! (does any group of empty cells lie cut off from the edge?), the blocks
//! through the moved piece, and the corridor search in each block. Only the
//! rejection and the rest answer different questions on the same occupancy,
//! so they can run at once, each on its own thread with its own workspace:
//! the verdict is that both hold, and the rest is exact without the rejection
//! (a chain encloses a group cut off from the edge). So whichever settles the
//! verdict first, the rejection by finding nothing cut off or the rest by
//! answering, raises a flag that stops the other's floods, and the answer
//! cut short is the one that leaves the verdict to the other. On a maze, where
//! the corridor search is never needed, the blocks answer while the rejection
//! is still flooding the corridors.

use std::sync::atomic::{AtomicBool, Ordering};

use super::workspace::{Workspace, with_grid};
use crate::chain::grid::Grid;

/// How to run the verdict on a grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// Race on grids of [`RACE_FROM_CELLS`] cells, and flood a block's
    /// corridors in bands when its bounding box holds
    /// [`PARALLEL_FROM_CELLS`] cells.
    Auto,
    /// Every pass in turn on the calling thread.
    Sequential,
    /// The race, and the corridor search in bands of rows, one per rayon thread.
    Parallel,
}

/// Grids of this many cells get the race under [`Parallelism::Auto`]: on two
/// cores it ties at 24x24 and wins from 32x32 on mazes and fortresses alike
/// (`cargo bench --bench chain -- grid`, docs/chains.md).
pub const RACE_FROM_CELLS: usize = 32 * 32;

/// Blocks whose bounding box holds this many cells get the corridor search in
/// bands under [`Parallelism::Auto`]: on two cores it breaks even at 48x48 and
/// wins from 64x64 (`cargo bench --bench chain -- grid`, docs/chains.md).
pub const PARALLEL_FROM_CELLS: usize = 64 * 64;

impl Parallelism {
    /// Whether the rejection races the rest on a grid of `cells` cells.
    pub(in crate::chain) fn races(self, cells: usize) -> bool {
        match self {
            Parallelism::Auto => cells >= RACE_FROM_CELLS,
            Parallelism::Sequential => false,
            Parallelism::Parallel => true,
        }
    }

    /// Whether the corridor search runs in bands in a window of `cells` cells.
    pub(in crate::chain) fn in_bands(self, cells: usize) -> bool {
        match self {
            Parallelism::Auto => cells >= PARALLEL_FROM_CELLS,
            Parallelism::Sequential => false,
            Parallelism::Parallel => true,
        }
    }
}

/// Whether `cut_off` (the rejection) and `surrounds` (the rest) both hold on
/// `grid`, run at once on the workspaces of two rayon threads. Each is cut
/// short by the flag it is given: `cut_off` must then answer true, leaving the
/// verdict to `surrounds`, whose answer is not needed once `cut_off` is false.
pub(in crate::chain) fn both(
    grid: &Grid,
    cut_off: impl Fn(&mut Workspace, &AtomicBool) -> bool + Sync,
    surrounds: impl Fn(&mut Workspace, &AtomicBool) -> bool + Sync,
) -> bool {
    let settled = AtomicBool::new(false);
    let (cut_off, surrounds) = rayon::join(
        || {
            let cut_off = with_grid(grid, |workspace| cut_off(workspace, &settled));
            if !cut_off {
                settled.store(true, Ordering::Relaxed);
            }
            cut_off
        },
        || {
            let surrounds = with_grid(grid, |workspace| surrounds(workspace, &settled));
            settled.store(true, Ordering::Relaxed);
            surrounds
        },
    );
    cut_off && surrounds
}
