//! What a search thread learns about moves and positions as it goes:
//! histories of quiet moves, continuations and captures (for move ordering),
//! and the correction history of the static evaluation, all kept from one
//! move of a game to the next and cleared by `ucinewgame`.

use catena_core::board::{Color, Move, Piece, Position};

use crate::switch_memo::SwitchMemo;

const HISTORY_LIMIT: i32 = 16_384;

/// Adds `bonus` to a history value, less the more the value already leans
/// the same way, so that values stay within ±`HISTORY_LIMIT` and old
/// successes fade.
fn apply_gravity(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
    *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
}

/// Quiet-move success counts by colour, origin and destination, with gravity.
pub struct History([[[i32; 64]; 64]; 2]);

impl History {
    pub fn new() -> Box<History> {
        Box::new(History([[[0; 64]; 64]; 2]))
    }

    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.0[color.index()][mv.from().index()][mv.to().index()]
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move.
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        apply_gravity(
            &mut self.0[color.index()][mv.from().index()][mv.to().index()],
            bonus,
        );
    }
}

const PIECE_TO_COUNT: usize = 2 * 6 * 64;

/// A piece of one colour arriving on a square: what continuation history
/// knows a move by, since the same from-to pair means different plans for
/// different pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// The piece `mv` moves in `position`, arriving on its destination.
    pub fn of(position: &Position, mv: Move) -> PieceTo {
        let piece = position.piece_on(mv.from()).unwrap_or(Piece::Pawn);
        let color = position.side_to_move();
        PieceTo(((color.index() * 6 + piece.index()) * 64 + mv.to().index()) as u16)
    }

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// Quiet-move success by the move played one or two plies before: how well
/// a reply follows up on (or answers) an earlier move, by piece and square.
pub struct ContinuationHistory(Box<[[i32; PIECE_TO_COUNT]]>);

impl Default for ContinuationHistory {
    fn default() -> ContinuationHistory {
        ContinuationHistory(vec![[0; PIECE_TO_COUNT]; PIECE_TO_COUNT].into_boxed_slice())
    }
}

impl ContinuationHistory {
    /// The values of every reply to the earlier move `context`.
    pub fn replies(&self, context: PieceTo) -> &[i32; PIECE_TO_COUNT] {
        &self.0[context.index()]
    }

    /// Rewards (`bonus > 0`) or punishes `reply` after `context`.
    pub fn update(&mut self, context: PieceTo, reply: PieceTo, bonus: i32) {
        apply_gravity(&mut self.0[context.index()][reply.index()], bonus);
    }
}

/// Capture success by the capturing piece, its destination and the piece
/// captured: whether taking that piece there tends to work out, which the
/// exchange on the square alone does not tell.
pub struct CaptureHistory(Box<[[i32; 6]; PIECE_TO_COUNT]>);

impl Default for CaptureHistory {
    fn default() -> CaptureHistory {
        CaptureHistory(Box::new([[0; 6]; PIECE_TO_COUNT]))
    }
}

impl CaptureHistory {
    /// The value of `mv` in `position` (a pawn's arrival for a promotion that captures nothing).
    pub fn get(&self, position: &Position, mv: Move) -> i32 {
        self.0[PieceTo::of(position, mv).index()][Self::victim_index(position, mv)]
    }

    /// Rewards (`bonus > 0`) or punishes the capture or promotion `mv`.
    pub fn update(&mut self, position: &Position, mv: Move, bonus: i32) {
        apply_gravity(
            &mut self.0[PieceTo::of(position, mv).index()][Self::victim_index(position, mv)],
            bonus,
        );
    }

    fn victim_index(position: &Position, mv: Move) -> usize {
        position
            .captured(mv)
            .map_or(Piece::Pawn.index(), Piece::index)
    }
}

/// Everything one search thread learns, kept from one move of a
/// game to the next so that each search starts with the last one's ordering
/// (cleared by `ucinewgame`).
pub struct Histories {
    pub quiet: Box<History>,
    pub continuation: ContinuationHistory,
    pub captures: CaptureHistory,
    /// By the origin and destination of a move, the quiet reply that last refuted it.
    pub counters: Box<[[Option<Move>; 64]; 64]>,
    pub correction: CorrectionHistory,
    /// What the SSCC stand pat found at the boards it scanned.
    pub stand_pats: SwitchMemo,
}

impl Default for Histories {
    fn default() -> Histories {
        Histories {
            quiet: History::new(),
            continuation: ContinuationHistory::default(),
            captures: CaptureHistory::default(),
            counters: Box::new([[None; 64]; 64]),
            correction: CorrectionHistory::default(),
            stand_pats: SwitchMemo::default(),
        }
    }
}

/// What the histories say of a quiet move at one node: the move's own
/// history plus its continuation history after the last two moves of the line.
#[derive(Clone, Copy)]
pub struct QuietHistory<'a> {
    pub main: &'a History,
    /// The continuation histories of the moves one and two plies before, where there were such moves.
    pub continuations: [Option<&'a [i32; PIECE_TO_COUNT]>; 2],
}

impl<'a> QuietHistory<'a> {
    /// The move's own history alone, where no earlier moves count.
    pub fn without_context(main: &'a History) -> QuietHistory<'a> {
        QuietHistory {
            main,
            continuations: [None; 2],
        }
    }

    pub fn score(&self, color: Color, mv: Move, piece_to: PieceTo) -> i32 {
        self.main.get(color, mv)
            + self
                .continuations
                .iter()
                .flatten()
                .map(|replies| replies[piece_to.index()])
                .sum::<i32>()
    }
}

// Correction history: how far the static evaluation tends to miss the
// searched value in positions with the same pawns, learnt from the nodes
// searched so far and added to the static evaluation before the pruning
// that trusts it. Pawn structures the network misjudges (a blocked centre,
// a weak king's cover) are met again and again in one game, so a running
// average of the misses, per structure and side to move, is a good guess of
// the next.

/// Pawn structures told apart, per side to move.
const ENTRIES: usize = 16_384;
/// Entries hold the average miss in 1/`GRAIN` centipawns, for smooth averaging.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;
/// The weight of the newest miss, out of `GRAIN`, grows with the depth that measured it up to this.
const MOST_WEIGHT: i32 = 16;

/// The average miss of the static evaluation by side to move and pawn structure.
pub struct CorrectionHistory(Box<[[i32; ENTRIES]; 2]>);

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory(Box::new([[0; ENTRIES]; 2]))
    }
}

/// The entry of `position`'s pawn structure.
fn slot(position: &Position) -> usize {
    let white = position.colored_pieces(Color::White, Piece::Pawn).0;
    let black = position.colored_pieces(Color::Black, Piece::Pawn).0;
    let mixed =
        white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mixed >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl CorrectionHistory {
    /// The correction to add to `position`'s static evaluation, in centipawns.
    pub fn correction(&self, position: &Position) -> i32 {
        self.0[position.side_to_move().index()][slot(position)] / GRAIN
    }

    /// Learns that a search of `depth` found `searched` where the static
    /// evaluation said `static_eval`.
    pub fn update(&mut self, position: &Position, depth: i32, searched: i32, static_eval: i32) {
        let entry = &mut self.0[position.side_to_move().index()][slot(position)];
        let miss = (searched - static_eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(MOST_WEIGHT);
        *entry = (*entry * (GRAIN - weight) + miss * weight) / GRAIN;
    }
}
