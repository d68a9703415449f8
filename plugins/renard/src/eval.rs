//! How good a position is, for the bots' search (`Game::evaluate`): the hens eaten (RP-E2),
//! how freely the fox moves (RP-E1: shut in, it loses), how far up the hens have come, and how
//! near the quiet moves bring a draw (RP-E4).

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::DIRECTIONS;
use crate::{Renard, Spot, FOX, HENS_TO_TRAP, QUIET_LIMIT};

/// Each point the fox can move to.
const MOBILITY: f32 = 0.3;
/// Each empty point the fox can reach, stepping along the lines without crossing a hen: the
/// hens win by shrinking that region to nothing.
const REGION: f32 = 0.15;
/// The fox's region at the start (33 points, 13 hens, the fox).
const START_REGION: f32 = 19.0;
/// Each row a hen has come up: the hens close the net (and a hen moving forward keeps the
/// game from ending drawn, RP-E4).
const ADVANCE: f32 = 0.15;
/// The rows of the hens at the start, added up (13 hens: three on row 7 from the top, three
/// on row 6, seven on row 5, counted from 0).
const START_ROWS: f32 = 61.0;
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
    // The hens start low on the board and win by coming up: rows counted from the top.
    let rows: f32 = game
        .hens
        .iter()
        .flatten()
        .map(|h| f32::from(h.cell().1))
        .sum();
    let region = region(game, &spots) as f32;
    let fox = -to_eat
        + MOBILITY * mobility
        + REGION * (region - START_REGION)
        + ADVANCE * (rows - START_ROWS)
        + 2.0;
    // RP-E4: nearing 50 quiet moves, the game nears a draw: the hens must come forward.
    let quiet = f32::from(game.quiet.min(QUIET_LIMIT)) / f32::from(QUIET_LIMIT);
    let value = 0.5 + (squash(fox, SCALE) - 0.5) * (1.0 - quiet);
    if seat == FOX {
        value
    } else {
        1.0 - value
    }
}

/// The empty points the fox reaches by steps along the lines, hens in the way.
fn region(game: &Renard, spots: &[Spot; 49]) -> usize {
    let mut seen = [false; 49];
    let mut stack = vec![game.fox];
    seen[game.fox.index()] = true;
    let mut count = 0;
    while let Some(at) = stack.pop() {
        for d in DIRECTIONS {
            if let Some(next) = at.step(d) {
                if !seen[next.index()] && spots[next.index()] == Spot::Empty {
                    seen[next.index()] = true;
                    count += 1;
                    stack.push(next);
                }
            }
        }
    }
    count
}
