//! The chain check for all the moves of one position, sharing what they have
//! in common.
//!
//! Most moves of a game cannot close a chain, and most of those can be told
//! without a flood fill. Putting a piece on a square `s` cuts nothing new off
//! the edge when the empty squares around `s` form one unbroken run: a path of
//! empty squares that went through `s` (or diagonally past it) can go round
//! that run instead, in orthogonal steps. So when the position before the move
//! has no group of `MinEnclosed` cut off, and the squares the move empties
//! neither touch a cut-off square nor make such a group on their own, a move
//! onto such squares forms no chain.

use once_cell::sync::Lazy;

use crate::board::{Bitboard, Square};
use crate::chain::Memo;
use crate::chain::flood_bits::{escaping_squares, king_grow, largest_group};

/// The chain check of every move from one position.
pub struct MoveScreen {
    occupied: Bitboard,
    min_enclosed: u32,
    /// The empty squares cut off before the move, with their neighbours;
    /// `None` when they already hold a group of `min_enclosed`.
    near_small_groups: Option<Bitboard>,
    memo: Memo,
}

impl MoveScreen {
    /// The screen for the position whose pieces stand on `occupied`.
    pub fn new(occupied: Bitboard, min_enclosed: u32) -> MoveScreen {
        let cut_off = !occupied - escaping_squares(occupied);
        MoveScreen {
            occupied,
            min_enclosed,
            near_small_groups: (largest_group(cut_off) < min_enclosed).then(|| king_grow(cut_off)),
            memo: Memo::Use,
        }
    }

    /// The same screen, its full checks without the memo of verdicts: for
    /// a caller that seldom meets a board twice.
    pub fn without_memo(self) -> MoveScreen {
        MoveScreen {
            memo: Memo::Skip,
            ..self
        }
    }

    /// Whether the move that empties `vacated` and puts pieces on `landing`
    /// forms a chain; the same answer as [`crate::chain::forms_chain`].
    #[inline]
    pub fn forms_chain(&self, vacated: Bitboard, landing: Bitboard) -> bool {
        if !self.may_cut_off(vacated, landing) {
            return false;
        }
        crate::chain::forms_chain_with(
            (self.occupied - vacated) | landing,
            landing,
            self.min_enclosed,
            self.memo,
        )
    }

    /// False when the move surely leaves no group of `min_enclosed` empty
    /// squares cut off: after it, only squares cut off before it or emptied
    /// by it can be cut off, unless a landing square breaks a run.
    #[inline]
    fn may_cut_off(&self, vacated: Bitboard, landing: Bitboard) -> bool {
        let Some(near_small_groups) = self.near_small_groups else {
            return true;
        };
        if vacated.len() >= self.min_enclosed || !(near_small_groups & vacated).is_empty() {
            return true;
        }
        let mut walls = self.occupied;
        landing.into_iter().any(|square| {
            let splits = !keeps_empty_run(walls, square);
            walls |= square.bitboard();
            splits
        })
    }
}

/// Whether the empty squares around `square` (the board's outside counting as
/// empty) form at most one unbroken run, given the other pieces on `walls`.
#[inline]
fn keeps_empty_run(walls: Bitboard, square: Square) -> bool {
    let ring = &RINGS[square.index()];
    let pattern = ring
        .iter()
        .enumerate()
        .fold(0usize, |pattern, (bit, &neighbour)| {
            pattern | (usize::from(!(walls & neighbour).is_empty()) << bit)
        });
    ONE_RUN[pattern]
}

/// The eight neighbours of each square in order around it (empty bitboards
/// off the board).
static RINGS: Lazy<[[Bitboard; 8]; 64]> = Lazy::new(|| {
    const AROUND: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    std::array::from_fn(|index| {
        let square = Square::from_index(index);
        AROUND.map(|(files, ranks)| {
            square
                .offset(files, ranks)
                .map_or(Bitboard::EMPTY, Square::bitboard)
        })
    })
});

/// For each pattern of occupied neighbours (bit `i`: the `i`-th around),
/// whether the empty ones form at most one run round the circle.
static ONE_RUN: Lazy<[bool; 256]> = Lazy::new(|| {
    std::array::from_fn(|pattern| {
        let occupied = |bit: usize| pattern & (1 << (bit % 8)) != 0;
        let run_starts = (0..8)
            .filter(|&bit| occupied(bit) && !occupied(bit + 1))
            .count();
        run_starts <= 1
    })
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Position};

    /// Every move of every position reached in a few plies from some openings
    /// gets the same answer from the screen, with and without the memo of
    /// verdicts, as from the full check.
    #[test]
    fn the_screen_agrees_with_the_full_check() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pp1ppppp/2p5/8/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // En passant, promotion and castling each close a chain here.
            "4k3/8/4p3/2ppPp2/3PP3/8/8/4K3 w - d6 0 2",
            "3k1b2/4p1Pp/5np1/8/8/8/8/K7 w - - 0 1",
            "k7/8/8/8/5PP1/4P2P/4P2P/4K2R w K - 0 1",
        ];
        let mut counts = Counts::default();
        for fen in fens {
            let position = Position::from_fen(fen).unwrap();
            walk(&position, 2, &mut counts);
        }
        assert!(
            counts.moves > 100_000,
            "only {} moves checked",
            counts.moves
        );
        assert!(counts.chains > 1_000, "only {} chains met", counts.chains);
    }

    #[derive(Default)]
    struct Counts {
        moves: u32,
        chains: u32,
    }

    fn walk(position: &Position, depth: u32, counts: &mut Counts) {
        for min_enclosed in 1..=3 {
            let screen = MoveScreen::new(position.occupied(), min_enclosed);
            let unremembered = MoveScreen::new(position.occupied(), min_enclosed).without_memo();
            position.generate_moves(|moves| {
                for mv in moves {
                    counts.moves += 1;
                    counts.chains +=
                        u32::from(assert_screen_agrees(position, &screen, mv, min_enclosed));
                    assert_screen_agrees(position, &unremembered, mv, min_enclosed);
                }
                false
            });
        }
        if depth > 0 {
            position.generate_moves(|moves| {
                for mv in moves {
                    walk(&position.after(mv), depth - 1, counts);
                }
                false
            });
        }
    }

    /// Whether `mv` forms a chain, after checking both answers agree.
    fn assert_screen_agrees(position: &Position, screen: &MoveScreen, mv: Move, min: u32) -> bool {
        let occupied_after = position.occupied_after(mv);
        let landing = position.landing_squares(mv);
        let vacated = position.occupied() - occupied_after;
        let forms_chain = crate::chain::forms_chain(occupied_after, landing, min);
        assert_eq!(
            screen.forms_chain(vacated, landing),
            forms_chain,
            "{mv} from {position}, {:?}",
            screen.memo
        );
        forms_chain
    }
}
