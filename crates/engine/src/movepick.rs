//! Move ordering: which action to search first.
//!
//! An action is a board move plus, in SSCC, whether its player switches after
//! it (docs/rules.md, section 4). The order is: the transposition table's action,
//! winning and equal captures and queen promotions, switches, killers, the
//! counter move, quiet
//! moves by history, and last the captures that lose material and underpromotions.
//! Where chains are tested only as moves are handed out (inner search
//! nodes), a chain's switch comes instead just before its stay.

use arrayvec::ArrayVec;

use crate::eval::PIECE_VALUE;
use crate::history::{CaptureHistory, Histories, PieceTo, QuietHistory};
use crate::see::see_at_least;
use catena_core::board::{Move, MoveKind, Piece, Position};
use catena_core::game::{Action, ChainTest, Rules};

/// An action with its ordering score and what the search wants to know about it.
#[derive(Clone, Copy, Debug)]
pub struct Scored {
    pub action: Action,
    pub score: i32,
    /// A capture or a promotion.
    pub tactical: bool,
    /// Its board move forms a chain whose switch the picker hands out (SSCC).
    pub chain: bool,
}

const TT_SCORE: i32 = 10_000_000;
const GOOD_TACTICAL: i32 = 1_000_000;
const SWITCH_SCORE: i32 = 900_000;
const KILLER_SCORE: [i32; 2] = [800_000, 790_000];
const COUNTER_SCORE: i32 = 780_000;
const BAD_TACTICAL: i32 = -1_000_000;
/// After every capture, in a quiescence search that tries checks.
const QUIET_CHECK_SCORE: i32 = BAD_TACTICAL - 1_000_000;

/// Whether `mv` captures or promotes.
pub fn is_tactical(position: &Position, mv: Move) -> bool {
    position.colored(!position.side_to_move()).contains(mv.to())
        || matches!(mv.kind(), MoveKind::EnPassant | MoveKind::Promotion(_))
}

/// Whether a capture or promotion loses material: an underpromotion, or a
/// capture that loses the exchange on its square.
fn losing_tactical(position: &Position, mv: Move) -> bool {
    if let MoveKind::Promotion(piece) = mv.kind() {
        return piece != Piece::Queen;
    }
    !see_at_least(position, mv, 0)
}

/// MVV-LVA plus a promotion bonus, adjusted by capture history: at most
/// about a pawn's worth of victim either way.
fn tactical_score(position: &Position, mv: Move, captures: &CaptureHistory) -> i32 {
    let attacker = position.piece_on(mv.from()).unwrap_or(Piece::Pawn);
    let gain = position
        .captured(mv)
        .map_or(0, |piece| PIECE_VALUE[piece.index()]);
    let promotion = mv.promotion().map_or(0, |piece| PIECE_VALUE[piece.index()]);
    10 * (gain + promotion) - PIECE_VALUE[attacker.index()] / 10 + captures.get(position, mv) / 16
}

/// What a node knows that helps ordering.
pub struct OrderingHints<'a> {
    pub tt_action: u16,
    pub killers: [Option<Move>; 2],
    /// The quiet move that last refuted the opponent's previous move.
    pub counter: Option<Move>,
    pub history: QuietHistory<'a>,
    pub captures: &'a CaptureHistory,
}

impl OrderingHints<'_> {
    /// Hints from the histories alone: no table action, killers or counter
    /// move (quiescence in check, the solver).
    pub fn plain(histories: &Histories) -> OrderingHints<'_> {
        OrderingHints {
            tt_action: 0,
            killers: [None; 2],
            counter: None,
            history: QuietHistory::without_context(&histories.quiet),
            captures: &histories.captures,
        }
    }
}

/// Which switches a picker hands out (SSCC), and when it tests moves for chains.
#[derive(Clone, Copy, Debug)]
pub enum Switches {
    /// None: plain chess, or a switch run that allows no more switches.
    Never,
    /// Every move tested as it is added, a chain's switch ranked as an
    /// action of its own: for a list of all the actions (the root, the solver).
    Ranked(Rules),
    /// Each move tested only as it is handed out, a chain's switch just
    /// before its stay (often the stronger child): the test costs more than
    /// a node, and a cut-off makes most of them unneeded.
    WhenPicked(Rules),
}

/// Hands out a node's actions best first (selection sort, so a cut-off early
/// saves sorting the rest). Filled where it stands, empty at first: moving a
/// filled picker would copy its whole buffer at every node.
#[derive(Default)]
pub struct MovePicker<'a> {
    actions: ArrayVec<Scored, 512>,
    next: usize,
    /// Under `Switches::WhenPicked`, the test of the moves handed out.
    chains: Option<LazyChains<'a>>,
    /// The stay to hand out next, after the switch of its move.
    stay: Option<Scored>,
}

/// The chain test of one position, built at the first move that needs it:
/// most nodes are cut off (or, in the solver, settled) before.
pub(crate) struct LazyChains<'a> {
    position: &'a Position,
    rules: Rules,
    test: Option<ChainTest<'a>>,
}

