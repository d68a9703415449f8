//! Placing a card (CA-T2): where each card may go now, the Héraut's obligation, and the
//! core's arrival rules (the Fantôme's occupant, CA-T7).

use veillee_sdk::Seat;

use crate::board;
use crate::cards::{self, kind, Condition, Zone};
use crate::{Castel, Spot};

impl Castel {
    /// Where a card could be placed now (CA-T2), ignoring whose hand it is in.
    pub fn spots(&self, card: u8) -> Vec<Spot> {
        let mut out = Vec::new();
        self.each_spot(card, &mut |spot| {
            out.push(spot);
            false
        });
        out
    }

    /// Whether a card could be placed somewhere now (CA-T2).
    pub(crate) fn has_spot(&self, card: u8) -> bool {
        self.each_spot(card, &mut |_| true)
    }

    /// Calls `f` on every spot of [`Castel::spots`], in order, without allocating; stops as
    /// soon as `f` returns `true`, and then returns `true`. The squares where the card's
    /// condition holds are one mask of the castle's [`Occupancy`](crate::layout::Occupancy) (CA-T2).
    pub(crate) fn each_spot(&self, card: u8, f: &mut impl FnMut(Spot) -> bool) -> bool {
        let occupancy = self.occupancy();
        let def = self.def(card);
        match def.zone {
            Zone::Courtyard | Zone::Rampart | Zone::Tower => {
                let squares = if def.condition == Condition::OccupiedTower {
                    board::bits(board::zone_mask(def.zone))
                        .filter(|&q| {
                            let v = &self.squares[q as usize];
                            v.len() == 1 && !self.protected(v[0])
                        })
                        .fold(0, |mask, q| mask | 1 << q)
                } else {
                    occupancy.free(def.zone)
                };
                let squares =
                    occupancy.squares_where(def.condition, def.zone, squares, self.players);
                board::bits(squares).any(|q| f(Spot::Square(q)))
            }
            // Off the castle, no condition depends on the spot.
            _ if !occupancy.holds_off_castle(def.condition, def.zone, self.players) => false,
            Zone::Outside => f(Spot::Outside),
            Zone::Engine => (0..4u8)
                .filter(|&r| self.engines[r as usize].is_empty())
                .any(|r| f(Spot::Engine(r))),
            Zone::OnCard => self
                .stacks()
                .any(|(_, v)| f(Spot::On(*v.last().expect("stacks are not empty")))),
        }
    }

    /// Puts a card into play at a spot with the core's arrival rules: the Fantôme's
    /// occupant returned, CA-T7. Sets the last card placed.
    pub(crate) fn arrive(&mut self, card: u8, spot: Spot, pawn: Option<Seat>) {
        self.take(card);
        if let Spot::Square(q) = spot {
            if let Some(&occupant) = self.squares[q as usize].first() {
                // Fantôme: returns the card whose place it takes.
                let _ = self.return_card(occupant);
            }
        }
        self.put(card, spot, pawn);
        self.placed_before = self.last_placed;
        self.last_placed = Some(card);
        self.placed_this_turn = true;
        let def = self.def(card);
        if def.soldier {
            self.fourth_soldier(card);
        }
        if def.zone == Zone::Engine {
            self.fourth_engine();
        }
    }

    /// The Héraut (continuous): while in play, a player holding the Roi who can place it
    /// must place it.
    pub(crate) fn forced_roi(&self, seat: Seat) -> Option<u8> {
        if !self.kind_in_play(cards::HERAUT) {
            return None;
        }
        let roi = *self.hands[seat as usize]
            .iter()
            .find(|&&c| kind(c) == cards::ROI)?;
        self.has_spot(roi).then_some(roi)
    }
}
