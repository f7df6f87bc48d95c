//! FEN reading and writing: round trips, normalisation and every error.

use catena_core::board::{FenError, Position};
use proptest::prelude::*;

use crate::common::strategies::chess_game;

#[test]
fn round_trips_keep_all_six_fields() {
    for fen in [
        Position::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Kq d3 0 3",
        "8/8/8/8/8/8/8/K1k5 b - - 99 150",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    ] {
        let position = Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        assert_eq!(position.to_fen(), fen);
        assert_eq!(Position::from_fen(&position.to_fen()).unwrap(), position);
    }
}

#[test]
fn counters_may_be_left_out() {
    let position = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(position.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn an_en_passant_square_no_pawn_can_use_is_dropped() {
    let position =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(position.en_passant(), None);
    assert_eq!(
        position.key(),
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap()
            .key()
    );
}

fn error_of(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(_) => panic!("'{fen}' was accepted"),
        Err(error) => error,
    }
}

#[test]
fn every_fault_has_its_own_error_and_message() {
    use catena_core::board::{Color, Square, Wing};
    let square = |name: &str| name.parse::<Square>().unwrap();
    let cases: Vec<(&str, FenError, &str)> = vec![
        ("", FenError::FieldCount(0), "has 0"),
        (
            "8/8/8/8/8/8/8/K1k5 w - - 0",
            FenError::FieldCount(5),
            "has 5",
        ),
        (
            "8/8/8/8/8/8/K1k5 w - - 0 1",
            FenError::RankCount(7),
            "7 ranks",
        ),
        (
            "K1k5 w - - 0 1",
            FenError::RankCount(1),
            "has 1 rank instead",
        ),
        (
            "8/8/8/8/8/8/8/K1k4 w - - 0 1",
            FenError::RankLength {
                rank: 0,
                squares: 7,
            },
            "rank 1 has 7",
        ),
        (
            "8/8/8/8/8/8/8/K1k6 w - - 0 1",
            FenError::RankLength {
                rank: 0,
                squares: 9,
            },
            "rank 1 has 9",
        ),
        (
            "8/8/8/8/8/9/8/K1k5 w - - 0 1",
            FenError::BadPlacementCharacter('9'),
            "'9'",
        ),
        (
            "8/8/8/8/8/8/8/K1x5 w - - 0 1",
            FenError::BadPlacementCharacter('x'),
            "'x'",
        ),
        (
            "8/8/8/8/8/8/8/K7 w - - 0 1",
            FenError::MissingKing(Color::Black),
            "black king is missing",
        ),
        (
            "8/8/8/8/8/8/8/k7 w - - 0 1",
            FenError::MissingKing(Color::White),
            "white king is missing",
        ),
        (
            "8/8/8/8/8/8/8/KK1k4 w - - 0 1",
            FenError::SeveralKings(Color::White),
            "more than one white king",
        ),
        (
            "P7/8/8/8/8/8/8/K1k5 w - - 0 1",
            FenError::PawnOnBackRank(square("a8")),
            "a8",
        ),
        (
            "8/8/8/8/8/8/8/K1k4p w - - 0 1",
            FenError::PawnOnBackRank(square("h1")),
            "h1",
        ),
        (
            "8/8/8/8/8/8/8/K1k5 x - - 0 1",
            FenError::BadSideToMove("x".into()),
            "'x'",
        ),
        (
            "8/8/8/8/8/8/8/K1k5 w KX - 0 1",
            FenError::BadCastling(String::new()),
            "castling field 'KX'",
        ),
        (
            "8/8/8/8/8/8/8/K1k5 w kK - 0 1",
            FenError::BadCastling(String::new()),
            "in that order",
        ),
        (
            "8/8/8/8/8/8/8/K1k5 w KK - 0 1",
            FenError::BadCastling(String::new()),
            "castling field 'KK'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            FenError::CastlingWithoutPieces {
                color: Color::White,
                wing: Wing::King,
            },
            "castling right K needs the white king on e1 and a white rook on h1",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            FenError::CastlingWithoutPieces {
                color: Color::Black,
                wing: Wing::King,
            },
            "castling right k needs the black king on e8 and a black rook on h8",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
            FenError::BadEnPassant("e9".into()),
            "'e9'",
        ),
        (
            "4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1",
            FenError::ImpossibleEnPassant {
                square: square("d3"),
                reason: "",
            },
            "sixth rank",
        ),
        (
            "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1",
            FenError::ImpossibleEnPassant {
                square: square("d6"),
                reason: "",
            },
            "no pawn stands in front",
        ),
        (
            "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1",
            FenError::ImpossibleEnPassant {
                square: square("d6"),
                reason: "",
            },
            "not empty",
        ),
        (
            "4k3/8/8/8/8/8/8/r3K3 b - - 0 1",
            FenError::SideNotToMoveInCheck(Color::White),
            "white is in check",
        ),
        (
            "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
            FenError::SideNotToMoveInCheck(Color::Black),
            "black is in check but it is not black's move",
        ),
        (
            "4k3/8/3N1N2/8/8/8/4R3/4K3 b - - 0 1",
            FenError::TooManyCheckers(3),
            "by 3 pieces",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::ImpossibleMaterial {
                color: Color::White,
                reason: "more than 16 men",
            },
            "white has more than 16 men",
        ),
        (
            "4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1",
            FenError::ImpossibleMaterial {
                color: Color::White,
                reason: "more than 8 pawns",
            },
            "more than 8 pawns",
        ),
        (
            "qq2k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1",
            FenError::ImpossibleMaterial {
                color: Color::Black,
                reason: "more promoted men than missing pawns",
            },
            "black has more promoted men than missing pawns",
        ),
        (
            "8/8/8/4k3/3P1P2/8/8/4K3 b - - 0 1",
            FenError::ImpossibleDoubleCheck,
            "two pawns or knights",
        ),
        (
            "8/8/8/4k3/3P4/5N2/8/4K3 b - - 0 1",
            FenError::ImpossibleDoubleCheck,
            "two pawns or knights",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            FenError::BadHalfmoveClock("x".into()),
            "'x'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
            FenError::BadHalfmoveClock("-1".into()),
            "'-1'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 65536 1",
            FenError::BadHalfmoveClock("65536".into()),
            "'65536'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
            FenError::BadFullmoveNumber("0".into()),
            "'0'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 x",
            FenError::BadFullmoveNumber("x".into()),
            "'x'",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999",
            FenError::BadFullmoveNumber("99999999999".into()),
            "'99999999999'",
        ),
    ];
    for (fen, expected, message_part) in cases {
        let error = error_of(fen);
        // Texts inside the error (castling, en passant reasons) are checked through the message.
        let same_kind = std::mem::discriminant(&error) == std::mem::discriminant(&expected);
        assert!(same_kind, "{fen}: got {error:?}, expected {expected:?}");
        if !matches!(
            expected,
            FenError::BadCastling(_) | FenError::ImpossibleEnPassant { .. }
        ) {
            assert_eq!(error, expected, "{fen}");
        }
        let message = error.to_string();
        assert!(
            message.contains(message_part),
            "{fen}: message '{message}' lacks '{message_part}'"
        );
        assert!(
            !message.contains('\n'),
            "{fen}: message '{message}' is not one line"
        );
    }
}

