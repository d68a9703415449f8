//! The wasm sandbox against hostile and broken plugins.
//!
//! Every plugin here is generated from WAT: a minimal but complete implementation of the
//! plugin ABI (a one-move game: seat 0 plays "win" and wins) in which one chosen entry point
//! misbehaves. Each case checks the error the host reports (kind, plugin name, call), and
//! that the very same `Runtime` still loads and plays a full game of the real Siège plugin.
//!
//! No assertion is about speed: an infinite loop must end in `Timeout`, however long the
//! machine takes to get there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::OnceLock;

use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::plugin::{
    CacheConfig, CompileLimits, CompilerCommand, Limits, Plugin, PluginError, Runtime,
    COMPILE_SUBCOMMAND,
};
use veillee_sdk::abi::{ABI_MAJOR, ABI_MINOR, REQUIRED_EXPORTS};
use veillee_sdk::{GameError, Setup, Status};

// ---------------------------------------------------------------------------------------
// A plugin in WAT
// ---------------------------------------------------------------------------------------

/// Spins forever (the function's result type is satisfied by the unreachable end).
const LOOP: &str = "(loop $spin (br $spin)) (unreachable)";
/// A plain trap.
const TRAP: &str = "(unreachable)";
/// Grows memory by 1 MiB at a time, ignoring failures, forever.
const GROW: &str = "(loop $grow (drop (memory.grow (i32.const 16))) (br $grow)) (unreachable)";
/// Unbounded recursion.
const RECURSE: &str = "(call $recurse) (unreachable)";

/// Manifest of the generated game.
const MANIFEST: &str = r##"{"id":"hostile","name":{"fr":"Hostile","en":"Hostile"},"description":{"fr":"Un greffon de test","en":"A test plugin"},"version":"1.0.0","min_players":1,"max_players":2,"seats":[{"name":{"fr":"A","en":"A"},"colour":"#aa0000"},{"name":{"fr":"B","en":"B"},"colour":"#0000aa"}],"hidden_information":false}"##;

const OUTCOME: &str = r#"{"winners":[0],"scores":[],"reason":{"fr":"fini","en":"done"}}"#;

/// Every ABI export: (name, WAT signature, default body). Parameters are read by index.
/// Game states live one byte per handle at 256 + handle (0: seat 0 to act, 1: finished).
const EXPORTS: &[(&str, &str, &str)] = &[
    ("veillee_abi_version", "(result i32)", "(i32.const @ABI)"),
    ("veillee_input", "(param i32) (result i32)", "(i32.const 32768)"),
    ("veillee_output_ptr", "(result i32)", "(global.get $out)"),
    ("veillee_manifest", "(result i64)", "(call $emit $$MANIFEST)"),
    ("veillee_new", "(param i32) (result i64)", "(call $alloc (i32.const 0))"),
    (
        "veillee_load",
        "(param i32) (result i64)",
        "(if (result i64) (i32.eqz (local.get 0)) (then (call $fail $$INVALID_STATE)) \
         (else (call $alloc (i32.eq (i32.load8_u (i32.const 32768)) (i32.const 49)))))",
    ),
    (
        "veillee_save",
        "(param i32) (result i64)",
        "(call $emit (i32.add @SAVE (call $state (local.get 0))) (i32.const 1))",
    ),
    ("veillee_clone", "(param i32) (result i64)", "(call $alloc (call $state (local.get 0)))"),
    ("veillee_drop", "(param i32)", "(nop)"),
    (
        "veillee_status",
        "(param i32) (result i64)",
        "(if (result i64) (call $state (local.get 0)) (then (call $emit $$FINISHED)) (else (call $emit $$TO_ACT)))",
    ),
    (
        "veillee_legal_actions",
        "(param i32 i32) (result i64)",
        "(if (result i64) (call $state (local.get 0)) (then (call $emit $$EMPTY)) (else (call $emit $$ACTIONS)))",
    ),
    (
        "veillee_apply",
        "(param i32 i32 i32) (result i64)",
        "(if (result i64) (call $state (local.get 0)) (then (call $fail $$GAME_OVER)) \
         (else (call $finish (local.get 0)) (call $emit $$EVENTS)))",
    ),
    (
        "veillee_action_count",
        "(param i32 i32) (result i64)",
        "(i64.extend_i32_u (i32.eqz (call $state (local.get 0))))",
    ),
    (
        "veillee_apply_index",
        "(param i32 i32 i32) (result i64)",
        "(if (result i64) (call $state (local.get 0)) (then (call $fail $$GAME_OVER)) \
         (else (if (result i64) (local.get 2) (then (call $fail $$ILLEGAL)) \
         (else (call $finish (local.get 0)) (i64.const 0)))))",
    ),
    ("veillee_view", "(param i32 i32) (result i64)", "(call $emit $$SCENE)"),
    (
        "veillee_playout",
        "(param i32 i64 i32) (result i64)",
        "(if (result i64) (call $state (local.get 0)) (then (call $emit $$PLAYOUT_DONE)) \
         (else (if (result i64) (i32.gt_s (local.get 2) (i32.const 0)) \
         (then (call $finish (local.get 0)) (call $emit $$PLAYOUT_ONE)) (else (call $emit $$PLAYOUT_OPEN)))))",
    ),
    (
        "veillee_redraw_hidden",
        "(param i32 i32 i64) (result i64)",
        "(call $alloc (call $state (local.get 0)))",
    ),
    ("veillee_panic_message", "(result i64)", "(i64.const 0)"),
];

/// A generated plugin: the well-formed one, plus chosen misbehaviours.
#[derive(Clone)]
struct Wat {
    abi: i32,
    manifest: String,
    bodies: BTreeMap<&'static str, String>,
    signatures: BTreeMap<&'static str, &'static str>,
    missing: BTreeSet<&'static str>,
    memory_export: bool,
    imports: Vec<&'static str>,
    start: Option<&'static str>,
    panic: Option<String>,
    /// More texts laid out in memory, used in bodies as `$$KEY` (offset and length).
    texts: Vec<(&'static str, String)>,
    /// Optional exports of later minor versions: (name, WAT signature, body).
    optional: Vec<(&'static str, &'static str, String)>,
}

impl Wat {
    /// The well-formed plugin.
    fn good() -> Self {
        Wat {
            abi: veillee_sdk::abi::encoded_version(),
            manifest: MANIFEST.into(),
            bodies: BTreeMap::new(),
            signatures: BTreeMap::new(),
            missing: BTreeSet::new(),
            memory_export: true,
            imports: Vec::new(),
            start: None,
            panic: None,
            texts: Vec::new(),
            optional: Vec::new(),
        }
    }

    /// Adds an optional export (`veillee_search`, …) with this signature and body.
    fn optional(
        mut self,
        export: &'static str,
        signature: &'static str,
        body: impl Into<String>,
    ) -> Self {
        self.optional.push((export, signature, body.into()));
        self
    }

    /// Lays out one more text, which bodies name `$$KEY`.
    fn text_named(mut self, key: &'static str, text: impl Into<String>) -> Self {
        self.texts.push((key, text.into()));
        self
    }

    /// Replaces an export's body.
    fn body(mut self, export: &'static str, body: impl Into<String>) -> Self {
        self.bodies.insert(export, body.into());
        self
    }

    /// Misbehaves only when `veillee_apply_index` is asked for index 7; plays normally
    /// otherwise (to check that the plugin recovers).
    fn on_index_7(self, misbehaviour: &str) -> Self {
        let body = format!(
            "(if (i32.eq (local.get 2) (i32.const 7)) (then {misbehaviour})) {}",
            default_body("veillee_apply_index")
        );
        self.body("veillee_apply_index", body)
    }

    fn signature(mut self, export: &'static str, signature: &'static str) -> Self {
        self.signatures.insert(export, signature);
        self
    }

    fn without(mut self, export: &'static str) -> Self {
        if export == "memory" {
            self.memory_export = false;
        } else {
            self.missing.insert(export);
        }
        self
    }

    fn import(mut self, line: &'static str) -> Self {
        self.imports.push(line);
        self
    }

    fn start(mut self, body: &'static str) -> Self {
        self.start = Some(body);
        self
    }

    /// `veillee_panic_message` returns this text.
    fn panicking(mut self, message: &str) -> Self {
        self.panic = Some(message.into());
        self
    }

    fn abi(mut self, encoded: i32) -> Self {
        self.abi = encoded;
        self
    }

    fn manifest(mut self, json: &str) -> Self {
        self.manifest = json.into();
        self
    }

