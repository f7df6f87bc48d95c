//! `catena datagen`: seeded self-play in the form `catena train` reads, the
//! run probe's count of the moves that hand the opponent a mating run
//! (`--probe-nodes`), and the positions of proven lines (`--proofs`).

use crate::cli::{catena, stderr};
use crate::common::scratch::ScratchDir;
use crate::runs::plain_run_mate;
use catena::tools::puzzles::read_puzzle;
use catena_core::board::Position;
use catena_core::game::{GameState, Rules, SwitchRun};
use catena_engine::eval::network::Network;

/// A few short seeded games of self-play.
const SMALL_RUN: [&str; 6] = ["--games", "6", "--nodes", "400", "--seed", "5"];

/// Runs `catena datagen` with `args` into a file of `dir` and returns its lines.
fn datagen(dir: &ScratchDir, args: &[&str]) -> Vec<String> {
    let path = dir.join("data.txt");
    let mut all = vec!["datagen", path.to_str().unwrap()];
    all.extend(args);
    let output = catena(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(str::to_string).collect()
}

/// Every probed line counts its position's legal moves, and among them at
/// least every move that a plain recursion finds handing the opponent a run
/// of one or two switches that mates (the probe looks further, up to eight).
#[test]
fn probed_positions_count_the_moves_that_hand_over_a_mating_run() {
    let dir = ScratchDir::new("datagen-probe");
    let lines = datagen(
        &dir,
        &[SMALL_RUN.as_slice(), &["--probe-nodes", "20000"]].concat(),
    );
    assert!(lines.len() >= 30, "{} lines", lines.len());
    let rules = Rules::default();
    let (mut handing_lines, mut checked) = (0, 0);
    for line in &lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        let [fen, _, _, _, probe] = fields[..] else {
            panic!("{line}");
        };
        let counts: Vec<usize> = probe.split(' ').map(|n| n.parse().unwrap()).collect();
        let [handing, moves] = counts[..] else {
            panic!("{line}");
        };
        let position = Position::from_fen(fen).unwrap();
        let legal = position.legal_moves();
        assert_eq!(moves, legal.len(), "{line}");
        let plainly_handing = legal
            .iter()
            .filter(|&&mv| {
                let child = position.after(mv);
                plain_run_mate(
                    &child,
                    SwitchRun::default(),
                    &rules,
                    2,
                    &mut vec![position.clone()],
                )
                .is_some()
            })
            .count();
        assert!(
            plainly_handing <= handing,
            "{line}: {plainly_handing} by the recursion"
        );
        assert!(handing <= moves, "{line}");
        handing_lines += usize::from(handing > 0);
        checked += usize::from(plainly_handing > 0);
    }
    // The check bites: some positions have such moves, found both ways.
    assert!(
        checked > 0 && handing_lines >= checked,
        "{handing_lines} {checked}"
    );

    // The trainer reads the fifth field, with or without its weight.
    let out = dir.join("net.bin");
    for weight in ["0", "1"] {
        let output = catena(&[
            "train",
            dir.join("data.txt").to_str().unwrap(),
            "--epochs",
            "1",
            "--probe-weight",
            weight,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
}

/// `--proofs`: each position of each proven line, not in check, once, won
/// by the player who moves first in the line: the result is that of the
/// player holding White, and the score says the same from White's view.
#[test]
fn proofs_become_positions_won_by_the_attacker() {
    let dir = ScratchDir::new("datagen-proofs");
    let puzzles = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/puzzles.epd");
    let lines = datagen(&dir, &["--proofs", puzzles, puzzles]);

    // An independent count: the positions along every line, by replaying it.
    let mut expected = std::collections::HashSet::new();
    let mut positions = 0;
    for text in std::fs::read_to_string(puzzles).unwrap().lines() {
        if text.starts_with('#') || text.trim().is_empty() {
            continue;
        }
        let (puzzle, rules) = read_puzzle(text).unwrap();
        if rules != Rules::default() {
            continue;
        }
        let start = Position::from_fen(&puzzle.fen).unwrap();
        let mut game = GameState::new(start.clone(), rules);
        let attacker = game.controller(start.side_to_move());
        for &action in &puzzle.line {
            if !game.position().in_check() {
                let run = game.run();
                let to_move_wins = game.controller(game.position().side_to_move()) == attacker;
                expected.insert((game.position().to_fen(), run.switches(), to_move_wins));
            }
            game.apply(action).unwrap();
        }
        positions += 1;
    }
    assert!(
        positions > 100,
        "{positions} puzzles under the default rules"
    );
    assert_eq!(lines.len(), expected.len());
    for line in &lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        let [fen, result, score, run] = fields[..] else {
            panic!("{line}");
        };
        let position = Position::from_fen(fen).unwrap();
        let white_wins = match (result, score) {
            ("1", "10000") => true,
            ("0", "-10000") => false,
            _ => panic!("{line}"),
        };
        let to_move_wins =
            white_wins == (position.side_to_move() == catena_core::board::Color::White);
        let switches: u32 = run.split(' ').next().unwrap().parse().unwrap();
        assert!(
            expected.contains(&(fen.to_string(), switches, to_move_wins)),
            "{line}"
        );
    }
    // Both sides of the proofs are there.
    assert!(lines.iter().any(|line| line.contains("| 1 |")));
    assert!(lines.iter().any(|line| line.contains("| 0 |")));
}

/// `catena datagen`: seeded self-play at a fixed number of nodes writes the
/// same lines on every run, each a quiet SSCC position with a result, a
/// score and the run of the side to move, in the form `catena train` reads.
#[test]
fn datagen_writes_the_same_sscc_positions_on_every_run() {
    let dir = ScratchDir::new("datagen");
    let write = |name: &str| {
        let path = dir.join(name);
        let mut args = vec!["datagen", path.to_str().unwrap()];
        args.extend(SMALL_RUN);
        let output = catena(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        std::fs::read_to_string(path).unwrap()
    };
    let first = write("first.txt");
    assert_eq!(first, write("second.txt"));
    let lines: Vec<&str> = first.lines().collect();
    assert!(lines.len() >= 30, "{} lines", lines.len());
    for line in &lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        let [fen, result, score, run] = fields[..] else {
            panic!("{line}");
        };
        let position = Position::from_fen(fen).unwrap();
        assert!(!position.in_check(), "{line}");
        assert!(["0", "0.5", "1"].contains(&result), "{line}");
        assert!(score.parse::<i32>().unwrap().abs() < catena_engine::score::MATE_BOUND);
        let run: Vec<u32> = run.split(' ').map(|field| field.parse().unwrap()).collect();
        assert!(run.len() == 2 && run[1] <= 1, "{line}");
    }
    // Runs in progress are written with their length.
    assert!(lines.iter().any(|line| !line.ends_with("| 0 0")));
    // And the trainer reads them.
    let out = dir.join("net.bin");
    let data = dir.join("first.txt");
    let output = catena(&[
        "train",
        data.to_str().unwrap(),
        "--epochs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    Network::from_bytes(&std::fs::read(out).unwrap()).unwrap();
}
