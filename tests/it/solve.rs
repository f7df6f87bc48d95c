//! The solver (`catena_engine::solve`, `catena solve`) against the plain minimax of
//! `tests/it/common/minimax.rs`, written apart from it from docs/rules.md, section 4, and
//! against the engine's own mates.

use catena_core::game::{Action, Variant};
use catena_engine::score::MATE;
use catena_engine::thread::{Control, Limits, Root};
use catena_engine::threadpool;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rayon::prelude::*;

use crate::common::minimax::{Switches, attacker_wins, shortest_win};
use catena::tools::epd;
use catena_core::board::Position;
use catena_core::game::{GameState, Rules, SwitchRule, SwitchRun, forms_chain, pgn};
use catena_core::rng::SplitMix64;
use catena_engine::solve::{Node, Problem, Solver, Stopped};
use catena_engine::transposition::TranspositionTable;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Positions met in SSCC play, with their runs: every third position of the
/// SSCC bench games, and the positions of the switch suites.
fn states() -> Vec<(Position, SwitchRun)> {
    let games = std::fs::read_to_string(format!("{ROOT}/tests/data/sscc_games.pgn")).unwrap();
    let mut states = Vec::new();
    for record in pgn::read_all(&games).unwrap() {
        let mut replay = GameState::new(record.game.start().clone(), *record.game.rules());
        for (index, ply) in record.game.plies().iter().enumerate() {
            if index % 3 == 0 {
                states.push((replay.position().clone(), replay.run()));
            }
            replay.apply(ply.action()).unwrap();
        }
    }
    for suite in ["switch_wins", "runs", "inner_switches", "mates"] {
        let text = std::fs::read_to_string(format!("{ROOT}/tests/data/{suite}.epd")).unwrap();
        for line in epd::parse_suite(&text) {
            states.push((Position::from_fen(&line.fen).unwrap(), SwitchRun::default()));
        }
    }
    states
}

/// The solver's shortest win within `max_plies`, from a fresh table.
fn solver_shortest(
    position: &Position,
    run: SwitchRun,
    rules: Rules,
    max_plies: u32,
) -> Option<u32> {
    let stop = AtomicBool::new(false);
    let problem = Problem {
        rules: Some(rules),
        attacker_switches: true,
    };
    let node = Node {
        position: position.clone(),
        run,
        attacker: true,
    };
    Solver::new(problem, &stop)
        .shortest(&node, max_plies)
        .expect("never stopped")
}

/// Whether the defender, after some move of the attacker, can close a chain
/// and switch: the positions where the defender's switches are part of the tree.
fn defender_can_switch(position: &Position, rules: &Rules) -> bool {
    position.legal_moves().iter().any(|&mv| {
        let reply = position.after(mv);
        reply
            .legal_moves()
            .iter()
            .any(|&answer| forms_chain(&reply, answer, rules))
    })
}

/// The verdict within 1, 2 and 3 plies, by the solver and by the minimax,
/// on every state under each rule: not one disagreement.
#[test]
fn the_solver_decides_as_the_plain_minimax_within_three_plies() {
    let states = states();
    let cases: Vec<(Position, SwitchRun, SwitchRule)> = states
        .iter()
        .flat_map(|(position, run)| {
            SwitchRule::ALL
                .into_iter()
                .map(move |rule| (position.clone(), *run, rule))
        })
        .collect();
    let outcomes: Vec<(Option<u32>, bool, Option<String>)> = cases
        .par_iter()
        .map(|(position, run, rule)| {
            let rules = Rules::new(*rule, 2).unwrap();
            let truth = shortest_win(position, *run, &rules, 3, Switches::Everywhere);
            let solved = solver_shortest(position, *run, rules, 3);
            let disagreement = (truth != solved)
                .then(|| format!("{position} rule {rule}: minimax {truth:?}, solver {solved:?}"));
            (truth, defender_can_switch(position, &rules), disagreement)
        })
        .collect();
    let disagreements: Vec<&String> = outcomes.iter().filter_map(|o| o.2.as_ref()).collect();
    let wins = outcomes.iter().filter(|o| o.0.is_some()).count();
    let switch_wins = outcomes.iter().filter(|o| o.0 == Some(2)).count();
    let defences = outcomes.iter().filter(|o| o.1).count();
    println!(
        "{} cases, {wins} wins ({switch_wins} in 2 plies), {defences} where the defender can switch",
        cases.len()
    );
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert!(cases.len() >= 300, "only {} cases", cases.len());
    assert!(
        wins >= 50 && switch_wins >= 20,
        "{wins} wins, {switch_wins} switch wins"
    );
    assert!(defences >= 100, "only {defences} with a defender's switch");
}

