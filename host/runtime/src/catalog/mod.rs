//! The games Veillée knows: the built-in plugins and the ones the user installed.
//!
//! Listing a game does not compile it. A built-in game is listed from its native build's
//! manifest (the same source as its plugin), an installed plugin that declares its manifest in
//! a `veillee-manifest` section (ABI 1.9) from that section; either is compiled the first time
//! it is played ([`Catalog::engine`]) — or, in the window, in the
//! background ([`Catalog::waiting`], [`PluginSource::compile`], [`Catalog::add_compiled`]);
//! compiling checks what was listed against the plugin's own manifest. A plugin without the
//! section, and an installed plugin whose exact bytes have not passed the self-check yet, is
//! compiled (and self-checked) before it is listed ([`Catalog::compile_unlisted`]).
//!
//! A broken plugin never stops the launcher: it is left out and reported.
//!
//! So a command-line command that plays one game compiles that one. Plugin files are found and
//! read through `veillee-files` (regular files of at most 64 MiB, each once). An installed
//! file is compiled in the compiler process and self-checked (a short conformance run, leak
//! checks included: `self_check`; `Catalog::install_reporting` says which game it plays)
//! the first time its exact bytes are seen; a signed note in
//! the cache remembers it passed, so a file replaced behind the launcher's back — same id,
//! other rules — is checked like a fresh install. A plugin that does not compile within the
//! compile budget, fails its checks, or is not a regular file (a device, a FIFO, a link loop
//! in `plugins/`) is left out and reported with its reason; the rest keeps working, in the
//! command line and in the window.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::OnceLock;

mod error;

pub use error::{CatalogError, SelfCheckFailed};
use veillee_sdk::Manifest;

use crate::builtin::BUILTIN_PLUGINS;
use crate::conformance::{self, CheckConfig, Progress};
use crate::data_dir::DataDir;
use crate::engine::GameEngine;
use crate::plugin::{content_hash, Plugin, Runtime};

/// The largest plugin file read: the built-in games are a few hundred kilobytes. The sandbox
/// applies its own, finer limits to what it compiles.
pub const MAX_PLUGIN_BYTES: u64 = 64 * 1024 * 1024;

/// The plugins folder is flat, and holds a few games, not thousands.
const INSTALLED_WALK: veillee_files::WalkLimits = veillee_files::WalkLimits {
    depth: 0,
    files: 256,
};

/// Where a game comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Shipped inside Veillée.
    Builtin,
    /// Installed by the user, from this file in the data directory.
    Installed(PathBuf),
}

impl Origin {
    /// "built-in" or "installed".
    pub fn label(&self) -> &'static str {
        match self {
            Origin::Builtin => "built-in",
            Origin::Installed(_) => "installed",
        }
    }
}

/// A plugin file as found: what messages call it, where it comes from, its bytes. Cheap to
/// clone and `Send`, so that it can be compiled on another thread
/// ([`PluginSource::compile`]) and the result handed back ([`Catalog::add_compiled`]).
#[derive(Clone)]
pub struct PluginSource {
    name: String,
    origin: Origin,
    bytes: Arc<[u8]>,
    hash: String,
    /// An installed file whose exact bytes have not passed the self-check yet.
    self_check: bool,
    /// Its place in the catalog's order (built-in games first, then installed files).
    order: usize,
}

impl std::fmt::Debug for PluginSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PluginSource")
            .field("name", &self.name)
            .field("origin", &self.origin)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

impl PluginSource {
    /// What error messages call it: a built-in game's folder, an installed file's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where it comes from.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// SHA-256 of its bytes.
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// Whether `other` is the same file (same origin, same bytes).
    pub fn same(&self, other: &PluginSource) -> bool {
        self.origin == other.origin && self.hash == other.hash
    }

