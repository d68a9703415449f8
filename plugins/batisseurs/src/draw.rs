//! The safety net (not in the original rules): after [`DRAW_OFFER_AFTER`] rounds without a
//! castle, and again every [`DRAW_OFFER_EVERY`] rounds while the players play on, both
//! players are asked at once whether to stop with a draw. One `play-on` withdraws the offer
//! and the game goes on exactly where it was; both accepting ends it as a draw. A game never
//! ends silently at a cap.

use veillee_sdk::{text, Event, Log, Seat};

use crate::{Batisseurs, End, Move, DRAW_OFFER_AFTER, DRAW_OFFER_EVERY};

impl Batisseurs {
    /// Opens the offer when a round that is due has just ended (called after Black's move).
    pub(crate) fn offer_draw_when_due(&mut self) {
        let due = self.rounds >= DRAW_OFFER_AFTER
            && (self.rounds - DRAW_OFFER_AFTER).is_multiple_of(DRAW_OFFER_EVERY);
        if self.end.is_none() && due {
            self.draw_offer = Some(0);
        }
    }

    /// The seats still to answer the draw offer (empty without one).
    pub fn draw_offered_to(&self) -> Vec<Seat> {
        match self.draw_offer {
            Some(accepted) if self.end.is_none() => {
                (0..2).filter(|&s| accepted & (1 << s) == 0).collect()
            }
            _ => Vec::new(),
        }
    }

    /// While the draw is offered: a seat's two answers, if it has not accepted yet.
    pub(crate) fn draw_answers(&self, seat: Seat) -> Vec<Move> {
        if self.draw_offered_to().contains(&seat) {
            vec![Move::AcceptDraw, Move::PlayOn]
        } else {
            Vec::new()
        }
    }

    /// A seat's answer: both accepting is a draw, one playing on withdraws the offer. Not a
    /// move: the player to move, the rounds and the history stay as they were.
    pub(crate) fn answer_draw(&mut self, seat: Seat, accept: bool, log: &mut Log) {
        let Some(accepted) = self.draw_offer else {
            return;
        };
        log.record(|| {
            let (fr, en) = crate::scene::side_name(seat);
            let mv = if accept {
                Move::AcceptDraw
            } else {
                Move::PlayOn
            };
            let answer = self.label(seat, &mv);
            Event::new(text(
                format!("{fr} : {}", answer.fr),
                format!("{en}: {}", answer.en),
            ))
        });
        if !accept {
            self.draw_offer = None;
            return;
        }
        let accepted = accepted | (1 << seat);
        if accepted == 0b11 {
            self.draw_offer = None;
            self.end = Some(End::DrawAgreed);
            log.record(|| Event::new(self.outcome().expect("the game has ended").reason));
        } else {
            self.draw_offer = Some(accepted);
        }
    }
}
