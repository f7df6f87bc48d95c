//! Scores: centipawns from the side to move's view, mates counted in plies
//! from the root, and tablebase wins just below the mates, with how the
//! table stores them and UCI writes them.

pub const INFINITE: i32 = 32_000;
pub const MATE: i32 = 31_000;
pub const MAX_PLY: usize = 120;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root, the best score short of a mate, as
/// Stockfish's `VALUE_TB`; one found `ply` plies down is worth `TB_WIN - ply`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this, below the mates, are tablebase wins.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// How UCI writes a tablebase win at the root: `cp 20000`, less one per ply
/// to the tablebase position, as Stockfish writes them.
const TB_CP: i32 = 20_000;

/// A score as UCI writes it: `cp N` or `mate N` (moves, negative when being mated).
pub fn uci_score(score: i32) -> (Option<i32>, Option<i32>) {
    if score >= MATE_BOUND {
        (None, Some((MATE - score + 1) / 2))
    } else if score <= -MATE_BOUND {
        (None, Some(-(MATE + score) / 2))
    } else if score.abs() >= TB_WIN_BOUND {
        (
            Some(score.signum() * (TB_CP - (TB_WIN - score.abs()))),
            None,
        )
    } else {
        (Some(score), None)
    }
}

/// A score as the table keeps it: mates and tablebase wins counted from the
/// node, not the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from `ply` plies below the root.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tablebase_wins_are_written_as_stockfish_writes_them() {
        assert_eq!(uci_score(TB_WIN), (Some(20_000), None));
        assert_eq!(uci_score(-(TB_WIN - 3)), (Some(-19_997), None));
        assert_eq!(uci_score(TB_WIN_BOUND - 1), (Some(TB_WIN_BOUND - 1), None));
        assert_eq!(uci_score(MATE - 1), (None, Some(1)));
        let stored = score_to_tt(TB_WIN - 5, 3);
        assert_eq!(stored, TB_WIN - 2);
        assert_eq!(score_from_tt(stored, 7), TB_WIN - 9);
    }
}
