//! One variant script: its text, its metadata, and the sandboxed Luau state that runs it.
//!
//! A script's Lua state holds only its code: everything a game needs between two hook calls
//! (`ctx.state`, the random generator, pending choices) lives in the variant engine's
//! per-game data and is passed in and out at every call, so games stay plain data.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, LuaSerdeExt, MultiValue, StdLib, Table, Value};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use veillee_sdk::{Event, GameError, Handle, Manifest, OperationKind, Seat, Text};

use super::{VariantError, VariantLimits};
use veillee_engine::{EngineError, GameEngine};

/// The hooks a script may define, in the order the guide lists them.
pub const HOOKS: &[&str] = &[
    "setup",
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
    budget: Rc<Cell<u64>>,
    limits: VariantLimits,
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

/// The error a script raises inside `ctx.choose` when the answer is not known yet. Scripts
/// that catch it with `pcall` gain nothing: the host notices the pending choice anyway.
const CHOICE_PENDING: &str = "veillee: waiting for a player's choice";

/// Builds the sandboxed Luau state: safe libraries only, seeded `math.random`, read-only
/// globals and libraries, an instruction budget and a memory cap.
fn sandbox(limits: &VariantLimits, budget: Rc<Cell<u64>>) -> mlua::Result<Lua> {
    let libs = StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    // Base without file access, code loading, the garbage collector's view or printing: each
    // is replaced by a stub whose error says so (a plain `nil` would only say "attempt to
    // call a nil value").
    for name in [
        "require",
        "dofile",
        "loadfile",
        "loadstring",
        "collectgarbage",
        "gcinfo",
        "print",
        "getfenv",
        "setfenv",
        "newproxy",
    ] {
        let message = format!("`{name}` is not available to house rules");
        globals.raw_set(
            name,
            lua.create_function(move |_, _: MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::runtime(message.clone()))
            })?,
        )?;
    }
    for name in ["io", "os", "package", "debug", "buffer", "bit32", "vector"] {
        let stub = lua.create_table()?;
        let meta = lua.create_table()?;
        meta.raw_set(
            "__index",
            lua.create_function(move |_, (_, key): (Value, Value)| -> mlua::Result<()> {
                let key = match key {
                    Value::String(s) => s.to_string_lossy(),
                    _ => "?".into(),
                };
                Err(mlua::Error::runtime(format!(
                    "`{name}.{key}` is not available to house rules: no files, processes, \
                     clock or host access"
                )))
            })?,
        )?;
        stub.set_metatable(Some(meta))?;
        globals.raw_set(name, stub)?;
    }
    let string: Table = globals.get("string")?;
    string.raw_set(
        "dump",
        lua.create_function(|_, _: MultiValue| -> mlua::Result<()> {
            Err(mlua::Error::runtime(
                "`string.dump` is not available to house rules",
            ))
        })?,
    )?;
    // `load(text [, name])`: source text only, never a binary chunk.
    let load = lua.create_function(|lua, (chunk, name): (mlua::LuaString, Option<String>)| {
        let bytes = chunk.as_bytes();
        if bytes.first().is_some_and(|b| *b < b'\t' || *b == 0x1b) {
            return Ok((
                Value::Nil,
                Value::String(lua.create_string("load: binary chunks are not allowed")?),
            ));
        }
        let name = name.unwrap_or_else(|| "=(load)".into());
        match lua
            .load(&bytes[..])
            .set_name(name)
            .set_mode(ChunkMode::Text)
            .into_function()
        {
            Ok(f) => Ok((Value::Function(f), Value::Nil)),
            Err(e) => Ok((Value::Nil, Value::String(lua.create_string(e.to_string())?))),
        }
    })?;
    globals.raw_set("load", load)?;
    // math.random draws from the game's seeded generator (see `ctx.random`).
    let math: Table = globals.get("math")?;
    math.raw_set(
        "random",
        lua.create_function(|lua, (m, n): (Option<i64>, Option<i64>)| {
            let draw = |lua: &Lua| -> mlua::Result<u64> { with_rng(lua, |rng| rng.next()) };
            match (m, n) {
                (None, _) => Ok(Value::Number(
                    (draw(lua)? >> 11) as f64 / (1u64 << 53) as f64,
                )),
                (Some(m), None) => Ok(Value::Integer(random_in(lua, 1, m)?)),
                (Some(m), Some(n)) => Ok(Value::Integer(random_in(lua, m, n)?)),
            }
        })?,
    )?;
    math.raw_set(
        "randomseed",
        lua.create_function(|_, ()| -> mlua::Result<()> {
            Err(mlua::Error::runtime(
                "math.randomseed is not available: the generator is seeded by the game",
            ))
        })?,
    )?;
    lua.sandbox(true)?;
    let limit = limits.budget;
    lua.set_interrupt(move |lua| {
        let used = budget.get() + 1;
        budget.set(used);
        if used > limit {
            let at = lua
                .inspect_stack(0, |d| {
                    let src = d.source().short_src.map(|s| s.into_owned());
                    (src, d.current_line())
                })
                .and_then(|(src, line)| Some(format!("{}:{}: ", src?, line?)))
                .unwrap_or_default();
            return Err(mlua::Error::runtime(format!(
                "{at}instruction budget of {limit} exhausted (an endless loop?)"
            )));
        }
        Ok(mlua::VmState::Continue)
    });
    lua.set_memory_limit(limits.memory_bytes)?;
    Ok(lua)
}

