//! The end of the game: a player out of cards (CA-E1), the blocking rule (CA-E2), the
//! safety limit, and the outcome shown to the players.

use veillee_sdk::{text, Outcome, Seat};

use crate::{Castel, Ending, TURN_LIMIT};

impl Castel {
    /// CA-E1: whether this seat has emptied hand and pile.
    pub(crate) fn check_empty(&mut self, seat: Seat) {
        if self.ending.is_none()
            && self.hands[seat as usize].is_empty()
            && self.piles[seat as usize].is_empty()
        {
            self.ending = Some(Ending {
                winners: vec![seat],
                reason: "empty".into(),
            });
        }
    }

    /// Ends a pending scripted effect: CA-E1 for its placer.
    pub(crate) fn settle(&mut self) {
        if let Some(p) = self.pending.take() {
            self.check_empty(p.seat);
        }
    }

    /// CA-E2 (and the safety limit), checked at the end of each turn.
    pub(crate) fn check_blocked(&mut self) {
        if self.ending.is_none()
            && (self.quiet_turns as u32 >= 3 * self.players as u32 || self.turns >= TURN_LIMIT)
        {
            // CA-E2: fewest cards in hand wins, ties share.
            let fewest = self.hands.iter().map(Vec::len).min().unwrap_or(0);
            let winners = (0..self.players)
                .filter(|&s| self.hands[s as usize].len() == fewest)
                .collect();
            let reason = if self.turns >= TURN_LIMIT {
                "limit"
            } else {
                "blocked"
            };
            self.ending = Some(Ending {
                winners,
                reason: reason.into(),
            });
        }
    }

    /// The outcome, once the game has ended.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        let e = self.ending.as_ref()?;
        let reason = match e.reason.as_str() {
            "empty" => text(
                "Plus aucune carte en main ni dans la pioche",
                "No card left in hand nor in the pile",
            ),
            "blocked" => text(
                "Blocage : trois tours sans carte placée, le moins de cartes en main gagne",
                "Blocked: three rounds without a card placed, fewest cards in hand wins",
            ),
            _ => text(
                "Partie trop longue : le moins de cartes en main gagne",
                "Game too long: fewest cards in hand wins",
            ),
        };
        Some(Outcome {
            winners: e.winners.clone(),
            scores: Vec::new(),
            reason,
        })
    }
}
