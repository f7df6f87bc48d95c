//! Large grids for the chain method's benchmark and for tests where no oracle
//! can follow: mazes of pieces with one far pocket, and fortresses, a piece
//! walled in by a moat of empty cells.

use catena_core::chain::{Cell, Grid};
use catena_core::rng::SplitMix64;

/// A maze and the piece whose move sealed its pocket.
pub struct Maze {
    pub grid: Grid,
    /// The piece that closed the pocket: a chain through it holds the pocket.
    pub seal: Cell,
    /// A wall piece at the far end of the maze from the pocket.
    pub far_wall: Cell,
    /// The empty cells of the pocket.
    pub pocket: usize,
}

/// A maze on a `width` x `height` grid (each at least 5): corridor cells at
/// odd coordinates, carved by a seeded depth-first walk from the lower left
/// (so corridors are long); the walls are pieces. The border has openings, so
/// the corridors reach the edge, except into the pocket: the branch of the
/// maze farthest up and right, cut off by one piece (the seal).
pub fn maze(seed: u64, width: usize, height: usize) -> Maze {
    let mut rng = SplitMix64::new(seed);
    let (columns, rows) = ((width - 1) / 2, (height - 1) / 2);
    let node_cell = |node: usize| Cell::new(2 * (node % columns) + 1, 2 * (node / columns) + 1);
    let between = |a: Cell, b: Cell| Cell::new((a.x + b.x) / 2, (a.y + b.y) / 2);
    let mut grid = Grid::new(width, height).expect("a maze fits on a grid");
    for cell in grid.clone().cells() {
        grid.set_occupied(cell, true);
    }

    // The depth-first walk: every node gets a parent, the start none.
    let mut parent = vec![usize::MAX; columns * rows];
    let mut visited = vec![false; columns * rows];
    let mut path = vec![0];
    // Nodes in the order the walk reached them: parents before children.
    let mut reached = vec![0];
    visited[0] = true;
    grid.set_occupied(node_cell(0), false);
    while let Some(&node) = path.last() {
        let (x, y) = (node % columns, node / columns);
        let mut next: Vec<usize> = Vec::with_capacity(4);
        if x > 0 {
            next.push(node - 1);
        }
        if x + 1 < columns {
            next.push(node + 1);
        }
        if y > 0 {
            next.push(node - columns);
        }
        if y + 1 < rows {
            next.push(node + columns);
        }
        next.retain(|&other| !visited[other]);
        if next.is_empty() {
            path.pop();
            continue;
        }
        let other = next[rng.below(next.len())];
        visited[other] = true;
        parent[other] = node;
        reached.push(other);
        grid.set_occupied(node_cell(other), false);
        grid.set_occupied(between(node_cell(node), node_cell(other)), false);
        path.push(other);
    }

    // The pocket: the subtree of the node farthest up and right whose
    // subtree is small, sealed at the corridor to its parent.
    let mut subtree = vec![1usize; columns * rows];
    for &node in reached.iter().skip(1).rev() {
        subtree[parent[node]] += subtree[node];
    }
    let limit = (columns * rows / 16).max(2);
    let top = (1..columns * rows)
        .filter(|&node| subtree[node] >= 2 && subtree[node] <= limit)
        .max_by_key(|&node| (node % columns + node / columns, subtree[node]))
        .expect("a maze has branches");
    let seal = between(node_cell(top), node_cell(parent[top]));
    grid.set_occupied(seal, true);
    let mut in_pocket = vec![false; columns * rows];
    for &node in &reached {
        in_pocket[node] = node == top || (node != 0 && in_pocket[parent[node]]);
    }
    let pocket = (0..columns * rows)
        .filter(|&node| in_pocket[node])
        .map(|node| if node == top { 1 } else { 2 })
        .sum();

    // Openings in the border at about one node in four along it, none into the pocket.
    for node in (0..columns * rows).filter(|&node| !in_pocket[node] && rng.below(4) == 0) {
        let cell = node_cell(node);
        let (x, y) = (node % columns, node / columns);
        if x == 0 {
            grid.set_occupied(Cell::new(0, cell.y), false);
        }
        if y == 0 {
            grid.set_occupied(Cell::new(cell.x, 0), false);
        }
        if x + 1 == columns && cell.x + 2 == width {
            grid.set_occupied(Cell::new(width - 1, cell.y), false);
        }
        if y + 1 == rows && cell.y + 2 == height {
            grid.set_occupied(Cell::new(cell.x, height - 1), false);
        }
    }
    Maze {
        grid,
        seal,
        far_wall: Cell::new(2, 2),
        pocket,
    }
}

/// A fortress: a board full of pieces but for a moat, the empty cells at one
/// Manhattan distance from the centre, which is the moved piece. Each cell of
/// the moat touches the next only diagonally, between two pieces, so every one
/// lies in a face of its own, and no loop through the centre can take in the
/// whole moat: the corridor search has to flood everything inside the moat
/// before it learns that, then takes in part of it.
pub fn fortress(width: usize, height: usize) -> (Grid, Cell) {
    let centre = Cell::new(width / 2, height / 2);
    let radius = (width.min(height) / 2).saturating_sub(2).max(1);
    let mut grid = Grid::new(width, height).expect("a fortress fits on a grid");
    for cell in grid.clone().cells() {
        let distance = cell.x.abs_diff(centre.x) + cell.y.abs_diff(centre.y);
        grid.set_occupied(cell, distance != radius);
    }
    (grid, centre)
}
