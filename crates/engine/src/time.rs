//! Time management: how long to think, from the clock of the colour to move.
//!
//! The soft limit is when iterative deepening stops starting new iterations; the
//! hard limit is when the search stops in the middle of one. Both leave the
//! `Move Overhead` for the GUI's and the operating system's delays. Clocks
//! belong to colours (docs/rules.md, section 3): after a switch the engine moves again on
//! the other colour's clock, which the next `go` reports, so each move is
//! budgeted from the clock of the colour it is played with.

use catena_core::game::Action;
use std::time::Duration;

/// The clock as `go` gives it, for the colour to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeLeft {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// When to stop thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
    /// The hard limit while the expected line gives the clock away (SSCC,
    /// `gives_the_clock_away`).
    pub giveaway: Duration,
}

/// How settled the search looked after its last iteration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Iterations in a row that kept the same best action.
    pub stable_iterations: u32,
    /// How far the score fell since the previous iteration (0 if it rose).
    pub score_drop: i32,
    /// The share of the nodes searched so far that went to the best action.
    pub best_action_share: f64,
    /// Whether the principal variation gives the clock away
    /// (`gives_the_clock_away`).
    pub giving_away: bool,
}

/// Moves to plan for when the time control gives no `movestogo`. Over 20,
/// at 10+0.1 Catena ended games with about 3 s left, time the opponent had
/// spent; over 12 with about 2 s or less (docs/strength.md, C82).
pub const HORIZON: u32 = 12;
/// The same in SSCC, whose games are short and decided early: half of
/// Catena's end within 15 plies, about 7 moves on each colour's clock, and a
/// clock left unspent may pass to the opponent with its colour at the next
/// switch. Over 3 the soft limit reaches the hard one, so each move spends a
/// third of its clock (docs/strength.md, C90; over 6 it stopped after about
/// a tenth).
pub const SSCC_HORIZON: u32 = 3;
/// The share of its clock an SSCC move may take while its expected line
/// gives the clock away (`Budget::sscc`, `gives_the_clock_away`): what it
/// leaves passes to the opponent. Two thirds in C91 to C96 (docs/strength.md),
/// four fifths since C97.
pub const SSCC_GIVEAWAY: f64 = 0.8;

/// Whether `line`, the principal variation from the root, lets an SSCC move
/// run on to `SSCC_GIVEAWAY` of its clock. Clocks belong to colours
/// (docs/rules.md, section 3), and the line turns the game over in one of two
/// ways:
///
/// - it starts with a switch: the mover's thinking is charged to the colour
///   the opponent takes over, even if a later switch of the run brings it
///   back;
/// - it starts with a stay and the opponent's reply run switches an odd number
///   of times, taking the mover's colour, and the clock just spent on it, to
///   the opponent.
///
/// A line cut short counts what it shows. The pure parity of the switches
/// over both runs, which knows whose clock really pays, played worse than
/// the first rule alone (docs/strength.md, C91, C93, C94): the time is worth
/// more where the game turns than where it is cheapest.
pub fn gives_the_clock_away(line: &[Action]) -> bool {
    match line.split_first() {
        None => false,
        Some((first, _)) if first.switch => true,
        Some((_, reply)) => {
            let run = reply.iter().take_while(|action| action.switch).count();
            run % 2 == 1
        }
    }
}

/// Never think shorter than this when there is time to.
const MINIMUM: Duration = Duration::from_millis(5);

impl Budget {
    /// The budget for `go wtime … btime …`.
    pub fn from_clock(clock: TimeLeft, overhead: Duration) -> Budget {
        Budget::from_clock_over(clock, overhead, HORIZON)
    }

    /// The same, planned over at most `horizon` moves.
    pub fn from_clock_over(clock: TimeLeft, overhead: Duration, horizon: u32) -> Budget {
        let available = clock.time.saturating_sub(overhead);
        let moves = clock.moves_to_go.unwrap_or(horizon).clamp(1, horizon);
        // Increments still to come over the horizon, counted at half, so that
        // the clock settles at several increments rather than near zero.
        let income = clock.increment * (moves - 1) / 2;
        let share = (available + income) / moves;
        let soft = share.min(available / 2);
        // With several moves left the hard limit may take a bigger bite; on the
        // last move before the control it must leave a margin.
        let hard_cap = if moves == 1 {
            available * 4 / 5
        } else {
            available / 3
        };
        let hard = (soft * 3)
            .min(hard_cap)
            .max(soft)
            .max(MINIMUM)
            .min(available);
        Budget {
            soft: soft.max(MINIMUM).min(available),
            hard,
            giveaway: hard,
        }
    }

    /// The budget for an SSCC move: planned over `SSCC_HORIZON` moves, and
    /// allowed up to `SSCC_GIVEAWAY` of the clock while the expected line
    /// gives the clock away (`gives_the_clock_away`).
    pub fn sscc(clock: TimeLeft, overhead: Duration) -> Budget {
        let budget = Budget::from_clock_over(clock, overhead, SSCC_HORIZON);
        let available = clock.time.saturating_sub(overhead);
        Budget {
            giveaway: available.mul_f64(SSCC_GIVEAWAY).max(budget.hard),
            ..budget
        }
    }

