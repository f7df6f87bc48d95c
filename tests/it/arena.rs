//! `catena match`, run as a user runs it: real matches between Catena
//! configurations and against faulty engines (`tests/fake_engines/faulty.sh`),
//! every PGN replayed here independently of the arbiter: each move must be
//! one legal move's SAN, each `{switch}` must follow a move that closes a
//! chain by the brute-force oracle of `tests/it/common/oracle.rs` and stay within
//! the run's limit, game ends and results must be right, and the table's
//! scores must add up from the records.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::generators::cells_of;
use crate::common::oracle::{OGrid, Options, oracle};
use crate::common::scratch::ScratchDir;
use catena_core::board::{Bitboard, Color, Piece, Position, san};

const CATENA: &str = env!("CARGO_BIN_EXE_catena");

/// An engine list of `(name, command, depth)` entries.
pub(crate) fn engine_list(dir: &Path, engines: &[(&str, String, u32)]) -> PathBuf {
    let entries: Vec<String> = engines
        .iter()
        .map(|(name, command, depth)| {
            format!(
                r#"{{"name": "{name}", "command": {command:?}, "workingDirectory": ".", "protocol": "uci", "depth": {depth}}}"#
            )
        })
        .collect();
    let path = dir.join("engines.json");
    std::fs::write(&path, format!("[{}]", entries.join(",\n"))).unwrap();
    path
}

pub(crate) fn catena_command() -> String {
    format!("\"{CATENA}\"")
}

fn faulty_command(mode: &str, n: u32) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engines/faulty.sh");
    format!("sh \"{script}\" {mode} {n} \"{CATENA}\"")
}

/// Plays a match of the engines of `engines` (a list file) with `args`,
/// writing the games to a fresh PGN in `dir`.
pub(crate) fn play_to_pgn(dir: &Path, engines: &Path, args: &[&str]) -> (Output, PathBuf) {
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut all = vec![
        "--engines",
        engines.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    all.extend(args);
    (run_match(&all), pgn)
}

pub(crate) fn run_match(args: &[&str]) -> Output {
    Command::new(CATENA)
        .arg("match")
        .args(args)
        .output()
        .expect("catena runs")
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// One row of the final table: games, wins, draws, losses, time losses,
/// illegal moves, disconnects.
pub(crate) fn table_row(text: &str, name: &str) -> [u32; 7] {
    let line = text
        .lines()
        .rev()
        .find(|line| line.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no table row for {name} in\n{text}"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    let number = |index: usize| fields[index].parse().unwrap();
    [
        number(1),
        number(2),
        number(3),
        number(4),
        number(9),
        number(10),
        number(11),
    ]
}

/// A game as replayed here.
#[derive(Debug)]
pub(crate) struct Replayed {
    pub(crate) tags: HashMap<String, String>,
    /// The moves in SAN.
    pub(crate) moves: Vec<String>,
    pub(crate) plies: usize,
    pub(crate) switches: usize,
    /// Who made each switch, in order.
    pub(crate) switchers: Vec<String>,
    /// The comment after the last move: how the game ended.
    pub(crate) comment: String,
    pub(crate) result: String,
    /// Who controls each colour at the end, by the switches counted here.
    pub(crate) white_at_end: String,
    pub(crate) black_at_end: String,
    /// How the board says the game ended, if it did.
    pub(crate) board_ending: Option<&'static str>,
}

impl Replayed {
    pub(crate) fn tag(&self, name: &str) -> &str {
        self.tags.get(name).map_or("", String::as_str)
    }

    /// The points the named engine scored.
    pub(crate) fn points_of(&self, name: &str) -> f64 {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => panic!("result {other}"),
        };
        if self.white_at_end == name {
            white
        } else {
            assert_eq!(self.black_at_end, name);
            1.0 - white
        }
    }
}

/// The games of a PGN text, each replayed with the checks above (rule
/// `chain`, MinEnclosed 2).
fn replay_all(text: &str) -> Vec<Replayed> {
    let mut games = Vec::new();
    let mut tags = HashMap::new();
    let mut movetext = String::new();
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            if !movetext.trim().is_empty() {
                games.push(replay(std::mem::take(&mut tags), &movetext));
                movetext.clear();
            }
            let (name, value) = tag.split_once(' ').unwrap();
            let value = value.trim_end_matches(']').trim_matches('"');
            tags.insert(name.to_string(), value.to_string());
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !movetext.trim().is_empty() {
        games.push(replay(tags, &movetext));
    }
    games
}

/// Movetext as SAN moves, comments (as `{…}`) and the result.
fn tokens(movetext: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut rest = movetext;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return tokens;
        }
        let end = if rest.starts_with('{') {
            rest.find('}').unwrap() + 1
        } else {
            rest.find(char::is_whitespace).unwrap_or(rest.len())
        };
        let token = &rest[..end];
        rest = &rest[end..];
        let move_number = token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit());
        if !move_number {
            tokens.push(token.to_string());
        }
    }
}

