//! How good a position is, for the bots' search (`Game::evaluate`), seen as a player sees it:
//! the hens eaten (RP-E2) and the hens the fox can eat next (RP-F2, RP-F3); the gaps in the
//! hens' wall, where the fox can come and eat; the fox's region, the empty points it can walk
//! to (RP-E1: the hens win by shrinking it to nothing, from below), and the part of it no hen
//! can ever fill again; the hens past the fox, which never come back to it (RP-H1); how far
//! up the others have come; and how near the quiet moves bring a draw (RP-E4). The search
//! plays no random moves before it asks (`Game::bot_playout_moves` is 0 in `lib.rs`): this
//! is all it sees of a position.

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::DIRECTIONS;
use crate::{Move, Renard, Spot, FOX, HENS_TO_TRAP, QUIET_LIMIT};

/// Each point the fox can move to.
const MOBILITY: f32 = 0.1;
/// Each empty point the fox can reach, stepping along the lines without crossing a hen: the
/// hens win by shrinking that region to nothing (RP-E1).
const REGION: f32 = 0.15;
/// …and more for each row the point lies down the board: the hens push the fox up, filling
/// its region from below; a point high up is where the fox ends shut in.
const REGION_DEPTH: f32 = 0.05;
/// The fox's region at the start: 19 points (33, less 13 hens and the fox), on rows 0–3
/// from the top adding up to 35.
const START_REGION: f32 = REGION * 19.0 + REGION_DEPTH * 35.0;
/// The fox's region holds a point below every hen: no hen can come back to fill it (RP-H1),
/// so the fox cannot be shut in any more.
const ESCAPED: f32 = 2.0;
/// …and each such point.
const BEHIND: f32 = 0.2;
/// With the fox to move, each hen of the longest series it can eat now (RP-F2, RP-F3).
const EATABLE: f32 = 0.8;
/// With the hens to move, each hen the fox could eat if it were its turn: a hen move can
/// cover one, rarely more.
const EXPOSED: f32 = 0.3;
/// Each hen with a gap in the wall: on some line, the point on one side is in the fox's
/// region and the point on the other side empty, so the fox can come and eat it (RP-F2).
const WEAK: f32 = 0.5;
/// Each row a hen has come up, counted for the hens at or below the fox's row only: a hen
/// past the fox never comes back (RP-H1), and a hen moving forward keeps the game from
/// ending drawn (RP-E4).
const ADVANCE: f32 = 0.15;
/// Each hen above the fox's row: it can never come back to shut the fox in (RP-H1), and a
/// hen that ran ahead leaves the fox a way around the others.
const PAST: f32 = 0.25;
/// The rows the hens at or below the fox have come up at the start (13 hens: seven on row 3,
/// three on row 2, from row 1).
const START_ADVANCE: f32 = 17.0;
/// How much advantage is worth ¾ (in hens).
const SCALE: f32 = 2.0;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &Renard, seat: Seat) -> f32 {
    if game.outcome().is_some() {
        return status_value(&game.status(), seat);
    }
    let value = fox_value(game);
    if seat == FOX {
        value
    } else {
        1.0 - value
    }
}

/// The value for the fox of an unfinished game.
fn fox_value(game: &Renard) -> f32 {
    let left = game.hens_left();
    // RP-E2: the fox needs the hens below HENS_TO_TRAP; what is left to eat.
    let to_eat = (left + 1).saturating_sub(HENS_TO_TRAP) as f32;
    let spots = game.spots();
    let moves = game.fox_moves(&spots);
    let mobility = moves.len() as f32;
    let threat = if game.to_move == FOX {
        // RP-F3: the longest series it can eat now.
        let most = moves
            .iter()
            .map(|mv| match mv {
                Move::Jumps { landings, .. } => landings.len(),
                Move::Step { .. } => 0,
            })
            .max()
            .unwrap_or(0);
        EATABLE * most.min(to_eat as usize) as f32
    } else {
        EXPOSED * game.hens_to_eat(&spots) as f32
    };
    // Rows counted from the top: a hen above the fox has a smaller row.
    let fox_row = game.fox.cell().1;
    let (mut advance, mut past, mut lowest_hen) = (0.0, 0.0, 0);
    for row in game.hens.iter().flatten().map(|h| h.cell().1) {
        lowest_hen = lowest_hen.max(row);
        if row < fox_row {
            past += 1.0;
        } else {
            // Rows come up from row 1: an eaten hen counts nothing (not the whole way up).
            advance += f32::from(6 - row);
        }
    }
    let (region, behind, reach) = region(game, &spots, lowest_hen);
    let weak = weak_hens(game, &spots, &reach);
    let escaped = if behind > 0 {
        ESCAPED + BEHIND * behind as f32
    } else {
        0.0
    };
    let fox = -to_eat
        + threat
        + MOBILITY * mobility
        + (region - START_REGION)
        + escaped
        + PAST * past
        + WEAK * weak as f32
        - ADVANCE * (advance - START_ADVANCE)
        + 2.0;
    // RP-E4: nearing 50 quiet moves, the game nears a draw: the hens must come forward.
    let quiet = f32::from(game.quiet.min(QUIET_LIMIT)) / f32::from(QUIET_LIMIT);
    0.5 + (squash(fox, SCALE) - 0.5) * (1.0 - quiet)
}

/// The hens the fox could jump over from some point of its region (or where it stands) to an
/// empty point (RP-F2): the gaps of the hens' wall.
fn weak_hens(game: &Renard, spots: &[Spot; 49], reach: &[bool; 49]) -> usize {
    game.hens
        .iter()
        .flatten()
        .filter(|hen| {
            DIRECTIONS.into_iter().any(|(dc, dr)| {
                let from = hen.step((-dc, -dr));
                let to = hen.step((dc, dr));
                matches!((from, to), (Some(from), Some(to))
                    if reach[from.index()] && spots[to.index()] == Spot::Empty
                        && from.step((dc, dr)) == Some(**hen))
            })
        })
        .count()
}

/// The fox's region: the empty points it reaches by steps along the lines, hens in the way.
/// Answers their weight (`REGION` each, and `REGION_DEPTH` for each row down the board), how
/// many lie on a row below `lowest_hen` (rows counted from the top: points no hen can come
/// back to, RP-H1), and which points it holds, the fox's own included.
fn region(game: &Renard, spots: &[Spot; 49], lowest_hen: u16) -> (f32, usize, [bool; 49]) {
    let mut seen = [false; 49];
    let mut stack = vec![game.fox];
    seen[game.fox.index()] = true;
    let (mut count, mut behind) = (0.0, 0);
    while let Some(at) = stack.pop() {
        for d in DIRECTIONS {
            if let Some(next) = at.step(d) {
                if !seen[next.index()] && spots[next.index()] == Spot::Empty {
                    seen[next.index()] = true;
                    count += REGION + REGION_DEPTH * f32::from(next.cell().1);
                    if next.cell().1 > lowest_hen {
                        behind += 1;
                    }
                    stack.push(next);
                }
            }
        }
    }
    (count, behind, seen)
}
