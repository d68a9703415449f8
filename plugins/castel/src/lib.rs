//! # Castel
//!
//! A card game for 2–5 players (2000): place all your cards in and around a small castle
//! before the others. The rules are `shared/rules/castel.md`; comments cite its rule ids
//! (`CA-T7`). This crate is the *core*: surface, deal, turn, placement, protection,
//! returning, soldiers and engines, the end. Card effects are Lua scripts
//! (`variants/castel/cards.lua`) calling the operations in `ops.rs`; without them the
//! effects simply do nothing. See this crate's README.md.
//!
//! Action ids: `draw`, `exchange-<hand card>-<exchange card>`, `place-<card>-<where>`
//! (`place-roi-c4`, `place-barbare-outside`, `place-engin-2-engine-n`,
//! `place-chevalier-1-on-roi`), `pass`.

pub mod board;
pub mod cards;
mod ops;
mod scene;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::{
    text, Action, Event, Game, GameError, GameRng, Log, Manifest, Outcome, Scene, Seat, Setup,
    Status, Target, Text,
};

use cards::{kind, Condition, Def, Sex, Zone, CARDS, KINDS};

/// The id of the castle board in the scene.
pub const BOARD_ID: &str = "castle";
/// Pawn colours, seat by seat (CA-S): black, beige, red, green, purple.
pub const PAWNS_FR: [&str; 5] = ["noir", "beige", "rouge", "vert", "violet"];
/// The same in English.
pub const PAWNS_EN: [&str; 5] = ["black", "beige", "red", "green", "purple"];
/// Turns after which a game is ended as a block (CA-E2's counting), so that every game
/// ends even if returns cycle for ever. Not in the original rules.
pub const TURN_LIMIT: u32 = 600;

/// Where a stack of cards stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stack {
    /// A castle square.
    Square(u8),
    /// Outside the walls facing a rampart (siege engines).
    Engine(u8),
    /// Outside the walls (index in arrival order).
    Outside(u8),
}

/// Where a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// In a seat's hand.
    Hand(Seat),
    /// In a seat's draw pile.
    Pile(Seat),
    /// In the exchange.
    Exchange,
    /// In play, in a stack (index 0 is the base card; knights above).
    InPlay(Stack, u8),
    /// Removed from the game.
    Removed,
}

/// Where a card may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spot {
    /// A free castle square.
    Square(u8),
    /// Outside the walls.
    Outside,
    /// Facing a rampart (engines).
    Engine(u8),
    /// On top of this card (knights).
    On(u8),
}

/// A legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Draw the top card of one's pile (CA-T1).
    Draw,
    /// Swap a hand card with an exchange card (CA-T1).
    Exchange {
        /// From the hand.
        hand: u8,
        /// From the exchange.
        exchange: u8,
    },
    /// Place a card (CA-T2).
    Place {
        /// The card.
        card: u8,
        /// Where.
        spot: Spot,
    },
    /// No action is possible: the turn ends.
    Pass,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The winners.
    pub winners: Vec<Seat>,
    /// `"empty"` (CA-E1), `"blocked"` (CA-E2) or `"limit"` ([`TURN_LIMIT`]).
    pub reason: String,
}

/// An arrival whose effect a script is resolving (see `enable_scripted_effects`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The card placed.
    pub card: u8,
    /// Who placed it (checked for CA-E1 when the effect ends).
    pub seat: Seat,
}

/// A game of Castel: the whole state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Castel {
    players: u8,
    /// Per-kind definitions (the printed table, possibly overridden by scripts).
    defs: Vec<Def>,
    hands: Vec<Vec<u8>>,
    /// Draw piles, top last.
    piles: Vec<Vec<u8>>,
    exchange: Vec<u8>,
    squares: Vec<Vec<u8>>,
    engines: [Vec<u8>; 4],
    outside: Vec<Vec<u8>>,
    removed: Vec<u8>,
    /// The seat whose pawn is on each card.
    pawns: Vec<Option<Seat>>,
    /// Cards whose presence in a hand is public (came from a public place).
    public: u64,
    dealer: Seat,
    turn: Seat,
    actions_left: u8,
    placed_this_turn: bool,
    quiet_turns: u16,
    turns: u32,
    last_placed: Option<u8>,
    /// The card placed before `last_placed` (the Enchanteur's target).
    #[serde(default)]
    placed_before: Option<u8>,
    /// Copies of each kind in the game (empty: the printed counts); set by `define_card`,
    /// used by the `deal` command.
    #[serde(default)]
    counts: Vec<u8>,
    /// Whether any action has been played (the `deal` command is refused after).
    #[serde(default)]
    acted: bool,
    scripted: bool,
    pending: Option<Pending>,
    ending: Option<Ending>,
    rng: GameRng,
}

