//! Static evaluation: tapered material and piece-square terms, mobility, pawn
//! structure, threats, king safety. Scores are centipawns from the side to
//! move's view.
//!
//! The evaluation is a sum of weights times counts of terms (`term.rs`), so
//! one walk over the position serves both the engine, which adds up the
//! weights, and the tuner, which records the counts. The weights start from
//! formulas that say what each term rewards and are fitted to game results
//! by `catena tune` (`weights.rs`).

use std::fmt::Write;

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Piece, Position, Square};

mod term;
mod weights;

pub use term::Term;
use term::{KING_DANGER_MOST, OFFICERS};
pub use weights::{WEIGHTS, Weights};

/// A middlegame and an endgame value, blended by the material left on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

pub(crate) const fn s(mg: i32, eg: i32) -> Score {
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

/// Rough piece values for move ordering and pruning margins.
pub const PIECE_VALUE: [i32; 6] = [100, 310, 330, 500, 950, 20_000];

/// Game phase contributed by each piece; 24 with all pieces on the board.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// Weight of each piece kind's attacks on the squares around the enemy king.
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Where the evaluation puts what it finds: the engine adds up weights, the
/// tuner records how often each term occurs. Counts are White-positive.
pub trait Accumulator {
    /// `count` times the weight of `term`.
    fn add(&mut self, term: Term, count: i32);

    /// The weight of `term` once for each of `squares`, with `sign`'s side.
    fn add_per_square(&mut self, term: Term, sign: i32, squares: Bitboard) {
        self.add(term, sign * squares.len() as i32);
    }
}

/// The parts of the evaluation the `eval` command shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    MaterialPsqt,
    Mobility,
    Pawns,
    Pieces,
    KingSafety,
    Threats,
    Tempo,
}

impl Group {
    const ALL: [Group; 7] = [
        Group::MaterialPsqt,
        Group::Mobility,
        Group::Pawns,
        Group::Pieces,
        Group::KingSafety,
        Group::Threats,
        Group::Tempo,
    ];

    fn of(term: Term) -> Group {
        match term {
            Term::Psqt(..) => Group::MaterialPsqt,
            Term::Mobility(..) => Group::Mobility,
            Term::PassedPawn(_)
            | Term::FreePassedPawn(_)
            | Term::PassedPawnKingDistance(_)
            | Term::IsolatedPawn
            | Term::DoubledPawn
            | Term::SupportedPawn => Group::Pawns,
            Term::BishopPair
            | Term::RookOpenFile
            | Term::RookSemiOpenFile
            | Term::KnightOutpost => Group::Pieces,
            Term::PawnThreat
            | Term::MinorThreat
            | Term::HangingPiece
            | Term::HangingPawn
            | Term::RookThreat => Group::Threats,
            Term::ShieldPawn | Term::KingDanger(_) | Term::SafeCheck(_) => Group::KingSafety,
            Term::Tempo => Group::Tempo,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Group::MaterialPsqt => "Material+PSQT",
            Group::Mobility => "Mobility",
            Group::Pawns => "Pawns",
            Group::Pieces => "Pieces",
            Group::KingSafety => "King safety",
            Group::Threats => "Threats",
            Group::Tempo => "Tempo",
        }
    }
}

/// The engine's accumulator: the weighted sum.
struct Sum<'a> {
    weights: &'a Weights,
    total: Score,
}

impl Accumulator for Sum<'_> {
    #[inline]
    fn add(&mut self, term: Term, count: i32) {
        self.total += self.weights[term] * count;
    }
}

/// The sum by group, for the `eval` command.
struct ByGroup {
    sums: [Score; Group::ALL.len()],
}

impl Accumulator for ByGroup {
    fn add(&mut self, term: Term, count: i32) {
        self.sums[Group::of(term) as usize] += WEIGHTS[term] * count;
    }
}

/// The squares attacked by `color`'s pawns.
fn pawn_attack_span(position: &Position, color: Color) -> Bitboard {
    let pawns = position.colored_pieces(color, Piece::Pawn);
    let advanced = match color {
        Color::White => pawns.up(),
        Color::Black => pawns.down(),
    };
    advanced.left() | advanced.right()
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
    let ranks_below = |rank: u8| {
        Bitboard(
            1u64.checked_shl(8 * u32::from(rank))
                .map_or(!0, |bit| bit - 1),
        )
    };
    let ahead = match color {
        Color::White => !ranks_below(square.rank() + 1),
        Color::Black => ranks_below(square.rank()),
    };
    files & ahead
}

