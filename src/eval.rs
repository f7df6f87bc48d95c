//! Static evaluation: tapered material and piece-square terms, mobility, pawn
//! structure, king safety. Scores are centipawns from the side to move's view.
//!
//! The piece-square terms come from a few formulas (centralisation, advancement,
//! the king's shelter) rather than hand-typed tables, so that each term says
//! what it rewards.

use std::fmt::Write;

use once_cell::sync::Lazy;

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Piece, Position, Square};

/// A middlegame and an endgame value, blended by the material left on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, other: Score) -> Score {
        s(self.mg + other.mg, self.eg + other.eg)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        *self = *self + other;
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, other: Score) -> Score {
        s(self.mg - other.mg, self.eg - other.eg)
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, factor: i32) -> Score {
        s(self.mg * factor, self.eg * factor)
    }
}

/// Material, indexed by `Piece::index()`; the king's is never counted.
pub const MATERIAL: [Score; 6] = [
    s(90, 115),
    s(330, 300),
    s(345, 320),
    s(470, 530),
    s(980, 990),
    s(0, 0),
];

/// Rough piece values for move ordering and pruning margins.
pub const PIECE_VALUE: [i32; 6] = [100, 310, 330, 500, 950, 20_000];

/// Game phase contributed by each piece; 24 with all pieces on the board.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

const TEMPO: i32 = 12;
const BISHOP_PAIR: Score = s(30, 50);
const DOUBLED_PAWN: Score = s(-10, -20);
const ISOLATED_PAWN: Score = s(-12, -14);
/// By rank counted from the pawn's own side.
const PASSED_PAWN: [Score; 8] = [
    s(0, 0),
    s(2, 8),
    s(5, 12),
    s(12, 25),
    s(25, 45),
    s(45, 80),
    s(70, 120),
    s(0, 0),
];
const ROOK_OPEN_FILE: Score = s(22, 8);
const ROOK_SEMI_OPEN_FILE: Score = s(10, 5);
/// Per reachable square beyond the typical number: knight, bishop, rook, queen.
const MOBILITY: [(Score, i32); 4] = [(s(4, 4), 4), (s(5, 5), 6), (s(3, 6), 7), (s(1, 3), 13)];
const SHIELD_PAWN: i32 = 12;
/// Weight of each piece kind's attacks on the squares around the enemy king.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Centralisation in 0 (corner) … 6 (centre): 7 minus the doubled Manhattan distance to the centre, halved.
fn centrality(square: Square) -> i32 {
    let file = 2 * i32::from(square.file()) - 7;
    let rank = 2 * i32::from(square.rank()) - 7;
    (14 - file.abs() - rank.abs()) / 2
}

/// Piece-square value for a White piece on `square`; Black's is mirrored.
fn square_value(piece: Piece, square: Square) -> Score {
    let center = centrality(square);
    let rank = i32::from(square.rank());
    let file = i32::from(square.file());
    let central_file = 3 - (2 * file - 7).abs() / 2;
    match piece {
        Piece::Pawn => s(
            3 * (rank - 1)
                + if (2..=5).contains(&file) {
                    4 * (rank - 1).min(3)
                } else {
                    0
                },
            8 * (rank - 1),
        ),
        Piece::Knight => s(8 * center - 25, 6 * center - 20),
        Piece::Bishop => s(4 * center - 10, 3 * center - 10),
        Piece::Rook => s(
            2 * central_file + if rank == 6 { 15 } else { 0 },
            if rank == 6 { 10 } else { 0 },
        ),
        Piece::Queen => s(2 * center - 8, 4 * center - 12),
        Piece::King => {
            let shelter = match file {
                0 | 1 | 6 | 7 => 20,
                2 | 5 => 5,
                _ => -10,
            };
            s(shelter - 30 * rank, 8 * center - 28)
        }
    }
}

