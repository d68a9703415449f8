//! The tree of single-observer ISMCTS and its iterations.
//!
//! Nodes are information sets of the bot's seat, reached by sequences of moves (named by
//! their [`MoveKey`]s). In a world re-drawn for an iteration only some edges are legal: the
//! selection counts how often each edge was *available* and uses that count, not the parent's
//! visits, in UCB1 (the "subset-armed bandit" of Cowling et al.). A move that a world refuses
//! (a house rule) is dropped at that node.

use super::{
    outcome_values, MoveKey, Played, RootMove, Sampled, SearchAnswer, SearchRequest, SearchSpace,
};
use crate::{GameRng, Seat, Status};

/// One node: the edge that leads to it and its statistics, for the seat that chose that edge.
struct Node {
    seat: Seat,
    key: MoveKey,
    /// Children, sorted by (seat, key).
    children: Vec<u32>,
    visits: u32,
    available: u32,
    /// Sum of the values, for `seat`, of the iterations through this node.
    total: f64,
    /// A world refused this move here: never chosen again.
    refused: bool,
}

impl Node {
    fn new(seat: Seat, key: MoveKey) -> Self {
        Node {
            seat,
            key,
            children: Vec::new(),
            visits: 0,
            available: 0,
            total: 0.0,
            refused: false,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }
}

struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn child(&self, node: usize, seat: Seat, key: MoveKey) -> Result<usize, usize> {
        self.nodes[node]
            .children
            .binary_search_by(|&c| {
                let c = &self.nodes[c as usize];
                (c.seat, c.key).cmp(&(seat, key))
            })
            .map(|i| self.nodes[node].children[i] as usize)
    }

    fn add_child(&mut self, node: usize, seat: Seat, key: MoveKey) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node::new(seat, key));
        let at = self.child(node, seat, key).unwrap_err();
        self.nodes[node].children.insert(at, index as u32);
        index
    }
}

/// A deterministic natural logarithm for `x >= 1` (only `+ - × ÷`, so wasm and native agree).
fn ln(x: f64) -> f64 {
    const LN2: f64 = core::f64::consts::LN_2;
    let mut m = x.max(1.0);
    let mut e = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        e += 1.0;
    }
    // ln(m) = 2 atanh(t), t = (m - 1) / (m + 1) in [0, 1/3).
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let (mut term, mut sum) = (t, 0.0);
    for k in 0..12 {
        sum += term / f64::from(2 * k + 1);
        term *= t2;
    }
    e * LN2 + 2.0 * sum
}

/// The buffers of the iterations, kept for the whole search: an iteration allocates nothing
/// of its own (the tree grows by one node; the world is re-drawn in place when the space can).
struct Scratch<W, M> {
    /// The world of the iterations, made by the first and re-drawn by each one after
    /// ([`SearchSpace::redraw_into`]); released when the search ends.
    world: Option<W>,
    moves: Vec<(MoveKey, M)>,
    seats: Vec<Seat>,
    /// The nodes visited by the iteration, to back up.
    path: Vec<usize>,
    /// Listed moves that are children already: (child, index in `moves`).
    known: Vec<(usize, usize)>,
    /// Listed moves that are not children yet (indices in `moves`).
    untried: Vec<usize>,
}

