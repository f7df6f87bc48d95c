//! The search through the library: mates in chess and wins that need a switch in SSCC.

use catena_core::game::Variant;
use catena_engine::history::Histories;
use catena_engine::score::MATE;
use catena_engine::thread::{Control, Info, Limits, Root, SearchResult};
use catena_engine::threadpool;
use std::sync::Arc;
use std::time::Instant;

use catena_core::board::{Color, Position};
use catena_core::game::{Rules, SwitchRun};
use catena_engine::transposition::TranspositionTable;

fn search(fen: &str, variant: Variant, depth: i32) -> SearchResult {
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    search_with(fen, variant, &limits)
}

fn search_with(fen: &str, variant: Variant, limits: &Limits) -> SearchResult {
    search_learning(fen, variant, limits, &mut Vec::new())
}

fn search_learning(
    fen: &str,
    variant: Variant,
    limits: &Limits,
    histories: &mut Vec<Histories>,
) -> SearchResult {
    let root = Root {
        position: Position::from_fen(fen).unwrap(),
        run: SwitchRun::default(),
        history: Vec::new(),
        variant,
    };
    let tt = Arc::new(TranspositionTable::new(8));
    threadpool::search(
        &root,
        limits,
        &tt,
        histories,
        &Control::default(),
        Instant::now(),
        &mut |_| {},
    )
}

#[test]
fn a_search_leaves_what_each_thread_learnt() {
    let limits = Limits {
        depth: Some(8),
        multipv: 1,
        threads: 2,
        ..Limits::default()
    };
    let mut histories = Vec::new();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    search_learning(start, Variant::Chess, &limits, &mut histories);
    assert_eq!(histories.len(), 2);
    let learnt = Position::startpos()
        .legal_moves()
        .iter()
        .any(|&mv| histories[0].quiet.get(Color::White, mv) != 0);
    assert!(learnt, "the main thread's quiet history is still empty");
}

/// `stop` must reach the helper threads too (issue 23, point 4): an endless
/// search on eight threads ends once it is set, twice over the same pool of
/// helpers, and every helper has searched (its quiet history is not empty).
#[test]
fn stop_ends_every_thread_of_an_endless_search() {
    let limits = Limits {
        multipv: 1,
        threads: 8,
        ..Limits::default()
    };
    for _ in 0..2 {
        let (done, finished) = std::sync::mpsc::channel();
        let (deepened, depths) = std::sync::mpsc::channel();
        let control = Arc::new(Control::default());
        let searcher = {
            let (control, limits) = (Arc::clone(&control), limits.clone());
            std::thread::spawn(move || {
                let root = Root {
                    position: Position::startpos(),
                    run: SwitchRun::default(),
                    history: Vec::new(),
                    variant: Variant::Chess,
                };
                let tt = Arc::new(TranspositionTable::new(8));
                let mut histories = Vec::new();
                let result = threadpool::search(
                    &root,
                    &limits,
                    &tt,
                    &mut histories,
                    &control,
                    Instant::now(),
                    &mut |info| {
                        if let Info::Line(report) = info {
                            let _ = deepened.send(report.depth);
                        }
                    },
                );
                done.send((result, histories)).unwrap();
            })
        };
        // Stopped once the main thread is well under way, however busy the
        // machine (the other tests of the binary run beside this one), and
        // the helpers have had time to start too.
        while depths
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the search deepens")
            < 6
        {}
        std::thread::sleep(std::time::Duration::from_millis(300));
        control
            .stop
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let (result, histories) = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the search ends after stop");
        searcher.join().unwrap();
        assert!(result.best.is_some());
        assert_eq!(histories.len(), 8);
        for (thread, learnt) in histories.iter().enumerate() {
            let searched = Position::startpos()
                .legal_moves()
                .iter()
                .any(|&mv| learnt.quiet.get(Color::White, mv) != 0);
            assert!(searched, "thread {thread} did not search");
        }
    }
}

#[test]
fn finds_a_mate_in_two() {
    // Ra7 takes the seventh rank, then Rb8 mates.
    let result = search("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", Variant::Chess, 6);
    assert_eq!(result.score, MATE - 3, "{result:?}");
}

#[test]
fn sees_being_mated() {
    // Black to move is mated next move whatever it does.
    let result = search("k7/8/1K6/8/8/8/8/7R b - - 0 1", Variant::Chess, 5);
    assert!(result.score <= -(MATE - 10), "{result:?}");
}

#[test]
fn switches_into_a_mate_in_sscc_only() {
    // d2d3 closes b2-c3-d3-e2-d1-c1; after a switch the same player, now
    // Black, mates with Qh4.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/2P2P2/PP1PP2P/RNBQKBNR w KQkq - 0 3";
    let sscc = search(fen, Variant::Sscc(Rules::default()), 4);
    let best = sscc.best.unwrap();
    assert!(best.switch, "{}", best.to_string());
    assert_eq!(sscc.score, MATE - 2);
    let chess = search(fen, Variant::Chess, 4);
    assert!(!chess.best.unwrap().switch);
    assert!(chess.score < MATE - 100, "no mate in chess: {chess:?}");
}

