//! Labels positions with the chain oracle of `tests/it/common/oracle.rs`.
//!
//! ```sh
//! cargo run --release --example label_chains -- stats        # oracle cost per generator
//! cargo run --release --example label_chains -- epd > part.epd  # the generated part of perft/chains.epd
//! ```

#[path = "../tests/it/common/mod.rs"]
mod common;

use std::collections::HashSet;
use std::time::Instant;

use catena_core::board::{Position, Square};
use catena_core::chain::{Cell, Grid};
use common::generators::{
    Case, cells_of, dense_cluster, fen_for_occupancy, random_board, random_game, ring,
};
use common::oracle::{OGrid, Options, XY, oracle, oracle_ext};
use common::paper;

fn square_name((x, y): XY) -> String {
    Square::new(x as u8, y as u8).to_string()
}

fn stats() {
    let options = Options::default();
    let report = |name: &str, cases: &mut dyn Iterator<Item = Case>| {
        let start = Instant::now();
        let (mut evaluated, mut dropped, mut chains, mut nodes, mut worst) = (0, 0, 0, 0u64, 0u64);
        for case in cases {
            let t = Instant::now();
            match oracle(&case.grid, &case.moved, &[1, 2, 3], options) {
                Some((verdicts, stats)) => {
                    evaluated += 1;
                    chains += verdicts[1].chain as usize;
                    nodes += stats.nodes;
                    worst = worst.max(t.elapsed().as_micros() as u64);
                }
                None => dropped += 1,
            }
        }
        println!(
            "{name:28} evaluated {evaluated:6} dropped {dropped:5} chains(min2) {chains:6} nodes/pos {:8.0} time {:6.2}s worst {worst}us",
            nodes as f64 / evaluated.max(1) as f64,
            start.elapsed().as_secs_f64()
        );
    };
    report(
        "real games",
        &mut (0..400u64).flat_map(|seed| {
            random_game(seed, 160, 70)
                .into_iter()
                .enumerate()
                .map(move |(ply, m)| Case {
                    grid: OGrid::from_u64(m.occupied.0),
                    moved: cells_of(m.landing),
                    origin: format!("game {seed} ply {ply}"),
                })
        }),
    );
    for percent in [20, 30, 40, 50, 60, 70, 80] {
        for (w, h) in [(8, 8), (6, 6), (5, 5), (4, 4)] {
            report(
                &format!("random {w}x{h} {percent}%"),
                &mut (0..500u64).map(|seed| random_board(seed, w, h, percent)),
            );
        }
    }
    for (w, h) in [(8, 8), (6, 6), (7, 7), (9, 5), (12, 12)] {
        report(
            &format!("cluster {w}x{h}"),
            &mut (0..500u64).map(|seed| dense_cluster(seed, w, h)),
        );
        report(
            &format!("ring {w}x{h}"),
            &mut (0..500u64).map(|seed| ring(seed, w, h)),
        );
    }
    for (w, h) in [(3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (9, 5), (12, 12)] {
        report(
            &format!("sparse {w}x{h} 25%"),
            &mut (0..500u64).map(|seed| random_board(seed, w, h, 25)),
        );
    }
}

/// One labelled line of perft/chains.epd.
fn epd_line(fen: &str, moved: &[XY], chain: bool, size: u32) -> String {
    let moved: Vec<String> = moved.iter().map(|&c| square_name(c)).collect();
    format!(
        "{fen} ; moved {} ; chain {} ; size {size}",
        moved.join(" "),
        chain as u8
    )
}

fn epd() {
    let options = Options {
        budget: 5_000_000,
        rim_pruning: true,
    };
    let mut seen = HashSet::new();
    // Real-game-like: positions after random moves, keeping those with an
    // enclosed candidate (the interesting ones), both verdicts.
    println!(
        "# Real-game-like: after a random legal game's move (70% quiet moves), labelled by the oracle."
    );
    let (mut yes, mut no) = (0, 0);
    'games: for seed in 0..5000u64 {
        for m in random_game(seed, 160, 70) {
            let grid = OGrid::from_u64(m.occupied.0);
            let moved = cells_of(m.landing);
            let Some((verdicts, _)) = oracle(&grid, &moved, &[2], options) else {
                continue;
            };
            let v = &verdicts[0];
            let castle = m.landing.len() == 2;
            let want = if v.chain {
                yes < 140
            } else {
                no < 60 && (castle || seed.is_multiple_of(3))
            };
            if !want || !seen.insert((m.occupied.0, m.landing.0)) {
                continue;
            }
            if !v.chain && !has_candidate(&grid) && !castle {
                continue;
            }
            let fen = m.before.after(m.mv).to_fen();
            println!("{}", epd_line(&fen, &moved, v.chain, v.size));
            if v.chain {
                yes += 1;
            } else {
                no += 1;
            }
            if yes >= 140 && no >= 60 {
                break 'games;
            }
        }
    }
    println!(
        "# Dense synthetic boards (kings plus other pieces, any placement), labelled by the oracle."
    );
    let (mut yes, mut no) = (0, 0);
    for seed in 0..100_000u64 {
        let case = if seed % 2 == 0 {
            dense_cluster(seed, 8, 8)
        } else {
            random_board(seed, 8, 8, 45 + (seed % 30) as u32)
        };
        let bits = case.grid.to_u64();
        let Some((verdicts, _)) = oracle(&case.grid, &case.moved, &[2], options) else {
            continue;
        };
        let v = &verdicts[0];
        if (v.chain && yes >= 80) || (!v.chain && (no >= 40 || !has_candidate(&case.grid))) {
            continue;
        }
        let Some(fen) = fen_for_occupancy(bits, seed) else {
            continue;
        };
        if !seen.insert((bits, bits_of(&case.moved))) {
            continue;
        }
        println!("{}", epd_line(&fen, &case.moved, v.chain, v.size));
        if v.chain {
            yes += 1;
        } else {
            no += 1;
        }
        if yes >= 80 && no >= 40 {
            break;
        }
    }
}

