//! One live instance of a plugin: its store, its memory and its exports, the ABI's buffers
//! and its result convention.
//!
//! Nothing the plugin returns is trusted: pointers and lengths are bounds-checked against
//! its memory, JSON is parsed into the SDK's types, and any violation is a [`Fault`] — never
//! a host panic.

use serde::de::DeserializeOwned;
use veillee_sdk::search::SearchAnswer;
use veillee_sdk::{
    Action, Event, GameError, Handle, PlayoutResult, PlayoutStop, Scene, Seat, Status,
};
use wasmtime::{Engine, Instance, InstancePre, Memory, Store, TypedFunc, WasmParams, WasmResults};

use super::config::deadline_ticks;
use super::fault::{describe, resource_fault, Fault};
use super::limits::{Cap, Limits};

/// What a plugin's store holds besides the instance.
pub(crate) struct State {
    pub(crate) cap: Cap,
}

/// A call's answer: `Ok(Err(_))` is the game refusing (the plugin is fine), `Err(_)` is
/// the plugin misbehaving.
pub(crate) type Reply<T> = Result<Result<T, GameError>, Fault>;

/// Name of the "call" that instantiation runs: the module's start function and data
/// segment initialisation.
const INSTANTIATION: &str = "instantiation";

/// Deadline of `veillee_panic_message`, called after a trap (capped by the call deadline).
const PANIC_SECONDS: f64 = 1.0;
/// Longest panic message kept; the rest is cut.
const PANIC_MAX_BYTES: usize = 4096;
/// Most JSON objects and lists in one answer (see `answers::check_json_size`): about 60,000
/// actions, or a scene of 100,000 pieces — far past any game, and a bound on what parsing
/// an answer may allocate (tens of megabytes, not gigabytes).
const MAX_JSON_CONTAINERS: usize = 200_000;

macro_rules! exports {
    ($($field:ident: $name:literal ($($param:ty),*) -> $result:ty;)*) => {
        /// The ABI's functions, typed once per instance.
        struct Exports {
            $($field: TypedFunc<($($param,)*), $result>,)*
            /// `veillee_operation` (ABI 1.1, optional): `None` when the plugin lacks it.
            operation: Option<TypedFunc<(i32, i32), i64>>,
            /// `veillee_playout_until` (ABI 1.7, optional).
            playout_until: Option<TypedFunc<(i32, i64, i32, i32), i64>>,
            /// `veillee_search` (ABI 1.8, optional).
            search: Option<TypedFunc<(i32, i32, i32), i64>>,
            /// `veillee_evaluate` (ABI 1.8, optional).
            evaluate: Option<TypedFunc<(i32, i32), i64>>,
            /// `veillee_playout_packed` (ABI 1.13, optional).
            playout_packed: Option<TypedFunc<(i32, i64, i32), i64>>,
        }

        impl Exports {
            fn get(instance: &Instance, store: &mut Store<State>) -> Result<Exports, Fault> {
                Ok(Exports {
                    $($field: instance
                        .get_typed_func(&mut *store, $name)
                        .map_err(|e| Fault::MissingExport { export: $name, detail: format!("{e:#}") })?,)*
                    operation: optional(instance, store, "veillee_operation")?,
                    playout_until: optional(instance, store, "veillee_playout_until")?,
                    search: optional(instance, store, "veillee_search")?,
                    evaluate: optional(instance, store, "veillee_evaluate")?,
                    playout_packed: optional(instance, store, "veillee_playout_packed")?,
                })
            }
        }
    };
}

/// An optional export of the ABI, typed: `None` when the plugin lacks it.
fn optional<P: wasmtime::WasmParams, R: wasmtime::WasmResults>(
    instance: &Instance,
    store: &mut Store<State>,
    export: &'static str,
) -> Result<Option<TypedFunc<P, R>>, Fault> {
    match instance.get_func(&mut *store, export) {
        None => Ok(None),
        Some(func) => func
            .typed(&*store)
            .map(Some)
            .map_err(|e| Fault::MissingExport {
                export,
                detail: format!("{e:#}"),
            }),
    }
}

