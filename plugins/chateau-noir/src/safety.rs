//! The safety net (not in the original rules, whose players agree on a draw, CN-E3): after
//! [`DRAW_OFFER_TURNS`] turns, and again every [`DRAW_REOFFER_TURNS`] turns while the players
//! play on, every player in turn is asked whether to stop with a draw. One `play-on` and the
//! match goes on exactly where it was; all accepting ends it drawn. A match never ends
//! silently at a cap.

use veillee_sdk::{text, Event, Log, Seat};

use crate::board::ARMY_NAMES;
use crate::{ChateauNoir, Ending, Phase, DRAW_OFFER_TURNS, DRAW_REOFFER_TURNS};

impl ChateauNoir {
    /// At the end of a turn: opens the offer when it is due. Returns whether it did (the
    /// next army then waits for the answers).
    pub(crate) fn offer_draw_when_due(&mut self, log: &mut Log) -> bool {
        if self.turns_played() < self.draw_offer_at {
            return false;
        }
        self.phase = Phase::DrawOffer {
            asking: self.first_asked_for_draw(),
        };
        let turns = self.turns_played();
        log.record(|| {
            Event::new(text(
                format!(
                    "{turns} tours joués (limite de sécurité) : chacun à son tour accepte la \
                     partie nulle ou continue"
                ),
                format!(
                    "{turns} turns played (safety limit): each player in turn accepts a draw or \
                     plays on"
                ),
            ))
        });
        true
    }

    /// The first seat asked: the one after the player of the army that played last.
    fn first_asked_for_draw(&self) -> Seat {
        (self.controller(self.active) + 1) % self.players
    }

    /// The answer of the seat asked: after the last acceptance the match is drawn; a refusal
    /// withdraws the offer and the next army plays, the offer coming back
    /// [`DRAW_REOFFER_TURNS`] turns later.
    pub(crate) fn answer_draw(&mut self, seat: Seat, accept: bool, log: &mut Log) {
        if !accept {
            self.draw_offer_at = self.turns_played().saturating_add(DRAW_REOFFER_TURNS);
            self.phase = Phase::Coups;
            self.next_army(log);
            return;
        }
        let next = (seat + 1) % self.players;
        if next == self.first_asked_for_draw() {
            self.ending = Some(Ending::TurnLimit);
        } else {
            self.phase = Phase::DrawOffer { asking: next };
        }
    }

    /// Turns finished over the whole match.
    pub(crate) fn turns_played(&self) -> u32 {
        self.turn.saturating_sub(1)
    }

    /// The turn count at which the safety net next offers a draw.
    pub fn draw_offer_at(&self) -> u32 {
        self.draw_offer_at
    }

    /// A seat as the players see it: its number and the armies it commands ("player 2 (Red
    /// and Yellow)").
    pub(crate) fn seat_label(&self, seat: Seat) -> (String, String) {
        let armies: Vec<u8> = (0..4).filter(|&a| self.controller(a) == seat).collect();
        let fr: Vec<&str> = armies.iter().map(|&a| ARMY_NAMES[a as usize].0).collect();
        let en: Vec<&str> = armies.iter().map(|&a| ARMY_NAMES[a as usize].1).collect();
        (
            format!("joueur {} ({})", seat + 1, fr.join(" et ")),
            format!("player {} ({})", seat + 1, en.join(" and ")),
        )
    }
}

/// The first offer, for saves made before the safety net asked.
pub(crate) fn first_draw_offer() -> u32 {
    DRAW_OFFER_TURNS
}
