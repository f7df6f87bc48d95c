//! Command-line tools built on the engine's parts.

pub mod bench;
pub mod epd;
pub mod perft;
