//! Why a move the player typed cannot be played, in words a player understands:
//! no piece there, that piece cannot move there, or it leaves the king in check.

use catena_core::board::san::{piece_name, reaches};
use catena_core::board::{Castling, Piece, Position, Square, Wing};

/// Why `from`-`to` (with `promotion`) is not a legal move in `position`; call
/// it only for moves that are not legal.
pub fn explain(position: &Position, from: Square, to: Square, promotion: Option<Piece>) -> String {
    let us = position.side_to_move();
    let Some(piece) = position
        .piece_on(from)
        .filter(|_| position.colored(us).contains(from))
    else {
        return format!("there is no {us} piece on {from}");
    };
    let name = format!("the {us} {} on {from}", piece_name(piece));
    let castling = Wing::ALL
        .into_iter()
        .find(|&wing| {
            let castling = Castling::of(us, wing);
            piece == Piece::King && castling.king_from == from && castling.king_to == to
        })
        .filter(|&wing| {
            position.castling_rights().has(us, wing)
                && (Castling::of(us, wing).must_be_empty & position.occupied()).is_empty()
        });
    if castling.is_some() {
        return if position.in_check() {
            "you cannot castle out of check".to_string()
        } else {
            "you cannot castle through or into check".to_string()
        };
    }
    if !reaches(position, piece, from, to) {
        return format!("{name} cannot move to {to}");
    }
    let promotes = piece == Piece::Pawn && to.relative_rank(us) == 7;
    match promotion {
        None if promotes => {
            format!("a pawn reaching the last rank must promote: add q, r, b or n ({from}{to}q)")
        }
        Some(_) if !promotes => format!("{name} does not promote on {to}"),
        _ if piece == Piece::King => format!("that leaves your king in check: {to} is attacked"),
        _ => format!("that leaves your king in check ({name} cannot move to {to})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explain_uci(fen: &str, text: &str) -> String {
        let position = Position::from_fen(fen).unwrap();
        let from = text[0..2].parse().unwrap();
        let to = text[2..4].parse().unwrap();
        let promotion = text[4..].chars().next().and_then(Piece::from_letter);
        explain(&position, from, to, promotion)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn names_what_is_wrong() {
        let promoting = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1";
        let pinned = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1";
        let checked_on_the_rank = "4k3/8/8/8/8/8/8/4K2r w - - 0 1";
        let through_check = "5rk1/8/8/8/8/8/8/4K2R w K - 0 1";
        let in_check = "4r1k1/8/8/8/8/8/8/4K2R w K - 0 1";
        let cases = [
            (START, "e3e4", "there is no white piece on e3"),
            (START, "e7e5", "there is no white piece on e7"),
            (START, "g1g3", "the white knight on g1 cannot move to g3"),
            (START, "e2e5", "the white pawn on e2 cannot move to e5"),
            (START, "e1g1", "the white king on e1 cannot move to g1"),
            (
                START,
                "e2e4q",
                "the white pawn on e2 does not promote on e4",
            ),
            (
                promoting,
                "e7e8",
                "a pawn reaching the last rank must promote: add q, r, b or n (e7e8q)",
            ),
            (
                pinned,
                "e2c3",
                "that leaves your king in check (the white knight on e2 cannot move to c3)",
            ),
            (
                checked_on_the_rank,
                "e1d1",
                "that leaves your king in check: d1 is attacked",
            ),
            (
                through_check,
                "e1g1",
                "you cannot castle through or into check",
            ),
            (in_check, "e1g1", "you cannot castle out of check"),
        ];
        for (fen, text, expected) in cases {
            assert_eq!(explain_uci(fen, text), expected, "{text} in {fen}");
        }
    }
}
