//! `catena train`: fits the evaluation network (`eval::network`) to labelled
//! positions.
//!
//! Training data: lines `<fen> | <result> | <score>`, the result 1, 0.5 or 0
//! from White's side and a stronger engine's score in centipawns, also from
//! White's side (`tests/data/make_training_set.py` writes them). SSCC
//! positions (`catena datagen` writes them) have a fourth field, `<switches>
//! <spent>`, the run of the side to move, and are seen with the SSCC inputs
//! (`network::SsccState`); their result is that of the player controlling
//! White at that moment. A fifth field, `<handing> <moves>` (`catena datagen
//! --probe-nodes`), says how many of the side to move's moves hand the
//! opponent a run that mates: where every one does, only a switch can save
//! the player, and `--probe-weight` moves the score's part of the target
//! that far towards a loss. The target of
//! each position, from the side to move's view, is a blend of the score's
//! expectation, logistic(score / 400), and the result (`--result-weight`); the
//! network's output, taken as the same logistic, is fitted to it by the mean
//! squared error, with Adam over mini-batches (and decoupled weight decay)
//! and a learning rate falling on a cosine from `--rate` to a hundredth of
//! it. Positions without castling rights are worth the same turned left to
//! right, so `--mirror` trains on both. The last twentieth of the lines
//! (whole games, as the generator writes games in order), or the file given
//! by `--held-out`, is held out; the weights kept are those of the epoch with
//! the lowest error there.
//!
//! Training runs in floating point; the file written holds the weights
//! rounded to the engine's fixed point. From random weights, the rows of
//! inputs that no training position uses start at zero, and stay there.

use crate::cli::{Failure, FailureKind};
use crate::tools::progress::Progress;
use catena_core::rng::SplitMix64;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use arrayvec::ArrayVec;
use rayon::prelude::*;

use catena_core::board::{CastlingRights, Color, Position};
use catena_engine::eval::network::{
    self, HIDDEN, INPUTS, MAX_ACTIVE, Network, OUTPUT_BUCKETS, SCALE, SsccState, WEIGHT_CLIP,
    output_bucket,
};

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training files: `<fen> | <result> | <score>` a line, `| <switches> <spent>` for SSCC,
    /// and `| <handing> <moves>` where the run probe was asked.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Passes over the training positions; 0 only measures the `--init`
    /// network's held-out error, and writes nothing.
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's first learning rate.
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// Decoupled weight decay (AdamW): each step shrinks the weights by this
    /// times the learning rate, which keeps them from fitting the noise.
    #[arg(long, default_value_t = 0.1)]
    weight_decay: f32,
    /// The share of the game result in the target (0 to 1).
    #[arg(long, default_value_t = 0.2)]
    result_weight: f32,
    /// Where the run probe found that every move hands the opponent a run
    /// that mates (the fifth field), the share of that verdict, a loss, in
    /// the score's part of the target (0 to 1).
    #[arg(long, default_value_t = 0.0)]
    probe_weight: f32,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train also on each position without castling rights turned left to
    /// right, which is worth the same (the held-out positions stay as they are).
    #[arg(long)]
    mirror: bool,
    /// Hold out this file's positions instead of the last twentieth of the
    /// training files: a fixed yardstick for runs on different data.
    #[arg(long)]
    held_out: Option<PathBuf>,
    /// Start from this network's weights instead of random ones (fine-tuning
    /// on new data); its held-out error is reported as epoch 0, and it is
    /// written back unchanged if no epoch does better.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Where to write the network.
    #[arg(long, default_value = "crates/engine/src/eval/network.bin")]
    out: PathBuf,
}

/// The training positions, each view's inputs packed end to end: about 120
/// bytes a chess position, where room for the most inputs any position can
/// have took 280, so that some 60M positions fit in memory.
#[derive(Default)]
struct Samples {
    inputs: Vec<u16>,
    entries: Vec<Entry>,
}

