//! Where Veillée keeps its files: installed plugins, the compiled-code cache, and later the
//! saved sessions and user variants.

use std::path::{Path, PathBuf};

use crate::plugin::CacheConfig;

/// Name of the file of the key that signs compiled code.
const KEY_FILE: &str = "compiled-code.key";

/// Environment variable that overrides the data directory (tests, portable installs).
pub const DATA_DIR_ENV: &str = "VEILLEE_DATA_DIR";
/// Environment variable that moves the compiled-code cache out of the data directory (to
/// share it between several data directories, as the test suite does).
pub const CACHE_DIR_ENV: &str = "VEILLEE_CACHE_DIR";
/// Environment variable that moves the key signing the compiled-code cache (tests, which
/// keep it beside their shared cache instead of in the user's configuration directory).
pub const CACHE_KEY_ENV: &str = "VEILLEE_CACHE_KEY";

/// The user's Veillée data directory and its layout.
#[derive(Clone, Debug)]
pub struct DataDir {
    root: PathBuf,
}

/// Neither `--data-dir`, the environment nor a home directory says where the data goes.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot find a home directory for Veillée's data: pass --data-dir DIR or set {DATA_DIR_ENV}"
)]
pub struct NoDataDir;

impl DataDir {
    /// The directory given on the command line, else `$VEILLEE_DATA_DIR`, else the platform's
    /// data directory (`~/.local/share/veillee` on Linux).
    pub fn resolve(explicit: Option<PathBuf>) -> Result<DataDir, NoDataDir> {
        let root = explicit
            .or_else(|| {
                std::env::var_os(DATA_DIR_ENV)
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| {
                directories::ProjectDirs::from("", "", "veillee")
                    .map(|d| d.data_dir().to_path_buf())
            })
            .ok_or(NoDataDir)?;
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

    /// Compiled plugin code, keyed by content hash (`$VEILLEE_CACHE_DIR` when set), and the
    /// key that signs it.
    ///
    /// The key is kept outside the data directory — `$VEILLEE_CACHE_KEY`, else the user's
    /// configuration directory (`~/.config/veillee/compiled-code.key` on Linux) — so that a
    /// data directory copied, synced or shipped with a `cache/` brings no key that would
    /// make its compiled code trusted here. Only without any home directory does it fall
    /// back to the data directory's root (still outside the cache).
    pub fn compiled_cache(&self) -> CacheConfig {
        let dir = match std::env::var_os(CACHE_DIR_ENV).filter(|v| !v.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => self.root.join("cache").join("compiled"),
        };
        let key_file = std::env::var_os(CACHE_KEY_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                directories::ProjectDirs::from("", "", "veillee")
                    .map(|d| d.preference_dir().join(KEY_FILE))
            })
            .unwrap_or_else(|| self.root.join(KEY_FILE));
        CacheConfig { dir, key_file }
    }
}
