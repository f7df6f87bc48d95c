//! Cells as indices into an array that holds the board inside one ring of
//! extra cells: every board cell has its eight neighbours in the array, and the
//! ring stands for everything off the board.
//!
//! A *window* is a rectangle of the board seen the same way, the cells around
//! it standing for everything outside it: the drawing of a block can be
//! examined in its bounding box alone, since all around it is its outer face.

use super::grid::{Cell, Grid};

/// The shape of a padded board, or of a window of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Padded {
    /// The padded board's width, and its number of rows.
    stride: usize,
    rows: usize,
    /// The window: its lower left cell's column and row in the array, and its size.
    left: usize,
    bottom: usize,
    width: usize,
    height: usize,
}

/// An index into a padded board's arrays.
pub(super) type Index = usize;

/// One king step: its offset, and for a diagonal step the offsets of the two
/// cells it passes between.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub offset: isize,
    pub between: Option<(isize, isize)>,
}

impl Padded {
    /// The whole of a `width` x `height` board.
    pub fn new(width: usize, height: usize) -> Padded {
        Padded {
            stride: width + 2,
            rows: height + 2,
            left: 1,
            bottom: 1,
            width,
            height,
        }
    }

    pub fn of(grid: &Grid) -> Padded {
        Padded::new(grid.width(), grid.height())
    }

    /// The smallest window holding `cells` (board cells, at least one).
    pub fn window(self, cells: &[Index]) -> Padded {
        let stride = self.stride;
        let (left, right, bottom, top) = cells.iter().fold(
            (usize::MAX, 0, usize::MAX, 0),
            |(left, right, bottom, top), &index| {
                let (x, y) = (index % stride, index / stride);
                (left.min(x), right.max(x), bottom.min(y), top.max(y))
            },
        );
        Padded {
            left,
            bottom,
            width: right + 1 - left,
            height: top + 1 - bottom,
            ..self
        }
    }

    /// The window's rows in the array.
    pub fn rows(self) -> std::ops::Range<usize> {
        self.bottom..self.bottom + self.height
    }

    /// Cells in the window.
    pub fn area(self) -> usize {
        self.width * self.height
    }

    /// Cells in the array, ring included.
    pub fn len(self) -> usize {
        self.stride * self.rows
    }

    /// The distance between vertically adjacent cells.
    pub fn stride(self) -> usize {
        self.stride
    }

    pub fn index(self, cell: Cell) -> Index {
        (cell.y + 1) * self.stride + cell.x + 1
    }

    /// The board cell at `index` (not on the board's ring).
    pub fn cell(self, index: Index) -> Cell {
        Cell::new(index % self.stride - 1, index / self.stride - 1)
    }

    /// The window's cells, bottom row first.
    pub fn board(self) -> impl Iterator<Item = Index> {
        let (left, width, stride) = (self.left, self.width, self.stride);
        (self.bottom..self.bottom + self.height)
            .flat_map(move |y| (left..left + width).map(move |x| y * stride + x))
    }

    /// The cells around the window.
    pub fn ring(self) -> impl Iterator<Item = Index> {
        let stride = self.stride;
        let (left, right) = (self.left - 1, self.left + self.width);
        let (bottom, top) = (self.bottom - 1, self.bottom + self.height);
        let rows = (left..=right).flat_map(move |x| [bottom * stride + x, top * stride + x]);
        let sides = (bottom + 1..top).flat_map(move |y| [y * stride + left, y * stride + right]);
        rows.chain(sides)
    }

    /// The window's cells along its border (some twice in a window one cell wide).
    pub fn edge(self) -> impl Iterator<Item = Index> {
        let stride = self.stride;
        let (left, right) = (self.left, self.left + self.width - 1);
        let (bottom, top) = (self.bottom, self.bottom + self.height - 1);
        let rows = (left..=right).flat_map(move |x| [bottom * stride + x, top * stride + x]);
        let sides = (bottom + 1..top).flat_map(move |y| [y * stride + left, y * stride + right]);
        rows.chain(sides)
    }

    /// The eight king steps, bottom row first.
    pub fn steps(self) -> [Step; 8] {
        let row = self.stride as isize;
        let step = |dx: isize, dy: isize| Step {
            offset: dy * row + dx,
            between: (dx != 0 && dy != 0).then_some((dy * row, dx)),
        };
        [
            step(-1, -1),
            step(0, -1),
            step(1, -1),
            step(-1, 0),
            step(1, 0),
            step(-1, 1),
            step(0, 1),
            step(1, 1),
        ]
    }

    /// The eight neighbours of a board cell.
    pub fn neighbours(self, index: Index) -> impl Iterator<Item = Index> {
        self.steps()
            .into_iter()
            .map(move |step| index.wrapping_add_signed(step.offset))
    }
}
