//! How good a position is, for the bots' search (`Game::evaluate`): the hens eaten (RP-E2),
//! how freely the fox moves (RP-E1: shut in, it loses) and how far up the hens have come.

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::{Renard, FOX, HENS_TO_TRAP};

/// Each point the fox can move to.
const MOBILITY: f32 = 0.3;
/// Each row a hen has come up, on average: the hens close the net.
const ADVANCE: f32 = 0.5;
/// How much advantage is worth ¾ (in hens).
const SCALE: f32 = 2.0;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &Renard, seat: Seat) -> f32 {
    if game.outcome().is_some() {
        return status_value(&game.status(), seat);
    }
    let left = game.hens_left();
    // RP-E2: the fox needs the hens below HENS_TO_TRAP; what is left to eat.
    let to_eat = (left + 1).saturating_sub(HENS_TO_TRAP) as f32;
    let spots = game.spots();
    let mobility = game.fox_moves(&spots).len() as f32;
    let rows: f32 = game
        .hens
        .iter()
        .flatten()
        .map(|h| f32::from(h.cell().1))
        .sum::<f32>()
        / left.max(1) as f32;
    // The hens start low on the board (rows 4–6 from the top) and win by coming up.
    let fox = -to_eat + MOBILITY * mobility + ADVANCE * (rows - 4.0) + 2.0;
    let value = squash(fox, SCALE);
    if seat == FOX {
        value
    } else {
        1.0 - value
    }
}
