//! `catena match` and the Syzygy tables of `tests/data/syzygy/`: `--tb`
//! adjudication (and fastchess's `-tb`), in chess and in SSCC, every record
//! replayed by `tests/it/arena.rs`; and Catena with `SyzygyPath`, never
//! adjudicated, never letting a won endgame go against Stockfish.

use std::path::{Path, PathBuf};

use crate::arena::{Replayed, catena_command, check_match, play_to_pgn, run_match, stdout};
use crate::common::scratch::ScratchDir;
use crate::common::tablebase::{stockfish, tables, won_4_man_positions};

const CATENA: &str = env!("CARGO_BIN_EXE_catena");

/// White wins with the queen; Black, to move, with the rook; the rook pawn
/// against the king in its corner is a draw, whoever moves.
const KQVK: &str = "8/8/8/4k3/8/8/8/K6Q w - - 0 1";
const KVKR: &str = "r7/8/8/3k4/8/8/8/4K3 b - - 0 1";
const KPVK_DRAW: &str = "k7/8/8/8/8/8/P7/K7 w - - 0 1";
/// White wins KQvKR, a 4-man table.
const KQVKR: &str = "8/8/8/4k3/8/2r5/8/K6Q w - - 0 1";

/// Two Catenas at depth 2, named A and B.
fn two_catenas(dir: &Path) -> PathBuf {
    crate::arena::engine_list(
        dir,
        &[("A", catena_command(), 2), ("B", catena_command(), 2)],
    )
}

/// Plays each of `fens` twice, colours reversed, between A and B, with `args`.
fn play(name: &str, fens: &[&str], args: &[&str]) -> Vec<Replayed> {
    let dir = ScratchDir::new(name);
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, fens.join("\n") + "\n").unwrap();
    let engines = two_catenas(&dir);
    let rounds = fens.len().to_string();
    let mut all = vec![
        "--openings",
        openings.to_str().unwrap(),
        "--rounds",
        &rounds,
        "--tc",
        "10+0.1",
    ];
    all.extend(args);
    let (output, pgn) = play_to_pgn(&dir, &engines, &all);
    check_match(&output, &pgn, ["A", "B"], 2 * fens.len())
}

/// The colour that wins `fen` by the tables, as the PGN names it; `None`
/// for a draw.
fn winner(fen: &str) -> Option<&'static str> {
    match fen {
        KQVK | KQVKR => Some("White"),
        KVKR => Some("Black"),
        _ => None,
    }
}

/// Every game ended by the tables after the first move, with cutechess's
/// words, the points to the engine holding the winning colour.
fn assert_adjudicated_at_once(games: &[Replayed], fens: &[&str]) {
    for game in games {
        let fen = game.tag("FEN");
        assert!(fens.contains(&fen), "{game:?}");
        assert_eq!(game.plies, 1, "{game:?}");
        assert_eq!(game.tag("Termination"), "adjudication", "{game:?}");
        match winner(fen) {
            Some(colour) => {
                assert_eq!(
                    game.comment,
                    format!("{colour} wins by adjudication: SyzygyTB")
                );
                let holder = if colour == "White" {
                    &game.white_at_end
                } else {
                    &game.black_at_end
                };
                assert_eq!(game.points_of(holder), 1.0, "{game:?}");
            }
            None => {
                assert_eq!(game.comment, "Draw by adjudication: SyzygyTB");
                assert_eq!(game.result, "1/2-1/2");
            }
        }
    }
}

#[test]
fn won_and_drawn_chess_endgames_end_at_once_with_the_tables_result() {
    let fens = [KQVK, KVKR, KPVK_DRAW, KQVKR];
    let path = tables().display().to_string();
    let games = play("tb-chess", &fens, &["--variant", "chess", "--tb", &path]);
    assert_adjudicated_at_once(&games, &fens);
}

/// In SSCC the tables judge only where no chain can form: at most 5 men
/// with MinEnclosed 2, so the 4-man KQvKR too; at most 3 with MinEnclosed
/// 1, so KQvKR plays on (to the move limit here).
#[test]
fn sscc_endgames_are_judged_only_below_the_chain_bound() {
    let path = tables().display().to_string();
    let fens = [KQVK, KVKR, KPVK_DRAW, KQVKR];
    let games = play("tb-sscc", &fens, &["--variant", "sscc", "--tb", &path]);
    assert_adjudicated_at_once(&games, &fens);
    let games = play(
        "tb-sscc-1",
        &[KQVK, KQVKR],
        &[
            "--variant",
            "sscc",
            "--min-enclosed",
            "1",
            "--tb",
            &path,
            "--max-moves",
            "1",
        ],
    );
    let (judged, played_on): (Vec<Replayed>, Vec<Replayed>) =
        games.into_iter().partition(|game| game.tag("FEN") == KQVK);
    assert_adjudicated_at_once(&judged, &[KQVK]);
    for game in &played_on {
        assert_eq!(game.comment, "Draw by adjudication: move limit", "{game:?}");
    }
}

