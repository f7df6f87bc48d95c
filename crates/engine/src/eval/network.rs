//! The evaluation network: every piece on its square is an input, seen once
//! from each side's view; one hidden layer per view (sharing its weights), a
//! squared clipped ReLU, and one output reading the side to move's layer and
//! the other's, with weights of its own for each band of material on the
//! board (the same features count differently in the middlegame and in the
//! endgame). `catena train` fits it; the engine reads it quantized from
//! `network.bin` at start-up.
//!
//! The hidden layer before its activation is the sum of the rows of the
//! pieces on the board, so a move changes it by adding and subtracting a few
//! rows: the search keeps one `Accumulator` per ply and derives each child's
//! from its parent's. A switch of sides keeps the board, and so the
//! accumulator: only which of its two halves is "ours" changes.
//!
//! SSCC positions are evaluated by a network of their own (`sscc.bin`),
//! fitted to Catena's SSCC self-play, which sees the SSCC state as further
//! inputs (`SsccState`): the empty squares the men already cut off from the
//! edge (the pockets a chain can close around), and how many switches the
//! side to move has made in a row. Those inputs change with the whole board,
//! not square by square, so they are added to the accumulator as a position
//! is evaluated: the pockets' rows summed in a `PocketLayer` that the search
//! keeps a ply and changes by the pockets that differ, and the run's row.
//! The chess network never reads them, and its rows for them are zero: no
//! chess position uses them (`catena train`).

use arrayvec::ArrayVec;
use once_cell::sync::Lazy;

use catena_core::board::{Bitboard, Color, Piece, Position, Square};
use catena_core::chain;

/// Board inputs per view: 2 colours (own, theirs) × 6 kinds × 64 squares.
pub const BOARD_INPUTS: usize = 768;
/// Bands of a run's length that the SSCC inputs tell apart (1, 2, 3, 4 or more switches).
const RUN_BANDS: usize = 4;
/// SSCC inputs per view: one saying the game is SSCC, the 64 squares as
/// pockets, and the run's length, for the side to move's run seen as ours
/// or as theirs.
pub const SSCC_INPUTS: usize = 1 + 64 + 2 * RUN_BANDS;
/// Inputs per view.
pub const INPUTS: usize = BOARD_INPUTS + SSCC_INPUTS;
/// Hidden units per view.
pub const HIDDEN: usize = 256;
/// Output weight sets, by the number of men on the board.
pub const OUTPUT_BUCKETS: usize = 8;
/// Centipawns per unit of the network's output, whose logistic is the expected score.
pub const SCALE: i32 = 400;
/// Fixed-point scale of the hidden layer: its activation clips at `QA`.
pub const QA: i32 = 255;
/// Fixed-point scale of the output weights.
pub const QB: i32 = 128;

/// The largest weight the trainer fits. At `QA` times it a hidden unit's
/// bias and 32 inputs still sum within an i16; at `QB` times it (an output
/// weight) a term of the output's dot product fits an i32.
pub const WEIGHT_CLIP: f32 = 1.98;
/// The largest output weight in the fixed point: `WEIGHT_CLIP × QB`, rounded
/// as the trainer rounds.
const OUTPUT_WEIGHT_LIMIT: i16 = (WEIGHT_CLIP * QB as f32 + 0.5) as i16;

/// The file's first bytes: with the number of inputs (`MAGIC`), or without,
/// from before the SSCC inputs, the board's inputs alone (`BOARD_MAGIC`).
const MAGIC: &[u8; 8] = b"CATENAN2";
const BOARD_MAGIC: &[u8; 8] = b"CATENANN";

/// The most inputs a position can have in one view: one per man, and the
/// SSCC inputs (a flag, the pockets among the squares the men leave empty,
/// and a run).
pub const MAX_ACTIVE: usize = 32 + 1 + 32 + 1;

/// The input of `color`'s `piece` on `square`, seen from `view`'s side: the
/// board turned over for Black, so that both views share their weights.
///
/// ```
/// use catena_core::board::{Color, Piece, Square};
/// use catena_engine::eval::network::feature;
/// let e2: Square = "e2".parse().unwrap();
/// let e7: Square = "e7".parse().unwrap();
/// // White's e-pawn seen by White is Black's e-pawn seen by Black.
/// assert_eq!(
///     feature(Color::White, Color::White, Piece::Pawn, e2),
///     feature(Color::Black, Color::Black, Piece::Pawn, e7),
/// );
/// ```
#[inline]
pub fn feature(view: Color, color: Color, piece: Piece, square: Square) -> usize {
    let theirs = usize::from(color != view);
    theirs * 384 + piece.index() * 64 + square.relative_to(view).index()
}

