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