/// Material plus piece-square value of every (colour, piece, square), White-positive.
static PSQT: Lazy<[[[Score; 64]; 6]; 2]> = Lazy::new(|| {
    let mut table = [[[Score::default(); 64]; 6]; 2];
    for piece in Piece::ALL {
        for square in Square::all() {
            let value = MATERIAL[piece.index()] + square_value(piece, square);
            table[Color::White.index()][piece.index()][square.index()] = value;
            table[Color::Black.index()][piece.index()][square.relative_to(Color::Black).index()] =
                value;
        }
    }
    table
});

/// The squares attacked by `color`'s pawns.
fn pawn_attack_span(position: &Position, color: Color) -> Bitboard {
    position
        .colored_pieces(color, Piece::Pawn)
        .into_iter()
        .fold(Bitboard::EMPTY, |set, square| {
            set | pawn_attacks(color, square)
        })
}

/// The files next to `file`.
fn adjacent_files(file: u8) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    if file > 0 {
        files |= Bitboard::file(file - 1);
    }
    if file < 7 {
        files |= Bitboard::file(file + 1);
    }
    files
}

/// Squares in front of `square` from `color`'s side, on its own and both adjacent files.
fn front_span(square: Square, color: Color) -> Bitboard {
    let files = Bitboard::file(square.file()) | adjacent_files(square.file());
    let ahead = (0..8u8)
        .filter(|&rank| match color {
            Color::White => rank > square.rank(),
            Color::Black => rank < square.rank(),
        })
        .fold(Bitboard::EMPTY, |set, rank| set | Bitboard::rank(rank));
    files & ahead
}

/// The evaluation split into its terms, White-positive, for `eval` and tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    pub material_psqt: Score,
    pub mobility: Score,
    pub pawns: Score,
    pub pieces: Score,
    pub king_safety: Score,
    pub phase: i32,
}

impl Terms {
    pub fn total(&self) -> Score {
        self.material_psqt + self.mobility + self.pawns + self.pieces + self.king_safety
    }
}

fn side_terms(position: &Position, us: Color, terms: &mut Terms, sign: i32) {
    let them = !us;
    let occupied = position.occupied();
    let ours = position.colored(us);
    let our_pawns = position.colored_pieces(us, Piece::Pawn);
    let their_pawns = position.colored_pieces(them, Piece::Pawn);
    let enemy_pawn_attacks = pawn_attack_span(position, them);
    let safe = !(ours | enemy_pawn_attacks);

    let mut material = Score::default();
    for piece in Piece::ALL {
        for square in position.colored_pieces(us, piece) {
            material += PSQT[us.index()][piece.index()][square.index()];
        }
    }

    let mut mobility = Score::default();
    let their_king = position.king(them);
    let king_zone = king_attacks(their_king) | their_king.bitboard();
    let (mut attack_units, mut attackers) = (0, 0);
    for (slot, piece) in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
        .into_iter()
        .enumerate()
    {
        for square in position.colored_pieces(us, piece) {
            let attacks = match piece {
                Piece::Knight => knight_attacks(square),
                Piece::Bishop => bishop_attacks(square, occupied),
                Piece::Rook => rook_attacks(square, occupied),
                _ => queen_attacks(square, occupied),
            };
            let (weight, typical) = MOBILITY[slot];
            mobility += weight * ((attacks & safe).len() as i32 - typical);
            let hits = (attacks & king_zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += hits * KING_ATTACK_WEIGHT[piece.index()];
            }
        }
    }

    let mut pawns = Score::default();
    for square in our_pawns {
        let file = Bitboard::file(square.file());
        if (our_pawns & adjacent_files(square.file())).is_empty() {
            pawns += ISOLATED_PAWN;
        }
        if !(front_span(square, us) & file & our_pawns).is_empty() {
            pawns += DOUBLED_PAWN;
        }
        if (front_span(square, us) & their_pawns).is_empty() {
            pawns += PASSED_PAWN[square.relative_rank(us) as usize];
        }
    }

    let mut pieces = Score::default();
    if position.colored_pieces(us, Piece::Bishop).len() >= 2 {
        pieces += BISHOP_PAIR;
    }
    for square in position.colored_pieces(us, Piece::Rook) {
        let file = Bitboard::file(square.file());
        if (file & our_pawns).is_empty() {
            pieces += if (file & their_pawns).is_empty() {
                ROOK_OPEN_FILE
            } else {
                ROOK_SEMI_OPEN_FILE
            };
        }
    }

    // Our attack on their king, scored for us; their shelter, scored against them.
    let mut king_safety = Score::default();
    if !position.colored_pieces(us, Piece::Queen).is_empty() && attackers >= 2 {
        let danger = attack_units * attack_units / 2;
        king_safety += s(danger.min(500), danger.min(500) / 4);
    }
    let our_king = position.king(us);
    if our_king.relative_rank(us) <= 1 {
        let shield = front_span(our_king, us) & our_pawns & {
            let rank = our_king.rank();
            let near = |offset: i8| {
                let target = rank as i8 + offset * us.forward();
                if (0..8).contains(&target) {
                    Bitboard::rank(target as u8)
                } else {
                    Bitboard::EMPTY
                }
            };
            near(1) | near(2)
        };
        king_safety += s(SHIELD_PAWN * shield.len().min(3) as i32, 0);
    }

    let signed = |score: Score| score * sign;
    terms.material_psqt += signed(material);
    terms.mobility += signed(mobility);
    terms.pawns += signed(pawns);
    terms.pieces += signed(pieces);
    terms.king_safety += signed(king_safety);
}

