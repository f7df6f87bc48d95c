//! The search: iterative deepening over a principal variation search, on the
//! SSCC game tree of docs/rules.md, section 4 when the variant is `sscc`.
//!
//! A node's children are actions: a board move followed by the opponent's turn
//! (stay, searched with the window negated as in any negamax), or — when the
//! move forms a chain and the switch run allows it — followed by a switch, so
//! that the same player moves again with the other colour (searched with the
//! window as it is, and its value taken as it is). Plies count board moves, so
//! mate scores measure plies to mate whoever makes them.

use catena_core::game::{Action, Variant};
use std::sync::atomic::Ordering;
use std::time::Duration;

use arrayvec::ArrayVec;
use once_cell::sync::Lazy;

use crate::eval::PIECE_VALUE;
use crate::eval::network::{Accumulator, NETWORK, Network, PocketLayer, SSCC_NETWORK, SsccState};
pub use crate::history::Histories;
use crate::history::{PieceTo, QuietHistory};
use crate::movepick::{MovePicker, OrderingHints, Switches, is_tactical};
use crate::score::{INFINITE, MATE, MATE_BOUND, MAX_PLY, TB_WIN_BOUND, score_from_tt, score_to_tt};
use crate::see::see_at_least;
use crate::stack::{Played, Stack};
use crate::switch_memo::Scan;
use crate::thread::{Info, MAX_DEPTH, Report, Root, RootMove, Shared};
use crate::time::{Progress, gives_the_clock_away};
use crate::transposition::{Bound, Entry};
use crate::tree_stats::{self, Child, Event};
use catena_core::board::{Color, Move, Piece, Position};
use catena_core::game::{ChainTest, Rules, SwitchRun};

/// When the search starts to tell which root action it is searching.
const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(1);

/// The stored score when its bound settles the window `alpha..beta`.
fn tt_cutoff(entry: &Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let score = score_from_tt(entry.score, ply);
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    settles.then_some(score)
}

/// The plies from `ply` within which a mate must fall for the node's
/// value to leave the window `alpha..beta`: where alpha is a mate for the
/// player to move (only a faster one beats it), or beta a mate against it
/// (only one as fast keeps it below). `None` in an ordinary window.
fn mate_horizon(alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    if alpha >= MATE_BOUND {
        Some(MATE - 1 - alpha - ply as i32)
    } else if beta <= -MATE_BOUND {
        Some(MATE - 1 + beta - ply as i32)
    } else {
        None
    }
}

/// Whether the position with `key` repeats one of `keys` (the positions
/// before it, oldest first). Positions before the last capture or pawn move
/// cannot recur; the previous position had the other side to move.
pub fn repeats(keys: &[u64], key: u64, halfmove_clock: u16) -> bool {
    keys.iter()
        .rev()
        .take(halfmove_clock as usize)
        .skip(1)
        .step_by(2)
        .any(|&earlier| earlier == key)
}

/// One thread's search: its own histories, stack and accumulators, over
/// what every thread shares.
pub struct Worker<'a> {
    id: usize,
    shared: &'a Shared<'a>,
    pub histories: Histories,
    /// What the search keeps for each ply of the current line.
    stack: Stack,
    /// The evaluation network of the variant: chess, or SSCC with its inputs.
    network: &'static Network,
    /// The evaluation network's hidden layer of the position at each ply
    /// (kept out of `stack`, see there).
    accumulators: Vec<Accumulator>,
    /// In SSCC, the rows of the pockets of the position last evaluated at
    /// each ply (empty in chess).
    pocket_layers: Vec<PocketLayer>,
    /// The depth of the current iteration.
    root_depth: i32,
    keys: Vec<u64>,
    nodes: u64,
    unpublished: u64,
    seldepth: usize,
    pub root_moves: Vec<RootMove>,
    stopped: bool,
}

const NODES_PER_CHECK: u64 = 256;

/// The bounds a node is searched with, and whether it lies on the principal
/// variation (searched with the full window, its line kept).
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
    pv: bool,
}

impl Window {
    /// The null window just above `alpha`, off the principal variation: it
    /// tells only whether the value is above `alpha`.
    fn null(alpha: i32) -> Window {
        Window {
            alpha,
            beta: alpha + 1,
            pv: false,
        }
    }

    /// The window as the opponent sees it.
    fn negated(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
            pv: self.pv,
        }
    }
}

/// The board moves a node has searched without a cut-off: a later cut-off
/// lowers their histories. A chain's move counts once, as its switch.
#[derive(Default)]
struct Tried {
    quiets: ArrayVec<Played, 256>,
    captures: ArrayVec<Move, 256>,
    /// The quiet moves among them that close no chain, which late move
    /// pruning counts.
    plain_quiets: usize,
}

impl Tried {
    fn add(&mut self, played: Played, quiet: bool, capture: bool, chain: bool) {
        if quiet {
            let _ = self.quiets.try_push(played);
            self.plain_quiets += usize::from(!chain);
        }
        if capture {
            let _ = self.captures.try_push(played.mv);
        }
    }
}

/// How many plies shallower a switch below another switch is searched
/// first, off the principal variation.
const SWITCH_REDUCTION: i32 = 2;

/// How much shallower a late quiet move is searched first: growing with the
/// logarithms of the depth and of the move's place in the order.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, reduction) in row.iter_mut().enumerate().skip(1) {
                *reduction = (0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25) as i32;
            }
        }
        table
    });
    TABLE[(depth as usize).min(63)][index.min(63)]
}

/// Beyond this evaluation the game is decided and the network's output says
/// little more: its training target, a logistic of the score, is flat there.
pub const DECIDED: i32 = 1500;

