//! Correction history: how far the static evaluation tends to miss the
//! searched value in positions with the same pawns, learnt from the nodes
//! searched so far and added to the static evaluation before the pruning
//! that trusts it. Pawn structures the network misjudges (a blocked centre,
//! a weak king's cover) are met again and again in one game, so a running
//! average of the misses, per structure and side to move, is a good guess of
//! the next.

use crate::board::{Color, Piece, Position};

const ENTRIES: usize = 16_384;
/// Entries hold the average miss in 1/`GRAIN` centipawns, for smooth averaging.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;
/// The weight of the newest miss, out of `GRAIN`, grows with the depth that measured it up to this.
const MOST_WEIGHT: i32 = 16;

pub struct CorrectionHistory(Box<[[i32; ENTRIES]; 2]>);

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory(Box::new([[0; ENTRIES]; 2]))
    }
}

/// The entry of `position`'s pawn structure.
fn slot(position: &Position) -> usize {
    let white = position.colored_pieces(Color::White, Piece::Pawn).0;
    let black = position.colored_pieces(Color::Black, Piece::Pawn).0;
    let mixed =
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mixed >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl CorrectionHistory {
    /// The correction to add to `position`'s static evaluation, in centipawns.
    pub fn correction(&self, position: &Position) -> i32 {
        self.0[position.side_to_move().index()][slot(position)] / GRAIN
    }

    /// Learns that a search of `depth` found `searched` where the static
    /// evaluation said `static_eval`.
    pub fn update(&mut self, position: &Position, depth: i32, searched: i32, static_eval: i32) {
        let entry = &mut self.0[position.side_to_move().index()][slot(position)];
        let miss = (searched - static_eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(MOST_WEIGHT);
        *entry = (*entry * (GRAIN - weight) + miss * weight) / GRAIN;
    }
}
