//! The SSCC action: a board move, and whether its player then switches sides
//! (docs/rules.md, section 4). In chess every action is a stay.

use std::fmt;

use crate::board::{Move, MoveParseError, Position};

/// One step of the game tree: a board move plus the switch choice after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub mv: Move,
    pub switch: bool,
}

impl Action {
    /// The bit of `pack` that marks a switch.
    pub const SWITCH_BIT: u16 = 1 << 15;

    /// The move, and no switch.
    pub const fn stay(mv: Move) -> Action {
        Action { mv, switch: false }
    }

    /// The move, then a switch.
    pub const fn switching(mv: Move) -> Action {
        Action { mv, switch: true }
    }

    /// The action written `text` in `position`: a UCI move (`e2e4`, `e7e8q`,
    /// `e1g1`), then ` switch` for a switch. A move's kind (castling, en
    /// passant) depends on the position, so there is no position-free parse.
    pub fn parse(position: &Position, text: &str) -> Result<Action, MoveParseError> {
        let mut words = text.split_whitespace();
        let mv = position.parse_move(words.next().unwrap_or(""))?;
        match (words.next(), words.next()) {
            (None, _) => Ok(Action::stay(mv)),
            (Some("switch"), None) => Ok(Action::switching(mv)),
            _ => Err(MoveParseError::Notation(text.to_string())),
        }
    }

    /// 16 bits for the transposition table and the solver's listings: the
    /// move's own, and the switch; never 0 for a real move (from != to).
    pub fn pack(self) -> u16 {
        self.mv.bits() | if self.switch { Action::SWITCH_BIT } else { 0 }
    }

    /// The action `pack` gave `bits` for.
    pub fn unpack(bits: u16) -> Action {
        Action {
            mv: Move::from_bits(bits & !Action::SWITCH_BIT),
            switch: bits & Action::SWITCH_BIT != 0,
        }
    }
}

impl From<Move> for Action {
    fn from(mv: Move) -> Action {
        Action::stay(mv)
    }
}

impl fmt::Display for Action {
    /// `e2e4`, or `e2e4 switch`: the form of the SSCC UCI extension.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.switch {
            write!(f, "{} switch", self.mv)
        } else {
            write!(f, "{}", self.mv)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_reads_back_what_it_writes() {
        let position = Position::startpos();
        for mv in position.legal_moves() {
            for action in [Action::stay(mv), Action::switching(mv)] {
                assert_eq!(Action::parse(&position, &action.to_string()), Ok(action));
            }
        }
        assert!(Action::parse(&position, "e2e4 stay").is_err());
        assert!(Action::parse(&position, "e2e4 switch switch").is_err());
        assert!(Action::parse(&position, "e2e5").is_err());
    }

    /// Every kind of move, with and without its switch, unpacks to itself.
    #[test]
    fn an_action_unpacks_what_it_packs() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        for fen in fens {
            let position = Position::from_fen(fen).unwrap();
            for mv in position.legal_moves() {
                for action in [Action::stay(mv), Action::switching(mv)] {
                    assert_eq!(Action::unpack(action.pack()), action);
                }
            }
        }
    }
}
