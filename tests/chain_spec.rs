//! The examples of the spec's chain table, and the method's own corner cases.

use catena::board::{Bitboard, Placement, Position, Square};
use catena::chain::{self, Cell, Grid};
use catena::rng::SplitMix64;
use common::spec_table;

mod common;

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

/// A board with each square occupied with probability `percent`%.
fn random_board(random: &mut SplitMix64, percent: u32) -> Bitboard {
    (0..64)
        .filter(|_| random.percent(percent))
        .map(Square::from_index)
        .collect()
}

#[test]
fn the_bitboard_fast_path_agrees_with_the_general_method() {
    let mut random = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let mut chains = 0;
    for round in 0..6_000 {
        let occupied = random_board(&mut random, 20 + round % 61);
        let Some(piece) = occupied
            .into_iter()
            .nth(random.below(occupied.len().max(1) as usize))
        else {
            continue;
        };
        let min_enclosed = 1 + round % 3;
        let grid = Grid::from_bitboard(occupied);
        let cell = Cell::from(piece);
        let fast = chain::forms_chain(occupied, piece.bitboard(), min_enclosed);
        let general = chain::grid_forms_chain(&grid, &[cell], min_enclosed);
        assert_eq!(fast, general, "verdict, {piece} min {min_enclosed}\n{grid}");
        let fast_size = chain::chain_size(occupied, piece.bitboard(), min_enclosed);
        let general_size = chain::grid_chain_size(&grid, &[cell], min_enclosed);
        assert_eq!(
            fast_size, general_size,
            "size, {piece} min {min_enclosed}\n{grid}"
        );
        chains += fast as u32;
    }
    assert!(
        chains > 1000,
        "only {chains} chains: the boards test too little"
    );
}
