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
//!
//! The walk that finds the blocks is most of the chain test's cost in the
//! engine, so it runs only over the pieces that can be on a loop at all, and
//! not at all when they cut off no group large enough, or when the question
//! is only whether a chain passes through the piece and the piece touches
//! both the outside and a face that holds a group large enough.

use arrayvec::ArrayVec;

use crate::board::attacks::king_attacks;
use crate::board::{Bitboard, Square};
use crate::chain::flood_bits::{escaping_squares, king_grow, largest_group, spread};

/// What the blocks through a piece say about the chains through it.
pub(in crate::chain) struct BlockVerdict {
    /// The largest chain along the outer border of a block (0: none).
    pub largest_on_border: u32,
    /// Whether the piece touches both the outside and a face that holds a
    /// group of enough empty squares, so that a chain along an outer border
    /// surrounds them (asked only under [`Want::Whether`], before the walk).
    pub beside_a_pocket: bool,
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
        self.largest_on_border > 0 || self.beside_a_pocket || self.inside_one_face
    }
}

/// What the caller of [`chains_through`] needs to know.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::chain) enum Want {
    /// Whether a chain passes through the piece: a yes may come before the
    /// walk, without the largest chain's size.
    Whether,
    /// The largest chain along an outer border too.
    Size,
}

/// The chains through `piece` (occupied) on the board `occupied`.
pub(in crate::chain) fn chains_through(
    occupied: Bitboard,
    piece: Square,
    min_enclosed: u32,
    want: Want,
) -> BlockVerdict {
    let mut verdict = BlockVerdict {
        largest_on_border: 0,
        beside_a_pocket: false,
        inside_one_face: false,
        inner: ArrayVec::new(),
    };
    let empty = !occupied;
    // Every loop through the piece lies among the pieces of its group that
    // are on loops at all; when those cut nothing off, the walk is spared.
    let on_loops = loop_pieces(occupied, piece);
    if !on_loops.contains(piece) {
        return verdict;
    }
    let outside_all = escaping_squares(on_loops);
    if largest_group(empty - outside_all) < min_enclosed {
        return verdict;
    }
    if want == Want::Whether
        && beside_the_outside_and_a_pocket(
            on_loops,
            outside_all,
            empty - outside_all,
            piece,
            min_enclosed,
        )
    {
        verdict.beside_a_pocket = true;
        return verdict;
    }
    // A loop around a square needs four pieces at least.
    for block in blocks_through(on_loops, piece).filter(|block| block.len() >= 4) {
        // The piece's block is often all of them: then their flood is its
        // flood, and what they cut off has passed the test above.
        let outside = if block == on_loops {
            outside_all
        } else {
            let outside = escaping_squares(block);
            if largest_group(empty - outside) < min_enclosed {
                continue;
            }
            outside
        };
        let cut_off = empty - outside;
        if on_outer_border(touching_faces(block, piece), outside, piece) {
            verdict.largest_on_border = verdict.largest_on_border.max(cut_off.len());
        } else if a_face_holds_a_group(cut_off, block, cut_off, min_enclosed) {
            verdict.inside_one_face = true;
        } else {
            verdict.inner.push(block);
        }
    }
    verdict
}

/// The pieces king-connected to `piece` that can lie on a loop: its group
/// with the pieces on no cycle peeled off (those with fewer than two
/// neighbours left, until none is), the group's 2-core. The blocks of three
/// or more pieces, all a loop can use, are the same in it as on the board.
fn loop_pieces(occupied: Bitboard, piece: Square) -> Bitboard {
    let mut core = occupied;
    loop {
        let kept = core & neighboured_twice(core);
        if kept == core {
            break;
        }
        core = kept;
    }
    let mut group = piece.bitboard() & core;
    loop {
        let grown = king_grow(group) & core;
        if grown == group {
            return group;
        }
        group = grown;
    }
}

/// The squares with at least two king neighbours in `set`.
fn neighboured_twice(set: Bitboard) -> Bitboard {
    let wide = [set.left(), set.right()];
    let neighbours = [
        set.up(),
        set.down(),
        wide[0],
        wide[1],
        wide[0].up(),
        wide[0].down(),
        wide[1].up(),
        wide[1].down(),
    ];
    let mut once = Bitboard::EMPTY;
    let mut twice = Bitboard::EMPTY;
    for next in neighbours {
        twice |= once & next;
        once |= next;
    }
    twice
}

