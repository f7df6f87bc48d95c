//! Shared by the integration tests, the benches and `examples/label_chains.rs`.
#![allow(dead_code)]

pub mod generators;
pub mod large_grids;
pub mod minimax;
pub mod oracle;
pub mod paper;
pub mod scratch;
pub mod strategies;
pub mod tablebase;
// The binary's path is known to the test binary alone.
#[cfg(test)]
pub mod uci_engine;

use catena::tools::epd;
use catena_core::board::Square;

/// One line of `perft/chains.epd`: a board after a move, the square(s) the
/// move put a piece on, and the verdict and size at MinEnclosed 2.
#[derive(Clone, Debug)]
pub struct ChainLine {
    /// The line's number in the file, for failure messages.
    pub number: usize,
    pub fen: String,
    pub moved: Vec<Square>,
    pub chain: bool,
    pub size: u32,
    pub id: Option<String>,
}

/// Every line of `perft/chains.epd`.
pub fn chain_suite() -> Vec<ChainLine> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chains.epd")).unwrap();
    epd::parse_suite(&text)
        .into_iter()
        .map(|line| {
            let field = |opcode| {
                line.operand(opcode)
                    .unwrap_or_else(|| panic!("chains.epd line {}: no {opcode}", line.number))
            };
            ChainLine {
                number: line.number,
                moved: field("moved")
                    .split_whitespace()
                    .map(|name| name.parse().unwrap())
                    .collect(),
                chain: field("chain") == "1",
                size: field("size").parse().unwrap(),
                id: line.operand("id").map(str::to_string),
                fen: line.fen,
            }
        })
        .collect()
}

/// The spec's chain table (section 2): the lines of `perft/chains.epd` named
/// `spec-1` to `spec-8`, in order.
pub fn spec_table() -> Vec<ChainLine> {
    let table: Vec<ChainLine> = chain_suite()
        .into_iter()
        .filter(|line| line.id.as_deref().is_some_and(|id| id.starts_with("spec-")))
        .collect();
    let ids: Vec<&str> = table.iter().filter_map(|line| line.id.as_deref()).collect();
    assert_eq!(
        ids,
        (1..=8).map(|n| format!("spec-{n}")).collect::<Vec<_>>(),
        "perft/chains.epd should hold the spec's table, in order"
    );
    table
}
