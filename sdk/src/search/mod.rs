//! Bots that search without peeking: single-observer information-set Monte Carlo tree search
//! (Cowling, Powley & Whitehouse, 2012).
//!
//! One search, two back ends. [`search`] runs over any [`SearchSpace`]: [`GameSpace`] is the
//! one for any [`Game`](crate::Game), compiled into every plugin and exported through the ABI
//! (`veillee_search`, see [`crate::abi`]); the host has another over its engines, for games
//! whose scripts change what a move does (Castel's cards, house rules), so that the search
//! plays the game with its rules in force.
//!
//! **It never peeks, by construction.** The search starts from a [`Sampled`] root, which can
//! only be made by re-drawing everything the bot's seat cannot see
//! ([`Game::redraw_hidden`](crate::Game::redraw_hidden)), and every iteration re-draws that
//! copy again before it plays: hidden cards and future chance are sampled, never read. The
//! true state is not an argument of [`search`].
//!
//! Each node of the tree is scored for the seat that moved into it (max-n): in a team game the
//! values come from [`Game::evaluate`](crate::Game::evaluate) and the outcome, which give
//! partners the same value. Playouts are random and truncated after
//! [`SearchRequest::playout_moves`] moves, then the position is evaluated.
//!
//! # How it works
//!
//! One tree whose nodes are the bot seat's information sets, reached by sequences of moves
//! named by their `MoveKey`: [`Game::move_key`](crate::Game::move_key), by default the hash
//! of the move's id, and the hash of the move value itself (`hash_move`, no `String`) in games
//! whose values name their moves (Siège, Castel, Château Noir); the search builds an id only
//! for its answer, and for the root's moves when the host excludes some. An iteration
//! allocates no buffer of its own ([`GameSpace`] lists with `moves_into`, asks who acts with
//! `seats_to_act`, and plays out with buffers it keeps). The world is kept too: the first
//! iteration copies the root, each later one overwrites that copy (`redraw_into`;
//! [`GameSpace`] does `clone_from` then `redraw_hidden`, so a game whose `Clone` forwards
//! `clone_from` to its fields — `clone_by_fields!`, Castel — reuses its vectors; the default,
//! used by the host's engine space, makes a new copy and releases the old one). Each
//! iteration re-draws the world (what the seat cannot see, and chance: a re-draw resets the
//! game's generator and the scripts' `ctx.random`), walks the tree choosing among the moves
//! legal *in that world* by UCB1 with availability counts (a move seen in few worlds is not
//! over-explored), expands one move, plays at random for a few moves, evaluates, and backs the
//! values up. Chance is open-loop: two die rolls after the same moves share a node, which
//! averages over them.
//!
//! **Why not determinized search** (solving many sampled worlds apart and voting): that
//! splits the budget across worlds and "fuses strategies" — it plans as if it would know the
//! hidden cards at its next turn. ISMCTS shares one tree across worlds, and on a game without
//! hidden information it is plain MCTS, so the SDK has one algorithm for every game.
//!
//! **Several players: max-n, not paranoid.** Paranoid search (every opponent minimising the
//! bot's value) makes sense for two-player zero-sum games, where max-n is the same thing; with
//! three to five players each for themselves the opponents race for their own goals, and
//! paranoid bots turn timid and cost a coalition model per node. Teams need no special case: a
//! game's outcome names every partner a winner and `evaluate` gives partners one value.
//!
//! **Long games: truncated playouts and `evaluate(seat)`** (0 lost … 1 won). Random games of
//! roc noir run to thousands of moves; a playout of a few moves then the game's evaluation
//! says more in less time. The default ([`status_value`]) knows nothing before the end (½);
//! each built-in game has a real one in its `eval.rs`. An evaluation whose expected value drops
//! with time gives a bot a reason to keep its move rather than let time pass (roc noir's
//! evaluation says how it avoids that). A game may play out fewer random moves than the host
//! asks (`Game::bot_playout_moves`, default the host's; [`GameSpace`] asks it): Renard answers
//! 0, because random hens hand the fox a hen every few moves and short random playouts made
//! every move of the hens look alike.
//!
//! **What a bot does not choose: `Game::bot_may_choose(seat, move)`** (default: everything).
//! Not a rule — people, `random` seats and playouts keep every legal move — but a bound where
//! the rules set none (a roc noir knight may step as far as it likes, and a bot that found
//! keeping the move a hair better than stopping stepped back and forth for ever). The search
//! applies it at every node, root included: [`GameSpace`] filters `moves_into`'s list, and the
//! host's engine space drops the actions the plugin marks `bots_avoid` (ABI 1.12), so a game
//! with house rules, searched through the engine, is bounded the same way. When every move
//! would be left out, both keep them all.
//!
//! **The same numbers everywhere.** [`squash`] maps an advantage to `[0, 1]` with `+ − × ÷`
//! only, and the search's logarithm is its own, so wasm and native builds compute the very
//! same search (the host's search benchmark fails if their answers differ).

