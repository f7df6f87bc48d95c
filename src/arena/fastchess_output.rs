//! Progress lines and results blocks in the form fastchess prints them, for
//! `catena match --output fastchess`: scripts that read fastchess's output
//! (the `Finished game` lines, the `Ptnml(0-2)` counts, the `LLR` line) read
//! Catena's. The statistics are the pairs' (pentanomial), as fastchess's are.

use super::stats::{Pentanomial, Sprt, SprtState, Tally};
use super::time_control::TimeControl;

/// The line above and below a results block.
const RULE: &str = "--------------------------------------------------";

/// What the results block's first line says about the match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matchup {
    /// The first engine and the second; results are the first's.
    pub names: [String; 2],
    /// The time control, as fastchess writes it (`10+0.1`, `0.5/move`).
    pub time_control: String,
    /// Each engine's `Threads` option as it runs, if it has one.
    pub threads: [Option<String>; 2],
    /// Each engine's `Hash` option (MB) as it runs, if it has one.
    pub hash: [Option<String>; 2],
    /// The openings file's name, without its directory.
    pub book: Option<String>,
}

/// `Started game 3 of 10 (A vs B)`: White first.
pub fn started_line(game: u32, games: u32, white: &str, black: &str) -> String {
    format!("Started game {game} of {games} ({white} vs {black})")
}

/// `Finished game 3 (A vs B): 0-1 {Black mates}`.
pub fn finished_line(game: u32, white: &str, black: &str, result: &str, comment: &str) -> String {
    format!("Finished game {game} ({white} vs {black}): {result} {{{comment}}}")
}

/// The results so far, framed by rules: the matchup, Elo and normalized Elo
/// from the pairs, the likelihood of superiority, the games, the pentanomial
/// counts and, when a test runs, its log-likelihood ratio.
pub fn results_block(
    matchup: &Matchup,
    tally: &Tally,
    pairs: &Pentanomial,
    sprt: Option<&Sprt>,
) -> String {
    let mut lines = vec![
        RULE.to_string(),
        matchup_line(matchup),
        elo_line(pairs),
        ratios_line(pairs),
        games_line(tally),
        pentanomial_line(pairs),
    ];
    if let Some(sprt) = sprt {
        lines.push(llr_line(sprt, pairs));
    }
    lines.push(RULE.to_string());
    lines.join("\n")
}

/// How the match ended: `SPRT ([0.00, 5.00]) completed - H1 was accepted`,
/// or `Tournament finished`.
pub fn termination_line(sprt: Option<&Sprt>, state: Option<SprtState>) -> String {
    let accepted = match state {
        Some(SprtState::AcceptH0) => "H0",
        Some(SprtState::AcceptH1) => "H1",
        _ => return "Tournament finished".to_string(),
    };
    match sprt {
        Some(sprt) => format!(
            "SPRT ({}) completed - {accepted} was accepted",
            elo_bounds(sprt)
        ),
        None => "Tournament finished".to_string(),
    }
}

/// A time control as fastchess prints it: `40/60+0.6`, `10+0.1`, `0.5/move`.
pub fn time_control(control: &TimeControl) -> String {
    match *control {
        TimeControl::PerMove(per_move) => format!("{}/move", per_move.as_secs_f64()),
        TimeControl::Clock {
            moves,
            base,
            increment,
        } => {
            let moves = moves.map_or_else(String::new, |moves| format!("{moves}/"));
            let increment = if increment.is_zero() {
                String::new()
            } else {
                format!("+{}", two_significant_digits(increment.as_secs_f64()))
            };
            format!("{moves}{}{increment}", base.as_secs_f64())
        }
    }
}