/// Runs the search of `request` from `root` and answers the move of the root's seat with the
/// most visits (ties: the higher mean, then the first listed). With a single move to choose
/// from, it answers at once. Moves are told apart by their [`MoveKey`]s; action ids are built
/// only for the answer (and for the root's moves when some are excluded).
///
/// Errors are the back end's; a world that has nobody to act or no legal move simply ends
/// that iteration with the evaluation of where it stands.
pub fn search<S: SearchSpace>(
    space: &mut S,
    root: &Sampled<S::State>,
    request: &SearchRequest,
) -> Result<SearchAnswer, S::Error> {
    let observer = root.observer();
    let mut moves = Vec::new();
    space.moves(root.state(), observer, &mut moves)?;
    let mut excluded: Vec<MoveKey> = Vec::new();
    if !request.exclude.is_empty() {
        for (key, mv) in &moves {
            let id = space.action_id(root.state(), observer, mv)?;
            if request.exclude.contains(&id) {
                excluded.push(*key);
            }
        }
    }
    let mut candidates: Vec<(MoveKey, S::Move)> = moves
        .iter()
        .filter(|(key, _)| !excluded.contains(key))
        .cloned()
        .collect();
    let proof = match &request.tactics {
        Some(tactics) if candidates.len() > 1 => Some(super::proof::prove_root(
            space,
            root,
            &candidates,
            tactics,
            request.seed,
        )?),
        _ => None,
    };
    let checked = proof.as_ref().map_or(0, |p| p.nodes);
    let mut lost = Vec::new();
    if let Some(proof) = &proof {
        let decided = match (proof.win(), proof.latest_loss()) {
            (Some(win), _) => Some((win, 1.0)),
            (None, Some(loss)) => Some((loss, 0.0)),
            (None, None) => None,
        };
        if let Some((i, value)) = decided {
            let (_, mv) = &candidates[i];
            return Ok(SearchAnswer {
                action: space.action_id(root.state(), observer, mv)?,
                iterations: 0,
                visits: 0,
                value,
                proven: proof.proven[i],
                checked,
                root: Vec::new(),
                lost: Vec::new(),
            });
        }
        // The moves proven lost are out of the tree, like the excluded ones.
        for (i, (key, mv)) in candidates.iter().enumerate() {
            if proof.left_out(i) {
                excluded.push(*key);
                lost.push(space.action_id(root.state(), observer, mv)?);
            }
        }
        candidates.retain(|(key, _)| !excluded.contains(key));
    }
    let mut tree = Tree {
        nodes: vec![Node::new(observer, 0)],
    };
    let players = usize::from(request.players.max(1));
    let mut values = vec![0.5f32; players];
    let mut rng = GameRng::new(request.seed);
    let mut scratch = Scratch {
        world: None,
        moves: Vec::new(),
        seats: Vec::new(),
        path: Vec::new(),
        known: Vec::new(),
        untried: Vec::new(),
    };
    let mut iterations = 0;
    let mut result = Ok(());
    if candidates.len() > 1 {
        for _ in 0..request.iterations {
            result = iterate(
                space,
                root,
                &mut tree,
                request,
                &excluded,
                &mut values,
                &mut rng,
                &mut scratch,
            );
            if result.is_err() {
                break;
            }
            iterations += 1;
        }
    }
    if let Some(world) = scratch.world.take() {
        space.release(world);
    }
    result?;
    let best = candidates
        .iter()
        .enumerate()
        .max_by(|(ia, (a, _)), (ib, (b, _))| {
            let stats = |key: MoveKey| match tree.child(0, observer, key) {
                Ok(c) if !tree.nodes[c].refused => (tree.nodes[c].visits, tree.nodes[c].mean()),
                _ => (0, 0.0),
            };
            let (va, ma) = stats(*a);
            let (vb, mb) = stats(*b);
            va.cmp(&vb)
                .then(ma.total_cmp(&mb))
                // Earlier listed wins a full tie (max_by keeps the last maximum).
                .then(ib.cmp(ia))
        })
        .map(|(_, c)| c);
    let Some((key, mv)) = best.or_else(|| moves.first()) else {
        // No legal move at all: the host never asks then; answer an empty id.
        return Ok(SearchAnswer {
            action: String::new(),
            iterations,
            visits: 0,
            value: 0.5,
            proven: None,
            checked,
            root: Vec::new(),
            lost,
        });
    };
    let (visits, value) = match tree.child(0, observer, *key) {
        Ok(c) => (tree.nodes[c].visits, tree.nodes[c].mean() as f32),
        Err(_) => (0, 0.5),
    };
    let mut stats = Vec::with_capacity(candidates.len());
    for (key, mv) in &candidates {
        let Ok(c) = tree.child(0, observer, *key) else {
            continue;
        };
        let node = &tree.nodes[c];
        if !node.refused && node.visits > 0 {
            stats.push(RootMove {
                action: space.action_id(root.state(), observer, mv)?,
                visits: node.visits,
                value: node.mean() as f32,
            });
        }
    }
    Ok(SearchAnswer {
        action: space.action_id(root.state(), observer, mv)?,
        iterations,
        visits,
        value,
        proven: None,
        checked,
        root: stats,
        lost,
    })
}

/// One iteration: a re-drawn world, selection and expansion in it, a truncated playout, the
/// values backed up along the path.
#[allow(clippy::too_many_arguments)]
fn iterate<S: SearchSpace>(
    space: &mut S,
    root: &Sampled<S::State>,
    tree: &mut Tree,
    request: &SearchRequest,
    excluded: &[MoveKey],
    values: &mut [f32],
    rng: &mut GameRng,
    scratch: &mut Scratch<S::State, S::Move>,
) -> Result<(), S::Error> {
    let observer = root.observer();
    let seed = rng.next_u64();
    let mut world = match scratch.world.take() {
        Some(mut world) => match space.redraw_into(root.state(), observer, seed, &mut world) {
            Ok(()) => world,
            Err(e) => {
                space.release(world);
                return Err(e);
            }
        },
        None => space.redraw(root.state(), observer, seed)?,
    };
    let result = descend(
        space, &mut world, tree, request, excluded, values, rng, scratch,
    );
    scratch.world = Some(world);
    if !result? {
        return Ok(());
    }
    tree.nodes[0].visits += 1;
    for &n in &scratch.path {
        let node = &mut tree.nodes[n];
        node.visits += 1;
        node.total += f64::from(values.get(node.seat as usize).copied().unwrap_or(0.5));
    }
    Ok(())
}