mod game_space;
mod proof;
#[cfg(test)]
mod tests;
mod tree;

use serde::{Deserialize, Serialize};

use crate::{GameRng, Outcome, Seat, Status};

pub use game_space::GameSpace;
pub use proof::Proven;
pub use tree::search;

/// A move's identity across re-drawn worlds, so that the same move in two samples of the
/// hidden information is one edge of the tree: a hash of its action id ([`move_key`]) or, for
/// a game whose move values name their moves, of the value ([`hash_move`]).
pub type MoveKey = u64;

/// The key of an action id (64-bit FNV-1a).
pub fn move_key(id: &str) -> MoveKey {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    core::hash::Hasher::write(&mut hasher, id.as_bytes());
    hasher.0
}

/// The key of a move value that names its move by itself (see
/// [`Game::move_key`](crate::Game::move_key)): its [`Hash`](core::hash::Hash) fed to the same
/// 64-bit FNV-1a, with `usize`/`isize` (enum discriminants) widened to 64 bits so that the
/// wasm and native builds give the same key.
pub fn hash_move<M: core::hash::Hash>(mv: &M) -> MoveKey {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut hasher);
    hasher.0
}

struct Fnv(u64);

impl core::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_usize(&mut self, i: usize) {
        self.write(&(i as u64).to_le_bytes());
    }

    fn write_isize(&mut self, i: isize) {
        self.write(&(i as i64).to_le_bytes());
    }
}

/// What one search is asked (the input of `veillee_search`, as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    /// Iterations of the search: each re-draws the hidden information, walks the tree, plays
    /// out and backs up. The levels of the host are numbers of iterations, so that a bot's
    /// move depends on the seed only, never on the machine's speed.
    pub iterations: u32,
    /// Random moves played after leaving the tree before the position is evaluated.
    pub playout_moves: u32,
    /// The seed of the re-draws and the random choices.
    pub seed: u64,
    /// Players in the game (the length of the value lists).
    pub players: u8,
    /// Actions of the bot's seat not to choose (ids a house rule refused just now).
    #[serde(default)]
    pub exclude: Vec<String>,
    /// The exploration constant of the selection (UCB1).
    #[serde(default = "default_exploration")]
    pub exploration: f32,
    /// The exact check of the root's moves before the tree search (see [`Tactics`]); `None`:
    /// no check. Asked only in games without hidden information or chance still to come.
    #[serde(default)]
    pub tactics: Option<Tactics>,
}

/// How deep the exact check of the root looks: a win/loss alpha-beta, deepened one ply at a
/// time, that plays a forced win at once and leaves the moves proven lost out of the tree
/// search (the "shallow traps" that averaging replies misses). Nodes, not time, bound it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tactics {
    /// Plies looked ahead, the root's own move included.
    pub plies: u8,
    /// Positions played at most, over every depth.
    pub nodes: u32,
}

