//! `catena book`: an EPD file settled into a book, resumed, read back, and
//! each verdict against `catena solve` on the same position.

use std::path::Path;

use catena_core::board::Position;
use catena_engine::book::{BUILT_IN_FILES, Record, Verdict};

use crate::cli::{catena, stderr, stdout};
use crate::common::scratch::ScratchDir;

/// Two puzzles of `perft/puzzles.epd` (wins within 2 and 3 plies under rule
/// `chain`), written as that file writes them; the start position, with no
/// win within 3 plies, in four fields; a bad line; the first puzzle again.
const SUITE: &str = "\
# a small suite
r1bq2r1/1p1pkp1p/p1n1N1p1/2P3bQ/3PPn2/P5PB/2P4P/RN2K1BR b KQ - 4 13 bm \"e7f6 switch\"; dm 2; pv \"e7f6 switch h5g5\"; rule chain; min-enclosed 2; id \"chain-1-105-25\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -

not a fen
rnbr4/p1qk1p1p/1pp3p1/P1Ppp3/1P1P1N1P/2B1Q3/3KP3/RN3B1n w - - 0 15
r1bq2r1/1p1pkp1p/p1n1N1p1/2P3bQ/3PPn2/P5PB/2P4P/RN2K1BR b KQ - 4 13
";

/// The records of a book, and its comment lines.
fn read_book(path: &Path) -> (Vec<Record>, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let (comments, lines): (Vec<&str>, Vec<&str>) =
        text.lines().partition(|line| line.starts_with('#'));
    let records = lines
        .iter()
        .map(|line| Record::parse(line).unwrap_or_else(|error| panic!("{line}: {error}")))
        .collect();
    (
        records,
        comments.iter().map(|line| line.to_string()).collect(),
    )
}

#[test]
fn a_book_settles_each_position_resumes_and_agrees_with_solve() {
    let dir = ScratchDir::new("book-suite");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, SUITE).unwrap();
    let book = dir.join("book.epd");
    let args = [
        "book",
        "--epd",
        suite.to_str().unwrap(),
        "--plies",
        "3",
        "--rule",
        "chain",
        "--out",
        book.to_str().unwrap(),
    ];
    let output = catena(&args);
    // The bad line is named with its number, the others are settled, and
    // the run fails.
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("suite.epd:5: bad FEN"),
        "{}",
        stderr(&output)
    );
    assert!(
        stdout(&output)
            .contains("3 positions tried (2 win, 1 none, 0 unsettled), 1 already answered in"),
        "{}",
        stdout(&output)
    );
    let text = std::fs::read_to_string(&book).unwrap();
    let (records, comments) = read_book(&book);
    assert_eq!(
        comments,
        [format!(
            "# catena book --epd {} --plies 3 --rule chain --min-enclosed 2 --nodes 2000000",
            suite.display()
        )]
    );
    let summary: Vec<(String, &str, Option<u32>)> = records
        .iter()
        .map(|record| {
            let plies = match &record.verdict {
                Verdict::Win { plies, .. } => Some(*plies),
                _ => None,
            };
            (record.fen.clone(), record.verdict.name(), plies)
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "r1bq2r1/1p1pkp1p/p1n1N1p1/2P3bQ/3PPn2/P5PB/2P4P/RN2K1BR b KQ - 4 13".to_string(),
                "win",
                Some(2)
            ),
            (Position::START_FEN.to_string(), "none", None),
            (
                "rnbr4/p1qk1p1p/1pp3p1/P1Ppp3/1P1P1N1P/2B1Q3/3KP3/RN3B1n w - - 0 15".to_string(),
                "win",
                Some(3)
            ),
        ]
    );
    for record in &records {
        assert_eq!(record.bound, 3);
        assert_eq!(record.rules.to_string(), "SwitchRule=chain;MinEnclosed=2");
        // Read back, each line is written again as it was.
        let line = record.to_string();
        assert!(text.lines().any(|written| written == line), "{line}");
        assert_eq!(Record::parse(&line).as_ref(), Ok(record));
        // The same verdict as `catena solve` on the position alone.
        let solved = catena(&["solve", &record.fen, "--plies", "3", "--json"]);
        let solved: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
        match &record.verdict {
            Verdict::Win { plies, line } => {
                let line: Vec<String> = line.iter().map(ToString::to_string).collect();
                assert_eq!(solved["result"], "win", "{}", record.fen);
                assert_eq!(solved["plies"], *plies, "{}", record.fen);
                assert_eq!(solved["line"], serde_json::json!(line), "{}", record.fen);
                assert_eq!(line.len() as u32, *plies);
            }
            verdict => {
                assert_eq!(verdict, &Verdict::None);
                assert_eq!(solved["result"], "none", "{}", record.fen);
            }
        }
    }
    assert!(text.contains("result win; bm \"e7f6 switch\"; dm 2; pv \"e7f6 switch h5g5\"; bound 3; rule chain; min-enclosed 2; nodes "), "{text}");

    // Run again, nothing is left to settle and the book stays as it was.
    let again = catena(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        stdout(&again).contains("0 positions tried (0 win, 0 none, 0 unsettled), 4 already"),
        "{}",
        stdout(&again)
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), text);

    // Another bound is another question: asked again, and appended.
    let mut deeper = args.to_vec();
    deeper[4] = "2";
    let output = catena(&deeper);
    assert!(
        stdout(&output).contains("3 positions tried (1 win, 2 none, 0 unsettled)"),
        "{}",
        stdout(&output)
    );
    let (records, comments) = read_book(&book);
    assert_eq!((records.len(), comments.len()), (6, 2));
}

