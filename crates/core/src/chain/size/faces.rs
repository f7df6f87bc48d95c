//! The plane graph drawn by one group of touching pieces, and its faces.
//!
//! Pieces are the vertices; two king-adjacent pieces are joined by a straight
//! edge between the squares' centres. Where all four squares of a 2x2 block are
//! occupied both diagonals would cross, so that block gets a virtual vertex at
//! its centre joined to the four corners instead: a loop may then use one
//! diagonal (through the centre) but not both, exactly the spec's rule, and the
//! drawing has no crossings. Its faces are found by cutting every unit block
//! into four triangles around the block's centre and gluing neighbouring
//! triangles unless an edge of the drawing lies between them.
//!
//! Loops of the drawing are the cycles of this plane graph, and a cycle is
//! exactly the set of edges between a connected set of faces (its inside) and
//! the connected rest (its outside, holding the infinite face). Every question
//! about chains becomes a question about the small graph of faces.

use crate::chain::grid::{Cell, Grid};
use crate::chain::padded::{Index, Padded};

/// Triangles of a unit block, by the side of the block they lie on.
const BOTTOM: usize = 0;
const RIGHT: usize = 1;
const TOP: usize = 2;
const LEFT: usize = 3;

pub(in crate::chain) struct Faces {
    /// The padded board: its ring belongs to the infinite face, and no index
    /// ever leaves the arrays.
    layout: Padded,
    /// The faces around every piece of the group (one per triangle touching it).
    around: Vec<[usize; 8]>,
    pub count: usize,
    pub outer: usize,
    /// Faces sharing an edge of the drawing, without repeats.
    pub neighbours: Vec<Vec<usize>>,
    /// The empty squares in each bounded face (padded indices); the infinite
    /// face holds none, since nothing there can be inside a loop.
    pub empties: Vec<Vec<Index>>,
}

const NONE: usize = usize::MAX;

/// The pieces king-connected to `start` (a piece), as a padded mask.
pub(in crate::chain) fn group_of(grid: &Grid, start: Cell) -> Vec<bool> {
    let layout = Padded::of(grid);
    let mut member = vec![false; layout.len()];
    let mut stack = vec![start];
    member[layout.index(start)] = true;
    while let Some(cell) = stack.pop() {
        for neighbour in king_neighbours(grid, cell) {
            let index = layout.index(neighbour);
            if grid.is_occupied(neighbour) && !member[index] {
                member[index] = true;
                stack.push(neighbour);
            }
        }
    }
    member
}

/// The up to eight neighbours of `cell` on the grid.
pub(in crate::chain) fn king_neighbours(
    grid: &Grid,
    cell: Cell,
) -> impl Iterator<Item = Cell> + '_ {
    (-1isize..=1)
        .flat_map(|dy| (-1isize..=1).map(move |dx| (dx, dy)))
        .filter(|&step| step != (0, 0))
        .filter_map(move |(dx, dy)| {
            let x = cell.x.checked_add_signed(dx)?;
            let y = cell.y.checked_add_signed(dy)?;
            let neighbour = Cell::new(x, y);
            grid.contains(neighbour).then_some(neighbour)
        })
}

/// Union-find over the triangles, with path halving.
struct Triangles {
    parent: Vec<usize>,
}

impl Triangles {
    fn root(&mut self, mut triangle: usize) -> usize {
        while self.parent[triangle] != triangle {
            self.parent[triangle] = self.parent[self.parent[triangle]];
            triangle = self.parent[triangle];
        }
        triangle
    }

    fn glue(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.parent[a] = b;
        }
    }
}

