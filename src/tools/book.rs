//! `catena book`: the solver's verdict on every position of an EPD file
//! within D plies, each within its own budget, appended to a book one line
//! a position as it is settled (docs/solver.md, "Opening theory"; the line
//! format is `catena_engine::book`'s). Positions the book already answers for the same
//! rules and bound are skipped, so a run that was stopped goes on where it
//! stopped when run again.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use catena_core::board::Position;
use catena_core::game::Rules;
use catena_engine::solve::{Node, Problem, Solver};

use super::epd;
use super::progress::Progress;
use super::solve::MAX_PLIES;
use crate::cli::{Failure, FailureKind, RulesArgs};
use catena_engine::book::{Question, Record, Verdict};

#[derive(clap::Args, Debug)]
#[command(
    about = "Settle every position of an EPD file within D plies, into a resumable book",
    long_about = "Settle every position of an EPD file within D plies: a forced win for the \
                  player to move (docs/rules.md, section 8), the shortest, or none, or unsettled \
                  when the position's budget runs out. Each verdict is appended to --out as one \
                  line as soon as it is settled (docs/solver.md, \"Opening theory\"); positions \
                  already answered there for the same rules and D are skipped, so a stopped run \
                  goes on where it stopped. A bad EPD line is reported on stderr with its number \
                  and the others are settled; the exit status is then 1."
)]
pub struct BookArgs {
    /// The positions: one FEN a line (four or six fields; what follows is
    /// passed over), blank lines and `#` comments skipped.
    #[arg(long, value_name = "FILE")]
    epd: PathBuf,
    /// D, the bound on plies (1 to 32).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    plies: u32,
    #[command(flatten)]
    rules: RulesArgs,
    /// Solver nodes a position may spend before it is left unsettled.
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Seconds a position may take before it is left unsettled, on top of
    /// --nodes (default: no limit but --nodes, which keeps the book the same
    /// on every machine).
    #[arg(long, value_name = "S", value_parser = seconds_parser)]
    seconds: Option<f64>,
    /// Positions settled at once, each on its own thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The book, appended to (created if missing).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

fn seconds_parser(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 1e6 => Ok(seconds),
        _ => Err(format!(
            "'{text}' is not a number of seconds above 0 (and at most 1000000)"
        )),
    }
}

/// What a position may spend before it is left unsettled.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub nodes: u64,
    pub time: Option<Duration>,
}

impl Budget {
    /// Whether a position left unsettled by `record` might be settled with
    /// this budget: more nodes, and more time, than it spent then.
    fn exceeds(&self, record: &Record) -> bool {
        self.nodes > record.nodes
            && self
                .time
                .is_none_or(|time| time.as_millis() > u128::from(record.time))
    }
}

/// The verdict on `position` within `bound` plies under `rules`: a win
/// with its line, as `catena solve` gives it, none, or unsettled once the
/// budget is spent. A proven win's line is always written out, the budget
/// spent or not.
pub fn settle(position: &Position, rules: Rules, bound: u32, budget: Budget) -> Record {
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let problem = Problem {
        rules: Some(rules),
        attacker_switches: true,
    };
    let root = Node::root(position.clone());
    let (verdict, nodes) = std::thread::scope(|scope| {
        let (disarm, armed) = mpsc::channel::<()>();
        let watchdog = budget.time.map(|limit| {
            let stop = &stop;
            scope.spawn(move || {
                if armed.recv_timeout(limit) == Err(mpsc::RecvTimeoutError::Timeout) {
                    stop.store(true, Ordering::Relaxed);
                }
            })
        });
        let mut solver = Solver::new(problem, &stop).with_node_limit(budget.nodes);
        let shortest = solver.shortest(&root, bound);
        // The clock stops here: once the watchdog is gone, nothing sets `stop`.
        drop(disarm);
        if let Some(watchdog) = watchdog {
            watchdog.join().expect("the watchdog does not panic");
        }
        stop.store(false, Ordering::Relaxed);
        match shortest {
            Err(_) => (Verdict::Unsettled, solver.nodes()),
            Ok(None) => (Verdict::None, solver.nodes()),
            Ok(Some(plies)) => {
                let mut solver = solver.with_node_limit(u64::MAX);
                let line = solver
                    .line(&root, plies)
                    .expect("a solver with no limit is never stopped");
                (Verdict::Win { plies, line }, solver.nodes())
            }
        }
    });
    Record {
        fen: position.to_fen(),
        rules,
        bound,
        verdict,
        nodes,
        time: started.elapsed().as_millis() as u64,
    }
}

/// The positions of an EPD file's text with their line numbers (from 1),
/// or what is wrong with the line. A line is a FEN's four fields, its two
/// counters where given, and anything after them (EPD operations) is
/// passed over.
pub fn read_positions(text: &str) -> Vec<(usize, Result<Position, String>)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| {
            let fen = epd::fen_of(line.split(';').next().unwrap_or_default());
            let position = Position::from_fen(&fen).map_err(|error| format!("bad FEN: {error}"));
            (index + 1, position)
        })
        .collect()
}

/// What a run has done so far, for the bar and the summary.
#[derive(Default)]
struct Tally {
    win: usize,
    none: usize,
    unsettled: usize,
}