/// Walks the tree in `world` and plays out: the nodes visited in `scratch.path`, values
/// filled in. `false`: a move was refused here (the node is marked; nothing to back up).
#[allow(clippy::too_many_arguments)]
fn descend<S: SearchSpace>(
    space: &mut S,
    world: &mut S::State,
    tree: &mut Tree,
    request: &SearchRequest,
    excluded: &[MoveKey],
    values: &mut [f32],
    rng: &mut GameRng,
    scratch: &mut Scratch<S::State, S::Move>,
) -> Result<bool, S::Error> {
    let Scratch {
        world: _,
        moves,
        seats,
        path,
        known,
        untried,
    } = scratch;
    path.clear();
    let mut node = 0;
    let mut expanded = false;
    loop {
        if ended(space, world, seats, values)? {
            return Ok(true);
        }
        let seat = if node == 0 {
            root_seat(seats, tree.nodes[0].seat)
        } else {
            match rng.pick(seats) {
                Some(&seat) => seat,
                None => break,
            }
        };
        space.moves(world, seat, moves)?;
        if node == 0 {
            moves.retain(|(key, _)| !excluded.contains(key));
        }
        // Which listed moves are children already (and not refused), which are new.
        known.clear();
        untried.clear();
        for (i, (key, _)) in moves.iter().enumerate() {
            match tree.child(node, seat, *key) {
                Ok(c) if tree.nodes[c].refused => {}
                Ok(c) => known.push((c, i)),
                Err(_) => untried.push(i),
            }
        }
        let (child, index) = if let Some(&i) = rng.pick(untried) {
            expanded = true;
            (tree.add_child(node, seat, moves[i].0), i)
        } else {
            if known.is_empty() {
                break;
            }
            for &(c, _) in known.iter() {
                tree.nodes[c].available += 1;
            }
            let c = request.exploration.max(0.0) as f64;
            let &(best, i) = known
                .iter()
                .max_by(|(a, _), (b, _)| {
                    let score = |n: usize| {
                        let n = &tree.nodes[n];
                        n.mean()
                            + c * (ln(f64::from(n.available.max(1))) / f64::from(n.visits.max(1)))
                                .sqrt()
                    };
                    score(*a).total_cmp(&score(*b))
                })
                .unwrap_or(&known[0]);
            (best, i)
        };
        if expanded {
            tree.nodes[child].available += 1;
        }
        if space.play(world, seat, &moves[index].1)? == Played::Refused {
            tree.nodes[child].refused = true;
            return Ok(false);
        }
        path.push(child);
        node = child;
        if expanded {
            break;
        }
    }
    if ended(space, world, seats, values)? {
        return Ok(true);
    }
    space.playout(world, rng.next_u64(), request.playout_moves)?;
    if !ended(space, world, seats, values)? {
        space.evaluate(world, values)?;
    }
    Ok(true)
}

/// Whether the game in `world` is over, its outcome's values then in `values`; otherwise the
/// seats to act are in `seats` (asked without building a [`Status`]).
fn ended<S: SearchSpace>(
    space: &mut S,
    world: &S::State,
    seats: &mut Vec<Seat>,
    values: &mut [f32],
) -> Result<bool, S::Error> {
    if space.seats(world, seats)? {
        return Ok(false);
    }
    match space.status(world)? {
        Status::Finished { outcome } => outcome_values(&outcome, values),
        // A space whose `seats` and `status` disagree: value the position as it stands.
        Status::ToAct { .. } => space.evaluate(world, values)?,
    }
    Ok(true)
}

/// At the root, the bot's own seat decides (several seats may be asked at once).
fn root_seat(seats: &[Seat], observer: Seat) -> Seat {
    if seats.contains(&observer) {
        observer
    } else {
        seats.first().copied().unwrap_or(observer)
    }
}

#[cfg(test)]
mod tests {
    use super::ln;

    #[test]
    fn the_deterministic_logarithm_matches_the_library_one() {
        for x in [1.0, 1.5, 2.0, 3.0, 10.0, 1000.0, 123_456.0] {
            assert!((ln(x) - f64::ln(x)).abs() < 1e-9, "ln({x})");
        }
    }
}
