//! The search below the root, against a plain minimax of the SSCC game tree
//! (`tests/it/common/minimax.rs`): wins that need a switch at an inner node,
//! defences by a switch, runs told apart in the transposition table, and
//! repetitions seen inside the search.

use catena_core::game::{Action, Variant};
use catena_engine::score::{INFINITE, MATE, MATE_BOUND};
use catena_engine::thread::{Control, Info, Limits, Report, Root, SearchResult};
use catena_engine::threadpool;
use std::sync::Arc;
use std::time::Instant;

use crate::common::generators::board_of;
use crate::common::minimax::{Switches, forced_win, shortest_win};
use catena_core::board::Position;
use catena_core::game::{Rules, SwitchRule, SwitchRun};
use catena_core::rng::SplitMix64;
use catena_engine::movepick::is_tactical;
use catena_engine::transposition::TranspositionTable;
use rayon::prelude::*;

fn rules(name: &str) -> Rules {
    Rules::new(name.parse::<SwitchRule>().unwrap(), 2).unwrap()
}

/// A search to `depth` from `position` in the middle of `run`, with `history`
/// (keys of the earlier positions, oldest first), through `tt`.
fn search_in(
    tt: &Arc<TranspositionTable>,
    position: &Position,
    run: SwitchRun,
    history: Vec<u64>,
    variant: Variant,
    depth: i32,
) -> SearchResult {
    let root = Root {
        position: position.clone(),
        run,
        history,
        variant,
    };
    search_lines(tt, &root, depth, 1).0
}

/// A search of `root` to `depth` with `multipv` lines, and the lines it reported.
fn search_lines(
    tt: &Arc<TranspositionTable>,
    root: &Root,
    depth: i32,
    multipv: usize,
) -> (SearchResult, Vec<Report>) {
    let limits = Limits {
        depth: Some(depth),
        multipv,
        threads: 1,
        ..Limits::default()
    };
    let mut lines = Vec::new();
    let result = threadpool::search(
        root,
        &limits,
        tt,
        &mut Vec::new(),
        &Control::default(),
        Instant::now(),
        &mut |info| {
            if let Info::Line(report) = info {
                lines.push(report.clone());
            }
        },
    );
    (result, lines)
}

fn fresh_table() -> Arc<TranspositionTable> {
    Arc::new(TranspositionTable::new(8))
}

/// Whether the search's score claims a mate by the player to move within `plies` plies.
fn claims_win_within(result: &SearchResult, plies: u32) -> bool {
    result.score >= MATE - plies as i32
}

/// One line of `tests/data/inner_switches.epd`.
struct Case {
    fen: String,
    rule: String,
    plies: u32,
    win: bool,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/inner_switches.epd");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (fen, operations) = line.split_once(';').unwrap();
            let field = |name: &str| {
                operations
                    .split(';')
                    .map(str::trim)
                    .find_map(|operation| operation.strip_prefix(name))
                    .unwrap_or_else(|| panic!("{line}: no {name}"))
                    .trim()
                    .to_string()
            };
            Case {
                fen: fen.trim().to_string(),
                rule: field("rule"),
                plies: field("plies").parse().unwrap(),
                win: match field("win").as_str() {
                    "yes" => true,
                    "no" => false,
                    other => panic!("{line}: win {other}"),
                },
            }
        })
        .collect()
}

/// Every position of the suite is what its line says, by the minimax: a win
/// within D plies or none, and the opposite verdict when switches are
/// considered at the root only. So a search that forgets inner switches
/// gets each of them wrong.
#[test]
fn the_inner_switch_suite_is_proven_by_minimax() {
    let cases = cases();
    assert!(cases.len() >= 4, "{} cases", cases.len());
    let wins = cases.iter().filter(|case| case.win).count();
    assert!(
        wins >= 2 && cases.len() - wins >= 2,
        "both kinds: {wins} wins"
    );
    cases.par_iter().for_each(|case| {
        let position = Position::from_fen(&case.fen).unwrap();
        let rules = rules(&case.rule);
        let run = SwitchRun::default();
        let truth = forced_win(&position, run, &rules, case.plies, Switches::Everywhere);
        let root_only = forced_win(&position, run, &rules, case.plies, Switches::AtRootOnly);
        assert_eq!(truth, case.win, "{}", case.fen);
        assert_ne!(root_only, truth, "{}: needs no inner switch", case.fen);
    });
}

