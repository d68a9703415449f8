//! The on-disk schema version and the migrations from older ones.

use super::model::SessionMeta;
use super::sessions::{id_of, meta_record, session_key};
use super::{decode, encode, Store, StoreError, TreeName};

/// The schema this Veillée writes.
///
/// History: 1 — sessions, log, snapshots, redo, settings (JSON values, big-endian keys).
/// 2 — a session's scripts (with their texts) in their own tree, out of the metadata that is
/// rewritten on every move.
pub const SCHEMA_VERSION: u32 = 2;

pub(crate) const VERSION_KEY: &str = "schema_version";

/// A step from schema `from` to `from + 1`.
type Migration = fn(&Store) -> Result<(), StoreError>;

/// `MIGRATIONS[i]` upgrades schema `i + 1` to `i + 2`.
const MIGRATIONS: &[Migration] = &[scripts_out_of_metadata];

/// The schema a database says it has: `None` for an empty, new one. A version that cannot
/// be one (0, or not a number) is damage.
pub(crate) fn found_version(store: &Store) -> Result<Option<u32>, StoreError> {
    let meta = store.tree(TreeName::Meta)?;
    let stored = meta
        .get(VERSION_KEY)
        .map_err(|e| store.sled_error("to read the database's version", e))?;
    match stored {
        Some(bytes) => match decode::<u32>(TreeName::Meta, VERSION_KEY, &bytes)? {
            0 => Err(StoreError::Corrupt {
                tree: TreeName::Meta.as_str(),
                key: VERSION_KEY.into(),
                detail: "schema version 0 does not exist".into(),
            }),
            version => Ok(Some(version)),
        },
        None if is_empty(store)? => Ok(None),
        // Data without a version predates versioning: schema 1.
        None => Ok(Some(1)),
    }
}

/// Brings a freshly opened database to [`SCHEMA_VERSION`]: stamps a new one, migrates an
/// older one step by step, refuses a newer one. Writes nothing when it is up to date, so
/// that a full disk does not stop the saved games from opening.
pub(super) fn upgrade(store: &Store) -> Result<(), StoreError> {
    let found = match found_version(store)? {
        Some(found) => found,
        None => return write_version(store, SCHEMA_VERSION),
    };
    if found > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            path: store.path.clone(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for version in found..SCHEMA_VERSION {
        let step = MIGRATIONS
            .get(version as usize - 1)
            .ok_or_else(|| StoreError::Refused(format!("no migration from schema {version}")))?;
        step(store)?;
        write_version(store, version + 1)?;
    }
    Ok(())
}

pub(crate) fn write_version(store: &Store, version: u32) -> Result<(), StoreError> {
    let meta = store.tree(TreeName::Meta)?;
    meta.insert(VERSION_KEY, encode(&version))
        .map_err(|e| store.sled_error("to record the database's version", e))?;
    store.flush()
}

fn is_empty(store: &Store) -> Result<bool, StoreError> {
    for name in TreeName::ALL {
        if !store.tree(name)?.is_empty() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// 1 → 2: each session's script texts move from its metadata to the scripts tree.
fn scripts_out_of_metadata(store: &Store) -> Result<(), StoreError> {
    let sessions = store.tree(TreeName::Sessions)?;
    let scripts = store.tree(TreeName::Scripts)?;
    for entry in sessions.iter() {
        let (key, value) = entry.map_err(|e| store.sled_error("to upgrade the database", e))?;
        let Some(id) = id_of(&key) else { continue };
        let meta: SessionMeta = decode(TreeName::Sessions, id, &value)?;
        // Already moved (an upgrade interrupted half-way is taken up again).
        if meta.variants.iter().all(|s| s.text.is_empty()) {
            continue;
        }
        scripts
            .insert(session_key(id), encode(&meta.variants))
            .map_err(|e| store.sled_error("to upgrade the database", e))?;
        sessions
            .insert(session_key(id), meta_record(&meta))
            .map_err(|e| store.sled_error("to upgrade the database", e))?;
    }
    store.flush()
}

/// Marks the database as written by another schema (tests of the refusal and of damage).
#[doc(hidden)]
pub fn force_schema_version(store: &Store, version: u32) -> Result<(), StoreError> {
    write_version(store, version)
}
