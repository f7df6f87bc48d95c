//! The `catena` program's parts beyond the engine: the match runner, the
//! terminal game, the browser GUI and the command-line tools.

pub mod arena;
pub mod cli;
pub mod gui;
pub mod play;
pub mod tools;
