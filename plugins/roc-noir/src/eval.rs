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
use crate::{back, number, Portrait, RocNoir};

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
/// A square one of the player's own knights stands on costs this many steps to go through:
/// it may move away, or be jumped with a rope (RN-T3, RN-R1). So does an opponent's knight
/// while the player has a rope left.
const OCCUPIED: u8 = 3;
/// An opponent's knight in the way of a player without a rope (RN-T3): it may never move
/// (normal-vs-normal games saw a knight keep another shut in a corner for thousands of
/// moves while the shut one waited, its way "3 steps" longer), so the way around counts
/// unless it is far longer.
const BLOCKED: u8 = 12;
/// A visited knight without a pair and no way to match a portrait within reach (RN-G3,
/// RN-G6) counts as this much: as sixteen steps from a goal. A knight that visits its
/// gallery must gain by it (+[`VISITED`] and its portraits), even with nothing to match.
const NO_MATCH: f32 = -2.4;
/// A way to match, worth this much more for a sure one (an exchange that gives the portrait
/// for sure, a robbery) than its steps cost, in proportion for a chance.
const HOPE: f32 = 0.6;
/// Nodes: squares `0..100`, rooms `ROOM..ROOM + 5`.
const NODES: usize = ROOM as usize + 5;
/// An unfinished game's advantage counts this much…
const UNFINISHED_SCALE: f32 = 0.5;
/// …and it is worth this much less, at every roll: against a draw on offer (½: the safety
/// net's, or a stand-off's, RN-E3) a bot plays on only when its position is worth 0.7 or more. A win (1) and a loss (0) stay the
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
    let own = progress(game, seat, &mut Paths::new(game, Some(seat)));
    let mut others = Paths::new(game, None);
    let best_other = (0..game.players)
        .filter(|&s| s != seat)
        .map(|s| progress(game, s, &mut others))
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
        if !visited {
            let goal = gallery(game, h).map_or(0, |g| paths.steps(at, g));
            total -= DISTANCE * f32::from(goal);
        } else if pair {
            total += PAIR - DISTANCE * f32::from(paths.steps(at, TREASURE));
        } else {
            total += matching(game, seat, h, paths);
        }
    }
    // Pairs spread over two knights, which the player may bring together (RN-G5); a knight's
    // own pair counted two 1s above and is counted again here only as spread pairs are.
    let spread = numbers.iter().filter(|&&n| n >= 2).count() as f32;
    let own_pairs = (0..3u8)
        .filter(|&h| game.pos[s][usize::from(h)] != TREASURE && game.holds_pair(seat, h))
        .count() as f32;
    total + SPLIT_PAIR * (spread - own_pairs).max(0.0)
}

/// The best way for knight `h` of `seat`, visited and without a pair, to get a portrait
/// matching one of the player's: an exchange in a gallery whose pile holds one (RN-G3), worth
/// the chance that the next draw there is one, or robbing an opponent's knight that holds
/// one, by stopping beside it (RN-G6), a sure thing; less the steps of the way. A gallery
/// that can give the knight nothing is no goal: bots used to stand beside one for thousands
/// of moves.
fn matching(game: &RocNoir, seat: Seat, h: u8, paths: &mut Paths) -> f32 {
    let at = game.pos[usize::from(seat)][usize::from(h)];
    let galleries: Vec<(Node, f32)> = (0..3u8)
        .filter_map(|g| {
            let chance = exchange_chance(game, seat, h, g);
            (chance > 0.0).then(|| gallery(game, g).map(|n| (n, chance)))?
        })
        .collect();
    // Beside the victim: a step less than onto it; robbing is a sure thing.
    let robbed = rob_targets(game, seat, h).map(|n| (n, 1, 1.0));
    let mut best = NO_MATCH;
    for (n, beside, chance) in galleries.into_iter().map(|(n, c)| (n, 0, c)).chain(robbed) {
        let steps = paths.steps(at, n).saturating_sub(beside);
        best = best.max(HOPE * chance - DISTANCE * f32::from(steps));
    }
    best
}

