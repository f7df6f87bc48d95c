//! The evaluation network: the search's incremental hidden layers equal those
//! computed from scratch, both colours are rated alike, the file format
//! round-trips, and the trained weights know material.

use catena_core::board::Position;
use catena_engine::eval::network::{
    Accumulator, BOARD_INPUTS, HIDDEN, INPUTS, NETWORK, Network, PocketLayer, SSCC_NETWORK,
    SsccState, evaluate, evaluate_sscc, for_each_feature,
};
use proptest::prelude::*;

use crate::common::strategies::{ChessGame, chess_game};

/// The same position with the board turned over and the colours swapped.
fn mirrored(position: &Position) -> Position {
    let fen = position.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let swapped = swap_case(fields[2]);
        let mut letters: Vec<char> = swapped.chars().collect();
        letters.sort_by_key(|c| "KQkq".find(*c));
        letters.into_iter().collect()
    };
    let en_passant = match fields[3] {
        "-" => "-".to_string(),
        square => {
            let (file, rank) = square.split_at(1);
            let rank: u8 = rank.parse().unwrap();
            format!("{file}{}", 9 - rank)
        }
    };
    let fen = [
        board.join("/").as_str(),
        side,
        &castling,
        &en_passant,
        fields[4],
        fields[5],
    ]
    .join(" ");
    Position::from_fen(&fen).unwrap()
}

