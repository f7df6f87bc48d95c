//! Catena: an engine for Switch-Side Chain-Chess.

pub mod board;
pub mod tools;
