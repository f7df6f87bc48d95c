//! Static evaluation: the network (`network.rs`), which `catena train` fits
//! to positions labelled by a stronger engine, and rough piece values for the
//! search's move ordering and margins. Scores are centipawns from the side to
//! move's view.

pub mod network;

pub use network::{describe, evaluate};

/// Rough piece values for move ordering and pruning margins.
pub const PIECE_VALUE: [i32; 6] = [100, 310, 330, 500, 950, 20_000];