/// Where one position of `Samples` is: where its inputs start and how many
/// each view has, with the men on its board (which choose the output
/// bucket) and its target from the side to move's view. Shuffling moves
/// these, not the inputs.
#[derive(Clone, Copy)]
struct Entry {
    start: u64,
    lengths: [u8; 2],
    men: u8,
    target: f32,
}

/// A position as the trainer sees it: its inputs from the side to move's
/// view and from the other side's, and its target from the side to move's.
struct Sample<'a> {
    views: [&'a [u16]; 2],
    men: u8,
    target: f32,
}

impl Samples {
    fn push(&mut self, views: [&[u16]; 2], men: u8, target: f32) {
        let start = self.inputs.len() as u64;
        for view in views {
            self.inputs.extend_from_slice(view);
        }
        self.entries.push(Entry {
            start,
            lengths: views.map(|view| view.len() as u8),
            men,
            target,
        });
    }

    fn append(&mut self, other: &Samples) {
        for entry in &other.entries {
            let sample = other.sample(entry);
            self.push(sample.views, sample.men, sample.target);
        }
    }

    fn sample(&self, entry: &Entry) -> Sample<'_> {
        let start = entry.start as usize;
        let [ours, theirs] = entry.lengths.map(usize::from);
        Sample {
            views: [
                &self.inputs[start..][..ours],
                &self.inputs[start + ours..][..theirs],
            ],
            men: entry.men,
            target: entry.target,
        }
    }

    /// The last `count` positions, taken out before any shuffle, while the
    /// entries still follow the inputs' order.
    fn split_off_last(&mut self, count: usize) -> Samples {
        let entries = self.entries.split_off(self.entries.len() - count);
        let mut last = Samples::default();
        for entry in &entries {
            let sample = self.sample(entry);
            last.push(sample.views, sample.men, sample.target);
        }
        if let Some(first) = entries.first() {
            self.inputs.truncate(first.start as usize);
        }
        last
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The samples of `line` into `samples`: the position, and its mirror image
/// (first) where `mirror` asks for it and the position has no castling rights.
fn parse_line(
    line: &str,
    weights: Weights,
    mirror: bool,
    samples: &mut Samples,
) -> Result<(), String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let (fen, result, score, run, probe) = match fields[..] {
        [fen, result, score] => (fen, result, score, None, None),
        [fen, result, score, run] => (fen, result, score, Some(run), None),
        [fen, result, score, run, probe] => (fen, result, score, Some(run), Some(probe)),
        _ => {
            return Err(
                "expected `<fen> | <result> | <score>`, perhaps `| <switches> <spent>` and `| <handing> <moves>`".into(),
            );
        }
    };
    let lost = match probe {
        Some(probe) => {
            let counts: Vec<u32> = probe
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| format!("bad probe {probe:?}"))?;
            match counts[..] {
                [handing, moves] if handing <= moves => moves > 0 && handing == moves,
                _ => return Err(format!("bad probe {probe:?}")),
            }
        }
        None => false,
    };
    let position = Position::from_fen(fen).map_err(|error| format!("{error}"))?;
    let result: f32 = result
        .parse()
        .map_err(|_| format!("bad result {result:?}"))?;
    let score: f32 = score.parse().map_err(|_| format!("bad score {score:?}"))?;
    let us = position.side_to_move();
    let (result, score) = match us {
        Color::White => (result, score),
        Color::Black => (1.0 - result, -score),
    };
    let mut expected = sigmoid(score / SCALE as f32);
    if lost {
        expected *= 1.0 - weights.probe;
    }
    let target = weights.result * result + (1.0 - weights.result) * expected;
    let sscc = match run {
        Some(run) => {
            let switches = run
                .split_whitespace()
                .next()
                .and_then(|switches| switches.parse().ok())
                .ok_or_else(|| format!("bad run {run:?}"))?;
            Some(SsccState::new(&position, switches))
        }
        None => None,
    };
    let mut views: [ArrayVec<u16, MAX_ACTIVE>; 2] = [ArrayVec::new(), ArrayVec::new()];
    for (inputs, view) in views.iter_mut().zip([us, !us]) {
        network::for_each_feature(&position, view, |input| {
            inputs.push(input as u16);
        });
        if let Some(state) = sscc {
            state.for_each_feature(view, us, |input| inputs.push(input as u16));
        }
    }
    let men = position.occupied().len() as u8;
    if mirror && position.castling_rights() == CastlingRights::NONE {
        let turned: [ArrayVec<u16, MAX_ACTIVE>; 2] = views.clone().map(|inputs| {
            inputs
                .into_iter()
                .map(|input| network::mirrored(input.into()) as u16)
                .collect()
        });
        samples.push([&turned[0], &turned[1]], men, target);
    }
    samples.push([&views[0], &views[1]], men, target);
    Ok(())
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Where each group of parameters starts in the flat vector.
const HIDDEN_WEIGHTS: usize = 0;
const HIDDEN_BIASES: usize = INPUTS * HIDDEN;
const OUTPUT_WEIGHTS: usize = HIDDEN_BIASES + HIDDEN;
const OUTPUT_BIASES: usize = OUTPUT_WEIGHTS + OUTPUT_BUCKETS * 2 * HIDDEN;
const PARAMETERS: usize = OUTPUT_BIASES + OUTPUT_BUCKETS;

