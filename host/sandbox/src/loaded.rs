//! A loaded plugin: a [`GameEngine`] backed by a sandboxed wasm instance.

use std::sync::Arc;

use veillee_sdk::abi::{decode_version, ABI_MAJOR, ABI_MINOR};
use veillee_sdk::search::{SearchAnswer, SearchRequest};
use veillee_sdk::{
    Action, Event, GameError, Handle, Manifest, OperationCall, PlayoutResult, PlayoutStop,
    PlayoutWatch, Scene, Seat, Setup, Status,
};
use wasmtime::{Engine, InstancePre};

use super::answers::{self, Listings};
use super::fault::Fault;
use super::handles::{Handles, Stale};
use super::instance::{Live, Reply, State};
use super::{Limits, PluginError};
use veillee_engine::{EngineError, GameEngine};

/// What every instance of one loaded plugin shares (duplicates included).
struct Shared {
    name: String,
    hash: String,
    manifest: Manifest,
    abi: (u16, u16),
    engine: Engine,
    pre: InstancePre<State>,
    limits: Limits,
    from_cache: bool,
}

/// A game plugin, loaded by [`super::Runtime::load`], running in its own sandbox.
///
/// Every call has a deadline and the plugin's memory is capped (see [`Limits`]); every
/// answer is checked (its size, then against the manifest and the plugin's earlier answers:
/// seats that exist, someone to act with a move, ids that hold until the game changes). When
/// a call fails with [`EngineError::Plugin`] (trap, panic, time-out, memory cap, protocol
/// violation, an answer that does not hold), the instance is thrown away and a fresh one is started on the next call:
/// the `Plugin` stays usable, but **every game created before the failure is lost**. Their
/// handles then answer `GameError::Protocol` ("lost"); they are never reused for other
/// games until you drop them.
///
/// A `Plugin` is `Send`: to run games in parallel, give each thread its own
/// [`Plugin::duplicate`]. Call plugins from threads with at least Rust's default 2 MiB of
/// stack: a plugin may use up to 1 MiB of it before a stack-overflow trap.
pub struct Plugin {
    shared: Arc<Shared>,
    /// `None` after a failure, until the next call starts a fresh instance.
    live: Option<Live>,
    handles: Handles,
    /// The last action ids listed per game and seat (see [`answers::Listings`]).
    listings: Listings,
    drop_failure: Option<PluginError>,
    /// Instances of the same plugin kept for the bots' searches on the other cores
    /// ([`GameEngine::search_lanes`]), made on first use.
    helpers: Vec<Plugin>,
}

// The launcher moves plugins to worker threads; keep that possible.
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Plugin>();
};

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("name", &self.shared.name)
            .field("hash", &self.shared.hash)
            .field("abi", &self.shared.abi)
            .field("game", &self.shared.manifest.id)
            .field("loaded_from_cache", &self.shared.from_cache)
            .finish_non_exhaustive()
    }
}

/// A compiled and validated plugin module, ready to be started.
pub(crate) struct Compiled {
    pub(crate) name: String,
    pub(crate) hash: String,
    pub(crate) engine: Engine,
    pub(crate) pre: InstancePre<State>,
    pub(crate) limits: Limits,
    pub(crate) from_cache: bool,
}

