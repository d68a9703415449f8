//! Opening the database: the single-instance lock, the schema check, the health check of
//! every session's metadata, and telling damage from the disk refusing.
//!
//! Only damage (a checksum, a truncated file, a record that does not decode, sled failing on
//! its own files) leads to a salvage (`salvage.rs`). The disk refusing — full, read-only, a
//! size limit, a permission — is an [`StoreError::Io`]: the database stays where it is, as
//! it is, and the error says what to do.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::model::SessionMeta;
use super::{
    classify, decode, encode, ledger, salvage, schema, sledlog, Store, StoreError, TreeName,
};

/// The database directory inside the data directory.
pub(crate) const DB_DIR: &str = "sessions.sled";
/// Where a salvage builds the new database before it takes the old one's place.
pub(crate) const SALVAGING_DIR: &str = "sessions.salvaging";
/// Where a copy of a database is opened to see what sled's recovery of it would keep.
const PROBE_DIR: &str = "sessions.probe";
/// The lock file that keeps a second Veillée off the same data.
const LOCK_FILE: &str = "veillee.lock";
/// The meta key noting damage met while reading (a log entry, a snapshot): the next start
/// salvages the database.
const DAMAGE_KEY: &str = "damage_seen";

/// A session that a salvage could not carry over: it stays in the set-aside database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostSession {
    /// Its id in the damaged database.
    pub id: u64,
    /// What it was, when its description could be read ("castel — Ana, Bruno — 41 moves").
    pub about: String,
    /// Why it could not be carried over.
    pub why: String,
}

impl std::fmt::Display for LostSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.about.is_empty() {
            true => write!(f, "session {}: {}", self.id, self.why),
            false => write!(f, "session {} ({}): {}", self.id, self.about, self.why),
        }
    }
}

/// A damaged database was salvaged: what could be read was copied into a fresh database,
/// and the damaged one was kept aside, untouched by the salvage.
#[derive(Clone, Debug)]
pub struct Recovery {
    /// What was damaged.
    pub reason: String,
    /// Where the damaged database is kept.
    pub moved_to: PathBuf,
    /// Sessions carried over, with their (unchanged) ids.
    pub kept: Vec<u64>,
    /// Sessions that could not be carried over.
    pub lost: Vec<LostSession>,
    /// Part of the list of sessions itself could not be read: sessions there are not named.
    pub unlisted: Option<String>,
}

impl std::fmt::Display for Recovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the saved-games database was damaged ({}); {} saved game(s) could be read and were kept",
            self.reason,
            self.kept.len()
        )?;
        if !self.lost.is_empty() {
            write!(f, "; {} could not be read", self.lost.len())?;
        }
        for lost in &self.lost {
            write!(f, "; {lost}")?;
        }
        if let Some(unlisted) = &self.unlisted {
            write!(
                f,
                "; part of the list of games could not be read ({unlisted})"
            )?;
        }
        // A restore reads the damaged database as the salvage just did: it is not offered,
        // since it would bring back nothing more.
        write!(
            f,
            "; the damaged database is kept in {}",
            self.moved_to.display()
        )
    }
}

/// What opening found.
pub(crate) enum Checked {
    /// Ready.
    Healthy(Store),
    /// Damaged: the store when sled could open it, and what is wrong.
    Damaged(Option<Store>, StoreError),
}

pub(super) fn open(dir: &Path) -> Result<(Store, Option<Recovery>), StoreError> {
    fs::create_dir_all(dir).map_err(|e| io_error("to create the data directory", dir, e))?;
    let lock = lock(dir)?;
    finish_interrupted_salvage(dir)?;
    let db_path = dir.join(DB_DIR);
    match open_checked(&db_path, lock.clone())? {
        Checked::Healthy(store) => Ok((store, None)),
        Checked::Damaged(store, damage) => {
            let (store, recovery) = salvage::salvage(dir, lock, store, &damage)?;
            Ok((store, Some(recovery)))
        }
    }
}

pub(crate) fn io_error(action: &'static str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Io {
        action,
        path: path.to_path_buf(),
        kind: e.kind(),
        detail: e.to_string(),
    }
}

