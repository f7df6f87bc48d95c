//! Syzygy endgame tablebases (docs/syzygy.md), read with `shakmaty-syzygy`,
//! and used as Stockfish uses them: the root's moves ranked by DTZ, so that
//! a won endgame is won within the fifty-move rule, and WDL read inside the
//! search after captures and pawn moves.
//!
//! In SSCC the tables hold wherever no chain can form any more
//! ([`Rules::chainless_men`]): the game is chess from there, and the value
//! for the side to move is the value for the player who moves it.

use std::fmt;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use catena_core::board::{CastlingRights, Color, Piece, Position};
use catena_core::game::{Action, Variant};
use shakmaty::{CastlingMode, Chess, FromSetup, PositionError, Setup};
use shakmaty_syzygy::{SyzygyError, Tablebase, Wdl};

use crate::score::TB_WIN;
use crate::transposition::Bound;

/// The first bytes of every WDL table, and of every DTZ table.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// The tables found on `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    wdl_files: usize,
    dtz_files: usize,
    /// The most men of any table.
    max_men: u32,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Tablebases({})", self.summary())
    }
}

impl Tablebases {
    /// The tables in the folders of `paths`, separated as Stockfish separates
    /// them (`:`, or `;` on Windows). `None` for no folder at all (empty, or
    /// `<empty>` as the option's default reads). Every folder must exist and
    /// every table in it must look whole: one that does not fails the lot,
    /// naming the file, and the search goes on without tables.
    pub fn open(paths: &str) -> Result<Option<Tablebases>, String> {
        let separator = if cfg!(windows) { ';' } else { ':' };
        let folders: Vec<&str> = paths
            .split(separator)
            .map(str::trim)
            .filter(|folder| !folder.is_empty() && *folder != "<empty>")
            .collect();
        if folders.is_empty() {
            return Ok(None);
        }
        let mut found = Tablebases {
            tables: Tablebase::new(),
            wdl_files: 0,
            dtz_files: 0,
            max_men: 0,
        };
        for folder in folders {
            let entries = fs::read_dir(folder)
                .map_err(|problem| format!("cannot read folder '{folder}': {problem}"))?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .collect();
            files.sort();
            for file in files {
                found.add(&file)?;
            }
        }
        Ok(Some(found))
    }

    /// Adds `file` if its name is a table's; a table that is not one, or is
    /// cut short, is refused.
    fn add(&mut self, file: &Path) -> Result<(), String> {
        let (Some(stem), Some(extension)) = (
            file.file_stem().and_then(|stem| stem.to_str()),
            file.extension().and_then(|extension| extension.to_str()),
        ) else {
            return Ok(());
        };
        let magic = match extension {
            "rtbw" => WDL_MAGIC,
            "rtbz" => DTZ_MAGIC,
            _ => return Ok(()),
        };
        let Some(men) = table_men(stem) else {
            return Ok(());
        };
        let shown = file.display();
        let mut start = [0; 4];
        fs::File::open(file)
            .and_then(|mut opened| opened.read_exact(&mut start))
            .map_err(|problem| format!("cannot read '{shown}': {problem}"))?;
        if start != magic {
            return Err(format!("'{shown}' is not a Syzygy table"));
        }
        // The crate checks the size: a table is 16 bytes more than a multiple of 64.
        self.tables
            .add_file(file)
            .map_err(|problem| format!("'{shown}' is damaged: {problem}"))?;
        if magic == WDL_MAGIC {
            self.wdl_files += 1;
        } else {
            self.dtz_files += 1;
        }
        self.max_men = self.max_men.max(men);
        Ok(())
    }

    /// The most men of any table found.
    pub fn max_men(&self) -> u32 {
        self.max_men
    }

    /// What was found, as Stockfish reports it after `SyzygyPath`.
    pub fn summary(&self) -> String {
        format!(
            "found {} WDL and {} DTZ tablebase files (up to {}-man)",
            self.wdl_files, self.dtz_files, self.max_men
        )
    }

    /// The WDL value for the side to move of `position`, reached by a
    /// capture or a pawn move (its halfmove clock is 0): from -2, a loss,
    /// through -1 (a loss the fifty-move rule saves) and 0 to 2, a win.
    /// `None` when a table is missing or unreadable.
    pub fn wdl_after_zeroing(&self, position: &Position) -> Option<i32> {
        self.probe(position, "WDL", Tablebase::probe_wdl_after_zeroing)
            .map(|wdl: Wdl| wdl as i32)
    }

