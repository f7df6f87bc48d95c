//! `catena solve`: whether the player to move has a forced win within D
//! plies (docs/rules.md, section 8), proved by the solver of `catena_engine::solve`.

use std::io::Write;
use std::time::Instant;

use serde::Serialize;

use crate::cli::{Failure, FailureKind, RulesArgs, VariantArgs};
use catena_core::board::Position;
use catena_core::game::{Action, GameState, Ply, Rules};
use catena_engine::book::{Answer, Book};
use catena_engine::solve::{NotInTree, Problem, Solution, solve_after, split};

/// The largest bound `solve` accepts: far beyond what it can settle in a day.
pub const MAX_PLIES: u32 = 32;

#[derive(clap::Args, Debug)]
#[command(
    about = "Prove or refute a forced win within D plies for the player to move",
    long_about = "Prove or refute a forced win within D plies for the player to move \
                  (docs/rules.md, section 8): a mate by the colour that player controls, whatever the \
                  opponent plays, its switches included; every (move, switch choice) is a ply. \
                  The last line reads `result win|none first <uci>[ switch] plies <d> nodes <n> \
                  time <ms>` (first 0000 when there is no win). A position the built-in opening \
                  book settles is answered from it (nodes 0), unless --no-book. --after plays \
                  actions first and asks the same question below them; --split K prints the \
                  subproblems K plies below instead (a JSON object a line), the parts of \
                  cluster/driver.py's distributed solve (docs/cluster.md)."
)]
pub struct SolveArgs {
    /// The position (default: the start position).
    fen: Option<String>,
    /// The bound on plies (1 to 32); the answer is the smallest bound with a win.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    plies: u32,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    variant: VariantArgs,
    /// One JSON object: result, first, line, plies, nodes, time.
    #[arg(long)]
    json: bool,
    /// Threads that share the root's actions.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Solve even where the built-in opening book has the answer.
    #[arg(long)]
    no_book: bool,
    /// Actions played from the position first, in UCI (`switch` after a
    /// move that switches): whether the position's player to move still
    /// wins within --plies more plies, the path's positions counting for
    /// repetitions.
    #[arg(long, value_name = "ACTIONS", default_value = "")]
    after: String,
    /// Print the subproblems K plies below (after --after) instead of
    /// solving: one JSON object a line, in the engine's order.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    split: Option<u32>,
}

#[derive(Serialize)]
struct Report {
    /// `win` or `none`.
    result: &'static str,
    /// The first action in UCI, ` switch` where it switches; `0000` for none.
    first: String,
    /// The winning line against the longest defence.
    line: Vec<String>,
    /// The smallest bound with a win, or the bound searched.
    plies: u32,
    nodes: u64,
    /// Milliseconds.
    time: u64,
}

/// A subproblem of `--split`.
#[derive(Serialize)]
struct Subproblem {
    /// The actions from the root, as `--after` takes them.
    after: String,
    fen: String,
    /// Switches in a row by the player to move, and their limit (`null`: none).
    switches: u32,
    limit: Option<u32>,
    /// Whether the root's player (the attacker) is to move.
    attacker_to_move: bool,
    /// The plies left of the bound.
    plies: u32,
    /// `win` or `none` where the game ended sooner; `null` to be solved.
    settled: Option<&'static str>,
}

/// `--after`'s actions, read as a game reads a UCI move list; the solver
/// checks them again against its own tree.
fn parse_path(
    position: &Position,
    rules: Option<Rules>,
    text: &str,
) -> Result<Vec<Action>, String> {
    let mut game = GameState::new(position.clone(), rules.unwrap_or_default());
    let tokens: Vec<&str> = text.split_whitespace().collect();
    game.apply_uci_moves(&tokens)
        .map_err(|(index, token, error)| {
            format!("--after: '{token}' (word {}): {error}", index + 1)
        })?;
    Ok(game.plies().iter().map(Ply::action).collect())
}

fn actions_text(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|action| action.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the command; its only failure is bad input.
pub fn run(args: &SolveArgs) -> Result<(), Failure> {
    let fen = args.fen.as_deref().unwrap_or(Position::START_FEN);
    let position = Position::from_fen(fen)
        .map_err(|error| format!("bad FEN: {error}"))
        .or_usage()?;
    let problem = Problem {
        rules: args.variant.variant(args.rules.rules()).rules(),
        attacker_switches: true,
    };
    let path = parse_path(&position, problem.rules, &args.after).or_usage()?;
    let not_in_tree = |error: NotInTree| {
        format!(
            "--after: action {} ({}): {}",
            error.index + 1,
            path[error.index],
            error.reason
        )
    };
    if let Some(depth) = args.split {
        let leaves = split(&position, &path, problem, depth, args.plies)
            .map_err(not_in_tree)
            .or_usage()?;
        let mut out = std::io::stdout().lock();
        for leaf in leaves {
            let subproblem = Subproblem {
                after: actions_text(&leaf.path),
                fen: leaf.node.position.to_fen(),
                switches: leaf.node.run.switches(),
                limit: leaf.node.run.limit(),
                attacker_to_move: leaf.node.attacker,
                plies: leaf.plies,
                settled: leaf.settled.map(|win| if win { "win" } else { "none" }),
            };
            let line = serde_json::to_string(&subproblem).expect("a subproblem always serializes");
            if writeln!(out, "{line}").is_err() {
                // Whoever reads has stopped reading (`| head`).
                break;
            }
        }
        return Ok(());
    }
    let started = Instant::now();
    let from_book = problem
        .rules
        .filter(|_| !args.no_book && path.is_empty())
        .and_then(|rules| Book::built_in().answer(&position, rules, args.plies));
    let solution = match from_book {
        Some(answer) => {
            eprintln!("answered from the built-in opening book (docs/solver.md)");
            Solution {
                win: match answer {
                    Answer::Win { plies, line } => Some((plies, line.to_vec())),
                    Answer::NoneWithin => None,
                },
                nodes: 0,
            }
        }
        None => solve_after(&position, &path, problem, args.plies, args.threads.into())
            .map_err(not_in_tree)
            .or_usage()?,
    };
    let line: Vec<String> = solution
        .win
        .as_ref()
        .map(|(_, line)| line.iter().map(|&action| action.to_string()).collect())
        .unwrap_or_default();
    let report = Report {
        result: if solution.win.is_some() {
            "win"
        } else {
            "none"
        },
        first: line.first().cloned().unwrap_or_else(|| "0000".to_string()),
        plies: solution
            .win
            .as_ref()
            .map_or(args.plies, |(plies, _)| *plies),
        line,
        nodes: solution.nodes,
        time: started.elapsed().as_millis() as u64,
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("a report always serializes")
        );
        return Ok(());
    }
    match solution.win {
        Some((plies, _)) => println!("win within {plies} plies: {}", report.line.join(" ")),
        None => println!("no win within {} plies", args.plies),
    }
    println!(
        "result {} first {} plies {} nodes {} time {}",
        report.result, report.first, report.plies, report.nodes, report.time
    );
    Ok(())
}
