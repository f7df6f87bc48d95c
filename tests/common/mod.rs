//! Shared by the integration tests and `examples/label_chains.rs`.
#![allow(dead_code)]

pub mod generators;
pub mod large_grids;
pub mod minimax;
pub mod oracle;
pub mod scratch;

/// The spec's chain table (section 2): position after the move, moved square, chain, size.
pub const SPEC_TABLE: [(&str, &str, bool, u32); 8] = [
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
