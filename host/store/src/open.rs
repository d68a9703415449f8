//! Opening the database: the single-instance lock, the schema check, and recovery from a
//! corrupt database.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
    let db = open_sled(db_path).map_err(|e| match e {
        SledOpen::Crashed => broken("the database engine crashed while opening it".into()),
        SledOpen::Locked => StoreError::AlreadyRunning(db_path.to_path_buf()),
        SledOpen::Failed(e) => broken(e.to_string()),
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

/// Why sled did not open.
enum SledOpen {
    Crashed,
    Locked,
    Failed(sled::Error),
}

/// How long a database closed by this process may keep its file lock: sled releases it from
/// its flusher thread a moment after the last handle is dropped.
const CLOSING_GRACE: Duration = Duration::from_secs(3);

/// Opens sled, waiting out a handle of this same process that is still closing: the caller
/// holds the data directory's lock, so no other launcher can be holding sled's.
fn open_sled(db_path: &Path) -> Result<sled::Db, SledOpen> {
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
