//! The command line: real runs of the binary, good and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

use catena_core::board::{Color, Piece, Position, Square};
use catena_core::rng::SplitMix64;
use catena_engine::eval::network::{BOARD_INPUTS, HIDDEN, INPUTS, Network, feature};

use crate::common::scratch::ScratchDir;

/// Runs the binary with `args`, stdin closed (as `output` leaves it).
pub(crate) fn catena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_catena"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn perft_prints_the_summary_line() {
    let output = catena(&["perft", "3"]);
    assert!(output.status.success());
    let last = stdout(&output).lines().last().unwrap().to_string();
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields[..2], ["nodes", "8902"]);
    assert_eq!((fields[2], fields[4]), ("time", "nps"));
}

#[test]
fn divide_lists_each_root_move_and_they_add_up() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output = catena(&["perft", "2", "--fen", fen, "--divide", "--threads", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let counts: Vec<u64> = text
        .lines()
        .filter_map(|line| line.split_once(": "))
        .map(|(_, count)| count.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 48);
    assert_eq!(counts.iter().sum::<u64>(), 2039);
    assert!(text.contains("e1g1: ") && text.contains("e1c1: "));
    assert!(text.lines().last().unwrap().starts_with("nodes 2039 "));
}

#[test]
fn a_suite_with_a_wrong_count_fails() {
    let dir = ScratchDir::new("cli-suite");
    let good = dir.join("good.epd");
    let bad = dir.join("bad.epd");
    std::fs::write(
        &good,
        "# comment\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n",
    )
    .unwrap();
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n").unwrap();

    let output = catena(&["perft", "--suite", good.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("3 counts, 0 mismatches"));

    // A mismatch is a failure at run time: status 1, not bad input's 2.
    let output = catena(&["perft", "--suite", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("D2 MISMATCH expected 67 counted 66"));
}

/// A bad line is named and the lines after it are still checked; the run
/// fails. A suite with no count to check (the chain suite, or counts all
/// deeper than `--max-depth`) fails too: it would prove nothing.
#[test]
fn a_suite_reports_bad_lines_and_goes_on_and_an_empty_one_fails() {
    let dir = ScratchDir::new("cli-suite-bad-lines");
    let mixed = dir.join("mixed.epd");
    std::fs::write(
        &mixed,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n\
         4k3/8/8/8/8/8/8/4K2Q w - - 0 1 ;D1 x\n\
         not a fen ;D1 1\n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66\n",
    )
    .unwrap();
    let output = catena(&["perft", "--suite", mixed.to_str().unwrap()]);
    let text = stdout(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("4K2Q w - - 0 1 ERROR count 'x' for D1 is not a number"),
        "{text}"
    );
    assert!(text.contains("3 not a fen ERROR bad FEN"), "{text}");
    assert!(text.contains("D2 ok"), "{text}");
    assert!(
        text.contains("4 positions, 2 counts, 0 mismatches, 2 bad lines"),
        "{text}"
    );

    for args in [
        &["perft", "--suite", "perft/chains.epd"][..],
        &["perft", "--suite", "perft/chess.epd", "--sscc"],
    ] {
        let output = catena(args);
        assert_eq!(output.status.code(), Some(2), "{args:?} passed");
        assert!(
            stderr(&output).contains("the suite checks nothing"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn bad_input_gives_one_line_on_stderr_and_status_2() {
    for args in [
        &["perft"][..],
        &["perft", "0"],
        &["perft", "16"],
        &["perft", "-3"],
        &["perft", "x"],
        &["perft", "99999999999999999999"],
        &["perft", "3", "--bogus"],
        &["perft", "3", "--fen"],
        &["perft", "3", "--fen", "not a fen"],
        &["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &[
            "perft",
            "3",
            "--fen",
            "4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1",
        ],
        &["perft", "3", "--fen", "8/8/8/4k3/3P1P2/8/8/4K3 b - - 0 1"],
        &["perft", "3", "--threads", "0"],
        &["perft", "--suite", "/nonexistent/suite.epd"],
        &["perft", "--suite", "Cargo.toml"],
        &["perft", "3", "--suite", "perft/chess.epd"],
        &["no-such-command"],
        &["chain", "5x5 xxxxx/x...x/x.x.x/x...x/xxxxx", "f3"],
        &["chain", "5x5 xxxxx/x...x/x.x.x/x...x/xxxxx", "1,1"],
        &["chain", "5x5 xxxxx/x...x/x.x.x/x...x", "c3"],
        &["chain", "5x5 xxxxx/x...x/x.#.x/x...x/xxxxx", "c3"],
        &["chain", "0x5", "a1"],
        &[
            "chain",
            "30x2 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/..............................",
            "a2",
        ],
        &["chain", "8/8/8/8/8/8/8/8 w - - 0 1", "e4"],
    ] {
        let output = catena(args);
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
        assert_eq!(
            message.lines().count(),
            1,
            "{args:?}: stderr was {message:?}"
        );
        assert!(message.starts_with("error: "), "{args:?}: {message:?}");
        assert!(!message.contains("panicked"), "{args:?}: {message:?}");
        assert!(
            stdout(&output).is_empty() || args.contains(&"--suite"),
            "{args:?} printed to stdout"
        );
    }
}

/// `catena chain` on a grid: the verdict, size and loop named as squares
/// where the board is narrow enough, as `x,y` where it is not, and a chess
/// diagram without kings.
#[test]
fn the_chain_command_answers_on_grids_and_kingless_boards() {
    let json = |args: &[&str]| {
        let output = catena(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        serde_json::from_str::<serde_json::Value>(&stdout(&output)).unwrap()
    };
    let ring = json(&["chain", "5x5 xxxxx/x...x/x.x.x/x...x/xxxxx", "a1", "--json"]);
    assert_eq!(ring["chain"], true);
    assert_eq!(ring["size"], 8);
    assert!(ring["smallest"].as_array().unwrap().contains(&"a1".into()));
    let wide = "30x3 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/x............................x/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
    let report = json(&["chain", wide, "29,0", "--json"]);
    assert_eq!(report["size"], 28);
    assert!(
        report["enclosed"]
            .as_array()
            .unwrap()
            .contains(&"1,1".into())
    );
    let pocket = json(&["chain", "5x5 xxxxx/x...x/x.x.x/x...x/xxxxx", "c3", "--json"]);
    assert_eq!(
        (&pocket["chain"], &pocket["size"]),
        (&false.into(), &0.into())
    );
    // The spec's first example with its kings taken off: the same chain.
    let kingless = json(&[
        "chain",
        "8/8/8/8/5N2/4P1B1/5P1P/6R1 w - - 0 1",
        "g3",
        "--json",
    ]);
    assert_eq!(
        (&kingless["chain"], &kingless["size"]),
        (&true.into(), &2.into())
    );
    let drawn = stdout(&catena(&["chain", "4x4 xxxx/x..x/x..x/xxxx", "b4"]));
    assert!(drawn.starts_with("4 "), "{drawn}");
    assert_eq!(drawn.matches('+').count(), 4, "{drawn}");
    assert!(drawn.contains("[x]"), "{drawn}");
    assert!(
        drawn.contains("\n   a  b  c  d\n\nchain: yes\nsize: 4\n"),
        "{drawn}"
    );
}

// `catena train`: a real run learns what its data teaches and writes a
// network the engine reads; bad input is refused with its place.

/// Material in centipawns from White's side.
fn material(position: &Position) -> i32 {
    const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];
    Piece::ALL
        .into_iter()
        .map(|piece| {
            VALUES[piece.index()]
                * (position.colored_pieces(Color::White, piece).len() as i32
                    - position.colored_pieces(Color::Black, piece).len() as i32)
        })
        .sum()
}

/// One position from each of many random games, labelled with its material
/// as the score and a result that follows it.
fn material_lessons(lines: usize) -> String {
    let mut random = SplitMix64::new(7);
    let mut text = String::new();
    let mut written = 0;
    while written < lines {
        let mut position = Position::startpos();
        for _ in 0..10 + random.below(70) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position = position.after(moves[random.below(moves.len())]);
        }
        if position.in_check() || position.legal_moves().is_empty() {
            continue;
        }
        let score = material(&position);
        let result = match score {
            s if s > 0 => 1.0,
            s if s < 0 => 0.0,
            _ => 0.5,
        };
        text.push_str(&format!("{} | {result} | {score}\n", position.to_fen()));
        written += 1;
    }
    text
}

/// The errors `catena train` printed for each epoch, held out.
fn held_out_errors(text: &str) -> Vec<f64> {
    text.lines()
        .filter_map(|line| line.split("held-out error ").nth(1))
        .map(|rest| rest.split([' ', ',', '(']).next().unwrap().parse().unwrap())
        .collect()
}

/// Trains on `lines` material lessons with `options`, in `dir`; returns the
/// network file written and the trainer's log, after checking it succeeded.
fn train_on_material(dir: &ScratchDir, lines: usize, options: &[&str]) -> (PathBuf, String) {
    let data = dir.join("material.txt");
    std::fs::write(&data, material_lessons(lines)).unwrap();
    let out = dir.join("network.bin");
    let mut args = vec!["train", data.to_str().unwrap()];
    args.extend(options);
    args.extend(["--out", out.to_str().unwrap()]);
    let output = catena(&args);
    let log = stderr(&output);
    assert!(output.status.success(), "{log}");
    (out, log)
}

#[test]
fn training_learns_material_and_writes_a_network_the_engine_reads() {
    let dir = ScratchDir::new("train-learn");
    let (out, log) = train_on_material(
        &dir,
        4000,
        &["--epochs", "12", "--batch", "128", "--mirror"],
    );
    let errors = held_out_errors(&log);
    // One line per epoch, then the summary of the lowest.
    assert_eq!(errors.len(), 13, "{log}");
    let (first, lowest) = (errors[0], errors[12]);
    assert!(
        lowest < first / 2.0,
        "held-out error fell only from {first} to {lowest}\n{log}"
    );
    assert!(log.contains("cp apart on average"), "{log}");

    let network = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let eval = |fen: &str| {
        let position = Position::from_fen(fen).unwrap();
        let (ours, theirs) = (position.side_to_move(), !position.side_to_move());
        let inputs = |view: Color| {
            let mut inputs = Vec::new();
            catena_engine::eval::network::for_each_feature(&position, view, |input| {
                inputs.push(input as u16)
            });
            inputs
        };
        let men = position.occupied().len() as usize;
        network.evaluate_inputs(&inputs(ours), &inputs(theirs), men)
    };
    let up_a_queen = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let down_a_queen = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(up_a_queen > 300, "a queen up: {up_a_queen}");
    assert!(down_a_queen < -300, "a queen down: {down_a_queen}");

    // No lesson has an SSCC field or a pawn on the first rank: those inputs'
    // rows were never trained, and are written as zero, not as their
    // random start. A board input the lessons use is not.
    let weights = network.to_float();
    let square = |name: &str| name.parse::<Square>().unwrap();
    let row = |input: usize| &weights[input * HIDDEN..][..HIDDEN];
    let untrained = (BOARD_INPUTS..INPUTS).chain([feature(
        Color::White,
        Color::White,
        Piece::Pawn,
        square("a1"),
    )]);
    for input in untrained {
        assert!(row(input).iter().all(|&w| w == 0.0), "input {input}");
    }
    let king_e1 = feature(Color::White, Color::White, Piece::King, square("e1"));
    assert!(row(king_e1).iter().any(|&w| w != 0.0));
}

#[test]
fn fine_tuning_starts_from_the_given_network() {
    let dir = ScratchDir::new("train-init");
    let engine_network = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/engine/src/eval/network.bin"
    );
    // At a learning rate of zero no epoch can beat the starting point, so the
    // network written is the one read, through floating point and back.
    let (out, log) = train_on_material(
        &dir,
        1000,
        &["--init", engine_network, "--epochs", "1", "--rate", "0"],
    );
    let errors = held_out_errors(&log);
    // Epoch 0 (the starting network), epoch 1, then the summary of the lowest.
    assert_eq!(errors.len(), 3, "{log}");
    assert_eq!(errors[0], errors[2], "{log}");
    assert!(log.contains("(epoch 0)"), "{log}");
    // The same weights, written in the present format (the engine's file
    // may predate the SSCC inputs).
    let read = |path: &std::path::Path| Network::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        read(engine_network.as_ref()).to_bytes()
    );

    // `--epochs 0` measures the same epoch 0 and writes nothing.
    std::fs::remove_file(&out).unwrap();
    let data = dir.join("material.txt");
    let output = catena(&[
        "train",
        data.to_str().unwrap(),
        "--init",
        engine_network,
        "--epochs",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    let measured = stderr(&output);
    assert!(output.status.success(), "{measured}");
    assert_eq!(held_out_errors(&measured), [errors[0]], "{measured}");
    assert!(!out.exists());
}

#[test]
fn bad_training_input_is_refused_with_its_place() {
    let dir = ScratchDir::new("train-bad");
    let data = dir.join("bad.txt");
    let good = format!("{} | 0.5 | 10\n", Position::START_FEN);
    std::fs::write(&data, format!("{good}{good}not a fen | 1 | 0\n")).unwrap();
    let out = dir.join("never.bin");
    let run = |args: &[&str]| {
        let output = catena(args);
        assert!(!output.status.success());
        assert!(!out.exists(), "a failed run wrote a network");
        stderr(&output)
    };
    let path = data.to_str().unwrap();
    let out_path = out.to_str().unwrap();

    let message = run(&["train", path, "--out", out_path]);
    assert!(message.contains("bad.txt:3:"), "{message}");

    std::fs::write(&data, format!("{good}{} | 1\n", Position::START_FEN)).unwrap();
    let message = run(&["train", path, "--out", out_path]);
    assert!(message.contains("bad.txt:2: expected"), "{message}");

    // More moves handing over a run than there are moves.
    let probed = format!("{} | 1 | 0 | 0 0 | 21 20\n", Position::START_FEN);
    std::fs::write(&data, format!("{good}{probed}")).unwrap();
    let message = run(&["train", path, "--out", out_path]);
    assert!(message.contains("bad.txt:2: bad probe"), "{message}");

    let message = run(&["train", "/no/such/file.txt", "--out", out_path]);
    assert!(
        message.contains("cannot read /no/such/file.txt"),
        "{message}"
    );

    let message = run(&["train", path, "--result-weight", "2", "--out", out_path]);
    assert!(message.contains("--result-weight"), "{message}");
    let message = run(&["train", path, "--probe-weight", "1.5", "--out", out_path]);
    assert!(message.contains("--probe-weight"), "{message}");
    let message = run(&["train", path, "--epochs", "0", "--out", out_path]);
    assert!(message.contains("--init"), "{message}");

    std::fs::write(&data, good.repeat(40)).unwrap();
    let message = run(&["train", path, "--init", path, "--out", out_path]);
    assert!(message.contains("not a Catena network"), "{message}");

    std::fs::write(&data, good).unwrap();
    let message = run(&["train", path, "--out", out_path]);
    assert!(message.contains("too few"), "{message}");
}

/// Bad input to every command: one line on stderr naming what is wrong,
/// nothing on stdout, exit status 2, as clap gives for its own errors.
#[test]
fn every_command_refuses_bad_input_with_status_2() {
    let dir = ScratchDir::new("cli-status-2");
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().unwrap();
    let no_dir = dir.join("no-such-dir/out.txt");
    let no_dir = no_dir.to_str().unwrap();
    let data = dir.join("data.txt");
    std::fs::write(&data, "not a fen | 1 | 0\n").unwrap();
    let data = data.to_str().unwrap();
    // A port taken by this test, which `catena gui` cannot serve on.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    for (args, expected) in [
        (&["perft", "3", "--fen", "8/8/8/8 w - - 0 1"][..], "bad FEN"),
        (&["perft", "--suite", missing], "cannot read"),
        (&["perft", "3", "--rule", "moves"], "--variant"),
        (
            &["perft", "3", "--variant", "sscc", "--no-bulk"],
            "--no-bulk",
        ),
        (
            &["perft", "3", "--sscc", "--variant", "chess"],
            "cannot be used",
        ),
        (
            &["chain", Position::START_FEN, "z9"],
            "z9 is off the 8x8 board",
        ),
        (&["chain", "5x5 xxxxx/x...x", "c3"], "bad grid"),
        (&["chain", "--suite", missing], "cannot read"),
        (
            &[
                "chain",
                "5x5 xxxxx/x...x/x.x.x/x...x/xxxxx",
                "c3",
                "--min-enclosed",
                "17",
            ],
            "17",
        ),
        (&["match", "Catena", "Nope"], "no engine 'Nope'"),
        (
            &["match", "--engines", missing],
            "cannot read the engine list",
        ),
        (&["match", "--variant", "shogi"], "shogi"),
        (&["match", "--pgn", no_dir], "cannot open"),
        (&["play", "--engine", "Nope"], "no engine 'Nope'"),
        (
            &["play", "--engine", "Catena", "--engines", missing],
            "cannot read the engine list",
        ),
        (
            &["gui", "--engines", missing],
            "cannot read the engine list",
        ),
        (&["gui", "--port", &port], "cannot serve on"),
        (&["gui", "--port", "65536"], "65536"),
        (&["train", missing, "--out", no_dir], "cannot read"),
        (&["train", data, "--out", no_dir], "data.txt:1:"),
        (&["datagen", no_dir, "--games", "1"], "cannot open"),
        (
            &["datagen", missing, "--rule", "sometimes"],
            "not a switch rule",
        ),
        (&["solve", "not a fen"], "bad FEN"),
        (&["book", "--epd", missing, "--out", no_dir], "cannot read"),
        (&["book", "--epd", data, "--out", no_dir], "cannot write"),
        (
            &["book", "--epd", data, "--out", no_dir, "--seconds", "0"],
            "not a number of seconds",
        ),
        (&["solve", "--variant", "chess", "--sscc"], "cannot be used"),
        (
            &["puzzles", "--plies", "3", "--min-plies", "4"],
            "--min-plies 4 is above --plies 3",
        ),
        (&["puzzles", "--out", no_dir], "cannot write"),
        (&["bench", "0"], "0"),
        (&["bench", "sscc", "--depth", "0"], "0"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_catena"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs");
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
        assert_eq!(message.lines().count(), 1, "{args:?}: {message:?}");
        assert!(message.starts_with("error: "), "{args:?}: {message:?}");
        assert!(message.contains(expected), "{args:?}: {message:?}");
        assert!(stdout(&output).is_empty(), "{args:?} printed to stdout");
    }
    drop(taken);
}

/// `--sscc` is `--variant sscc` wherever a command takes a variant, and the
/// defaults stay: perft counts chess, solve plays SSCC.
#[test]
fn sscc_is_short_for_variant_sscc() {
    let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1";
    for args in [
        &["perft", "2", "--fen", fen, "--sscc"][..],
        &["perft", "2", "--fen", fen, "--variant", "sscc"],
        &["solve", fen, "--plies", "1", "--sscc"],
        &["solve", fen, "--plies", "1", "--variant", "chess"],
    ] {
        let output = catena(args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    }
    let help = stdout(&catena(&["perft", "--help"]));
    assert!(help.contains("[default: chess]"), "{help}");
    let help = stdout(&catena(&["solve", "--help"]));
    assert!(
        help.contains("[default: sscc]") && help.contains("1 to 16"),
        "{help}"
    );
}

/// `catena solve` answers a position of the built-in book from it (no
/// nodes), as solving it gives: a win with its length and first action
/// within a bound at least its length, none within a shorter one.
#[test]
fn solve_answers_from_the_book_as_the_solver_does() {
    use catena_engine::book::{Book, Verdict};
    let record = Book::built_in()
        .wins()
        .filter(|record| record.rules == catena_core::game::Rules::default())
        .min_by_key(|record| match record.verdict {
            Verdict::Win { plies, .. } => plies,
            _ => u32::MAX,
        })
        .expect("the book has a win");
    let Verdict::Win { plies, line } = &record.verdict else {
        unreachable!("wins only");
    };
    let result = |args: &[&str]| {
        let output = catena(args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stdout(&output);
        text.lines().last().expect("a result line").to_string()
    };
    let bound = plies.to_string();
    let booked = result(&["solve", &record.fen, "--plies", &bound]);
    let solved = result(&["solve", &record.fen, "--plies", &bound, "--no-book"]);
    let fields = |line: &str| line.split(" nodes ").next().unwrap().to_string();
    assert_eq!(fields(&booked), fields(&solved));
    assert!(booked.starts_with(&format!("result win first {} plies {plies}", line[0])));
    assert!(booked.contains(" nodes 0 "), "{booked}");
    let shorter = (plies - 1).to_string();
    let booked = result(&["solve", &record.fen, "--plies", &shorter]);
    assert!(booked.starts_with("result none first 0000"), "{booked}");
}
