//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use crate::board::{Move, Position};
use crate::game::{Action, ChainTest, Rules, SwitchRun, forms_chain};

/// Deeper than any perft anyone waits for; keeps depths sane on the command line.
pub const MAX_DEPTH: u32 = 15;

/// Leaves of the legal move tree `depth` plies deep; the last ply is counted, not played.
pub fn perft(position: &Position, depth: u32) -> u64 {
    count_leaves::<true>(position, depth)
}

/// Leaves of the legal move tree, every move of the last ply played too: the
/// work an SSCC perft cannot avoid, as it must look at the board after each move.
pub fn perft_playing_leaves(position: &Position, depth: u32) -> u64 {
    count_leaves::<false>(position, depth)
}

fn count_leaves<const BULK: bool>(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return position.count_legal_moves() as u64;
    }
    let mut nodes = 0;
    position.generate_moves(|piece_moves| {
        for mv in piece_moves {
            nodes += count_leaves::<BULK>(&position.after(mv), depth - 1);
        }
        false
    });
    nodes
}

/// Leaves of the SSCC game tree (docs/rules.md, section 4): every ply a board move and a
/// switch choice, so a chain-forming move with a switch allowed has two children.
pub fn sscc_perft(position: &Position, run: SwitchRun, depth: u32, rules: &Rules) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Whether a switch is allowed depends on the run, not on the move.
    let may_switch = run.allows_switch();
    if depth == 1 && !may_switch {
        return position.count_legal_moves() as u64;
    }
    let chains = may_switch.then(|| ChainTest::new(position, rules));
    let mut nodes = 0;
    position.generate_moves(|piece_moves| {
        for mv in piece_moves {
            let switch = chains.as_ref().is_some_and(|chains| chains.forms_chain(mv));
            if depth == 1 {
                nodes += 1 + switch as u64;
                continue;
            }
            let child = position.after(mv);
            nodes += sscc_perft(&child, SwitchRun::default(), depth - 1, rules);
            if switch {
                nodes += sscc_perft(
                    &child,
                    run.after_switch(position, mv, rules),
                    depth - 1,
                    rules,
                );
            }
        }
        false
    });
    nodes
}

/// Which tree a perft counts.
#[derive(Clone, Copy, Debug)]
pub enum Tree {
    /// The chess move tree, the last ply counted in bulk or played.
    Chess { bulk: bool },
    /// The SSCC game tree under these rules.
    Sscc(Rules),
}

impl Tree {
    /// The leaves below `position`, `depth` plies deep, with `run` the switch
    /// run in progress there (SSCC; chess ignores it).
    pub fn count(&self, position: &Position, run: SwitchRun, depth: u32) -> u64 {
        match self {
            Tree::Chess { bulk: true } => perft(position, depth),
            Tree::Chess { bulk: false } => perft_playing_leaves(position, depth),
            Tree::Sscc(rules) => sscc_perft(position, run, depth, rules),
        }
    }

    /// The children of the root: one per move, and for SSCC a second, marked
    /// as a switch, per move that forms a chain while `run` allows a switch.
    fn root_children(&self, position: &Position, run: SwitchRun) -> Vec<(Move, Option<SwitchRun>)> {
        let may_switch = run.allows_switch();
        let mut children = Vec::new();
        for mv in position.legal_moves() {
            children.push((mv, None));
            if let Tree::Sscc(rules) = self
                && may_switch
                && forms_chain(position, mv, rules)
            {
                children.push((mv, Some(run.after_switch(position, mv, rules))));
            }
        }
        children
    }
}

/// One root child's count, as `--divide` prints it: `e2e4` or `d2d3 switch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootCount {
    pub action: Action,
    pub nodes: u64,
}

/// The count below each root child, in move-generation order, over `threads`
/// threads; `run` is the switch run in progress at the root (SSCC). Setting
/// `stop` ends the count, with an error: it is looked at before each child of
/// each root child, a few hundred times per count.
pub fn divide(
    tree: &Tree,
    position: &Position,
    run: SwitchRun,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<RootCount>, String> {
    let children = tree.root_children(position, run);
    let count = |&(mv, switch_run): &(Move, Option<SwitchRun>)| {
        let child = position.after(mv);
        let child_run = switch_run.unwrap_or_default();
        let nodes = if depth >= 3 {
            let mut nodes = 0;
            for (reply, reply_run) in tree.root_children(&child, child_run) {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                nodes += tree.count(
                    &child.after(reply),
                    reply_run.unwrap_or_default(),
                    depth - 2,
                );
            }
            nodes
        } else {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            tree.count(&child, child_run, depth - 1)
        };
        Some(RootCount {
            action: Action {
                mv,
                switch: switch_run.is_some(),
            },
            nodes,
        })
    };
    let counts: Option<Vec<RootCount>> = if threads <= 1 {
        children.iter().map(count).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|error| format!("cannot start {threads} threads: {error}"))?;
        pool.install(|| children.par_iter().map(count).collect())
    };
    counts.ok_or_else(|| "perft stopped".to_string())
}

/// The closing line of every perft run: `nodes <N> time <ms> nps <nps>`.
pub fn summary_line(nodes: u64, elapsed: Duration) -> String {
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    format!("nodes {nodes} time {} nps {nps}", elapsed.as_millis())
}
