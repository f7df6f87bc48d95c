//! `catena bench sscc`: how deep and how fast the search goes in SSCC
//! positions, against chess mode on the same boards.
//!
//! The positions (`sscc_bench.epd`, built into the binary) come from SSCC
//! games. Each is searched in chess mode and in sscc mode, from an empty
//! table and fresh histories: once to a fixed depth (nodes and time; the
//! node total is a signature, the same on any machine) and once for a fixed
//! time (the depth completed, the nodes per second and the score). The
//! medians, the sscc/chess ratios and how many positions each mode already
//! calls decided close the report.

use catena_core::game::Variant;
use catena_engine::score;
use catena_engine::thread::{Control, Limits, Root};
use catena_engine::threadpool;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;

use crate::tools::epd::{self, EpdLine};
use catena_core::board::{Piece, Position};
use catena_core::game::{ChainTest, GameState, Rules};
use catena_engine::search;
use catena_engine::transposition::TranspositionTable;
use catena_engine::tree_stats::{self, TreeStats};

/// The positions: `<fen> ;moves <uci moves with switch tokens> ;kind <kind> ;id "<game and ply>"`.
pub const POSITIONS: &str = include_str!("sscc_bench.epd");

pub const DEFAULT_DEPTH: i32 = 8;
pub const DEFAULT_MOVETIME_MS: u64 = 2000;

/// `catena bench sscc`.
#[derive(Args, Debug, Clone)]
pub struct SsccBenchArgs {
    /// The fixed depth of the first search of each position and mode.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=30))]
    pub depth: i32,
    /// Milliseconds of the second search of each position and mode; 0 skips it.
    #[arg(long, default_value_t = DEFAULT_MOVETIME_MS, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub movetime: u64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Other positions instead of the bench's own: an EPD file (as
    /// `openings/`), or lines as the bench's own with `;moves` played
    /// from the position and an `;id`.
    #[arg(long, value_name = "FILE")]
    pub positions: Option<std::path::PathBuf>,
}

/// What an SSCC position is like, for the bench's balance of positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A switch run in progress: the player to move has switched already.
    Run,
    /// Four pieces or fewer besides kings and pawns.
    Endgame,
    /// Two pawn rams or more (a pawn blocked by an enemy pawn).
    Closed,
    /// A middlegame in which the player to move can close a chain.
    Pocket,
    /// None of the above.
    Open,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Run,
        Kind::Pocket,
        Kind::Endgame,
        Kind::Closed,
        Kind::Open,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Pocket => "pocket",
            Kind::Endgame => "endgame",
            Kind::Closed => "closed",
            Kind::Open => "open",
        }
    }

    /// The kind of the position `game` has reached: the first of
    /// [`Kind::ALL`] that fits.
    pub fn of(game: &GameState) -> Kind {
        let position = game.position();
        if game.run().switches() > 0 {
            Kind::Run
        } else if officers(position) <= 4 {
            Kind::Endgame
        } else if pawn_rams(position) >= 2 {
            Kind::Closed
        } else if has_chain_move(position, game.rules()) {
            Kind::Pocket
        } else {
            Kind::Open
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(text: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|kind| kind.name() == text)
            .ok_or_else(|| format!("'{text}' is not a kind of bench position"))
    }
}

/// Whether a move of the side to move closes a chain.
fn has_chain_move(position: &Position, rules: &Rules) -> bool {
    let chains = ChainTest::new(position, rules);
    position.generate_moves(|moves| moves.into_iter().any(|mv| chains.forms_chain(mv)))
}

/// The pieces on the board besides kings and pawns.
fn officers(position: &Position) -> u32 {
    (position.occupied() - position.pieces(Piece::Pawn) - position.pieces(Piece::King)).len()
}

/// White pawns with a black pawn right in front of them.
fn pawn_rams(position: &Position) -> u32 {
    let white = position.colored_pieces(catena_core::board::Color::White, Piece::Pawn);
    let black = position.colored_pieces(catena_core::board::Color::Black, Piece::Pawn);
    (white.up() & black).len()
}

/// One position of the bench: the game that reaches it, from the line's FEN
/// through its moves.
pub struct BenchPosition {
    pub id: String,
    pub kind: Kind,
    pub game: GameState,
}