/// The position as repetition sees it: the first four FEN fields.
fn repetition_key(position: &Position) -> String {
    let fen = position.to_fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

fn replay(tags: HashMap<String, String>, movetext: &str) -> Replayed {
    let round = tags.get("Round").cloned().unwrap_or_default();
    let fail = |why: String| -> ! { panic!("game {round}: {why}\n{movetext}") };
    let mut position = match tags.get("FEN") {
        Some(fen) => Position::from_fen(fen).unwrap(),
        None => Position::startpos(),
    };
    let mut seen: HashMap<String, u32> = HashMap::from([(repetition_key(&position), 1)]);
    let mut white = tags["White"].clone();
    let mut black = tags["Black"].clone();
    let (mut run_switches, mut run_limit) = (0u32, 0u32);
    let mut moves = Vec::new();
    let mut switches = 0;
    let mut switchers = Vec::new();
    let mut comment = String::new();
    let mut result = String::new();
    let tokens = tokens(movetext);
    for (index, token) in tokens.iter().enumerate() {
        let previous = index.checked_sub(1).map(|i| tokens[i].as_str());
        if token == "{switch}" {
            if previous.is_none_or(|previous| previous.starts_with('{')) {
                fail("{switch} without a move before it".to_string());
            }
            continue;
        }
        if let Some(text) = token.strip_prefix('{') {
            comment = text.trim_end_matches('}').to_string();
            continue;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token.as_str()) {
            result = token.clone();
            continue;
        }
        let occurrences = seen[&repetition_key(&position)];
        if let Some(ending) = board_ending(&position, occurrences) {
            fail(format!("{token} after the game ended by {ending}"));
        }
        let matching: Vec<_> = position
            .legal_moves()
            .into_iter()
            .filter(|&mv| san::format(&position, mv) == *token)
            .collect();
        let [mv] = matching[..] else {
            fail(format!(
                "{token} is not the SAN of exactly one legal move in {}",
                position.to_fen()
            ))
        };
        let after = position.after(mv);
        if tokens.get(index + 1).is_some_and(|next| next == "{switch}") {
            let options = Options {
                budget: u64::MAX,
                ..Options::default()
            };
            let (verdicts, _) = oracle(
                &OGrid::from_u64(after.occupied().0),
                &cells_of(position.landing_squares(mv)),
                &[2],
                options,
            )
            .expect("an unlimited oracle answers");
            if !verdicts[0].chain {
                fail(format!(
                    "{{switch}} after {token}, which closes no chain (oracle)"
                ));
            }
            // Rule chain: the run's first chain sets how many switches it may hold.
            if run_switches == 0 {
                run_limit = verdicts[0].size;
            } else if run_switches >= run_limit {
                fail(format!(
                    "{{switch}} after {token}: switch {} in a row, over the limit {run_limit}",
                    run_switches + 1
                ));
            }
            run_switches += 1;
            switches += 1;
            switchers.push(match position.side_to_move() {
                Color::White => white.clone(),
                Color::Black => black.clone(),
            });
            std::mem::swap(&mut white, &mut black);
        } else {
            run_switches = 0;
        }
        position = after;
        *seen.entry(repetition_key(&position)).or_default() += 1;
        moves.push(token.clone());
    }
    let occurrences = seen[&repetition_key(&position)];
    Replayed {
        plies: moves.len(),
        moves,
        switches,
        switchers,
        comment,
        result,
        white_at_end: white,
        black_at_end: black,
        board_ending: board_ending(&position, occurrences),
        tags,
    }
}

/// How the board ends the game (docs/rules.md, section 1), written here from the rules.
fn board_ending(position: &Position, occurrences: u32) -> Option<&'static str> {
    if position.legal_moves().is_empty() {
        return Some(if position.in_check() {
            "checkmate"
        } else {
            "stalemate"
        });
    }
    if position.halfmove_clock() >= 100 {
        return Some("fifty moves");
    }
    if occurrences >= 3 {
        return Some("repetition");
    }
    let kings = position.pieces(Piece::King);
    let rest = position.occupied() - kings;
    let bishops = position.pieces(Piece::Bishop);
    let minors = bishops | position.pieces(Piece::Knight);
    let one_bishop_each = rest == bishops
        && (bishops & position.colored(Color::White)).len() == 1
        && (bishops & position.colored(Color::Black)).len() == 1;
    let dark = Bitboard(0x55AA_55AA_55AA_55AA);
    let same_colour_bishops =
        one_bishop_each && ((bishops & dark).is_empty() || (bishops - dark).is_empty());
    let dead =
        rest.is_empty() || (rest.len() == 1 && rest == (rest & minors)) || same_colour_bishops;
    dead.then_some("dead position")
}

