//! The cheap exact test that settles almost every move on the chess board.
//!
//! A loop can only surround empty squares that the pieces cut off from the
//! board's edge. An empty square is cut off unless a path of empty squares leads
//! from it to the edge, stepping orthogonally, or diagonally between two
//! squares that are not both occupied (two occupied ones would be joined by a
//! diagonal of the loop). A bitboard flood fill finds the squares that escape;
//! if the rest holds no group of `min_enclosed` king-connected squares, no move
//! can form a chain.
//!
//! The bitboard twin of [`super::flood_grid`], which floods any grid the same
//! way. The same floods serve the move screen ([`super::verdict::screen`]) and
//! find the face of a square in a block ([`super::verdict::blocks_bits`]).

use crate::board::Bitboard;

/// Squares outside `walls` joined to the edge (squares the pieces `walls`
/// can never have inside a loop).
pub(super) fn escaping_squares(walls: Bitboard) -> Bitboard {
    spread(!walls & Bitboard::EDGES, walls)
}

/// The squares outside `walls` that `from` reaches without crossing the
/// drawing of `walls`: orthogonal steps, and diagonal ones between two squares
/// that are not both walls. From a square, that is its face of the drawing.
pub(super) fn spread(from: Bitboard, walls: Bitboard) -> Bitboard {
    let open = !walls;
    // Diagonal steps into a square are barred when the two squares beside the
    // step are both walls; named by the square stepped into.
    let up_right = !(walls.right() & walls.up());
    let up_left = !(walls.left() & walls.up());
    let down_right = !(walls.right() & walls.down());
    let down_left = !(walls.left() & walls.down());
    let mut reached = from & open;
    loop {
        let grown = reached.orthogonal_grow()
            | (reached.up().right() & up_right)
            | (reached.up().left() & up_left)
            | (reached.down().right() & down_right)
            | (reached.down().left() & down_left);
        let grown = grown & open;
        if grown == reached {
            return reached;
        }
        reached = grown;
    }
}

/// The squares next to `set`, orthogonally or diagonally, and `set` itself.
pub(super) fn king_grow(set: Bitboard) -> Bitboard {
    let wide = set | set.left() | set.right();
    wide | wide.up() | wide.down()
}

/// Whether the pieces cut off a king-connected group of at least `min_enclosed`
/// empty squares somewhere on the board; when not, no loop can be a chain.
pub(super) fn may_enclose(occupied: Bitboard, min_enclosed: u32) -> bool {
    let cut_off = !occupied - escaping_squares(occupied);
    cut_off.len() >= min_enclosed && largest_group(cut_off) >= min_enclosed
}

/// The size of the largest king-connected group of squares in `set`.
pub(super) fn largest_group(mut set: Bitboard) -> u32 {
    let mut largest = 0;
    while let Some(seed) = set.first() {
        if set.len() <= largest {
            break;
        }
        let mut group = seed.bitboard();
        loop {
            let grown = king_grow(group) & set;
            if grown == group {
                break;
            }
            group = grown;
        }
        largest = largest.max(group.len());
        set -= group;
    }
    largest
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