impl BenchPosition {
    /// The line's position, checking that its moves are legal and its kind,
    /// if given, is right.
    pub fn from_line(line: &EpdLine, rules: Rules) -> Result<BenchPosition, String> {
        let at = |problem: String| format!("line {}: {problem}", line.number);
        // A plain EPD line (as `openings/`) has its operations after the
        // four fields without a `;`.
        let fen = epd::fen_of(&line.fen);
        let mut game = GameState::from_fen(&fen, rules).map_err(|error| at(error.to_string()))?;
        let moves: Vec<&str> = line
            .operand("moves")
            .unwrap_or("")
            .split_whitespace()
            .collect();
        game.apply_uci_moves(&moves)
            .map_err(|(_, token, error)| at(format!("{token}: {error}")))?;
        let kind = match line.operand("kind") {
            Some(kind) => kind.parse().map_err(at)?,
            None => Kind::of(&game),
        };
        if Kind::of(&game) != kind {
            return Err(at(format!("a {} position marked {kind}", Kind::of(&game))));
        }
        let id = line.operand("id").map_or_else(
            || format!("line {}", line.number),
            |id| id.trim_matches('"').to_string(),
        );
        Ok(BenchPosition { id, kind, game })
    }

    /// Where a search of this position in `variant` starts.
    pub fn root(&self, variant: Variant) -> Root {
        Root::of_game(&self.game, variant)
    }
}

/// The bench's positions, under the default rules.
pub fn positions() -> Result<Vec<BenchPosition>, String> {
    positions_of(POSITIONS)
}

/// The positions of an EPD text, under the default rules.
fn positions_of(text: &str) -> Result<Vec<BenchPosition>, String> {
    epd::parse_suite(text)
        .iter()
        .map(|line| BenchPosition::from_line(line, Rules::default()))
        .collect()
}

/// One search's figures.
#[derive(Clone, Copy, Debug, Default)]
struct Measure {
    nodes: u64,
    time: Duration,
    depth: i32,
    /// For the player to move, as the search's `score`.
    score: i32,
}