fn bits_of(cells: &[XY]) -> u64 {
    cells.iter().fold(0, |b, &(x, y)| b | 1 << (y * 8 + x))
}

/// Some empty cell not joined orthogonally to the edge.
fn has_candidate(grid: &OGrid) -> bool {
    let rim = common::oracle::rim_connected_empties(grid);
    grid.cells()
        .any(|(x, y)| !grid.get((x, y)) && rim[y] >> x & 1 == 0)
}

/// The kind of disagreement between the paper's criterion and the oracle, if any.
fn paper_kind(grid: &OGrid, moved: XY, budget: u64) -> Option<Option<&'static str>> {
    let options = Options {
        budget,
        rim_pruning: true,
    };
    let (v, _) = oracle(grid, &[moved], &[1, 2], options)?;
    let g = to_grid(grid);
    let paper = paper::paper_criterion(&g, Cell::new(moved.0, moved.1));
    let kind = match (paper, v[1].chain) {
        (true, true) | (false, false) => None,
        (true, false) => {
            let (crossing, _) = oracle_ext(grid, &[moved], &[2], options, true)?;
            if crossing[0].chain {
                Some("false positive: the only loops cross their own diagonals")
            } else if v[0].chain {
                Some("false positive: loops enclose only single squares of the area")
            } else {
                Some("false positive: the two paths do not close around the area")
            }
        }
        (false, true) => {
            let areas = paper::paper_areas(&g, 2);
            let inside = common::oracle::enclosed_empties(grid, &v[1].smallest);
            let covered = inside
                .iter()
                .any(|&(x, y)| areas.iter().any(|a| a.contains(&Cell::new(x, y))));
            if covered {
                Some("false negative: no two disjoint paths to the area")
            } else {
                Some("false negative: the enclosed squares are no area after filtering")
            }
        }
    };
    Some(kind)
}

fn to_grid(grid: &OGrid) -> Grid {
    let mut g = Grid::new(grid.width, grid.height).unwrap();
    for c in grid.occupied_cells() {
        g.set_occupied(Cell::new(c.0, c.1), true);
    }
    g
}

/// Removes pieces (never the moved one) while the disagreement keeps its kind.
fn minimise(grid: &OGrid, moved: XY, kind: &str) -> OGrid {
    let mut grid = grid.clone();
    loop {
        let mut shrunk = false;
        for c in grid.occupied_cells() {
            if c == moved {
                continue;
            }
            let mut smaller = grid.clone();
            smaller.set(c, false);
            if paper_kind(&smaller, moved, 2_000_000) == Some(Some(kind)) {
                grid = smaller;
                shrunk = true;
            }
        }
        if !shrunk {
            return grid;
        }
    }
}

