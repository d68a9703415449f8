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
use veillee_runtime::plugin::{Limits, Plugin, PluginError, Runtime};
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
        }
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
fn shared_cache() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("temporary directory"))
        .path()
        .to_path_buf()
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
        .load("siege", siege_bytes())
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
    let runtime = Runtime::with_limits(Some(dir.path().join("cache")), limits()).unwrap();
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
        let other = Runtime::with_limits(Some(dir.path().join("cache")), limits()).unwrap();
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