/// `Results of A vs B (10+0.1, 1t, 16MB, book.epd):`; a setting the engines
/// do not share shows both, `1t - 2t`.
fn matchup_line(matchup: &Matchup) -> String {
    let [first, second] = &matchup.names;
    let threads = pair_of(&matchup.threads, "t");
    let hash = pair_of(&matchup.hash, "MB");
    let book = matchup
        .book
        .as_ref()
        .map_or_else(String::new, |book| format!(", {book}"));
    format!(
        "Results of {first} vs {second} ({}, {threads}, {hash}{book}):",
        matchup.time_control
    )
}

/// One value with its unit if both engines have it, else both; `NULL` for none.
fn pair_of(values: &[Option<String>; 2], unit: &str) -> String {
    let [first, second] = values
        .clone()
        .map(|value| value.map_or_else(|| "NULL".to_string(), |value| format!("{value}{unit}")));
    if first == second {
        first
    } else {
        format!("{first} - {second}")
    }
}

/// `Elo: 12.34 +/- 20.00, nElo: 15.00 +/- 25.00`.
fn elo_line(pairs: &Pentanomial) -> String {
    let (elo, margin) = pairs.elo().unwrap_or((f64::NAN, f64::NAN));
    let (nelo, nelo_margin) = pairs.normalized_elo().unwrap_or((f64::NAN, f64::NAN));
    format!(
        "Elo: {} +/- {}, nElo: {} +/- {}",
        fixed(elo, 2),
        fixed(margin, 2),
        fixed(nelo, 2),
        fixed(nelo_margin, 2)
    )
}

/// `LOS: 88.00 %, DrawRatio: 40.00 %, PairsRatio: 1.20`: the draw ratio is
/// the share of pairs scoring 1.
fn ratios_line(pairs: &Pentanomial) -> String {
    let los = pairs.los().unwrap_or(f64::NAN);
    let draws = pairs.draw_ratio().unwrap_or(f64::NAN);
    format!(
        "LOS: {} %, DrawRatio: {} %, PairsRatio: {}",
        fixed(los * 100.0, 2),
        fixed(draws * 100.0, 2),
        fixed(pairs.pairs_ratio(), 2)
    )
}

/// `Games: 10, Wins: 4, Losses: 3, Draws: 3, Points: 5.5 (55.00 %)`.
fn games_line(tally: &Tally) -> String {
    format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)",
        tally.games(),
        tally.wins,
        tally.losses,
        tally.draws,
        tally.points(),
        fixed(tally.score() * 100.0, 2)
    )
}

/// `Ptnml(0-2): [1, 2, 3, 2, 1], WL/DD Ratio: 0.50`.
fn pentanomial_line(pairs: &Pentanomial) -> String {
    let counts = pairs.counts_list();
    format!(
        "Ptnml(0-2): [{counts}], WL/DD Ratio: {}",
        fixed(pairs.wl_dd_ratio(), 2)
    )
}

/// `LLR: 1.23 (41.9%) (-2.94, 2.94) [0.00, 5.00]`: the ratio, its share of
/// the bound it leans to, the bounds and the hypotheses.
fn llr_line(sprt: &Sprt, pairs: &Pentanomial) -> String {
    let llr = sprt.llr(pairs);
    let (lower, upper) = sprt.bounds();
    let share = if llr >= 0.0 {
        llr / upper
    } else {
        llr / -lower
    };
    format!(
        "LLR: {} ({:.1}%) ({lower:.2}, {upper:.2}) {}",
        fixed(llr, 2),
        share * 100.0,
        elo_bounds(sprt)
    )
}

/// `[0.00, 5.00]`: the Elo differences of H0 and H1.
fn elo_bounds(sprt: &Sprt) -> String {
    format!("[{}, {}]", fixed(sprt.elo0, 2), fixed(sprt.elo1, 2))
}

/// `value` to `decimals` places; `nan`, `inf` and `-inf` as fastchess prints
/// them, and no negative zero.
fn fixed(value: f64, decimals: usize) -> String {
    if value.is_nan() {
        "nan".to_string()
    } else {
        format!("{:.decimals$}", value + 0.0)
    }
}

