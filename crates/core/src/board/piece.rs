//! The six kinds of piece.

use super::Color;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Piece {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Piece {
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    /// The pieces a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter of FEN and UCI promotions: `p n b r q k`.
    pub const fn letter(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    pub fn from_letter(letter: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|piece| piece.letter() == letter.to_ascii_lowercase())
    }

    /// The FEN letter of this piece in `color`: upper case for White.
    pub fn fen_letter(self, color: Color) -> char {
        match color {
            Color::White => self.letter().to_ascii_uppercase(),
            Color::Black => self.letter(),
        }
    }
}
