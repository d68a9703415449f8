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
//! Compiling is bounded too: a file's size, function count and code size are checked before
//! any compiling (`shape`), and an untrusted plugin is compiled in a child process under a
//! budget of time and memory (`child`) when the program declared how to start one
//! ([`init_compiler_process`]). Compiled code comes back from the on-disk cache only when
//! its MAC, under a key kept outside the cache, verifies (`cache`).
//!
//! Modules: `config` (the engine and its deadline clock), `limits` (what a plugin may use),
//! `shape` (size caps before compiling), `declared` (the manifest a file declares in its
//! `veillee-manifest` section, ABI 1.9), `child` (the compiler process), `validate`
//! (header/import/export checks), `cache` (compiled code on disk, signed), `instance` (calls
//! and buffers), `fault` (what a failure means), `handles` (host-side game handles),
//! `loaded` (the [`Plugin`] itself).
//!
//! **Invariant: the only crate of Veillée that depends on wasmtime. A plugin sees no
//! capability — no files, network, clock, environment or entropy; a misbehaving plugin becomes
//! a [`PluginError`] naming the plugin and the call, never a host crash.**
//!
//! # Compiling a plugin file
//!
//! The engine's configuration (`config`) is the one every compile and every call uses:
//! deterministic floats (NaN canonicalisation), no threads, no relaxed SIMD, wide arithmetic
//! on for the built-in plugins' code (`+wide-arithmetic` in `veillee-games`' build), epoch
//! interruption for the deadlines.
//!
//! Before compiling, `shape` counts what compiling would cost — file at most 16 MiB, at most
//! 10,000 functions, 8 MiB of code, 1 MiB per function (`CompileLimits`; the largest built-in
//! game is far below) — and refuses imports and missing ABI exports, so a module of 300,000
//! trivial functions is refused in milliseconds instead of taking the compiler past 12 GB.
//!
//! What passes is compiled in a child process (`child`): the binary re-executes itself as
//! `veillee __compile-plugin` (hidden), which lowers its own limits (data segment 1 GiB on
//! Linux, CPU time) and compiles the module from stdin to stdout with the host's very engine
//! configuration; the parent feeds it, reads at most 512 MiB back and kills it after 60 s. A
//! thread cannot be stopped and an allocation failure aborts the whole process, so nothing
//! in-process bounds a hostile compile. Whether a program can serve as its own compiler is a
//! fact only its `main` knows, so `main` calls [`init_compiler_process`] once and every
//! [`Runtime`] of the process (each CLI command, the window's worker thread, `bench`) then
//! compiles untrusted plugins in a child of that same executable — the window and the runtime
//! crate pass nothing along. Library users that do not call it (library tests, the window's
//! kittests) compile in-process under the size caps only, or name a helper binary with
//! `Runtime::compiling_in`. Built-in games, embedded in the binary, are compiled in-process
//! (`load_builtin`). A compile past its budget is remembered (signed) so that later starts
//! refuse those bytes at once; installing the file again tries again.
//!
//! # What a plugin answers
//!
//! Every answer is bounded before it is read (4 MiB, and at most 200,000 JSON objects and
//! lists, so parsing allocates tens of megabytes at most — a 238 MB answer under the 256 MiB
//! memory cap is refused unread), then checked against the manifest and earlier answers
//! (`answers`): the seats to act exist, are not repeated and are not none while the game goes
//! on; winners exist; a seat to act has a move (asked only when a list comes back empty); ids
//! are non-empty, bounded and unique; the same seat's listing does not change while the game
//! does not; an id just listed is not refused as illegal; a search (ABI 1.8) chooses an action
//! its seat may play now and the request did not exclude; an evaluation gives one value in
//! `[0, 1]` per seat; a packed playout result (ABI 1.13) adds up before anything is allocated;
//! the `veillee-manifest` section (`declared`) is bounded, parsed and checked like an answer,
//! and the plugin is refused at load when its code answers another manifest, naming the field.
//! A violation is a `PluginError::Protocol` naming the plugin, the call and the problem; the
//! instance is restarted, and a session stays as saved and resumes once the plugin is fixed.

