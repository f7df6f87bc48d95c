//! `catena_core::chain` against the oracle of `tests/it/common/oracle.rs` (the spec's
//! definition, enumerated): real-game-like positions, random boards at 20%..80%,
//! dense clusters, rings, pieces deep inside rooms, grids other than 8x8,
//! MinEnclosed 1, 2 and 3; the corridor search both sequential and parallel.
//!
//! Every generator is seeded; a failure prints the seed, the grid (`#` piece,
//! `.` empty, `M` moved) and both answers. Positions on which the oracle's
//! search exceeds its budget are dropped (never labelled) and not counted.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};
use rayon::prelude::*;

use crate::common::generators::{
    Case, cells_of, dense_cluster, piece_in_a_room, random_board, random_game, ring,
};
use crate::common::oracle::{
    OGrid, Options, XY, check_link, enclosed_empties, largest_king_group, oracle,
};
use crate::common::scratch::ScratchDir;
use crate::common::strategies::grid_after_a_move;
use crate::common::{chain_suite, spec_table};
use catena_core::board::{Bitboard, Placement, Position, Square};
use catena_core::chain::{self, Cell, Grid, Parallelism};
use catena_core::rng::SplitMix64;

const MINS: [u32; 3] = [1, 2, 3];

fn cell(name: &str) -> XY {
    let square: Square = name.parse().unwrap();
    (square.file() as usize, square.rank() as usize)
}

fn to_grid(grid: &OGrid) -> Grid {
    let mut g = Grid::new(grid.width, grid.height).unwrap();
    for c in grid.occupied_cells() {
        g.set_occupied(Cell::new(c.0, c.1), true);
    }
    g
}

fn to_cells(cells: &[XY]) -> Vec<Cell> {
    cells.iter().map(|&(x, y)| Cell::new(x, y)).collect()
}

/// Counts of one family of positions.
#[derive(Default)]
struct Tally {
    evaluated: AtomicUsize,
    dropped: AtomicUsize,
    checks: AtomicUsize,
    chains: AtomicUsize,
}

/// Compares everything `catena_core::chain` says about one case with the oracle.
/// `Ok(false)`: the oracle's budget ran out, the case is dropped.
fn check(case: &Case, budget: u64, tally: &Tally) -> Result<bool, String> {
    let options = Options {
        budget,
        rim_pruning: true,
    };
    let Some((verdicts, _)) = oracle(&case.grid, &case.moved, &MINS, options) else {
        tally.dropped.fetch_add(1, Ordering::Relaxed);
        return Ok(false);
    };
    tally.evaluated.fetch_add(1, Ordering::Relaxed);
    let grid = to_grid(&case.grid);
    let moved = to_cells(&case.moved);
    let fail = |min: u32, what: String| {
        Err(format!(
            "{} MinEnclosed {min}, moved {:?}: {what}\n{}",
            case.origin,
            case.moved,
            case.grid.render(&case.moved)
        ))
    };
    for v in &verdicts {
        let m = v.min_enclosed;
        tally.checks.fetch_add(1, Ordering::Relaxed);
        if m == 2 && v.chain {
            tally.chains.fetch_add(1, Ordering::Relaxed);
        }
        let verdict = chain::grid_forms_chain(&grid, &moved, m);
        let size = chain::grid_chain_size(&grid, &moved, m);
        for parallelism in [Parallelism::Sequential, Parallelism::Parallel] {
            let forced = chain::grid_forms_chain_with(&grid, &moved, m, parallelism);
            if forced != v.chain {
                return fail(
                    m,
                    format!("oracle chain {}, {parallelism:?} {forced}", v.chain),
                );
            }
        }
        if verdict != v.chain || size != v.size {
            return fail(
                m,
                format!(
                    "oracle chain {} size {} (smallest loop {:?}), catena chain {verdict} size {size}",
                    v.chain, v.size, v.smallest
                ),
            );
        }
        if case.grid.width == 8 && case.grid.height == 8 {
            let occupied = Bitboard(case.grid.to_u64());
            let landing: Bitboard = case
                .moved
                .iter()
                .map(|&(x, y)| Square::new(x as u8, y as u8))
                .collect();
            let b_verdict = chain::forms_chain(occupied, landing, m);
            let b_size = chain::chain_size(occupied, landing, m);
            if b_verdict != v.chain || b_size != v.size {
                return fail(
                    m,
                    format!(
                        "oracle chain {} size {}, forms_chain {b_verdict} chain_size {b_size}",
                        v.chain, v.size
                    ),
                );
            }
        }
        let analysed = chain::analyse(&grid, &moved, m);
        match (&analysed, v.chain) {
            (None, false) => {}
            (Some(found), true) => {
                let cells: Vec<XY> = found.smallest.iter().map(|c| (c.x, c.y)).collect();
                if found.size != v.size {
                    return fail(
                        m,
                        format!("analyse size {} != oracle {}", found.size, v.size),
                    );
                }
                if let Err(why) = check_link(&case.grid, &cells) {
                    return fail(m, format!("analyse's smallest {cells:?} is no link: {why}"));
                }
                if !cells.iter().any(|c| case.moved.contains(c)) {
                    return fail(
                        m,
                        format!("analyse's smallest {cells:?} misses the moved cells"),
                    );
                }
                if cells.len() != v.smallest_len {
                    return fail(
                        m,
                        format!(
                            "analyse's smallest has {} cells {cells:?}, the oracle's {} {:?}",
                            cells.len(),
                            v.smallest_len,
                            v.smallest
                        ),
                    );
                }
                let inside = enclosed_empties(&case.grid, &cells);
                let mut claimed: Vec<XY> = found.enclosed.iter().map(|c| (c.x, c.y)).collect();
                claimed.sort();
                if inside != claimed {
                    return fail(
                        m,
                        format!("{cells:?} encloses {inside:?}, analyse claims {claimed:?}"),
                    );
                }
                if (largest_king_group(&inside) as u32) < m {
                    return fail(m, format!("{cells:?} encloses no group of {m}: {inside:?}"));
                }
            }
            (analysed, _) => {
                return fail(m, format!("oracle chain {}, analyse {analysed:?}", v.chain));
            }
        }
    }
    Ok(true)
}

