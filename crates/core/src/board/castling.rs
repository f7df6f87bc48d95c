//! Castling rights and the squares castling uses.

use std::fmt;

use super::{Bitboard, Color, Move, Square};

/// Which of the two castlings, on which wing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wing {
    King,
    Queen,
}

impl Wing {
    pub const ALL: [Wing; 2] = [Wing::King, Wing::Queen];

    /// The wing a castling move (the king's two-square step) goes to.
    pub const fn of_castling(mv: Move) -> Wing {
        if mv.to().file() > mv.from().file() {
            Wing::King
        } else {
            Wing::Queen
        }
    }

    /// The rook's starting file.
    const fn rook_file(self) -> u8 {
        match self {
            Wing::King => 7,
            Wing::Queen => 0,
        }
    }

    /// The file the king lands on; the rook lands next to it on the inside.
    const fn king_destination_file(self) -> u8 {
        match self {
            Wing::King => 6,
            Wing::Queen => 2,
        }
    }
}

/// The squares one castling of `color` on `wing` uses.
#[derive(Clone, Copy, Debug)]
pub struct Castling {
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Squares that must be empty: all between king and rook.
    pub must_be_empty: Bitboard,
    /// Squares the king crosses or lands on, which must not be attacked.
    pub king_path: Bitboard,
}

impl Castling {
    pub const fn of(color: Color, wing: Wing) -> Castling {
        let rank = match color {
            Color::White => 0,
            Color::Black => 7,
        };
        let king_from = Square::new(4, rank);
        let king_to = Square::new(wing.king_destination_file(), rank);
        let rook_from = Square::new(wing.rook_file(), rank);
        let rook_to = Square::new((4 + wing.king_destination_file()) / 2, rank);
        Castling {
            king_from,
            king_to,
            rook_from,
            rook_to,
            must_be_empty: span(king_from, rook_from),
            king_path: Bitboard(span(king_from, king_to).0 | king_to.bitboard().0),
        }
    }
}

/// The squares strictly between two squares of one rank.
const fn span(a: Square, b: Square) -> Bitboard {
    let (low, high) = if a.index() < b.index() {
        (a, b)
    } else {
        (b, a)
    };
    let above_low = !((2u64 << low.index()) - 1);
    let below_high = (1u64 << high.index()) - 1;
    Bitboard(above_low & below_high)
}

/// The castlings still allowed, as four bits.
///
/// ```
/// use catena_core::board::{CastlingRights, Color, Wing};
/// let rights: CastlingRights = "Kq".parse().unwrap();
/// assert!(rights.has(Color::White, Wing::King));
/// assert!(!rights.has(Color::White, Wing::Queen));
/// assert_eq!(rights.to_string(), "Kq");
/// assert_eq!(CastlingRights::NONE.to_string(), "-");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(15);

    const fn bit(color: Color, wing: Wing) -> u8 {
        1 << (2 * color.index() + wing as usize)
    }

    /// The one right of `color` on `wing`.
    pub const fn single(color: Color, wing: Wing) -> CastlingRights {
        CastlingRights(Self::bit(color, wing))
    }

    pub const fn bits(self) -> u8 {
        self.0
    }

    pub const fn has(self, color: Color, wing: Wing) -> bool {
        self.0 & Self::bit(color, wing) != 0
    }

    pub fn add(&mut self, color: Color, wing: Wing) {
        self.0 |= Self::bit(color, wing);
    }

    /// The rights left after a move that leaves or arrives on `square`.
    #[inline]
    pub const fn after_touching(self, square: Square) -> CastlingRights {
        CastlingRights(self.0 & !RIGHTS_LOST_ON[square.index()])
    }
}

/// For each square, the rights lost when a move leaves or lands on it.
const RIGHTS_LOST_ON: [u8; 64] = {
    let mut lost = [0; 64];
    let colors = [Color::White, Color::Black];
    let wings = [Wing::King, Wing::Queen];
    let mut c = 0;
    while c < 2 {
        let mut w = 0;
        while w < 2 {
            let castling = Castling::of(colors[c], wings[w]);
            let bit = CastlingRights::bit(colors[c], wings[w]);
            lost[castling.king_from.index()] |= bit;
            lost[castling.rook_from.index()] |= bit;
            w += 1;
        }
        c += 1;
    }
    lost
};

impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (color, wing, letter) in FEN_LETTERS {
            if self.has(color, wing) {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}

const FEN_LETTERS: [(Color, Wing, char); 4] = [
    (Color::White, Wing::King, 'K'),
    (Color::White, Wing::Queen, 'Q'),
    (Color::Black, Wing::King, 'k'),
    (Color::Black, Wing::Queen, 'q'),
];

impl std::str::FromStr for CastlingRights {
    type Err = String;

    /// Reads the FEN castling field: `-` or some of `KQkq`, in that order, each once.
    fn from_str(text: &str) -> Result<CastlingRights, String> {
        if text == "-" {
            return Ok(CastlingRights::NONE);
        }
        let mut rights = CastlingRights::NONE;
        let mut expected = FEN_LETTERS.iter();
        for letter in text.chars() {
            let &(color, wing, _) = expected
                .find(|&&(_, _, fen_letter)| fen_letter == letter)
                .ok_or_else(|| {
                    format!("castling field '{text}' is not '-' or some of 'KQkq' in that order")
                })?;
            rights.add(color, wing);
        }
        if text.is_empty() {
            return Err("castling field is empty".to_string());
        }
        Ok(rights)
    }
}
