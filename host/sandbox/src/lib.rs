//! `veillee-sandbox`: loading and running game plugins in the wasmtime sandbox.
//!
//! A plugin is a core wasm module speaking the ABI of `veillee_sdk::abi`. [`Runtime::load`]
//! checks it (header, imports, exports, ABI version, manifest) and returns a [`Plugin`],
//! which is a [`veillee_engine::GameEngine`].
//!
//! The sandbox: a plugin imports nothing (no files, network, clock, environment or
//! entropy); every call has a wall-clock deadline (epoch interruption); its memory is
//! capped; everything it returns is checked. A misbehaving plugin yields a [`PluginError`]
//! naming it and the call, never a host crash or hang.
//!
//! Modules: `config` (the engine and its deadline clock), `limits` (what a plugin may use),
//! `validate` (header/import/export checks), `cache` (compiled code on disk), `instance`
//! (calls and buffers), `fault` (what a failure means), `handles` (host-side game handles),
//! `loaded` (the [`Plugin`] itself).
//!
//! **Invariant: the only crate of Veillée that depends on wasmtime. A plugin sees no
//! capability — no files, network, clock, environment or entropy; a misbehaving plugin becomes
//! a [`PluginError`] naming the plugin and the call, never a host crash.**

mod cache;
mod config;
mod fault;
mod handles;
mod instance;
mod limits;
mod loaded;
mod validate;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use wasmtime::{Engine, Linker, Module};

pub use limits::Limits;
pub use loaded::Plugin;
pub use veillee_engine::PluginError;

use cache::Cache;
use loaded::Compiled;

/// Loads plugins. Cheap to clone (shared inside); all runtimes of a process share one
/// wasmtime engine and one deadline clock thread.
#[derive(Clone)]
pub struct Runtime {
    inner: Arc<Inner>,
}

struct Inner {
    engine: Engine,
    limits: Limits,
    cache: Option<Cache>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("limits", &self.inner.limits)
            .field("cache_dir", &self.cache_dir())
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// A runtime with the default [`Limits`]. With `cache_dir`, compiled plugins are kept
    /// there (the directory is created if needed) and later loads of the same bytes skip
    /// compilation.
    pub fn new(cache_dir: Option<PathBuf>) -> Result<Runtime, PluginError> {
        Runtime::with_limits(cache_dir, Limits::default())
    }

    /// A runtime whose plugins run under `limits`.
    pub fn with_limits(cache_dir: Option<PathBuf>, limits: Limits) -> Result<Runtime, PluginError> {
        limits.check()?;
        let engine = config::shared_engine()?;
        let cache = cache_dir.map(|dir| Cache::open(dir, &engine)).transpose()?;
        Ok(Runtime {
            inner: Arc::new(Inner {
                engine,
                limits,
                cache,
            }),
        })
    }

    /// The limits plugins loaded by this runtime run under.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// The compiled-code cache directory, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.inner.cache.as_ref().map(Cache::dir)
    }

    /// Checks, compiles (or fetches from the cache) and starts a plugin. `plugin_name` is
    /// what error messages call it (a file name, a game id).
    ///
    /// Fails with [`PluginError::NotWasm`], [`PluginError::Invalid`],
    /// [`PluginError::ForbiddenImport`], [`PluginError::MissingExport`],
    /// [`PluginError::AbiMismatch`], [`PluginError::BadManifest`], or the error of a call
    /// that misbehaved while starting (time-out, trap…).
    pub fn load(&self, plugin_name: &str, bytes: &[u8]) -> Result<Plugin, PluginError> {
        validate::check_header(plugin_name, bytes)?;
        let hash = cache::sha256_hex(bytes);
        let engine = &self.inner.engine;
        let cached = self
            .inner
            .cache
            .as_ref()
            .and_then(|cache| cache.load(engine, &hash));
        let from_cache = cached.is_some();
        let module = match cached {
            Some(module) => module,
            None => Module::from_binary(engine, bytes).map_err(|e| PluginError::Invalid {
                plugin: plugin_name.to_string(),
                detail: format!("{e:#}"),
            })?,
        };
        validate::check_imports(plugin_name, &module)?;
        validate::check_exports(plugin_name, &module)?;
        if let (Some(cache), false) = (&self.inner.cache, from_cache) {
            cache.store(&hash, &module);
        }
        // No imports to provide: the linker stays empty.
        let pre =
            Linker::new(engine)
                .instantiate_pre(&module)
                .map_err(|e| PluginError::Invalid {
                    plugin: plugin_name.to_string(),
                    detail: format!("{e:#}"),
                })?;
        Plugin::start(Compiled {
            name: plugin_name.to_string(),
            hash,
            engine: engine.clone(),
            pre,
            limits: self.inner.limits,
            from_cache,
        })
    }
}
