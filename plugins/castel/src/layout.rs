//! Where every card is: hands, piles, the exchange and the stacks in play; finding a card,
//! taking it out of its place and putting it down somewhere else. No rule is applied here.

use std::cell::OnceCell;

use veillee_sdk::Seat;

use crate::board;
use crate::cards::{self, kind, Condition, Zone, KINDS};
use crate::{Castel, Loc, Spot, Stack};

impl Castel {
    /// The castle's occupancy, read from the stacks on the first question after a change.
    pub(crate) fn occupancy(&self) -> &Occupancy {
        self.occupancy.0.get_or_init(|| Occupancy::read(self))
    }

    pub(crate) fn stack(&self, s: Stack) -> &Vec<u8> {
        match s {
            Stack::Square(q) => &self.squares[q as usize],
            Stack::Engine(r) => &self.engines[r as usize],
            Stack::Outside(i) => &self.outside[i as usize],
        }
    }

    pub(crate) fn stack_mut(&mut self, s: Stack) -> &mut Vec<u8> {
        self.occupancy.forget();
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
        self.occupancy().kind_in_play(k)
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

    /// Takes a card out of wherever it is (hand, pile, exchange, play).
    pub(crate) fn take(&mut self, card: u8) -> Loc {
        let loc = self.locate(card);
        if let Loc::InPlay(..) = loc {
            self.occupancy.forget();
        }
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
        self.occupancy.forget();
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

/// The castle's occupancy as bit sets, read from the stacks once: what the placement
/// conditions (CA-T2) ask square by square and kind by kind, each answered with a mask
/// operation instead of a walk over the stacks (a listing asks it of every free
/// square of every card in hand).
#[derive(Clone)]
pub(crate) struct Occupancy {
    /// Squares holding a card.
    occupied: u64,
    /// Per kind: the squares whose stack holds a card of that kind (at any height).
    stacked: [u64; KINDS.len()],
    /// Per kind: the squares whose base card is of that kind.
    based: [u64; KINDS.len()],
    /// The kinds with a card in play anywhere (squares, engines, outside), a bit each.
    in_play: u64,
}

impl Occupancy {
    /// Reads where the cards in play stand.
    fn read(game: &Castel) -> Occupancy {
        let mut o = Occupancy {
            occupied: 0,
            stacked: [0; KINDS.len()],
            based: [0; KINDS.len()],
            in_play: 0,
        };
        for (q, stack) in game.squares.iter().enumerate() {
            let Some((&base, above)) = stack.split_first() else {
                continue;
            };
            let (bit, k) = (1u64 << q, kind(base));
            o.occupied |= bit;
            o.based[k as usize] |= bit;
            o.stacked[k as usize] |= bit;
            o.in_play |= 1 << k;
            // Knights (CA-T2: on a card) are few: most stacks are their base alone.
            for &c in above {
                o.stacked[kind(c) as usize] |= bit;
                o.in_play |= 1 << kind(c);
            }
        }
        for stack in game.engines.iter().chain(&game.outside) {
            for &c in stack {
                o.in_play |= 1 << kind(c);
            }
        }
        o
    }

    /// Whether a card of this kind is in play anywhere ([`Castel::kind_in_play`]).
    pub(crate) fn kind_in_play(&self, k: u8) -> bool {
        k < 64 && self.in_play & 1 << k != 0
    }

    /// The free squares of a castle zone ([`Castel::free_mask`]).
    pub(crate) fn free(&self, zone: Zone) -> u64 {
        board::zone_mask(zone) & !self.occupied
    }

    /// The squares where a card of this kind stands in a stack.
    fn stacked(&self, k: u8) -> u64 {
        self.stacked.get(k as usize).copied().unwrap_or(0)
    }

    /// The first courtyard square whose base card is of this kind
    /// ([`Castel::kind_in_courtyard`]).
    fn in_courtyard(&self, k: u8) -> Option<u8> {
        let m =
            self.based.get(k as usize).copied().unwrap_or(0) & board::zone_mask(Zone::Courtyard);
        (m != 0).then(|| m.trailing_zeros() as u8)
    }

    /// Of these castle squares, those where a card with this condition may go (CA-T2).
    pub(crate) fn squares_where(
        &self,
        condition: Condition,
        zone: Zone,
        squares: u64,
        players: u8,
    ) -> u64 {
        let all_if = |holds: bool| if holds { squares } else { 0 };
        match condition {
            Condition::None | Condition::OccupiedTower => squares,
            Condition::LastFree => all_if(self.free(zone).count_ones() == 1),
            Condition::NextTo { kinds } => {
                // Neighbours (CA-B2) are symmetric: the squares next to a kind are the
                // neighbours of the squares holding it.
                let mut near = 0;
                for k in kinds.into_iter().filter(|&k| k != cards::NO_KIND) {
                    near |= self.stacked(k);
                    // When the Roi is absent from the courtyard, the Prince stands in.
                    if k == cards::ROI && self.in_courtyard(cards::ROI).is_none() {
                        near |= self.stacked(cards::PRINCE);
                    }
                }
                squares & board::bits(near).fold(0, |m, q| m | board::neighbour_mask(q))
            }
            Condition::NextToIfInCourtyard { kind: k } => match self.in_courtyard(k) {
                None => squares,
                Some(at) => squares & board::neighbour_mask(at),
            },
            Condition::NotWhileInCourtyard { kind: k } => all_if(self.in_courtyard(k).is_none()),
            Condition::MinPlayers { players: p } => all_if(players >= p),
        }
    }

    /// Whether a card with this condition may go to a spot off the castle (outside, facing
    /// a rampart, on a card): the condition cannot depend on the spot there (CA-T2).
    pub(crate) fn holds_off_castle(&self, condition: Condition, zone: Zone, players: u8) -> bool {
        match condition {
            Condition::None | Condition::OccupiedTower => true,
            Condition::LastFree => self.free(zone).count_ones() == 1,
            Condition::NextTo { .. } => false,
            Condition::NextToIfInCourtyard { kind: k }
            | Condition::NotWhileInCourtyard { kind: k } => self.in_courtyard(k).is_none(),
            Condition::MinPlayers { players: p } => players >= p,
        }
    }
}

/// The [`Occupancy`] of the stacks as they stand, kept until they change: derived from the
/// stacks, so neither saved nor compared (a loaded or copied game reads it again).
#[derive(Clone, Default)]
pub(crate) struct OccupancyCache(OnceCell<Occupancy>);

impl OccupancyCache {
    /// To be called whenever a stack of cards in play changes.
    pub(crate) fn forget(&mut self) {
        self.0.take();
    }
}

impl PartialEq for OccupancyCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for OccupancyCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OccupancyCache")
    }
}