impl Faces {
    /// The faces of the drawing of `group` (a padded mask of pieces, all
    /// king-connected) on `grid`.
    pub fn of_group(grid: &Grid, group: &[bool]) -> Faces {
        let layout = Padded::of(grid);
        let stride = layout.stride();
        let rows = grid.height() + 2;
        let in_group = |x: usize, y: usize| group[y * stride + x];

        // Only the blocks around the group's bounding box can be cut; the rest
        // of the plane is one piece of the infinite face.
        let (mut x0, mut y0, mut x1, mut y1) = (stride, rows, 0, 0);
        for (index, _) in group.iter().enumerate().filter(|&(_, &member)| member) {
            let (x, y) = (index % stride, index / stride);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        let (x0, y0) = (x0 - 1, y0 - 1);
        let (blocks_wide, blocks_high) = (x1 + 1 - x0, y1 + 1 - y0);
        let triangle = |bx: usize, by: usize, side: usize| ((by * blocks_wide) + bx) * 4 + side;

        let mut triangles = Triangles {
            parent: (0..blocks_wide * blocks_high * 4).collect(),
        };
        let mut walls = Vec::new();
        let mut separate = |a: usize, b: usize, wall: bool, triangles: &mut Triangles| {
            if wall {
                walls.push((a, b));
            } else {
                triangles.glue(a, b);
            }
        };
        for by in 0..blocks_high {
            for bx in 0..blocks_wide {
                let (x, y) = (x0 + bx, y0 + by);
                let (bottom_left, bottom_right) = (in_group(x, y), in_group(x + 1, y));
                let (top_left, top_right) = (in_group(x, y + 1), in_group(x + 1, y + 1));
                // Half a diagonal is drawn when its two ends are pieces: as the
                // diagonal itself, or as two spokes of a full block's centre.
                let falling = top_left && bottom_right;
                let rising = bottom_left && top_right;
                let t = |side| triangle(bx, by, side);
                separate(t(BOTTOM), t(RIGHT), falling, &mut triangles);
                separate(t(RIGHT), t(TOP), rising, &mut triangles);
                separate(t(TOP), t(LEFT), falling, &mut triangles);
                separate(t(LEFT), t(BOTTOM), rising, &mut triangles);
                if by + 1 < blocks_high {
                    let above = triangle(bx, by + 1, BOTTOM);
                    separate(t(TOP), above, top_left && top_right, &mut triangles);
                }
                if bx + 1 < blocks_wide {
                    let beside = triangle(bx + 1, by, LEFT);
                    separate(t(RIGHT), beside, bottom_right && top_right, &mut triangles);
                }
            }
        }

        let mut face_of_root = vec![NONE; triangles.parent.len()];
        let mut count = 0;
        let face_of_triangle: Vec<usize> = (0..triangles.parent.len())
            .map(|t| {
                let root = triangles.root(t);
                if face_of_root[root] == NONE {
                    face_of_root[root] = count;
                    count += 1;
                }
                face_of_root[root]
            })
            .collect();
        let outer = face_of_triangle[triangle(0, 0, BOTTOM)];

        let mut neighbours = vec![Vec::new(); count];
        for (a, b) in walls {
            let (a, b) = (face_of_triangle[a], face_of_triangle[b]);
            if a != b && !neighbours[a].contains(&b) {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }

        // The face of a point: read off the triangle of the block to its upper
        // right, which touches it; points outside the cut area are outside.
        let inside_cut = |x: usize, y: usize| x >= x0 && x <= x1 && y >= y0 && y <= y1;
        let face_at = |x: usize, y: usize| {
            if inside_cut(x, y) && x < x1 + 1 && y < y1 + 1 {
                face_of_triangle[triangle(x - x0, y - y0, BOTTOM)]
            } else {
                outer
            }
        };
        let mut around = vec![[NONE; 8]; stride * rows];
        let mut empties = vec![Vec::new(); count];
        for y in 1..rows - 1 {
            for x in 1..stride - 1 {
                let index = y * stride + x;
                if group[index] {
                    let (bx, by) = (x - x0, y - y0);
                    around[index] = [
                        face_of_triangle[triangle(bx - 1, by - 1, RIGHT)],
                        face_of_triangle[triangle(bx - 1, by - 1, TOP)],
                        face_of_triangle[triangle(bx, by - 1, TOP)],
                        face_of_triangle[triangle(bx, by - 1, LEFT)],
                        face_of_triangle[triangle(bx - 1, by, BOTTOM)],
                        face_of_triangle[triangle(bx - 1, by, RIGHT)],
                        face_of_triangle[triangle(bx, by, BOTTOM)],
                        face_of_triangle[triangle(bx, by, LEFT)],
                    ];
                    continue;
                }
                let face = face_at(x, y);
                if face != outer && !grid.is_occupied(Cell::new(x - 1, y - 1)) {
                    empties[face].push(index);
                }
            }
        }
        Faces {
            layout,
            around,
            count,
            outer,
            neighbours,
            empties,
        }
    }

    pub fn layout(&self) -> Padded {
        self.layout
    }

    /// The distinct faces touching a piece of the group.
    pub fn around(&self, piece: Index) -> Vec<usize> {
        let mut faces: Vec<usize> = self.around[piece].to_vec();
        faces.sort_unstable();
        faces.dedup();
        faces
    }
}
