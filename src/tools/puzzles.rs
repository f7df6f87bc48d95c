//! `catena puzzles`: SSCC puzzles as docs/rules.md, section 8 defines them, each
//! proven by the solver when it is written, the same file for the same seed.
//!
//! Candidates come from seeded games off the balanced openings: half are
//! self-play by the SSCC search at a small depth after a few random moves,
//! half random walks. Along each game every position is tried, and the
//! first that is a puzzle is kept (one a game, for variety): a forced win
//! within D plies, D the smallest, at least 2 and at most `--plies`; exactly
//! one winning first action; and no win within D when the attacker may not
//! switch, so that the solution needs a switch.

use catena_core::game::{Action, Variant};
use catena_engine::thread::{Control, Limits, Root};
use catena_engine::threadpool;
use std::fs::File;
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use once_cell::sync::Lazy;
use rayon::prelude::*;

use catena_core::board::Position;
use catena_core::game::{GameState, Rules, SwitchRule};
use catena_core::rng::SplitMix64;

use crate::cli::{Failure, FailureKind, RulesArgs};

use catena_engine::solve::{Node, Problem, Solver};
use catena_engine::transposition::TranspositionTable;

/// The start positions of the candidate games, read once.
static OPENINGS: Lazy<Vec<&str>> = Lazy::new(|| {
    include_str!("../../openings/balanced.epd")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .collect()
});

/// Plies of a candidate game, at most; positions from the sixth on are tried.
const GAME_PLIES: usize = 40;
const FIRST_TRIED: usize = 6;

#[derive(clap::Args, Debug)]
#[command(about = "Write SSCC puzzles (docs/rules.md, section 8), each proven when written")]
pub struct PuzzlesArgs {
    /// Puzzles to write.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    count: u32,
    /// The seed of the candidate games: the same seed writes the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The largest D (2 to 9).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=9))]
    plies: u32,
    /// The smallest D kept (2 to 9): longer puzzles are rarer among the first of a game.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=9))]
    min_plies: u32,
    #[command(flatten)]
    rules: RulesArgs,
    /// Solver nodes allowed per position tried; a position not settled within them is skipped.
    #[arg(long, default_value_t = 200_000)]
    nodes: u64,
    /// Threads, each trying its own games (the output does not depend on them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The file to write (default: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// A proven puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub fen: String,
    pub plies: u32,
    pub line: Vec<Action>,
}

/// Whether `position` is a puzzle under `rules` with D at most `max_plies`,
/// settled within `nodes` solver nodes: its shortest win and a winning line.
pub fn puzzle_at(
    position: &Position,
    rules: Rules,
    plies: RangeInclusive<u32>,
    nodes: u64,
) -> Option<Puzzle> {
    let never = AtomicBool::new(false);
    let problem = Problem {
        rules: Some(rules),
        attacker_switches: true,
    };
    let mut solver = Solver::new(problem, &never).with_node_limit(nodes);
    let root = Node::root(position.clone());
    let shortest = solver.shortest(&root, *plies.end()).ok()??;
    if shortest < (*plies.start()).max(2) || solver.winning_actions(&root, shortest)?.len() != 1 {
        return None;
    }
    let plies = shortest;
    let line = solver.line(&root, plies)?;
    let without_switches = Problem {
        attacker_switches: false,
        ..problem
    };
    let mut plain = Solver::new(without_switches, &never).with_node_limit(nodes);
    (!plain.wins(&root, plies)?).then(|| Puzzle {
        fen: position.to_fen(),
        plies,
        line,
    })
}

/// The EPD line of docs/rules.md, section 8.
pub fn epd_line(puzzle: &Puzzle, rules: &Rules, id: &str) -> String {
    let actions: Vec<String> = puzzle.line.iter().map(|&a| a.to_string()).collect();
    format!(
        "{} bm \"{}\"; dm {}; pv \"{}\"; rule {}; min-enclosed {}; id \"{id}\";",
        puzzle.fen,
        actions.first().map_or("", String::as_str),
        puzzle.plies,
        actions.join(" "),
        rules.switch_rule,
        rules.min_enclosed
    )
}

/// A line of a puzzle file, as `epd_line` writes it: the puzzle and its rules.
pub fn read_puzzle(text: &str) -> Result<(Puzzle, Rules), String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() < 4 {
        return Err("a puzzle line starts with a FEN".to_string());
    }
    // The FEN's four fields, and its two counters where they are written.
    let counters = words[4..]
        .iter()
        .take(2)
        .take_while(|word| word.parse::<u32>().is_ok())
        .count();
    let fen = words[..4 + counters].join(" ");
    let rest = words[4 + counters..].join(" ");
    let operations: Vec<(&str, &str)> = rest
        .split(';')
        .map(str::trim)
        .filter(|field| !field.is_empty())
        .map(|field| {
            let (opcode, operand) = field.split_once(' ').unwrap_or((field, ""));
            (opcode, operand.trim().trim_matches('"'))
        })
        .collect();
    let field = |name: &str| {
        operations
            .iter()
            .find(|(opcode, _)| *opcode == name)
            .map(|&(_, operand)| operand)
            .ok_or_else(|| format!("no '{name}' in the puzzle"))
    };
    let position = Position::from_fen(&fen).map_err(|error| format!("bad FEN: {error}"))?;
    let rule: SwitchRule = field("rule")?.parse()?;
    let min_enclosed = field("min-enclosed")?
        .parse()
        .map_err(|_| "bad min-enclosed".to_string())?;
    let rules = Rules::new(rule, min_enclosed)?;
    let plies = field("dm")?.parse().map_err(|_| "bad dm".to_string())?;
    let mut line = Vec::new();
    let mut board = position.clone();
    let mut tokens = field("pv")?.split_whitespace().peekable();
    while let Some(token) = tokens.next() {
        let mv = board
            .parse_move(token)
            .map_err(|error| format!("bad pv move {token}: {error}"))?;
        let switch = tokens.next_if_eq(&"switch").is_some();
        line.push(Action { mv, switch });
        board = board.after(mv);
    }
    let best = field("bm")?;
    if line.first().map(|&action| action.to_string()).as_deref() != Some(best) {
        return Err(format!("bm \"{best}\" does not start the pv"));
    }
    Ok((
        Puzzle {
            fen: position.to_fen(),
            plies,
            line,
        },
        rules,
    ))
}

