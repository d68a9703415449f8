//! The turn (CA-T1): the legal moves of the seat to act, playing one, and passing the turn
//! on after two actions; the answers to a draw offered at the safety limit.

use veillee_sdk::{text, Event, Log, Seat, Text};

use crate::board;
use crate::cards::kind;
use crate::labels::seat_name;
use crate::{Castel, Move, Pending};

impl Castel {
    /// The legal moves of a seat (CA-T1; the Héraut's obligation first), into `moves`
    /// (cleared first), allocating nothing. While a draw is offered, only its answers, to
    /// the seats that have not accepted yet.
    pub(crate) fn legal_moves_into(&self, seat: Seat, moves: &mut Vec<Move>) {
        moves.clear();
        if self.draw_offer.is_some() {
            if self.draw_offered(seat) {
                moves.extend([Move::AcceptDraw, Move::PlayOn]);
            }
            return;
        }
        if self.ending.is_some() || seat != self.turn {
            return;
        }
        if let Some(roi) = self.forced_roi(seat) {
            self.each_spot(roi, &mut |spot| {
                moves.push(Move::Place { card: roi, spot });
                false
            });
            return;
        }
        let hand = Self::distinct(&self.hands[seat as usize]);
        let exchange = Self::distinct(&self.exchange);
        if !self.piles[seat as usize].is_empty() {
            moves.push(Move::Draw);
        }
        for h in board::bits(hand) {
            for x in board::bits(exchange) {
                if kind(h) != kind(x) {
                    moves.push(Move::Exchange {
                        hand: h,
                        exchange: x,
                    });
                }
            }
        }
        for card in board::bits(hand) {
            self.each_spot(card, &mut |spot| {
                moves.push(Move::Place { card, spot });
                false
            });
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    /// The first card of each kind among these (deduplicates identical cards), as a bit set
    /// of cards (bit `c` for card `c`; read it in order with [`board::bits`]).
    fn distinct(cards: &[u8]) -> u64 {
        let all = cards.iter().fold(0u64, |mask, &c| mask | 1 << c);
        let mut kinds = 0u64;
        let mut out = 0;
        for c in board::bits(all) {
            if kinds & 1 << kind(c) == 0 {
                kinds |= 1 << kind(c);
                out |= 1 << c;
            }
        }
        out
    }

    /// Plays one action of the seat to act (a move from [`Castel::legal_moves_into`]).
    pub(crate) fn play_move(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        // A scripted effect left unfinished (its script failed) ends now.
        self.settle();
        if self.ending.is_some() {
            return;
        }
        log.record(|| {
            let mut label = self.label(mv);
            let who = seat_name(seat);
            label.fr = format!("{} : {}", who.fr, label.fr);
            label.en = format!("{}: {}", who.en, label.en);
            Event::new(label)
        });
        if let Move::AcceptDraw | Move::PlayOn = *mv {
            // Not an action of the turn: the turn resumes where it was if play goes on.
            self.answer_draw(seat, *mv == Move::AcceptDraw);
            self.log_ending(log);
            return;
        }
        self.acted = true;
        let mut end_turn = false;
        match *mv {
            Move::Draw => {
                if let Some(c) = self.piles[seat as usize].pop() {
                    self.put_hand(seat, c, false);
                }
            }
            Move::Exchange { hand, exchange } => {
                let i = self.exchange.iter().position(|&c| c == exchange);
                self.hands[seat as usize].retain(|&c| c != hand);
                if let Some(i) = i {
                    self.exchange[i] = hand;
                }
                self.public &= !(1u64 << hand);
                self.put_hand(seat, exchange, true);
            }
            Move::Place { card, spot } => {
                self.arrive(card, spot, Some(seat));
                if self.scripted && self.def(card).effect {
                    self.pending = Some(Pending { card, seat });
                } else {
                    self.check_empty(seat);
                }
            }
            Move::Pass => end_turn = true,
            Move::AcceptDraw | Move::PlayOn => {}
        }
        self.actions_left = self.actions_left.saturating_sub(1);
        if (end_turn || self.actions_left == 0) && self.ending.is_none() {
            self.end_turn();
        }
        self.log_ending(log);
    }

    /// Records the end of the game, if it came.
    fn log_ending(&self, log: &mut Log) {
        if let Some(e) = &self.ending {
            let winners = e.winners.clone();
            log.record(|| game_over(&winners));
        }
    }

    /// Passes the turn to the next seat, then checks the blocking rule (CA-E2) and the
    /// safety limit.
    pub(crate) fn end_turn(&mut self) {
        self.turns += 1;
        let placed = std::mem::take(&mut self.placed_this_turn);
        self.turn = (self.turn + 1) % self.players;
        self.actions_left = 2;
        self.check_blocked(placed);
        self.offer_draw_when_due();
    }
}

/// The event that closes the log.
fn game_over(winners: &[Seat]) -> Event {
    if winners.is_empty() {
        return Event::new(text("Fin de la partie : partie nulle", "Game over: a draw"));
    }
    let names: Vec<Text> = winners.iter().map(|&s| seat_name(s)).collect();
    let fr: Vec<String> = names.iter().map(|t| t.fr.clone()).collect();
    let en: Vec<String> = names.iter().map(|t| t.en.clone()).collect();
    Event::new(text(
        format!("Fin de la partie, victoire : {}", fr.join(", ")),
        format!("Game over, won by: {}", en.join(", ")),
    ))
}
