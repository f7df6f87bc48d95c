//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::epd::{EpdLine, parse_suite};
use super::progress::Progress;
use crate::board::{Move, Position};
use crate::game::{ChainTest, Rules, SwitchRule, SwitchRun, forms_chain};

/// Deeper than any perft anyone waits for; keeps depths sane on the command line.
pub const MAX_DEPTH: u32 = 15;

/// Leaves of the legal move tree `depth` plies deep; the last ply is counted, not played.
pub fn perft(position: &Position, depth: u32) -> u64 {
    count_leaves::<true>(position, depth)
}

/// Leaves of the legal move tree, every move of the last ply played too: the
/// work an SSCC perft cannot avoid, as it must look at the board after each move.
pub fn perft_playing_leaves(position: &Position, depth: u32) -> u64 {
    count_leaves::<false>(position, depth)
}

fn count_leaves<const BULK: bool>(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return position.count_legal_moves() as u64;
    }
    let mut nodes = 0;
    position.generate_moves(|piece_moves| {
        for mv in piece_moves {
            nodes += count_leaves::<BULK>(&position.after(mv), depth - 1);
        }
        false
    });
    nodes
}

/// Leaves of the SSCC game tree (spec section 4): every ply a board move and a
/// switch choice, so a chain-forming move with a switch allowed has two children.
pub fn sscc_perft(position: &Position, mut run: SwitchRun, depth: u32, rules: &Rules) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Whether a switch is allowed depends on the run, not on the move.
    let may_switch = run.allows_switch();
    if depth == 1 && !may_switch {
        return position.count_legal_moves() as u64;
    }
    let chains = may_switch.then(|| ChainTest::new(position, rules));
    let mut nodes = 0;
    position.generate_moves(|piece_moves| {
        for mv in piece_moves {
            let switch = chains.as_ref().is_some_and(|chains| chains.forms_chain(mv));
            if depth == 1 {
                nodes += 1 + switch as u64;
                continue;
            }
            let child = position.after(mv);
            nodes += sscc_perft(&child, SwitchRun::default(), depth - 1, rules);
            if switch {
                nodes += sscc_perft(
                    &child,
                    run.after_switch(position, mv, rules),
                    depth - 1,
                    rules,
                );
            }
        }
        false
    });
    nodes
}

/// Which tree a perft counts.
#[derive(Clone, Copy, Debug)]
pub enum Tree {
    /// The chess move tree, the last ply counted in bulk or played.
    Chess { bulk: bool },
    /// The SSCC game tree under these rules.
    Sscc(Rules),
}

impl Tree {
    /// The leaves below `position`, `depth` plies deep, with `run` the switch
    /// run in progress there (SSCC; chess ignores it).
    pub fn count(&self, position: &Position, run: SwitchRun, depth: u32) -> u64 {
        match self {
            Tree::Chess { bulk: true } => perft(position, depth),
            Tree::Chess { bulk: false } => perft_playing_leaves(position, depth),
            Tree::Sscc(rules) => sscc_perft(position, run, depth, rules),
        }
    }

    /// The children of the root: one per move, and for SSCC a second, marked
    /// as a switch, per move that forms a chain while `run` allows a switch.
    fn root_children(
        &self,
        position: &Position,
        mut run: SwitchRun,
    ) -> Vec<(Move, Option<SwitchRun>)> {
        let may_switch = run.allows_switch();
        let mut children = Vec::new();
        for mv in position.legal_moves() {
            children.push((mv, None));
            if let Tree::Sscc(rules) = self
                && may_switch
                && forms_chain(position, mv, rules)
            {
                children.push((mv, Some(run.after_switch(position, mv, rules))));
            }
        }
        children
    }
}

/// One root child's count, as `--divide` prints it: `e2e4` or `d2d3 switch`.
pub struct RootCount {
    pub mv: Move,
    pub switched: bool,
    pub nodes: u64,
}

