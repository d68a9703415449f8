//! Protection (CA-T6): which cards in play cannot be returned, moved or removed now.

use crate::board;
use crate::cards::{self, kind, Sex};
use crate::{Castel, Loc, Stack};

impl Castel {
    /// CA-T6: whether a card in play is protected now.
    pub fn protected(&self, card: u8) -> bool {
        if kind(card) == cards::AMBASSADEUR {
            return true;
        }
        let Loc::InPlay(stack, i) = self.locate(card) else {
            return false;
        };
        // A knight on top protects the card below (Chevalier).
        if (i as usize) + 1 < self.stack(stack).len() {
            return true;
        }
        let Stack::Square(sq) = stack else {
            return false;
        };
        // Capitaine: every other soldier on his rampart.
        if self.def(card).soldier && kind(card) != cards::CAPITAINE {
            if let Some(r) = board::rampart(sq) {
                if board::rampart_squares(r).iter().any(|&q| {
                    self.squares[q as usize]
                        .first()
                        .is_some_and(|&c| kind(c) == cards::CAPITAINE)
                }) {
                    return true;
                }
            }
        }
        // Prêtre: neighbouring characters with his pawn colour.
        if self.def(card).sex != Sex::None {
            if let Some(pawn) = self.pawns[card as usize] {
                for q in board::neighbour_squares(sq) {
                    if self.squares[q as usize]
                        .iter()
                        .any(|&c| kind(c) == cards::PRETRE && self.pawns[c as usize] == Some(pawn))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }
}
