//! The SSCC game state: moves, switches and their errors, undo, game end and scoring.

use catena_core::game::Action;
use std::fmt;

use catena_core::board::{Color, Move, MoveKind, Piece, Position};
use catena_core::chain;
use catena_core::game::{
    GameError, GameState, Player, Rules, SwitchRule, SwitchRun, Termination, forms_chain,
};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};

fn game(fen: &str, rule: SwitchRule) -> GameState {
    GameState::from_fen(fen, Rules::new(rule, 2).unwrap()).unwrap()
}

fn from_start(moves: &str) -> GameState {
    let mut state = GameState::new(Position::startpos(), Rules::default());
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    state.apply_uci_moves(&tokens).unwrap();
    state
}

#[test]
fn a_switch_hands_the_switcher_the_other_colour_and_the_move() {
    let state = from_start("c2c3 e7e5 d2d3 switch g8f6");
    assert_eq!(state.controller(Color::Black), Player::StartedWhite);
    assert_eq!(state.controller(Color::White), Player::StartedBlack);
    assert_eq!(state.uci_moves(), "c2c3 e7e5 d2d3 switch g8f6");
    assert!(state.plies()[2].formed_chain && state.plies()[2].switched);
    assert_eq!(
        state.run().switches(),
        0,
        "g8f6 without a switch ended the run"
    );
}

#[test]
fn errors_name_the_problem_and_leave_the_state_unchanged() {
    let mut state = from_start("e2e4");
    let before = state.uci_moves();
    let illegal = state.position().parse_move("e7e4");
    assert!(illegal.is_err());
    let mv = state.position().parse_move("e7e5").unwrap();
    let error = state.apply(Action::switching(mv)).unwrap_err();
    assert_eq!(error, GameError::SwitchWithoutChain(mv));
    assert_eq!(
        error.to_string(),
        "cannot switch after e7e5: it formed no chain"
    );
    assert_eq!(state.uci_moves(), before);

    let rook_jump = Position::startpos().parse_move("a1a3").unwrap_err();
    assert_eq!(
        rook_jump.to_string(),
        "a1a3 is not a legal move in this position"
    );
    let no_piece = Position::startpos().parse_move("e3e4").unwrap_err();
    assert_eq!(
        no_piece.to_string(),
        "there is no white piece on e3 to move"
    );
    let garbage = Position::startpos().parse_move("e2e9").unwrap_err();
    assert!(garbage.to_string().contains("not a move in UCI notation"));
}

#[test]
fn a_bad_token_stops_the_move_list_and_keeps_what_came_before() {
    let mut state = GameState::new(Position::startpos(), Rules::default());
    let tokens = ["e2e4", "e7e5", "g1f3", "switch", "b8c6"];
    let (index, token, error) = state.apply_uci_moves(&tokens).unwrap_err();
    assert_eq!((index, token), (3, "switch"));
    assert!(matches!(error, GameError::SwitchWithoutChain(_)));
    assert_eq!(
        state.uci_moves(),
        "e2e4 e7e5 g1f3",
        "the move before the bad switch stands"
    );

    let mut state = GameState::new(Position::startpos(), Rules::default());
    let (index, _, error) = state.apply_uci_moves(&["switch"]).unwrap_err();
    assert_eq!((index, error), (0, GameError::SwitchWithoutMove));

    let mut state = GameState::new(Position::startpos(), Rules::default());
    let (index, _, error) = state.apply_uci_moves(&["e2e4", "e2e4"]).unwrap_err();
    assert_eq!(index, 1);
    assert!(matches!(error, GameError::IllegalMove(_)));
    assert_eq!(state.uci_moves(), "e2e4");
}

