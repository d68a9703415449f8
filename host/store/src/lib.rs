//! `veillee-store`: Veillée's one database — saved sessions, their logs and snapshots,
//! settings — in sled.
//!
//! **Invariant: the only crate of Veillée that depends on sled, and it knows no game and no
//! engine: it keeps records (the persisted types of [`model`]), never runs them.** The rest of
//! the host goes through [`Store`]. One `Store` per
//! process (sled locks its directory, even against a second open in the same process); it is
//! cheap to clone. Every write that the user must be able to count on is flushed before the
//! call returns.
//!
//! **What is on disk is input.** Opening checks the schema and every session's metadata (not
//! the logs, read when a session is); a damaged database is salvaged ([`Recovery`]): what can
//! be read is copied to a fresh database and the damaged one is kept aside, to be brought
//! back later ([`Store::restore`]). An error of the disk (full, read-only, a size limit) is
//! not damage: it is reported as [`StoreError::Io`] and nothing is moved. Every record
//! written is bounded ([`limits`]).

mod ledger;
pub mod limits;
pub mod model;
mod open;
mod salvage;
mod schema;
mod sessions;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use open::{LostSession, Recovery};
pub use salvage::{Restored, SetAside};
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
    /// The disk refused a read or a write (full, read-only, no permission, a file size
    /// limit). The data is not damaged and was left where it is.
    #[error("the disk refused {action} in {} ({detail}): {}; nothing already saved was lost, and the saved games were left where they are", path.display(), io_hint(*kind))]
    Io {
        /// What was being done: "to save the move", "to open the saved games".
        action: &'static str,
        path: PathBuf,
        kind: std::io::ErrorKind,
        detail: String,
    },
    /// A record could not be read (a damaged value).
    #[error("damaged record in {tree} ({key}): {detail}")]
    Corrupt {
        tree: &'static str,
        key: String,
        detail: String,
    },
    /// The database engine found damage (a checksum, a truncated file).
    #[error("the saved-games database in {} is damaged: {detail}", path.display())]
    Damaged { path: PathBuf, detail: String },
    /// Something larger or stranger than the store keeps (see [`limits`]); nothing was
    /// written.
    #[error("{0}")]
    Refused(String),
    /// A set-aside database that is not there.
    #[error("there is no set-aside database `{0}` (`veillee restore` lists them)")]
    NoSuchSetAside(String),
}

impl StoreError {
    /// Whether this is damage found in the database (as opposed to the disk refusing, a
    /// lock, a newer schema, or a refused value).
    pub fn is_damage(&self) -> bool {
        matches!(
            self,
            StoreError::Corrupt { .. } | StoreError::Damaged { .. }
        )
    }
}

/// What to do about an I/O error, by kind.
fn io_hint(kind: std::io::ErrorKind) -> &'static str {
    use std::io::ErrorKind as K;
    match kind {
        K::StorageFull => "the disk is full; free some space and try again",
        K::QuotaExceeded => "your disk quota is used up; free some space and try again",
        K::FileTooLarge => {
            "a file size limit stops the database from growing (see `ulimit -f`); raise it and try again"
        }
        K::ReadOnlyFilesystem | K::PermissionDenied => {
            "the data directory is not writable; make it writable or choose another with --data-dir"
        }
        _ => "check the disk, then try again",
    }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TreeName {
    /// Schema version and other database facts.
    Meta,
    /// Session id (u64, big-endian) → session metadata (JSON), without its scripts' texts.
    Sessions,
    /// Session id + move index (u64, u32, big-endian) → log entry (JSON).
    Log,
    /// Session id + move count (u64, u32, big-endian) → the game state after those moves.
    Snapshots,
    /// Session id → undone log entries, for redo (JSON list).
    Redo,
    /// Session id → the scripts it runs, with their full texts (JSON list); written once.
    Scripts,
    /// Setting name → value (JSON).
    Settings,
}

