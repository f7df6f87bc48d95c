//! `catena book`: an EPD file settled into a book, resumed, read back, and
//! each verdict against `catena solve` on the same position.

use std::path::Path;

use catena_core::board::Position;
use catena_engine::book::{Record, Verdict};

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
