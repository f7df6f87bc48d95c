//! The cheap exact test that settles almost every move on the chess board.
//!
//! A loop can only surround empty squares that the pieces cut off from the
//! board's edge. An empty square is cut off unless a path of empty squares leads
//! from it to the edge, stepping orthogonally, or diagonally between two
//! squares that are not both occupied (two occupied ones would be joined by a
//! diagonal of the loop). A bitboard flood fill finds the squares that escape;
//! if the rest holds no group of `min_enclosed` king-connected squares, no move
//! can form a chain.

use crate::board::Bitboard;

/// Empty squares that no loop of pieces can ever have inside.
fn escaping_squares(occupied: Bitboard) -> Bitboard {
    let empty = !occupied;
    // Diagonal steps into a square are barred when the two squares beside the
    // step are both occupied; named by the square stepped into.
    let up_right = !(occupied.right() & occupied.up());
    let up_left = !(occupied.left() & occupied.up());
    let down_right = !(occupied.right() & occupied.down());
    let down_left = !(occupied.left() & occupied.down());
    let mut escaped = empty & Bitboard::EDGES;
    loop {
        let grown = escaped.orthogonal_grow()
            | (escaped.up().right() & up_right)
            | (escaped.up().left() & up_left)
            | (escaped.down().right() & down_right)
            | (escaped.down().left() & down_left);
        let grown = grown & empty;
        if grown == escaped {
            return escaped;
        }
        escaped = grown;
    }
}

/// The squares next to `set`, orthogonally or diagonally, and `set` itself.
fn king_grow(set: Bitboard) -> Bitboard {
    let wide = set | set.left() | set.right();
    wide | wide.up() | wide.down()
}

/// Whether the pieces cut off a king-connected group of at least `min_enclosed`
/// empty squares somewhere on the board; when not, no loop can be a chain.
pub(super) fn may_enclose(occupied: Bitboard, min_enclosed: u32) -> bool {
    let mut cut_off = !occupied - escaping_squares(occupied);
    if cut_off.len() < min_enclosed {
        return false;
    }
    while let Some(seed) = cut_off.first() {
        let mut group = seed.bitboard();
        loop {
            let grown = king_grow(group) & cut_off;
            if grown == group {
                break;
            }
            group = grown;
        }
        if group.len() >= min_enclosed {
            return true;
        }
        cut_off -= group;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn occupied(fen: &str) -> Bitboard {
        Position::from_fen(fen).unwrap().occupied()
    }

    #[test]
    fn the_start_position_cuts_nothing_off() {
        let start = occupied("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(!may_enclose(start, 1));
    }

    #[test]
    fn a_diagonal_gap_between_two_pieces_is_closed() {
        // After 1.c3 e5 2.d3: c2 and d2 are sealed by b2-c3-d3-e2 and the back rank.
        let position = occupied("rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2");
        assert!(may_enclose(position, 2));
        assert!(!may_enclose(position, 3));
    }
}