    /// The WDL value for the side to move of `position` at its own halfmove
    /// clock, as an arbiter needs it: a win that the fifty-move rule spoils
    /// from here on is 1, a cursed win, and a loss it saves -1. `None` when a
    /// table is missing, or when DTZ, rounded, cannot tell whether the win
    /// comes in time.
    pub fn wdl(&self, position: &Position) -> Option<i32> {
        let after_zeroing = self.wdl_after_zeroing(position)?;
        // The clock only ever spoils a win or saves a loss.
        if position.halfmove_clock() == 0 || after_zeroing.abs() < 2 {
            return Some(after_zeroing);
        }
        self.probe(position, "WDL", Tablebase::probe_wdl)?
            .unambiguous()
            .map(|wdl| wdl as i32)
    }

    /// The distance in plies to the next capture or pawn move under best
    /// play, positive when the side to move wins, 0 for a draw; rounded by
    /// a ply where the tables store moves. `None` when a table is missing.
    pub fn dtz(&self, position: &Position) -> Option<i32> {
        self.probe(position, "DTZ", Tablebase::probe_dtz)
            .map(|dtz| dtz.ignore_rounding().0)
    }

    /// What `probe` reads of `position`; a failure is logged, not fatal.
    fn probe<T>(
        &self,
        position: &Position,
        metric: &str,
        probe: impl FnOnce(&Tablebase<Chess>, &Chess) -> Result<T, SyzygyError>,
    ) -> Option<T> {
        let board = board_of(position)?;
        probe(&self.tables, &board)
            .map_err(|problem| log::debug!("tablebase {metric} probe failed: {problem}"))
            .ok()
    }
}

/// The number of men of the table named `stem` (`KQvKR`: 4), if it is a
/// table's name.
fn table_men(stem: &str) -> Option<u32> {
    let (white, black) = stem.split_once('v')?;
    let sides = [white, black];
    let named =
        |side: &str| side.starts_with('K') && side.chars().all(|letter| "KQRBNP".contains(letter));
    sides
        .iter()
        .all(|side| named(side))
        .then(|| (white.len() + black.len()) as u32)
}

/// `position` as the prober reads it; `None` for one it refuses, which a
/// legal game never reaches.
fn board_of(position: &Position) -> Option<Chess> {
    let bits = |set: catena_core::board::Bitboard| shakmaty::Bitboard(set.0);
    let role = |piece| bits(position.pieces(piece));
    let board = shakmaty::Board::try_from_bitboards(
        shakmaty::ByRole {
            pawn: role(Piece::Pawn),
            knight: role(Piece::Knight),
            bishop: role(Piece::Bishop),
            rook: role(Piece::Rook),
            queen: role(Piece::Queen),
            king: role(Piece::King),
        },
        shakmaty::ByColor {
            white: bits(position.colored(Color::White)),
            black: bits(position.colored(Color::Black)),
        },
    )
    .ok()?;
    let setup = Setup {
        board,
        turn: match position.side_to_move() {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        },
        ep_square: position
            .en_passant()
            .map(|square| shakmaty::Square::new(square.index() as u32)),
        halfmoves: u32::from(position.halfmove_clock()),
        ..Setup::empty()
    };
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_invalid_ep_square)
        .ok()
}

/// What `setoption` set for the tables: Stockfish's four options.
#[derive(Clone, Debug)]
pub struct Settings {
    pub tables: Arc<Tablebases>,
    /// `SyzygyProbeDepth`: the least depth at which the search probes a
    /// position with as many men as the probe limit.
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: wins and losses that the fifty-move rule turns
    /// into draws count as draws.
    pub rule50: bool,
    /// `SyzygyProbeLimit`: the most men probed.
    pub probe_limit: u32,
}

/// How one search probes the tables, as Stockfish's `Tablebases::Config`.
#[derive(Clone, Debug)]
pub struct Probing {
    tables: Arc<Tablebases>,
    /// Positions with at most this many men are probed; 0 for none.
    cardinality: u32,
    depth: i32,
    rule50: bool,
}