/// The count below each root child, in move-generation order, over `threads`
/// threads; `run` is the switch run in progress at the root (SSCC). Setting
/// `stop` ends the count, with an error: it is looked at before each child of
/// each root child, a few hundred times per count.
pub fn divide(
    tree: &Tree,
    position: &Position,
    run: SwitchRun,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<RootCount>, String> {
    let children = tree.root_children(position, run);
    let count = |&(mv, switch_run): &(Move, Option<SwitchRun>)| {
        let child = position.after(mv);
        let child_run = switch_run.unwrap_or_default();
        let nodes = if depth >= 3 {
            let mut nodes = 0;
            for (reply, reply_run) in tree.root_children(&child, child_run) {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                nodes += tree.count(
                    &child.after(reply),
                    reply_run.unwrap_or_default(),
                    depth - 2,
                );
            }
            nodes
        } else {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            tree.count(&child, child_run, depth - 1)
        };
        Some(RootCount {
            mv,
            switched: switch_run.is_some(),
            nodes,
        })
    };
    let counts: Option<Vec<RootCount>> = if threads <= 1 {
        children.iter().map(count).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|error| format!("cannot start {threads} threads: {error}"))?;
        pool.install(|| children.par_iter().map(count).collect())
    };
    counts.ok_or_else(|| "perft stopped".to_string())
}

/// The closing line of every perft run: `nodes <N> time <ms> nps <nps>`.
pub fn summary_line(nodes: u64, elapsed: Duration) -> String {
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    format!("nodes {nodes} time {} nps {nps}", elapsed.as_millis())
}

#[derive(clap::Args, Debug)]
#[command(
    about = "Count the leaves of the move tree",
    long_about = "Count the leaves of the legal move tree (or with --sscc of the SSCC game tree) to DEPTH plies, \
                  or check every count of an EPD suite (lines `<fen> ;D1 <n> ;D2 <n> …`, SSCC counts `;S1 <n> …`)."
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
    /// Count the SSCC game tree: a chain-forming move may be followed by a switch.
    #[arg(long)]
    sscc: bool,
    /// With --sscc: what limits consecutive switches (chain, moves or unlimited).
    #[arg(long, requires = "sscc", default_value = "chain")]
    rule: SwitchRule,
    /// With --sscc: the smallest group of empty squares a chain must surround (1 to 16).
    #[arg(long, requires = "sscc", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    min_enclosed: u32,
    /// Play every move of the last ply instead of counting them in bulk.
    #[arg(long, conflicts_with = "sscc")]
    no_bulk: bool,
}

impl PerftArgs {
    fn tree(&self, rules: Rules) -> Tree {
        if self.sscc {
            Tree::Sscc(rules)
        } else {
            Tree::Chess {
                bulk: !self.no_bulk,
            }
        }
    }

    fn rules(&self) -> Result<Rules, String> {
        Rules::new(self.rule, self.min_enclosed)
    }
}

/// Runs `catena perft`; `Ok(false)` means a suite had mismatches.
pub fn run(args: &PerftArgs) -> Result<bool, String> {
    match (&args.suite, args.depth) {
        (Some(file), _) => run_suite(file, args),
        (None, Some(depth)) => {
            let position = match &args.fen {
                Some(fen) => {
                    Position::from_fen(fen).map_err(|error| format!("bad FEN: {error}"))?
                }
                None => Position::startpos(),
            };
            let start = Instant::now();
            let counts = divide(
                &args.tree(args.rules()?),
                &position,
                SwitchRun::default(),
                depth,
                args.threads.into(),
                &AtomicBool::new(false),
            )?;
            let elapsed = start.elapsed();
            if args.divide {
                for count in &counts {
                    let switch = if count.switched { " switch" } else { "" };
                    println!("{}{switch}: {}", count.mv, count.nodes);
                }
                println!();
            }
            let nodes = counts.iter().map(|count| count.nodes).sum();
            println!("{}", summary_line(nodes, elapsed));
            Ok(true)
        }
        (None, None) => Err("give a DEPTH or --suite FILE".to_string()),
    }
}

/// Checks the `D<n>` counts of a suite, or with `--sscc` its `S<n>` counts. A
/// line may set its own rules with `;rule <name>` and `;min-enclosed <n>`.
/// A bad line is reported and the others are still checked; a suite that
/// checks no count at all fails, since it proves nothing.
fn run_suite(file: &PathBuf, args: &PerftArgs) -> Result<bool, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|error| format!("cannot read {}: {error}", file.display()))?;
    let lines = parse_suite(&text);
    if lines.is_empty() {
        return Err(format!("{} holds no positions", file.display()));
    }
    let prefix = if args.sscc { 'S' } else { 'D' };
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
        return Err(format!(
            "{} has no {prefix}<depth> counts{}: the suite checks nothing",
            file.display(),
            args.max_depth
                .map_or(String::new(), |depth| format!(" up to depth {depth}"))
        ));
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
        None => args.rule,
    };
    let min_enclosed = match line.operand("min-enclosed") {
        Some(number) => number
            .parse()
            .map_err(|_| format!("min-enclosed '{number}' is not a number"))?,
        None => args.min_enclosed,
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
