//! Opening the database: the single-instance lock, the schema check, and recovery from a
//! corrupt database.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use super::{schema, Store, StoreError, TreeName};

/// The database directory inside the data directory.
const DB_DIR: &str = "sessions.sled";
/// The lock file that keeps a second Veillée off the same data.
const LOCK_FILE: &str = "veillee.lock";

/// A corrupt database was moved aside and replaced by an empty one.
#[derive(Clone, Debug)]
pub struct Recovery {
    /// Why the database could not be used.
    pub reason: String,
    /// Where its files are now.
    pub moved_to: PathBuf,
}

impl std::fmt::Display for Recovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the saved-games database could not be read ({}); its files were moved to {} and a new, empty database was started",
            self.reason,
            self.moved_to.display()
        )
    }
}

pub(super) fn open(dir: &Path) -> Result<(Store, Option<Recovery>), StoreError> {
    let io_error = |e: std::io::Error| StoreError::Database {
        path: dir.to_path_buf(),
        detail: e.to_string(),
    };
    fs::create_dir_all(dir).map_err(io_error)?;
    let lock = lock(dir)?;
    let db_path = dir.join(DB_DIR);
    match open_checked(&db_path, lock.clone()) {
        Ok(store) => Ok((store, None)),
        Err(e @ (StoreError::AlreadyRunning(_) | StoreError::NewerSchema { .. })) => Err(e),
        Err(broken) => {
            let moved_to = move_aside(&db_path).map_err(io_error)?;
            let store = open_checked(&db_path, lock)?;
            Ok((
                store,
                Some(Recovery {
                    reason: broken.to_string(),
                    moved_to,
                }),
            ))
        }
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
        .map_err(|e| StoreError::Database {
            path: path.clone(),
            detail: e.to_string(),
        })?;
    match file.try_lock() {
        Ok(()) => Ok(Arc::new(file)),
        Err(TryLockError::WouldBlock) => Err(StoreError::AlreadyRunning(dir.to_path_buf())),
        Err(TryLockError::Error(e)) => Err(StoreError::Database {
            path,
            detail: e.to_string(),
        }),
    }
}

/// Opens sled, brings the schema up to date and reads every record once, so that a corrupt
/// database is found now rather than in the middle of a game.
fn open_checked(db_path: &Path, lock: Arc<File>) -> Result<Store, StoreError> {
    let broken = |detail: String| StoreError::Database {
        path: db_path.to_path_buf(),
        detail,
    };
    // sled may panic on some damaged files instead of returning an error.
    let opened = catch_unwind(AssertUnwindSafe(|| {
        sled::Config::new().path(db_path).open()
    }))
    .map_err(|_| broken("the database engine crashed while opening it".into()))?;
    let db = opened.map_err(|e| {
        if e.to_string().contains("could not acquire lock") {
            StoreError::AlreadyRunning(db_path.to_path_buf())
        } else {
            broken(e.to_string())
        }
    })?;
    let store = Store {
        db,
        path: db_path.to_path_buf(),
        _lock: lock,
    };
    schema::upgrade(&store)?;
    catch_unwind(AssertUnwindSafe(|| verify(&store)))
        .map_err(|_| broken("the database engine crashed while reading it".into()))??;
    Ok(store)
}

/// Reads every record of every tree.
fn verify(store: &Store) -> Result<(), StoreError> {
    for name in TreeName::ALL {
        for entry in store.tree(name)?.iter() {
            let (key, value) = entry.map_err(|e| store.db_error(e))?;
            if matches!(
                name,
                TreeName::Sessions
                    | TreeName::Log
                    | TreeName::Redo
                    | TreeName::Settings
                    | TreeName::Meta
            ) {
                super::decode::<serde_json::Value>(name, format!("{key:?}"), &value)?;
            }
        }
    }
    Ok(())
}

/// Renames the database directory to `sessions.broken-<time>` beside it.
fn move_aside(db_path: &Path) -> std::io::Result<PathBuf> {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut target = db_path.with_file_name(format!("sessions.broken-{stamp}"));
    let mut n = 1;
    while target.exists() {
        target = db_path.with_file_name(format!("sessions.broken-{stamp}-{n}"));
        n += 1;
    }
    if db_path.exists() {
        fs::rename(db_path, &target)?;
    } else {
        fs::create_dir_all(&target)?;
    }
    Ok(target)
}