/// Runs `check` on every case in parallel; panics with the first failures.
/// Returns the number of evaluated cases.
fn run_family(
    name: &str,
    cases: impl ParallelIterator<Item = Case>,
    budget: u64,
    at_least: usize,
) -> usize {
    let start = Instant::now();
    let tally = Tally::default();
    let mut failures: Vec<String> = cases
        .filter_map(|case| check(&case, budget, &tally).err())
        .collect();
    failures.sort_by_key(|f| f.len());
    let evaluated = tally.evaluated.load(Ordering::Relaxed);
    println!(
        "{name}: {evaluated} positions evaluated ({} checks, {} chains at MinEnclosed 2), {} dropped over budget, {:.1}s",
        tally.checks.load(Ordering::Relaxed),
        tally.chains.load(Ordering::Relaxed),
        tally.dropped.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements; the smallest:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        evaluated >= at_least,
        "{name}: only {evaluated} positions evaluated"
    );
    evaluated
}

/// Every move of the random legal games of `seeds` (70% quiet moves, so the
/// board stays full): its landing squares, two for castling.
fn game_cases(seeds: std::ops::Range<u64>) -> impl ParallelIterator<Item = Case> {
    seeds.into_par_iter().flat_map_iter(|seed| {
        random_game(seed, 150, 70)
            .into_iter()
            .enumerate()
            .map(move |(ply, m)| Case {
                grid: OGrid::from_u64(m.occupied.0),
                moved: cells_of(m.landing),
                origin: format!("random_game(seed {seed}, 150, 70) ply {ply} {}", m.mv),
            })
    })
}

#[test]
fn real_game_positions() {
    run_family("real games", game_cases(0..220), 20_000, 25_000);
}

/// The long tier's campaign (`--include-ignored`): as `real_game_positions`,
/// on the next 1,100 games: 155,783 positions (about a minute on 2 cores).
#[test]
#[ignore = "long tier: 155,783 positions"]
fn real_game_positions_long_tier() {
    run_family(
        "real games, long tier",
        game_cases(220..1320),
        20_000,
        150_000,
    );
}