/// Takes the data directory's exclusive lock, held as long as the returned file lives.
fn lock(dir: &Path) -> Result<Arc<File>, StoreError> {
    let path = dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| io_error("to lock the data directory", &path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Arc::new(file)),
        Err(TryLockError::WouldBlock) => Err(StoreError::AlreadyRunning(dir.to_path_buf())),
        Err(TryLockError::Error(e)) => Err(io_error("to lock the data directory", &path, e)),
    }
}

/// A salvage stopped half-way (the process was killed): the new database replaces the old
/// one only once complete, so a `sessions.salvaging` beside a database is unfinished (and
/// removed), and one without is complete (and put in place).
fn finish_interrupted_salvage(dir: &Path) -> Result<(), StoreError> {
    let temp = dir.join(SALVAGING_DIR);
    if !temp.exists() {
        return Ok(());
    }
    let db = dir.join(DB_DIR);
    let done = if db.exists() {
        fs::remove_dir_all(&temp)
    } else {
        fs::rename(&temp, &db)
    };
    done.map_err(|e| io_error("to finish repairing the saved games", &temp, e))
}

/// Opens sled, brings the schema up to date and reads every session's metadata and every
/// setting (not the logs: they are read when a session is), so that a damaged list is found
/// now rather than in the middle of a game.
pub(crate) fn open_checked(db_path: &Path, lock: Arc<File>) -> Result<Checked, StoreError> {
    let damaged = |detail: &str| StoreError::Damaged {
        path: db_path.to_path_buf(),
        detail: detail.into(),
    };
    // sled's own open would take damage in the part of its log it replays for a torn write
    // and overwrite it with everything after it: look first, and salvage from a copy —
    // unless what looks damaged is only the tail a crash (or a full disk) left, which
    // sled's recovery drops losing no change it had confirmed.
    if let Ok(Some(detail)) = sledlog::damage(db_path) {
        if recovery_loses_confirmed_changes(db_path) {
            return Ok(Checked::Damaged(None, damaged(&detail)));
        }
    }
    let db = match open_sled(db_path) {
        Ok(db) => db,
        Err(SledOpen::Locked) => return Err(StoreError::AlreadyRunning(db_path.to_path_buf())),
        Err(SledOpen::Crashed) => {
            let damage = damaged("the database engine crashed while opening it");
            return Ok(Checked::Damaged(None, damage));
        }
        Err(SledOpen::Failed(e)) => {
            return match classify(db_path, "to open the saved games", e) {
                damage if damage.is_damage() => Ok(Checked::Damaged(None, damage)),
                other => Err(other),
            }
        }
    };
    let store = Store {
        db,
        path: db_path.to_path_buf(),
        _lock: lock,
    };
    match catch_unwind(AssertUnwindSafe(|| check(&store))) {
        Ok(Ok(())) => Ok(Checked::Healthy(store)),
        Ok(Err(damage)) if damage.is_damage() => Ok(Checked::Damaged(Some(store), damage)),
        Ok(Err(other)) => Err(other),
        Err(_) => {
            let damage = damaged("the database engine crashed while reading it");
            Ok(Checked::Damaged(Some(store), damage))
        }
    }
}

/// Whether sled's own recovery of the database at `db_path` would lose changes it had
/// confirmed: tried on a copy (sled rewrites the log it recovers), whose commit count is
/// compared with the ledger's. A crash leaves a torn write after the last confirmed change,
/// with maybe whole records after it that no one was told were saved; damage to what was
/// saved before loses confirmed changes. Without a ledger, or when the copy does not open,
/// it cannot be told: the answer is yes, and the database is salvaged from a copy.
fn recovery_loses_confirmed_changes(db_path: &Path) -> bool {
    let Some(remembered) = ledger::remembered(db_path) else {
        return true;
    };
    let probe = db_path.with_file_name(PROBE_DIR);
    let _ = fs::remove_dir_all(&probe);
    let commits = crate::salvage::copy_dir(db_path, &probe, true)
        .ok()
        .and_then(|()| commits_after_recovery(&probe));
    let _ = fs::remove_dir_all(&probe);
    commits.is_none_or(|commits| commits < remembered)
}

