//! Catena: an engine for Switch-Side Chain-Chess.

pub mod arena;
pub mod board;
pub mod chain;
pub mod engine;
pub mod eval;
pub mod game;
pub mod gui;
pub mod history;
pub mod movepick;
pub mod play;
pub mod rng;
pub mod runs;
pub mod search;
pub mod solve;
mod stack;
pub mod threads;
pub mod time;
pub mod tools;
pub mod transposition;
pub mod tree_stats;
pub mod uci;
pub mod wdl;