/// After 1.c3 c6 (counters reset to move 1): 2.d3 closes a chain around c2 d2,
/// then …d6 closes Black's mirror image, then e3 widens White's chain.
const MIRRORED_CHAINS: &str = "rnbqkbnr/pp1ppppp/2p5/8/8/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn the_three_rules_limit_a_run_differently() {
    let run = |rule| {
        let mut state = game(MIRRORED_CHAINS, rule);
        state
            .apply_uci_moves(&["d2d3", "switch", "d7d6", "switch", "e2e3", "switch"])
            .map(|_| state)
    };
    // Rule moves: the run started at move 1, so one switch is all.
    let (index, _, error) = run(SwitchRule::Moves).unwrap_err();
    assert_eq!(index, 3);
    assert_eq!(
        error,
        GameError::SwitchOverLimit {
            switches: 1,
            limit: 1
        }
    );
    // Rule chain: the chain that started the run surrounds two squares.
    let (index, _, error) = run(SwitchRule::Chain).unwrap_err();
    assert_eq!(index, 5);
    assert_eq!(
        error,
        GameError::SwitchOverLimit {
            switches: 2,
            limit: 2
        }
    );
    assert!(error.to_string().contains("the limit of this run is 2"));
    // Unlimited: three switches in a row, and the same player still has the move.
    let state = run(SwitchRule::Unlimited).unwrap();
    assert_eq!(state.run().switches(), 3);
    assert_eq!(
        state.controller(state.position().side_to_move()),
        Player::StartedWhite
    );
}

#[test]
fn undo_restores_position_run_and_controllers() {
    let mut state = game(MIRRORED_CHAINS, SwitchRule::Unlimited);
    state
        .apply_uci_moves(&["d2d3", "switch", "d7d6", "switch"])
        .unwrap();
    let key = state.position().key();
    state.apply_uci_moves(&["e2e3", "switch"]).unwrap();
    assert!(state.undo());
    assert_eq!(state.position().key(), key);
    assert_eq!(state.run().switches(), 2);
    assert_eq!(state.controller(Color::White), Player::StartedWhite);
    assert!(state.undo() && state.undo());
    assert_eq!(state.position().to_fen(), MIRRORED_CHAINS);
    assert_eq!(state.controller(Color::White), Player::StartedWhite);
    assert!(!state.undo());
}

#[test]
fn checkmate_ends_the_game_and_the_result_goes_to_whoever_holds_the_colour() {
    let mut state = from_start("f2f3 e7e5 g2g4 d8h4");
    let outcome = state.outcome().unwrap();
    assert_eq!(
        (outcome.termination, outcome.winner),
        (Termination::Checkmate, Some(Color::Black))
    );
    assert_eq!(outcome.result(), "0-1");
    assert_eq!(state.score_of(Player::StartedBlack), Some(1.0));
    let mv = Position::startpos().parse_move("e2e4").unwrap();
    let error = state.apply(Action::stay(mv)).unwrap_err();
    assert_eq!(error, GameError::GameOver(Termination::Checkmate));
    assert_eq!(error.to_string(), "the game is over (checkmate)");

    // The same mate after Black's 2...d6 closed c7-d6-e6-f7-e8-d8 and its player
    // switched: the player who started White now holds Black and wins.
    let state = from_start("f2f3 e7e6 a2a3 d7d6 switch g2g4 d8h4");
    assert_eq!(state.outcome().unwrap().winner, Some(Color::Black));
    assert_eq!(state.controller(Color::Black), Player::StartedWhite);
    assert_eq!(state.score_of(Player::StartedWhite), Some(1.0));
    assert_eq!(state.score_of(Player::StartedBlack), Some(0.0));
}

