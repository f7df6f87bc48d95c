use catena::board::{Bitboard, Square};
use catena::chain::{self, Cell, Grid};
use std::time::Instant;
fn main() {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for round in 0..20_000u64 {
        let pct = 20 + round % 61;
        let occupied: Bitboard = (0..64)
            .filter(|_| next() % 100 < pct)
            .map(Square::from_index)
            .collect();
        let Some(piece) = occupied
            .into_iter()
            .nth(next() as usize % 64 % occupied.len().max(1) as usize)
        else {
            continue;
        };
        let m = 1 + round as u32 % 3;
        let grid = Grid::from_bitboard(occupied);
        let t = Instant::now();
        let a = chain::grid_forms_chain(&grid, &[Cell::from(piece)], m);
        let t1 = t.elapsed();
        let t = Instant::now();
        let b = chain::grid_chain_size(&grid, &[Cell::from(piece)], m);
        let t2 = t.elapsed();
        if t1.as_millis() > 20 || t2.as_millis() > 20 {
            println!(
                "round {round} pct {pct} m {m} {piece} verdict {a} {t1:?} size {b} {t2:?}\n{grid}"
            );
        }
    }
}