/// Checks what every record of a match must satisfy, and that the table adds
/// up; returns the games.
pub(crate) fn check_match(
    output: &Output,
    pgn: &Path,
    names: [&str; 2],
    games: usize,
) -> Vec<Replayed> {
    let text = stdout(output);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let replayed = replay_all(&std::fs::read_to_string(pgn).unwrap());
    assert_eq!(replayed.len(), games, "{text}");
    assert_eq!(text.matches("Finished game").count(), games);
    let mut points = [0.0; 2];
    for game in &replayed {
        if game.tags.contains_key("SSCC") {
            assert_eq!(game.tag("WhiteAtEnd"), game.white_at_end, "{game:?}");
            assert_eq!(game.tag("BlackAtEnd"), game.black_at_end, "{game:?}");
        } else {
            assert!(!game.tags.contains_key("WhiteAtEnd") && game.switches == 0);
        }
        assert_eq!(game.tag("Result"), game.result);
        assert_eq!(game.tag("PlyCount"), game.plies.to_string());
        let winner_by_colour = match game.result.as_str() {
            "1-0" => "White",
            "0-1" => "Black",
            _ => "nobody",
        };
        match game.board_ending {
            Some("checkmate") => {
                assert_eq!(game.comment, format!("{winner_by_colour} mates"));
                assert_eq!(game.tag("Termination"), "normal");
            }
            Some(ending) => {
                assert_eq!(game.result, "1/2-1/2", "{ending}: {game:?}");
                assert!(game.comment.starts_with("Draw by"), "{ending}: {game:?}");
                assert_eq!(game.tag("Termination"), "normal");
            }
            None => assert_ne!(game.tag("Termination"), "normal", "{game:?}"),
        }
        for (slot, name) in names.iter().enumerate() {
            points[slot] += game.points_of(name);
        }
    }
    for (slot, name) in names.iter().enumerate() {
        let [played, wins, draws, _, _, _, _] = table_row(&text, name);
        assert_eq!(played as usize, games);
        assert_eq!(
            f64::from(wins) + f64::from(draws) / 2.0,
            points[slot],
            "{name}\n{text}"
        );
    }
    replayed
}

#[test]
fn catena_configurations_play_sscc_with_switches_that_replay_correctly() {
    let dir = ScratchDir::new("match-catena");
    let engines = engine_list(
        &dir,
        &[
            ("Catena-d1", catena_command(), 1),
            ("Catena-d2", catena_command(), 2),
        ],
    );
    // Ten two-move openings, each played twice: 20 games.
    let openings = dir.join("openings.pgn");
    let starts = [
        "e4 e5", "d4 d5", "c4 e5", "Nf3 d5", "c3 e5", "e4 c5", "d4 Nf6", "g3 g6", "b3 e5", "f4 d5",
    ];
    let text: String = starts
        .iter()
        .map(|moves| format!("1. {moves} *\n\n"))
        .collect();
    std::fs::write(&openings, text).unwrap();
    let (output, pgn) = play_to_pgn(
        &dir,
        &engines,
        &[
            "--games",
            "20",
            "--tc",
            "10+0.1",
            "--concurrency",
            "2",
            "--max-moves",
            "60",
            "--openings",
            openings.to_str().unwrap(),
        ],
    );
    let games = check_match(&output, &pgn, ["Catena-d1", "Catena-d2"], 20);
    let with_switches = games.iter().filter(|game| game.switches > 0).count();
    let switches: usize = games.iter().map(|game| game.switches).sum();
    assert!(with_switches >= 10, "{with_switches} games with switches");
    assert!(
        games
            .iter()
            .any(|game| game.white_at_end != game.tag("White"))
    );
    eprintln!("20 games, {switches} switches in {with_switches} games");
    for game in &games {
        assert!(game.tag("SSCC") == "SwitchRule=chain;MinEnclosed=2");
        if game.board_ending.is_none() {
            assert_eq!(game.comment, "Draw by adjudication: move limit");
            assert!(game.plies >= 120, "{game:?}");
        }
    }
    // The pairs line under the table counts the pairs of the records.
    let text = stdout(&output);
    let pairs = block_line(&text, "10 pairs, Ptnml(0-2) [");
    let listed = pairs.trim_start_matches("10 pairs, Ptnml(0-2) ");
    assert_eq!(
        numbers_of(listed)[..5],
        pentanomial_of(&games, "Catena-d1"),
        "{pairs}"
    );
    // Each opening is played once from either side.
    let mut by_round: Vec<_> = games.iter().collect();
    by_round.sort_by_key(|game| game.tag("Round").parse::<u32>().unwrap());
    for pair in by_round.chunks(2) {
        assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
        assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
    }
}

/// An entry that sets `UCI_Variant chess` keeps it: that engine never
/// switches in an SSCC match, while its opponent does.
#[test]
fn an_engine_told_to_play_chess_never_switches() {
    let dir = ScratchDir::new("match-chess-entry");
    let engines = dir.join("engines.json");
    std::fs::write(
        &engines,
        format!(
            r#"[{{"name": "sscc", "command": {catena:?}, "workingDirectory": ".", "protocol": "uci", "depth": 2}},
                {{"name": "chess", "command": {catena:?}, "workingDirectory": ".", "protocol": "uci", "depth": 2,
                  "options": [{{"name": "UCI_Variant", "value": "chess"}}]}}]"#,
            catena = catena_command()
        ),
    )
    .unwrap();
    let (output, pgn) = play_to_pgn(
        &dir,
        &engines,
        &["--games", "4", "--tc", "10+0.1", "--max-moves", "60"],
    );
    let games = check_match(&output, &pgn, ["sscc", "chess"], 4);
    let switchers: Vec<&String> = games.iter().flat_map(|game| &game.switchers).collect();
    assert!(!switchers.is_empty(), "nobody switched");
    assert!(
        switchers.iter().all(|name| *name == "sscc"),
        "{switchers:?}"
    );
}