exports! {
    abi_version: "veillee_abi_version" () -> i32;
    input: "veillee_input" (i32) -> i32;
    output_ptr: "veillee_output_ptr" () -> i32;
    manifest: "veillee_manifest" () -> i64;
    new: "veillee_new" (i32) -> i64;
    load: "veillee_load" (i32) -> i64;
    save: "veillee_save" (i32) -> i64;
    clone: "veillee_clone" (i32) -> i64;
    drop: "veillee_drop" (i32) -> ();
    status: "veillee_status" (i32) -> i64;
    legal_actions: "veillee_legal_actions" (i32, i32) -> i64;
    apply: "veillee_apply" (i32, i32, i32) -> i64;
    action_count: "veillee_action_count" (i32, i32) -> i64;
    apply_index: "veillee_apply_index" (i32, i32, i32) -> i64;
    view: "veillee_view" (i32, i32) -> i64;
    playout: "veillee_playout" (i32, i64, i32) -> i64;
    redraw_hidden: "veillee_redraw_hidden" (i32, i32, i64) -> i64;
    panic_message: "veillee_panic_message" () -> i64;
}

/// A running instance.
pub(crate) struct Live {
    store: Store<State>,
    memory: Memory,
    exports: Exports,
    limits: Limits,
    /// Deadline of the current call, for the timeout message.
    seconds: f64,
}

// Handles and seats cross the ABI as i32 and the guest reads them back with `as u32` /
// `Seat::try_from`, so these are bit-casts on purpose.
fn h(handle: Handle) -> i32 {
    handle as i32
}

fn viewer(viewer: Option<Seat>) -> i32 {
    viewer.map_or(-1, i32::from)
}

impl Live {
    /// A fresh instance in a fresh store, with the memory cap and a deadline for its start.
    pub(crate) fn instantiate(
        engine: &Engine,
        pre: &InstancePre<State>,
        limits: Limits,
    ) -> Result<Live, Fault> {
        let mut store = Store::new(
            engine,
            State {
                cap: Cap::new(&limits),
            },
        );
        store.limiter(|state| &mut state.cap);
        store.set_epoch_deadline(deadline_ticks(limits.call_seconds));
        let instance = match pre.instantiate(&mut store) {
            Ok(instance) => instance,
            Err(error) => {
                return Err(resource_fault(
                    &store,
                    &limits,
                    limits.call_seconds,
                    INSTANTIATION,
                    &error,
                )
                .unwrap_or_else(|| Fault::Trap {
                    export: INSTANTIATION,
                    detail: describe(&error),
                }))
            }
        };
        let memory =
            instance
                .get_memory(&mut store, "memory")
                .ok_or_else(|| Fault::MissingExport {
                    export: "memory",
                    detail: "not exported".into(),
                })?;
        let exports = Exports::get(&instance, &mut store)?;
        Ok(Live {
            store,
            memory,
            exports,
            limits,
            seconds: limits.call_seconds,
        })
    }

    /// Starts a host call (which may make several wasm calls): sets its deadline and clears
    /// the limiter's memory of earlier refusals.
    pub(crate) fn begin(&mut self, seconds: f64) {
        self.seconds = seconds;
        self.store.set_epoch_deadline(deadline_ticks(seconds));
        self.store.data_mut().cap.reset();
    }

    /// Calls one export; a trap becomes a classified [`Fault`].
    fn call<P: WasmParams, R: WasmResults>(
        &mut self,
        export: &'static str,
        pick: impl Fn(&Exports) -> &TypedFunc<P, R>,
        params: P,
    ) -> Result<R, Fault> {
        let result = pick(&self.exports).call(&mut self.store, params);
        result.map_err(|error| self.fault(export, error))
    }

    /// Why `export` failed: deadline, memory cap, panic or plain trap, in that order (a
    /// time-out or a refused growth explain the trap better than anything the plugin says).
    fn fault(&mut self, export: &'static str, error: wasmtime::Error) -> Fault {
        if let Some(fault) = resource_fault(&self.store, &self.limits, self.seconds, export, &error)
        {
            return fault;
        }
        match self.panic_message() {
            Some(message) => Fault::Panic { export, message },
            None => Fault::Trap {
                export,
                detail: describe(&error),
            },
        }
    }

    /// The plugin's panic text after a trap, if it has one. The instance just trapped and
    /// may be inconsistent, so the call gets its own short deadline, and anything odd
    /// (another trap, a bad pointer, an empty text) just means "no message".
    fn panic_message(&mut self) -> Option<String> {
        self.store
            .set_epoch_deadline(deadline_ticks(PANIC_SECONDS.min(self.limits.call_seconds)));
        let packed = self.exports.panic_message.call(&mut self.store, ()).ok()? as u64;
        let (ptr, len) = ((packed >> 32) as u32, (packed & 0xffff_ffff) as usize);
        let kept = len.min(PANIC_MAX_BYTES);
        let bytes = self
            .region(ptr, kept)
            .and_then(|range| self.memory.data(&self.store).get(range))?;
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim();
        match (text.is_empty(), kept < len) {
            (true, _) => None,
            (false, false) => Some(text.to_string()),
            (false, true) => Some(format!("{text}…")),
        }
    }