impl<'a> LazyChains<'a> {
    pub(crate) fn new(position: &'a Position, rules: Rules) -> LazyChains<'a> {
        LazyChains {
            position,
            rules,
            test: None,
        }
    }

    pub(crate) fn forms_chain(&mut self, mv: Move) -> bool {
        let (position, rules) = (self.position, self.rules);
        self.test
            .get_or_insert_with(|| ChainTest::new(position, &rules))
            .forms_chain(mv)
    }
}

impl<'a> MovePicker<'a> {
    /// Adds every action: each legal move staying, and switching too when
    /// it forms a chain and `switches` allows it.
    pub fn add_all(&mut self, position: &'a Position, hints: &OrderingHints, switches: Switches) {
        let ranked = match switches {
            Switches::Never => None,
            Switches::Ranked(rules) => Some(ChainTest::new(position, &rules)),
            Switches::WhenPicked(rules) => {
                self.chains = Some(LazyChains::new(position, rules));
                None
            }
        };
        let us = position.side_to_move();
        for mv in position.legal_moves() {
            let tactical = is_tactical(position, mv);
            let forms_chain = ranked.as_ref().is_some_and(|chains| chains.forms_chain(mv));
            let base = if tactical {
                let score = tactical_score(position, mv, hints.captures);
                if losing_tactical(position, mv) {
                    BAD_TACTICAL + score
                } else {
                    GOOD_TACTICAL + score
                }
            } else if let Some(slot) = hints.killers.iter().position(|&k| k == Some(mv)) {
                KILLER_SCORE[slot]
            } else if hints.counter == Some(mv) {
                COUNTER_SCORE
            } else {
                hints.history.score(us, mv, PieceTo::of(position, mv))
            };
            let stay = Action::stay(mv);
            let order = |action: Action, score: i32| {
                if action.pack() | Action::SWITCH_BIT == hints.tt_action | Action::SWITCH_BIT {
                    TT_SCORE
                } else {
                    score
                }
            };
            self.actions.push(Scored {
                action: stay,
                score: order(stay, base),
                tactical,
                chain: forms_chain,
            });
            if forms_chain {
                let switch = Action { mv, switch: true };
                self.actions.push(Scored {
                    action: switch,
                    score: order(switch, SWITCH_SCORE.max(base)),
                    tactical,
                    chain: true,
                });
            }
        }
    }

    /// Adds the captures and queen promotions, for quiescence search; every
    /// one staying. With `quiet_checks`, the quiet moves that give check too,
    /// after every capture: for a quiescence search that must see a quiet mate.
    pub fn add_tactical(
        &mut self,
        position: &Position,
        captures: &CaptureHistory,
        quiet_checks: bool,
    ) {
        // The checks wait for the captures' end, in the order generated.
        let mut checks: ArrayVec<Move, 256> = ArrayVec::new();
        for mv in position.legal_moves() {
            if is_tactical(position, mv) {
                if mv.promotion().is_none_or(|p| p == Piece::Queen) {
                    self.actions.push(Scored {
                        action: Action::stay(mv),
                        score: tactical_score(position, mv, captures),
                        tactical: true,
                        chain: false,
                    });
                }
            } else if quiet_checks && position.gives_check(mv) {
                checks.push(mv);
            }
        }
        self.actions.extend(checks.into_iter().map(|mv| Scored {
            action: Action::stay(mv),
            score: QUIET_CHECK_SCORE,
            tactical: false,
            chain: false,
        }));
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Scored;

    /// The next action. Under `Switches::WhenPicked` a move that forms a
    /// chain comes as its switch, then its stay, both marked `chain`.
    fn next(&mut self) -> Option<Scored> {
        if let Some(stay) = self.stay.take() {
            return Some(stay);
        }
        let remaining = self
            .actions
            .get(self.next..)
            .filter(|rest| !rest.is_empty())?;
        // The first of the best, so that equal scores keep generation order.
        // The best score so far stays in a register: reading it back from the
        // list at every step made this loop a tenth of the search's time.
        let (mut best, mut best_score) = (0, remaining[0].score);
        for (index, scored) in remaining.iter().enumerate().skip(1) {
            if scored.score > best_score {
                (best, best_score) = (index, scored.score);
            }
        }
        self.actions.swap(self.next, self.next + best);
        self.next += 1;
        let mut scored = self.actions[self.next - 1];
        if let Some(chains) = &mut self.chains
            && chains.forms_chain(scored.action.mv)
        {
            scored.chain = true;
            self.stay = Some(scored);
            scored.action.switch = true;
        }
        Some(scored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_distinguishes_switches_and_is_never_zero() {
        let position = Position::startpos();
        let mut packed: Vec<u16> = Vec::new();
        for mv in position.legal_moves() {
            for switch in [false, true] {
                let code = Action { mv, switch }.pack();
                assert_ne!(code, 0);
                packed.push(code);
            }
        }
        let count = packed.len();
        packed.sort_unstable();
        packed.dedup();
        assert_eq!(packed.len(), count);
    }

    #[test]
    fn captures_come_before_quiet_moves() {
        let position =
            Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap();
        let histories = Histories::default();
        let mut picker = MovePicker::default();
        picker.add_all(
            &position,
            &OrderingHints::plain(&histories),
            Switches::Never,
        );
        let first = picker.next().unwrap();
        assert_eq!(first.action.mv.to_string(), "e4d5");
    }
}
