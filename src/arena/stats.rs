//! What a match's score says: the Elo difference with its 95% error bars, the
//! likelihood of superiority, and the sequential probability ratio test.

use std::fmt;
use std::str::FromStr;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score per game, 0 to 1.
    pub fn score(&self) -> f64 {
        self.points() / f64::from(self.games())
    }

    /// Adds one game scored 1, ½ or 0.
    pub fn add(&mut self, points: f64) {
        match points {
            1.0 => self.wins += 1,
            0.0 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// The tally of the other side.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The variance of one game's score around the mean score.
    fn variance(&self) -> f64 {
        let s = self.score();
        let n = f64::from(self.games());
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// The logistic Elo difference the score implies and the half-width of its
    /// 95% confidence interval, as cutechess-cli computes them. Infinite when
    /// one side scored everything; `None` before the first game.
    pub fn elo(&self) -> Option<(f64, f64)> {
        if self.games() == 0 {
            return None;
        }
        let s = self.score();
        let deviation = (self.variance() / f64::from(self.games())).sqrt();
        let low = elo_of_score(s - Z_95 * deviation);
        let high = elo_of_score(s + Z_95 * deviation);
        Some((elo_of_score(s), (high - low) / 2.0))
    }

    /// The likelihood of superiority: how sure one can be, from wins and losses
    /// alone, that this side is the stronger one.
    pub fn los(&self) -> Option<f64> {
        let decisive = f64::from(self.wins + self.losses);
        (decisive > 0.0).then(|| {
            0.5 * (1.0
                + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
        })
    }
}

/// The Elo difference at which the stronger side scores `score` (logistic model).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The score the stronger side makes at an Elo difference of `elo`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let value = 1.0 - poly * (-x * x).exp();
    value.copysign(x)
}

/// A sequential probability ratio test of H0 "the Elo difference is `elo0`"
/// against H1 "it is `elo1`", with error rates `alpha` (false H1) and `beta`
/// (false H0), in cutechess-cli's form `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0=A elo1=B alpha=X beta=Y` (any order; alpha and beta default to 0.05).
    pub fn parse(fields: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in fields {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{field}' is not KEY=VALUE"))?;
            let value = f64::from_str(value)
                .ok()
                .filter(|value| value.is_finite())
                .ok_or_else(|| format!("--sprt: '{value}' is not a number"))?;
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => {
                    return Err(format!(
                        "--sprt: unknown key '{key}' (elo0, elo1, alpha, beta)"
                    ));
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("--sprt needs elo0=A and elo1=B".to_string());
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("--sprt: elo0 must be below elo1".to_string());
        }
        let rate = 0.0..0.5;
        if !rate.contains(&sprt.alpha)
            || !rate.contains(&sprt.beta)
            || sprt.alpha * sprt.beta == 0.0
        {
            return Err("--sprt: alpha and beta must be above 0 and below 0.5".to_string());
        }
        Ok(sprt)
    }

    /// The bounds on the log-likelihood ratio: below the first H0 is accepted,
    /// above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the tally, by the generalised SPRT on the
    /// trinomial (win, draw, loss) model with logistic Elo: the normal
    /// approximation fishtest uses, `N (s1 - s0) (2s - s0 - s1) / (2 var)`.
    pub fn llr(&self, tally: &Tally) -> f64 {
        // As cutechess-cli: no verdict before a win, a draw and a loss, which
        // also keeps the variance away from zero.
        if tally.wins == 0 || tally.draws == 0 || tally.losses == 0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let n = f64::from(tally.games());
        n * (s1 - s0) * (2.0 * tally.score() - s0 - s1) / (2.0 * tally.variance())
    }

    pub fn state(&self, tally: &Tally) -> SprtState {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// Where the test stands after another game, `previous` where it stood
    /// before. A verdict stands once reached: the test ends at its first
    /// crossing, and the games still running then are counted but cannot
    /// undo it.
    pub fn update(&self, previous: Option<SprtState>, tally: &Tally) -> SprtState {
        match previous {
            Some(verdict @ (SprtState::AcceptH0 | SprtState::AcceptH1)) => verdict,
            _ => self.state(tally),
        }
    }

    /// `SPRT: llr 1.23 (41.9%), lbound -2.94, ubound 2.94 - H1 was accepted`,
    /// as cutechess-cli prints it, for a test standing at `state`.
    pub fn report(&self, tally: &Tally, state: SprtState) -> String {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        let share = if llr >= 0.0 {
            llr / upper
        } else {
            llr / -lower
        } * 100.0;
        let state = match state {
            SprtState::Continue => "no decision yet",
            SprtState::AcceptH0 => "H0 was accepted",
            SprtState::AcceptH1 => "H1 was accepted",
        };
        format!("SPRT: llr {llr:.3} ({share:.1}%), lbound {lower:.2}, ubound {upper:.2} - {state}")
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_error_bars_match_cutechess() {
        // cutechess-cli's formulas (elo.cpp) evaluated in Python for 30 wins,
        // 16 draws, 14 losses: 94.944 +/- 78.616.
        let (elo, margin) = tally(30, 16, 14).elo().unwrap();
        assert!((elo - 94.944).abs() < 1e-3, "{elo}");
        assert!((margin - 78.616).abs() < 1e-3, "{margin}");
        let (even, _) = tally(5, 10, 5).elo().unwrap();
        assert_eq!(even, 0.0);
        assert_eq!(tally(3, 0, 0).elo().unwrap().0, f64::INFINITY);
        assert!(Tally::default().elo().is_none());
    }

    #[test]
    fn los_is_a_probability_of_superiority() {
        assert!((tally(10, 3, 10).los().unwrap() - 0.5).abs() < 1e-9);
        // 30 wins, 14 losses: (1 + erf(16 / sqrt(88))) / 2 = 0.992069.
        assert!((tally(30, 16, 14).los().unwrap() - 0.992069).abs() < 1e-6);
        assert!(tally(0, 4, 0).los().is_none());
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
    }

    #[test]
    fn sprt_decides_clear_cases_only() {
        let words = |text: &str| {
            text.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        let sprt = Sprt::parse(&words("elo0=0 elo1=10 alpha=0.05 beta=0.05")).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944).abs() < 1e-3 && (upper - 2.944).abs() < 1e-3);
        assert_eq!(sprt.state(&tally(600, 300, 100)), SprtState::AcceptH1);
        assert_eq!(sprt.state(&tally(100, 300, 600)), SprtState::AcceptH0);
        assert_eq!(sprt.state(&tally(11, 10, 10)), SprtState::Continue);
        // Below the midpoint of the hypotheses the ratio leans to H0.
        assert!(sprt.llr(&tally(1, 1, 1)) < 0.0);
        assert_eq!(sprt.llr(&tally(50, 0, 1)), 0.0);
        let decided = tally(600, 300, 100);
        assert!(
            sprt.report(&decided, sprt.state(&decided))
                .ends_with("H1 was accepted")
        );
        // A game that ends after the verdict, and takes the ratio back
        // inside the bounds, does not undo it.
        let crossed = tally(50, 40, 7);
        let after = tally(50, 40, 8);
        assert!(sprt.llr(&crossed) >= upper && (lower..upper).contains(&sprt.llr(&after)));
        let verdict = sprt.update(None, &crossed);
        assert_eq!(verdict, SprtState::AcceptH1);
        assert_eq!(sprt.update(Some(verdict), &after), SprtState::AcceptH1);
        assert_eq!(
            sprt.update(Some(SprtState::Continue), &after),
            SprtState::Continue
        );
        for bad in [
            "elo0=5 elo1=0",
            "elo0=0",
            "elo0=0 elo1=5 alpha=0.7",
            "elo0=0 elo1=x",
            "gamma=1",
        ] {
            assert!(Sprt::parse(&words(bad)).is_err(), "{bad}");
        }
    }
}
