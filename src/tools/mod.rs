//! Command-line tools built on the engine's parts.

pub mod epd;
pub mod perft;
pub mod bench;
