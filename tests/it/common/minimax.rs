//! A plain minimax over the SSCC game tree of docs/rules.md, section 4, deciding
//! docs/rules.md, section 8's forced win within D plies: no table, no move ordering, no
//! pruning beyond stopping at the first winning action of the attacker and
//! the first escape of the defender. It is the ground truth the search is
//! checked against, so it stays as plain as the definition.
//!
//! Repetitions are not tracked: within the depths used here (at most 4 plies
//! from a position given without history) no position can recur before the
//! mate that ends a win.

use catena_core::board::{Move, Position};
use catena_core::game::{Rules, SwitchRun, forms_chain};

/// Where switches are part of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switches {
    /// At every node, as the rules say.
    Everywhere,
    /// At the root only: the tree a search sees when it forgets switches below the root.
    AtRootOnly,
}

/// Whether the player to move from `position`, in the middle of `run`, can
/// force a mate by the colour it controls within `plies` plies, whatever the
/// opponent does, its own switches included.
pub fn forced_win(
    position: &Position,
    run: SwitchRun,
    rules: &Rules,
    plies: u32,
    switches: Switches,
) -> bool {
    Node { rules, switches }.attacker_wins(position, run, plies, true, true)
}

/// [`forced_win`] from a node where the defender may be the one to move:
/// whether the attacker wins within `plies` from `position` in the middle
/// of `run`, `attacker_to_move` saying who moves.
pub fn attacker_wins(
    position: &Position,
    run: SwitchRun,
    rules: &Rules,
    plies: u32,
    attacker_to_move: bool,
) -> bool {
    Node {
        rules,
        switches: Switches::Everywhere,
    }
    .attacker_wins(position, run, plies, attacker_to_move, false)
}

struct Node<'a> {
    rules: &'a Rules,
    switches: Switches,
}

impl Node<'_> {
    fn attacker_wins(
        &self,
        position: &Position,
        run: SwitchRun,
        plies: u32,
        attacker_to_move: bool,
        root: bool,
    ) -> bool {
        let moves = position.legal_moves();
        if moves.is_empty() {
            // Mate: the player to move has lost, which is a win for the
            // attacker only when the defender is to move. Stalemate: a draw.
            return position.in_check() && !attacker_to_move;
        }
        if plies == 0 || position.halfmove_clock() >= 100 || position.is_dead() {
            return false;
        }
        let may_switch = (root || self.switches == Switches::Everywhere) && run.allows_switch();
        let child_wins = |(mv, switch): (Move, bool)| {
            let child = position.after(mv);
            if switch {
                let child_run = run.after_switch(position, mv, self.rules);
                self.attacker_wins(&child, child_run, plies - 1, attacker_to_move, false)
            } else {
                self.attacker_wins(
                    &child,
                    SwitchRun::default(),
                    plies - 1,
                    !attacker_to_move,
                    false,
                )
            }
        };
        let mut actions = moves.iter().flat_map(|&mv| {
            let chain = may_switch && forms_chain(position, mv, self.rules);
            std::iter::once((mv, false)).chain(chain.then_some((mv, true)))
        });
        if attacker_to_move {
            actions.any(child_wins)
        } else {
            actions.all(child_wins)
        }
    }
}

/// The shortest D in `1..=max_plies` with a forced win within D plies, if any.
pub fn shortest_win(
    position: &Position,
    run: SwitchRun,
    rules: &Rules,
    max_plies: u32,
    switches: Switches,
) -> Option<u32> {
    (1..=max_plies).find(|&plies| forced_win(position, run, rules, plies, switches))
}
