//! Forced wins in the SSCC game tree (docs/rules.md, sections 4 and 8), proved or
//! refuted exactly: depth-first proof-number search (df-pn, Nagai 2002).
//!
//! The player to move at the root is the attacker. A node is the board, the
//! run of switches in progress, the plies left, and whether the attacker is
//! to move: a stay hands the move to the other player, a switch keeps it
//! with the same player (now on the other colour). The attacker wins where
//! the side to move is mated while the defender controls it. Stalemate,
//! the fifty-move rule, dead positions, the bound on plies and a position's
//! third occurrence on the line are not wins.
//!
//! Each node has a proof number (how many more leaves must be proved to
//! prove it) and a disproof number. df-pn descends into the most proving
//! child with thresholds that send it back up as soon as a sibling becomes
//! more promising, and keeps every node's numbers in a table, so that the
//! tree is never held in memory.
//!
//! Repetitions and the table (the graph-history interaction): a node's
//! value can depend on how it was reached, because a position that has
//! occurred twice on the line is a draw at its third occurrence. A position
//! can recur only between irreversible moves, and its third occurrence needs
//! at least eight plies (each colour's move and its way back, twice). So for
//! bounds of seven plies or fewer no repetition can arise from a root given
//! without history, and table entries are keyed by the node alone. From
//! eight plies on, the key also holds the multiset of the positions since
//! the last irreversible move, the only part of the line the subtree can
//! see: an entry is then reused only where the same repetitions are
//! possible, which is sound, at the price of fewer transpositions.

use catena_core::game::Action;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::history::Histories;
use crate::movepick::{MovePicker, OrderingHints, Switches};
use catena_core::board::Position;
use catena_core::game::{Rules, SwitchRun};
use catena_core::rng::SplitMix64;

/// Proof and disproof numbers beyond any count of leaves.
const INFINITE: u64 = u64::MAX / 4;

/// Table entries before the table is cleared and refilled.
const MAX_ENTRIES: usize = 1 << 22;

/// The first bound on plies at which a position can occur a third time.
const REPETITION_PLIES: u32 = 8;

/// The search was stopped (or ran out of nodes) before it settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// What the solver is asked to prove.
#[derive(Clone, Copy, Debug)]
pub struct Problem {
    /// `None` in plain chess: nobody switches.
    pub rules: Option<Rules>,
    /// Whether the attacker may switch; the defender always may (when the
    /// rules allow it). `false` asks whether a win needs the attacker's switches.
    pub attacker_switches: bool,
}

/// One state of the game tree.
#[derive(Clone, Debug)]
pub struct Node {
    pub position: Position,
    pub run: SwitchRun,
    /// Whether the root's player is to move.
    pub attacker: bool,
}

impl Node {
    pub fn root(position: Position) -> Node {
        Node {
            position,
            run: SwitchRun::default(),
            attacker: true,
        }
    }
}

/// A node's proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Numbers {
    proof: u64,
    disproof: u64,
}

impl Numbers {
    const PROVED: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
    };
    const DISPROVED: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
    };

    fn settled(self) -> bool {
        self.proof == 0 || self.disproof == 0
    }
}

struct Child {
    action: Action,
    node: Node,
    key: u64,
    /// Before the child is first searched: a guess that prefers checks.
    guess: Numbers,
}

/// The df-pn search with its table; one per thread.
pub struct Solver<'a> {
    problem: Problem,
    table: HashMap<u64, Numbers>,
    histories: Box<Histories>,
    /// Board keys of the positions on the line, root first.
    line: Vec<u64>,
    /// Whether repetitions can matter under the current bound.
    repetitions: bool,
    nodes: u64,
    /// Nodes after which the solver gives up, as if stopped.
    node_limit: u64,
    stop: &'a AtomicBool,
}

impl<'a> Solver<'a> {
    pub fn new(problem: Problem, stop: &'a AtomicBool) -> Solver<'a> {
        Solver {
            problem,
            table: HashMap::new(),
            histories: Box::default(),
            line: Vec::new(),
            repetitions: false,
            nodes: 0,
            node_limit: u64::MAX,
            stop,
        }
    }

    /// The solver, giving up after `nodes` nodes (counted over all its searches).
    pub fn with_node_limit(mut self, nodes: u64) -> Solver<'a> {
        self.node_limit = nodes;
        self
    }

