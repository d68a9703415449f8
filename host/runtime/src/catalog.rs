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
        for (name, bytes) in BUILTIN_PLUGINS {
            match catalog.runtime.load(name, bytes) {
                Ok(plugin) => catalog.entries.push(GameEntry {
                    origin: Origin::Builtin,
                    plugin,
                }),
                Err(e) => catalog
                    .problems
                    .push(format!("built-in game {name} could not be loaded: {e}")),
            }
        }
        for file in installed_files(&catalog.data.plugins()) {
            match catalog.load_installed(&file) {
                Ok(entry) => catalog.entries.push(entry),
                Err(e) => catalog.problems.push(format!("{e:#}")),
            }
        }
        catalog
    }

    fn load_installed(&self, file: &Path) -> anyhow::Result<GameEntry> {
        let bytes = fs::read(file)
            .with_context(|| format!("cannot read installed plugin {}", file.display()))?;
        let plugin = self.runtime.load(&file_stem(file), &bytes)?;
        if self.builtin(&plugin.manifest().id).is_some() {
            bail!(
                "{} is ignored: its game id `{}` is a built-in game's",
                file.display(),
                plugin.manifest().id
            );
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
            anyhow::anyhow!(
                "no game `{id}` is installed; the games are: {}",
                known.join(", ")
            )
        })?;
        Ok(entry.plugin.duplicate()?)
    }

    /// Validates a plugin file fully (wasm, ABI, manifest, a short self-check game) and installs
    /// it. Nothing is installed when any check fails.
    pub fn install(&mut self, file: &Path) -> anyhow::Result<&GameEntry> {
        let bytes = fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        let mut plugin = self.runtime.load(&file_stem(file), &bytes)?;
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

fn installed_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wasm"))
        .collect();
    files.sort();
    files
}

fn file_stem(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string())
}
