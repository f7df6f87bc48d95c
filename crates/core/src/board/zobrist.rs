//! Random keys whose exclusive-or identifies a position.

use once_cell::sync::Lazy;

use super::{CastlingRights, Color, Piece, Square};
use crate::rng::SplitMix64;

pub struct ZobristKeys {
    pieces: [[[u64; 64]; 6]; 2],
    castling: [u64; 16],
    en_passant_file: [u64; 8],
    black_to_move: u64,
}

static KEYS: Lazy<ZobristKeys> = Lazy::new(|| {
    // From a fixed seed: the same keys on every run and machine.
    let mut random = SplitMix64::new(0x0123_4567_89ab_cdef);
    let mut next = move || random.next_u64();
    ZobristKeys {
        pieces: std::array::from_fn(|_| std::array::from_fn(|_| std::array::from_fn(|_| next()))),
        castling: std::array::from_fn(|_| next()),
        en_passant_file: std::array::from_fn(|_| next()),
        black_to_move: next(),
    }
});

#[inline]
pub fn piece_key(color: Color, piece: Piece, square: Square) -> u64 {
    KEYS.pieces[color.index()][piece.index()][square.index()]
}

#[inline]
pub fn castling_key(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.bits() as usize]
}

#[inline]
pub fn en_passant_key(square: Square) -> u64 {
    KEYS.en_passant_file[square.file() as usize]
}

#[inline]
pub fn black_to_move_key() -> u64 {
    KEYS.black_to_move
}
