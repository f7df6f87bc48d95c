//! A match between two engines: games shared among worker threads, each
//! finished game written to the PGN at once, a running score, and the table at
//! the end; or, with `--output fastchess`, fastchess's progress lines and
//! results blocks, counting the two games of each opening as a pair.

use catena_core::game::Variant;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use super::arbiter::{self, Offence, Played, color_of};
use super::engine::{EngineProcess, EngineSlot};
use super::fastchess_output::{self as fastchess, Matchup};
use super::live::Live;
use super::standings::{MatchSettings, OutputFormat, Standings};
use super::stats::{Pentanomial, SprtState};
use crate::cli::{Failure, FailureKind};
use crate::tools::progress::Progress;
use catena_core::game::Player;
use catena_core::game::pgn::{self, GameRecord};

/// Plays the match, printing as it goes, and returns the final standings.
/// A file it cannot write is bad input; an engine that does not start fails
/// the match at run time.
pub fn run(settings: &MatchSettings) -> Result<Standings, Failure> {
    let pgn_file = match &settings.pgn {
        Some(path) => Some(open_pgn(path, settings.pgn_append).or_usage()?),
        None => None,
    };
    // A wrong command or a broken engine is better said at once than as a
    // forfeit in every game.
    let matchup = start_engines(settings).or_runtime()?;
    // Written once the engines run, so that a follower sees no match that
    // never started.
    let live = settings
        .live
        .as_deref()
        .map(|path| Live::new(path, settings))
        .transpose()
        .or_usage()?;
    let [first, second] = &settings.engines;
    println!(
        "Match {} vs {}: {} games at {}, {}, concurrency {}",
        first.name,
        second.name,
        settings.games,
        settings.game.time_control,
        match settings.game.variant {
            Variant::Sscc(rules) => format!("SSCC ({rules})"),
            Variant::Chess => "chess".to_string(),
        },
        settings.concurrency
    );
    let pgn_file = Mutex::new(pgn_file);
    let standings = Mutex::new(Standings::default());
    let progress = Progress::new(settings.games.into(), "games");
    let next_game = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let date = today();
    let live = live.as_ref();
    thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1) {
            scope.spawn(|| {
                let mut slots = settings
                    .engines
                    .clone()
                    .map(|spec| EngineSlot::new(spec, settings.game.variant));
                loop {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let opening =
                        &settings.openings[(index as usize / 2) % settings.openings.len()];
                    // Even games: the first engine starts with White.
                    let first_starts_white = index.is_multiple_of(2);
                    let [a, b] = &mut slots;
                    let mut seats = if first_starts_white { [a, b] } else { [b, a] };
                    if settings.output == OutputFormat::Fastchess {
                        let [white, black] = seats.each_ref().map(|seat| seat.name());
                        println!(
                            "{}",
                            fastchess::started_line(index + 1, settings.games, white, black)
                        );
                    }
                    let names = seats.each_ref().map(|seat| seat.name().to_string());
                    let played =
                        arbiter::play_watched(&mut seats, opening, &settings.game, &mut |game| {
                            if let Some(live) = live {
                                live.moved(index, [&names[0], &names[1]], game);
                            }
                        });
                    let record = record(settings, &played, index, first_starts_white, &date);
                    let mut standings = standings
                        .lock()
                        .unwrap_or_else(|poison| poison.into_inner());
                    progress.suspend(|| {
                        report(
                            settings,
                            &matchup,
                            &mut standings,
                            &played,
                            &record,
                            index,
                            first_starts_white,
                        )
                    });
                    if let Some(live) = live {
                        live.ended(index, &record, &standings, settings);
                    }
                    progress.advance(summary(settings, &standings));
                    let text = pgn::write(&record);
                    let mut pgn_file = pgn_file.lock().unwrap_or_else(|poison| poison.into_inner());
                    if let Some(file) = pgn_file.as_mut() {
                        write_game(file, &text, settings);
                    }
                    if settings.print_games {
                        progress.suspend(|| print!("{text}"));
                    }
                    if standings
                        .sprt
                        .is_some_and(|state| state != SprtState::Continue)
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                    drop((pgn_file, standings));
                    for (slot, restart) in slots.iter_mut().zip(settings.restart) {
                        if restart {
                            slot.restart();
                        }
                    }
                }
            });
        }
    });
    drop(progress);
    if let Some(live) = live {
        live.finished();
    }
    let standings = standings
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    match settings.output {
        OutputFormat::Cutechess => print_table(settings, &standings, true),
        OutputFormat::Fastchess => {
            print_table(settings, &standings, false);
            print_fastchess_end(settings, &matchup, &standings);
        }
    }
    Ok(standings)
}

