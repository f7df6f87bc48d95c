//! The positions of `catena bench sscc`: each is what its line says, and
//! the file is rebuilt from the SSCC games it came from by
//! `cargo test --profile test-opt --test it -- --ignored --nocapture sscc_bench::make_sscc_bench`.

use catena_core::game::Variant;
use catena_engine::score::MATE_BOUND;
use catena_engine::thread::{Control, Limits};
use catena_engine::threadpool;
use std::collections::BTreeMap;

use std::sync::Arc;
use std::time::Instant;

use catena::tools::epd;
use catena::tools::sscc_bench::{self, BenchPosition, Kind};
use catena_core::game::{GameState, Rules, pgn};
use catena_engine::transposition::TranspositionTable;

/// The games the positions are taken from, and how many of each kind to take.
const GAMES: &str = "tests/data/sscc_games.pgn";
const QUOTA: [(Kind, usize); 5] = [
    (Kind::Run, 8),
    (Kind::Pocket, 8),
    (Kind::Endgame, 6),
    (Kind::Closed, 6),
    (Kind::Open, 6),
];

#[test]
fn every_bench_position_is_of_its_kind() {
    let positions = sscc_bench::positions().unwrap_or_else(|error| panic!("{error}"));
    assert!(positions.len() >= 30, "only {} positions", positions.len());
    let mut counts: BTreeMap<Kind, usize> = BTreeMap::new();
    for position in &positions {
        *counts.entry(position.kind).or_default() += 1;
        assert!(
            position.game.position().has_legal_move(),
            "{}: the game is over",
            position.id
        );
    }
    for (kind, quota) in QUOTA {
        assert_eq!(counts.get(&kind), Some(&quota), "{kind} positions");
    }
}

/// The position after `plies` plies of `game`, as a bench line: the FEN,
/// and for a run in progress the FEN where the run began with the run's
/// moves.
fn bench_line(game: &GameState, plies: usize, kind: Kind, id: &str) -> String {
    let played = &game.plies()[..plies];
    let run_start = played
        .iter()
        .rposition(|ply| !ply.switched)
        .map_or(0, |stay| stay + 1);
    let start = match played.get(run_start) {
        Some(first) => first.before().to_fen(),
        None => game
            .plies()
            .get(plies)
            .map_or_else(|| game.position().to_fen(), |next| next.before().to_fen()),
    };
    let moves: Vec<String> = played[run_start..]
        .iter()
        .map(|ply| format!("{} switch", ply.mv))
        .collect();
    let moves = if moves.is_empty() {
        String::new()
    } else {
        format!(" ;moves {}", moves.join(" "))
    };
    format!("{start}{moves} ;kind {kind} ;id \"{id}\"")
}

/// Whether a short search in chess or sscc mode already sees a mate from
/// the line's position: such a position says little about how deep the
/// search goes, as every iteration after the mate costs next to nothing.
fn decided(line: &str) -> bool {
    let parsed = epd::parse_suite(line);
    let position = BenchPosition::from_line(&parsed[0], Rules::default()).unwrap();
    [Variant::Chess, Variant::Sscc(Rules::default())]
        .into_iter()
        .any(|variant| {
            let limits = Limits {
                depth: Some(10),
                nodes: Some(300_000),
                multipv: 1,
                threads: 1,
                ..Limits::default()
            };
            let result = threadpool::search(
                &position.root(variant),
                &limits,
                &Arc::new(TranspositionTable::new(16)),
                &mut Vec::new(),
                &Control::default(),
                Instant::now(),
                &mut |_| {},
            );
            result.score.abs() >= MATE_BOUND
        })
}

#[test]
#[ignore = "generator: writes src/tools/sscc_bench.epd from the games"]
fn make_sscc_bench() {
    let text = std::fs::read_to_string(GAMES).expect("the games are checked in");
    let records = pgn::read_all(&text).unwrap_or_else(|error| panic!("{error}"));
    let mut taken: BTreeMap<Kind, Vec<String>> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for (number, record) in records.iter().enumerate() {
        let rules = *record.game.rules();
        // The positions the game went through, by kind.
        let mut by_kind: BTreeMap<Kind, Vec<usize>> = BTreeMap::new();
        let mut replay = GameState::new(record.game.start().clone(), rules);
        for (index, ply) in record.game.plies().iter().enumerate() {
            replay.apply(ply.action()).expect("the games were refereed");
            if replay.outcome().is_none() {
                by_kind
                    .entry(Kind::of(&replay))
                    .or_default()
                    .push(index + 1);
            }
        }
        // One position of each kind a game: the one nearest the middle of
        // those it went through that no earlier game had and where a short
        // search sees no mate (the games come in pairs from one opening and
        // may repeat each other).
        for (kind, quota) in QUOTA {
            let lines = taken.entry(kind).or_default();
            if lines.len() >= quota {
                continue;
            }
            let Some(plies) = by_kind.get(&kind) else {
                continue;
            };
            // From the middle one outwards.
            let middle = plies.len() / 2;
            let mut order: Vec<usize> = (0..plies.len()).collect();
            order.sort_by_key(|&index| index.abs_diff(middle));
            for plies in order.into_iter().map(|index| plies[index]) {
                let id = format!("game {} ply {plies}", number + 1);
                let line = bench_line(&record.game, plies, kind, &id);
                let position = &line[..line.find(" ;kind").unwrap_or(line.len())];
                if seen.insert(position.to_string()) && !decided(&line) {
                    lines.push(line);
                    break;
                }
            }
        }
        assert_eq!(rules, Rules::default(), "game {}", number + 1);
    }
    let mut out = String::from(
        "# The positions of `catena bench sscc`, taken from the SSCC games of tests/data/sscc_games.pgn\n\
         # by `cargo test --profile test-opt --test it -- --ignored --nocapture sscc_bench::make_sscc_bench`:\n\
         # for each kind, one position a game, in the games' order: the one nearest the middle of\n\
         # the game's positions of that kind, leaving out positions met before and those where a\n\
         # search of 300,000 nodes (at most depth 10) sees a mate in chess or sscc mode.\n\
         # A run in progress is the position where it began and the run's moves.\n",
    );
    for (kind, quota) in QUOTA {
        let lines = &taken[&kind];
        assert_eq!(lines.len(), quota, "too few {kind} positions in the games");
        for line in lines {
            out.push_str(line);
            out.push('\n');
        }
    }
    std::fs::write("src/tools/sscc_bench.epd", &out).expect("the bench file is writable");
    print!("{out}");
}

