//! Finds the magic factors of the sliding-piece attack tables, so that neither
//! a pasted table nor a start-up search is needed.

use std::fmt::Write;

#[path = "src/board/slider_geometry.rs"]
mod slider_geometry;

// The repository's one generator, seeded: every build finds the same factors.
#[path = "src/rng.rs"]
#[allow(dead_code)]
mod rng;

use rng::SplitMix64;
use slider_geometry::{
    BISHOP_DIRECTIONS, ROOK_DIRECTIONS, ray_attacks, relevant_blockers, subsets,
};

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

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/board/slider_geometry.rs");
    println!("cargo::rerun-if-changed=src/rng.rs");
    let mut random = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    let mut source = String::new();
    for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
        let factors: Vec<String> = (0..64)
            .map(|square| format!("{:#018x}", find_magic(square, directions, &mut random)))
            .collect();
        writeln!(
            source,
            "const {name}_MAGIC_FACTORS: [u64; 64] = [{}];",
            factors.join(", ")
        )
        .unwrap();
    }
    let out = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("magic_factors.rs");
    std::fs::write(out, source).unwrap();
}