    /// `ptr..ptr + len` if it lies inside the plugin's memory.
    fn region(&self, ptr: u32, len: usize) -> Option<std::ops::Range<usize>> {
        let start = usize::try_from(ptr).ok()?;
        let end = start.checked_add(len)?;
        (end <= self.memory.data_size(&self.store)).then_some(start..end)
    }

    /// Copies `bytes` into the buffer `veillee_input` gives; returns the length to pass on.
    fn write_input(&mut self, bytes: &[u8]) -> Result<i32, Fault> {
        let export = "veillee_input";
        let len = i32::try_from(bytes.len()).map_err(|_| Fault::Protocol {
            export,
            detail: format!(
                "an input of {} bytes is more than the plugin ABI can pass",
                bytes.len()
            ),
        })?;
        let ptr = self.call(export, |e| &e.input, (len,))? as u32;
        let size = self.memory.data_size(&self.store);
        let destination = self
            .region(ptr, bytes.len())
            .and_then(|range| self.memory.data_mut(&mut self.store).get_mut(range));
        match destination {
            Some(destination) => {
                destination.copy_from_slice(bytes);
                Ok(len)
            }
            None => Err(Fault::Protocol {
                export,
                detail: format!("returned a {len}-byte buffer at {ptr:#x}, outside the plugin's {size}-byte memory"),
            }),
        }
    }

    /// Copies `len` bytes out of the buffer at `veillee_output_ptr`; `export` is the call
    /// that announced them.
    fn read_output(&mut self, export: &'static str, len: u64) -> Result<Vec<u8>, Fault> {
        self.read_output_with(export, len, <[u8]>::to_vec)
    }

    /// Reads `len` bytes at `veillee_output_ptr` with `read`, in place in the plugin's
    /// memory; `export` is the call that announced them.
    fn read_output_with<T>(
        &mut self,
        export: &'static str,
        len: u64,
        read: impl FnOnce(&[u8]) -> T,
    ) -> Result<T, Fault> {
        if len > self.limits.answer_bytes {
            return Err(Fault::Protocol {
                export,
                detail: format!(
                    "announced an answer of {len} bytes, more than the {} bytes a plugin may answer; nothing was read",
                    self.limits.answer_bytes
                ),
            });
        }
        let ptr = self.call("veillee_output_ptr", |e| &e.output_ptr, ())? as u32;
        let bytes = usize::try_from(len)
            .ok()
            .and_then(|len| self.region(ptr, len))
            .and_then(|range| self.memory.data(&self.store).get(range));
        match bytes {
            Some(bytes) => Ok(read(bytes)),
            None => Err(Fault::Protocol {
                export,
                detail: format!(
                    "announced {len} bytes of output at {ptr:#x} (veillee_output_ptr), outside the plugin's {}-byte memory",
                    self.memory.data_size(&self.store)
                ),
            }),
        }
    }

    /// Decodes the i64 result convention: `r >= 0` is a number, `r < 0` a game error whose
    /// JSON (of `-r - 1` bytes) is in the output buffer.
    fn outcome(&mut self, export: &'static str, r: i64) -> Reply<u64> {
        if let Ok(n) = u64::try_from(r) {
            return Ok(Ok(n));
        }
        // r < 0 here, so r + 1 <= 0 and its negation cannot overflow (even for i64::MIN).
        let len = (-(r + 1)) as u64;
        let bytes = self.read_output(export, len)?;
        serde_json::from_slice::<GameError>(&bytes)
            .map(Err::<u64, GameError>)
            .map_err(|e| Fault::Protocol {
                export,
                detail: format!(
                    "returned error code {r}, but its output is not a game error ({e})"
                ),
            })
    }

    /// A JSON result of type `T` (`what` names it in messages).
    fn json<T: DeserializeOwned>(&mut self, export: &'static str, r: i64, what: &str) -> Reply<T> {
        let len = match self.outcome(export, r)? {
            Ok(len) => len,
            Err(game) => return Ok(Err(game)),
        };
        let bytes = self.read_output(export, len)?;
        super::answers::check_json_size(&bytes, MAX_JSON_CONTAINERS)
            .map_err(|detail| Fault::Protocol { export, detail })?;
        serde_json::from_slice(&bytes)
            .map(Ok)
            .map_err(|e| Fault::Protocol {
                export,
                detail: format!("its output is not a valid {what} ({e})"),
            })
    }