/// Every term of the evaluation, White-positive.
pub fn terms(position: &Position) -> Terms {
    let mut terms = Terms::default();
    side_terms(position, Color::White, &mut terms, 1);
    side_terms(position, Color::Black, &mut terms, -1);
    terms.phase = Piece::ALL
        .into_iter()
        .map(|piece| PHASE[piece.index()] * position.pieces(piece).len() as i32)
        .sum::<i32>()
        .min(MAX_PHASE);
    terms
}

/// Blends a middlegame and an endgame value by `phase` (0 = endgame … 24).
pub fn taper(score: Score, phase: i32) -> i32 {
    (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The static evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(position: &Position) -> i32 {
    let terms = terms(position);
    let white = taper(terms.total(), terms.phase);
    let relative = match position.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    };
    relative + TEMPO
}

/// A table of the terms for the `eval` command, White-positive, in pawns.
pub fn describe(position: &Position) -> String {
    let terms = terms(position);
    let mut text = String::new();
    let rows = [
        ("Material+PSQT", terms.material_psqt),
        ("Mobility", terms.mobility),
        ("Pawns", terms.pawns),
        ("Pieces", terms.pieces),
        ("King safety", terms.king_safety),
        ("Total", terms.total()),
    ];
    let _ = writeln!(
        text,
        "{:>14} | {:>6} {:>6} | {:>6}",
        "Term", "MG", "EG", "Phased"
    );
    for (name, score) in rows {
        let _ = writeln!(
            text,
            "{:>14} | {:>6.2} {:>6.2} | {:>6.2}",
            name,
            f64::from(score.mg) / 100.0,
            f64::from(score.eg) / 100.0,
            f64::from(taper(score, terms.phase)) / 100.0
        );
    }
    let _ = write!(
        text,
        "Phase {}/{}; final evaluation {:+.2} (side to move, tempo included)",
        terms.phase,
        MAX_PHASE,
        f64::from(evaluate(position)) / 100.0
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirrored(fen: &str) -> String {
        let position = Position::from_fen(fen).unwrap();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let board: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = match position.side_to_move() {
            Color::White => "b",
            Color::Black => "w",
        };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    #[test]
    fn evaluation_is_symmetric() {
        crate::board::attacks::init();
        for fen in [
            Position::START_FEN,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let position = Position::from_fen(fen).unwrap();
            let flipped = Position::from_fen(&mirrored(fen)).unwrap();
            assert_eq!(evaluate(&position), evaluate(&flipped), "{fen}");
        }
    }

    #[test]
    fn extra_material_is_good() {
        crate::board::attacks::init();
        let up_a_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 800);
        let down_a_queen = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down_a_queen) < -800);
    }
}