/// The random generator of the current hook call (see [`Rng`]), or an error outside one.
fn with_rng<R>(lua: &Lua, f: impl FnOnce(&mut Rng) -> R) -> mlua::Result<R> {
    let mut call = lua
        .app_data_mut::<CallRng>()
        .ok_or_else(|| mlua::Error::runtime("random numbers are only available in hooks"))?;
    match call.0.as_mut() {
        Some(rng) => Ok(f(rng)),
        None => Err(mlua::Error::runtime(
            "random numbers are not available in this hook (filter_actions and view must not \
             draw)",
        )),
    }
}

fn random_in(lua: &Lua, m: i64, n: i64) -> mlua::Result<i64> {
    if m > n {
        return Err(mlua::Error::runtime(format!(
            "random: interval is empty ({m}..{n})"
        )));
    }
    let span = (n as i128 - m as i128 + 1) as u128;
    let draw = with_rng(lua, |rng| rng.next())? as u128;
    Ok((m as i128 + ((draw * span) >> 64) as i128) as i64)
}

/// The hook call's generator, in the Lua state's app data (`None` when drawing is not allowed).
struct CallRng(Option<Rng>);

/// SplitMix64: tiny, seedable, and its whole state is one number saved with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng(pub u64);

impl Rng {
    /// A generator for a session seed and a salt (the variant layer's own stream).
    pub fn seeded(seed: u64) -> Rng {
        let mut rng = Rng(seed ^ 0x5641_5249_414e_5453); // "VARIANTS"
        rng.next();
        rng
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
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
    },
    /// It asked for a choice not answered yet: nothing it did counts. One request for
    /// `ctx.choose`, one per seat asked for `ctx.choose_all` (all to be answered at once).
    Pending(Vec<ChoiceRequest>),
    /// It failed (error, budget, memory): the message names the file and line.
    Failed(String),
}

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
}