/// The output weight set of a position with `men` men on the board: bands of
/// four, from 2 and 3 men up to 30 to 32.
///
/// ```
/// use catena_engine::eval::network::output_bucket;
/// assert_eq!(output_bucket(32), 7);
/// assert_eq!(output_bucket(3), 0);
/// ```
pub fn output_bucket(men: usize) -> usize {
    (men.saturating_sub(2) / 4).min(OUTPUT_BUCKETS - 1)
}

/// What an SSCC position adds to its board: the pockets and the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SsccState {
    /// Empty squares cut off from the board's edge by the men.
    pub pockets: Bitboard,
    /// Switches the side to move has made in a row (0: no run in progress).
    pub switches: u32,
}

impl SsccState {
    /// The state of `position`, its side to move having made `switches` switches in a row.
    pub fn new(position: &Position, switches: u32) -> SsccState {
        SsccState {
            pockets: chain::pockets(position.occupied()),
            switches,
        }
    }

    /// Calls `visit` with every SSCC input in `view` of a position with `us` to move.
    ///
    /// ```
    /// use catena_core::board::{Color, Position};
    /// use catena_engine::eval::network::{BOARD_INPUTS, SsccState};
    /// // After 1.c3 e5 2.d3 the pawns and pieces cut off c2 and d2.
    /// let position =
    ///     Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2").unwrap();
    /// let state = SsccState::new(&position, 0);
    /// let mut inputs = Vec::new();
    /// state.for_each_feature(Color::White, Color::Black, |input| inputs.push(input - BOARD_INPUTS));
    /// assert_eq!(inputs, [0, 1 + 10, 1 + 11]);
    /// ```
    pub fn for_each_feature(&self, view: Color, us: Color, mut visit: impl FnMut(usize)) {
        visit(SSCC_FLAG);
        for square in self.pockets {
            visit(pocket_feature(view, square));
        }
        if let Some(input) = run_feature(self.switches, view, us) {
            visit(input);
        }
    }
}

/// The input that is on in every SSCC position.
const SSCC_FLAG: usize = BOARD_INPUTS;

/// The input of the pocket on `square` in `view`.
fn pocket_feature(view: Color, square: Square) -> usize {
    SSCC_FLAG + 1 + square.relative_to(view).index()
}

/// The input of a run of `switches` in `view` with `us` to move, if any.
fn run_feature(switches: u32, view: Color, us: Color) -> Option<usize> {
    let band = (switches as usize).min(RUN_BANDS).checked_sub(1)?;
    let theirs = usize::from(view != us);
    Some(SSCC_FLAG + 1 + 64 + theirs * RUN_BANDS + band)
}

/// The rows of the SSCC inputs that change only when the pockets do (the
/// flag's and the pockets'), summed for each view. The search keeps one a
/// ply and brings it up to date from a neighbouring one by the pockets
/// that differ, which are few: an SSCC evaluation then adds this layer and
/// the run's row to the board's accumulator, where it added six rows or so.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct PocketLayer {
    pockets: Bitboard,
    views: [[i16; HIDDEN]; 2],
}

impl PocketLayer {
    /// The layer of `network` with no pocket: the flag's rows alone.
    pub fn new(network: &Network) -> PocketLayer {
        let flag = &network.hidden_weights[SSCC_FLAG];
        PocketLayer {
            pockets: Bitboard::EMPTY,
            views: [*flag; 2],
        }
    }

    /// The layer of `network` with `pockets`, from scratch.
    pub fn of(network: &Network, pockets: Bitboard) -> PocketLayer {
        let mut layer = PocketLayer::new(network);
        layer.change(network, pockets);
        layer
    }

    /// The pockets whose rows this layer holds.
    pub fn pockets(&self) -> Bitboard {
        self.pockets
    }

