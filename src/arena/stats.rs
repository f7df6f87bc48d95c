//! What a match's score says: the Elo difference with its 95% error bars, the
//! likelihood of superiority, and the sequential probability ratio test; from
//! the games one by one (`Tally`) or from the pairs of games played from one
//! opening (`Pentanomial`, with normalized Elo, as fastchess reports them).

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

/// The pairs of games played from one opening, one with either colour,
/// counted by the first side's points over the pair: the pentanomial counts
/// fastchess reports. Pairing cancels much of what an opening gives one colour,
/// so the error bars are tighter than from the games counted one by one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Two losses.
    pub ll: u32,
    /// A loss and a draw.
    pub ld: u32,
    /// A win and a loss.
    pub wl: u32,
    /// Two draws.
    pub dd: u32,
    /// A win and a draw.
    pub wd: u32,
    /// Two wins.
    pub ww: u32,
}

/// 800 / ln 10: normalized Elo per unit of score over its standard deviation.
const NELO_SCALE: f64 = 347.435_585_522_667_6;

impl Pentanomial {
    /// Adds a pair in which the first side scored `first` and `second` (each 1, ½ or 0).
    pub fn add(&mut self, first: f64, second: f64) {
        let counter = match (first + second, first.max(second)) {
            (0.0, _) => &mut self.ll,
            (0.5, _) => &mut self.ld,
            (1.0, 1.0) => &mut self.wl,
            (1.0, _) => &mut self.dd,
            (1.5, _) => &mut self.wd,
            _ => &mut self.ww,
        };
        *counter += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.counts().iter().sum()
    }

    /// The pairs by points, as fastchess prints them: 0, ½, 1 (a win and a
    /// loss, or two draws), 1½, 2.
    pub fn counts(&self) -> [u32; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// The counts as fastchess lists them inside `Ptnml(0-2): [...]`.
    pub fn counts_list(&self) -> String {
        self.counts().map(|count| count.to_string()).join(", ")
    }

    /// Each pair's share of the points, 0 to 1, with how many pairs scored it.
    fn shares(&self) -> [(f64, f64); 5] {
        let counts = self.counts();
        std::array::from_fn(|index| (index as f64 / 4.0, f64::from(counts[index])))
    }

    /// The mean share of the points per pair, 0 to 1; `None` before the first pair.
    pub fn score(&self) -> Option<f64> {
        let pairs = f64::from(self.pairs());
        (pairs > 0.0).then(|| {
            self.shares()
                .iter()
                .map(|(share, count)| share * count)
                .sum::<f64>()
                / pairs
        })
    }

    /// The mean score and the variance of one pair's share around it.
    pub fn score_and_variance(&self) -> Option<(f64, f64)> {
        let score = self.score()?;
        let pairs = f64::from(self.pairs());
        let variance = self
            .shares()
            .iter()
            .map(|(share, count)| count * (share - score).powi(2))
            .sum::<f64>()
            / pairs;
        Some((score, variance))
    }

    /// The bounds of the 95% confidence interval on the score.
    fn score_interval(&self) -> Option<(f64, f64)> {
        let (score, variance) = self.score_and_variance()?;
        let deviation = (variance / f64::from(self.pairs())).sqrt();
        Some((score - Z_95 * deviation, score + Z_95 * deviation))
    }

    /// The logistic Elo difference and the half-width of its 95% interval,
    /// from the pairs. Not finite when one side scored everything, or nothing.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let score = self.score()?;
        let (low, high) = self.score_interval()?;
        Some((
            elo_of_score(score),
            (elo_of_score(high) - elo_of_score(low)) / 2.0,
        ))
    }

    /// The normalized Elo difference (the score's distance from ½ in standard
    /// deviations of a game pair's score, scaled as fastchess and fishtest
    /// scale it) and the half-width of its 95% interval. Not finite when every
    /// pair scored the same.
    pub fn normalized_elo(&self) -> Option<(f64, f64)> {
        let (score, variance) = self.score_and_variance()?;
        let (low, high) = self.score_interval()?;
        let nelo = |score: f64| (score - 0.5) / (2.0 * variance).sqrt() * NELO_SCALE;
        Some((nelo(score), (nelo(high) - nelo(low)) / 2.0))
    }

    /// The likelihood of superiority from the pairs: the probability, under
    /// the normal approximation, that the first side's true score is above ½.
    pub fn los(&self) -> Option<f64> {
        let (score, variance) = self.score_and_variance()?;
        let z = (score - 0.5) / (2.0 * variance / f64::from(self.pairs())).sqrt();
        // Every pair scored exactly ½: nothing to tell the sides apart.
        Some(if z.is_nan() {
            0.5
        } else {
            0.5 * (1.0 + erf(z))
        })
    }