/// The replay above must be able to fail: records with a switch after a move
/// that closes no chain, a run over its limit, an illegal move.
#[test]
fn the_independent_replay_refuses_bad_records() {
    let record = |movetext: &str| {
        format!("[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{movetext} *\n")
    };
    let good = replay_all(&record("1. c3 e5 2. d3 {switch} 2... Nf6 {Unfinished}"));
    assert_eq!((good[0].switches, good[0].white_at_end.as_str()), (1, "B"));
    for (movetext, why) in [
        ("1. e4 {switch} e5", "closes no chain"),
        ("1. c3 e5 2. Ke2", "not the SAN"),
        ("{switch} 1. e4", "without a move"),
        // 2.d3 closes a chain of size 2: a run of at most two switches.
        (
            "1. c3 e5 2. d3 {switch} 2... Ba3 {switch} 3. Nf3 {switch} 3... Nc6",
            "over the limit",
        ),
        (
            "1. f3 e5 2. g4 Qh4# 3. a3",
            "after the game ended by checkmate",
        ),
    ] {
        let text = record(movetext);
        let panic = std::panic::catch_unwind(|| replay_all(&text)).expect_err(movetext);
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains(why), "{movetext}: {message}");
    }
}

/// Two games of the faulty engine in `mode` (its fault at its `n`th `go`)
/// against Catena: it must lose both, each with `comment` after its colour and
/// the PGN tag `termination`, and the fault must be counted in table column
/// `column` (4 time, 5 illegal, 6 disconnect). Returns the games.
fn faulty_match(
    name: &str,
    mode: &str,
    n: u32,
    comment: &str,
    termination: &str,
    column: usize,
) -> Vec<Replayed> {
    let dir = ScratchDir::new(&format!("match-{name}"));
    let engines = engine_list(
        &dir,
        &[
            ("Faulty", faulty_command(mode, n), 1),
            ("Catena-d1", catena_command(), 1),
        ],
    );
    let (output, pgn) = play_to_pgn(&dir, &engines, &["--games", "2", "--tc", "1+0.01"]);
    let games = check_match(&output, &pgn, ["Faulty", "Catena-d1"], 2);
    for game in &games {
        let colour = if game.white_at_end == "Faulty" {
            "White"
        } else {
            "Black"
        };
        assert!(
            game.comment.starts_with(&format!("{colour} {comment}")),
            "{game:?}"
        );
        assert_eq!(game.points_of("Faulty"), 0.0, "{game:?}");
        assert_eq!(game.tag("Termination"), termination);
    }
    let row = table_row(&stdout(&output), "Faulty");
    assert_eq!(row[3], 2, "two losses");
    assert_eq!(row[column], 2, "two faults in column {column}: {row:?}");
    games
}

/// Before its fault at its `n`th `go` the engine played, in both games: it
/// was restarted after the first. Its `n - 1` moves and at least one of
/// Catena's make at least `n` plies (fewer only if its first move could
/// switch, which no first move can), however the two switch on the way; an
/// engine not restarted would fail at once in the second game.
fn assert_played_before_the_fault(games: &[Replayed], n: usize) {
    for game in games {
        assert!(game.plies >= n, "{game:?}");
    }
}

#[test]
fn an_engine_that_crashes_loses_and_is_restarted() {
    let games = faulty_match(
        "crash",
        "crash",
        3,
        "disconnects: the engine was killed by signal 9",
        "abandoned",
        6,
    );
    assert_played_before_the_fault(&games, 3);
}

/// The engine process ends while a child it forked holds its output open:
/// the arbiter sees the process gone and scores a disconnect at once, where
/// it used to wait for the output to close and score a loss on time.
#[test]
fn an_engine_that_dies_while_a_child_holds_its_output_disconnects() {
    let games = faulty_match(
        "orphan",
        "orphan",
        3,
        "disconnects: the engine was killed by signal 9",
        "abandoned",
        6,
    );
    assert_played_before_the_fault(&games, 3);
}

#[test]
fn an_engine_that_exits_loses_and_is_restarted() {
    let games = faulty_match(
        "exit",
        "exit",
        3,
        "disconnects: the engine exited with status 0",
        "abandoned",
        6,
    );
    assert_played_before_the_fault(&games, 3);
}

#[test]
fn an_engine_that_hangs_loses_on_time_and_is_restarted() {
    let games = faulty_match("hang", "hang", 3, "loses on time", "time forfeit", 4);
    assert_played_before_the_fault(&games, 3);
}