/// Where the output weights of `sample`'s bucket start, and its output bias.
fn output_parameters(sample: &Sample<'_>) -> (usize, usize) {
    let bucket = output_bucket(sample.men.into());
    (OUTPUT_WEIGHTS + bucket * 2 * HIDDEN, OUTPUT_BIASES + bucket)
}

/// The hidden layers of one position, before activation.
fn hidden_layers(parameters: &[f32], sample: &Sample<'_>) -> [[f32; HIDDEN]; 2] {
    let mut hidden = [[0.0; HIDDEN]; 2];
    for (layer, inputs) in hidden.iter_mut().zip(sample.views) {
        layer.copy_from_slice(&parameters[HIDDEN_BIASES..][..HIDDEN]);
        for &input in inputs {
            let row = &parameters[HIDDEN_WEIGHTS + usize::from(input) * HIDDEN..][..HIDDEN];
            for (value, weight) in layer.iter_mut().zip(row) {
                *value += weight;
            }
        }
    }
    hidden
}

fn activation(value: f32) -> f32 {
    let clipped = value.clamp(0.0, 1.0);
    clipped * clipped
}

/// The network's output (in units of `SCALE` centipawns).
fn output(parameters: &[f32], sample: &Sample<'_>, hidden: &[[f32; HIDDEN]; 2]) -> f32 {
    let (weights, bias) = output_parameters(sample);
    let mut output = parameters[bias];
    for (side, layer) in hidden.iter().enumerate() {
        let weights = &parameters[weights + side * HIDDEN..][..HIDDEN];
        output += layer
            .iter()
            .zip(weights)
            .map(|(&value, &weight)| activation(value) * weight)
            .sum::<f32>();
    }
    output
}

/// Adds the gradient of the squared error over `entries` of `samples` to
/// `gradient`; returns the summed error.
fn add_gradient(
    parameters: &[f32],
    samples: &Samples,
    entries: &[Entry],
    gradient: &mut [f32],
) -> f64 {
    let mut total = 0.0;
    for entry in entries {
        let sample = &samples.sample(entry);
        let hidden = hidden_layers(parameters, sample);
        let predicted = sigmoid(output(parameters, sample, &hidden));
        let error = predicted - sample.target;
        total += f64::from(error * error);
        let d_output = 2.0 * error * predicted * (1.0 - predicted);
        let (output_weights, output_bias) = output_parameters(sample);
        gradient[output_bias] += d_output;
        for (side, (layer, inputs)) in hidden.iter().zip(sample.views).enumerate() {
            let weights = output_weights + side * HIDDEN;
            let mut d_hidden = [0.0f32; HIDDEN];
            for (unit, &value) in layer.iter().enumerate() {
                gradient[weights + unit] += d_output * activation(value);
                if value > 0.0 && value < 1.0 {
                    d_hidden[unit] = d_output * parameters[weights + unit] * 2.0 * value;
                }
            }
            for (bias, d) in gradient[HIDDEN_BIASES..][..HIDDEN]
                .iter_mut()
                .zip(&d_hidden)
            {
                *bias += d;
            }
            for &input in inputs {
                let row = &mut gradient[HIDDEN_WEIGHTS + usize::from(input) * HIDDEN..][..HIDDEN];
                for (weight, d) in row.iter_mut().zip(&d_hidden) {
                    *weight += d;
                }
            }
        }
    }
    total
}