/// The chance that knight `h` of `seat`, entering gallery `g` now, gets a portrait matching
/// one the player holds in play (its own other portrait, or one to gather on the rail,
/// RN-G5): by sliding one of its portraits from that gallery under the pile and taking the
/// top one (RN-G3), or, when the player holds none from that gallery and the place beside
/// that colour is empty, by drawing two there (RN-G2). It reads only what everyone knows:
/// which portraits the pile holds (every portrait not on a rail) and the order of those slid
/// under it; the order of the unseen top is re-drawn in a search, so only how many of them
/// match counts.
fn exchange_chance(game: &RocNoir, seat: Seat, h: u8, g: u8) -> f32 {
    let s = usize::from(seat);
    let pile = &game.piles[usize::from(g)];
    if pile.is_empty() {
        return 0.0;
    }
    let in_play = |k: u8| game.pos[s][usize::from(k)] != TREASURE;
    // A number held beside a knight in play, but for the portrait `but` (the one slid under).
    let wanted = |p: Portrait, but: Portrait| {
        (0..3u8).filter(|&k| in_play(k)).any(|k| {
            game.rail[s][usize::from(k)]
                .iter()
                .any(|&q| q != NO && q != but && number(q) == number(p))
        })
    };
    let unseen = usize::from(game.unknown[usize::from(g)]).min(pile.len());
    // The chance that the next `draws` portraits from the top include a wanted one.
    let chance = |draws: usize, but: Portrait| {
        let in_unseen = pile[..unseen].iter().filter(|&&p| wanted(p, but)).count();
        if in_unseen > 0 {
            (draws * in_unseen) as f32 / unseen as f32
        } else {
            // Slid under in an order everyone saw: so many exchanges before it comes up.
            pile.iter()
                .position(|&p| wanted(p, but))
                .map_or(0.0, |i| draws as f32 / (1 + i) as f32)
        }
        .min(1.0)
    };
    let holds_from_g = (0..3u8).filter(|&k| in_play(k)).any(|k| {
        game.rail[s][usize::from(k)]
            .iter()
            .any(|&q| q != NO && back(q) == g)
    });
    if !holds_from_g {
        // RN-G2: two drawn beside colour `g`, if its place is empty.
        return if game.rail[s][usize::from(g)] == [NO, NO] {
            chance(2, NO)
        } else {
            0.0
        };
    }
    game.rail[s][usize::from(h)]
        .iter()
        .filter(|&&slide| slide != NO && back(slide) == g)
        .map(|&slide| chance(1, slide))
        .fold(0.0, f32::max)
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
    /// What going through a node costs more than a step, for the knights of one player: a
    /// knight stands there ([`OCCUPIED`], [`BLOCKED`]).
    occupied: [u8; NODES],
    /// Trapdoors everyone has seen (RN-P1).
    trapdoor: [bool; NODES],
    entrance: Node,
    /// The ways computed so far: the goal and the steps from every node to it.
    to: Vec<(Node, [u8; NODES])>,
}

impl Paths {
    /// The ways of the knights of `seat`, who must go around the opponents' knights without
    /// a rope; or, for `None` (the opponents of the seat evaluating), every knight may move
    /// away: blocking an opponent's way is worth no more than [`OCCUPIED`] steps (worth
    /// more, both sides' bots kept each other's knights from their galleries for the whole
    /// game).
    fn new(game: &RocNoir, seat: Option<Seat>) -> Self {
        let mut occupied = [1; NODES];
        let roped = seat.is_none_or(|s| game.ropes[usize::from(s)] > 0);
        for (s, knights) in game.pos.iter().take(usize::from(game.players)).enumerate() {
            let cost = if roped || Some(s as Seat) == seat {
                OCCUPIED
            } else {
                BLOCKED
            };
            for &n in knights {
                if !is_room(n) {
                    occupied[usize::from(n)] = cost;
                }
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
    /// costs [`OCCUPIED`] or [`BLOCKED`] steps, the entrance lets knights through, a gallery or the treasure room
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
                let enter = if node == goal {
                    1
                } else {
                    self.occupied[usize::from(node)]
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
