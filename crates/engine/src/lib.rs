//! Catena's engine: evaluation, search, the proof-number solver and the UCI
//! protocol, on top of `catena-core`.

pub mod bench;
pub mod book;
pub mod engine;
pub mod eval;
pub mod history;
pub mod listings;
pub mod memory;
pub mod movepick;
pub mod options;
pub mod proof_table;
mod quote;
pub mod runs;
pub mod score;
pub mod search;
pub mod see;
pub mod seqlock;
pub mod solve;
mod stack;
pub mod switch_memo;
pub mod tablebase;
pub mod thread;
pub mod threadpool;
pub mod time;
pub mod transposition;
pub mod tree_stats;
pub mod uci;
pub mod wdl;
