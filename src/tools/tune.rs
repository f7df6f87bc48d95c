//! `catena tune`: fits the evaluation's weights to game results (Texel's
//! method). Each position's evaluation is a sum of weights times counts of
//! terms, so the predicted score, a logistic curve of the evaluation, has a
//! gradient in every weight; Adam descends the mean squared error between
//! prediction and result over the whole set at each step. It starts from the
//! formulas (`Weights::formulas`), not from the weights in use, so that a
//! run depends only on its data and options.
//!
//! Training data: lines `<fen> | <result> [| <score>]` with the result 1, 0.5
//! or 0 from White's side and, optionally, a stronger engine's score in
//! centipawns (`tests/data/make_training_set.py` writes them). A game's
//! result labels all its positions alike, so a few thousand games tell little
//! about each position; where scores are given, the target is a blend of the
//! result and the score's expectation (`--result-weight`), the scale of the
//! score fitted to the results first. The last tenth of the lines (whole
//! games, as the file lists games in order) is held out: the weights kept are
//! those of the step with the lowest error there.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

use rayon::prelude::*;

use crate::board::Position;
use crate::eval::{self, Accumulator, Term, Weights};

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Training files: `<fen> | <result>` a line.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Gradient steps over the whole set.
    #[arg(long, default_value_t = 1000)]
    steps: u32,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// The share of the game result in the target where a score is given (0 to 1).
    #[arg(long, default_value_t = 0.5)]
    result_weight: f64,
    /// Where to write the fitted weights.
    #[arg(long, default_value = "src/eval/weights.txt")]
    out: PathBuf,
}

/// A position as the tuner sees it: how often each term occurs, White-positive.
struct Sample {
    counts: Vec<(u16, i16)>,
    phase: f64,
    result: f64,
    /// The stronger engine's score, White-positive, if given.
    score: Option<f64>,
    /// What the expectation is fitted to.
    target: f64,
}

/// Collects a position's term counts.
#[derive(Default)]
struct Recorder {
    counts: Vec<(u16, i16)>,
}

impl Accumulator for Recorder {
    fn add(&mut self, term: Term, count: i32) {
        self.counts.push((term.index() as u16, count as i16));
    }
}

fn sample(position: &Position, result: f64, score: Option<f64>) -> Sample {
    let mut recorder = Recorder::default();
    let phase = eval::trace(position, &mut recorder);
    let mut counts = recorder.counts;
    counts.sort_unstable_by_key(|&(index, _)| index);
    // Merge repeats; terms both sides share cancel out.
    let mut merged: Vec<(u16, i16)> = Vec::with_capacity(counts.len());
    for (index, count) in counts {
        match merged.last_mut() {
            Some((last, total)) if *last == index => *total += count,
            _ => merged.push((index, count)),
        }
    }
    merged.retain(|&(_, count)| count != 0);
    Sample {
        counts: merged,
        phase: f64::from(phase) / 24.0,
        result,
        score,
        target: result,
    }
}

fn parse_line(line: &str) -> Result<Sample, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let (fen, result, score) = match fields.as_slice() {
        [fen, result] => (fen, result, None),
        [fen, result, score] => (fen, result, Some(score)),
        _ => return Err("expected '<fen> | <result> [| <score>]'".into()),
    };
    let result: f64 = result
        .parse()
        .map_err(|_| format!("bad result '{result}'"))?;
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("result {result} outside 0 to 1"));
    }
    let score = score
        .map(|score| {
            score
                .parse::<f64>()
                .map_err(|_| format!("bad score '{score}'"))
        })
        .transpose()?;
    let position = Position::from_fen(fen).map_err(|error| error.to_string())?;
    Ok(sample(&position, result, score))
}

/// The weights as floats: middlegame values, then endgame values.
struct Model {
    weights: Vec<f64>,
}

impl Model {
    fn new(weights: &Weights) -> Model {
        let mut values = vec![0.0; 2 * Term::COUNT];
        for (term, score) in weights.iter() {
            values[term.index()] = f64::from(score.mg);
            values[Term::COUNT + term.index()] = f64::from(score.eg);
        }
        Model { weights: values }
    }