/// A game of 70,000 plies without a capture: the halfmove clock stops at its
/// largest value instead of wrapping to a small one, the move number counts
/// on, and the FEN written at the end reads back to the same position.
#[test]
fn move_counters_never_wrap_and_always_read_back() {
    let mut position = Position::from_fen("4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
    let shuffle = ["b1c3", "g8f6", "c3b1", "f6g8"];
    let mut largest_clock = 0;
    for ply in 0..70_000 {
        let mv = position.parse_move(shuffle[ply % 4]).unwrap();
        position = position.after(mv);
        assert!(
            position.halfmove_clock() >= largest_clock,
            "wrapped at ply {ply}"
        );
        largest_clock = position.halfmove_clock();
        if ply % 7_001 == 0 {
            let fen = position.to_fen();
            assert_eq!(Position::from_fen(&fen).map(|read| read.to_fen()), Ok(fen));
        }
    }
    assert_eq!(position.halfmove_clock(), u16::MAX);
    assert_eq!(position.fullmove_number(), 35_001);
    let fen = position.to_fen();
    assert!(fen.ends_with(" 65535 35001"), "{fen}");
    assert_eq!(Position::from_fen(&fen).unwrap(), position);
}

/// Where the random games of the round-trip property start: the start
/// position, Kiwipete (castling, pins, en passant soon) and a position of
/// promotions.
const STARTS: [&str; 3] = [
    Position::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

proptest! {
    #![proptest_config(crate::common::strategies::config(400))]

    /// Position -> FEN -> Position gives the same position (key, checkers and
    /// pins included) and the same FEN, with any counters the FEN can hold.
    /// A failure shrinks to the shortest game that reaches a bad position.
    #[test]
    fn positions_of_random_games_round_trip_through_fen(
        game in chess_game(&STARTS, 0..160),
        halfmove in 0..=u16::MAX,
        fullmove in 1..=u16::MAX,
    ) {
        let position = game.end();
        let fen = position.to_fen();
        let read = Position::from_fen(&fen);
        prop_assert_eq!(read.as_ref(), Ok(&position));
        prop_assert_eq!(read.unwrap().to_fen(), fen.clone());

        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        fields[4] = halfmove.to_string();
        fields[5] = fullmove.to_string();
        let counted = fields.join(" ");
        let read = Position::from_fen(&counted).unwrap();
        prop_assert_eq!(read.to_fen(), counted);
        prop_assert_eq!((read.halfmove_clock(), read.fullmove_number()), (halfmove, fullmove));
        prop_assert_eq!(read.key(), position.key(), "the counters are not in the key");
    }
}