#[test]
fn random_boards_at_every_density() {
    let mut total = 0;
    for percent in [20, 30, 40, 50, 60, 70, 80] {
        // Dense boards only on small grids, where the oracle finishes.
        let sizes: &[(usize, usize, u64)] = match percent {
            20 | 30 => &[(8, 8, 3000), (6, 6, 1500), (5, 5, 1500)],
            40 => &[(8, 8, 1500), (6, 6, 1500), (5, 5, 1500), (4, 4, 1000)],
            50 => &[(8, 8, 300), (6, 6, 800), (5, 5, 1500), (4, 4, 1500)],
            60 => &[(6, 6, 300), (5, 5, 1200), (4, 4, 2000)],
            _ => &[(5, 5, 400), (4, 4, 2500), (4, 5, 1000), (3, 4, 1000)],
        };
        for &(w, h, n) in sizes {
            let cases = (0..n)
                .into_par_iter()
                .map(move |seed| random_board(seed * 131 + percent as u64, w, h, percent));
            total += run_family(
                &format!("random {w}x{h} at {percent}%"),
                cases,
                20_000,
                n as usize / 3,
            );
        }
    }
    println!("random boards: {total} positions");
}

#[test]
fn dense_clusters_and_rings() {
    let mut total = 0;
    for (w, h, n) in [
        (8, 8, 1500),
        (7, 7, 1500),
        (6, 6, 2000),
        (9, 5, 1500),
        (5, 5, 2000),
    ] {
        let cases = (0..n)
            .into_par_iter()
            .map(move |seed| dense_cluster(seed, w, h));
        total += run_family(
            &format!("clusters {w}x{h}"),
            cases,
            20_000,
            n as usize * 3 / 4,
        );
    }
    for (w, h, n) in [
        (8, 8, 3000),
        (7, 7, 2000),
        (6, 6, 2000),
        (9, 5, 2000),
        (12, 12, 1000),
    ] {
        let cases = (0..n).into_par_iter().map(move |seed| ring(seed, w, h));
        total += run_family(
            &format!("rings {w}x{h}"),
            cases,
            20_000,
            n as usize * 9 / 10,
        );
    }
    println!("clusters and rings: {total} positions");
}

/// The moved piece deep inside a walled room, beside other pieces: loops
/// through it can take in only part of the room, so the corridor search
/// decides, and often only part of a group can be surrounded, or none.
#[test]
fn pieces_deep_inside_rooms() {
    let mut total = 0;
    for (w, h, n) in [(5, 5, 1500), (6, 5, 1000), (6, 6, 1000)] {
        let cases = (0..n)
            .into_par_iter()
            .map(move |seed| piece_in_a_room(seed, w, h));
        total += run_family(&format!("rooms {w}x{h}"), cases, 20_000, n as usize / 4);
    }
    println!("pieces in rooms: {total} positions");
}

/// Groups that wind around the moved piece: a loop through it can never take
/// in a whole group, only part of one, so the answer changes with
/// `MinEnclosed`. Each line: the grid, the moved cell, the verdicts for
/// MinEnclosed 1 to 5.
#[test]
fn groups_around_the_moved_piece() {
    let table = [
        // A diamond of four empty cells around the piece: any three, never four.
        (
            "5x5 xxxxx/xx.xx/x.x.x/xx.xx/xxxxx",
            (2, 2),
            [true, true, true, false, false],
        ),
        // Six cells winding around it: five are never inside one loop.
        (
            "5x5 xxxxx/x...x/x.xxx/xx..x/xxxxx",
            (2, 2),
            [true, true, true, true, false],
        ),
        (
            "5x5 xxxxx/x.x.x/x.x.x/x..xx/xxxxx",
            (2, 2),
            [true, true, true, true, false],
        ),
        (
            "5x6 xxxxx/xx.xx/x.x.x/xx.xx/xxxxx/.....",
            (2, 3),
            [true, true, true, false, false],
        ),
    ];
    for (text, (x, y), expected) in table {
        let grid = Grid::parse(text).unwrap();
        let moved = [Cell::new(x, y)];
        let mut oracle_grid = OGrid::new(grid.width(), grid.height());
        for cell in grid.cells().filter(|&cell| grid.is_occupied(cell)) {
            oracle_grid.set((cell.x, cell.y), true);
        }
        let mins = [1, 2, 3, 4, 5];
        let (verdicts, _) =
            oracle(&oracle_grid, &[(x, y)], &mins, Options::default()).expect("in budget");
        for (v, &chain) in verdicts.iter().zip(&expected) {
            let m = v.min_enclosed;
            assert_eq!(v.chain, chain, "{text}: the oracle at MinEnclosed {m}");
            for parallelism in [Parallelism::Sequential, Parallelism::Parallel] {
                let ours = chain::grid_forms_chain_with(&grid, &moved, m, parallelism);
                assert_eq!(ours, chain, "{text}: {parallelism:?} at MinEnclosed {m}");
            }
            let size = chain::grid_chain_size(&grid, &moved, m);
            assert_eq!(size, v.size, "{text}: size at MinEnclosed {m}");
        }
    }
}