    /// Compiles the plugin (or fetches it from the compiled-code cache) and starts it, under
    /// the compile budget for an installed file; runs the self-check when these bytes have
    /// not passed it yet. Any thread may call it; the catalog takes the result with
    /// [`Catalog::add_compiled`].
    pub fn compile(&self, runtime: &Runtime) -> Result<Plugin, CatalogError> {
        let mut plugin = match &self.origin {
            Origin::Builtin => {
                let plugin = runtime
                    .load_builtin(&self.name, &self.bytes)
                    .map_err(|source| CatalogError::BuiltinUnloadable {
                        name: self.name.clone(),
                        source,
                    })?;
                // Listed from the native build: the plugin must be the same game.
                if builtin_manifest(&self.name).as_ref() != Some(plugin.manifest()) {
                    return Err(CatalogError::BuiltinMismatch(self.name.clone()));
                }
                plugin
            }
            Origin::Installed(_) => runtime.load(&self.name, &self.bytes)?,
        };
        if self.self_check {
            let Origin::Installed(file) = &self.origin else {
                unreachable!("only installed files are self-checked")
            };
            self_check(&mut plugin).map_err(|failures| CatalogError::SelfCheckInstalled {
                file: file.clone(),
                failures,
            })?;
            runtime.note(plugin.hash(), SELF_CHECK_NOTE);
        }
        Ok(plugin)
    }
}

/// One playable game.
pub struct GameEntry {
    /// Where it comes from.
    pub origin: Origin,
    manifest: Manifest,
    source: PluginSource,
    /// The compiled plugin once compiled ([`Catalog::engine`] hands out fresh instances of
    /// it), or why it could not be.
    plugin: OnceLock<Result<Plugin, String>>,
}

/// Whether a listed game can be played yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readiness {
    /// Listed from its manifest section; not compiled yet.
    Listed,
    /// Compiled: a game starts at once.
    Ready,
    /// Compiling failed, for this reason.
    Failed(String),
}

impl GameEntry {
    /// The game's manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// SHA-256 of the plugin file.
    pub fn hash(&self) -> &str {
        &self.source.hash
    }

    /// The plugin file.
    pub fn source(&self) -> &PluginSource {
        &self.source
    }

    /// Whether it is compiled yet.
    pub fn readiness(&self) -> Readiness {
        match self.plugin.get() {
            None => Readiness::Listed,
            Some(Ok(_)) => Readiness::Ready,
            Some(Err(why)) => Readiness::Failed(why.clone()),
        }
    }
}

/// All games, built-in first, then installed, each sorted by id.
pub struct Catalog {
    runtime: Runtime,
    data: DataDir,
    entries: Vec<GameEntry>,
    /// Plugins that must be compiled before they can be listed.
    unlisted: Vec<PluginSource>,
    problems: Vec<String>,
    /// Why the compiled-code cache is not used and how to fix it, if it is not.
    cache_problem: Option<String>,
}

impl Catalog {
    /// Every built-in and installed game, listed: plugins with a manifest section are listed
    /// from it (compiled when first played), the others are compiled now. Plugins that fail
    /// are left out and listed in [`Catalog::problems`].
    pub fn open(runtime: Runtime, data: DataDir) -> Catalog {
        let mut catalog = Catalog::scan(runtime, data);
        catalog.compile_unlisted();
        catalog
    }