/// Whether the squares of `cut_off` inside one of the faces of the drawing
/// of `walls` that hold a square of `from` hold a king-connected group of
/// `min_enclosed`.
fn a_face_holds_a_group(
    from: Bitboard,
    walls: Bitboard,
    cut_off: Bitboard,
    min_enclosed: u32,
) -> bool {
    let mut unseen = from;
    while let Some(square) = unseen.first() {
        let face = spread(square.bitboard(), walls);
        if largest_group(face & cut_off) >= min_enclosed {
            return true;
        }
        unseen -= face;
    }
    false
}

/// Whether `piece`, one of the pieces `on_loops` (its group's pieces on
/// loops, which cut off the empty squares outside `outside`), touches both
/// the infinite face of their drawing and a face holding a group of
/// `min_enclosed` cut-off squares: then a loop through it surrounds that
/// group, and the piece is on the outer border of that loop's block.
///
/// Why: an edge at the piece borders the bounded face; in the drawing of
/// the edge's block alone the face lies in a bounded face, whose border is
/// a cycle through the piece, or in the outer face, when another block of
/// the group surrounds it, and then the piece is in that block too, since a
/// piece of a hole inside the face could not touch the outside. Either block
/// surrounds the group, and the piece, touching the outside, is on its outer
/// border.
fn beside_the_outside_and_a_pocket(
    on_loops: Bitboard,
    outside: Bitboard,
    cut_off: Bitboard,
    piece: Square,
    min_enclosed: u32,
) -> bool {
    let touching = touching_faces(on_loops, piece);
    let beside = touching & cut_off;
    !beside.is_empty()
        && on_outer_border(touching, outside, piece)
        && a_face_holds_a_group(beside, on_loops, cut_off, min_enclosed)
}

/// The squares around `piece` whose faces of the drawing of `walls` touch
/// it: its orthogonal neighbours, and its diagonal ones not sealed off by a
/// diagonal of `walls`.
fn touching_faces(walls: Bitboard, piece: Square) -> Bitboard {
    let at = piece.bitboard();
    let (up, down, left, right) = (at.up(), at.down(), at.left(), at.right());
    let walled = |side: Bitboard| !(side & walls).is_empty();
    let mut touching = up | down | left | right;
    for (flanks, diagonal) in [
        ((up, left), up.left()),
        ((up, right), up.right()),
        ((down, left), down.left()),
        ((down, right), down.right()),
    ] {
        if !(walled(flanks.0) && walled(flanks.1)) {
            touching |= diagonal;
        }
    }
    touching
}

/// Whether the infinite face of a drawing touches `piece`, given the squares
/// whose faces touch it (`touching_faces`) and the squares `outside` that
/// the drawing leaves joined to the edge: on the board's edge it always does.
fn on_outer_border(touching: Bitboard, outside: Bitboard, piece: Square) -> bool {
    Bitboard::EDGES.contains(piece) || !(touching & outside).is_empty()
}

