//! `perft/sscc.epd`: every stored count by the engine's SSCC perft, and every
//! count to depth 3 by an independent implementation written from the spec:
//! the brute-force chain oracle of the chain tests and plain recursion over
//! (move, switch) pairs.

use std::collections::HashMap;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::common::oracle::{OGrid, Options, oracle};
use catena::tools::epd::{EpdLine, parse_suite};
use catena_core::board::{Bitboard, Position};
use catena_core::game::{Rules, SwitchRule, SwitchRun};
use catena_core::perft::sscc_perft;

fn suite() -> Vec<EpdLine> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/sscc.epd")).unwrap();
    parse_suite(&text)
}

fn rules_of(line: &EpdLine) -> Rules {
    let rule: SwitchRule = line.operand("rule").unwrap_or("chain").parse().unwrap();
    let min_enclosed = line
        .operand("min-enclosed")
        .map_or(2, |text| text.parse().unwrap());
    Rules::new(rule, min_enclosed).unwrap()
}

/// (depth, count) pairs of a line's `S` operations.
fn counts(line: &EpdLine) -> Vec<(u32, u64)> {
    line.operations
        .iter()
        .filter_map(|(opcode, operand)| {
            Some((
                opcode.strip_prefix('S')?.parse().ok()?,
                operand.parse().ok()?,
            ))
        })
        .collect()
}

#[test]
fn the_suite_covers_what_the_issue_asks() {
    let lines = suite();
    assert!(lines.len() >= 12, "only {} positions", lines.len());
    for line in &lines {
        let deepest = counts(line)
            .iter()
            .map(|&(depth, _)| depth)
            .max()
            .unwrap_or(0);
        assert!(deepest >= 3, "line {} goes to depth {deepest}", line.number);
    }
    let deep = lines
        .iter()
        .filter(|line| counts(line).iter().any(|&(depth, _)| depth >= 4))
        .count();
    assert!(
        deep >= 10,
        "only {deep} positions are counted to depth 4 or more"
    );
}

#[test]
fn stored_counts_match_the_engine() {
    let mismatches: Vec<String> = suite()
        .par_iter()
        .flat_map_iter(|line| {
            let position = Position::from_fen(&line.fen).unwrap();
            let rules = rules_of(line);
            counts(line)
                .into_iter()
                .filter_map(move |(depth, expected)| {
                    let counted = sscc_perft(&position, SwitchRun::default(), depth, &rules);
                    (counted != expected).then(|| {
                        format!(
                            "line {} S{depth}: expected {expected}, counted {counted}",
                            line.number
                        )
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

/// The independent count: docs/rules.md, section 4, read literally.
struct SlowPerft {
    rule: SwitchRule,
    min_enclosed: u32,
    /// Oracle answers (chain?, size) by occupancy and landing squares.
    chains: Mutex<HashMap<(u64, u64), (bool, u32)>>,
}

/// The run in progress: switches made in a row and their limit (`None`: no limit).
#[derive(Clone, Copy)]
struct Run {
    switches: u32,
    limit: Option<u32>,
}

impl SlowPerft {
    fn chain(&self, occupied: Bitboard, landing: Bitboard) -> (bool, u32) {
        let key = (occupied.0, landing.0);
        if let Some(&known) = self.chains.lock().unwrap().get(&key) {
            return known;
        }
        let moved: Vec<(usize, usize)> = landing
            .into_iter()
            .map(|square| (square.file() as usize, square.rank() as usize))
            .collect();
        let options = Options {
            budget: u64::MAX,
            ..Options::default()
        };
        let (verdicts, _) = oracle(
            &OGrid::from_u64(occupied.0),
            &moved,
            &[self.min_enclosed],
            options,
        )
        .expect("an unlimited oracle always answers");
        let answer = (verdicts[0].chain, verdicts[0].size);
        self.chains.lock().unwrap().insert(key, answer);
        answer
    }

    fn count(&self, position: &Position, run: Run, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for mv in position.legal_moves() {
            let child = position.after(mv);
            // Where the move put pieces: newly occupied squares and the destination.
            let landing = (child.occupied() - position.occupied()) | mv.to().bitboard();
            let stay = Run {
                switches: 0,
                limit: None,
            };
            nodes += self.count(&child, stay, depth - 1);
            let (chain, size) = self.chain(child.occupied(), landing);
            let allowed = run.switches == 0 || run.limit.is_none_or(|limit| run.switches < limit);
            if chain && allowed {
                let limit = if run.switches == 0 {
                    match self.rule {
                        SwitchRule::Chain => Some(size),
                        SwitchRule::Moves => Some(u32::from(position.fullmove_number())),
                        SwitchRule::Unlimited => None,
                    }
                } else {
                    run.limit
                };
                let switched = Run {
                    switches: run.switches + 1,
                    limit,
                };
                nodes += self.count(&child, switched, depth - 1);
            }
        }
        nodes
    }
}

/// The oracle enumerates loops, so positions with half a million leaves at
/// depth 3 (the spec's open middlegame, where most moves close a chain) are
/// checked to depth 2 here and left to the engine's stored counts beyond.
const MAX_INDEPENDENT_LEAVES: u64 = 100_000;

#[test]
fn counts_to_depth_three_match_an_independent_implementation() {
    let mismatches: Vec<String> = suite()
        .par_iter()
        .flat_map_iter(|line| {
            let position = Position::from_fen(&line.fen).unwrap();
            let rules = rules_of(line);
            let slow = SlowPerft {
                rule: rules.switch_rule,
                min_enclosed: rules.min_enclosed,
                chains: Mutex::new(HashMap::new()),
            };
            let start = Run {
                switches: 0,
                limit: None,
            };
            counts(line)
                .into_iter()
                .filter(|&(depth, expected)| depth <= 3 && expected <= MAX_INDEPENDENT_LEAVES)
                .filter_map(|(depth, expected)| {
                    let counted = slow.count(&position, start, depth);
                    (counted != expected).then(|| {
                        format!(
                            "line {} S{depth}: stored {expected}, independent {counted}",
                            line.number
                        )
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}
