//! The chain oracle: section 2 of `docs/rules.md` taken literally, written
//! without reference to the engine's algorithm.
//!
//! Every simple closed king-step loop of distinct occupied cells through a moved
//! cell is enumerated (length >= 4, no two crossing diagonals of one 2x2 block),
//! and every candidate empty cell is tested against the loop's polygon with an
//! exact integer point-in-polygon test. Cell centres are lattice points; a loop
//! edge (length 1 or sqrt 2 between lattice points) holds no lattice point but
//! its ends, so an empty cell's centre is never on the polygon and the crossing
//! test needs no tie-breaking beyond the usual half-open rule.
//!
//! It is exponential. Every search carries a budget of search nodes; a search
//! that exhausts it answers `None` and the caller drops the position: a position
//! is never labelled from an incomplete search.
//!
//! Depends on `std` only, so the tests and `examples/label_chains.rs` can share it.

use std::fmt;

/// A cell: x = file (0 = left), y = rank (0 = bottom).
pub type XY = (usize, usize);

/// Occupancy of a width x height grid, width at most 64.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct OGrid {
    pub width: usize,
    pub height: usize,
    /// One bit per cell, bit x of row y.
    pub rows: Vec<u64>,
}

impl OGrid {
    pub fn new(width: usize, height: usize) -> OGrid {
        assert!((1..=64).contains(&width) && height >= 1, "{width}x{height}");
        OGrid {
            width,
            height,
            rows: vec![0; height],
        }
    }

    /// The 8x8 board of a bitboard, square index = y * 8 + x.
    pub fn from_u64(bits: u64) -> OGrid {
        let mut grid = OGrid::new(8, 8);
        for y in 0..8 {
            grid.rows[y] = (bits >> (8 * y)) & 0xff;
        }
        grid
    }

    /// The bitboard of an 8x8 grid.
    pub fn to_u64(&self) -> u64 {
        assert_eq!((self.width, self.height), (8, 8));
        (0..8).fold(0, |bits, y| bits | self.rows[y] << (8 * y))
    }

    /// Rows of `#` (occupied) and `.` (empty), top row first; whitespace between
    /// rows may be newlines or `/`.
    pub fn parse(text: &str) -> OGrid {
        let lines: Vec<&str> = text
            .split(['/', '\n'])
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        let width = lines[0].chars().filter(|c| !c.is_whitespace()).count();
        let mut grid = OGrid::new(width, lines.len());
        for (row, line) in lines.iter().enumerate() {
            let y = lines.len() - 1 - row;
            let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), width, "ragged grid text {text:?}");
            for (x, &c) in cells.iter().enumerate() {
                grid.set((x, y), matches!(c, '#' | 'x' | 'X' | 'o' | 'O' | '*' | '@'));
            }
        }
        grid
    }

    pub fn get(&self, (x, y): XY) -> bool {
        self.rows[y] >> x & 1 != 0
    }

    pub fn set(&mut self, (x, y): XY, occupied: bool) {
        if occupied {
            self.rows[y] |= 1 << x;
        } else {
            self.rows[y] &= !(1 << x);
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = XY> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| (x, y)))
    }

    pub fn occupied_cells(&self) -> Vec<XY> {
        self.cells().filter(|&c| self.get(c)).collect()
    }

    pub fn count_occupied(&self) -> usize {
        self.rows.iter().map(|r| r.count_ones() as usize).sum()
    }

    fn row_mask(&self) -> u64 {
        if self.width == 64 {
            !0
        } else {
            (1u64 << self.width) - 1
        }
    }

    /// The king neighbours of a cell inside the grid.
    pub fn neighbours(&self, (x, y): XY) -> impl Iterator<Item = XY> + '_ {
        STEPS.iter().filter_map(move |&(dx, dy)| {
            let nx = x as isize + dx;
            let ny = y as isize + dy;
            (nx >= 0 && ny >= 0 && (nx as usize) < self.width && (ny as usize) < self.height)
                .then_some((nx as usize, ny as usize))
        })
    }

    /// The same text `parse` reads, with the moved cells written `M`.
    pub fn render(&self, moved: &[XY]) -> String {
        let mut text = String::new();
        for y in (0..self.height).rev() {
            for x in 0..self.width {
                text.push(if moved.contains(&(x, y)) {
                    'M'
                } else if self.get((x, y)) {
                    '#'
                } else {
                    '.'
                });
            }
            text.push('\n');
        }
        text
    }
}

