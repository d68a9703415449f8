//! `veillee-engine`: the one interface over every way of running a game — a sandboxed wasm
//! plugin (`veillee-sandbox`), a native build of the same crate ([`NativeEngine`]), or either
//! wrapped with house rules (`veillee-variants`). Everything above (sessions, the conformance
//! kit, simulations, the CLI, the launcher window) talks to games only through [`GameEngine`].
//!
//! **Invariant: this crate knows no runtime (no wasmtime, no Lua, no disk); it is the contract
//! between the crates that run games and the crates that use them.**
//!
//! `search` is the bots' search through an engine's handles (`EngineSpace`,
//! `search_through`): the SDK's search with every move going through [`GameEngine::apply`],
//! hooks included, every playout the engine's own (a `VariantEngine` plays inside the plugin
//! between the moves its scripts watch), values from `veillee_evaluate`. It is what runs when
//! a script concerns the game's actions, so that the search plays the game with its rules in
//! force (Castel's cards, a house rule's added or refused moves).

#![deny(missing_docs)]

mod native;
mod plugin_error;
pub mod search;

pub use native::NativeEngine;
pub use plugin_error::PluginError;

use veillee_sdk::search::{SearchAnswer, SearchRequest};
use veillee_sdk::{
    Action, Event, GameError, Handle, Manifest, PlayoutResult, PlayoutStop, PlayoutWatch, Scene,
    Seat, Setup, Status, Text,
};

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
    /// Plays the game out at random in place, in one call, stopping before the actions
    /// `watch` names (house rules' hooks run on those: the caller plays that move itself).
    /// `Ok(None)`: this engine cannot (a plugin of ABI < 1.7), play move by move instead.
    fn playout_until(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
        watch: &PlayoutWatch,
    ) -> Result<Option<PlayoutStop>, EngineError> {
        let _ = (game, seed, max_moves, watch);
        Ok(None)
    }
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
    /// Why this game stopped at a bound on its scripts (a question too many in one move, a
    /// game kept going too long), if it did: its status is then finished, with no winner and
    /// this reason. Only an engine running scripts stops a game.
    fn stopped(&self, game: Handle) -> Option<Text> {
        let _ = game;
        None
    }
    /// Searches `seat`'s action inside the game (ABI 1.8 `veillee_search`: the in-guest
    /// information-set search, which re-draws what `seat` cannot see before it starts).
    /// `Ok(None)`: this engine cannot — a plugin older than 1.8, or scripts that change what
    /// moves do — and the caller searches through the engine instead ([`search`]).
    fn search(
        &mut self,
        game: Handle,
        seat: Seat,
        request: &SearchRequest,
    ) -> Result<Option<SearchAnswer>, EngineError> {
        let _ = (game, seat, request);
        Ok(None)
    }
    /// Several searches of `seat` in `game`, one per request (each with its own seed): what
    /// a bot runs on every core. The answers are those of [`GameEngine::search`] for each
    /// request in turn, in the requests' order — an engine that runs them side by side
    /// changes the time taken, never an answer. `Ok(None)`: the engine has no search inside.
    fn search_lanes(
        &mut self,
        game: Handle,
        seat: Seat,
        requests: &[SearchRequest],
    ) -> Result<Option<Vec<SearchAnswer>>, EngineError> {
        let mut answers = Vec::with_capacity(requests.len());
        for request in requests {
            match self.search(game, seat, request)? {
                Some(answer) => answers.push(answer),
                None => return Ok(None),
            }
        }
        Ok(Some(answers))
    }
    /// The game's own evaluation for each of the `players` seats, each in `[0, 1]`
    /// (ABI 1.8 `veillee_evaluate`, `Game::evaluate`). `Ok(None)`: the engine has none.
    fn evaluate(&mut self, game: Handle, players: u8) -> Result<Option<Vec<f32>>, EngineError> {
        let _ = (game, players);
        Ok(None)
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
