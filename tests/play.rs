//! `catena play` driven as a person drives it: the real binary, a line at a
//! time through stdin, reading its answers up to the next prompt.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use catena::board::{Move, Position, attacks};

const PATIENCE: Duration = Duration::from_secs(60);

/// A `catena play` session.
struct Terminal {
    child: Child,
    stdin: ChildStdin,
    output: Receiver<String>,
    /// Everything printed so far that no answer has taken yet.
    pending: String,
}

impl Terminal {
    /// Starts `catena play ARGS` and returns it with its text up to the first prompt.
    fn start(args: &[&str]) -> (Terminal, String) {
        attacks::init();
        let mut child = Command::new(env!("CARGO_BIN_EXE_catena"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("catena play starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (sender, output) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(read @ 1..) = stdout.read(&mut buffer) {
                let text = String::from_utf8_lossy(&buffer[..read]).into_owned();
                if sender.send(text).is_err() {
                    break;
                }
            }
        });
        let mut terminal = Terminal {
            child,
            stdin,
            output,
            pending: String::new(),
        };
        let greeting = terminal.until_prompt();
        (terminal, greeting)
    }

    /// The text printed until the program waits for input again (a prompt
    /// ends with "> ") or exits.
    fn until_prompt(&mut self) -> String {
        let deadline = Instant::now() + PATIENCE;
        while !self.pending.ends_with("> ") {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(text) => self.pending.push_str(&text),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no prompt within {PATIENCE:?}; saw {}", self.pending)
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        std::mem::take(&mut self.pending)
    }

    /// Types `line` and returns the answer, up to and including the next prompt.
    fn type_line(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").expect("catena play reads its input");
        self.stdin.flush().unwrap();
        self.until_prompt()
    }

    /// Types `line` and checks that the answer contains `expected`.
    fn expect(&mut self, line: &str, expected: &str) -> String {
        let answer = self.type_line(line);
        assert!(
            answer.contains(expected),
            "'{line}' should be answered with '{expected}', got:\n{answer}"
        );
        answer
    }

    /// Quits and checks that the program ends well.
    fn quit(mut self) {
        let goodbye = self.type_line("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit {status}; last words: {goodbye}");
    }
}

/// The last position the text shows (its last `FEN:` line).
fn last_position(text: &str) -> Position {
    let fen = text
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("FEN: "))
        .unwrap_or_else(|| panic!("no FEN in:\n{text}"));
    Position::from_fen(fen).unwrap()
}

/// Every position the text shows, in order.
fn positions(text: &str) -> Vec<Position> {
    text.lines()
        .filter_map(|line| line.strip_prefix("FEN: "))
        .map(|fen| Position::from_fen(fen).unwrap())
        .collect()
}

