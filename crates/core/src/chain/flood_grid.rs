//! Two floods over a padded board that every step of the chain method uses.
//!
//! * [`faces`]: what a cell can reach without crossing the drawing of a set
//!   of pieces (the walls): orthogonal steps to cells that are not walls, and
//!   diagonal ones unless the two cells beside the step are both walls (they
//!   are joined by a diagonal of the drawing). The cells one flood reaches are
//!   one face of the drawing; the face holding the ring is the outer one, and
//!   nothing in it can be inside a loop of those walls.
//! * [`Groups`]: the king-connected groups of a set of cells.
//!
//! The twin, on any grid, of the bitboard floods of [`super::flood_bits`]: the
//! cheap rejection on a grid is these two floods
//! ([`super::verdict::workspace`]).

use std::sync::atomic::{AtomicBool, Ordering};

use super::padded::{Index, Padded};

/// The label of no face: a wall, or a cell no flood has reached yet.
pub(super) const NO_FACE: u32 = 0;
/// The label of the outer face.
pub(super) const OUTER: u32 = 1;

/// Labels the faces of the drawing of `is_wall`: first the outer face (the ring
/// and what reaches it), then, from every cell of `seeds` still unlabelled, a
/// new bounded face. `face` must hold `NO_FACE` on the board; returns the next
/// unused label. Once `stop` is raised, the labels are left unfinished: a race
/// whose other side has settled the question needs them no more.
pub(super) fn faces(
    layout: Padded,
    is_wall: impl Fn(Index) -> bool,
    seeds: impl Iterator<Item = Index>,
    face: &mut [u32],
    stack: &mut Vec<Index>,
    stop: &AtomicBool,
) -> u32 {
    for cell in layout.ring() {
        face[cell] = OUTER;
    }
    stack.clear();
    for cell in layout.edge().filter(|&cell| !is_wall(cell)) {
        face[cell] = OUTER;
        stack.push(cell);
    }
    spread(layout, &is_wall, face, OUTER, stack, stop);
    let mut next = OUTER + 1;
    for seed in seeds.take_while(|_| !stop.load(Ordering::Relaxed)) {
        if face[seed] == NO_FACE && !is_wall(seed) {
            face[seed] = next;
            stack.push(seed);
            spread(layout, &is_wall, face, next, stack, stop);
            next += 1;
        }
    }
    next
}

/// Gives `label` to every unlabelled cell the cells on `stack` reach, unless
/// `stop` is raised first.
fn spread(
    layout: Padded,
    is_wall: &impl Fn(Index) -> bool,
    face: &mut [u32],
    label: u32,
    stack: &mut Vec<Index>,
    stop: &AtomicBool,
) {
    let steps = layout.steps();
    while let Some(cell) = stack.pop() {
        if stop.load(Ordering::Relaxed) {
            stack.clear();
            return;
        }
        for step in steps {
            let next = cell.wrapping_add_signed(step.offset);
            if face[next] != NO_FACE || is_wall(next) {
                continue;
            }
            if let Some((a, b)) = step.between
                && is_wall(cell.wrapping_add_signed(a))
                && is_wall(cell.wrapping_add_signed(b))
            {
                continue;
            }
            face[next] = label;
            stack.push(next);
        }
    }
}

/// King-connected groups of cells, labelled 1, 2, ...
#[derive(Default)]
pub(super) struct Groups {
    /// The cells, group after group.
    cells: Vec<Index>,
    /// Where each group ends in `cells`; `ends[0]` is 0.
    ends: Vec<usize>,
}

impl Groups {
    /// Labels the groups of the board cells for which `member` holds, in
    /// `label` (which must hold 0 on the board): cells are joined by king
    /// steps, between cells for which `joined` holds.
    pub fn find(
        &mut self,
        layout: Padded,
        member: impl Fn(Index) -> bool,
        joined: impl Fn(Index, Index) -> bool,
        label: &mut [u32],
        stack: &mut Vec<Index>,
    ) {
        self.cells.clear();
        self.ends.clear();
        self.ends.push(0);
        for seed in layout.board() {
            if label[seed] != 0 || !member(seed) {
                continue;
            }
            let group = self.ends.len() as u32;
            label[seed] = group;
            stack.clear();
            stack.push(seed);
            while let Some(cell) = stack.pop() {
                self.cells.push(cell);
                for next in layout.neighbours(cell) {
                    if label[next] == 0 && member(next) && joined(cell, next) {
                        label[next] = group;
                        stack.push(next);
                    }
                }
            }
            self.ends.push(self.cells.len());
        }
    }

    /// The labels of the groups, and their cells.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[Index])> {
        self.ends
            .windows(2)
            .zip(1..)
            .map(|(ends, group)| (group, &self.cells[ends[0]..ends[1]]))
    }
}

/// The size of the largest king-connected group among `cells`.
pub(super) fn largest_king_group(layout: Padded, cells: &[Index]) -> usize {
    let mut unseen: std::collections::HashSet<Index> = cells.iter().copied().collect();
    let mut largest = 0;
    while let Some(&seed) = unseen.iter().next() {
        unseen.remove(&seed);
        let mut stack = vec![seed];
        let mut size = 0;
        while let Some(cell) = stack.pop() {
            size += 1;
            stack.extend(layout.neighbours(cell).filter(|next| unseen.remove(next)));
        }
        largest = largest.max(size);
    }
    largest
}
