//! Cards leaving their place in play: returning (CA-T5), removing, moving (CA-T4), and the
//! soldiers and siege engines that return one another (CA-T7).

use veillee_sdk::Seat;

use crate::board;
use crate::cards::{self, kind, Zone};
use crate::{Castel, Loc, Spot};

impl Castel {
    /// CA-T5: returns a card in play to the hand of its pawn's owner, or to the exchange
    /// without a pawn. Refused for a protected card (CA-T6). Answers where it went.
    pub fn return_card(&mut self, card: u8) -> Result<Option<Seat>, &'static str> {
        if !matches!(self.locate(card), Loc::InPlay(..)) {
            return Err("the card is not in play");
        }
        if self.protected(card) {
            return Err("the card is protected");
        }
        let owner = self.pawns[card as usize];
        self.take(card);
        match owner {
            Some(seat) => self.put_hand(seat, card, true),
            None => self.exchange.push(card),
        }
        Ok(owner)
    }

    /// Removes a card in play from the game (Assassin). Refused when protected.
    pub fn remove_card(&mut self, card: u8) -> Result<(), &'static str> {
        if !matches!(self.locate(card), Loc::InPlay(..)) {
            return Err("the card is not in play");
        }
        if self.protected(card) {
            return Err("the card is protected");
        }
        self.take(card);
        self.removed.push(card);
        Ok(())
    }

    /// CA-T4: moves a card in play to a spot of its zone (or any zone with `any_zone`,
    /// the Fée). Refused for a protected card or a spot that is not free. A soldier moved
    /// with `soldier_rule` onto the last free square of a rampart returns the engine
    /// facing it (the Guetteur).
    pub fn move_card(
        &mut self,
        card: u8,
        to: Spot,
        any_zone: bool,
        soldier_rule: bool,
    ) -> Result<(), &'static str> {
        let Some(zone) = self.zone_of(card) else {
            return Err("the card is not in play");
        };
        if self.protected(card) {
            return Err("the card is protected");
        }
        let target_zone = match to {
            Spot::Square(q) => {
                if !self.squares[q as usize].is_empty() {
                    return Err("the square is not free");
                }
                board::zone(q)
            }
            Spot::Outside => Zone::Outside,
            Spot::Engine(r) => {
                if !self.engines[r as usize].is_empty() {
                    return Err("an engine already faces that rampart");
                }
                Zone::Engine
            }
            Spot::On(base) => {
                if base == card || !matches!(self.locate(base), Loc::InPlay(..)) {
                    return Err("the card to stand on is not in play");
                }
                Zone::OnCard
            }
        };
        if target_zone != zone && !any_zone {
            return Err("a moved card stays in its zone");
        }
        let pawn = self.pawns[card as usize];
        self.take(card);
        self.put(card, to, pawn);
        if soldier_rule && self.def(card).soldier {
            self.fourth_soldier(card);
        }
        Ok(())
    }

    /// CA-T7, first half: a soldier arriving on the last free square of a rampart returns
    /// the engine facing that rampart.
    pub(crate) fn fourth_soldier(&mut self, card: u8) {
        let Some(r) = self.square_of(card).and_then(board::rampart) else {
            return;
        };
        let full = board::rampart_squares(r).iter().all(|&q| {
            self.squares[q as usize]
                .first()
                .is_some_and(|&c| self.def(c).soldier)
        });
        if full {
            if let Some(&engine) = self.engines[r as usize].first() {
                let _ = self.return_card(engine);
            }
        }
    }

    /// CA-T7, second half: the fourth engine returns every soldier on the ramparts, but
    /// soldiers protected stay (and the Capitaine, unprotected himself, goes).
    pub(crate) fn fourth_engine(&mut self) {
        let engines = self
            .engines
            .iter()
            .filter(|v| v.first().is_some_and(|&c| kind(c) == cards::ENGIN))
            .count();
        if engines < 4 {
            return;
        }
        let soldiers: Vec<u8> = (0..board::SQUARES as u8)
            .filter(|&q| board::zone(q) == Zone::Rampart)
            .filter_map(|q| self.squares[q as usize].first().copied())
            .filter(|&c| self.def(c).soldier)
            .collect();
        // Decide protection before anything leaves (the Capitaine protects while present).
        let unprotected: Vec<u8> = soldiers
            .into_iter()
            .filter(|&c| !self.protected(c))
            .collect();
        for c in unprotected {
            let owner = self.pawns[c as usize];
            self.take(c);
            match owner {
                Some(seat) => self.put_hand(seat, c, true),
                None => self.exchange.push(c),
            }
        }
    }
}