#[test]
fn grids_other_than_eight_by_eight() {
    let mut total = 0;
    let sizes = [
        (3, 3, 30, 2000),
        (3, 3, 60, 2000),
        (4, 4, 35, 3000),
        (5, 5, 35, 3000),
        (6, 6, 35, 3000),
        (7, 7, 35, 3000),
        (9, 5, 40, 3000),
        (5, 9, 40, 2000),
        (12, 12, 25, 3000),
        (12, 12, 33, 1000),
        (16, 3, 45, 2000),
        (1, 7, 60, 500),
        (2, 6, 60, 500),
    ];
    for (w, h, percent, n) in sizes {
        let cases = (0..n)
            .into_par_iter()
            .map(move |seed| random_board(seed, w, h, percent));
        total += run_family(
            &format!("{w}x{h} at {percent}%"),
            cases,
            20_000,
            n as usize * 9 / 10,
        );
    }
    println!("other grids: {total} positions");
}

/// The rim pruning the oracle uses for speed is itself checked: testing every
/// empty cell of every loop gives the same answers.
#[test]
fn oracle_rim_pruning_changes_nothing() {
    let cases: Vec<Case> = (0..3000u64)
        .map(|seed| match seed % 4 {
            0 => random_board(seed, 5, 5, 55),
            1 => dense_cluster(seed, 6, 6),
            2 => ring(seed, 7, 7),
            _ => random_board(seed, 8, 8, 35),
        })
        .collect();
    let compared = AtomicUsize::new(0);
    cases.par_iter().for_each(|case| {
        let pruned = Options {
            budget: 20_000,
            rim_pruning: true,
        };
        let full = Options {
            budget: 20_000,
            rim_pruning: false,
        };
        if let (Some((a, _)), Some((b, _))) = (
            oracle(&case.grid, &case.moved, &MINS, pruned),
            oracle(&case.grid, &case.moved, &MINS, full),
        ) {
            compared.fetch_add(1, Ordering::Relaxed);
            for (a, b) in a.iter().zip(&b) {
                assert_eq!(
                    (a.chain, a.size, a.smallest_len),
                    (b.chain, b.size, b.smallest_len),
                    "{}\n{}",
                    case.origin,
                    case.grid.render(&case.moved)
                );
            }
        }
    });
    assert!(compared.load(Ordering::Relaxed) > 2500);
}

#[test]
fn oracle_agrees_with_the_spec_table() {
    let table = spec_table();
    for line in &table {
        let grid = OGrid::from_u64(Placement::from_fen(&line.fen).unwrap().occupied().0);
        for pruning in [true, false] {
            let options = Options {
                budget: 50_000_000,
                rim_pruning: pruning,
            };
            let moved = cells_of(line.moved.iter().copied().collect());
            let (verdicts, _) = oracle(&grid, &moved, &[2], options).expect("in budget");
            let v = &verdicts[0];
            assert_eq!(
                (v.chain, v.size),
                (line.chain, line.size),
                "{} {:?} pruning {pruning}",
                line.fen,
                line.moved
            );
        }
    }
    // The table's f8 line: the smallest link through f8 holds exactly e4 e5 f5 e6 f6.
    let f8 = &table[6];
    assert_eq!(f8.moved, ["f8".parse().unwrap()]);
    let grid = OGrid::from_u64(Placement::from_fen(&f8.fen).unwrap().occupied().0);
    let (verdicts, _) = oracle(&grid, &[cell("f8")], &[2], Options::default()).unwrap();
    let inside = enclosed_empties(&grid, &verdicts[0].smallest);
    let mut expected: Vec<XY> = ["e4", "e5", "f5", "e6", "f6"].map(cell).to_vec();
    expected.sort();
    assert_eq!(inside, expected);
}

