//! How good a position is, for the bots' search (`Game::evaluate`): for each player, the
//! knights in the treasure room (RN-E2), the galleries visited (RN-G1), the portraits and pairs
//! held (RN-E1, RN-G5), and how far each knight still has to go to its next goal.
//!
//! It reads the trapdoors of the state it is given; a search only ever gives it copies whose
//! unseen trapdoors were re-drawn for the bot's seat ([`veillee_sdk::search`]).

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::{is_room, room_origin, Node, NO, ROOM, TREASURE};
use crate::{number, RocNoir};

/// A knight in the treasure room: a third of the win.
const HOME: f32 = 10.0;
/// A knight that has visited the gallery of its helmet (RN-G1).
const VISITED: f32 = 2.0;
/// A knight holding a pair: it may enter the treasure room (RN-E1).
const PAIR: f32 = 3.0;
/// A pair held across two knights, to be rearranged (RN-G5).
const SPLIT_PAIR: f32 = 1.5;
/// Each portrait beside a knight.
const PORTRAIT: f32 = 0.3;
/// Per square to the knight's next goal.
const DISTANCE: f32 = 0.15;
/// How much progress is worth ¾.
const SCALE: f32 = 5.0;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &RocNoir, seat: Seat) -> f32 {
    if game.ending.is_some() {
        return status_value(&game.status(), seat);
    }
    let own = progress(game, seat);
    let best_other = (0..game.players)
        .filter(|&s| s != seat)
        .map(|s| progress(game, s))
        .fold(f32::MIN, f32::max);
    squash(own - best_other, SCALE)
}

/// How far `seat` has come.
fn progress(game: &RocNoir, seat: Seat) -> f32 {
    let s = usize::from(seat);
    let mut total = 0.0;
    let mut numbers = [0u8; 13];
    for h in 0..3u8 {
        let at = game.pos[s][usize::from(h)];
        if at == TREASURE {
            total += HOME;
            continue;
        }
        let visited = game.visited[s] & (1 << h) != 0;
        let pair = game.holds_pair(seat, h);
        let held = game.rail[s][usize::from(h)];
        for &p in &held {
            if p != NO {
                total += PORTRAIT;
                numbers[usize::from(number(p)).min(12)] += 1;
            }
        }
        if visited {
            total += VISITED;
        }
        let goal = if !visited {
            gallery(game, h).map_or(0.0, |g| distance(at, g))
        } else if pair {
            total += PAIR;
            distance(at, TREASURE)
        } else {
            (0..3)
                .filter_map(|g| gallery(game, g))
                .map(|g| distance(at, g))
                .fold(f32::MAX, f32::min)
        };
        total -= DISTANCE * goal.min(30.0);
    }
    // Pairs spread over two knights, which the player may bring together (RN-G5); a knight's
    // own pair counted two 1s above and is counted again here only as spread pairs are.
    let spread = numbers.iter().filter(|&&n| n >= 2).count() as f32;
    let own_pairs = (0..3u8)
        .filter(|&h| game.pos[s][usize::from(h)] != TREASURE && game.holds_pair(seat, h))
        .count() as f32;
    total + SPLIT_PAIR * (spread - own_pairs).max(0.0)
}

/// The room of the gallery of colour `g`.
fn gallery(game: &RocNoir, g: u8) -> Option<Node> {
    game.corners
        .iter()
        .position(|&c| c == g)
        .map(|r| ROOM + r as u8)
}

/// Squares between two nodes, along rows and columns (rooms from their middle).
fn distance(a: Node, b: Node) -> f32 {
    let place = |n: Node| -> (f32, f32) {
        if is_room(n) {
            let (x, y) = room_origin(n - ROOM);
            (f32::from(x) + 0.5, f32::from(y) + 0.5)
        } else {
            (f32::from(n % 10), f32::from(n / 10))
        }
    };
    let ((ax, ay), (bx, by)) = (place(a), place(b));
    (ax - bx).abs() + (ay - by).abs()
}