    /// The games that can be listed without compiling anything: the built-in games and the
    /// installed plugins whose manifest section was already checked (these exact bytes passed
    /// the self-check). The rest waits in [`Catalog::waiting`]. Reads every plugin file and
    /// its sections; compiles nothing.
    pub fn scan(runtime: Runtime, data: DataDir) -> Catalog {
        let mut catalog = Catalog {
            runtime,
            data,
            entries: Vec::new(),
            unlisted: Vec::new(),
            problems: Vec::new(),
            cache_problem: None,
        };
        if let Some(problem) = catalog.runtime.cache_problem() {
            let problem = format!("{problem}{CACHE_FIX}");
            catalog.problems.push(problem.clone());
            catalog.cache_problem = Some(problem);
        }
        let mut order = 0;
        for (name, bytes) in BUILTIN_PLUGINS {
            let source = PluginSource {
                name: name.to_string(),
                origin: Origin::Builtin,
                bytes: Arc::from(*bytes),
                hash: content_hash(bytes),
                self_check: false,
                order,
            };
            order += 1;
            match builtin_manifest(name) {
                Some(manifest) => catalog.list(source, manifest, None),
                None => catalog.unlisted.push(source),
            }
        }
        let found = installed_files(&catalog.data.plugins());
        catalog.problems.extend(
            found
                .skipped
                .iter()
                .map(|e| format!("installed plugin {e}; skipped")),
        );
        for file in found.files {
            let bytes = match veillee_files::read_bounded(&file, MAX_PLUGIN_BYTES) {
                Ok(bytes) => bytes,
                Err(e) => {
                    catalog
                        .problems
                        .push(format!("cannot read an installed plugin: {e}"));
                    continue;
                }
            };
            let hash = content_hash(&bytes);
            let source = PluginSource {
                name: file_stem(&file),
                origin: Origin::Installed(file),
                self_check: !catalog.runtime.noted(&hash, SELF_CHECK_NOTE),
                bytes: Arc::from(bytes),
                hash,
                order,
            };
            order += 1;
            match catalog
                .runtime
                .declared_manifest(&source.name, &source.bytes)
            {
                Ok(Some(manifest)) if !source.self_check => {
                    if let Err(e) = catalog.check_installed_id(&source, &manifest) {
                        catalog.problems.push(e.whole());
                    } else {
                        catalog.list(source, manifest, None);
                    }
                }
                Ok(_) => catalog.unlisted.push(source),
                Err(e) => catalog.problems.push(format!("{e:#}")),
            }
        }
        catalog
    }

    /// Compiles, one after the other, the plugins that cannot be listed without it (see
    /// [`Catalog::scan`]), and lists those that load.
    pub fn compile_unlisted(&mut self) {
        for source in std::mem::take(&mut self.unlisted) {
            let result = source.compile(&self.runtime);
            self.unlisted.push(source.clone());
            self.add_compiled(&source, result);
        }
    }

    /// The plugins not compiled yet, listed ones first (in the catalog's order), then those
    /// that wait to be listed: what a front end compiles in the background, each with
    /// [`PluginSource::compile`].
    pub fn waiting(&self) -> Vec<PluginSource> {
        self.entries
            .iter()
            .filter(|e| e.plugin.get().is_none())
            .map(|e| e.source.clone())
            .chain(self.unlisted.iter().cloned())
            .collect()
    }

    /// Takes the result of compiling `source` (on any thread): a listed game becomes ready
    /// (or failed), a plugin that waited to be listed is listed (or reported). A result for a
    /// file the catalog no longer has (uninstalled meanwhile) is dropped.
    pub fn add_compiled(&mut self, source: &PluginSource, result: Result<Plugin, CatalogError>) {
        if let Some(entry) = self.entries.iter().find(|e| e.source.same(source)) {
            let _ = entry.plugin.set(result.map_err(|e| e.whole()));
            return;
        }
        let Some(at) = self.unlisted.iter().position(|s| s.same(source)) else {
            return;
        };
        let source = self.unlisted.remove(at);
        let listed = result.and_then(|plugin| {
            let manifest = plugin.manifest().clone();
            self.check_installed_id(&source, &manifest)?;
            Ok((plugin, manifest))
        });
        match listed {
            Ok((plugin, manifest)) => self.list(source, manifest, Some(plugin)),
            Err(e) => self.problems.push(e.whole()),
        }
    }