fn default_exploration() -> f32 {
    0.7
}

impl SearchRequest {
    /// A request with the default exploration and nothing excluded.
    pub fn new(iterations: u32, playout_moves: u32, seed: u64, players: u8) -> Self {
        SearchRequest {
            iterations,
            playout_moves,
            seed,
            players,
            exclude: Vec::new(),
            exploration: default_exploration(),
            tactics: None,
        }
    }
}

/// What a search chose (the answer of `veillee_search`, as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchAnswer {
    /// The chosen action's id.
    pub action: String,
    /// Iterations run (0 when there was only one action to choose).
    pub iterations: u32,
    /// How often the chosen action was tried.
    pub visits: u32,
    /// Its mean value for the bot's seat, from 0 (lost) to 1 (won).
    pub value: f32,
    /// What the exact check proved of the chosen move, if anything.
    #[serde(default)]
    pub proven: Option<Proven>,
    /// Positions the exact check played.
    #[serde(default)]
    pub checked: u32,
    /// Every root move the tree searched, with its statistics: what the host adds up over
    /// searches run side by side (one per core, each with its own seed) to choose.
    #[serde(default)]
    pub root: Vec<RootMove>,
    /// The root moves the exact check proved lost and left out of the tree.
    #[serde(default)]
    pub lost: Vec<String>,
}

/// One root move of a search and how the tree valued it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RootMove {
    /// Its action id.
    pub action: String,
    /// Iterations through it.
    pub visits: u32,
    /// Its mean value for the bot's seat, from 0 to 1.
    pub value: f32,
}

/// Whether a move could be played in a search's world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// Played.
    Done,
    /// Refused (a house rule's `before_action`): the search drops that move there.
    Refused,
}

/// What a search needs of a game: copies re-drawn for one seat, whose turn it is, legal moves,
/// playing one, a random playout and values for every seat. [`GameSpace`] implements it for
/// any [`Game`](crate::Game); the host implements it over its engines.
pub trait SearchSpace {
    /// A live game in this space (a value, or a handle into an engine).
    type State;
    /// A move as this space plays it.
    type Move: Clone;
    /// Why a call failed (never a refusal: that is [`Played::Refused`]).
    type Error;

    /// A copy of `state` where everything `observer` cannot see is re-drawn from `seed`.
    fn redraw(
        &mut self,
        state: &Self::State,
        observer: Seat,
        seed: u64,
    ) -> Result<Self::State, Self::Error>;
    /// [`SearchSpace::redraw`] into `into`, a copy made earlier by `redraw` (or by this), which
    /// it replaces: the search keeps one world and re-draws it at every iteration. The default
    /// makes a new copy and releases the old one (on an error `into` is left as it was);
    /// override it when a state can be overwritten in place, so that an iteration copies into
    /// memory it already has instead of allocating a world.
    fn redraw_into(
        &mut self,
        state: &Self::State,
        observer: Seat,
        seed: u64,
        into: &mut Self::State,
    ) -> Result<(), Self::Error> {
        let fresh = self.redraw(state, observer, seed)?;
        let old = core::mem::replace(into, fresh);
        self.release(old);
        Ok(())
    }
    /// Forgets a copy made by [`SearchSpace::redraw`].
    fn release(&mut self, state: Self::State);
    /// Whose turn it is, or how the game ended.
    fn status(&mut self, state: &Self::State) -> Result<Status, Self::Error>;
    /// The seats to act into `out` (cleared first), `false` when the game is over: what
    /// [`SearchSpace::status`] says, without building a [`Status`] (the search asks it at
    /// every step). The default asks `status`.
    fn seats(&mut self, state: &Self::State, out: &mut Vec<Seat>) -> Result<bool, Self::Error> {
        match self.status(state)? {
            Status::ToAct { seats } => {
                *out = seats;
                Ok(true)
            }
            Status::Finished { .. } => {
                out.clear();
                Ok(false)
            }
        }
    }
    /// The legal moves of `seat`, each with its [`MoveKey`], into `out` (cleared first).
    fn moves(
        &mut self,
        state: &Self::State,
        seat: Seat,
        out: &mut Vec<(MoveKey, Self::Move)>,
    ) -> Result<(), Self::Error>;
    /// Plays a move listed by [`SearchSpace::moves`].
    fn play(
        &mut self,
        state: &mut Self::State,
        seat: Seat,
        mv: &Self::Move,
    ) -> Result<Played, Self::Error>;
    /// Plays at most `max_moves` random moves, in place.
    fn playout(
        &mut self,
        state: &mut Self::State,
        seed: u64,
        max_moves: u32,
    ) -> Result<(), Self::Error>;
    /// The value of an unfinished game for every seat, each from 0 to 1, into `values`
    /// (already sized to the player count).
    fn evaluate(&mut self, state: &Self::State, values: &mut [f32]) -> Result<(), Self::Error>;
    /// The action id of a move (asked for the answer, and of the root's moves when some are
    /// excluded: never per node).
    fn action_id(
        &mut self,
        state: &Self::State,
        seat: Seat,
        mv: &Self::Move,
    ) -> Result<String, Self::Error>;
}