/// Starts each engine once, to stop the match at once if one cannot play,
/// and reads the options the fastchess results block shows.
fn start_engines(settings: &MatchSettings) -> Result<Matchup, String> {
    let mut matchup = Matchup {
        names: settings.engines.clone().map(|spec| spec.name),
        time_control: fastchess::time_control(&settings.game.time_control),
        book: settings.book.clone(),
        ..Matchup::default()
    };
    for (index, spec) in settings.engines.iter().enumerate() {
        let engine = EngineProcess::start(spec, settings.game.variant)
            .map_err(|error| format!("engine '{}' does not start: {error}", spec.name))?;
        matchup.threads[index] = engine.option("Threads").map(str::to_string);
        matchup.hash[index] = engine.option("Hash").map(str::to_string);
    }
    Ok(matchup)
}

/// The PGN file, appended to or emptied first.
fn open_pgn(path: &std::path::Path, append: bool) -> Result<File, String> {
    let mut options = OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options
        .open(path)
        .map_err(|error| format!("cannot open {}: {error}", path.display()))
}

/// fastchess's block of results so far.
fn print_results_block(settings: &MatchSettings, matchup: &Matchup, standings: &Standings) {
    let block = fastchess::results_block(
        matchup,
        &standings.tally,
        &standings.pairs,
        settings.sprt.as_ref(),
    );
    println!("{block}");
}

/// The last results block, how the match ended, and `Finished match`.
fn print_fastchess_end(settings: &MatchSettings, matchup: &Matchup, standings: &Standings) {
    print_results_block(settings, matchup, standings);
    println!(
        "{}",
        fastchess::termination_line(settings.sprt.as_ref(), standings.sprt)
    );
    println!("Finished match");
}

fn write_game(file: &mut File, text: &str, settings: &MatchSettings) {
    if let Err(error) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
        let path = settings.pgn.as_deref().unwrap_or_else(|| "?".as_ref());
        log::error!("cannot write to {}: {error}", path.display());
    }
}

/// The game's PGN record with the match's tags.
fn record(
    settings: &MatchSettings,
    played: &Played,
    index: u32,
    first_starts_white: bool,
    date: &str,
) -> GameRecord {
    let [first, second] = &settings.engines;
    let (white, black) = if first_starts_white {
        (first, second)
    } else {
        (second, first)
    };
    let mut record = GameRecord::new(played.game.clone());
    record.set_variant(settings.game.variant);
    record.result = played.result;
    record.comment = Some(played.ending.comment(played.result));
    for (tag, value) in [
        ("Event", settings.event.as_str()),
        ("Site", settings.site.as_str()),
        ("Date", date),
        ("Round", &(index + 1).to_string()),
        ("White", &white.name),
        ("Black", &black.name),
        ("TimeControl", &settings.game.time_control.to_string()),
        ("Termination", played.ending.termination_tag()),
        ("PlyCount", &played.game.plies().len().to_string()),
    ] {
        record.set_tag(tag, value);
    }
    record
}

/// Counts the game in and prints its progress lines.
fn report(
    settings: &MatchSettings,
    matchup: &Matchup,
    standings: &mut Standings,
    played: &Played,
    record: &GameRecord,
    index: u32,
    first_starts_white: bool,
) {
    let first_player = if first_starts_white {
        Player::StartedWhite
    } else {
        Player::StartedBlack
    };
    let first_points = played
        .result
        .score_of(color_of(&played.game, first_player))
        .expect("the arbiter decides every game");
    let switches = count(standings, played, first_player, first_points);
    let pair_completed = standings.count_pair(index, first_points);
    if let Some(sprt) = settings.sprt {
        standings.sprt = Some(sprt.update(standings.sprt, &standings.pairs));
    }
    let white = record.tag("White").unwrap_or("?");
    let black = record.tag("Black").unwrap_or("?");
    let comment = played.ending.comment(played.result);
    match settings.output {
        OutputFormat::Cutechess => {
            let [first, second] = &settings.engines;
            let verdict = match first_points {
                1.0 => format!("{} wins", first.name),
                0.0 => format!("{} wins", second.name),
                _ => "draw".to_string(),
            };
            println!(
                "Finished game {} ({white} vs {black}): {} {{{comment}}}, {switches} switches, {verdict}",
                index + 1,
                played.result,
            );
            print_score(settings, standings);
        }
        OutputFormat::Fastchess => {
            let result = played.result.to_string();
            println!(
                "{}",
                fastchess::finished_line(index + 1, white, black, &result, &comment)
            );
            if pair_completed && interval_due(settings, standings) {
                print_results_block(settings, matchup, standings);
            }
        }
    }
}

/// Where the match stands, for the progress bar: score, Elo and the SPRT's LLR.
fn summary(settings: &MatchSettings, standings: &Standings) -> String {
    let tally = standings.tally;
    let mut text = format!("score {:.1}%", tally.score() * 100.0);
    if let Some((elo, margin)) = tally.elo().filter(|(_, margin)| margin.is_finite()) {
        text.push_str(&format!(", Elo {elo:+.1} ± {margin:.1}"));
    }
    if let Some(sprt) = settings.sprt {
        text.push_str(&format!(", LLR {:.2}", sprt.llr(&standings.pairs)));
    }
    text
}

