//! Standard Algebraic Notation: writing a legal move as PGN does (`Nbd7`,
//! `exd6`, `e8=Q+`, `O-O-O#`) and reading it back, leniently, as players and
//! other programs type it.
//!
//! ```
//! use catena_core::board::{Position, san};
//! let position = Position::startpos();
//! let mv = san::parse(&position, "Nf3").unwrap();
//! assert_eq!(mv.to_string(), "g1f3");
//! assert_eq!(san::format(&position, mv), "Nf3");
//! ```

use std::fmt;

use super::attacks::{bishop_attacks, rook_attacks};
use super::attacks::{king_attacks, knight_attacks, pawn_attacks, queen_attacks};
use super::{Castling, Color, Move, MoveKind, Piece, Position, Square, Wing};

/// The SAN of `mv`, which must be legal in `position`, with `+` or `#` when it
/// gives check or mate.
pub fn format(position: &Position, mv: Move) -> String {
    let mut san = String::with_capacity(8);
    let piece = position
        .piece_on(mv.from())
        .expect("a legal move starts on a piece");
    match mv.kind() {
        MoveKind::Castle => san.push_str(match Wing::of_castling(mv) {
            Wing::King => "O-O",
            Wing::Queen => "O-O-O",
        }),
        _ if piece == Piece::Pawn => {
            if is_capture(position, mv) {
                san.push(file_letter(mv.from()));
                san.push('x');
            }
            san.push_str(&mv.to().to_string());
            if let Some(promotion) = mv.promotion() {
                san.push('=');
                san.push(piece_letter(promotion));
            }
        }
        _ => {
            san.push(piece_letter(piece));
            san.push_str(&disambiguation(position, mv, piece));
            if is_capture(position, mv) {
                san.push('x');
            }
            san.push_str(&mv.to().to_string());
        }
    }
    let after = position.after(mv);
    if after.in_check() {
        san.push(if after.has_legal_move() { '+' } else { '#' });
    }
    san
}

/// Why a text is not a legal move in SAN here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not written as SAN at all.
    Notation(String),
    /// The side to move has no such piece (where the text says it stands).
    NoPiece {
        san: String,
        piece: Piece,
        color: Color,
    },
    /// A piece fits but cannot move there.
    CannotMove(String),
    /// Castling that this position does not allow, and why.
    CannotCastle { san: String, why: &'static str },
    /// A piece fits and could move there, but that would leave its king in check.
    LeavesKingInCheck(String),
    /// Several legal moves fit; the text must say which piece moves.
    Ambiguous(String),
    /// A pawn reaching the last rank needs the piece it becomes (`e8=Q`).
    MissingPromotion(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SanError::Notation(text) => write!(
                f,
                "'{text}' is not a move in SAN (like e4, Nf3, exd5, O-O or e8=Q)"
            ),
            SanError::NoPiece { san, piece, color } => {
                write!(
                    f,
                    "{san}: there is no {color} {} to move",
                    piece_name(*piece)
                )
            }
            SanError::CannotMove(text) => write!(f, "{text}: that piece cannot move there"),
            SanError::CannotCastle { san, why } => write!(f, "{san}: {why}"),
            SanError::LeavesKingInCheck(text) => {
                write!(f, "{text}: that move would leave your king in check")
            }
            SanError::Ambiguous(text) => write!(
                f,
                "{text} is ambiguous: say which piece moves (its file or rank, like Nbd7)"
            ),
            SanError::MissingPromotion(text) => {
                write!(f, "{text}: say what the pawn becomes (like e8=Q)")
            }
        }
    }
}

impl std::error::Error for SanError {}