    fn stopped(&self) -> bool {
        self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed)
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the attacker, to move at `node`, wins within `plies` plies;
    /// `None` when stopped first.
    pub fn wins(&mut self, node: &Node, plies: u32) -> Option<bool> {
        self.repetitions = plies + (self.line.len() as u32) >= REPETITION_PLIES;
        let key = self.key(node, plies);
        let numbers = self.prove(
            node,
            key,
            plies,
            Numbers {
                proof: INFINITE,
                disproof: INFINITE,
            },
        );
        if self.stopped() && !numbers.settled() {
            return None;
        }
        Some(numbers.proof == 0)
    }

    /// The smallest bound in `1..=max_plies` within which the attacker to
    /// move at `node` wins: `Ok(Some(d))`, or `Ok(None)` for no win.
    pub fn shortest(&mut self, node: &Node, max_plies: u32) -> Result<Option<u32>, Stopped> {
        for plies in 1..=max_plies {
            match self.wins(node, plies) {
                None => return Err(Stopped),
                Some(true) => return Ok(Some(plies)),
                Some(false) => {}
            }
        }
        Ok(None)
    }

    /// The actions of `node` after which the attacker still wins within
    /// `plies` plies in all (the root's winning first actions), in the
    /// engine's order; `None` if stopped.
    pub fn winning_actions(&mut self, node: &Node, plies: u32) -> Option<Vec<Action>> {
        let mut winning = Vec::new();
        for child in self.children(node) {
            self.line.push(node.position.key());
            let wins = self.wins(&child.node, plies - 1);
            self.line.pop();
            if wins? {
                winning.push(child.action);
            }
        }
        Some(winning)
    }

    /// A winning line from `node`, where the attacker wins within `plies`
    /// and no fewer: the attacker's first winning action in the engine's
    /// order, and the defence that holds out longest. `None` if stopped.
    pub fn line(&mut self, node: &Node, plies: u32) -> Option<Vec<Action>> {
        let mut line = Vec::new();
        let mut node = node.clone();
        let mut plies = plies;
        let depth = self.line.len();
        while plies > 0 {
            let children = self.children(&node);
            let mut next = None;
            self.line.push(node.position.key());
            for child in children {
                let holds = if node.attacker {
                    // The attacker's first action that still wins in time.
                    self.wins(&child.node, plies - 1)?
                } else {
                    // A defence the attacker cannot beat a ply sooner.
                    plies < 2 || !self.wins(&child.node, plies - 2)?
                };
                if holds {
                    next = Some(child);
                    break;
                }
            }
            let Some(child) = next else {
                break;
            };
            line.push(child.action);
            node = child.node;
            plies -= 1;
            if node.position.legal_moves().is_empty() {
                break;
            }
        }
        self.line.truncate(depth);
        Some(line)
    }

    /// The table key of `node` with `plies` left: the board, the run, the
    /// plies, who is to move, and where repetitions can matter the
    /// positions since the last irreversible move.
    fn key(&self, node: &Node, plies: u32) -> u64 {
        let mut key = node.position.key()
            ^ node.run.key()
            ^ mix(u64::from(plies) << 1 | u64::from(node.attacker));
        if self.repetitions {
            let reversible = usize::from(node.position.halfmove_clock()).min(self.line.len());
            key ^= self.line[self.line.len() - reversible..]
                .iter()
                .fold(0u64, |sum, &earlier| sum.wrapping_add(mix(earlier)))
                .rotate_left(17);
        }
        key
    }

    /// Whether `node`'s position has occurred twice before on the line, so
    /// that this is its third occurrence.
    fn third_occurrence(&self, node: &Node) -> bool {
        if !self.repetitions {
            return false;
        }
        let key = node.position.key();
        let reversible = usize::from(node.position.halfmove_clock()).min(self.line.len());
        self.line[self.line.len() - reversible..]
            .iter()
            .filter(|&&earlier| earlier == key)
            .count()
            >= 2
    }

