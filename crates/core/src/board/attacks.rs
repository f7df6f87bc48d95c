//! Attack sets of every piece, read from `static` tables that `build.rs`
//! writes, as cozy-chess does: nothing is built at start-up.
//!
//! Sliding pieces use "fancy" magic bitboards: the relevant blockers of a
//! square are multiplied by a magic factor whose top bits index a shared
//! table. The factors are searched by `build.rs`, which fills in the table
//! from them (`geometry.rs` holds the rays and steps it uses).

use super::{Bitboard, Color, Square};

/// Where the magic multiplication of one square's blockers lands in [`SLIDING`].
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline]
    fn attacks(&self, occupied: Bitboard) -> Bitboard {
        let index = ((occupied.0 & self.mask).wrapping_mul(self.factor) >> self.shift) as usize;
        // SAFETY: the product's top `64 - shift` bits index below `1 << (64 - shift)`,
        // and `build.rs` gave this square that many entries from `offset`.
        Bitboard(unsafe { *SLIDING.get_unchecked(self.offset + index) })
    }
}

include!(concat!(env!("OUT_DIR"), "/attack_tables.rs"));

#[inline]
pub fn knight_attacks(square: Square) -> Bitboard {
    Bitboard(KNIGHT[square.index()])
}

#[inline]
pub fn king_attacks(square: Square) -> Bitboard {
    Bitboard(KING[square.index()])
}

/// The squares a pawn of `color` on `square` attacks.
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][square.index()])
}

#[inline]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    BISHOP_MAGICS[square.index()].attacks(occupied)
}

#[inline]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    ROOK_MAGICS[square.index()].attacks(occupied)
}

#[inline]
pub fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(square, occupied) | rook_attacks(square, occupied)
}

/// The squares strictly between two squares on one rank, file or diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole rank, file or diagonal through two squares (edge to edge); empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A slider's attacks by walking each direction until a blocker.
    fn walk(square: Square, occupied: Bitboard, directions: &[(i8, i8)]) -> Bitboard {
        let mut attacks = Bitboard::EMPTY;
        for &(files, ranks) in directions {
            let mut current = square;
            while let Some(next) = current.offset(files, ranks) {
                attacks |= next.bitboard();
                if occupied.contains(next) {
                    break;
                }
                current = next;
            }
        }
        attacks
    }

    /// The written tables agree with walking the board, on sparse and dense boards.
    #[test]
    fn slider_tables_agree_with_walking_the_rays() {
        let mut random = SplitMix64::new(27);
        for _ in 0..2000 {
            let occupied = Bitboard(random.next_u64() & random.next_u64());
            for square in Square::all() {
                let rook = walk(square, occupied, &[(1, 0), (-1, 0), (0, 1), (0, -1)]);
                let bishop = walk(square, occupied, &[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
                assert_eq!(
                    rook_attacks(square, occupied),
                    rook,
                    "{square} {occupied:?}"
                );
                assert_eq!(
                    bishop_attacks(square, occupied),
                    bishop,
                    "{square} {occupied:?}"
                );
            }
        }
        for (a, b, inside) in [("a1", "h8", 6), ("b2", "b7", 4), ("d4", "e5", 0)] {
            let (a, b): (Square, Square) = (a.parse().unwrap(), b.parse().unwrap());
            assert_eq!(between(a, b), between(b, a));
            assert_eq!(between(a, b).len(), inside);
            assert!(line(a, b).contains(a) && line(a, b).contains(b));
            assert_eq!(line(a, b).len(), 8);
        }
        let c1: Square = "c1".parse().unwrap();
        let e2: Square = "e2".parse().unwrap();
        assert!(line(c1, e2).is_empty());
        assert_eq!(knight_attacks(c1).len(), 4);
        assert_eq!(king_attacks(c1).len(), 5);
    }
}
