//! Squares of the 8x8 board, numbered a1 = 0, b1 = 1, …, h8 = 63.

use std::fmt;
use std::str::FromStr;

use super::Color;

/// One of the 64 squares of the board.
///
/// ```
/// use catena_core::board::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!((e4.file(), e4.rank()), (4, 3));
/// assert_eq!(e4.to_string(), "e4");
/// assert_eq!(e4.offset(1, 1), Some("f5".parse().unwrap()));
/// assert_eq!("h8".parse::<Square>().unwrap().offset(1, 0), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 64;

    /// The square on `file` (0 = a) and `rank` (0 = first rank); both must be below 8.
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square with index `index`, which must be below 64.
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    /// Every square, a1 first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..64u8).map(Square)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square `files` to the right and `ranks` up, if it is on the board.
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        let file = self.file() as i8 + files;
        let rank = self.rank() as i8 + ranks;
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square::new(file as u8, rank as u8))
        } else {
            None
        }
    }

    /// The same square seen from `color`'s side: a1 stays a1 for White, becomes a8 for Black.
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }

    /// The rank counted from `color`'s side, 0 being that colour's back rank.
    pub const fn relative_rank(self, color: Color) -> u8 {
        self.relative_to(color).rank()
    }

    /// The number of king moves from here to `other`.
    ///
    /// ```
    /// use catena_core::board::Square;
    /// assert_eq!(Square::new(0, 0).distance(Square::new(3, 1)), 3);
    /// assert_eq!(Square::new(4, 4).distance(Square::new(4, 4)), 0);
    /// ```
    pub const fn distance(self, other: Square) -> u8 {
        let files = self.file().abs_diff(other.file());
        let ranks = self.rank().abs_diff(other.rank());
        if files > ranks { files } else { ranks }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A square name that is not `a1` … `h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "'{}' is not a square (a1 … h8)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        match text.as_bytes() {
            &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Ok(Square::new(file - b'a', rank - b'1')),
            _ => Err(ParseSquareError(text.to_string())),
        }
    }
}
