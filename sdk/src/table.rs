//! Live games by handle: the plugin protocol's operations over any [`Game`].
//!
//! The wasm exports ([`crate::export_game!`]) and the host's native engine both go through
//! this table, so a native build and a wasm build of a game behave identically.

use serde::{Deserialize, Serialize};

use crate::playout::random_playout_in;
use crate::search::{search, GameSpace, Sampled, SearchAnswer, SearchRequest};
use crate::{
    Action, Event, Game, GameError, GameRng, Log, OperationKind, PlayoutResult, PlayoutStop,
    PlayoutWatch, Scene, Seat, Setup, Status,
};

/// One call of an operation offered to variant scripts, as it crosses the plugin ABI
/// (`veillee_operation`'s input).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperationCall {
    /// The operation's name, as declared in [`crate::Manifest::operations`].
    pub name: String,
    /// Its arguments (a JSON object, `null` when none).
    #[serde(default)]
    pub args: serde_json::Value,
}

/// A handle to a live game in a [`GameTable`].
pub type Handle = u32;

/// Live games of one type, addressed by handle.
#[derive(Debug)]
pub struct GameTable<G: Game> {
    games: Vec<Option<G>>,
    free: Vec<Handle>,
    /// The playouts' buffers, kept from one playout call to the next.
    scratch: Scratch<G::Move>,
}

/// The buffers of [`random_playout_in`]: the seats to act and the legal moves. Kept by the
/// table, a playout call allocates none of them once the first has grown them.
struct Scratch<M> {
    seats: Vec<Seat>,
    moves: Vec<M>,
}

impl<M> std::fmt::Debug for Scratch<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("seats", &self.seats.capacity())
            .field("moves", &self.moves.capacity())
            .finish()
    }
}

impl<G: Game> Default for GameTable<G> {
    fn default() -> Self {
        GameTable {
            games: Vec::new(),
            free: Vec::new(),
            scratch: Scratch {
                seats: Vec::new(),
                moves: Vec::new(),
            },
        }
    }
}

impl<G: Game> GameTable<G> {
    /// Creates a game after checking the set-up against the manifest.
    pub fn create(&mut self, setup: &Setup) -> Result<Handle, GameError> {
        let resolved = setup.resolved(&G::manifest())?;
        let game = G::new(&resolved)?;
        Ok(self.insert(game))
    }

    /// Restores a game saved by [`GameTable::save`].
    pub fn load(&mut self, bytes: &[u8]) -> Result<Handle, GameError> {
        let game: G =
            serde_json::from_slice(bytes).map_err(|e| GameError::InvalidState(e.to_string()))?;
        Ok(self.insert(game))
    }

    /// The game's state as bytes (JSON).
    pub fn save(&self, handle: Handle) -> Result<Vec<u8>, GameError> {
        serde_json::to_vec(self.get(handle)?).map_err(|e| GameError::InvalidState(e.to_string()))
    }

    /// An independent copy of a game.
    pub fn clone_game(&mut self, handle: Handle) -> Result<Handle, GameError> {
        let copy = self.get(handle)?.clone();
        Ok(self.insert(copy))
    }

    /// Forgets a game; its handle may be reused.
    pub fn drop_game(&mut self, handle: Handle) {
        if let Some(slot @ Some(_)) = self.games.get_mut(handle as usize) {
            *slot = None;
            self.free.push(handle);
        }
    }

    /// Whose turn it is.
    pub fn status(&self, handle: Handle) -> Result<Status, GameError> {
        Ok(self.get(handle)?.status())
    }

    /// The legal actions of `seat`, as the player sees them, those a bot does not choose
    /// marked ([`Action::bots_avoid`], [`Game::bot_may_choose`]).
    pub fn legal_actions(&self, handle: Handle, seat: Seat) -> Result<Vec<Action>, GameError> {
        let game = self.get(handle)?;
        Ok(game
            .moves(seat)
            .iter()
            .map(|mv| Action {
                bots_avoid: !game.bot_may_choose(seat, mv),
                ..game.describe(seat, mv)
            })
            .collect())
    }

    /// Plays the action with this id for `seat`.
    pub fn apply(
        &mut self,
        handle: Handle,
        seat: Seat,
        action_id: &str,
    ) -> Result<Vec<Event>, GameError> {
        let game = self.get_mut(handle)?;
        check_turn(game, seat)?;
        let moves = game.moves(seat);
        let mv = moves
            .iter()
            .find(|mv| game.move_id(seat, mv) == action_id)
            .ok_or_else(|| GameError::IllegalAction {
                seat,
                action: action_id.to_string(),
            })?;
        let mut log = Log::recording();
        game.play(seat, mv, &mut log);
        Ok(log.into_events())
    }

    /// How many legal actions `seat` has (the fast path for bots).
    pub fn action_count(&self, handle: Handle, seat: Seat) -> Result<u32, GameError> {
        Ok(self.get(handle)?.moves(seat).len() as u32)
    }