    /// Adds a game to the list, in the catalog's order.
    fn list(&mut self, source: PluginSource, manifest: Manifest, plugin: Option<Plugin>) {
        let at = self
            .entries
            .iter()
            .position(|e| e.source.order > source.order)
            .unwrap_or(self.entries.len());
        let cell = OnceLock::new();
        if let Some(plugin) = plugin {
            let _ = cell.set(Ok(plugin));
        }
        self.entries.insert(
            at,
            GameEntry {
                origin: source.origin.clone(),
                manifest,
                source,
                plugin: cell,
            },
        );
    }

    /// An installed plugin may not take a built-in game's id.
    fn check_installed_id(
        &self,
        source: &PluginSource,
        manifest: &Manifest,
    ) -> Result<(), CatalogError> {
        if let Origin::Installed(file) = &source.origin {
            if self.builtin(&manifest.id).is_some() {
                return Err(CatalogError::BuiltinIdInstalled {
                    file: file.clone(),
                    id: manifest.id.clone(),
                });
            }
        }
        Ok(())
    }

    /// The games.
    pub fn games(&self) -> &[GameEntry] {
        &self.entries
    }

    /// Plugins that could not be loaded, in words (and the cache's problem, if any).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Why the compiled-code cache is not used, and how to fix it, if it is not: then every
    /// plugin is compiled again at each start, which front ends say once (it is also among
    /// [`Catalog::problems`]).
    pub fn cache_problem(&self) -> Option<&str> {
        self.cache_problem.as_deref()
    }

    /// The runtime the plugins run in.
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// A game by id.
    pub fn game(&self, id: &str) -> Option<&GameEntry> {
        self.entries.iter().find(|e| e.manifest().id == id)
    }

    fn builtin(&self, id: &str) -> Option<&GameEntry> {
        self.entries
            .iter()
            .find(|e| e.origin == Origin::Builtin && e.manifest().id == id)
    }

    /// The data directory the games were found in.
    pub fn data_dir(&self) -> &DataDir {
        &self.data
    }

    /// A fresh engine for a game — compiling its plugin first if that was not done yet —
    /// or an error listing the games there are.
    pub fn engine(&self, id: &str) -> Result<Plugin, CatalogError> {
        let entry = self.game(id).ok_or_else(|| CatalogError::NotInstalled {
            id: id.to_string(),
            known: self
                .entries
                .iter()
                .map(|e| e.manifest().id.clone())
                .collect(),
            // A game the user expects may be one that was left out at start.
            left_out: !self.problems.is_empty(),
        })?;
        let plugin = entry
            .plugin
            .get_or_init(|| entry.source.compile(&self.runtime).map_err(|e| e.whole()));
        match plugin {
            Ok(plugin) => Ok(plugin.duplicate()?),
            Err(why) => Err(CatalogError::Unavailable(why.clone())),
        }
    }

    /// Validates a plugin file fully (wasm, ABI, manifest, a short self-check game) and installs
    /// it. Nothing is installed when any check fails.
    pub fn install(&mut self, file: &Path) -> Result<&GameEntry, CatalogError> {
        self.install_reporting(file, &mut |_| {})
    }