impl Plugin {
    /// Instantiates the module, checks its ABI version and reads its manifest.
    pub(crate) fn start(compiled: Compiled) -> Result<Plugin, PluginError> {
        let Compiled {
            name,
            hash,
            engine,
            pre,
            limits,
            from_cache,
        } = compiled;
        let mut live = Live::instantiate(&engine, &pre, limits).map_err(|f| f.into_error(&name))?;
        live.begin(limits.call_seconds);

        let (major, minor) = decode_version(live.abi_version().map_err(|f| f.into_error(&name))?);
        if major != ABI_MAJOR {
            return Err(PluginError::AbiMismatch {
                plugin: name,
                found: format!("{major}.{minor}"),
                expected: format!("{ABI_MAJOR}.{ABI_MINOR}"),
                expected_major: ABI_MAJOR,
            });
        }

        let bad = |detail: String| PluginError::BadManifest {
            plugin: name.clone(),
            detail,
        };
        let manifest = match live.manifest() {
            Ok(Ok(bytes)) => serde_json::from_slice::<Manifest>(&bytes)
                .map_err(|e| bad(format!("it is not valid manifest JSON ({e})")))?,
            Ok(Err(game)) => return Err(bad(format!("veillee_manifest refused: {game}"))),
            Err(fault) => return Err(fault.into_error(&name)),
        };
        let problems = manifest.problems();
        if !problems.is_empty() {
            return Err(bad(problems.join("; ")));
        }

        let shared = Shared {
            name,
            hash,
            manifest,
            abi: (major, minor),
            engine,
            pre,
            limits,
            from_cache,
        };
        Ok(Plugin {
            shared: Arc::new(shared),
            live: Some(live),
            handles: Handles::default(),
            listings: Listings::default(),
            drop_failure: None,
            helpers: Vec::new(),
        })
    }

    /// The name the plugin was loaded under (used in every error message).
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// SHA-256 of the plugin's wasm bytes, in lowercase hex.
    pub fn hash(&self) -> &str {
        &self.shared.hash
    }

    /// The plugin's ABI version, (major, minor).
    pub fn abi_version(&self) -> (u16, u16) {
        self.shared.abi
    }

    /// Whether the compiled code came from the on-disk cache rather than a fresh compile.
    pub fn loaded_from_cache(&self) -> bool {
        self.shared.from_cache
    }

    /// Whether the plugin offers operations to variant scripts (it exports
    /// `veillee_operation`, ABI 1.1).
    pub fn has_operations(&mut self) -> bool {
        self.live()
            .map(|live| live.has_operations())
            .unwrap_or(false)
    }

    /// The limits this plugin runs under.
    pub fn limits(&self) -> Limits {
        self.shared.limits
    }

    /// A new, independent instance of the same compiled plugin (no games, no shared state):
    /// cheap, for running games on several threads.
    pub fn duplicate(&self) -> Result<Plugin, PluginError> {
        let shared = &self.shared;
        let live = Live::instantiate(&shared.engine, &shared.pre, shared.limits)
            .map_err(|f| f.into_error(&shared.name))?;
        Ok(Plugin {
            shared: Arc::clone(shared),
            live: Some(live),
            handles: Handles::default(),
            listings: Listings::default(),
            drop_failure: None,
            helpers: Vec::new(),
        })
    }

    /// [`GameEngine::search`] on a copy of a game loaded from `state`, dropped after.
    fn search_copy(
        &mut self,
        state: &[u8],
        seat: Seat,
        request: &SearchRequest,
    ) -> Result<Option<SearchAnswer>, EngineError> {
        let copy = self.load(state)?;
        let answer = self.search(copy, seat, request);
        self.drop_game(copy);
        answer
    }

    /// The failure of the last [`GameEngine::drop_game`] that failed, if not taken yet.
    /// `drop_game` cannot return an error, but its failure still restarts the plugin (losing
    /// its games), so it is kept here for whoever wants to know why.
    pub fn take_drop_failure(&mut self) -> Option<PluginError> {
        self.drop_failure.take()
    }

    /// The live instance, starting a fresh one after a failure.
    fn live(&mut self) -> Result<&mut Live, PluginError> {
        let live = match self.live.take() {
            Some(live) => live,
            None => {
                let shared = &self.shared;
                Live::instantiate(&shared.engine, &shared.pre, shared.limits)
                    .map_err(|f| f.into_error(&shared.name))?
            }
        };
        Ok(self.live.insert(live))
    }

