//! Time management: how long to think, from the clock of the colour to move.
//!
//! The soft limit is when iterative deepening stops starting new iterations; the
//! hard limit is when the search stops in the middle of one. Both leave the
//! `Move Overhead` for the GUI's and the operating system's delays. Clocks
//! belong to colours (spec section 3): after a switch the engine moves again on
//! the other colour's clock, which the next `go` reports, so each move is
//! budgeted from the clock of the colour it is played with.

use std::time::Duration;

/// The clock as `go` gives it, for the colour to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// When to stop thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

/// Moves to plan for when the time control gives no `movestogo`.
const HORIZON: u32 = 20;
/// Never think shorter than this when there is time to.
const MINIMUM: Duration = Duration::from_millis(5);

impl Budget {
    /// The budget for `go wtime … btime …`.
    pub fn from_clock(clock: Clock, overhead: Duration) -> Budget {
        let available = clock.time.saturating_sub(overhead);
        let moves = clock.moves_to_go.unwrap_or(HORIZON).clamp(1, HORIZON);
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
        let hard = (soft * 3).min(hard_cap).max(soft);
        Budget {
            soft: soft.max(MINIMUM).min(available),
            hard: hard.max(MINIMUM).min(available),
        }
    }

    /// The budget for `go movetime`: all of it, less the overhead.
    pub fn fixed(movetime: Duration, overhead: Duration) -> Budget {
        let time = movetime.saturating_sub(overhead).max(MINIMUM.min(movetime));
        Budget {
            soft: time,
            hard: time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for time in [0, 1, 10, 30, 100, 1000, 10_000, 600_000] {
            for increment in [0, 100, 2000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
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
            Clock {
                time: ms(10_000),
                increment: ms(100),
                moves_to_go: None,
            },
            ms(10),
        );
        assert!(budget.soft > ms(250) && budget.soft < ms(600), "{budget:?}");
        assert!(budget.hard < ms(3500));
    }
}
