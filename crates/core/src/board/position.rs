//! The position: where the pieces stand, whose move it is, and what the rules remember.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use super::zobrist::{black_to_move_key, castling_key, en_passant_key, piece_key};
use super::{Bitboard, Castling, CastlingRights, Color, Move, MoveKind, Piece, Square, Wing};

/// A chess position, played forward by copying (`let child = parent.after(mv)`).
///
/// Besides the board it keeps its Zobrist key up to date incrementally, and the
/// pieces giving check and the pieces pinned to the side to move's king, which
/// every move generation needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) pieces: [Bitboard; 6],
    pub(super) colors: [Bitboard; 2],
    pub(super) side_to_move: Color,
    pub(super) castling: CastlingRights,
    /// Set only when a pawn of the side to move attacks it, as repetition and the key need.
    pub(super) en_passant: Option<Square>,
    pub(super) halfmove_clock: u16,
    pub(super) fullmove_number: u16,
    pub(super) key: u64,
    pub(super) checkers: Bitboard,
    pub(super) pinned: Bitboard,
}

impl Position {
    pub const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    pub fn startpos() -> Position {
        Position::from_fen(Position::START_FEN).expect("the start position is a valid FEN")
    }

    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The Zobrist key of board, side to move, castling rights and en passant square.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    pub fn in_check(&self) -> bool {
        !self.checkers.is_empty()
    }

