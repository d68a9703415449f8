//! `veillee-store`: Veillée's one database — saved sessions, their logs and snapshots,
//! settings — in sled.
//!
//! **Invariant: the only crate of Veillée that depends on sled, and it knows no game and no
//! engine: it keeps records (the persisted types of [`model`]), never runs them.** The rest of
//! the host goes through [`Store`]. One `Store` per
//! process (sled locks its directory, even against a second open in the same process); it is
//! cheap to clone. Every write that the user must be able to count on is flushed before the
//! call returns.

pub mod model;
mod open;
mod schema;
mod sessions;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use open::Recovery;
pub use schema::{force_schema_version, SCHEMA_VERSION};
pub use sessions::{RedoStack, SessionChange};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another Veillée holds this data directory.
    #[error(
        "Veillée is already running on this data ({0}); close it first, or use another --data-dir"
    )]
    AlreadyRunning(PathBuf),
    /// The database was written by a newer Veillée.
    #[error("the saved games in {path} use database schema {found}, newer than this Veillée's ({supported}); update Veillée to open them")]
    NewerSchema {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    /// A record could not be read (corrupt value).
    #[error("corrupt record in {tree} ({key}): {detail}")]
    Corrupt {
        tree: &'static str,
        key: String,
        detail: String,
    },
    /// The disk said no.
    #[error("database error in {path}: {detail}")]
    Database { path: PathBuf, detail: String },
}

/// The database: sessions, their logs and snapshots, settings.
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    path: PathBuf,
    // Held for the life of the process: the data directory's single-instance lock.
    _lock: std::sync::Arc<std::fs::File>,
}

/// The trees of the database. Keys are documented where each is used.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TreeName {
    /// Schema version and other database facts.
    Meta,
    /// Session id (u64, big-endian) → session metadata (JSON).
    Sessions,
    /// Session id + move index (u64, u32, big-endian) → log entry (JSON).
    Log,
    /// Session id + move count (u64, u32, big-endian) → the game state after those moves.
    Snapshots,
    /// Session id → undone log entries, for redo (JSON list).
    Redo,
    /// Setting name → value (JSON).
    Settings,
}

impl TreeName {
    const ALL: [TreeName; 6] = [
        TreeName::Meta,
        TreeName::Sessions,
        TreeName::Log,
        TreeName::Snapshots,
        TreeName::Redo,
        TreeName::Settings,
    ];

    fn as_str(self) -> &'static str {
        match self {
            TreeName::Meta => "meta",
            TreeName::Sessions => "sessions",
            TreeName::Log => "log",
            TreeName::Snapshots => "snapshots",
            TreeName::Redo => "redo",
            TreeName::Settings => "settings",
        }
    }
}

impl Store {
    /// Opens (or creates) the database in `dir`, taking the data directory's lock.
    /// A corrupt database is moved aside and replaced by a fresh one: see [`Recovery`].
    pub fn open(dir: &Path) -> Result<(Store, Option<Recovery>), StoreError> {
        open::open(dir)
    }

    /// Where the database lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn tree(&self, name: TreeName) -> Result<sled::Tree, StoreError> {
        self.db
            .open_tree(name.as_str())
            .map_err(|e| self.db_error(e))
    }

    /// Makes everything written so far durable.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush().map(drop).map_err(|e| self.db_error(e))
    }

    /// A fresh unique id (monotonic, survives restarts).
    pub fn generate_id(&self) -> Result<u64, StoreError> {
        self.db.generate_id().map_err(|e| self.db_error(e))
    }

    /// A setting, if set.
    pub fn setting<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, StoreError> {
        let tree = self.tree(TreeName::Settings)?;
        match tree.get(name).map_err(|e| self.db_error(e))? {
            Some(bytes) => decode(TreeName::Settings, name, &bytes).map(Some),
            None => Ok(None),
        }
    }

    /// Saves a setting durably.
    pub fn set_setting<T: Serialize>(&self, name: &str, value: &T) -> Result<(), StoreError> {
        let tree = self.tree(TreeName::Settings)?;
        tree.insert(name, encode(value))
            .map_err(|e| self.db_error(e))?;
        self.flush()
    }

    pub(crate) fn db_error(&self, error: impl std::fmt::Display) -> StoreError {
        StoreError::Database {
            path: self.path.clone(),
            detail: error.to_string(),
        }
    }
}

/// Serializes a record (JSON: readable with any tool, tolerant to added fields).
pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serializing our own plain data types cannot fail (no maps with non-string keys).
    serde_json::to_vec(value).unwrap_or_default()
}

/// Reads a record, naming the tree and key when it is corrupt.
pub(crate) fn decode<T: DeserializeOwned>(
    tree: TreeName,
    key: impl std::fmt::Display,
    bytes: &[u8],
) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        tree: tree.as_str(),
        key: key.to_string(),
        detail: e.to_string(),
    })
}
