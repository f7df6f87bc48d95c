//! The chess board's fast path: loops through a piece live in the 2-connected
//! blocks of the pieces' king graph that contain it.
//!
//! Every loop lies inside one block, and a block's outer border is itself a
//! loop around everything the block cuts off from the edge. So when the moved
//! piece stands on the outer border of a block, the largest chain through it
//! in that block surrounds exactly the empty squares the block cuts off — a
//! bitboard flood fill. A piece deep inside a block (every side of it
//! bounded) can have any one face of the block inside a loop (the block's dual
//! is 2-connected), so a group of empty squares within one face settles it,
//! also on bitboards; only when no face holds one does it need the corridor
//! search of [`super::surround`]. The twin on any grid is
//! [`super::blocks_grid`].

use arrayvec::ArrayVec;

use crate::board::attacks::king_attacks;
use crate::board::{Bitboard, Square};
use crate::chain::flood_bits::{escaping_squares, largest_group, spread};

/// What the blocks through a piece say about the chains through it.
pub(in crate::chain) struct BlockVerdict {
    /// The largest chain along the outer border of a block (0: none).
    pub largest_on_border: u32,
    /// Whether the piece is deep inside a block one of whose faces holds a
    /// group of enough empty squares: a chain through it surrounds them.
    pub inside_one_face: bool,
    /// The other blocks the piece is deep inside that cut off enough squares:
    /// chains around groups spread over several faces may pass through it,
    /// which only the corridor search can tell.
    pub inner: ArrayVec<Bitboard, 8>,
}

impl BlockVerdict {
    /// Whether the blocks alone show a chain through the piece.
    pub fn forms_chain(&self) -> bool {
        self.largest_on_border > 0 || self.inside_one_face
    }
}

/// The chains through `piece` (occupied) on the board `occupied`.
pub(in crate::chain) fn chains_through(
    occupied: Bitboard,
    piece: Square,
    min_enclosed: u32,
) -> BlockVerdict {
    let mut verdict = BlockVerdict {
        largest_on_border: 0,
        inside_one_face: false,
        inner: ArrayVec::new(),
    };
    let empty = !occupied;
    // A loop around a square needs four pieces at least.
    for block in blocks_through(occupied, piece).filter(|block| block.len() >= 4) {
        let outside = escaping_squares(block);
        let cut_off = empty - outside;
        if largest_group(cut_off) < min_enclosed {
            continue;
        }
        if on_outer_border(block, outside, piece) {
            verdict.largest_on_border = verdict.largest_on_border.max(cut_off.len());
        } else if one_face_holds_a_group(block, cut_off, min_enclosed) {
            verdict.inside_one_face = true;
        } else {
            verdict.inner.push(block);
        }
    }
    verdict
}

/// Whether the empty squares of `cut_off` inside one face of `block`'s
/// drawing hold a king-connected group of `min_enclosed`.
fn one_face_holds_a_group(block: Bitboard, cut_off: Bitboard, min_enclosed: u32) -> bool {
    let mut unseen = cut_off;
    while let Some(square) = unseen.first() {
        let face = spread(square.bitboard(), block);
        if largest_group(face & cut_off) >= min_enclosed {
            return true;
        }
        unseen -= face;
    }
    false
}

/// Whether the infinite face of `block`'s drawing touches `piece`: through an
/// orthogonal neighbour outside the block, or a diagonal one not sealed off by
/// a diagonal of the block.
fn on_outer_border(block: Bitboard, outside: Bitboard, piece: Square) -> bool {
    let reaches = |files: i8, ranks: i8| match piece.offset(files, ranks) {
        None => true,
        Some(square) => !block.contains(square) && outside.contains(square),
    };
    let in_block = |files: i8, ranks: i8| {
        piece
            .offset(files, ranks)
            .is_some_and(|sq| block.contains(sq))
    };
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .any(|(files, ranks)| reaches(files, ranks))
        || [(1, 1), (1, -1), (-1, 1), (-1, -1)]
            .into_iter()
            .any(|(files, ranks)| {
                reaches(files, ranks) && !(in_block(files, 0) && in_block(0, ranks))
            })
}

/// The 2-connected blocks of the pieces' king graph that contain `piece`
/// (Tarjan's algorithm from `piece`, iterative; only the blocks closed at the
/// root contain it).
///
/// Every already seen neighbour of a newly discovered square is still on the
/// path (had it been finished, it would have discovered the square itself),
/// so the square's back edges are all taken at its discovery, and a frame
/// needs no list of neighbours left to try: those unseen are its children.
fn blocks_through(occupied: Bitboard, piece: Square) -> impl Iterator<Item = Bitboard> {
    let mut discovered = [0u8; 64];
    let mut low = [0u8; 64];
    let mut seen = piece.bitboard();
    let mut counter = 1u8;
    let mut visited_path = ArrayVec::<Square, 64>::new();
    let mut path = ArrayVec::<Square, 64>::new();
    let mut blocks = ArrayVec::<Bitboard, 8>::new();

    path.push(piece);
    while let Some(&square) = path.last() {
        if let Some(next) = (king_attacks(square) & (occupied - seen)).first() {
            // `square` itself is among them.
            let lowest = (king_attacks(next) & occupied & seen)
                .into_iter()
                .map(|ancestor| discovered[ancestor.index()])
                .min()
                .expect("a discovered square's parent is a seen neighbour");
            seen |= next.bitboard();
            discovered[next.index()] = counter;
            low[next.index()] = lowest;
            counter += 1;
            visited_path.push(next);
            path.push(next);
            continue;
        }
        path.pop();
        let Some(&parent) = path.last() else {
            break;
        };
        low[parent.index()] = low[parent.index()].min(low[square.index()]);
        if low[square.index()] >= discovered[parent.index()] {
            // `parent` cuts off `square`'s subtree: the squares pushed since
            // `square` form a block with `parent`.
            let mut block = parent.bitboard();
            while let Some(member) = visited_path.pop() {
                block |= member.bitboard();
                if member == square {
                    break;
                }
            }
            if parent == piece {
                blocks.push(block);
            }
        }
    }
    blocks.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(squares: &str) -> Bitboard {
        squares
            .split_whitespace()
            .map(|name| name.parse::<Square>().unwrap())
            .collect()
    }

    #[test]
    fn a_cut_vertex_lies_in_two_blocks() {
        // Two triangles touching at c3.
        let occupied = board("a1 b1 b2 c3 d3 d4");
        let mut found: Vec<Bitboard> = blocks_through(occupied, "c3".parse().unwrap()).collect();
        found.sort_by_key(|block| block.0);
        assert_eq!(found, vec![board("b2 c3"), board("c3 d3 d4")]);
    }
}