/// The search, which sees switches at every node, gives each position the
/// minimax's verdict: it finds the wins that need a switch below the root,
/// and claims none where the defender escapes by switching.
#[test]
fn the_search_decides_the_inner_switch_suite_as_minimax_does() {
    for case in cases() {
        let position = Position::from_fen(&case.fen).unwrap();
        let variant = Variant::Sscc(rules(&case.rule));
        let depth = case.plies as i32 + 2;
        let result = search_in(
            &fresh_table(),
            &position,
            SwitchRun::default(),
            Vec::new(),
            variant,
            depth,
        );
        assert_eq!(
            claims_win_within(&result, case.plies),
            case.win,
            "{} ({} plies): {result:?}",
            case.fen,
            case.plies
        );
    }
}

/// The suite line for `position` under `rule` if the minimax proves that its
/// verdict within the shortest D (at most 4 plies) changes when switches are
/// considered at the root only; `hint` says which kind the searches suggest.
fn inner_switch_line(position: &Position, rule: &str) -> Option<String> {
    let rules = rules(rule);
    let run = SwitchRun::default();
    let plies = shortest_win(position, run, &rules, 4, Switches::Everywhere)
        .or_else(|| shortest_win(position, run, &rules, 3, Switches::AtRootOnly))?;
    let truth = forced_win(position, run, &rules, plies, Switches::Everywhere);
    let root_only = forced_win(position, run, &rules, plies, Switches::AtRootOnly);
    (truth != root_only).then(|| {
        format!(
            "{} ; plies {plies} ; win {} ; rule {rule}",
            position.to_fen(),
            if truth { "yes" } else { "no" }
        )
    })
}

/// The positions of a game in which one side mostly plays the SSCC search's
/// depth-2 move and the other random moves: mates, and chains near them, come often.
pub(crate) fn lopsided_game(rng: &mut SplitMix64, variant: Variant) -> Vec<Position> {
    let mut position = Position::startpos();
    let strong = rng.below(2) == 0;
    let mut positions = Vec::new();
    for ply in 0..120 {
        let moves = position.legal_moves();
        if moves.is_empty() || position.halfmove_clock() >= 100 || position.is_dead() {
            break;
        }
        if ply >= 8 && !position.in_check() {
            positions.push(position.clone());
        }
        let mv = if (ply % 2 == 0) == strong && rng.percent(80) {
            let run = SwitchRun::default();
            search_in(&fresh_table(), &position, run, Vec::new(), variant, 2)
                .best
                .unwrap()
                .mv
        } else {
            moves[rng.below(moves.len())]
        };
        position = position.after(mv);
    }
    positions
}

/// Writes candidate lines for `tests/data/inner_switches.epd` to stdout:
/// positions that the minimax proves need a switch below the root, either
/// way, from the chess mates of `tests/data/mates.epd` (where a defender's
/// switch may escape) and from seeded random games (where the searches
/// suggest a win that needs an inner switch). Run with
/// `cargo test --profile test-opt --test it -- --ignored --nocapture search_tree::make_inner_switch_suite`.
#[test]
#[ignore = "generator: writes tests/data/inner_switches.epd (minutes)"]
fn make_inner_switch_suite() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mates.epd");
    let mates: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split(';').next().unwrap().trim().to_string())
        .collect();
    mates.par_iter().for_each(|fen| {
        let position = Position::from_fen(fen).unwrap();
        for rule in ["chain", "moves", "unlimited"] {
            if let Some(line) = inner_switch_line(&position, rule) {
                println!("{line} ; from mates.epd");
            }
        }
    });
    let seeds: Vec<u64> = (0..200).collect();
    seeds.par_iter().for_each(|&seed| {
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        let rule = ["chain", "moves", "unlimited"][rng.below(3)];
        let variant = Variant::Sscc(rules(rule));
        for position in lopsided_game(&mut rng, variant) {
            let run = SwitchRun::default();
            let sscc = search_in(&fresh_table(), &position, run, Vec::new(), variant, 5);
            let chess = search_in(
                &fresh_table(),
                &position,
                run,
                Vec::new(),
                Variant::Chess,
                5,
            );
            let needs_inner_switch = claims_win_within(&sscc, 4)
                && !claims_win_within(&chess, 4)
                && !sscc.best.is_some_and(|best| best.switch);
            let escapes_by_switch = claims_win_within(&chess, 3) && !claims_win_within(&sscc, 3);
            if (needs_inner_switch || escapes_by_switch)
                && let Some(line) = inner_switch_line(&position, rule)
            {
                println!("{line} ; seed {seed}");
            }
        }
    });
}