    fn evaluate(&self, sample: &Sample) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(index, count) in &sample.counts {
            mg += self.weights[usize::from(index)] * f64::from(count);
            eg += self.weights[Term::COUNT + usize::from(index)] * f64::from(count);
        }
        mg * sample.phase + eg * (1.0 - sample.phase)
    }

    fn to_weights(&self) -> Weights {
        let mut weights = Weights::formulas();
        for term in Term::all() {
            weights[term] = eval::s(
                self.weights[term.index()].round() as i32,
                self.weights[Term::COUNT + term.index()].round() as i32,
            );
        }
        weights
    }
}

/// The expected score of an evaluation: a logistic curve scaled by `k`.
fn expected(evaluation: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * evaluation / 400.0))
}

fn mean_error(model: &Model, samples: &[Sample], k: f64) -> f64 {
    let total: f64 = samples
        .par_iter()
        .map(|sample| (sample.target - expected(model.evaluate(sample), k)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scale `k` that minimises `error(k)`, by golden-section search.
fn fit_scale(error: impl Fn(f64) -> f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.01, 4.0);
    while high - low > 0.0001 {
        let left = high - ratio * (high - low);
        let right = low + ratio * (high - low);
        if error(left) < error(right) {
            high = right;
        } else {
            low = left;
        }
    }
    (low + high) / 2.0
}

/// Blends each sample's result with its score's expectation, the score's
/// scale fitted to the results; returns that scale, if any sample has a score.
fn blend_targets(samples: &mut [Sample], result_weight: f64) -> Option<f64> {
    let scored: Vec<(f64, f64)> = samples
        .iter()
        .filter_map(|sample| Some((sample.score?, sample.result)))
        .collect();
    if scored.is_empty() {
        return None;
    }
    let scale = fit_scale(|k| {
        scored
            .par_iter()
            .map(|&(score, result)| (result - expected(score, k)).powi(2))
            .sum()
    });
    for sample in samples.iter_mut() {
        if let Some(score) = sample.score {
            sample.target =
                result_weight * sample.result + (1.0 - result_weight) * expected(score, scale);
        }
    }
    Some(scale)
}

fn gradient(model: &Model, samples: &[Sample], k: f64) -> Vec<f64> {
    let slope = k * std::f64::consts::LN_10 / 400.0;
    let mut gradient = samples
        .par_iter()
        .fold(
            || vec![0.0; 2 * Term::COUNT],
            |mut gradient, sample| {
                let predicted = expected(model.evaluate(sample), k);
                let common =
                    -2.0 * (sample.target - predicted) * predicted * (1.0 - predicted) * slope;
                let (mg, eg) = (common * sample.phase, common * (1.0 - sample.phase));
                for &(index, count) in &sample.counts {
                    gradient[usize::from(index)] += mg * f64::from(count);
                    gradient[Term::COUNT + usize::from(index)] += eg * f64::from(count);
                }
                gradient
            },
        )
        .reduce(
            || vec![0.0; 2 * Term::COUNT],
            |mut total, part| {
                total
                    .iter_mut()
                    .zip(part)
                    .for_each(|(sum, value)| *sum += value);
                total
            },
        );
    gradient
        .iter_mut()
        .for_each(|value| *value /= samples.len() as f64);
    gradient
}

fn load(paths: &[PathBuf]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let text = fs::read_to_string(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let parsed: Vec<Result<Sample, String>> = text.par_lines().map(parse_line).collect();
        for (number, parsed) in parsed.into_iter().enumerate() {
            match parsed {
                Ok(sample) => samples.push(sample),
                Err(error) => log::warn!("{}:{}: {error}; skipped", path.display(), number + 1),
            }
        }
    }
    if samples.len() < 10 {
        return Err(format!("only {} usable positions", samples.len()));
    }
    Ok(samples)
}

/// Fits the weights and writes them; prints the errors as it goes.
pub fn run(args: &TuneArgs) -> Result<bool, String> {
    if !(0.0..=1.0).contains(&args.result_weight) {
        return Err(format!(
            "--result-weight {} outside 0 to 1",
            args.result_weight
        ));
    }
    let mut samples = load(&args.data)?;
    if let Some(scale) = blend_targets(&mut samples, args.result_weight) {
        println!(
            "targets: {} x result + {} x expectation of the score (scale {scale:.3})",
            args.result_weight,
            1.0 - args.result_weight
        );
    }
    let (training, validation) = samples.split_at(samples.len() * 9 / 10);
    let mut model = Model::new(&Weights::formulas());
    let k = fit_scale(|k| mean_error(&model, training, k));
    println!(
        "{} training and {} validation positions; K {k:.3}",
        training.len(),
        validation.len()
    );
    let start_error = mean_error(&model, validation, k);
    println!(
        "step 0: training {:.6}, validation {start_error:.6}",
        mean_error(&model, training, k)
    );

    let (beta1, beta2) = (0.9f64, 0.999f64);
    let mut moment = vec![0.0; 2 * Term::COUNT];
    let mut velocity = vec![0.0; 2 * Term::COUNT];
    let (mut best_error, mut best) = (start_error, model.to_weights());
    for step in 1..=args.steps {
        let gradient = gradient(&model, training, k);
        for (index, &slope) in gradient.iter().enumerate() {
            moment[index] = beta1 * moment[index] + (1.0 - beta1) * slope;
            velocity[index] = beta2 * velocity[index] + (1.0 - beta2) * slope * slope;
            let moment_hat = moment[index] / (1.0 - beta1.powi(step as i32));
            let velocity_hat = velocity[index] / (1.0 - beta2.powi(step as i32));
            model.weights[index] -= args.rate * moment_hat / (velocity_hat.sqrt() + 1e-12);
        }
        if step % 25 == 0 || step == args.steps {
            let error = mean_error(&model, validation, k);
            if error < best_error {
                best_error = error;
                best = model.to_weights();
            }
            println!(
                "step {step}: training {:.6}, validation {error:.6}",
                mean_error(&model, training, k)
            );
        }
    }
    println!("best validation error {best_error:.6} (from {start_error:.6})");

    let command: Vec<String> = std::env::args().skip(1).collect();
    let header = format!(
        "# Fitted by `catena {}`\n# from the formulas, on {} training positions ({} held out), \
         K {k:.3}: validation error {start_error:.6} before, {best_error:.6} after.\n",
        command.join(" "),
        training.len(),
        validation.len()
    );
    let mut file = fs::File::create(&args.out)
        .map_err(|error| format!("cannot write {}: {error}", args.out.display()))?;
    write!(file, "{header}{best}")
        .map_err(|error| format!("cannot write {}: {error}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_counts_the_difference_between_the_sides() {
        crate::board::attacks::init();
        let start = parse_line(&format!("{} | 0.5", Position::START_FEN)).unwrap();
        // Symmetric armies cancel out but for the side to move.
        assert_eq!(start.counts, vec![(Term::Tempo.index() as u16, 1)]);
        let up_a_knight = parse_line("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 | 1").unwrap();
        let knight = Term::Psqt(crate::board::Piece::Knight, crate::board::Square::new(1, 0));
        assert!(up_a_knight.counts.contains(&(knight.index() as u16, 1)));
    }

    #[test]
    fn descent_lowers_the_error() {
        crate::board::attacks::init();
        // The side with the extra knight always wins: descending the error
        // must move the weights towards saying so.
        let samples: Vec<Sample> = [
            "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 | 1",
            "4k3/8/8/3N4/8/8/8/4K3 b - - 0 1 | 1",
            "4k3/8/8/8/5N2/8/8/4K3 w - - 0 1 | 1",
            "1n2k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0",
            "4k3/8/8/8/3n4/8/8/4K3 b - - 0 1 | 0",
            "4k3/8/2n5/8/8/8/8/4K3 w - - 0 1 | 0",
        ]
        .into_iter()
        .map(|line| parse_line(line).unwrap())
        .collect();
        let mut model = Model::new(&Weights::formulas());
        // Start from a knight worth nothing.
        for index in 0..2 * Term::COUNT {
            model.weights[index] = 0.0;
        }
        let before = mean_error(&model, &samples, 1.0);
        for _ in 0..20 {
            let gradient = gradient(&model, &samples, 1.0);
            for (weight, slope) in model.weights.iter_mut().zip(&gradient) {
                *weight -= 1e4 * slope;
            }
        }
        assert!(mean_error(&model, &samples, 1.0) < before - 0.01);
    }
}
