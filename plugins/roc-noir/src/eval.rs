//! How good a position is, for the bots' search (`Game::evaluate`): for each player, the
//! knights in the treasure room (RN-E2), the galleries visited (RN-G1), the portraits and pairs
//! held (RN-E1, RN-G5), and how far each knight still has to go to its next goal: the steps
//! of its shortest way there around the trapdoors everyone has seen (RN-P1) and the knights in
//! the way (RN-T3).
//!
//! It reads the trapdoors of the state it is given; a search only ever gives it copies whose
//! unseen trapdoors were re-drawn for the bot's seat ([`veillee_sdk::search`]).

use veillee_sdk::search::{squash, status_value};
use veillee_sdk::{Game, Seat};

use crate::board::{self, is_room, Node, NO, ROOM, TREASURE};
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
/// Per step of the way to the knight's next goal.
const DISTANCE: f32 = 0.15;
/// A way no knight can take (or longer than this) counts this many steps.
const FAR: u8 = 30;
/// A square a knight stands on costs this many steps to go through: it may move away, or be
/// jumped with a rope (RN-T3, RN-R1).
const OCCUPIED: u8 = 3;
/// Nodes: squares `0..100`, rooms `ROOM..ROOM + 5`.
const NODES: usize = ROOM as usize + 5;
/// An unfinished game's advantage counts this much…
const UNFINISHED_SCALE: f32 = 0.5;
/// …and it is worth this much less, at every roll: against the safety net's draw (½) a bot
/// plays on only when its position is worth 0.7 or more. A win (1) and a loss (0) stay the
/// extremes, and this is the same for every unfinished position, so it changes only how the
/// ended games — the draw on offer above all — compare with playing on. It must not depend
/// on the roll count: when it began at [`DRAW_OFFER_ROLLS`](crate::DRAW_OFFER_ROLLS) rolls,
/// a bot on the move near the limit kept stepping back and forth (RN-T2 sets no limit)
/// rather than stop and let the rolls reach it.
const UNFINISHED_COST: f32 = 0.1;
/// How much progress is worth ¾.
const SCALE: f32 = 5.0;

/// The value of the position for `seat`, from 0 to 1.
pub(crate) fn evaluate(game: &RocNoir, seat: Seat) -> f32 {
    if game.ending.is_some() {
        return status_value(&game.status(), seat);
    }
    let mut paths = Paths::new(game);
    let own = progress(game, seat, &mut paths);
    let best_other = (0..game.players)
        .filter(|&s| s != seat)
        .map(|s| progress(game, s, &mut paths))
        .fold(f32::MIN, f32::max);
    0.5 + (squash(own - best_other, SCALE) - 0.5) * UNFINISHED_SCALE - UNFINISHED_COST
}

/// How far `seat` has come.
fn progress(game: &RocNoir, seat: Seat, paths: &mut Paths) -> f32 {
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
            gallery(game, h).map_or(0, |g| paths.steps(at, g))
        } else if pair {
            total += PAIR;
            paths.steps(at, TREASURE)
        } else {
            // A portrait to match: from a gallery with portraits left (RN-G3), or from an
            // opponent's knight holding the same number, by stopping beside it (RN-G6).
            let galleries = (0..3u8)
                .filter(|&g| !game.piles[usize::from(g)].is_empty())
                .filter_map(|g| gallery(game, g));
            let robbed: Vec<(Node, u8)> = rob_targets(game, seat, h).map(|n| (n, 1)).collect();
            galleries
                .map(|g| (g, 0))
                .chain(robbed)
                .map(|(n, beside)| paths.steps(at, n).saturating_sub(beside))
                .min()
                .unwrap_or(FAR)
        };
        total -= DISTANCE * f32::from(goal);
    }
    // Pairs spread over two knights, which the player may bring together (RN-G5); a knight's
    // own pair counted two 1s above and is counted again here only as spread pairs are.
    let spread = numbers.iter().filter(|&&n| n >= 2).count() as f32;
    let own_pairs = (0..3u8)
        .filter(|&h| game.pos[s][usize::from(h)] != TREASURE && game.holds_pair(seat, h))
        .count() as f32;
    total + SPLIT_PAIR * (spread - own_pairs).max(0.0)
}

