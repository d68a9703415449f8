//! How good a position is, for the bots' search (`Game::evaluate`): how many moves each
//! player's pieces still need to be assembled into a castle (BT-E1), compared.

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::{col, row, GATE1, GATE2, SIZE, TOWER, WALL1, WALL2};
use crate::Batisseurs;

/// How many moves of advantage are worth ¾.
const SCALE: f32 = 3.0;
/// The player to move is about half a move ahead.
const TEMPO: f32 = 0.5;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &Batisseurs, seat: Seat) -> f32 {
    if game.end.is_some() || game.draw_offer.is_some() {
        return status_value(&game.status(), seat);
    }
    let own = moves_to_castle(game, seat);
    let theirs = moves_to_castle(game, seat ^ 1);
    let tempo = if game.to_move == seat { TEMPO } else { -TEMPO };
    squash(theirs - own + tempo, SCALE)
}

/// An estimate of the moves `seat` needs to gather its five pieces into a 3 × 3 square: the
/// best square and arrangement (the two walls on two of its rows, the tower and gates on the
/// third), each piece counted alone (BT-M2, BT-M3). Under « Tour maîtresse » only the
/// arrangement with the tower in the centre counts; otherwise it is slightly preferred
/// (BT-E2).
fn moves_to_castle(game: &Batisseurs, seat: Seat) -> f32 {
    let at = &game.at[seat as usize];
    let place = |i: usize| (col(at[i]) as i16, row(at[i]) as i16);
    let (w1, w2) = (place(WALL1 as usize), place(WALL2 as usize));
    let units = [
        place(TOWER as usize),
        place(GATE1 as usize),
        place(GATE2 as usize),
    ];
    let mut best = f32::MAX;
    for top in 0..=(SIZE as i16 - 3) {
        for left in 0..=(SIZE as i16 - 3) {
            // The row of the units in the square: 0, 1 (the centre) or 2.
            for units_row in 0..3 {
                let centred = units_row == 1;
                if game.central_tower && !centred {
                    continue;
                }
                let wall_rows: Vec<i16> = (0..3).filter(|&r| r != units_row).collect();
                let middle = left + 1;
                let (ra, rb) = (top + wall_rows[0], top + wall_rows[1]);
                let walls = (wall_moves(w1, (middle, ra)) + wall_moves(w2, (middle, rb)))
                    .min(wall_moves(w1, (middle, rb)) + wall_moves(w2, (middle, ra)));
                let r = top + units_row;
                let cells = [(left, r), (left + 1, r), (left + 2, r)];
                let mut unit_cost = i16::MAX;
                for [t, g1, g2] in PERMUTATIONS {
                    let cost = unit_moves(units[0], cells[t])
                        + unit_moves(units[1], cells[g1])
                        + unit_moves(units[2], cells[g2]);
                    // The tower in the centre wins a race to the same round (BT-E2).
                    let cost = 2 * cost + i16::from(!(centred && t == 1));
                    unit_cost = unit_cost.min(cost);
                }
                best = best.min(f32::from(walls) + f32::from(unit_cost) / 2.0);
            }
        }
    }
    best
}

const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// BT-M2: a unit piece steps one square in any direction.
fn unit_moves(from: (i16, i16), to: (i16, i16)) -> i16 {
    (from.0 - to.0).abs().max((from.1 - to.1).abs())
}

/// BT-M3: a wall goes one or two squares along a row or a column, or one diagonally.
fn wall_moves(from: (i16, i16), to: (i16, i16)) -> i16 {
    let (a, b) = ((from.0 - to.0).abs(), (from.1 - to.1).abs());
    let diagonal = a.min(b);
    diagonal + ((a - b).abs() + 1) / 2
}
