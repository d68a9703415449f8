//! The deal (CA-S): the cards of each hand, pile and the exchange from a card table, the
//! dealer, and dealing again when a script changes the table before the first action.

use veillee_sdk::{GameRng, Seat};

use crate::board;
use crate::cards::{self, kind, Condition, Def, CARDS, KINDS};
use crate::Castel;

/// Table for the deal (CA-S): hand, pile, exchange.
pub fn deal_sizes(players: u8) -> (usize, usize, usize) {
    match players {
        2 => (9, 13, 10),
        3 => (7, 8, 11),
        4 => (5, 6, 12),
        _ => (5, 4, 11),
    }
}

/// The cards of a deal.
pub(crate) struct Dealt {
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
pub(crate) fn deal_cards(players: u8, defs: &[Def], counts: &[u8], rng: &mut GameRng) -> Dealt {
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
            stuck_turns: 0,
            draw_offer: None,
            turns: 0,
            last_placed: None,
            placed_before: None,
            counts,
            acted: false,
            scripted: false,
            pending: None,
            ending: None,
            rng,
            occupancy: Default::default(),
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
        self.occupancy.forget();
        self.pawns = vec![None; CARDS];
        self.public = 0;
        self.last_placed = None;
        self.placed_before = None;
        self.pending = None;
    }
}
