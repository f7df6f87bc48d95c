//! The criterion of Bonham and Iqbal's chain-detection paper (`seeds/000_*.txt`),
//! computed exactly, as a baseline to compare the spec's definition with.
//!
//! The paper:
//! 1. labels the 8-connected groups of empty squares ("Enclosed Areas", EAs);
//! 2. filters them: every empty square on the rim, and every empty square joined
//!    to an empty rim square by horizontal and vertical steps through empty
//!    squares, is removed ("perimeter filtering"); diagonal joins are kept;
//! 3. drops the groups (of what is left, relabelled 8-connected) smaller than the
//!    minimum, 2 for SSCC;
//! 4. declares a chain when there are "two unique paths" from the moved piece to
//!    one and the same EA: two paths of king steps through occupied squares that
//!    share no square, each starting at a different occupied neighbour of the
//!    moved piece and ending on a piece that touches (king-adjacent) a square of
//!    the EA.
//!
//! The paper searches for the two paths with a hand-made depth-first search whose
//! search order it had to patch twice. Here step 4 is decided exactly: two
//! vertex-disjoint paths exist iff a unit-capacity flow with node splitting
//! carries 2 units from the moved piece to the EA (Menger).
//!
//! It is not the spec's definition: it ignores crossing diagonals, whether the
//! two paths close around the EA or around something else, and whether the
//! enclosed group really holds `MinEnclosed` squares on the enclosed side.
//! `perft/chains.epd` lists the disagreements found, one minimal position per kind.
//!
//! A research baseline, not part of the library: it reads boards through the
//! public `Grid` only, for the bench `paper_criterion` (`benches/chain.rs`) and
//! `examples/label_chains.rs`.

use super::oracle::STEPS;
use catena_core::chain::{Cell, Grid};

/// The paper's verdict for the piece on `moved`, with its SSCC minimum of 2.
pub fn paper_criterion(grid: &Grid, moved: Cell) -> bool {
    paper_criterion_min(grid, moved, 2)
}

/// The paper's verdict with any minimum EA size (its "nMinimumClassPixelsNeeded").
pub fn paper_criterion_min(grid: &Grid, moved: Cell, min_area: u32) -> bool {
    if !grid.contains(moved) || !grid.is_occupied(moved) {
        return false;
    }
    let areas = paper_areas(grid, min_area);
    areas
        .iter()
        .any(|area| two_disjoint_paths(grid, moved, area))
}

/// The paper's EAs after its filtering, each a list of cells.
pub fn paper_areas(grid: &Grid, min_area: u32) -> Vec<Vec<Cell>> {
    let (w, h) = (grid.width(), grid.height());
    let index = |c: Cell| c.y * w + c.x;
    let empty = |c: Cell| !grid.is_occupied(c);
    // Perimeter filtering: empty rim squares and everything joined to them
    // orthogonally through empty squares.
    let mut filtered = vec![false; w * h];
    let mut stack: Vec<Cell> = grid
        .cells()
        .filter(|&c| empty(c) && (c.x == 0 || c.y == 0 || c.x + 1 == w || c.y + 1 == h))
        .collect();
    for &c in &stack {
        filtered[index(c)] = true;
    }
    while let Some(c) = stack.pop() {
        for (dx, dy) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            if let Some(n) = step(grid, c, dx, dy)
                && empty(n)
                && !filtered[index(n)]
            {
                filtered[index(n)] = true;
                stack.push(n);
            }
        }
    }
    // 8-connected groups of what is left, at least `min_area` squares.
    let mut seen = filtered;
    let mut areas = Vec::new();
    for start in grid.cells() {
        if !empty(start) || seen[index(start)] {
            continue;
        }
        seen[index(start)] = true;
        let mut area = vec![start];
        let mut next = 0;
        while next < area.len() {
            let c = area[next];
            next += 1;
            for (dx, dy) in STEPS {
                if let Some(n) = step(grid, c, dx, dy)
                    && empty(n)
                    && !seen[index(n)]
                {
                    seen[index(n)] = true;
                    area.push(n);
                }
            }
        }
        if area.len() >= min_area.max(1) as usize {
            area.sort();
            areas.push(area);
        }
    }
    areas
}