/// A player this far ahead at the horizon keeps its army without looking at
/// switches: the other army is worth about the negation.
const AHEAD_ENOUGH_TO_STAY: i32 = 150;

/// A key for the rules, mixed into the stand pat's memo: a board's
/// switches differ by `MinEnclosed` and by what limits a run.
fn rules_key(rules: &Rules) -> u64 {
    let rule = rules.switch_rule as u64;
    (u64::from(rules.min_enclosed) << 2 | rule).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A player this far behind in the main search looks at its switches before
/// reverse futility gives up on the node: two such boards in three hold one
/// that reaches the stand pat's bound, and nearer level the look cost more
/// time than the nodes it cut (C101).
const BEHIND_ENOUGH_TO_SWITCH: i32 = -AHEAD_ENOUGH_TO_STAY;

/// How far below alpha, per ply of depth, a shallow node's evaluation must
/// be before quiescence alone decides it.
const RAZOR_MARGIN: i32 = 250;

impl<'a> Worker<'a> {
    pub fn new(id: usize, shared: &'a Shared<'a>, root: &Root, histories: Histories) -> Worker<'a> {
        let network: &'static Network = match root.variant {
            Variant::Chess => &NETWORK,
            Variant::Sscc(_) => &SSCC_NETWORK,
        };
        Worker {
            id,
            shared,
            histories,
            stack: Stack::default(),
            network,
            accumulators: vec![Accumulator::new(network, &root.position); MAX_PLY + 2],
            pocket_layers: match root.variant {
                Variant::Chess => Vec::new(),
                Variant::Sscc(_) => vec![PocketLayer::new(network); MAX_PLY + 2],
            },
            root_depth: 0,
            keys: root.history.clone(),
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            stopped: false,
        }
    }

    fn rules(&self) -> Option<Rules> {
        match self.shared.variant {
            Variant::Chess => None,
            Variant::Sscc(rules) => Some(rules),
        }
    }

    /// Counts a node, and every so often publishes the count and checks the limits.
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unpublished += 1;
        if self.unpublished < NODES_PER_CHECK {
            return;
        }
        let total = self
            .shared
            .nodes
            .fetch_add(self.unpublished, Ordering::Relaxed)
            + self.unpublished;
        self.unpublished = 0;
        let control = self.shared.control;
        if self.id == 0 && !control.pondering.load(Ordering::Relaxed) {
            let out_of_nodes = self.shared.limits.nodes.is_some_and(|limit| total >= limit);
            if out_of_nodes || self.shared.out_of_time() {
                control.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The share of this thread's nodes spent under the leading root action.
    pub fn best_action_share(&self) -> f64 {
        self.root_moves[0].nodes as f64 / self.nodes.max(1) as f64
    }

    pub fn publish_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unpublished, Ordering::Relaxed);
        self.unpublished = 0;
    }

    fn should_stop(&mut self) -> bool {
        if !self.stopped
            && (self.shared.control.stop.load(Ordering::Relaxed)
                || self.shared.done.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn is_repetition(&self, key: u64, halfmove_clock: u16) -> bool {
        repeats(&self.keys, key, halfmove_clock)
    }

    /// Whether the side to move has a piece besides pawns and king (null move is unsafe otherwise).
    fn has_pieces(position: &Position) -> bool {
        let us = position.side_to_move();
        !(position.colored(us)
            - position.colored_pieces(us, Piece::Pawn)
            - position.colored_pieces(us, Piece::King))
        .is_empty()
    }

    /// The value of one action's child, searched with `window` as seen from
    /// here, from the view of the player to move here: negated for a stay,
    /// as it is for a switch.
    fn child_value(
        &mut self,
        child: &Position,
        run: SwitchRun,
        switch: bool,
        depth: i32,
        window: Window,
        ply: usize,
    ) -> i32 {
        if switch {
            self.search(child, run, depth, window, ply + 1)
        } else {
            -self.search(child, run, depth, window.negated(), ply + 1)
        }
    }

    fn search(
        &mut self,
        position: &Position,
        run: SwitchRun,
        depth: i32,
        window: Window,
        ply: usize,
    ) -> i32 {
        let Window {
            mut alpha,
            mut beta,
            pv: pv_node,
        } = window;
        self.stack[ply].pv.clear();
        let in_check = position.in_check();
        if depth <= 0 && !in_check {
            return self.quiescence(position, run, alpha, beta, ply, false);
        }
        self.count_node();
        tree_stats::count(Event::Node {
            switches: self.stack[ply].switches_above,
        });
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(position, run.switches(), ply);
        }
        if ply > 0 {
            if position.halfmove_clock() >= 100
                || position.is_dead()
                || self.is_repetition(position.key(), position.halfmove_clock())
            {
                return 0;
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // Mate horizon: a player not in check cannot be mated on this
            // ply, nor on the next (the other player's, or its own after a
            // switch, which it need not take): a window that only such a
            // mate could fall below is already held.
            if !in_check && beta <= -MATE + ply as i32 + 2 {
                return -MATE + ply as i32 + 2;
            }
        }
        // Mate horizon: where only a mate within some plies can move the
        // node out of its window, a search deeper than those plies finds
        // nothing more. Held to them, a node keeps its depth from one
        // iteration to the next, and the table's verdicts of the last one
        // serve again: once a mate is found, each further iteration costs
        // little, as in chess. The price: a faster mate that the reductions
        // inside hide stays hidden, as no later iteration searches deeper
        // (docs/sscc-search.md, "The held depth and the slower mate").
        let depth = match mate_horizon(alpha, beta, ply) {
            Some(plies) => depth.min(plies),
            None => depth,
        }
        .max(1);

        let key = position.key() ^ run.key();
        let excluded = self.stack[ply].excluded;
        let singularity_test = excluded != 0;
        let entry = self.shared.tt.probe(key);
        if let Some(entry) = entry
            && !pv_node
            && !singularity_test
            && entry.depth >= depth
            && let Some(score) = tt_cutoff(&entry, ply, alpha, beta)
        {
            return score;
        }
        // The table keeps the network's own evaluation; the correction
        // history's guess of its error is added afresh at each visit.
        let (raw_eval, static_eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else {
            let raw_eval = entry.map_or_else(
                || self.evaluate(position, run.switches(), ply),
                |entry| entry.eval,
            );
            (raw_eval, self.corrected(position, raw_eval))
        };
        self.stack[ply].static_eval = static_eval;
        // Tablebases: just after a capture or a pawn move, a position the
        // tables hold has its value read, not searched. A win is a lower
        // bound (the moves may still find a mate above it), a loss an upper
        // one: where the bound settles the window the node ends here, and
        // on the principal variation it bounds what its moves are worth.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITE, INFINITE);
        if ply > 0
            && !singularity_test
            && let Some(probing) = &self.shared.probing
            && probing.probes(position, depth)
            && let Some((value, bound)) = probing.value(position, ply)
        {
            self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
            let settles = match bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if settles {
                let entry = Entry {
                    action: 0,
                    score: score_to_tt(value, ply),
                    eval: if in_check { 0 } else { raw_eval },
                    depth: (depth + 6).min(MAX_PLY as i32 - 1),
                    bound,
                };
                self.shared.tt.store(key, entry);
                return value;
            }
            if pv_node {
                match bound {
                    Bound::Lower => tb_floor = value,
                    _ => tb_ceiling = value,
                }
            }
        }
        // The same colour two plies ago stood worse: lines here deserve more trust.
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        // A stored score that bounds the value on the far side of the static
        // evaluation is the better guess of it for the pruning below.
        let eval = match entry {
            Some(entry) if !in_check && entry.score.abs() < TB_WIN_BOUND => {
                let stored = score_from_tt(entry.score, ply);
                let closer = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => stored > static_eval,
                    Bound::Upper => stored < static_eval,
                };
                if closer { stored } else { static_eval }
            }
            _ => static_eval,
        };
        // With no stored move this node was not searched before, or not deeply:
        // a shallower search finds its best move sooner.
        let depth =
            if depth >= 4 && !singularity_test && entry.is_none_or(|entry| entry.action == 0) {
                depth - 1
            } else {
                depth
            };

        let rules = self.rules();
        let run_here = run;
        let switch_allowed = rules.is_some() && run_here.allows_switch();
        // The pruning below trusts the static evaluation even where the side
        // to move could switch: a switch is one more choice for that side, so
        // a node already above beta without it stays above with it. The null
        // move stays off mid-run: its child starts a fresh run, which would
        // let a pass end the run, a choice the rules do not give.
        let quiet_node = !pv_node && !in_check && beta.abs() < TB_WIN_BOUND;
        let prunable_node = quiet_node && !singularity_test;

        // Reverse futility: so far above beta that a shallow search will not
        // fall below it. Not where the evaluation is beyond `DECIDED`, where
        // its size is a guess and a sacrifice for mate looks no worse than
        // the rest.
        if prunable_node && depth <= 6 && eval.abs() < DECIDED {
            let bar = beta + 90 * (depth - i32::from(improving));
            if eval >= bar {
                return eval;
            }
            // In SSCC a player far behind may close a chain and take the
            // other army: weighed as the stand pat weighs it, a switch that
            // clears the bar cuts the node as well.
            if switch_allowed && eval < BEHIND_ENOUGH_TO_SWITCH {
                let with_switches = self.stand_pat(position, run, eval, bar, ply);
                if with_switches >= bar && with_switches < DECIDED {
                    return with_switches;
                }
            }
        }

        // Razoring: so far below alpha that only a capture or a switch could
        // lift it. Quiescence searches the captures and its stand pat weighs
        // the switches; where even it stays at or below alpha the node fails
        // low without its quiet moves. In SSCC, where quiescence already holds
        // most of the tree, this is the cut that deepens the search most.
        // Inside a run the verdict also weighs quiet checks: the player has
        // just taken the other army, perhaps for a quiet mate that captures
        // alone never see (`switches_into_a_mate_in_sscc_only`).
        if prunable_node
            && depth <= 3
            && eval.abs() < DECIDED
            && eval + RAZOR_MARGIN * depth < alpha
        {
            let checks = run.switches() > 0;
            let value = self.quiescence(position, run, alpha, alpha + 1, ply, checks);
            if value <= alpha {
                return value;
            }
        }

        // Null move pruning: above beta even after passing, the node is
        // good enough to cut without searching its moves. Not mid-run
        // (see above), nor without pieces, where zugzwang is common.
        if prunable_node
            && depth >= 3
            && eval >= beta
            && (rules.is_none() || run.switches() == 0)
            && Self::has_pieces(position)
            && let Some(child) = position.null_move()
        {
            let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(3);
            self.keys.push(position.key());
            self.stack[ply].played = None;
            self.stack.enter(ply, false);
            self.enter_child(ply, position, &child);
            let value = -self.search(
                &child,
                SwitchRun::default(),
                depth - 1 - reduction,
                Window::null(-beta),
                ply + 1,
            );
            self.keys.pop();
            if self.should_stop() {
                return 0;
            }
            if value >= beta {
                return if value >= TB_WIN_BOUND { beta } else { value };
            }
        }

        let tt_action = entry.map_or(0, |entry| entry.action);
        // Singular extension: when every other action falls clearly short of
        // the stored action's score, that action alone holds the position and
        // is searched deeper. When even the others reach beta, several moves
        // refute the line and the node is cut at once. Not where a switch may
        // follow: there the test multiplied the nodes of SSCC searches tenfold
        // (`catena bench`, the position after 1.c3 e5).
        let mut tt_extension = 0;
        if let Some(entry) = entry
            && ply > 0
            && (ply as i32) < 2 * self.root_depth
            && !singularity_test
            && !switch_allowed
            && depth >= 7
            && entry.action != 0
            && entry.bound != Bound::Upper
            && entry.depth >= depth - 3
            && entry.score.abs() < TB_WIN_BOUND
        {
            let tt_score = score_from_tt(entry.score, ply);
            let singular_beta = tt_score - 2 * depth;
            self.stack[ply].excluded = entry.action;
            let value = self.search(
                position,
                run,
                (depth - 1) / 2,
                Window::null(singular_beta - 1),
                ply,
            );
            self.stack[ply].excluded = 0;
            if self.should_stop() {
                return 0;
            }
            if value < singular_beta {
                tt_extension = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_score >= beta {
                tt_extension = -1;
            }
        }
        let earlier = |plies: usize| {
            ply.checked_sub(plies)
                .and_then(|before| self.stack[before].played)
        };
        let contexts = [earlier(1), earlier(2)].map(|played| played.map(|played| played.piece_to));
        let previous = earlier(1).map(|played| played.mv);
        let hints = OrderingHints {
            tt_action,
            killers: self.stack[ply].killers,
            counter: previous
                .and_then(|mv| self.histories.counters[mv.from().index()][mv.to().index()]),
            history: self.quiet_history(contexts),
            captures: &self.histories.captures,
        };
        let switches = match rules {
            Some(rules) if switch_allowed => Switches::WhenPicked(rules),
            _ => Switches::Never,
        };
        let mut picker = MovePicker::default();
        picker.add_all(position, &hints, switches);
        if picker.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        let original_alpha = alpha;
        let mut best_score = tb_floor;
        let mut best_action: Option<Action> = None;
        let mut tried = Tried::default();
        let us = position.side_to_move();
        let mut index = 0;
        let mut tt_move_tactical = false;
        let mut skipped_for_mate = false;
        self.keys.push(position.key());
        // The picker hands out a chain's move twice, as its switch and then
        // its stay. The pruning below spares every chain's move, so that it
        // is decided once per board move, as if before both actions.
        for scored in picker.by_ref() {
            let action = scored.action;
            let mv = action.mv;
            let chain = scored.chain;
            // Mate horizon: where only a mate within two plies beats alpha,
            // a mate on the next ply needs a check, and one two plies on a
            // check or a switch (the player moves again and checks): every
            // other action is skipped. A checking chain's switch is kept
            // even one ply from the horizon, where it cannot mate in time
            // (its child returns at once), as its stay finds the hidden
            // layer that the switch wrote.
            if alpha >= MATE_BOUND
                && let Some(plies) = mate_horizon(alpha, beta, ply)
                && plies <= 2
                && !(position.gives_check(mv) || plies == 2 && action.switch)
            {
                skipped_for_mate = true;
                continue;
            }
            // Late move pruning of quiet moves near the leaves; not in a
            // decided position, where the quiet move that mates may come late,
            // not a check (after a switch the mover plays again, and the
            // switch that wins is often one whose next move mates), and not a
            // chain's: its switch is the move after which the mover plays again.
            if quiet_node
                && !scored.tactical
                && best_score > -TB_WIN_BOUND
                && depth <= 6
                && static_eval.abs() < DECIDED
                && tried.plain_quiets as i32 >= (3 + depth * depth) / (2 - i32::from(improving))
                && !position.gives_check(mv)
                && !chain
            {
                continue;
            }
            // Moves that lose material in the exchange on their square, near
            // the leaves; not a chain's, whose switch may be worth far more.
            if quiet_node
                && !chain
                && best_score > -TB_WIN_BOUND
                && depth <= 6
                && !see_at_least(
                    position,
                    mv,
                    if scored.tactical {
                        -25 * depth * depth
                    } else {
                        -70 * depth
                    },
                )
            {
                continue;
            }
            let quiet = !scored.tactical && !chain;
            let capture = scored.tactical && !chain;
            // The histories see a chain's move as the board move it is, once:
            // where its switch cuts, it is the move to try early next time.
            let counted = action.switch || !chain;
            let history_quiet = counted && !scored.tactical;
            let history_capture = counted && scored.tactical;
            let played = Played::new(position, mv);
            let child = position.after(mv);
            self.shared.tt.prefetch(child.key());
            let gives_check = child.in_check();
            // Quiet moves that their histories say rarely work, near the leaves.
            if quiet_node
                && quiet
                && !gives_check
                && best_score > -TB_WIN_BOUND
                && depth <= 3
                && scored.score < -4000 * depth
            {
                continue;
            }
            self.stack[ply].played = Some(played);
            // A chain's stay comes right after its switch, whose subtree
            // left the child's hidden layer as it was: only deeper plies
            // write theirs.
            if action.switch || !chain {
                self.enter_child(ply, position, &child);
            }
            let packed = action.pack();
            // A singularity test leaves its action out, though its move counts as tried.
            if singularity_test && packed == excluded {
                tried.add(played, history_quiet, history_capture, chain);
                continue;
            }
            if packed == tt_action {
                tt_move_tactical = scored.tactical;
            }
            let extension = if tt_extension != 0 && packed == tt_action {
                tt_extension
            } else {
                i32::from(gives_check)
            };
            let new_depth = depth - 1 + extension;
            let child_run = match rules {
                Some(rules) if action.switch => run_here.after_switch(position, mv, &rules),
                _ => SwitchRun::default(),
            };
            self.stack.enter(ply, action.switch);
            let kind = match (action.switch, chain) {
                (true, _) => Child::Switch,
                (false, true) => Child::ChainStay,
                (false, false) => Child::Plain,
            };
            tree_stats::count(Event::Searched(kind));
            let search = |searcher: &mut Self, depth: i32, window: Window| {
                searcher.child_value(&child, child_run, action.switch, depth, window, ply)
            };
            let value = if index == 0 {
                let window = Window {
                    alpha,
                    beta,
                    pv: pv_node,
                };
                search(self, new_depth, window)
            } else {
                // Late switch reductions: a switch below an earlier switch,
                // off the principal variation, searched shallower first.
                // Lines with switches above are nearly the whole SSCC tree
                // (docs/sscc-search.md, "Where the tree goes"), and inside a
                // run every switch of a node that fails low is searched, so
                // each step of a run multiplies the work. A first switch
                // keeps its depth: reducing every chain move lost games
                // (C41), reducing these did not (C56).
                // Otherwise quiet moves, and captures that lose the
                // exchange; never a chain's stay.
                let reducible = quiet || (capture && scored.score < 0);
                let reduction = if action.switch
                    && !pv_node
                    && depth >= 3
                    && self.stack[ply].switches_above > 0
                {
                    SWITCH_REDUCTION.clamp(0, new_depth - 1)
                } else if depth >= 3 && index >= 2 && reducible && !in_check {
                    let base = late_move_reduction(depth, index)
                        - i32::from(pv_node)
                        - i32::from(gives_check);
                    let adjustment = if quiet {
                        let killer = self.stack[ply].killers.contains(&Some(mv));
                        // Where the best move is a capture, quiet moves rarely match it.
                        i32::from(tt_move_tactical) - i32::from(killer) + i32::from(!improving)
                            - self.quiet_history(contexts).score(us, mv, played.piece_to) / 16384
                    } else {
                        0
                    };
                    (base + adjustment).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut value = search(self, new_depth - reduction, Window::null(alpha));
                if value > alpha && reduction > 0 {
                    value = search(self, new_depth, Window::null(alpha));
                }
                if value > alpha && value < beta && pv_node {
                    let window = Window {
                        alpha,
                        beta,
                        pv: true,
                    };
                    value = search(self, new_depth, window);
                }
                value
            };
            index += 1;
            if self.should_stop() {
                self.keys.pop();
                return 0;
            }
            if value > best_score {
                best_score = value;
                best_action = Some(action);
                if value > alpha {
                    alpha = value;
                    if pv_node {
                        self.stack.update_pv(ply, action);
                    }
                    if value >= beta {
                        tree_stats::count(Event::Cutoff(kind));
                        let bonus = 16 * depth * depth;
                        if history_capture {
                            self.histories.captures.update(position, mv, bonus);
                        }
                        for &other in &tried.captures {
                            self.histories.captures.update(position, other, -bonus);
                        }
                        if history_quiet {
                            self.reward_quiet(us, contexts, played, bonus);
                            for &other in &tried.quiets {
                                self.reward_quiet(us, contexts, other, -bonus);
                            }
                            let killers = &mut self.stack[ply].killers;
                            if killers[0] != Some(mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(mv);
                            }
                            if let Some(previous) = previous {
                                self.histories.counters[previous.from().index()]
                                    [previous.to().index()] = Some(mv);
                            }
                        }
                        break;
                    }
                }
            }
            tried.add(played, history_quiet, history_capture, chain);
        }
        self.keys.pop();
        if best_score == -INFINITE {
            // Every move was pruned: the node is no better than alpha.
            return alpha;
        }
        best_score = best_score.min(tb_ceiling);
        // What an action skipped at the mate horizon is worth is unknown,
        // only that it is below alpha: so is the node, and no less is
        // known. The value of the checks alone would be stored as a bound
        // that an ordinary window later takes for the node's.
        if skipped_for_mate {
            best_score = best_score.max(alpha);
        }
        // A singularity test's result leaves out the best action: not the node's value.
        if singularity_test {
            return best_score;
        }
        // A quiet best move's value, where its bound says on which side of
        // the static evaluation the truth lies, measures the evaluation's miss.
        let informative = if best_score >= beta {
            best_score > static_eval
        } else if best_score <= original_alpha {
            best_score < static_eval
        } else {
            true
        };
        if !in_check
            && informative
            && raw_eval.abs() < DECIDED
            && best_score.abs() < TB_WIN_BOUND
            && best_action.is_some_and(|action| !action.switch && !is_tactical(position, action.mv))
        {
            self.histories
                .correction
                .update(position, depth, best_score, raw_eval);
        }
        let eval = if in_check { 0 } else { raw_eval };
        self.store(
            key,
            ply,
            depth,
            eval,
            best_action,
            best_score,
            (original_alpha, beta),
        );
        best_score
    }

    /// Captures only, to a quiet position; with `checks`, the quiet moves
    /// that give check too, at this ply only (a razored node inside a run).
    fn quiescence(
        &mut self,
        position: &Position,
        run: SwitchRun,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        self.stack[ply].pv.clear();
        self.count_node();
        tree_stats::count(Event::Quiescence {
            below_switch: self.stack[ply].switches_above > 0,
        });
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(position, run.switches(), ply);
        }
        if position.is_dead() {
            return 0;
        }
        let key = position.key() ^ run.key();
        let entry = self.shared.tt.probe(key);
        // A stored verdict may come from a search without the checks.
        if let Some(entry) = entry
            && !checks
            && let Some(score) = tt_cutoff(&entry, ply, alpha, beta)
        {
            return score;
        }
        let in_check = position.in_check();
        let mut best = -INFINITE;
        let mut raw_eval = 0;
        let mut picker = MovePicker::default();
        let rules = self.rules();
        if in_check {
            // Every evasion, a chain's switch too: a mate found here is
            // then a proof, as the main search's are (the mate horizon
            // holds a found mate's depth, so a false one would stay).
            let switches = match rules {
                Some(rules) if run.allows_switch() => Switches::WhenPicked(rules),
                _ => Switches::Never,
            };
            picker.add_all(position, &OrderingHints::plain(&self.histories), switches);
            if picker.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            raw_eval = entry.map_or_else(
                || self.evaluate(position, run.switches(), ply),
                |entry| entry.eval,
            );
            let static_eval = self.corrected(position, raw_eval);
            let stand_pat = self.stand_pat(position, run, static_eval, beta, ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            picker.add_tactical(position, &self.histories.captures, checks);
        }
        let original_alpha = alpha;
        let mut best_action = None;
        for scored in picker.by_ref() {
            let mv = scored.action.mv;
            if !in_check && scored.tactical {
                if !see_at_least(position, mv, 0) {
                    continue;
                }
                // Delta pruning: even winning the piece cannot lift alpha.
                let gain = position
                    .piece_on(mv.to())
                    .map_or(PIECE_VALUE[0], |piece| PIECE_VALUE[piece.index()])
                    + mv.promotion().map_or(0, |piece| PIECE_VALUE[piece.index()]);
                if best + gain + 200 <= alpha {
                    continue;
                }
            }
            let child = position.after(mv);
            self.shared.tt.prefetch(child.key());
            self.enter_child(ply, position, &child);
            self.stack.enter(ply, scored.action.switch);
            let value = match rules {
                // After a switch the same player moves the other army.
                Some(rules) if scored.action.switch => {
                    let child_run = run.after_switch(position, mv, &rules);
                    self.quiescence(&child, child_run, alpha, beta, ply + 1, false)
                }
                _ => -self.quiescence(&child, SwitchRun::default(), -beta, -alpha, ply + 1, false),
            };
            if self.should_stop() {
                return 0;
            }
            if value > best {
                best = value;
                best_action = Some(scored.action);
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.store(
            key,
            ply,
            0,
            raw_eval,
            best_action,
            best,
            (original_alpha, beta),
        );
        best
    }

    /// The static evaluation of `position`, the node at `ply` of the current line.
    /// In SSCC the network also sees the board's pockets and the
    /// `switches` the side to move has made in a row.
    fn evaluate(&mut self, position: &Position, switches: u32, ply: usize) -> i32 {
        let accumulator = &self.accumulators[ply];
        let value = match self.shared.variant {
            Variant::Chess => accumulator.evaluate(self.network, position),
            Variant::Sscc(_) => {
                // Brought from this ply's last layer or the parent's,
                // whichever holds pockets nearer these.
                let state = SsccState::new(position, switches);
                let (parents, layers) = self.pocket_layers.split_at_mut(ply);
                layers[0].update(self.network, parents.last(), state.pockets);
                accumulator.evaluate_sscc_with(self.network, position, state, &layers[0])
            }
        };
        value.clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// `raw_eval` with the correction history's guess of its miss added; not
    /// beyond `DECIDED`, where the network's output is itself only a guess
    /// and a correction learnt elsewhere would blur which side is winning.
    fn corrected(&self, position: &Position, raw_eval: i32) -> i32 {
        if raw_eval.abs() < DECIDED {
            raw_eval + self.histories.correction.correction(position)
        } else {
            raw_eval
        }
    }

    /// Derives the network's hidden layer of `child`, searched at `ply + 1`,
    /// from that of `parent` at `ply`.
    fn enter_child(&mut self, ply: usize, parent: &Position, child: &Position) {
        let (parents, children) = self.accumulators.split_at_mut(ply + 1);
        parents[ply].after(self.network, parent, child, &mut children[0]);
    }

    /// The histories of quiet moves played after `contexts`.
    fn quiet_history(&self, contexts: [Option<PieceTo>; 2]) -> QuietHistory<'_> {
        QuietHistory {
            main: &self.histories.quiet,
            continuations: contexts
                .map(|context| context.map(|context| self.histories.continuation.replies(context))),
        }
    }

    /// Adds `bonus` to the histories of a quiet move played after `contexts`.
    fn reward_quiet(
        &mut self,
        us: Color,
        contexts: [Option<PieceTo>; 2],
        played: Played,
        bonus: i32,
    ) {
        self.histories.quiet.update(us, played.mv, bonus);
        for context in contexts.into_iter().flatten() {
            self.histories
                .continuation
                .update(context, played.piece_to, bonus);
        }
    }

    /// Stores a node's result, searched with `window`, in the transposition table.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        eval: i32,
        best_action: Option<Action>,
        best: i32,
        (alpha, beta): (i32, i32),
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                action: best_action.map_or(0, Action::pack),
                score: score_to_tt(best, ply),
                eval,
                depth,
                bound,
            },
        );
    }

    /// The static value of `position` to the player to move. In SSCC a
    /// player who can close a chain and switch may take the other army
    /// instead, so the position is worth about the better of the two sides:
    /// at the horizon a chain can turn a lost position into a won one, which
    /// captures alone never see. Only as far as `beta`: a value there
    /// already ends the node (quiescence's, or reverse futility's), so no
    /// more chains are tested.
    fn stand_pat(
        &mut self,
        position: &Position,
        run: SwitchRun,
        own: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let Some(rules) = self.rules() else {
            return own;
        };
        if own >= beta || own >= AHEAD_ENOUGH_TO_STAY || !run.allows_switch() {
            return own;
        }
        // A board scanned before is answered from what its scan found.
        let key = position.key() ^ run.key() ^ rules_key(&rules);
        if let Some(value) = self.histories.stand_pats.answer(key, own, beta) {
            return value;
        }
        // The chain tests seldom meet a board twice here: their memo of
        // verdicts would mostly cost a cache miss that saves nothing.
        let chains = ChainTest::new(position, &rules).without_memo();
        let mut best = own;
        let mut scan = Scan::default();
        let stopped = position.generate_moves(|moves| {
            for mv in moves {
                if !chains.forms_chain(mv) {
                    continue;
                }
                // After the switch the same player moves the other army.
                let child = position.after(mv);
                tree_stats::count(Event::StandPatSwitch);
                self.enter_child(ply, position, &child);
                let value = self.evaluate(&child, run.switches() + 1, ply + 1);
                scan.note(value);
                best = best.max(value);
                if best >= beta {
                    return true;
                }
            }
            false
        });
        self.histories.stand_pats.remember(key, &scan, !stopped);
        best
    }

    /// One pass over the root moves from `first` on with window (`alpha`, `beta`).
    fn search_root(
        &mut self,
        root: &Root,
        depth: i32,
        (mut alpha, beta): (i32, i32),
        first: usize,
        report: &mut dyn FnMut(&Info),
    ) -> i32 {
        let position = &root.position;
        let mut best = -INFINITE;
        self.root_depth = depth;
        self.accumulators[0] = Accumulator::new(self.network, position);
        self.keys.push(position.key());
        for index in first..self.root_moves.len() {
            let action = self.root_moves[index].action;
            if self.id == 0 && self.shared.elapsed() >= CURRENT_MOVE_AFTER {
                report(&Info::CurrentMove {
                    depth,
                    action,
                    number: index + 1,
                });
            }
            let child = position.after(action.mv);
            self.stack[0].played = Some(Played::new(position, action.mv));
            self.enter_child(0, position, &child);
            self.stack.enter(0, action.switch);
            let child_run = match self.rules() {
                Some(rules) if action.switch => root.run.after_switch(position, action.mv, &rules),
                _ => SwitchRun::default(),
            };
            let new_depth = depth - 1 + i32::from(child.in_check());
            let nodes_before = self.nodes;
            let search = |searcher: &mut Self, window: Window| {
                searcher.child_value(&child, child_run, action.switch, new_depth, window, 0)
            };
            let full = Window {
                alpha,
                beta,
                pv: true,
            };
            // Principal variation search: the first move with the full
            // window, the rest with a null window, re-searched if they beat alpha.
            let value = if index == first {
                search(self, full)
            } else {
                let value = search(self, Window::null(alpha));
                if value > alpha && value < beta {
                    search(self, full)
                } else {
                    value
                }
            };
            self.root_moves[index].nodes += self.nodes - nodes_before;
            if self.should_stop() {
                break;
            }
            let root_move = &mut self.root_moves[index];
            if value > alpha || index == first {
                root_move.score = value;
                root_move.pv.clear();
                root_move.pv.push(action);
                root_move.pv.extend(self.stack[1].pv.iter().copied());
            } else {
                root_move.score = -INFINITE;
            }
            if value > best {
                best = value;
            }
            if value > alpha {
                alpha = value;
                // A new leader moves the clock's hard limit with it (a line
                // that gives the clock away may spend more, `Budget::hard_limit`).
                if self.id == 0 && first == 0 {
                    self.shared
                        .giving_away
                        .store(gives_the_clock_away(&root_move.pv), Ordering::Relaxed);
                }
                if value >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        // Best first, the order of the previous iteration breaking ties.
        self.root_moves[first..].sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
        best
    }

    pub fn iterate(&mut self, root: &Root, report: &mut dyn FnMut(&Info)) -> i32 {
        let limits = self.shared.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let lines = limits.multipv.clamp(1, self.root_moves.len().max(1));
        let mut completed = 0;
        let mut progress = Progress::default();
        let mut previous_leader = None;
        let mut previous_best: Option<i32> = None;
        for depth in 1..=max_depth {
            // Helpers skip some depths so that threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % 3 == 0 {
                continue;
            }
            self.seldepth = 0;
            for root_move in &mut self.root_moves {
                root_move.previous_score = root_move.score;
            }
            for line in 0..lines {
                let previous = self.root_moves[line].previous_score;
                let mut delta = 25;
                let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < TB_WIN_BOUND {
                    (previous - delta, previous + delta)
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let score = self.search_root(root, depth, (alpha, beta), line, report);
                    if self.should_stop() {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.should_stop() {
                    break;
                }
                // Lines in score order: a later line may come out above an
                // earlier one, whose score was only a bound.
                self.root_moves[..=line]
                    .sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
            }
            if self.should_stop() {
                break;
            }
            completed = depth;
            if self.id == 0 {
                self.publish_nodes();
                let elapsed = self.shared.elapsed();
                for line in 0..lines {
                    let root_move = &self.root_moves[line];
                    report(&Info::Line(Report {
                        depth,
                        seldepth: self.seldepth as i32,
                        multipv: line + 1,
                        score: root_move.reported_score(),
                        bound: None,
                        nodes: self.shared.nodes.load(Ordering::Relaxed),
                        time: self.shared.started.elapsed(),
                        hashfull: self.shared.tt.hashfull(),
                        tb_hits: self.shared.tb_hits.load(Ordering::Relaxed),
                        pv: root_move.pv.clone(),
                    }));
                }
                let best = self.root_moves[0].score;
                if let Some(moves) = limits.mate
                    && best >= MATE_BOUND
                    && (MATE - best + 1) / 2 <= moves
                {
                    break;
                }
                let leader = self.root_moves[0].action;
                progress.stable_iterations = if previous_leader == Some(leader) {
                    progress.stable_iterations + 1
                } else {
                    0
                };
                progress.score_drop = previous_best.map_or(0, |previous| (previous - best).max(0));
                progress.best_action_share = self.best_action_share();
                progress.giving_away = gives_the_clock_away(&self.root_moves[0].pv);
                self.shared
                    .giving_away
                    .store(progress.giving_away, Ordering::Relaxed);
                previous_leader = Some(leader);
                previous_best = Some(best);
                let pondering = self.shared.control.pondering.load(Ordering::Relaxed);
                if !pondering
                    && let Some(budget) = limits.budget
                    && !budget.allows_iteration(elapsed, progress)
                {
                    break;
                }
            }
        }
        completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thread::{Control, Limits};
    use crate::transposition::TranspositionTable;
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::time::Instant;

    /// Runs `test` with a one-thread worker searching `position` in `variant`.
    fn with_worker<T>(
        position: &Position,
        variant: Variant,
        test: impl FnOnce(&mut Worker, &TranspositionTable) -> T,
    ) -> T {
        let root = Root {
            position: position.clone(),
            run: SwitchRun::default(),
            history: Vec::new(),
            variant,
        };
        let tt = TranspositionTable::new(1);
        let (control, limits) = (Control::default(), Limits::default());
        let shared = Shared {
            tt: &tt,
            control: &control,
            limits: &limits,
            started: Instant::now(),
            nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
            probing: None,
            variant,
            done: AtomicBool::new(false),
            giving_away: AtomicBool::new(false),
        };
        let mut worker = Worker::new(0, &shared, &root, Histories::default());
        test(&mut worker, &tt)
    }

    /// Where only a mate on the next ply beats alpha, a node searches its
    /// checks alone. What it stores must not be the checks' value as a
    /// bound on the node's: here the check loses the rook (Rd8+ Kh7), and
    /// the capture it skipped wins the queen (axb3).
    #[test]
    fn a_node_at_the_mate_horizon_stores_no_bound_below_alpha() {
        let position = Position::from_fen("6k1/5pp1/7p/8/8/1q6/P4PPP/3R2K1 w - - 0 1").unwrap();
        with_worker(&position, Variant::Chess, |worker, tt| {
            let ply = 3;
            // Only a mate on ply 4, the next, is worth more than alpha.
            let alpha = MATE - 1 - ply as i32 - 1;
            assert_eq!(mate_horizon(alpha, alpha + 1, ply), Some(1));
            let window = Window {
                alpha,
                beta: alpha + 1,
                pv: false,
            };
            let value = worker.search(&position, SwitchRun::default(), 4, window, ply);
            assert!(value <= alpha, "no mate in one here: {value}");
            let entry = tt.probe(position.key()).expect("the node is stored");
            assert_eq!(entry.bound, Bound::Upper);
            assert!(
                score_from_tt(entry.score, ply) >= alpha,
                "stored as at most {}, below alpha {alpha}",
                score_from_tt(entry.score, ply)
            );
        });
    }

    /// In check at the horizon, the quiescence search tries each evasion's
    /// switch too. White, a queen and two rooks down, is checked by the
    /// rook on d8; of the evasions only Nd3 closes a chain (round c2 and
    /// d2), and with its switch White takes over the winning black army.
    /// Every stay leaves White lost, so a quiescence search without the
    /// switches of its evasions scores the node lost.
    #[test]
    fn quiescence_in_check_escapes_by_switching() {
        let position = Position::from_fen("3r3k/r7/7q/8/5N2/2P5/1P2P3/2BK4 w - - 0 1").unwrap();
        let rules = Rules::default();
        let variant = Variant::Sscc(rules);
        // Five pawns' worth: either army is far from that balance.
        const LOST: i32 = 500;
        assert!(position.in_check());
        let chains = ChainTest::new(&position, &rules);
        let closing: Vec<String> = position
            .legal_moves()
            .iter()
            .filter(|&&mv| chains.forms_chain(mv))
            .map(|mv| mv.to_string())
            .collect();
        assert_eq!(closing, ["f4d3"]);
        with_worker(&position, variant, |worker, _| {
            for &mv in &position.legal_moves() {
                let child = position.after(mv);
                worker.enter_child(0, &position, &child);
                let stay =
                    -worker.quiescence(&child, SwitchRun::default(), -INFINITE, INFINITE, 1, false);
                assert!(stay < -LOST, "{mv} without its switch: {stay}");
            }
            let value = worker.quiescence(
                &position,
                SwitchRun::default(),
                -INFINITE,
                INFINITE,
                0,
                false,
            );
            assert!(value > LOST, "Nd3 and the switch: {value}");
        });
    }
}