impl Script {
    /// Loads a script's text in a fresh sandbox and reads its metadata. `file` names it in
    /// messages.
    pub fn load(file: &str, text: &str, limits: VariantLimits) -> Result<Script, VariantError> {
        let budget = Rc::new(Cell::new(0));
        let bad = |detail: String| VariantError::Load {
            file: file.to_string(),
            detail,
        };
        let lua = sandbox(&limits, Rc::clone(&budget))
            .map_err(|e| bad(format!("the sandbox could not start: {e}")))?;
        lua.set_app_data(CallRng(None));
        let chunk = lua
            .load(text)
            .set_name(format!("={file}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|e| bad(first_line(&e.to_string())))?;
        budget.set(0);
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
        Ok(Script {
            info,
            file: file.to_string(),
            text: text.to_string(),
            hash: text_hash(text),
            lua,
            module,
            budget,
            limits,
        })
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

    /// Whether it defines this hook.
    pub fn has_hook(&self, hook: &str) -> bool {
        self.info.hooks.iter().any(|h| h == hook)
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
        args: &[serde_json::Value],
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
            });
        };
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
        });
        self.budget.set(0);
        *self.lua.app_data_mut::<CallRng>().expect("set at load") =
            CallRng((powers != Powers::Read).then_some(rng));
        let outcome = self.call_hook(&function, &call, args, data);
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

    /// Builds `ctx`, calls the hook and reads back its results and `ctx.state`.
    fn call_hook(
        &self,
        function: &Function,
        call: &RefCell<Call<'_, '_>>,
        args: &[serde_json::Value],
        data: &serde_json::Value,
    ) -> mlua::Result<(Vec<serde_json::Value>, serde_json::Value)> {
        let lua = &self.lua;
        let ser = mlua::serde::SerializeOptions::new()
            .serialize_none_to_null(false)
            .serialize_unit_to_null(false)
            .set_array_metatable(false);
        let de = mlua::serde::DeserializeOptions::new()
            .sort_keys(true)
            .deny_recursive_tables(true)
            .encode_empty_tables_as_array(false);
        lua.scope(|scope| {
            let ctx = lua.create_table()?;
            let game = lua.create_table()?;
            let players = call.borrow().game.players;
            game.raw_set("id", call.borrow().manifest.id.as_str())?;
            game.raw_set("players", players)?;
            game.raw_set(
                "query",
                scope.create_function(|lua, (name, args): (String, Value)| {
                    operation(lua, call, OperationKind::Query, &name, args, de, ser)
                })?,
            )?;
            game.raw_set(
                "command",
                scope.create_function(|lua, (name, args): (String, Value)| {
                    operation(lua, call, OperationKind::Command, &name, args, de, ser)
                })?,
            )?;
            game.raw_set(
                "status",
                scope.create_function(|lua, ()| {
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
                })?,
            )?;
            ctx.raw_set("game", game)?;
            ctx.raw_set("players", players)?;
            ctx.raw_set(
                "random",
                scope.create_function(|lua, n: i64| {
                    if n < 1 {
                        return Err(mlua::Error::runtime(format!(
                            "ctx.random(n) needs n >= 1 (got {n})"
                        )));
                    }
                    random_in(lua, 1, n)
                })?,
            )?;
            ctx.raw_set(
                "choose",
                scope.create_function(|lua, (seat, options, prompt): (i64, Value, Value)| {
                    choose(lua, call, seat, options, prompt, de)
                })?,
            )?;
            ctx.raw_set(
                "choose_all",
                scope.create_function(|lua, questions: Value| {
                    choose_all(lua, call, questions, de)
                })?,
            )?;
            ctx.raw_set(
                "event",
                scope.create_function(|lua, message: Value| {
                    let mut c = call.borrow_mut();
                    if c.powers == Powers::Read {
                        return Err(mlua::Error::runtime(format!(
                            "ctx.event is not available in {}",
                            c.hook
                        )));
                    }
                    let text = to_text(lua, message, de, "ctx.event's text")?;
                    c.events.push(Event::new(text));
                    Ok(())
                })?,
            )?;
            let state = match lua.to_value_with(data, ser)? {
                Value::Nil => Value::Table(lua.create_table()?),
                other => other,
            };
            ctx.raw_set("state", state)?;
            let mut values = vec![Value::Table(ctx.clone())];
            for arg in args {
                values.push(lua.to_value_with(arg, ser)?);
            }
            let returned: MultiValue = function.call(MultiValue::from_vec(values))?;
            let mut out = Vec::new();
            for value in returned {
                out.push(lua.from_value_with(value, de).map_err(|e| {
                    mlua::Error::runtime(format!(
                        "{} returned a value that is not data: {e}",
                        call.borrow().hook
                    ))
                })?);
            }
            let state: Value = ctx.raw_get("state")?;
            let data = match state {
                Value::Nil => serde_json::Value::Null,
                state => lua.from_value_with(state, de).map_err(|e| {
                    mlua::Error::runtime(format!(
                        "ctx.state may only hold strings, numbers, booleans and tables of them: {e}"
                    ))
                })?,
            };
            Ok((out, data))
        })
    }
}

