//! Legal move generation.
//!
//! Moves come out grouped by piece: one `PieceMoves` holds a piece's origin and
//! the set of its legal destinations. Counting moves is then a popcount per
//! piece, which is what makes bulk-counted perft fast; a move list expands the
//! sets into `Move`s.

use arrayvec::ArrayVec;

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::{Bitboard, Castling, Color, Move, MoveKind, Piece, Position, Square, Wing};

/// No chess position has more than 218 legal moves.
pub type MoveList = ArrayVec<Move, 256>;

/// The legal destinations of one piece.
#[derive(Clone, Copy, Debug)]
pub struct PieceMoves {
    pub piece: Piece,
    pub from: Square,
    pub to: Bitboard,
    /// The en passant square, which a pawn reaches by capturing en passant.
    en_passant: Option<Square>,
}

const BACK_RANKS: Bitboard = Bitboard(Bitboard::rank(0).0 | Bitboard::rank(7).0);

impl PieceMoves {
    /// The number of moves, a promotion counting once for each piece it may become.
    #[inline]
    pub fn len(&self) -> usize {
        if self.piece == Piece::Pawn {
            (self.to - BACK_RANKS).len() as usize + 4 * (self.to & BACK_RANKS).len() as usize
        } else {
            self.to.len() as usize
        }
    }

    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    fn kind_to(&self, to: Square) -> MoveKind {
        match self.piece {
            Piece::Pawn if Some(to) == self.en_passant => MoveKind::EnPassant,
            Piece::King if to.file().abs_diff(self.from.file()) == 2 => MoveKind::Castle,
            _ => MoveKind::Normal,
        }
    }
}

impl IntoIterator for PieceMoves {
    type Item = Move;
    type IntoIter = PieceMovesIter;

    fn into_iter(self) -> PieceMovesIter {
        PieceMovesIter {
            moves: self,
            remaining: self.to,
            next_promotion: 0,
        }
    }
}

/// The moves of one `PieceMoves`, a promotion giving four.
pub struct PieceMovesIter {
    moves: PieceMoves,
    remaining: Bitboard,
    next_promotion: usize,
}

impl Iterator for PieceMovesIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let to = self.remaining.first()?;
        let from = self.moves.from;
        if self.moves.piece == Piece::Pawn && BACK_RANKS.contains(to) {
            let piece = Piece::PROMOTIONS[self.next_promotion];
            self.next_promotion += 1;
            if self.next_promotion == Piece::PROMOTIONS.len() {
                self.next_promotion = 0;
                self.remaining -= to.bitboard();
            }
            return Some(Move::new(from, to, MoveKind::Promotion(piece)));
        }
        self.remaining -= to.bitboard();
        Some(Move::new(from, to, self.moves.kind_to(to)))
    }
}

/// `bitboard` moved one rank forward for `color`'s pawns.
#[inline]
fn forward(bitboard: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => bitboard.up(),
        Color::Black => bitboard.down(),
    }
}

impl Position {
    /// Calls `listener` with the legal moves of each piece that has some; stops
    /// early, returning true, as soon as `listener` returns true.
    #[inline]
    pub fn generate_moves(&self, mut listener: impl FnMut(PieceMoves) -> bool) -> bool {
        let us = self.side_to_move;
        let king = self.king(us);
        let ours = self.colored(us);
        let mut emit = |piece, from, to: Bitboard, en_passant| {
            !to.is_empty()
                && listener(PieceMoves {
                    piece,
                    from,
                    to,
                    en_passant,
                })
        };

        if emit(Piece::King, king, self.king_destinations(king), None) {
            return true;
        }
        let targets = match self.checkers.first() {
            None => !ours,
            Some(_) if self.checkers.has_several() => return false,
            Some(checker) => between(king, checker) | checker.bitboard(),
        };

        let occupied = self.occupied();
        let pinned = self.pinned;
        let restrict_pinned = |from: Square, to: Bitboard| {
            if pinned.contains(from) {
                to & line(king, from)
            } else {
                to
            }
        };

        for from in self.colored_pieces(us, Piece::Knight) - pinned {
            if emit(Piece::Knight, from, knight_attacks(from) & targets, None) {
                return true;
            }
        }
        for piece in [Piece::Bishop, Piece::Rook, Piece::Queen] {
            for from in self.colored_pieces(us, piece) {
                let attacks = match piece {
                    Piece::Bishop => bishop_attacks(from, occupied),
                    Piece::Rook => rook_attacks(from, occupied),
                    _ => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
                };
                if emit(piece, from, restrict_pinned(from, attacks & targets), None) {
                    return true;
                }
            }
        }

        let theirs = self.colored(!us);
        let empty = !occupied;
        let start_rank = Bitboard::rank(Square::new(0, 1).relative_to(us).rank());
        for from in self.colored_pieces(us, Piece::Pawn) {
            let single = forward(from.bitboard(), us) & empty;
            let double = forward(single & forward(start_rank, us), us) & empty;
            let captures = pawn_attacks(us, from) & theirs;
            let mut to = restrict_pinned(from, (single | double | captures) & targets);
            if let Some(square) = self.en_passant
                && pawn_attacks(us, from).contains(square)
                && self.en_passant_is_legal(from, square)
            {
                to |= square.bitboard();
            }
            if emit(Piece::Pawn, from, to, self.en_passant) {
                return true;
            }
        }
        false
    }