/// The engine's score for the player to move in `position` from a search
/// to `depth` (`go depth {depth}`, or `go mate {mate} depth {depth}`), one
/// thread, a fresh table.
fn engine_score(position: &Position, rules: Rules, depth: i32, mate: Option<i32>) -> i32 {
    let root = Root {
        position: position.clone(),
        run: SwitchRun::default(),
        history: Vec::new(),
        variant: Variant::Sscc(rules),
    };
    let limits = Limits {
        depth: Some(depth),
        mate,
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    threadpool::search(
        &root,
        &limits,
        &Arc::new(TranspositionTable::new(8)),
        &mut Vec::new(),
        &Control::default(),
        Instant::now(),
        &mut |_| {},
    )
    .score
}

/// Where the engine's own `go mate 3` reports a mate within 5 plies, the
/// solver proves a win within as many plies (`go mate` stops at the first
/// mate it proves, which need not be the shortest).
#[test]
fn the_solver_agrees_with_the_engines_mates() {
    let rules = Rules::default();
    let mut mates = 0;
    for suite in ["switch_wins", "mates", "inner_switches"] {
        let text = std::fs::read_to_string(format!("{ROOT}/tests/data/{suite}.epd")).unwrap();
        for line in epd::parse_suite(&text) {
            let position = Position::from_fen(&line.fen).unwrap();
            // `go mate 3 depth 8`: a mate within 3 moves (5 plies), or depth 8.
            let reported = MATE - engine_score(&position, rules, 8, Some(3));
            if !(1..=5).contains(&reported) {
                continue;
            }
            mates += 1;
            let solved = solver_shortest(&position, SwitchRun::default(), rules, 5);
            assert!(
                solved.is_some_and(|plies| plies <= reported as u32),
                "{}: the engine mates in {reported} plies, the solver says {solved:?}",
                line.fen
            );
        }
    }
    assert!(mates >= 60, "only {mates} mates reported");
}

/// The smallest bound in `1..=max_plies` within which the player to move
/// in `position` is mated, whatever it does (its switches included): the
/// solver run for the opponent, with the mover, the defender, to move at
/// the root. `rules` `None` is plain chess; `nodes` bounds the work.
fn solver_mated_within(
    position: &Position,
    rules: Option<Rules>,
    max_plies: u32,
    nodes: u64,
) -> Result<Option<u32>, Stopped> {
    let stop = AtomicBool::new(false);
    let problem = Problem {
        rules,
        attacker_switches: true,
    };
    let node = Node {
        position: position.clone(),
        run: SwitchRun::default(),
        attacker: false,
    };
    Solver::new(problem, &stop)
        .with_node_limit(nodes)
        .shortest(&node, max_plies)
}

/// The bound of the escape positions: none is mated within 4 plies.
const ESCAPE_PLIES: u32 = 6;

/// The line of `tests/data/switch_escapes.epd` for `position` (the mover
/// to move, not already mated or stalemated) if the mover escapes mate only
/// by a switch below the root: no move of the root closes a chain, and the
/// mover is mated within `ESCAPE_PLIES` in plain chess but not under the
/// default rules (the solver, both ways). A search's root lists its
/// switches apart from the search below it (`threadpool::root_actions`):
/// only an escape below the root tries the search's own switches.
fn switch_escape_line(position: &Position, source: &str) -> Option<String> {
    let rules = Rules::default();
    let moves = position.legal_moves();
    if moves.is_empty() || moves.iter().any(|&mv| forms_chain(position, mv, &rules)) {
        return None;
    }
    let chess = solver_mated_within(position, None, ESCAPE_PLIES, 200_000).ok()??;
    let sscc = solver_mated_within(position, Some(rules), ESCAPE_PLIES, 2_000_000);
    (sscc == Ok(None)).then(|| format!("{} ; chess {chess} ; {source}", position.to_fen()))
}

/// Writes `tests/data/switch_escapes.epd` (its header included) to stdout:
/// the positions of `switch_escape_line`, from the positions after each
/// move of the switch and mate suites and from seeded lopsided games
/// (`search_tree::lopsided_game`, under the default rules). Run with
/// `cargo test --profile test-opt --test it -- --ignored --nocapture solve::make_switch_escapes`.
#[test]
#[ignore = "generator: writes tests/data/switch_escapes.epd (about 30 s)"]
fn make_switch_escapes() {
    let mut candidates: Vec<(Position, String)> = Vec::new();
    for suite in ["switch_wins", "mates", "inner_switches", "runs"] {
        let text = std::fs::read_to_string(format!("{ROOT}/tests/data/{suite}.epd")).unwrap();
        for line in epd::parse_suite(&text) {
            let position = Position::from_fen(&line.fen).unwrap();
            for mv in position.legal_moves() {
                let child = position.after(mv);
                for answer in child.legal_moves() {
                    candidates.push((child.after(answer), format!("2 plies after {suite}.epd")));
                }
                candidates.push((child, format!("after {suite}.epd")));
            }
        }
    }
    let seeds: Vec<u64> = (0..SEEDS).collect();
    let games: Vec<(Position, String)> = seeds
        .par_iter()
        .flat_map_iter(|&seed| {
            let mut rng = SplitMix64::new(seed ^ 0xe5ca9e);
            let variant = Variant::Sscc(Rules::default());
            crate::search_tree::lopsided_game(&mut rng, variant)
                .into_iter()
                .map(move |position| (position, format!("seed {seed}")))
        })
        .collect();
    candidates.extend(games);
    let games = std::fs::read_to_string(format!("{ROOT}/tests/data/sscc_games.pgn")).unwrap();
    for record in pgn::read_all(&games).unwrap() {
        let mut replay = GameState::new(record.game.start().clone(), *record.game.rules());
        for ply in record.game.plies() {
            if replay.run() == SwitchRun::default() {
                candidates.push((replay.position().clone(), "sscc_games.pgn".to_string()));
            }
            replay.apply(ply.action()).unwrap();
        }
    }
    eprintln!("{} candidates", candidates.len());
    let mut lines: Vec<String> = candidates
        .par_iter()
        .filter_map(|(position, source)| switch_escape_line(position, source))
        .collect();
    lines.sort();
    lines.dedup_by(|a, b| a.split(';').next() == b.split(';').next());
    println!(
        "# Made with `cargo test --profile test-opt --test it -- --ignored --nocapture solve::make_switch_escapes`\n\
         # from the positions 1 and 2 plies after those of tests/data/{{switch_wins,mates,inner_switches,runs}}.epd,\n\
         # of the lopsided games (search_tree::lopsided_game, default rules) of seeds 0 to {}\n\
         # and of tests/data/sscc_games.pgn. The player to move has no chain-closing move, and is mated\n\
         # within N plies in plain chess (`chess N`, the solver) but not within {ESCAPE_PLIES} plies under\n\
         # the default rules (the solver): it escapes only by a switch below the root.",
        SEEDS - 1
    );
    for line in lines {
        println!("{line}");
    }
}

/// The lopsided games of `make_switch_escapes`.
const SEEDS: u64 = 400;

/// The positions of `tests/data/switch_escapes.epd`, with their bounds.
fn switch_escapes() -> Vec<(Position, u32)> {
    let text = std::fs::read_to_string(format!("{ROOT}/tests/data/switch_escapes.epd")).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let mated = fields[1].strip_prefix("chess ").unwrap().parse().unwrap();
            (Position::from_fen(fields[0]).unwrap(), mated)
        })
        .collect()
}

