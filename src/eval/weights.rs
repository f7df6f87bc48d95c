//! The weight of every term: the formulas below as a starting point, then
//! the values `catena tune` fitted to game results (`weights.txt`), which
//! replace them term by term.
//!
//! The formulas say what each term rewards; a term added to the evaluation
//! starts from its formula and keeps it until the next tuning run.

use std::fmt;
use std::ops::{Index, IndexMut};

use once_cell::sync::Lazy;

use super::term::Term;
use super::{Score, s};
use crate::board::{Piece, Square};

/// Fitted by `catena tune`; see the file's header for how.
const TUNED: &str = include_str!("weights.txt");

/// A weight for every term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(Vec<Score>);

/// The weights the engine plays with.
pub static WEIGHTS: Lazy<Weights> = Lazy::new(|| {
    let mut weights = Weights::formulas();
    weights
        .overlay(TUNED)
        .unwrap_or_else(|error| panic!("src/eval/weights.txt: {error}"));
    weights
});

impl Index<Term> for Weights {
    type Output = Score;
    fn index(&self, term: Term) -> &Score {
        &self.0[term.index()]
    }
}

impl IndexMut<Term> for Weights {
    fn index_mut(&mut self, term: Term) -> &mut Score {
        &mut self.0[term.index()]
    }
}

/// Material before placement.
const MATERIAL: [Score; 6] = [
    s(90, 115),
    s(330, 300),
    s(345, 320),
    s(470, 530),
    s(980, 990),
    s(0, 0),
];

/// Per safe square beyond the typical number, and that number: knight, bishop, rook, queen.
fn mobility_formula(piece: Piece) -> (Score, i32) {
    match piece {
        Piece::Knight => (s(4, 4), 4),
        Piece::Bishop => (s(5, 5), 6),
        Piece::Rook => (s(3, 6), 7),
        _ => (s(1, 3), 13),
    }
}

/// Centralisation in 0 (corner) … 6 (centre): 7 minus the doubled Manhattan distance to the centre, halved.
fn centrality(square: Square) -> i32 {
    let file = 2 * i32::from(square.file()) - 7;
    let rank = 2 * i32::from(square.rank()) - 7;
    (14 - file.abs() - rank.abs()) / 2
}

/// Placement of a White piece on `square`.
fn placement_formula(piece: Piece, square: Square) -> Score {
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

/// A passed pawn by its rank counted from its own side.
const PASSED_PAWN: [Score; 6] = [
    s(2, 8),
    s(5, 12),
    s(12, 25),
    s(25, 45),
    s(45, 80),
    s(70, 120),
];

impl Weights {
    /// Every term's formula.
    pub fn formulas() -> Weights {
        let weight = |term: Term| match term {
            Term::Psqt(piece, square) => MATERIAL[piece.index()] + placement_formula(piece, square),
            Term::Mobility(piece, count) => {
                let (per_square, typical) = mobility_formula(piece);
                per_square * (i32::from(count) - typical)
            }
            Term::PassedPawn(rank) => PASSED_PAWN[usize::from(rank) - 1],
            Term::FreePassedPawn(rank) => s(2, 5) * i32::from(rank),
            Term::PassedPawnKingDistance(rank) => s(0, 2) * i32::from(rank),
            // Grows with the square of the attack, as a lone attacker seldom mates.
            Term::KingDanger(units) => {
                let danger = (i32::from(units).pow(2) / 2).min(500);
                s(danger, danger / 4)
            }
            Term::SafeCheck(piece) => match piece {
                Piece::Knight => s(30, 10),
                Piece::Bishop => s(20, 10),
                Piece::Rook => s(35, 15),
                _ => s(25, 15),
            },
            Term::IsolatedPawn => s(-12, -14),
            Term::DoubledPawn => s(-10, -20),
            Term::BishopPair => s(30, 50),
            Term::RookOpenFile => s(22, 8),
            Term::RookSemiOpenFile => s(10, 5),
            Term::ShieldPawn => s(12, 0),
            Term::Tempo => s(12, 12),
            Term::PawnThreat => s(50, 40),
            Term::MinorThreat => s(40, 30),
            Term::HangingPiece => s(30, 20),
            Term::HangingPawn => s(5, 15),
            Term::RookThreat => s(40, 20),
            Term::SupportedPawn => s(8, 6),
            Term::KnightOutpost => s(25, 10),
        };
        Weights(Term::all().map(weight).collect())
    }

    /// Replaces the weights that `text` gives, one a line: `<term name> <mg> <eg>`;
    /// `#` starts a comment.
    pub fn overlay(&mut self, text: &str) -> Result<(), String> {
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let bad = || {
                format!(
                    "line {}: expected '<term> <mg> <eg>', got '{line}'",
                    number + 1
                )
            };
            let [name @ .., mg, eg] = fields.as_slice() else {
                return Err(bad());
            };
            let name = name.join(" ");
            let term = Term::all()
                .find(|term| term.name() == name)
                .ok_or_else(|| format!("line {}: no term '{name}'", number + 1))?;
            let (Ok(mg), Ok(eg)) = (mg.parse(), eg.parse()) else {
                return Err(bad());
            };
            self[term] = s(mg, eg);
        }
        Ok(())
    }

    /// Every term with its weight, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (Term, Score)> + '_ {
        Term::all().map(|term| (term, self[term]))
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (term, score) in self.iter() {
            writeln!(f, "{} {} {}", term.name(), score.mg, score.eg)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tuned_weights_parse() {
        let mut weights = Weights::formulas();
        weights.overlay(TUNED).unwrap();
    }

    #[test]
    fn written_weights_read_back() {
        let mut weights = Weights::formulas();
        weights[Term::Tempo] = s(3, -4);
        let mut read = Weights::formulas();
        read.overlay(&weights.to_string()).unwrap();
        assert_eq!(read, weights);
    }

    #[test]
    fn bad_lines_are_reported() {
        let mut weights = Weights::formulas();
        assert!(weights.overlay("tempo 1").is_err());
        assert!(weights.overlay("tempo one 2").is_err());
        assert!(weights.overlay("psqt knight z9 1 2").is_err());
    }
}
