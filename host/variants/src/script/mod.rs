//! One variant script: its text, its metadata, and the sandboxed Luau state that runs it.
//!
//! A script's Lua state holds only its code: everything a game needs between two hook calls
//! (`ctx.state`, the random generator, pending choices) lives in the variant engine's
//! per-game data and is passed in and out at every call, so games stay plain data.
//!
//! **A house rule keeps nothing between two calls but `ctx.state`.** Each call of one of its
//! hooks runs the script's body again, in an environment of its own, so a local table at the
//! top of the file or a global it sets is new at every call. Memory kept elsewhere would be
//! lost on resume (a game would not replay) and, in a game with hidden information, would be
//! a way around what a house rule may read (below). A game's own script (`part_of_game`,
//! shipped with Veillée and checked with its game) keeps its loaded body: Castel's cards
//! table is built once.
//!
//! **A house rule reads a game with hidden information as a spectator does**
//! ([`Script::reads_as_spectator`]): its queries are answered, and its commands' answers given,
//! on a copy of the game whose hidden part is re-drawn for the spectator; the action and
//! events its hooks receive carry only their public texts. So whatever it shows — in an
//! event, a question, a label — can tell nobody a secret: it never knew one. A rule whose
//! effect needs a secret (a card from a hand) is a command of the game, which does it inside
//! the plugin (Castel's `draw_card`).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaSerdeExt, MultiValue, Table, Value};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use veillee_sdk::{Event, Handle, Manifest, OperationKind, Outcome, Seat, Text};

use crate::{VariantError, VariantLimits};
use veillee_engine::{EngineError, GameEngine};

mod ctx;
mod info;
mod meter;
mod sandbox;
mod state;

pub use ctx::printable;
use ctx::{choose, choose_all, operation, to_text};
use info::{describe_error, first_line, read_info};
use meter::Meter;
use sandbox::{random_in, sandbox, CallRng};

pub use sandbox::Rng;

/// The hooks a script may define, in the order the guide lists them.
pub const HOOKS: &[&str] = &[
    "setup",
    "add_actions",
    "play_action",
    "filter_actions",
    "before_action",
    "after_action",
    "on_turn_start",
    "on_turn_end",
    "view",
];

/// What a script says about itself (its table's fields), for lists and set-up screens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptInfo {
    /// Stable id: `a`–`z`, `0`–`9` and `-`.
    pub id: String,
    /// Its name.
    pub name: Text,
    /// What it does, in a sentence or two.
    pub description: Text,
    /// The game it is for (a game id).
    pub game: String,
    /// The script's own version.
    pub version: String,
    /// Whether it refuses to be combined with another exclusive script.
    pub exclusive: bool,
    /// Whether it is part of the game itself (Castel's cards): loaded with every game of
    /// `game`, before any house rule, and not offered as a choice.
    pub part_of_game: bool,
    /// The "rules diff": a short list of what changes, for set-up screens.
    pub changes: Vec<Text>,
    /// The action ids its action hooks concern (`actions = {"take-*", "end-turn"}`, `*` for
    /// any text): `filter_actions` runs only when a listed action matches, `before_action` and
    /// `after_action` only for a matching action. Empty: every action. The host plays the
    /// other moves without calling the script (inside the plugin in simulations).
    #[serde(default)]
    pub actions: Vec<String>,
    /// The seats whose actions its action hooks concern (`seats = {1}`): the listing hooks
    /// run only for those seats' lists, `before_action` / `after_action` only around their
    /// moves. Empty: every seat.
    #[serde(default)]
    pub seats: Vec<Seat>,
    /// The most actions one `add_actions` call adds (`max_added = 4`): random playouts then
    /// ask the hook only for a share of the turns (see [`veillee_sdk::WatchOn::Added`]); more
    /// is an error that switches the script off.
    #[serde(default)]
    pub max_added: Option<u32>,
    /// When `after_action` runs (`after_when = {query = "soldiers_lost", changed = true}` or
    /// `{query = "last_die_face", equals = "ring"}`): only after a move that changes that
    /// query's answer, or after which it equals the value. `None`: after every move it
    /// concerns.
    #[serde(default)]
    pub after_when: Option<veillee_sdk::MoveCondition>,
    /// The hooks it defines, in [`HOOKS`] order.
    pub hooks: Vec<String>,
}