    /// Brings this layer to `pockets`, from itself or from `other`,
    /// whichever differs from them in fewer squares.
    pub fn update(&mut self, network: &Network, other: Option<&PocketLayer>, pockets: Bitboard) {
        let differing = |layer: &PocketLayer| (layer.pockets ^ pockets).len();
        if let Some(other) = other.filter(|&other| differing(other) < differing(self)) {
            self.clone_from(other);
        }
        self.change(network, pockets);
    }

    /// Adds the rows of the pockets gained and takes away those lost.
    fn change(&mut self, network: &Network, pockets: Bitboard) {
        for view in Color::ALL {
            let values = &mut self.views[view.index()];
            for square in pockets - self.pockets {
                add_row(
                    values,
                    &network.hidden_weights[pocket_feature(view, square)],
                );
            }
            for square in self.pockets - pockets {
                sub_row(
                    values,
                    &network.hidden_weights[pocket_feature(view, square)],
                );
            }
        }
        self.pockets = pockets;
    }
}

/// The input that `input` becomes when the board is turned left to right.
///
/// ```
/// use catena_core::board::{Color, Piece, Square};
/// use catena_engine::eval::network::{feature, mirrored};
/// let (a2, h2): (Square, Square) = ("a2".parse().unwrap(), "h2".parse().unwrap());
/// let pawn = |square| feature(Color::White, Color::White, Piece::Pawn, square);
/// assert_eq!(mirrored(pawn(a2)), pawn(h2));
/// ```
pub fn mirrored(input: usize) -> usize {
    const POCKETS: usize = BOARD_INPUTS + 1;
    const RUNS: usize = POCKETS + 64;
    match input {
        0..BOARD_INPUTS => input ^ 7,
        BOARD_INPUTS => input,
        POCKETS..RUNS => POCKETS + ((input - POCKETS) ^ 7),
        _ => input,
    }
}

/// Calls `visit` with every board input of `position` in `view`.
pub fn for_each_feature(position: &Position, view: Color, mut visit: impl FnMut(usize)) {
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in position.colored_pieces(color, piece) {
                visit(feature(view, color, piece, square));
            }
        }
    }
}

