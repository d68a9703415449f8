//! The host's back end of the bots' search: the SDK's information-set search
//! ([`veillee_sdk::search`]) over an engine's handles, so that a game whose scripts change what
//! moves do (Castel's cards, house rules) is searched with those scripts in force — every move
//! of the tree goes through [`GameEngine::apply`], hooks included, and playouts through
//! [`GameEngine::playout`], which a `VariantEngine` plays inside the plugin between the moves
//! its scripts watch. Values come from the plugin's `Game::evaluate` (ABI 1.8) or, for an older
//! plugin, from the status alone. Moves a bot does not choose ([`veillee_sdk::Action::bots_avoid`],
//! ABI 1.12) are left out at every node, as in the plugin's own search.

use veillee_sdk::search::{
    self, move_key, status_value, MoveKey, Played, Sampled, SearchAnswer, SearchRequest,
    SearchSpace,
};
use veillee_sdk::{GameError, Handle, Seat, Status};

use crate::{EngineError, GameEngine};

/// The search space of an engine: states are handles, moves action ids.
pub struct EngineSpace<'a> {
    engine: &'a mut dyn GameEngine,
    players: u8,
}

impl<'a> EngineSpace<'a> {
    /// The space of `engine`'s games of `players` players.
    pub fn new(engine: &'a mut dyn GameEngine, players: u8) -> Self {
        EngineSpace { engine, players }
    }
}

impl SearchSpace for EngineSpace<'_> {
    type State = Handle;
    type Move = String;
    type Error = EngineError;

    fn redraw(&mut self, state: &Handle, observer: Seat, seed: u64) -> Result<Handle, EngineError> {
        self.engine.redraw_hidden(*state, Some(observer), seed)
    }

    fn release(&mut self, state: Handle) {
        self.engine.drop_game(state);
    }

    fn status(&mut self, state: &Handle) -> Result<Status, EngineError> {
        self.engine.status(*state)
    }

    fn moves(
        &mut self,
        state: &Handle,
        seat: Seat,
        out: &mut Vec<(MoveKey, String)>,
    ) -> Result<(), EngineError> {
        let actions = self.engine.legal_actions(*state, seat)?;
        // The actions a bot does not choose (ABI 1.12) are left out, unless that would leave
        // nothing.
        let avoid = actions.iter().any(|a| a.bots_avoid) && actions.iter().any(|a| !a.bots_avoid);
        out.clear();
        out.extend(
            actions
                .into_iter()
                .filter(|action| !(avoid && action.bots_avoid))
                .map(|action| (move_key(&action.id), action.id)),
        );
        Ok(())
    }

    fn play(&mut self, state: &mut Handle, seat: Seat, mv: &String) -> Result<Played, EngineError> {
        match self.engine.apply(*state, seat, mv) {
            Ok(_) => Ok(Played::Done),
            Err(EngineError::Game(GameError::Refused { .. })) => Ok(Played::Refused),
            Err(e) => Err(e),
        }
    }

    fn playout(
        &mut self,
        state: &mut Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<(), EngineError> {
        if max_moves > 0 {
            self.engine.playout(*state, seed, max_moves)?;
        }
        Ok(())
    }

    fn evaluate(&mut self, state: &Handle, values: &mut [f32]) -> Result<(), EngineError> {
        match self.engine.evaluate(*state, self.players)? {
            Some(found) if found.len() == values.len() => values.copy_from_slice(&found),
            _ => {
                let status = self.engine.status(*state)?;
                for (seat, value) in values.iter_mut().enumerate() {
                    *value = status_value(&status, seat as Seat);
                }
            }
        }
        Ok(())
    }

    fn action_id(&mut self, _: &Handle, _: Seat, mv: &String) -> Result<String, EngineError> {
        Ok(mv.clone())
    }
}

/// Searches `seat`'s action in `game` through the engine: the game is first re-drawn for
/// `seat` (the search only ever holds that copy and copies of it), then searched, then the
/// copy is dropped.
pub fn search_through(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    request: &SearchRequest,
) -> Result<SearchAnswer, EngineError> {
    let mut space = EngineSpace::new(engine, request.players);
    let root = Sampled::draw(&mut space, &game, seat, request.seed)?;
    let answer = search::search(&mut space, &root, request);
    space.release(root.into_state());
    answer
}