#[test]
fn draws_by_stalemate_repetition_fifty_moves_and_dead_positions() {
    let stalemate = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", SwitchRule::Chain);
    assert_eq!(
        stalemate.outcome().unwrap().termination,
        Termination::Stalemate
    );

    let mut repeated = from_start("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(repeated.outcome(), None, "twice is not enough");
    repeated.apply_uci_moves(&["f6g8"]).unwrap();
    assert_eq!(
        repeated.outcome().unwrap().termination,
        Termination::ThreefoldRepetition
    );
    let before = repeated.uci_moves();
    let refused = repeated.apply_uci_moves(&["c2c3", "switch"]).unwrap_err();
    assert_eq!(
        refused,
        (
            0,
            "c2c3",
            GameError::GameOver(Termination::ThreefoldRepetition)
        ),
        "a move and switch after the end are refused at the move"
    );
    assert_eq!(repeated.uci_moves(), before, "and nothing is kept");

    let mut fifty = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", SwitchRule::Chain);
    assert_eq!(fifty.outcome(), None);
    fifty.apply_uci_moves(&["a1a2"]).unwrap();
    assert_eq!(
        fifty.outcome().unwrap().termination,
        Termination::FiftyMoveRule
    );
    // Mate on the hundredth half-move is still mate.
    let mut mate_at_fifty = game("4k3/R7/8/8/8/8/8/4K2R w - - 99 80", SwitchRule::Chain);
    mate_at_fifty.apply_uci_moves(&["h1h8"]).unwrap();
    assert_eq!(
        mate_at_fifty.outcome().unwrap().termination,
        Termination::Checkmate
    );

    // Each ending is named when a move comes after it (any move: the end is
    // told before legality, and a stalemate has no legal move).
    let any = Position::startpos().parse_move("e2e4").unwrap();
    for (mut ended, name) in [
        (stalemate, "stalemate"),
        (repeated, "threefold repetition"),
        (fifty, "50-move rule"),
        (
            game("4k3/8/8/8/8/8/8/4K3 w - - 0 1", SwitchRule::Chain),
            "dead position",
        ),
    ] {
        let error = ended.apply(Action::stay(any)).unwrap_err();
        assert_eq!(error.to_string(), format!("the game is over ({name})"));
    }

    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
        ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false),
        ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", false),
    ] {
        let outcome = game(fen, SwitchRule::Chain).outcome();
        assert_eq!(
            outcome.map(|o| o.termination) == Some(Termination::DeadPosition),
            dead,
            "{fen}"
        );
    }
}

/// The FEN's last two fields move by the rules: the halfmove clock counts
/// moves since the last capture or pawn move, the move number goes up after
/// Black's move. Checked by python-chess's FENs for the same moves.
#[test]
fn fen_counters_after_quiet_moves_pawn_moves_and_captures() {
    let mut state = game("4k3/8/8/3p4/8/2N5/8/4K3 w - - 7 20", SwitchRule::Chain);
    for (mv, fen) in [
        ("c3b5", "4k3/8/8/1N1p4/8/8/8/4K3 b - - 8 20"),
        ("e8e7", "8/4k3/8/1N1p4/8/8/8/4K3 w - - 9 21"),
        ("e1e2", "8/4k3/8/1N1p4/8/8/4K3/8 b - - 10 21"),
        ("d5d4", "8/4k3/8/1N6/3p4/8/4K3/8 w - - 0 22"),
        ("b5d4", "8/4k3/8/8/3N4/8/4K3/8 b - - 0 22"),
    ] {
        state.apply_uci_moves(&[mv]).unwrap();
        assert_eq!(state.position().to_fen(), fen, "after {mv}");
    }
}

/// A switch changes who controls the colours, not the board: the FEN after
/// `move switch` is the FEN after `move`, counters included.
#[test]
fn a_switch_leaves_the_fen_counters_as_the_move_set_them() {
    let switched = from_start("c2c3 e7e5 d2d3 switch");
    let stayed = from_start("c2c3 e7e5 d2d3");
    assert_eq!(switched.position().to_fen(), stayed.position().to_fen());
    assert_eq!(
        stayed.position().to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2"
    );
    let switched = from_start("c2c3 e7e5 d2d3 switch g8f6");
    assert_eq!(
        switched.position().to_fen(),
        "rnbqkb1r/pppp1ppp/5n2/4p3/8/2PP4/PP2PPPP/RNBQKBNR w KQkq - 1 3"
    );
}

/// A random SSCC game: the start, the rules, and for every ply a choice:
/// which move, whether to pick it among the moves that form a chain (where
/// there are any: so that runs grow long enough to meet their limits), and
/// whether to switch after it. Proptest shrinks a failing game to its fewest
/// and earliest choices.
struct RandomGame {
    start: &'static str,
    rules: Rules,
    choices: Vec<Choice>,
}