impl fmt::Debug for OGrid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}x{}\n{}", self.width, self.height, self.render(&[]))
    }
}

/// Empty cells joined to the grid's edge by orthogonal steps through empty cells
/// (the edge cells included). Such a cell is never inside a loop: a unit
/// orthogonal segment between two empty centres cannot meet a loop edge (a
/// diagonal edge's inner points have no integer coordinate; an orthogonal edge
/// meets it only at a lattice point, which would be occupied), and an edge
/// cell's centre lies on the bounding box of the grid, outside or on the polygon.
pub fn rim_connected_empties(grid: &OGrid) -> Vec<u64> {
    let mask = grid.row_mask();
    let empty: Vec<u64> = grid.rows.iter().map(|r| !r & mask).collect();
    let h = grid.height;
    let mut reach: Vec<u64> = vec![0; h];
    for y in 0..h {
        let border = if y == 0 || y + 1 == h {
            mask
        } else {
            1 | 1u64 << (grid.width - 1)
        };
        reach[y] = empty[y] & border;
    }
    loop {
        let mut changed = false;
        for y in 0..h {
            let mut grown = reach[y] | reach[y] << 1 | reach[y] >> 1;
            if y > 0 {
                grown |= reach[y - 1];
            }
            if y + 1 < h {
                grown |= reach[y + 1];
            }
            grown &= empty[y];
            if grown != reach[y] {
                reach[y] = grown;
                changed = true;
            }
        }
        if !changed {
            return reach;
        }
    }
}

/// Exact crossing-number test of a lattice point against a lattice polygon,
/// for points that are not on the polygon.
pub fn point_in_polygon(polygon: &[XY], (px, py): XY) -> bool {
    let (px, py) = (px as i64, py as i64);
    let mut inside = false;
    for i in 0..polygon.len() {
        let (ax, ay) = polygon[i];
        let (bx, by) = polygon[(i + 1) % polygon.len()];
        let (ax, ay, bx, by) = (ax as i64, ay as i64, bx as i64, by as i64);
        if (ay > py) != (by > py) {
            // Does the edge cross the ray from p towards +x?  x_cross > px  <=>
            // (px - ax) * (by - ay) < (py - ay) * (bx - ax), flipped when by < ay.
            let lhs = (px - ax) * (by - ay);
            let rhs = (py - ay) * (bx - ax);
            let crosses = if by > ay { lhs < rhs } else { lhs > rhs };
            if crosses {
                inside = !inside;
            }
        }
    }
    inside
}

/// The size of the largest group of `cells` connected by king steps.
pub fn largest_king_group(cells: &[XY]) -> usize {
    let mut seen = vec![false; cells.len()];
    let mut best = 0;
    for start in 0..cells.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = cells[i];
            for j in 0..cells.len() {
                let (u, v) = cells[j];
                if !seen[j] && x.abs_diff(u) <= 1 && y.abs_diff(v) <= 1 {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        best = best.max(size);
    }
    best
}

/// Checks that `cells` is a link of the spec: length >= 4, distinct occupied
/// cells, king steps (closing step included), no two crossing diagonals in one
/// 2x2 block. Returns the reason when it is not.
pub fn check_link(grid: &OGrid, cells: &[XY]) -> Result<(), String> {
    if cells.len() < 4 {
        return Err(format!("only {} cells", cells.len()));
    }
    for (i, &c) in cells.iter().enumerate() {
        if c.0 >= grid.width || c.1 >= grid.height {
            return Err(format!("{c:?} is off the grid"));
        }
        if !grid.get(c) {
            return Err(format!("{c:?} is empty"));
        }
        if cells[..i].contains(&c) {
            return Err(format!("{c:?} is used twice"));
        }
    }
    let mut diagonals = std::collections::HashSet::new();
    for i in 0..cells.len() {
        let a = cells[i];
        let b = cells[(i + 1) % cells.len()];
        if a.0.abs_diff(b.0) > 1 || a.1.abs_diff(b.1) > 1 {
            return Err(format!("{a:?} and {b:?} are not king neighbours"));
        }
        if a.0 != b.0 && a.1 != b.1 {
            let block = (a.0.min(b.0), a.1.min(b.1));
            let rising = (b.0 > a.0) == (b.1 > a.1);
            if diagonals.contains(&(block, !rising)) {
                return Err(format!("the diagonals of the 2x2 block at {block:?} cross"));
            }
            diagonals.insert((block, rising));
        }
    }
    Ok(())
}

/// The empty cells inside a loop, sorted by (x, y).
pub fn enclosed_empties(grid: &OGrid, polygon: &[XY]) -> Vec<XY> {
    let mut inside: Vec<XY> = grid
        .cells()
        .filter(|&c| !grid.get(c) && point_in_polygon(polygon, c))
        .collect();
    inside.sort();
    inside
}

/// The oracle's answer for one `MinEnclosed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub min_enclosed: u32,
    pub chain: bool,
    /// The largest number of empty cells inside a qualifying loop; 0 if none.
    pub size: u32,
    /// The fewest cells of a qualifying loop; 0 if none.
    pub smallest_len: usize,
    /// One qualifying loop of `smallest_len` cells.
    pub smallest: Vec<XY>,
}

