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
//!
//! # What is checked, and when
//!
//! The database may have been damaged by a failing disk, cut short, restored from a backup,
//! written by an older or a newer Veillée, or edited by hand; an imported file may come from
//! anyone.
//!
//! * **On open** (cost independent of the length of the logs): the data directory's lock is
//!   taken (a second Veillée gets "already running on this data"); sled opens (a panic inside
//!   sled is caught); the schema version is a number from 1 to ours (newer: refused, the
//!   database left alone; older: migrated; 0 or garbage: damage); every session's metadata
//!   and every setting decodes; no damage was noted while reading earlier; and the database
//!   has taken at least as many changes as `sessions.ledger` remembers (each commit counts
//!   itself inside the database and, once flushed, in that file beside it): sled takes a
//!   failed checksum in what it wrote since its last start for a torn write and silently
//!   drops it and everything after it — the ledger makes that loss seen. Logs, snapshots,
//!   scripts and redo stacks are read when a session is, and damage found there is reported
//!   for that session (`damaged record in log (session 7, move 345)`) and noted, so that the
//!   next start salvages.
//! * **Damage vs. the disk refusing.** Only damage — a sled checksum, a file cut short, a
//!   record that does not decode, sled failing on its own files — leads to a salvage. An
//!   error of the disk (full, read-only, a permission, a file size limit, the lock) is
//!   [`StoreError::Io`]: it says so and what to do, the database stays where it is, and a
//!   move that could not be saved is refused (the game goes back to what is saved). Opening
//!   writes nothing to an up-to-date database, so a full disk still lists the saved games.
//! * **Before sled opens a database**, the part of its log that sled replays on open is read
//!   apart from sled, read-only (`sledlog.rs`; a cost of the same order as sled's own
//!   replay). sled takes a record whose checksum fails there for the end of a write torn by
//!   a crash and overwrites it and every record after it, in place; so a failing record
//!   followed by one that reads is damage, and that database is salvaged without sled ever
//!   opening it where it is.
//! * **Salvage.** A fresh database is built in `sessions.salvaging/` from every session that
//!   reads whole (metadata, scripts, every move decoded and numbered without a gap, as many as
//!   the metadata says; snapshots and redo when they read). The damaged database is read where
//!   it is when sled could open it there (the damage lies in records sled reads only when
//!   asked for them), else from a copy mended for sled: each damaged stretch of its log
//!   rewritten as a record sled skips, so that sled replays everything around it (when its
//!   page-table snapshot is damaged too, the copy leaves the snapshot out and sled rebuilds
//!   the page table from the whole log). Reading goes record by record: a damaged stretch of
//!   the list of sessions is read around from both ends and by asking for each id on its
//!   own, and a session is lost only when one of its own records does not read or does not
//!   agree with the others. A session whose log reads only in part is not kept cut short:
//!   its metadata (the game's status) belongs to the whole log, a resume checks it, and the
//!   store, which knows no game, cannot say what it was earlier; it is named as lost.
//!   The damaged database is then renamed `sessions.broken-<time>/`, kept as it was, and the
//!   new one takes its place. Until that rename nothing has moved: a salvage that fails or is
//!   killed leaves the data as it was (a leftover `sessions.salvaging/` is finished or
//!   removed at the next start). The report ([`Recovery`]) names the sessions kept and those
//!   left in the set-aside database, and why; sessions whose moves exist but whose metadata
//!   is gone are named too. It offers no restore: a restore reads the set-aside database the
//!   same way, and would bring back nothing more.
//! * **Restore.** [`Store::restore`] (`veillee restore NAME`, the Saved games screen) reads a
//!   mended copy of a set-aside database (sled writes nothing into it) and copies every
//!   session that reads into the current one — those already there are skipped, a taken id
//!   gets a new one — and names those that do not read; a damaged record loses its session,
//!   never the restore. Once all of it is back the folder is renamed
//!   `sessions.restored-<time>/`. [`Store::look`] tells beforehand, writing nothing, what a
//!   restore would bring back, so that a restore is offered only when there is something to
//!   bring back. Nothing is ever deleted.
//! * **Caps** ([`limits`]), checked by `Store::commit` before anything is written, by import
//!   before anything runs, and by the front ends where people type: names 40 characters, no
//!   control characters; 32 seats; ids, versions, hashes and file names 256 bytes; scripts
//!   256 KiB each, 16 per session; the seats held by phones, seats of the game each once; an
//!   action id 1 KiB; a log entry 64 KiB; a session's metadata 64 KiB; a snapshot 64 MiB; a
//!   setting 64 KiB; 1,000,000 moves per session; an import file 256 MiB. Oversized settings
//!   left by an older Veillée are ignored, not loaded.
//! * **No input panics the host**: the decoders, the keys, the schema check and every command
//!   over a database holding a hostile record are fuzzed with proptest (`tests.rs`).
//!
//! A session's metadata (rewritten on every move) keeps its scripts' ids and hashes; their
//! texts are written once, in their own tree, and read only when the session is.

mod ledger;
pub mod limits;
pub mod model;
mod open;
mod salvage;
mod schema;
mod sessions;
mod sledlog;

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use open::{LostSession, Recovery};
pub use salvage::{Look, Restored, SetAside};
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