mod answers;
mod cache;
mod child;
mod config;
mod declared;
mod fault;
mod handles;
mod instance;
mod limits;
mod loaded;
mod shape;
mod validate;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use veillee_engine::GameEngine;
use wasmtime::{Engine, Linker, Module};

pub use cache::CacheConfig;
pub use child::{serve_compile_if_asked, CompilerCommand, COMPILE_SUBCOMMAND};
pub use config::PERF_MAP_ENV;
pub use limits::{CompileLimits, Limits};
pub use loaded::Plugin;
pub use veillee_engine::PluginError;

use cache::Cache;
use loaded::Compiled;

/// How this process compiles untrusted plugins when a [`Runtime`] is not told otherwise:
/// set once by [`init_compiler_process`].
static PROCESS_COMPILER: OnceLock<Option<CompilerCommand>> = OnceLock::new();

/// Call first thing in the `main` of a program that loads untrusted plugins (the `veillee`
/// binary does). Started as a compiler process (first argument [`COMPILE_SUBCOMMAND`]), it
/// compiles the module on stdin and exits. Otherwise it records that this executable can be
/// re-executed as one, so that every [`Runtime`] of the process — a CLI command, the
/// window's worker, a benchmark — compiles untrusted plugins in a child of it under
/// [`CompileLimits`], and returns.
///
/// Whether a program can serve as its own compiler is a fact about the executable that only
/// its `main` knows; recording it here spares every layer between `main` and the runtime
/// (the window, its worker thread) from passing it along. A program that never calls this
/// compiles in its own process, under the size caps only (library tests do), unless a
/// runtime is given a command with [`Runtime::compiling_in`].
pub fn init_compiler_process() {
    serve_compile_if_asked();
    PROCESS_COMPILER.get_or_init(|| CompilerCommand::this_executable().ok());
}

/// SHA-256 of a plugin's bytes in lowercase hex: what [`Plugin::hash`] will say once it is
/// loaded, and what sessions record.
pub fn content_hash(bytes: &[u8]) -> String {
    cache::sha256_hex(bytes)
}

/// Whether a plugin's bytes come from Veillée itself (built-in games) or from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trust {
    Builtin,
    Untrusted,
}

/// Loads plugins. Cheap to clone (shared inside); all runtimes of a process share one
/// wasmtime engine and one deadline clock thread.
#[derive(Clone)]
pub struct Runtime {
    inner: Arc<Inner>,
    /// Where untrusted plugins are compiled: `None` in this process.
    compiler: Option<CompilerCommand>,
}

struct Inner {
    engine: Engine,
    limits: Limits,
    cache: Option<Cache>,
    /// Why the cache asked for is not used, if it is not.
    cache_problem: Option<String>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("limits", &self.inner.limits)
            .field("cache_dir", &self.cache_dir())
            .field("compiler", &self.compiler)
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// A runtime with the default [`Limits`]. With `cache`, compiled plugins are kept in its
    /// directory (created if needed), signed with its key, and later loads of the same bytes
    /// skip compilation. A cache that cannot be trusted (writable by others, a key readable
    /// by others…) is not used: see [`Runtime::cache_problem`].
    pub fn new(cache: Option<CacheConfig>) -> Result<Runtime, PluginError> {
        Runtime::with_limits(cache, Limits::default())
    }

    /// A runtime whose plugins run under `limits`.
    pub fn with_limits(cache: Option<CacheConfig>, limits: Limits) -> Result<Runtime, PluginError> {
        limits.check()?;
        let engine = config::shared_engine()?;
        let (cache, cache_problem) = match cache.map(|config| {
            Cache::open(&config, &engine).map_err(|why| {
                format!(
                    "the compiled-code cache {} is not used, so games are compiled at each start: {why}",
                    config.dir.display()
                )
            })
        }) {
            None => (None, None),
            Some(Ok(cache)) => (Some(cache), None),
            Some(Err(why)) => (None, Some(why)),
        };
        Ok(Runtime {
            inner: Arc::new(Inner {
                engine,
                limits,
                cache,
                cache_problem,
            }),
            compiler: PROCESS_COMPILER.get().cloned().flatten(),
        })
    }

