//! Attack sets of every piece, from tables built once at start-up.
//!
//! Sliding pieces use "fancy" magic bitboards: the relevant blockers of a square
//! are multiplied by a magic factor whose top bits index a shared table. The
//! factors are searched by `build.rs`; the tables are filled in at start-up.

use once_cell::sync::Lazy;

use super::slider_geometry::{
    BISHOP_DIRECTIONS, ROOK_DIRECTIONS, ray_attacks, relevant_blockers, subsets,
};
use super::{Bitboard, Color, Square};

include!(concat!(env!("OUT_DIR"), "/magic_factors.rs"));
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

#[inline]
pub fn knight_attacks(square: Square) -> Bitboard {
    TABLES.knight[square.index()]
}

#[inline]
pub fn king_attacks(square: Square) -> Bitboard {
    TABLES.king[square.index()]
}

/// The squares a pawn of `color` on `square` attacks.
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    TABLES.pawn[color.index()][square.index()]
}

#[inline]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    TABLES.bishop[square.index()].attacks(&TABLES.sliding, occupied)
}

#[inline]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    TABLES.rook[square.index()].attacks(&TABLES.sliding, occupied)
}

#[inline]
pub fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(square, occupied) | rook_attacks(square, occupied)
}

/// The squares strictly between two squares on one rank, file or diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index()][b.index()]
}

/// The whole rank, file or diagonal through two squares (edge to edge); empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index()][b.index()]
}

/// Where the magic multiplication of one square's blockers lands in the shared table.
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline]
    fn attacks(&self, table: &[Bitboard], occupied: Bitboard) -> Bitboard {
        let index = ((occupied.0 & self.mask).wrapping_mul(self.factor) >> self.shift) as usize;
        // SAFETY: the product's top `64 - shift` bits index below `1 << (64 - shift)`,
        // and `magic_for` gave this square that many entries from `offset`.
        unsafe { *table.get_unchecked(self.offset + index) }
    }
}

struct Tables {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn: [[Bitboard; 64]; 2],
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    sliding: Vec<Bitboard>,
    between: Vec<[Bitboard; 64]>,
    line: Vec<[Bitboard; 64]>,
}

static TABLES: Lazy<Tables> = Lazy::new(Tables::build);

/// Builds the tables now rather than on first use, so that timings do not include it.
pub fn init() {
    Lazy::force(&TABLES);
}

fn steps_from(square: Square, steps: &[(i8, i8)]) -> Bitboard {
    steps
        .iter()
        .filter_map(|&(files, ranks)| square.offset(files, ranks))
        .collect()
}

/// Fills in one square's slot range of the shared table for its magic `factor`.
fn magic_for(
    square: Square,
    directions: &[(i8, i8); 4],
    factor: u64,
    table: &mut Vec<Bitboard>,
) -> Magic {
    let origin = square.index() as u8;
    let mask = relevant_blockers(origin, directions);
    let shift = 64 - mask.count_ones();
    let offset = table.len();
    table.resize(offset + (1 << mask.count_ones()), Bitboard::EMPTY);
    for blockers in subsets(mask) {
        let index = (blockers.wrapping_mul(factor) >> shift) as usize;
        table[offset + index] = Bitboard(ray_attacks(origin, blockers, directions));
    }
    Magic {
        mask,
        factor,
        shift,
        offset,
    }
}

impl Tables {
    fn build() -> Tables {
        let mut sliding = Vec::new();
        let rook = Square::all()
            .map(|square| {
                magic_for(
                    square,
                    &ROOK_DIRECTIONS,
                    ROOK_MAGIC_FACTORS[square.index()],
                    &mut sliding,
                )
            })
            .collect();
        let bishop = Square::all()
            .map(|square| {
                magic_for(
                    square,
                    &BISHOP_DIRECTIONS,
                    BISHOP_MAGIC_FACTORS[square.index()],
                    &mut sliding,
                )
            })
            .collect();

        let mut between = vec![[Bitboard::EMPTY; 64]; 64];
        let mut line = vec![[Bitboard::EMPTY; 64]; 64];
        for a in Square::all() {
            let rays = |from: Square, occupied: Bitboard, directions| {
                Bitboard(ray_attacks(from.index() as u8, occupied.0, directions))
            };
            for directions in [&ROOK_DIRECTIONS, &BISHOP_DIRECTIONS] {
                let from_a = rays(a, Bitboard::EMPTY, directions);
                for b in from_a {
                    let from_b = rays(b, Bitboard::EMPTY, directions);
                    between[a.index()][b.index()] =
                        rays(a, b.bitboard(), directions) & rays(b, a.bitboard(), directions);
                    line[a.index()][b.index()] = (from_a & from_b) | a.bitboard() | b.bitboard();
                }
            }
        }

        Tables {
            knight: std::array::from_fn(|i| steps_from(Square::from_index(i), &KNIGHT_STEPS)),
            king: std::array::from_fn(|i| steps_from(Square::from_index(i), &KING_STEPS)),
            pawn: [Color::White, Color::Black].map(|color| {
                let forward = color.forward();
                std::array::from_fn(|i| {
                    steps_from(Square::from_index(i), &[(-1, forward), (1, forward)])
                })
            }),
            rook,
            bishop,
            sliding,
            between,
            line,
        }
    }
}
