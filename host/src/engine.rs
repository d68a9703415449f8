//! One interface over every way of running a game: a sandboxed wasm plugin or a native
//! build of the same crate. Everything above this module (CLI, conformance kit, sessions,
//! the launcher window) talks to games only through [`GameEngine`].

use veillee_sdk::{
    Action, Event, Game, GameError, GameTable, Handle, Manifest, OperationCall, PlayoutResult,
    Scene, Seat, Setup, Status,
};

use crate::plugin::PluginError;

/// Why an engine call failed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The game refused the request (illegal action, bad set-up…). The game goes on.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The plugin misbehaved (trap, panic, time-out, memory cap, protocol violation).
    /// Its live games are lost; the plugin itself can be used again.
    #[error(transparent)]
    Plugin(#[from] PluginError),
}

/// Live games of one game type, addressed by [`Handle`]. Mirrors the plugin ABI
/// (see `veillee_sdk::abi`).
pub trait GameEngine {
    /// The game's manifest.
    fn manifest(&self) -> &Manifest;
    /// What identifies this build of the game: a wasm plugin's SHA-256, or
    /// `native:<id>@<version>`. Sessions record it to notice a changed plugin.
    fn content_hash(&self) -> String;
    /// Creates a game; the set-up is checked against the manifest.
    fn create(&mut self, setup: &Setup) -> Result<Handle, EngineError>;
    /// Restores a game from [`GameEngine::save`]'s bytes.
    fn load(&mut self, state: &[u8]) -> Result<Handle, EngineError>;
    /// The game's state as bytes.
    fn save(&mut self, game: Handle) -> Result<Vec<u8>, EngineError>;
    /// An independent copy.
    fn clone_game(&mut self, game: Handle) -> Result<Handle, EngineError>;
    /// Forgets a game.
    fn drop_game(&mut self, game: Handle);
    /// Whose turn it is, or the outcome.
    fn status(&mut self, game: Handle) -> Result<Status, EngineError>;
    /// The legal actions of `seat`.
    fn legal_actions(&mut self, game: Handle, seat: Seat) -> Result<Vec<Action>, EngineError>;
    /// Plays an action by id.
    fn apply(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
    ) -> Result<Vec<Event>, EngineError>;
    /// Number of legal actions of `seat` (fast path).
    fn action_count(&mut self, game: Handle, seat: Seat) -> Result<u32, EngineError>;
    /// Plays legal action number `index` of `seat` (fast path, no strings).
    fn apply_index(&mut self, game: Handle, seat: Seat, index: u32) -> Result<(), EngineError>;
    /// What `viewer` sees (`None`: a spectator).
    fn view(&mut self, game: Handle, viewer: Option<Seat>) -> Result<Scene, EngineError>;
    /// Plays the game out at random in place, in one call.
    fn playout(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<PlayoutResult, EngineError>;
    /// A copy with everything `viewer` cannot see re-drawn from `seed`.
    fn redraw_hidden(
        &mut self,
        game: Handle,
        viewer: Option<Seat>,
        seed: u64,
    ) -> Result<Handle, EngineError>;
    /// Tells the game that `seat`'s turn ended after `elapsed_ms` on the host's turn timer.
    /// Games ignore it; house rules react to it (`on_turn_end`). The value is part of the
    /// history: sessions log it and replays report it again at the same point.
    fn end_turn(
        &mut self,
        game: Handle,
        seat: Seat,
        elapsed_ms: u64,
    ) -> Result<Vec<Event>, EngineError> {
        let _ = (game, seat, elapsed_ms);
        Ok(Vec::new())
    }
    /// The scripts switched off in this game after a failure, with the message naming the
    /// file, line and reason. Only an engine running scripts has any.
    fn failed_scripts(&self, game: Handle) -> Vec<String> {
        let _ = game;
        Vec::new()
    }
    /// Runs an operation the game declares in [`Manifest::operations`] (for variant
    /// scripts): a query reads the game, a command changes it. Arguments and answer are
    /// JSON values. Unknown names are refused with [`GameError::Operation`].
    fn operation(
        &mut self,
        game: Handle,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, EngineError>;
}

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
