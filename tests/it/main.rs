//! The integration tests, one binary with a module per area, so that a
//! fresh clone links the workspace once (docs/testing.md).

mod common;
mod gui_support;

mod architecture;
mod arena;
mod arena_tablebase;
mod book;
mod chain_large;
mod chain_oracle;
mod chain_spec;
mod cli;
mod datagen;
mod fen;
mod game;
mod gui;
mod gui_browser;
mod layout;
mod network;
mod perft_suite;
mod play;
mod runs;
mod search;
mod search_tree;
mod solve;
mod sscc_bench;
mod sscc_perft;
mod syzygy;
mod uci;
mod zobrist;