#[test]
fn an_illegal_move_loses() {
    let games = faulty_match(
        "illegal",
        "illegal",
        3,
        "makes an illegal move: ",
        "rules infraction",
        5,
    );
    assert_played_before_the_fault(&games, 3);
}

#[test]
fn garbage_instead_of_a_move_loses() {
    faulty_match(
        "garbage",
        "garbage",
        3,
        "sends an unreadable move: 'bestmove it depends'",
        "rules infraction",
        5,
    );
}

#[test]
fn a_switch_after_a_move_that_closes_no_chain_loses() {
    let games = faulty_match(
        "switch",
        "switch",
        1,
        "makes an illegal switch: cannot switch after ",
        "rules infraction",
        5,
    );
    for game in &games {
        assert!(game.comment.ends_with("it formed no chain"), "{game:?}");
        // The switch is refused, so its move is not in the record either.
        assert_eq!(game.switches, 0);
    }
}

#[test]
fn an_engine_that_never_finishes_the_handshake_stops_the_match_with_a_message() {
    let dir = ScratchDir::new("match-mute");
    let engines = engine_list(
        &dir,
        &[
            ("Mute", faulty_command("mute", 0), 1),
            ("Catena-d1", catena_command(), 1),
        ],
    );
    let output = run_match(&["--engines", engines.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("error: engine 'Mute' does not start: no uciok in time"),
        "{stderr}"
    );
}

#[test]
fn bad_arguments_get_one_clear_line() {
    let dir = ScratchDir::new("match-arguments");
    let engines = engine_list(
        &dir,
        &[("A", catena_command(), 1), ("B", catena_command(), 1)],
    );
    let engines = engines.to_str().unwrap();
    let missing = dir.join("missing.epd");
    for (args, expected) in [
        (vec!["A", "C"], "no engine 'C' in"),
        (vec!["--tc", "fast"], "time control 'fast'"),
        (
            vec!["--sprt", "elo0=5", "elo1=0"],
            "elo0 must be below elo1",
        ),
        (vec!["--resign", "movecount=3", "cp=5"], "unknown key 'cp'"),
        (vec!["--rule", "sometimes"], "not a switch rule"),
        (
            vec!["--openings", missing.to_str().unwrap()],
            "cannot read the openings",
        ),
        (vec!["--games", "0"], "--games"),
    ] {
        let mut all = vec!["--engines", engines];
        all.extend(&args);
        let output = run_match(&all);
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let output = run_match(&["--engines", dir.join("none.json").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read the engine list"));
}

#[test]
fn a_chess_match_never_switches_and_writes_no_sscc_tags() {
    let dir = ScratchDir::new("match-chess");
    let engines = engine_list(
        &dir,
        &[("A", catena_command(), 1), ("B", catena_command(), 2)],
    );
    let (output, pgn) = play_to_pgn(&dir, &engines, &["--variant", "chess", "--max-moves", "40"]);
    let games = check_match(&output, &pgn, ["A", "B"], 2);
    for game in &games {
        assert_eq!(game.switches, 0);
        assert!(!game.tags.contains_key("SSCC") && !game.tags.contains_key("WhiteAtEnd"));
    }
}

fn scripted_command(moves: &str) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fake_engines/scripted.sh"
    );
    format!("sh \"{script}\" {moves}")
}

/// An opening in which the first player switches at move 2 (c2c3 e7e5
/// d2d3 closes a chain of two squares), then both sides develop.
const SWITCH_AT_MOVE_TWO: &str = "c2c3 e7e5 d2d3:switch g8f6 g1f3 b8c6 e2e4 f8e7";

/// One SSCC game from the start position between scripted engines `A`
/// (White) and `B`, each given as its script's arguments, with `args`.
fn scripted_sscc_game(name: &str, a: &str, b: &str, args: &[&str]) -> Replayed {
    let dir = ScratchDir::new(name);
    let engines = engine_list(
        &dir,
        &[("A", scripted_command(a), 1), ("B", scripted_command(b), 1)],
    );
    let mut all = vec!["--variant", "sscc", "--games", "1", "--max-moves", "4"];
    all.extend(args);
    let (output, pgn) = play_to_pgn(&dir, &engines, &all);
    check_match(&output, &pgn, ["A", "B"], 1).remove(0)
}

/// The arbiter keeps the match's rules, not the default ones: with
/// MinEnclosed 3 the pocket of c2 and d2 is no chain, and switching there
/// loses.
#[test]
fn the_arbiter_keeps_the_rules_of_the_match() {
    let script = format!("--sscc {SWITCH_AT_MOVE_TWO}");
    let game = scripted_sscc_game("match-rules-2", &script, &script, &[]);
    assert_eq!(game.switchers, ["A"], "{game:?}");
    assert_eq!(game.comment, "Draw by adjudication: move limit");
    let game = scripted_sscc_game("match-rules-3", &script, &script, &["--min-enclosed", "3"]);
    assert!(
        game.comment
            .starts_with("White makes an illegal switch: cannot switch after d2d3"),
        "{game:?}"
    );
    assert_eq!(game.points_of("A"), 0.0);
}

/// An engine that does not offer `UCI_Variant sscc` is sent the moves
/// without `switch` tokens, which it could not read: here, as such an
/// engine, it would lose the thread of the game at the first `switch` and
/// then play an illegal move.
#[test]
fn an_engine_that_cannot_switch_is_sent_no_switch_tokens() {
    let game = scripted_sscc_game(
        "match-no-switch-tokens",
        &format!("--sscc {SWITCH_AT_MOVE_TWO}"),
        SWITCH_AT_MOVE_TWO,
        &[],
    );
    assert_eq!(game.switchers, ["A"], "{game:?}");
    assert_eq!(game.plies, 8);
    assert_eq!(game.comment, "Draw by adjudication: move limit");
}

/// A player whose engine scores itself lost resigns, and the colour it
/// controls loses: here A, playing White, reports −600 at every move.
#[test]
fn the_side_that_resigns_loses() {
    let dir = ScratchDir::new("match-resign");
    let moves = "g1f3 g8f6 f3g1 f6g8";
    let engines = engine_list(
        &dir,
        &[
            ("A", scripted_command(&format!("--score -600 {moves}")), 1),
            ("B", scripted_command(&format!("--score 600 {moves}")), 1),
        ],
    );
    let args = [
        "--variant",
        "chess",
        "--games",
        "1",
        "--resign",
        "movecount=1",
        "score=500",
    ];
    let (output, pgn) = play_to_pgn(&dir, &engines, &args);
    let game = check_match(&output, &pgn, ["A", "B"], 1).remove(0);
    assert_eq!(game.result, "0-1", "{game:?}");
    assert_eq!(game.points_of("A"), 0.0);
}

/// The time margin is time the engine may use: an engine that answers
/// after its time per move is up, but within the margin, plays on.
#[test]
fn an_answer_within_the_time_margin_is_in_time() {
    let dir = ScratchDir::new("match-time-margin");
    let fools_mate = "--delay 1.2 f2f3 e7e5 g2g4 d8h4";
    let engines = engine_list(
        &dir,
        &[
            ("A", scripted_command(fools_mate), 1),
            ("B", scripted_command(fools_mate), 1),
        ],
    );
    let args = [
        "--variant",
        "chess",
        "--games",
        "1",
        "--tc",
        "st=1",
        "--timemargin",
        "600",
    ];
    let (output, pgn) = play_to_pgn(&dir, &engines, &args);
    let game = check_match(&output, &pgn, ["A", "B"], 1).remove(0);
    assert_eq!(game.comment, "Black mates", "{game:?}");
}

/// A game whose last move allowed by `--max-moves` also ends it on the board
/// is scored by the board, as Cute Chess does, not drawn at the move limit:
/// here a back-rank mate, then a threefold repetition, on the last move.
#[test]
fn the_board_ends_a_game_before_the_move_limit_does() {
    let dir = ScratchDir::new("match-board-first");
    for (fen, moves, max_moves, comment) in [
        (
            "4r2k/8/8/8/8/8/P4PPP/6K1 w - -",
            "a2a3 e8e1",
            "1",
            "Black mates",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
            "4",
            "Draw by 3-fold repetition",
        ),
    ] {
        let openings = dir.join("openings.epd");
        std::fs::write(&openings, format!("{fen}\n")).unwrap();
        let engines = engine_list(
            &dir,
            &[
                ("A", scripted_command(moves), 1),
                ("B", scripted_command(moves), 1),
            ],
        );
        let (output, pgn) = play_to_pgn(
            &dir,
            &engines,
            &[
                "--variant",
                "chess",
                "--games",
                "2",
                "--openings",
                openings.to_str().unwrap(),
                "--max-moves",
                max_moves,
            ],
        );
        for game in check_match(&output, &pgn, ["A", "B"], 2) {
            assert_eq!(game.comment, comment, "{game:?}");
            assert_eq!(game.tag("Termination"), "normal");
        }
    }
}

/// The last line of the output starting with `prefix`.
fn block_line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .rev()
        .find(|line| line.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line '{prefix}…' in\n{text}"))
}

/// The whole numbers of a line, in order: `Games: 4, Wins: 1, …` gives 4, 1, ….
fn numbers_of(line: &str) -> Vec<u32> {
    line.split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|word| word.parse().ok())
        .collect()
}

/// The pentanomial counts of the games, by rounds 1 and 2, 3 and 4, …: pairs
/// scoring 0, ½, 1, 1½ and 2 points for `name`.
fn pentanomial_of(games: &[Replayed], name: &str) -> [u32; 5] {
    let mut by_round: Vec<&Replayed> = games.iter().collect();
    by_round.sort_by_key(|game| game.tag("Round").parse::<u32>().unwrap());
    let mut counts = [0; 5];
    for pair in by_round.chunks(2) {
        let points: f64 = pair.iter().map(|game| game.points_of(name)).sum();
        counts[(points * 2.0) as usize] += 1;
    }
    counts
}

/// A command line written for fastchess: inline engines, `-each`, rounds,
/// openings in order, a PGN file, an SPRT. The PGN replays correctly, the
/// openings follow the file (each twice, colours reversed), and the output is
/// fastchess's: `Started game`/`Finished game` lines and one results block
/// whose counts add up from the records.
#[test]
fn a_fastchess_command_line_plays_and_reports_as_fastchess() {
    let dir = ScratchDir::new("match-fastchess");
    let openings = dir.join("book.epd");
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
    ];
    std::fs::write(&openings, fens.join("\n") + "\n").unwrap();
    let pgn = dir.join("games.pgn");
    let cmd = format!("cmd={CATENA}");
    let book = format!("file={}", openings.display());
    let pgnout = format!("file={}", pgn.display());
    let output = run_match(&[
        "-engine",
        &cmd,
        "name=A",
        "depth=1",
        "-engine",
        &cmd,
        "name=B",
        "depth=2",
        "-each",
        "tc=1+0.01",
        "-rounds",
        "2",
        "-repeat",
        "-concurrency",
        "2",
        "-openings",
        &book,
        "format=epd",
        "order=sequential",
        "-pgnout",
        &pgnout,
        "-maxmoves",
        "60",
        "-sprt",
        "elo0=0",
        "elo1=10",
        "model=logistic",
        "-recover",
    ]);
    let games = check_match(&output, &pgn, ["A", "B"], 4);
    let text = stdout(&output);
    // Each opening twice, colours reversed, in file order.
    for game in &games {
        let round: usize = game.tag("Round").parse().unwrap();
        assert_eq!(game.tag("FEN"), fens[(round - 1) / 2], "{game:?}");
        let white = if round % 2 == 1 { "A" } else { "B" };
        assert_eq!(game.tag("White"), white);
    }
    // fastchess's progress lines, not Catena's, and no game on stdout.
    for game in 1..=4 {
        assert!(
            text.lines()
                .any(|line| line.starts_with(&format!("Started game {game} of 4 ("))),
            "{text}"
        );
    }
    for line in text
        .lines()
        .filter(|line| line.starts_with("Finished game"))
    {
        assert!(line.ends_with('}') && !line.contains("switches"), "{line}");
    }
    assert!(
        !text.contains("[Event") && !text.contains("Score of"),
        "{text}"
    );
    // One results block, at the end, that adds up.
    assert_eq!(text.matches("Results of A vs B").count(), 1, "{text}");
    assert!(
        text.contains("Results of A vs B (1+0.01, 1t, 16MB, book.epd):"),
        "{text}"
    );
    assert!(block_line(&text, "Elo: ").contains(", nElo: "));
    assert!(block_line(&text, "LOS: ").contains(" %, DrawRatio: "));
    let [_, wins, draws, losses, ..] = table_row(&text, "A");
    assert_eq!(
        numbers_of(block_line(&text, "Games: "))[..4],
        [4, wins, losses, draws]
    );
    let counts = pentanomial_of(&games, "A");
    let ptnml = block_line(&text, "Ptnml(0-2): ");
    let listed = ptnml.trim_start_matches("Ptnml(0-2): ");
    assert_eq!(numbers_of(listed)[..5], counts, "{ptnml}");
    assert!(
        block_line(&text, "LLR: ").ends_with("(-2.94, 2.94) [0.00, 10.00]"),
        "{text}"
    );
    let last: Vec<&str> = text.lines().rev().take(2).collect();
    assert_eq!(last, ["Finished match", "Tournament finished"]);
}