/// The hidden layer before activation, for each view (indexed by colour).
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    views: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Sums `network`'s rows of every piece of `position`.
    pub fn new(network: &Network, position: &Position) -> Accumulator {
        let mut accumulator = Accumulator {
            views: [network.hidden_biases; 2],
        };
        for view in Color::ALL {
            for_each_feature(position, view, |input| {
                add_row(
                    &mut accumulator.views[view.index()],
                    &network.hidden_weights[input],
                );
            });
        }
        accumulator
    }

    /// The accumulator of `child`, a position a move (or a switch, or a pass)
    /// away from `parent`, whose accumulator `self` is. The pieces that differ
    /// between the two boards say what changed, so castling, en passant and
    /// promotion need no cases of their own.
    pub fn after(
        &self,
        network: &Network,
        parent: &Position,
        child: &Position,
        into: &mut Accumulator,
    ) {
        // A move changes at most two men's inputs each way (castling; a
        // capture with promotion removes two and adds one): those shapes
        // have a pass of their own below.
        let mut added = ArrayVec::<(Color, Piece, Square), 32>::new();
        let mut removed = ArrayVec::<(Color, Piece, Square), 32>::new();
        for color in Color::ALL {
            for piece in Piece::ALL {
                let before = parent.colored_pieces(color, piece);
                let now = child.colored_pieces(color, piece);
                removed.extend(
                    (before - now)
                        .into_iter()
                        .map(|square| (color, piece, square)),
                );
                added.extend(
                    (now - before)
                        .into_iter()
                        .map(|square| (color, piece, square)),
                );
            }
        }
        for view in Color::ALL {
            let row = |&(color, piece, square): &(Color, Piece, Square)| {
                &network.hidden_weights[feature(view, color, piece, square)]
            };
            let from = &self.views[view.index()];
            let into = &mut into.views[view.index()];
            match (added.as_slice(), removed.as_slice()) {
                ([add], [sub]) => add_sub(from, into, row(add), row(sub)),
                ([add], [sub, sub2]) => add_sub_sub(from, into, row(add), row(sub), row(sub2)),
                ([add, add2], [sub, sub2]) => {
                    add_sub(from, into, row(add), row(sub));
                    add_row(into, row(add2));
                    sub_row(into, row(sub2));
                }
                _ => {
                    *into = *from;
                    added.iter().for_each(|man| add_row(into, row(man)));
                    removed.iter().for_each(|man| sub_row(into, row(man)));
                }
            }
        }
    }

    /// The evaluation in centipawns by `network` of `position`, whose
    /// accumulator this is, from its side to move's view.
    pub fn evaluate(&self, network: &Network, position: &Position) -> i32 {
        self.evaluate_for(
            network,
            position.side_to_move(),
            position.occupied().len() as usize,
        )
    }

    /// The evaluation of `position` in SSCC, in `state`: the board's
    /// accumulator with the SSCC inputs added.
    pub fn evaluate_sscc(&self, network: &Network, position: &Position, state: SsccState) -> i32 {
        let layer = PocketLayer::of(network, state.pockets);
        self.evaluate_sscc_with(network, position, state, &layer)
    }

    /// [`Accumulator::evaluate_sscc`] with the pockets' rows summed in
    /// `layer`, whose pockets must be `state`'s.
    pub fn evaluate_sscc_with(
        &self,
        network: &Network,
        position: &Position,
        state: SsccState,
        layer: &PocketLayer,
    ) -> i32 {
        debug_assert_eq!(layer.pockets, state.pockets);
        let us = position.side_to_move();
        let rows = |view: Color| {
            let mut rows = ArrayVec::<&[i16; HIDDEN], 2>::new();
            rows.push(&layer.views[view.index()]);
            rows.extend(
                run_feature(state.switches, view, us).map(|input| &network.hidden_weights[input]),
            );
            rows
        };
        network.output_with(
            (&self.views[us.index()], &rows(us)),
            (&self.views[(!us).index()], &rows(!us)),
            output_bucket(position.occupied().len() as usize),
        )
    }

    /// The evaluation from `us`'s view of a board with `men` men.
    fn evaluate_for(&self, network: &Network, us: Color, men: usize) -> i32 {
        network.output(
            &self.views[us.index()],
            &self.views[(!us).index()],
            output_bucket(men),
        )
    }

    /// This accumulator less `color`'s `piece` on `square`.
    fn without(&self, color: Color, piece: Piece, square: Square) -> Accumulator {
        let mut less = self.clone();
        for view in Color::ALL {
            let row = &NETWORK.hidden_weights[feature(view, color, piece, square)];
            sub_row(&mut less.views[view.index()], row);
        }
        less
    }
}

#[inline]
fn add_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (value, &weight) in values.iter_mut().zip(row) {
        *value = value.wrapping_add(weight);
    }
}

#[inline]
fn sub_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (value, &weight) in values.iter_mut().zip(row) {
        *value = value.wrapping_sub(weight);
    }
}

