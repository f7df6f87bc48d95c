//! A set of squares in one 64-bit word.

use std::fmt;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

use super::Square;

/// A set of squares, bit `i` standing for the square with index `i`.
///
/// `|` is union, `&` intersection, `-` difference, `^` symmetric difference and
/// `!` complement; iterating yields the squares from a1 upwards.
///
/// ```
/// use catena_core::board::{Bitboard, Square};
/// let e4: Square = "e4".parse().unwrap();
/// let d5: Square = "d5".parse().unwrap();
/// let both = Bitboard::from(e4) | d5.bitboard();
/// assert_eq!(both.len(), 2);
/// assert!(both.contains(d5));
/// assert_eq!(both - e4.bitboard(), d5.bitboard());
/// assert_eq!(both & Bitboard::rank(3), e4.bitboard());
/// assert_eq!(both.into_iter().collect::<Vec<_>>(), vec![e4, d5]);
/// assert_eq!((!both).len(), 62);
/// assert!(Bitboard::EMPTY.is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Square {
    /// The set of this square alone (here, beside the set, so that the
    /// square needs nothing of it).
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self.index())
    }
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    /// The squares on the outer ring of the board.
    pub const EDGES: Bitboard = Bitboard(0xff81_8181_8181_81ff);

    /// The eight squares of file `file` (0 = a).
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file)
    }

    /// The eight squares of rank `rank` (0 = first rank).
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.index()) != 0
    }

    /// More than one square in the set.
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of a non-empty set.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// Every square moved one rank up (towards rank 8); squares leaving the board vanish.
    pub const fn up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square moved one rank down (towards rank 1).
    pub const fn down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square moved one file left (towards the a-file).
    pub const fn left(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !Bitboard::file(7).0)
    }

    /// Every square moved one file right (towards the h-file).
    pub const fn right(self) -> Bitboard {
        Bitboard((self.0 << 1) & !Bitboard::file(0).0)
    }

    /// The set together with every square orthogonally next to one of its squares.
    pub const fn orthogonal_grow(self) -> Bitboard {
        Bitboard(self.0 | self.up().0 | self.down().0 | self.left().0 | self.right().0)
    }
}

impl From<Square> for Bitboard {
    fn from(square: Square) -> Bitboard {
        square.bitboard()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> Bitboard {
        squares
            .into_iter()
            .fold(Bitboard::EMPTY, |set, square| set | square.bitboard())
    }
}

/// The squares of a set, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = Square::from_index(self.0.trailing_zeros() as usize);
        self.0 &= self.0 - 1;
        Some(square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, |$a:ident, $b:ident| $body:expr) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, other: Bitboard) -> Bitboard {
                let ($a, $b) = (self.0, other.0);
                Bitboard($body)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, other: Bitboard) {
                *self = $trait::$method(*self, other);
            }
        }
    };
}

set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| a | b);
set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| a & b);
set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, |a, b| a ^ b);
set_operator!(Sub, sub, SubAssign, sub_assign, |a, b| a & !b);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Eight lines, rank 8 first, `X` for a member square.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for rank in (0..8).rev() {
            let line: String = (0..8)
                .map(|file| {
                    if self.contains(Square::new(file, rank)) {
                        'X'
                    } else {
                        '.'
                    }
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