/// A position left unsettled is not asked again with the same budget, but
/// is with a larger one; a line cut short by a killed run is passed over.
#[test]
fn an_unsettled_position_is_asked_again_only_with_a_larger_budget() {
    let dir = ScratchDir::new("book-unsettled");
    let suite = dir.join("suite.epd");
    std::fs::write(
        &suite,
        "rnbr4/p1qk1p1p/1pp3p1/P1Ppp3/1P1P1N1P/2B1Q3/3KP3/RN3B1n w - - 0 15\n",
    )
    .unwrap();
    let book = dir.join("book.epd");
    let run = |nodes: &str| {
        let output = catena(&[
            "book",
            "--epd",
            suite.to_str().unwrap(),
            "--plies",
            "4",
            "--nodes",
            nodes,
            "--out",
            book.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        output
    };
    assert!(stdout(&run("10")).contains("(0 win, 0 none, 1 unsettled)"));
    assert!(stdout(&run("10")).contains("0 positions tried"));
    // The tail of a line being written when its run was killed.
    let mut text = std::fs::read_to_string(&book).unwrap();
    text.push_str("rnbr4/p1qk1p1p/1pp3p1/P1Ppp3/1P1P1N1P/2B1Q3/3KP3/RN3B1n w - - 0 15 result w");
    std::fs::write(&book, &text).unwrap();
    let output = run("1000000");
    assert!(stdout(&output).contains("(1 win, 0 none, 0 unsettled)"));
    assert!(
        stderr(&output).contains("book.epd:3: passed over"),
        "{}",
        stderr(&output)
    );
    let written = std::fs::read_to_string(&book).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(lines.len(), 5, "{written}");
    assert!(lines[2].ends_with("result w"));
    assert!(lines[3].starts_with("# catena book"));
    let last = Record::parse(lines[4]).unwrap();
    assert!(matches!(last.verdict, Verdict::Win { plies: 3, .. }));
    assert!(stdout(&run("1000000")).contains("0 positions tried"));
}

/// A line that does not say what it claims is refused, with the reason.
#[test]
fn a_book_line_is_read_only_when_it_holds_together() {
    let fen = "rnbr4/p1qk1p1p/1pp3p1/P1Ppp3/1P1P1N1P/2B1Q3/3KP3/RN3B1n w - - 0 15";
    let good = format!(
        "{fen} result win; bm \"f4d5 switch\"; dm 3; pv \"f4d5 switch e5d4 switch d5f6\"; \
         bound 5; rule chain; min-enclosed 2; nodes 120; time 3;"
    );
    let record = Record::parse(&good).unwrap();
    assert_eq!(record.to_string(), good);
    assert_eq!(Record::parse(&format!("{good} id \"later\";")), Ok(record));
    for (text, expected) in [
        (
            good.replace("bm \"f4d5 switch\"", "bm \"f4d5\""),
            "not the first action",
        ),
        (good.replace("d5f6\"", "d5f7\""), "pv: d5f7"),
        (good.replace("dm 3", "dm 6"), "dm 6 is not within bound 5"),
        (good.replace(" bound 5;", ""), "no bound"),
        (good.replace("rule chain", "rule often"), "often"),
        (
            good.replace("result win", "result none"),
            "result none with bm",
        ),
        (good.replace("result win", "result maybe"), "'maybe'"),
        (good.replace("nodes 120", "nodes many"), "nodes 'many'"),
        (
            good.replace("time 3;", "time 3; time 4;"),
            "time is given twice",
        ),
        (good.replace(" w - - 0 15", " w - -"), "bad FEN"),
        ("# a comment".to_string(), "six fields"),
    ] {
        let error = Record::parse(&text).unwrap_err();
        assert!(error.contains(expected), "{text}: {error}");
    }
}

/// The book of the start position, whose proofs take minutes to an hour
/// each (docs/solver.md, "The start position"); the engine's other books
/// are those of the openings in `openings/`.
const START_BOOK: &str = "start.epd";

fn opening_books() -> Vec<&'static str> {
    let books: Vec<_> = BUILT_IN_FILES
        .iter()
        .copied()
        .filter(|&file| file != START_BOOK)
        .collect();
    assert!(BUILT_IN_FILES.contains(&START_BOOK) && !books.is_empty());
    books
}

/// Every book committed in `book/` is one the engine is built with, so a
/// book added there is not left out of play by mistake.
#[test]
fn every_book_in_the_folder_is_built_in() {
    use std::collections::BTreeSet;
    let folder = format!("{}/book", env!("CARGO_MANIFEST_DIR"));
    let files: BTreeSet<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".epd"))
        .collect();
    let built_in: BTreeSet<String> = BUILT_IN_FILES.iter().map(|file| file.to_string()).collect();
    assert_eq!(files, built_in);
}