/// Table for the deal (CA-S): hand, pile, exchange.
pub fn deal_sizes(players: u8) -> (usize, usize, usize) {
    match players {
        2 => (9, 13, 10),
        3 => (7, 8, 11),
        4 => (5, 6, 12),
        _ => (5, 4, 11),
    }
}

fn seat_name(seat: Seat) -> Text {
    text(
        format!("Pions {}", PAWNS_FR[seat as usize]),
        format!("{} pawns", capitalised(PAWNS_EN[seat as usize])),
    )
}

/// `black` → `Black`.
pub(crate) fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The cards of a deal.
struct Dealt {
    hands: Vec<Vec<u8>>,
    piles: Vec<Vec<u8>>,
    exchange: Vec<u8>,
    removed: Vec<u8>,
}

/// CA-S from a card table: the copies `counts` allows, without the kinds whose condition
/// needs more players (Fou, Bouffon with 2), shuffled; each seat gets the table's hand,
/// the exchange the table's size, the piles share the rest equally and what cannot be
/// shared joins the exchange. With the printed table this is exactly CA-S's table (54 or
/// 56 cards); with fewer cards the hands are served first, then the exchange.
fn deal_cards(players: u8, defs: &[Def], counts: &[u8], rng: &mut GameRng) -> Dealt {
    let used = |c: u8| {
        let k = kind(c) as usize;
        let enough = match defs[k].condition {
            Condition::MinPlayers { players: p } => players >= p,
            _ => true,
        };
        enough && cards::CARD_NUM[c as usize] <= counts[k]
    };
    let mut deck: Vec<u8> = (0..CARDS as u8).filter(|&c| used(c)).collect();
    let removed: Vec<u8> = (0..CARDS as u8).filter(|&c| !used(c)).collect();
    rng.shuffle(&mut deck);
    let n = players as usize;
    let (h, _, x) = deal_sizes(players);
    let total = deck.len();
    let h = h.min(total / n);
    let x = x.min(total - n * h);
    let p = (total - n * h - x) / n;
    let mut hands = Vec::new();
    let mut piles = Vec::new();
    for _ in 0..players {
        let mut hand: Vec<u8> = deck.drain(..h).collect();
        hand.sort_unstable();
        hands.push(hand);
        piles.push(deck.drain(..p).collect());
    }
    Dealt {
        hands,
        piles,
        exchange: deck,
        removed,
    }
}

impl Castel {
    /// A new game: the deal of CA-S.
    pub fn deal(players: u8, seed: u64) -> Castel {
        let mut rng = GameRng::new(seed);
        let defs: Vec<Def> = KINDS.iter().map(|k| k.def).collect();
        let counts: Vec<u8> = KINDS.iter().map(|k| k.count).collect();
        let dealt = deal_cards(players, &defs, &counts, &mut rng);
        let dealer = rng.below(players as usize) as Seat;
        Castel {
            players,
            defs,
            hands: dealt.hands,
            piles: dealt.piles,
            exchange: dealt.exchange,
            squares: vec![Vec::new(); board::SQUARES],
            engines: Default::default(),
            outside: Vec::new(),
            removed: dealt.removed,
            pawns: vec![None; CARDS],
            public: 0,
            dealer,
            turn: (dealer + 1) % players,
            actions_left: 2,
            placed_this_turn: false,
            quiet_turns: 0,
            turns: 0,
            last_placed: None,
            placed_before: None,
            counts,
            acted: false,
            scripted: false,
            pending: None,
            ending: None,
            rng,
        }
    }

    /// Copies of a kind in this game.
    pub fn count(&self, k: u8) -> u8 {
        self.counts
            .get(k as usize)
            .copied()
            .unwrap_or(KINDS[k as usize].count)
    }

    /// Whether the game has begun: an action played or a card in play (the `deal` command
    /// and count changes are refused then).
    pub fn started(&self) -> bool {
        self.acted
            || self.turns > 0
            || self.actions_left != 2
            || self.stacks().next().is_some()
            || self.ending.is_some()
    }

