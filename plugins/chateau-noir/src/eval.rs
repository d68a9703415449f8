//! How good a position is, for the bots' search (`Game::evaluate`): each side's points, its
//! pieces, the enemy pieces it flanks (captures at the end of its coups, CN-C2) and how near
//! its armies are to scoring their next territory (CN-S2). Partners share one value.
//!
//! A match still being played is worth more than a draw to both sides: a draw is agreed by
//! every player (CN-E3) and is worth ½ to each, so an even match must value well above ½, or
//! the seat a hair behind agrees and the match ends drawn long before anyone could reach 27
//! points (CN-E1). The value of playing on is lifted by [`PLAYING_ON`]; only a side about
//! twice [`SCALE`] points behind still prefers the draw.

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::{self, army_of, col, is_captain, row, Pc, NONE, PIECES};
use crate::{ChateauNoir, Phase};

/// A soldier on the board, in points: keeping pieces matters less than scoring.
const SOLDIER: f32 = 0.5;
/// A captain is worth 3 points when taken (CN-S1).
const CAPTAIN: f32 = 1.5;
/// An enemy piece flanked by the side to move: taken at the end of its coups (CN-C2), so
/// nearly its points (1, or 3 for a captain).
const FLANKED_NOW: f32 = 0.8;
/// A piece flanked while its own side is to move can still get away.
const FLANKED_LATER: f32 = 0.3;
/// An army whose next territory is occupied long enough to score by leaving it (CN-S2).
const READY: f32 = 0.8;
/// An army with a piece in its next territory, not yet long enough.
const PRESENT: f32 = 0.4;
/// Per square between an army's nearest piece and its next territory.
const DISTANCE: f32 = 0.06;
/// How many points of advantage are worth ¾ (before [`PLAYING_ON`]).
const SCALE: f32 = 6.0;
/// The floor of an unfinished match's value: `PLAYING_ON + (1 - PLAYING_ON) × squash`, so
/// an even match is worth 0.7 and a draw (½, CN-E3) beats playing on only about 12 points
/// behind (2 × [`SCALE`]).
const PLAYING_ON: f32 = 0.4;

/// The value of the match for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &ChateauNoir, seat: Seat) -> f32 {
    if game.ending.is_some() {
        return status_value(&game.status(), seat);
    }
    let sides = usize::from(game.sides());
    let mut worth = [0f32; 4];
    for (side, w) in worth.iter_mut().enumerate().take(sides) {
        *w = game.score(side as u8) as f32;
    }
    // Between rounds (X.2, CN-E2) only the points count: the next round sets the board
    // again. Valued like any unfinished match, so that a playout cut there is not worth less
    // than one cut a move earlier.
    if matches!(game.phase, Phase::RoundOver { .. }) {
        return playing_on(&worth[..sides], seat, game);
    }
    let moving = game.side(game.active);
    for p in 0..PIECES as Pc {
        let s = game.pos[p as usize];
        if s == NONE {
            continue;
        }
        let side = usize::from(game.side(army_of(p)));
        let value = if is_captain(p) { 3.0 } else { 1.0 };
        worth[side] += if is_captain(p) { CAPTAIN } else { SOLDIER };
        if game.flanked_by_hostile(p, s) {
            let weight = if usize::from(moving) == side {
                FLANKED_LATER
            } else {
                FLANKED_NOW
            };
            worth[side] -= weight * value;
        }
    }
    for army in 0..4u8 {
        if !game.alive(1 << army) {
            continue;
        }
        let target = game.next_target(army);
        let side = usize::from(game.side(army));
        worth[side] += if game.ready[army as usize] & (1 << target) != 0 {
            READY
        } else if game.present(army, target) {
            PRESENT
        } else {
            -DISTANCE * nearest(game, army, target)
        };
    }
    playing_on(&worth[..sides], seat, game)
}

/// The value of an unfinished match for `seat`, from each side's worth in points.
fn playing_on(worth: &[f32], seat: Seat, game: &ChateauNoir) -> f32 {
    let own = usize::from(game.seat_side(seat));
    let others = (0..worth.len()).filter(|&s| s != own);
    let best_other = others.map(|s| worth[s]).fold(f32::MIN, f32::max);
    PLAYING_ON + (1.0 - PLAYING_ON) * squash(worth[own] - best_other, SCALE)
}

/// Squares from `army`'s nearest piece to the edge of territory `target`.
fn nearest(game: &ChateauNoir, army: u8, target: u8) -> f32 {
    let centre = board::territory_centre(target);
    let (tc, tr) = (i16::from(col(centre)), i16::from(row(centre)));
    let mut best = i16::MAX;
    for p in 0..PIECES as Pc {
        let s = game.pos[p as usize];
        if s == NONE || army_of(p) != army {
            continue;
        }
        let d = (i16::from(col(s)) - tc)
            .abs()
            .max((i16::from(row(s)) - tr).abs());
        best = best.min((d - 1).max(0));
    }
    f32::from(best.clamp(0, 20))
}
