//! Runs that mate: whether the player to move can end the game with a run of
//! switches (docs/rules.md, section 4) followed by a mate.
//!
//! Inside a run one player moves both armies, so the question has no
//! opponent: it is a single-player search over the chain-closing moves, each
//! followed by a switch while the run allows one, ending in a move that
//! mates. Its branching is small (a position has few chain-closing moves)
//! and its depth is bounded by the run's limit, while the main search pays a
//! ply of depth for every switch and must see a whole run before it finds
//! the mate at its end. A run found here is a forced win whatever the
//! opponent could do, so a search may take it as a lower bound.
//!
//! The main search does not call it: probing every node cost more than it
//! won in SSCC games, and probing the root alone changed nothing
//! (docs/sscc-search.md, "Changes"). `examples/turn_threats.rs` uses it to
//! tell how SSCC games are lost.

use crate::search::repeats;
use catena_core::board::Move;
use catena_core::board::Position;
use catena_core::game::Action;
use catena_core::game::{ChainTest, Rules, SwitchRun};

const ENTRIES: usize = 1 << 16;

/// What a probe learnt about one state: the shortest mating run found (in
/// plies), or that none exists with at most `switches` switches.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Plies of the shortest mating run found; 0 for none.
    plies: u8,
    /// Switches searched to without finding one (when `plies` is 0).
    switches: u8,
}

/// The probe, with what it remembers between calls.
pub struct RunMates {
    entries: Box<[Entry]>,
    /// Nodes the current probe may still visit.
    budget: u32,
}

impl Default for RunMates {
    fn default() -> RunMates {
        RunMates {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
            budget: 0,
        }
    }
}

/// The outcome of one search of a state.
enum Found {
    Mate(u32),
    None,
    /// The node budget ran out.
    Unknown,
}

impl RunMates {
    /// The plies of the shortest run found that mates from `position`,
    /// making at most `max_switches` switches (the last ply being the
    /// mating move), or `None`. `keys` holds the positions before this one
    /// (oldest first, as the search keeps them): a run that repeats one of
    /// them is not taken. At most `nodes` positions are visited.
    pub fn probe(
        &mut self,
        position: &Position,
        run: SwitchRun,
        rules: &Rules,
        max_switches: u32,
        nodes: u32,
        keys: &mut Vec<u64>,
    ) -> Option<u32> {
        self.budget = nodes;
        // Shortest first: a run with fewer switches is found sooner.
        for switches in 1..=max_switches {
            match self.search(position, run, rules, switches, keys) {
                Found::Mate(plies) => return Some(plies),
                Found::None => {}
                Found::Unknown => return None,
            }
        }
        None
    }

    /// The first action of the mating run that [`RunMates::probe`] finds,
    /// with the run's plies.
    pub fn first_action(
        &mut self,
        position: &Position,
        run: SwitchRun,
        rules: &Rules,
        max_switches: u32,
        nodes: u32,
        keys: &mut Vec<u64>,
    ) -> Option<(Action, u32)> {
        let plies = self.probe(position, run, rules, max_switches, nodes, keys)?;
        let moves = position.legal_moves();
        if plies == 1 {
            let mv = moves.into_iter().find(|&mv| mates(position, mv))?;
            return Some((Action::stay(mv), 1));
        }
        // The table holds the runs found below: each child asked again is
        // answered from it, unless another state took its slot.
        let chains = ChainTest::new(position, rules);
        keys.push(position.key());
        let mut best: Option<(Action, u32)> = None;
        for mv in moves {
            if !chains.forms_chain(mv) {
                continue;
            }
            let child = position.after(mv);
            if child.halfmove_clock() >= 100 || repeats(keys, child.key(), child.halfmove_clock()) {
                continue;
            }
            let child_run = run.after_switch(position, mv, rules);
            let found = self.probe(&child, child_run, rules, max_switches - 1, nodes, keys);
            if let Some(rest) = found
                && best.is_none_or(|(_, plies)| rest + 1 < plies)
            {
                best = Some((Action { mv, switch: true }, rest + 1));
                if rest + 1 == plies {
                    break;
                }
            }
        }
        keys.pop();
        best
    }