    /// Plays `seat`'s legal action number `index` (in [`GameTable::legal_actions`] order),
    /// without building ids or events.
    pub fn apply_index(&mut self, handle: Handle, seat: Seat, index: u32) -> Result<(), GameError> {
        let game = self.get_mut(handle)?;
        check_turn(game, seat)?;
        let moves = game.moves(seat);
        let mv = moves
            .get(index as usize)
            .ok_or_else(|| GameError::IllegalAction {
                seat,
                action: format!("#{index}"),
            })?;
        game.play(seat, mv, &mut Log::off());
        Ok(())
    }

    /// Runs an operation declared in the manifest: a query reads the game, a command may
    /// change it. Names the manifest does not declare are refused.
    pub fn operation(
        &mut self,
        handle: Handle,
        call: &OperationCall,
    ) -> Result<serde_json::Value, GameError> {
        let kind = G::manifest()
            .operations
            .iter()
            .find(|op| op.name == call.name)
            .map(|op| op.kind)
            .ok_or_else(|| GameError::Operation {
                name: call.name.clone(),
                reason: "the game's manifest declares no such operation".into(),
            })?;
        match kind {
            OperationKind::Query => self.get(handle)?.query(&call.name, &call.args),
            OperationKind::Command => self.get_mut(handle)?.command(&call.name, &call.args),
        }
    }

    /// What `viewer` sees.
    pub fn view(&self, handle: Handle, viewer: Option<Seat>) -> Result<Scene, GameError> {
        Ok(self.get(handle)?.view(viewer))
    }

    /// Plays the game out at random, in place.
    pub fn playout(
        &mut self,
        handle: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<PlayoutResult, GameError> {
        self.playout_until(handle, seed, max_moves, &PlayoutWatch::default())
            .map(PlayoutResult::from)
    }

    /// Plays the game out at random, in place, stopping before a watched action (see
    /// [`PlayoutWatch`]).
    pub fn playout_until(
        &mut self,
        handle: Handle,
        seed: u64,
        max_moves: u32,
        watch: &PlayoutWatch,
    ) -> Result<PlayoutStop, GameError> {
        // The game and the buffers are two fields of the table, borrowed apart.
        let game = live_mut(&mut self.games, handle)?;
        let Scratch { seats, moves } = &mut self.scratch;
        Ok(random_playout_in(
            game, seed, max_moves, watch, seats, moves,
        ))
    }

    /// A copy of the game with everything `viewer` cannot see re-drawn from `seed`.
    pub fn redraw_hidden(
        &mut self,
        handle: Handle,
        viewer: Option<Seat>,
        seed: u64,
    ) -> Result<Handle, GameError> {
        let mut copy = self.get(handle)?.clone();
        copy.redraw_hidden(viewer, &mut GameRng::new(seed));
        Ok(self.insert(copy))
    }

    /// Searches the best action of `seat` (ABI 1.8): the game is first re-drawn for `seat`
    /// ([`crate::search::Sampled`]), so the search never reads what that seat cannot see.
    pub fn search(
        &mut self,
        handle: Handle,
        seat: Seat,
        request: &SearchRequest,
    ) -> Result<SearchAnswer, GameError> {
        let game = self.get(handle)?;
        check_turn(game, seat)?;
        let mut space = GameSpace::<G>::default();
        let root = match Sampled::draw(&mut space, game, seat, request.seed) {
            Ok(root) => root,
            Err(never) => match never {},
        };
        match search(&mut space, &root, request) {
            Ok(answer) => Ok(answer),
            Err(never) => match never {},
        }
    }

    /// The game's value for every seat, from 0 to 1 ([`Game::evaluate`], ABI 1.8).
    pub fn evaluate(&self, handle: Handle, players: u8) -> Result<Vec<f32>, GameError> {
        let game = self.get(handle)?;
        Ok((0..players)
            .map(|seat| match game.evaluate(seat) {
                v if v.is_nan() => 0.5,
                v => v.clamp(0.0, 1.0),
            })
            .collect())
    }

    /// The game behind a handle.
    pub fn get(&self, handle: Handle) -> Result<&G, GameError> {
        self.games
            .get(handle as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| unknown_handle(handle))
    }

    fn get_mut(&mut self, handle: Handle) -> Result<&mut G, GameError> {
        live_mut(&mut self.games, handle)
    }

    fn insert(&mut self, game: G) -> Handle {
        match self.free.pop() {
            Some(handle) => {
                self.games[handle as usize] = Some(game);
                handle
            }
            None => {
                self.games.push(Some(game));
                (self.games.len() - 1) as Handle
            }
        }
    }
}

fn check_turn<G: Game>(game: &G, seat: Seat) -> Result<(), GameError> {
    match game.status() {
        Status::Finished { .. } => Err(GameError::GameOver),
        Status::ToAct { seats } if !seats.contains(&seat) => Err(GameError::NotYourTurn { seat }),
        Status::ToAct { .. } => Ok(()),
    }
}

/// The live game of `handle` among `games`.
fn live_mut<G>(games: &mut [Option<G>], handle: Handle) -> Result<&mut G, GameError> {
    games
        .get_mut(handle as usize)
        .and_then(Option::as_mut)
        .ok_or_else(|| unknown_handle(handle))
}

fn unknown_handle(handle: Handle) -> GameError {
    GameError::Protocol(format!("no live game has handle {handle}"))
}
