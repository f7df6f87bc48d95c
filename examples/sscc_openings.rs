//! Which chess openings leave an SSCC game open: for each FEN or EPD line
//! read, what the run probe (`src/runs.rs`) sees for the player to move,
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
//! - *open*: neither, as far as the probe sees. Only these lines are
//!   printed, unchanged; the tally goes to stderr.
//!
//! A probe out of positions claims nothing, so an *open* position may still
//! hide a longer run.

use catena::board::Position;
use catena::game::{Rules, SwitchRun};
use catena::runs::RunMates;

const SWITCHES: u32 = 8;
const OWN_NODES: u32 = 200_000;
const REPLY_NODES: u32 = 50_000;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sscc_openings OPENINGS.epd");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|problem| {
        eprintln!("{path}: {problem}");
        std::process::exit(2);
    });
    let rules = Rules::default();
    let (mut won, mut lost, mut open) = (0, 0, 0);
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        // An EPD line has four fields; a FEN six. Either gives the board.
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let position = match Position::from_fen(&format!("{} 0 1", fields.join(" "))) {
            Ok(position) => position,
            Err(problem) => {
                eprintln!("{path}:{}: {problem}", number + 1);
                continue;
            }
        };
        let mut probe = RunMates::default();
        let mut keys = Vec::new();
        let run = SwitchRun::default();
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
            println!("{line}");
        } else {
            lost += 1;
        }
    }
    eprintln!("{path}: won {won}, lost {lost}, open {open}");
}