impl Probing {
    /// Whether the search probes `position`, searched to `depth`: just after
    /// a capture or pawn move, within the men the tables and the variant
    /// allow, and without castling rights (the tables have none).
    pub fn probes(&self, position: &Position, depth: i32) -> bool {
        let men = position.occupied().len();
        men <= self.cardinality
            && (men < self.cardinality || depth >= self.depth)
            && position.halfmove_clock() == 0
            && position.castling_rights() == CastlingRights::NONE
    }

    /// The value of `position`, `ply` plies from the root, to the side to
    /// move, and what it bounds, if the tables have it: a win just below
    /// the mates (a mate may still be found above it, so it is a lower
    /// bound), a loss the mirror, a draw exact; under the fifty-move rule a
    /// cursed win is a draw, worth a little more than one.
    pub fn value(&self, position: &Position, ply: usize) -> Option<(i32, Bound)> {
        let wdl = self.tables.wdl_after_zeroing(position)?;
        let draw = i32::from(self.rule50);
        let win = TB_WIN - ply as i32;
        Some(if wdl > draw {
            (win, Bound::Lower)
        } else if wdl < -draw {
            (-win, Bound::Upper)
        } else {
            (2 * wdl * draw, Bound::Exact)
        })
    }
}

/// Stockfish's `MAX_DTZ`: above every rank a real DTZ gives.
const MAX_DTZ: i32 = 1 << 18;

/// What the tables say at the root: the actions that keep its best
/// result, each with the score to report, and the probes it took.
#[derive(Clone, Debug)]
pub struct RootInTables {
    pub actions: Vec<(Action, i32)>,
    pub hits: u64,
}

/// How a search uses the tables, set up at its root.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The probes inside the search: none where the root's ranking says
    /// all there is to know.
    pub probing: Option<Probing>,
    pub root: Option<RootInTables>,
}

/// Where a search starts: the position, the keys of the positions before
/// it (oldest first) and the game.
#[derive(Clone, Copy)]
pub struct Start<'a> {
    pub position: &'a Position,
    pub history: &'a [u64],
    pub variant: Variant,
}

/// The plan for a search from `root` over `actions` with `settings`, as
/// Stockfish's `Tablebases::rank_root_moves`: when the root is in the
/// tables, its actions ranked by DTZ (by WDL where DTZ is missing), and
/// only those of the best rank kept. Among wins, those that win within the
/// fifty-move rule rank alike and the search chooses between them; after a
/// repetition the fastest to a capture or pawn move ranks first, so a game
/// never goes round in circles.
pub fn plan(settings: &Settings, root: Start, actions: &[Action]) -> Plan {
    let mut cardinality = settings.probe_limit;
    let mut depth = settings.probe_depth;
    if cardinality > settings.tables.max_men() {
        cardinality = settings.tables.max_men();
        depth = 0;
    }
    if let Variant::Sscc(rules) = root.variant {
        cardinality = cardinality.min(rules.chainless_men());
    }
    let mut probing = Probing {
        tables: Arc::clone(&settings.tables),
        cardinality,
        depth,
        rule50: settings.rule50,
    };
    let position = root.position;
    let in_reach = position.occupied().len() <= cardinality
        && position.castling_rights() == CastlingRights::NONE;
    if !in_reach || actions.is_empty() {
        return Plan {
            probing: Some(probing),
            root: None,
        };
    }
    let ranked = rank_by_dtz(&settings.tables, root, actions, settings.rule50)
        .map(|ranked| (ranked, true))
        .or_else(|| {
            rank_by_wdl(&settings.tables, root, actions, settings.rule50)
                .map(|ranked| (ranked, false))
        });
    let Some((ranked, dtz)) = ranked else {
        return Plan {
            probing: Some(probing),
            root: None,
        };
    };
    let best = ranked.iter().map(|&(_, rank, _)| rank).max().unwrap_or(0);
    let kept: Vec<(Action, i32)> = ranked
        .iter()
        .filter(|&&(_, rank, _)| rank == best)
        .map(|&(action, _, score)| (action, score))
        .collect();
    // Probes below the root only help where the root's ranking does not
    // say how to win: with WDL alone, in a won position.
    if dtz || kept[0].1 <= 0 {
        probing.cardinality = 0;
    }
    Plan {
        probing: Some(probing),
        root: Some(RootInTables {
            actions: kept,
            hits: actions.len() as u64,
        }),
    }
}