/// Starts where castling, en passant and promotion come up.
const STARTS: [&str; 4] = [
    Position::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// The positions of a game, its start first.
fn line(game: &ChessGame) -> Vec<Position> {
    let mut line = vec![Position::from_fen(game.start).unwrap()];
    line.extend(
        game.moves()
            .into_iter()
            .map(|(before, mv)| before.after(mv)),
    );
    line
}

proptest! {
    #![proptest_config(crate::common::strategies::config(200))]

    /// After every move of a random game, and after a pass there. A failure
    /// shrinks to the shortest game that shows it.
    #[test]
    fn incremental_hidden_layers_equal_those_from_scratch(game in chess_game(&STARTS, 0..150)) {
        let line = line(&game);
        let mut accumulator = Accumulator::new(&NETWORK, &line[0]);
        for pair in line.windows(2) {
            let mut next = accumulator.clone();
            accumulator.after(&NETWORK, &pair[0], &pair[1], &mut next);
            prop_assert_eq!(&next, &Accumulator::new(&NETWORK, &pair[1]), "{}", pair[1]);
            // A pass (as null-move pruning makes) or a switch keeps the board.
            if let Some(passed) = pair[1].null_move() {
                let mut after_pass = next.clone();
                next.after(&NETWORK, &pair[1], &passed, &mut after_pass);
                prop_assert_eq!(&after_pass, &next, "{}", pair[1]);
                prop_assert_eq!(after_pass.evaluate(&NETWORK, &passed), evaluate(&passed), "{}", passed);
            }
            accumulator = next;
        }
    }
}

proptest! {
    #![proptest_config(crate::common::strategies::config(40))]

    /// The SSCC evaluation adds the pockets' and the run's rows to the
    /// accumulator as its output reads them: the same value as the hidden
    /// layers summed row by row from every input.
    #[test]
    fn sscc_evaluation_equals_the_sum_of_its_inputs(game in chess_game(&STARTS, 0..150)) {
        for position in line(&game).iter().step_by(3) {
            for switches in [0, 1, 2, 5] {
                let state = SsccState::new(position, switches);
                let us = position.side_to_move();
                let inputs = |view| {
                    let mut inputs = Vec::new();
                    for_each_feature(position, view, |input| inputs.push(input as u16));
                    state.for_each_feature(view, us, |input| inputs.push(input as u16));
                    inputs
                };
                let men = position.occupied().len() as usize;
                prop_assert_eq!(
                    Accumulator::new(&SSCC_NETWORK, position).evaluate_sscc(&SSCC_NETWORK, position, state),
                    SSCC_NETWORK.evaluate_inputs(&inputs(us), &inputs(!us), men),
                    "{} after {} switches", position, switches
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(crate::common::strategies::config(40))]

    /// A pocket layer brought up to date from an older one, or from the
    /// previous position's, holds the same rows as one summed from scratch,
    /// and evaluates alike: as the search keeps them, a ply's layer last
    /// held another line's pockets.
    #[test]
    fn pocket_layers_kept_up_to_date_equal_those_from_scratch(game in chess_game(&STARTS, 0..150)) {
        let line = line(&game);
        let mut older = PocketLayer::new(&SSCC_NETWORK);
        let mut previous = PocketLayer::new(&SSCC_NETWORK);
        for position in &line {
            let state = SsccState::new(position, 1);
            let fresh = PocketLayer::of(&SSCC_NETWORK, state.pockets);
            let mut from_either = older.clone();
            from_either.update(&SSCC_NETWORK, Some(&previous), state.pockets);
            let mut from_itself = older.clone();
            from_itself.update(&SSCC_NETWORK, None, state.pockets);
            prop_assert_eq!(&from_either, &fresh, "{}", position);
            prop_assert_eq!(&from_itself, &fresh, "{}", position);
            let accumulator = Accumulator::new(&SSCC_NETWORK, position);
            prop_assert_eq!(
                accumulator.evaluate_sscc_with(&SSCC_NETWORK, position, state, &from_either),
                accumulator.evaluate_sscc(&SSCC_NETWORK, position, state),
                "{}", position
            );
            older = previous;
            previous = from_either;
        }
    }
}

/// Pockets come and go along a line, and a layer follows them either way.
#[test]
fn a_pocket_layer_follows_pockets_that_come_and_go() {
    let start = Position::startpos();
    let pocketed =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2").unwrap();
    let pockets = SsccState::new(&pocketed, 0).pockets;
    assert_eq!(pockets.len(), 2);
    let none = PocketLayer::new(&SSCC_NETWORK);
    let mut layer = none.clone();
    layer.update(&SSCC_NETWORK, None, pockets);
    assert_eq!(layer.pockets(), pockets);
    assert_ne!(layer, none);
    assert_eq!(layer, PocketLayer::of(&SSCC_NETWORK, pockets));
    layer.update(&SSCC_NETWORK, None, SsccState::new(&start, 0).pockets);
    assert_eq!(layer, none);
}

proptest! {
    #![proptest_config(crate::common::strategies::config(40))]

    #[test]
    fn both_colours_are_rated_alike(game in chess_game(&STARTS, 0..150)) {
        for position in line(&game).iter().step_by(7) {
            prop_assert_eq!(evaluate(position), evaluate(&mirrored(position)), "{}", position);
        }
    }
}

#[test]
fn the_network_file_round_trips_and_bad_files_are_refused() {
    let bytes = NETWORK.to_bytes();
    let reread = Network::from_bytes(&bytes).unwrap();
    assert_eq!(reread.to_bytes(), bytes);

    let error = |bytes: &[u8]| Network::from_bytes(bytes).err().unwrap();
    assert!(error(b"not a network").contains("CATENAN2"));
    assert!(error(&bytes[..bytes.len() - 1]).contains("bytes of weights"));
    for size_byte in [8, 12] {
        let mut other_size = bytes.clone();
        other_size[size_byte] ^= 1;
        assert!(error(&other_size).contains("this build has"));
    }
    let mut other_inputs = bytes.clone();
    other_inputs[16] ^= 1;
    assert!(error(&other_inputs).contains("inputs, but this build reads"));
    // The output's dot product sums in i32 on the trainer's weight limit.
    let first_output_weight = 20 + 2 * (INPUTS * HIDDEN + HIDDEN);
    let mut too_large = bytes.clone();
    too_large[first_output_weight..first_output_weight + 2].copy_from_slice(&300i16.to_le_bytes());
    assert!(error(&too_large).contains("output weight of 300"));
}

/// A file from before the SSCC inputs (`CATENANN`, no input count, the
/// board's rows only) is read with those inputs' rows zero: the SSCC
/// network before its first training is the chess network.
#[test]
fn a_board_only_file_reads_with_no_weight_on_the_sscc_inputs() {
    let bytes = NETWORK.to_bytes();
    let rows = |count: usize| 2 * count * HIDDEN;
    let mut board_only = b"CATENANN".to_vec();
    board_only.extend(&bytes[8..16]);
    board_only.extend(&bytes[20..20 + rows(BOARD_INPUTS)]);
    board_only.extend(&bytes[20 + rows(INPUTS)..]);
    let network = Network::from_bytes(&board_only).unwrap();
    let sscc_rows = &network.to_bytes()[20 + rows(BOARD_INPUTS)..20 + rows(INPUTS)];
    assert!(sscc_rows.iter().all(|&byte| byte == 0));
    let position =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2").unwrap();
    let accumulator = Accumulator::new(&network, &position);
    let state = SsccState::new(&position, 2);
    assert_eq!(state.pockets.len(), 2);
    assert_eq!(
        accumulator.evaluate_sscc(&network, &position, state),
        accumulator.evaluate(&network, &position)
    );
    assert_eq!(
        accumulator.evaluate(&network, &position),
        Accumulator::new(&NETWORK, &position).evaluate(&NETWORK, &position)
    );
}

#[test]
fn the_trained_network_knows_material() {
    let start = evaluate(&Position::startpos());
    assert!(start.abs() < 100, "start position: {start}");
    let cases = [
        // White without its queen, with a move to make.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            -500,
        ),
        // Black to move without a rook.
        (
            "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQq - 0 1",
            -250,
        ),
        // Black to move against an extra knight for White.
        (
            "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            -150,
        ),
    ];
    for (fen, below) in cases {
        let score = evaluate(&Position::from_fen(fen).unwrap());
        assert!(score < below, "{fen}: {score}, expected below {below}");
    }
}

/// The SSCC network (`sscc.bin`) has learnt what SSCC games teach: the
/// side to move at the start is well ahead (White won about three games in
/// four of Catena's SSCC self-play), a queen still counts, and it reads its
/// SSCC inputs (the same board is valued otherwise with a run in progress).
/// A chess network in its place (never trained on the SSCC inputs) fails.
#[test]
fn the_sscc_network_knows_the_first_move_material_and_runs() {
    let sscc = |fen: &str, switches| evaluate_sscc(&Position::from_fen(fen).unwrap(), switches);
    let start = sscc(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        0,
    );
    assert!(start > 100, "start position: {start}");
    let no_queen = sscc(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
        0,
    );
    assert!(
        no_queen < start - 200,
        "White without its queen: {no_queen}"
    );
    // After 1.c3 e5 2.d3 (c2 and d2 cut off), Black to move.
    let pockets = "rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2";
    assert_ne!(sscc(pockets, 0), sscc(pockets, 1));
}