/// Counts the game's points, switches and forfeit; returns its switches.
fn count(
    standings: &mut Standings,
    played: &Played,
    first_player: Player,
    first_points: f64,
) -> u32 {
    standings.tally.add(first_points);
    let switches = played
        .game
        .plies()
        .iter()
        .filter(|ply| ply.switched)
        .count() as u32;
    standings.switches += switches;
    if let Some((player, offence)) = played.ending.forfeit() {
        let forfeits = &mut standings.forfeits[usize::from(player != first_player)];
        match offence {
            Offence::Time => forfeits.time += 1,
            Offence::IllegalMove(_) | Offence::Unreadable(_) | Offence::IllegalSwitch(_) => {
                forfeits.illegal += 1
            }
            Offence::Disconnected(_) => forfeits.disconnects += 1,
        }
    }
    switches
}

/// `Score of A vs B: W - L - D  [score] games`, and the SPRT's state.
fn print_score(settings: &MatchSettings, standings: &Standings) {
    let [first, second] = &settings.engines;
    let tally = standings.tally;
    println!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        first.name,
        second.name,
        tally.wins,
        tally.losses,
        tally.draws,
        tally.score(),
        tally.games()
    );
    if let (Some(sprt), Some(state)) = (settings.sprt, standings.sprt) {
        println!("{}", sprt.report(&standings.pairs, state));
    }
}

/// Whether a pair just completed calls for a results block: every
/// `rating_interval` pairs, while games are still to come (the last block
/// is printed once they have all ended).
fn interval_due(settings: &MatchSettings, standings: &Standings) -> bool {
    let interval = settings.rating_interval;
    let more_to_come = standings.tally.games() < settings.games
        && standings
            .sprt
            .is_none_or(|state| state == SprtState::Continue);
    interval > 0 && standings.pairs.pairs().is_multiple_of(interval) && more_to_come
}

/// The table of both engines, and with `with_sprt` the test's last state.
fn print_table(settings: &MatchSettings, standings: &Standings, with_sprt: bool) {
    println!();
    println!(
        "{:<20} {:>5} {:>4} {:>4} {:>4} {:>6} {:>8} {:>7} {:>6} {:>5} {:>7} {:>10}",
        "Engine",
        "Games",
        "W",
        "D",
        "L",
        "Score",
        "Elo",
        "+/-",
        "LOS",
        "Time",
        "Illegal",
        "Disconnect"
    );
    let tallies = [standings.tally, standings.tally.reversed()];
    for (index, spec) in settings.engines.iter().enumerate() {
        let tally = tallies[index];
        let (elo, margin) = match tally.elo() {
            Some((elo, margin)) if margin.is_finite() => {
                (format!("{elo:+.1}"), format!("{margin:.1}"))
            }
            // Near a clean sweep the interval runs past a score of 100%:
            // no finite error bars (and no finite estimate at 100%).
            Some((elo, _)) => (format!("{elo:+.1}"), "-".to_string()),
            None => ("-".to_string(), "-".to_string()),
        };
        let los = tally
            .los()
            .map_or("-".to_string(), |los| format!("{:.1}%", los * 100.0));
        let score = if tally.games() == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", tally.score() * 100.0)
        };
        let forfeits = standings.forfeits[index];
        println!(
            "{:<20} {:>5} {:>4} {:>4} {:>4} {:>6} {:>8} {:>7} {:>6} {:>5} {:>7} {:>10}",
            spec.name,
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            score,
            elo,
            margin,
            los,
            forfeits.time,
            forfeits.illegal,
            forfeits.disconnects
        );
    }
    println!(
        "{} games, {} switches",
        standings.tally.games(),
        standings.switches
    );
    println!("{}", pairs_line(&standings.pairs));
    if let (Some(sprt), true) = (settings.sprt, with_sprt) {
        let state = standings.sprt.unwrap_or(SprtState::Continue);
        println!("{} ({sprt})", sprt.report(&standings.pairs, state));
    }
}

/// `100 pairs, Ptnml(0-2) [1, 2, 90, 3, 4], Elo +10.4 ± 9.5, LOS 98.4%`:
/// the first engine's figures from the pairs of games, which the SPRT uses
/// too; the table's come from the games one by one, as cutechess-cli's do.
fn pairs_line(pairs: &Pentanomial) -> String {
    let counts = pairs.counts_list();
    let elo = match pairs.elo() {
        Some((elo, margin)) if margin.is_finite() => format!("Elo {elo:+.1} ± {margin:.1}"),
        Some((elo, _)) if elo.is_finite() => format!("Elo {elo:+.1}"),
        _ => "Elo -".to_string(),
    };
    let los = pairs
        .los()
        .map_or("-".to_string(), |los| format!("{:.1}%", los * 100.0));
    format!(
        "{} pairs, Ptnml(0-2) [{counts}], {elo}, LOS {los}",
        pairs.pairs()
    )
}

/// Today's date as PGN writes it, `2026.11.23` (UTC).
pub fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_780), (2026, 11, 23));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
