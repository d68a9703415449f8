//! Placing a card (CA-T2): where each card may go now, the Héraut's obligation, and the
//! core's arrival rules (the Fantôme's occupant, CA-T7).

use veillee_sdk::Seat;

use crate::board;
use crate::cards::{self, kind, Condition, Zone};
use crate::{Castel, Spot};

impl Castel {
    /// Whether a placement condition holds at a spot (CA-T2).
    pub(crate) fn condition_holds(&self, condition: Condition, spot: Spot, zone: Zone) -> bool {
        let sq = match spot {
            Spot::Square(q) => Some(q),
            _ => None,
        };
        match condition {
            Condition::None | Condition::OccupiedTower => true,
            Condition::LastFree => self.free_mask(zone).count_ones() == 1,
            Condition::NextTo { kinds } => {
                let Some(sq) = sq else { return false };
                kinds.iter().any(|&k| {
                    k != cards::NO_KIND
                        && (self.next_to(sq, k)
                            || (k == cards::ROI
                                && self.kind_in_courtyard(cards::ROI).is_none()
                                && self.next_to(sq, cards::PRINCE)))
                })
            }
            Condition::NextToIfInCourtyard { kind: k } => match self.kind_in_courtyard(k) {
                None => true,
                Some(at) => sq.is_some_and(|q| board::neighbours(q, at)),
            },
            Condition::NotWhileInCourtyard { kind: k } => self.kind_in_courtyard(k).is_none(),
            Condition::MinPlayers { players } => self.players >= players,
        }
    }

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
    /// soon as `f` returns `true`, and then returns `true`.
    pub(crate) fn each_spot(&self, card: u8, f: &mut impl FnMut(Spot) -> bool) -> bool {
        let def = self.def(card);
        let mut offer = |spot| self.condition_holds(def.condition, spot, def.zone) && f(spot);
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
                    self.free_mask(def.zone)
                };
                board::bits(squares).any(|q| offer(Spot::Square(q)))
            }
            Zone::Outside => offer(Spot::Outside),
            Zone::Engine => (0..4u8)
                .filter(|&r| self.engines[r as usize].is_empty())
                .any(|r| offer(Spot::Engine(r))),
            Zone::OnCard => self
                .stacks()
                .any(|(_, v)| offer(Spot::On(*v.last().expect("stacks are not empty")))),
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
