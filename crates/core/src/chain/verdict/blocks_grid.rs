//! The blocks through a piece on any grid: every loop through a piece lies in
//! one 2-connected block of the pieces' king graph that contains it (the chess
//! board finds them on bitboards, in [`super::blocks_bits`]).

use crate::chain::padded::{Index, Padded};

/// The blocks through one piece, and the working arrays that find them.
#[derive(Default)]
pub(in crate::chain) struct Blocks {
    /// The members of every block, one block after another.
    members: Vec<Index>,
    /// Where each block ends in `members`.
    ends: Vec<usize>,
    discovered: Vec<u32>,
    low: Vec<u32>,
    /// The depth-first path: each cell with the next king step to try.
    frames: Vec<(Index, u8)>,
    /// Cells in order of discovery, not yet given to a block.
    unassigned: Vec<Index>,
}

impl Blocks {
    /// Finds the blocks through `piece` among the cells for which `is_piece`
    /// holds: Tarjan's algorithm from `piece`, iterative; only the blocks
    /// closed at the root contain it.
    pub fn find(&mut self, layout: Padded, is_piece: impl Fn(Index) -> bool, piece: Index) {
        const UNSEEN: u32 = 0;
        self.members.clear();
        self.ends.clear();
        self.discovered.clear();
        self.discovered.resize(layout.len(), UNSEEN);
        self.low.clear();
        self.low.resize(layout.len(), 0);
        self.frames.clear();
        self.unassigned.clear();
        let steps = layout.steps();

        let mut counter = 1;
        self.discovered[piece] = counter;
        self.low[piece] = counter;
        self.frames.push((piece, 0));
        while let Some(top) = self.frames.last_mut() {
            let cell = top.0;
            if let Some(step) = steps.get(top.1 as usize) {
                top.1 += 1;
                let next = cell.wrapping_add_signed(step.offset);
                if !is_piece(next) {
                    continue;
                }
                if self.discovered[next] == UNSEEN {
                    counter += 1;
                    self.discovered[next] = counter;
                    self.low[next] = counter;
                    self.unassigned.push(next);
                    self.frames.push((next, 0));
                } else {
                    self.low[cell] = self.low[cell].min(self.discovered[next]);
                }
                continue;
            }
            self.frames.pop();
            let Some(&(parent, _)) = self.frames.last() else {
                break;
            };
            self.low[parent] = self.low[parent].min(self.low[cell]);
            if self.low[cell] >= self.discovered[parent] {
                // `parent` cuts off `cell`'s subtree: the cells found since
                // `cell` form a block with `parent`.
                let start = self.unassigned.iter().rposition(|&c| c == cell);
                let start = start.expect("a cell is unassigned until its block closes");
                if parent == piece {
                    self.members.push(piece);
                    self.members.extend_from_slice(&self.unassigned[start..]);
                    self.ends.push(self.members.len());
                }
                self.unassigned.truncate(start);
            }
        }
    }

    /// The blocks found, each a list of its pieces.
    pub fn iter(&self) -> impl Iterator<Item = &[Index]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.members[start..end])
    }
}
