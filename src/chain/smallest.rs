//! The chain with the fewest pieces, for people: found by iterative deepening
//! over loops through the piece, shortest first. Only asked for when a chain is
//! known to exist, so the deepening ends.

use super::enclosure::largest_king_group;
use super::faces::{group_of, king_neighbours, pad};
use super::grid::{Cell, Grid};

/// One loop through `piece` with the fewest pieces that surrounds a group of at
/// least `min_enclosed` empty squares, in order, with the empty squares inside.
pub(super) fn smallest_loop(
    grid: &Grid,
    piece: Cell,
    min_enclosed: u32,
) -> Option<(Vec<Cell>, Vec<Cell>)> {
    let group = group_of(grid, piece);
    let stride = grid.width() + 2;
    let members = group.iter().filter(|&&member| member).count();
    let mut search = LoopSearch {
        grid,
        group: &group,
        stride,
        distance: distances_from(grid, &group, piece),
        position: vec![usize::MAX; group.len()],
        path: vec![piece],
        min_enclosed: min_enclosed.max(1) as usize,
        limit: 0,
    };
    search.position[pad(stride, piece)] = 0;
    (4..=members).find_map(|limit| {
        search.limit = limit;
        search.extend()
    })
}

/// King-step distances from `piece` through the group's pieces (padded).
fn distances_from(grid: &Grid, group: &[bool], piece: Cell) -> Vec<usize> {
    let stride = grid.width() + 2;
    let mut distance = vec![usize::MAX; group.len()];
    distance[pad(stride, piece)] = 0;
    let mut queue = vec![piece];
    let mut next = 0;
    while next < queue.len() {
        let cell = queue[next];
        next += 1;
        for neighbour in king_neighbours(grid, cell) {
            let index = pad(stride, neighbour);
            if group[index] && distance[index] == usize::MAX {
                distance[index] = distance[pad(stride, cell)] + 1;
                queue.push(neighbour);
            }
        }
    }
    distance
}

struct LoopSearch<'a> {
    grid: &'a Grid,
    group: &'a [bool],
    stride: usize,
    distance: Vec<usize>,
    /// Index on the path of every padded cell on it.
    position: Vec<usize>,
    path: Vec<Cell>,
    min_enclosed: usize,
    limit: usize,
}

impl LoopSearch<'_> {
    fn extend(&mut self) -> Option<(Vec<Cell>, Vec<Cell>)> {
        let last = *self.path.last().expect("the path starts at the piece");
        let neighbours: Vec<Cell> = king_neighbours(self.grid, last).collect();
        for next in neighbours {
            let index = pad(self.stride, next);
            if !self.group[index] {
                continue;
            }
            if next == self.path[0] {
                if self.path.len() >= 4
                    && let Some(inside) = self.closes_chain()
                {
                    return Some((self.path.clone(), inside));
                }
                continue;
            }
            if self.position[index] != usize::MAX
                || self.path.len() + self.distance[index] > self.limit
                || self.crosses(last, next)
            {
                continue;
            }
            self.position[index] = self.path.len();
            self.path.push(next);
            let found = self.extend();
            self.path.pop();
            self.position[index] = usize::MAX;
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Whether the step `from`-`to` would cross a diagonal step of the path
    /// (or of the loop, once closed: first and last are then neighbours).
    fn crosses(&self, from: Cell, to: Cell) -> bool {
        if from.x == to.x || from.y == to.y {
            return false;
        }
        let a = self.position[pad(self.stride, Cell::new(from.x, to.y))];
        let b = self.position[pad(self.stride, Cell::new(to.x, from.y))];
        let len = self.path.len();
        a != usize::MAX && b != usize::MAX && (a.abs_diff(b) == 1 || a.abs_diff(b) == len - 1)
    }

    /// The empty squares inside the closed path, if they hold a large enough group.
    fn closes_chain(&self) -> Option<Vec<Cell>> {
        let len = self.path.len();
        let simple = (0..len).all(|i| {
            let (from, to) = (self.path[i], self.path[(i + 1) % len]);
            !self.crosses(from, to)
        });
        if !simple {
            return None;
        }
        let inside: Vec<Cell> = self
            .grid
            .cells()
            .filter(|&cell| !self.grid.is_occupied(cell) && surrounds(&self.path, cell))
            .collect();
        let padded: Vec<usize> = inside.iter().map(|&cell| pad(self.stride, cell)).collect();
        (largest_king_group(self.stride, &padded) >= self.min_enclosed).then_some(inside)
    }
}

/// Whether the centre of `cell` lies inside the polygon through the centres of
/// `corners`: a ray to the right crosses its edges an odd number of times.
/// Every edge spans at most one row, so the crossing lies on a corner.
pub(super) fn surrounds(corners: &[Cell], cell: Cell) -> bool {
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
