//! Forsyth–Edwards Notation: reading with a precise error for every fault, and writing.

use std::fmt;
use std::str::FromStr;

use super::attacks::pawn_attacks;
use super::{Bitboard, Castling, CastlingRights, Color, Piece, Position, Square, Wing};

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    FieldCount(usize),
    RankCount(usize),
    RankLength {
        rank: u8,
        squares: usize,
    },
    BadPlacementCharacter(char),
    MissingKing(Color),
    SeveralKings(Color),
    PawnOnBackRank(Square),
    BadSideToMove(String),
    BadCastling(String),
    CastlingWithoutPieces {
        color: Color,
        wing: Wing,
    },
    BadEnPassant(String),
    ImpossibleEnPassant {
        square: Square,
        reason: &'static str,
    },
    SideNotToMoveInCheck(Color),
    TooManyCheckers(u32),
    /// More men of a kind than a game can bring about.
    ImpossibleMaterial {
        color: Color,
        reason: &'static str,
    },
    /// A double check no move can give: by two pawns, two knights, or a
    /// pawn and a knight (neither can uncover the other's attack).
    ImpossibleDoubleCheck,
    BadHalfmoveClock(String),
    BadFullmoveNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FenError::FieldCount(count) => {
                write!(
                    f,
                    "a FEN has 6 fields (or 4, without the counters), this one has {count}"
                )
            }
            FenError::RankCount(count) => {
                let ranks = if *count == 1 { "rank" } else { "ranks" };
                write!(f, "the board field has {count} {ranks} instead of 8")
            }
            FenError::RankLength { rank, squares } => {
                let noun = if *squares == 1 { "square" } else { "squares" };
                write!(f, "rank {} has {squares} {noun} instead of 8", rank + 1)
            }
            FenError::BadPlacementCharacter(c) => {
                write!(
                    f,
                    "'{c}' in the board field is neither a piece letter (pnbrqkPNBRQK) nor a digit 1-8"
                )
            }
            FenError::MissingKing(color) => write!(f, "the {color} king is missing"),
            FenError::SeveralKings(color) => write!(f, "there is more than one {color} king"),
            FenError::PawnOnBackRank(square) => {
                write!(f, "a pawn stands on {square}, on the first or last rank")
            }
            FenError::BadSideToMove(text) => {
                write!(f, "side to move '{text}' is neither 'w' nor 'b'")
            }
            FenError::BadCastling(text) => f.write_str(text),
            FenError::CastlingWithoutPieces { color, wing } => {
                let castling = Castling::of(*color, *wing);
                write!(
                    f,
                    "castling right {} needs the {color} king on {} and a {color} rook on {}",
                    CastlingRights::single(*color, *wing),
                    castling.king_from,
                    castling.rook_from
                )
            }
            FenError::BadEnPassant(text) => {
                write!(f, "en passant field '{text}' is neither '-' nor a square")
            }
            FenError::ImpossibleEnPassant { square, reason } => {
                write!(f, "en passant square {square} is impossible: {reason}")
            }
            FenError::SideNotToMoveInCheck(color) => {
                write!(f, "{color} is in check but it is not {color}'s move")
            }
            FenError::TooManyCheckers(count) => {
                write!(
                    f,
                    "the side to move is in check by {count} pieces; at most two can give check"
                )
            }
            FenError::ImpossibleMaterial { color, reason } => {
                write!(f, "{color} has {reason}, which no game can bring about")
            }
            FenError::ImpossibleDoubleCheck => f.write_str(
                "the side to move is in check by two pawns or knights, which no move can give",
            ),
            FenError::BadHalfmoveClock(text) => {
                write!(
                    f,
                    "halfmove clock '{text}' is not a number of half-moves from 0 to 65535"
                )
            }
            FenError::BadFullmoveNumber(text) => {
                write!(
                    f,
                    "fullmove number '{text}' is not a number from 1 to 65535"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Where the pieces stand: the first field of a FEN, checked only for its
/// form. A chain diagram needs no more (no kings, any number of men).
pub struct Placement {
    pub pieces: [Bitboard; 6],
    pub colors: [Bitboard; 2],
}

impl Placement {
    /// The placement field of `fen`, its first; the other fields are not read.
    pub fn from_fen(fen: &str) -> Result<Placement, FenError> {
        fen.split_whitespace()
            .next()
            .ok_or(FenError::FieldCount(0))?
            .parse()
    }

    /// The men of `position`.
    pub fn of(position: &Position) -> Placement {
        Placement {
            pieces: Piece::ALL.map(|piece| position.pieces(piece)),
            colors: Color::ALL.map(|color| position.colored(color)),
        }
    }

    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The man on `square`, if any.
    pub fn man_on(&self, square: Square) -> Option<(Piece, Color)> {
        let piece = Piece::ALL
            .into_iter()
            .find(|piece| self.pieces[piece.index()].contains(square))?;
        let color = Color::ALL
            .into_iter()
            .find(|color| self.colors[color.index()].contains(square))?;
        Some((piece, color))
    }
}

impl FromStr for Placement {
    type Err = FenError;

    fn from_str(field: &str) -> Result<Placement, FenError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        let mut placement = Placement {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
        };
        for (rank, text) in (0..8u8).rev().zip(ranks) {
            let mut file = 0usize;
            for c in text.chars() {
                if let Some(skip) = c.to_digit(10).filter(|digit| (1..=8).contains(digit)) {
                    file += skip as usize;
                    continue;
                }
                let piece = Piece::from_letter(c).ok_or(FenError::BadPlacementCharacter(c))?;
                if file < 8 {
                    let square = Square::new(file as u8, rank);
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    placement.pieces[piece.index()] |= square.bitboard();
                    placement.colors[color.index()] |= square.bitboard();
                }
                file += 1;
            }
            if file != 8 {
                return Err(FenError::RankLength {
                    rank,
                    squares: file,
                });
            }
        }
        Ok(placement)
    }
}

impl Position {
    /// Reads a FEN. The counters may be left out (they default to `0 1`); an
    /// en passant square that no pawn can capture on is accepted and dropped,
    /// since it changes neither the moves nor repetitions.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let Placement { pieces, colors } = fields[0].parse()?;
        let side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        let castling: CastlingRights = fields[2].parse().map_err(FenError::BadCastling)?;
        let en_passant = match fields[3] {
            "-" => None,
            text => Some(
                text.parse::<Square>()
                    .map_err(|_| FenError::BadEnPassant(text.to_string()))?,
            ),
        };
        let (halfmove_clock, fullmove_number) = match fields.get(4..6) {
            Some(&[halfmove, fullmove]) => (
                halfmove
                    .parse::<u16>()
                    .ok()
                    .ok_or_else(|| FenError::BadHalfmoveClock(halfmove.to_string()))?,
                fullmove
                    .parse::<u16>()
                    .ok()
                    .filter(|&number| number >= 1)
                    .ok_or_else(|| FenError::BadFullmoveNumber(fullmove.to_string()))?,
            ),
            _ => (0, 1),
        };

        let mut position = Position {
            pieces,
            colors,
            side_to_move,
            castling,
            en_passant: None,
            halfmove_clock,
            fullmove_number,
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        };
        position.check_material()?;
        position.check_castling()?;
        if let Some(square) = en_passant {
            position.check_en_passant(square)?;
            let capturers = pawn_attacks(!side_to_move, square)
                & position.colored_pieces(side_to_move, Piece::Pawn);
            if !capturers.is_empty() {
                position.en_passant = Some(square);
            }
        }
        let them = !side_to_move;
        if !position
            .attackers(position.king(them), side_to_move, position.occupied())
            .is_empty()
        {
            return Err(FenError::SideNotToMoveInCheck(them));
        }
        position.update_checkers_and_pins();
        if position.checkers.len() > 2 {
            return Err(FenError::TooManyCheckers(position.checkers.len()));
        }
        let leapers = position.pieces(Piece::Pawn) | position.pieces(Piece::Knight);
        if position.checkers.len() == 2 && (position.checkers - leapers).is_empty() {
            return Err(FenError::ImpossibleDoubleCheck);
        }
        position.key = position.key_from_scratch();
        Ok(position)
    }

    fn check_material(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            match self.colored_pieces(color, Piece::King).len() {
                0 => return Err(FenError::MissingKing(color)),
                1 => {}
                _ => return Err(FenError::SeveralKings(color)),
            }
        }
        if let Some(square) =
            (self.pieces(Piece::Pawn) & (Bitboard::rank(0) | Bitboard::rank(7))).first()
        {
            return Err(FenError::PawnOnBackRank(square));
        }
        for color in Color::ALL {
            let count = |piece| self.colored_pieces(color, piece).len();
            let impossible = |reason| Err(FenError::ImpossibleMaterial { color, reason });
            if self.colored(color).len() > 16 {
                return impossible("more than 16 men");
            }
            let pawns = count(Piece::Pawn);
            if pawns > 8 {
                return impossible("more than 8 pawns");
            }
            // Each man beyond the starting set is a promoted pawn.
            let promoted = count(Piece::Knight).saturating_sub(2)
                + count(Piece::Bishop).saturating_sub(2)
                + count(Piece::Rook).saturating_sub(2)
                + count(Piece::Queen).saturating_sub(1);
            if pawns + promoted > 8 {
                return impossible("more promoted men than missing pawns");
            }
        }
        Ok(())
    }

    fn check_castling(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            for wing in Wing::ALL {
                let castling = Castling::of(color, wing);
                if self.castling.has(color, wing)
                    && !(self
                        .colored_pieces(color, Piece::King)
                        .contains(castling.king_from)
                        && self
                            .colored_pieces(color, Piece::Rook)
                            .contains(castling.rook_from))
                {
                    return Err(FenError::CastlingWithoutPieces { color, wing });
                }
            }
        }
        Ok(())
    }

    /// The square must lie behind a pawn of the side not to move that has just advanced two squares.
    fn check_en_passant(&self, square: Square) -> Result<(), FenError> {
        let us = self.side_to_move;
        let impossible = |reason| Err(FenError::ImpossibleEnPassant { square, reason });
        if square.relative_rank(us) != 5 {
            return impossible(match us {
                Color::White => "with White to move it must be on the sixth rank",
                Color::Black => "with Black to move it must be on the third rank",
            });
        }
        let pushed_to =
            Square::new(square.file(), square.relative_to(us).rank() - 1).relative_to(us);
        let pushed_from =
            Square::new(square.file(), square.relative_to(us).rank() + 1).relative_to(us);
        if !self.colored_pieces(!us, Piece::Pawn).contains(pushed_to) {
            return impossible(
                "no pawn stands in front of it that could just have advanced two squares",
            );
        }
        if self.occupied().contains(square) || self.occupied().contains(pushed_from) {
            return impossible("the squares the pawn passed are not empty");
        }
        Ok(())
    }

    /// The position as a FEN with all six fields.
    pub fn to_fen(&self) -> String {
        self.to_string()
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

impl fmt::Display for Position {
    /// Writes the FEN.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let square = Square::new(file, rank);
                match (self.piece_on(square), self.color_on(square)) {
                    (Some(piece), Some(color)) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.fen_letter(color))?;
                    }
                    _ => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.side_to_move {
            Color::White => 'w',
            Color::Black => 'b',
        };
        let en_passant = self
            .en_passant
            .map_or("-".to_string(), |square| square.to_string());
        write!(
            f,
            " {side} {} {en_passant} {} {}",
            self.castling, self.halfmove_clock, self.fullmove_number
        )
    }
}
