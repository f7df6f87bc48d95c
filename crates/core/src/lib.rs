//! The game of Switch-Side Chain-Chess, without an engine: the board and its
//! legal moves, chain detection, the switch rules, the game state and its
//! records, and perft.

pub mod board;
pub mod chain;
pub mod game;
pub mod perft;
pub mod rng;