/// Each root action with its rank and score by DTZ, as Stockfish's
/// `Tablebases::root_probe`; `None` if a probe failed.
fn rank_by_dtz(
    tables: &Tablebases,
    root: Start,
    actions: &[Action],
    rule50: bool,
) -> Option<Vec<(Action, i32, i32)>> {
    let position = root.position;
    let clock = i32::from(position.halfmove_clock());
    let repeated = has_repeated(root);
    let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    let mut ranked = Vec::with_capacity(actions.len());
    for &action in actions {
        let child = position.after(action.mv);
        // The distance from the root, in plies, to a capture or pawn move:
        // positive when the mover wins.
        let dtz = if child.halfmove_clock() == 0 {
            match -tables.wdl_after_zeroing(&child)? {
                2 => 1,
                1 => 101,
                0 => 0,
                -1 => -101,
                _ => -1,
            }
        } else if (rule50 && child.halfmove_clock() >= 100) || draws_by_repetition(root, &child) {
            0
        } else {
            let dtz = -tables.dtz(&child)?;
            dtz + dtz.signum()
        };
        // A mate is the fastest win, whatever DTZ says of it.
        let dtz = if dtz == 2 && child.in_check() && !child.has_legal_move() {
            1
        } else {
            dtz
        };
        let rank = if dtz > 0 {
            if dtz + clock <= 99 && !repeated {
                MAX_DTZ
            } else {
                MAX_DTZ / 2 - (dtz + clock)
            }
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ / 2 + (-dtz + clock)
            }
        } else {
            0
        };
        // Wins the fifty-move rule spoils show 1 to 49 centipawns, more as
        // they come closer to a real win; losses the mirror.
        let score = if rank >= bound {
            TB_WIN
        } else if rank > 0 {
            (rank - (MAX_DTZ / 2 - 200)).max(3) * 100 / 200
        } else if rank == 0 {
            0
        } else if rank > -bound {
            (rank + (MAX_DTZ / 2 - 200)).min(-3) * 100 / 200
        } else {
            -TB_WIN
        };
        ranked.push((action, rank, score));
    }
    Some(ranked)
}

/// Each root action with its rank and score by WDL alone, for tables
/// without their DTZ files, as Stockfish's `Tablebases::root_probe_wdl`.
fn rank_by_wdl(
    tables: &Tablebases,
    root: Start,
    actions: &[Action],
    rule50: bool,
) -> Option<Vec<(Action, i32, i32)>> {
    let mut ranked = Vec::with_capacity(actions.len());
    for &action in actions {
        let child = root.position.after(action.mv);
        // The tables count the fifty moves from the child; without DTZ
        // nothing better is known.
        let wdl = if child.halfmove_clock() >= 100 || draws_by_repetition(root, &child) {
            0
        } else {
            -tables.wdl_after_zeroing(&child)?
        };
        let rank = [-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ][(wdl + 2) as usize];
        let wdl = if rule50 { wdl } else { 2 * wdl.signum() };
        let score = [-TB_WIN, -1, 0, 1, TB_WIN][(wdl + 2) as usize];
        ranked.push((action, rank, score));
    }
    Some(ranked)
}

/// Whether some position since the last capture or pawn move, the root
/// included, occurred before in that stretch.
fn has_repeated(root: Start) -> bool {
    let clock = usize::from(root.position.halfmove_clock());
    let mut keys: Vec<u64> = root.history.iter().rev().take(clock).copied().collect();
    keys.push(root.position.key());
    keys.iter()
        .enumerate()
        .any(|(index, key)| keys[index + 1..].contains(key))
}

/// Whether `child`, one move from the root, is the third occurrence of its
/// position: a draw whatever the tables say.
fn draws_by_repetition(root: Start, child: &Position) -> bool {
    // The positions before the child, the latest first: the root, then
    // the game's, back to the last capture or pawn move.
    let earlier = std::iter::once(root.position.key())
        .chain(root.history.iter().rev().copied())
        .take(usize::from(child.halfmove_clock()))
        .skip(1)
        .step_by(2)
        .filter(|&key| key == child.key())
        .count();
    earlier >= 2
}