/// The 64 squares of a FEN's board, a1 first, `' '` for empty.
fn squares_of(fen: &str) -> Vec<char> {
    let mut ranks: Vec<Vec<char>> = fen
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .map(|rank| {
            rank.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec![' '; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    ranks.reverse();
    ranks.concat()
}

/// Positions one move before those of `tests/data/switch_wins.epd`, at move
/// 1 under rule `moves`: the move closes a chain, so that a search meets the
/// switch win's board twice at ply 1, once after a switch (a run at its
/// limit of 1: no second switch) and once after a stay (the opponent to move,
/// free to switch). Run with
/// `cargo test --profile test-opt --test it -- --ignored --nocapture search_tree::make_run_suite`.
#[test]
#[ignore = "generator: writes tests/data/runs.epd"]
fn make_run_suite() {
    let rules = rules("moves");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/switch_wins.epd");
    let wins: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split(';').next().unwrap().trim().to_string())
        .collect();
    for fen in wins {
        let after = squares_of(&fen);
        let fields: Vec<&str> = fen.split(' ').collect();
        let mover_is_white = fields[1] == "b";
        for to in 0..64 {
            let piece = after[to];
            if piece == ' ' || piece.is_ascii_uppercase() != mover_is_white || "Pp".contains(piece)
            {
                continue;
            }
            for from in 0..64 {
                if after[from] != ' ' {
                    continue;
                }
                let mut before = after.clone();
                before[from] = piece;
                before[to] = ' ';
                let side = if mover_is_white { "w" } else { "b" };
                let candidate = format!("{} {side} - - 0 1", board_of(&before));
                let Ok(position) = Position::from_fen(&candidate) else {
                    continue;
                };
                let text = format!("{}{}", square_name(from), square_name(to));
                let Ok(mv) = position.parse_move(&text) else {
                    continue;
                };
                if position.after(mv).to_fen().split(' ').next() != Some(fields[0])
                    || !catena_core::game::forms_chain(&position, mv, &rules)
                {
                    continue;
                }
                let run = SwitchRun::default();
                let win = shortest_win(&position, run, &rules, 3, Switches::Everywhere);
                println!("{candidate} ; move {text} ; win {win:?}");
            }
        }
    }
}

fn square_name(index: usize) -> String {
    format!("{}{}", (b'a' + (index % 8) as u8) as char, index / 8 + 1)
}

/// The positions of `tests/data/runs.epd` and their chain-closing moves.
fn run_cases() -> Vec<(Position, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/runs.epd");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (fen, operation) = line.split_once(';').unwrap();
            let mv = operation.trim().strip_prefix("move ").unwrap().to_string();
            (Position::from_fen(fen.trim()).unwrap(), mv)
        })
        .collect()
}

