//! The command line: real runs of the binary, good and bad input.

use std::process::{Command, Output};

fn catena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_catena"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
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
    let dir = std::env::temp_dir().join(format!("catena-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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

    let output = catena(&["perft", "--suite", bad.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(stdout(&output).contains("D2 MISMATCH expected 67 counted 66"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_gives_one_line_on_stderr_and_a_failing_exit() {
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
        &["perft", "3", "--threads", "0"],
        &["perft", "--suite", "/nonexistent/suite.epd"],
        &["perft", "--suite", "Cargo.toml"],
        &["perft", "3", "--suite", "perft/chess.epd"],
        &["no-such-command"],
    ] {
        let output = catena(args);
        let message = stderr(&output);
        assert!(!output.status.success(), "{args:?} succeeded");
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