#[test]
fn a_run_changes_the_transposition_key() {
    assert_eq!(SwitchRun::default().key(), 0);
    // Every run met in the SSCC bench games under each rule, grown by the
    // first chain-closing move of each of its positions: equal runs share a
    // key, different runs (count, rule, starting chain) have different ones.
    let games = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sscc_games.pgn"
    ))
    .unwrap();
    let mut runs: Vec<SwitchRun> = Vec::new();
    for record in catena_core::game::pgn::read_all(&games).unwrap() {
        for rule in catena_core::game::SwitchRule::ALL {
            let rules = Rules::new(rule, 2).unwrap();
            let mut replay = catena_core::game::GameState::new(record.game.start().clone(), rules);
            for ply in record.game.plies() {
                let (position, run) = (replay.position().clone(), replay.run());
                if run.allows_switch()
                    && let Some(&mv) = position
                        .legal_moves()
                        .iter()
                        .find(|&&mv| catena_core::game::forms_chain(&position, mv, &rules))
                {
                    runs.push(run.after_switch(&position, mv, &rules));
                }
                if replay.apply(ply.action()).is_err() {
                    break;
                }
            }
        }
    }
    let distinct: std::collections::HashSet<SwitchRun> = runs.iter().copied().collect();
    assert!(
        distinct.len() >= 50,
        "only {} different runs",
        distinct.len()
    );
    let mut by_key = std::collections::HashMap::new();
    for run in distinct {
        let key = run.key();
        assert_ne!(key, 0, "{run:?}");
        if let Some(other) = by_key.insert(key, run) {
            panic!("{run:?} and {other:?} share the key {key:#x}");
        }
    }
}

/// The lines of a suite in tests/data: the FEN and the words after `; <opcode>`.
fn suite(file: &str, opcode: &str) -> Vec<(String, Vec<String>)> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let entries: Vec<_> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (fen, operation) = line.split_once(';').unwrap();
            let mut words = operation.split_whitespace();
            assert_eq!(words.next(), Some(opcode), "{line}");
            (fen.trim().to_string(), words.map(String::from).collect())
        })
        .collect();
    assert!(!entries.is_empty(), "{path} is empty");
    entries
}

/// Stockfish's mates in 2 and 3 (tests/data/make_search_suites.py): found,
/// and as short, within depth 8.
#[test]
fn finds_every_mate_of_the_suite_within_depth_8() {
    let mates = suite("mates.epd", "dm");
    assert!(mates.len() >= 50);
    for (fen, words) in mates {
        let moves: i32 = words[0].parse().unwrap();
        let result = search(&fen, Variant::Chess, 8);
        assert_eq!(result.score, MATE - (2 * moves - 1), "{fen}: {result:?}");
    }
}

/// Positions where only a chain and a switch win (no chess mate, by
/// Stockfish): Catena switches into the mate within depth 8 (a depth, not a
/// time, so that a loaded machine cannot fail the test). The switch and the
/// mate are two plies, but late move pruning near the leaves can skip the
/// quiet mating check: in one position it is found only at depth 7.
#[test]
fn finds_every_switch_win() {
    let wins = suite("switch_wins.epd", "sm");
    assert!(wins.len() >= 30);
    let limits = Limits {
        depth: Some(8),
        mate: Some(1),
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    for (fen, winning) in wins {
        let result = search_with(&fen, Variant::Sscc(Rules::default()), &limits);
        let best = result.best.unwrap();
        assert!(
            best.switch && winning.contains(&best.mv.to_string()),
            "{fen}: played {}, wins are {winning:?}",
            best
        );
        assert_eq!(result.score, MATE - 2, "{fen}: {result:?}");
    }
}

/// `catena bench`'s node count, the search's signature, is the one recorded
/// in `tests/data/bench.txt`: a change anywhere in the search or the
/// evaluation that alters the tree fails here until the file is updated
/// (with the commit's `Bench:` trailer), so no such change goes unnoticed,
/// and none that should leave the tree alone changes it.
#[test]
fn the_bench_signature_is_the_recorded_one() {
    let recorded: u64 = std::fs::read_to_string("tests/data/bench.txt")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let mut last = String::new();
    catena_engine::bench::run(
        catena_engine::bench::DEFAULT_DEPTH,
        16,
        1,
        &Control::default(),
        &mut |line| last = line.to_string(),
    );
    let nodes: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(
        nodes, recorded,
        "catena bench: {last}; update tests/data/bench.txt if the change is meant"
    );
}

#[test]
fn the_best_actions_share_of_the_nodes_is_a_share_of_its_subtree() {
    // A single legal move (the king must take the rook): every node but the
    // root's own lies under it.
    let forced = search("4k3/pppppppp/8/8/8/8/1r6/K7 w - - 0 1", Variant::Chess, 8);
    assert!(
        forced.best_share > 0.9 && forced.best_share <= 1.0,
        "a forced move's share is {}",
        forced.best_share
    );
    // Twenty moves: the best takes some of the nodes, never all.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let open = search(start, Variant::Chess, 8);
    assert!(
        open.best_share > 0.0 && open.best_share < 1.0,
        "the best of twenty moves has a share of {}",
        open.best_share
    );
}
