//! The run mate probe (`crates/engine/src/runs.rs`) against a plain recursion written from
//! its definition, and its wins against the plain minimax of docs/rules.md, section 8.

use crate::common::minimax::{Switches, forced_win};
use catena::tools::epd;
use catena_core::board::Position;
use catena_core::game::{GameState, Rules, SwitchRule, SwitchRun, forms_chain, pgn};
use catena_engine::runs::RunMates;

/// The fewest plies of a run that mates from `position`: chain-closing
/// moves, each followed by a switch while the run allows one, then a move
/// that mates; at most `switches` switches. `path` holds the positions of
/// the run so far: a run through a position already met with the same side
/// to move since the last capture or pawn move is not taken, as the search
/// scores such a position a draw.
pub(crate) fn plain_run_mate(
    position: &Position,
    run: SwitchRun,
    rules: &Rules,
    switches: u32,
    path: &mut Vec<Position>,
) -> Option<u32> {
    let moves = position.legal_moves();
    let mates = |mv| {
        let child = position.after(mv);
        child.in_check() && child.legal_moves().is_empty()
    };
    if moves.iter().any(|&mv| mates(mv)) {
        return Some(1);
    }
    if switches == 0 || !run.allows_switch() {
        return None;
    }
    let mut best: Option<u32> = None;
    for &mv in moves.iter() {
        if !forms_chain(position, mv, rules) {
            continue;
        }
        let child = position.after(mv);
        let recent = path.len().saturating_sub(child.halfmove_clock() as usize);
        let repeated = path[recent..]
            .iter()
            .any(|earlier| earlier.key() == child.key());
        if child.halfmove_clock() >= 100 || repeated {
            continue;
        }
        path.push(position.clone());
        let found = plain_run_mate(
            &child,
            run.after_switch(position, mv, rules),
            rules,
            switches - 1,
            path,
        );
        path.pop();
        if let Some(plies) = found {
            best = Some(best.map_or(plies + 1, |best| best.min(plies + 1)));
        }
    }
    best
}

/// Positions met in SSCC play: every position of the games behind the
/// SSCC bench, with its run, and those of the switch suites with no run.
fn states() -> Vec<(Position, SwitchRun)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let games = std::fs::read_to_string(format!("{root}/tests/data/sscc_games.pgn")).unwrap();
    let mut states = Vec::new();
    for record in pgn::read_all(&games).unwrap() {
        let mut replay = GameState::new(record.game.start().clone(), *record.game.rules());
        for ply in record.game.plies() {
            states.push((replay.position().clone(), replay.run()));
            replay.apply(ply.action()).unwrap();
        }
    }
    for suite in ["switch_wins", "runs", "inner_switches"] {
        let text = std::fs::read_to_string(format!("{root}/tests/data/{suite}.epd")).unwrap();
        for line in epd::parse_suite(&text) {
            states.push((Position::from_fen(&line.fen).unwrap(), SwitchRun::default()));
        }
    }
    states
}

#[test]
fn the_probe_finds_the_shortest_run_mate_as_the_plain_search_does() {
    let states = states();
    let mut found = 0;
    for rule in SwitchRule::ALL {
        let rules = Rules::new(rule, 2).unwrap();
        let mut probe = RunMates::default();
        for (position, run) in &states {
            let expected = plain_run_mate(position, *run, &rules, 3, &mut Vec::new());
            let mut keys = Vec::new();
            let probed = probe.probe(position, *run, &rules, 3, u32::MAX, &mut keys);
            assert_eq!(probed, expected, "{position} rule {rule}, run {run:?}");
            found += usize::from(probed.is_some_and(|plies| plies > 1));
        }
    }
    assert!(found >= 20, "only {found} run mates met");
}

#[test]
fn every_run_mate_is_a_forced_win() {
    let rules = Rules::default();
    let mut probe = RunMates::default();
    let mut checked = 0;
    for (position, run) in states() {
        let Some(plies) = probe.probe(&position, run, &rules, 2, u32::MAX, &mut Vec::new()) else {
            continue;
        };
        assert!(
            forced_win(&position, run, &rules, plies, Switches::Everywhere),
            "{position}: a run mate in {plies} plies"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} run mates checked");
}

#[test]
fn a_probe_out_of_nodes_claims_nothing() {
    let rules = Rules::default();
    for (position, run) in states() {
        let mut probe = RunMates::default();
        if probe
            .probe(&position, run, &rules, 3, u32::MAX, &mut Vec::new())
            .is_some_and(|plies| plies > 2)
        {
            let mut starved = RunMates::default();
            assert_eq!(
                starved.probe(&position, run, &rules, 3, 1, &mut Vec::new()),
                None
            );
            return;
        }
    }
    panic!("no run mate of two switches met");
}

#[test]
fn the_first_action_starts_a_run_that_mates_in_the_plies_claimed() {
    let rules = Rules::default();
    let mut checked = 0;
    for (position, run) in states() {
        let mut probe = RunMates::default();
        let Some((action, plies)) =
            probe.first_action(&position, run, &rules, 3, u32::MAX, &mut Vec::new())
        else {
            continue;
        };
        assert_eq!(
            Some(plies),
            plain_run_mate(&position, run, &rules, 3, &mut Vec::new()),
            "{position}"
        );
        assert!(position.legal_moves().contains(&action.mv), "{position}");
        let child = position.after(action.mv);
        if plies == 1 {
            assert!(!action.switch && child.in_check() && child.legal_moves().is_empty());
        } else {
            assert!(
                action.switch && forms_chain(&position, action.mv, &rules),
                "{position}"
            );
            let rest = plain_run_mate(
                &child,
                run.after_switch(&position, action.mv, &rules),
                &rules,
                2,
                &mut vec![position.clone()],
            );
            assert_eq!(rest, Some(plies - 1), "{position}: {}", action.mv);
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} first actions checked");
}

#[test]
fn a_move_is_refuted_exactly_when_the_opponent_then_has_a_run_that_mates() {
    let rules = Rules::default();
    let (mut refuted, mut safe) = (0, 0);
    for (position, _) in states() {
        let mut probe = RunMates::default();
        for mv in position.legal_moves() {
            let child = position.after(mv);
            let found = probe.refutation(
                &position,
                mv,
                &rules,
                2,
                u32::MAX,
                &mut vec![position.key()],
            );
            let expected = if child.legal_moves().is_empty() {
                None
            } else {
                plain_run_mate(
                    &child,
                    SwitchRun::default(),
                    &rules,
                    2,
                    &mut vec![position.clone()],
                )
            };
            assert_eq!(found, expected, "{position}: {mv}");
            if found.is_some() {
                refuted += 1;
            } else {
                safe += 1;
            }
        }
    }
    assert!(
        refuted >= 20 && safe >= 100,
        "{refuted} refuted, {safe} safe"
    );
}
