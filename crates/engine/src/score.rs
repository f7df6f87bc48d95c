//! Scores: centipawns from the side to move's view, and mates counted in
//! plies from the root, with how the table stores them and UCI writes them.

pub const INFINITE: i32 = 32_000;
pub const MATE: i32 = 31_000;
pub const MAX_PLY: usize = 120;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score as UCI writes it: `cp N` or `mate N` (moves, negative when being mated).
pub fn uci_score(score: i32) -> (Option<i32>, Option<i32>) {
    if score >= MATE_BOUND {
        (None, Some((MATE - score + 1) / 2))
    } else if score <= -MATE_BOUND {
        (None, Some(-(MATE + score) / 2))
    } else {
        (Some(score), None)
    }
}

/// A score as the table keeps it: mates counted from the node, not the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from `ply` plies below the root.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
