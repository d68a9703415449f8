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
//!
//! Modules: `board` (squares, zones, neighbours), `cards` (the printed table), `deal`
//! (CA-S), `layout` (where each card is, and the castle's occupancy as bit sets),
//! `protection` (CA-T6), `placement` (CA-T2), `moving` (CA-T4, CA-T5, CA-T7), `turn`
//! (CA-T1), `end` (CA-E), `labels` (ids and words), `hidden` (what a viewer cannot see),
//! `scene`, `ops` (operations for scripts) and `game` (the SDK interface). This file holds
//! the types and the state.

pub mod board;
pub mod cards;
mod deal;
mod effects;
mod end;
mod eval;
mod game;
mod hidden;
mod labels;
mod layout;
mod moving;
mod ops;
mod placement;
mod protection;
mod scene;
#[cfg(test)]
mod tests;
mod turn;

use serde::{Deserialize, Serialize};
use veillee_sdk::{GameRng, Seat};

use cards::{kind, Def};

pub use deal::deal_sizes;
pub(crate) use labels::capitalised;

/// The id of the castle board in the scene.
pub const BOARD_ID: &str = "castle";
/// Pawn colours, seat by seat (CA-S): black, beige, red, green, purple.
pub const PAWNS_FR: [&str; 5] = ["noir", "beige", "rouge", "vert", "violet"];
/// The same in English.
pub const PAWNS_EN: [&str; 5] = ["black", "beige", "red", "green", "purple"];
/// Safety net, not in the rules: after this many turns every player is offered a draw
/// (`accept-draw` / `play-on`), so that a game whose returns cycle for ever can stop. It is
/// never a silent end: the game goes on unless every player accepts.
pub const DRAW_OFFER_AFTER: u32 = 600;
/// While the players play on, the draw is offered again every this many turns.
pub const DRAW_OFFER_EVERY: u32 = 100;

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
    /// Accept the draw offered at the safety limit ([`DRAW_OFFER_AFTER`]).
    AcceptDraw,
    /// Decline the draw offered at the safety limit: the game goes on.
    PlayOn,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The winners (none for a draw).
    pub winners: Vec<Seat>,
    /// `"empty"` (CA-E1), `"blocked"` (CA-E2) or `"draw"` (every player accepted the draw
    /// offered at the safety limit, [`DRAW_OFFER_AFTER`]).
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
#[derive(Debug, PartialEq, Serialize, Deserialize)]
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
    /// CA-E2: consecutive turns at whose end no card had been placed and none could be.
    #[serde(default)]
    stuck_turns: u16,
    /// While a draw is offered at the safety limit: the seats that accepted (a bit each).
    #[serde(default)]
    draw_offer: Option<u8>,
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
    /// Derived from the stacks (not saved): what placement checks ask of them.
    #[serde(skip)]
    occupancy: layout::OccupancyCache,
}

// A bot's search copies the root into one kept world at every iteration: field by field, the
// hands, piles and squares keep their memory (see `clone_by_fields!`).
veillee_sdk::clone_by_fields!(Castel {
    players,
    defs,
    hands,
    piles,
    exchange,
    squares,
    engines,
    outside,
    removed,
    pawns,
    public,
    dealer,
    turn,
    actions_left,
    placed_this_turn,
    stuck_turns,
    draw_offer,
    turns,
    last_placed,
    placed_before,
    counts,
    acted,
    scripted,
    pending,
    ending,
    rng,
    occupancy,
});

impl Castel {
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
}

veillee_sdk::export_game!(Castel);
