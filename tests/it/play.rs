//! `catena play` driven as a person drives it: the real binary, a line at a
//! time through stdin, reading its answers up to the next prompt.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::common::scratch::ScratchDir;
use catena_core::board::{Move, Position, san};
use catena_core::game::pgn;

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
        self.type_bytes(line.as_bytes())
    }

    fn type_bytes(&mut self, line: &[u8]) -> String {
        self.stdin
            .write_all(line)
            .expect("catena play reads its input");
        self.stdin.write_all(b"\n").unwrap();
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

/// Loads `fen` from a file and returns the answer.
fn load_fen(terminal: &mut Terminal, test: &str, fen: &str) -> String {
    let dir = ScratchDir::new(&format!("play-{test}"));
    let path = dir.join("position.fen");
    std::fs::write(&path, format!("{fen}\n")).unwrap();
    let answer = terminal.expect(&format!("load {}", path.display()), "Loaded ");
    assert_eq!(last_position(&answer).to_fen(), fen);
    answer
}

#[test]
fn every_invalid_input_is_explained_and_the_game_goes_on() {
    let (mut terminal, greeting) = Terminal::start(&["--depth", "2"]);
    assert_eq!(last_position(&greeting).to_fen(), START);
    assert_eq!(prompt(&greeting), "White to move> ");
    let at_start = [
        // Not a move at all.
        ("xyzzy", "'xyzzy' is not a move or a command"),
        ("e2e4 e7e5", "'e2e4 e7e5' is not a move or a command"),
        ("e9", "'e9' is not a move or a command"),
        // No piece there.
        ("e3e4", "there is no white piece on e3"),
        ("e7e5", "there is no white piece on e7"),
        ("Bxh7", "Bxh7: that piece cannot move there"),
        // That piece cannot move there.
        ("g1g3", "the white knight on g1 cannot move to g3"),
        ("Ng3", "Ng3: that piece cannot move there"),
        ("e5", "e5: that piece cannot move there"),
        ("e1g1", "the white king on e1 cannot move to g1"),
        (
            "O-O",
            "O-O: cannot castle while pieces stand between the king and the rook",
        ),
        ("e2e4q", "the white pawn on e2 does not promote on e4"),
        // No chain, so no switch.
        (
            "e2e4 switch",
            "e4 closes no chain, so you cannot switch after it",
        ),
        (
            "Nf3 switch",
            "Nf3 closes no chain, so you cannot switch after it",
        ),
        // Commands without their argument, and nothing to take back.
        ("save", "save needs a file name: save FILE"),
        ("load", "load needs a file name: load FILE"),
        ("undo", "there is no move of yours to take back"),
        (
            "load /nonexistent/file.pgn",
            "cannot read /nonexistent/file.pgn",
        ),
    ];
    for (line, message) in at_start {
        let answer = terminal.expect(line, message);
        // Nothing was played: one line of explanation, then the same prompt.
        assert_eq!(answer.lines().count(), 2, "after '{line}': {answer}");
        assert_eq!(prompt(&answer), "White to move> ", "after '{line}'");
    }

    let answer = terminal.type_bytes(b"e2\xffe4");
    assert_eq!(
        answer,
        "'e2\u{fffd}e4' is not a move or a command: type a move in SAN (e4, Nf3, O-O, e8=Q) \
         or UCI (e2e4, g1f3, e7e8q), or 'help'\nWhite to move> "
    );

    // It leaves your king in check: the knight on e2 is pinned, d2 is attacked.
    let pinned = "4r1k1/8/8/8/8/1n6/4N3/4K3 w - - 0 1";
    load_fen(&mut terminal, "invalid", pinned);
    for (line, message) in [
        (
            "e2c3",
            "that leaves your king in check (the white knight on e2 cannot move to c3)",
        ),
        ("Nc3", "Nc3: that move would leave your king in check"),
        ("e1d2", "that leaves your king in check: d2 is attacked"),
        ("Kd2", "Kd2: that move would leave your king in check"),
    ] {
        let answer = terminal.expect(line, message);
        assert_eq!(answer.lines().count(), 2, "after '{line}': {answer}");
    }
    let dir = ScratchDir::new("play-invalid");
    let garbage = dir.join("garbage.fen");
    std::fs::write(&garbage, "not a position\n").unwrap();
    terminal.expect(
        &format!("load {}", garbage.display()),
        "not a PGN game, and not a FEN position",
    );
    terminal.quit();
}

#[test]
fn a_switch_over_the_limit_is_refused() {
    // Under rule `moves` a run that starts at move 1 allows one switch. White's
    // d3 closes b2-c3-d3-e2-d1-c1, and Black's d6 the mirror image.
    let (mut terminal, _) = Terminal::start(&["--depth", "2", "--rule", "moves"]);
    let fen = "rnbqkbnr/pp1ppppp/2p5/8/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 1";
    load_fen(&mut terminal, "limit", fen);
    let answer = terminal.expect(
        "d3 switch",
        "You switch sides: you play Black, Catena plays White.",
    );
    assert_eq!(
        prompt(&answer),
        "Black to move (1 switch in a row, limit 1)> "
    );
    let refused = "switch limit reached: this run of switches allows 1 and you have made 1";
    let answer = terminal.expect("d6 switch", refused);
    assert_eq!(answer.lines().count(), 2, "{answer}");
    // Without asking for the switch, the move is played and the limit said.
    let answer = terminal.expect("d7d6", &format!("{refused}: no switch"));
    assert!(!answer.contains("Switch sides and move again"), "{answer}");
    assert!(answer.contains("Catena plays 2. "), "{answer}");
    terminal.quit();
}

#[test]
fn a_chain_offers_a_switch_and_the_switcher_moves_again() {
    let (mut terminal, _) = Terminal::start(&["--depth", "2"]);
    let answer = terminal.type_line("c3");
    let reply = last_position(&answer);
    assert_eq!(prompt(&answer), "White to move> ");
    // 2.d3 closes b2-c3-d3-e2-d1-c1 around c2 and d2 whatever Black replied.
    let answer = terminal.expect("d3", "Switch sides and move again with Black? [y/n]");
    assert!(
        answer.contains(
            "Last move: 2. d3, closing the chain d3 e2 d1 c1 b2 c3 around c2 d2 (chain size 2)"
        ),
        "{answer}"
    );
    assert!(
        answer.contains("3  .  . [P][P] .  .  .  . \n2  P [P] +  + [P]"),
        "the chain is drawn:\n{answer}"
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
        let mv = move_between(&pair[0], &pair[1]).expect("the engine's moves are legal");
        assert!(answer.contains(&san::format(&pair[0], mv)), "{answer}");
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
fn the_engine_switches_and_moves_again() {
    // Black to move can close b7-c6-d6-e7-d8-c8 with ...d6; switching hands
    // it White, which mates with Rf8.
    let (mut terminal, _) = Terminal::start(&["--depth", "3"]);
    let dir = ScratchDir::new("play-engine-switch");
    let path = dir.join("position.fen");
    std::fs::write(&path, "2bn3k/1p1pp1pp/2p5/8/8/8/6PP/5RK1 b - - 0 1\n").unwrap();
    let answer = terminal.type_line(&format!("load {}", path.display()));
    let switch_line = "Catena plays 1... d6 and switches sides: you play Black, Catena plays White";
    assert!(answer.contains(switch_line), "{answer}");
    assert!(answer.contains("Catena plays 2. Rf8#\n"), "{answer}");
    assert!(
        answer.contains("Game over: 1-0 (White mates). Catena wins."),
        "{answer}"
    );
    assert_eq!(prompt(&answer), "game over> ");
    terminal.expect("h6", "the game is over (1-0, White mates)");
    terminal.quit();
}

#[test]
fn undo_takes_back_the_players_move_and_the_engines_reply() {
    let (mut terminal, _) = Terminal::start(&["--depth", "2"]);
    terminal.type_line("e4");
    let answer = terminal.type_line("Nf3");
    let after_two = last_position(&answer);
    let answer = terminal.expect("undo", "Taken back: 2. Nf3, 2... ");
    let back = last_position(&answer);
    assert_eq!(back.fullmove_number(), 2);
    assert_eq!(move_between(&back, &after_two), None);
    assert!(back.piece_on("g1".parse().unwrap()).is_some());
    assert_eq!(prompt(&answer), "White to move> ");
    terminal.expect("undo", "Taken back: 1. e4, 1... ");
    terminal.expect("undo", "there is no move of yours to take back");
    terminal.quit();
}

/// A game that ended off the board (here White lost on time) loads as
/// over: no move can be played on, and saved again it keeps its result
/// instead of becoming `*`.
#[test]
fn a_loaded_game_lost_on_time_stays_over_and_keeps_its_result() {
    let (mut terminal, _) = Terminal::start(&["--depth", "2"]);
    let dir = ScratchDir::new("play-forfeit");
    let path = dir.join("forfeit.pgn");
    std::fs::write(
        &path,
        "[Event \"?\"]\n[White \"Human\"]\n[Black \"Catena\"]\n[Result \"0-1\"]\n\n\
         1. e4 e5 {White loses on time} 0-1\n",
    )
    .unwrap();
    let answer = terminal.expect(&format!("load {}", path.display()), "Loaded ");
    assert!(
        answer.contains("Game over: 0-1 (White loses on time)"),
        "{answer}"
    );
    terminal.expect("Nf3", "the game is over (0-1, White loses on time)");
    terminal.expect("undo", "the game was decided off the board");
    let saved = dir.join("saved.pgn");
    terminal.expect(&format!("save {}", saved.display()), "Saved the game to ");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("{White loses on time} 0-1"), "{text}");
    terminal.quit();
}

#[test]
fn a_saved_game_loads_back_as_it_was() {
    let (mut terminal, _) = Terminal::start(&["--depth", "2"]);
    // 1.c3 and 2.d3 close a chain whatever Black does; we switch and play Black's first move.
    terminal.type_line("c3");
    let text = terminal.type_line("d3");
    let before_switch = last_position(&text);
    terminal.expect("y", "You switch sides");
    let ours = before_switch.legal_moves()[0];
    let text = terminal.type_line(&san::format(&before_switch, ours));
    let saved_at = last_position(&text);
    let dir = ScratchDir::new("play-round-trip");
    let saved = dir.join("game.pgn");
    terminal.expect(&format!("save {}", saved.display()), "Saved the game to ");

    let pgn_text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        pgn_text.contains("[White \"Human\"]\n[Black \"Catena\"]"),
        "{pgn_text}"
    );
    assert!(
        pgn_text.contains("[SSCC \"SwitchRule=chain;MinEnclosed=2\"]"),
        "{pgn_text}"
    );
    assert!(pgn_text.contains(" 2. d3 {switch} 2... "), "{pgn_text}");
    let record = pgn::read(&pgn_text).unwrap();
    assert_eq!(record.game.position().key(), saved_at.key());
    assert_eq!(
        record
            .game
            .plies()
            .iter()
            .filter(|ply| ply.switched)
            .count(),
        1 + text.matches(" and switches sides: ").count()
    );
    let human = record.tag("WhiteAtEnd").unwrap();
    assert_eq!(
        prompt(&text),
        if human == "Human" {
            "White to move> "
        } else {
            "Black to move> "
        }
    );

    terminal.expect("new", "You play White, Catena plays Black.");
    let answer = terminal.expect(&format!("load {}", saved.display()), "Loaded ");
    assert_eq!(last_position(&answer).key(), saved_at.key());
    assert_eq!(prompt(&answer), prompt(&text));
    let resaved = dir.join("again.pgn");
    terminal.expect(&format!("save {}", resaved.display()), "Saved the game to ");
    assert_eq!(std::fs::read_to_string(&resaved).unwrap(), pgn_text);
    terminal.quit();
}

/// Plays the first legal move, in SAN, in every position, which loses soon,
/// until the game ends.
#[test]
fn a_full_game_against_the_engine() {
    let (mut terminal, greeting) = Terminal::start(&["--depth", "3", "--color", "black"]);
    let mut shown = positions(&greeting);
    let mut text = greeting;
    let mut moves = 0;
    while !text.contains("Game over") {
        assert!(moves < 150, "no end after {moves} moves");
        let position = last_position(&text);
        let mv = position.legal_moves()[0];
        text = terminal.type_line(&san::format(&position, mv));
        if prompt(&text) == "switch?> " {
            text = terminal.type_line("n");
        }
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
    if text.contains("mates)") {
        assert!(end.in_check() && !end.has_legal_move());
    }
    assert_eq!(prompt(&text), "game over> ");
    // The saved record replays to the same end and result.
    let dir = ScratchDir::new("play-full-game");
    let saved = dir.join("game.pgn");
    terminal.expect(&format!("save {}", saved.display()), "Saved the game to ");
    let record = pgn::read(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(record.game.position().key(), end.key());
    let outcome = record
        .game
        .outcome()
        .expect("the game is over on the board");
    assert_eq!(record.result.as_str(), outcome.result());
    assert!(
        text.contains(&format!("Game over: {} (", outcome.result())),
        "{text}"
    );
    terminal.expect("e4", "the game is over");
    terminal.quit();
}

/// An engine list with Catena at depth 2 and the faulty engine of
/// `tests/fake_engines/faulty.sh` sending an illegal move at its second `go`,
/// written to `dir`.
fn engine_list(dir: &Path) -> PathBuf {
    let catena = env!("CARGO_BIN_EXE_catena");
    let faulty = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/faulty.sh");
    let entry = |name: &str, command: String| {
        format!(
            r#"{{"name": "{name}", "command": {command:?}, "workingDirectory": ".", "protocol": "uci", "depth": 2}}"#
        )
    };
    let path = dir.join("engines.json");
    let list = [
        entry("Catena-d2", format!("\"{catena}\"")),
        entry("Faulty", format!("sh \"{faulty}\" illegal 2 \"{catena}\"")),
        entry("Missing", "\"/nonexistent/catena-engine\"".to_string()),
    ];
    std::fs::write(&path, format!("[{}]", list.join(",\n"))).unwrap();
    path
}

#[test]
fn an_engine_of_the_list_plays_through_uci_switches_included() {
    let dir = ScratchDir::new("play-uci-engine");
    let list = engine_list(&dir);
    let args = ["--engine", "Catena-d2", "--engines", list.to_str().unwrap()];
    let (mut terminal, greeting) = Terminal::start(&args);
    assert!(greeting.contains("against Catena-d2"), "{greeting}");
    terminal.expect("c3", "Catena-d2 plays 1... ");
    let text = terminal.type_line("d3");
    let before_switch = last_position(&text);
    terminal.expect(
        "y",
        "You switch sides: you play Black, Catena-d2 plays White.",
    );
    // The engine now gets `position startpos moves c2c3 … d2d3 switch …` and answers with White.
    let ours = before_switch.legal_moves()[0];
    let answer = terminal.expect(&ours.to_string(), "Catena-d2 plays 3. ");
    let shown = positions(&answer);
    assert_eq!(shown[0].key(), before_switch.after(ours).key());
    for pair in shown.windows(2) {
        assert!(move_between(&pair[0], &pair[1]).is_some(), "{answer}");
    }
    terminal.quit();
}

#[test]
fn an_engine_that_fails_is_reported_and_restarted() {
    let dir = ScratchDir::new("play-faulty-engine");
    let list = engine_list(&dir);
    let args = ["--engine", "Faulty", "--engines", list.to_str().unwrap()];
    let (mut terminal, _) = Terminal::start(&args);
    terminal.expect("e4", "Faulty plays 1... ");
    let answer = terminal.expect("Nf3", "Faulty could not move: it sent the illegal move ");
    assert!(
        answer.ends_with("Type undo, new, load FILE or quit.\nBlack to move> "),
        "{answer}"
    );
    terminal.expect("e5", "it is Faulty's turn, but it could not move");
    terminal.expect("undo", "Taken back: 2. Nf3");
    // A fresh process answers its first `go` properly.
    terminal.expect("Nf3", "Faulty plays 2... ");
    terminal.quit();
}

/// An engine that cannot start blocks only its own turns: the person, on
/// move, still plays, and the engine is tried again at its turn.
#[test]
fn an_engine_that_cannot_start_leaves_the_person_their_move() {
    let dir = ScratchDir::new("play-missing-engine");
    let list = engine_list(&dir);
    let args = ["--engine", "Missing", "--engines", list.to_str().unwrap()];
    let (mut terminal, _) = Terminal::start(&args);
    let answer = terminal.expect("e4", "You play 1. e4");
    assert!(
        answer.contains("Missing could not move: cannot run"),
        "{answer}"
    );
    terminal.expect("e5", "it is Missing's turn, but it could not move");
    terminal.quit();
}

#[test]
fn an_unknown_engine_is_named_in_one_line() {
    let dir = ScratchDir::new("play-unknown-engine");
    let list = engine_list(&dir);
    let output = Command::new(env!("CARGO_BIN_EXE_catena"))
        .args([
            "play",
            "--engine",
            "Nobody",
            "--engines",
            list.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no engine 'Nobody' in ")
            && stderr.contains("(it has: Catena-d2, Faulty, Missing)"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn clocks_run_and_a_flag_falls() {
    let (mut terminal, greeting) = Terminal::start(&["--tc", "1+0", "--depth", "1"]);
    assert!(greeting.contains("time control 1."), "{greeting}");
    assert!(
        greeting.contains("\nClocks: White 0:01.0, Black 0:01.0\n"),
        "{greeting}"
    );
    std::thread::sleep(Duration::from_millis(1300));
    let answer = terminal.expect("e4", "Game over: 0-1 (White loses on time). Catena wins.");
    assert_eq!(answer.lines().count(), 2, "{answer}");
    assert_eq!(prompt(&answer), "game over> ");
    terminal.expect("undo", "the game was lost on time");
    let dir = ScratchDir::new("play-flag");
    let saved = dir.join("game.pgn");
    terminal.expect(&format!("save {}", saved.display()), "Saved the game to ");
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("[Result \"0-1\"]") && text.contains("[TimeControl \"1\"]"),
        "{text}"
    );
    // The move came after the flag fell: it was not played.
    assert!(
        text.ends_with("\n\n{White loses on time} 0-1\n\n"),
        "{text}"
    );
    terminal.quit();
}

#[test]
fn a_time_per_move_binds_only_the_engine() {
    let (mut terminal, _) = Terminal::start(&["--tc", "st=0.2", "--depth", "1"]);
    std::thread::sleep(Duration::from_millis(400));
    terminal.type_line("c3");
    std::thread::sleep(Duration::from_millis(400));
    terminal.expect("d3", "Switch sides and move again with Black? [y/n]");
    std::thread::sleep(Duration::from_millis(400));
    let answer = terminal.expect("y", "You switch sides");
    assert!(!answer.contains("Game over"), "{answer}");
    assert_eq!(
        prompt(&answer),
        "Black to move (1 switch in a row, limit 2)> "
    );
    terminal.quit();
}
