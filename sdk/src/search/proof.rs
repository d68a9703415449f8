//! The exact check of a search's root: a shallow win/loss search that proves which of the
//! root's moves win by force, or lose by force, within a few plies.
//!
//! Monte Carlo tree search averages the replies to a move instead of taking the worst one, so
//! a move with one crushing reply among many harmless ones looks good to it: the "shallow
//! trap" (Ramanujan, Sabharwal & Selman, 2010). A bot then walks into a loss in two moves that
//! a four-ply search sees. Before the tree search runs, every root move is checked by an
//! alpha-beta over the outcome alone (won, lost, anything else), deepened one ply at a time
//! until the plies or the node budget run out (Baier & Winands, 2015, call this a minimax
//! check at the root). A forced win is played at once, the shortest first; the moves proven
//! lost are left out of the tree search, unless every move is, and then the one that loses
//! latest is played.
//!
//! The check is sound at every budget: a move is said won only when every reply, to the
//! depth searched, ends in a win, and lost only when one line of replies forces a loss; a
//! depth cut short by the budget proves less, never something false. Every other seat is
//! taken as an opponent (a partner, too: a win is then proven even against a partner's worst
//! move), and a position where several seats act at once is not proven either way.
//!
//! It is exact only where the state holds nothing the bot may not see and no chance the rules
//! have not drawn yet: the host asks for it ([`super::Tactics`]) in games whose manifest says
//! there is no hidden information. It counts nodes, never time, so a decision depends on the
//! seed and the position alone.

use super::{MoveKey, Played, Sampled, SearchSpace, Tactics};
use crate::{Seat, Status};

/// What the check proved of one root move, in plies from the root (the move itself is ply 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Proven {
    /// The bot's seat wins by force within this many plies.
    Win(u8),
    /// The other seats can force a loss within this many plies.
    Loss(u8),
}

/// The check of every root candidate, in the candidates' order.
pub(super) struct RootProof {
    /// What was proven of each candidate (`None`: nothing within the depth searched).
    pub proven: Vec<Option<Proven>>,
    /// Positions the check played.
    pub nodes: u32,
}

impl RootProof {
    /// The candidate to play at once: the shortest forced win.
    pub fn win(&self) -> Option<usize> {
        self.proven
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Some(Proven::Win(plies)) => Some((*plies, i)),
                _ => None,
            })
            .min()
            .map(|(_, i)| i)
    }

    /// Whether candidate `i` is left out of the tree search: it is proven lost and some
    /// other candidate is not.
    pub fn left_out(&self, i: usize) -> bool {
        let lost = |p: &Option<Proven>| matches!(p, Some(Proven::Loss(_)));
        lost(&self.proven[i]) && !self.proven.iter().all(lost)
    }

    /// When every candidate is proven lost: the one that loses latest (the first of those).
    pub fn latest_loss(&self) -> Option<usize> {
        let mut latest: Option<(u8, usize)> = None;
        for (i, p) in self.proven.iter().enumerate() {
            match p {
                Some(Proven::Loss(plies)) => {
                    if latest.is_none_or(|(best, _)| *plies > best) {
                        latest = Some((*plies, i));
                    }
                }
                _ => return None,
            }
        }
        latest.map(|(_, i)| i)
    }
}

/// A position's value to the bot's seat, as far as the search went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Won,
    Lost,
    Open,
}

/// The alpha-beta over outcomes, with its buffers: one world and one move list per ply, and
/// one killer move per ply (the move that last proved something there is tried first, which
/// finds a threat repeated across sibling lines at once).
struct Prover<'s, S: SearchSpace> {
    space: &'s mut S,
    observer: Seat,
    seed: u64,
    worlds: Vec<S::State>,
    moves: Vec<Vec<(MoveKey, S::Move)>>,
    seats: Vec<Seat>,
    killers: Vec<Option<MoveKey>>,
    nodes: u32,
    budget: u32,
}