    fn text(&self) -> String {
        let strings: Vec<(&str, String)> = vec![
            ("MANIFEST", self.manifest.clone()),
            ("TO_ACT", r#"{"state":"to_act","seats":[0]}"#.into()),
            (
                "FINISHED",
                format!(r#"{{"state":"finished","outcome":{OUTCOME}}}"#),
            ),
            ("EMPTY", "[]".into()),
            (
                "ACTIONS",
                r#"[{"id":"win","path":[],"label":{"fr":"Gagner","en":"Win"}}]"#.into(),
            ),
            (
                "EVENTS",
                r#"[{"text":{"fr":"Victoire","en":"Victory"},"reveal":false}]"#.into(),
            ),
            ("SCENE", r#"{"message":{"fr":"Jouez","en":"Play"}}"#.into()),
            (
                "PLAYOUT_ONE",
                format!(r#"{{"moves":1,"outcome":{OUTCOME},"stuck":false}}"#),
            ),
            (
                "PLAYOUT_DONE",
                format!(r#"{{"moves":0,"outcome":{OUTCOME},"stuck":false}}"#),
            ),
            (
                "PLAYOUT_OPEN",
                r#"{"moves":0,"outcome":null,"stuck":false}"#.into(),
            ),
            ("GAME_OVER", r#"{"error":"game_over"}"#.into()),
            (
                "ILLEGAL",
                r#"{"error":"illegal_action","detail":{"seat":0,"action":"?"}}"#.into(),
            ),
            (
                "INVALID_STATE",
                r#"{"error":"invalid_state","detail":"empty"}"#.into(),
            ),
            ("SAVE", "01".into()),
            ("PANIC", self.panic.clone().unwrap_or_default()),
        ];
        let strings: Vec<(&str, String)> = strings
            .into_iter()
            .chain(self.texts.iter().cloned())
            .collect();
        // Strings are laid out from 1024 on; inputs go to 32768.
        let mut data = String::new();
        let mut places = Vec::new();
        let mut offset = 1024;
        for (key, text) in &strings {
            data.push_str(&format!(
                "  (data (i32.const {offset}) \"{}\")\n",
                escape(text)
            ));
            places.push((*key, offset, text.len()));
            offset += text.len() + 1;
        }
        assert!(offset < 32768, "test strings overflow the data area");
        let place = |body: &str| {
            let mut body = body.replace("@ABI", &self.abi.to_string());
            for (key, offset, len) in &places {
                body = body.replace(
                    &format!("$${key}"),
                    &format!("(i32.const {offset}) (i32.const {len})"),
                );
                body = body.replace(&format!("@{key}"), &format!("(i32.const {offset})"));
            }
            body
        };

        let mut wat = String::from("(module\n");
        for import in &self.imports {
            wat.push_str(&format!("  {import}\n"));
        }
        if self.memory_export {
            wat.push_str("  (memory (export \"memory\") 1)\n");
        } else {
            wat.push_str("  (memory 1)\n");
        }
        wat.push_str(
            r#"  (global $out (mut i32) (i32.const 0))
  (global $next (mut i32) (i32.const 0))
  (func $emit (param i32 i32) (result i64)
    (global.set $out (local.get 0)) (i64.extend_i32_u (local.get 1)))
  (func $fail (param i32 i32) (result i64)
    (global.set $out (local.get 0)) (i64.sub (i64.const -1) (i64.extend_i32_u (local.get 1))))
  (func $state (param i32) (result i32) (i32.load8_u (i32.add (i32.const 256) (local.get 0))))
  (func $finish (param i32) (i32.store8 (i32.add (i32.const 256) (local.get 0)) (i32.const 1)))
  (func $alloc (param i32) (result i64) (local $h i32)
    (local.set $h (global.get $next))
    (i32.store8 (i32.add (i32.const 256) (local.get $h)) (local.get 0))
    (global.set $next (i32.add (local.get $h) (i32.const 1)))
    (i64.extend_i32_u (local.get $h)))
  (func $recurse (call $recurse))
"#,
        );
        for (name, signature, default) in EXPORTS {
            if self.missing.contains(name) {
                continue;
            }
            let mut body = self
                .bodies
                .get(name)
                .cloned()
                .unwrap_or_else(|| default.to_string());
            if *name == "veillee_panic_message"
                && self.panic.is_some()
                && !self.bodies.contains_key(name)
            {
                body =
                    "(i64.or (i64.shl (i64.extend_i32_u @PANIC) (i64.const 32)) (i64.const $LEN))"
                        .replace(
                            "$LEN",
                            &self.panic.as_ref().map_or(0, String::len).to_string(),
                        );
            }
            let signature = self.signatures.get(name).copied().unwrap_or(signature);
            wat.push_str(&format!(
                "  (func (export \"{name}\") {signature}\n    {})\n",
                place(&body)
            ));
        }
        for (name, signature, body) in &self.optional {
            wat.push_str(&format!(
                "  (func (export \"{name}\") {signature}\n    {})\n",
                place(body)
            ));
        }
        if let Some(start) = self.start {
            wat.push_str(&format!("  (func $start {start})\n  (start $start)\n"));
        }
        wat.push_str(&data);
        wat.push(')');
        wat
    }

    fn bytes(&self) -> Vec<u8> {
        let text = self.text();
        match wat::parse_str(&text) {
            Ok(bytes) => bytes,
            Err(e) => panic!("the test's WAT does not assemble: {e}\n{text}"),
        }
    }
}

fn default_body(export: &str) -> &'static str {
    EXPORTS
        .iter()
        .find(|(name, _, _)| *name == export)
        .map(|(_, _, body)| *body)
        .unwrap_or("(unreachable)")
}

/// Every byte as `\hh`: no quoting problems, any content.
fn escape(text: &str) -> String {
    text.bytes().map(|b| format!("\\{b:02x}")).collect()
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// Low limits so that hostile cases end quickly.
fn limits() -> Limits {
    Limits {
        memory_bytes: 32 << 20,
        call_seconds: 0.25,
        playout_seconds: 0.5,
        ..Limits::default()
    }
}

/// One compiled-code cache for the whole test binary: Siège is compiled once.
fn shared_cache() -> CacheConfig {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    cache_in(
        DIR.get_or_init(|| tempfile::tempdir().expect("temporary directory"))
            .path(),
    )
}

fn runtime() -> Runtime {
    Runtime::with_limits(Some(shared_cache()), limits()).expect("the runtime starts")
}

fn siege_bytes() -> &'static [u8] {
    veillee_runtime::builtin::plugin_bytes("siege").expect("Siège is a built-in plugin")
}

/// Status → first seat → legal actions → the first one, until the game ends or 400 moves.
fn play_full_game(engine: &mut dyn GameEngine, seed: u64) -> (Status, u32) {
    let game = engine.create(&Setup::new(2, seed)).expect("create");
    let mut moves = 0;
    loop {
        let status = engine.status(game).expect("status");
        let Some(&seat) = status.seats().first() else {
            engine.drop_game(game);
            return (status, moves);
        };
        if moves >= 400 {
            engine.drop_game(game);
            return (status, moves);
        }
        let actions = engine.legal_actions(game, seat).expect("legal actions");
        let first = actions.first().expect("a seat to act has a legal action");
        engine.apply(game, seat, &first.id).expect("apply");
        moves += 1;
    }
}

/// The runtime survived: it still loads and plays the real Siège plugin.
fn siege_still_plays(runtime: &Runtime) {
    let mut siege = runtime
        .load_builtin("siege", siege_bytes())
        .unwrap_or_else(|e| panic!("Siège loads: {e}"));
    let (status, moves) = play_full_game(&mut siege, 7);
    assert!(moves > 0, "Siège played no move ({status:?})");
}

fn load_error(runtime: &Runtime, name: &str, bytes: &[u8]) -> PluginError {
    match runtime.load(name, bytes) {
        Ok(plugin) => panic!("{name} should have been refused, but loaded: {plugin:?}"),
        Err(error) => {
            assert_names(&error, name);
            error
        }
    }
}

fn plugin_error<T: std::fmt::Debug>(name: &str, result: Result<T, EngineError>) -> PluginError {
    match result {
        Err(EngineError::Plugin(error)) => {
            assert_names(&error, name);
            error
        }
        other => panic!("{name}: expected a plugin failure, got {other:?}"),
    }
}

fn assert_names(error: &PluginError, name: &str) {
    let text = error.to_string();
    assert!(
        text.contains(name),
        "the message does not name plugin {name}: {text}"
    );
}

fn load(runtime: &Runtime, name: &str, wat: &Wat) -> Plugin {
    runtime
        .load(name, &wat.bytes())
        .unwrap_or_else(|e| panic!("{name} loads: {e}"))
}

/// Makes the call that reaches `export` (on a fresh game where one is needed).
fn reach(plugin: &mut Plugin, export: &str) -> Result<String, EngineError> {
    let game = if export == "veillee_new" || export == "veillee_input" || export == "veillee_load" {
        0
    } else {
        plugin.create(&Setup::new(2, 1))?
    };
    Ok(match export {
        "veillee_new" | "veillee_input" => format!("{:?}", plugin.create(&Setup::new(2, 1))?),
        "veillee_load" => format!("{:?}", plugin.load(b"0")?),
        "veillee_save" => format!("{:?}", plugin.save(game)?),
        "veillee_clone" => format!("{:?}", plugin.clone_game(game)?),
        "veillee_drop" => {
            plugin.drop_game(game);
            match plugin.take_drop_failure() {
                Some(failure) => return Err(EngineError::Plugin(failure)),
                None => "dropped".into(),
            }
        }
        "veillee_status" => format!("{:?}", plugin.status(game)?),
        "veillee_legal_actions" => format!("{:?}", plugin.legal_actions(game, 0)?),
        "veillee_apply" => format!("{:?}", plugin.apply(game, 0, "win")?),
        "veillee_action_count" => format!("{:?}", plugin.action_count(game, 0)?),
        "veillee_apply_index" => format!("{:?}", plugin.apply_index(game, 0, 0)?),
        "veillee_view" => format!("{:?}", plugin.view(game, None)?),
        "veillee_playout" => format!("{:?}", plugin.playout(game, 1, 100)?),
        "veillee_redraw_hidden" => format!("{:?}", plugin.redraw_hidden(game, Some(1), 3)?),
        other => panic!("no call reaches {other}"),
    })
}

/// Exports called while loading: a failure there fails the load.
const CALLED_AT_LOAD: &[&str] = &[
    "veillee_abi_version",
    "veillee_manifest",
    "veillee_output_ptr",
];

// ---------------------------------------------------------------------------------------
// The well-formed plugin (the baseline of every hostile case)
// ---------------------------------------------------------------------------------------

#[test]
fn the_generated_plugin_is_well_formed() {
    let runtime = runtime();
    let mut plugin = load(&runtime, "good", &Wat::good());
    assert_eq!(plugin.name(), "good");
    assert_eq!(plugin.abi_version(), (ABI_MAJOR, ABI_MINOR));
    assert_eq!(plugin.hash().len(), 64);
    assert_eq!(plugin.manifest().id, "hostile");

    let (status, moves) = play_full_game(&mut plugin, 1);
    assert_eq!(moves, 1);
    assert_eq!(status.outcome().map(|o| o.winners.clone()), Some(vec![0]));

    // Every call, once.
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    assert_eq!(plugin.action_count(game, 0).unwrap(), 1);
    assert_eq!(plugin.save(game).unwrap(), b"0");
    let copy = plugin.clone_game(game).unwrap();
    let redrawn = plugin.redraw_hidden(game, None, 9).unwrap();
    assert_eq!(plugin.view(game, Some(0)).unwrap().message.en, "Play");
    assert!(matches!(
        plugin.apply_index(game, 0, 3),
        Err(EngineError::Game(GameError::IllegalAction { .. }))
    ));
    plugin.apply_index(game, 0, 0).unwrap();
    assert!(matches!(
        plugin.apply(game, 0, "win"),
        Err(EngineError::Game(GameError::GameOver))
    ));
    let saved = plugin.save(game).unwrap();
    let loaded = plugin.load(&saved).unwrap();
    assert!(matches!(
        plugin.status(loaded).unwrap(),
        Status::Finished { .. }
    ));
    assert!(matches!(
        plugin.load(b""),
        Err(EngineError::Game(GameError::InvalidState(_)))
    ));
    let result = plugin.playout(copy, 5, 10).unwrap();
    assert_eq!(result.moves, 1);
    assert!(result.outcome.is_some());
    for handle in [game, copy, redrawn, loaded] {
        plugin.drop_game(handle);
    }
    assert!(plugin.take_drop_failure().is_none());
    // Dropped handles are refused by the host, not passed on.
    assert!(matches!(
        plugin.status(copy),
        Err(EngineError::Game(GameError::Protocol(_)))
    ));
}

#[test]
fn siege_plays_a_full_game() {
    siege_still_plays(&runtime());
}

// ---------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------

#[test]
fn an_infinite_loop_in_any_entry_point_is_stopped() {
    let runtime = runtime();
    for &export in REQUIRED_EXPORTS {
        if export == "veillee_panic_message" {
            continue; // only called after a trap: see `a_looping_panic_message_is_ignored`
        }
        let name = format!("loop-in-{export}");
        let wat = Wat::good().body(export, LOOP);
        let error = if CALLED_AT_LOAD.contains(&export) {
            load_error(&runtime, &name, &wat.bytes())
        } else {
            let mut plugin = load(&runtime, &name, &wat);
            let error = plugin_error(&name, reach(&mut plugin, export));
            // The plugin is restarted and answers calls that avoid the loop.
            if !["veillee_status", "veillee_new", "veillee_input"].contains(&export) {
                let game = plugin
                    .create(&Setup::new(1, 2))
                    .expect("create after a time-out");
                assert!(plugin.status(game).is_ok());
            }
            error
        };
        match &error {
            PluginError::Timeout { call, seconds, .. } => {
                assert_eq!(call, export, "{error}");
                assert_eq!(
                    *seconds,
                    if export == "veillee_playout" {
                        0.5
                    } else {
                        0.25
                    }
                );
            }
            other => panic!("{export}: expected a time-out, got {other}"),
        }
        siege_still_plays(&runtime);
    }
}

/// At the launcher's own limits, a playout that loops is stopped in seconds, not in a minute,
/// naming the plugin and the call (a real playout takes milliseconds).
#[test]
fn a_looping_playout_is_stopped_in_seconds_at_the_default_limits_naming_the_plugin() {
    let runtime = Runtime::with_limits(Some(shared_cache()), Limits::default()).unwrap();
    let wat = Wat::good().body("veillee_playout", LOOP);
    let mut plugin = load(&runtime, "spinning-playout", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let error = plugin_error("spinning-playout", plugin.playout(game, 1, 100).map(|_| ()));
    match &error {
        PluginError::Timeout { call, seconds, .. } => {
            assert_eq!(call, "veillee_playout");
            assert!(*seconds <= 5.0, "{error}");
        }
        other => panic!("expected a time-out, got {other}"),
    }
    assert!(error.to_string().contains("spinning-playout"), "{error}");
}

#[test]
fn a_looping_start_function_is_stopped() {
    let runtime = runtime();
    let error = load_error(&runtime, "loop-at-start", &Wat::good().start(LOOP).bytes());
    assert!(
        matches!(error, PluginError::Timeout { ref call, .. } if call == "instantiation"),
        "{error}"
    );
    siege_still_plays(&runtime);
}

#[test]
fn a_plugin_keeps_working_after_its_own_time_out() {
    let runtime = runtime();
    let mut plugin = load(&runtime, "sometimes-loops", &Wat::good().on_index_7(LOOP));
    let game = plugin.create(&Setup::new(2, 3)).unwrap();
    let error = plugin_error("sometimes-loops", plugin.apply_index(game, 0, 7));
    assert!(matches!(error, PluginError::Timeout { .. }), "{error}");
    let (status, moves) = play_full_game(&mut plugin, 4);
    assert_eq!((moves, status.outcome().is_some()), (1, true));
    siege_still_plays(&runtime);
}

// ---------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------

#[test]
fn unbounded_memory_growth_is_stopped() {
    let runtime = runtime();
    let mut plugin = load(
        &runtime,
        "memory-hog",
        &Wat::good().body("veillee_status", GROW),
    );
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let error = plugin_error("memory-hog", plugin.status(game));
    match &error {
        PluginError::OutOfMemory {
            call, limit_mib, ..
        } => {
            assert_eq!(call, "veillee_status");
            assert_eq!(*limit_mib, 32);
        }
        other => panic!("expected OutOfMemory, got {other}"),
    }
    // Also at start-up, and in the manifest call made while loading.
    let error = load_error(&runtime, "hog-at-start", &Wat::good().start(GROW).bytes());
    assert!(matches!(error, PluginError::OutOfMemory { .. }), "{error}");
    let error = load_error(
        &runtime,
        "hog-in-manifest",
        &Wat::good().body("veillee_manifest", GROW).bytes(),
    );
    assert!(
        matches!(error, PluginError::OutOfMemory { ref call, .. } if call == "veillee_manifest"),
        "{error}"
    );
    siege_still_plays(&runtime);
}

#[test]
fn unbounded_recursion_traps() {
    let runtime = runtime();
    let mut plugin = load(
        &runtime,
        "recursive",
        &Wat::good().body("veillee_view", RECURSE),
    );
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let error = plugin_error("recursive", plugin.view(game, None));
    assert!(
        matches!(error, PluginError::Trap { ref call, .. } if call == "veillee_view"),
        "{error}"
    );
    siege_still_plays(&runtime);
}

// ---------------------------------------------------------------------------------------
// Traps and panics
// ---------------------------------------------------------------------------------------

#[test]
fn a_trap_is_reported_and_the_plugin_recovers() {
    let runtime = runtime();
    let name = "sometimes-traps";
    let mut plugin = load(&runtime, name, &Wat::good().on_index_7(TRAP));
    let lost = plugin.create(&Setup::new(2, 3)).unwrap();
    let error = plugin_error(name, plugin.apply_index(lost, 0, 7));
    match &error {
        PluginError::Trap { call, detail, .. } => {
            assert_eq!(call, "veillee_apply_index");
            assert!(detail.contains("unreachable"), "{detail}");
        }
        other => panic!("expected a trap, got {other}"),
    }
    // Re-instantiated: games from before are lost (and say so), new ones play.
    match plugin.status(lost) {
        Err(EngineError::Game(GameError::Protocol(why))) => assert!(why.contains("lost"), "{why}"),
        other => panic!("a lost game should say so, got {other:?}"),
    }
    let (status, moves) = play_full_game(&mut plugin, 4);
    assert_eq!((moves, status.outcome().is_some()), (1, true));
    // The lost handle is never silently reused for another game.
    let fresh = plugin.create(&Setup::new(2, 5)).unwrap();
    assert_ne!(fresh, lost);
    plugin.drop_game(lost);
    assert!(plugin.take_drop_failure().is_none());
    siege_still_plays(&runtime);
}

#[test]
fn a_plain_trap_in_each_entry_point_is_a_trap() {
    let runtime = runtime();
    for &export in REQUIRED_EXPORTS {
        if export == "veillee_panic_message" {
            continue;
        }
        let name = format!("trap-in-{export}");
        let wat = Wat::good().body(export, TRAP);
        let error = if CALLED_AT_LOAD.contains(&export) {
            load_error(&runtime, &name, &wat.bytes())
        } else {
            let mut plugin = load(&runtime, &name, &wat);
            plugin_error(&name, reach(&mut plugin, export))
        };
        assert!(
            matches!(error, PluginError::Trap { ref call, .. } if call == export),
            "{export}: {error}"
        );
    }
    siege_still_plays(&runtime);
}

#[test]
fn a_panic_is_reported_with_its_message() {
    let runtime = runtime();
    let message = "panicked at src/rules.rs:12:5:\nthe lord vanished";
    let wat = Wat::good()
        .body("veillee_legal_actions", TRAP)
        .panicking(message);
    let mut plugin = load(&runtime, "panicky", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let error = plugin_error("panicky", plugin.legal_actions(game, 0));
    match &error {
        PluginError::Panic {
            call, message: got, ..
        } => {
            assert_eq!(call, "veillee_legal_actions");
            assert_eq!(got, message);
        }
        other => panic!("expected a panic, got {other}"),
    }
    assert!(error.to_string().contains("the lord vanished"), "{error}");
    // A panic message does not turn time-outs or memory exhaustion into panics.
    let wat = Wat::good()
        .body("veillee_status", LOOP)
        .panicking("unrelated");
    let mut plugin = load(&runtime, "panicky-loop", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let error = plugin_error("panicky-loop", plugin.status(game));
    assert!(matches!(error, PluginError::Timeout { .. }), "{error}");
    siege_still_plays(&runtime);
}

#[test]
fn a_misbehaving_panic_message_is_ignored() {
    let runtime = runtime();
    for (case, body) in [
        ("loops", LOOP.to_string()),
        ("traps", TRAP.to_string()),
        ("lies", "(i64.const -1)".to_string()),
        (
            "points-outside",
            format!(
                "(i64.or (i64.shl (i64.const {}) (i64.const 32)) (i64.const 10))",
                0xffff_fff0u32
            ),
        ),
    ] {
        let name = format!("panic-message-{case}");
        let wat = Wat::good()
            .body("veillee_status", TRAP)
            .body("veillee_panic_message", body);
        let mut plugin = load(&runtime, &name, &wat);
        let game = plugin.create(&Setup::new(2, 1)).unwrap();
        let error = plugin_error(&name, plugin.status(game));
        assert!(matches!(error, PluginError::Trap { .. }), "{case}: {error}");
    }
    siege_still_plays(&runtime);
}

// ---------------------------------------------------------------------------------------
// Lies
// ---------------------------------------------------------------------------------------

#[test]
fn a_lying_plugin_breaks_the_protocol_not_the_host() {
    let runtime = runtime();
    let cases: &[(&str, &str, &str)] = &[
        // Output far beyond memory.
        (
            "long-output",
            "veillee_status",
            "(global.set $out (i32.const 1024)) (i64.const 1000000)",
        ),
        (
            "far-pointer",
            "veillee_status",
            "(global.set $out (i32.const -16)) (i64.const 8)",
        ),
        // Valid JSON of the wrong type, then not JSON at all.
        ("wrong-json", "veillee_status", "(call $emit $$ACTIONS)"),
        (
            "not-json",
            "veillee_legal_actions",
            "(call $emit @SAVE (i32.const 2))",
        ),
        // An error code whose length is absurd, and an error that is not a GameError.
        (
            "huge-error",
            "veillee_view",
            "(i64.const -9223372036854775808)",
        ),
        ("bad-error", "veillee_view", "(call $fail $$SCENE)"),
        // A handle or count that does not fit 32 bits.
        ("huge-handle", "veillee_clone", "(i64.const 4294967296)"),
        (
            "huge-count",
            "veillee_action_count",
            "(i64.const 4294967296)",
        ),
    ];
    for (case, export, body) in cases {
        let name = format!("liar-{case}");
        let mut plugin = load(&runtime, &name, &Wat::good().body(export, *body));
        let error = plugin_error(&name, reach(&mut plugin, export));
        assert!(
            matches!(error, PluginError::Protocol { ref call, .. } if call == export),
            "{case}: {error}"
        );
    }
    // An input buffer outside memory.
    let name = "liar-input";
    let mut plugin = load(
        &runtime,
        name,
        &Wat::good().body("veillee_input", "(i32.const 65530)"),
    );
    let error = plugin_error(name, plugin.create(&Setup::new(2, 1)));
    assert!(
        matches!(error, PluginError::Protocol { ref call, .. } if call == "veillee_input"),
        "{error}"
    );
    // A manifest that is not one.
    let error = load_error(
        &runtime,
        "liar-manifest",
        &Wat::good().manifest("[1, 2, 3]").bytes(),
    );
    assert!(matches!(error, PluginError::BadManifest { .. }), "{error}");
    let bad = MANIFEST
        .replace(r#""id":"hostile""#, r#""id":"Not An Id!""#)
        .replace(r#""max_players":2"#, r#""max_players":0"#);
    let error = load_error(
        &runtime,
        "insane-manifest",
        &Wat::good().manifest(&bad).bytes(),
    );
    assert!(matches!(error, PluginError::BadManifest { .. }), "{error}");
    assert!(error.to_string().contains("Not An Id!"), "{error}");
    siege_still_plays(&runtime);
}

// ---------------------------------------------------------------------------------------
// Refused at load
// ---------------------------------------------------------------------------------------

#[test]
fn a_wrong_abi_version_is_refused() {
    let runtime = runtime();
    let error = load_error(
        &runtime,
        "future",
        &Wat::good().abi(((ABI_MAJOR as i32 + 1) << 16) | 3).bytes(),
    );
    assert!(matches!(error, PluginError::AbiMismatch { .. }), "{error}");
    let text = error.to_string();
    assert!(text.contains(&format!("{}.3", ABI_MAJOR + 1)), "{text}");
    assert!(text.contains(&format!("{ABI_MAJOR}.{ABI_MINOR}")), "{text}");
    // A newer minor version is compatible.
    let newer = load(
        &runtime,
        "newer-minor",
        &Wat::good().abi(((ABI_MAJOR as i32) << 16) | (ABI_MINOR as i32 + 1)),
    );
    assert_eq!(newer.abi_version(), (ABI_MAJOR, ABI_MINOR + 1));
    siege_still_plays(&runtime);
}

#[test]
fn missing_or_mistyped_exports_are_refused() {
    let runtime = runtime();
    for export in ["memory", "veillee_status", "veillee_panic_message"] {
        let name = format!("without-{export}");
        let error = load_error(&runtime, &name, &Wat::good().without(export).bytes());
        assert!(
            matches!(error, PluginError::MissingExport { export: ref e, .. } if e == export),
            "{error}"
        );
    }
    let error = load_error(
        &runtime,
        "mistyped",
        &Wat::good()
            .signature("veillee_apply", "(param i32 i32) (result i64)")
            .bytes(),
    );
    assert!(
        matches!(error, PluginError::MissingExport { ref export, .. } if export == "veillee_apply"),
        "{error}"
    );
    assert!(
        error.to_string().contains("(i32, i32, i32) -> i64"),
        "{error}"
    );
    siege_still_plays(&runtime);
}

#[test]
fn imports_are_refused() {
    let runtime = runtime();
    let cases = [
        (
            "wasi_snapshot_preview1",
            "fd_write",
            r#"(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#,
        ),
        (
            "env",
            "clock",
            r#"(import "env" "clock" (func (result i64)))"#,
        ),
        ("env", "entropy", r#"(import "env" "entropy" (global i64))"#),
    ];
    for (module, field, line) in cases {
        let name = format!("imports-{module}-{field}");
        let error = load_error(&runtime, &name, &Wat::good().import(line).bytes());
        match &error {
            PluginError::ForbiddenImport {
                module: m, name: n, ..
            } => assert_eq!((m.as_str(), n.as_str()), (module, field)),
            other => panic!("expected ForbiddenImport, got {other}"),
        }
        assert!(
            error.to_string().contains(&format!("{module}::{field}")),
            "{error}"
        );
    }
    siege_still_plays(&runtime);
}

#[test]
fn truncated_files_are_refused() {
    let runtime = runtime();
    for (source, bytes) in [
        ("generated", Wat::good().bytes()),
        ("siege", siege_bytes().to_vec()),
    ] {
        let len = bytes.len();
        // Not 8: the bare header is a valid (empty) module, refused as MissingExport.
        for cut in [0, 3, 4, 7, 9, 20, len / 3, len / 2, len - 1] {
            let name = format!("{source}-cut-at-{cut}");
            let error = load_error(&runtime, &name, &bytes[..cut]);
            assert!(
                matches!(
                    error,
                    PluginError::Invalid { .. } | PluginError::NotWasm { .. }
                ),
                "{name}: {error}"
            );
        }
    }
    siege_still_plays(&runtime);
}

#[test]
fn non_wasm_files_are_refused() {
    let runtime = runtime();
    let cases: [(&str, &[u8]); 5] = [
        ("image.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"),
        ("readme.txt", b"This is a board game, honest.\n"),
        ("empty", b""),
        ("script.sh", b"#!/bin/sh\nrm -rf /\n"),
        ("component", b"\0asm\x0d\0\x01\0"),
    ];
    for (name, bytes) in cases {
        let error = load_error(&runtime, name, bytes);
        if name == "component" {
            assert!(matches!(error, PluginError::Invalid { .. }), "{error}");
        } else {
            assert!(
                matches!(error, PluginError::NotWasm { .. }),
                "{name}: {error}"
            );
        }
    }
    // Valid header, garbage body.
    let error = load_error(&runtime, "garbage", b"\0asm\x01\0\0\0\xff\xff\xff\xff");
    assert!(matches!(error, PluginError::Invalid { .. }), "{error}");
    siege_still_plays(&runtime);
}

// ---------------------------------------------------------------------------------------
// Cache and duplicates
// ---------------------------------------------------------------------------------------

#[test]
fn the_compiled_code_cache_is_used_and_behaves_identically() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = Runtime::with_limits(Some(cache_in(dir.path())), limits()).unwrap();
    for (name, bytes) in [
        ("good", Wat::good().bytes()),
        ("siege", siege_bytes().to_vec()),
    ] {
        let mut cold = runtime.load(name, &bytes).unwrap();
        assert!(!cold.loaded_from_cache(), "{name}: the first load compiles");
        let mut warm = runtime.load(name, &bytes).unwrap();
        assert!(
            warm.loaded_from_cache(),
            "{name}: the second load uses the cache"
        );
        assert_eq!(cold.hash(), warm.hash());
        assert_eq!(cold.manifest(), warm.manifest());
        for seed in [1, 2, 3] {
            assert_eq!(
                play_full_game(&mut cold, seed),
                play_full_game(&mut warm, seed),
                "{name}, seed {seed}"
            );
        }
        // Another runtime on the same directory uses it too.
        let other = Runtime::with_limits(Some(cache_in(dir.path())), limits()).unwrap();
        assert!(other.load(name, &bytes).unwrap().loaded_from_cache());
    }

    // A damaged entry is thrown away and the plugin recompiled.
    let entries: Vec<_> = std::fs::read_dir(dir.path().join("cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    for entry in &entries {
        std::fs::write(entry, b"not machine code").unwrap();
    }
    let mut recompiled = runtime.load("good", &Wat::good().bytes()).unwrap();
    assert!(!recompiled.loaded_from_cache());
    assert_eq!(play_full_game(&mut recompiled, 1).1, 1);
    assert!(runtime
        .load("good", &Wat::good().bytes())
        .unwrap()
        .loaded_from_cache());
}

#[test]
fn duplicates_run_on_other_threads() {
    let runtime = runtime();
    let siege = runtime.load("siege", siege_bytes()).unwrap();
    let threads: Vec<_> = (0..2u64)
        .map(|seed| {
            let mut copy = siege.duplicate().unwrap();
            std::thread::spawn(move || play_full_game(&mut copy, seed))
        })
        .collect();
    let mut original = siege;
    for (seed, thread) in threads.into_iter().enumerate() {
        let result = thread.join().expect("the thread finished");
        assert_eq!(result, play_full_game(&mut original, seed as u64));
    }
}

// ---------------------------------------------------------------------------------------
// Answers that do not hold: each is a protocol error naming the plugin, the call
// and the problem, and the host goes on.
// ---------------------------------------------------------------------------------------

/// The message of a protocol violation of `call` by plugin `name`.
fn protocol<T: std::fmt::Debug>(name: &str, call: &str, result: Result<T, EngineError>) -> String {
    let error = plugin_error(name, result);
    assert!(
        matches!(error, PluginError::Protocol { call: ref c, .. } if c == call),
        "{name}: expected a protocol error of {call}, got {error}"
    );
    error.to_string()
}

const OUTCOME_GHOST: &str = r#"{"winners":[9],"scores":[],"reason":{"fr":"x","en":"x"}}"#;

#[test]
fn a_status_with_no_seat_to_act_or_a_seat_that_does_not_exist_is_refused() {
    let runtime = runtime();
    let finished_ghost = format!(r#"{{"state":"finished","outcome":{OUTCOME_GHOST}}}"#);
    let cases = [
        (
            "nobody-to-act",
            r#"{"state":"to_act","seats":[]}"#,
            "no seat to act",
        ),
        (
            "ghost-to-act",
            r#"{"state":"to_act","seats":[7]}"#,
            "seat 7 to act",
        ),
        (
            "twice-to-act",
            r#"{"state":"to_act","seats":[1,1]}"#,
            "seat 1 to act twice",
        ),
        (
            "ghost-winner",
            finished_ghost.as_str(),
            "seat 9 among the winners",
        ),
    ];
    for (name, status, problem) in cases {
        let wat = Wat::good()
            .text_named("ODD_STATUS", status)
            .body("veillee_status", "(call $emit $$ODD_STATUS)");
        let mut plugin = load(&runtime, name, &wat);
        let game = plugin.create(&Setup::new(2, 1)).unwrap();
        let message = protocol(name, "veillee_status", plugin.status(game));
        assert!(message.contains(problem), "{message}");
    }
    let wat = Wat::good()
        .text_named(
            "GHOST_PLAYOUT",
            format!(r#"{{"moves":1,"outcome":{OUTCOME_GHOST},"stuck":false}}"#),
        )
        .body("veillee_playout", "(call $emit $$GHOST_PLAYOUT)");
    let mut plugin = load(&runtime, "ghost-playout", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let message = protocol(
        "ghost-playout",
        "veillee_playout",
        plugin.playout(game, 1, 10),
    );
    assert!(message.contains("seat 9"), "{message}");
    siege_still_plays(&runtime);
}

#[test]
fn a_seat_to_act_without_a_move_is_refused() {
    let runtime = runtime();
    let wat = Wat::good()
        .body("veillee_legal_actions", "(call $emit $$EMPTY)")
        .body("veillee_action_count", "(i64.const 0)");
    let mut plugin = load(&runtime, "stuck", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    // Seat 1 is not to act: no move is the right answer.
    assert_eq!(plugin.legal_actions(game, 1).unwrap(), vec![]);
    let message = protocol(
        "stuck",
        "veillee_legal_actions",
        plugin.legal_actions(game, 0),
    );
    assert!(message.contains("no action for seat 0"), "{message}");
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let message = protocol(
        "stuck",
        "veillee_action_count",
        plugin.action_count(game, 0),
    );
    assert!(message.contains("seat 0"), "{message}");
    siege_still_plays(&runtime);
}

/// Lists `a` and `b` in turn: a byte of memory flips at every listing.
const FLIPPING_LIST: &str = "(i32.store8 (i32.const 200) (i32.xor (i32.load8_u (i32.const 200)) (i32.const 1))) \
     (if (result i64) (i32.load8_u (i32.const 200)) (then (call $emit $$LIST_A)) (else (call $emit $$LIST_B)))";

fn one_action(id: &str) -> String {
    format!(r#"[{{"id":"{id}","path":[],"label":{{"fr":"{id}","en":"{id}"}}}}]"#)
}

#[test]
fn action_ids_that_change_between_two_listings_are_refused() {
    let runtime = runtime();
    let wat = Wat::good()
        .text_named("LIST_A", one_action("a"))
        .text_named("LIST_B", one_action("b"))
        .body("veillee_legal_actions", FLIPPING_LIST);
    let mut plugin = load(&runtime, "shifty", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    assert_eq!(plugin.legal_actions(game, 0).unwrap()[0].id, "a");
    let message = protocol(
        "shifty",
        "veillee_legal_actions",
        plugin.legal_actions(game, 0),
    );
    assert!(
        message.contains("(`b`) than a moment before (`a`)"),
        "{message}"
    );

    // Listed, then refused as illegal with nothing in between.
    let wat = Wat::good().body("veillee_apply", "(call $fail $$ILLEGAL)");
    let mut plugin = load(&runtime, "fickle", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    assert_eq!(plugin.legal_actions(game, 0).unwrap()[0].id, "win");
    let message = protocol("fickle", "veillee_apply", plugin.apply(game, 0, "win"));
    assert!(message.contains("refused `win`"), "{message}");
    // An id it never listed is only the game refusing it.
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    assert!(matches!(
        plugin.apply(game, 0, "lose"),
        Err(EngineError::Game(GameError::IllegalAction { .. }))
    ));

    let twice = format!(
        "[{}, {}]",
        &one_action("x")[1..one_action("x").len() - 1],
        &one_action("x")[1..one_action("x").len() - 1]
    );
    let wat = Wat::good()
        .text_named("TWICE", twice)
        .body("veillee_legal_actions", "(call $emit $$TWICE)");
    let mut plugin = load(&runtime, "echo", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let message = protocol(
        "echo",
        "veillee_legal_actions",
        plugin.legal_actions(game, 0),
    );
    assert!(message.contains("`x` twice"), "{message}");
    siege_still_plays(&runtime);
}

#[test]
fn a_238_mb_answer_under_the_memory_cap_is_refused_before_it_is_read() {
    // The plugin may have 256 MiB, and fills most of it with one answer.
    let runtime = Runtime::with_limits(
        None,
        Limits {
            memory_bytes: 256 << 20,
            ..limits()
        },
    )
    .unwrap();
    let huge = "(drop (memory.grow (i32.const 3700))) (global.set $out (i32.const 65536)) \
                (i64.const 238000000)";
    let mut plugin = load(
        &runtime,
        "huge-answer",
        &Wat::good().body("veillee_view", huge),
    );
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let message = protocol("huge-answer", "veillee_view", plugin.view(game, None));
    assert!(
        message.contains("238000000 bytes") && message.contains("nothing was read"),
        "{message}"
    );
    // Three bytes per value, 300,000 values: small, but far too many values to parse.
    let many = "(local $at i32) (drop (memory.grow (i32.const 16))) (local.set $at (i32.const 65537)) \
        (i32.store8 (i32.const 65536) (i32.const 91)) \
        (block $done (loop $fill (br_if $done (i32.ge_u (local.get $at) (i32.const 965537))) \
          (i32.store8 (local.get $at) (i32.const 91)) (i32.store8 offset=1 (local.get $at) (i32.const 93)) \
          (i32.store8 offset=2 (local.get $at) (i32.const 44)) \
          (local.set $at (i32.add (local.get $at) (i32.const 3))) (br $fill))) \
        (global.set $out (i32.const 65536)) (i64.const 900001)";
    let mut plugin = load(
        &runtime,
        "many-values",
        &Wat::good().body("veillee_legal_actions", many),
    );
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let message = protocol(
        "many-values",
        "veillee_legal_actions",
        plugin.legal_actions(game, 0),
    );
    assert!(message.contains("JSON objects and lists"), "{message}");
    siege_still_plays(&runtime);
}

// ---------------------------------------------------------------------------------------
// The compiled-code cache is not trusted
// ---------------------------------------------------------------------------------------

fn cache_in(dir: &std::path::Path) -> CacheConfig {
    CacheConfig {
        dir: dir.join("cache"),
        key_file: dir.join("compiled-code.key"),
    }
}

/// The cache entry of the plugin whose content hash is `hash`.
fn entry_of(dir: &std::path::Path, hash: &str) -> PathBuf {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir.join("cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "cwasm")
                && p.file_name().unwrap().to_string_lossy().starts_with(hash)
        })
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries[0].clone()
}

/// Loads Siège and checks that what runs is Siège, compiled afresh (`from_cache`) or not.
fn siege_from(runtime: &Runtime, from_cache: bool) {
    let mut siege = runtime.load_builtin("siege", siege_bytes()).unwrap();
    assert_eq!(
        siege.manifest().id,
        "siege",
        "another plugin's code ran as Siège"
    );
    assert_eq!(siege.loaded_from_cache(), from_cache);
    assert!(play_full_game(&mut siege, 3).1 > 0);
}

#[test]
fn a_planted_or_tampered_compiled_artifact_is_never_run() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = Runtime::with_limits(Some(cache_in(dir.path())), limits()).unwrap();
    assert_eq!(runtime.cache_problem(), None);
    let good = runtime.load("good", &Wat::good().bytes()).unwrap();
    let siege = runtime.load_builtin("siege", siege_bytes()).unwrap();
    let (good_entry, siege_entry) = (
        entry_of(dir.path(), good.hash()),
        entry_of(dir.path(), siege.hash()),
    );
    siege_from(&runtime, true);

    // Another plugin's entry, signature and all, planted under Siège's name.
    std::fs::copy(&good_entry, &siege_entry).unwrap();
    siege_from(&runtime, false);
    siege_from(&runtime, true);

    // One byte of Siège's compiled code changed.
    let mut bytes = std::fs::read(&siege_entry).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&siege_entry, &bytes).unwrap();
    siege_from(&runtime, false);

    // A genuine wasmtime artifact without a signature (what the former cache wrote, and what
    // anyone with a copy of wasmtime can make): the other plugin's code under Siège's name.
    let signed = std::fs::read(&good_entry).unwrap();
    std::fs::write(&siege_entry, &signed[16 + 32..]).unwrap();
    siege_from(&runtime, false);

    // The same directory under another installation's key: nothing of it verifies.
    let other_key = CacheConfig {
        key_file: dir.path().join("another.key"),
        ..cache_in(dir.path())
    };
    let other = Runtime::with_limits(Some(other_key), limits()).unwrap();
    siege_from(&other, false);
    // … and what it wrote does not verify under the first key.
    siege_from(&runtime, false);
    siege_from(&runtime, true);
}

#[cfg(unix)]
#[test]
fn a_cache_or_key_that_others_can_write_is_not_used() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let config = cache_in(dir.path());
    std::fs::create_dir_all(&config.dir).unwrap();
    std::fs::set_permissions(&config.dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let runtime = Runtime::with_limits(Some(config.clone()), limits()).unwrap();
    let problem = runtime
        .cache_problem()
        .expect("a world-writable cache is refused");
    assert!(problem.contains("writable by other users"), "{problem}");
    siege_from(&runtime, false);
    siege_from(&runtime, false);

    // Private again: used. Then an entry others may write is thrown away.
    std::fs::set_permissions(&config.dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let runtime = Runtime::with_limits(Some(config.clone()), limits()).unwrap();
    assert_eq!(runtime.cache_problem(), None);
    siege_from(&runtime, false);
    let hash = runtime
        .load_builtin("siege", siege_bytes())
        .unwrap()
        .hash()
        .to_string();
    let entry = entry_of(dir.path(), &hash);
    std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o666)).unwrap();
    siege_from(&runtime, false);

    // A key others can read signs nothing.
    std::fs::set_permissions(&config.key_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let runtime = Runtime::with_limits(Some(config), limits()).unwrap();
    let problem = runtime.cache_problem().expect("a readable key is refused");
    assert!(
        problem.contains("readable or writable by other users"),
        "{problem}"
    );
}

// ---------------------------------------------------------------------------------------
// Compiling untrusted plugins
// ---------------------------------------------------------------------------------------

/// The tests' compiler process (`src/bin/compile_child.rs`).
fn compiler() -> CompilerCommand {
    CompilerCommand::new(env!("CARGO_BIN_EXE_compile_child"), [COMPILE_SUBCOMMAND])
}

/// Unsigned LEB128, as wasm writes counts and sizes.
fn leb(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// A module of `functions` functions `() -> ()`, each `body` (its locals declaration and
/// instructions, without the final `end`), written byte by byte. With `abi_names`, it also
/// has a memory and exports every name of the ABI (all as function 0, of the wrong type):
/// it passes the checks made before compiling and is refused only once compiled.
fn module_of(functions: u32, body: &[u8], abi_names: bool) -> Vec<u8> {
    let section = |id: u8, content: Vec<u8>, out: &mut Vec<u8>| {
        out.push(id);
        leb(content.len() as u64, out);
        out.extend(content);
    };
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    section(1, vec![1, 0x60, 0, 0], &mut wasm);
    let mut declared = Vec::new();
    leb(u64::from(functions), &mut declared);
    declared.extend(std::iter::repeat_n(0u8, functions as usize));
    section(3, declared, &mut wasm);
    if abi_names {
        section(5, vec![1, 0, 1], &mut wasm); // one memory of one page
        let mut exports = Vec::new();
        leb(REQUIRED_EXPORTS.len() as u64 + 1, &mut exports);
        let mut export = |name: &str, kind: u8| {
            leb(name.len() as u64, &mut exports);
            exports.extend_from_slice(name.as_bytes());
            exports.extend_from_slice(&[kind, 0]);
        };
        export("memory", 2);
        for name in REQUIRED_EXPORTS {
            export(name, 0);
        }
        section(7, exports, &mut wasm);
    }
    let mut code = Vec::new();
    leb(u64::from(functions), &mut code);
    for _ in 0..functions {
        leb(body.len() as u64 + 1, &mut code);
        code.extend_from_slice(body);
        code.push(0x0b);
    }
    section(10, code, &mut wasm);
    wasm
}

/// A body that returns at once (no locals, no instructions).
const TRIVIAL: &[u8] = &[0];

/// A body with one i32 local and `n` times `local.get 0; i32.const 1; i32.add; local.set 0`.
fn arithmetic(n: usize) -> Vec<u8> {
    let mut body = vec![0x01, 0x01, 0x7f];
    for _ in 0..n {
        body.extend_from_slice(&[0x20, 0, 0x41, 1, 0x6a, 0x21, 0]);
    }
    body
}

/// A module within the size caps that takes the compiler far longer and far more memory
/// than any game: 9,500 functions of 60 additions each (4 MB of code).
fn heavy_module() -> Vec<u8> {
    module_of(9_500, &arithmetic(60), true)
}

#[test]
fn a_module_of_300000_trivial_functions_is_refused_before_compiling() {
    let bomb = module_of(300_000, TRIVIAL, false);
    assert!(bomb.len() < 4 << 20, "a small file: {} bytes", bomb.len());
    for runtime in [runtime(), runtime().compiling_in(Some(compiler()))] {
        let error = load_error(&runtime, "bomb", &bomb);
        assert!(matches!(error, PluginError::TooLarge { .. }), "{error}");
        assert!(error.to_string().contains("300000 functions"), "{error}");
        siege_still_plays(&runtime);
    }
}

#[test]
fn one_enormous_function_is_refused_before_compiling() {
    let mut body = vec![0u8];
    body.extend(std::iter::repeat_n(0x01u8, 2 << 20)); // two million `nop`s
    let error = load_error(&runtime(), "enormous", &module_of(1, &body, false));
    assert!(matches!(error, PluginError::TooLarge { .. }), "{error}");
    assert!(error.to_string().contains("function number 0"), "{error}");
}

#[test]
fn every_builtin_game_compiles_in_a_compiler_process_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let runtime = Runtime::with_limits(Some(cache_in(dir.path())), limits())
        .unwrap()
        .compiling_in(Some(compiler()));
    assert!(runtime.compiles_in_child());
    for (id, bytes) in veillee_runtime::builtin::BUILTIN_PLUGINS {
        let mut plugin = runtime
            .load(id, bytes)
            .unwrap_or_else(|e| panic!("{id} compiles in a child: {e}"));
        assert!(!plugin.loaded_from_cache());
        let game = plugin
            .create(&Setup::new(plugin.manifest().min_players, 1))
            .unwrap();
        assert!(plugin.playout(game, 1, 100_000).unwrap().moves > 0, "{id}");
        // What the child compiled went into the cache.
        assert!(runtime.load(id, bytes).unwrap().loaded_from_cache(), "{id}");
    }
}

#[test]
fn a_compile_past_its_time_or_memory_budget_is_stopped() {
    let heavy = heavy_module();
    let budget = |compile: CompileLimits| {
        Runtime::with_limits(
            None,
            Limits {
                compile,
                ..limits()
            },
        )
        .unwrap()
        .compiling_in(Some(compiler()))
    };
    let slow = budget(CompileLimits {
        seconds: 0.2,
        ..CompileLimits::default()
    });
    let error = load_error(&slow, "slow-to-compile", &heavy);
    assert!(
        matches!(error, PluginError::CompileBudget { .. })
            && error.to_string().contains("took more than 0.2 s"),
        "{error}"
    );
    siege_still_plays(&slow);
    let greedy = budget(CompileLimits {
        memory_bytes: 64 << 20,
        ..CompileLimits::default()
    });
    let error = load_error(&greedy, "greedy-to-compile", &heavy);
    assert!(
        matches!(error, PluginError::CompileBudget { .. })
            && error.to_string().contains("more than 64 MiB of memory"),
        "{error}"
    );
    siege_still_plays(&greedy);

    // With a cache, a compile past its budget is remembered: the next start refuses the
    // same bytes at once, until they are installed again.
    let dir = tempfile::tempdir().unwrap();
    let remembering = Runtime::with_limits(
        Some(cache_in(dir.path())),
        Limits {
            compile: CompileLimits {
                seconds: 0.2,
                ..CompileLimits::default()
            },
            ..limits()
        },
    )
    .unwrap()
    .compiling_in(Some(compiler()));
    let first = load_error(&remembering, "slow", &heavy).to_string();
    assert!(!first.contains("tried before"), "{first}");
    let again = load_error(&remembering, "slow", &heavy).to_string();
    assert!(
        again.contains("took more than 0.2 s when it was tried before"),
        "{again}"
    );
    let retried = match remembering.load_again("slow", &heavy) {
        Ok(_) => panic!("the heavy module compiled within 0.2 s"),
        Err(error) => error.to_string(),
    };
    assert!(!retried.contains("tried before"), "{retried}");
}

/// `veillee_apply` that refuses what it does not list (seat 0's "win"), as the
/// conformance kit of the install self-check wants.
const APPLY_WIN_ONLY: &str = "(if (result i64) (call $state (local.get 0)) (then (call $fail $$GAME_OVER)) \
     (else (if (result i64) (i32.and (i32.eqz (local.get 1)) (i32.and (i32.eq (local.get 2) (i32.const 3)) \
       (i32.and (i32.eq (i32.load16_u (i32.const 32768)) (i32.const 0x6977)) \
         (i32.eq (i32.load8_u (i32.const 32770)) (i32.const 0x6e))))) \
       (then (call $finish (local.get 0)) (call $emit $$EVENTS)) (else (call $fail $$ILLEGAL)))))";

#[test]
fn hostile_installed_plugins_are_left_out_with_their_reasons_and_the_library_opens() {
    let dir = tempfile::tempdir().unwrap();
    let data = veillee_runtime::data_dir::DataDir::at(dir.path());
    let plugins = data.plugins();
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::write(
        plugins.join("bomb.wasm"),
        module_of(300_000, TRIVIAL, false),
    )
    .unwrap();
    std::fs::write(plugins.join("loops.wasm"), Wat::good().start(LOOP).bytes()).unwrap();
    // Passes loading, fails its self-check: seat 0 never has a move.
    let stuck = Wat::good()
        .body("veillee_legal_actions", "(call $emit $$EMPTY)")
        .manifest(&MANIFEST.replace(r#""id":"hostile""#, r#""id":"stuck""#));
    std::fs::write(plugins.join("stuck.wasm"), stuck.bytes()).unwrap();
    let fine = Wat::good().body("veillee_apply", APPLY_WIN_ONLY);
    std::fs::write(plugins.join("fine.wasm"), fine.bytes()).unwrap();
    let runtime = Runtime::with_limits(Some(veillee_tests::temp_cache(&data)), limits())
        .unwrap()
        .compiling_in(Some(compiler()));
    let catalog = veillee_runtime::catalog::Catalog::open(runtime, data);
    let problems = catalog.problems().join("\n");
    for (file, why) in [
        ("bomb.wasm", "300000 functions"),
        ("loops", "did not finish"),
        ("stuck.wasm", "self-check"),
    ] {
        assert!(
            problems.lines().any(|l| l.contains(file)) && problems.contains(why),
            "{file}: {why} in {problems}"
        );
    }
    let ids: Vec<&str> = catalog
        .games()
        .iter()
        .map(|g| g.manifest().id.as_str())
        .collect();
    assert!(
        ids.contains(&"siege") && ids.contains(&"hostile"),
        "{ids:?}\n{problems}"
    );
    assert!(!ids.contains(&"stuck"), "{ids:?}");
}

// ---------------------------------------------------------------------------------------
// Sessions over a plugin that misbehaves, is fixed, or changes its rules
// ---------------------------------------------------------------------------------------

#[test]
fn a_session_resumes_once_its_plugin_is_fixed_and_other_rules_under_its_id_are_caught() {
    use veillee_runtime::session::{SessionError, Sessions};
    use veillee_runtime::store::model::{PlayerKind, SeatPlayer};

    let (store, _dir) = veillee_tests::temp_store();
    let sessions = Sessions::new(store);
    let runtime = runtime();
    let seats: Vec<SeatPlayer> = ["Ana", "Bruno"]
        .map(|name| SeatPlayer {
            name: name.into(),
            kind: PlayerKind::Human,
            level: None,
        })
        .into();
    let stuck_wat = Wat::good().body("veillee_legal_actions", "(call $emit $$EMPTY)");
    let mut stuck = load(&runtime, "stuck", &stuck_wat);
    let live = sessions.start(&mut stuck, seats, Setup::new(2, 1)).unwrap();
    let id = live.meta.id;
    // The front end asks for seat 0's moves: an error naming the plugin, nothing lost.
    protocol(
        "stuck",
        "veillee_legal_actions",
        stuck.legal_actions(live.game, 0),
    );
    let live = sessions.resume(&mut stuck, id).unwrap();
    protocol(
        "stuck",
        "veillee_legal_actions",
        stuck.legal_actions(live.game, 0),
    );

    // The fixed build (other bytes, same game): the session resumes and ends.
    let mut fixed = load(&runtime, "fixed", &Wat::good());
    let mut live = sessions.resume(&mut fixed, id).unwrap();
    let actions = fixed.legal_actions(live.game, 0).unwrap();
    sessions
        .apply(
            &mut fixed,
            &mut live,
            0,
            &actions[0].id,
            serde_json::Value::Null,
        )
        .unwrap();
    assert!(sessions.get(id).unwrap().status.outcome().is_some());

    // Other rules under the same id: the same moves stay legal and the outcome is the
    // same, but the game is not (its state differs): refused, saying where.
    let impostor_wat = Wat::good().text_named("OTHER_SAVE", "ab").body(
        "veillee_save",
        "(call $emit (i32.add @OTHER_SAVE (call $state (local.get 0))) (i32.const 1))",
    );
    let mut impostor = load(&runtime, "impostor", &impostor_wat);
    let error = sessions.resume(&mut impostor, id).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, SessionError::Diverged(_)), "{message}");
    assert!(
        message.contains("move 0") && message.contains("not the one saved"),
        "{message}"
    );
    // Untouched: it still resumes with the build it was played with.
    assert!(sessions.resume(&mut fixed, id).is_ok());
}

// ---------------------------------------------------------------------------------------
// The manifest section (ABI 1.9): listed without compiling, held to the code
// ---------------------------------------------------------------------------------------

/// A plugin that passes the self-check, with `manifest` in its `veillee-manifest` section.
fn sealed(manifest: &veillee_sdk::Manifest) -> Vec<u8> {
    let plugin = Wat::good().body("veillee_apply", APPLY_WIN_ONLY).bytes();
    veillee_sdk::abi::with_manifest_section(&plugin, manifest).unwrap()
}

fn hostile_manifest() -> veillee_sdk::Manifest {
    serde_json::from_str(MANIFEST).unwrap()
}

#[test]
fn a_manifest_section_is_read_without_compiling_and_a_section_that_lies_is_refused_at_load() {
    let runtime = runtime();
    let manifest = hostile_manifest();
    let bytes = sealed(&manifest);
    assert_eq!(
        runtime.declared_manifest("sealed.wasm", &bytes).unwrap(),
        Some(manifest.clone())
    );
    let plain = Wat::good().bytes();
    assert_eq!(
        runtime.declared_manifest("plain.wasm", &plain).unwrap(),
        None
    );
    runtime
        .load("sealed.wasm", &bytes)
        .expect("its code agrees");

    // Another table size than the code's: the file was changed after it was built.
    let mut other = manifest.clone();
    other.max_players = 1;
    other.seats.truncate(1);
    let error = runtime
        .load("lying.wasm", &sealed(&other))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("lying.wasm") && error.contains("`max_players` differs"),
        "{error}"
    );

    // A section that is not a manifest: refused before any compiling, in words.
    let mut garbage = plain.clone();
    let name = veillee_sdk::abi::MANIFEST_SECTION.as_bytes();
    garbage.extend([0, (1 + name.len() + 3) as u8, name.len() as u8]);
    garbage.extend(name);
    garbage.extend(b"{no");
    let error = runtime
        .declared_manifest("garbage.wasm", &garbage)
        .unwrap_err()
        .to_string();
    assert!(error.contains("not valid manifest JSON"), "{error}");
}

#[test]
fn an_installed_game_with_a_section_is_listed_without_compiling_once_its_bytes_passed_the_check() {
    use veillee_runtime::catalog::{Catalog, Readiness};
    let dir = tempfile::tempdir().unwrap();
    let data = veillee_runtime::data_dir::DataDir::at(dir.path());
    std::fs::create_dir_all(data.plugins()).unwrap();
    let file = data.plugins().join("sealed.wasm");
    std::fs::write(&file, sealed(&hostile_manifest())).unwrap();
    let runtime =
        || Runtime::with_limits(Some(veillee_tests::temp_cache(&data)), limits()).unwrap();

    // First sight: compiled and self-checked before it is listed.
    let catalog = Catalog::open(runtime(), data.clone());
    let entry = catalog.game("hostile").expect("listed once checked");
    assert_eq!(entry.readiness(), Readiness::Ready);

    // The next start lists it from its section and compiles it when it is played.
    let catalog = Catalog::scan(runtime(), data.clone());
    assert_eq!(
        catalog.game("hostile").map(|e| e.readiness()),
        Some(Readiness::Listed)
    );
    assert_eq!(
        catalog.game("siege").map(|e| e.readiness()),
        Some(Readiness::Listed),
        "built-in games are listed without compiling too"
    );
    catalog.engine("hostile").expect("it compiles when played");
    assert_eq!(
        catalog.game("hostile").map(|e| e.readiness()),
        Some(Readiness::Ready)
    );

    // Replaced behind the launcher's back by bytes whose section says another game: new bytes
    // are compiled before they are listed, and the lie is refused.
    let mut other = hostile_manifest();
    other.max_players = 1;
    other.seats.truncate(1);
    std::fs::write(&file, sealed(&other)).unwrap();
    let catalog = Catalog::open(runtime(), data);
    assert!(catalog.game("hostile").is_none());
    let problems = catalog.problems().join("\n");
    assert!(
        problems.contains("does not match what its code answers"),
        "{problems}"
    );
}

// ---------------------------------------------------------------------------------------
// The bots' exports (ABI 1.8): answers checked like the others
// ---------------------------------------------------------------------------------------

const SEARCH: &str = "(param i32 i32 i32) (result i64)";
const EVALUATE: &str = "(param i32 i32) (result i64)";

/// A plugin's search that answers an action its seat cannot play (as its choice, among its
/// root statistics or as a move proven lost), root visits beyond its iterations or a root
/// value outside 0–1, or its evaluation values
/// outside 0–1 or for the wrong number of seats, is a protocol violation naming the export;
/// the plugin restarts and plays on. A search of the wrong type is refused at load.
#[test]
fn search_and_evaluation_answers_are_checked() {
    use veillee_sdk::search::SearchRequest;
    let runtime = runtime();
    let request = SearchRequest::new(10, 4, 1, 2);
    let good = Wat::good()
        .text_named(
            "CHOSEN",
            r#"{"action":"win","iterations":10,"visits":7,"value":0.9}"#,
        )
        .optional("veillee_search", SEARCH, "(call $emit $$CHOSEN)")
        .text_named("VALUES", "[0.75,0.25]")
        .optional("veillee_evaluate", EVALUATE, "(call $emit $$VALUES)");
    let mut plugin = load(&runtime, "searching", &good);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let answer = plugin
        .search(game, 0, &request)
        .unwrap()
        .expect("it searches");
    assert_eq!(answer.action, "win");
    assert_eq!(plugin.evaluate(game, 2).unwrap(), Some(vec![0.75, 0.25]));

    let cases = [
        (
            Wat::good()
                .text_named(
                    "CHOSEN",
                    r#"{"action":"lose","iterations":1,"visits":1,"value":0.5}"#,
                )
                .optional("veillee_search", SEARCH, "(call $emit $$CHOSEN)"),
            "veillee_search",
            "chose `lose`, which is not among the seat's 1 legal actions",
        ),
        (
            Wat::good()
                .text_named(
                    "CHOSEN",
                    r#"{"action":"win","iterations":10,"visits":7,"value":0.9,"root":[{"action":"lose","visits":3,"value":0.5}]}"#,
                )
                .optional("veillee_search", SEARCH, "(call $emit $$CHOSEN)"),
            "veillee_search",
            "listed `lose` among the root moves, which is not a legal action it may choose",
        ),
        (
            Wat::good()
                .text_named(
                    "CHOSEN",
                    r#"{"action":"win","iterations":10,"visits":7,"value":0.9,"root":[{"action":"win","visits":4000000000,"value":0.9}]}"#,
                )
                .optional("veillee_search", SEARCH, "(call $emit $$CHOSEN)"),
            "veillee_search",
            "counted 4000000000 visits of root moves in 10 iterations",
        ),
        (
            Wat::good()
                .text_named(
                    "CHOSEN",
                    r#"{"action":"win","iterations":10,"visits":7,"value":0.9,"root":[{"action":"win","visits":7,"value":1.5}]}"#,
                )
                .optional("veillee_search", SEARCH, "(call $emit $$CHOSEN)"),
            "veillee_search",
            "gave a root move a value outside 0–1",
        ),
        (
            Wat::good()
                .text_named(
                    "CHOSEN",
                    r#"{"action":"win","iterations":10,"visits":7,"value":0.9,"lost":["lose"]}"#,
                )
                .optional("veillee_search", SEARCH, "(call $emit $$CHOSEN)"),
            "veillee_search",
            "said `lose` was proven lost, which is not a legal action",
        ),
        (
            Wat::good().text_named("VALUES", "[2.0,0.5]").optional(
                "veillee_evaluate",
                EVALUATE,
                "(call $emit $$VALUES)",
            ),
            "veillee_evaluate",
            "valued seat 0 at 2, outside 0 to 1",
        ),
        (
            Wat::good().text_named("VALUES", "[0.5]").optional(
                "veillee_evaluate",
                EVALUATE,
                "(call $emit $$VALUES)",
            ),
            "veillee_evaluate",
            "gave 1 values for a game of 2 players",
        ),
    ];
    for (wat, export, detail) in cases {
        let mut plugin = load(&runtime, "lying", &wat);
        let game = plugin.create(&Setup::new(2, 1)).unwrap();
        let error = match export {
            "veillee_search" => plugin.search(game, 0, &request).map(|_| ()),
            _ => plugin.evaluate(game, 2).map(|_| ()),
        }
        .expect_err("the answer is refused");
        let text = error.to_string();
        assert!(
            matches!(error, EngineError::Plugin(PluginError::Protocol { .. })),
            "{text}"
        );
        assert!(text.contains(export) && text.contains(detail), "{text}");
        // Restarted: a new game plays to its end.
        let (status, _) = play_full_game(&mut plugin, 2);
        assert!(matches!(status, Status::Finished { .. }), "{status:?}");
    }

    let error = load_error(
        &runtime,
        "mistyped-search",
        &Wat::good()
            .optional(
                "veillee_search",
                "(param i32 i32) (result i64)",
                "(i64.const 0)",
            )
            .bytes(),
    );
    assert!(error.to_string().contains("veillee_search"), "{error}");
    // Without the exports (an older plugin) there is simply no search and no evaluation.
    let mut older = load(&runtime, "older", &Wat::good());
    let game = older.create(&Setup::new(2, 1)).unwrap();
    assert_eq!(older.search(game, 0, &request).unwrap(), None);
    assert_eq!(older.evaluate(game, 2).unwrap(), None);
    siege_still_plays(&runtime);
}

const PLAYOUT: &str = "(param i32 i64 i32) (result i64)";

/// A packed result (ABI 1.13) as a text of the generated plugin (every byte is ASCII here).
fn packed_text(result: &veillee_sdk::PlayoutResult) -> String {
    let mut bytes = Vec::new();
    veillee_sdk::abi::packed::write(result, &mut bytes).expect("it packs");
    String::from_utf8(bytes).expect("ASCII bytes")
}

/// With `veillee_playout_packed` (ABI 1.13) the host reads the packed result and not the
/// JSON one; a packed result that does not add up, or names a seat that does not exist, is
/// a protocol violation of that export, and the plugin restarts and plays on.
#[test]
fn packed_playout_results_are_read_and_checked() {
    use veillee_sdk::{text, Outcome, PlayoutResult};
    let runtime = runtime();
    let result = |winner| PlayoutResult {
        moves: 3,
        outcome: Some(Outcome::win(winner, text("fini", "done"))),
        stuck: false,
    };
    let packed = |text: String| {
        Wat::good().text_named("PACKED", text).optional(
            "veillee_playout_packed",
            PLAYOUT,
            "(call $emit $$PACKED)",
        )
    };
    let mut plugin = load(&runtime, "packed", &packed(packed_text(&result(1))));
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    assert_eq!(plugin.playout(game, 1, 100).unwrap(), result(1));

    let good = packed_text(&result(1));
    let cases = [
        (
            packed(good[..good.len() - 1].to_string()),
            "not a packed playout result: it ends at byte",
        ),
        (packed(format!("{good}!")), "1 bytes follow the end"),
        (packed(packed_text(&result(9))), "seat 9 among the winners"),
    ];
    for (wat, detail) in cases {
        let mut plugin = load(&runtime, "packed-lying", &wat);
        let game = plugin.create(&Setup::new(2, 1)).unwrap();
        let message = protocol(
            "packed-lying",
            "veillee_playout_packed",
            plugin.playout(game, 1, 100),
        );
        assert!(message.contains(detail), "{message}");
        let (status, _) = play_full_game(&mut plugin, 2);
        assert!(matches!(status, Status::Finished { .. }), "{status:?}");
    }
    let error = load_error(
        &runtime,
        "mistyped-packed",
        &Wat::good()
            .optional(
                "veillee_playout_packed",
                "(param i32 i32 i32) (result i64)",
                "(i64.const 0)",
            )
            .bytes(),
    );
    assert!(
        error.to_string().contains("veillee_playout_packed"),
        "{error}"
    );
    siege_still_plays(&runtime);
}

/// A plugin's label of 5,000 characters reaches no one longer than the launcher's one text
/// limit, and a move telling 257 events is a protocol error naming the bound.
#[test]
fn a_plugins_long_labels_are_cut_and_a_flood_of_events_is_refused() {
    let runtime = runtime();
    let long = "x".repeat(5_000);
    let actions = format!(r#"[{{"id":"win","path":[],"label":{{"fr":"{long}","en":"{long}"}}}}]"#);
    let wat = Wat::good()
        .text_named("LONG", actions)
        .body(
            "veillee_legal_actions",
            "(if (result i64) (call $state (local.get 0)) (then (call $emit $$EMPTY)) (else (call $emit $$LONG)))",
        );
    let mut plugin = load(&runtime, "long-label", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let actions = plugin.legal_actions(game, 0).unwrap();
    assert_eq!(
        actions[0].label.en.chars().count(),
        veillee_sdk::MAX_TEXT_CHARS + 1
    );
    assert!(actions[0].label.fr.ends_with('…'));

    let event = r#"{"text":{"fr":"x","en":"x"},"reveal":false}"#;
    let flood = format!(
        "[{}]",
        vec![event; veillee_sdk::MAX_EVENTS_PER_MOVE + 1].join(",")
    );
    let wat = Wat::good().text_named("FLOOD", flood).body(
        "veillee_apply",
        "(if (result i64) (call $state (local.get 0)) (then (call $fail $$GAME_OVER)) \
         (else (call $finish (local.get 0)) (call $emit $$FLOOD)))",
    );
    let mut plugin = load(&runtime, "event-flood", &wat);
    let game = plugin.create(&Setup::new(2, 1)).unwrap();
    let message = protocol("event-flood", "veillee_apply", plugin.apply(game, 0, "win"));
    assert!(
        message.contains("told 257 events for one move (at most 256)"),
        "{message}"
    );
    siege_still_plays(&runtime);
}