fn step(grid: &Grid, c: Cell, dx: isize, dy: isize) -> Option<Cell> {
    let x = c.x as isize + dx;
    let y = c.y as isize + dy;
    (x >= 0 && y >= 0 && (x as usize) < grid.width() && (y as usize) < grid.height())
        .then(|| Cell::new(x as usize, y as usize))
}

/// Two paths through occupied squares sharing no square, from `moved` (through
/// two different neighbours of it) to pieces touching `area`: a flow of 2 from
/// the moved piece's "out" node to a sink, every other piece split into an "in"
/// and an "out" node joined by an edge of capacity 1.
fn two_disjoint_paths(grid: &Grid, moved: Cell, area: &[Cell]) -> bool {
    let (w, h) = (grid.width(), grid.height());
    let cells = w * h;
    let index = |c: Cell| c.y * w + c.x;
    let mut touches = vec![false; cells];
    for &e in area {
        for (dx, dy) in STEPS {
            if let Some(n) = step(grid, e, dx, dy)
                && grid.is_occupied(n)
            {
                touches[index(n)] = true;
            }
        }
    }
    // Nodes: 2i = in(i), 2i + 1 = out(i), 2 * cells = sink.
    let sink = 2 * cells;
    let source = 2 * index(moved) + 1;
    let mut graph = Flow::new(sink + 1);
    for c in grid.cells() {
        if !grid.is_occupied(c) {
            continue;
        }
        let i = index(c);
        if c != moved {
            graph.edge(2 * i, 2 * i + 1);
            if touches[i] {
                graph.edge(2 * i + 1, sink);
            }
        }
        for (dx, dy) in STEPS {
            if let Some(n) = step(grid, c, dx, dy)
                && grid.is_occupied(n)
                && n != moved
            {
                graph.edge(2 * i + 1, 2 * index(n));
            }
        }
    }
    graph.augment(source, sink) && graph.augment(source, sink)
}

/// A unit-capacity flow network with breadth-first augmenting paths.
struct Flow {
    /// Per node, the indices of its edges (and of their reverses).
    adjacency: Vec<Vec<usize>>,
    to: Vec<usize>,
    capacity: Vec<u8>,
}

impl Flow {
    fn new(nodes: usize) -> Flow {
        Flow {
            adjacency: vec![Vec::new(); nodes],
            to: Vec::new(),
            capacity: Vec::new(),
        }
    }

    fn edge(&mut self, from: usize, to: usize) {
        self.adjacency[from].push(self.to.len());
        self.to.push(to);
        self.capacity.push(1);
        self.adjacency[to].push(self.to.len());
        self.to.push(from);
        self.capacity.push(0);
    }

    /// Pushes one unit along a shortest augmenting path; false if there is none.
    fn augment(&mut self, source: usize, sink: usize) -> bool {
        let mut via: Vec<Option<usize>> = vec![None; self.adjacency.len()];
        let mut queue = std::collections::VecDeque::from([source]);
        let mut reached = vec![false; self.adjacency.len()];
        reached[source] = true;
        while let Some(node) = queue.pop_front() {
            if node == sink {
                break;
            }
            for &e in &self.adjacency[node] {
                let next = self.to[e];
                if self.capacity[e] > 0 && !reached[next] {
                    reached[next] = true;
                    via[next] = Some(e);
                    queue.push_back(next);
                }
            }
        }
        if !reached[sink] {
            return false;
        }
        let mut node = sink;
        while let Some(e) = via[node] {
            self.capacity[e] -= 1;
            self.capacity[e ^ 1] += 1;
            node = self.to[e ^ 1];
        }
        true
    }
}