    /// Runs one host call within `seconds`.
    fn run<T>(
        &mut self,
        seconds: f64,
        call: impl FnOnce(&mut Live) -> Reply<T>,
    ) -> Result<T, EngineError> {
        let live = self.live()?;
        live.begin(seconds);
        match call(live) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(game)) => Err(EngineError::Game(game)),
            Err(fault) => Err(self.fail(fault)),
        }
    }

    /// The plugin failed: its instance is thrown away (after a trap it may be inconsistent
    /// — a half-updated allocator or game table, a RefCell left borrowed — and after a
    /// wrong answer its games cannot be trusted), with every game in it.
    fn fail(&mut self, fault: Fault) -> EngineError {
        self.live = None;
        self.handles.restart();
        self.listings.clear();
        EngineError::Plugin(fault.into_error(&self.shared.name))
    }

    /// An answer that does not hold: a protocol violation of `export`.
    fn violation(&mut self, export: &'static str, detail: String) -> EngineError {
        self.fail(Fault::Protocol { export, detail })
    }

    fn ordinary<T>(&mut self, call: impl FnOnce(&mut Live) -> Reply<T>) -> Result<T, EngineError> {
        self.run(self.shared.limits.call_seconds, call)
    }

    /// The plugin's handle for a caller's handle.
    fn guest(&self, game: Handle) -> Result<Handle, EngineError> {
        self.game(game).map(|(guest, _)| guest)
    }

    /// The plugin's handle for a caller's handle, and the game's number of seats.
    fn game(&self, game: Handle) -> Result<(Handle, u8), EngineError> {
        self.handles.game(game).map_err(|stale| {
            EngineError::Game(GameError::Protocol(match stale {
                Stale::Unknown => format!("no live game has handle {game}"),
                Stale::Lost => format!(
                    "game {game} was lost when plugin {} was restarted after a failure",
                    self.shared.name
                ),
            }))
        })
    }
}

impl GameEngine for Plugin {
    fn manifest(&self) -> &Manifest {
        &self.shared.manifest
    }

    fn content_hash(&self) -> String {
        self.hash().to_string()
    }

    fn create(&mut self, setup: &Setup) -> Result<Handle, EngineError> {
        let json = serde_json::to_vec(setup).map_err(|e| GameError::InvalidSetup(e.to_string()))?;
        let guest = self.ordinary(|live| live.new_game(&json))?;
        Ok(self.handles.insert(guest, setup.players))
    }

    fn load(&mut self, state: &[u8]) -> Result<Handle, EngineError> {
        let guest = self.ordinary(|live| live.load(state))?;
        // How many seats a saved game has is the plugin's to know: check against the most.
        Ok(self.handles.insert(guest, self.shared.manifest.max_players))
    }

    fn save(&mut self, game: Handle) -> Result<Vec<u8>, EngineError> {
        let game = self.guest(game)?;
        self.ordinary(|live| live.save(game))
    }

    fn clone_game(&mut self, game: Handle) -> Result<Handle, EngineError> {
        let (game, players) = self.game(game)?;
        let copy = self.ordinary(|live| live.clone_game(game))?;
        Ok(self.handles.insert(copy, players))
    }

    fn drop_game(&mut self, game: Handle) {
        self.listings.changed(game);
        // Games lost in a restart are only forgotten: the current instance never had them.
        let Some(game) = self.handles.remove(game) else {
            return;
        };
        if let Err(EngineError::Plugin(failure)) =
            self.ordinary(|live| live.drop_game(game).map(Ok))
        {
            self.drop_failure = Some(failure);
        }
    }

    fn status(&mut self, game: Handle) -> Result<Status, EngineError> {
        let (game, players) = self.game(game)?;
        self.ordinary(|live| {
            checked("veillee_status", live.status(game), |status| {
                answers::check_status(status, players)
            })
        })
    }

