//! Cells as indices into an array that holds the board inside one ring of
//! extra cells: every board cell has its eight neighbours in the array, and the
//! ring stands for everything off the board.

use super::grid::{Cell, Grid};

/// The shape of a padded board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Padded {
    width: usize,
    height: usize,
    stride: usize,
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
    pub fn new(width: usize, height: usize) -> Padded {
        Padded {
            width,
            height,
            stride: width + 2,
        }
    }

    pub fn of(grid: &Grid) -> Padded {
        Padded::new(grid.width(), grid.height())
    }

    /// Cells in the array, ring included.
    pub fn len(self) -> usize {
        self.stride * (self.height + 2)
    }

    /// The distance between vertically adjacent cells.
    pub fn stride(self) -> usize {
        self.stride
    }

    pub fn index(self, cell: Cell) -> Index {
        (cell.y + 1) * self.stride + cell.x + 1
    }

    /// The board cell at `index` (not on the ring).
    pub fn cell(self, index: Index) -> Cell {
        Cell::new(index % self.stride - 1, index / self.stride - 1)
    }

    /// The board's cells, bottom row first.
    pub fn board(self) -> impl Iterator<Item = Index> {
        let (width, stride) = (self.width, self.stride);
        (1..=self.height).flat_map(move |y| (1..=width).map(move |x| y * stride + x))
    }

    /// The cells of the ring.
    pub fn ring(self) -> impl Iterator<Item = Index> {
        let (stride, rows) = (self.stride, self.height + 2);
        (0..stride * rows).filter(move |&index| {
            let (x, y) = (index % stride, index / stride);
            x == 0 || y == 0 || x == stride - 1 || y == rows - 1
        })
    }

    /// The board cells on its edge.
    pub fn edge(self) -> impl Iterator<Item = Index> {
        let (width, height) = (self.width, self.height);
        self.board().filter(move |&index| {
            let cell = self.cell(index);
            cell.x == 0 || cell.y == 0 || cell.x + 1 == width || cell.y + 1 == height
        })
    }

    /// The number of cells in the smallest rectangle holding `cells`.
    pub fn bounding_box(self, cells: &[Index]) -> usize {
        let (columns, rows) = cells.iter().fold(
            ((usize::MAX, 0), (usize::MAX, 0)),
            |((left, right), (bottom, top)), &index| {
                let (x, y) = (index % self.stride, index / self.stride);
                ((left.min(x), right.max(x)), (bottom.min(y), top.max(y)))
            },
        );
        (columns.1 + 1).saturating_sub(columns.0) * (rows.1 + 1).saturating_sub(rows.0)
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
