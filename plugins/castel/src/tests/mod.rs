//! Tests of the core: the rules (`rules`, named after the rule ids of
//! `shared/rules/castel.md`), views, leak check, playouts and protocol (`protocol`), and the
//! operations offered to scripts (`ops`). This file holds the helpers they share.

mod ops;
mod protocol;
mod rules;

use serde_json::{json, Value};
use veillee_sdk::testing::{random_games, RandomGames};
use veillee_sdk::{random_playout, Game, GameRng, GameTable, Log, Seat, Setup, Status};

use crate::cards::{self, kind, parse_card, Zone};
use crate::{board, Castel, Loc, Move, Spot, Stack, DRAW_OFFER_AFTER, DRAW_OFFER_EVERY};

fn c(id: &str) -> u8 {
    parse_card(id).unwrap_or_else(|| panic!("no card {id}"))
}

fn sq(name: &str) -> u8 {
    board::parse(name).unwrap()
}

/// A game with an empty surface: every card of the hands goes back to the exchange
/// except those given.
fn game(players: u8) -> Castel {
    Castel::deal(players, 1)
}

/// Puts a card in play on a square with a pawn (test set-up, no arrival rules).
fn put(g: &mut Castel, id: &str, spot: Spot, pawn: Option<Seat>) {
    let card = c(id);
    g.take(card);
    g.put(card, spot, pawn);
}

/// Takes a card out of the game (test set-up).
fn bin(g: &mut Castel, id: &str) {
    let card = c(id);
    g.take(card);
    g.removed.push(card);
}

fn hand_of(g: &mut Castel, seat: Seat, list: &[&str]) {
    for id in list {
        let card = c(id);
        g.take(card);
        g.put_hand(seat, card, false);
    }
}

fn ids(g: &Castel, seat: Seat) -> Vec<String> {
    g.moves(seat).iter().map(|m| g.move_id(seat, m)).collect()
}

fn play(g: &mut Castel, seat: Seat, id: &str) {
    let mv = *g
        .moves(seat)
        .iter()
        .find(|m| g.move_id(seat, m) == id)
        .unwrap_or_else(|| panic!("{id} not legal: {:?}", ids(g, seat)));
    g.play(seat, &mv, &mut Log::off());
}

fn q(g: &Castel, name: &str, args: Value) -> Value {
    g.query(name, &args).unwrap()
}

fn cmd(g: &mut Castel, name: &str, args: Value) -> Value {
    g.command(name, &args).unwrap()
}

/// A bot's search overwrites one kept world with the root at every iteration
/// (`clone_from`): the copy must be the root exactly, whatever game it held before — a
/// later position of another deal, with other player counts, hands and squares.
#[test]
fn a_world_overwritten_by_clone_from_is_the_source_exactly() {
    let source = Castel::deal(3, 7);
    for players in [2, 3, 5] {
        let mut other = Castel::deal(players, 11);
        random_playout(&mut other, 11, 40);
        other.clone_from(&source);
        assert_eq!(other, source, "{players} players");
        let (mut a, mut b) = (source.clone(), other);
        random_playout(&mut a, 3, 30);
        random_playout(&mut b, 3, 30);
        assert_eq!(a, b, "the copies play on alike ({players} players)");
    }
}
