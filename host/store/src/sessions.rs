//! Sessions, their logs, snapshots, scripts and redo stacks in the database.
//!
//! Keys: a session id is a big-endian u64 (so sessions sort by age); a log entry or snapshot
//! key is the session id followed by a big-endian u32 move index, so a session's log is one
//! ordered range. Every change is one multi-tree transaction followed by a flush: after a
//! crash a session is either before or after a move, never in between.
//!
//! A session's metadata is rewritten on every move, so it stays small: its scripts' texts
//! live in their own tree, written once when the session starts, and read only when the
//! session is (never by a listing).

use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use super::model::{LogEntry, SessionMeta, VariantScript};
use super::{decode, encode, ledger, limits, Store, StoreError, TreeName};

/// Undone moves, most recent group last; each group is what one undo removed.
pub type RedoStack = Vec<Vec<LogEntry>>;

pub(crate) fn session_key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

pub(crate) fn entry_key(id: u64, index: u32) -> [u8; 12] {
    let mut key = [0; 12];
    key[..8].copy_from_slice(&id.to_be_bytes());
    key[8..].copy_from_slice(&index.to_be_bytes());
    key
}

/// The move index of a log or snapshot key; `None` for a key of another shape.
pub(crate) fn index_of(key: &[u8]) -> Option<u32> {
    let bytes: [u8; 4] = key.get(8..12)?.try_into().ok()?;
    (key.len() == 12).then(|| u32::from_be_bytes(bytes))
}

/// The session id of a sessions-tree key; `None` for a key of another shape.
pub(crate) fn id_of(key: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(key.try_into().ok()?))
}

/// A session's metadata as stored: its scripts without their texts.
pub(crate) fn meta_record(meta: &SessionMeta) -> Vec<u8> {
    let mut stored = meta.clone();
    for script in &mut stored.variants {
        script.text.clear();
    }
    encode(&stored)
}

/// A session's changes, applied together by [`Store::commit`].
#[derive(Default)]
pub struct SessionChange<'a> {
    /// New metadata (always written). Its scripts' texts are written only with `scripts`.
    pub meta: Option<&'a SessionMeta>,
    /// Record the session's scripts with their full texts (when it starts or is imported).
    pub scripts: Option<&'a [VariantScript]>,
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
    /// Remove the session's metadata and scripts (with `truncate_from: Some(0)`: the whole
    /// session).
    pub delete: bool,
}

impl SessionChange<'_> {
    /// Checks every value against [`limits`] before anything is written.
    fn check(&self, id: u64) -> Result<(), StoreError> {
        if let Some(meta) = self.meta {
            limits::check_meta(meta)?;
            limits::check_meta_record(id, meta_record(meta).len())?;
        }
        if let Some(scripts) = self.scripts {
            if scripts.len() > limits::SCRIPTS {
                return Err(StoreError::Refused(format!(
                    "the session runs {} scripts; at most {} are kept",
                    scripts.len(),
                    limits::SCRIPTS
                )));
            }
            scripts.iter().try_for_each(limits::check_script)?;
        }
        for (index, entry) in &self.append {
            if *index >= limits::MOVES {
                return Err(StoreError::Refused(format!(
                    "a session keeps at most {} moves",
                    limits::MOVES
                )));
            }
            limits::check_entry(*index, entry)?;
        }
        if let Some((_, state)) = self.snapshot {
            limits::check_snapshot(state.len())?;
        }
        Ok(())
    }
}

impl Store {
    /// Every session, oldest first. A listing carries each script's id, file and hash; the
    /// texts, needed only to run a session, come with [`Store::session`].
    pub fn sessions(&self) -> Result<Vec<SessionMeta>, StoreError> {
        let tree = self.tree(TreeName::Sessions)?;
        tree.iter()
            .map(|entry| {
                let (key, value) = entry.map_err(|e| self.sled_error("to list the sessions", e))?;
                decode(TreeName::Sessions, format!("{key:?}"), &value).map_err(|e| self.noted(e))
            })
            .collect()
    }

    /// One session's metadata, with its scripts' full texts.
    pub fn session(&self, id: u64) -> Result<Option<SessionMeta>, StoreError> {
        let tree = self.tree(TreeName::Sessions)?;
        let Some(value) = tree
            .get(session_key(id))
            .map_err(|e| self.sled_error("to read a session", e))?
        else {
            return Ok(None);
        };
        let mut meta: SessionMeta =
            decode(TreeName::Sessions, id, &value).map_err(|e| self.noted(e))?;
        self.join_scripts(&mut meta)?;
        Ok(Some(meta))
    }