/// The last line: the prompt.
fn prompt(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

/// The board move that leads from `before` to `after`, if one does.
fn move_between(before: &Position, after: &Position) -> Option<Move> {
    before
        .legal_moves()
        .into_iter()
        .find(|&mv| before.after(mv).key() == after.key())
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn every_invalid_input_is_explained_and_the_game_goes_on() {
    let (mut terminal, greeting) = Terminal::start(&["--depth", "2"]);
    assert_eq!(last_position(&greeting).to_fen(), START);
    assert_eq!(prompt(&greeting), "White to move> ");
    let cases = [
        ("xyzzy", "'xyzzy' is not a move or a command"),
        ("e2e4 e7e5", "'e2e4 e7e5' is not a move or a command"),
        ("e3e4", "there is no white piece on e3"),
        ("e7e5", "there is no white piece on e7"),
        ("g1g3", "the white knight on g1 cannot move to g3"),
        ("e1g1", "the white king on e1 cannot move to g1"),
        ("e2e4q", "the white pawn on e2 does not promote on e4"),
        (
            "e2e4 switch",
            "e2e4 closes no chain, so you cannot switch after it",
        ),
        ("save", "save needs a file name: save FILE"),
        ("load", "load needs a file name: load FILE"),
        ("undo", "there is no move of yours to take back"),
    ];
    for (line, message) in cases {
        let answer = terminal.expect(line, message);
        // Nothing was played: one line of explanation, then the same prompt.
        assert_eq!(answer.lines().count(), 2, "after '{line}': {answer}");
        assert_eq!(prompt(&answer), "White to move> ", "after '{line}'");
    }
    terminal.quit();
}

#[test]
fn a_chain_offers_a_switch_and_the_switcher_moves_again() {
    let (mut terminal, _) = Terminal::start(&["--depth", "2"]);
    let answer = terminal.type_line("c2c3");
    let reply = last_position(&answer);
    assert_eq!(prompt(&answer), "White to move> ");
    // 2.d3 closes b2-c3-d3-e2-d1-c1 around c2 and d2 whatever Black replied.
    let answer = terminal.expect("d2d3", "Switch sides and move again with Black? [y/n]");
    assert!(answer.contains("around c2 d2 (chain size 2)"), "{answer}");
    assert!(
        answer.contains(" +  + "),
        "the enclosed squares are drawn:\n{answer}"
    );
    assert_eq!(prompt(&answer), "switch?> ");
    terminal.expect(
        "maybe",
        "answer y to switch sides and move again, or n to stay\nswitch?> ",
    );
    let after_d3 = reply.after(reply.parse_move("d2d3").unwrap());
    assert_eq!(last_position(&answer).key(), after_d3.key());
    let answer = terminal.expect("y", "You switch sides: you play Black, Catena plays White.");
    assert_eq!(
        prompt(&answer),
        "Black to move (1 switch in a row, limit 2)> "
    );

    // Now Black is ours: play its first legal move. The engine answers with
    // White, and moves again after every switch it makes.
    let ours = after_d3.legal_moves()[0];
    let answer = terminal.type_line(&ours.to_string());
    let shown = positions(&answer);
    assert_eq!(shown[0].key(), after_d3.after(ours).key());
    for pair in shown.windows(2) {
        assert!(move_between(&pair[0], &pair[1]).is_some(), "{answer}");
    }
    let engine_moves = answer
        .lines()
        .filter(|line| line.starts_with("Catena plays "))
        .count();
    let engine_switches = answer.matches(" and switches sides: ").count();
    assert_eq!(engine_moves, shown.len() - 1, "{answer}");
    assert_eq!(engine_moves, engine_switches + 1, "{answer}");
    assert!(answer.contains("Catena plays 3. "), "{answer}");
    // We control the colour to move again: Black unless the engine switched an odd number of times.
    let expected = if engine_switches % 2 == 0 {
        "Black"
    } else {
        "White"
    };
    assert_eq!(prompt(&answer), format!("{expected} to move> "), "{answer}");
    terminal.quit();
}

#[test]
fn undo_takes_back_the_players_move_and_the_engines_reply() {
    let (mut terminal, _) = Terminal::start(&["--depth", "2"]);
    terminal.type_line("e2e4");
    let answer = terminal.type_line("g1f3");
    let after_two = last_position(&answer);
    let answer = terminal.expect("undo", "Taken back: 2. g1f3, 2... ");
    let back = last_position(&answer);
    assert_eq!(back.fullmove_number(), 2);
    assert_eq!(move_between(&back, &after_two.clone()), None);
    assert!(back.piece_on("g1".parse().unwrap()).is_some());
    assert_eq!(prompt(&answer), "White to move> ");
    terminal.expect("undo", "Taken back: 1. e2e4, 1... ");
    terminal.expect("undo", "there is no move of yours to take back");
    terminal.quit();
}

/// Plays the first legal move in every position, which loses soon, until the game ends.
#[test]
fn a_full_game_against_the_engine() {
    let (mut terminal, greeting) = Terminal::start(&["--depth", "3", "--color", "black"]);
    let mut shown = positions(&greeting);
    let mut text = greeting;
    let mut moves = 0;
    while !text.contains("Game over") {
        assert!(moves < 150, "no end after {moves} moves");
        let mv = last_position(&text).legal_moves()[0];
        text = terminal.type_line(&mv.to_string());
        shown.extend(positions(&text));
        moves += 1;
    }
    // Every board shown follows from the one before by a legal move.
    for pair in shown.windows(2) {
        assert!(
            move_between(&pair[0], &pair[1]).is_some(),
            "{} cannot follow {}",
            pair[1].to_fen(),
            pair[0].to_fen()
        );
    }
    let end = shown.last().unwrap();
    assert!(text.contains("Game over: "), "{text}");
    if text.contains("by checkmate") {
        assert!(end.in_check() && !end.has_legal_move());
    }
    assert_eq!(prompt(&text), "game over> ");
    terminal.expect("e2e4", "the game is over");
    terminal.quit();
}
