//! Which openings leave an SSCC game open: for each opening of an EPD or PGN
//! file (read as `catena match --openings` reads it), what the run probe (`crates/engine/src/runs.rs`) sees for the player to move,
//! under the default rules (switch rule `chain`, MinEnclosed 2).
//!
//! ```text
//! cargo run --release --example sscc_openings -- openings/balanced.epd > open.epd
//! ```
//!
//! Each position is one of:
//! - *won*: the player to move has a run that mates (up to 8 switches,
//!   200,000 positions searched), so the first mover wins at once;
//! - *lost*: every move hands the opponent such a run (50,000 positions a
//!   move);
//! - *open*: neither, as far as the probe sees. Only these are printed,
//!   as FENs; the tally goes to stderr.
//!
//! A probe out of positions claims nothing, so an *open* position may still
//! hide a longer run.

use std::path::Path;

use catena::arena::load_openings;
use catena_core::game::Rules;
use catena_engine::runs::RunMates;

const SWITCHES: u32 = 8;
const OWN_NODES: u32 = 200_000;
const REPLY_NODES: u32 = 50_000;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sscc_openings OPENINGS.epd|OPENINGS.pgn");
        std::process::exit(2);
    };
    let rules = Rules::default();
    let openings = load_openings(Path::new(&path), rules, None).unwrap_or_else(|problem| {
        eprintln!("{problem}");
        std::process::exit(2);
    });
    let (mut won, mut lost, mut open) = (0, 0, 0);
    for opening in openings {
        let game = opening
            .game(rules)
            .expect("the openings were replayed as they were read");
        let (position, run) = (game.position().clone(), game.run());
        let mut probe = RunMates::default();
        let mut keys = Vec::new();
        if probe
            .probe(&position, run, &rules, SWITCHES, OWN_NODES, &mut keys)
            .is_some()
        {
            won += 1;
            continue;
        }
        keys.push(position.key());
        let safe = position.legal_moves().into_iter().any(|mv| {
            probe
                .refutation(&position, mv, &rules, SWITCHES, REPLY_NODES, &mut keys)
                .is_none()
        });
        if safe {
            open += 1;
            println!("{}", position.to_fen());
        } else {
            lost += 1;
        }
    }
    eprintln!("{path}: won {won}, lost {lost}, open {open}");
}
