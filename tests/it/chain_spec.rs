//! The examples of the spec's chain table, and the method's own corner cases.

use crate::common::spec_table;
use crate::common::strategies::grid_after_a_move;
use catena_core::board::{Bitboard, Placement, Position, Square};
use catena_core::chain::{self, Cell, Grid};
use proptest::prelude::*;

fn verdict(fen: &str, moved: &[Square], min_enclosed: u32) -> (bool, u32) {
    let occupied = Placement::from_fen(fen).unwrap().occupied();
    let landing: Bitboard = moved.iter().copied().collect();
    (
        chain::forms_chain(occupied, landing, min_enclosed),
        chain::chain_size(occupied, landing, min_enclosed),
    )
}

#[test]
fn the_spec_table() {
    for line in spec_table() {
        assert_eq!(
            verdict(&line.fen, &line.moved, 2),
            (line.chain, line.size),
            "{} moved {:?}",
            line.fen,
            line.moved
        );
    }
}

#[test]
fn the_smallest_chain_of_the_papers_example_has_six_pieces() {
    let occupied = Position::from_fen("k7/8/8/8/5N2/4P1B1/5P1P/K5R1 w - - 0 1")
        .unwrap()
        .occupied();
    let g3: Square = "g3".parse().unwrap();
    let found = chain::analyse_board(occupied, g3.bitboard(), 2).unwrap();
    assert_eq!(found.smallest.len(), 6);
    let enclosed: Vec<String> = found
        .enclosed
        .iter()
        .map(|&cell| chain::square_of(cell).to_string())
        .collect();
    assert_eq!(enclosed, ["g2", "f3"]);
}

#[test]
fn a_ring_on_a_small_grid() {
    let ring = Grid::parse("4x4 xxxx/x..x/x..x/xxxx").unwrap();
    let corner = Cell::new(0, 0);
    assert!(chain::grid_forms_chain(&ring, &[corner], 4));
    assert!(!chain::grid_forms_chain(&ring, &[corner], 5));
    assert_eq!(chain::grid_chain_size(&ring, &[corner], 2), 4);
    // An empty cell is on no loop.
    assert!(!chain::grid_forms_chain(&ring, &[Cell::new(1, 1)], 1));
}

#[test]
fn a_piece_in_the_middle_of_a_block_can_only_bound_part_of_it() {
    // The centre piece lies inside the outer ring; a loop through it must leave
    // it on the border, so it can take in the pockets on one side only.
    let grid = Grid::parse("5x5 xxxxx/x...x/x.x.x/x...x/xxxxx").unwrap();
    let centre = Cell::new(2, 2);
    assert!(!chain::grid_forms_chain(&grid, &[centre], 1));
    // Joined to the ring above and below, it splits the pocket in two; a loop
    // through it takes one half.
    let joined = Grid::parse("5x5 xxxxx/x.x.x/x.x.x/x.x.x/xxxxx").unwrap();
    assert!(chain::grid_forms_chain(&joined, &[centre], 3));
    assert!(!chain::grid_forms_chain(&joined, &[centre], 4));
    assert_eq!(chain::grid_chain_size(&joined, &[centre], 1), 3);
}

proptest! {
    #![proptest_config(crate::common::strategies::config(6000))]

    /// On 8x8 boards, the bitboard method's verdicts and sizes at
    /// MinEnclosed 1 to 3 are those of the general method on grids; dense
    /// boards too, up to 70%, which no oracle can follow (at 80% a few
    /// boards cost seconds each, and a run's time would depend on its
    /// seed). The companion test in chain_oracle.rs shows that these
    /// layouts form chains. A failure shrinks to a board where every piece
    /// matters.
    #[test]
    fn the_bitboard_fast_path_agrees_with_the_general_method(
        case in grid_after_a_move(8..=8, 7),
    ) {
        let occupied = Bitboard(case.grid.to_u64());
        let (x, y) = case.moved[0];
        let piece = Square::new(x as u8, y as u8);
        let grid = Grid::from_bitboard(occupied);
        let cell = Cell::from(piece);
        for min_enclosed in 1..=3 {
            prop_assert_eq!(
                chain::forms_chain(occupied, piece.bitboard(), min_enclosed),
                chain::grid_forms_chain(&grid, &[cell], min_enclosed),
                "verdict, {} min {}", piece, min_enclosed
            );
            prop_assert_eq!(
                chain::chain_size(occupied, piece.bitboard(), min_enclosed),
                chain::grid_chain_size(&grid, &[cell], min_enclosed),
                "size, {} min {}", piece, min_enclosed
            );
        }
    }
}