/// The table's h2 line says 33 of White's 46 moves in the position before Rh2
/// close a chain.
#[test]
fn the_spec_tables_thirty_three_of_forty_six() {
    let before = Position::from_fen(
        "r3k2r/1bppb1q1/1pn1p2p/p4p2/Q2P2pN/P1PBP1P1/1P1N1PP1/R3K2R w KQkq - 0 16",
    )
    .unwrap();
    let moves = before.legal_moves();
    let closing = moves
        .iter()
        .filter(|&&mv| {
            let grid = OGrid::from_u64(before.occupied_after(mv).0);
            let (v, _) = oracle(
                &grid,
                &cells_of(before.landing_squares(mv)),
                &[2],
                Options {
                    budget: 50_000_000,
                    rim_pruning: true,
                },
            )
            .unwrap();
            v[0].chain
        })
        .count();
    assert_eq!((closing, moves.len()), (33, 46));
}

/// Every line of `perft/chains.epd` against the oracle and `catena_core::chain`.
#[test]
fn chains_epd_suite() {
    let lines = chain_suite();
    assert!(lines.len() >= 300, "only {} positions", lines.len());
    let failures: Vec<String> = lines
        .par_iter()
        .filter_map(|line| {
            // A chain diagram: only where the men stand is read.
            let occupied = Placement::from_fen(&line.fen)
                .unwrap_or_else(|e| panic!("line {}: {e}", line.number))
                .occupied();
            let grid = OGrid::from_u64(occupied.0);
            let options = Options {
                budget: 50_000_000,
                rim_pruning: true,
            };
            let landing: Bitboard = line.moved.iter().copied().collect();
            let (v, _) =
                oracle(&grid, &cells_of(landing), &[2], options).expect("suite lines are labelled");
            let ours = (
                chain::forms_chain(occupied, landing, 2),
                chain::chain_size(occupied, landing, 2),
            );
            let expected = (line.chain, line.size);
            ((v[0].chain, v[0].size) != expected || ours != expected).then(|| {
                format!(
                    "line {}: file {expected:?}, oracle ({}, {}), catena {ours:?}",
                    line.number, v[0].chain, v[0].size
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The oracle's search budget in the properties: enough for nearly every
/// board they draw.
const PROPERTY_BUDGET: u64 = 200_000;

proptest! {
    #![proptest_config(crate::common::strategies::config(300))]

    /// Everything `check` compares (verdicts and sizes at MinEnclosed 1 to 3,
    /// bitboard and grid, sequential and parallel, the smallest chain).
    #[test]
    fn random_boards_agree_with_the_oracle(case in grid_after_a_move(8..=8, 4)) {
        check(&case, PROPERTY_BUDGET, &Tally::default()).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_grids_agree_with_the_oracle(case in grid_after_a_move(2..=9, 4)) {
        check(&case, PROPERTY_BUDGET, &Tally::default()).map_err(TestCaseError::fail)?;
    }
}

/// The two properties above draw boards the oracle labels and that form
/// chains, so they check what they claim to: 200 of each, drawn as they draw
/// them.
#[test]
fn the_random_boards_of_the_properties_form_chains() {
    let mut runner = TestRunner::deterministic();
    for (name, strategy) in [
        ("boards", grid_after_a_move(8..=8, 4)),
        ("grids", grid_after_a_move(2..=9, 4)),
    ] {
        let tally = Tally::default();
        for _ in 0..200 {
            let case = strategy.new_tree(&mut runner).unwrap().current();
            check(&case, PROPERTY_BUDGET, &tally).unwrap();
        }
        let evaluated = tally.evaluated.load(Ordering::Relaxed);
        let chains = tally.chains.load(Ordering::Relaxed);
        println!("{name}: {evaluated} of 200 labelled, {chains} chains at MinEnclosed 2");
        assert!(evaluated >= 180, "{name}: only {evaluated} of 200 labelled");
        assert!(
            chains >= 25,
            "{name}: only {chains} chains at MinEnclosed 2"
        );
    }
}

/// A FEN placement of `grid` (8x8) with a random man, never a king, on each
/// occupied square: the diagrams `catena chain` must read without kings.
fn kingless_fen(grid: &OGrid, rng: &mut SplitMix64) -> String {
    let men = ['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q'];
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|y| {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..8 {
                if grid.get((x, y)) {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(men[rng.below(men.len())]);
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    format!("{} w - - 0 1", rows.join("/"))
}

/// `grid` as `catena chain` reads a grid: `WxH` and its rows, top first.
fn grid_text(grid: &OGrid) -> String {
    let rows: Vec<String> = (0..grid.height)
        .rev()
        .map(|y| {
            (0..grid.width)
                .map(|x| if grid.get((x, y)) { 'x' } else { '.' })
                .collect()
        })
        .collect();
    format!("{}x{} {}", grid.width, grid.height, rows.join("/"))
}

/// `catena chain --suite` on 1,000 boards without kings and 200 grids other
/// than 8x8, labelled by the oracle, plus a 64x64 ring of known size: every
/// line answered, every answer the oracle's.
#[test]
fn the_chain_command_reads_kingless_boards_and_grids_as_the_oracle() {
    let mut rng = SplitMix64::new(0x6b1e55);
    let options = Options {
        budget: 200_000,
        rim_pruning: true,
    };
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    let (mut boards, mut grids) = (0, 0);
    while boards < 1000 || grids < 200 {
        let on_chess_board = boards < 1000;
        let (width, height) = if on_chess_board {
            (8, 8)
        } else {
            loop {
                // Up to what the oracle takes: (width + 1) x height <= 256.
                let size = (rng.range(2, 20), rng.range(2, 20));
                if size != (8, 8) && (size.0 + 1) * size.1 <= 256 {
                    break size;
                }
            }
        };
        let case = random_board(rng.next_u64(), width, height, rng.range(30, 75) as u32);
        let min_enclosed = rng.range(1, 3) as u32;
        let Some((verdicts, _)) = oracle(&case.grid, &case.moved, &[min_enclosed], options) else {
            continue;
        };
        let (x, y) = case.moved[0];
        let (board, cell) = if on_chess_board {
            boards += 1;
            let square = Square::new(x as u8, y as u8).to_string();
            (kingless_fen(&case.grid, &mut rng), square)
        } else {
            grids += 1;
            // Both ways of naming a cell, where a square name exists.
            let cell = if rng.percent(50) {
                format!("{x},{y}")
            } else {
                format!("{}{}", char::from(b'a' + x as u8), y + 1)
            };
            (grid_text(&case.grid), cell)
        };
        let verdict = &verdicts[0];
        lines.push(format!(
            "{board} ; moved {cell} ; min-enclosed {min_enclosed} ; chain {} ; size {}",
            u8::from(verdict.chain),
            verdict.size
        ));
        expected.push((verdict.chain, verdict.size));
    }
    assert!(
        expected.iter().filter(|(chain, _)| *chain).count() >= 100,
        "too few chains to tell a verdict from a constant"
    );
    // A ring on a 64x64 grid, enclosing 39 x 29 cells, named by x,y only.
    let mut frame = OGrid::new(64, 64);
    for cell in frame.clone().cells() {
        let on_ring = (10..=50).contains(&cell.0)
            && (10..=40).contains(&cell.1)
            && (cell.0 % 40 == 10 || cell.1 % 30 == 10);
        frame.set(cell, on_ring);
    }
    lines.push(format!(
        "{} ; moved 10,10 ; chain 1 ; size {}",
        grid_text(&frame),
        39 * 29
    ));
    expected.push((true, 39 * 29));

    let dir = ScratchDir::new("kingless-suite");
    let suite = dir.join("suite.epd");
    std::fs::write(&suite, lines.join("\n") + "\n").unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_catena"))
        .args(["chain", "--suite"])
        .arg(&suite)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(
        answers.last().copied(),
        Some(format!("{} positions, 0 failures", lines.len()).as_str()),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success());
    for (number, ((chain, size), answer)) in expected.iter().zip(&answers).enumerate() {
        assert_eq!(
            *answer,
            format!("{} {} {size}", number + 1, u8::from(*chain)),
            "line {}: {}",
            number + 1,
            lines[number]
        );
    }
}
