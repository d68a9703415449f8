//! The on-disk schema version and the migrations from older ones.

use super::{Store, StoreError, TreeName};

/// The schema this Veillée writes.
///
/// History: 1 — sessions, log, snapshots, redo, settings (JSON values, big-endian keys).
pub const SCHEMA_VERSION: u32 = 1;

const VERSION_KEY: &str = "schema_version";

/// A step from schema `from` to `from + 1`.
type Migration = fn(&Store) -> Result<(), StoreError>;

/// `MIGRATIONS[i]` upgrades schema `i + 1` to `i + 2`. Empty while schema 1 is the only one.
const MIGRATIONS: &[Migration] = &[];

/// Brings a freshly opened database to [`SCHEMA_VERSION`]: stamps a new one, migrates an
/// older one step by step, refuses a newer one.
pub(super) fn upgrade(store: &Store) -> Result<(), StoreError> {
    let meta = store.tree(TreeName::Meta)?;
    let found = match meta.get(VERSION_KEY).map_err(|e| store.db_error(e))? {
        Some(bytes) => super::decode::<u32>(TreeName::Meta, VERSION_KEY, &bytes)?,
        None if is_empty(store)? => SCHEMA_VERSION,
        // Data without a version predates versioning: there is no such database yet.
        None => 1,
    };
    if found > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            path: store.path.clone(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for version in found..SCHEMA_VERSION {
        MIGRATIONS[(version - 1) as usize](store)?;
        write_version(store, version + 1)?;
    }
    write_version(store, SCHEMA_VERSION)
}

fn write_version(store: &Store, version: u32) -> Result<(), StoreError> {
    let meta = store.tree(TreeName::Meta)?;
    meta.insert(VERSION_KEY, super::encode(&version))
        .map_err(|e| store.db_error(e))?;
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

/// Marks the database as written by another schema (tests of the refusal).
#[doc(hidden)]
pub fn force_schema_version(store: &Store, version: u32) -> Result<(), StoreError> {
    write_version(store, version)
}