    /// Fills in the texts of a session's scripts (schema 1 kept them in the metadata).
    fn join_scripts(&self, meta: &mut SessionMeta) -> Result<(), StoreError> {
        if meta.variants.iter().all(|s| !s.text.is_empty()) {
            return Ok(());
        }
        let tree = self.tree(TreeName::Scripts)?;
        let stored = tree
            .get(session_key(meta.id))
            .map_err(|e| self.sled_error("to read a session's house rules", e))?;
        let scripts: Vec<VariantScript> = match stored {
            Some(bytes) => decode(TreeName::Scripts, meta.id, &bytes).map_err(|e| self.noted(e))?,
            None => Vec::new(),
        };
        if scripts.len() != meta.variants.len() {
            return Err(self.noted(StoreError::Corrupt {
                tree: TreeName::Scripts.as_str(),
                key: meta.id.to_string(),
                detail: format!(
                    "the session runs {} scripts but {} are recorded",
                    meta.variants.len(),
                    scripts.len()
                ),
            }));
        }
        meta.variants = scripts;
        Ok(())
    }

    /// A session's log from move `from` on.
    pub fn log(&self, id: u64, from: u32) -> Result<Vec<LogEntry>, StoreError> {
        let tree = self.tree(TreeName::Log)?;
        tree.range(entry_key(id, from)..=entry_key(id, u32::MAX))
            .map(|entry| {
                let (key, value) =
                    entry.map_err(|e| self.sled_error("to read a session's moves", e))?;
                let index = index_of(&key).map_or(0, |i| i + 1);
                decode(TreeName::Log, format!("session {id}, move {index}"), &value)
                    .map_err(|e| self.noted(e))
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
                let (key, value) =
                    entry.map_err(|e| self.sled_error("to read a saved game state", e))?;
                Ok(index_of(&key).map(|moves| (moves, value.to_vec())))
            }
            None => Ok(None),
        }
    }

    /// A session's redo stack.
    pub fn redo_stack(&self, id: u64) -> Result<RedoStack, StoreError> {
        let tree = self.tree(TreeName::Redo)?;
        match tree
            .get(session_key(id))
            .map_err(|e| self.sled_error("to read what can be redone", e))?
        {
            Some(value) => decode(TreeName::Redo, id, &value).map_err(|e| self.noted(e)),
            None => Ok(Vec::new()),
        }
    }

    /// A fresh session id, never one in use; people read and type them, so they start at 1
    /// and follow on from the highest id saved (the window and the command line number the
    /// same way). Not sled's id generator: it jumps by a million at every start.
    pub fn new_session_id(&self) -> Result<u64, StoreError> {
        let sessions = self.tree(TreeName::Sessions)?;
        let error = |e| self.sled_error("to number a new session", e);
        // The highest key that is a session id (a stray key of another length is skipped).
        let mut highest = 0;
        for key in sessions.iter().keys().rev() {
            if let Ok(id) = <[u8; 8]>::try_from(key.map_err(error)?.as_ref()) {
                highest = u64::from_be_bytes(id);
                break;
            }
        }
        let mut id = highest.saturating_add(1).max(1);
        while sessions.contains_key(session_key(id)).map_err(error)? {
            id = id.wrapping_add(1).max(1);
        }
        Ok(id)
    }

    /// Applies a session's changes atomically and durably. Values over the [`limits`] are
    /// refused before anything is written.
    pub fn commit(&self, id: u64, change: &SessionChange) -> Result<(), StoreError> {
        change.check(id)?;
        let [sessions, log, snapshots, redo, scripts, facts] = [
            TreeName::Sessions,
            TreeName::Log,
            TreeName::Snapshots,
            TreeName::Redo,
            TreeName::Scripts,
            TreeName::Meta,
        ]
        .map(|t| self.tree(t));
        let (sessions, log, snapshots, redo, scripts, facts) =
            (sessions?, log?, snapshots?, redo?, scripts?, facts?);
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
        let meta = change.meta.map(meta_record);
        let script_texts = change.scripts.map(|s| encode(&s));
        let commits = std::cell::Cell::new(0);
        let result: Result<(), TransactionError<()>> = (
            &sessions, &log, &snapshots, &redo, &scripts, &facts,
        )
            .transaction(|(s, l, sn, r, sc, f)| {
                let count = ledger::count(f.get(ledger::COMMITS_KEY)?.as_deref()) + 1;
                f.insert(ledger::COMMITS_KEY, &count.to_be_bytes()[..])?;
                commits.set(count);
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
                if let Some(texts) = &script_texts {
                    sc.insert(&session_key(id)[..], texts.as_slice())?;
                }
                if let Some(meta) = &meta {
                    s.insert(&session_key(id)[..], meta.as_slice())?;
                }
                if change.delete {
                    s.remove(&session_key(id)[..])?;
                    sc.remove(&session_key(id)[..])?;
                }
                Ok::<(), ConflictableTransactionError<()>>(())
            });
        result.map_err(|e| match e {
            TransactionError::Storage(e) => self.sled_error("to save the change", e),
            TransactionError::Abort(()) => StoreError::Refused("the change was abandoned".into()),
        })?;
        self.flush()?;
        ledger::record(&self.path, commits.get());
        Ok(())
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
            .map(|k| {
                k.map(|k| k.to_vec())
                    .map_err(|e| self.sled_error("to read a session's moves", e))
            })
            .collect()
    }
}