    /// The hard limit, given whether the expected line gives the clock away.
    pub fn hard_limit(&self, giving_away: bool) -> Duration {
        if giving_away {
            self.giveaway
        } else {
            self.hard
        }
    }

    /// Whether another iteration may start `elapsed` into the move. The next
    /// would likely take longer than all so far, so past half the soft limit
    /// it may not; a best action that has just changed, a falling score, or
    /// rivals that took much of the effort earn more time, and a best action
    /// that has held for several iterations less.
    ///
    /// A fixed time (soft = hard, as `go movetime` gives) is spent whole:
    /// iterations start until it runs out, and the hard limit ends the last
    /// one, since UCI's `movetime` means "search exactly this long".
    pub fn allows_iteration(&self, elapsed: Duration, progress: Progress) -> bool {
        if self.soft >= self.hard {
            return elapsed < self.hard_limit(progress.giving_away);
        }
        const BY_STABILITY: [f64; 5] = [1.5, 1.2, 1.0, 0.85, 0.7];
        let stability = BY_STABILITY[(progress.stable_iterations as usize).min(4)];
        let falling = 1.0 + f64::from(progress.score_drop.clamp(0, 100)) / 200.0;
        // When the rivals of the best action took most of the effort,
        // one of them nearly replaced it.
        let contested = (1.5 - progress.best_action_share.clamp(0.0, 1.0)) * 1.35;
        elapsed < self.soft.mul_f64(stability * falling * contested / 2.0)
    }

