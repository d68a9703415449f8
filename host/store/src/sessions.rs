//! Sessions, their logs, snapshots and redo stacks in the database.
//!
//! Keys: a session id is a big-endian u64 (so sessions sort by age); a log entry or snapshot
//! key is the session id followed by a big-endian u32 move index, so a session's log is one
//! ordered range. Every change is one multi-tree transaction followed by a flush: after a
//! crash a session is either before or after a move, never in between.

use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use super::model::{LogEntry, SessionMeta};
use super::{decode, encode, Store, StoreError, TreeName};

/// Undone moves, most recent group last; each group is what one undo removed.
pub type RedoStack = Vec<Vec<LogEntry>>;

fn session_key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

fn entry_key(id: u64, index: u32) -> [u8; 12] {
    let mut key = [0; 12];
    key[..8].copy_from_slice(&id.to_be_bytes());
    key[8..].copy_from_slice(&index.to_be_bytes());
    key
}

fn index_of(key: &[u8]) -> u32 {
    key.get(8..12)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_be_bytes)
}

/// A session's changes, applied together by [`Store::commit`].
#[derive(Default)]
pub struct SessionChange<'a> {
    /// New metadata (always written).
    pub meta: Option<&'a SessionMeta>,
    /// Log entries to write, with their indices.
    pub append: Vec<(u32, &'a LogEntry)>,
    /// Remove log entries from this index on, and snapshots after it.
    pub truncate_from: Option<u32>,
    /// Remove every snapshot of the session first.
    pub drop_snapshots: bool,
    /// A snapshot to write: (moves played, state).
    pub snapshot: Option<(u32, &'a [u8])>,
    /// The redo stack to store (`Some(empty)` clears it).
    pub redo: Option<&'a RedoStack>,
    /// Remove the session's metadata (with `truncate_from: Some(0)`: the whole session).
    pub delete: bool,
}

impl Store {
    /// Every session, oldest first.
    pub fn sessions(&self) -> Result<Vec<SessionMeta>, StoreError> {
        let tree = self.tree(TreeName::Sessions)?;
        tree.iter()
            .map(|entry| {
                let (key, value) = entry.map_err(|e| self.db_error(e))?;
                decode(TreeName::Sessions, format!("{key:?}"), &value)
            })
            .collect()
    }

    /// One session's metadata.
    pub fn session(&self, id: u64) -> Result<Option<SessionMeta>, StoreError> {
        let tree = self.tree(TreeName::Sessions)?;
        match tree.get(session_key(id)).map_err(|e| self.db_error(e))? {
            Some(value) => decode(TreeName::Sessions, id, &value).map(Some),
            None => Ok(None),
        }
    }

    /// A session's log from move `from` on.
    pub fn log(&self, id: u64, from: u32) -> Result<Vec<LogEntry>, StoreError> {
        let tree = self.tree(TreeName::Log)?;
        tree.range(entry_key(id, from)..=entry_key(id, u32::MAX))
            .map(|entry| {
                let (key, value) = entry.map_err(|e| self.db_error(e))?;
                decode(TreeName::Log, format!("{id}/{}", index_of(&key)), &value)
            })
            .collect()
    }

    /// The latest snapshot taken after at most `moves` moves: (moves, state).
    pub fn latest_snapshot(
        &self,
        id: u64,
        moves: u32,
    ) -> Result<Option<(u32, Vec<u8>)>, StoreError> {
        let tree = self.tree(TreeName::Snapshots)?;
        let last = tree
            .range(entry_key(id, 0)..=entry_key(id, moves))
            .next_back();
        match last {
            Some(entry) => {
                let (key, value) = entry.map_err(|e| self.db_error(e))?;
                Ok(Some((index_of(&key), value.to_vec())))
            }
            None => Ok(None),
        }
    }

    /// A session's redo stack.
    pub fn redo_stack(&self, id: u64) -> Result<RedoStack, StoreError> {
        let tree = self.tree(TreeName::Redo)?;
        match tree.get(session_key(id)).map_err(|e| self.db_error(e))? {
            Some(value) => decode(TreeName::Redo, id, &value),
            None => Ok(Vec::new()),
        }
    }

    /// Applies a session's changes atomically and durably.
    pub fn commit(&self, id: u64, change: &SessionChange) -> Result<(), StoreError> {
        let [sessions, log, snapshots, redo] = [
            TreeName::Sessions,
            TreeName::Log,
            TreeName::Snapshots,
            TreeName::Redo,
        ]
        .map(|t| self.tree(t));
        let (sessions, log, snapshots, redo) = (sessions?, log?, snapshots?, redo?);
        // Transactions cannot scan: find the keys to remove first (one process holds the
        // database, so nothing changes in between).
        let stale_log = match change.truncate_from {
            Some(from) => self.keys(&log, entry_key(id, from), entry_key(id, u32::MAX))?,
            None => Vec::new(),
        };
        let stale_snapshots = match (change.drop_snapshots, change.truncate_from) {
            (true, _) => self.keys(&snapshots, entry_key(id, 0), entry_key(id, u32::MAX))?,
            (false, Some(from)) => self.keys(
                &snapshots,
                entry_key(id, from.saturating_add(1)),
                entry_key(id, u32::MAX),
            )?,
            (false, None) => Vec::new(),
        };
        let result: Result<(), TransactionError<()>> = (&sessions, &log, &snapshots, &redo)
            .transaction(|(s, l, sn, r)| {
                for key in &stale_log {
                    l.remove(key.as_slice())?;
                }
                for key in &stale_snapshots {
                    sn.remove(key.as_slice())?;
                }
                for (index, entry) in &change.append {
                    l.insert(&entry_key(id, *index)[..], encode(entry))?;
                }
                if let Some((moves, state)) = change.snapshot {
                    sn.insert(&entry_key(id, moves)[..], state)?;
                }
                if let Some(stack) = change.redo {
                    match stack.is_empty() {
                        true => r.remove(&session_key(id)[..]).map(drop)?,
                        false => r.insert(&session_key(id)[..], encode(stack)).map(drop)?,
                    }
                }
                if let Some(meta) = change.meta {
                    s.insert(&session_key(id)[..], encode(meta))?;
                }
                if change.delete {
                    s.remove(&session_key(id)[..])?;
                }
                Ok::<(), ConflictableTransactionError<()>>(())
            });
        result.map_err(|e| self.db_error(format!("{e:?}")))?;
        self.flush()
    }

    /// Removes a session and everything it owns, durably.
    pub fn delete_session(&self, id: u64) -> Result<(), StoreError> {
        let change = SessionChange {
            truncate_from: Some(0),
            drop_snapshots: true,
            redo: Some(&Vec::new()),
            delete: true,
            ..SessionChange::default()
        };
        self.commit(id, &change)
    }

    fn keys(
        &self,
        tree: &sled::Tree,
        from: [u8; 12],
        to: [u8; 12],
    ) -> Result<Vec<Vec<u8>>, StoreError> {
        tree.range(from..=to)
            .keys()
            .map(|k| k.map(|k| k.to_vec()).map_err(|e| self.db_error(e)))
            .collect()
    }
}
