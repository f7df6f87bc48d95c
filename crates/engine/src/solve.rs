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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use crate::history::Histories;
use crate::listings::{Actions, Listed, Listings};
use crate::movepick::{LazyChains, MovePicker, OrderingHints, Switches};
use crate::proof_table::{Entry, ProofTable};
use catena_core::board::{Move, MoveKind, Piece, Position};
use catena_core::game::{Action, Rules, SwitchRun};
use catena_core::rng::SplitMix64;

/// Proof and disproof numbers beyond any count of leaves.
const INFINITE: u64 = u64::MAX / 4;

/// The most buckets the table grows to (64 bytes each: 256 MB).
const MAX_BUCKETS: usize = 1 << 22;

/// The first disproof number of the attacker's node after the defender's
/// quiet stay: about its number of actions, the leaves a disproof needs.
/// Chosen on the positions of benches/solver.sh and 16 more
/// (docs/solver.md, "Speed (issue 53)"): 1 to 4 (as before) were the
/// worst, 20 to 80 alike.
const ATTACKER_DISPROOF: u64 = 40;

/// Nodes with this many plies left or fewer (but more than one) are
/// settled at once, without df-pn (`Solver::settle`). Three was 2.0 to 2.3
/// times faster than two on the start position at 11 plies under each
/// rule; four was faster still under `chain` and `moves`, but slower under
/// `unlimited` (docs/solver.md, "Speed (issue 53)").
const SETTLED_PLIES: u32 = 3;

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

/// A child as a node being searched lists it: the action, the key of its
/// table entry, and its numbers (from the table, or a first
/// guess that prefers checks). The child's position is made only when it is
/// searched.
#[derive(Clone, Copy)]
struct Child {
    action: Action,
    key: u64,
    numbers: Numbers,
}