/// The squares one side attacks, as the threat terms need them.
struct SideAttacks {
    all: Bitboard,
    by_rooks: Bitboard,
}

/// Adds `us`'s terms to `acc`, with `sign` +1 for White and -1 for Black,
/// and returns what `us` attacks.
fn side_terms(
    position: &Position,
    us: Color,
    sign: i32,
    acc: &mut impl Accumulator,
) -> SideAttacks {
    let them = !us;
    let occupied = position.occupied();
    let ours = position.colored(us);
    let our_pawns = position.colored_pieces(us, Piece::Pawn);
    let their_pawns = position.colored_pieces(them, Piece::Pawn);
    let enemy_pawn_attacks = pawn_attack_span(position, them);
    let our_pawn_attacks = pawn_attack_span(position, us);
    let safe = !(ours | enemy_pawn_attacks);
    let their_pieces = position.colored(them)
        - position.colored_pieces(them, Piece::Pawn)
        - position.colored_pieces(them, Piece::King);
    let their_heavies =
        position.colored_pieces(them, Piece::Rook) | position.colored_pieces(them, Piece::Queen);

    for piece in Piece::ALL {
        for square in position.colored_pieces(us, piece) {
            acc.add(Term::Psqt(piece, square.relative_to(us)), sign);
        }
    }

    let their_king = position.king(them);
    let king_zone = king_attacks(their_king) | their_king.bitboard();
    let (mut attack_units, mut attackers) = (0, 0);
    let mut minor_attacks = Bitboard::EMPTY;
    let mut attacks = SideAttacks {
        all: our_pawn_attacks | king_attacks(position.king(us)),
        by_rooks: Bitboard::EMPTY,
    };
    // Checks the king cannot answer by taking the checker with a pawn or itself.
    let safe_checks = !(ours | enemy_pawn_attacks | king_attacks(their_king));
    for piece in OFFICERS {
        let attacks_from = |square: Square| match piece {
            Piece::Knight => knight_attacks(square),
            Piece::Bishop => bishop_attacks(square, occupied),
            Piece::Rook => rook_attacks(square, occupied),
            _ => queen_attacks(square, occupied),
        };
        let checks = attacks_from(their_king) & safe_checks;
        let mut reach = Bitboard::EMPTY;
        for square in position.colored_pieces(us, piece) {
            let piece_attacks = attacks_from(square);
            reach |= piece_attacks;
            acc.add(
                Term::Mobility(piece, (piece_attacks & safe).len() as u8),
                sign,
            );
            match piece {
                Piece::Knight | Piece::Bishop => minor_attacks |= piece_attacks,
                Piece::Rook => attacks.by_rooks |= piece_attacks,
                _ => {}
            }
            let hits = (piece_attacks & king_zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += hits * KING_ATTACK_WEIGHT[piece.index()];
            }
        }
        acc.add_per_square(Term::SafeCheck(piece), sign, reach & checks);
        attacks.all |= reach;
    }

    for square in our_pawns {
        let file = Bitboard::file(square.file());
        if (our_pawns & adjacent_files(square.file())).is_empty() {
            acc.add(Term::IsolatedPawn, sign);
        }
        if !(front_span(square, us) & file & our_pawns).is_empty() {
            acc.add(Term::DoubledPawn, sign);
        }
        if (front_span(square, us) & their_pawns).is_empty() {
            let rank = square.relative_rank(us);
            acc.add(Term::PassedPawn(rank), sign);
            // Pawns never stand on the last rank: the square ahead exists.
            if let Some(stop) = square.offset(0, us.forward()) {
                if !occupied.contains(stop) {
                    acc.add(Term::FreePassedPawn(rank), sign);
                }
                let distances = i32::from(stop.distance(their_king))
                    - i32::from(stop.distance(position.king(us)));
                acc.add(Term::PassedPawnKingDistance(rank), sign * distances);
            }
        }
    }

    acc.add_per_square(Term::SupportedPawn, sign, our_pawns & our_pawn_attacks);
    acc.add_per_square(Term::PawnThreat, sign, their_pieces & our_pawn_attacks);
    acc.add_per_square(Term::MinorThreat, sign, their_heavies & minor_attacks);

    let outposts = (position.colored_pieces(us, Piece::Knight) & our_pawn_attacks)
        .into_iter()
        .filter(|&square| {
            (3..=5).contains(&square.relative_rank(us))
                && (front_span(square, us) & adjacent_files(square.file()) & their_pawns).is_empty()
        })
        .count();
    acc.add(Term::KnightOutpost, sign * outposts as i32);

    if position.colored_pieces(us, Piece::Bishop).len() >= 2 {
        acc.add(Term::BishopPair, sign);
    }
    for square in position.colored_pieces(us, Piece::Rook) {
        let file = Bitboard::file(square.file());
        if (file & our_pawns).is_empty() {
            let term = if (file & their_pawns).is_empty() {
                Term::RookOpenFile
            } else {
                Term::RookSemiOpenFile
            };
            acc.add(term, sign);
        }
    }

    // Our attack on their king, scored for us; our shelter, scored for us.
    if !position.colored_pieces(us, Piece::Queen).is_empty() && attackers >= 2 {
        let units = attack_units.min(i32::from(KING_DANGER_MOST)) as u8;
        acc.add(Term::KingDanger(units), sign);
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
        acc.add(Term::ShieldPawn, sign * shield.len().min(3) as i32);
    }
    attacks
}

