//! Win, draw and loss odds of a score, for `UCI_ShowWDL` (issue 23, point 5).
//!
//! The model is Stockfish's form with Catena's own constants: from the side
//! to move's view, a score `s` in centipawns wins with odds
//! `1 / (1 + exp((a - s) / b))` and loses with `1 / (1 + exp((a + s) / b))`,
//! the rest being the draw; `a` and `b` move linearly with the material on
//! the board (pawn 1, knight and bishop 3, rook 5, queen 9; 78 at the start),
//! since an equal edge decides fewer endgames than middlegames. The
//! constants of each variant were fitted by maximum likelihood to Catena's
//! self-play games by `tests/data/fit_wdl.py` (the commands are in
//! docs/engine.md).

use crate::score::MATE_BOUND;
use catena_core::board::{Piece, Position};
use catena_core::game::Variant;

/// Odds per mille, summing to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinDrawLoss {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// `a = a[0] + a[1] * m / 78`, `b = b[0] + b[1] * m / 78`, for material `m`.
#[derive(Clone, Copy, Debug)]
struct Model {
    a: [f64; 2],
    b: [f64; 2],
}

/// Fitted to 400 self-play chess games at 20,000 nodes a move (49,424
/// positions, 35% drawn).
const CHESS: Model = Model {
    a: [244.2, -177.4],
    b: [57.6, 93.3],
};

/// Fitted to 400 self-play SSCC games at 20,000 nodes a move (rule `chain`,
/// at least 2 squares enclosed; 5,854 positions, 16 drawn), with the same `a`
/// and `b` at any material (`--flat`): the games end before material comes
/// off. The form fits SSCC less well than chess: a score beyond 1000 still
/// loses 5% of the games, which stretches `b`, so scores of 150 to 300 win
/// 84% against the model's 63% (docs/engine.md).
const SSCC: Model = Model {
    a: [7.4, 0.0],
    b: [397.8, 0.0],
};

/// The material of both sides, as the model counts it.
pub fn material(position: &Position) -> u32 {
    [
        (Piece::Pawn, 1),
        (Piece::Knight, 3),
        (Piece::Bishop, 3),
        (Piece::Rook, 5),
        (Piece::Queen, 9),
    ]
    .iter()
    .map(|&(piece, value)| position.pieces(piece).len() * value)
    .sum()
}

/// The odds of `score` (the search's, from the side to move's view) with
/// `material` on the board, in `variant`.
pub fn win_draw_loss(score: i32, material: u32, variant: Variant) -> WinDrawLoss {
    if score >= MATE_BOUND {
        return WinDrawLoss {
            win: 1000,
            draw: 0,
            loss: 0,
        };
    }
    if score <= -MATE_BOUND {
        return WinDrawLoss {
            win: 0,
            draw: 0,
            loss: 1000,
        };
    }
    let model = match variant {
        Variant::Chess => CHESS,
        Variant::Sscc(_) => SSCC,
    };
    let share = f64::from(material.min(78)) / 78.0;
    let a = model.a[0] + model.a[1] * share;
    let b = (model.b[0] + model.b[1] * share).max(1.0);
    let odds = |edge: f64| 1000.0 / (1.0 + ((a - edge) / b).exp());
    let win = odds(f64::from(score)).round() as u32;
    let loss = (odds(-f64::from(score)).round() as u32).min(1000 - win);
    WinDrawLoss {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_sum_to_a_thousand_and_follow_the_score() {
        let mut last_win = 0;
        let mut last_loss = 1000;
        for score in (-2000..=2000).step_by(25) {
            for material in [0, 20, 40, 78, 100] {
                let odds = win_draw_loss(score, material, Variant::Chess);
                assert_eq!(odds.win + odds.draw + odds.loss, 1000, "{score} {material}");
            }
            let odds = win_draw_loss(score, 40, Variant::Chess);
            assert!(odds.win >= last_win && odds.loss <= last_loss, "{score}");
            (last_win, last_loss) = (odds.win, odds.loss);
        }
    }

    #[test]
    fn a_level_score_is_symmetric_and_mates_are_certain() {
        let level = win_draw_loss(0, 78, Variant::Chess);
        assert_eq!(level.win, level.loss);
        let up = win_draw_loss(150, 30, Variant::Chess);
        let down = win_draw_loss(-150, 30, Variant::Chess);
        assert_eq!((up.win, up.loss), (down.loss, down.win));
        assert_eq!(win_draw_loss(MATE_BOUND + 3, 10, Variant::Chess).win, 1000);
        assert_eq!(
            win_draw_loss(-MATE_BOUND - 3, 10, Variant::Chess).loss,
            1000
        );
    }

    #[test]
    fn material_counts_the_start_as_78() {
        assert_eq!(material(&Position::startpos()), 78);
    }
}
