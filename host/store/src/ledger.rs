//! The ledger: how many changes the database has taken, also noted outside it.
//!
//! sled treats a record whose checksum fails in the part of its log written since it last
//! opened as a write torn by a crash: it silently drops that record and everything after it.
//! To see such a loss, every commit counts itself inside the database (`commits`, in the
//! same transaction) and, once flushed, writes the count to `sessions.ledger` beside it (no
//! sync: after a power cut the ledger may be behind the database, never ahead). A database
//! that opens with fewer commits than the ledger lost some: that is damage.

use std::path::{Path, PathBuf};

/// The meta key of the commit count (u64, big-endian).
pub(crate) const COMMITS_KEY: &str = "commits";

/// The ledger file of the database at `db_path`.
fn file(db_path: &Path) -> PathBuf {
    db_path.with_file_name("sessions.ledger")
}

/// A stored count (absent or malformed: 0).
pub(crate) fn count(bytes: Option<&[u8]>) -> u64 {
    bytes
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_be_bytes)
}

/// Notes the count once the commit is durable. Best effort: a missing ledger only means
/// that a loss cannot be seen.
pub(crate) fn record(db_path: &Path, commits: u64) {
    let _ = std::fs::write(file(db_path), commits.to_string());
}

/// The count the ledger remembers, if any.
pub(crate) fn remembered(db_path: &Path) -> Option<u64> {
    std::fs::read_to_string(file(db_path))
        .ok()?
        .trim()
        .parse()
        .ok()
}