/// `order=random` shuffles the openings the same way for the same `-srand`;
/// `-variant standard` plays chess; `-output format=cutechess` keeps Catena's
/// own lines.
#[test]
fn fastchess_random_openings_follow_the_seed() {
    let dir = ScratchDir::new("match-fastchess-random");
    let openings = dir.join("book.pgn");
    let starts = ["e4 e5", "d4 d5", "c4 e5", "Nf3 d5", "c3 e5", "e4 c5"];
    let text: String = starts
        .iter()
        .map(|moves| format!("1. {moves} *\n\n"))
        .collect();
    std::fs::write(&openings, text).unwrap();
    let cmd = format!("cmd={CATENA}");
    let book = format!("file={}", openings.display());
    let play = |seed: &str, name: &str| {
        let pgn = dir.join(name);
        let pgnout = format!("file={}", pgn.display());
        let output = run_match(&[
            "-engine",
            &cmd,
            "name=A",
            "depth=1",
            "-engine",
            &cmd,
            "name=B",
            "depth=1",
            "-each",
            "tc=1+0.01",
            "-rounds",
            "6",
            "-concurrency",
            "2",
            "-openings",
            &book,
            "format=pgn",
            "order=random",
            "-srand",
            seed,
            "-pgnout",
            &pgnout,
            "-variant",
            "standard",
            "-maxmoves",
            "30",
            "-output",
            "format=cutechess",
        ]);
        let games = check_match(&output, &pgn, ["A", "B"], 12);
        assert!(stdout(&output).contains("Score of A vs B"));
        let mut by_round: Vec<&Replayed> = games.iter().collect();
        by_round.sort_by_key(|game| game.tag("Round").parse::<u32>().unwrap());
        for game in &by_round {
            assert!(game.switches == 0 && !game.tags.contains_key("SSCC"));
        }
        by_round
            .chunks(2)
            .map(|pair| {
                assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
                pair[0].moves[..2].join(" ")
            })
            .collect::<Vec<_>>()
    };
    let first = play("7", "first.pgn");
    assert_eq!(
        first,
        play("7", "again.pgn"),
        "the same seed, the same order"
    );
    let mut sorted = first.clone();
    sorted.sort();
    let mut expected: Vec<String> = starts.iter().map(|start| start.to_string()).collect();
    expected.sort();
    assert_eq!(sorted, expected, "every opening once");
    assert_ne!(first, starts, "shuffled");
}