/// The legal move `text` names in SAN. Accepted beyond strict SAN, as
/// python-chess and Cute Chess accept it: `0-0` for `O-O`, a promotion without
/// `=` (`e8Q`), a missing or superfluous `x`, over-full disambiguation
/// (`Ng1f3`), and trailing `+`, `#`, `!`, `?` or `e.p.`.
pub fn parse(position: &Position, text: &str) -> Result<Move, SanError> {
    let notation = || SanError::Notation(text.to_string());
    let core = text
        .trim()
        .trim_end_matches("e.p.")
        .trim_end_matches(['+', '#', '!', '?']);
    if core.is_empty() {
        return Err(notation());
    }
    if let Some(wing) = castling_wing(core) {
        return parse_castling(position, text, wing);
    }
    let pattern = Pattern::read(core).ok_or_else(notation)?;
    let us = position.side_to_move();
    let movers = position.colored_pieces(us, pattern.piece);
    let mut fitting = movers
        .into_iter()
        .filter(|&from| pattern.fits_origin(from))
        .peekable();
    if fitting.peek().is_none() {
        return Err(SanError::NoPiece {
            san: text.to_string(),
            piece: pattern.piece,
            color: us,
        });
    }
    let origins: Vec<Square> = fitting.collect();
    let legal: Vec<Move> = position
        .legal_moves()
        .into_iter()
        .filter(|mv| {
            origins.contains(&mv.from()) && mv.to() == pattern.to && mv.kind() != MoveKind::Castle
        })
        .collect();
    let matching: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| mv.promotion() == pattern.promotion)
        .collect();
    match matching[..] {
        [mv] => Ok(mv),
        [] if pattern.promotion.is_none() && !legal.is_empty() => {
            Err(SanError::MissingPromotion(text.to_string()))
        }
        [] if pattern.promotion.is_some() && !legal.is_empty() => {
            Err(SanError::CannotMove(text.to_string()))
        }
        [] if origins
            .iter()
            .any(|&from| reaches(position, pattern.piece, from, pattern.to)) =>
        {
            Err(SanError::LeavesKingInCheck(text.to_string()))
        }
        [] => Err(SanError::CannotMove(text.to_string())),
        _ => Err(SanError::Ambiguous(text.to_string())),
    }
}

/// What a SAN text for a non-castling move says: the piece, what it tells of
/// the origin, the destination and the promotion.
struct Pattern {
    piece: Piece,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Piece>,
}

