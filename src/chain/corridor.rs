//! Whether a loop through a piece can go around a set of faces.
//!
//! Take the drawing of a block (pieces joined by king steps, see
//! [`super::faces`]) and a set `T` of its bounded faces that touch one another.
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
//! The eight searches can run one after another or in parallel under rayon.
//! They share one set of claimed triangles, so no triangle is searched twice
//! and together they do the work of a single flood; the first to reach the
//! outer face raises a flag that the others check at every step, and stop.
//! In parallel, a search whose stack grows long offers its older half to an
//! idle thread, so that a thread that wakes late still finds work.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::padded::{Index, Padded};
use super::spread::OUTER;

/// Flag in a drawing's `kind`: a piece of the block being examined.
pub(super) const IN_BLOCK: u8 = 2;

/// The triangles of a unit square, by the side of the square they lie on;
/// a triangle is numbered `4 * square + side`, where the square is named by
/// the cell at its lower left corner.
const BOTTOM: usize = 0;
const RIGHT: usize = 1;
const TOP: usize = 2;
const LEFT: usize = 3;

/// How to run the searches of one corridor question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// In parallel when the block is large enough to pay for it.
    Auto,
    Sequential,
    Parallel,
}

/// How long a parallel search's stack grows before it offers half to
/// another thread.
const SHARE_FROM: usize = 256;

/// What the corridor finds in a triangle.
enum Found {
    /// A face the corridor may not enter.
    Wall,
    Open,
    /// The outer face: the corridor is complete.
    Outside,
}

/// The corridor question for one set of faces.
pub(super) struct Corridor<'a> {
    stride: usize,
    /// Flags per cell (`IN_BLOCK`).
    kind: &'a [u8],
    /// The face of every cell that is not a piece of the block.
    face: &'a [u32],
    /// The faces the corridor may not enter, by label.
    avoided: &'a [bool],
}

/// Marks a triangle as searched; says whether it was new.
trait Claim {
    fn claim(&self, triangle: usize) -> bool;
}

/// Claims made by one thread at a time: plain loads and stores.
struct Alone<'a>(&'a [AtomicU64]);

/// Claims raced for by several threads.
struct Shared<'a>(&'a [AtomicU64]);

impl Claim for Alone<'_> {
    fn claim(&self, triangle: usize) -> bool {
        let (word, bit) = (&self.0[triangle / 64], 1 << (triangle % 64));
        let bits = word.load(Ordering::Relaxed);
        word.store(bits | bit, Ordering::Relaxed);
        bits & bit == 0
    }
}

impl Claim for Shared<'_> {
    fn claim(&self, triangle: usize) -> bool {
        let (word, bit) = (&self.0[triangle / 64], 1 << (triangle % 64));
        word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    }
}

impl<'a> Corridor<'a> {
    pub fn new(layout: Padded, kind: &'a [u8], face: &'a [u32], avoided: &'a [bool]) -> Self {
        Corridor {
            stride: layout.stride(),
            kind,
            face,
            avoided,
        }
    }

    /// Whether a corridor leads from the outer face to `piece`. `claims` and
    /// `stack` are working space.
    pub fn reaches(
        &self,
        piece: Index,
        parallel: bool,
        claims: &mut Vec<AtomicU64>,
        stack: &mut Vec<usize>,
    ) -> bool {
        let triangles = 4 * self.kind.len();
        claims.clear();
        claims.resize_with(triangles.div_ceil(64), AtomicU64::default);
        // Each search owns its first triangle, so that the first to start
        // cannot take the others' before they run.
        let roots = self.around(piece);
        for &root in &roots {
            Alone(claims).claim(root);
        }
        let found = AtomicBool::new(false);
        if parallel {
            let claims = Shared(claims);
            roots
                .par_iter()
                .for_each(|&root| self.search_shared(vec![root], &claims, &found));
        } else {
            stack.clear();
            stack.extend(roots);
            self.search(stack, &Alone(claims), &found, |_| false);
        }
        found.into_inner()
    }

    /// A search among others in parallel: when its stack grows long, it goes
    /// on with the newer half and offers the older half to an idle thread.
    fn search_shared(&self, mut stack: Vec<usize>, claims: &Shared, found: &AtomicBool) {
        self.search(&mut stack, claims, found, |stack| stack.len() >= SHARE_FROM);
        if !stack.is_empty() {
            let newer = stack.split_off(stack.len() / 2);
            rayon::join(
                || self.search_shared(newer, claims, found),
                || self.search_shared(stack, claims, found),
            );
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

    /// Floods from the claimed triangles on `stack` over triangles nobody
    /// has claimed, until one is outside (then raises `found`), another search
    /// has raised `found`, the stack is empty, or `pause` says to stop there.
    fn search(
        &self,
        stack: &mut Vec<usize>,
        claims: &impl Claim,
        found: &AtomicBool,
        pause: impl Fn(&Vec<usize>) -> bool,
    ) {
        while let Some(triangle) = stack.pop() {
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
            // Pushed last, the triangle across is tried first: the flood
            // runs straight on until it meets something.
            for next in [
                4 * square + (side + 1) % 4,
                4 * square + (side + 3) % 4,
                across,
            ] {
                if claims.claim(next) {
                    stack.push(next);
                }
            }
            if pause(stack) {
                return;
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