/// Adds the threats of `us` on `them`'s men, knowing what each side attacks.
fn threat_terms(
    position: &Position,
    us: Color,
    sign: i32,
    [ours, theirs]: [&SideAttacks; 2],
    acc: &mut impl Accumulator,
) {
    let them = !us;
    let undefended = ours.all - theirs.all;
    let their_pawns = position.colored_pieces(them, Piece::Pawn);
    let their_pieces = position.colored(them) - their_pawns - position.king(them).bitboard();
    acc.add_per_square(Term::HangingPiece, sign, their_pieces & undefended);
    acc.add_per_square(Term::HangingPawn, sign, their_pawns & undefended);
    acc.add_per_square(
        Term::RookThreat,
        sign,
        position.colored_pieces(them, Piece::Queen) & ours.by_rooks,
    );
}

/// Adds every term of `position` to `acc` and returns the game phase.
pub fn trace(position: &Position, acc: &mut impl Accumulator) -> i32 {
    let white = side_terms(position, Color::White, 1, acc);
    let black = side_terms(position, Color::Black, -1, acc);
    threat_terms(position, Color::White, 1, [&white, &black], acc);
    threat_terms(position, Color::Black, -1, [&black, &white], acc);
    let to_move = match position.side_to_move() {
        Color::White => 1,
        Color::Black => -1,
    };
    acc.add(Term::Tempo, to_move);
    phase(position)
}

/// The game phase: 24 with all pieces on the board, 0 with pawns and kings alone.
fn phase(position: &Position) -> i32 {
    Piece::ALL
        .into_iter()
        .map(|piece| PHASE[piece.index()] * position.pieces(piece).len() as i32)
        .sum::<i32>()
        .min(MAX_PHASE)
}

/// Blends a middlegame and an endgame value by `phase` (0 = endgame … 24).
pub fn taper(score: Score, phase: i32) -> i32 {
    (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// The static evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(position: &Position) -> i32 {
    let mut sum = Sum {
        weights: &WEIGHTS,
        total: Score::default(),
    };
    let phase = trace(position, &mut sum);
    let white = taper(sum.total, phase);
    match position.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// A table of the terms for the `eval` command, White-positive, in pawns.
pub fn describe(position: &Position) -> String {
    let mut groups = ByGroup {
        sums: [Score::default(); Group::ALL.len()],
    };
    let phase = trace(position, &mut groups);
    let total = groups
        .sums
        .iter()
        .fold(Score::default(), |total, &sum| total + sum);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:>14} | {:>6} {:>6} | {:>6}",
        "Term", "MG", "EG", "Phased"
    );
    let rows = Group::ALL
        .iter()
        .map(|&group| (group.label(), groups.sums[group as usize]))
        .chain([("Total", total)]);
    for (name, score) in rows {
        let _ = writeln!(
            text,
            "{:>14} | {:>6.2} {:>6.2} | {:>6.2}",
            name,
            f64::from(score.mg) / 100.0,
            f64::from(score.eg) / 100.0,
            f64::from(taper(score, phase)) / 100.0
        );
    }
    let _ = write!(
        text,
        "Phase {}/{}; final evaluation {:+.2} (side to move)",
        phase,
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