/// The positions of candidate game `game` of `seed`, from its sixth ply on.
fn candidate_game(seed: u64, game: u64, rules: Rules) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed ^ SplitMix64::new(game).next_u64());
    let opening = OPENINGS[rng.below(OPENINGS.len())];
    let Ok(mut state) = GameState::from_fen(opening, rules) else {
        return Vec::new();
    };
    let self_play = game.is_multiple_of(2);
    let random_plies = 2 + rng.below(4);
    let tt = Arc::new(TranspositionTable::new(1));
    let mut positions = Vec::new();
    for ply in 0..GAME_PLIES {
        if state.outcome().is_some() {
            break;
        }
        if ply >= FIRST_TRIED {
            positions.push(state.position().clone());
        }
        let (mv, switch) = if self_play && ply >= random_plies {
            let root = Root {
                position: state.position().clone(),
                run: state.run(),
                history: Vec::new(),
                variant: Variant::Sscc(rules),
            };
            let limits = Limits {
                depth: Some(2),
                multipv: 1,
                threads: 1,
                ..Limits::default()
            };
            let control = Control::default();
            let result = threadpool::search(
                &root,
                &limits,
                &tt,
                &mut Vec::new(),
                &control,
                Instant::now(),
                &mut |_| {},
            );
            match result.best {
                Some(action) => (action.mv, action.switch),
                None => break,
            }
        } else {
            let moves = state.position().legal_moves();
            let mv = moves[rng.below(moves.len())];
            (mv, state.can_switch_after(mv).is_ok() && rng.below(2) == 0)
        };
        if state.apply(Action { mv, switch }).is_err() {
            break;
        }
    }
    positions
}

/// Runs the command: bad arguments and a file that cannot be created are
/// bad input, a write that fails a failure at run time.
pub fn run(args: &PuzzlesArgs) -> Result<(), Failure> {
    let rules = args.rules.rules();
    if args.min_plies > args.plies {
        return Err(Failure::Usage(format!(
            "--min-plies {} is above --plies {}",
            args.min_plies, args.plies
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.into())
        .build()
        .map_err(|error| format!("cannot start {} threads: {error}", args.threads))
        .or_runtime()?;
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(
            File::create(path)
                .map_err(|error| format!("cannot write {}: {error}", path.display()))
                .or_usage()?,
        ),
        None => Box::new(std::io::stdout()),
    };
    let header = format!(
        "# catena puzzles --count {} --seed {} --plies {} --min-plies {} --rule {} --min-enclosed {} --nodes {}\n",
        args.count,
        args.seed,
        args.plies,
        args.min_plies,
        rules.switch_rule,
        rules.min_enclosed,
        args.nodes
    );
    out.write_all(header.as_bytes())
        .map_err(|error| format!("cannot write the header: {error}"))
        .or_runtime()?;
    let mut found = 0;
    let mut game = 0u64;
    // Games in batches, in parallel; kept in game order, so the file does not
    // depend on the threads.
    let batch = 4 * u64::from(args.threads);
    while found < args.count {
        let puzzles: Vec<Option<(u64, usize, Puzzle)>> = pool.install(|| {
            (game..game + batch)
                .into_par_iter()
                .map(|game| {
                    candidate_game(args.seed, game, rules)
                        .iter()
                        .enumerate()
                        .find_map(|(index, position)| {
                            puzzle_at(position, rules, args.min_plies..=args.plies, args.nodes)
                                .map(|puzzle| (game, FIRST_TRIED + index, puzzle))
                        })
                })
                .collect()
        });
        for (game, ply, puzzle) in puzzles.into_iter().flatten() {
            if found == args.count {
                break;
            }
            found += 1;
            let id = format!("{}-{}-{game}-{ply}", rules.switch_rule, args.seed);
            // Written as found, so that a long run stopped early keeps its puzzles.
            writeln!(out, "{}", epd_line(&puzzle, &rules, &id))
                .and_then(|()| out.flush())
                .map_err(|error| format!("cannot write a puzzle: {error}"))
                .or_runtime()?;
            log::info!("{found} puzzles after {} games", game + 1);
        }
        game += batch;
    }
    Ok(())
}