    fn legal_actions(&mut self, game: Handle, seat: Seat) -> Result<Vec<Action>, EngineError> {
        let (guest, players) = self.game(game)?;
        let actions = self.ordinary(|live| {
            checked(
                "veillee_legal_actions",
                live.legal_actions(guest, seat),
                |actions| answers::check_actions(seat, actions),
            )
        })?;
        // A seat to act must have a move; asked only when the list is empty (rare).
        if actions.is_empty() && seat < players && self.status(game)?.seats().contains(&seat) {
            return Err(self.violation(
                "veillee_legal_actions",
                format!("listed no action for seat {seat}, which its status says is to act: the game is stuck"),
            ));
        }
        if let Err(detail) = self.listings.listed(game, seat, &actions) {
            return Err(self.violation("veillee_legal_actions", detail));
        }
        // Texts are bounded where they enter the launcher, whatever path shows them.
        Ok(actions.into_iter().map(Action::clipped).collect())
    }

    fn apply(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
    ) -> Result<Vec<Event>, EngineError> {
        let guest = self.guest(game)?;
        match self.ordinary(|live| live.apply(guest, seat, action_id)) {
            Err(EngineError::Game(GameError::IllegalAction { .. }))
                if self.listings.was_listed(game, seat, action_id) =>
            {
                Err(self.violation(
                    "veillee_apply",
                    format!(
                        "refused `{}` as illegal for seat {seat}, though it listed it as legal with no move in between",
                        action_id.escape_debug()
                    ),
                ))
            }
            Ok(events) if events.len() > veillee_sdk::MAX_EVENTS_PER_MOVE => Err(self.violation(
                "veillee_apply",
                format!(
                    "told {} events for one move (at most {})",
                    events.len(),
                    veillee_sdk::MAX_EVENTS_PER_MOVE
                ),
            )),
            Ok(events) => {
                self.listings.changed(game);
                Ok(events.into_iter().map(Event::clipped).collect())
            }
            refused => refused,
        }
    }

    fn action_count(&mut self, game: Handle, seat: Seat) -> Result<u32, EngineError> {
        let (guest, players) = self.game(game)?;
        let count = self.ordinary(|live| live.action_count(guest, seat))?;
        if count == 0 && seat < players && self.status(game)?.seats().contains(&seat) {
            return Err(self.violation(
                "veillee_action_count",
                format!("counted no action for seat {seat}, which its status says is to act: the game is stuck"),
            ));
        }
        Ok(count)
    }

    fn apply_index(&mut self, game: Handle, seat: Seat, index: u32) -> Result<(), EngineError> {
        let guest = self.guest(game)?;
        self.ordinary(|live| live.apply_index(guest, seat, index))?;
        self.listings.changed(game);
        Ok(())
    }

    fn view(&mut self, game: Handle, viewer: Option<Seat>) -> Result<Scene, EngineError> {
        let game = self.guest(game)?;
        self.ordinary(|live| live.view(game, viewer))
    }