    /// Deals again (CA-S) from the current definitions and counts, with the game's seeded
    /// generator: every card leaves play, hands, piles and exchange; the dealer and the
    /// seat to start stay.
    pub fn redeal(&mut self) {
        let counts: Vec<u8> = (0..KINDS.len() as u8).map(|k| self.count(k)).collect();
        let dealt = deal_cards(self.players, &self.defs, &counts, &mut self.rng);
        self.hands = dealt.hands;
        self.piles = dealt.piles;
        self.exchange = dealt.exchange;
        self.removed = dealt.removed;
        self.squares = vec![Vec::new(); board::SQUARES];
        self.engines = Default::default();
        self.outside = Vec::new();
        self.pawns = vec![None; CARDS];
        self.public = 0;
        self.last_placed = None;
        self.placed_before = None;
        self.pending = None;
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The definition of a card's kind.
    pub fn def(&self, card: u8) -> Def {
        self.defs[kind(card) as usize]
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> &[u8] {
        &self.hands[seat as usize]
    }

    /// A seat's pile (top last).
    pub fn pile(&self, seat: Seat) -> &[u8] {
        &self.piles[seat as usize]
    }

    /// The exchange.
    pub fn exchange(&self) -> &[u8] {
        &self.exchange
    }

    /// The seat to act and its actions left.
    pub fn turn(&self) -> (Seat, u8) {
        (self.turn, self.actions_left)
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The seat whose pawn is on a card.
    pub fn pawn(&self, card: u8) -> Option<Seat> {
        self.pawns[card as usize]
    }

    fn stack(&self, s: Stack) -> &Vec<u8> {
        match s {
            Stack::Square(q) => &self.squares[q as usize],
            Stack::Engine(r) => &self.engines[r as usize],
            Stack::Outside(i) => &self.outside[i as usize],
        }
    }

    fn stack_mut(&mut self, s: Stack) -> &mut Vec<u8> {
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
        (0..board::SQUARES as u8).find(|&q| {
            board::zone(q) == Zone::Courtyard
                && self.squares[q as usize]
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

    /// CA-T6: whether a card in play is protected now.
    pub fn protected(&self, card: u8) -> bool {
        if kind(card) == cards::AMBASSADEUR {
            return true;
        }
        let Loc::InPlay(stack, i) = self.locate(card) else {
            return false;
        };
        // A knight on top protects the card below (Chevalier).
        if (i as usize) + 1 < self.stack(stack).len() {
            return true;
        }
        let Stack::Square(sq) = stack else {
            return false;
        };
        // Capitaine: every other soldier on his rampart.
        if self.def(card).soldier && kind(card) != cards::CAPITAINE {
            if let Some(r) = board::rampart(sq) {
                if board::rampart_squares(r).iter().any(|&q| {
                    self.squares[q as usize]
                        .first()
                        .is_some_and(|&c| kind(c) == cards::CAPITAINE)
                }) {
                    return true;
                }
            }
        }
        // Prêtre: neighbouring characters with his pawn colour.
        if self.def(card).sex != Sex::None {
            if let Some(pawn) = self.pawns[card as usize] {
                for q in board::neighbour_squares(sq) {
                    if self.squares[q as usize]
                        .iter()
                        .any(|&c| kind(c) == cards::PRETRE && self.pawns[c as usize] == Some(pawn))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Free squares of a castle zone.
    pub fn free_squares(&self, zone: Zone) -> Vec<u8> {
        (0..board::SQUARES as u8)
            .filter(|&q| board::zone(q) == zone && self.squares[q as usize].is_empty())
            .collect()
    }

    fn next_to(&self, sq: u8, k: u8) -> bool {
        self.neighbour_cards(sq).iter().any(|&c| kind(c) == k)
    }

    /// Whether a placement condition holds at a spot (CA-T2).
    fn condition_holds(&self, condition: Condition, spot: Spot, zone: Zone) -> bool {
        let sq = match spot {
            Spot::Square(q) => Some(q),
            _ => None,
        };
        match condition {
            Condition::None | Condition::OccupiedTower => true,
            Condition::LastFree => self.free_squares(zone).len() == 1,
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
        let def = self.def(card);
        let mut out = Vec::new();
        match def.zone {
            Zone::Courtyard | Zone::Rampart | Zone::Tower => {
                if def.condition == Condition::OccupiedTower {
                    for q in 0..board::SQUARES as u8 {
                        let v = &self.squares[q as usize];
                        if board::zone(q) == def.zone && v.len() == 1 && !self.protected(v[0]) {
                            out.push(Spot::Square(q));
                        }
                    }
                } else {
                    for q in self.free_squares(def.zone) {
                        out.push(Spot::Square(q));
                    }
                }
            }
            Zone::Outside => out.push(Spot::Outside),
            Zone::Engine => {
                for r in 0..4u8 {
                    if self.engines[r as usize].is_empty() {
                        out.push(Spot::Engine(r));
                    }
                }
            }
            Zone::OnCard => {
                for (_, v) in self.stacks() {
                    out.push(Spot::On(*v.last().expect("stacks are not empty")));
                }
            }
        }
        out.retain(|&s| self.condition_holds(def.condition, s, def.zone));
        out
    }

    /// Takes a card out of wherever it is (hand, pile, exchange, play).
    fn take(&mut self, card: u8) -> Loc {
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

    fn put_hand(&mut self, seat: Seat, card: u8, public: bool) {
        let hand = &mut self.hands[seat as usize];
        let at = hand.partition_point(|&c| c < card);
        hand.insert(at, card);
        if public {
            self.public |= 1u64 << card;
        }
    }

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

    fn put(&mut self, card: u8, spot: Spot, pawn: Option<Seat>) {
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

    /// CA-T7, first half: a soldier arriving on the last free square of a rampart returns
    /// the engine facing that rampart.
    fn fourth_soldier(&mut self, card: u8) {
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
    fn fourth_engine(&mut self) {
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

    /// Puts a card into play at a spot with the core's arrival rules: the Fantôme's
    /// occupant returned, CA-T7. Sets the last card placed.
    fn arrive(&mut self, card: u8, spot: Spot, pawn: Option<Seat>) {
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

    /// CA-E1: whether this seat has emptied hand and pile.
    fn check_empty(&mut self, seat: Seat) {
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
    fn settle(&mut self) {
        if let Some(p) = self.pending.take() {
            self.check_empty(p.seat);
        }
    }

    fn end_turn(&mut self) {
        self.turns += 1;
        if self.placed_this_turn {
            self.quiet_turns = 0;
        } else {
            self.quiet_turns += 1;
        }
        self.placed_this_turn = false;
        self.turn = (self.turn + 1) % self.players;
        self.actions_left = 2;
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

    /// The Héraut (continuous): while in play, a player holding the Roi who can place it
    /// must place it.
    fn forced_roi(&self, seat: Seat) -> Option<u8> {
        if !self.kind_in_play(cards::HERAUT) {
            return None;
        }
        let roi = *self.hands[seat as usize]
            .iter()
            .find(|&&c| kind(c) == cards::ROI)?;
        (!self.spots(roi).is_empty()).then_some(roi)
    }

    /// The first card of each kind among these (deduplicates identical cards).
    fn distinct(cards: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        let mut sorted = cards.to_vec();
        sorted.sort_unstable();
        for c in sorted {
            if !out.iter().any(|&o| kind(o) == kind(c)) {
                out.push(c);
            }
        }
        out
    }

    fn spot_id(spot: Spot) -> String {
        match spot {
            Spot::Square(q) => board::name(q),
            Spot::Outside => "outside".into(),
            Spot::Engine(r) => format!("engine-{}", board::RAMPARTS[r as usize]),
            Spot::On(c) => format!("on-{}", cards::card_id(c)),
        }
    }

    fn spot_text(spot: Spot) -> Text {
        match spot {
            Spot::Square(q) => Text::same(board::name(q)),
            Spot::Outside => text("hors les murs", "outside the walls"),
            Spot::Engine(r) => text(
                format!("face au rempart {}", board::RAMPARTS_FR[r as usize]),
                format!("facing the {} rampart", board::RAMPARTS_EN[r as usize]),
            ),
            Spot::On(c) => {
                let (fr, en) = cards::card_name(c);
                text(format!("sur {fr}"), format!("on {en}"))
            }
        }
    }

    fn label(&self, mv: &Move) -> Text {
        match *mv {
            Move::Draw => text("Piocher", "Draw"),
            Move::Pass => text(
                "Passer (aucune action possible)",
                "Pass (no action possible)",
            ),
            Move::Exchange { hand, exchange } => {
                let (hf, he) = cards::card_name(hand);
                let (xf, xe) = cards::card_name(exchange);
                text(
                    format!("Échanger {hf} contre {xf}"),
                    format!("Exchange {he} for {xe}"),
                )
            }
            Move::Place { card, spot } => {
                let (f, e) = cards::card_name(card);
                let at = Self::spot_text(spot);
                text(
                    format!("Placer {f} : {}", at.fr),
                    format!("Place {e}: {}", at.en),
                )
            }
        }
    }
}

impl Game for Castel {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        Ok(Castel::deal(setup.players, setup.seed))
    }

    fn status(&self) -> Status {
        match &self.ending {
            Some(e) => {
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
                Status::Finished {
                    outcome: Outcome {
                        winners: e.winners.clone(),
                        scores: Vec::new(),
                        reason,
                    },
                }
            }
            None => Status::to_act(self.turn),
        }
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        if self.ending.is_some() || seat != self.turn {
            return Vec::new();
        }
        let mut moves = Vec::new();
        if let Some(roi) = self.forced_roi(seat) {
            for spot in self.spots(roi) {
                moves.push(Move::Place { card: roi, spot });
            }
            return moves;
        }
        let hand = Self::distinct(&self.hands[seat as usize]);
        if !self.piles[seat as usize].is_empty() {
            moves.push(Move::Draw);
        }
        let exchange = Self::distinct(&self.exchange);
        for &h in &hand {
            for &x in &exchange {
                if kind(h) != kind(x) {
                    moves.push(Move::Exchange {
                        hand: h,
                        exchange: x,
                    });
                }
            }
        }
        for &card in &hand {
            for spot in self.spots(card) {
                moves.push(Move::Place { card, spot });
            }
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
        moves
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let path = match *mv {
            Move::Draw | Move::Pass => Vec::new(),
            Move::Exchange { hand, exchange } => vec![
                Target::Card {
                    id: cards::card_id(hand),
                },
                Target::Card {
                    id: cards::card_id(exchange),
                },
            ],
            Move::Place { card, spot } => vec![
                Target::Card {
                    id: cards::card_id(card),
                },
                scene::spot_target(self, spot),
            ],
        };
        Action {
            id: self.move_id(seat, mv),
            path,
            label: self.label(mv),
        }
    }

    fn move_id(&self, _seat: Seat, mv: &Move) -> String {
        match *mv {
            Move::Draw => "draw".into(),
            Move::Pass => "pass".into(),
            Move::Exchange { hand, exchange } => format!(
                "exchange-{}-{}",
                cards::card_id(hand),
                cards::card_id(exchange)
            ),
            Move::Place { card, spot } => {
                format!("place-{}-{}", cards::card_id(card), Self::spot_id(spot))
            }
        }
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
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
        }
        self.actions_left = self.actions_left.saturating_sub(1);
        if (end_turn || self.actions_left == 0) && self.ending.is_none() {
            self.end_turn();
        }
        if let Some(e) = &self.ending {
            let winners = e.winners.clone();
            log.record(|| {
                let names: Vec<Text> = winners.iter().map(|&s| seat_name(s)).collect();
                let fr: Vec<String> = names.iter().map(|t| t.fr.clone()).collect();
                let en: Vec<String> = names.iter().map(|t| t.en.clone()).collect();
                Event::new(text(
                    format!("Fin de la partie, victoire : {}", fr.join(", ")),
                    format!("Game over, won by: {}", en.join(", ")),
                ))
            });
        }
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        scene::view(self, viewer)
    }

    fn redraw_hidden(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        // Unseen by the viewer: the other hands' cards not publicly known to be there, and
        // every pile (nobody looks at their own pile). Re-deal them in the same slots.
        let mut pool: Vec<u8> = Vec::new();
        for s in 0..self.players as usize {
            if Some(s as Seat) != viewer {
                for &c in &self.hands[s] {
                    if self.public & (1u64 << c) == 0 {
                        pool.push(c);
                    }
                }
            }
            pool.extend(self.piles[s].iter().copied());
        }
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for s in 0..self.players as usize {
            if Some(s as Seat) != viewer {
                let public = self.public;
                let hand: Vec<u8> = self.hands[s]
                    .iter()
                    .map(|&c| {
                        if public & (1u64 << c) == 0 {
                            it.next().expect("same count")
                        } else {
                            c
                        }
                    })
                    .collect();
                self.hands[s] = hand;
                self.hands[s].sort_unstable();
            }
            for i in 0..self.piles[s].len() {
                self.piles[s][i] = it.next().expect("same count");
            }
        }
        self.rng = GameRng::new(rng.next_u64());
    }

    fn query(&self, name: &str, args: &serde_json::Value) -> Result<serde_json::Value, GameError> {
        ops::query(self, name, args)
    }

    fn command(
        &mut self,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, GameError> {
        ops::command(self, name, args)
    }
}

veillee_sdk::export_game!(Castel);
