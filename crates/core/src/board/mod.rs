//! The chess board: squares and sets of squares, pieces, moves, and the position
//! with its legal move generation.

pub mod attacks;
mod bitboard;
mod castling;
mod color;
mod fen;
mod movegen;
mod moves;
mod piece;
mod position;
pub mod san;
mod square;
mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use castling::{Castling, CastlingRights, Wing};
pub use color::Color;
pub use fen::{FenError, Placement};
pub use movegen::{MoveList, MoveParseError, PieceMoves};
pub use moves::{Move, MoveKind};
pub use piece::Piece;
pub use position::Position;
pub use square::{ParseSquareError, Square};
