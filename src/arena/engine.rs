//! A UCI engine in a child process, spoken to with deadlines: whatever the
//! engine does (exits, hangs, prints anything), every call returns in time.

use catena_core::game::Variant;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use super::EngineSpec;

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// Why an engine stopped answering as it should.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No answer by the deadline; says what was awaited.
    Timeout(String),
    /// The engine is gone: how it ended (`exited with status 1`, `was killed by signal 11`).
    Gone(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Fault::Timeout(what) => write!(f, "no {what} in time"),
            Fault::Gone(how) => f.write_str(how),
        }
    }
}

/// An engine's evaluation, from the point of view of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves; negative when being mated.
    Mate(i32),
}

impl Score {
    /// Centipawns, a mate counting as a huge advantage.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(moves) if moves > 0 => 100_000 - moves,
            Score::Mate(moves) => -100_000 - moves,
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The words after `bestmove`.
    pub bestmove: Vec<String>,
    /// The last score the engine reported during the search.
    pub score: Option<Score>,
    pub elapsed: Duration,
}

impl Answer {
    /// One line of a search begun at `started`: the answer at `bestmove`;
    /// before it, an `info` score is kept in `score` as the latest.
    fn read(line: &str, score: &mut Option<Score>, started: Instant) -> Option<Answer> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("bestmove") => Some(Answer {
                bestmove: words.map(String::from).collect(),
                score: *score,
                elapsed: started.elapsed(),
            }),
            Some("info") => {
                *score = read_score(line).or(*score);
                None
            }
            _ => None,
        }
    }
}

/// A running UCI engine.
pub struct EngineProcess {
    spec: EngineSpec,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Whether the engine offers `UCI_Variant` `sscc`, and so takes `switch` tokens.
    sscc: bool,
    /// The options' values: those set, else the defaults the engine offered.
    option_values: Vec<(String, String)>,
}