    /// A raw bytes result.
    fn bytes(&mut self, export: &'static str, r: i64) -> Reply<Vec<u8>> {
        match self.outcome(export, r)? {
            Ok(len) => self.read_output(export, len).map(Ok),
            Err(game) => Ok(Err(game)),
        }
    }

    /// A number result that must fit a u32 (a handle or a count).
    fn number(&mut self, export: &'static str, r: i64) -> Reply<u32> {
        Ok(match self.outcome(export, r)? {
            Ok(n) => Ok(u32::try_from(n).map_err(|_| Fault::Protocol {
                export,
                detail: format!("returned {n}, which does not fit 32 bits"),
            })?),
            Err(game) => Err(game),
        })
    }

    // The ABI, one method per export (see `veillee_sdk::abi`).

    pub(crate) fn abi_version(&mut self) -> Result<i32, Fault> {
        self.call("veillee_abi_version", |e| &e.abi_version, ())
    }

    pub(crate) fn manifest(&mut self) -> Reply<Vec<u8>> {
        let r = self.call("veillee_manifest", |e| &e.manifest, ())?;
        self.bytes("veillee_manifest", r)
    }

    pub(crate) fn new_game(&mut self, setup_json: &[u8]) -> Reply<Handle> {
        let len = self.write_input(setup_json)?;
        let r = self.call("veillee_new", |e| &e.new, (len,))?;
        self.number("veillee_new", r)
    }

    pub(crate) fn load(&mut self, state: &[u8]) -> Reply<Handle> {
        let len = self.write_input(state)?;
        let r = self.call("veillee_load", |e| &e.load, (len,))?;
        self.number("veillee_load", r)
    }

    pub(crate) fn save(&mut self, game: Handle) -> Reply<Vec<u8>> {
        let r = self.call("veillee_save", |e| &e.save, (h(game),))?;
        self.bytes("veillee_save", r)
    }

    pub(crate) fn clone_game(&mut self, game: Handle) -> Reply<Handle> {
        let r = self.call("veillee_clone", |e| &e.clone, (h(game),))?;
        self.number("veillee_clone", r)
    }

    pub(crate) fn drop_game(&mut self, game: Handle) -> Result<(), Fault> {
        self.call("veillee_drop", |e| &e.drop, (h(game),))
    }

    pub(crate) fn status(&mut self, game: Handle) -> Reply<Status> {
        let r = self.call("veillee_status", |e| &e.status, (h(game),))?;
        self.json("veillee_status", r, "status")
    }

    pub(crate) fn legal_actions(&mut self, game: Handle, seat: Seat) -> Reply<Vec<Action>> {
        let r = self.call(
            "veillee_legal_actions",
            |e| &e.legal_actions,
            (h(game), i32::from(seat)),
        )?;
        self.json("veillee_legal_actions", r, "list of actions")
    }

    pub(crate) fn apply(&mut self, game: Handle, seat: Seat, action_id: &str) -> Reply<Vec<Event>> {
        let len = self.write_input(action_id.as_bytes())?;
        let r = self.call(
            "veillee_apply",
            |e| &e.apply,
            (h(game), i32::from(seat), len),
        )?;
        self.json("veillee_apply", r, "list of events")
    }

    pub(crate) fn action_count(&mut self, game: Handle, seat: Seat) -> Reply<u32> {
        let r = self.call(
            "veillee_action_count",
            |e| &e.action_count,
            (h(game), i32::from(seat)),
        )?;
        self.number("veillee_action_count", r)
    }

    pub(crate) fn apply_index(&mut self, game: Handle, seat: Seat, index: u32) -> Reply<()> {
        let r = self.call(
            "veillee_apply_index",
            |e| &e.apply_index,
            (h(game), i32::from(seat), index as i32),
        )?;
        Ok(self.outcome("veillee_apply_index", r)?.map(drop))
    }

    pub(crate) fn view(&mut self, game: Handle, seen_by: Option<Seat>) -> Reply<Scene> {
        let r = self.call("veillee_view", |e| &e.view, (h(game), viewer(seen_by)))?;
        self.json("veillee_view", r, "scene")
    }