/// A random player's choice, read against whatever position it meets.
#[derive(Clone, Copy, Debug)]
struct Choice {
    pick: Index,
    chain_first: bool,
    switch: bool,
}

impl Choice {
    /// The move this choice plays from `position`, which has one.
    fn choose(&self, position: &Position, rules: &Rules) -> Move {
        let moves = position.legal_moves();
        let chains: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| forms_chain(position, mv, rules))
            .collect();
        if self.chain_first && !chains.is_empty() {
            chains[self.pick.index(chains.len())]
        } else {
            moves[self.pick.index(moves.len())]
        }
    }
}

impl fmt::Debug for RandomGame {
    /// The game as played, which is all a failure needs to be replayed.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let mut state = GameState::from_fen(self.start, self.rules).unwrap();
        for choice in &self.choices {
            if state.outcome().is_some() {
                break;
            }
            let mv = choice.choose(state.position(), &self.rules);
            let switch = choice.switch && state.can_switch_after(mv).is_ok();
            if state.apply(Action { mv, switch }).is_err() {
                break;
            }
        }
        write!(
            f,
            "{} ({}) moves {}",
            self.start,
            self.rules,
            state.uci_moves()
        )
    }
}

fn choice() -> impl Strategy<Value = Choice> {
    (any::<Index>(), any::<bool>(), prop::bool::weighted(0.8)).prop_map(
        |(pick, chain_first, switch)| Choice {
            pick,
            chain_first,
            switch,
        },
    )
}

fn random_game() -> impl Strategy<Value = RandomGame> {
    (
        prop::sample::select(&[Position::START_FEN, MIRRORED_CHAINS][..]),
        prop::sample::select(&SwitchRule::ALL[..]),
        1..=3u32,
        prop::collection::vec(choice(), 0..160),
    )
        .prop_map(|(start, rule, min_enclosed, choices)| RandomGame {
            start,
            rules: Rules::new(rule, min_enclosed).unwrap(),
            choices,
        })
}

/// What a game state shows of itself; undo and replay must restore all of it.
#[derive(Clone, Debug, PartialEq)]
struct Snapshot {
    position: Position,
    run: SwitchRun,
    white: Player,
    plies: usize,
}

impl Snapshot {
    fn controller(&self, color: Color) -> Player {
        match color {
            Color::White => self.white,
            Color::Black => self.white.other(),
        }
    }
}

fn snapshot(state: &GameState) -> Snapshot {
    Snapshot {
        position: state.position().clone(),
        run: state.run(),
        white: state.controller(Color::White),
        plies: state.plies().len(),
    }
}

/// How much of the rules a game exercised.
#[derive(Default)]
struct Exercised {
    switches: usize,
    refused_over_limit: usize,
}

