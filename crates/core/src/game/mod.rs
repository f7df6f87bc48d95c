//! The rules of Switch-Side Chain-Chess on top of the chess position: switching
//! sides, the limits on switch runs, game end and game records.

mod action;
mod outcome;
pub mod pgn;
mod rules;
mod run;
mod state;
mod variant;

pub use action::Action;
pub use outcome::{Outcome, Player, Termination};
pub use rules::{Rules, SwitchRule};
pub use run::{ChainTest, SwitchRun, closed_chain, forms_chain};
pub use state::{GameError, GameState, Ply};
pub use variant::Variant;