    /// `node`'s actions in the engine's order (switches and good captures
    /// first), each with its child: empty for a node with no moves.
    fn children(&self, node: &Node) -> Vec<Child> {
        let position = &node.position;
        let run = node.run;
        let allowed = run.allows_switch() && (self.problem.attacker_switches || !node.attacker);
        let switches = self.problem.rules.filter(|_| allowed);
        let hints = OrderingHints::plain(&self.histories);
        let mut picker = MovePicker::default();
        picker.add_all(
            position,
            &hints,
            switches.map_or(Switches::Never, Switches::Ranked),
        );
        let mut children = Vec::with_capacity(picker.len());
        for scored in picker {
            let action = scored.action;
            let child_position = position.after(action.mv);
            let child = match (action.switch, switches) {
                (true, Some(rules)) => Node {
                    run: node.run.after_switch(position, action.mv, &rules),
                    attacker: node.attacker,
                    position: child_position,
                },
                _ => Node {
                    run: SwitchRun::default(),
                    attacker: !node.attacker,
                    position: child_position,
                },
            };
            // A check leaves the defender few replies: a proof looks cheaper there.
            let guess = if child.position.in_check() {
                Numbers {
                    proof: 1,
                    disproof: 1,
                }
            } else {
                Numbers {
                    proof: if child.attacker { 1 } else { 2 },
                    disproof: 1,
                }
            };
            children.push(Child {
                action,
                key: 0,
                node: child,
                guess,
            });
        }
        children
    }

    /// df-pn's multiple iterative deepening at `node` (table key `key`) with
    /// `plies` left: searches until the node's numbers reach `threshold`
    /// or it is settled, and returns them.
    fn prove(&mut self, node: &Node, key: u64, plies: u32, threshold: Numbers) -> Numbers {
        self.nodes += 1;
        // With plies left the children are needed anyway, and their absence
        // is the test for mate: the moves are generated once.
        if plies == 0 {
            return self.terminal(node, plies).unwrap_or(Numbers::DISPROVED);
        }
        let mut children = self.children(node);
        if children.is_empty() {
            return Self::no_moves(node);
        }
        if self.drawn_or_spent(node, plies) {
            return Numbers::DISPROVED;
        }
        self.line.push(node.position.key());
        for child in &mut children {
            child.key = self.key(&child.node, plies - 1);
        }
        let numbers = loop {
            let numbers = self.combine(node, &children);
            if numbers.proof >= threshold.proof
                || numbers.disproof >= threshold.disproof
                || numbers.settled()
                || self.stopped()
            {
                break numbers;
            }
            let (best, second) = self.most_proving(node, &children);
            let current = self.numbers_of(&children[best]);
            let child_threshold = if node.attacker {
                Numbers {
                    proof: threshold.proof.min(second.saturating_add(1)),
                    disproof: (threshold.disproof - numbers.disproof)
                        .saturating_add(current.disproof),
                }
            } else {
                Numbers {
                    proof: (threshold.proof - numbers.proof).saturating_add(current.proof),
                    disproof: threshold.disproof.min(second.saturating_add(1)),
                }
            };
            let child = &children[best];
            let (child_node, child_key) = (child.node.clone(), child.key);
            let result = self.prove(&child_node, child_key, plies - 1, child_threshold);
            self.store(child_key, result);
        };
        self.line.pop();
        self.store(key, numbers);
        numbers
    }

    /// The numbers of a node decided without looking at its children: mate,
    /// stalemate, a draw by rule, or no plies left.
    fn terminal(&self, node: &Node, plies: u32) -> Option<Numbers> {
        if !node.position.has_legal_move() {
            return Some(Self::no_moves(node));
        }
        self.drawn_or_spent(node, plies)
            .then_some(Numbers::DISPROVED)
    }

    /// A node without moves: mate wins for the attacker only when the
    /// defender controls the mated side; stalemate is a draw.
    fn no_moves(node: &Node) -> Numbers {
        if node.position.in_check() && !node.attacker {
            Numbers::PROVED
        } else {
            Numbers::DISPROVED
        }
    }

    /// Whether a node with moves is no win for the attacker without a look
    /// at its children: no plies left, or a draw by rule.
    fn drawn_or_spent(&self, node: &Node, plies: u32) -> bool {
        let position = &node.position;
        plies == 0
            || position.halfmove_clock() >= 100
            || position.is_dead()
            || self.third_occurrence(node)
    }

    /// A child's numbers: from the table, or the first guess.
    fn numbers_of(&self, child: &Child) -> Numbers {
        self.table.get(&child.key).copied().unwrap_or(child.guess)
    }

