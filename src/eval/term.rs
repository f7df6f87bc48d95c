//! The evaluation's terms: every weight the evaluation adds up, each with a
//! name for the weights file and a place in the weight vector the tuner fits.

use crate::board::{Piece, Square};

/// One weight of the evaluation. Piece-square terms are seen from White's
/// side and mirrored left to right (a knight on b1 and on g1 share one), so
/// they cover the files a to d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Material plus placement of a piece on a square (the king's, placement only).
    Psqt(Piece, Square),
    /// A knight, bishop, rook or queen reaching this many safe squares.
    Mobility(Piece, u8),
    /// A passed pawn on this rank counted from its own side (1 to 6).
    PassedPawn(u8),
    /// A passed pawn on this rank whose next square is empty.
    FreePassedPawn(u8),
    /// A passed pawn on this rank, counted as many times as the enemy king
    /// stands further than ours from the square in front of it (negative
    /// when nearer): kings escort and stop passers in the endgame.
    PassedPawnKingDistance(u8),
    /// The attack on the enemy king, in units of the attackers' weights
    /// times the squares they hit next to it (capped at `KING_DANGER_MOST`),
    /// when a queen and at least one other piece take part.
    KingDanger(u8),
    /// A square from which a piece of this kind can give check, reaches, and
    /// may stand on without being taken by a pawn or the king.
    SafeCheck(Piece),
    IsolatedPawn,
    DoubledPawn,
    BishopPair,
    RookOpenFile,
    RookSemiOpenFile,
    /// A pawn of the king's shelter: in front of it, one or two ranks ahead.
    ShieldPawn,
    /// Having the move.
    Tempo,
    /// An enemy knight, bishop, rook or queen attacked by one of our pawns.
    PawnThreat,
    /// An enemy rook or queen attacked by one of our knights or bishops.
    MinorThreat,
    /// A pawn defended by a pawn.
    SupportedPawn,
    /// A knight in the enemy half or on its edge, defended by a pawn, that no
    /// enemy pawn can ever attack.
    KnightOutpost,
    /// An enemy knight, bishop, rook or queen we attack and nothing of theirs defends.
    HangingPiece,
    /// An enemy pawn we attack and nothing of theirs defends.
    HangingPawn,
    /// The enemy queen attacked by one of our rooks.
    RookThreat,
}

/// The pieces whose mobility counts, and the most safe squares each can reach.
const MOBILE: [(Piece, u8); 4] = [
    (Piece::Knight, 8),
    (Piece::Bishop, 13),
    (Piece::Rook, 14),
    (Piece::Queen, 27),
];

const PSQT_SQUARES: usize = 32;
const MOBILITY_START: usize = 6 * PSQT_SQUARES;
/// Where each piece's mobility terms start, by `Piece::index()`, and where they all end.
const MOBILITY_OFFSETS: [usize; 7] = {
    let mut offsets = [0; 7];
    let mut slot = 0;
    while slot < MOBILE.len() {
        let (piece, most) = MOBILE[slot];
        offsets[piece.index() + 1] = offsets[piece.index()] + most as usize + 1;
        slot += 1;
    }
    offsets[6] = offsets[MOBILE[MOBILE.len() - 1].0.index() + 1];
    offsets
};
/// The most units of king danger told apart.
pub const KING_DANGER_MOST: u8 = 32;
/// The knight, bishop, rook and queen: the pieces with mobility, king-attack
/// and safe-check terms, in the order of their `SafeCheck` terms.
pub const OFFICERS: [Piece; 4] = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];

const PASSED_START: usize = MOBILITY_START + MOBILITY_OFFSETS[6];
const FREE_PASSED_START: usize = PASSED_START + 6;
const PASSED_KING_DISTANCE_START: usize = FREE_PASSED_START + 6;
const KING_DANGER_START: usize = PASSED_KING_DISTANCE_START + 6;
const SAFE_CHECK_START: usize = KING_DANGER_START + KING_DANGER_MOST as usize + 1;
const SINGLES_START: usize = SAFE_CHECK_START + OFFICERS.len();
const SINGLES: [Term; 14] = [
    Term::IsolatedPawn,
    Term::DoubledPawn,
    Term::BishopPair,
    Term::RookOpenFile,
    Term::RookSemiOpenFile,
    Term::ShieldPawn,
    Term::Tempo,
    Term::PawnThreat,
    Term::MinorThreat,
    Term::SupportedPawn,
    Term::KnightOutpost,
    Term::HangingPiece,
    Term::HangingPawn,
    Term::RookThreat,
];

impl Term {
    pub const COUNT: usize = SINGLES_START + SINGLES.len();

