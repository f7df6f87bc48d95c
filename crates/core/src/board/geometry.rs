//! Attack geometry on plain 64-bit sets (squares 0 = a1 to 63 = h8), for the
//! build script, which searches the magic factors and writes every attack
//! table as a `static` (see `attacks.rs`).

pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The squares one step of `steps` away from `square` (a leaper's attacks).
pub fn step_attacks(square: u8, steps: &[(i8, i8)]) -> u64 {
    steps
        .iter()
        .filter_map(|&direction| step(square, direction))
        .fold(0, |set, target| set | 1 << target)
}

fn step(square: u8, (files, ranks): (i8, i8)) -> Option<u8> {
    let file = (square % 8) as i8 + files;
    let rank = (square / 8) as i8 + ranks;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then_some((rank * 8 + file) as u8)
}

/// Slider attacks by walking each ray until it leaves the board or hits a blocker.
pub fn ray_attacks(square: u8, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &direction in directions {
        let mut current = square;
        while let Some(next) = step(current, direction) {
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            current = next;
        }
    }
    attacks
}

/// The blockers that matter for a slider on `square`: its empty-board rays without their last square.
pub fn relevant_blockers(square: u8, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &direction in directions {
        let mut current = square;
        while let Some(next) = step(current, direction) {
            if step(next, direction).is_some() {
                mask |= 1 << next;
            }
            current = next;
        }
    }
    mask
}

/// Every subset of `mask` (carry-rippler enumeration), the empty set first.
pub fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let subset = next?;
        let following = subset.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(subset)
    })
}
