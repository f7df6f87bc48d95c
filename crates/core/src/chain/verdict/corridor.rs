//! Whether a loop through a piece can go around a set of faces.
//!
//! Take the drawing of a block (pieces joined by king steps, see
//! [`crate::chain::size::faces`]) and a set `T` of its bounded faces that touch one another.
//! A loop through the piece `s` with all of `T` inside exists exactly when a
//! *corridor* leads from the outer face to `s` without entering a face of `T`:
//! a chain of faces, each sharing an edge of the drawing with the next, from
//! the outer face to a face at `s`. The loop then runs along both banks of the
//! corridor and around the rest of the block. (In the dual graph of the block,
//! which is 2-connected, `T` merged into one node and the outer face have two
//! disjoint paths to `s` unless `T` alone separates them, by Menger's theorem.)
//!
//! The corridor may cross the drawing's edges anywhere, so it is searched as a
//! flood over triangles: every unit square between four cell centres is cut by
//! its two diagonals into four triangles, and the flood steps from a triangle
//! to the three that share a side with it, except into a face of `T`. It starts
//! from the eight triangles around `s`, one between each two neighbouring king
//! directions, and succeeds on reaching the outer face.
//!
//! The searches from the eight triangles run as one flood on one thread, or
//! in parallel under rayon: the window is cut into bands of rows, one per
//! thread, each search starting in the band that holds it. Each band is
//! flooded with claims of its own, so no triangle is searched twice and no
//! thread waits on another's claims; a flood stepping out of its band leaves
//! the triangle for the band that holds it, handed over between rounds. The
//! first flood to reach the outer face raises a flag that every flood checks at
//! every step, and all stop. (Claims shared by all threads cost an atomic
//! operation per triangle, which on two cores cost more than the second core
//! gave.)

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::chain::flood_grid::OUTER;
use crate::chain::padded::{Index, Padded};

/// Flag in a drawing's `kind`: a piece of the block being examined.
pub(in crate::chain) const IN_BLOCK: u8 = 2;

/// The triangles of a unit square, by the side of the square they lie on;
/// a triangle is numbered `4 * square + side`, where the square is named by
/// the cell at its lower left corner.
const BOTTOM: usize = 0;
const RIGHT: usize = 1;
const TOP: usize = 2;
const LEFT: usize = 3;

/// What the corridor finds in a triangle.
enum Found {
    /// A face the corridor may not enter.
    Wall,
    Open,
    /// The outer face: the corridor is complete.
    Outside,
}

/// The corridor question for one set of faces.
pub(in crate::chain) struct Corridor<'a> {
    window: Padded,
    stride: usize,
    /// Flags per cell (`IN_BLOCK`).
    kind: &'a [u8],
    /// The face of every cell that is not a piece of the block.
    face: &'a [u32],
    /// The faces the corridor may not enter, by label.
    avoided: &'a [bool],
}

/// The squares one flood covers, named by their lower left cells, with their
/// triangles' claims and the work found in them.
#[derive(Default)]
pub(in crate::chain) struct Band {
    squares: Range<usize>,
    /// A bit per triangle of the band: claimed.
    claimed: Vec<u64>,
    /// Claimed triangles still to look at.
    stack: Vec<usize>,
    /// Triangles met that lie in other bands.
    outbox: Vec<usize>,
}

impl Band {
    fn reset(&mut self, squares: Range<usize>) {
        self.claimed.clear();
        self.claimed.resize((4 * squares.len()).div_ceil(64), 0);
        self.squares = squares;
        self.stack.clear();
        self.outbox.clear();
    }

    fn holds(&self, triangle: usize) -> bool {
        self.squares.contains(&(triangle / 4))
    }

    /// Takes a triangle of the band into the flood unless it was claimed.
    fn offer(&mut self, triangle: usize) {
        let bit = triangle - 4 * self.squares.start;
        let (word, mask) = (&mut self.claimed[bit / 64], 1 << (bit % 64));
        if *word & mask == 0 {
            *word |= mask;
            self.stack.push(triangle);
        }
    }
}

impl<'a> Corridor<'a> {
    /// The question in `window`, the bounding box of the block that `kind`
    /// marks (with its faces labelled in `face`).
    pub fn new(window: Padded, kind: &'a [u8], face: &'a [u32], avoided: &'a [bool]) -> Self {
        Corridor {
            window,
            stride: window.stride(),
            kind,
            face,
            avoided,
        }
    }

