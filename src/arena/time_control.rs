//! Time controls in cutechess-cli's notation, and the clock each colour keeps.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use catena_core::board::Color;
use catena_engine::time::Budget;

/// A time control as cutechess-cli writes it: `40/60+0.6` (40 moves in 60 s,
/// then again, plus 0.6 s a move), `10+0.1`, `1:30` (minutes and seconds), or
/// `st=0.5` (0.5 s for every move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Clock {
        /// Moves per period; `None`: the whole game is one period.
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
    PerMove(Duration),
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let fail = |why: &str| {
            format!("time control '{text}': {why} (forms: 40/60+0.6, 10+0.1, 1:30, st=0.5)")
        };
        if let Some(seconds) = text.strip_prefix("st=") {
            let per_move = parse_seconds(seconds).ok_or_else(|| fail("bad seconds"))?;
            if per_move.is_zero() {
                return Err(fail("the time per move must be above zero"));
            }
            return Ok(TimeControl::PerMove(per_move));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves.parse().map_err(|_| fail("bad move count"))?;
                if moves == 0 {
                    return Err(fail("the move count must be above zero"));
                }
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (base, increment) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = parse_clock(base).ok_or_else(|| fail("bad time"))?;
        let increment = parse_seconds(increment).ok_or_else(|| fail("bad increment"))?;
        if base.is_zero() {
            return Err(fail("the time must be above zero"));
        }
        Ok(TimeControl::Clock {
            moves,
            base,
            increment,
        })
    }
}

/// `12.5` seconds.
fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds: f64 = text.parse().ok()?;
    (0.0..1e7)
        .contains(&seconds)
        .then(|| Duration::from_secs_f64(seconds))
}

/// `90`, `1:30` (minutes and seconds) or `1:00:00`.
fn parse_clock(text: &str) -> Option<Duration> {
    let mut total = Duration::ZERO;
    for (index, part) in text.rsplit(':').enumerate() {
        let unit = [1, 60, 3600].get(index)?;
        total += parse_seconds(part)? * *unit;
    }
    Some(total)
}

fn seconds(duration: Duration) -> String {
    format!("{}", duration.as_secs_f64())
}

impl fmt::Display for TimeControl {
    /// The cutechess-cli form, also used for the PGN tag `TimeControl`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            TimeControl::PerMove(per_move) => write!(f, "st={}", seconds(per_move)),
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", seconds(base))?;
                if !increment.is_zero() {
                    write!(f, "+{}", seconds(increment))?;
                }
                Ok(())
            }
        }
    }
}

/// The clock of one colour.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    control: TimeControl,
    /// Time left; never below zero between moves.
    left: Duration,
    /// Moves this colour has made in the current period.
    moves_in_period: u32,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let left = match control {
            TimeControl::Clock { base, .. } => base,
            TimeControl::PerMove(per_move) => per_move,
        };
        Clock {
            control,
            left,
            moves_in_period: 0,
        }
    }

    /// How long this colour may think before its flag falls.
    pub fn budget(&self) -> Duration {
        self.left
    }

    /// Charges a move that took `used`; false if the flag fell, `margin` being
    /// how far past zero a clock may go before it counts.
    pub fn punch(&mut self, used: Duration, margin: Duration) -> bool {
        if used > self.left + margin {
            return false;
        }
        match self.control {
            TimeControl::PerMove(_) => {}
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                self.left = self.left.saturating_sub(used) + increment;
                self.moves_in_period += 1;
                if moves == Some(self.moves_in_period) {
                    self.left += base;
                    self.moves_in_period = 0;
                }
            }
        }
        true
    }

    fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock {
                moves: Some(moves), ..
            } => Some(moves - self.moves_in_period),
            _ => None,
        }
    }
}

/// The clocks of both colours.
#[derive(Clone, Copy, Debug)]
pub struct Clocks([Clock; 2]);

impl Clocks {
    pub fn new(control: TimeControl) -> Clocks {
        Clocks([Clock::new(control); 2])
    }

    pub fn of(&mut self, color: Color) -> &mut Clock {
        &mut self.0[color.index()]
    }

    /// What Catena's own time manager makes of `to_move`'s clock in SSCC,
    /// for an engine searching in this process rather than answering `go`.
    pub fn sscc_budget(&self, to_move: Color, overhead: Duration) -> Budget {
        let clock = &self.0[to_move.index()];
        match clock.control {
            TimeControl::PerMove(per_move) => Budget::fixed(per_move, overhead),
            TimeControl::Clock { increment, .. } => Budget::sscc(
                catena_engine::time::TimeLeft {
                    time: clock.left,
                    increment,
                    moves_to_go: clock.moves_to_go(),
                },
                overhead,
            ),
        }
    }

    /// The limits of a UCI `go` for `to_move`: `wtime … btime … winc … binc …
    /// [movestogo …]`, or `movetime …`.
    pub fn go_limits(&self, to_move: Color) -> String {
        let [white, black] = &self.0;
        let millis = |duration: Duration| duration.as_millis();
        match white.control {
            TimeControl::PerMove(per_move) => format!("movetime {}", millis(per_move)),
            TimeControl::Clock { increment, .. } => {
                let mut limits = format!(
                    "wtime {} btime {} winc {} binc {}",
                    millis(white.left),
                    millis(black.left),
                    millis(increment),
                    millis(increment)
                );
                if let Some(moves) = self.0[to_move.index()].moves_to_go() {
                    limits.push_str(&format!(" movestogo {moves}"));
                }
                limits
            }
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
    fn reads_and_writes_cutechess_forms() {
        for text in ["40/60+0.6", "10+0.1", "st=0.5", "300", "40/60"] {
            assert_eq!(text.parse::<TimeControl>().unwrap().to_string(), text);
        }
        assert_eq!("1:30+1".parse::<TimeControl>().unwrap().to_string(), "90+1");
        for bad in [
            "", "st=", "st=0", "0+1", "x+1", "40/", "0/60", "10+-1", "1:2:3:4", "60+y",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn increments_periods_and_flags() {
        let control: TimeControl = "2/1+0.1".parse().unwrap();
        let mut clocks = Clocks::new(control);
        assert_eq!(
            clocks.go_limits(Color::White),
            "wtime 1000 btime 1000 winc 100 binc 100 movestogo 2"
        );
        let white = clocks.of(Color::White);
        assert!(white.punch(ms(300), Duration::ZERO));
        assert_eq!(white.budget(), ms(800));
        assert!(white.punch(ms(800), Duration::ZERO));
        // The period is over: its time comes again.
        assert_eq!(white.budget(), ms(1100));
        assert!(!white.punch(ms(1200), ms(50)));
        assert!(white.punch(ms(1140), ms(50)));
        assert_eq!(white.budget(), ms(100));
        assert_eq!(
            clocks.go_limits(Color::Black),
            "wtime 100 btime 1000 winc 100 binc 100 movestogo 2"
        );
        let mut per_move = Clocks::new("st=0.5".parse().unwrap());
        assert_eq!(per_move.go_limits(Color::Black), "movetime 500");
        assert!(per_move.of(Color::Black).punch(ms(500), Duration::ZERO));
        assert!(!per_move.of(Color::Black).punch(ms(501), Duration::ZERO));
        assert_eq!(per_move.of(Color::Black).budget(), ms(500));
    }
}