    /// The export [`Live::playout`] calls: `veillee_playout_packed` when the plugin has it
    /// (ABI 1.13), else `veillee_playout`.
    pub(crate) fn playout_export(&self) -> &'static str {
        if self.exports.playout_packed.is_some() {
            "veillee_playout_packed"
        } else {
            "veillee_playout"
        }
    }

    pub(crate) fn playout(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Reply<PlayoutResult> {
        // The guest reads a negative count as 0, so clamp rather than bit-cast.
        let max_moves = i32::try_from(max_moves).unwrap_or(i32::MAX);
        let params = (h(game), seed as i64, max_moves);
        if self.exports.playout_packed.is_none() {
            let r = self.call("veillee_playout", |e| &e.playout, params)?;
            return self.json("veillee_playout", r, "playout result");
        }
        // ABI 1.13: the same playout, its result packed rather than JSON.
        let export = "veillee_playout_packed";
        let r = self.call(
            export,
            |e| e.playout_packed.as_ref().expect("checked above"),
            params,
        )?;
        let len = match self.outcome(export, r)? {
            Ok(len) => len,
            Err(game) => return Ok(Err(game)),
        };
        self.read_output_with(export, len, veillee_sdk::abi::packed::read)?
            .map(Ok)
            .map_err(|why| Fault::Protocol {
                export,
                detail: format!("its output is not a packed playout result: {why}"),
            })
    }

    /// A playout that stops before watched actions (ABI 1.7); `Ok(Ok(None))` when the
    /// plugin lacks the export.
    pub(crate) fn playout_until(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
        watch_json: &[u8],
    ) -> Reply<Option<PlayoutStop>> {
        let export = "veillee_playout_until";
        if self.exports.playout_until.is_none() {
            return Ok(Ok(None));
        }
        let max_moves = i32::try_from(max_moves).unwrap_or(i32::MAX);
        let len = self.write_input(watch_json)?;
        let r = self.call(
            export,
            |e| e.playout_until.as_ref().expect("checked above"),
            (h(game), seed as i64, max_moves, len),
        )?;
        Ok(self.json(export, r, "playout stop")?.map(Some))
    }

    /// A bot's search inside the plugin (ABI 1.8); `Ok(Ok(None))` when the plugin lacks the
    /// export. `request_json` is a JSON [`veillee_sdk::search::SearchRequest`].
    pub(crate) fn search(
        &mut self,
        game: Handle,
        seat: Seat,
        request_json: &[u8],
    ) -> Reply<Option<SearchAnswer>> {
        let export = "veillee_search";
        if self.exports.search.is_none() {
            return Ok(Ok(None));
        }
        let len = self.write_input(request_json)?;
        let r = self.call(
            export,
            |e| e.search.as_ref().expect("checked above"),
            (h(game), i32::from(seat), len),
        )?;
        Ok(self.json(export, r, "search answer")?.map(Some))
    }

    /// The game's evaluation for `players` seats (ABI 1.8); `Ok(Ok(None))` when the plugin
    /// lacks the export.
    pub(crate) fn evaluate(&mut self, game: Handle, players: u8) -> Reply<Option<Vec<f32>>> {
        let export = "veillee_evaluate";
        if self.exports.evaluate.is_none() {
            return Ok(Ok(None));
        }
        let r = self.call(
            export,
            |e| e.evaluate.as_ref().expect("checked above"),
            (h(game), i32::from(players)),
        )?;
        Ok(self.json(export, r, "list of values")?.map(Some))
    }

    /// Whether the plugin exports `veillee_operation` (ABI 1.1).
    pub(crate) fn has_operations(&self) -> bool {
        self.exports.operation.is_some()
    }

    /// Runs an operation; `call_json` is a JSON [`veillee_sdk::OperationCall`].
    pub(crate) fn operation(&mut self, game: Handle, call_json: &[u8]) -> Reply<serde_json::Value> {
        let export = "veillee_operation";
        if self.exports.operation.is_none() {
            return Ok(Err(GameError::Protocol(
                "this plugin offers no operations (ABI 1.0)".into(),
            )));
        }
        let len = self.write_input(call_json)?;
        let r = self.call(
            export,
            |e| e.operation.as_ref().expect("checked above"),
            (h(game), len),
        )?;
        self.json(export, r, "JSON value")
    }

    pub(crate) fn redraw_hidden(
        &mut self,
        game: Handle,
        seen_by: Option<Seat>,
        seed: u64,
    ) -> Reply<Handle> {
        let r = self.call(
            "veillee_redraw_hidden",
            |e| &e.redraw_hidden,
            (h(game), viewer(seen_by), seed as i64),
        )?;
        self.number("veillee_redraw_hidden", r)
    }
}