/// Each position of `tests/data/runs.epd` searched with no run (`k = 0`) and
/// with a run at its limit (`k = L = 1`), in both orders through one table:
/// every search's verdict on a win within 3 plies is the minimax's. In these
/// positions the chain-closing move leads to a board that the search meets
/// twice, with the opponent to move and free to switch into a mate (after a
/// stay), and with the mover to move but its run spent (after a switch): a
/// table that confused the two runs would hand the mover the opponent's mate.
#[test]
fn runs_are_told_apart_in_the_transposition_table() {
    let rules = rules("moves");
    let variant = Variant::Sscc(rules);
    let cases = run_cases();
    assert!(cases.len() >= 20);
    let wrong: Vec<String> = cases
        .par_iter()
        .flat_map_iter(|(position, mv)| {
            let mv = position.parse_move(mv).unwrap();
            let spent = SwitchRun::default().after_switch(position, mv, &rules);
            let runs = [SwitchRun::default(), spent];
            let truth = runs.map(|run| forced_win(position, run, &rules, 3, Switches::Everywhere));
            [[0, 1], [1, 0]].into_iter().flat_map(move |order| {
                let tt = fresh_table();
                order.map(|index| {
                    let result = search_in(&tt, position, runs[index], Vec::new(), variant, 5);
                    (claims_win_within(&result, 3) != truth[index]).then(|| {
                        format!(
                            "{} k={index} after {order:?}: {}",
                            position.to_fen(),
                            result.score
                        )
                    })
                })
            })
        })
        .flatten()
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The search keeps a board met with two runs in two entries: in each
/// position of `tests/data/runs.epd`, the board after the chain-closing move
/// is stored once after the switch (its run spent) and once after the stay
/// (the opponent to move, no run), and the two say different things. Under
/// one key the second would overwrite the first, and each would be read for
/// the other.
#[test]
fn a_board_met_with_two_runs_keeps_two_entries() {
    let rules = rules("moves");
    let cases = run_cases();
    let stored: Vec<bool> = cases
        .par_iter()
        .map(|(position, mv)| {
            let mv = position.parse_move(mv).unwrap();
            let spent = SwitchRun::default().after_switch(position, mv, &rules);
            let tt = fresh_table();
            let root_run = SwitchRun::default();
            search_in(&tt, position, root_run, Vec::new(), Variant::Sscc(rules), 5);
            let board = position.after(mv).key();
            let stay = tt.probe(board ^ root_run.key());
            let switch = tt.probe(board ^ spent.key());
            let (Some(stay), Some(switch)) = (stay, switch) else {
                return false;
            };
            assert!(
                (stay.score, stay.bound, stay.action)
                    != (switch.score, switch.bound, switch.action),
                "{}: {stay:?}",
                position.to_fen()
            );
            true
        })
        .collect();
    let both_stored = stored.iter().filter(|&&both| both).count();
    assert!(
        both_stored * 2 >= cases.len(),
        "{both_stored} of {}",
        cases.len()
    );
}

/// A repetition is a draw inside the search, against the game's history and
/// within the tree: Black, a queen down, holds only by taking its knight back
/// to h1, which repeats the position the game started from; and White, a
/// queen and a rook down, holds only by perpetual check.
#[test]
fn the_search_sees_repetitions() {
    let start = Position::from_fen("4k3/8/8/8/8/8/Q7/2K4n w - - 0 1").unwrap();
    let mut history = Vec::new();
    let mut position = start;
    for mv in ["a2b2", "h1g3", "b2a2"] {
        history.push(position.key());
        position = position.after(position.parse_move(mv).unwrap());
    }
    let perpetual = Position::from_fen("7k/5p1p/8/8/8/3Q3K/1r6/q7 w - - 0 1").unwrap();
    for variant in [Variant::Chess, Variant::Sscc(rules("chain"))] {
        let back = search_in(
            &fresh_table(),
            &position,
            SwitchRun::default(),
            history.clone(),
            variant,
            8,
        );
        assert_eq!(back.score, 0, "{back:?}");
        assert_eq!(back.best.unwrap().mv.to_string(), "g3h1");
        let without_history = search_in(
            &fresh_table(),
            &position,
            SwitchRun::default(),
            Vec::new(),
            variant,
            8,
        );
        assert!(without_history.score < -500, "{without_history:?}");
        let checks = search_in(
            &fresh_table(),
            &perpetual,
            SwitchRun::default(),
            Vec::new(),
            variant,
            12,
        );
        assert_eq!(checks.score, 0, "{checks:?}");
    }
}

/// The SSCC evaluation as the search bounds it.
fn sscc_eval(position: &Position, switches: u32) -> i32 {
    catena_engine::eval::network::evaluate_sscc(position, switches)
        .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// A switch into a horizon node: from `position`, at move `run_limit` so
/// that under rule `moves` a run may hold that many switches, `action`
/// closes a chain and switches into a board that is not in check and has no
/// capture or promotion to make, so that its value at depth 0 is its stand
/// pat. The board evaluates below the level at which the search stays
/// without looking (`own`), and a chain of its own would evaluate better
/// after a further switch (`best_switch`).
struct HorizonSwitch {
    position: Position,
    action: Action,
    own: i32,
    best_switch: i32,
}

/// `wanted` horizon switches from seeded random games.
fn horizon_switches(rules: &Rules, run_limit: u32, wanted: usize) -> Vec<HorizonSwitch> {
    let mut rng = SplitMix64::new(27);
    let mut found = Vec::new();
    while found.len() < wanted {
        let mut position = Position::startpos();
        for _ in 0..60 {
            let moves = position.legal_moves();
            if moves.is_empty() || position.is_dead() {
                break;
            }
            let fen = position.to_fen();
            let (board, _) = fen.rsplit_once(' ').unwrap();
            let at_limit = Position::from_fen(&format!("{board} {run_limit}")).unwrap();
            for &mv in moves.iter() {
                if !catena_core::game::forms_chain(&at_limit, mv, rules) {
                    continue;
                }
                let child = at_limit.after(mv);
                let own = sscc_eval(&child, 1);
                let replies = child.legal_moves();
                let best_switch = replies
                    .iter()
                    .filter(|&&reply| catena_core::game::forms_chain(&child, reply, rules))
                    .map(|&reply| sscc_eval(&child.after(reply), 2))
                    .max()
                    .unwrap_or(-INFINITE);
                if !child.in_check()
                    && own < 100
                    && best_switch > own
                    && replies.iter().all(|&reply| !is_tactical(&child, reply))
                {
                    found.push(HorizonSwitch {
                        position: at_limit.clone(),
                        action: Action { mv, switch: true },
                        own,
                        best_switch,
                    });
                    break;
                }
            }
            position = position.after(moves[rng.below(moves.len())]);
        }
    }
    found
}

/// The value the search reports, at depth 1 with every root action's line,
/// for the switch of `case`.
fn switch_value(case: &HorizonSwitch, rules: Rules) -> i32 {
    let root = Root {
        position: case.position.clone(),
        run: SwitchRun::default(),
        history: Vec::new(),
        variant: Variant::Sscc(rules),
    };
    let (_, lines) = search_lines(&fresh_table(), &root, 1, 500);
    let line = lines
        .iter()
        .find(|line| line.pv.first() == Some(&case.action))
        .unwrap_or_else(|| panic!("{}: no line for {:?}", case.position.to_fen(), case.action));
    line.score
}

/// A run at its limit ends at the horizon: a node whose player may not
/// switch again stands pat on its static evaluation and gets no credit for
/// the chains it could close. At move 1 under rule `moves` (a run's limit
/// is 1), each switch of `horizon_switches` must be valued at the
/// evaluation of the board it leads to, not at that of a second switch.
#[test]
fn a_run_at_its_limit_stands_pat_on_its_evaluation() {
    let rules = rules("moves");
    for case in horizon_switches(&rules, 1, 12) {
        let value = switch_value(&case, rules);
        assert_eq!(
            value,
            case.own,
            "{} {:?}",
            case.position.to_fen(),
            case.action
        );
    }
}

/// A run with a switch left stands pat on the best of staying and
/// switching again: at move 2 under rule `moves` (a run's limit is 2), each
/// switch of `horizon_switches` leads to a board whose player may switch
/// once more, and must be valued at the evaluation after its best further
/// switch, which beats staying there.
#[test]
fn a_run_with_a_switch_left_stands_pat_on_its_best_switch() {
    let rules = rules("moves");
    for case in horizon_switches(&rules, 2, 12) {
        let value = switch_value(&case, rules);
        assert_eq!(
            value,
            case.best_switch,
            "{} {:?}",
            case.position.to_fen(),
            case.action
        );
    }
}

/// A root whose run is at its limit offers no switch: after each switch of
/// `horizon_switches` at move 1 under rule `moves` (a run's limit is 1),
/// the same player moves on with the run spent, and though chains close
/// there, no root line may begin with a switch.
#[test]
fn a_root_at_its_run_limit_offers_no_switch() {
    let rules = rules("moves");
    for case in horizon_switches(&rules, 1, 12) {
        let run = SwitchRun::default().after_switch(&case.position, case.action.mv, &rules);
        assert!(!run.allows_switch());
        let root = Root {
            position: case.position.after(case.action.mv),
            run,
            history: Vec::new(),
            variant: Variant::Sscc(rules),
        };
        let (_, lines) = search_lines(&fresh_table(), &root, 1, 500);
        assert!(!lines.is_empty());
        for line in &lines {
            assert!(
                !line.pv[0].switch,
                "{}: {:?}",
                root.position.to_fen(),
                line.pv
            );
        }
    }
}