/// Every settled record of `files`, books in `book/`, each with its file.
fn shipped_records(files: &[&'static str]) -> Vec<(&'static str, Record)> {
    let mut records = Vec::new();
    for &file in files {
        let text =
            std::fs::read_to_string(format!("{}/book/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        for line in text.lines().filter(|line| !line.starts_with('#')) {
            let record = Record::parse(line).unwrap_or_else(|error| panic!("{file}: {error}"));
            if record.verdict.settled() {
                records.push((file, record));
            }
        }
    }
    records
}

/// Every win of the shipped books, played out: each action is legal in
/// the game, and the line ends in the mate of the side the defender holds
/// there, which the player to move at the book's position wins. The lines
/// that are one player's run (every action but the last a switch) are
/// counted: the book is mostly made of them.
#[test]
fn every_win_of_the_books_replays_to_the_attackers_mate() {
    use catena_core::game::{GameState, Termination};
    let (mut wins, mut runs) = (0, 0);
    for (file, record) in shipped_records(BUILT_IN_FILES) {
        let Verdict::Win { plies, line } = &record.verdict else {
            continue;
        };
        let start = Position::from_fen(&record.fen).unwrap();
        let mut game = GameState::new(start.clone(), record.rules);
        let attacker = game.controller(start.side_to_move());
        for &action in line {
            game.apply(action)
                .unwrap_or_else(|error| panic!("{file}: {}: {action}: {error}", record.fen));
        }
        let outcome = game.outcome();
        assert_eq!(
            outcome.map(|outcome| outcome.termination),
            Some(Termination::Checkmate),
            "{file}: {}",
            record.fen
        );
        assert_eq!(game.score_of(attacker), Some(1.0), "{file}: {}", record.fen);
        assert_eq!(line.len(), *plies as usize, "{file}: {}", record.fen);
        wins += 1;
        runs += usize::from(line[..line.len() - 1].iter().all(|action| action.switch));
    }
    println!("{wins} wins, {runs} of them one player's run");
    assert!(wins >= 80 && runs >= 40, "{wins} wins, {runs} runs");
}

/// A seeded sample of 50 settled records of the opening books, proved
/// again by the solver from an empty table: the same verdict within the
/// record's bound, a win in as many plies, and the book's first action one
/// that keeps the win. (The start position's records, minutes to an hour
/// each, are proved again by the commands in docs/solver.md.)
#[test]
#[ignore = "long tier (issue 53): about 70 s on 2 cores"]
fn a_seeded_sample_of_the_books_is_proved_again() {
    use catena_core::rng::SplitMix64;
    use catena_engine::solve::{Problem, solve, solve_after};
    use rayon::prelude::*;

    let mut records = shipped_records(&opening_books());
    let mut random = SplitMix64::new(53);
    // A Fisher-Yates shuffle's first 50.
    for index in 0..50 {
        let other = index + random.below(records.len() - index);
        records.swap(index, other);
    }
    records.truncate(50);
    let failures: Vec<String> = records
        .par_iter()
        .filter_map(|(file, record)| {
            let position = Position::from_fen(&record.fen).unwrap();
            let problem = Problem {
                rules: Some(record.rules),
                attacker_switches: true,
            };
            let found = solve(&position, problem, record.bound, 1).win;
            let agrees = match (&record.verdict, &found) {
                (Verdict::None, None) => true,
                (Verdict::Win { plies, line }, Some((found, _))) => {
                    plies == found
                        && (*plies == 1
                            || solve_after(&position, &line[..1], problem, plies - 1, 1)
                                .unwrap()
                                .win
                                .is_some())
                }
                _ => false,
            };
            (!agrees).then(|| {
                format!(
                    "{file}: {}: book {:?}, solver {found:?}",
                    record.fen, record.verdict
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}