impl EngineProcess {
    /// Starts the engine, shakes hands and sets its options: those of the spec,
    /// and for an SSCC match on an engine that offers it, `UCI_Variant sscc`
    /// with the rules (docs/rules.md, section 5).
    pub fn start(spec: &EngineSpec, variant: Variant) -> Result<EngineProcess, String> {
        let stderr = match &spec.stderr_file {
            Some(path) => OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map(Stdio::from)
                .map_err(|error| format!("cannot open {}: {error}", path.display()))?,
            None => Stdio::null(),
        };
        // A missing directory fails the spawn as "No such file or directory",
        // which reads as a missing program: name it first.
        if !spec.working_directory.as_os_str().is_empty() && !spec.working_directory.is_dir() {
            return Err(format!(
                "cannot run {}: its working directory {} does not exist",
                spec.program.display(),
                spec.working_directory.display()
            ));
        }
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .current_dir(&spec.working_directory)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|error| format!("cannot run {}: {error}", spec.program.display()))?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        let name = spec.name.clone();
        thread::spawn(move || {
            // Bytes, decoded leniently: a line that is not UTF-8 (an author's
            // name in Latin-1, say) is the engine's output all the same, not
            // the end of it.
            let mut output = BufReader::new(output);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                match output.read_until(b'\n', &mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let text = String::from_utf8_lossy(&buffer);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                log::debug!("{name} > {line}");
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = EngineProcess {
            spec: spec.clone(),
            child,
            input,
            lines,
            sscc: false,
            option_values: Vec::new(),
        };
        engine
            .handshake(variant)
            .map_err(|fault| fault.to_string())?;
        Ok(engine)
    }

    fn handshake(&mut self, variant: Variant) -> Result<(), Fault> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let mut offered = Vec::new();
        loop {
            let line = self.receive(deadline, "uciok")?;
            if line.trim() == "uciok" {
                break;
            }
            if let Some(option) = OfferedOption::read(&line) {
                offered.push(option);
            }
        }
        let offers = |name: &str| offered.iter().any(|option| option.name == name);
        // An entry that sets UCI_Variant itself keeps it: a switch-capable
        // engine told to play chess takes part in SSCC games as a plain one.
        let chosen_variant = self
            .spec
            .options
            .iter()
            .find(|(name, _)| name == "UCI_Variant")
            .map(|(_, value)| value.as_str());
        self.sscc = chosen_variant.is_none_or(|value| value == "sscc")
            && offered.iter().any(|option| {
                option.name == "UCI_Variant" && option.vars.iter().any(|v| v == "sscc")
            });
        let mut settings = self.spec.options.clone();
        if let (Variant::Sscc(rules), true) = (variant, self.sscc) {
            if chosen_variant.is_none() {
                settings.push(("UCI_Variant".to_string(), "sscc".to_string()));
            }
            for (name, value) in [
                ("SwitchRule", rules.switch_rule.to_string()),
                ("MinEnclosed", rules.min_enclosed.to_string()),
            ] {
                if offers(name) {
                    settings.push((name.to_string(), value));
                }
            }
        }
        self.option_values = offered
            .iter()
            .filter_map(|option| Some((option.name.clone(), option.default.clone()?)))
            .collect();
        for (name, value) in settings {
            self.send(&format!("setoption name {name} value {value}"))?;
            self.option_values.retain(|(set, _)| *set != name);
            self.option_values.push((name, value));
        }
        for line in self.spec.init_strings.clone() {
            self.send(&line)?;
        }
        self.synchronize()
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The value of the option `name`: as set, else the engine's default.
    pub fn option(&self, name: &str) -> Option<&str> {
        self.option_values
            .iter()
            .find(|(set, _)| set == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether the engine plays SSCC: it gets `switch` tokens and may switch.
    pub fn sscc(&self) -> bool {
        self.sscc
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} < {line}", self.spec.name);
        match writeln!(self.input, "{line}").and_then(|()| self.input.flush()) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.gone()),
        }
    }

    /// The next line, by `deadline`. Waits in slices, so that a process that
    /// has ended is noticed even while its output stays open (a child it
    /// forked may hold it): that is a disconnect, not a loss on time.
    fn receive(&mut self, deadline: Instant, awaited: &str) -> Result<String, Fault> {
        const SLICE: Duration = Duration::from_millis(50);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(SLICE)) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                // What it wrote before it ended still counts.
                return match self.lines.recv_timeout(SLICE) {
                    Ok(line) => Ok(line),
                    Err(_) => Err(Fault::Gone(describe_exit(status))),
                };
            }
            if left <= SLICE {
                return Err(Fault::Timeout(awaited.to_string()));
            }
        }
    }

    /// How the process ended, once its output has closed.
    fn gone(&mut self) -> Fault {
        // The output closes just before the process ends: give it a moment.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(status)) => return Fault::Gone(describe_exit(status)),
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        Fault::Gone("closed its connection".to_string())
    }

    /// `isready`, and waits for `readyok`.
    pub fn synchronize(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while self.receive(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame`, then synchronizes.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.send("ucinewgame")?;
        self.synchronize()
    }

    /// Sends `position` and `go` and waits for `bestmove`, at most `allowed`
    /// after the `go`.
    pub fn think(&mut self, position: &str, go: &str, allowed: Duration) -> Result<Answer, Fault> {
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let deadline = started + allowed;
        let mut score = None;
        loop {
            let line = self.receive(deadline, "bestmove")?;
            if let Some(answer) = Answer::read(&line, &mut score, started) {
                return Ok(answer);
            }
        }
    }

    /// Sets a UCI option (`setoption name … value …`) and synchronizes.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Fault> {
        self.send(&format!("setoption name {name} value {value}"))?;
        self.option_values.retain(|(set, _)| set != name);
        self.option_values
            .push((name.to_string(), value.to_string()));
        self.synchronize()
    }

    /// As [`think`](Self::think), but shows `watch` every line as it comes, and
    /// `None` after each [`WATCH_TICK`] of silence. When `watch` returns false
    /// the engine is sent `stop` (once), and its `bestmove` is still awaited.
    /// Without `allowed` (a `go infinite`) the engine has no deadline until it
    /// is stopped; after `stop` it has [`HANDSHAKE_TIMEOUT`] to answer.
    pub fn think_watched(
        &mut self,
        position: &str,
        go: &str,
        allowed: Option<Duration>,
        watch: &mut dyn FnMut(Option<&str>) -> bool,
    ) -> Result<Answer, Fault> {
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let mut deadline = allowed.map(|allowed| started + allowed);
        let mut score = None;
        loop {
            let tick = Instant::now() + WATCH_TICK;
            let slice_end = deadline.map_or(tick, |deadline| deadline.min(tick));
            let line = match self.receive(slice_end, "bestmove") {
                Ok(line) => line,
                Err(Fault::Timeout(what)) => {
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        return Err(Fault::Timeout(what));
                    }
                    if !watch(None) && self.stop_once(&mut deadline)? {
                        log::debug!("{}: stopped", self.spec.name);
                    }
                    continue;
                }
                Err(fault) => return Err(fault),
            };
            if let Some(answer) = Answer::read(&line, &mut score, started) {
                return Ok(answer);
            }
            if !watch(Some(&line)) {
                self.stop_once(&mut deadline)?;
            }
        }
    }

    /// Sends `stop` unless it was sent (a deadline of `HANDSHAKE_TIMEOUT` from
    /// now marks it sent); true if it was sent now.
    fn stop_once(&mut self, deadline: &mut Option<Instant>) -> Result<bool, Fault> {
        let stop_deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        if deadline.is_some_and(|deadline| deadline <= stop_deadline) {
            return Ok(false);
        }
        self.send("stop")?;
        *deadline = Some(stop_deadline);
        Ok(true)
    }
}

/// How often [`EngineProcess::think_watched`] shows its watcher that nothing came.
pub const WATCH_TICK: Duration = Duration::from_millis(100);

/// An engine's seat at the board: started when first needed, and after a
/// fault started afresh the next time it is needed.
pub struct EngineSlot {
    spec: EngineSpec,
    variant: Variant,
    engine: Option<EngineProcess>,
}

impl EngineSlot {
    pub fn new(spec: EngineSpec, variant: Variant) -> EngineSlot {
        EngineSlot {
            spec,
            variant,
            engine: None,
        }
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The running engine, started now if it is not running.
    pub fn engine(&mut self) -> Result<&mut EngineProcess, String> {
        if self.engine.is_none() {
            self.engine = Some(EngineProcess::start(&self.spec, self.variant)?);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// Ends the engine between games, as fastchess's `restart=on` asks: the
    /// next game gets a fresh process.
    pub fn restart(&mut self) {
        if self.engine.take().is_some() {
            log::debug!("{}: restarting for the next game", self.spec.name);
        }
    }

    /// Ends the engine after a fault: whatever state it is in, the next game
    /// gets a fresh process.
    pub fn discard(&mut self) {
        if self.engine.take().is_some() {
            log::info!("{}: restarting after a fault", self.spec.name);
        }
    }
}

impl Drop for EngineProcess {
    /// `quit`, and the process is killed if it does not end by itself.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "exited".to_string(),
    }
}

/// The score of an `info` line: `score cp 31` or `score mate -3`.
fn read_score(line: &str) -> Option<Score> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&word| word == "score")?;
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(Score::Centipawns(value)),
        "mate" => Some(Score::Mate(value)),
        _ => None,
    }
}

/// What an `option` line of the handshake offers: the name, the default and
/// any combo values.
#[derive(Debug, PartialEq, Eq)]
struct OfferedOption {
    name: String,
    default: Option<String>,
    vars: Vec<String>,
}

impl OfferedOption {
    /// `option name <words…> type <type> … var <value> …`; names and values may hold spaces.
    fn read(line: &str) -> Option<OfferedOption> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") || words.get(1) != Some(&"name") {
            return None;
        }
        let keywords = ["type", "default", "min", "max", "var"];
        let mut fields: Vec<(&str, Vec<&str>)> = vec![("name", Vec::new())];
        for &word in &words[2..] {
            if keywords.contains(&word) {
                fields.push((word, Vec::new()));
            } else if let Some((_, value)) = fields.last_mut() {
                value.push(word);
            }
        }
        let joined = |key: &'static str| {
            fields
                .iter()
                .filter(move |(field, _)| *field == key)
                .map(|(_, words)| words.join(" "))
        };
        Some(OfferedOption {
            name: joined("name").next()?,
            default: joined("default").next(),
            vars: joined("var").collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_offered_options_and_scores() {
        let variant = OfferedOption::read(
            "option name UCI_Variant type combo default chess var chess var sscc",
        )
        .unwrap();
        assert_eq!(variant.name, "UCI_Variant");
        assert_eq!(variant.vars, ["chess", "sscc"]);
        let spaced =
            OfferedOption::read("option name Move Overhead type spin default 10 min 0 max 5000")
                .unwrap();
        assert_eq!(spaced.name, "Move Overhead");
        assert_eq!(spaced.default.as_deref(), Some("10"));
        assert!(OfferedOption::read("id name Catena").is_none());
        assert_eq!(
            read_score("info depth 12 seldepth 20 score cp -31 nodes 5 pv e2e4"),
            Some(Score::Centipawns(-31))
        );
        assert_eq!(
            read_score("info depth 3 score mate -2 pv a1a2"),
            Some(Score::Mate(-2))
        );
        assert_eq!(read_score("info string score cp"), None);
        assert!(Score::Mate(3).centipawns() > Score::Mate(5).centipawns());
        assert!(Score::Mate(-3).centipawns() < Score::Centipawns(-5000).centipawns());
    }
}
