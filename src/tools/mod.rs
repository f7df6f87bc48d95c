//! Command-line tools built on the engine's parts.

pub mod book;
pub mod chain;
pub mod datagen;
pub mod epd;
pub mod perft;
pub mod progress;
pub mod puzzles;
pub mod solve;
pub mod sscc_bench;
pub mod train;
