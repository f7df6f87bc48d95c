//! Whether a loop through a piece of a block surrounds a group of at least
//! `MinEnclosed` empty cells.
//!
//! The empty cells a loop of the block can surround are those in the bounded
//! faces of its drawing, and they fall into king-connected groups. A loop
//! through the piece surrounds a king-connected set `S` of them exactly when a
//! corridor avoids the faces holding `S` ([`super::corridor`]). So:
//! 1. `MinEnclosed` king-connected cells inside one face, a whole group or part
//!    of one, can always be surrounded: one face never blocks every corridor,
//!    since the block is 2-connected;
//! 2. a group of `MinEnclosed` cells or more over several faces can when a
//!    corridor avoids all of them;
//! 3. when none does, part of the group may still do. A part of `MinEnclosed`
//!    cells lies in at most `MinEnclosed` faces, so the connected sets of up to
//!    that many of the group's faces are tried, each grown only while a
//!    corridor avoids it (a set that blocks every corridor blocks them all the
//!    more when it grows).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use super::corridor::{Corridor, IN_BLOCK};
use super::workspace::{Drawing, PIECE};
use crate::chain::flood_grid::{self, OUTER, largest_king_group};
use crate::chain::padded::{Index, Padded};

/// The question for one block: `drawing` holds the board and the block,
/// `window` the block's bounding box (all around it is its outer face). Cut
/// short by `stop`, it answers false.
pub(in crate::chain) fn surrounds_a_group(
    drawing: &mut Drawing,
    window: Padded,
    piece: Index,
    min_enclosed: u32,
    parallel: bool,
    stop: &AtomicBool,
) -> bool {
    let wanted = min_enclosed.max(1) as usize;
    drawing.clear_labels(window);
    let Drawing {
        kind,
        face,
        group,
        groups,
        chosen,
        avoided,
        stack,
        band,
        ..
    } = drawing;
    let labels = flood_grid::faces(
        window,
        |cell| kind[cell] & IN_BLOCK != 0,
        window.board().filter(|&cell| kind[cell] & PIECE == 0),
        face,
        stack,
        stop,
    );
    if stop.load(Ordering::Relaxed) {
        return false;
    }
    let enclosed = |cell: Index| kind[cell] & PIECE == 0 && face[cell] > OUTER;
    // 1. A group of `wanted` cells inside one face.
    groups.find(window, enclosed, |a, b| face[a] == face[b], group, stack);
    if groups.iter().any(|(_, cells)| cells.len() >= wanted) {
        return true;
    }
    for cell in window.board() {
        group[cell] = 0;
    }
    groups.find(window, enclosed, |_, _| true, group, stack);
    let large = || groups.iter().filter(|(_, cells)| cells.len() >= wanted);
    avoided.clear();
    avoided.resize(labels as usize, false);
    let mut corridor_avoiding = |faces: &[u32]| {
        for &label in faces {
            avoided[label as usize] = true;
        }
        let corridor = Corridor::new(window, kind, face, avoided);
        let reaches = corridor.reaches(piece, parallel, band);
        for &label in faces {
            avoided[label as usize] = false;
        }
        reaches
    };
    // 2. A whole group over several faces.
    for (_, cells) in large() {
        chosen.clear();
        chosen.extend(cells.iter().map(|&cell| face[cell]));
        chosen.sort_unstable();
        chosen.dedup();
        if corridor_avoiding(chosen) {
            return true;
        }
    }
    // 3. Part of a group.
    large()
        .any(|(_, cells)| grows_into_a_chain(window, cells, face, wanted, &mut corridor_avoiding))
}

/// Whether some connected set of at most `wanted` of the faces holding
/// `cells` (one group) has a corridor around it and a king-connected part of
/// `wanted` of the group's cells inside.
fn grows_into_a_chain(
    layout: Padded,
    cells: &[Index],
    face: &[u32],
    wanted: usize,
    corridor_avoiding: &mut impl FnMut(&[u32]) -> bool,
) -> bool {
    let members: HashSet<Index> = cells.iter().copied().collect();
    let mut tried: HashSet<Vec<u32>> = HashSet::new();
    let mut sets: Vec<Vec<u32>> = cells.iter().map(|&cell| vec![face[cell]]).collect();
    while let Some(set) = sets.pop() {
        if !tried.insert(set.clone()) || (set.len() > 1 && !corridor_avoiding(&set)) {
            continue;
        }
        let inside: Vec<Index> = cells
            .iter()
            .copied()
            .filter(|&cell| set.contains(&face[cell]))
            .collect();
        if largest_king_group(layout, &inside) >= wanted {
            return true;
        }
        if set.len() >= wanted {
            continue;
        }
        for &cell in &inside {
            for next in layout.neighbours(cell) {
                if members.contains(&next) && !set.contains(&face[next]) {
                    let mut grown = set.clone();
                    grown.push(face[next]);
                    grown.sort_unstable();
                    sets.push(grown);
                }
            }
        }
    }
    false
}