    /// The same runtime, compiling untrusted plugins in child processes started with
    /// `command` (`None`: in this process, under the size caps only).
    pub fn compiling_in(mut self, command: Option<CompilerCommand>) -> Runtime {
        self.compiler = command;
        self
    }

    /// Records, signed with the cache's key, that `what` holds for the plugin whose content
    /// hash is `content_hash` (the catalog notes a passed self-check, so that it is not run
    /// at every start). Without a cache nothing is recorded.
    pub fn note(&self, content_hash: &str, what: &str) {
        if let Some(cache) = &self.inner.cache {
            cache.note(content_hash, what);
        }
    }

    /// Whether [`Runtime::note`] recorded `what` for this content (and the note verifies).
    pub fn noted(&self, content_hash: &str, what: &str) -> bool {
        self.inner
            .cache
            .as_ref()
            .is_some_and(|cache| cache.noted(content_hash, what))
    }

    /// Like [`Runtime::load`], but first forgets that compiling these bytes went past its
    /// budget before (installing a plugin again is asking to try again).
    pub fn load_again(&self, plugin_name: &str, bytes: &[u8]) -> Result<Plugin, PluginError> {
        if let Some(cache) = &self.inner.cache {
            cache.forget_refusal(&cache::sha256_hex(bytes));
        }
        self.load(plugin_name, bytes)
    }

    /// Whether untrusted plugins are compiled in a child process.
    pub fn compiles_in_child(&self) -> bool {
        self.compiler.is_some()
    }

    /// Why the compiled-code cache asked for is not used, if it is not.
    pub fn cache_problem(&self) -> Option<&str> {
        self.inner.cache_problem.as_deref()
    }