impl Pattern {
    fn read(core: &str) -> Option<Pattern> {
        let mut chars: Vec<char> = core.chars().collect();
        let piece = match chars.first()? {
            letter @ ('N' | 'B' | 'R' | 'Q' | 'K') => {
                let piece = Piece::from_letter(*letter)?;
                chars.remove(0);
                piece
            }
            _ => Piece::Pawn,
        };
        let promotion = match chars[..] {
            [.., '=', letter] | [.., '1' | '8', letter] if piece == Piece::Pawn => {
                let promoted = Piece::from_letter(letter)
                    .filter(|promoted| Piece::PROMOTIONS.contains(promoted))?;
                chars.pop();
                if chars.last() == Some(&'=') {
                    chars.pop();
                }
                Some(promoted)
            }
            _ => None,
        };
        let split = chars.len().checked_sub(2)?;
        let to: Square = chars[split..].iter().collect::<String>().parse().ok()?;
        let mut origin = &chars[..split];
        if let [rest @ .., 'x' | ':'] = origin {
            origin = rest;
        }
        let (from_file, from_rank) = match *origin {
            [] => (None, None),
            [file @ 'a'..='h'] => (Some(file as u8 - b'a'), None),
            [rank @ '1'..='8'] => (None, Some(rank as u8 - b'1')),
            [file @ 'a'..='h', rank @ '1'..='8'] => {
                (Some(file as u8 - b'a'), Some(rank as u8 - b'1'))
            }
            _ => return None,
        };
        Some(Pattern {
            piece,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    fn fits_origin(&self, from: Square) -> bool {
        // A pawn that names no file moves straight ahead: `e6` is never `dxe6`.
        let file = match (self.piece, self.from_file) {
            (Piece::Pawn, None) => Some(self.to.file()),
            (_, file) => file,
        };
        file.is_none_or(|file| file == from.file())
            && self.from_rank.is_none_or(|rank| rank == from.rank())
    }
}

fn castling_wing(core: &str) -> Option<Wing> {
    match core {
        "O-O" | "0-0" => Some(Wing::King),
        "O-O-O" | "0-0-0" => Some(Wing::Queen),
        _ => None,
    }
}

fn parse_castling(position: &Position, text: &str, wing: Wing) -> Result<Move, SanError> {
    let us = position.side_to_move();
    let castling = Castling::of(us, wing);
    let castle = Move::new(castling.king_from, castling.king_to, MoveKind::Castle);
    if position.is_legal(castle) {
        return Ok(castle);
    }
    let why = if !position.castling_rights().has(us, wing) {
        "cannot castle: the king or that rook has moved"
    } else if !(castling.must_be_empty & position.occupied()).is_empty() {
        "cannot castle while pieces stand between the king and the rook"
    } else if position.in_check() {
        "cannot castle out of check"
    } else {
        "cannot castle through or into check"
    };
    Err(SanError::CannotCastle {
        san: text.to_string(),
        why,
    })
}

/// Whether `piece` on `from` could go to `to` if its own king's safety did not matter.
pub fn reaches(position: &Position, piece: Piece, from: Square, to: Square) -> bool {
    let us = position.side_to_move();
    let occupied = position.occupied();
    if position.colored(us).contains(to) {
        return false;
    }
    let targets = match piece {
        Piece::Pawn => {
            let empty = !occupied;
            let one = from
                .offset(0, us.forward())
                .filter(|&sq| empty.contains(sq));
            let two = one
                .filter(|_| from.relative_rank(us) == 1)
                .and_then(|sq| sq.offset(0, us.forward()))
                .filter(|&sq| empty.contains(sq));
            let mut enemies = position.colored(!us);
            if let Some(square) = position.en_passant() {
                enemies |= square.bitboard();
            }
            let mut targets = pawn_attacks(us, from) & enemies;
            for push in [one, two].into_iter().flatten() {
                targets |= push.bitboard();
            }
            targets
        }
        Piece::Knight => knight_attacks(from),
        Piece::Bishop => bishop_attacks(from, occupied),
        Piece::Rook => rook_attacks(from, occupied),
        Piece::Queen => queen_attacks(from, occupied),
        Piece::King => king_attacks(from),
    };
    targets.contains(to)
}

fn is_capture(position: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::EnPassant || position.occupied().contains(mv.to())
}

/// What tells `mv` apart from the other legal moves of the same kind of piece to
/// the same square: nothing, the origin's file, its rank, or both.
fn disambiguation(position: &Position, mv: Move, piece: Piece) -> String {
    let rivals: Vec<Square> = position
        .legal_moves()
        .into_iter()
        .filter(|other| {
            other.to() == mv.to()
                && other.from() != mv.from()
                && position.piece_on(other.from()) == Some(piece)
        })
        .map(Move::from)
        .collect();
    let from = mv.from();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|rival| rival.file() != from.file()) {
        file_letter(from).to_string()
    } else if rivals.iter().all(|rival| rival.rank() != from.rank()) {
        ((b'1' + from.rank()) as char).to_string()
    } else {
        from.to_string()
    }
}

fn file_letter(square: Square) -> char {
    (b'a' + square.file()) as char
}

fn piece_letter(piece: Piece) -> char {
    piece.letter().to_ascii_uppercase()
}

pub fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn san_of(fen: &str, uci: &str) -> String {
        let position = position(fen);
        format(&position, position.parse_move(uci).unwrap())
    }

    #[test]
    fn writes_every_kind_of_move() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(san_of(kiwipete, "e1g1"), "O-O");
        assert_eq!(san_of(kiwipete, "e1c1"), "O-O-O");
        assert_eq!(san_of(kiwipete, "d5e6"), "dxe6");
        assert_eq!(san_of(kiwipete, "e5f7"), "Nxf7");
        assert_eq!(san_of(kiwipete, "e2a6"), "Bxa6");
        assert_eq!(san_of(kiwipete, "c3b1"), "Nb1");
        let en_passant = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san_of(en_passant, "e5f6"), "exf6");
        let promotion = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(san_of(promotion, "a7a8q"), "a8=Q");
        assert_eq!(san_of(promotion, "a7b8n"), "axb8=N");
        assert_eq!(san_of(promotion, "a7b8q"), "axb8=Q+");
        let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(san_of(mate, "a1a8"), "Ra8#");
        assert_eq!(san_of(mate, "a1a7"), "Ra7");
    }

    #[test]
    fn disambiguates_by_file_then_rank_then_both() {
        let rooks = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
        assert_eq!(san_of(rooks, "a1d1"), "Rad1");
        let stacked = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(san_of(stacked, "a1a3"), "R1a3");
        let queens = "8/5k2/8/8/Q6Q/8/8/Q3K3 w - - 0 1";
        assert_eq!(san_of(queens, "a4d4"), "Qa4d4");
        assert_eq!(san_of(queens, "h4d4"), "Qhd4");
        let knights = "4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1";
        assert_eq!(san_of(knights, "c3e4"), "Nce4");
        // A pinned rival does not count: only legal moves need telling apart.
        let pinned = "4k3/8/8/b7/8/2N3N1/8/4K3 w - - 0 1";
        assert_eq!(san_of(pinned, "g3e4"), "Ne4");
    }

    #[test]
    fn reads_lenient_forms() {
        let kiwipete =
            position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        for (text, uci) in [
            ("O-O", "e1g1"),
            ("0-0-0", "e1c1"),
            ("O-O+", "e1g1"),
            ("dxe6", "d5e6"),
            ("de6", "d5e6"),
            ("Nxf7!?", "e5f7"),
            ("Nf7", "e5f7"),
            ("Ne5xf7", "e5f7"),
            ("Bxa6", "e2a6"),
            ("a3", "a2a3"),
        ] {
            assert_eq!(parse(&kiwipete, text).unwrap().to_string(), uci, "{text}");
        }
        let promotion = position("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(parse(&promotion, "a8=Q").unwrap().to_string(), "a7a8q");
        assert_eq!(parse(&promotion, "a8N").unwrap().to_string(), "a7a8n");
        assert_eq!(parse(&promotion, "axb8=R+").unwrap().to_string(), "a7b8r");
        let en_passant = position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assert_eq!(parse(&en_passant, "exf6e.p.").unwrap().to_string(), "e5f6");
    }

    #[test]
    fn names_what_is_wrong() {
        let start = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(matches!(parse(&start, "Zf3"), Err(SanError::Notation(_))));
        assert!(matches!(parse(&start, "e9"), Err(SanError::Notation(_))));
        assert!(matches!(parse(&start, ""), Err(SanError::Notation(_))));
        assert!(matches!(parse(&start, "Nf4"), Err(SanError::CannotMove(_))));
        // Castling says why not: pieces between, rights gone, check.
        let castling = |fen: &str, san: &str| parse(&position(fen), san).unwrap_err().to_string();
        assert_eq!(
            castling(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "O-O"
            ),
            "O-O: cannot castle while pieces stand between the king and the rook"
        );
        assert_eq!(
            castling("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O"),
            "O-O: cannot castle: the king or that rook has moved"
        );
        assert_eq!(
            castling("1k2r3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O"),
            "O-O: cannot castle out of check"
        );
        assert_eq!(
            castling("1k3r2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O"),
            "O-O: cannot castle through or into check"
        );
        assert!(matches!(
            parse(&start, "Ndf3"),
            Err(SanError::NoPiece { .. })
        ));
        let no_queen = position("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(matches!(
            parse(&no_queen, "Qd4"),
            Err(SanError::NoPiece { .. })
        ));
        let pinned = position("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert!(matches!(
            parse(&pinned, "Nd4"),
            Err(SanError::LeavesKingInCheck(_))
        ));
        let rooks = position("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
        assert!(matches!(parse(&rooks, "Rd1"), Err(SanError::Ambiguous(_))));
        let promotion = position("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(matches!(
            parse(&promotion, "a8"),
            Err(SanError::MissingPromotion(_))
        ));
        assert!(matches!(
            parse(&promotion, "a8=K"),
            Err(SanError::Notation(_))
        ));
    }

    #[test]
    fn every_move_reads_back_from_its_san() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/5k2/8/8/Q6Q/8/8/Q3K2Q w - - 0 1",
        ] {
            let position = position(fen);
            for mv in position.legal_moves() {
                let san = format(&position, mv);
                assert_eq!(parse(&position, &san), Ok(mv), "{fen}: {san}");
            }
        }
    }
}
