//! `catena perft`: counts of the move tree from the command line, and suite checks.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use catena_core::board::Position;
use catena_core::game::{Rules, SwitchRun, Variant};
use catena_core::perft::{MAX_DEPTH, Tree, divide, summary_line};

use crate::cli::{Failure, FailureKind, RulesArgs, VariantArgs};

use super::epd::{EpdLine, parse_suite};
use super::progress::Progress;

#[derive(clap::Args, Debug)]
#[command(
    about = "Count the leaves of the move tree",
    long_about = "Count the leaves of the legal move tree (or with --variant sscc of the SSCC game tree) to DEPTH plies, \
                  or check every count of an EPD suite (lines `<fen> ;D1 <n> ;D2 <n> …`, SSCC counts `;S1 <n> …`).",
    // Chess unless told otherwise; the rules only with a variant named.
    mut_arg("variant", |arg| arg.default_value("chess")),
    mut_arg("rule", |arg| arg.requires("VariantArgs")),
    mut_arg("min_enclosed", |arg| arg.requires("VariantArgs")),
)]
pub struct PerftArgs {
    /// Plies to count (1 to 15).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64), required_unless_present = "suite", conflicts_with = "suite")]
    depth: Option<u32>,
    /// The position to start from (default: the start position).
    #[arg(long, conflicts_with = "suite")]
    fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long, conflicts_with = "suite")]
    divide: bool,
    /// Check every count of an EPD suite file; exit non-zero on any mismatch.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// With --suite, skip counts deeper than this.
    #[arg(long, requires = "suite", value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    max_depth: Option<u32>,
    /// Threads that share the root moves.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// Chess, or the SSCC game tree: a chain-forming move may be followed by a switch.
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    rules: RulesArgs,
    /// Play every move of the last ply instead of counting them in bulk (chess only).
    #[arg(long, conflicts_with = "sscc")]
    no_bulk: bool,
}

impl PerftArgs {
    fn sscc(&self) -> bool {
        self.variant.variant(self.rules.rules()).is_sscc()
    }

    fn tree(&self, rules: Rules) -> Tree {
        match self.variant.variant(rules) {
            Variant::Sscc(rules) => Tree::Sscc(rules),
            Variant::Chess => Tree::Chess {
                bulk: !self.no_bulk,
            },
        }
    }
}

/// Runs `catena perft`; `Ok(false)` means a suite had mismatches.
pub fn run(args: &PerftArgs) -> Result<bool, Failure> {
    if args.no_bulk && args.sscc() {
        return Err(Failure::Usage(
            "--no-bulk counts the chess tree only, not SSCC's".to_string(),
        ));
    }
    match (&args.suite, args.depth) {
        (Some(file), _) => run_suite(file, args),
        (None, Some(depth)) => {
            let position = match &args.fen {
                Some(fen) => Position::from_fen(fen)
                    .map_err(|error| format!("bad FEN: {error}"))
                    .or_usage()?,
                None => Position::startpos(),
            };
            let start = Instant::now();
            let counts = divide(
                &args.tree(args.rules.rules()),
                &position,
                SwitchRun::default(),
                depth,
                args.threads.into(),
                &AtomicBool::new(false),
            )
            .or_runtime()?;
            let elapsed = start.elapsed();
            if args.divide {
                for count in &counts {
                    println!("{}: {}", count.action, count.nodes);
                }
                println!();
            }
            let nodes = counts.iter().map(|count| count.nodes).sum();
            println!("{}", summary_line(nodes, elapsed));
            Ok(true)
        }
        (None, None) => Err(Failure::Usage("give a DEPTH or --suite FILE".to_string())),
    }
}

/// Checks the `D<n>` counts of a suite, or in SSCC its `S<n>` counts. A
/// line may set its own rules with `;rule <name>` and `;min-enclosed <n>`.
/// A bad line is reported and the others are still checked; a suite that
/// checks no count at all is bad input, since it proves nothing.
fn run_suite(file: &PathBuf, args: &PerftArgs) -> Result<bool, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|error| format!("cannot read {}: {error}", file.display()))
        .or_usage()?;
    let lines = parse_suite(&text);
    if lines.is_empty() {
        return Err(Failure::Usage(format!(
            "{} holds no positions",
            file.display()
        )));
    }
    let prefix = if args.sscc() { 'S' } else { 'D' };
    let start = Instant::now();
    let mut tally = SuiteTally::default();
    let progress = Progress::new(lines.len() as u64, "positions");
    for line in &lines {
        match check_suite_line(line, args, prefix, &mut tally) {
            Ok(verdicts) => progress.println(&format!(
                "{} {} {}",
                line.number,
                line.fen,
                verdicts.join(" ")
            )),
            Err(problem) => {
                tally.bad_lines += 1;
                progress.println(&format!("{} {} ERROR {problem}", line.number, line.fen));
            }
        }
        progress.advance(format!("{} mismatches", tally.mismatches));
    }
    drop(progress);
    println!(
        "{} positions, {} counts, {} mismatches, {} bad lines, {}",
        lines.len(),
        tally.checked,
        tally.mismatches,
        tally.bad_lines,
        summary_line(tally.nodes, start.elapsed())
    );
    if tally.checked == 0 {
        return Err(Failure::Usage(format!(
            "{} has no {prefix}<depth> counts{}: the suite checks nothing",
            file.display(),
            args.max_depth
                .map_or(String::new(), |depth| format!(" up to depth {depth}"))
        )));
    }
    Ok(tally.mismatches == 0 && tally.bad_lines == 0)
}

/// What a suite run has counted so far.
#[derive(Default)]
struct SuiteTally {
    nodes: u64,
    checked: usize,
    mismatches: usize,
    bad_lines: usize,
}

/// Checks one suite line's counts, adding them to `tally`: a verdict per count.
fn check_suite_line(
    line: &EpdLine,
    args: &PerftArgs,
    prefix: char,
    tally: &mut SuiteTally,
) -> Result<Vec<String>, String> {
    let max_depth = args.max_depth.unwrap_or(MAX_DEPTH);
    let position = Position::from_fen(&line.fen).map_err(|error| format!("bad FEN: {error}"))?;
    let rule = match line.operand("rule") {
        Some(name) => name.parse()?,
        None => args.rules.rule,
    };
    let min_enclosed = match line.operand("min-enclosed") {
        Some(number) => number
            .parse()
            .map_err(|_| format!("min-enclosed '{number}' is not a number"))?,
        None => args.rules.enclosed.min_enclosed,
    };
    let tree = args.tree(Rules::new(rule, min_enclosed)?);
    let mut verdicts = Vec::new();
    for (opcode, operand) in &line.operations {
        let Some(depth) = opcode
            .strip_prefix(prefix)
            .and_then(|depth| depth.parse::<u32>().ok())
        else {
            continue;
        };
        if depth > max_depth || depth == 0 {
            continue;
        }
        let expected: u64 = operand
            .parse()
            .map_err(|_| format!("count '{operand}' for {opcode} is not a number"))?;
        let counted: u64 = divide(
            &tree,
            &position,
            SwitchRun::default(),
            depth,
            args.threads.into(),
            &AtomicBool::new(false),
        )?
        .iter()
        .map(|count| count.nodes)
        .sum();
        tally.nodes += counted;
        tally.checked += 1;
        if counted == expected {
            verdicts.push(format!("{prefix}{depth} ok"));
        } else {
            tally.mismatches += 1;
            verdicts.push(format!(
                "{prefix}{depth} MISMATCH expected {expected} counted {counted}"
            ));
        }
    }
    Ok(verdicts)
}