/// The other direction of `the_solver_agrees_with_the_engines_mates`:
/// where a search to depth 8 reports the player to move mated within
/// `ESCAPE_PLIES` plies, the solver proves the opponent's win within as
/// many (the solver run for the opponent with the mover to move), on the
/// positions after the first move of the switch and mate suites' wins and
/// on those of `tests/data/switch_escapes.epd`, whose only escapes are
/// switches below the root: a main search that forgets the switches of its
/// check evasions reports a mate on 28 of them that the solver refutes.
#[test]
fn the_solver_agrees_with_the_engines_mated_scores() {
    let rules = Rules::default();
    let mut positions: Vec<(Position, bool)> = Vec::new();
    for suite in ["switch_wins", "mates", "inner_switches"] {
        let text = std::fs::read_to_string(format!("{ROOT}/tests/data/{suite}.epd")).unwrap();
        for line in epd::parse_suite(&text) {
            let position = Position::from_fen(&line.fen).unwrap();
            let Some(first) = solver_winning_first(&position, rules) else {
                continue;
            };
            positions.push((position.after(first), false));
        }
    }
    let escapes = switch_escapes();
    positions.extend(escapes.iter().map(|(position, _)| (position.clone(), true)));
    let outcomes: Vec<(bool, bool, Option<String>)> = positions
        .par_iter()
        .map(|(position, escape)| {
            let reported = MATE + engine_score(position, rules, 8, None);
            let mated = (1..=ESCAPE_PLIES as i32).contains(&reported);
            let wrong = if mated {
                let solved = solver_mated_within(position, Some(rules), reported as u32, u64::MAX)
                    .expect("never stopped");
                (solved.is_none()).then(|| {
                    format!("{position}: the engine is mated in {reported} plies, the solver says {solved:?}")
                })
            } else {
                None
            };
            (mated, *escape, wrong)
        })
        .collect();
    let wrong: Vec<&String> = outcomes.iter().filter_map(|o| o.2.as_ref()).collect();
    let mated = outcomes.iter().filter(|o| o.0).count();
    let escaped = outcomes.iter().filter(|o| o.1 && !o.0).count();
    println!(
        "{} positions, {mated} reported mated, {escaped} of {} escapes not reported mated",
        positions.len(),
        escapes.len()
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(mated >= 40, "only {mated} reported mated");
    assert!(
        escapes.len() >= 60,
        "only {} escape positions",
        escapes.len()
    );
}

/// The escape positions are what their file says: no chain-closing move at
/// the root, not mated within `ESCAPE_PLIES` (the solver), mated within
/// `ESCAPE_PLIES` in plain chess.
#[test]
fn the_switch_escapes_escape_only_by_switching() {
    let rules = Rules::default();
    for (position, _) in switch_escapes() {
        assert!(
            !position
                .legal_moves()
                .iter()
                .any(|&mv| forms_chain(&position, mv, &rules)),
            "{position}"
        );
        assert_eq!(
            solver_mated_within(&position, Some(Rules::default()), ESCAPE_PLIES, u64::MAX),
            Ok(None),
            "{position}"
        );
        assert!(
            solver_mated_within(&position, None, ESCAPE_PLIES, u64::MAX)
                .unwrap()
                .is_some(),
            "{position}"
        );
    }
}

/// The first action of the shortest win within 5 plies of the player to
/// move in `position`, if it has one and it is a stay.
fn solver_winning_first(position: &Position, rules: Rules) -> Option<catena_core::board::Move> {
    let plies = solver_shortest(position, SwitchRun::default(), rules, 5)?;
    let stop = AtomicBool::new(false);
    let problem = Problem {
        rules: Some(rules),
        attacker_switches: true,
    };
    let first =
        Solver::new(problem, &stop).winning_actions(&Node::root(position.clone()), plies)?;
    first
        .into_iter()
        .find(|action| !action.switch)
        .map(|action| action.mv)
}

fn catena(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_catena"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `catena solve`: a switch win (a chain, a switch, a mate with the other
/// army) in 2 plies, its line, and the same in JSON; a chess mate in two
/// as 3 plies with `--variant chess`; no win from the start position.
#[test]
fn the_solve_command_reports_wins_lines_and_their_absence() {
    let fen = "Nnbk4/pp2b1p1/3p4/1BpP1P1Q/4Pp2/8/PPP3P1/R1B1K1N1 b Q - 0 14";
    let output = catena(&["solve", fen, "--plies", "3"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("result win first ") && last.contains(" switch plies 2 nodes "),
        "{text}"
    );
    let json = catena(&["solve", fen, "--plies", "3", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["result"], "win");
    assert_eq!(report["plies"], 2);
    assert_eq!(report["line"].as_array().unwrap().len(), 2);
    assert!(report["first"].as_str().unwrap().ends_with(" switch"));

    let none = catena(&["solve", "--plies", "3"]);
    let text = String::from_utf8_lossy(&none.stdout);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("result none first 0000 plies 3 nodes "),
        "{text}"
    );
}

/// The plies to the attacker's win from a node of a split's tree, from the
/// answers of the leaves below it (their paths from the root, each a
/// node's `depth` plies deep): the shortest at the attacker's nodes, the
/// longest at the defender's, no win where a defender's child has none.
fn combined(leaves: &[(Vec<Action>, Option<u32>)], depth: usize, attacker: bool) -> Option<u32> {
    if leaves.len() == 1 && leaves[0].0.len() == depth {
        return leaves[0].1;
    }
    let mut values = Vec::new();
    let mut start = 0;
    while start < leaves.len() {
        let action = leaves[start].0[depth];
        let end = start
            + leaves[start..]
                .iter()
                .take_while(|leaf| leaf.0[depth] == action)
                .count();
        // A switch keeps the move with the same player.
        let child_attacker = attacker == action.switch;
        values
            .push(combined(&leaves[start..end], depth + 1, child_attacker).map(|plies| plies + 1));
        start = end;
    }
    if attacker {
        values.into_iter().flatten().min()
    } else if values.iter().all(Option::is_some) {
        values.into_iter().flatten().max()
    } else {
        None
    }
}

/// A split's subproblems, each solved after its path and combined as the
/// game tree does, answer as one solve from the root: on positions of SSCC
/// play under each rule, at splits of 1 and 2 plies.
#[test]
fn a_split_solved_in_parts_answers_as_one_solve() {
    use catena_engine::solve::{solve, solve_after, split};
    let states = states();
    let (mut wins, mut cases) = (0, 0);
    for (index, (position, _)) in states.iter().enumerate().step_by(7) {
        let rule = SwitchRule::ALL[index % SwitchRule::ALL.len()];
        let problem = Problem {
            rules: Some(Rules::new(rule, 2).unwrap()),
            attacker_switches: true,
        };
        let plies = 3;
        let whole = solve(position, problem, plies, 1)
            .win
            .map(|(plies, _)| plies);
        for depth in [1, 2] {
            let leaves: Vec<(Vec<Action>, Option<u32>)> =
                split(position, &[], problem, depth, plies)
                    .unwrap()
                    .into_par_iter()
                    .map(|leaf| {
                        let value = match leaf.settled {
                            Some(won) => won.then_some(0),
                            None => solve_after(position, &leaf.path, problem, leaf.plies, 1)
                                .unwrap()
                                .win
                                .map(|(plies, _)| plies),
                        };
                        (leaf.path, value)
                    })
                    .collect();
            assert_eq!(
                combined(&leaves, 0, true),
                whole,
                "{position} rule {rule}, split {depth}"
            );
            cases += 1;
        }
        wins += usize::from(whole.is_some());
    }
    assert!(cases >= 60 && wins >= 8, "{cases} cases, {wins} wins");
}

/// `--split` lists the nodes below a path, one JSON object a line, and
/// `--after` asks the root's question below it: after the first action of
/// a switch win, the root's player is still to move (the switch kept the
/// move) and wins a ply sooner; after a stay the defender is to move.
#[test]
fn the_solve_command_splits_and_solves_below_a_path() {
    let fen = "Nnbk4/pp2b1p1/3p4/1BpP1P1Q/4Pp2/8/PPP3P1/R1B1K1N1 b Q - 0 14";
    let whole: serde_json::Value =
        serde_json::from_slice(&catena(&["solve", fen, "--plies", "3", "--json"]).stdout).unwrap();
    let first = whole["first"].as_str().unwrap();
    let below: serde_json::Value = serde_json::from_slice(
        &catena(&["solve", fen, "--plies", "2", "--json", "--after", first]).stdout,
    )
    .unwrap();
    assert_eq!(
        (&below["result"], &below["plies"]),
        (&whole["result"], &serde_json::json!(1))
    );

    let output = catena(&[
        "solve", fen, "--plies", "3", "--split", "1", "--after", first,
    ]);
    assert!(output.status.success());
    let leaves: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let position = Position::from_fen(fen).unwrap();
    let after = position.after(position.parse_move(&first[..4]).unwrap());
    let moves: std::collections::BTreeSet<&str> = leaves
        .iter()
        .map(|leaf| leaf["after"].as_str().unwrap().split(' ').nth(2).unwrap())
        .collect();
    assert_eq!(moves.len(), after.legal_moves().len());
    for leaf in &leaves {
        let path = leaf["after"].as_str().unwrap();
        assert!(path.starts_with(&format!("{first} ")), "{leaf}");
        assert_eq!(
            leaf["attacker_to_move"],
            path.ends_with(" switch"),
            "{leaf}"
        );
        assert_eq!(leaf["plies"], 2, "{leaf}");
    }
}

/// Bad input: one line on stderr, status 2, nothing on stdout.
#[test]
fn the_solve_command_refuses_bad_input_with_status_2() {
    for args in [
        &["solve", "not a fen"][..],
        &["solve", "--plies", "0"],
        &["solve", "--plies", "33"],
        &["solve", "--rule", "sometimes"],
        &["solve", "--min-enclosed", "0"],
        &["solve", "--threads", "0"],
        &["solve", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["solve", "--after", "e2e4 e2e4"],
        &["solve", "--after", "switch e2e4"],
        &["solve", "--after", "e2e4 switch"],
        &["solve", "--split", "0"],
        &[
            "solve",
            "--split",
            "2",
            "--after",
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3",
        ],
    ] {
        let output = catena(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

/// Re-proves a puzzle line: the win within D plies and none sooner, its
/// first action the only one that keeps the win, the pv a winning line
/// (each of the attacker's actions keeps the win, each defence allows it),
/// and no win within D when the attacker may not switch.
fn reprove(text: &str) -> Result<(), String> {
    use catena::tools::puzzles::read_puzzle;
    let (puzzle, rules) = read_puzzle(text)?;
    let position = Position::from_fen(&puzzle.fen).unwrap();
    let stop = AtomicBool::new(false);
    let problem = Problem {
        rules: Some(rules),
        attacker_switches: true,
    };
    let mut solver = Solver::new(problem, &stop);
    let root = Node::root(position.clone());
    let plies = puzzle.plies;
    if solver.shortest(&root, plies) != Ok(Some(plies)) {
        return Err(format!("not a shortest win within {plies}"));
    }
    let winning = solver.winning_actions(&root, plies).unwrap();
    if winning != puzzle.line[..1] {
        return Err(format!("winning first actions {winning:?}"));
    }
    let mut without = Solver::new(
        Problem {
            attacker_switches: false,
            ..problem
        },
        &stop,
    );
    if without.wins(&root, plies) != Some(false) {
        return Err("wins without the attacker's switches".to_string());
    }
    // Up to 3 plies, the plain minimax too: the shortest win, and exactly
    // one first action that keeps it.
    if plies <= 3 {
        let run = SwitchRun::default();
        if shortest_win(&position, run, &rules, plies, Switches::Everywhere) != Some(plies) {
            return Err("the minimax finds no shortest win within D".to_string());
        }
        let mut keeping = Vec::new();
        for mv in position.legal_moves() {
            let child = position.after(mv);
            if attacker_wins(&child, run, &rules, plies - 1, false) {
                keeping.push(Action::stay(mv));
            }
            if forms_chain(&position, mv, &rules) {
                let switched = run.after_switch(&position, mv, &rules);
                if attacker_wins(&child, switched, &rules, plies - 1, true) {
                    keeping.push(Action { mv, switch: true });
                }
            }
        }
        if keeping != puzzle.line[..1] {
            return Err(format!("the minimax's winning first actions: {keeping:?}"));
        }
    }
    // The pv ends in a mate by the attacker's army.
    let side = position.side_to_move();
    let mut state = GameState::new(position, rules);
    let attacker = state.controller(side);
    for &action in &puzzle.line {
        state
            .apply(action)
            .map_err(|error| format!("pv: {error}"))?;
    }
    match state.outcome() {
        Some(outcome)
            if outcome.termination == catena_core::game::Termination::Checkmate
                && outcome.winner.map(|color| state.controller(color)) == Some(attacker) =>
        {
            Ok(())
        }
        other => Err(format!("the pv ends in {other:?}")),
    }
}

fn puzzle_lines() -> Vec<String> {
    let text = std::fs::read_to_string(format!("{ROOT}/perft/puzzles.epd")).unwrap();
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The file: at least 300 puzzles, D from 2 to 7, the three rules.
#[test]
fn the_puzzle_file_spans_depths_and_rules() {
    use catena::tools::puzzles::read_puzzle;
    let lines = puzzle_lines();
    assert!(lines.len() >= 300, "only {} puzzles", lines.len());
    let read: Vec<_> = lines
        .iter()
        .map(|line| read_puzzle(line).unwrap())
        .collect();
    for plies in 2..=7 {
        assert!(
            read.iter().any(|(puzzle, _)| puzzle.plies == plies),
            "no puzzle with D = {plies}"
        );
    }
    for rule in SwitchRule::ALL {
        assert!(
            read.iter().any(|(_, rules)| rules.switch_rule == rule),
            "no puzzle under rule {rule}"
        );
    }
}

/// A seeded sample of 24 puzzles, re-proved with uniqueness.
#[test]
fn a_sample_of_the_puzzles_is_proven_again() {
    let lines = puzzle_lines();
    let mut rng = SplitMix64::new(0x9a221e);
    let sample: Vec<&String> = (0..24).map(|_| &lines[rng.below(lines.len())]).collect();
    let failures: Vec<String> = sample
        .par_iter()
        .filter_map(|line| reprove(line).err().map(|why| format!("{line}: {why}")))
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every puzzle, re-proved (the long tier: `--include-ignored`).
#[test]
#[ignore = "long tier: about 2 s"]
fn every_puzzle_is_proven_again() {
    let failures: Vec<String> = puzzle_lines()
        .par_iter()
        .filter_map(|line| reprove(line).err().map(|why| format!("{line}: {why}")))
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// `--threads`: two and three solvers sharing one table, the bounds
/// climbed without waiting for each other, answer as one solver: every
/// 8th puzzle (a win, within its D and within one ply less) and positions
/// of SSCC play within 4 plies.
#[test]
fn two_threads_answer_as_one() {
    use catena::tools::puzzles::read_puzzle;
    use catena_engine::solve::solve;
    let mut cases: Vec<(Position, Rules, u32)> = Vec::new();
    for line in puzzle_lines().iter().step_by(8) {
        let (puzzle, rules) = read_puzzle(line).unwrap();
        let position = Position::from_fen(&puzzle.fen).unwrap();
        cases.push((position.clone(), rules, puzzle.plies));
        cases.push((position, rules, puzzle.plies - 1));
    }
    for (position, _) in states().into_iter().step_by(25) {
        cases.push((position, Rules::default(), 4));
    }
    let (mut wins, mut nones) = (0, 0);
    for (position, rules, plies) in cases {
        let problem = Problem {
            rules: Some(rules),
            attacker_switches: true,
        };
        let one = solve(&position, problem, plies, 1);
        for threads in [2, 3] {
            let many = solve(&position, problem, plies, threads);
            assert_eq!(
                one.win, many.win,
                "{position} within {plies}, {threads} threads"
            );
        }
        wins += usize::from(one.win.is_some());
        nones += usize::from(one.win.is_none());
    }
    assert!(wins >= 30 && nones >= 30, "{wins} wins, {nones} without");
}
