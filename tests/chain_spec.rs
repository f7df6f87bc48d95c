//! The examples of the spec's chain table, and the method's own corner cases.

use catena::board::{Bitboard, Position, Square};
use catena::chain::{self, Cell, Grid};

fn verdict(fen: &str, moved: &str, min_enclosed: u32) -> (bool, u32) {
    let occupied = Position::from_fen(fen).unwrap().occupied();
    let landing: Bitboard = moved
        .split_whitespace()
        .map(|name| name.parse::<Square>().unwrap())
        .collect();
    (
        chain::forms_chain(occupied, landing, min_enclosed),
        chain::chain_size(occupied, landing, min_enclosed),
    )
}

#[test]
fn the_spec_table() {
    let table = [
        ("k7/8/8/8/5N2/4P1B1/5P1P/K5R1 w - - 0 1", "g3", true, 2),
        ("k7/8/8/8/5N2/4P1B1/5P2/K5R1 w - - 0 1", "g3", false, 0),
        ("k7/8/8/8/5N2/4P1B1/5P1P/K5R1 w - - 0 1", "a1", false, 0),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2",
            "d3",
            true,
            2,
        ),
        (
            "rnbqkbnr/p6p/r1nppn1r/p1p2p1p/P1P1PP1P/R1N1BB1R/P1P4P/R1BQKBNR w - - 0 1",
            "e4",
            false,
            0,
        ),
        (
            "1b4rk/n1p3pr/p1np3p/1p1pp3/3PP3/P1NPPQ2/N1PRK3/1B6 w - - 0 1",
            "f3",
            true,
            2,
        ),
        (
            "5rk1/ppp1nrpp/2nq2b1/3p2P1/3P1PP1/P1N1P3/1P2B3/2RQK2R w K - 1 17",
            "f8",
            true,
            8,
        ),
        (
            "r3k2r/1bppb1q1/1pn1p2p/p4p2/Q2P2pN/P1PBP1P1/1P1N1PPR/R3K3 b Qkq - 1 16",
            "h2",
            true,
            12,
        ),
    ];
    for (fen, moved, chain, size) in table {
        assert_eq!(verdict(fen, moved, 2), (chain, size), "{fen} moved {moved}");
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
