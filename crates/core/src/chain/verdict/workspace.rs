//! The working arrays of the chain method, kept per thread and reused, so that
//! a call allocates nothing once the arrays have grown to the board.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use super::blocks_grid::Blocks;
use super::corridor::{Band, IN_BLOCK};
use crate::board::Bitboard;
use crate::chain::flood_grid::{self, Groups, NO_FACE};
use crate::chain::grid::{Cell, Grid};
use crate::chain::padded::{Index, Padded};

/// Flag in a drawing's `kind`: a piece, of whatever colour.
pub(in crate::chain) const PIECE: u8 = 1;

/// A board and the drawing of one block of its pieces.
#[derive(Default)]
pub(in crate::chain) struct Drawing {
    /// The whole padded board.
    pub layout: Padded,
    /// `PIECE` and `IN_BLOCK` flags per cell.
    pub kind: Vec<u8>,
    /// The face of the block's drawing each cell lies in (see [`crate::chain::flood_grid`]).
    pub face: Vec<u32>,
    /// The king-connected group of each enclosed empty cell, from 1.
    pub group: Vec<u32>,
    /// The groups' cells, see [`crate::chain::flood_grid::Groups`].
    pub groups: Groups,
    /// The faces of one group.
    pub chosen: Vec<u32>,
    /// Per face label: whether a corridor must avoid it.
    pub avoided: Vec<bool>,
    /// Working space of the floods.
    pub stack: Vec<Index>,
    /// The sequential corridor search's claims and stack.
    pub band: Band,
}

#[derive(Default)]
pub(in crate::chain) struct Workspace {
    pub drawing: Drawing,
    pub blocks: Blocks,
}

impl Drawing {
    /// Clears the arrays for a board of `layout`'s shape.
    fn reset(&mut self, layout: Padded) {
        self.layout = layout;
        for array in [&mut self.face, &mut self.group] {
            array.clear();
            array.resize(layout.len(), 0);
        }
        self.kind.clear();
        self.kind.resize(layout.len(), 0);
    }

    pub fn load_grid(&mut self, grid: &Grid) {
        self.reset(Padded::of(grid));
        for cell in grid.cells().filter(|&cell| grid.is_occupied(cell)) {
            self.kind[self.layout.index(cell)] = PIECE;
        }
    }

    /// The chess board with `block` as the block to examine.
    pub fn load_board(&mut self, occupied: Bitboard, block: Bitboard) {
        self.reset(Padded::new(8, 8));
        for square in occupied {
            let flags = if block.contains(square) {
                PIECE | IN_BLOCK
            } else {
                PIECE
            };
            self.kind[self.layout.index(Cell::from(square))] = flags;
        }
    }

    /// Makes `members` the block to examine.
    pub fn mark_block(&mut self, members: &[Index]) {
        for flags in &mut self.kind {
            *flags &= !IN_BLOCK;
        }
        for &member in members {
            self.kind[member] |= IN_BLOCK;
        }
    }

    /// Empties the face and group labels of `window` and the cells around it.
    pub fn clear_labels(&mut self, window: Padded) {
        for cell in window.board().chain(window.ring()) {
            self.face[cell] = NO_FACE;
            self.group[cell] = 0;
        }
    }

    /// Whether the pieces cut a king-connected group of `min_enclosed` empty
    /// cells off the edge: when they do not, no move forms a chain. Cut short
    /// by `stop`, it answers true, which rejects nothing.
    pub fn cuts_off_a_group(&mut self, min_enclosed: u32, stop: &AtomicBool) -> bool {
        self.clear_labels(self.layout);
        let Drawing {
            layout,
            kind,
            face,
            group,
            groups,
            stack,
            ..
        } = self;
        let is_piece = |cell: Index| kind[cell] & PIECE != 0;
        flood_grid::faces(*layout, is_piece, std::iter::empty(), face, stack, stop);
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        let cut_off = |cell: Index| !is_piece(cell) && face[cell] == NO_FACE;
        groups.find(*layout, cut_off, |_, _| true, group, stack);
        let wanted = min_enclosed.max(1) as usize;
        groups.iter().any(|(_, cells)| cells.len() >= wanted)
    }
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::default();
}

/// Runs `work` with this thread's workspace. The workspace is taken out for
/// the duration: a call nested inside (rayon may run another task on this
/// thread while `work` waits for its own) gets a fresh one.
pub(in crate::chain) fn with_workspace<T>(work: impl FnOnce(&mut Workspace) -> T) -> T {
    let mut workspace = WORKSPACE.with(|cell| std::mem::take(&mut *cell.borrow_mut()));
    let result = work(&mut workspace);
    WORKSPACE.with(|cell| *cell.borrow_mut() = workspace);
    result
}

/// [`with_workspace`], with `grid` loaded into the drawing.
pub(in crate::chain) fn with_grid<T>(grid: &Grid, work: impl FnOnce(&mut Workspace) -> T) -> T {
    with_workspace(|workspace| {
        workspace.drawing.load_grid(grid);
        work(workspace)
    })
}