    /// The node's numbers from its children's: at the attacker's node the
    /// smallest proof number and the sum of disproof numbers, at the
    /// defender's the other way round.
    fn combine(&self, node: &Node, children: &[Child]) -> Numbers {
        let (mut smallest, mut sum) = (INFINITE, 0u64);
        for child in children {
            let numbers = self.numbers_of(child);
            let (own, other) = if node.attacker {
                (numbers.proof, numbers.disproof)
            } else {
                (numbers.disproof, numbers.proof)
            };
            smallest = smallest.min(own);
            sum = sum.saturating_add(other).min(INFINITE);
        }
        if node.attacker {
            Numbers {
                proof: smallest,
                disproof: sum,
            }
        } else {
            Numbers {
                proof: sum,
                disproof: smallest,
            }
        }
    }

    /// The child to search next (smallest proof number at the attacker's
    /// node, smallest disproof number at the defender's; the first in the
    /// engine's order on ties) and the second smallest such number.
    fn most_proving(&self, node: &Node, children: &[Child]) -> (usize, u64) {
        let (mut best, mut best_value, mut second) = (0, INFINITE, INFINITE);
        for (index, child) in children.iter().enumerate() {
            let numbers = self.numbers_of(child);
            let value = if node.attacker {
                numbers.proof
            } else {
                numbers.disproof
            };
            if value < best_value {
                second = best_value;
                (best, best_value) = (index, value);
            } else if value < second {
                second = value;
            }
        }
        (best, second)
    }

    fn store(&mut self, key: u64, numbers: Numbers) {
        if self.table.len() >= MAX_ENTRIES {
            // Settled entries are the valuable ones; keep those.
            self.table.retain(|_, numbers| numbers.settled());
            if self.table.len() >= MAX_ENTRIES / 2 {
                self.table.clear();
            }
        }
        self.table.insert(key, numbers);
    }
}

/// A 64-bit mixer, so that small numbers spread over the key.
fn mix(value: u64) -> u64 {
    SplitMix64::new(value).next_u64()
}

/// What `solve` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The smallest bound with a forced win, and a winning line against the
    /// longest defence; `None` when there is no win within the bound.
    pub win: Option<(u32, Vec<Action>)>,
    /// Nodes expanded, over all threads.
    pub nodes: u64,
}

/// Whether the player to move in `position` has a forced win within
/// `max_plies` plies, and the shortest; with `threads` above 1 the root's
/// actions are proved in parallel, the first win cancelling the rest.
pub fn solve(position: &Position, problem: Problem, max_plies: u32, threads: usize) -> Solution {
    let never = AtomicBool::new(false);
    let root = Node::root(position.clone());
    let mut solver = Solver::new(problem, &never);
    if solver.terminal(&root, max_plies).is_some() {
        // Mated, stalemated or drawn already: nothing to win.
        return Solution {
            win: None,
            nodes: 1,
        };
    }
    let mut nodes = 0;
    for plies in 1..=max_plies {
        let wins = if threads <= 1 {
            solver.wins(&root, plies) == Some(true)
        } else {
            let (wins, spent) = wins_in_parallel(&root, problem, plies, threads);
            nodes += spent;
            wins
        };
        if wins {
            let line = solver.line(&root, plies).unwrap_or_default();
            return Solution {
                win: Some((plies, line)),
                nodes: nodes + solver.nodes(),
            };
        }
    }
    Solution {
        win: None,
        nodes: nodes + solver.nodes(),
    }
}

/// Whether some action of `root` wins within `plies`, each action proved by
/// its own solver on a pool of `threads`; and the nodes they spent.
fn wins_in_parallel(root: &Node, problem: Problem, plies: u32, threads: usize) -> (bool, u64) {
    use rayon::prelude::*;
    let found = AtomicBool::new(false);
    let children = Solver::new(problem, &found).children(root);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool of a few threads can be built");
    let spent: Vec<(bool, u64)> = pool.install(|| {
        children
            .par_iter()
            .map(|child| {
                let mut solver = Solver::new(problem, &found);
                solver.line.push(root.position.key());
                let wins = solver.wins(&child.node, plies - 1) == Some(true);
                if wins {
                    found.store(true, Ordering::Relaxed);
                }
                (wins, solver.nodes())
            })
            .collect()
    });
    (
        spent.iter().any(|&(wins, _)| wins),
        spent.iter().map(|&(_, nodes)| nodes).sum(),
    )
}