/// A kind of disagreement: its name, its count, and its smallest example.
type Kind = (&'static str, usize, Option<(OGrid, XY, String)>);

fn paper_report() {
    let mut cases: Vec<Case> = Vec::new();
    for seed in 0..300u64 {
        for (ply, m) in random_game(seed, 150, 70).into_iter().enumerate() {
            if m.landing.len() == 1 {
                cases.push(Case {
                    grid: OGrid::from_u64(m.occupied.0),
                    moved: cells_of(m.landing),
                    origin: format!("game {seed} ply {ply}"),
                });
            }
        }
    }
    for seed in 0..6000u64 {
        cases.push(random_board(seed, 8, 8, 25 + (seed % 30) as u32));
        cases.push(dense_cluster(seed, 8, 8));
        cases.push(ring(seed, 8, 8));
    }
    let mut kinds: Vec<Kind> = Vec::new();
    let (mut evaluated, mut agree) = (0, 0);
    let start = Instant::now();
    let (mut t_paper, mut t_ours) = (0f64, 0f64);
    for case in &cases {
        let moved = case.moved[0];
        let Some(kind) = paper_kind(&case.grid, moved, 20_000) else {
            continue;
        };
        evaluated += 1;
        let g = to_grid(&case.grid);
        let t = Instant::now();
        std::hint::black_box(paper::paper_criterion(&g, Cell::new(moved.0, moved.1)));
        t_paper += t.elapsed().as_secs_f64();
        let t = Instant::now();
        std::hint::black_box(catena_core::chain::grid_forms_chain(
            &g,
            &[Cell::new(moved.0, moved.1)],
            2,
        ));
        t_ours += t.elapsed().as_secs_f64();
        let Some(kind) = kind else {
            agree += 1;
            continue;
        };
        let entry = match kinds.iter().position(|k| k.0 == kind) {
            Some(i) => &mut kinds[i],
            None => {
                kinds.push((kind, 0, None));
                kinds.last_mut().unwrap()
            }
        };
        entry.1 += 1;
        if entry.1 <= 12 {
            let small = minimise(&case.grid, moved, kind);
            let better = match &entry.2 {
                None => true,
                Some((g, _, _)) => small.count_occupied() < g.count_occupied(),
            };
            if better {
                entry.2 = Some((small, moved, case.origin.clone()));
            }
        }
    }
    println!(
        "{evaluated} positions, {agree} agree, {:.1}s; mean time per position: paper {:.2} us, catena grid_forms_chain {:.2} us",
        start.elapsed().as_secs_f64(),
        t_paper * 1e6 / evaluated as f64,
        t_ours * 1e6 / evaluated as f64
    );
    // The paper's minimum as a parameter (1 and 3), on other grids too.
    for min in [1u32, 2, 3] {
        let (mut n, mut bad) = (0, 0);
        for seed in 0..20_000u64 {
            let (w, h) = [(8, 8), (6, 6), (5, 5), (7, 7), (9, 5), (12, 12)][(seed % 6) as usize];
            let case = match seed % 3 {
                0 => random_board(seed, w, h, 25 + (seed % 40) as u32),
                1 => dense_cluster(seed, w, h),
                _ => ring(seed, w, h),
            };
            let options = Options {
                budget: 20_000,
                rim_pruning: true,
            };
            let Some((v, _)) = oracle(&case.grid, &case.moved, &[min], options) else {
                continue;
            };
            n += 1;
            let m = case.moved[0];
            let p = paper::paper_criterion_min(&to_grid(&case.grid), Cell::new(m.0, m.1), min);
            if p != v[0].chain {
                bad += 1;
                if bad <= 3 {
                    println!(
                        "min {min}: {} paper {p} oracle {}\n{}",
                        case.origin,
                        v[0].chain,
                        case.grid.render(&case.moved)
                    );
                }
            }
        }
        println!("paper_criterion_min({min}) vs oracle: {n} positions, {bad} disagreements");
    }
    for (kind, count, example) in kinds {
        println!("== {kind}: {count} positions");
        if let Some((grid, moved, origin)) = example {
            let (v, _) = oracle(&grid, &[moved], &[2], Options::default()).unwrap();
            let fen = fen_for_occupancy(grid.to_u64(), 7);
            println!(
                "minimal from {origin}: moved {} oracle chain {} size {}; {} pieces\n{}fen {fen:?}",
                square_name(moved),
                v[0].chain,
                v[0].size,
                grid.count_occupied(),
                grid.render(&[moved])
            );
        }
    }
}

fn main() {
    let _ = Position::startpos();
    match std::env::args().nth(1).as_deref() {
        Some("stats") => stats(),
        Some("epd") => epd(),
        Some("paper") => paper_report(),
        _ => eprintln!("usage: label_chains stats|epd"),
    }
}