    /// King steps to unattacked squares, and castling when it is allowed.
    #[inline]
    fn king_destinations(&self, king: Square) -> Bitboard {
        let us = self.side_to_move;
        let them = !us;
        // The king must not hide behind itself from a slider that checks it.
        let occupied = self.occupied() - king.bitboard();
        let mut destinations = Bitboard::EMPTY;
        for to in king_attacks(king) - self.colored(us) {
            if self.attackers(to, them, occupied).is_empty() {
                destinations |= to.bitboard();
            }
        }
        if self.checkers.is_empty() {
            for wing in Wing::ALL {
                let castling = Castling::of(us, wing);
                if self.castling.has(us, wing)
                    && (castling.must_be_empty & self.occupied()).is_empty()
                    && castling
                        .king_path
                        .into_iter()
                        .all(|square| self.attackers(square, them, self.occupied()).is_empty())
                {
                    destinations |= castling.king_to.bitboard();
                }
            }
        }
        destinations
    }

    /// Whether the pawn on `from` may capture en passant onto `square`. Tested
    /// in full, by the king's attackers afterwards, because the capture empties
    /// two squares of one rank at once and may answer a check by the captured pawn.
    fn en_passant_is_legal(&self, from: Square, square: Square) -> bool {
        let us = self.side_to_move;
        let captured = Square::new(square.file(), from.rank());
        let occupied =
            (self.occupied() - from.bitboard() - captured.bitboard()) | square.bitboard();
        (self.attackers(self.king(us), !us, occupied) - captured.bitboard()).is_empty()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
        moves
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut count = 0;
        self.generate_moves(|piece_moves| {
            count += piece_moves.len();
            false
        });
        count
    }

    pub fn has_legal_move(&self) -> bool {
        self.generate_moves(|_| true)
    }

    /// Whether `mv` is one of the legal moves here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.generate_moves(|piece_moves| {
            piece_moves.from == mv.from() && piece_moves.into_iter().any(|legal| legal == mv)
        })
    }
}

/// Why a move in UCI notation cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    Notation(String),
    NoPieceToMove { square: Square, color: Color },
    Illegal(String),
}

impl std::fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            MoveParseError::Notation(text) => {
                write!(
                    f,
                    "'{text}' is not a move in UCI notation (like e2e4 or e7e8q)"
                )
            }
            MoveParseError::NoPieceToMove { square, color } => {
                write!(f, "there is no {color} piece on {square} to move")
            }
            MoveParseError::Illegal(text) => {
                write!(f, "{text} is not a legal move in this position")
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

impl Position {
    /// The piece `mv` captures, if any.
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        match mv.kind() {
            MoveKind::EnPassant => Some(Piece::Pawn),
            _ if self.colored(!self.side_to_move()).contains(mv.to()) => self.piece_on(mv.to()),
            _ => None,
        }
    }

    /// The legal move written `text` in UCI notation (`e2e4`, `e7e8q`, `e1g1`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let notation_error = || MoveParseError::Notation(text.to_string());
        let from: Square = text
            .get(0..2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(notation_error)?;
        let to: Square = text
            .get(2..4)
            .and_then(|s| s.parse().ok())
            .ok_or_else(notation_error)?;
        let promotion = match text.get(4..) {
            Some("") => None,
            Some(letter) if letter.len() == 1 => Some(
                Piece::from_letter(letter.chars().next().unwrap_or_default())
                    .filter(|piece| Piece::PROMOTIONS.contains(piece))
                    .ok_or_else(notation_error)?,
            ),
            _ => return Err(notation_error()),
        };
        let color = self.side_to_move;
        if !self.colored(color).contains(from) {
            return Err(MoveParseError::NoPieceToMove {
                square: from,
                color,
            });
        }
        self.legal_moves()
            .into_iter()
            .find(|mv| mv.from() == from && mv.to() == to && mv.promotion() == promotion)
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }
}
