//! The UCI engine driven as a GUI drives it: the real binary over stdin
//! and stdout, for the tests of `tests/it/uci.rs` and `tests/it/syzygy.rs`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The engine binary, its stdin, and its stdout's lines as they come.
pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

/// How long a test waits for an answer.
pub const PATIENCE: Duration = Duration::from_secs(30);

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(Command::new(env!("CARGO_BIN_EXE_catena")))
    }

    /// The engine as `command` starts it (a shell that limits it first, say).
    pub fn start_with(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one starting with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' within {PATIENCE:?}; saw {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine exited before '{prefix}'; saw {seen:#?}")
                }
            }
        }
    }

    pub fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        (lines.last().unwrap().clone(), lines)
    }

    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok")
    }

    /// The FEN that `d` shows for the engine's position.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until("Checkers");
        let fen = lines.iter().find_map(|line| line.strip_prefix("Fen: "));
        fen.unwrap_or_else(|| panic!("no Fen line: {lines:#?}"))
            .to_string()
    }

    /// Sends `quit` and checks that the engine exits cleanly.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
