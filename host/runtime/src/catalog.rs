//! The games Veillée knows: the built-in plugins and the ones the user installed.
//!
//! A broken installed plugin never stops the launcher: it is left out and reported.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use veillee_sdk::Manifest;

use crate::builtin::BUILTIN_PLUGINS;
use crate::conformance::{self, CheckConfig};
use crate::data_dir::DataDir;
use crate::engine::GameEngine;
use crate::plugin::{Plugin, Runtime};

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

/// One playable game.
pub struct GameEntry {
    /// Where it comes from.
    pub origin: Origin,
    /// The loaded plugin; [`Catalog::engine`] hands out fresh instances of it.
    plugin: Plugin,
}

impl GameEntry {
    /// The game's manifest.
    pub fn manifest(&self) -> &Manifest {
        self.plugin.manifest()
    }

    /// SHA-256 of the plugin file.
    pub fn hash(&self) -> &str {
        self.plugin.hash()
    }
}

/// All games, built-in first, then installed, each sorted by id.
pub struct Catalog {
    runtime: Runtime,
    data: DataDir,
    entries: Vec<GameEntry>,
    problems: Vec<String>,
}

impl Catalog {
    /// Loads every built-in and installed plugin. Plugins that fail to load are left out and
    /// listed in [`Catalog::problems`].
    pub fn open(runtime: Runtime, data: DataDir) -> Catalog {
        let mut catalog = Catalog {
            runtime,
            data,
            entries: Vec::new(),
            problems: Vec::new(),
        };
        if let Some(problem) = catalog.runtime.cache_problem() {
            catalog.problems.push(problem.to_string());
        }
        for (name, bytes) in BUILTIN_PLUGINS {
            match catalog.runtime.load_builtin(name, bytes) {
                Ok(plugin) => catalog.entries.push(GameEntry {
                    origin: Origin::Builtin,
                    plugin,
                }),
                Err(e) => catalog
                    .problems
                    .push(format!("built-in game {name} could not be loaded: {e}")),
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
            match catalog.load_installed(&file) {
                Ok(entry) => catalog.entries.push(entry),
                Err(e) => catalog.problems.push(format!("{e:#}")),
            }
        }
        catalog
    }

    /// Loads an installed plugin: compiled under the compile budget, and self-checked the
    /// first time these exact bytes are seen (a file replaced behind the launcher's back —
    /// same id, other rules — is checked like a fresh install before it is offered).
    fn load_installed(&self, file: &Path) -> anyhow::Result<GameEntry> {
        let bytes = veillee_files::read_bounded(file, MAX_PLUGIN_BYTES)
            .with_context(|| "cannot read an installed plugin".to_string())?;
        let mut plugin = self.runtime.load(&file_stem(file), &bytes)?;
        if self.builtin(&plugin.manifest().id).is_some() {
            bail!(
                "{} is ignored: its game id `{}` is a built-in game's",
                file.display(),
                plugin.manifest().id
            );
        }
        if !self.runtime.noted(plugin.hash(), SELF_CHECK_NOTE) {
            self_check(&mut plugin).with_context(|| {
                format!(
                    "{} failed its self-check game and is left out; install a working version",
                    file.display()
                )
            })?;
            self.runtime.note(plugin.hash(), SELF_CHECK_NOTE);
        }
        Ok(GameEntry {
            origin: Origin::Installed(file.to_path_buf()),
            plugin,
        })
    }

    /// The games.
    pub fn games(&self) -> &[GameEntry] {
        &self.entries
    }

    /// Plugins that could not be loaded, in words.
    pub fn problems(&self) -> &[String] {
        &self.problems
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

    /// A fresh engine for a game, or an error listing the games there are.
    pub fn engine(&self, id: &str) -> anyhow::Result<Plugin> {
        let entry = self.game(id).ok_or_else(|| {
            let known: Vec<&str> = self
                .entries
                .iter()
                .map(|e| e.manifest().id.as_str())
                .collect();
            // A game the user expects may be one that was left out at start: say where to look.
            let left_out = if self.problems.is_empty() {
                ""
            } else {
                "; some plugins could not be loaded, `veillee plugins` says why"
            };
            anyhow::anyhow!(
                "no game `{id}` is installed; the games are: {}{left_out}",
                known.join(", ")
            )
        })?;
        Ok(entry.plugin.duplicate()?)
    }

    /// Validates a plugin file fully (wasm, ABI, manifest, a short self-check game) and installs
    /// it. Nothing is installed when any check fails.
    pub fn install(&mut self, file: &Path) -> anyhow::Result<&GameEntry> {
        let bytes = veillee_files::read_bounded(file, MAX_PLUGIN_BYTES)
            .with_context(|| "cannot install this plugin".to_string())?;
        let mut plugin = self.runtime.load_again(&file_stem(file), &bytes)?;
        let id = plugin.manifest().id.clone();
        if self.builtin(&id).is_some() {
            bail!(
                "cannot install {}: `{id}` is the id of a built-in game",
                file.display()
            );
        }
        self_check(&mut plugin).with_context(|| {
            format!(
                "{} failed its self-check game and was not installed",
                file.display()
            )
        })?;
        self.runtime.note(plugin.hash(), SELF_CHECK_NOTE);
        let dir = self.data.plugins();
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let target = dir.join(format!("{id}.wasm"));
        let partial = dir.join(format!(".{id}.wasm.partial"));
        fs::write(&partial, &bytes)
            .with_context(|| format!("cannot write {}", partial.display()))?;
        fs::rename(&partial, &target)
            .with_context(|| format!("cannot move the plugin into {}", target.display()))?;
        self.entries.retain(|e| e.manifest().id != id);
        self.entries.push(GameEntry {
            origin: Origin::Installed(target),
            plugin,
        });
        Ok(self.entries.last().expect("just pushed"))
    }

    /// Removes an installed game. Built-in games cannot be removed.
    pub fn uninstall(&mut self, id: &str) -> anyhow::Result<()> {
        let position = self.entries.iter().position(|e| e.manifest().id == id);
        let Some(position) = position else {
            bail!("no game `{id}` is installed");
        };
        let Origin::Installed(path) = &self.entries[position].origin else {
            bail!("`{id}` is a built-in game and cannot be uninstalled");
        };
        fs::remove_file(path).with_context(|| format!("cannot remove {}", path.display()))?;
        self.entries.remove(position);
        Ok(())
    }
}

/// What the runtime notes about a plugin that passed [`self_check`] (with the version of
/// the kit that checked it, so a newer Veillée checks again).
const SELF_CHECK_NOTE: &str = concat!("self-check ", env!("CARGO_PKG_VERSION"));

/// The install self-check: a few short random games through the conformance kit, leak
/// checks included (a game that declares hidden information and never re-draws it is
/// refused). What `install` runs on every plugin before it copies it.
pub fn self_check(plugin: &mut dyn GameEngine) -> anyhow::Result<()> {
    let config = CheckConfig {
        games: 2,
        seed: 1,
        actions_tried_per_step: 2,
        ..CheckConfig::default()
    };
    let report = conformance::check(plugin, None, &config);
    if !report.passed() {
        // Each distinct problem once, with where it first happened.
        bail!(
            "{}",
            report
                .failures
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    Ok(())
}

/// The `*.wasm` files of the plugins folder: regular files only, each file once (a second
/// name for the same file, a link to a device or a FIFO are reported, never opened or read).
fn installed_files(dir: &Path) -> veillee_files::Found {
    veillee_files::find_files(dir, "wasm", INSTALLED_WALK)
}

fn file_stem(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string())
}