/// The squares of the opponents' knights (not in the treasure room) holding a portrait of a
/// number the knight `h` of `seat` holds.
fn rob_targets(game: &RocNoir, seat: Seat, h: u8) -> impl Iterator<Item = Node> + '_ {
    let mine = game.rail[usize::from(seat)][usize::from(h)];
    (0..game.players)
        .filter(move |&o| o != seat)
        .flat_map(move |o| (0..3usize).map(move |vh| (o, vh)))
        .filter(move |&(o, vh)| {
            let at = game.pos[usize::from(o)][vh];
            !is_room(at)
                && game.rail[usize::from(o)][vh]
                    .iter()
                    .any(|&q| q != NO && mine.iter().any(|&p| p != NO && number(p) == number(q)))
        })
        .map(move |(o, vh)| game.pos[usize::from(o)][vh])
}

/// The room of the gallery of colour `g`.
fn gallery(game: &RocNoir, g: u8) -> Option<Node> {
    game.corners
        .iter()
        .position(|&c| c == g)
        .map(|r| ROOM + r as u8)
}

/// The steps from every node to each goal room, computed when first asked.
struct Paths {
    /// Squares with a knight on them.
    occupied: [bool; NODES],
    /// Trapdoors everyone has seen (RN-P1).
    trapdoor: [bool; NODES],
    entrance: Node,
    /// The ways computed so far: the goal and the steps from every node to it.
    to: Vec<(Node, [u8; NODES])>,
}

impl Paths {
    fn new(game: &RocNoir) -> Self {
        let mut occupied = [false; NODES];
        for &n in game.pos.iter().take(usize::from(game.players)).flatten() {
            if !is_room(n) {
                occupied[usize::from(n)] = true;
            }
        }
        let mut trapdoor = [false; NODES];
        for (t, &p) in game.traps.iter().enumerate() {
            if game.revealed & (1 << t) != 0 {
                trapdoor[usize::from(board::tile_square(t, p))] = true;
            }
        }
        Paths {
            occupied,
            trapdoor,
            entrance: game.entrance(),
            to: Vec::new(),
        }
    }

    /// The steps a knight on `from` needs to reach `goal` (a room, or a square next to which
    /// it wants to stop), at most [`FAR`].
    fn steps(&mut self, from: Node, goal: Node) -> u8 {
        let i = match self.to.iter().position(|(g, _)| *g == goal) {
            Some(i) => i,
            None => {
                let ways = self.ways_to(goal);
                self.to.push((goal, ways));
                self.to.len() - 1
            }
        };
        self.to[i].1[usize::from(from)]
    }

    /// The steps from every node to `goal` (Dijkstra from the goal with a bucket per
    /// distance): a trapdoor everyone has seen is no way (RN-P1), a square with a knight on it
    /// costs [`OCCUPIED`] steps, the entrance lets knights through, a gallery or the treasure room
    /// that is not the goal is a dead end (RN-G4: a knight leaves a gallery the way it came).
    fn ways_to(&self, goal: Node) -> [u8; NODES] {
        const BUCKETS: usize = FAR as usize;
        let mut steps = [FAR; NODES];
        // Nodes by distance; a node enters a bucket at most once (only when its distance drops).
        let mut buckets = [[0u8; NODES]; BUCKETS];
        let mut lens = [0usize; BUCKETS];
        steps[usize::from(goal)] = 0;
        buckets[0][0] = goal;
        lens[0] = 1;
        for d in 0..BUCKETS {
            let mut i = 0;
            while i < lens[d] {
                let node = buckets[d][i];
                i += 1;
                if steps[usize::from(node)] != d as u8
                    || (node != goal && is_room(node) && node != self.entrance)
                {
                    continue; // already reached closer, or a dead end
                }
                // Reaching `node` from a neighbour costs a step, more if a knight stands there.
                let enter = if node != goal && self.occupied[usize::from(node)] {
                    OCCUPIED
                } else {
                    1
                };
                let through = d as u8 + enter;
                if through >= FAR {
                    continue;
                }
                for st in board::steps(node) {
                    let u = usize::from(st.to);
                    if through < steps[u] && !self.trapdoor[u] {
                        steps[u] = through;
                        let b = usize::from(through);
                        buckets[b][lens[b]] = st.to;
                        lens[b] += 1;
                    }
                }
            }
        }
        steps
    }
}
