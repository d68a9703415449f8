//! How good a position is, for the bots' search (`Game::evaluate`): material, and the lord's
//! safety against the knights closing in.

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::{self, col, rank, Sq, LORD};
use crate::{Siege, ATTACKER};

/// A knight is worth this many soldiers: the defender wins by taking all four (SG-E2).
const KNIGHT: f32 = 2.0;
/// A knight one knight's move from the lord threatens to end the game (SG-E1).
const THREAT: f32 = 1.5;
/// Per square of distance between a knight and the lord.
const DISTANCE: f32 = 0.15;
/// What the attacker's advantage is at the start (4 knights, 4 soldiers, far away).
const EVEN: f32 = 1.0;
/// How much advantage is worth ¾.
const SCALE: f32 = 2.5;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &Siege, seat: Seat) -> f32 {
    if game.is_decided() || !game.lord_placed {
        return status_value(&game.status(), seat);
    }
    let Some(lord) = (0..board::CELLS as Sq).find(|&s| game.board[s as usize] == LORD) else {
        return status_value(&game.status(), seat);
    };
    let mut advantage = KNIGHT * f32::from(game.knights) - f32::from(game.soldiers);
    for s in 0..board::CELLS as Sq {
        if !board::is_knight(game.board[s as usize]) {
            continue;
        }
        let dc = (i16::from(col(s)) - i16::from(col(lord))).abs();
        let dr = (i16::from(rank(s)) - i16::from(rank(lord))).abs();
        if matches!((dc, dr), (1, 2) | (2, 1)) {
            advantage += THREAT;
        }
        advantage -= DISTANCE * f32::from(dc.max(dr) as u8);
    }
    let attacker = squash(advantage - EVEN, SCALE);
    if seat == ATTACKER {
        attacker
    } else {
        1.0 - attacker
    }
}