    /// The side to move's pieces that may not leave the line between their king and an enemy slider.
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece.index()]
    }

    #[inline]
    pub fn colored_pieces(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece.index()] & self.colors[color.index()]
    }

    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.colored_pieces(color, Piece::King)
            .first()
            .expect("a position always holds one king of each colour")
    }

    pub fn piece_on(&self, square: Square) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|&piece| self.pieces(piece).contains(square))
    }

    pub fn color_on(&self, square: Square) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&color| self.colored(color).contains(square))
    }

    /// Bishops and queens of `color`.
    #[inline]
    pub(super) fn diagonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & self.colored(color)
    }

    /// Rooks and queens of `color`.
    #[inline]
    pub(super) fn orthogonal_sliders(&self, color: Color) -> Bitboard {
        (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & self.colored(color)
    }

    /// The pieces of `by` that attack `square`, with `occupied` as the blockers.
    #[inline]
    pub fn attackers(&self, square: Square, by: Color, occupied: Bitboard) -> Bitboard {
        ((knight_attacks(square) & self.pieces(Piece::Knight))
            | (king_attacks(square) & self.pieces(Piece::King))
            | (pawn_attacks(!by, square) & self.pieces(Piece::Pawn))
            | (bishop_attacks(square, occupied)
                & (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)))
            | (rook_attacks(square, occupied)
                & (self.pieces(Piece::Rook) | self.pieces(Piece::Queen))))
            & self.colored(by)
    }

    #[inline]
    fn toggle(&mut self, color: Color, piece: Piece, square: Square) {
        self.pieces[piece.index()] ^= square.bitboard();
        self.colors[color.index()] ^= square.bitboard();
        self.key ^= piece_key(color, piece, square);
    }

    /// The squares `mv` puts a piece on: its destination, and for castling the rook's too.
    #[inline]
    pub fn landing_squares(&self, mv: Move) -> Bitboard {
        match mv.kind() {
            MoveKind::Castle => {
                let castling = Castling::of(self.side_to_move, Wing::of_castling(mv));
                castling.king_to.bitboard() | castling.rook_to.bitboard()
            }
            _ => mv.to().bitboard(),
        }
    }

    /// The squares `mv` empties: its origin, the rook's for castling, the
    /// captured pawn's for en passant.
    #[inline]
    pub fn vacated_squares(&self, mv: Move) -> Bitboard {
        let from = mv.from().bitboard();
        match mv.kind() {
            MoveKind::Castle => {
                let castling = Castling::of(self.side_to_move, Wing::of_castling(mv));
                castling.king_from.bitboard() | castling.rook_from.bitboard()
            }
            MoveKind::EnPassant => from | Square::new(mv.to().file(), mv.from().rank()).bitboard(),
            _ => from,
        }
    }

    /// The occupied squares after `mv`, without playing it.
    #[inline]
    pub fn occupied_after(&self, mv: Move) -> Bitboard {
        (self.occupied() - self.vacated_squares(mv)) | self.landing_squares(mv)
    }

    /// True when `mv`, legal here, checks the opponent's king: directly from
    /// the square the piece lands on, or by uncovering one of our sliders.
    /// The same answer as `self.after(mv).in_check()` without playing it,
    /// so that pruning can spare checks before paying for the move.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move;
        let king = self.king(!us);
        let occupied = self.occupied_after(mv);
        let vacated = self.vacated_squares(mv);
        let (landed, to) = match mv.kind() {
            MoveKind::Castle => (Piece::Rook, Castling::of(us, Wing::of_castling(mv)).rook_to),
            MoveKind::Promotion(piece) => (piece, mv.to()),
            _ => match self.piece_on(mv.from()) {
                Some(piece) => (piece, mv.to()),
                None => return false,
            },
        };
        let direct = match landed {
            Piece::Pawn => pawn_attacks(us, to),
            Piece::Knight => knight_attacks(to),
            Piece::Bishop => bishop_attacks(to, occupied),
            Piece::Rook => rook_attacks(to, occupied),
            Piece::Queen => bishop_attacks(to, occupied) | rook_attacks(to, occupied),
            Piece::King => Bitboard::EMPTY,
        };
        let uncovered = (bishop_attacks(king, occupied) & (self.diagonal_sliders(us) - vacated))
            | (rook_attacks(king, occupied) & (self.orthogonal_sliders(us) - vacated));
        direct.contains(king) || !uncovered.is_empty()
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn after(&self, mv: Move) -> Position {
        let mut child = self.clone();
        child.play(mv);
        child
    }

    /// The key of `self.after(mv)` without playing `mv` (legal here): for
    /// a search that needs every child's key, to probe its table, and plays
    /// only the child it enters. `play` changes the key the same way.
    pub fn key_after(&self, mv: Move) -> u64 {
        let us = self.side_to_move;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let mut key = self.key
            ^ black_to_move_key()
            ^ castling_key(self.castling)
            ^ castling_key(self.castling.after_touching(from).after_touching(to));
        if let Some(square) = self.en_passant {
            key ^= en_passant_key(square);
        }
        let moved = self.piece_on(from).unwrap_or(Piece::Pawn);
        match mv.kind() {
            MoveKind::Castle => {
                let castling = Castling::of(us, Wing::of_castling(mv));
                key ^= piece_key(us, Piece::King, castling.king_from)
                    ^ piece_key(us, Piece::King, castling.king_to)
                    ^ piece_key(us, Piece::Rook, castling.rook_from)
                    ^ piece_key(us, Piece::Rook, castling.rook_to);
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to.file(), from.rank());
                key ^= piece_key(them, Piece::Pawn, captured)
                    ^ piece_key(us, Piece::Pawn, from)
                    ^ piece_key(us, Piece::Pawn, to);
            }
            kind => {
                if let Some(captured) = self.piece_on_colored(to, them) {
                    key ^= piece_key(them, captured, to);
                }
                let landed = match kind {
                    MoveKind::Promotion(piece) => piece,
                    _ => moved,
                };
                key ^= piece_key(us, moved, from) ^ piece_key(us, landed, to);
                if moved == Piece::Pawn && from.rank().abs_diff(to.rank()) == 2 {
                    let passed = Square::new(from.file(), (from.rank() + to.rank()) / 2);
                    if !(pawn_attacks(us, passed) & self.colored_pieces(them, Piece::Pawn))
                        .is_empty()
                    {
                        key ^= en_passant_key(passed);
                    }
                }
            }
        }
        key
    }

    /// Plays `mv`, which must be legal here (see `Position::is_legal`).
    pub fn play(&mut self, mv: Move) {
        let us = self.side_to_move;
        let them = !us;
        let (from, to) = (mv.from(), mv.to());
        let moved = self
            .piece_on(from)
            .expect("a legal move starts on one of our pieces");

        self.key ^= castling_key(self.castling);
        if let Some(square) = self.en_passant.take() {
            self.key ^= en_passant_key(square);
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        match mv.kind() {
            MoveKind::Castle => {
                let wing = if to.file() > from.file() {
                    Wing::King
                } else {
                    Wing::Queen
                };
                let castling = Castling::of(us, wing);
                self.toggle(us, Piece::King, castling.king_from);
                self.toggle(us, Piece::King, castling.king_to);
                self.toggle(us, Piece::Rook, castling.rook_from);
                self.toggle(us, Piece::Rook, castling.rook_to);
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to.file(), from.rank());
                self.toggle(them, Piece::Pawn, captured);
                self.toggle(us, Piece::Pawn, from);
                self.toggle(us, Piece::Pawn, to);
                self.halfmove_clock = 0;
            }
            kind => {
                if let Some(captured) = self.piece_on_colored(to, them) {
                    self.toggle(them, captured, to);
                    self.halfmove_clock = 0;
                }
                self.toggle(us, moved, from);
                let landed = match kind {
                    MoveKind::Promotion(piece) => piece,
                    _ => moved,
                };
                self.toggle(us, landed, to);
                if moved == Piece::Pawn {
                    self.halfmove_clock = 0;
                    if from.rank().abs_diff(to.rank()) == 2 {
                        let passed = Square::new(from.file(), (from.rank() + to.rank()) / 2);
                        if !(pawn_attacks(us, passed) & self.colored_pieces(them, Piece::Pawn))
                            .is_empty()
                        {
                            self.en_passant = Some(passed);
                            self.key ^= en_passant_key(passed);
                        }
                    }
                }
            }
        }

        self.castling = self.castling.after_touching(from).after_touching(to);
        self.key ^= castling_key(self.castling);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = them;
        self.key ^= black_to_move_key();
        self.update_checkers_and_pins();
    }

    /// The position with the other side to move and no en passant square:
    /// null-move pruning's pass. `None` when the side to move is in check,
    /// as passing would leave its king to be taken.
    pub fn null_move(&self) -> Option<Position> {
        if self.in_check() {
            return None;
        }
        let mut child = self.clone();
        if let Some(square) = child.en_passant.take() {
            child.key ^= en_passant_key(square);
        }
        child.side_to_move = !child.side_to_move;
        child.key ^= black_to_move_key();
        child.update_checkers_and_pins();
        Some(child)
    }

    #[inline]
    fn piece_on_colored(&self, square: Square, color: Color) -> Option<Piece> {
        if self.colored(color).contains(square) {
            self.piece_on(square)
        } else {
            None
        }
    }

    pub(super) fn update_checkers_and_pins(&mut self) {
        let us = self.side_to_move;
        let them = !us;
        let king = self.king(us);
        let occupied = self.occupied();
        let ours = self.colored(us);

        self.checkers = ((knight_attacks(king) & self.pieces(Piece::Knight))
            | (pawn_attacks(us, king) & self.pieces(Piece::Pawn)))
            & self.colored(them);
        self.pinned = Bitboard::EMPTY;

        // Enemy sliders aimed at the king through nothing but their own side's
        // pieces: with nothing between they check, with one of ours between it is pinned.
        let snipers = (bishop_attacks(king, self.colored(them)) & self.diagonal_sliders(them))
            | (rook_attacks(king, self.colored(them)) & self.orthogonal_sliders(them));
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                self.checkers |= sniper.bitboard();
            } else if !blockers.has_several() && !(blockers & ours).is_empty() {
                self.pinned |= blockers;
            }
        }
    }

    /// The Zobrist key computed from nothing, to check the incremental one.
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = castling_key(self.castling);
        for color in Color::ALL {
            for piece in Piece::ALL {
                for square in self.colored_pieces(color, piece) {
                    key ^= piece_key(color, piece, square);
                }
            }
        }
        if let Some(square) = self.en_passant {
            key ^= en_passant_key(square);
        }
        if self.side_to_move == Color::Black {
            key ^= black_to_move_key();
        }
        key
    }

    /// True when neither side has enough material left to mate by any series of legal moves
    /// that this cheap test recognises: K v K, K+minor v K, K+B v K+B with bishops on one colour.
    pub fn is_dead(&self) -> bool {
        let kings = self.pieces(Piece::King);
        let others = self.occupied() - kings;
        let minors = self.pieces(Piece::Knight) | self.pieces(Piece::Bishop);
        match others.len() {
            0 => true,
            1 => !(others & minors).is_empty(),
            2 => {
                let bishops = self.pieces(Piece::Bishop);
                const DARK: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
                bishops.len() == 2
                    && !(bishops & self.colored(Color::White)).is_empty()
                    && !(bishops & self.colored(Color::Black)).is_empty()
                    && ((bishops & DARK).is_empty() || (bishops - DARK).is_empty())
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// `key_after` is the key `play` gives the child, along random games
    /// with castling, en passant and promotions.
    #[test]
    fn key_after_is_the_key_of_the_child() {
        let fens = [
            Position::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "8/2P1k3/8/8/8/8/4Kp2/8 w - - 0 1",
        ];
        let mut random = SplitMix64::new(53);
        for fen in fens {
            for _ in 0..20 {
                let mut position = Position::from_fen(fen).unwrap();
                for _ in 0..40 {
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &mv in &moves {
                        assert_eq!(position.key_after(mv), position.after(mv).key(), "{mv}");
                    }
                    position.play(moves[random.below(moves.len())]);
                }
            }
        }
    }
}
