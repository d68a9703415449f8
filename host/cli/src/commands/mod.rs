//! One file per command family, each holding its commands' arguments (a `clap::Args` struct)
//! next to their `run`; `game_flags` holds the flags several commands share. Every command
//! runs on the [`Context`] the global options give.

pub mod bench;
pub mod check;
pub mod check_variant;
pub mod game_flags;
pub mod games;
pub mod inspect;
pub mod new;
pub mod play;
pub mod sessions;
pub mod simulate;
pub mod variants;

use std::path::PathBuf;

use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::plugin::Runtime;
use veillee_runtime::session::Sessions;

use crate::term::errln;

/// What every command runs on: the data directory and the language of game texts, from the
/// global options, built once before the command runs.
pub struct Context {
    /// The data directory (installed games, caches, sessions, the user's house rules).
    pub data: DataDir,
    /// The language of game texts (`fr` or `en`).
    pub lang: String,
}

impl Context {
    /// The context of `--data-dir` and `--lang`, each defaulting from the platform.
    pub fn new(data_dir: Option<PathBuf>, lang: Option<String>) -> anyhow::Result<Self> {
        Ok(Self {
            data: DataDir::resolve(data_dir)?,
            lang: lang.unwrap_or_else(veillee_runtime::locale::system_lang),
        })
    }

    /// The games of the data directory. Opened by the commands that play or list games
    /// only: those about saved sessions alone start no plugin runtime.
    pub fn catalog(&self) -> anyhow::Result<Catalog> {
        let runtime = Runtime::new(Some(self.data.compiled_cache()))?;
        Ok(Catalog::open(runtime, self.data.clone()))
    }

    /// The session store of the data directory, reporting a recovery from corruption.
    pub fn sessions(&self) -> anyhow::Result<Sessions> {
        let (store, recovery) = veillee_runtime::store::Store::open(self.data.root())?;
        if let Some(recovery) = recovery {
            errln!("warning: {recovery}");
        }
        Ok(Sessions::new(store))
    }

    /// The folder of the user's own house-rule scripts.
    pub fn user_variants(&self) -> PathBuf {
        self.data.variants()
    }
}

/// Said before scripts new to this build pass their leak check (a few seconds, once).
pub fn say_leak_check(ids: &[String]) {
    crate::term::errln!(
        "Checking {} for leaks before it first plays (one random game; done once)…",
        ids.iter()
            .map(|id| crate::term::line(id))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