/// `ctx.game.query` / `ctx.game.command`.
fn operation(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    kind: OperationKind,
    name: &str,
    args: Value,
    de: mlua::serde::DeserializeOptions,
    ser: mlua::serde::SerializeOptions,
) -> mlua::Result<Value> {
    let mut c = call.borrow_mut();
    let what = match kind {
        OperationKind::Query => "query",
        OperationKind::Command => "command",
    };
    if c.pending.is_some() {
        return Err(mlua::Error::runtime(CHOICE_PENDING));
    }
    let declared = c.manifest.operations.iter().find(|op| op.name == name);
    match declared {
        None => {
            let known: Vec<&str> = c
                .manifest
                .operations
                .iter()
                .filter(|op| op.kind == kind)
                .map(|op| op.name.as_str())
                .collect();
            return Err(mlua::Error::runtime(format!(
                "ctx.game.{what}: game `{}` has no {what} `{name}` (it offers: {})",
                c.manifest.id,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
        Some(op) if op.kind != kind => {
            return Err(mlua::Error::runtime(format!(
                "ctx.game.{what}: `{name}` is a {}, call it with ctx.game.{}",
                if op.kind == OperationKind::Query {
                    "query"
                } else {
                    "command"
                },
                if op.kind == OperationKind::Query {
                    "query"
                } else {
                    "command"
                },
            )));
        }
        Some(_) => {}
    }
    if kind == OperationKind::Command && c.powers != Powers::Full {
        return Err(mlua::Error::runtime(format!(
            "ctx.game.command is not available in {} (only queries are)",
            c.hook
        )));
    }
    let args: serde_json::Value = match args {
        Value::Nil => serde_json::Value::Null,
        args => lua.from_value_with(args, de)?,
    };
    let target = if kind == OperationKind::Command {
        match c.scratch {
            Some(scratch) => scratch,
            None => {
                let base = c.game.base;
                match c.game.engine.clone_game(base) {
                    Ok(copy) => *c.scratch.insert(copy),
                    Err(e) => return Err(fatal(&mut c, e)),
                }
            }
        }
    } else {
        c.scratch.unwrap_or(c.game.base)
    };
    match c.game.engine.operation(target, name, &args) {
        Ok(answer) => lua.to_value_with(&answer, ser),
        Err(EngineError::Game(GameError::Operation { reason, .. })) => Err(mlua::Error::runtime(
            format!("ctx.game.{what}(\"{name}\") refused: {reason}"),
        )),
        Err(e @ EngineError::Game(_)) => Err(mlua::Error::runtime(format!(
            "ctx.game.{what}(\"{name}\") failed: {e}"
        ))),
        Err(e) => Err(fatal(&mut c, e)),
    }
}

fn fatal(c: &mut Call<'_, '_>, e: EngineError) -> mlua::Error {
    let message = format!("the game's plugin failed: {e}");
    c.fatal.get_or_insert(e);
    mlua::Error::runtime(message)
}

/// `ctx.choose(seat, options, prompt)`: the recorded answer, 1-based, or the pending
/// sentinel.
fn choose(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    seat: i64,
    options: Value,
    prompt: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<i64> {
    let mut c = call.borrow_mut();
    may_choose(&c, "ctx.choose")?;
    let request = choice_request(lua, &c, seat, options, prompt, de, "ctx.choose")?;
    let answers = recorded_answers(&mut c, std::slice::from_ref(&request))?;
    match answers {
        Some(answers) => Ok(answers[0]),
        None => Err(mlua::Error::runtime(CHOICE_PENDING)),
    }
}

/// `ctx.choose_all({ {seat=, options=, prompt=}, … })`: every listed seat decides at once,
/// privately; returns `{ [seat] = 1-based answer }` once all have answered, else the
/// pending sentinel.
fn choose_all(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    questions: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<Table> {
    let mut c = call.borrow_mut();
    may_choose(&c, "ctx.choose_all")?;
    let Value::Table(list) = questions else {
        return Err(mlua::Error::runtime(
            "ctx.choose_all needs a list of questions { seat = …, options = {…}, prompt = … }",
        ));
    };
    let mut requests: Vec<ChoiceRequest> = Vec::new();
    for question in list.sequence_values::<Value>() {
        let Value::Table(question) = question? else {
            return Err(mlua::Error::runtime(
                "ctx.choose_all: each question is a table { seat = …, options = {…}, prompt = … }",
            ));
        };
        let seat: i64 = question.raw_get("seat").map_err(|_| {
            mlua::Error::runtime("ctx.choose_all: a question's `seat` must be a number")
        })?;
        let request = choice_request(
            lua,
            &c,
            seat,
            question.raw_get("options")?,
            question.raw_get("prompt")?,
            de,
            "ctx.choose_all",
        )?;
        if requests.iter().any(|r| r.seat == request.seat) {
            return Err(mlua::Error::runtime(format!(
                "ctx.choose_all: seat {} is asked twice",
                request.seat
            )));
        }
        requests.push(request);
    }
    if requests.is_empty() {
        return Err(mlua::Error::runtime(
            "ctx.choose_all needs at least one question",
        ));
    }
    let Some(answers) = recorded_answers(&mut c, &requests)? else {
        return Err(mlua::Error::runtime(CHOICE_PENDING));
    };
    let picks = lua.create_table()?;
    for (request, answer) in requests.iter().zip(answers) {
        picks.raw_set(request.seat, answer)?;
    }
    Ok(picks)
}

/// Refuses a choice where none may be asked (a choice already pending in this call, or a
/// read-only hook).
fn may_choose(c: &Call<'_, '_>, what: &str) -> mlua::Result<()> {
    if c.pending.is_some() {
        return Err(mlua::Error::runtime(CHOICE_PENDING));
    }
    if c.powers == Powers::Read {
        return Err(mlua::Error::runtime(format!(
            "{what} is not available in {}",
            c.hook
        )));
    }
    Ok(())
}

/// One question, checked: a seat of this game, 1 to 256 options, a prompt.
fn choice_request(
    lua: &Lua,
    c: &Call<'_, '_>,
    seat: i64,
    options: Value,
    prompt: Value,
    de: mlua::serde::DeserializeOptions,
    what: &str,
) -> mlua::Result<ChoiceRequest> {
    let players = c.game.players;
    let seat = Seat::try_from(seat)
        .ok()
        .filter(|s| *s < players)
        .ok_or_else(|| {
            mlua::Error::runtime(format!(
                "{what}: seat {seat} is not a seat of this game (0 to {})",
                players.saturating_sub(1)
            ))
        })?;
    let Value::Table(list) = options else {
        return Err(mlua::Error::runtime(format!(
            "{what}: options must be a list of texts"
        )));
    };
    let mut texts = Vec::new();
    for value in list.sequence_values::<Value>() {
        texts.push(to_text(lua, value?, de, &format!("a {what} option"))?);
    }
    if texts.is_empty() || texts.len() > 256 {
        return Err(mlua::Error::runtime(format!(
            "{what} needs 1 to 256 options (got {})",
            texts.len()
        )));
    }
    let prompt = to_text(lua, prompt, de, &format!("{what}'s prompt"))?;
    Ok(ChoiceRequest {
        seat,
        options: texts,
        prompt,
    })
}

/// The recorded answers (1-based) to these questions, asked together, or `None` after
/// marking them pending. Questions asked together are answered together: their answers are
/// recorded consecutively, in question order.
fn recorded_answers(
    c: &mut Call<'_, '_>,
    requests: &[ChoiceRequest],
) -> mlua::Result<Option<Vec<i64>>> {
    let Some(recorded) = c.answers.get(c.next_answer..c.next_answer + requests.len()) else {
        c.pending = Some(requests.to_vec());
        return Ok(None);
    };
    c.next_answer += requests.len();
    requests
        .iter()
        .zip(recorded)
        .map(|(request, &answer)| {
            if answer as usize >= request.options.len() {
                return Err(mlua::Error::runtime(format!(
                    "recorded answer {answer} is not among {} options (the saved game does \
                     not match this script)",
                    request.options.len()
                )));
            }
            Ok(answer as i64 + 1)
        })
        .collect::<mlua::Result<Vec<i64>>>()
        .map(Some)
}

/// A text from Lua: a string (both languages) or a `{fr = ..., en = ...}` table.
fn to_text(
    lua: &Lua,
    value: Value,
    de: mlua::serde::DeserializeOptions,
    what: &str,
) -> mlua::Result<Text> {
    match value {
        Value::String(s) => Ok(Text::same(s.to_str()?.to_string())),
        Value::Integer(_) | Value::Number(_) => Ok(Text::same(
            lua.coerce_string(value)?
                .map(|s| s.to_string_lossy())
                .unwrap_or_default(),
        )),
        Value::Table(_) => lua.from_value_with::<Text>(value, de).map_err(|_| {
            mlua::Error::runtime(format!(
                "{what} must be a string or a table {{fr = \"…\", en = \"…\"}}"
            ))
        }),
        other => Err(mlua::Error::runtime(format!(
            "{what} must be a string or a table {{fr = \"…\", en = \"…\"}} (got {})",
            other.type_name()
        ))),
    }
}

/// Reads and checks the script table's metadata fields.
fn read_info(module: &Table) -> Result<ScriptInfo, String> {
    let string = |key: &str| -> Result<String, String> {
        match module.raw_get::<Value>(key) {
            Ok(Value::String(s)) => Ok(s.to_str().map_err(|e| e.to_string())?.to_string()),
            Ok(Value::Nil) => Err(format!("the script table has no `{key}` field")),
            Ok(other) => Err(format!(
                "`{key}` must be a string, not a {}",
                other.type_name()
            )),
            Err(e) => Err(e.to_string()),
        }
    };
    let text = |key: &str| -> Result<Text, String> {
        match module.raw_get::<Value>(key) {
            Ok(Value::String(s)) => Ok(Text::same(
                s.to_str().map_err(|e| e.to_string())?.to_string(),
            )),
            Ok(Value::Table(t)) => table_text(&t).ok_or_else(|| {
                format!("`{key}` must be {{fr = \"…\", en = \"…\"}} with both languages")
            }),
            Ok(Value::Nil) => Err(format!("the script table has no `{key}` field")),
            Ok(other) => Err(format!(
                "`{key}` must be a text, not a {}",
                other.type_name()
            )),
            Err(e) => Err(e.to_string()),
        }
    };
    let id = string("id")?;
    let id_ok = !id.is_empty()
        && id.len() <= 60
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !id_ok {
        return Err(format!(
            "id `{id}` must be 1–60 characters of a–z, 0–9 and `-`"
        ));
    }
    let flag = |key: &str| -> Result<bool, String> {
        match module.raw_get::<Value>(key) {
            Ok(Value::Nil) => Ok(false),
            Ok(Value::Boolean(b)) => Ok(b),
            Ok(other) => Err(format!(
                "`{key}` must be true or false, not a {}",
                other.type_name()
            )),
            Err(e) => Err(e.to_string()),
        }
    };
    let exclusive = flag("exclusive")?;
    let part_of_game = flag("part_of_game")?;
    let mut changes = Vec::new();
    match module.raw_get::<Value>("changes") {
        Ok(Value::Nil) => {}
        Ok(Value::Table(list)) => {
            for item in list.sequence_values::<Value>() {
                match item {
                    Ok(Value::Table(t)) => changes.push(
                        table_text(&t)
                            .ok_or("each entry of `changes` must be {fr = \"…\", en = \"…\"}")?,
                    ),
                    Ok(Value::String(s)) => changes.push(Text::same(
                        s.to_str().map_err(|e| e.to_string())?.to_string(),
                    )),
                    _ => {
                        return Err(
                            "each entry of `changes` must be {fr = \"…\", en = \"…\"}".into()
                        )
                    }
                }
            }
        }
        Ok(other) => {
            return Err(format!(
                "`changes` must be a list, not a {}",
                other.type_name()
            ))
        }
        Err(e) => return Err(e.to_string()),
    }
    let mut hooks = Vec::new();
    for hook in HOOKS {
        match module.raw_get::<Value>(*hook) {
            Ok(Value::Nil) => {}
            Ok(Value::Function(_)) => hooks.push(hook.to_string()),
            Ok(other) => {
                return Err(format!(
                    "`{hook}` must be a function, not a {}",
                    other.type_name()
                ))
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    // A misspelt hook would silently never run: refuse unknown function fields.
    let mut unknown = BTreeSet::new();
    for pair in module.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| e.to_string())?;
        if let (Value::String(key), Value::Function(_)) = (&key, &value) {
            let key = key.to_string_lossy();
            if !HOOKS.contains(&key.as_str()) {
                unknown.insert(key);
            }
        }
    }
    if let Some(name) = unknown.into_iter().next() {
        return Err(format!(
            "`{name}` is not a hook (hooks are: {}); keep helper functions in local variables",
            HOOKS.join(", ")
        ));
    }
    Ok(ScriptInfo {
        id,
        name: text("name")?,
        description: text("description")?,
        game: string("game")?,
        version: string("version")?,
        exclusive,
        part_of_game,
        changes,
        hooks,
    })
}

fn table_text(t: &Table) -> Option<Text> {
    let fr: String = t.raw_get::<Option<String>>("fr").ok()??;
    let en: String = t.raw_get::<Option<String>>("en").ok()??;
    Some(Text { fr, en })
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

/// A script failure in one line: `file:line: reason`.
fn describe_error(
    file: &str,
    hook: &str,
    line_defined: Option<usize>,
    error: &mlua::Error,
    limits: &VariantLimits,
) -> String {
    let mut traceback = String::new();
    let mut cause = error;
    loop {
        match cause {
            mlua::Error::CallbackError {
                traceback: t,
                cause: c,
            } => {
                if traceback.is_empty() {
                    traceback = t.clone();
                }
                cause = c;
            }
            mlua::Error::WithContext { cause: c, .. } => cause = c,
            _ => break,
        }
    }
    let reason = match cause {
        mlua::Error::MemoryError(_) => {
            format!("memory cap of {} KiB exhausted", limits.memory_bytes / 1024)
        }
        mlua::Error::RuntimeError(message) => first_line(message),
        other => first_line(&other.to_string()),
    };
    let prefix = format!("{file}:");
    if reason.starts_with(&prefix) {
        return format!("{reason} (in {hook})");
    }
    // The first place in the traceback that is in the script.
    let position = traceback
        .lines()
        .map(str::trim)
        .find_map(|line| {
            let rest = line.strip_prefix(&prefix)?;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty()).then_some(digits)
        })
        .or_else(|| line_defined.map(|l| l.to_string()));
    match position {
        Some(line) => format!("{file}:{line}: {reason} (in {hook})"),
        None => format!("{file}: {reason} (in {hook})"),
    }
}