    /// The limits plugins loaded by this runtime run under.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// The compiled-code cache directory, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.inner.cache.as_ref().map(Cache::dir)
    }

    /// Checks, compiles (or fetches from the cache) and starts a plugin from outside
    /// Veillée (an installed file, a file to check). `plugin_name` is what error messages
    /// call it (a file name, a game id).
    ///
    /// Fails with [`PluginError::NotWasm`], [`PluginError::Invalid`],
    /// [`PluginError::TooLarge`], [`PluginError::CompileBudget`],
    /// [`PluginError::ForbiddenImport`], [`PluginError::MissingExport`],
    /// [`PluginError::AbiMismatch`], [`PluginError::BadManifest`], or the error of a call
    /// that misbehaved while starting (time-out, trap…).
    pub fn load(&self, plugin_name: &str, bytes: &[u8]) -> Result<Plugin, PluginError> {
        self.load_as(plugin_name, bytes, Trust::Untrusted)
    }

    /// Like [`Runtime::load`], for the games built into Veillée: compiled in this process
    /// (they pass the same size caps, but need no compiler process).
    pub fn load_builtin(&self, plugin_name: &str, bytes: &[u8]) -> Result<Plugin, PluginError> {
        self.load_as(plugin_name, bytes, Trust::Builtin)
    }

    /// The manifest a plugin file declares in its `veillee-manifest` section (ABI 1.9), read
    /// without compiling anything: `None` when the file has no such section. The file's
    /// header and size are checked first, as [`Runtime::load`] does; the section must hold a
    /// sane manifest. Loading the plugin later refuses it if its code answers another one.
    pub fn declared_manifest(
        &self,
        plugin_name: &str,
        bytes: &[u8],
    ) -> Result<Option<veillee_sdk::Manifest>, PluginError> {
        validate::check_header(plugin_name, bytes)?;
        shape::check(plugin_name, bytes, &self.inner.limits.compile)?
            .map(|section| declared::parse(plugin_name, section))
            .transpose()
    }

    fn load_as(
        &self,
        plugin_name: &str,
        bytes: &[u8],
        trust: Trust,
    ) -> Result<Plugin, PluginError> {
        validate::check_header(plugin_name, bytes)?;
        let declared = shape::check(plugin_name, bytes, &self.inner.limits.compile)?
            .map(|section| declared::parse(plugin_name, section))
            .transpose()?;
        let hash = cache::sha256_hex(bytes);
        let engine = &self.inner.engine;
        let cached = self
            .inner
            .cache
            .as_ref()
            .and_then(|cache| cache.load(engine, &hash));
        let from_cache = cached.is_some();
        let (module, artifact) = match cached {
            Some(module) => (module, None),
            None => self.compile(plugin_name, bytes, &hash, trust)?,
        };
        validate::check_imports(plugin_name, &module)?;
        validate::check_exports(plugin_name, &module)?;
        if let (Some(cache), false) = (&self.inner.cache, from_cache) {
            if let Some(artifact) = artifact.or_else(|| module.serialize().ok()) {
                cache.store(&hash, &artifact);
            }
        }
        // No imports to provide: the linker stays empty.
        let pre =
            Linker::new(engine)
                .instantiate_pre(&module)
                .map_err(|e| PluginError::Invalid {
                    plugin: plugin_name.to_string(),
                    detail: format!("{e:#}"),
                })?;
        let plugin = Plugin::start(Compiled {
            name: plugin_name.to_string(),
            hash,
            engine: engine.clone(),
            pre,
            limits: self.inner.limits,
            from_cache,
        })?;
        if let Some(declared) = &declared {
            declared::check_matches(plugin_name, declared, plugin.manifest())?;
        }
        Ok(plugin)
    }

    /// Compiles a module: in this process for a built-in game or when no compiler process
    /// is set, else in a child under the compile budget. Returns the module and, when it
    /// came from a child, its compiled bytes (for the cache).
    fn compile(
        &self,
        plugin_name: &str,
        bytes: &[u8],
        hash: &str,
        trust: Trust,
    ) -> Result<(Module, Option<Vec<u8>>), PluginError> {
        let engine = &self.inner.engine;
        let command = match (&self.compiler, trust) {
            (Some(command), Trust::Untrusted) => command,
            _ => {
                let module =
                    Module::from_binary(engine, bytes).map_err(|e| PluginError::Invalid {
                        plugin: plugin_name.to_string(),
                        detail: format!("{e:#}"),
                    })?;
                return Ok((module, None));
            }
        };
        if let Some(reason) = self.inner.cache.as_ref().and_then(|c| c.refusal(hash)) {
            return Err(PluginError::CompileBudget {
                plugin: plugin_name.to_string(),
                detail: format!(
                    "{reason} when it was tried before, so it is not compiled again until the file changes (installing it again tries again)"
                ),
            });
        }
        let artifact = match child::compile(command, plugin_name, bytes, &self.inner.limits.compile)
        {
            Ok(artifact) => artifact,
            Err(child::Failure::Module(error)) => {
                if let (PluginError::CompileBudget { detail, .. }, Some(cache)) =
                    (&error, &self.inner.cache)
                {
                    cache.note_refusal(hash, detail);
                }
                return Err(error);
            }
            Err(failure) => return Err(failure.into_error()),
        };
        // SAFETY: these bytes are what `Engine::precompile_module` wrote in a process of our
        // own executable (the compiler command), configured like this engine, over a pipe
        // only this process reads. Wasmtime checks the header and refuses other versions or
        // configurations.
        let module = unsafe { Module::deserialize(engine, &artifact) }.map_err(|e| {
            PluginError::CompileBudget {
                plugin: plugin_name.to_string(),
                detail: format!("gave compiled code this Veillée cannot load ({e:#}): is the compiler process another version of Veillée?"),
            }
        })?;
        Ok((module, Some(artifact)))
    }
}
