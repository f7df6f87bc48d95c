//! What the search keeps for each ply of the current line, in one stack of
//! entries indexed by ply, as Reckless keeps its `Stack`.

use crate::score::{INFINITE, MAX_PLY};
use catena_core::game::Action;
use std::ops::{Index, IndexMut};

use arrayvec::ArrayVec;

use crate::history::PieceTo;

use catena_core::board::{Move, Position};

/// A board move of the current line, with what continuation history knows it by.
#[derive(Clone, Copy)]
pub struct Played {
    pub mv: Move,
    pub piece_to: PieceTo,
}

impl Played {
    pub fn new(position: &Position, mv: Move) -> Played {
        Played {
            mv,
            piece_to: PieceTo::of(position, mv),
        }
    }
}

/// One ply of the current line.
#[derive(Clone)]
pub struct StackEntry {
    /// The last two quiet moves that cut a node off at this ply, latest first.
    pub killers: [Option<Move>; 2],
    /// The board move played here (`None` for a null move).
    pub played: Option<Played>,
    /// The static evaluation here (`-INFINITE` in check).
    pub static_eval: i32,
    /// The packed action a singularity test here leaves out (0 = none).
    pub excluded: u16,
    /// The principal variation from here.
    pub pv: ArrayVec<Action, MAX_PLY>,
    /// The switches on the line from the root to here: late switch
    /// reductions and the tree counts (`--features tree-stats`) read it.
    pub switches_above: u32,
}

impl Default for StackEntry {
    fn default() -> StackEntry {
        StackEntry {
            killers: [None; 2],
            played: None,
            static_eval: -INFINITE,
            excluded: 0,
            pv: ArrayVec::new(),
            switches_above: 0,
        }
    }
}

/// An entry for each ply from the root to `MAX_PLY`, where the search
/// stops, and one beyond. The network's hidden layers stay apart, in the
/// worker's `accumulators`: at a kilobyte each they would triple an entry's
/// size and so spread the small fields above further apart in memory, and
/// only the evaluation reads them.
pub struct Stack {
    entries: Vec<StackEntry>,
}

impl Default for Stack {
    fn default() -> Stack {
        Stack {
            entries: vec![StackEntry::default(); MAX_PLY + 2],
        }
    }
}

impl Stack {
    /// Passes the count of switches above to the child at `ply + 1`,
    /// reached by a switch or not.
    #[inline(always)]
    pub fn enter(&mut self, ply: usize, switch: bool) {
        self[ply + 1].switches_above = self[ply].switches_above + u32::from(switch);
    }

    /// Makes `action`, followed by the line from the next ply, the principal
    /// variation from `ply`.
    pub fn update_pv(&mut self, ply: usize, action: Action) {
        let (head, tail) = self.entries.split_at_mut(ply + 1);
        let line = &mut head[ply].pv;
        line.clear();
        line.push(action);
        for &next in tail[0].pv.iter() {
            if line.try_push(next).is_err() {
                break;
            }
        }
    }
}

impl Index<usize> for Stack {
    type Output = StackEntry;

    fn index(&self, ply: usize) -> &StackEntry {
        &self.entries[ply]
    }
}

impl IndexMut<usize> for Stack {
    fn index_mut(&mut self, ply: usize) -> &mut StackEntry {
        &mut self.entries[ply]
    }
}
