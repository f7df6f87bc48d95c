//! A match between two engines: games shared among worker threads, each
//! finished game written to the PGN at once, a running score, and the table at
//! the end.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use super::EngineSpec;
use super::arbiter::{self, GameSettings, Offence, Played, color_of};
use super::engine::{Engine, EngineSlot};
use super::openings::Opening;
use super::stats::{Sprt, SprtState, Tally};
use crate::game::Player;
use crate::game::pgn::{self, GameRecord};
use crate::search::Variant;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The first engine and the second; scores are the first's.
    pub engines: [EngineSpec; 2],
    pub games: u32,
    /// Each opening is played twice, colours reversed, in order, from the
    /// first again when they run out.
    pub openings: Vec<Opening>,
    pub game: GameSettings,
    pub concurrency: usize,
    /// The file each finished game is appended to.
    pub pgn: Option<PathBuf>,
    /// Whether each finished game's PGN is printed too.
    pub print_games: bool,
    pub sprt: Option<Sprt>,
    pub event: String,
}

/// Forfeits of one engine, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forfeits {
    pub time: u32,
    /// Illegal or unreadable moves and illegal switches.
    pub illegal: u32,
    /// Failures to start, crashes and exits.
    pub disconnects: u32,
}

/// The state of a match, shared by its workers.
#[derive(Debug, Default)]
pub struct Standings {
    /// From the first engine's side.
    pub tally: Tally,
    pub forfeits: [Forfeits; 2],
    pub switches: u32,
    pub sprt: Option<SprtState>,
}

/// Plays the match, printing as it goes, and returns the final standings.
pub fn run(settings: &MatchSettings) -> Result<Standings, String> {
    // A wrong command or a broken engine is better said at once than as a
    // forfeit in every game.
    for spec in &settings.engines {
        Engine::start(spec, settings.game.variant)
            .map_err(|error| format!("engine '{}' does not start: {error}", spec.name))?;
    }
    let pgn_file = match &settings.pgn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|error| format!("cannot open {}: {error}", path.display()))?,
        ),
        None => None,
    };
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
    let next_game = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let date = today();
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
                    let played = arbiter::play(&mut seats, opening, &settings.game);
                    let record = record(settings, &played, index, first_starts_white, &date);
                    let mut standings = standings
                        .lock()
                        .unwrap_or_else(|poison| poison.into_inner());
                    report(
                        settings,
                        &mut standings,
                        &played,
                        &record,
                        index,
                        first_starts_white,
                    );
                    let text = pgn::write(&record);
                    let mut pgn_file = pgn_file.lock().unwrap_or_else(|poison| poison.into_inner());
                    if let Some(file) = pgn_file.as_mut() {
                        write_game(file, &text, settings);
                    }
                    if settings.print_games {
                        print!("{text}");
                    }
                    if standings
                        .sprt
                        .is_some_and(|state| state != SprtState::Continue)
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let standings = standings
        .into_inner()
        .unwrap_or_else(|poison| poison.into_inner());
    print_table(settings, &standings);
    Ok(standings)
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
    record.sscc = matches!(settings.game.variant, Variant::Sscc(_));
    record.result = played.result;
    record.comment = Some(played.ending.comment(played.result));
    for (tag, value) in [
        ("Event", settings.event.as_str()),
        ("Site", "?"),
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
    standings: &mut Standings,
    played: &Played,
    record: &GameRecord,
    index: u32,
    first_starts_white: bool,
) {
    let [first, second] = &settings.engines;
    let first_player = if first_starts_white {
        Player::StartedWhite
    } else {
        Player::StartedBlack
    };
    let first_points = played
        .result
        .score_of(color_of(&played.game, first_player))
        .expect("the arbiter decides every game");
    standings.tally.add(first_points);
    let switches = played
        .game
        .plies()
        .iter()
        .filter(|ply| ply.switched)
        .count();
    standings.switches += switches as u32;
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
    let verdict = match first_points {
        1.0 => format!("{} wins", first.name),
        0.0 => format!("{} wins", second.name),
        _ => "draw".to_string(),
    };
    println!(
        "Finished game {} ({} vs {}): {} {{{}}}, {} switches, {}",
        index + 1,
        record.tag("White").unwrap_or("?"),
        record.tag("Black").unwrap_or("?"),
        played.result,
        played.ending.comment(played.result),
        switches,
        verdict
    );
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
    if let Some(sprt) = settings.sprt {
        let state = sprt.update(standings.sprt, &tally);
        standings.sprt = Some(state);
        println!("{}", sprt.report(&tally, state));
    }
}

fn print_table(settings: &MatchSettings, standings: &Standings) {
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
    if let Some(sprt) = settings.sprt {
        let state = standings.sprt.unwrap_or(SprtState::Continue);
        println!("{} ({sprt})", sprt.report(&standings.tally, state));
    }
}

/// Today's date as PGN writes it, `2026.11.23` (UTC).
fn today() -> String {
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