/// Batches are cut into this many parts, whatever the number of threads,
/// and their gradients added in order, so that a run gives the same network
/// on any machine.
const PARTS: usize = 16;

/// The sum of `term` over `samples`, in parallel but always added up in the
/// same order.
fn ordered_sum(samples: &Samples, term: impl Fn(&Sample<'_>) -> f64 + Sync) -> f64 {
    samples
        .entries
        .par_chunks(1024)
        .map(|chunk| {
            chunk
                .iter()
                .map(|entry| term(&samples.sample(entry)))
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .into_iter()
        .sum()
}

/// Mean squared error over `samples`.
fn mean_error(parameters: &[f32], samples: &Samples) -> f64 {
    let total = ordered_sum(samples, |sample| {
        let hidden = hidden_layers(parameters, sample);
        f64::from((sigmoid(output(parameters, sample, &hidden)) - sample.target).powi(2))
    });
    total / samples.len().max(1) as f64
}

/// Adam's running moments.
struct Adam {
    mean: Vec<f32>,
    variance: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new() -> Adam {
        Adam {
            mean: vec![0.0; PARAMETERS],
            variance: vec![0.0; PARAMETERS],
            steps: 0,
        }
    }

    fn step(&mut self, parameters: &mut [f32], gradient: &[f32], rate: f32, decay: f32) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        let moments = self.mean.par_iter_mut().zip(self.variance.par_iter_mut());
        parameters
            .par_iter_mut()
            .zip(gradient.par_iter())
            .zip(moments)
            .for_each(|((parameter, &g), (mean, variance))| {
                *mean = Self::BETA1 * *mean + (1.0 - Self::BETA1) * g;
                *variance = Self::BETA2 * *variance + (1.0 - Self::BETA2) * g * g;
                let step = rate * (*mean / correction1)
                    / ((*variance / correction2).sqrt() + Self::EPSILON);
                *parameter =
                    (*parameter * (1.0 - rate * decay) - step).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
            });
    }
}

fn initial_parameters(random: &mut SplitMix64) -> Vec<f32> {
    let mut parameters = vec![0.0; PARAMETERS];
    let hidden_bound = 1.0 / (INPUTS as f32).sqrt();
    let output_bound = 1.0 / (2.0 * HIDDEN as f32).sqrt();
    for weight in &mut parameters[HIDDEN_WEIGHTS..HIDDEN_BIASES] {
        *weight = random.uniform(hidden_bound);
    }
    for weight in &mut parameters[OUTPUT_WEIGHTS..OUTPUT_BIASES] {
        *weight = random.uniform(output_bound);
    }
    parameters
}

/// Which inputs at least one of `samples` uses, from either side's view.
fn used_inputs(samples: &Samples) -> Vec<bool> {
    let mut used = vec![false; INPUTS];
    for &input in &samples.inputs {
        used[usize::from(input)] = true;
    }
    used
}

/// Lines parsed at once: each part's samples are packed on their own, in
/// parallel, then appended in order.
const LINES_PER_PART: usize = 65_536;

/// The shares of the target: the game's result, and the probe's verdict in
/// what remains.
#[derive(Clone, Copy)]
struct Weights {
    result: f32,
    probe: f32,
}

fn load(paths: &[PathBuf], weights: Weights, mirror: bool) -> Result<Samples, String> {
    let mut samples = Samples::default();
    for path in paths {
        let text = fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .collect();
        let parts: Result<Vec<Samples>, String> = lines
            .par_chunks(LINES_PER_PART)
            .map(|part| {
                let mut samples = Samples::default();
                for &(number, line) in part {
                    parse_line(line, weights, mirror, &mut samples)
                        .map_err(|error| format!("{}:{}: {error}", path.display(), number + 1))?;
                }
                Ok(samples)
            })
            .collect();
        for part in &parts? {
            samples.append(part);
        }
    }
    Ok(samples)
}

/// Runs the command: the arguments and the files they name are read and
/// checked first (bad input), then the network is fitted and written.
pub fn run(args: &TrainArgs) -> Result<bool, Failure> {
    if !(0.0..=1.0).contains(&args.result_weight) {
        return Err(Failure::Usage(
            "--result-weight must lie between 0 and 1".into(),
        ));
    }
    if !(0.0..=1.0).contains(&args.probe_weight) {
        return Err(Failure::Usage(
            "--probe-weight must lie between 0 and 1".into(),
        ));
    }
    let weights = Weights {
        result: args.result_weight,
        probe: args.probe_weight,
    };
    if args.batch == 0 {
        return Err(Failure::Usage("--batch must be positive".into()));
    }
    if args.epochs == 0 && args.init.is_none() {
        return Err(Failure::Usage(
            "--epochs 0 measures the --init network: give --init".into(),
        ));
    }
    // Read before the data, so that a bad file is reported at once.
    let initial_network = match &args.init {
        Some(path) => {
            let bytes = fs::read(path)
                .map_err(|error| format!("cannot read {}: {error}", path.display()))
                .or_usage()?;
            let network = Network::from_bytes(&bytes)
                .map_err(|error| format!("{}: {error}", path.display()))
                .or_usage()?;
            Some((path, network))
        }
        None => None,
    };
    let started = Instant::now();
    let mut samples = load(&args.data, weights, args.mirror).or_usage()?;
    let held_out = match &args.held_out {
        Some(path) => load(std::slice::from_ref(path), weights, false).or_usage()?,
        None => samples.split_off_last(samples.len() / 20),
    };
    if samples.is_empty() || held_out.is_empty() {
        return Err(Failure::Usage(format!(
            "{} training and {} held-out positions: too few",
            samples.len(),
            held_out.len()
        )));
    }
    eprintln!(
        "{} training and {} held-out positions, read in {:.1} s",
        samples.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );

    let mut random = SplitMix64::new(args.seed);
    // Drawn even when `--init` replaces them, so that the shuffles are the same.
    let mut random_start = initial_parameters(&mut random);
    // An input no training position uses never gets a gradient: its row
    // would keep its random start (shrunk by the decay) in the file, as
    // noise the engine adds whenever a position uses it after all.
    let used = used_inputs(&samples);
    for (input, row) in random_start[HIDDEN_WEIGHTS..HIDDEN_BIASES]
        .chunks_mut(HIDDEN)
        .enumerate()
    {
        if !used[input] {
            row.fill(0.0);
        }
    }
    let (mut parameters, mut best) = match &initial_network {
        Some((path, network)) => {
            let parameters = network.to_float();
            let held_out_error = mean_error(&parameters, &held_out);
            eprintln!(
                "epoch 0 ({}): held-out error {held_out_error:.6}",
                path.display()
            );
            (parameters.clone(), (held_out_error, 0, parameters))
        }
        None => (random_start.clone(), (f64::INFINITY, 0, random_start)),
    };
    if args.epochs == 0 {
        eprintln!("--epochs 0: nothing trained, nothing written");
        return Ok(true);
    }
    let mut adam = Adam::new();
    let batches_per_epoch = samples.len().div_ceil(args.batch);
    let total_batches = (batches_per_epoch * args.epochs as usize) as f32;
    let mut batch_number = 0;
    let bar = Progress::new((batches_per_epoch * args.epochs as usize) as u64, "batches");
    for epoch in 1..=args.epochs {
        // Fisher–Yates, seeded.
        for index in (1..samples.len()).rev() {
            samples.entries.swap(index, random.below(index + 1));
        }
        let (mut training_error, mut seen) = (0.0, 0);
        for batch in samples.entries.chunks(args.batch) {
            let parts: Vec<(Vec<f32>, f64)> = batch
                .par_chunks(batch.len().div_ceil(PARTS))
                .map(|part| {
                    let mut gradient = vec![0.0f32; PARAMETERS];
                    let error = add_gradient(&parameters, &samples, part, &mut gradient);
                    (gradient, error)
                })
                .collect();
            let mut gradient = vec![0.0f32; PARAMETERS];
            for (part, error) in parts {
                gradient
                    .iter_mut()
                    .zip(&part)
                    .for_each(|(sum, g)| *sum += g);
                training_error += error;
            }
            let scale = 1.0 / batch.len() as f32;
            gradient.iter_mut().for_each(|g| *g *= scale);
            let progress = batch_number as f32 / total_batches;
            let rate =
                args.rate * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            adam.step(&mut parameters, &gradient, rate, args.weight_decay);
            batch_number += 1;
            seen += batch.len();
            bar.advance(format!(
                "epoch {epoch}, training error {:.6}",
                training_error / seen as f64
            ));
        }
        let held_out_error = mean_error(&parameters, &held_out);
        bar.eprintln(&format!(
            "epoch {epoch}: training error {:.6}, held-out error {held_out_error:.6} ({:.0} s)",
            training_error / samples.len() as f64,
            started.elapsed().as_secs_f64()
        ));
        if held_out_error < best.0 {
            best = (held_out_error, epoch, parameters.clone());
        }
    }

    drop(bar);
    let (error, epoch, parameters) = best;
    let network = Network::from_float(&parameters);
    let rounding = ordered_sum(&held_out, |sample| {
        let exact = output(&parameters, sample, &hidden_layers(&parameters, sample)) * SCALE as f32;
        let engine = network.evaluate_inputs(sample.views[0], sample.views[1], sample.men.into());
        f64::from((exact - engine as f32).abs())
    });
    eprintln!(
        "fixed point against floating point on the held-out positions: {:.2} cp apart on average",
        rounding / held_out.len() as f64
    );
    fs::write(&args.out, network.to_bytes())
        .map_err(|error| format!("cannot write {}: {error}", args.out.display()))
        .or_runtime()?;
    eprintln!(
        "held-out error {error:.6} at its lowest (epoch {epoch}); network written to {}",
        args.out.display()
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The target of one line, read with `weights`.
    fn target(line: &str, weights: Weights) -> f32 {
        let mut samples = Samples::default();
        parse_line(line, weights, false, &mut samples).unwrap();
        samples.entries[0].target
    }

    #[test]
    fn the_probe_verdict_moves_the_target_only_where_every_move_hands_over() {
        let fen = Position::START_FEN;
        let weights = |probe| Weights { result: 0.0, probe };
        let score = sigmoid(400.0 / SCALE as f32);
        // Not every move hands over: the score's expectation, whatever the weight.
        let some = format!("{fen} | 1 | 400 | 0 0 | 19 20");
        assert_eq!(target(&some, weights(1.0)), score);
        // Every move: the weight's share of the way to a loss.
        let all = format!("{fen} | 1 | 400 | 0 0 | 20 20");
        assert_eq!(target(&all, weights(0.0)), score);
        assert_eq!(target(&all, weights(0.5)), score * 0.5);
        assert_eq!(target(&all, weights(1.0)), 0.0);
        // The result's share stays the result's.
        let blended = Weights {
            result: 0.25,
            probe: 1.0,
        };
        assert_eq!(target(&all, blended), 0.25);
    }
}
