//! A board move in 16 bits.

use std::fmt;

use super::{Piece, Square};

/// What a move does beyond carrying a piece from one square to another.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    Normal,
    /// A pawn captures the pawn that just passed it; `to` is the empty square it lands on.
    EnPassant,
    /// The king moves two squares towards a rook; `to` is the king's destination.
    Castle,
    Promotion(Piece),
}

/// A move: origin, destination and kind, written in UCI notation (`e2e4`, `e7e8q`, `e1g1`).
///
/// ```
/// use catena_core::board::{Move, MoveKind, Piece};
/// let mv = Move::new("e7".parse().unwrap(), "e8".parse().unwrap(), MoveKind::Promotion(Piece::Knight));
/// assert_eq!(mv.to_string(), "e7e8n");
/// assert_eq!(mv.promotion(), Some(Piece::Knight));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_SHIFT: u32 = 12;
const EN_PASSANT: u16 = 1;
const CASTLE: u16 = 2;
/// Kinds from here up are promotions, to the piece `kind - PROMOTION_BASE + Knight`.
const PROMOTION_BASE: u16 = 4;

impl Move {
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let kind_bits = match kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => EN_PASSANT,
            MoveKind::Castle => CASTLE,
            MoveKind::Promotion(piece) => {
                PROMOTION_BASE + piece.index() as u16 - Piece::Knight.index() as u16
            }
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind_bits << KIND_SHIFT)
    }

    /// The move's 16 bits, as `from_bits` reads them back; the top bit is
    /// never set.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move whose `bits` these are.
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as usize)
    }

    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as usize)
    }

    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT {
            0 => MoveKind::Normal,
            EN_PASSANT => MoveKind::EnPassant,
            CASTLE => MoveKind::Castle,
            bits => MoveKind::Promotion(Piece::ALL[(bits - PROMOTION_BASE) as usize + 1]),
        }
    }

    pub const fn promotion(self) -> Option<Piece> {
        match self.kind() {
            MoveKind::Promotion(piece) => Some(piece),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(piece) = self.promotion() {
            write!(f, "{}", piece.letter())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