/// What fastchess accepts and Catena cannot honour is refused before the
/// match: one line naming it on stderr, exit status 2.
#[test]
fn fastchess_options_catena_cannot_honour_get_one_clear_line_and_status_2() {
    let cmd = format!("cmd={CATENA}");
    for (args, expected) in [
        (
            vec!["-noswap"],
            "fastchess's option -noswap is not supported",
        ),
        (vec!["-tb", "/no/syzygy"], "--tb: cannot read folder"),
        (vec!["-games", "4"], "-games 4 is not supported"),
        (
            vec!["-sprt", "elo0=0", "elo1=2", "model=normalized"],
            "model=normalized is not supported",
        ),
        (
            vec!["-pgnout", "file=x.pgn", "notation=lan"],
            "notation=lan is not supported",
        ),
        (
            vec!["-variant", "fischerandom"],
            "fischerandom is not supported",
        ),
        (
            vec!["-engine", &cmd, "tc=1+0.1", "-engine", &cmd, "tc=2+0.1"],
            "time controls differ",
        ),
        (
            vec![
                "-engine",
                &cmd,
                "name=A",
                "ponder=on",
                "-engine",
                &cmd,
                "name=B",
            ],
            "unknown key 'ponder'",
        ),
        (vec!["-bogus"], "unknown option '-bogus'"),
    ] {
        let output = run_match(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

/// Engine output that is not UTF-8 is still output: an author's name and an
/// `info string` in Latin-1 neither stop the engine from starting nor forfeit
/// its game (before, the reader took the first such line for a disconnect).
#[test]
fn output_that_is_not_utf8_is_read_leniently() {
    let dir = ScratchDir::new("match-latin1");
    let fools_mate = "--latin1 f2f3 e7e5 g2g4 d8h4";
    let engines = engine_list(
        &dir,
        &[
            ("A", scripted_command(fools_mate), 1),
            ("B", scripted_command(fools_mate), 1),
        ],
    );
    let args = ["--variant", "chess", "--games", "1", "--tc", "st=1"];
    let (output, pgn) = play_to_pgn(&dir, &engines, &args);
    let game = check_match(&output, &pgn, ["A", "B"], 1).remove(0);
    assert_eq!(game.comment, "Black mates", "{game:?}");
    assert_eq!(game.points_of("B"), 1.0);
}

/// An engine whose working directory is missing is reported as such, not as
/// a missing program.
#[test]
fn a_missing_working_directory_is_named() {
    let program = format!("cmd={CATENA}");
    let output = run_match(&[
        "--engine",
        &program,
        "name=A",
        "dir=/nonexistent/catena-dir",
        "--engine",
        &program,
        "name=B",
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("its working directory /nonexistent/catena-dir does not exist"),
        "{stderr}"
    );
}

/// `openings/sscc-human.epd` (issue 55): openings no engine chose, the
/// named lines of human play of 1 to 3 plies. Every one loads, each is
/// reached from the start position within 3 plies, and none is repeated.
#[test]
fn the_human_openings_are_short_distinct_lines_from_the_start() {
    use catena::arena::load_openings;
    use catena_core::game::Rules;
    use std::collections::HashSet;

    let mut reachable = HashSet::new();
    let mut layer = vec![Position::startpos()];
    for _ in 0..3 {
        let mut next = Vec::new();
        for position in &layer {
            for mv in position.legal_moves() {
                let child = position.after(mv);
                if reachable.insert(board_fields(&child)) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/sscc-human.epd");
    let openings = load_openings(&path, Rules::default(), None).unwrap();
    assert!(openings.len() >= 200, "only {} openings", openings.len());
    let mut seen = HashSet::new();
    for opening in &openings {
        let fields = board_fields(&opening.start);
        assert!(
            reachable.contains(&fields),
            "{fields}: not within 3 plies of the start"
        );
        assert!(seen.insert(fields.clone()), "{fields} twice");
    }
}

/// A position's first four FEN fields, the en passant square only where a
/// capture can take it (as EPD writers put it).
fn board_fields(position: &Position) -> String {
    let fen = position.to_fen();
    let mut fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    let en_passant_capture = position
        .legal_moves()
        .iter()
        .any(|mv| mv.kind() == catena_core::board::MoveKind::EnPassant);
    if !en_passant_capture {
        fields[3] = "-";
    }
    fields.join(" ")
}