    /// [`Catalog::install`], telling `progress` as each game of the self-check starts (a
    /// plugin whose calls are slow takes minutes over it).
    pub fn install_reporting(
        &mut self,
        file: &Path,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<&GameEntry, CatalogError> {
        let bytes = veillee_files::read_bounded(file, MAX_PLUGIN_BYTES)
            .map_err(CatalogError::Unreadable)?;
        let mut plugin = self.runtime.load_again(&file_stem(file), &bytes)?;
        let id = plugin.manifest().id.clone();
        if self.builtin(&id).is_some() {
            return Err(CatalogError::BuiltinIdAtInstall {
                file: file.to_path_buf(),
                id,
            });
        }
        self_check_reporting(&mut plugin, progress).map_err(|failures| {
            CatalogError::SelfCheckAtInstall {
                file: file.to_path_buf(),
                failures,
            }
        })?;
        self.runtime.note(plugin.hash(), SELF_CHECK_NOTE);
        let dir = self.data.plugins();
        fs::create_dir_all(&dir).map_err(disk("create", &dir))?;
        let target = dir.join(format!("{id}.wasm"));
        let partial = dir.join(format!(".{id}.wasm.partial"));
        fs::write(&partial, &bytes).map_err(disk("write", &partial))?;
        fs::rename(&partial, &target).map_err(disk("move the plugin into", &target))?;
        self.entries.retain(|e| e.manifest().id != id);
        let order = self
            .entries
            .iter()
            .map(|e| e.source.order + 1)
            .max()
            .unwrap_or(0);
        let source = PluginSource {
            name: file_stem(file),
            origin: Origin::Installed(target),
            hash: plugin.hash().to_string(),
            bytes: Arc::from(bytes),
            self_check: false,
            order,
        };
        let manifest = plugin.manifest().clone();
        self.list(source, manifest, Some(plugin));
        Ok(self.entries.last().expect("just listed"))
    }

    /// Removes an installed game. Built-in games cannot be removed.
    pub fn uninstall(&mut self, id: &str) -> Result<(), CatalogError> {
        let position = self.entries.iter().position(|e| e.manifest().id == id);
        let Some(position) = position else {
            return Err(CatalogError::NothingToRemove(id.to_string()));
        };
        let Origin::Installed(path) = &self.entries[position].origin else {
            return Err(CatalogError::BuiltinStays(id.to_string()));
        };
        fs::remove_file(path).map_err(disk("remove", path))?;
        self.entries.remove(position);
        Ok(())
    }
}

/// A built-in game's manifest from its native build: what the catalog lists before the
/// plugin is compiled (the plugin is held to it when it is).
fn builtin_manifest(game: &str) -> Option<Manifest> {
    crate::native::native_engine(game).map(|engine| engine.manifest().clone())
}

/// Said after the cache's own reason (which names a `chmod` when modes are the trouble):
/// the way around any of them.
const CACHE_FIX: &str = " (to use a cache elsewhere, set VEILLEE_CACHE_DIR to a folder only you \
     can write, and VEILLEE_CACHE_KEY to a file outside it only you can read)";

/// What the runtime notes about a plugin that passed [`self_check`] (with the version of
/// the kit that checked it, so a newer Veillée checks again).
const SELF_CHECK_NOTE: &str = concat!("self-check ", env!("CARGO_PKG_VERSION"));

/// The install self-check: a few short random games through the conformance kit, leak
/// checks included (a game that declares hidden information and never re-draws it is
/// refused). What `install` runs on every plugin before it copies it.
pub fn self_check(plugin: &mut dyn GameEngine) -> Result<(), SelfCheckFailed> {
    self_check_reporting(plugin, &mut |_| {})
}

/// [`self_check`], telling `progress` as each of its games starts.
pub fn self_check_reporting(
    plugin: &mut dyn GameEngine,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), SelfCheckFailed> {
    let config = CheckConfig {
        games: 2,
        seed: 1,
        actions_tried_per_step: 2,
        ..CheckConfig::default()
    };
    let report = conformance::check_reporting(plugin, None, &config, progress);
    if !report.passed() {
        // Each distinct problem once, with where it first happened.
        let first: Vec<String> = report.failures.iter().take(5).cloned().collect();
        return Err(SelfCheckFailed(first.join("\n")));
    }
    Ok(())
}

/// The `*.wasm` files of the plugins folder: regular files only, each file once (a second
/// name for the same file, a link to a device or a FIFO are reported, never opened or read).
fn installed_files(dir: &Path) -> veillee_files::Found {
    veillee_files::find_files(dir, "wasm", INSTALLED_WALK)
}

/// A refused write of the data directory, named.
fn disk<'a>(
    doing: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> CatalogError + 'a {
    move |source| CatalogError::Disk {
        doing,
        path: path.to_path_buf(),
        source,
    }
}

fn file_stem(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string())
}