/// A script loaded into its own sandbox.
pub struct Script {
    info: ScriptInfo,
    /// The name used in messages (`renforts.lua`).
    file: String,
    text: String,
    hash: String,
    lua: Lua,
    module: Table,
    /// For a house rule, its compiled body and the environment each call's body runs in
    /// (see the module's documentation); `None` for a game's own script.
    body: Option<Body>,
    meter: Rc<Meter>,
    limits: VariantLimits,
    /// Per hook, in [`HOOKS`] order: how often it ran, and how often it changed something.
    counts: [(Cell<u64>, Cell<u64>); HOOKS.len()],
    /// [`CTX_BUILDER`], loaded once.
    ctx_builder: Function,
    /// Per hook, in [`HOOKS`] order: how many arguments after `ctx` its function declares
    /// (`usize::MAX` for a function with `...`). Only those are built: a hook that does not
    /// name an argument cannot read it, so `after_action = function(ctx, seat)` costs no
    /// action table and no events.
    arity: [usize; HOOKS.len()],
}

/// A house rule's body, run again at every call so that it keeps no memory between calls.
struct Body {
    chunk: Function,
    /// The metatable of every call's environment: reads fall through to the sandbox's
    /// read-only libraries, never to what an earlier call wrote.
    environment: Table,
}

impl Body {
    fn new(lua: &Lua, chunk: Function) -> mlua::Result<Body> {
        // The sandbox gives the main thread a writable table of globals over the read-only
        // libraries: a call's environment reads the libraries themselves, so that nothing
        // the body wrote when it was loaded is shared either.
        let globals = lua.globals();
        let libraries = match globals.metatable().map(|m| m.raw_get::<Value>("__index")) {
            Some(Ok(Value::Table(libraries))) => libraries,
            _ => globals,
        };
        let environment = lua.create_table()?;
        environment.raw_set("__index", libraries)?;
        Ok(Body { chunk, environment })
    }

    /// The script's table, made anew in an environment of its own.
    fn fresh_module(&self, lua: &Lua) -> mlua::Result<Table> {
        let environment = lua.create_table()?;
        environment.set_metatable(Some(self.environment.clone()))?;
        self.chunk.set_environment(environment)?;
        match self.chunk.call(())? {
            Value::Table(module) => Ok(module),
            other => Err(mlua::Error::runtime(format!(
                "the script must `return` a table (it returned {})",
                other.type_name()
            ))),
        }
    }
}

/// How often one hook of a script ran, and how often it changed something (see
/// [`Script::hook_counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HookCount {
    /// The hook's name.
    pub hook: &'static str,
    /// Calls.
    pub runs: u64,
    /// Calls that changed something: a command, an event, `ctx.state` or a random draw
    /// (`setup`, `after_action`, …), a refusal (`before_action`), an action added
    /// (`add_actions`), a list that is not the one given (`filter_actions`), a scene that is
    /// not the game's (`view`).
    pub changed: u64,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("id", &self.info.id)
            .field("file", &self.file)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

/// The SHA-256 of a script's text, in lowercase hex.
pub fn text_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a hook may do besides reading its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Powers {
    /// Queries only; `ctx.state` is a copy; no random, no choice, no command, no event
    /// (`filter_actions`, `view`).
    Read,
    /// Everything but commands (`before_action`: it may still refuse the action).
    NoCommands,
    /// Everything.
    Full,
}

/// A player's decision asked by `ctx.choose`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceRequest {
    /// Who decides.
    pub seat: Seat,
    /// The options, in order (answers are 0-based indexes into it).
    pub options: Vec<Text>,
    /// The question.
    pub prompt: Text,
}