/// The commit count of the database at `path`, opened by sled (which recovers it).
fn commits_after_recovery(path: &Path) -> Option<u64> {
    catch_unwind(AssertUnwindSafe(|| {
        let db = open_sled(path).ok()?;
        let meta = db.open_tree(TreeName::Meta.as_str()).ok()?;
        let count = meta.get(ledger::COMMITS_KEY).ok()?;
        Some(ledger::count(count.as_deref()))
    }))
    .ok()
    .flatten()
}

/// The health check of an open database (see [`open_checked`]).
fn check(store: &Store) -> Result<(), StoreError> {
    let new = schema::found_version(store)?.is_none();
    schema::upgrade(store)?;
    let read = |e| classify(&store.path, "to open the saved games", e);
    let meta = store.db.open_tree(TreeName::Meta.as_str()).map_err(read)?;
    if let Some(seen) = meta.get(DAMAGE_KEY).map_err(read)? {
        let seen: String = decode(TreeName::Meta, DAMAGE_KEY, &seen)?;
        return Err(StoreError::Damaged {
            path: store.path.clone(),
            detail: format!("damage was found while reading it: {seen}"),
        });
    }
    let commits = ledger::count(meta.get(ledger::COMMITS_KEY).map_err(read)?.as_deref());
    if new {
        // A database started here (the first, or one replacing a folder moved away).
        ledger::record(&store.path, commits);
    } else if let Some(remembered) = ledger::remembered(&store.path) {
        if commits < remembered {
            return Err(StoreError::Damaged {
                path: store.path.clone(),
                detail: format!(
                    "its last {} change(s) are missing: a damaged record cut its log short",
                    remembered - commits
                ),
            });
        }
    }
    for entry in store.tree(TreeName::Sessions)?.iter() {
        let (key, value) = entry.map_err(read)?;
        decode::<SessionMeta>(TreeName::Sessions, format!("{key:?}"), &value)?;
    }
    for entry in store.tree(TreeName::Settings)?.iter() {
        let (key, value) = entry.map_err(read)?;
        let name = String::from_utf8_lossy(&key);
        decode::<serde_json::Value>(TreeName::Settings, name, &value)?;
    }
    Ok(())
}

impl Store {
    /// Notes damage met while reading, so that the next start salvages the database. Best
    /// effort: the damage itself is reported to the caller either way.
    pub(crate) fn note_damage(&self, error: &StoreError) {
        let _ = catch_unwind(AssertUnwindSafe(|| {
            if let Ok(meta) = self.db.open_tree(TreeName::Meta.as_str()) {
                let _ = meta.insert(DAMAGE_KEY, encode(&error.to_string()));
                let _ = self.db.flush();
            }
        }));
    }
}

/// Why sled did not open.
pub(crate) enum SledOpen {
    Crashed,
    Locked,
    Failed(sled::Error),
}

/// How long a database closed by this process may keep its file lock: sled releases it from
/// its flusher thread a moment after the last handle is dropped.
const CLOSING_GRACE: Duration = Duration::from_secs(3);

/// Opens sled, waiting out a handle of this same process that is still closing: the caller
/// holds the data directory's lock, so no other launcher can be holding sled's.
pub(crate) fn open_sled(db_path: &Path) -> Result<sled::Db, SledOpen> {
    let started = Instant::now();
    loop {
        // sled may panic on some damaged files instead of returning an error.
        let opened = catch_unwind(AssertUnwindSafe(|| {
            sled::Config::new().path(db_path).open()
        }))
        .map_err(|_| SledOpen::Crashed)?;
        match opened {
            Ok(db) => return Ok(db),
            Err(e) if e.to_string().contains("could not acquire lock") => {
                if started.elapsed() > CLOSING_GRACE {
                    return Err(SledOpen::Locked);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(SledOpen::Failed(e)),
        }
    }
}
