//! Rectangular boards of any size: the chain rule does not care about chess.

use std::fmt;

use crate::board::{Bitboard, Square};

/// A cell of a rectangular grid: `x` counts files from the left, `y` ranks from
/// the bottom, so `Cell { x: 0, y: 0 }` is a1 on the chess board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: usize,
    pub y: usize,
}

impl Cell {
    pub const fn new(x: usize, y: usize) -> Cell {
        Cell { x, y }
    }
}

impl From<Square> for Cell {
    fn from(square: Square) -> Cell {
        Cell::new(square.file() as usize, square.rank() as usize)
    }
}

/// The occupancy of a `width` x `height` board ("WxH", as boards are named in
/// the variant-description seeds): which cells hold a piece, of whatever colour.
///
/// ```
/// use catena_core::chain::{Cell, Grid};
/// let mut grid = Grid::new(5, 3).unwrap();
/// grid.set_occupied(Cell::new(4, 2), true);
/// assert!(grid.is_occupied(Cell::new(4, 2)));
/// assert_eq!(grid.to_string(), "....x\n.....\n.....\n");
/// assert_eq!(grid.name(), "5x3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    occupied: Vec<bool>,
}

/// Boards up to 255 x 255: far beyond any chess variant, and small enough that
/// the working arrays of a search stay modest.
pub const MAX_SIDE: usize = 255;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    Size {
        width: usize,
        height: usize,
    },
    Name(String),
    Rows {
        expected: usize,
        found: usize,
    },
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    Symbol(char),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GridError::Size { width, height } => write!(
                f,
                "a {width}x{height} board is not supported: each side must be 1 to {MAX_SIDE}"
            ),
            GridError::Name(name) => {
                write!(f, "'{name}' is not a board name like 8x8 (files x ranks)")
            }
            GridError::Rows { expected, found } => {
                write!(f, "the board needs {expected} rows, found {found}")
            }
            GridError::RowLength {
                row,
                expected,
                found,
            } => write!(
                f,
                "row {row} from the top has {found} cells, the board is {expected} wide"
            ),
            GridError::Symbol(symbol) => write!(
                f,
                "'{symbol}' is not a cell: use '.' for empty and 'x' (or any letter) for a piece"
            ),
        }
    }
}

impl std::error::Error for GridError {}

impl Grid {
    /// An empty board.
    pub fn new(width: usize, height: usize) -> Result<Grid, GridError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(GridError::Size { width, height });
        }
        Ok(Grid {
            width,
            height,
            occupied: vec![false; width * height],
        })
    }

    /// The chess board, square index `8 * rank + file`.
    pub fn from_bitboard(occupied: Bitboard) -> Grid {
        Grid {
            width: 8,
            height: 8,
            occupied: (0..64).map(|index| occupied.0 >> index & 1 == 1).collect(),
        }
    }

    /// A board written as its name and rows, top row first: `"3x3 xxx/x.x/xxx"`
    /// or over several lines. `.` is an empty cell; any letter is a piece.
    pub fn parse(text: &str) -> Result<Grid, GridError> {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("");
        let (width, height) = name
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .ok_or_else(|| GridError::Name(name.to_string()))?;
        let mut grid = Grid::new(width, height)?;
        let rows: Vec<&str> = words.flat_map(|word| word.split('/')).collect();
        if rows.len() != height {
            return Err(GridError::Rows {
                expected: height,
                found: rows.len(),
            });
        }
        for (row_from_top, row) in rows.iter().enumerate() {
            let found = row.chars().count();
            if found != width {
                return Err(GridError::RowLength {
                    row: row_from_top + 1,
                    expected: width,
                    found,
                });
            }
            for (x, symbol) in row.chars().enumerate() {
                let occupied = match symbol {
                    '.' => false,
                    letter if letter.is_ascii_alphabetic() => true,
                    other => return Err(GridError::Symbol(other)),
                };
                grid.set_occupied(Cell::new(x, height - 1 - row_from_top), occupied);
            }
        }
        Ok(grid)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// "WxH".
    pub fn name(&self) -> String {
        format!("{}x{}", self.width, self.height)
    }

    pub fn contains(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// Whether a piece stands on `cell`; cells off the board are empty.
    pub fn is_occupied(&self, cell: Cell) -> bool {
        self.contains(cell) && self.occupied[cell.y * self.width + cell.x]
    }

    pub fn set_occupied(&mut self, cell: Cell, occupied: bool) {
        assert!(
            self.contains(cell),
            "{cell:?} is off a {} board",
            self.name()
        );
        self.occupied[cell.y * self.width + cell.x] = occupied;
    }

    /// Every cell, bottom row first.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Cell::new(x, y)))
    }
}

/// Rows top first, `x` for a piece and `.` for an empty cell.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for y in (0..self.height).rev() {
            let row: String = (0..self.width)
                .map(|x| {
                    if self.is_occupied(Cell::new(x, y)) {
                        'x'
                    } else {
                        '.'
                    }
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}