/// The report's medians without mates leave out exactly the positions
/// whose sscc search ends in a mate, or either mode's: their count and
/// depths are those of the report's own lines.
#[test]
fn the_medians_without_mates_leave_out_the_found_mates() {
    let args = sscc_bench::SsccBenchArgs {
        depth: 1,
        movetime: 5,
        hash: 1,
        positions: None,
    };
    let mut lines = Vec::new();
    sscc_bench::run(&args, &mut |line| lines.push(line.to_string())).unwrap();
    // `index kind mode nodes ms | depth nps cp|mate value id`
    let rows: Vec<Vec<&str>> = lines
        .iter()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .filter(|tokens| tokens.len() > 9 && tokens[0].parse::<usize>().is_ok())
        .collect();
    let mated = |mode: &str| -> Vec<&str> {
        rows.iter()
            .filter(|tokens| tokens[2] == mode && tokens[8] == "mate")
            .map(|tokens| tokens[0])
            .collect()
    };
    let (chess_mates, sscc_mates) = (mated("chess"), mated("sscc"));
    for (label, left_out) in [
        ("in sscc", sscc_mates.clone()),
        ("in either mode", [sscc_mates, chess_mates].concat()),
    ] {
        let open: Vec<&str> = rows
            .iter()
            .filter(|tokens| tokens[2] == "sscc" && !left_out.contains(&tokens[0]))
            .map(|tokens| tokens[0])
            .collect();
        assert!(!open.is_empty(), "{lines:#?}");
        let median = |mode: &str| {
            let mut depths: Vec<f64> = rows
                .iter()
                .filter(|tokens| tokens[2] == mode && open.contains(&tokens[0]))
                .map(|tokens| tokens[6].parse().unwrap())
                .collect();
            depths.sort_by(f64::total_cmp);
            let n = depths.len();
            if n % 2 == 1 {
                depths[n / 2]
            } else {
                (depths[n / 2 - 1] + depths[n / 2]) / 2.0
            }
        };
        let expected = format!(
            "without a mate {label} ({} of {}): median depth chess {:.1} sscc {:.1}",
            open.len(),
            rows.len() / 2,
            median("chess"),
            median("sscc")
        );
        assert!(
            lines.iter().any(|line| line.starts_with(&expected)),
            "{expected} not in {lines:#?}"
        );
    }
}

/// `--positions` measures another file's positions, each line's kind found
/// from its board, and names a bad line.
#[test]
fn the_sscc_bench_measures_the_positions_of_a_file() {
    let dir = std::env::temp_dir().join(format!("catena-bench-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    std::fs::write(
        &good,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 \"1. e4\";\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;moves d2d4 d7d5 ;id \"d4 d5\"\n",
    )
    .unwrap();
    let args = |path: &std::path::Path| sscc_bench::SsccBenchArgs {
        depth: 1,
        movetime: 0,
        hash: 1,
        positions: Some(path.to_path_buf()),
    };
    let mut lines = Vec::new();
    sscc_bench::run(&args(&good), &mut |line| lines.push(line.to_string())).unwrap();
    let rows: Vec<&String> = lines
        .iter()
        .filter(|line| {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            tokens.len() > 9 && tokens[0].parse::<usize>().is_ok()
        })
        .collect();
    assert_eq!(rows.len(), 4, "{lines:#?}");
    assert!(
        rows[0].contains("open") && rows[0].ends_with("line 1"),
        "{lines:#?}"
    );
    assert!(
        rows[3].contains("sscc") && rows[3].ends_with("d4 d5"),
        "{lines:#?}"
    );

    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;moves e2e5\n",
    )
    .unwrap();
    let error = sscc_bench::run(&args(&bad), &mut |_| {}).unwrap_err();
    assert!(
        error.contains("line 1") && error.contains("e2e5"),
        "{error}"
    );
    let missing = sscc_bench::run(&args(&dir.join("none.epd")), &mut |_| {}).unwrap_err();
    assert!(missing.contains("none.epd"), "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}