/// How the oracle searches.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Search nodes (loop prefixes) allowed before giving up.
    pub budget: u64,
    /// Test only empty cells not joined orthogonally to the edge (see
    /// `rim_connected_empties`), and skip the search when there are none.
    /// `false` tests every empty cell of every loop: slower, fewer assumptions.
    pub rim_pruning: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            budget: 300_000,
            rim_pruning: true,
        }
    }
}

/// Statistics of one oracle run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub nodes: u64,
    pub loops: u64,
}

/// The oracle: for each of `mins` (MinEnclosed values), the verdict, size and
/// smallest qualifying loop through any of `moved`. `None` when the search
/// exceeded its budget (the position must be dropped, not labelled).
pub fn oracle(
    grid: &OGrid,
    moved: &[XY],
    mins: &[u32],
    options: Options,
) -> Option<(Vec<Verdict>, Stats)> {
    oracle_ext(grid, moved, mins, options, false)
}

/// `oracle`, optionally allowing loops whose diagonals cross in a 2x2 block
/// (not links of the spec: a diagnostic for the paper's criterion, which has
/// no such rule; inside means odd crossing number then).
pub fn oracle_ext(
    grid: &OGrid,
    moved: &[XY],
    mins: &[u32],
    options: Options,
    allow_crossing: bool,
) -> Option<(Vec<Verdict>, Stats)> {
    let mut verdicts: Vec<Verdict> = mins
        .iter()
        .map(|&m| Verdict {
            min_enclosed: m,
            chain: false,
            size: 0,
            smallest_len: 0,
            smallest: Vec::new(),
        })
        .collect();
    let mut stats = Stats::default();
    let candidates: Vec<XY> = if options.rim_pruning {
        let rim = rim_connected_empties(grid);
        grid.cells()
            .filter(|&(x, y)| !grid.get((x, y)) && rim[y] >> x & 1 == 0)
            .collect()
    } else {
        grid.cells().filter(|&c| !grid.get(c)).collect()
    };
    let min_needed = mins.iter().copied().min().unwrap_or(1).max(1) as usize;
    if candidates.len() < min_needed {
        return Some((verdicts, stats));
    }
    let mut on_loop = |polygon: &[XY]| {
        stats.loops += 1;
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for &(x, y) in polygon {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        let inside: Vec<XY> = candidates
            .iter()
            .copied()
            .filter(|&(x, y)| x > x0 && x < x1 && y > y0 && y < y1)
            .filter(|&c| point_in_polygon(polygon, c))
            .collect();
        if inside.is_empty() {
            return;
        }
        let group = largest_king_group(&inside) as u32;
        for verdict in verdicts.iter_mut() {
            if group >= verdict.min_enclosed.max(1) {
                verdict.chain = true;
                verdict.size = verdict.size.max(inside.len() as u32);
                if verdict.smallest_len == 0 || polygon.len() < verdict.smallest_len {
                    verdict.smallest_len = polygon.len();
                    verdict.smallest = polygon.to_vec();
                }
            }
        }
    };
    let mut starts: Vec<XY> = Vec::new();
    for &start in moved {
        assert!(grid.get(start), "moved cell {start:?} is empty");
        if !starts.contains(&start) {
            starts.push(start);
        }
    }
    let complete = if (grid.width + 1) * grid.height <= 128 {
        let mut search = Search::<u128>::new(grid, options.budget);
        search.allow_crossing = allow_crossing;
        let complete = starts.iter().all(|&s| search.run(s, &mut on_loop));
        stats.nodes = search.nodes;
        complete
    } else {
        assert!(
            (grid.width + 1) * grid.height <= 256,
            "grid too large for the oracle"
        );
        let mut search = Search::<Wide>::new(grid, options.budget);
        search.allow_crossing = allow_crossing;
        let complete = starts.iter().all(|&s| search.run(s, &mut on_loop));
        stats.nodes = search.nodes;
        complete
    };
    if !complete {
        return None;
    }
    Some((verdicts, stats))
}

/// A set of cells packed with a guard column: cell (x, y) is bit y * (width + 1) + x,
/// so one-step shifts never wrap from one row into the next.
trait Bits: Copy + Eq {
    const ZERO: Self;
    fn bit(index: usize) -> Self;
    fn or(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn and_not(self, other: Self) -> Self;
    fn shl(self, n: usize) -> Self;
    fn shr(self, n: usize) -> Self;
    fn is_zero(self) -> bool;
    fn has(self, index: usize) -> bool {
        !self.and(Self::bit(index)).is_zero()
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    fn bit(index: usize) -> u128 {
        1 << index
    }
    fn or(self, other: u128) -> u128 {
        self | other
    }
    fn and(self, other: u128) -> u128 {
        self & other
    }
    fn and_not(self, other: u128) -> u128 {
        self & !other
    }
    fn shl(self, n: usize) -> u128 {
        self << n
    }
    fn shr(self, n: usize) -> u128 {
        self >> n
    }
    fn is_zero(self) -> bool {
        self == 0
    }
}

/// 256 bits, for grids too large for a u128.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Wide([u128; 2]);

impl Bits for Wide {
    const ZERO: Wide = Wide([0, 0]);
    fn bit(index: usize) -> Wide {
        if index < 128 {
            Wide([1 << index, 0])
        } else {
            Wide([0, 1 << (index - 128)])
        }
    }
    fn or(self, o: Wide) -> Wide {
        Wide([self.0[0] | o.0[0], self.0[1] | o.0[1]])
    }
    fn and(self, o: Wide) -> Wide {
        Wide([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }
    fn and_not(self, o: Wide) -> Wide {
        Wide([self.0[0] & !o.0[0], self.0[1] & !o.0[1]])
    }
    fn shl(self, n: usize) -> Wide {
        // 0 < n < 128
        Wide([self.0[0] << n, self.0[1] << n | self.0[0] >> (128 - n)])
    }
    fn shr(self, n: usize) -> Wide {
        Wide([self.0[0] >> n | self.0[1] << (128 - n), self.0[1] >> n])
    }
    fn is_zero(self) -> bool {
        self.0 == [0, 0]
    }
}

/// The eight king steps, in the order the loop search tries them.
pub const STEPS: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Depth-first enumeration of the simple non-crossing loops through one cell,
/// without allocation per node.
struct Search<'g, B: Bits> {
    grid: &'g OGrid,
    stride: usize,
    budget: u64,
    nodes: u64,
    occupied: B,
    on_path: B,
    /// Diagonals in use, by the 2x2 block's lower-left cell: rising
    /// (x,y)-(x+1,y+1) and falling (x+1,y)-(x,y+1).
    rising: B,
    falling: B,
    allow_crossing: bool,
}

impl<'g, B: Bits> Search<'g, B> {
    fn new(grid: &'g OGrid, budget: u64) -> Search<'g, B> {
        let stride = grid.width + 1;
        let mut occupied = B::ZERO;
        for c in grid.occupied_cells() {
            occupied = occupied.or(B::bit(c.1 * stride + c.0));
        }
        Search {
            grid,
            stride,
            budget,
            nodes: 0,
            occupied,
            on_path: B::ZERO,
            rising: B::ZERO,
            falling: B::ZERO,
            allow_crossing: false,
        }
    }

    fn index(&self, (x, y): XY) -> usize {
        y * self.stride + x
    }

    /// The cells and their king neighbours (guard column and off-grid rows drop
    /// out through the `and` with an in-grid mask by the caller).
    fn grow(&self, set: B) -> B {
        let row = set.or(set.shl(1)).or(set.shr(1));
        row.or(row.shl(self.stride)).or(row.shr(self.stride))
    }

    /// The diagonal of a step, if it is one: (block index, rising).
    fn diagonal(&self, a: XY, b: XY) -> Option<(usize, bool)> {
        (a.0 != b.0 && a.1 != b.1).then(|| {
            (
                self.index((a.0.min(b.0), a.1.min(b.1))),
                (b.0 > a.0) == (b.1 > a.1),
            )
        })
    }

    fn crosses(&self, a: XY, b: XY) -> bool {
        if self.allow_crossing {
            return false;
        }
        match self.diagonal(a, b) {
            Some((block, true)) => self.falling.has(block),
            Some((block, false)) => self.rising.has(block),
            None => false,
        }
    }

    fn mark_step(&mut self, a: XY, b: XY, on: bool) {
        if let Some((block, rising)) = self.diagonal(a, b) {
            let rows = if rising {
                &mut self.rising
            } else {
                &mut self.falling
            };
            *rows = if on {
                rows.or(B::bit(block))
            } else {
                rows.and_not(B::bit(block))
            };
        }
    }

    /// Can `from` reach a king neighbour of the start (`targets`) through
    /// occupied cells off the path (`from` itself counts)? A necessary
    /// condition for closing a loop.
    fn can_return(&self, from: XY, targets: B) -> bool {
        let free = self.occupied.and_not(self.on_path);
        let mut reach = B::bit(self.index(from));
        loop {
            if !reach.and(targets).is_zero() {
                return true;
            }
            let grown = self.grow(reach).and(free).or(reach);
            if grown == reach {
                return false;
            }
            reach = grown;
        }
    }

    fn neighbour(&self, (x, y): XY, k: usize) -> Option<XY> {
        let (dx, dy) = STEPS[k];
        let nx = x as isize + dx;
        let ny = y as isize + dy;
        (nx >= 0 && ny >= 0 && (nx as usize) < self.grid.width && (ny as usize) < self.grid.height)
            .then_some((nx as usize, ny as usize))
    }

    /// Calls `found` with every loop through `start` once (one direction).
    /// Returns false when the budget ran out.
    fn run(&mut self, start: XY, found: &mut dyn FnMut(&[XY])) -> bool {
        let targets = self
            .grow(B::bit(self.index(start)))
            .and(self.occupied)
            .and_not(B::bit(self.index(start)));
        let mut path: Vec<XY> = vec![start];
        // The next king step to try at each depth.
        let mut step: Vec<usize> = vec![0];
        self.on_path = B::bit(self.index(start));
        self.rising = B::ZERO;
        self.falling = B::ZERO;
        let mut complete = true;
        while let Some(&k) = step.last() {
            let last = *path.last().expect("path and steps have one length");
            if k == 8 {
                step.pop();
                path.pop();
                self.on_path = self.on_path.and_not(B::bit(self.index(last)));
                if let Some(&prev) = path.last() {
                    self.mark_step(prev, last, false);
                }
                continue;
            }
            *step.last_mut().expect("non-empty") += 1;
            let Some(next) = self.neighbour(last, k) else {
                continue;
            };
            let bit = self.index(next);
            if !self.occupied.has(bit) || self.on_path.has(bit) || self.crosses(last, next) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                complete = false;
                break;
            }
            self.on_path = self.on_path.or(B::bit(bit));
            if !self.can_return(next, targets) {
                self.on_path = self.on_path.and_not(B::bit(bit));
                continue;
            }
            self.mark_step(last, next, true);
            path.push(next);
            step.push(0);
            // A loop closes when next neighbours start; each loop is reported
            // once, from the direction whose second cell is smaller.
            if path.len() >= 4 && targets.has(bit) && path[1] < next && !self.crosses(next, start) {
                found(&path);
            }
        }
        self.on_path = B::ZERO;
        self.rising = B::ZERO;
        self.falling = B::ZERO;
        complete
    }
}