    /// The plies of a mating run, with at most `max_switches` switches,
    /// that `mv`, ending the turn, leaves the opponent, as far as `nodes`
    /// positions show. `keys` ends with `position`'s key.
    pub fn refutation(
        &mut self,
        position: &Position,
        mv: Move,
        rules: &Rules,
        max_switches: u32,
        nodes: u32,
        keys: &mut Vec<u64>,
    ) -> Option<u32> {
        let child = position.after(mv);
        let over = !child.has_legal_move()
            || child.halfmove_clock() >= 100
            || repeats(keys, child.key(), child.halfmove_clock());
        if over {
            return None;
        }
        self.probe(
            &child,
            SwitchRun::default(),
            rules,
            max_switches,
            nodes,
            keys,
        )
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - ENTRIES.trailing_zeros())) as usize
    }

    /// A mating run from `position` with at most `switches` switches.
    fn search(
        &mut self,
        position: &Position,
        run: SwitchRun,
        rules: &Rules,
        switches: u32,
        keys: &mut Vec<u64>,
    ) -> Found {
        let key = position.key() ^ run.key();
        let slot = self.slot(key);
        let entry = self.entries[slot];
        if entry.key == key {
            if entry.plies > 0 {
                return Found::Mate(entry.plies.into());
            }
            if u32::from(entry.switches) >= switches {
                return Found::None;
            }
        }
        if self.budget == 0 {
            return Found::Unknown;
        }
        self.budget -= 1;
        if switches == 0 || !run.allows_switch() {
            return self.mate_in_one(position);
        }
        let chains = ChainTest::new(position, rules);
        let mut chain_moves = arrayvec::ArrayVec::<_, 256>::new();
        let mut mate = false;
        position.generate_moves(|moves| {
            for mv in moves {
                if mates(position, mv) {
                    mate = true;
                    return true;
                }
                if chains.forms_chain(mv) {
                    chain_moves.push((mv, position.after(mv)));
                }
            }
            false
        });
        if mate {
            self.remember(slot, key, 1, 0);
            return Found::Mate(1);
        }
        let mut best: Option<u32> = None;
        let mut unknown = false;
        keys.push(position.key());
        for (mv, child) in chain_moves {
            if child.halfmove_clock() >= 100 || repeats(keys, child.key(), child.halfmove_clock()) {
                continue;
            }
            let child_run = run.after_switch(position, mv, rules);
            match self.search(&child, child_run, rules, switches - 1, keys) {
                Found::Mate(plies) => {
                    best = Some(best.map_or(plies + 1, |best: u32| best.min(plies + 1)));
                    // Nothing is shorter than a switch and a mate in one.
                    if plies == 1 {
                        break;
                    }
                }
                Found::None => {}
                Found::Unknown => {
                    unknown = true;
                    break;
                }
            }
        }
        keys.pop();
        match best {
            Some(plies) => {
                self.remember(slot, key, plies, 0);
                Found::Mate(plies)
            }
            None if unknown => Found::Unknown,
            None => {
                self.remember(slot, key, 0, switches);
                Found::None
            }
        }
    }

    /// A move that mates at once.
    fn mate_in_one(&mut self, position: &Position) -> Found {
        let mut mate = false;
        position.generate_moves(|moves| {
            mate = moves.into_iter().any(|mv| mates(position, mv));
            mate
        });
        if mate { Found::Mate(1) } else { Found::None }
    }

    fn remember(&mut self, slot: usize, key: u64, plies: u32, switches: u32) {
        self.entries[slot] = Entry {
            key,
            plies: plies.min(255) as u8,
            switches: switches.min(255) as u8,
        };
    }
}

/// Whether `mv` mates.
fn mates(position: &Position, mv: Move) -> bool {
    // Most moves give no check, and that test is cheap.
    position.gives_check(mv) && !position.after(mv).has_legal_move()
}