/// A search's root: a copy of the game in which everything the bot's seat cannot see has
/// been re-drawn. The only way to make one is [`Sampled::draw`], so a search never holds the
/// true hidden state.
pub struct Sampled<S> {
    state: S,
    observer: Seat,
}

impl<S> Sampled<S> {
    /// Re-draws `truth` for `observer` in `space` (the true state is only read to copy it).
    pub fn draw<Sp: SearchSpace<State = S>>(
        space: &mut Sp,
        truth: &S,
        observer: Seat,
        seed: u64,
    ) -> Result<Self, Sp::Error> {
        let mut rng = GameRng::new(seed ^ 0x005e_ed0f_0b5e_47e5);
        let state = space.redraw(truth, observer, rng.next_u64())?;
        Ok(Sampled { state, observer })
    }

    /// The seat this copy was drawn for.
    pub fn observer(&self) -> Seat {
        self.observer
    }

    /// The re-drawn copy (for the back end to release once the search is over).
    pub fn into_state(self) -> S {
        self.state
    }

    pub(crate) fn state(&self) -> &S {
        &self.state
    }
}

/// The value of a finished game for every seat: 1 for a winner (partners in a team game are
/// all winners), 0 for the others, ½ for everyone in a draw.
pub fn outcome_values(outcome: &Outcome, values: &mut [f32]) {
    let draw = outcome.is_draw();
    for (seat, value) in values.iter_mut().enumerate() {
        *value = if draw {
            0.5
        } else if outcome.winners.contains(&(seat as Seat)) {
            1.0
        } else {
            0.0
        };
    }
}

/// The default of [`Game::evaluate`](crate::Game::evaluate): the outcome's value once the game
/// is over, ½ (nothing known) before.
pub fn status_value(status: &Status, seat: Seat) -> f32 {
    match status {
        Status::Finished { outcome } if outcome.is_draw() => 0.5,
        Status::Finished { outcome } if outcome.winners.contains(&seat) => 1.0,
        Status::Finished { .. } => 0.0,
        Status::ToAct { .. } => 0.5,
    }
}

/// Turns a game's advantage measure into a value from 0 to 1: `0` is even (½), `scale` is
/// worth ¾, and the value nears 1 (or 0) as the advantage grows. A helper for
/// [`Game::evaluate`](crate::Game::evaluate). Only `+ - × ÷` are used, so the wasm and native
/// builds of a game give the very same value.
pub fn squash(advantage: f32, scale: f32) -> f32 {
    if !advantage.is_finite() || scale.is_nan() || scale <= 0.0 {
        return 0.5;
    }
    let x = advantage / scale;
    0.5 + 0.5 * x / (1.0 + x.abs())
}