impl TreeName {
    const ALL: [TreeName; 7] = [
        TreeName::Meta,
        TreeName::Sessions,
        TreeName::Log,
        TreeName::Snapshots,
        TreeName::Redo,
        TreeName::Scripts,
        TreeName::Settings,
    ];

    fn as_str(self) -> &'static str {
        match self {
            TreeName::Meta => "meta",
            TreeName::Sessions => "sessions",
            TreeName::Log => "log",
            TreeName::Snapshots => "snapshots",
            TreeName::Redo => "redo",
            TreeName::Scripts => "scripts",
            TreeName::Settings => "settings",
        }
    }
}

impl Store {
    /// Opens (or creates) the database in `dir`, taking the data directory's lock. A
    /// damaged database is salvaged: see [`Recovery`]. An error of the disk is returned as
    /// [`StoreError::Io`] with the data left in place.
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
            .map_err(|e| self.sled_error("to read the saved games", e))
    }

    /// Makes everything written so far durable.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db
            .flush()
            .map(drop)
            .map_err(|e| self.sled_error("to save", e))
    }

    /// A setting, if set. A damaged setting reads as unset (and is noted for repair).
    pub fn setting<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, StoreError> {
        let tree = self.tree(TreeName::Settings)?;
        match tree
            .get(name)
            .map_err(|e| self.sled_error("to read a setting", e))?
        {
            // An oversized value (written before the limits) is ignored, not loaded again.
            Some(bytes) if bytes.len() > limits::SETTING_BYTES => Ok(None),
            Some(bytes) => match decode(TreeName::Settings, name, &bytes) {
                Ok(value) => Ok(Some(value)),
                Err(damage) => Err(self.noted(damage)),
            },
            None => Ok(None),
        }
    }

    /// Saves a setting durably.
    pub fn set_setting<T: Serialize>(&self, name: &str, value: &T) -> Result<(), StoreError> {
        let bytes = encode(value);
        limits::check_setting(name, bytes.len())?;
        let tree = self.tree(TreeName::Settings)?;
        tree.insert(name, bytes)
            .map_err(|e| self.sled_error("to save a setting", e))?;
        self.flush()
    }

    /// A sled error, sorted: the disk refusing is [`StoreError::Io`], damage is
    /// [`StoreError::Damaged`] (and noted, so that the next start salvages the database).
    pub(crate) fn sled_error(&self, action: &'static str, error: sled::Error) -> StoreError {
        let error = classify(&self.path, action, error);
        if error.is_damage() {
            self.note_damage(&error);
        }
        error
    }

    /// Notes damage found while reading (see [`Store::sled_error`]) and returns it.
    pub(crate) fn noted(&self, error: StoreError) -> StoreError {
        if error.is_damage() {
            self.note_damage(&error);
        }
        error
    }
}

/// Sorts a sled error into the disk refusing (I/O) and damage.
pub(crate) fn classify(path: &Path, action: &'static str, error: sled::Error) -> StoreError {
    use std::io::ErrorKind as K;
    match error {
        sled::Error::Io(io) if !matches!(io.kind(), K::UnexpectedEof | K::InvalidData) => {
            StoreError::Io {
                action,
                path: path.to_path_buf(),
                kind: io.kind(),
                detail: io.to_string(),
            }
        }
        sled::Error::Io(io) => StoreError::Damaged {
            path: path.to_path_buf(),
            detail: format!("a file is cut short or unreadable ({io})"),
        },
        sled::Error::Corruption { .. } => StoreError::Damaged {
            path: path.to_path_buf(),
            detail: "a checksum does not match: the data on disk was changed".into(),
        },
        other => StoreError::Damaged {
            path: path.to_path_buf(),
            detail: format!("the database engine failed: {other}"),
        },
    }
}

/// Serializes a record (JSON: readable with any tool, tolerant to added fields).
pub(crate) fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serializing our own plain data types cannot fail (no maps with non-string keys).
    serde_json::to_vec(value).unwrap_or_default()
}

/// Reads a record, naming the tree and key when it is damaged.
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

#[cfg(test)]
mod tests;