impl Measure {
    fn nps(self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches `root` from a fresh table and histories, to `depth` or for `movetime`.
fn measure(root: &Root, hash_mb: usize, depth: Option<i32>, movetime: Option<Duration>) -> Measure {
    let tt = Arc::new(TranspositionTable::new(hash_mb));
    let limits = Limits {
        depth,
        multipv: 1,
        threads: 1,
        ..Limits::default()
    };
    let control = Control::default();
    let started = Instant::now();
    let result = std::thread::scope(|scope| {
        // A fixed time is spent whole, as `go movetime` should: the search
        // is stopped when it is up, in the middle of an iteration.
        let (done, wait) = mpsc::channel::<()>();
        if let Some(movetime) = movetime {
            let control = &control;
            scope.spawn(move || {
                if wait.recv_timeout(movetime).is_err() {
                    control.stop.store(true, Ordering::Relaxed);
                }
            });
        }
        let mut histories = Vec::new();
        let result = threadpool::search(
            root,
            &limits,
            &tt,
            &mut histories,
            &control,
            started,
            &mut |_| {},
        );
        let _ = done.send(());
        result
    });
    Measure {
        nodes: result.nodes,
        time: started.elapsed(),
        depth: result.depth,
        score: result.score,
    }
}

/// A score as `info` writes it: `cp N` or `mate N`.
fn score_text(score: i32) -> String {
    match score::uci_score(score) {
        (_, Some(moves)) => format!("mate {moves}"),
        (centipawns, None) => format!("cp {}", centipawns.unwrap_or(0)),
    }
}

/// One position's two searches in one mode.
struct Searched {
    fixed_depth: Measure,
    /// `None` when the bench skips the fixed-time search.
    fixed_time: Option<Measure>,
}

/// The sscc figure over the chess one (0 where chess's is 0).
fn ratio(sscc: f64, chess: f64) -> f64 {
    sscc / chess.max(f64::MIN_POSITIVE)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Runs the bench, handing each line of the report to `print`; the last is
/// `<nodes> nodes <nps> nps` over the fixed-depth searches of both modes.
pub fn run(args: &SsccBenchArgs, print: &mut dyn FnMut(&str)) -> Result<(), String> {
    let positions = match &args.positions {
        None => positions()?,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            positions_of(&text).map_err(|error| format!("{}: {error}", path.display()))?
        }
    };
    if positions.is_empty() {
        return Err("no positions".to_string());
    }
    let modes = [Variant::Chess, Variant::Sscc(Rules::default())];
    let movetime = (args.movetime > 0).then(|| Duration::from_millis(args.movetime));
    print(&format!(
        "{:>2} {:<7} {:<5} {:>11} {:>8} | {:>5} {:>9} {:>10}   depth {}, then {} ms each",
        "#", "kind", "mode", "nodes", "ms", "depth", "nps", "score", args.depth, args.movetime
    ));
    // For each mode, each position's searches, and where their fixed-depth
    // trees went (`--features tree-stats` only).
    let mut measures: [Vec<Searched>; 2] = [Vec::new(), Vec::new()];
    let mut trees = [TreeStats::default(); 2];
    for (index, bench_position) in positions.iter().enumerate() {
        for (mode, variant) in modes.into_iter().enumerate() {
            let root = bench_position.root(variant);
            let hash_mb = args.hash as usize;
            tree_stats::take();
            let fixed_depth = measure(&root, hash_mb, Some(args.depth), None);
            if let Some(tree) = tree_stats::take() {
                trees[mode].add(&tree);
            }
            let fixed_time = movetime.map(|movetime| measure(&root, hash_mb, None, Some(movetime)));
            let (depth, nps, score) = fixed_time.map_or_else(
                || ("-".to_string(), "-".to_string(), "-".to_string()),
                |timed| {
                    (
                        timed.depth.to_string(),
                        timed.nps().to_string(),
                        score_text(timed.score),
                    )
                },
            );
            print(&format!(
                "{:>2} {:<7} {:<5} {:>11} {:>8} | {:>5} {:>9} {:>10}   {}",
                index + 1,
                bench_position.kind,
                if mode == 0 { "chess" } else { "sscc" },
                fixed_depth.nodes,
                fixed_depth.time.as_millis(),
                depth,
                nps,
                score,
                bench_position.id
            ));
            measures[mode].push(Searched {
                fixed_depth,
                fixed_time,
            });
        }
    }
    let medians = measures.each_ref().map(|runs| {
        let of =
            |figure: fn(&Searched) -> Option<f64>| median(runs.iter().filter_map(figure).collect());
        [
            of(|searched| Some(searched.fixed_depth.nodes as f64)),
            of(|searched| Some(searched.fixed_depth.time.as_secs_f64() * 1000.0)),
            of(|searched| searched.fixed_time.map(|timed| f64::from(timed.depth))),
            of(|searched| searched.fixed_time.map(|timed| timed.nps() as f64)),
        ]
    });
    for (mode, figures) in ["chess", "sscc"].iter().zip(medians) {
        print(&format!(
            "median {mode:<5} nodes {:.0} ms {:.0} | depth {:.1} nps {:.0}",
            figures[0], figures[1], figures[2], figures[3]
        ));
    }
    let median_ratio = |figure: usize| ratio(medians[1][figure], medians[0][figure]);
    print(&format!(
        "ratio sscc/chess nodes {:.2} ms {:.2} | depth {:.2} nps {:.2}",
        median_ratio(0),
        median_ratio(1),
        median_ratio(2),
        median_ratio(3)
    ));
    if movetime.is_some() {
        // A search that ends beyond `DECIDED` sees the game won or lost
        // already: its depth measures a hunt through runs for the mate,
        // not the choice of a move in a game still open.
        let decided = measures.each_ref().map(|runs| {
            runs.iter()
                .filter_map(|searched| searched.fixed_time)
                .filter(|timed| timed.score.abs() >= search::DECIDED)
                .count()
        });
        print(&format!(
            "decided (mate, or {} cp or more either way) chess {} sscc {} of {}",
            search::DECIDED,
            decided[0],
            decided[1],
            positions.len()
        ));
        // Once a mate is found the search hunts the other moves for a
        // faster one, or runs up the depth at once: the medians without
        // the positions whose sscc search ends in a mate, and without
        // those where either mode's does, show the rest.
        let without_mate = |modes: &[usize]| -> Vec<usize> {
            (0..positions.len())
                .filter(|&index| {
                    modes.iter().all(|&mode| {
                        measures[mode][index]
                            .fixed_time
                            .is_some_and(|timed| timed.score.abs() < score::MATE_BOUND)
                    })
                })
                .collect()
        };
        for (label, open) in [
            ("in sscc", without_mate(&[1])),
            ("in either mode", without_mate(&[0, 1])),
        ] {
            let [chess, sscc] = measures.each_ref().map(|runs| {
                median(
                    open.iter()
                        .filter_map(|&index| runs[index].fixed_time)
                        .map(|timed| f64::from(timed.depth))
                        .collect(),
                )
            });
            print(&format!(
                "without a mate {label} ({} of {}): median depth chess {chess:.1} sscc {sscc:.1}, ratio {:.2}",
                open.len(),
                positions.len(),
                ratio(sscc, chess)
            ));
        }
    }
    if tree_stats::ENABLED {
        for (mode, tree) in ["chess", "sscc"].iter().zip(trees) {
            for line in tree.to_string().lines() {
                print(&format!("tree {mode:<5} {line}"));
            }
        }
    }
    let fixed_depth = || {
        measures
            .iter()
            .flatten()
            .map(|searched| searched.fixed_depth)
    };
    let nodes: u64 = fixed_depth().map(|fixed| fixed.nodes).sum();
    let time: f64 = fixed_depth().map(|fixed| fixed.time.as_secs_f64()).sum();
    print(&format!(
        "{nodes} nodes {} nps",
        (nodes as f64 / time.max(1e-6)) as u64
    ));
    Ok(())
}