    /// The budget for `go movetime`: all of it, less the overhead.
    pub fn fixed(movetime: Duration, overhead: Duration) -> Budget {
        let time = movetime.saturating_sub(overhead).max(MINIMUM.min(movetime));
        Budget {
            soft: time,
            hard: time,
            giveaway: time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catena_core::board::Move;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for time in [0, 1, 10, 30, 100, 1000, 10_000, 600_000] {
            for increment in [0, 100, 2000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40)] {
                    let clock = TimeLeft {
                        time: ms(time),
                        increment: ms(increment),
                        moves_to_go,
                    };
                    let budget = Budget::from_clock(clock, ms(10));
                    assert!(budget.soft <= budget.hard);
                    assert!(
                        budget.hard <= ms(time).saturating_sub(ms(10)),
                        "{clock:?} {budget:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn uses_a_fair_share() {
        let budget = Budget::from_clock(
            TimeLeft {
                time: ms(10_000),
                increment: ms(100),
                moves_to_go: None,
            },
            ms(10),
        );
        assert!(
            budget.soft > ms(500) && budget.soft < ms(1000),
            "{budget:?}"
        );
        assert!(budget.hard < ms(3500));
    }

    /// The budget's arithmetic, worked by hand: a share of the clock and of
    /// the increments to come (counted at half) over 12 moves, at most half
    /// the clock; the hard limit three times that, capped at a third of the
    /// clock, or at four fifths on the last move before the control.
    #[test]
    fn budgets_worked_by_hand() {
        let budget = |time, increment, moves_to_go| {
            let clock = TimeLeft {
                time: ms(time),
                increment: ms(increment),
                moves_to_go,
            };
            let budget = Budget::from_clock(clock, ms(10));
            (budget.soft, budget.hard)
        };
        // 11450 available; income 100 * 11 / 2 = 550; (11450 + 550) / 12 = 1000.
        assert_eq!(budget(11_460, 100, None), (ms(1000), ms(3000)));
        // 60000 / 12 (forty moves to go are planned as twelve) = 5000.
        assert_eq!(budget(60_010, 0, Some(40)), (ms(5000), ms(15000)));
        // The last move: all 990 is the share, half of it the soft limit,
        // four fifths of the clock the hard one.
        assert_eq!(budget(1000, 0, Some(1)), (ms(495), ms(792)));
        // Two moves to go: income 200 / 2, (990 + 100) / 2 = 545, more than
        // half the clock (495); the hard limit is capped at a third.
        assert_eq!(budget(1000, 200, Some(2)), (ms(495), ms(495)));
        // 1000 available; income 200 * 11 / 2 = 1100; 2100 / 12 = 175; the
        // hard limit's 525 is capped at a third of the clock.
        assert_eq!(
            budget(1010, 200, None),
            (ms(175), Duration::from_nanos(333_333_333))
        );
        // SSCC's horizon of 3: income 100 * 2 / 2 = 100; (9990 + 100) / 3 =
        // 3363.3; the hard limit's 10090 is capped at a third of 9990, below
        // the soft limit, so it is raised to it: the move's time is fixed.
        let clock = TimeLeft {
            time: ms(10_000),
            increment: ms(100),
            moves_to_go: None,
        };
        let sscc = Budget::from_clock_over(clock, ms(10), SSCC_HORIZON);
        let third = Duration::from_nanos(3_363_333_333);
        assert_eq!((sscc.soft, sscc.hard), (third, third));
    }

    /// How far into the move another iteration may start, worked by hand:
    /// half the soft limit (400 ms) times stability (1.5 down to 0.7 after
    /// four stable iterations), a falling score (1 + drop / 200, the drop
    /// capped at 100) and the rivals' share ((1.5 - best's share) * 1.35).
    #[test]
    fn iteration_limits_worked_by_hand() {
        let budget = Budget {
            soft: ms(400),
            hard: ms(1200),
            giveaway: ms(1200),
        };
        for (stable_iterations, score_drop, best_action_share, limit) in [
            (0, 0, 1.0, 202.5),
            (4, 100, 0.0, 425.25),
            (2, 40, 0.5, 324.0),
            (9, 300, 1.7, 141.75),
            (3, -50, -0.2, 344.25),
        ] {
            let progress = Progress {
                stable_iterations,
                score_drop,
                best_action_share,
                giving_away: false,
            };
            let at = |millis: f64| Duration::from_secs_f64(millis / 1000.0);
            assert!(
                budget.allows_iteration(at(limit - 1.0), progress),
                "{progress:?}"
            );
            assert!(
                !budget.allows_iteration(at(limit + 1.0), progress),
                "{progress:?}"
            );
        }
    }

    #[test]
    fn an_unsettled_search_gets_more_time() {
        let budget = Budget {
            soft: ms(400),
            hard: ms(1200),
            giveaway: ms(1200),
        };
        let settled = Progress {
            stable_iterations: 6,
            score_drop: 0,
            best_action_share: 0.9,
            giving_away: false,
        };
        let unsettled = Progress {
            stable_iterations: 0,
            score_drop: 60,
            best_action_share: 0.6,
            giving_away: false,
        };
        assert!(!budget.allows_iteration(ms(250), settled));
        assert!(budget.allows_iteration(ms(250), unsettled));
        assert!(!budget.allows_iteration(ms(500), unsettled));
    }

    #[test]
    fn a_contested_best_action_gets_more_time() {
        let budget = Budget {
            soft: ms(400),
            hard: ms(1200),
            giveaway: ms(1200),
        };
        let progress = |best_action_share| Progress {
            stable_iterations: 2,
            score_drop: 0,
            best_action_share,
            giving_away: false,
        };
        assert!(budget.allows_iteration(ms(250), progress(0.2)));
        assert!(!budget.allows_iteration(ms(250), progress(0.95)));
    }

    #[test]
    fn a_fixed_time_ignores_progress() {
        let budget = Budget::fixed(ms(1000), ms(0));
        for stable_iterations in [0, 5] {
            let progress = Progress {
                stable_iterations,
                score_drop: 100,
                best_action_share: 0.1,
                giving_away: true,
            };
            assert!(budget.allows_iteration(ms(999), progress));
            assert!(!budget.allows_iteration(ms(1000), progress));
        }
    }

    /// In SSCC, while the expected line gives the clock away, a fixed share
    /// of a third may run on to four fifths of the clock; otherwise it keeps
    /// the third.
    #[test]
    fn a_line_that_gives_the_clock_away_may_spend_four_fifths() {
        let clock = TimeLeft {
            time: ms(9_010),
            increment: ms(0),
            moves_to_go: None,
        };
        let budget = Budget::sscc(clock, ms(10));
        assert_eq!((budget.soft, budget.hard), (ms(3000), ms(3000)));
        let four_fifths = ms(9000).mul_f64(SSCC_GIVEAWAY);
        assert!(four_fifths.abs_diff(ms(7200)) < Duration::from_micros(1));
        assert_eq!(budget.giveaway, four_fifths);
        let progress = |giving_away| Progress {
            giving_away,
            ..Progress::default()
        };
        assert!(!budget.allows_iteration(ms(3000), progress(false)));
        assert!(budget.allows_iteration(ms(3000), progress(true)));
        assert!(budget.allows_iteration(ms(6000), progress(true)));
        assert!(!budget.allows_iteration(ms(7200), progress(true)));
        assert_eq!(budget.hard_limit(false), ms(3000));
        assert_eq!(budget.hard_limit(true), four_fifths);
    }

    /// Lines written as S (a switch) and - (a stay), from the mover's first
    /// action: a leading switch gives the clock away whatever follows; after
    /// a stay, the opponent's reply run does when it switches an odd number
    /// of times.
    #[test]
    fn which_lines_give_the_clock_away() {
        let line = |text: &str| -> Vec<Action> {
            let mv = Move::from_bits(0);
            text.chars()
                .map(|c| match c {
                    'S' => Action::switching(mv),
                    _ => Action::stay(mv),
                })
                .collect()
        };
        for (text, gives_away) in [
            ("", false),
            ("-", false),
            ("S", true),
            ("S-", true),
            ("SS-", true),
            ("S-S", true),
            ("-S", true),
            ("-S-", true),
            ("-SS-", false),
            ("-SSS-S", true),
            ("--S", false),
            ("--SSS", false),
            ("-S--S", true),
            ("-SS-S-", false),
        ] {
            assert_eq!(gives_the_clock_away(&line(text)), gives_away, "{text}");
        }
    }
}
