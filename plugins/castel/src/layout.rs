//! Where every card is: hands, piles, the exchange and the stacks in play; finding a card,
//! taking it out of its place and putting it down somewhere else. No rule is applied here.

use veillee_sdk::Seat;

use crate::board;
use crate::cards::{kind, Zone};
use crate::{Castel, Loc, Spot, Stack};

impl Castel {
    pub(crate) fn stack(&self, s: Stack) -> &Vec<u8> {
        match s {
            Stack::Square(q) => &self.squares[q as usize],
            Stack::Engine(r) => &self.engines[r as usize],
            Stack::Outside(i) => &self.outside[i as usize],
        }
    }

    pub(crate) fn stack_mut(&mut self, s: Stack) -> &mut Vec<u8> {
        match s {
            Stack::Square(q) => &mut self.squares[q as usize],
            Stack::Engine(r) => &mut self.engines[r as usize],
            Stack::Outside(i) => &mut self.outside[i as usize],
        }
    }

    /// Every stack in play, in a fixed order (squares, engines, outside).
    pub fn stacks(&self) -> impl Iterator<Item = (Stack, &Vec<u8>)> {
        let squares = self
            .squares
            .iter()
            .enumerate()
            .map(|(q, v)| (Stack::Square(q as u8), v));
        let engines = self
            .engines
            .iter()
            .enumerate()
            .map(|(r, v)| (Stack::Engine(r as u8), v));
        let outside = self
            .outside
            .iter()
            .enumerate()
            .map(|(i, v)| (Stack::Outside(i as u8), v));
        squares
            .chain(engines)
            .chain(outside)
            .filter(|(_, v)| !v.is_empty())
    }

    /// Where a card is.
    pub fn locate(&self, card: u8) -> Loc {
        for (s, h) in self.hands.iter().enumerate() {
            if h.contains(&card) {
                return Loc::Hand(s as Seat);
            }
        }
        for (s, p) in self.piles.iter().enumerate() {
            if p.contains(&card) {
                return Loc::Pile(s as Seat);
            }
        }
        if self.exchange.contains(&card) {
            return Loc::Exchange;
        }
        for (s, v) in self.stacks() {
            if let Some(i) = v.iter().position(|&c| c == card) {
                return Loc::InPlay(s, i as u8);
            }
        }
        Loc::Removed
    }

    /// The zone a card in play stands in (knights: [`Zone::OnCard`]).
    pub fn zone_of(&self, card: u8) -> Option<Zone> {
        match self.locate(card) {
            Loc::InPlay(_, i) if i > 0 => Some(Zone::OnCard),
            Loc::InPlay(Stack::Square(q), _) => Some(board::zone(q)),
            Loc::InPlay(Stack::Engine(_), _) => Some(Zone::Engine),
            Loc::InPlay(Stack::Outside(_), _) => Some(Zone::Outside),
            _ => None,
        }
    }

    /// The square of a card in play on the castle.
    pub fn square_of(&self, card: u8) -> Option<u8> {
        match self.locate(card) {
            Loc::InPlay(Stack::Square(q), _) => Some(q),
            _ => None,
        }
    }

    /// The square of a card of this kind standing (as base card) in the courtyard.
    pub fn kind_in_courtyard(&self, k: u8) -> Option<u8> {
        board::bits(board::zone_mask(Zone::Courtyard)).find(|&q| {
            self.squares[q as usize]
                .first()
                .is_some_and(|&c| kind(c) == k)
        })
    }

    /// Whether a card of this kind is in play anywhere.
    pub fn kind_in_play(&self, k: u8) -> bool {
        self.stacks().any(|(_, v)| v.iter().any(|&c| kind(c) == k))
    }

    /// Cards on the squares neighbouring a square (whole stacks, square order).
    pub fn neighbour_cards(&self, sq: u8) -> Vec<u8> {
        board::neighbour_squares(sq)
            .flat_map(|q| self.squares[q as usize].iter().copied())
            .collect()
    }

    /// Free squares of a castle zone.
    pub fn free_squares(&self, zone: Zone) -> Vec<u8> {
        board::bits(self.free_mask(zone)).collect()
    }

    /// Free squares of a castle zone as a bit set (see [`board::zone_mask`]).
    pub(crate) fn free_mask(&self, zone: Zone) -> u64 {
        board::bits(board::zone_mask(zone))
            .filter(|&q| self.squares[q as usize].is_empty())
            .fold(0, |mask, q| mask | 1 << q)
    }

    pub(crate) fn next_to(&self, sq: u8, k: u8) -> bool {
        board::neighbour_squares(sq).any(|q| self.squares[q as usize].iter().any(|&c| kind(c) == k))
    }

    /// Takes a card out of wherever it is (hand, pile, exchange, play).
    pub(crate) fn take(&mut self, card: u8) -> Loc {
        let loc = self.locate(card);
        match loc {
            Loc::Hand(s) => self.hands[s as usize].retain(|&c| c != card),
            Loc::Pile(s) => self.piles[s as usize].retain(|&c| c != card),
            Loc::Exchange => self.exchange.retain(|&c| c != card),
            Loc::InPlay(s, _) => {
                self.stack_mut(s).retain(|&c| c != card);
                if let Stack::Outside(i) = s {
                    if self.outside[i as usize].is_empty() {
                        self.outside.remove(i as usize);
                    }
                }
                self.pawns[card as usize] = None;
            }
            Loc::Removed => self.removed.retain(|&c| c != card),
        }
        self.public &= !(1u64 << card);
        loc
    }

    pub(crate) fn put_hand(&mut self, seat: Seat, card: u8, public: bool) {
        let hand = &mut self.hands[seat as usize];
        let at = hand.partition_point(|&c| c < card);
        hand.insert(at, card);
        if public {
            self.public |= 1u64 << card;
        }
    }

    pub(crate) fn put(&mut self, card: u8, spot: Spot, pawn: Option<Seat>) {
        match spot {
            Spot::Square(q) => self.squares[q as usize].push(card),
            Spot::Engine(r) => self.engines[r as usize].push(card),
            Spot::Outside => self.outside.push(vec![card]),
            Spot::On(base) => {
                if let Loc::InPlay(s, _) = self.locate(base) {
                    self.stack_mut(s).push(card);
                }
            }
        }
        self.pawns[card as usize] = pawn;
    }
}
