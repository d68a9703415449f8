//! How good a position is, for the bots' search (`Game::evaluate`): the cards each player
//! still has to place, in hand and in pile (CA-E1: the first with none left wins), compared
//! with the best placed opponent's.
//!
//! It reads every hand of the state it is given; a search only ever gives it copies whose
//! hidden hands and piles were re-drawn for the bot's seat ([`veillee_sdk::search`]).

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::Castel;

/// How many cards of advantage are worth ¾.
const SCALE: f32 = 3.0;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &Castel, seat: Seat) -> f32 {
    if game.ending.is_some() || game.draw_offer.is_some() {
        return status_value(&game.status(), seat);
    }
    let left = |s: Seat| (game.hand(s).len() + game.pile(s).len()) as f32;
    let own = left(seat);
    let best_other = (0..game.players)
        .filter(|&s| s != seat)
        .map(left)
        .fold(f32::MAX, f32::min);
    squash(best_other - own, SCALE)
}