/// One argument of a hook (after `ctx`), turned into Lua straight from its Rust value: a
/// listing or an action is not first rebuilt as JSON.
#[derive(Clone, Copy, Debug)]
pub enum HookArg<'a> {
    /// A seat, or `nil` (a spectator's view).
    Seat(Option<Seat>),
    /// A number (`on_turn_end`'s seconds).
    Number(f64),
    /// An action `{ id, label, path, … }`.
    Action(&'a veillee_sdk::Action),
    /// A list of actions.
    Actions(&'a [veillee_sdk::Action]),
    /// A list of events.
    Events(&'a [Event]),
    /// A scene.
    Scene(&'a veillee_sdk::Scene),
}

impl HookArg<'_> {
    /// The argument in Lua. `public`: a played action and its events as the whole table
    /// reads them, without their private texts (for a script that reads as a spectator; a
    /// listing of a seat's own actions keeps them, since what a listing hook returns goes
    /// to that seat alone).
    fn to_lua(
        self,
        lua: &Lua,
        ser: mlua::serde::SerializeOptions,
        public: bool,
    ) -> mlua::Result<Value> {
        match self {
            HookArg::Seat(seat) => lua.to_value_with(&seat, ser),
            HookArg::Number(n) => Ok(Value::Number(n)),
            HookArg::Action(action) if public && action.private.is_some() => {
                let mut action = action.clone();
                action.private = None;
                lua.to_value_with(&action, ser)
            }
            HookArg::Action(action) => lua.to_value_with(action, ser),
            HookArg::Actions(actions) => lua.to_value_with(actions, ser),
            HookArg::Events(events) if public && events.iter().any(|e| e.private.is_some()) => {
                let events: Vec<Event> = events
                    .iter()
                    .map(|e| Event {
                        private: None,
                        ..e.clone()
                    })
                    .collect();
                lua.to_value_with(&events, ser)
            }
            HookArg::Events(events) => lua.to_value_with(events, ser),
            HookArg::Scene(scene) => lua.to_value_with(scene, ser),
        }
    }
}

/// The game a hook call reaches through `ctx.game`.
pub struct GameAccess<'a> {
    /// The base engine.
    pub engine: &'a mut dyn GameEngine,
    /// The base game.
    pub base: Handle,
    /// Player count (`ctx.players`).
    pub players: u8,
}

/// How a hook call ended.
pub enum HookResult {
    /// It returned: its return values (as JSON), its new `ctx.state`, generator and events,
    /// and the copy of the game its commands were applied to, if any (the caller swaps it
    /// in).
    Done {
        /// The hook's return values.
        returned: Vec<serde_json::Value>,
        /// `ctx.state` after the call.
        data: serde_json::Value,
        /// The generator after the call.
        rng: Rng,
        /// Events added with `ctx.event`.
        events: Vec<Event>,
        /// The game with the hook's commands applied (`None`: no command was issued).
        scratch: Option<Handle>,
        /// The outcome it ended the game with (`ctx.game.end_game`), if it did.
        ended: Option<Outcome>,
    },
    /// It asked for a choice not answered yet: nothing it did counts. One request for
    /// `ctx.choose`, one per seat asked for `ctx.choose_all` (all to be answered at once).
    Pending(Vec<ChoiceRequest>),
    /// It failed (error, budget, memory): the message names the file and line.
    Failed(String),
}

/// The operations `ctx`'s functions ask of the host (see [`CTX_BUILDER`]).
const HOST_QUERY: i64 = 1;
const HOST_COMMAND: i64 = 2;
const HOST_PASS_TURN: i64 = 3;
const HOST_STATUS: i64 = 4;
const HOST_RANDOM: i64 = 5;
const HOST_CHOOSE: i64 = 6;
const HOST_CHOOSE_ALL: i64 = 7;
const HOST_EVENT: i64 = 8;
const HOST_END_GAME: i64 = 9;

/// Builds a hook call's `ctx` from the call's one host function: plain Lua closures, cheap
/// to make, each naming its operation by number.
const CTX_BUILDER: &str = r#"
return function(host, id, players, state)
  return {
    game = {
      id = id,
      players = players,
      query = function(name, args) return host(1, name, args) end,
      command = function(name, args) return host(2, name, args) end,
      pass_turn = function() return host(3) end,
      status = function() return host(4) end,
      end_game = function(outcome) return host(9, outcome) end,
    },
    players = players,
    state = state,
    random = function(n) return host(5, n) end,
    choose = function(seat, options, prompt) return host(6, seat, options, prompt) end,
    choose_all = function(questions) return host(7, questions) end,
    event = function(text) return host(8, text) end,
  }
end
"#;

/// Mutable state of one hook call, shared by the `ctx` functions.
struct Call<'a, 'g> {
    game: &'a mut GameAccess<'g>,
    manifest: &'a Manifest,
    powers: Powers,
    hook: &'static str,
    answers: &'a [u32],
    next_answer: usize,
    scratch: Option<Handle>,
    events: Vec<Event>,
    pending: Option<Vec<ChoiceRequest>>,
    fatal: Option<EngineError>,
    /// The outcome `ctx.game.end_game` gave, if it was called.
    ended: Option<Outcome>,
    /// For a script that reads as a spectator (see [`Spectator`]).
    spectator: Option<Spectator>,
}

/// The re-drawn copy of the game a call that reads as a spectator queries (see
/// [`Script::reads_as_spectator`]), once a query asked for it, while no command has changed
/// the game since.
#[derive(Default)]
struct Spectator {
    world: Option<Handle>,
}

impl Script {
    /// Loads a script's text in a fresh sandbox and reads its metadata. `file` names it in
    /// messages.
    pub fn load(file: &str, text: &str, limits: VariantLimits) -> Result<Script, VariantError> {
        let meter = Rc::new(Meter::new(limits.budget, limits.deadline));
        let bad = |detail: String| VariantError::Load {
            file: file.to_string(),
            detail,
        };
        let lua = sandbox(file, &limits, Rc::clone(&meter))
            .map_err(|e| bad(format!("the sandbox could not start: {e}")))?;
        lua.set_app_data(CallRng(None));
        let chunk = lua
            .load(text)
            .set_name(format!("={file}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|e| bad(first_line(&e.to_string())))?;
        meter.reset();
        let module: Value = chunk
            .call(())
            .map_err(|e| bad(describe_error(file, "the script's body", None, &e, &limits)))?;
        let Value::Table(module) = module else {
            return Err(bad(format!(
                "the script must `return` a table (it returned {})",
                module.type_name()
            )));
        };
        let info = read_info(&module).map_err(bad)?;
        let body = if info.part_of_game {
            None
        } else {
            Some(
                Body::new(&lua, chunk)
                    .map_err(|e| bad(format!("the sandbox could not start: {e}")))?,
            )
        };
        let mut arity = [0; HOOKS.len()];
        for (hook, arity) in HOOKS.iter().zip(&mut arity) {
            if let Ok(Value::Function(f)) = module.raw_get::<Value>(*hook) {
                let f = f.info();
                *arity = if f.is_vararg {
                    usize::MAX
                } else {
                    usize::from(f.num_params).saturating_sub(1)
                };
            }
        }
        let ctx_builder: Function = lua
            .load(CTX_BUILDER)
            .set_name("=ctx")
            .set_mode(ChunkMode::Text)
            .call(())
            .map_err(|e| bad(format!("the sandbox could not start: {e}")))?;
        Ok(Script {
            info,
            file: file.to_string(),
            text: text.to_string(),
            hash: text_hash(text),
            lua,
            module,
            body,
            meter,
            limits,
            counts: Default::default(),
            ctx_builder,
            arity,
        })
    }

    /// How often each of its hooks ran in this engine, and changed something: what
    /// `veillee check-variant` reports. Only the hooks the script has, in [`HOOKS`] order.
    pub fn hook_counts(&self) -> Vec<HookCount> {
        HOOKS
            .iter()
            .zip(&self.counts)
            .filter(|(hook, _)| self.has_hook(hook))
            .map(|(hook, (runs, changed))| HookCount {
                hook,
                runs: runs.get(),
                changed: changed.get(),
            })
            .collect()
    }

    /// Counts a call of `hook` that changed something, as its caller judges it.
    pub fn note_changed(&self, hook: &str, changed: bool) {
        if let (true, Some(i)) = (changed, HOOKS.iter().position(|h| *h == hook)) {
            let count = &self.counts[i].1;
            count.set(count.get() + 1);
        }
    }

    /// The script's metadata.
    pub fn info(&self) -> &ScriptInfo {
        &self.info
    }

    /// The name it is known by in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Its exact text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// SHA-256 of its text.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// How many of its arguments after `ctx` this hook's function declares (`usize::MAX`
    /// with `...`): the others are never built.
    pub fn arity(&self, hook: &str) -> usize {
        HOOKS
            .iter()
            .position(|h| *h == hook)
            .map_or(0, |i| self.arity[i])
    }

    /// Whether it defines this hook.
    pub fn has_hook(&self, hook: &str) -> bool {
        self.info.hooks.iter().any(|h| h == hook)
    }

    /// Whether its action hooks concern `seat`'s action `id` (see [`ScriptInfo::actions`]
    /// and [`ScriptInfo::seats`]).
    pub fn concerns(&self, seat: Seat, id: &str) -> bool {
        self.concerns_seat(seat)
            && (self.info.actions.is_empty()
                || self
                    .info
                    .actions
                    .iter()
                    .any(|p| veillee_sdk::id_matches(p, id)))
    }

    /// Whether its action hooks concern `seat`'s actions at all (see [`ScriptInfo::seats`]).
    pub fn concerns_seat(&self, seat: Seat) -> bool {
        self.info.seats.is_empty() || self.info.seats.contains(&seat)
    }

    /// Memory its Lua state uses now, in bytes.
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// Runs one hook. `args` follow `ctx`; `data` is the script's `ctx.state` for this game;
    /// `answers` are the choices already made in this run of the hook. An
    /// [`EngineError::Plugin`] (the base game's plugin failed) is returned as such.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        hook: &'static str,
        args: &[HookArg<'_>],
        data: &serde_json::Value,
        rng: Rng,
        answers: &[u32],
        game: &mut GameAccess<'_>,
        manifest: &Manifest,
        powers: Powers,
    ) -> Result<HookResult, EngineError> {
        let Ok(Value::Function(function)) = self.module.raw_get::<Value>(hook) else {
            return Ok(HookResult::Done {
                returned: Vec::new(),
                data: data.clone(),
                rng,
                events: Vec::new(),
                scratch: None,
                ended: None,
            });
        };
        if let Some(i) = HOOKS.iter().position(|h| *h == hook) {
            let runs = &self.counts[i].0;
            runs.set(runs.get() + 1);
        }
        let call = RefCell::new(Call {
            game,
            manifest,
            powers,
            hook,
            answers,
            next_answer: 0,
            scratch: None,
            events: Vec::new(),
            pending: None,
            fatal: None,
            ended: None,
            spectator: self
                .reads_as_spectator(manifest.hidden_information)
                .then(Spectator::default),
        });
        self.meter.reset();
        *self.lua.app_data_mut::<CallRng>().expect("set at load") =
            CallRng((powers != Powers::Read).then_some(rng));
        let args = &args[..args.len().min(self.arity(hook))];
        let outcome = self
            .hook_function(hook, &function)
            .and_then(|function| self.call_hook(&function, &call, args, data));
        let rng_after = self
            .lua
            .app_data_mut::<CallRng>()
            .and_then(|mut c| c.0.take())
            .unwrap_or(rng);
        // Keep the Lua heap small and its size independent of earlier games.
        if self.lua.used_memory() > self.limits.memory_bytes / 2 {
            let _ = self.lua.gc_collect();
        }
        let mut call = call.into_inner();
        if let Some(world) = call.spectator.as_mut().and_then(|s| s.world.take()) {
            call.game.engine.drop_game(world);
        }
        let drop_scratch = |call: &mut Call| {
            if let Some(scratch) = call.scratch.take() {
                call.game.engine.drop_game(scratch);
            }
        };
        if let Some(fatal) = call.fatal.take() {
            drop_scratch(&mut call);
            return Err(fatal);
        }
        if let Some(request) = call.pending.take() {
            drop_scratch(&mut call);
            return Ok(HookResult::Pending(request));
        }
        match outcome {
            Ok((returned, data)) => Ok(HookResult::Done {
                returned,
                data,
                rng: rng_after,
                events: call.events,
                scratch: call.scratch,
                ended: call.ended,
            }),
            Err(error) => {
                drop_scratch(&mut call);
                let line = function.info().line_defined;
                Ok(HookResult::Failed(describe_error(
                    &self.file,
                    hook,
                    line,
                    &error,
                    &self.limits,
                )))
            }
        }
    }

    /// The function to call for `hook`: a house rule's from its body run anew (see the
    /// module's documentation), a game's own script's as loaded.
    fn hook_function(&self, hook: &str, loaded: &Function) -> mlua::Result<Function> {
        match &self.body {
            None => Ok(loaded.clone()),
            Some(body) => body.fresh_module(&self.lua)?.raw_get(hook),
        }
    }

    /// Whether it reads a game as a spectator does: a house rule, in a game with hidden
    /// information (see the module's documentation).
    pub fn reads_as_spectator(&self, hidden_information: bool) -> bool {
        hidden_information && !self.info.part_of_game
    }

    /// Builds `ctx`, calls the hook and reads back its results and `ctx.state`.
    fn call_hook(
        &self,
        function: &Function,
        call: &RefCell<Call<'_, '_>>,
        args: &[HookArg<'_>],
        data: &serde_json::Value,
    ) -> mlua::Result<(Vec<serde_json::Value>, serde_json::Value)> {
        let lua = &self.lua;
        let (ser, de) = (to_lua_options(), from_lua_options());
        lua.scope(|scope| {
            // One host function per call, which the script's `ctx` (built in Lua by
            // CTX_BUILDER, see `Script::load`) calls with an operation number: creating one
            // scoped function is what costs, not Lua closures.
            let host = scope
                .create_function(|lua, args: MultiValue| host_call(lua, call, args, de, ser))?;
            let ctx = self.build_ctx(host, call, data)?;
            let public = call.borrow().spectator.is_some();
            let mut values = vec![Value::Table(ctx.clone())];
            for arg in args {
                values.push(arg.to_lua(lua, ser, public)?);
            }
            let returned: MultiValue = function.call(MultiValue::from_vec(values))?;
            let out = returned_data(lua, call, returned, de)?;
            let state: Value = ctx.raw_get("state")?;
            let data = state::to_json(&state, "ctx.state").map_err(mlua::Error::runtime)?;
            Ok((out, data))
        })
    }

    /// The hook's `ctx`, around the call's host function, with `data` as `ctx.state` (an
    /// empty table for a script that has none yet).
    fn build_ctx(
        &self,
        host: Function,
        call: &RefCell<Call<'_, '_>>,
        data: &serde_json::Value,
    ) -> mlua::Result<Table> {
        let lua = &self.lua;
        let state = match state::from_json(lua, data)? {
            Value::Nil => Value::Table(lua.create_table()?),
            other => other,
        };
        let (id, players) = {
            let c = call.borrow();
            (c.manifest.id.clone(), c.game.players)
        };
        self.ctx_builder.call((host, id, players, state))
    }
}

/// How the host's values (hook arguments, answers, `ctx.state`) become Lua: absent stays
/// absent rather than becoming a null, and lists carry no metatable.
fn to_lua_options() -> mlua::serde::SerializeOptions {
    mlua::serde::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false)
        .set_array_metatable(false)
}

/// How what a script hands back becomes data: keys in sorted order, so the same table gives
/// the same JSON in every run; a table that contains itself is refused.
fn from_lua_options() -> mlua::serde::DeserializeOptions {
    mlua::serde::DeserializeOptions::new()
        .sort_keys(true)
        .deny_recursive_tables(true)
        .encode_empty_tables_as_array(false)
}

/// One call of the host function by a `ctx` function (see [`CTX_BUILDER`]): the operation
/// number, then that operation's arguments.
fn host_call(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    args: MultiValue,
    de: mlua::serde::DeserializeOptions,
    ser: mlua::serde::SerializeOptions,
) -> mlua::Result<Value> {
    let mut args = args.into_iter();
    let op = match args.next() {
        Some(Value::Integer(op)) => op,
        _ => return Err(mlua::Error::runtime("ctx: bad call")),
    };
    let mut next = || args.next().unwrap_or(Value::Nil);
    match op {
        HOST_QUERY | HOST_COMMAND => {
            let (kind, what) = if op == HOST_QUERY {
                (OperationKind::Query, "ctx.game.query")
            } else {
                (OperationKind::Command, "ctx.game.command")
            };
            let name = operation_name(next(), what)?;
            let args = next();
            operation(lua, call, kind, &name, args, de, ser)
        }
        HOST_PASS_TURN => operation(
            lua,
            call,
            OperationKind::Command,
            "pass_turn",
            Value::Nil,
            de,
            ser,
        ),
        HOST_STATUS => game_status(lua, call, ser),
        HOST_RANDOM => random_up_to(lua, next()),
        HOST_CHOOSE => {
            let seat = whole_number(next(), "ctx.choose's seat")?;
            let options = next();
            let prompt = next();
            choose(lua, call, seat, options, prompt, de).map(Value::Integer)
        }
        HOST_CHOOSE_ALL => choose_all(lua, call, next(), de).map(Value::Table),
        HOST_EVENT => add_event(lua, call, next(), de),
        HOST_END_GAME => end_game(lua, call, next(), de),
        _ => Err(mlua::Error::runtime("ctx: bad call")),
    }
}

/// The name of the operation `what` (`ctx.game.query`…) asks for.
fn operation_name(value: Value, what: &str) -> mlua::Result<String> {
    match value {
        Value::String(s) => Ok(s.to_str()?.to_string()),
        other => Err(mlua::Error::runtime(format!(
            "{what} needs an operation name (a string), not a {}",
            other.type_name()
        ))),
    }
}

/// A whole number given to `what`: an integer, or a float with no fraction that fits one
/// exactly.
fn whole_number(value: Value, what: &str) -> mlua::Result<i64> {
    match value {
        Value::Integer(n) => Ok(n),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(n as i64),
        other => Err(mlua::Error::runtime(format!(
            "{what} needs a whole number, not a {}",
            other.type_name()
        ))),
    }
}

/// `ctx.game.status()`: the status of the game the hook's commands changed, if any, else
/// of the base game. A failing plugin ends the call with the plugin's error (see
/// [`Script::run`]): it is not the script's failure.
fn game_status(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    ser: mlua::serde::SerializeOptions,
) -> mlua::Result<Value> {
    let mut c = call.borrow_mut();
    let handle = c.scratch.unwrap_or(c.game.base);
    match c.game.engine.status(handle) {
        Ok(status) => lua.to_value_with(&status, ser),
        Err(e) => {
            let message = e.to_string();
            c.fatal.get_or_insert(e);
            Err(mlua::Error::runtime(message))
        }
    }
}

/// `ctx.random(n)`: a number from 1 to `n`, from the game's seeded generator.
fn random_up_to(lua: &Lua, n: Value) -> mlua::Result<Value> {
    let n = whole_number(n, "ctx.random(n)")?;
    if n < 1 {
        return Err(mlua::Error::runtime(format!(
            "ctx.random(n) needs n >= 1 (got {n})"
        )));
    }
    random_in(lua, 1, n).map(Value::Integer)
}

/// `ctx.event(text)`: an event for everyone to read, unless the hook may only read.
fn add_event(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    text: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<Value> {
    let mut c = call.borrow_mut();
    if c.powers == Powers::Read {
        return Err(mlua::Error::runtime(format!(
            "ctx.event is not available in {}",
            c.hook
        )));
    }
    if c.events.len() >= veillee_sdk::MAX_EVENTS_PER_MOVE {
        return Err(mlua::Error::runtime(format!(
            "ctx.event was called more than {} times in one hook call",
            veillee_sdk::MAX_EVENTS_PER_MOVE
        )));
    }
    let text = to_text(lua, text, de, "ctx.event's text")?;
    c.events.push(Event::new(text));
    Ok(Value::Nil)
}

/// `ctx.game.end_game(outcome)`: the outcome is read first, then checked against the hook's
/// powers and the game's seats.
fn end_game(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    outcome: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<Value> {
    let outcome = ctx::to_outcome(lua, outcome, de)?;
    let mut c = call.borrow_mut();
    if c.powers != Powers::Full {
        return Err(mlua::Error::runtime(format!(
            "ctx.game.end_game is not available in {}",
            c.hook
        )));
    }
    if let Some(&seat) = outcome.winners.iter().find(|&&s| s >= c.game.players) {
        return Err(mlua::Error::runtime(format!(
            "ctx.game.end_game: seat {seat} cannot win, this game has {} players (seats 0 to {})",
            c.game.players,
            c.game.players.saturating_sub(1)
        )));
    }
    if !outcome.scores.is_empty() && outcome.scores.len() != usize::from(c.game.players) {
        return Err(mlua::Error::runtime(format!(
            "ctx.game.end_game: `scores` has {} numbers, one per seat is {}",
            outcome.scores.len(),
            c.game.players
        )));
    }
    c.ended = Some(outcome);
    Ok(Value::Nil)
}

/// A hook's return values as data; one that is not (a function, a table holding itself)
/// fails the call.
fn returned_data(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    returned: MultiValue,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<Vec<serde_json::Value>> {
    let mut out = Vec::new();
    for value in returned {
        out.push(lua.from_value_with(value, de).map_err(|e| {
            mlua::Error::runtime(format!(
                "{} returned a value that is not data: {e}",
                call.borrow().hook
            ))
        })?);
    }
    Ok(out)
}