/// The df-pn search; one per thread, the threads of one solve sharing
/// their proof table and their listings.
pub struct Solver<'a> {
    problem: Problem,
    table: Arc<ProofTable>,
    listings: Arc<Listings>,
    /// Visits to the listings not yet counted in them.
    visits: u64,
    histories: Box<Histories>,
    /// The children of the nodes on the line, each node's after its parent's.
    children: Vec<Child>,
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
        Self::with_tables(
            problem,
            stop,
            Arc::new(ProofTable::new(MAX_BUCKETS)),
            Arc::default(),
        )
    }

    /// A solver of `other`'s problem with `other`'s table and listings:
    /// what either proves or lists, the other knows.
    pub fn sharing_tables_of(other: &Solver, stop: &'a AtomicBool) -> Solver<'a> {
        Self::with_tables(
            other.problem,
            stop,
            Arc::clone(&other.table),
            Arc::clone(&other.listings),
        )
    }

    fn with_tables(
        problem: Problem,
        stop: &'a AtomicBool,
        table: Arc<ProofTable>,
        listings: Arc<Listings>,
    ) -> Solver<'a> {
        Solver {
            problem,
            table,
            listings,
            visits: 0,
            histories: Box::default(),
            children: Vec::new(),
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
        let history = self.history_key(node.position.halfmove_clock());
        let key = table_key(node.position.key(), node.run, node.attacker, plies, history);
        let before = self.nodes;
        let numbers = self.prove(
            node,
            plies,
            Numbers {
                proof: INFINITE,
                disproof: INFINITE,
            },
        );
        self.store(key, numbers, self.nodes - before);
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
        for (action, child) in self.actions(node) {
            self.line.push(node.position.key());
            let wins = self.wins(&child, plies - 1);
            self.line.pop();
            if wins? {
                winning.push(action);
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
            let children = self.actions(&node);
            let mut next = None;
            self.line.push(node.position.key());
            for (action, child) in children {
                let holds = if node.attacker {
                    // The attacker's first action that still wins in time.
                    self.wins(&child, plies - 1)?
                } else {
                    // A defence the attacker cannot beat a ply sooner.
                    plies < 2 || !self.wins(&child, plies - 2)?
                };
                if holds {
                    next = Some((action, child));
                    break;
                }
            }
            let Some((action, child)) = next else {
                break;
            };
            line.push(action);
            node = child;
            plies -= 1;
            if node.position.legal_moves().is_empty() {
                break;
            }
        }
        self.line.truncate(depth);
        Some(line)
    }

    /// The solution at `node` whose shortest win is `shortest`: its line,
    /// and the nodes of this solver and of its helpers (`helped`).
    fn solution(&mut self, node: &Node, shortest: Option<u32>, helped: u64) -> Solution {
        let win = shortest.map(|plies| (plies, self.line(node, plies).unwrap_or_default()));
        Solution {
            win,
            nodes: self.nodes + helped,
        }
    }

    /// Keeps a node's numbers, whose search took `work` nodes, in the table.
    fn store(&self, key: u64, numbers: Numbers, work: u64) {
        let entry = Entry {
            proof: compact(numbers.proof),
            disproof: compact(numbers.disproof),
        };
        self.table.store(key, entry, work);
    }

    /// The part of a node's table key that holds the positions since the
    /// last irreversible move, where repetitions can matter: 0 where they
    /// cannot. `halfmove_clock` is the node's, whose parent (if any) is the
    /// last position on the line.
    fn history_key(&self, halfmove_clock: u16) -> u64 {
        if !self.repetitions {
            return 0;
        }
        let reversible = usize::from(halfmove_clock).min(self.line.len());
        self.line[self.line.len() - reversible..]
            .iter()
            .fold(0u64, |sum, &earlier| sum.wrapping_add(mix(earlier)))
            .rotate_left(17)
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

    /// Which switches the player to move at `node` may make.
    fn switches(&self, node: &Node) -> Option<Rules> {
        let allowed =
            node.run.allows_switch() && (self.problem.attacker_switches || !node.attacker);
        self.problem.rules.filter(|_| allowed)
    }

    /// The child of `node` after `action`.
    fn child(&self, node: &Node, action: Action, switches: Option<Rules>) -> Node {
        let position = node.position.after(action.mv);
        match (action.switch, switches) {
            (true, Some(rules)) => Node {
                run: node.run.after_switch(&node.position, action.mv, &rules),
                attacker: node.attacker,
                position,
            },
            _ => Node {
                run: SwitchRun::default(),
                attacker: !node.attacker,
                position,
            },
        }
    }

    /// `node`'s actions in the engine's order (switches and good captures
    /// first), each with its child: empty for a node with no moves. For the
    /// root and the line; the search lists children with `expand`.
    fn actions(&self, node: &Node) -> Vec<(Action, Node)> {
        let switches = self.switches(node);
        let hints = OrderingHints::plain(&self.histories);
        let mut picker = MovePicker::default();
        picker.add_all(
            &node.position,
            &hints,
            switches.map_or(Switches::Never, Switches::Ranked),
        );
        picker
            .map(|scored| (scored.action, self.child(node, scored.action, switches)))
            .collect()
    }

    /// Lists `node`'s children (the node's position last on the line) in the engine's order at the end of
    /// `self.children`, each with its keys and numbers; returns how many.
    /// No child's position is made.
    fn expand(&mut self, node: &Node, plies: u32) -> usize {
        let position = &node.position;
        let switches = self.switches(node);
        let listing_key = position.key()
            ^ if switches.is_some() {
                LISTING_SWITCHES
            } else {
                0
            };
        // The visits are counted in the shared listings a batch at a time.
        self.visits += 1;
        if self.visits == LISTING_VISITS {
            self.listings.visited(self.visits);
            self.visits = 0;
        }
        let mut listed = Actions::new();
        if !self.listings.get(listing_key, &mut listed) {
            let hints = OrderingHints::plain(&self.histories);
            let mut picker = MovePicker::default();
            picker.add_all(
                position,
                &hints,
                switches.map_or(Switches::Never, Switches::Ranked),
            );
            listed.extend(picker.map(|scored| Listed {
                action: scored.action,
                check: position.gives_check(scored.action.mv),
            }));
            self.listings.store(listing_key, &listed);
        }
        // A reversible child's positions since the last irreversible move:
        // its parent's and the parent's own, the same for every such child.
        let reversible_history = self.history_key(position.halfmove_clock().saturating_add(1));
        let start = self.children.len();
        for &Listed { action, check } in &listed {
            let mv = action.mv;
            let child_board = position.key_after(mv);
            let (run, attacker) = match (action.switch, switches) {
                (true, Some(rules)) => (node.run.after_switch(position, mv, &rules), node.attacker),
                _ => (SwitchRun::default(), !node.attacker),
            };
            let history = if !self.repetitions || halfmove_clock_after(position, mv) == 0 {
                0
            } else {
                reversible_history
            };
            let key = table_key(child_board, run, attacker, plies - 1, history);
            self.table.prefetch(key);
            let guess = if check {
                // A check leaves the defender few replies: a proof looks
                // cheaper there.
                Numbers {
                    proof: 1,
                    disproof: 1,
                }
            } else if !attacker {
                Numbers {
                    proof: 2,
                    disproof: 1,
                }
            } else if action.switch {
                // The attacker starts or extends a run: cheap to try.
                Numbers {
                    proof: 1,
                    disproof: 1,
                }
            } else {
                // The attacker to move after the defender's quiet stay:
                // refuted only once every one of the attacker's actions
                // is, some forty in the openings.
                Numbers {
                    proof: 1,
                    disproof: ATTACKER_DISPROOF,
                }
            };
            self.children.push(Child {
                action,
                key,
                numbers: guess,
            });
        }
        // The table's answers, once every bucket is on its way to the cache.
        for child in &mut self.children[start..] {
            if let Some(entry) = self.table.get(child.key) {
                child.numbers = Numbers {
                    proof: expand_number(entry.proof),
                    disproof: expand_number(entry.disproof),
                };
            }
        }
        self.children.len() - start
    }

    /// df-pn's multiple iterative deepening at `node` with `plies` left: searches until the node's numbers reach
    /// `threshold` or it is settled, and returns them (the caller stores them).
    fn prove(&mut self, node: &Node, plies: u32, threshold: Numbers) -> Numbers {
        self.nodes += 1;
        // With plies left the children are needed anyway, and their absence
        // is the test for mate: the moves are generated once.
        if plies == 0 {
            return self.terminal(node, plies).unwrap_or(Numbers::DISPROVED);
        }
        if plies == 1 {
            return self.last_ply(node);
        }
        if plies <= SETTLED_PLIES {
            return self.settle(node, plies);
        }
        let drawn = self.drawn_or_spent(node, plies);
        self.line.push(node.position.key());
        let start = self.children.len();
        let count = self.expand(node, plies);
        if count == 0 || drawn {
            self.children.truncate(start);
            self.line.pop();
            return if count == 0 {
                Self::no_moves(node)
            } else {
                Numbers::DISPROVED
            };
        }
        let switches = self.switches(node);
        let numbers = loop {
            let (numbers, best, second) = self.combine(node.attacker, start, count);
            if numbers.proof >= threshold.proof
                || numbers.disproof >= threshold.disproof
                || numbers.settled()
                || self.stopped()
            {
                break numbers;
            }
            let child = self.children[start + best];
            let current = child.numbers;
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
            let child_node = self.child(node, child.action, switches);
            let before = self.nodes;
            let result = self.prove(&child_node, plies - 1, child_threshold);
            self.store(child.key, result, self.nodes - before);
            self.children[start + best].numbers = result;
        };
        self.children.truncate(start);
        self.line.pop();
        numbers
    }

    /// The exact numbers of a node with one ply left, without listing its
    /// children: the defender's is lost only when mated already (any move
    /// of theirs leaves the attacker to move with no plies left), and the
    /// attacker's is won only by a move that mates: their switches leave
    /// them to move with no plies left, and only a check can mate.
    fn last_ply(&self, node: &Node) -> Numbers {
        let position = &node.position;
        if !position.has_legal_move() {
            return Self::no_moves(node);
        }
        if !node.attacker || self.drawn_or_spent(node, 1) {
            return Numbers::DISPROVED;
        }
        let mates = position
            .legal_moves()
            .iter()
            .any(|&mv| position.gives_check(mv) && !position.after(mv).has_legal_move());
        if mates {
            Numbers::PROVED
        } else {
            Numbers::DISPROVED
        }
    }

    /// The exact numbers of a node with two or three plies left
    /// (`SETTLED_PLIES` at most), each child settled as it is made (by
    /// `last_ply`, or by this again), without a listing, an order or the
    /// table, stopping at the first child that decides: most of the tree's
    /// inner nodes are here. Every child of such a node is settled in one
    /// visit, so df-pn's choice among them would only order them, and its
    /// listing (the move order, a chain test for every move, a table probe
    /// for every child) and its returns to the parent cost more than they
    /// save. The attacker tries checks first (only a check mates at once,
    /// and it leaves the defender few replies), then switches, then, with
    /// three plies left, the quiet stays (with two, a quiet stay cannot win
    /// in time). The defender tries stays first, since nearly every one
    /// holds, then switches. Chains are tested only for the moves that get
    /// that far. Each child made counts as a node; a node stopped on the
    /// way is left unsettled.
    fn settle(&mut self, node: &Node, plies: u32) -> Numbers {
        let position = &node.position;
        let moves = position.legal_moves();
        if moves.is_empty() {
            return Self::no_moves(node);
        }
        if self.drawn_or_spent(node, plies) {
            return Numbers::DISPROVED;
        }
        let switches = self.switches(node);
        let mut chains = switches.map(|rules| LazyChains::new(position, rules));
        self.line.push(position.key());
        let first = moves
            .iter()
            .filter(|&&mv| !node.attacker || position.gives_check(mv))
            .map(|&mv| Action::stay(mv));
        let switching = moves
            .iter()
            .filter(|&&mv| chains.as_mut().is_some_and(|chains| chains.forms_chain(mv)))
            .map(|&mv| Action::switching(mv));
        let quiet = moves
            .iter()
            .filter(|&&mv| node.attacker && plies > 2 && !position.gives_check(mv))
            .map(|&mv| Action::stay(mv));
        // The attacker's node is won by one child proved, the defender's
        // held by one disproved.
        let (deciding, otherwise) = if node.attacker {
            (Numbers::PROVED, Numbers::DISPROVED)
        } else {
            (Numbers::DISPROVED, Numbers::PROVED)
        };
        let mut numbers = otherwise;
        for action in first.chain(switching).chain(quiet) {
            if self.stopped() {
                numbers = Numbers {
                    proof: 1,
                    disproof: 1,
                };
                break;
            }
            self.nodes += 1;
            let child = self.child(node, action, switches);
            let settled = if plies == 2 {
                self.last_ply(&child)
            } else {
                self.settle(&child, plies - 1)
            };
            if settled == deciding {
                numbers = deciding;
                break;
            }
        }
        self.line.pop();
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

    /// The node's numbers from its `count` children's at `start` (at the
    /// attacker's node the smallest proof number and the sum of disproof
    /// numbers, at the defender's the other way round), the child to
    /// search next (the smallest proof number at the attacker's node,
    /// disproof number at the defender's; the first in the engine's order
    /// on ties) and the second smallest such number.
    fn combine(&self, attacker: bool, start: usize, count: usize) -> (Numbers, usize, u64) {
        let (mut best, mut smallest, mut second, mut sum) = (0, INFINITE, INFINITE, 0u64);
        for (index, child) in self.children[start..start + count].iter().enumerate() {
            let (own, other) = if attacker {
                (child.numbers.proof, child.numbers.disproof)
            } else {
                (child.numbers.disproof, child.numbers.proof)
            };
            if own < smallest {
                second = smallest;
                (best, smallest) = (index, own);
            } else if own < second {
                second = own;
            }
            sum = sum.saturating_add(other).min(INFINITE);
        }
        let numbers = if attacker {
            Numbers {
                proof: smallest,
                disproof: sum,
            }
        } else {
            Numbers {
                proof: sum,
                disproof: smallest,
            }
        };
        (numbers, best, second)
    }
}

/// Visits a solver counts before it adds them to the shared listings.
const LISTING_VISITS: u64 = 256;

/// Tells apart the listings of a node that may switch and one that may not.
const LISTING_SWITCHES: u64 = 0x6c69_7374_696e_6773;

/// A node's table key: its board, its run, the plies left, who is to move,
/// and (`history`) where repetitions can matter the positions since the
/// last irreversible move.
#[inline]
fn table_key(board: u64, run: SwitchRun, attacker: bool, plies: u32, history: u64) -> u64 {
    board ^ run.key() ^ mix(u64::from(plies) << 1 | u64::from(attacker)) ^ history
}

/// The halfmove clock after `mv`: 0 after a capture or a pawn move.
#[inline]
fn halfmove_clock_after(position: &Position, mv: Move) -> u16 {
    let irreversible = matches!(mv.kind(), MoveKind::EnPassant)
        || position.colored(!position.side_to_move()).contains(mv.to())
        || position.pieces(Piece::Pawn).contains(mv.from());
    if irreversible {
        0
    } else {
        position.halfmove_clock().saturating_add(1)
    }
}

/// A number as the table keeps it: `u32::MAX` for infinite, larger finite
/// numbers (never met in practice) capped just below it.
#[inline]
fn compact(number: u64) -> u32 {
    if number >= INFINITE {
        u32::MAX
    } else {
        number.min(u64::from(u32::MAX - 1)) as u32
    }
}

#[inline]
fn expand_number(number: u32) -> u64 {
    if number == u32::MAX {
        INFINITE
    } else {
        u64::from(number)
    }
}

/// A 64-bit mixer, so that small numbers spread over the key.
fn mix(value: u64) -> u64 {
    SplitMix64::new(value).next_u64()
}

/// An action of a path that the node it is played in does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotInTree {
    /// Its index in the path.
    pub index: usize,
    /// What is wrong: not a legal action there, or the game is over before it.
    pub reason: &'static str,
}

impl<'a> Solver<'a> {
    /// The node `path` leads to from `root`, the positions on the way left
    /// on the line (so that repetitions below it count as in one search
    /// from the root). Every action must be one the node it is played in
    /// has: a legal move, and a switch only where it is allowed; and no
    /// node on the way may be over by rule.
    fn descend(&mut self, root: &Node, path: &[Action], plies: u32) -> Result<Node, NotInTree> {
        self.repetitions = plies + (self.line.len() + path.len()) as u32 >= REPETITION_PLIES;
        let mut node = root.clone();
        for (index, &action) in path.iter().enumerate() {
            if self.drawn_or_spent(&node, u32::MAX) {
                return Err(NotInTree {
                    index,
                    reason: "the game is drawn by rule before it",
                });
            }
            let Some((_, child)) = self
                .actions(&node)
                .into_iter()
                .find(|&(legal, _)| legal == action)
            else {
                return Err(NotInTree {
                    index,
                    reason: "not a legal action there",
                });
            };
            self.line.push(node.position.key());
            node = child;
        }
        Ok(node)
    }
}

/// A node `plies` below the root of a split (`split`): a subproblem, or a
/// node the split already settled.
#[derive(Clone, Debug)]
pub struct Leaf {
    /// The actions from the root.
    pub path: Vec<Action>,
    pub node: Node,
    /// The plies left of the root's bound.
    pub plies: u32,
    /// `Some(true)` where the attacker has already won (the defender's side
    /// is mated), `Some(false)` where the game is over otherwise or no
    /// plies are left; `None` for a subproblem.
    pub settled: Option<bool>,
}

/// The nodes `depth` plies below the node that `path` leads to from
/// `position` (whose player to move is the attacker) under a bound of
/// `max_plies` plies from that root, in the engine's order; nodes where the
/// game ends sooner are leaves too, settled. Solving each open leaf within
/// its plies (`solve_after` with its path) and combining the answers (the
/// attacker's nodes take the best child, the defender's the worst) gives
/// the root's answer.
pub fn split(
    position: &Position,
    path: &[Action],
    problem: Problem,
    depth: u32,
    max_plies: u32,
) -> Result<Vec<Leaf>, NotInTree> {
    let never = AtomicBool::new(false);
    let mut solver = Solver::new(problem, &never);
    let node = solver.descend(&Node::root(position.clone()), path, max_plies)?;
    let mut leaves = Vec::new();
    let mut prefix = path.to_vec();
    solver.split_below(&node, &mut prefix, depth, max_plies, &mut leaves);
    Ok(leaves)
}

impl<'a> Solver<'a> {
    fn split_below(
        &mut self,
        node: &Node,
        path: &mut Vec<Action>,
        depth: u32,
        plies: u32,
        leaves: &mut Vec<Leaf>,
    ) {
        let settled = self.terminal(node, plies).map(|numbers| numbers.proof == 0);
        if settled.is_some() || depth == 0 {
            leaves.push(Leaf {
                path: path.clone(),
                node: node.clone(),
                plies,
                settled,
            });
            return;
        }
        self.line.push(node.position.key());
        for (action, child) in self.actions(node) {
            path.push(action);
            self.split_below(&child, path, depth - 1, plies - 1, leaves);
            path.pop();
        }
        self.line.pop();
    }
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
/// actions at every bound are proved in parallel (`climb_in_parallel`).
pub fn solve(position: &Position, problem: Problem, max_plies: u32, threads: usize) -> Solution {
    solve_after(position, &[], problem, max_plies, threads)
        .expect("an empty path leads to the root")
}

/// As `solve`, at the node `path` leads to from `position`: whether the
/// player to move in `position` (the attacker, who need not be the one to
/// move at the end of the path) forces a win within `max_plies` more plies,
/// the positions of the path counting for repetitions. The subproblems of
/// a `split`. A node where the attacker has already won is a win in 0 plies.
pub fn solve_after(
    position: &Position,
    path: &[Action],
    problem: Problem,
    max_plies: u32,
    threads: usize,
) -> Result<Solution, NotInTree> {
    let never = AtomicBool::new(false);
    let mut solver = Solver::new(problem, &never);
    let node = solver.descend(&Node::root(position.clone()), path, max_plies)?;
    if let Some(numbers) = solver.terminal(&node, max_plies) {
        // Mated, stalemated or drawn already: nothing left to play.
        return Ok(Solution {
            win: (numbers.proof == 0).then(Vec::new).map(|line| (0, line)),
            nodes: 1,
        });
    }
    if threads < 2 {
        let shortest = solver.shortest(&node, max_plies).expect("never stopped");
        return Ok(solver.solution(&node, shortest, 0));
    }
    // The helpers share the solver's table, so that the line is read from
    // what they proved.
    let stops: Vec<AtomicBool> = (0..threads).map(|_| AtomicBool::new(false)).collect();
    let mut helpers: Vec<Solver> = stops
        .iter()
        .map(|stop| {
            let mut helper = Solver::sharing_tables_of(&solver, stop);
            helper.line.clone_from(&solver.line);
            helper
        })
        .collect();
    let shortest = shortest_in_parallel(&node, max_plies, &mut helpers, &stops);
    let helped = helpers.iter().map(Solver::nodes).sum();
    Ok(solver.solution(&node, shortest, helped))
}

/// What `refute_after` found below a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refutation {
    /// Whether the attacker still wins within the plies left.
    pub wins: bool,
    /// Whether the attacker is to move there (after a switch of theirs).
    pub attacker_to_move: bool,
    /// Whether the game is over there (mate, stalemate, a draw by rule).
    pub over: bool,
    /// Where the defender is to move and the attacker has no win: the
    /// defender's first action in the engine's order after which the
    /// attacker has none within one ply fewer (with no plies left, the
    /// first action at all).
    pub reply: Option<Action>,
}

/// Whether the player to move in `position` (the attacker) still wins
/// within `plies` plies after `path` (as `solve_after` asks), and if not
/// and the defender is to move there, the defender's answer that keeps it
/// so: the refutation of the path's last action. `Ok(None)` when `stop`
/// is raised first.
pub fn refute_after(
    position: &Position,
    path: &[Action],
    problem: Problem,
    plies: u32,
    stop: &AtomicBool,
) -> Result<Option<Refutation>, NotInTree> {
    let mut solver = Solver::new(problem, stop);
    let node = solver.descend(&Node::root(position.clone()), path, plies)?;
    let over = !node.position.has_legal_move() || solver.drawn_or_spent(&node, u32::MAX);
    let Some(wins) = solver.wins(&node, plies) else {
        return Ok(None);
    };
    let mut refutation = Refutation {
        wins,
        attacker_to_move: node.attacker,
        over,
        reply: None,
    };
    if wins || node.attacker || over {
        return Ok(Some(refutation));
    }
    solver.line.push(node.position.key());
    for (action, child) in solver.actions(&node) {
        let holds = match plies {
            0 => true,
            _ => match solver.wins(&child, plies - 1) {
                None => return Ok(None),
                Some(wins) => !wins,
            },
        };
        if holds {
            refutation.reply = Some(action);
            break;
        }
    }
    Ok(Some(refutation))
}

/// The smallest bound in `1..=max_plies` within which the attacker to move
/// at `node` wins, as `Solver::shortest` finds it, with the root's actions
/// at every bound shared out among `solvers` (see `climb_in_parallel`).
fn shortest_in_parallel(
    node: &Node,
    max_plies: u32,
    solvers: &mut [Solver],
    stops: &[AtomicBool],
) -> Option<u32> {
    let children = solvers[0].actions(node);
    climb_in_parallel(
        max_plies,
        children.len(),
        solvers,
        stops,
        |solver, plies, index| {
            solver.line.push(node.position.key());
            let wins = solver.wins(&children[index].1, plies - 1);
            solver.line.pop();
            wins
        },
    )
}

/// The smallest bound in `1..=max_plies` at which one of `actions` root
/// actions wins (`wins(worker, bound, action)`, `None` when the worker's
/// stop is raised first), each worker on its own thread with its own stop
/// in `stops`. Each worker takes the next action, in order, of the lowest
/// bound not yet handed out, so that a worker that has taken a bound's
/// last action goes on to the next bound while the others finish theirs,
/// and none waits for a bound to end. Bounds are monotone (a mate within
/// fewer plies is one within more): a win stops the workers at its bound
/// and above, and those below it search on, since a win among their
/// actions would be shorter.
fn climb_in_parallel<W: Send>(
    max_plies: u32,
    actions: usize,
    workers: &mut [W],
    stops: &[AtomicBool],
    wins: impl Fn(&mut W, u32, usize) -> Option<bool> + Sync,
) -> Option<u32> {
    let next = AtomicUsize::new(0);
    let shortest = AtomicU32::new(u32::MAX);
    // The bound each worker is searching (or last took, once it has left).
    let searching: Vec<AtomicU32> = stops.iter().map(|_| AtomicU32::new(0)).collect();
    std::thread::scope(|scope| {
        for ((worker, own), stop) in workers.iter_mut().zip(&searching).zip(stops) {
            let (next, shortest, searching, wins) = (&next, &shortest, &searching, &wins);
            scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let item = next.fetch_add(1, Ordering::SeqCst);
                    let plies = 1 + (item / actions) as u32;
                    own.store(plies, Ordering::SeqCst);
                    if plies > max_plies || plies >= shortest.load(Ordering::SeqCst) {
                        break;
                    }
                    if wins(worker, plies, item % actions) == Some(true) {
                        shortest.fetch_min(plies, Ordering::SeqCst);
                        for (bound, stop) in searching.iter().zip(stops) {
                            if bound.load(Ordering::SeqCst) >= plies {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                }
            });
        }
    });
    let shortest = shortest.load(Ordering::SeqCst);
    (shortest != u32::MAX).then_some(shortest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A win found at a bound does not stop a worker still at a lower one,
    /// whose action may win sooner: here the first action's proof at 3
    /// plies lasts until a win at 4 plies has been found by the other
    /// worker, and 3 is still the answer. Every action wins from 4 plies on,
    /// the first from 3.
    #[test]
    fn a_win_at_a_bound_leaves_the_bounds_below_searched() {
        let found_at_four = AtomicBool::new(false);
        let stops = [AtomicBool::new(false), AtomicBool::new(false)];
        let mut workers = [0, 1];
        let shortest =
            climb_in_parallel(6, 3, &mut workers, &stops, |worker, plies, action| {
                match (plies, action) {
                    (3, 0) => loop {
                        if stops[*worker].load(Ordering::SeqCst) {
                            return None;
                        }
                        if found_at_four.load(Ordering::SeqCst) {
                            return Some(true);
                        }
                        std::thread::yield_now();
                    },
                    (4.., _) => {
                        found_at_four.store(true, Ordering::SeqCst);
                        Some(true)
                    }
                    _ => Some(false),
                }
            });
        assert_eq!(shortest, Some(3));
    }

    /// The halfmove clock a child will have, without the move played.
    #[test]
    fn solve_knows_the_halfmove_clock_after_every_kind_of_move() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "8/2P1k3/8/8/8/8/4Kp2/8 w - - 12 1",
        ];
        for fen in fens {
            let position = Position::from_fen(fen).unwrap();
            for mv in position.legal_moves() {
                assert_eq!(
                    halfmove_clock_after(&position, mv),
                    position.after(mv).halfmove_clock()
                );
            }
        }
    }
}