    /// Its place in the weight vector.
    pub fn index(self) -> usize {
        match self {
            Term::Psqt(piece, square) => {
                let file = square.file().min(7 - square.file());
                piece.index() * PSQT_SQUARES + usize::from(square.rank()) * 4 + usize::from(file)
            }
            Term::Mobility(piece, count) => {
                MOBILITY_START + MOBILITY_OFFSETS[piece.index()] + usize::from(count)
            }
            Term::PassedPawn(rank) => PASSED_START + usize::from(rank) - 1,
            Term::FreePassedPawn(rank) => FREE_PASSED_START + usize::from(rank) - 1,
            Term::PassedPawnKingDistance(rank) => {
                PASSED_KING_DISTANCE_START + usize::from(rank) - 1
            }
            Term::KingDanger(units) => KING_DANGER_START + usize::from(units),
            Term::SafeCheck(piece) => SAFE_CHECK_START + piece.index() - Piece::Knight.index(),
            // In the order of `SINGLES`, which the tests check.
            Term::IsolatedPawn => SINGLES_START,
            Term::DoubledPawn => SINGLES_START + 1,
            Term::BishopPair => SINGLES_START + 2,
            Term::RookOpenFile => SINGLES_START + 3,
            Term::RookSemiOpenFile => SINGLES_START + 4,
            Term::ShieldPawn => SINGLES_START + 5,
            Term::Tempo => SINGLES_START + 6,
            Term::PawnThreat => SINGLES_START + 7,
            Term::MinorThreat => SINGLES_START + 8,
            Term::SupportedPawn => SINGLES_START + 9,
            Term::KnightOutpost => SINGLES_START + 10,
            Term::HangingPiece => SINGLES_START + 11,
            Term::HangingPawn => SINGLES_START + 12,
            Term::RookThreat => SINGLES_START + 13,
        }
    }

    /// Every term once, in index order.
    pub fn all() -> impl Iterator<Item = Term> {
        let psqt = Piece::ALL.into_iter().flat_map(|piece| {
            (0..8u8).flat_map(move |rank| {
                (0..4u8).map(move |file| Term::Psqt(piece, Square::new(file, rank)))
            })
        });
        let mobility = MOBILE
            .into_iter()
            .flat_map(|(piece, most)| (0..=most).map(move |count| Term::Mobility(piece, count)));
        let passed = [
            Term::PassedPawn,
            Term::FreePassedPawn,
            Term::PassedPawnKingDistance,
        ]
        .into_iter()
        .flat_map(|term| (1..=6).map(term));
        let king_danger = (0..=KING_DANGER_MOST).map(Term::KingDanger);
        let checks = OFFICERS.map(Term::SafeCheck);
        psqt.chain(mobility)
            .chain(passed)
            .chain(king_danger)
            .chain(checks)
            .chain(SINGLES)
    }

    /// Its name in the weights file: `psqt knight c3`, `mobility rook 7`, `passed_pawn 5`, `tempo`.
    pub fn name(self) -> String {
        let piece_name = |piece: Piece| format!("{piece:?}").to_lowercase();
        match self {
            Term::Psqt(piece, square) => format!("psqt {} {square}", piece_name(piece)),
            Term::Mobility(piece, count) => format!("mobility {} {count}", piece_name(piece)),
            Term::PassedPawn(rank) => format!("passed_pawn {rank}"),
            Term::FreePassedPawn(rank) => format!("free_passed_pawn {rank}"),
            Term::PassedPawnKingDistance(rank) => format!("passed_pawn_king_distance {rank}"),
            Term::KingDanger(units) => format!("king_danger {units}"),
            Term::SafeCheck(piece) => format!("safe_check {}", piece_name(piece)),
            Term::IsolatedPawn => "isolated_pawn".into(),
            Term::DoubledPawn => "doubled_pawn".into(),
            Term::BishopPair => "bishop_pair".into(),
            Term::RookOpenFile => "rook_open_file".into(),
            Term::RookSemiOpenFile => "rook_semi_open_file".into(),
            Term::ShieldPawn => "shield_pawn".into(),
            Term::Tempo => "tempo".into(),
            Term::PawnThreat => "pawn_threat".into(),
            Term::MinorThreat => "minor_threat".into(),
            Term::SupportedPawn => "supported_pawn".into(),
            Term::KnightOutpost => "knight_outpost".into(),
            Term::HangingPiece => "hanging_piece".into(),
            Term::HangingPawn => "hanging_pawn".into(),
            Term::RookThreat => "rook_threat".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_number_the_terms_in_order() {
        let indices: Vec<usize> = Term::all().map(Term::index).collect();
        assert_eq!(indices, (0..Term::COUNT).collect::<Vec<_>>());
    }

    #[test]
    fn mirrored_squares_share_a_term() {
        let b1 = Term::Psqt(Piece::Knight, Square::new(1, 0));
        let g1 = Term::Psqt(Piece::Knight, Square::new(6, 0));
        assert_eq!(b1.index(), g1.index());
        assert_eq!(b1.name(), "psqt knight b1");
    }
}