/// `--tb-pieces 3` leaves 4-man positions to the engines; a clock at 98
/// turns the queen's win into a draw by the fifty-move rule, unless
/// `--tb-ignore-50`.
#[test]
fn tb_pieces_and_the_fifty_move_rule_limit_what_is_judged() {
    let path = tables().display().to_string();
    let games = play(
        "tb-pieces",
        &[KQVK, KQVKR],
        &[
            "--variant",
            "chess",
            "--tb",
            &path,
            "--tb-pieces",
            "3",
            "--max-moves",
            "1",
        ],
    );
    for game in &games {
        let expected = if game.tag("FEN") == KQVK {
            "White wins by adjudication: SyzygyTB"
        } else {
            "Draw by adjudication: move limit"
        };
        assert_eq!(game.comment, expected, "{game:?}");
    }
    let late = "8/8/8/4k3/8/8/8/K6Q w - - 98 80";
    for (extra, expected) in [
        (None, "Draw by adjudication: SyzygyTB"),
        (
            Some("--tb-ignore-50"),
            "White wins by adjudication: SyzygyTB",
        ),
    ] {
        let mut args = vec!["--variant", "chess", "--tb", &path];
        args.extend(extra);
        for game in play("tb-fifty", &[late], &args) {
            assert_eq!(game.plies, 1, "{game:?}");
            assert_eq!(game.comment, expected, "{extra:?}: {game:?}");
        }
    }
}

/// `--tb-adjudicate win-loss` plays drawn positions on, `draw` won ones.
#[test]
fn tb_adjudicate_chooses_the_results_that_end_a_game() {
    let path = tables().display().to_string();
    for (results, judged) in [("win-loss", KQVK), ("draw", KPVK_DRAW)] {
        let games = play(
            "tb-results",
            &[KQVK, KPVK_DRAW],
            &[
                "--variant",
                "chess",
                "--tb",
                &path,
                "--tb-adjudicate",
                results,
                "--max-moves",
                "1",
            ],
        );
        for game in &games {
            if game.tag("FEN") == judged {
                assert!(game.comment.ends_with(": SyzygyTB"), "{results}: {game:?}");
            } else {
                assert_eq!(game.comment, "Draw by adjudication: move limit");
            }
        }
    }
}

/// A folder that is missing, or holds no table, or a damaged table: one
/// line naming it, status 2, and no game.
#[test]
fn a_bad_tb_path_stops_the_match_before_any_game() {
    let dir = ScratchDir::new("tb-bad");
    let engines = two_catenas(&dir);
    let missing = dir.join("missing");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let damaged = dir.join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    std::fs::write(damaged.join("KQvK.rtbw"), b"not a table").unwrap();
    for (path, expected) in [
        (&missing, "--tb: cannot read folder"),
        (&empty, "--tb: no Syzygy tables in"),
        (&damaged, "is not a Syzygy table"),
    ] {
        let output = run_match(&[
            "--engines",
            engines.to_str().unwrap(),
            "--tb",
            path.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(stdout(&output).is_empty(), "{}", stdout(&output));
    }
    let output = run_match(&["--engines", engines.to_str().unwrap(), "--tb-pieces", "4"]);
    assert_eq!(output.status.code(), Some(2));
}

/// fastchess's `-tb` with its `;`-separated folders, and `-tbpieces`.
#[test]
fn fastchess_tb_options_adjudicate() {
    let dir = ScratchDir::new("tb-fastchess");
    let openings = dir.join("book.epd");
    std::fs::write(&openings, format!("{KQVK}\n")).unwrap();
    let pgn = dir.join("games.pgn");
    let folders = format!("{};{}", tables().display(), tables().display());
    let output = run_match(&[
        "-engine",
        &format!("cmd={CATENA}"),
        "name=A",
        "depth=2",
        "-engine",
        &format!("cmd={CATENA}"),
        "name=B",
        "depth=2",
        "-each",
        "tc=10+0.1",
        "-rounds",
        "1",
        "-openings",
        &format!("file={}", openings.display()),
        "format=epd",
        "-pgnout",
        &format!("file={}", pgn.display()),
        "-tb",
        &folders,
        "-tbpieces",
        "4",
    ]);
    let games = check_match(&output, &pgn, ["A", "B"], 2);
    assert_adjudicated_at_once(&games, &[KQVK]);
    assert!(
        stdout(&output).contains("{White wins by adjudication: SyzygyTB}"),
        "{}",
        stdout(&output)
    );
}

/// Issue 56: in `catena match` games, without adjudication, Catena with
/// `SyzygyPath` wins every won 4-man endgame it holds against Stockfish
/// (Catena itself where Stockfish is missing, outside CI). Each opening is
/// played twice: Stockfish holds the win in the second game, unjudged.
#[test]
fn catena_with_tables_wins_every_won_endgame_against_stockfish() {
    let dir = ScratchDir::new("tb-stockfish");
    let openings = dir.join("won.epd");
    let starts = won_4_man_positions(4);
    std::fs::write(&openings, starts.join("\n") + "\n").unwrap();
    let rounds = starts.len().to_string();
    let defender = stockfish().map_or_else(catena_command, |command| format!("{command:?}"));
    let engines = dir.join("engines.json");
    std::fs::write(
        &engines,
        format!(
            r#"[{{"name": "Catena", "command": {}, "protocol": "uci", "depth": 6,
                 "options": [{{"name": "SyzygyPath", "value": {:?}}}]}},
               {{"name": "Defender", "command": {defender}, "protocol": "uci", "depth": 10}}]"#,
            catena_command(),
            tables().display().to_string(),
        ),
    )
    .unwrap();
    let (output, pgn) = play_to_pgn(
        &dir,
        &engines,
        &[
            "--variant",
            "chess",
            "--openings",
            openings.to_str().unwrap(),
            "--rounds",
            &rounds,
            "--tc",
            "60+1",
            "--concurrency",
            "2",
        ],
    );
    let games = check_match(&output, &pgn, ["Catena", "Defender"], 2 * starts.len());
    for game in games.iter().filter(|game| game.tag("White") == "Catena") {
        assert_eq!(game.points_of("Catena"), 1.0, "{game:?}");
        assert_ne!(game.tag("Termination"), "adjudication", "{game:?}");
    }
}