/// Plays `game`, checking after every ply what the rules say, recounted
/// here: the FEN counters (reset by a pawn move or a capture, else one more;
/// the move number up after Black's move, switch or not); that a switch is
/// allowed exactly after a chain while the run is under its limit (docs/rules.md,
/// section 3: the size of the chain that started the run, the move number
/// where it started, or none), that a refused switch changes nothing, and
/// who holds which colour. Then the game replayed from its UCI moves, and
/// undone ply by ply, must pass through the same states.
fn check_game(game: &RandomGame) -> Result<Exercised, TestCaseError> {
    let rules = game.rules;
    let mut state = GameState::from_fen(game.start, rules).unwrap();
    let mut exercised = Exercised::default();
    let mut history = Vec::new();
    // The limit of the run in progress: set by the move that would start a
    // run (any move while none is on), kept while the run lasts.
    let mut limit = None;
    for choice in &game.choices {
        if state.outcome().is_some() {
            break;
        }
        let before = snapshot(&state);
        let position = &before.position;
        let mv = choice.choose(position, &rules);
        let wants_switch = choice.switch;

        let occupied = position.occupied_after(mv);
        let landing = position.landing_squares(mv);
        let chain = chain::forms_chain(occupied, landing, rules.min_enclosed);
        let switches = before.run.switches();
        if switches == 0 {
            limit = match rules.switch_rule {
                SwitchRule::Chain => Some(chain::chain_size(occupied, landing, rules.min_enclosed)),
                SwitchRule::Moves => Some(u32::from(position.fullmove_number())),
                SwitchRule::Unlimited => None,
            };
        }
        let allowed = chain && limit.is_none_or(|limit| switches < limit);
        prop_assert_eq!(state.can_switch_after(mv).is_ok(), allowed, "{}", mv);
        if wants_switch && !allowed {
            exercised.refused_over_limit += usize::from(chain);
            prop_assert!(state.apply(Action::switching(mv)).is_err());
            prop_assert_eq!(&snapshot(&state), &before, "a refused switch after {}", mv);
        }
        let switch = wants_switch && allowed;
        state.apply(Action { mv, switch }).unwrap();
        exercised.switches += usize::from(switch);

        let after = state.position();
        let pawn = position.piece_on(mv.from()) == Some(Piece::Pawn);
        let capture = position.color_on(mv.to()) == Some(!position.side_to_move())
            || mv.kind() == MoveKind::EnPassant;
        let halfmove = if pawn || capture {
            0
        } else {
            position.halfmove_clock().saturating_add(1)
        };
        let fullmove =
            position.fullmove_number() + u16::from(position.side_to_move() == Color::Black);
        prop_assert_eq!(
            (after.halfmove_clock(), after.fullmove_number()),
            (halfmove, fullmove),
            "{}",
            mv
        );
        let fen = after.to_fen();
        prop_assert!(fen.ends_with(&format!(" {halfmove} {fullmove}")), "{}", fen);

        let run = state.run().switches();
        prop_assert_eq!(run, if switch { switches + 1 } else { 0 });
        prop_assert!(
            limit.is_none_or(|limit| run <= limit),
            "{} switches, limit {:?}",
            run,
            limit
        );
        let white = state.controller(Color::White);
        prop_assert_eq!(
            white,
            if switch {
                before.white.other()
            } else {
                before.white
            }
        );
        // The switcher keeps the move, in the other colour; else it passes.
        let mover = before.controller(position.side_to_move());
        prop_assert_eq!(state.controller(after.side_to_move()) == mover, switch);
        history.push(before);
    }

    let uci = state.uci_moves();
    let tokens: Vec<&str> = uci.split_whitespace().collect();
    let mut replayed = GameState::from_fen(game.start, rules).unwrap();
    let replay = replayed.apply_uci_moves(&tokens);
    prop_assert!(replay.is_ok(), "{:?}", replay);
    prop_assert_eq!(snapshot(&replayed), snapshot(&state));
    prop_assert_eq!(replayed.outcome(), state.outcome());

    while let Some(before) = history.pop() {
        prop_assert!(state.undo());
        prop_assert_eq!(snapshot(&state), before);
    }
    prop_assert!(!state.undo());
    Ok(exercised)
}

proptest! {
    #![proptest_config(crate::common::strategies::config(300))]

    #[test]
    fn random_sscc_games_keep_the_rules_and_replay_and_undo_exactly(game in random_game()) {
        check_game(&game)?;
    }
}

/// The games of the property above switch often and run into the limits,
/// so it checks what it claims to: 100 of them, drawn as it draws them.
#[test]
fn random_sscc_games_switch_and_reach_the_limits() {
    let mut runner = TestRunner::deterministic();
    let mut total = Exercised::default();
    for _ in 0..100 {
        let game = random_game().new_tree(&mut runner).unwrap().current();
        let exercised = check_game(&game).unwrap();
        total.switches += exercised.switches;
        total.refused_over_limit += exercised.refused_over_limit;
    }
    println!(
        "{} switches, {} refused at the limit",
        total.switches, total.refused_over_limit
    );
    assert!(total.switches >= 1000, "only {} switches", total.switches);
    assert!(
        total.refused_over_limit >= 50,
        "only {} switches refused at the limit",
        total.refused_over_limit
    );
}