impl Tally {
    fn add(&mut self, verdict: &Verdict) {
        match verdict {
            Verdict::Win { .. } => self.win += 1,
            Verdict::None => self.none += 1,
            Verdict::Unsettled => self.unsettled += 1,
        }
    }

    fn message(&self) -> String {
        format!(
            "{} win, {} none, {} unsettled",
            self.win, self.none, self.unsettled
        )
    }
}

/// The book being appended to: its file, and whether this run has written
/// its command line yet.
struct Book {
    file: File,
    header: Option<String>,
}

impl Book {
    /// Appends `record`'s line in one write, so that a run killed meanwhile
    /// leaves at most that line cut short.
    fn append(&mut self, record: &Record) -> std::io::Result<()> {
        let mut text = self
            .header
            .take()
            .map_or(String::new(), |header| header + "\n");
        text += &format!("{record}\n");
        self.file.write_all(text.as_bytes())?;
        self.file.flush()
    }
}

/// The records of the book at `path` (none if it does not exist yet), the
/// last line for each question winning; lines that cannot be read, such as
/// a line cut short when a run was killed, are reported and passed over.
/// And whether the file ends without a newline.
fn read_book(path: &Path) -> Result<(HashMap<Question, Record>, bool), Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == ErrorKind::NotFound => String::new(),
        Err(error) => {
            return Err(Failure::Usage(format!(
                "cannot read {}: {error}",
                path.display()
            )));
        }
    };
    let mut records = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match Record::parse(line) {
            Ok(record) => {
                records.insert(record.question(), record);
            }
            Err(error) => eprintln!(
                "warning: {}:{}: passed over ({error}); its position is settled again",
                path.display(),
                index + 1
            ),
        }
    }
    Ok((records, !text.is_empty() && !text.ends_with('\n')))
}

/// Runs the command: `Ok(false)` when some EPD line was bad (the others
/// settled), an error for an unreadable file or a failed write.
pub fn run(args: &BookArgs) -> Result<bool, Failure> {
    let started = Instant::now();
    let text = std::fs::read_to_string(&args.epd)
        .map_err(|error| format!("cannot read {}: {error}", args.epd.display()))
        .or_usage()?;
    let rules = args.rules.rules();
    let budget = Budget {
        nodes: args.nodes,
        time: args.seconds.map(Duration::from_secs_f64),
    };
    let (known, cut_short) = read_book(&args.out)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|error| format!("cannot write {}: {error}", args.out.display()))
        .or_usage()?;
    if cut_short {
        // The last line was cut short: the next record starts a line of its own.
        writeln!(file)
            .map_err(|error| format!("cannot write {}: {error}", args.out.display()))
            .or_runtime()?;
    }

    let mut bad_lines = 0;
    let mut skipped = 0;
    let mut queued = HashSet::new();
    let mut work = Vec::new();
    for (number, position) in read_positions(&text) {
        let position = match position {
            Ok(position) => position,
            Err(error) => {
                bad_lines += 1;
                eprintln!("error: {}:{number}: {error}", args.epd.display());
                continue;
            }
        };
        let question = Question {
            fen: position.to_fen(),
            rules,
            bound: args.plies,
        };
        let answered = known
            .get(&question)
            .is_some_and(|record| record.verdict.settled() || !budget.exceeds(record));
        if answered || !queued.insert(question) {
            skipped += 1;
        } else {
            work.push(position);
        }
    }

    let header = format!(
        "# catena book --epd {} --plies {} --rule {} --min-enclosed {} --nodes {}{}",
        args.epd.display(),
        args.plies,
        rules.switch_rule,
        rules.min_enclosed,
        args.nodes,
        args.seconds
            .map_or(String::new(), |seconds| format!(" --seconds {seconds}"))
    );
    let book = Mutex::new(Book {
        file,
        header: Some(header),
    });
    let tally = Mutex::new(Tally::default());
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let progress = Progress::new(work.len() as u64, "positions");
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.min(work.len().max(1) as u16) {
            scope.spawn(|| {
                loop {
                    if failed.lock().expect("no panics").is_some() {
                        return;
                    }
                    let Some(position) = work.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        return;
                    };
                    let record = settle(position, rules, args.plies, budget);
                    if let Err(error) = book.lock().expect("no panics").append(&record) {
                        *failed.lock().expect("no panics") =
                            Some(format!("cannot write {}: {error}", args.out.display()));
                        return;
                    }
                    let message = {
                        let mut tally = tally.lock().expect("no panics");
                        tally.add(&record.verdict);
                        tally.message()
                    };
                    progress.println(&record.to_string());
                    progress.advance(message);
                }
            });
        }
    });
    drop(progress);
    if let Some(error) = failed.into_inner().expect("no panics") {
        return Err(Failure::Runtime(error));
    }
    let tally = tally.into_inner().expect("no panics");
    println!(
        "book: {} positions tried ({}), {} already answered in {}, {} bad lines, {:.1} s",
        work.len(),
        tally.message(),
        skipped,
        args.out.display(),
        bad_lines,
        started.elapsed().as_secs_f64()
    );
    Ok(bad_lines == 0)
}
