//! The chain with the fewest pieces, for people: iterative deepening over loops
//! through the piece, shortest first, each depth a depth-first search with an
//! explicit stack, since a loop may be as long as the board has pieces. Only
//! asked for when a chain is known to exist, so the deepening ends.

use super::faces::group_of;
use crate::chain::flood_grid::largest_king_group;
use crate::chain::grid::{Cell, Grid};
use crate::chain::padded::{Index, Padded};

const OFF_PATH: usize = usize::MAX;

/// One loop through `piece` with the fewest pieces that surrounds a group of at
/// least `min_enclosed` empty squares, in order, with the empty squares inside.
pub(in crate::chain) fn smallest_loop(
    grid: &Grid,
    piece: Cell,
    min_enclosed: u32,
) -> Option<(Vec<Cell>, Vec<Cell>)> {
    let layout = Padded::of(grid);
    let group = group_of(grid, piece);
    let start = layout.index(piece);
    let mut search = LoopSearch {
        grid,
        layout,
        distance: distances_from(layout, &group, start),
        group: &group,
        position: vec![OFF_PATH; group.len()],
        path: vec![start],
        min_enclosed: min_enclosed.max(1) as usize,
    };
    search.position[start] = 0;
    let members = group.iter().filter(|&&member| member).count();
    (4..=members).find_map(|limit| search.within(limit))
}

/// King-step distances from `start` through the group's pieces.
fn distances_from(layout: Padded, group: &[bool], start: Index) -> Vec<usize> {
    let mut distance = vec![usize::MAX; group.len()];
    distance[start] = 0;
    let mut queue = vec![start];
    let mut next = 0;
    while let Some(&cell) = queue.get(next) {
        next += 1;
        for neighbour in layout.neighbours(cell) {
            if group[neighbour] && distance[neighbour] == usize::MAX {
                distance[neighbour] = distance[cell] + 1;
                queue.push(neighbour);
            }
        }
    }
    distance
}

struct LoopSearch<'a> {
    grid: &'a Grid,
    layout: Padded,
    group: &'a [bool],
    distance: Vec<usize>,
    /// Where each cell is on the path, or `OFF_PATH`.
    position: Vec<usize>,
    path: Vec<Index>,
    min_enclosed: usize,
}

impl LoopSearch<'_> {
    /// A loop of at most `limit` pieces that closes a chain, depth first:
    /// one frame per piece of the path, holding the next king step to try
    /// from it. Leaves the path at the piece alone when it finds none.
    fn within(&mut self, limit: usize) -> Option<(Vec<Cell>, Vec<Cell>)> {
        let steps = self.layout.steps();
        let mut frames = vec![0];
        while let Some(tried) = frames.last_mut() {
            let Some(step) = steps.get(*tried) else {
                frames.pop();
                if frames.is_empty() {
                    break;
                }
                let left = self.path.pop().expect("one piece per frame");
                self.position[left] = OFF_PATH;
                continue;
            };
            *tried += 1;
            let last = *self.path.last().expect("the path starts at the piece");
            let next = last.wrapping_add_signed(step.offset);
            if !self.group[next] {
                continue;
            }
            if next == self.path[0] {
                if self.path.len() >= 4
                    && let Some(inside) = self.closes_chain()
                {
                    let cells = self.path.iter().map(|&cell| self.layout.cell(cell));
                    return Some((cells.collect(), inside));
                }
                continue;
            }
            if self.position[next] != OFF_PATH
                || self.path.len() + self.distance[next] > limit
                || self.crosses(last, next)
            {
                continue;
            }
            self.position[next] = self.path.len();
            self.path.push(next);
            frames.push(0);
        }
        None
    }

    /// Whether the step `from`-`to` would cross a diagonal step of the path
    /// (or of the loop, once closed: first and last are then neighbours).
    fn crosses(&self, from: Index, to: Index) -> bool {
        let Some(step) = self
            .layout
            .steps()
            .into_iter()
            .find(|step| from.wrapping_add_signed(step.offset) == to)
        else {
            return false;
        };
        let Some((vertical, horizontal)) = step.between else {
            return false;
        };
        let a = self.position[from.wrapping_add_signed(vertical)];
        let b = self.position[from.wrapping_add_signed(horizontal)];
        let len = self.path.len();
        a != OFF_PATH && b != OFF_PATH && (a.abs_diff(b) == 1 || a.abs_diff(b) == len - 1)
    }

    /// The empty squares inside the closed path, if they hold a large enough group.
    fn closes_chain(&self) -> Option<Vec<Cell>> {
        let len = self.path.len();
        let simple = (0..len).all(|i| !self.crosses(self.path[i], self.path[(i + 1) % len]));
        if !simple {
            return None;
        }
        let corners: Vec<Cell> = self
            .path
            .iter()
            .map(|&cell| self.layout.cell(cell))
            .collect();
        let inside: Vec<Cell> = self
            .grid
            .cells()
            .filter(|&cell| !self.grid.is_occupied(cell) && surrounds(&corners, cell))
            .collect();
        let padded: Vec<Index> = inside.iter().map(|&cell| self.layout.index(cell)).collect();
        (largest_king_group(self.layout, &padded) >= self.min_enclosed).then_some(inside)
    }
}

/// Whether the centre of `cell` lies inside the polygon through the centres of
/// `corners`: a ray to the right crosses its edges an odd number of times.
/// Every edge spans at most one row, so the crossing lies on a corner.
pub(in crate::chain) fn surrounds(corners: &[Cell], cell: Cell) -> bool {
    let mut inside = false;
    for (i, &a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        if (a.y > cell.y) != (b.y > cell.y) {
            let crossing_x = if a.y == cell.y { a.x } else { b.x };
            if cell.x < crossing_x {
                inside = !inside;
            }
        }
    }
    inside
}