/// `into` = `from` + `add` − `sub`: a man moved, in one pass, so the child's
/// layer is written once instead of copied and then changed row by row.
#[inline]
fn add_sub(
    from: &[i16; HIDDEN],
    into: &mut [i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
) {
    for lane in 0..HIDDEN {
        into[lane] = from[lane].wrapping_add(add[lane]).wrapping_sub(sub[lane]);
    }
}

/// `into` = `from` + `add` − `sub` − `sub2`: a capture, in one pass.
#[inline]
fn add_sub_sub(
    from: &[i16; HIDDEN],
    into: &mut [i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
    sub2: &[i16; HIDDEN],
) {
    for lane in 0..HIDDEN {
        into[lane] = from[lane]
            .wrapping_add(add[lane])
            .wrapping_sub(sub[lane])
            .wrapping_sub(sub2[lane]);
    }
}

/// The quantized network: hidden weights and biases scaled by `QA`, output
/// weights by `QB`, output biases by `QA × QB`.
pub struct Network {
    hidden_weights: Box<[[i16; HIDDEN]]>,
    hidden_biases: [i16; HIDDEN],
    /// By output bucket: for the side to move's hidden layer, then the other side's.
    output_weights: [[[i16; HIDDEN]; 2]; OUTPUT_BUCKETS],
    output_biases: [i32; OUTPUT_BUCKETS],
}

/// The network the engine plays chess with, fitted by `catena train` to chess positions.
pub static NETWORK: Lazy<Network> = Lazy::new(|| {
    Network::from_bytes(include_bytes!("network.bin"))
        .unwrap_or_else(|error| panic!("crates/engine/src/eval/network.bin: {error}"))
});

/// The network the engine plays SSCC with, fitted to SSCC self-play.
pub static SSCC_NETWORK: Lazy<Network> = Lazy::new(|| {
    Network::from_bytes(include_bytes!("sscc.bin"))
        .unwrap_or_else(|error| panic!("crates/engine/src/eval/sscc.bin: {error}"))
});

impl Network {
    /// The evaluation in centipawns of a position with `men` men given by
    /// its inputs from the side to move's view and from the other side's.
    pub fn evaluate_inputs(&self, ours: &[u16], theirs: &[u16], men: usize) -> i32 {
        let layer = |inputs: &[u16]| {
            let mut values = self.hidden_biases;
            for &input in inputs {
                add_row(&mut values, &self.hidden_weights[usize::from(input)]);
            }
            values
        };
        self.output(&layer(ours), &layer(theirs), output_bucket(men))
    }

    fn output(&self, ours: &[i16; HIDDEN], theirs: &[i16; HIDDEN], bucket: usize) -> i32 {
        self.output_with((ours, &[]), (theirs, &[]), bucket)
    }

    /// The output of hidden layers given as an accumulator and further
    /// rows to add to it, each side's: the rows are added lane by lane as
    /// the dot product reads them, never written back.
    fn output_with(
        &self,
        (ours, our_rows): (&[i16; HIDDEN], &[&[i16; HIDDEN]]),
        (theirs, their_rows): (&[i16; HIDDEN], &[&[i16; HIDDEN]]),
        bucket: usize,
    ) -> i32 {
        let [our_weights, their_weights] = &self.output_weights[bucket];
        let sum = squared_clipped_dot(ours, our_rows, our_weights)
            + squared_clipped_dot(theirs, their_rows, their_weights);
        let output = sum / i64::from(QA) + i64::from(self.output_biases[bucket]);
        (output * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// Builds a network from weights already scaled to the fixed point:
    /// `hidden_weights` (`INPUTS` rows of `HIDDEN`, or fewer: the rest are
    /// zero), `hidden_biases`,
    /// `output_weights` (`OUTPUT_BUCKETS × 2 × HIDDEN`), `output_biases`.
    pub fn from_quantized(
        hidden_weights: &[i16],
        hidden_biases: &[i16],
        output_weights: &[i16],
        output_biases: &[i32],
    ) -> Network {
        let mut network = Network {
            hidden_weights: vec![[0; HIDDEN]; INPUTS].into_boxed_slice(),
            hidden_biases: [0; HIDDEN],
            output_weights: [[[0; HIDDEN]; 2]; OUTPUT_BUCKETS],
            output_biases: [0; OUTPUT_BUCKETS],
        };
        for (row, weights) in network
            .hidden_weights
            .iter_mut()
            .zip(hidden_weights.chunks_exact(HIDDEN))
        {
            row.copy_from_slice(weights);
        }
        network.hidden_biases.copy_from_slice(hidden_biases);
        for (row, weights) in network
            .output_weights
            .iter_mut()
            .flatten()
            .zip(output_weights.chunks_exact(HIDDEN))
        {
            row.copy_from_slice(weights);
        }
        network.output_biases.copy_from_slice(output_biases);
        network
    }

    /// Rounds floating-point weights, in the order of `from_quantized`, to the
    /// fixed point: how `catena train` writes what it fitted.
    pub fn from_float(parameters: &[f32]) -> Network {
        let round = |values: &[f32], scale: i32| -> Vec<i16> {
            values
                .iter()
                .map(|&value| (value * scale as f32).round() as i16)
                .collect()
        };
        let (hidden, rest) = parameters.split_at(INPUTS * HIDDEN + HIDDEN);
        let (output, biases) = rest.split_at(OUTPUT_BUCKETS * 2 * HIDDEN);
        let hidden = round(hidden, QA);
        let (hidden_weights, hidden_biases) = hidden.split_at(INPUTS * HIDDEN);
        let biases: Vec<i32> = biases
            .iter()
            .map(|&bias| (bias * (QA * QB) as f32).round() as i32)
            .collect();
        Network::from_quantized(hidden_weights, hidden_biases, &round(output, QB), &biases)
    }

    /// The weights back in floating point, in the order of `from_quantized`:
    /// the inverse of `from_float`, where `catena train --init` starts from.
    pub fn to_float(&self) -> Vec<f32> {
        let scaled = |scale: i32| move |&value: &i16| f32::from(value) / scale as f32;
        let hidden = self
            .hidden_weights
            .iter()
            .flatten()
            .chain(&self.hidden_biases);
        let output = self.output_weights.iter().flatten().flatten();
        let biases = self.output_biases.iter();
        hidden
            .map(scaled(QA))
            .chain(output.map(scaled(QB)))
            .chain(biases.map(|&bias| bias as f32 / (QA * QB) as f32))
            .collect()
    }

    /// The file format: `CATENAN2`, the hidden size, the number of output
    /// buckets and the number of inputs as little-endian u32, then the
    /// weights as little-endian i16 in the order of `from_quantized`, and the
    /// output biases as i32. Files that begin `CATENANN` have no input count
    /// and the board's inputs only; the SSCC inputs' rows are then zero.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend((HIDDEN as u32).to_le_bytes());
        bytes.extend((OUTPUT_BUCKETS as u32).to_le_bytes());
        bytes.extend((INPUTS as u32).to_le_bytes());
        let values = self
            .hidden_weights
            .iter()
            .flatten()
            .chain(&self.hidden_biases)
            .chain(self.output_weights.iter().flatten().flatten());
        for value in values {
            bytes.extend(value.to_le_bytes());
        }
        for bias in self.output_biases {
            bytes.extend(bias.to_le_bytes());
        }
        bytes
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let (body, sizes_length) = if let Some(body) = bytes.strip_prefix(MAGIC) {
            (body, 12)
        } else if let Some(body) = bytes.strip_prefix(BOARD_MAGIC) {
            (body, 8)
        } else {
            return Err("not a Catena network (no CATENAN2 or CATENANN header)".into());
        };
        let (sizes, body) = body
            .split_at_checked(sizes_length)
            .ok_or("no layer sizes")?;
        let size =
            |at: usize| u32::from_le_bytes(sizes[at..at + 4].try_into().expect("four bytes"));
        let inputs = if sizes_length == 12 {
            size(8) as usize
        } else {
            BOARD_INPUTS
        };
        if inputs != INPUTS && inputs != BOARD_INPUTS {
            return Err(format!(
                "{inputs} inputs, but this build reads {INPUTS} or {BOARD_INPUTS}"
            ));
        }
        if (size(0) as usize, size(4) as usize) != (HIDDEN, OUTPUT_BUCKETS) {
            return Err(format!(
                "{} hidden units and {} output buckets, but this build has {HIDDEN} and {OUTPUT_BUCKETS}",
                size(0),
                size(4)
            ));
        }
        let weights = inputs * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN;
        let expected = 2 * weights + 4 * OUTPUT_BUCKETS;
        if body.len() != expected {
            return Err(format!(
                "{} bytes of weights, expected {expected}",
                body.len()
            ));
        }
        let (values, biases) = body.split_at(2 * weights);
        let values: Vec<i16> = values
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        let biases: Vec<i32> = biases
            .chunks_exact(4)
            .map(|word| i32::from_le_bytes(word.try_into().expect("four bytes")))
            .collect();
        let (hidden_weights, rest) = values.split_at(inputs * HIDDEN);
        let (hidden_biases, output_weights) = rest.split_at(HIDDEN);
        if let Some(weight) = output_weights
            .iter()
            .find(|weight| weight.abs() > OUTPUT_WEIGHT_LIMIT)
        {
            return Err(format!(
                "an output weight of {weight}, beyond the limit of ±{OUTPUT_WEIGHT_LIMIT}"
            ));
        }
        Ok(Network::from_quantized(
            hidden_weights,
            hidden_biases,
            output_weights,
            &biases,
        ))
    }
}

/// Σ clamp(value + the rows' values, 0, QA)² × weight. Each term fits an
/// i32, as output weights stay within `OUTPUT_WEIGHT_LIMIT`; the whole sum
/// may not, in positions no game reaches but a search might. So it is summed
/// in i32 by the lanes of a vector register, each lane a few terms, and only
/// the lanes' sums are widened.
#[inline(always)]
fn squared_clipped_dot(
    values: &[i16; HIDDEN],
    rows: &[&[i16; HIDDEN]],
    weights: &[i16; HIDDEN],
) -> i64 {
    // A vector register's lanes: the rows are added to them where they are
    // read, and each lane sums its own terms, HIDDEN / CHUNK of them.
    const CHUNK: usize = 16;
    const _: () = assert!(
        (HIDDEN / CHUNK) as i64 * (QA * QA) as i64 * OUTPUT_WEIGHT_LIMIT as i64 <= i32::MAX as i64
    );
    let mut sums = [0i32; CHUNK];
    for start in (0..HIDDEN).step_by(CHUNK) {
        let mut lanes: [i16; CHUNK] = std::array::from_fn(|lane| values[start + lane]);
        for row in rows {
            for (lane, value) in lanes.iter_mut().enumerate() {
                *value = value.wrapping_add(row[start + lane]);
            }
        }
        for (lane, sum) in sums.iter_mut().enumerate() {
            let clipped = i32::from(lanes[lane].clamp(0, QA as i16));
            *sum += clipped * clipped * i32::from(weights[start + lane]);
        }
    }
    sums.iter().map(|&sum| i64::from(sum)).sum()
}

/// The evaluation of `position` from the side to move's view, from scratch.
pub fn evaluate(position: &Position) -> i32 {
    Accumulator::new(&NETWORK, position).evaluate(&NETWORK, position)
}

/// The evaluation by the SSCC network of `position`, its side to move
/// having made `switches` switches in a row, from scratch: what the search
/// sees in SSCC before its bounds.
pub fn evaluate_sscc(position: &Position, switches: u32) -> i32 {
    let state = SsccState::new(position, switches);
    Accumulator::new(&SSCC_NETWORK, position).evaluate_sscc(&SSCC_NETWORK, position, state)
}

/// What each man other than the kings is worth to the network: the
/// evaluation from White's view less that without him, as the `eval`
/// command shows it.
pub fn piece_values(position: &Position) -> Vec<(Square, i32)> {
    let accumulator = Accumulator::new(&NETWORK, position);
    let men = position.occupied().len() as usize;
    let whole = accumulator.evaluate_for(&NETWORK, Color::White, men);
    let mut values = Vec::new();
    for color in Color::ALL {
        for piece in Piece::ALL.into_iter().filter(|&piece| piece != Piece::King) {
            for square in position.colored_pieces(color, piece) {
                let less = accumulator.without(color, piece, square);
                values.push((
                    square,
                    whole - less.evaluate_for(&NETWORK, Color::White, men - 1),
                ));
            }
        }
    }
    values
}

/// The board with each man's worth under him, in pawns from White's view,
/// and the evaluation, for the `eval` command.
pub fn describe(position: &Position) -> String {
    let values = piece_values(position);
    let mut text = String::from("Each man's worth to the network, in pawns (White's view):\n");
    let border = format!("  +{}\n", "-------+".repeat(8));
    text.push_str(&border);
    for rank in (0..8).rev() {
        let squares = (0..8).map(|file| Square::new(file, rank));
        let mut pieces = format!("{} |", rank + 1);
        let mut worths = String::from("  |");
        for square in squares {
            let letter = position.piece_on(square).map_or(' ', |piece| {
                piece.fen_letter(position.color_on(square).expect("a man has a colour"))
            });
            pieces.push_str(&format!("   {letter}   |"));
            let worth = values.iter().find(|&&(at, _)| at == square);
            worths.push_str(&match worth {
                Some(&(_, value)) => format!("{:>+7.2}|", f64::from(value) / 100.0),
                None => "       |".to_string(),
            });
        }
        text.push_str(&format!("{pieces}\n{worths}\n{border}"));
    }
    text.push_str("     a       b       c       d       e       f       g       h\n");
    let score = evaluate(position);
    let white = match position.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    };
    text.push_str(&format!(
        "Network evaluation {:+.2} (White's view), {:+.2} (side to move)",
        f64::from(white) / 100.0,
        f64::from(score) / 100.0
    ));
    text
}
