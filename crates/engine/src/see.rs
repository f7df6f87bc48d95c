//! Static exchange evaluation: what a capture wins once every piece that
//! bears on its square has joined in, cheapest first, each side free to stop.
//! It sorts captures that lose material from those that do not, and lets the
//! search skip the former near the leaves.

use crate::eval::PIECE_VALUE;
use catena_core::board::attacks::{bishop_attacks, rook_attacks};
use catena_core::board::{Color, Move, MoveKind, Piece, Position};

/// Whether `mv` wins at least `threshold` centipawns in the exchange on its
/// square. Castling, en passant and promotions count as winning nothing.
/// Pins are ignored.
///
/// ```
/// use catena_core::board::Position;
/// use catena_engine::see::see_at_least;
/// // The pawn on d5 is defended by the e6 pawn: the queen loses itself for it.
/// let position = Position::from_fen("4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
/// let takes = position.parse_move("d2d5").unwrap();
/// assert!(!see_at_least(&position, takes, 0));
/// assert!(see_at_least(&position, takes, -900));
/// ```
pub fn see_at_least(position: &Position, mv: Move, threshold: i32) -> bool {
    if mv.kind() != MoveKind::Normal {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let value = |piece: Option<Piece>| piece.map_or(0, |piece| PIECE_VALUE[piece.index()]);
    // What the side to move stands to gain, less the threshold, after each capture.
    let mut swap = value(position.piece_on(to)) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(position.piece_on(from)) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = position.occupied() ^ from.bitboard() ^ to.bitboard();
    let diagonal = position.pieces(Piece::Bishop) | position.pieces(Piece::Queen);
    let orthogonal = position.pieces(Piece::Rook) | position.pieces(Piece::Queen);
    let mut attackers = position.attackers(to, Color::White, occupied)
        | position.attackers(to, Color::Black, occupied);
    let mut side = position.side_to_move();
    // 1 while the side that moved first comes out at the threshold or better.
    let mut result = 1;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & position.colored(side);
        if ours.is_empty() {
            break;
        }
        result ^= 1;
        // The cheapest piece joins first; `Piece::ALL` runs from pawn to king.
        let (piece, from) = Piece::ALL
            .iter()
            .find_map(|&piece| {
                (ours & position.pieces(piece))
                    .first()
                    .map(|square| (piece, square))
            })
            .expect("an attacker of some kind");
        if piece == Piece::King {
            // The king may take only if nothing takes it back.
            return if (attackers - position.colored(side)).is_empty() {
                result == 1
            } else {
                result == 0
            };
        }
        swap = PIECE_VALUE[piece.index()] - swap;
        if swap < result {
            break;
        }
        occupied ^= from.bitboard();
        // Sliders behind the piece that just took now see the square.
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= rook_attacks(to, occupied) & orthogonal;
        }
    }
    result == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let position = Position::from_fen(fen).unwrap();
        see_at_least(&position, position.parse_move(mv).unwrap(), threshold)
    }

    #[test]
    fn exchanges() {
        // An undefended pawn: wins a pawn, not more.
        let hanging = "4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(see(hanging, "d2d5", 100));
        assert!(!see(hanging, "d2d5", 101));
        // Rook takes a pawn defended by a pawn: loses the exchange of 500 for 100.
        let defended = "4k3/8/4p3/3p4/8/8/3R4/4K3 w - - 0 1";
        assert!(!see(defended, "d2d5", 0));
        assert!(see(defended, "d2d5", -400));
        // A second rook behind the first takes back through the x-ray: two
        // pawns for a rook.
        let doubled = "4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(doubled, "d2d5", -300));
        assert!(!see(doubled, "d2d5", -299));
        // Knight takes a rook defended by a pawn: wins the exchange.
        assert!(see("4k3/2p5/3r4/8/4N3/8/8/4K3 w - - 0 1", "e4d6", 190));
        // A quiet move onto a square a pawn guards loses the piece.
        let guarded = "4k3/8/8/8/3p4/8/8/3NK3 w - - 0 1";
        assert!(!see(guarded, "d1c3", 0));
        assert!(see(guarded, "d1b2", 0));
        // The king takes back only what nothing defends.
        assert!(!see("8/8/4k3/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 0));
        assert!(see("8/8/4k3/3p4/8/8/3Q4/3RK3 w - - 0 1", "d2d5", 100));
    }
}