    /// Whether a corridor leads from the outer face to `piece`; `band` is
    /// working space for the sequential flood.
    pub fn reaches(&self, piece: Index, parallel: bool, band: &mut Band) -> bool {
        let found = AtomicBool::new(false);
        if parallel {
            self.reaches_in_bands(piece, &found);
        } else {
            band.reset(0..self.kind.len());
            for root in self.around(piece) {
                band.offer(root);
            }
            self.flood(band, &found);
        }
        found.into_inner()
    }

    /// The parallel flood: a band of rows per thread, in rounds.
    fn reaches_in_bands(&self, piece: Index, found: &AtomicBool) {
        // The squares the flood can reach have their lower left corners on
        // the rows from just below the window to its top.
        let rows = self.window.rows();
        let (first, last) = (rows.start - 1, rows.end);
        let count = rayon::current_num_threads().clamp(1, last - first);
        let cut = |band: usize| match band {
            0 => 0,
            band if band == count => self.kind.len(),
            band => (first + (last - first) * band / count) * self.stride,
        };
        let mut bands: Vec<Band> = (0..count).map(|_| Band::default()).collect();
        for (index, band) in bands.iter_mut().enumerate() {
            band.reset(cut(index)..cut(index + 1));
        }
        let mut mail: Vec<usize> = self.around(piece).to_vec();
        loop {
            for triangle in mail.drain(..) {
                let band = bands.partition_point(|band| band.squares.end <= triangle / 4);
                bands[band].offer(triangle);
            }
            if bands.iter().all(|band| band.stack.is_empty()) {
                return;
            }
            bands
                .par_iter_mut()
                .for_each(|band| self.flood(band, found));
            if found.load(Ordering::Relaxed) {
                return;
            }
            for band in &mut bands {
                mail.append(&mut band.outbox);
            }
        }
    }

    /// The eight triangles around a cell, counter-clockwise from its right.
    fn around(&self, cell: Index) -> [usize; 8] {
        let stride = self.stride;
        let triangle = |square: Index, side| 4 * square + side;
        [
            triangle(cell, BOTTOM),
            triangle(cell, LEFT),
            triangle(cell - 1, RIGHT),
            triangle(cell - 1, BOTTOM),
            triangle(cell - stride - 1, TOP),
            triangle(cell - stride - 1, RIGHT),
            triangle(cell - stride, LEFT),
            triangle(cell - stride, TOP),
        ]
    }

    /// Floods the band from the triangles on its stack, until one is
    /// outside (then raises `found`), `found` is raised, or the stack is
    /// empty; triangles met in other bands go to its outbox.
    fn flood(&self, band: &mut Band, found: &AtomicBool) {
        while let Some(triangle) = band.stack.pop() {
            if found.load(Ordering::Relaxed) {
                return;
            }
            match self.found_in(triangle) {
                Found::Outside => {
                    found.store(true, Ordering::Relaxed);
                    return;
                }
                Found::Wall => continue,
                Found::Open => {}
            }
            let (square, side) = (triangle / 4, triangle % 4);
            let across = match side {
                BOTTOM => 4 * (square - self.stride) + TOP,
                RIGHT => 4 * (square + 1) + LEFT,
                TOP => 4 * (square + self.stride) + BOTTOM,
                _ => 4 * (square - 1) + RIGHT,
            };
            // Offered last, the triangle across is looked at first: the flood
            // runs straight on until it meets something.
            for next in [
                4 * square + (side + 1) % 4,
                4 * square + (side + 3) % 4,
                across,
            ] {
                if band.holds(next) {
                    band.offer(next);
                } else {
                    band.outbox.push(next);
                }
            }
        }
    }

    /// What a triangle belongs to, read off a cell of its face at a corner of
    /// its square. Triangles of squares on the ring are outside, so the flood
    /// never leaves the arrays.
    fn found_in(&self, triangle: usize) -> Found {
        let (square, side) = (triangle / 4, triangle % 4);
        // The square's corners counter-clockwise from its lower left: side
        // `s` runs from corner `s` to corner `s + 1`.
        let corners = [
            square,
            square + 1,
            square + self.stride + 1,
            square + self.stride,
        ];
        let in_block = |corner: usize| self.kind[corners[corner % 4]] & IN_BLOCK != 0;
        let cell = if !in_block(side) {
            corners[side]
        } else if !in_block(side + 1) {
            corners[(side + 1) % 4]
        } else if (in_block(0) && in_block(2)) || (in_block(1) && in_block(3)) {
            // Both corners of the side are pieces and a diagonal closes the
            // triangle off from the rest: a face with no cell inside.
            return Found::Open;
        } else {
            corners[(side + 2) % 4]
        };
        match self.face[cell] {
            OUTER => Found::Outside,
            face if self.avoided[face as usize] => Found::Wall,
            _ => Found::Open,
        }
    }
}
