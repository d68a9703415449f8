//! One file per command family, each holding its commands' arguments (a `clap::Args` struct)
//! next to their `run`; `game_flags` holds the flags several commands share. Every command
//! runs on the [`Context`] the global options give.

pub mod bench;
pub mod bot;
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
use veillee_runtime::vetting::Checking;

use veillee_sdk::Text;

use crate::term::errln;

/// What every command runs on: the data directory and the language of game texts, from the
/// global options, built once before the command runs.
pub struct Context {
    /// The data directory (installed games, caches, sessions, the user's house rules).
    pub data: DataDir,
    /// The language of game texts (`fr` or `en`).
    pub lang: String,
    /// Whether the compiled-code cache's refusal was said (once per run is enough).
    cache_said: std::sync::atomic::AtomicBool,
}

impl Context {
    /// The context of `--data-dir` and `--lang`, each defaulting from the platform.
    pub fn new(data_dir: Option<PathBuf>, lang: Option<String>) -> anyhow::Result<Self> {
        Ok(Self {
            data: DataDir::resolve(data_dir)?,
            lang: lang.unwrap_or_else(veillee_runtime::locale::system_lang),
            cache_said: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The games of the data directory. Opened by the commands that play or list games
    /// only: those about saved sessions alone start no plugin runtime. A compiled-code cache
    /// that cannot be used is said once, before anything compiles: every plugin is then
    /// compiled again at each start, and a slower start with no word looks like a fault.
    pub fn catalog(&self) -> anyhow::Result<Catalog> {
        let runtime = Runtime::new(Some(self.data.compiled_cache()))?;
        let mut catalog = Catalog::scan(runtime, self.data.clone());
        if let Some(problem) = catalog.cache_problem() {
            if !self
                .cache_said
                .swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                let warning = Text::new("attention", "warning");
                errln!("{}: {problem}", warning.get(&self.lang));
            }
        }
        catalog.compile_unlisted();
        Ok(catalog)
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

/// Said before scripts new to this build pass their leak check (a few seconds, once), with
/// the game it plays.
pub fn say_leak_check(checking: &Checking) {
    crate::term::errln!(
        "Checking {} for leaks before it first plays (one random game of {} players; done once)…",
        checking
            .scripts
            .iter()
            .map(|id| crate::term::line(id))
            .collect::<Vec<_>>()
            .join(", "),
        checking.players
    );
}
