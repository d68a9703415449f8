//! Veillée's integration suite: shared helpers. The tests themselves are in `tests/`.

use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::plugin::{CacheConfig, Plugin, Runtime};

/// A runtime without an on-disk cache, as tests use.
pub fn runtime() -> Runtime {
    Runtime::new(None).expect("the plugin runtime starts")
}

/// A fresh instance of a built-in game's wasm plugin.
pub fn builtin_plugin(runtime: &Runtime, id: &str) -> Plugin {
    let bytes =
        veillee_runtime::builtin::plugin_bytes(id).unwrap_or_else(|| panic!("{id} is built in"));
    runtime
        .load_builtin(id, bytes)
        .unwrap_or_else(|e| panic!("{id} loads: {e}"))
}

/// A catalog over a temporary data directory (kept alive by the returned guard).
pub fn temp_catalog() -> (Catalog, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = DataDir::at(dir.path());
    let runtime = Runtime::new(Some(temp_cache(&data))).expect("the plugin runtime starts");
    (Catalog::open(runtime, data), dir)
}

/// The compiled-code cache of a temporary data directory, with its key beside it rather
/// than in the user's configuration directory (tests leave the home directory alone).
pub fn temp_cache(data: &DataDir) -> CacheConfig {
    CacheConfig {
        dir: data.compiled_cache().dir,
        key_file: data.root().join("compiled-code.key"),
    }
}

pub mod dice;

/// A store in a fresh temporary data directory.
pub fn temp_store() -> (veillee_runtime::store::Store, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (store, recovery) =
        veillee_runtime::store::Store::open(dir.path()).expect("the store opens");
    assert!(recovery.is_none());
    (store, dir)
}

/// Helpers of the house-rule tests (`variants_*.rs`): built-in scripts over the real wasm
/// plugins, and the few moves every such test makes.
pub mod house {
    use veillee_runtime::engine::GameEngine;
    use veillee_runtime::variants::library;
    use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};
    use veillee_sdk::{Handle, Seat, Status};

    /// A built-in script of `game`, by file name (`prise-obligatoire.lua`), loaded.
    pub fn builtin_script(game: &str, file: &str) -> Script {
        library::builtin(Some(game))
            .into_iter()
            .find(|s| s.file == file)
            .unwrap_or_else(|| panic!("{file} is built in"))
            .load(VariantLimits::default())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A worked example of `variants/examples/` (not built in), loaded from the repository.
    pub fn example_script(file: &str) -> Script {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../variants/examples")
            .join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Script::load(file, &text, VariantLimits::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A script from its text (`test.lua` in messages).
    pub fn script(text: &str) -> Script {
        Script::load("test.lua", text, VariantLimits::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `game`'s wasm plugin with `scripts`.
    pub fn wasm_engine(game: &str, scripts: Vec<Script>) -> VariantEngine {
        let runtime = super::runtime();
        let plugin = super::builtin_plugin(&runtime, game);
        VariantEngine::new(Box::new(plugin), scripts).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The first seat to act, or `None` once the game is over.
    pub fn seat_to_act(engine: &mut dyn GameEngine, game: Handle) -> Option<Seat> {
        match engine.status(game).unwrap() {
            Status::ToAct { seats } => Some(seats[0]),
            Status::Finished { .. } => None,
        }
    }

    /// The ids of a seat's legal actions.
    pub fn ids(engine: &mut dyn GameEngine, game: Handle, seat: Seat) -> Vec<String> {
        engine
            .legal_actions(game, seat)
            .unwrap()
            .into_iter()
            .map(|a| a.id)
            .collect()
    }
}