/// `0.1`, `0.05`, `1`: at most two significant digits, no trailing zeros.
fn two_significant_digits(value: f64) -> String {
    let magnitude = value.abs().log10().floor();
    let decimals = (1.0 - magnitude).max(0.0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matchup() -> Matchup {
        Matchup {
            names: ["A".to_string(), "B".to_string()],
            time_control: "10+0.1".to_string(),
            threads: [Some("1".to_string()), Some("1".to_string())],
            hash: [Some("16".to_string()), Some("64".to_string())],
            book: Some("book.epd".to_string()),
        }
    }

    #[test]
    fn time_controls_as_fastchess_writes_them() {
        for (spec, expected) in [
            ("10+0.1", "10+0.1"),
            ("40/60+0.6", "40/60+0.6"),
            ("1:30", "90"),
            ("1+0.01", "1+0.01"),
            ("8+0.08", "8+0.08"),
            ("st=0.5", "0.5/move"),
            ("60+1", "60+1"),
        ] {
            let control: TimeControl = spec.parse().unwrap();
            assert_eq!(time_control(&control), expected, "{spec}");
        }
    }

    #[test]
    fn a_results_block_in_fastchess_form() {
        let tally = Tally {
            wins: 4,
            draws: 3,
            losses: 3,
        };
        // Five pairs: LL, WL, DD, WD, WW (4 wins, 3 draws, 3 losses).
        let pairs = Pentanomial {
            ll: 1,
            ld: 0,
            wl: 1,
            dd: 1,
            wd: 1,
            ww: 1,
        };
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let block = results_block(&matchup(), &tally, &pairs, Some(&sprt));
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines[0], RULE);
        assert_eq!(
            lines[1],
            "Results of A vs B (10+0.1, 1t, 16MB - 64MB, book.epd):"
        );
        // The figures of stats.rs's hand-computed example.
        assert_eq!(lines[2], "Elo: 34.86 +/- 235.66, nElo: 37.04 +/- 215.34");
        assert_eq!(
            lines[3],
            "LOS: 63.20 %, DrawRatio: 40.00 %, PairsRatio: 2.00"
        );
        assert_eq!(
            lines[4],
            "Games: 10, Wins: 4, Losses: 3, Draws: 3, Points: 5.5 (55.00 %)"
        );
        assert_eq!(lines[5], "Ptnml(0-2): [1, 0, 2, 1, 1], WL/DD Ratio: 1.00");
        // Over the pairs, by hand: 5 × 0.0072 × (1.1 − 1.0072) / (2 × 0.11) = 0.015.
        assert_eq!(lines[6], "LLR: 0.02 (0.5%) (-2.94, 2.94) [0.00, 5.00]");
        assert_eq!(lines[7], RULE);
        let none = results_block(&matchup(), &Tally::default(), &Pentanomial::default(), None);
        assert!(none.contains("Elo: nan +/- nan"), "{none}");
        assert!(!none.contains("LLR"));
    }

    #[test]
    fn progress_and_end_lines() {
        assert_eq!(
            started_line(3, 10, "A", "B"),
            "Started game 3 of 10 (A vs B)"
        );
        assert_eq!(
            finished_line(3, "B", "A", "0-1", "Black mates"),
            "Finished game 3 (B vs A): 0-1 {Black mates}"
        );
        let sprt = Sprt {
            elo0: -1.5,
            elo1: 3.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(
            termination_line(Some(&sprt), Some(SprtState::AcceptH0)),
            "SPRT ([-1.50, 3.00]) completed - H0 was accepted"
        );
        assert_eq!(
            termination_line(Some(&sprt), Some(SprtState::Continue)),
            "Tournament finished"
        );
        assert_eq!(termination_line(None, None), "Tournament finished");
        assert_eq!(fixed(-0.0, 2), "0.00");
        assert_eq!(fixed(f64::INFINITY, 2), "inf");
    }
}
