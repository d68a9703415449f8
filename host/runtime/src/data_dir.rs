//! Where Veillée keeps its files: installed plugins, the compiled-code cache, and later the
//! saved sessions and user variants.

use std::path::{Path, PathBuf};

/// Environment variable that overrides the data directory (tests, portable installs).
pub const DATA_DIR_ENV: &str = "VEILLEE_DATA_DIR";
/// Environment variable that moves the compiled-code cache out of the data directory (to
/// share it between several data directories, as the test suite does).
pub const CACHE_DIR_ENV: &str = "VEILLEE_CACHE_DIR";

/// The user's Veillée data directory and its layout.
#[derive(Clone, Debug)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    /// The directory given on the command line, else `$VEILLEE_DATA_DIR`, else the platform's
    /// data directory (`~/.local/share/veillee` on Linux).
    pub fn resolve(explicit: Option<PathBuf>) -> anyhow::Result<DataDir> {
        let root = explicit
            .or_else(|| std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from))
            .or_else(|| directories::ProjectDirs::from("", "", "veillee").map(|d| d.data_dir().to_path_buf()))
            .ok_or_else(|| {
                anyhow::anyhow!("cannot find a home directory for Veillée's data: pass --data-dir DIR or set {DATA_DIR_ENV}")
            })?;
        Ok(DataDir::at(root))
    }

    /// A data directory at a given place.
    pub fn at(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    /// The directory itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Installed plugins, one `<game id>.wasm` each.
    pub fn plugins(&self) -> PathBuf {
        self.root.join("plugins")
    }

    /// The user's house rules (Lua scripts, any `*.lua` below it).
    pub fn variants(&self) -> PathBuf {
        self.root.join("variants")
    }

    /// Compiled plugin code, keyed by content hash (`$VEILLEE_CACHE_DIR` when set).
    pub fn compiled_cache(&self) -> PathBuf {
        match std::env::var_os(CACHE_DIR_ENV).filter(|v| !v.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => self.root.join("cache").join("compiled"),
        }
    }
}