/// The 2-connected blocks of the pieces' king graph that contain `piece`
/// (Tarjan's algorithm from `piece`, iterative; only the blocks closed at the
/// root contain it).
///
/// Every already seen neighbour of a newly discovered square is still on the
/// path (had it been finished, it would have discovered the square itself),
/// so the square's back edges are all taken at its discovery, and a frame
/// needs no list of neighbours left to try: those unseen are its children.
/// A square's subtree is what was seen between its discovery and its finish,
/// so blocks are bitboards: a block closed below the root is set aside, and
/// a block at the root is the root's child's subtree without those.
fn blocks_through(occupied: Bitboard, piece: Square) -> impl Iterator<Item = Bitboard> {
    /// A square on the depth-first path, and the squares seen before it.
    #[derive(Clone, Copy)]
    struct Frame {
        square: Square,
        seen_before: Bitboard,
    }
    let mut discovered = [0u8; 64];
    let mut low = [0u8; 64];
    let mut seen = piece.bitboard();
    let mut counter = 1u8;
    let mut set_aside = Bitboard::EMPTY;
    let mut path = ArrayVec::<Frame, 64>::new();
    let mut blocks = ArrayVec::<Bitboard, 8>::new();

    path.push(Frame {
        square: piece,
        seen_before: Bitboard::EMPTY,
    });
    while let Some(&frame) = path.last() {
        let square = frame.square;
        if let Some(next) = (king_attacks(square) & (occupied - seen)).first() {
            // `square` itself is among them.
            let lowest = (king_attacks(next) & seen)
                .into_iter()
                .map(|ancestor| discovered[ancestor.index()])
                .min()
                .expect("a discovered square's parent is a seen neighbour");
            discovered[next.index()] = counter;
            low[next.index()] = lowest;
            counter += 1;
            path.push(Frame {
                square: next,
                seen_before: seen,
            });
            seen |= next.bitboard();
            continue;
        }
        path.pop();
        let Some(&Frame { square: parent, .. }) = path.last() else {
            break;
        };
        low[parent.index()] = low[parent.index()].min(low[square.index()]);
        if low[square.index()] >= discovered[parent.index()] {
            // `parent` cuts off `square`'s subtree: what of it is not yet
            // set aside forms a block with `parent`.
            let block = (seen - frame.seen_before) - set_aside;
            if parent == piece {
                blocks.push(block | parent.bitboard());
            } else {
                set_aside |= block;
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
    fn pieces_on_no_loop_are_peeled_off() {
        // A square b2 c2 c3 b3 with a tail c4 d5 e6, and a lone pair g1 h1.
        let occupied = board("b2 c2 c3 b3 c4 d5 e6 g1 h1");
        let square = board("b2 c2 c3 b3 c4");
        assert_eq!(loop_pieces(occupied, "b2".parse().unwrap()), square);
        assert_eq!(loop_pieces(occupied, "c4".parse().unwrap()), square);
        assert!(loop_pieces(occupied, "d5".parse().unwrap()).is_empty());
        assert!(loop_pieces(occupied, "g1".parse().unwrap()).is_empty());
    }

    #[test]
    fn a_cut_vertex_lies_in_two_blocks() {
        // Two triangles touching at c3.
        let occupied = board("a1 b1 b2 c3 d3 d4");
        let mut found: Vec<Bitboard> = blocks_through(occupied, "c3".parse().unwrap()).collect();
        found.sort_by_key(|block| block.0);
        assert_eq!(found, vec![board("b2 c3"), board("c3 d3 d4")]);
    }

    #[test]
    fn a_block_inside_a_ring_is_on_no_chain_around_it() {
        // The ring a1-g1-g7-a7 around 25 empty squares, and inside it the
        // blob d4 e4 d5 e5 hanging from the ring by e6: d4 touches the
        // ring's inside, yet no loop through it goes around any of it.
        let ring = board("a1 b1 c1 d1 e1 f1 g1 g2 g3 g4 g5 g6 g7 f7 e7 d7 c7 b7 a7 a6 a5 a4 a3 a2");
        let occupied = ring | board("d4 e4 d5 e5 e6");
        let d4 = "d4".parse().unwrap();
        for want in [Want::Whether, Want::Size] {
            let verdict = chains_through(occupied, d4, 2, want);
            assert!(!verdict.forms_chain() && verdict.inner.is_empty());
        }
        let d1 = "d1".parse().unwrap();
        assert!(chains_through(occupied, d1, 2, Want::Whether).beside_a_pocket);
    }

    /// The early yes beside a pocket answers as the walk does: on random
    /// boards of every density, for every piece and group size, asking only
    /// whether gives the same answer as asking for the size, and the early
    /// yes comes often.
    #[test]
    fn the_early_yes_agrees_with_the_walk() {
        let mut rng = crate::rng::SplitMix64::new(64);
        let (mut asked, mut early) = (0, 0);
        for board in 0..4_000 {
            let density = 25 + (board % 6) as u32 * 8;
            let occupied: Bitboard = (0..64)
                .filter(|_| rng.percent(density))
                .map(Square::from_index)
                .collect();
            for piece in occupied {
                for min_enclosed in 1..=4 {
                    let whether = chains_through(occupied, piece, min_enclosed, Want::Whether);
                    let size = chains_through(occupied, piece, min_enclosed, Want::Size);
                    assert_eq!(
                        whether.forms_chain(),
                        size.forms_chain(),
                        "{piece} on {occupied:?}, min {min_enclosed}"
                    );
                    if !whether.beside_a_pocket {
                        assert_eq!(whether.inner, size.inner);
                    }
                    asked += 1;
                    early += u32::from(whether.beside_a_pocket);
                }
            }
        }
        assert!(
            early * 20 > asked,
            "the early yes came {early} times in {asked}"
        );
    }
}