impl<S: SearchSpace> Prover<'_, S> {
    /// Copies the world of `ply` into the world of `ply + 1` (made on first use).
    fn copy_down(&mut self, ply: usize) -> Result<(), S::Error> {
        let (above, below) = self.worlds.split_at_mut(ply + 1);
        let from = &above[ply];
        match below.first_mut() {
            Some(into) => self.space.redraw_into(from, self.observer, self.seed, into),
            None => {
                let fresh = self.space.redraw(from, self.observer, self.seed)?;
                self.worlds.push(fresh);
                Ok(())
            }
        }
    }

    /// Plays `mv` of `seat` from the world of `ply` into the world of `ply + 1`; `false` when
    /// the move was refused there or the budget is spent.
    fn play_down(&mut self, ply: usize, seat: Seat, mv: &S::Move) -> Result<bool, S::Error> {
        if self.nodes >= self.budget {
            return Ok(false);
        }
        self.nodes += 1;
        self.copy_down(ply)?;
        let played = self.space.play(&mut self.worlds[ply + 1], seat, mv)?;
        Ok(played == Played::Done)
    }

    /// The value of the world of `ply`, searched `left` plies deeper.
    fn value(&mut self, ply: usize, left: u8) -> Result<Value, S::Error> {
        if !self.space.seats(&self.worlds[ply], &mut self.seats)? {
            return self.outcome(ply);
        }
        if left == 0 || self.seats.len() != 1 || self.nodes >= self.budget {
            return Ok(Value::Open);
        }
        let seat = self.seats[0];
        let ours = seat == self.observer;
        // A move that proves the mover's point ends the node; the mover cannot do worse
        // than where every move leads.
        let (cut, refuted) = if ours {
            (Value::Won, Value::Lost)
        } else {
            (Value::Lost, Value::Won)
        };
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
            self.killers.resize(ply + 1, None);
        }
        let mut moves = core::mem::take(&mut self.moves[ply]);
        self.space.moves(&self.worlds[ply], seat, &mut moves)?;
        if let Some(killer) = self.killers[ply] {
            if let Some(at) = moves.iter().position(|(key, _)| *key == killer) {
                moves.swap(0, at);
            }
        }
        let mut result = Ok(refuted);
        let mut any = false;
        for (key, mv) in &moves {
            match self.play_down(ply, seat, mv) {
                Ok(true) => {}
                Ok(false) if self.nodes >= self.budget => {
                    result = Ok(Value::Open);
                    break;
                }
                Ok(false) => continue,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            any = true;
            match self.value(ply + 1, left - 1) {
                Ok(v) if v == cut => {
                    self.killers[ply] = Some(*key);
                    result = Ok(cut);
                    break;
                }
                Ok(v) if v != refuted => result = Ok(Value::Open),
                Ok(_) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.moves[ply] = moves;
        if !any {
            // Every move refused (a house rule): nothing is proven here.
            return result.map(|_| Value::Open);
        }
        result
    }

    fn outcome(&mut self, ply: usize) -> Result<Value, S::Error> {
        Ok(match self.space.status(&self.worlds[ply])? {
            Status::Finished { outcome } if outcome.is_draw() => Value::Open,
            Status::Finished { outcome } if outcome.winners.contains(&self.observer) => Value::Won,
            Status::Finished { .. } => Value::Lost,
            Status::ToAct { .. } => Value::Open,
        })
    }
}

/// Checks every candidate of the root, deepening one ply at a time up to `tactics.plies`
/// while the node budget lasts; stops at the first depth where a move wins by force.
pub(super) fn prove_root<S: SearchSpace>(
    space: &mut S,
    root: &Sampled<S::State>,
    candidates: &[(MoveKey, S::Move)],
    tactics: &Tactics,
    seed: u64,
) -> Result<RootProof, S::Error> {
    let observer = root.observer();
    let first = space.redraw(root.state(), observer, seed)?;
    let mut prover = Prover {
        space,
        observer,
        seed,
        worlds: vec![first],
        moves: Vec::new(),
        seats: Vec::new(),
        killers: Vec::new(),
        nodes: 0,
        budget: tactics.nodes,
    };
    let mut proven = vec![None; candidates.len()];
    let result = deepen(&mut prover, candidates, tactics.plies, &mut proven);
    let nodes = prover.nodes;
    for world in prover.worlds.drain(..) {
        prover.space.release(world);
    }
    result.map(|()| RootProof { proven, nodes })
}

fn deepen<S: SearchSpace>(
    prover: &mut Prover<'_, S>,
    candidates: &[(MoveKey, S::Move)],
    plies: u8,
    proven: &mut [Option<Proven>],
) -> Result<(), S::Error> {
    let observer = prover.observer;
    for depth in 1..=plies {
        for (i, (_, mv)) in candidates.iter().enumerate() {
            if proven[i].is_some() {
                continue;
            }
            if !prover.play_down(0, observer, mv)? {
                if prover.nodes >= prover.budget {
                    return Ok(());
                }
                continue;
            }
            match prover.value(1, depth - 1)? {
                Value::Won => {
                    proven[i] = Some(Proven::Win(depth));
                    return Ok(());
                }
                Value::Lost => proven[i] = Some(Proven::Loss(depth)),
                Value::Open => {}
            }
        }
        if prover.nodes >= prover.budget {
            return Ok(());
        }
    }
    Ok(())
}
