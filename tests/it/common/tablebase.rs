//! The Syzygy tables of `tests/data/syzygy/` and what the tablebase tests
//! play with them: won positions drawn by a seeded generator, and Stockfish
//! to defend them (`tests/it/syzygy.rs`, `tests/it/arena_tablebase.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use catena_core::board::Position;
use catena_core::rng::SplitMix64;

use super::generators::board_of;
use catena_engine::tablebase::Tablebases;

/// The tables generated for the tests: every 3-man table, KRvKR, KBNvK,
/// KQvKR and KRvKN.
pub fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// Stockfish's command where it is installed; under CI (`CI=true`), where
/// `.ci/run` installs it, its absence fails the test.
pub fn stockfish() -> Option<&'static str> {
    let stockfish = ["stockfish", "/usr/games/stockfish"]
        .into_iter()
        .find(|command| Command::new(command).arg("quit").output().is_ok());
    assert!(
        stockfish.is_some() || std::env::var("CI").as_deref() != Ok("true"),
        "no stockfish to play the tablebase games against: apt-get install stockfish"
    );
    stockfish
}

/// `count` won 4-man positions, White to move, drawn by a seeded generator
/// from KBNvK (mates up to 33 moves from a zeroing move, which an engine
/// without tables often misses), KQvKR and KRvKN in turn, each with at
/// least 20 plies to the next capture or pawn move. The same seed, the same
/// positions: the first of twenty are the first of any fewer.
pub fn won_4_man_positions(count: usize) -> Vec<String> {
    let tables = Tablebases::open(&tables().display().to_string())
        .unwrap()
        .expect("the test tables");
    let mut random = SplitMix64::new(56);
    let mut starts: Vec<String> = Vec::new();
    let materials = ["KBNvK", "KQvKR", "KRvKN"];
    while starts.len() < count {
        let material = materials[starts.len() % materials.len()];
        let Some(position) = random_position(material, &mut random) else {
            continue;
        };
        if tables.wdl_after_zeroing(&position) == Some(2)
            && tables.dtz(&position).is_some_and(|dtz| dtz >= 20)
        {
            starts.push(position.to_fen());
        }
    }
    starts
}

/// A legal position of `material` (White's men before the `v`), White to
/// move, the men on random squares; `None` when they make no legal one.
fn random_position(material: &str, random: &mut SplitMix64) -> Option<Position> {
    let (white, black) = material.split_once('v').unwrap();
    let mut board = [' '; 64];
    let men = white
        .chars()
        .map(|man| man.to_ascii_uppercase())
        .chain(black.chars().map(|man| man.to_ascii_lowercase()));
    for man in men {
        let square = random.below(64);
        if board[square] != ' ' {
            return None;
        }
        board[square] = man;
    }
    Position::from_fen(&format!("{} w - - 0 1", board_of(&board))).ok()
}
