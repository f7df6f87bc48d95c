//! `catena bench`: a fixed-depth search over built-in positions, whose total
//! node count is the signature of the search (the same with one thread on any
//! machine) and whose speed compares builds.

use crate::history::Histories;
use crate::thread::{Control, Limits, Root};
use crate::threadpool;
use catena_core::game::Variant;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::transposition::TranspositionTable;
use catena_core::board::Position;
use catena_core::game::{Rules, SwitchRun};

pub const DEFAULT_DEPTH: i32 = 10;

/// Chess positions: openings, middlegames with tactics, endgames.
const CHESS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 2 48",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
];

/// SSCC positions with chains one move away (the examples of docs/rules.md, section 2, and their neighbours).
const SSCC: &[&str] = &[
    "rnbqkbnr/pppp1ppp/8/4p3/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 2",
    "1b4rk/n1p3pr/p1np3p/1p1pp3/3PP3/P1NPP3/N1PRK3/1B2Q3 w - - 0 1",
    "5rk1/ppp1nrpp/2nq2b1/3p2P1/3P1PP1/P1N1P3/1P2B3/2RQK2R b K - 0 16",
    "r1bqk2r/ppp2ppp/2n2n2/2bpp3/8/2PP1N2/PP1NPPPP/R1BQKB1R w KQkq - 0 5",
];

/// Runs the bench, handing each line to `print` as it comes; the last one is
/// `<nodes> nodes <nps> nps`. `control`'s stop ends it early (the UCI
/// `stop`), with `bench stopped` as the last line instead.
pub fn run(
    depth: i32,
    hash_mb: usize,
    threads: usize,
    control: &Control,
    print: &mut dyn FnMut(&str),
) {
    let tt = Arc::new(TranspositionTable::new(hash_mb));
    let limits = Limits {
        depth: Some(depth),
        multipv: 1,
        threads: threads.max(1),
        ..Limits::default()
    };
    let positions = CHESS.iter().map(|fen| (fen, Variant::Chess)).chain(
        SSCC.iter()
            .map(|fen| (fen, Variant::Sscc(Rules::default()))),
    );
    let mut histories: Vec<Histories> = Vec::new();
    let (mut total, started) = (0u64, Instant::now());
    for (index, (fen, variant)) in positions.enumerate() {
        let position = Position::from_fen(fen).expect("the bench positions are valid FENs");
        let root = Root {
            position,
            run: SwitchRun::default(),
            history: Vec::new(),
            variant,
        };
        let result = threadpool::search(
            &root,
            &limits,
            &tt,
            &mut histories,
            control,
            Instant::now(),
            &mut |_| {},
        );
        if control.stop.load(Ordering::Relaxed) {
            print("bench stopped");
            return;
        }
        total += result.nodes;
        let best = result
            .best
            .map_or("0000".to_string(), |action| action.to_string());
        print(&format!(
            "position {:>2} {} {fen}: bestmove {best} nodes {}",
            index + 1,
            match variant {
                Variant::Chess => "chess",
                Variant::Sscc(_) => "sscc ",
            },
            result.nodes
        ));
    }
    let elapsed = started.elapsed().as_secs_f64().max(1e-6);
    print(&format!(
        "{total} nodes {} nps",
        (total as f64 / elapsed) as u64
    ));
}
