//! Writes every attack table as a `static` (as cozy-chess does): the magic
//! factors of the sliding pieces, searched here so that no table is pasted in,
//! their shared attack table, and the leapers', pawns', between and line
//! tables. Nothing is built at start-up.

use std::fmt::Write;

#[path = "src/board/geometry.rs"]
mod geometry;

// The repository's one generator, seeded: every build finds the same factors.
#[path = "src/rng.rs"]
#[allow(dead_code)]
mod rng;

use geometry::{
    BISHOP_DIRECTIONS, KING_STEPS, KNIGHT_STEPS, ROOK_DIRECTIONS, ray_attacks, relevant_blockers,
    step_attacks, subsets,
};
use rng::SplitMix64;

/// Factors with few set bits succeed far more often.
fn sparse(random: &mut SplitMix64) -> u64 {
    random.next_u64() & random.next_u64() & random.next_u64()
}

/// A factor that maps every blocker subset of `square` to a slot of
/// `1 << popcount(mask)` where no two subsets with different attacks meet.
fn find_magic(square: u8, directions: &[(i8, i8); 4], random: &mut SplitMix64) -> u64 {
    let mask = relevant_blockers(square, directions);
    let shift = 64 - mask.count_ones();
    let cases: Vec<(u64, u64)> = subsets(mask)
        .map(|blockers| (blockers, ray_attacks(square, blockers, directions)))
        .collect();
    let mut slots = vec![0u64; cases.len()];
    let mut filled_in_attempt = vec![0u32; cases.len()];
    for attempt in 1.. {
        let factor = sparse(random);
        if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
            continue;
        }
        let fits = cases.iter().all(|&(blockers, attacks)| {
            let index = (blockers.wrapping_mul(factor) >> shift) as usize;
            if filled_in_attempt[index] != attempt {
                filled_in_attempt[index] = attempt;
                slots[index] = attacks;
                true
            } else {
                slots[index] == attacks
            }
        });
        if fits {
            return factor;
        }
    }
    unreachable!("the attempt counter is unbounded")
}

/// `values` as a Rust array literal of hexadecimal `u64`s.
fn array(values: impl IntoIterator<Item = u64>) -> String {
    let items: Vec<String> = values
        .into_iter()
        .map(|value| format!("{value:#x}"))
        .collect();
    format!("[{}]", items.join(","))
}

/// Each square's `Magic` for `directions`, its attack sets appended to `sliding`.
fn magics(directions: &[(i8, i8); 4], factors: &[u64], sliding: &mut Vec<u64>) -> String {
    let entries: Vec<String> = (0..64u8)
        .map(|square| {
            let mask = relevant_blockers(square, directions);
            let shift = 64 - mask.count_ones();
            let offset = sliding.len();
            sliding.resize(offset + (1 << mask.count_ones()), 0);
            let factor = factors[square as usize];
            for blockers in subsets(mask) {
                let index = (blockers.wrapping_mul(factor) >> shift) as usize;
                sliding[offset + index] = ray_attacks(square, blockers, directions);
            }
            format!("Magic{{mask:{mask:#x},factor:{factor:#x},shift:{shift},offset:{offset}}}")
        })
        .collect();
    format!("[{}]", entries.join(","))
}

/// The squares between `a` and `b` on a shared line (`between`), and the
/// whole line through both (`line`); empty where they share none.
fn between_and_line() -> (Vec<u64>, Vec<u64>) {
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64u8 {
        for directions in [&ROOK_DIRECTIONS, &BISHOP_DIRECTIONS] {
            let from_a = ray_attacks(a, 0, directions);
            for b in (0..64u8).filter(|&b| from_a & 1 << b != 0) {
                let from_b = ray_attacks(b, 0, directions);
                let at = a as usize * 64 + b as usize;
                between[at] =
                    ray_attacks(a, 1 << b, directions) & ray_attacks(b, 1 << a, directions);
                line[at] = (from_a & from_b) | 1 << a | 1 << b;
            }
        }
    }
    (between, line)
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/board/geometry.rs");
    println!("cargo::rerun-if-changed=src/rng.rs");
    let mut random = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let mut factors = |directions| -> Vec<u64> {
        (0..64)
            .map(|square| find_magic(square, directions, &mut random))
            .collect()
    };
    let (rook_factors, bishop_factors) = (factors(&ROOK_DIRECTIONS), factors(&BISHOP_DIRECTIONS));
    let mut sliding = Vec::new();
    let rook = magics(&ROOK_DIRECTIONS, &rook_factors, &mut sliding);
    let bishop = magics(&BISHOP_DIRECTIONS, &bishop_factors, &mut sliding);
    let leaper = |steps: &[(i8, i8)]| array((0..64).map(|square| step_attacks(square, steps)));
    let pawn = |forward: i8| leaper(&[(-1, forward), (1, forward)]);
    let (between, line) = between_and_line();
    let mut source = String::new();
    for (declaration, value) in [
        ("ROOK_MAGICS: [Magic; 64]".to_string(), rook),
        ("BISHOP_MAGICS: [Magic; 64]".to_string(), bishop),
        (format!("SLIDING: [u64; {}]", sliding.len()), array(sliding)),
        ("KNIGHT: [u64; 64]".to_string(), leaper(&KNIGHT_STEPS)),
        ("KING: [u64; 64]".to_string(), leaper(&KING_STEPS)),
        // White's pawns (index 0) attack up the board, Black's down.
        (
            "PAWN: [[u64; 64]; 2]".to_string(),
            format!("[{},{}]", pawn(1), pawn(-1)),
        ),
        ("BETWEEN: [u64; 4096]".to_string(), array(between)),
        ("LINE: [u64; 4096]".to_string(), array(line)),
    ] {
        writeln!(source, "static {declaration} = {value};").unwrap();
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("attack_tables.rs");
    std::fs::write(out, source).unwrap();
}