    /// The share of the pairs that scored 1, by a win and a loss or two draws.
    pub fn draw_ratio(&self) -> Option<f64> {
        let pairs = self.pairs();
        (pairs > 0).then(|| f64::from(self.wl + self.dd) / f64::from(pairs))
    }

    /// Pairs won (1½ or 2) over pairs lost (½ or 0); not finite without a lost pair.
    pub fn pairs_ratio(&self) -> f64 {
        f64::from(self.ww + self.wd) / f64::from(self.ld + self.ll)
    }

    /// Pairs of a win and a loss over pairs of two draws.
    pub fn wl_dd_ratio(&self) -> f64 {
        f64::from(self.wl) / f64::from(self.dd)
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

    /// The log-likelihood ratio of the pairs of games, by the generalised
    /// SPRT with logistic Elo in the normal approximation fishtest uses,
    /// `N (s1 - s0) (2s - s0 - s1) / (2 var)`, over pairs as fastchess and
    /// fishtest count them: `N` pairs, `s` the mean share of a pair's
    /// points, `var` its variance. Counting games one by one instead, as
    /// cutechess-cli does, takes the two games of an opening for
    /// independent, which they are not: in SSCC the player to move first
    /// usually wins, so most pairs end 1-1 and the games' variance is many
    /// times the pairs'.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        // No verdict while every pair scored the same (a sweep's first
        // pairs, or a run of 1-1): the variance would be zero.
        let Some((score, variance)) = pairs.score_and_variance() else {
            return 0.0;
        };
        if variance == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let n = f64::from(pairs.pairs());
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    pub fn state(&self, pairs: &Pentanomial) -> SprtState {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// Where the test stands after another pair, `previous` where it stood
    /// before. A verdict stands once reached: the test ends at its first
    /// crossing, and the games still running then are counted but cannot
    /// undo it.
    pub fn update(&self, previous: Option<SprtState>, pairs: &Pentanomial) -> SprtState {
        match previous {
            Some(verdict @ (SprtState::AcceptH0 | SprtState::AcceptH1)) => verdict,
            _ => self.state(pairs),
        }
    }

    /// `SPRT: llr 1.23 (41.9%), lbound -2.94, ubound 2.94 - H1 was accepted`,
    /// as cutechess-cli prints it, for a test standing at `state`.
    pub fn report(&self, pairs: &Pentanomial, state: SprtState) -> String {
        let llr = self.llr(pairs);
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

    /// Pentanomial counts from the first side's points in each pair's two games.
    fn pairs(points: &[(f64, f64)]) -> Pentanomial {
        let mut penta = Pentanomial::default();
        for &(first, second) in points {
            penta.add(first, second);
        }
        penta
    }

    #[test]
    fn pairs_are_counted_by_their_points() {
        let penta = pairs(&[
            (0.0, 0.0),
            (0.5, 0.0),
            (0.0, 0.5),
            (1.0, 0.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (1.0, 0.5),
            (1.0, 1.0),
        ]);
        let expected = Pentanomial {
            ll: 1,
            ld: 2,
            wl: 2,
            dd: 1,
            wd: 1,
            ww: 1,
        };
        assert_eq!(penta, expected);
        assert_eq!(penta.counts(), [1, 2, 3, 1, 1]);
        assert_eq!(penta.pairs(), 8);
        assert_eq!(penta.wl_dd_ratio(), 2.0);
        // Won pairs (1½, 2) over lost ones (0, ½): 2 / 3.
        assert!((penta.pairs_ratio() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(penta.draw_ratio(), Some(3.0 / 8.0));
    }

    #[test]
    fn pentanomial_elo_nelo_and_los_by_hand() {
        // One pair each of LL, WL, DD, WD and WW: shares of the points per
        // pair 0, 1/2, 1/2, 3/4, 1. Mean 2.75 / 5 = 0.55. Variance of a pair's
        // share: (0.55² + 0.05² + 0.05² + 0.2² + 0.45²) / 5 = 0.55 / 5 = 0.11.
        let penta = pairs(&[(0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (1.0, 0.5), (1.0, 1.0)]);
        assert!((penta.score().unwrap() - 0.55).abs() < 1e-12);
        let (elo, margin) = penta.elo().unwrap();
        // -400 log10(1 / 0.55 - 1) = -400 log10(9 / 11) = 34.860.
        assert!((elo - 34.860_070).abs() < 1e-5, "{elo}");
        // Score bounds 0.55 ± 1.96 sqrt(0.11 / 5) = 0.55 ± 0.290709, as Elo:
        // (elo(0.840709) - elo(0.259291)) / 2 = 235.664.
        assert!((margin - 235.663_631).abs() < 1e-4, "{margin}");
        let (nelo, nelo_margin) = penta.normalized_elo().unwrap();
        // (0.55 - 0.5) / sqrt(2 × 0.11) × 800 / ln 10 = 0.05 / 0.469042 × 347.4356 = 37.037.
        assert!((nelo - 37.036_758).abs() < 1e-5, "{nelo}");
        // Its error bars depend on the number of pairs alone: 1.96 × 347.4356 / sqrt(2 × 5).
        assert!((nelo_margin - 215.338_850).abs() < 1e-4, "{nelo_margin}");
        // Phi(0.05 / sqrt(0.11 / 5)) = Phi(0.337100) = 0.631979.
        assert!((penta.los().unwrap() - 0.631_979).abs() < 1e-6);
        assert_eq!(penta.draw_ratio(), Some(0.4));
        assert_eq!(penta.wl_dd_ratio(), 1.0);
    }

    #[test]
    fn even_and_degenerate_pentanomials() {
        // WW, WL, DD, LL: mean ½, variance (0.25 + 0 + 0 + 0.25) / 4 = 0.125.
        let even = pairs(&[(1.0, 1.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)]);
        let (elo, margin) = even.elo().unwrap();
        assert_eq!(elo, 0.0);
        // 0.5 ± 1.96 sqrt(0.125 / 4) = 0.5 ± 0.346479: elo(0.846479) = 296.58.
        assert!((margin - 296.58).abs() < 0.01, "{margin}");
        assert_eq!(even.normalized_elo().unwrap().0, 0.0);
        assert!((even.los().unwrap() - 0.5).abs() < 1e-9);
        assert!(Pentanomial::default().elo().is_none());
        assert!(Pentanomial::default().los().is_none());
        // Only drawn pairs: no spread, no side ahead.
        let drawn = pairs(&[(0.5, 0.5), (1.0, 0.0)]);
        assert_eq!(drawn.elo().unwrap(), (0.0, 0.0));
        assert!(drawn.normalized_elo().unwrap().0.is_nan());
        assert_eq!(drawn.los(), Some(0.5));
        // A clean sweep: infinite Elo, certain superiority.
        let sweep = pairs(&[(1.0, 1.0), (1.0, 1.0)]);
        assert_eq!(sweep.elo().unwrap().0, f64::INFINITY);
        assert_eq!(sweep.los(), Some(1.0));
        assert_eq!(sweep.pairs_ratio(), f64::INFINITY);
    }

    /// Pairs by their counts, as fastchess prints them: 0, ½, 1, 1½ and 2 points.
    fn penta([ll, ld, even, wd, ww]: [u32; 5]) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl: even,
            dd: 0,
            wd,
            ww,
        }
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
        assert_eq!(sprt.state(&penta([0, 0, 150, 10, 40])), SprtState::AcceptH1);
        assert_eq!(sprt.state(&penta([40, 10, 150, 0, 0])), SprtState::AcceptH0);
        assert_eq!(sprt.state(&penta([1, 0, 10, 0, 1])), SprtState::Continue);
        // Worked by hand (Python, the formula above): 200 SSCC pairs of
        // C48 in docs/strength.md, 222-173-5 in games, whose games counted
        // one by one give 1.28; and C49's, just below the hypotheses'
        // midpoint although above half the points.
        assert!((sprt.llr(&penta([0, 0, 174, 3, 23])) - 5.997_235).abs() < 1e-5);
        assert!((sprt.llr(&penta([2, 0, 193, 1, 4])) + 0.349_283).abs() < 1e-5);
        assert!((sprt.llr(&penta([1, 2, 3, 4, 5])) - 0.353_988).abs() < 1e-5);
        // Not while every pair scored the same.
        assert_eq!(sprt.llr(&penta([0, 0, 0, 0, 50])), 0.0);
        assert_eq!(sprt.llr(&penta([0, 0, 80, 0, 0])), 0.0);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        // A side that never loses a pair can still be proven stronger.
        assert_eq!(sprt.state(&penta([0, 0, 30, 0, 30])), SprtState::AcceptH1);
        let decided = penta([0, 0, 150, 10, 40]);
        assert!(
            sprt.report(&decided, sprt.state(&decided))
                .ends_with("H1 was accepted")
        );
        // A pair that ends after the verdict, and takes the ratio back
        // inside the bounds, does not undo it.
        let crossed = penta([1, 0, 10, 0, 29]);
        let after = penta([2, 0, 10, 0, 29]);
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
