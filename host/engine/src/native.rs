//! A game crate linked into the host natively.

use veillee_sdk::search::{SearchAnswer, SearchRequest};
use veillee_sdk::{
    Action, Event, Game, GameTable, Handle, Manifest, OperationCall, PlayoutResult, PlayoutStop,
    PlayoutWatch, Scene, Seat, Setup, Status,
};

use crate::{EngineError, GameEngine};

/// A game crate linked into the host natively: the reference for the conformance kit and the
/// benchmark baseline. Runs the very same [`GameTable`] code as the wasm build.
pub struct NativeEngine<G: Game> {
    manifest: Manifest,
    table: GameTable<G>,
}

impl<G: Game> Default for NativeEngine<G> {
    fn default() -> Self {
        NativeEngine {
            manifest: G::manifest(),
            table: GameTable::default(),
        }
    }
}

impl<G: Game> GameEngine for NativeEngine<G> {
    fn manifest(&self) -> &Manifest {
        &self.manifest
    }
    fn content_hash(&self) -> String {
        format!("native:{}@{}", self.manifest.id, self.manifest.version)
    }
    fn create(&mut self, setup: &Setup) -> Result<Handle, EngineError> {
        Ok(self.table.create(setup)?)
    }
    fn load(&mut self, state: &[u8]) -> Result<Handle, EngineError> {
        Ok(self.table.load(state)?)
    }
    fn save(&mut self, game: Handle) -> Result<Vec<u8>, EngineError> {
        Ok(self.table.save(game)?)
    }
    fn clone_game(&mut self, game: Handle) -> Result<Handle, EngineError> {
        Ok(self.table.clone_game(game)?)
    }
    fn drop_game(&mut self, game: Handle) {
        self.table.drop_game(game)
    }
    fn status(&mut self, game: Handle) -> Result<Status, EngineError> {
        Ok(self.table.status(game)?)
    }
    fn legal_actions(&mut self, game: Handle, seat: Seat) -> Result<Vec<Action>, EngineError> {
        Ok(self.table.legal_actions(game, seat)?)
    }
    fn apply(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
    ) -> Result<Vec<Event>, EngineError> {
        Ok(self.table.apply(game, seat, action_id)?)
    }
    fn action_count(&mut self, game: Handle, seat: Seat) -> Result<u32, EngineError> {
        Ok(self.table.action_count(game, seat)?)
    }
    fn apply_index(&mut self, game: Handle, seat: Seat, index: u32) -> Result<(), EngineError> {
        Ok(self.table.apply_index(game, seat, index)?)
    }
    fn view(&mut self, game: Handle, viewer: Option<Seat>) -> Result<Scene, EngineError> {
        Ok(self.table.view(game, viewer)?)
    }
    fn playout(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<PlayoutResult, EngineError> {
        Ok(self.table.playout(game, seed, max_moves)?)
    }
    fn search(
        &mut self,
        game: Handle,
        seat: Seat,
        request: &SearchRequest,
    ) -> Result<Option<SearchAnswer>, EngineError> {
        Ok(Some(self.table.search(game, seat, request)?))
    }
    fn evaluate(&mut self, game: Handle, players: u8) -> Result<Option<Vec<f32>>, EngineError> {
        Ok(Some(self.table.evaluate(game, players)?))
    }
    fn playout_until(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
        watch: &PlayoutWatch,
    ) -> Result<Option<PlayoutStop>, EngineError> {
        Ok(Some(
            self.table.playout_until(game, seed, max_moves, watch)?,
        ))
    }
    fn redraw_hidden(
        &mut self,
        game: Handle,
        viewer: Option<Seat>,
        seed: u64,
    ) -> Result<Handle, EngineError> {
        Ok(self.table.redraw_hidden(game, viewer, seed)?)
    }
    fn operation(
        &mut self,
        game: Handle,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, EngineError> {
        let call = OperationCall {
            name: name.to_string(),
            args: args.clone(),
        };
        Ok(self.table.operation(game, &call)?)
    }
}
