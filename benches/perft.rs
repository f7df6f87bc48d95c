//! Move generation under criterion (`cargo bench --bench perft`): chess
//! perft with bulk counting at the leaves, the same tree with every leaf
//! played (the work an SSCC perft cannot avoid), and SSCC perft, whose every
//! move that forms a chain asks the chain check. Throughput is per leaf.
//!
//! Each count is checked once against the suites before it is timed, so a
//! faster but wrong move generator shows up here as a panic, not a gain.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use catena_core::board::Position;
use catena_core::game::{Rules, SwitchRun};
use catena_core::perft::{perft, perft_playing_leaves, sscc_perft};

/// The start position and Kiwipete, with their leaf counts from
/// `perft/chess.epd` and the start position's SSCC count from `perft/sscc.epd`.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn chess(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth, leaves) in [
        ("start", START, 4, 197_281),
        ("kiwipete", KIWIPETE, 3, 97_862),
    ] {
        let position = Position::from_fen(fen).unwrap();
        assert_eq!(perft(&position, depth), leaves, "{name} perft {depth}");
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new("bulk", name), &position, |b, position| {
            b.iter(|| perft(black_box(position), depth))
        });
        group.bench_with_input(
            BenchmarkId::new("playing_leaves", name),
            &position,
            |b, position| b.iter(|| perft_playing_leaves(black_box(position), depth)),
        );
    }
    group.finish();
}

fn sscc(c: &mut Criterion) {
    let position = Position::from_fen(START).unwrap();
    let rules = Rules::default();
    let count = |position: &Position| sscc_perft(position, SwitchRun::default(), 4, &rules);
    assert_eq!(count(&position), 206_561, "start position, SSCC perft 4");
    let mut group = c.benchmark_group("sscc_perft");
    group.throughput(Throughput::Elements(206_561));
    group.bench_function("start", |b| b.iter(|| count(black_box(&position))));
    group.finish();
}

fn quick() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .nresamples(10_000)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = quick();
    targets = chess, sscc
}
criterion_main!(benches);
