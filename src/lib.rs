//! Catena: an engine for Switch-Side Chain-Chess.

pub mod board;
pub mod chain;
pub mod game;
pub mod tools;
