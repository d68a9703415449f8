//! The end of the game: a player out of cards (CA-E1), the blocking rule (CA-E2), the draw
//! offered at the safety limit, and the outcome shown to the players.

use veillee_sdk::{text, Outcome, Seat};

use crate::{Castel, Ending, DRAW_OFFER_AFTER, DRAW_OFFER_EVERY};

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

    /// CA-E2: whether some card out of play could be placed now by someone. A card in a
    /// hand can be placed by its holder, a card of the exchange taken and placed by anyone
    /// with a card in hand, a card of a pile drawn and placed by its owner; where a card may
    /// go (CA-T2) does not depend on who holds it.
    pub fn placement_possible(&self) -> bool {
        self.hands
            .iter()
            .chain(&self.piles)
            .flatten()
            .chain(&self.exchange)
            .any(|&card| self.has_spot(card))
    }

    /// CA-E2, checked at the end of each turn: « Dans certains cas très particuliers, une
    /// situation de blocage peut intervenir. Le vainqueur est alors celui à qui il reste le
    /// moins de cartes en main. » The game is blocked when, for a whole round (as many
    /// turns in a row as there are players), no card was placed and none could be placed
    /// by anyone. Only a placement changes where cards may go, so such a game could never
    /// move again. Turns of draws and exchanges while placements are possible are not a
    /// blockage, nor are empty piles.
    pub(crate) fn check_blocked(&mut self, placed_this_turn: bool) {
        if self.ending.is_some() {
            return;
        }
        if placed_this_turn || self.placement_possible() {
            self.stuck_turns = 0;
            return;
        }
        self.stuck_turns = self.stuck_turns.saturating_add(1);
        if u32::from(self.stuck_turns) >= u32::from(self.players) {
            // Fewest cards in hand wins, ties share.
            let fewest = self.hands.iter().map(Vec::len).min().unwrap_or(0);
            let winners = (0..self.players)
                .filter(|&s| self.hands[s as usize].len() == fewest)
                .collect();
            self.ending = Some(Ending {
                winners,
                reason: "blocked".into(),
            });
        }
    }

    /// The safety net (not in the rules): after [`DRAW_OFFER_AFTER`] turns, and again every
    /// [`DRAW_OFFER_EVERY`] turns while the players play on, every player is asked whether
    /// to stop with a draw.
    pub(crate) fn offer_draw_when_due(&mut self) {
        let due = self.turns >= DRAW_OFFER_AFTER
            && (self.turns - DRAW_OFFER_AFTER).is_multiple_of(DRAW_OFFER_EVERY);
        if self.ending.is_none() && due {
            self.draw_offer = Some(0);
        }
    }

    /// The seats still to answer the draw offered at the safety limit (empty without one).
    pub fn draw_offered_to(&self) -> Vec<Seat> {
        (0..self.players)
            .filter(|&s| self.draw_offered(s))
            .collect()
    }

    /// Whether `seat` is still to answer the draw offered at the safety limit.
    pub(crate) fn draw_offered(&self, seat: Seat) -> bool {
        match self.draw_offer {
            Some(accepted) if self.ending.is_none() => {
                seat < self.players && accepted & (1 << seat) == 0
            }
            _ => false,
        }
    }

    /// A seat's answer to the draw offer: every player accepting ends the game as a draw;
    /// one playing on withdraws the offer at once.
    pub(crate) fn answer_draw(&mut self, seat: Seat, accept: bool) {
        let Some(accepted) = self.draw_offer else {
            return;
        };
        if !accept {
            self.draw_offer = None;
            return;
        }
        let accepted = accepted | (1 << seat);
        if accepted.count_ones() >= u32::from(self.players) {
            self.draw_offer = None;
            self.ending = Some(Ending {
                winners: Vec::new(),
                reason: "draw".into(),
            });
        } else {
            self.draw_offer = Some(accepted);
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
                "Blocage : personne n'a pu poser de carte pendant un tour de table complet ; \
                 le moins de cartes en main gagne",
                "Blocked: nobody could place a card for a whole round; fewest cards in hand \
                 wins",
            ),
            _ => text(
                format!(
                    "Partie nulle acceptée par tous à la limite de sécurité ({} tours)",
                    self.turns
                ),
                format!(
                    "Draw accepted by every player at the safety limit ({} turns)",
                    self.turns
                ),
            ),
        };
        Some(Outcome {
            winners: e.winners.clone(),
            scores: Vec::new(),
            reason,
        })
    }
}