    fn playout(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<PlayoutResult, EngineError> {
        let (guest, players) = self.game(game)?;
        self.listings.changed(game);
        self.run(self.shared.limits.playout_seconds, |live| {
            checked(
                live.playout_export(),
                live.playout(guest, seed, max_moves),
                |result| {
                    result
                        .outcome
                        .as_ref()
                        .map_or(Ok(()), |outcome| answers::check_outcome(outcome, players))
                },
            )
        })
    }

    fn playout_until(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
        watch: &PlayoutWatch,
    ) -> Result<Option<PlayoutStop>, EngineError> {
        let (guest, players) = self.game(game)?;
        let json = serde_json::to_vec(watch).map_err(|e| GameError::Protocol(e.to_string()))?;
        self.listings.changed(game);
        self.run(self.shared.limits.playout_seconds, |live| {
            checked(
                "veillee_playout_until",
                live.playout_until(guest, seed, max_moves, &json),
                |stop| match stop {
                    None => Ok(()),
                    Some(stop) => answers::check_playout_stop(stop, players, max_moves),
                },
            )
        })
    }

    fn search(
        &mut self,
        game: Handle,
        seat: Seat,
        request: &SearchRequest,
    ) -> Result<Option<SearchAnswer>, EngineError> {
        let guest = self.guest(game)?;
        let json = serde_json::to_vec(request).map_err(|e| GameError::Protocol(e.to_string()))?;
        let seconds = self.shared.limits.search_seconds;
        let Some(answer) = self.run(seconds, |live| live.search(guest, seat, &json))? else {
            return Ok(None);
        };
        let legal = self.legal_actions(game, seat)?;
        if let Err(detail) = answers::check_search_answer(&answer, &legal, &request.exclude) {
            return Err(self.violation("veillee_search", detail));
        }
        Ok(Some(answer))
    }

    /// The first request on this instance, each other one on a helper instance of its own
    /// on its own thread, with a copy of the game loaded from its saved state: the same
    /// answers as one after the other, in the time of the longest.
    fn search_lanes(
        &mut self,
        game: Handle,
        seat: Seat,
        requests: &[SearchRequest],
    ) -> Result<Option<Vec<SearchAnswer>>, EngineError> {
        let Some((first, others)) = requests.split_first() else {
            return Ok(Some(Vec::new()));
        };
        if others.is_empty() {
            return Ok(self.search(game, seat, first)?.map(|answer| vec![answer]));
        }
        let state = self.save(game)?;
        let mut helpers = std::mem::take(&mut self.helpers);
        while helpers.len() < others.len() {
            helpers.push(self.duplicate()?);
        }
        let (own, theirs) = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .zip(others)
                .map(|(helper, request)| {
                    let state = &state;
                    scope.spawn(move || helper.search_copy(state, seat, request))
                })
                .collect();
            let own = self.search(game, seat, first);
            let theirs: Vec<_> = running.into_iter().map(|lane| lane.join()).collect();
            (own, theirs)
        });
        self.helpers = helpers;
        let Some(own) = own? else {
            return Ok(None);
        };
        let mut answers = vec![own];
        for lane in theirs {
            // A panic there is the host's, not the plugin's: it goes on as on this thread.
            let answer = lane.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            match answer {
                Some(answer) => answers.push(answer),
                None => return Ok(None),
            }
        }
        Ok(Some(answers))
    }

    fn evaluate(&mut self, game: Handle, players: u8) -> Result<Option<Vec<f32>>, EngineError> {
        let guest = self.guest(game)?;
        self.ordinary(|live| {
            checked(
                "veillee_evaluate",
                live.evaluate(guest, players),
                |values| {
                    values
                        .as_ref()
                        .map_or(Ok(()), |values| answers::check_values(values, players))
                },
            )
        })
    }

    fn operation(
        &mut self,
        game: Handle,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, EngineError> {
        let guest = self.guest(game)?;
        let call = OperationCall {
            name: name.to_string(),
            args: args.clone(),
        };
        let json = serde_json::to_vec(&call).map_err(|e| GameError::Protocol(e.to_string()))?;
        // A command may change the game.
        self.listings.changed(game);
        self.ordinary(|live| live.operation(guest, &json))
    }

    fn redraw_hidden(
        &mut self,
        game: Handle,
        viewer: Option<Seat>,
        seed: u64,
    ) -> Result<Handle, EngineError> {
        let (game, players) = self.game(game)?;
        let copy = self.ordinary(|live| live.redraw_hidden(game, viewer, seed))?;
        Ok(self.handles.insert(copy, players))
    }
}

/// `reply`, unless its value fails `check`: then a protocol fault of `export`.
fn checked<T>(
    export: &'static str,
    reply: Reply<T>,
    check: impl FnOnce(&T) -> Result<(), String>,
) -> Reply<T> {
    match reply {
        Ok(Ok(value)) => match check(&value) {
            Ok(()) => Ok(Ok(value)),
            Err(detail) => Err(Fault::Protocol { export, detail }),
        },
        other => other,
    }
}
