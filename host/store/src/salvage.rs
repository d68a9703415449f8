//! Salvage and restore: copying every session that can be read out of a damaged (or
//! set-aside) database.
//!
//! A salvage builds a fresh database in `sessions.salvaging/` from what the damaged one still
//! gives, then sets the damaged one aside as `sessions.broken-<time>/` and puts the new one in
//! its place. Until that last rename nothing of the old database has moved, so a salvage that
//! fails (the disk is full) or is killed leaves the saved games as they were.
//!
//! A session is carried over whole or not at all: its description, every move of its log
//! (each decoded, numbered without a gap, as many as it says), its scripts; its snapshots and
//! redo stack when they read (a session resumes from its log without them). A log read in
//! part is not kept cut short: the description's status is that of the whole log, and a
//! resume checks it. Reading goes record by record: a damaged stretch of the list of sessions
//! is read around from both ends and id by id, so that damage loses only what it touches.
//!
//! A database sled did not open where it is (see `sledlog.rs`), and every set-aside database
//! a restore reads, is read from a copy mended for sled: sled writes into what it opens, and
//! it would overwrite damage it takes for a torn write together with everything after it.
//!
//! Restoring a set-aside database copies its sessions into the current one: a session already
//! there (same id, game, start time and seed) is skipped, one whose id is taken gets a new id.

use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use sled::IVec;

use super::model::{LogEntry, SessionMeta, VariantScript};
use super::open::{
    io_error, open_checked, open_sled, Checked, LostSession, Recovery, SledOpen, DB_DIR,
    SALVAGING_DIR,
};
use super::sessions::{entry_key, id_of, index_of, session_key, RedoStack, SessionChange};
use super::{classify, decode, ledger, limits, schema, sledlog, Store, StoreError, TreeName};

/// The name of a damaged database set aside: `sessions.broken-<seconds since 1970>[-n]`.
const SET_ASIDE_PREFIX: &str = "sessions.broken-";
/// The name a set-aside database takes once every session in it has been restored.
const RESTORED_PREFIX: &str = "sessions.restored-";
/// Where a salvage reads a mended copy of a database sled did not open.
const SALVAGE_COPY_DIR: &str = "sessions.salvaging-copy";
/// Where a restore (or a look) reads a mended copy of a set-aside database.
const RESTORE_COPY_DIR: &str = "sessions.restoring-copy";
/// Log entries written per batch while copying.
const BATCH: usize = 4096;

/// A damaged database kept aside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAside {
    /// Its folder's name (`sessions.broken-1732225200`), as [`Store::restore`] takes it.
    pub name: String,
    /// Its folder.
    pub path: PathBuf,
    /// When it was set aside (seconds since 1970), from its name.
    pub since: Option<u64>,
}

/// What a restore brought back.
#[derive(Clone, Debug, Default)]
pub struct Restored {
    /// Sessions copied: (id in the set-aside database, id now).
    pub added: Vec<(u64, u64)>,
    /// Sessions that were already here.
    pub already: usize,
    /// Sessions that still cannot be read.
    pub lost: Vec<LostSession>,
    /// Part of the list of sessions could not be read.
    pub unlisted: Option<String>,
    /// Where the set-aside database is now: renamed `sessions.restored-…` when everything in
    /// it was read, else left as it was.
    pub folder: PathBuf,
}

impl Restored {
    /// Whether every session of the set-aside database is now in the current one.
    pub fn complete(&self) -> bool {
        self.lost.is_empty() && self.unlisted.is_none()
    }
}

/// What a set-aside database holds, seen without restoring it ([`Store::look`]).
#[derive(Clone, Debug, Default)]
pub struct Look {
    /// Sessions that read and are not here (their ids there): what a restore brings back.
    pub new: Vec<u64>,
    /// Sessions that read and are already here.
    pub already: usize,
    /// Sessions that cannot be read.
    pub lost: Vec<LostSession>,
    /// Part of the list of sessions could not be read.
    pub unlisted: Option<String>,
}

/// What copying found.
#[derive(Default)]
struct Copied {
    added: Vec<(u64, u64)>,
    already: usize,
    lost: Vec<LostSession>,
    unlisted: Option<String>,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Salvages the damaged database of `dir` (opened as `damaged` when sled could open it).
pub(crate) fn salvage(
    dir: &Path,
    lock: Arc<fs::File>,
    damaged: Option<Store>,
    damage: &StoreError,
) -> Result<(Store, Recovery), StoreError> {
    let db_path = dir.join(DB_DIR);
    let temp = dir.join(SALVAGING_DIR);
    let removed = match temp.exists() {
        true => fs::remove_dir_all(&temp),
        false => Ok(()),
    };
    removed.map_err(|e| io_error("to repair the saved games", &temp, e))?;
    let copied = build_salvaged(&temp, lock.clone(), damaged.as_ref());
    // Close both databases before their folders move.
    drop(damaged);
    let copied = match copied {
        Ok(copied) => copied,
        Err(e) => {
            let _ = fs::remove_dir_all(&temp);
            return Err(e);
        }
    };
    let moved_to = move_aside(&db_path)
        .map_err(|e| io_error("to set the damaged saved games aside", &db_path, e))?;
    fs::rename(&temp, &db_path)
        .map_err(|e| io_error("to put the repaired saved games in place", &temp, e))?;
    // The ledger counted the damaged database's changes; the new one starts its own count.
    ledger::record(&db_path, 0);
    let store = match open_checked(&db_path, lock)? {
        Checked::Healthy(store) => store,
        Checked::Damaged(_, e) => return Err(e),
    };
    let recovery = Recovery {
        reason: damage.to_string(),
        moved_to,
        kept: copied.added.iter().map(|&(_, to)| to).collect(),
        lost: copied.lost,
        unlisted: copied.unlisted,
    };
    Ok((store, recovery))
}

/// A fresh database in `temp` with everything readable of `damaged`, flushed and closed.
/// When sled did not open the damaged database (it refused, or it would have overwritten
/// damage it took for a torn write), a mended copy of it is read instead (see
/// [`open_copy`]).
fn build_salvaged(
    temp: &Path,
    lock: Arc<fs::File>,
    damaged: Option<&Store>,
) -> Result<Copied, StoreError> {
    let target = fresh(temp, lock.clone())?;
    let copied = match damaged {
        Some(source) => copy_readable(source, &target, false)?,
        None => {
            let work = temp.with_file_name(SALVAGE_COPY_DIR);
            let damaged = temp.with_file_name(DB_DIR);
            let copied = match open_copy(&damaged, &work, lock)? {
                Some(source) => {
                    let copied = copy_readable(&source, &target, false);
                    drop(source);
                    copied
                }
                None => Ok(unopenable()),
            };
            let _ = fs::remove_dir_all(&work);
            copied?
        }
    };
    target.flush()?;
    Ok(copied)
}

/// What copying finds in a database sled cannot open even from a mended copy.
fn unopenable() -> Copied {
    Copied {
        unlisted: Some("the database engine could not open it at all".into()),
        ..Copied::default()
    }
}

/// Opens a mended copy of the database at `from` in `work`, so that sled writes nothing
/// where the database is: sled takes damage in the part of its log it replays for a torn
/// write and overwrites it and everything after it; in the copy, every damaged stretch is
/// rewritten as a message sled skips (`sledlog::mend`). When sled cannot open that copy
/// (a damaged page-table snapshot), a copy without its `snap.*` files is opened: sled
/// rebuilds the page table from the whole log. `None` when sled opens neither.
fn open_copy(from: &Path, work: &Path, lock: Arc<fs::File>) -> Result<Option<Store>, StoreError> {
    for with_snapshots in [true, false] {
        let _ = fs::remove_dir_all(work);
        copy_dir(from, work, with_snapshots)
            .map_err(|e| io_error("to copy the damaged saved games", work, e))?;
        sledlog::mend(work).map_err(|e| io_error("to copy the damaged saved games", work, e))?;
        if let Ok(db) = open_sled(work) {
            return Ok(Some(Store {
                db,
                path: from.to_path_buf(),
                _lock: lock,
            }));
        }
    }
    Ok(None)
}

/// Copies a sled folder, with or without its `snap.*` files (the page-table snapshots).
pub(crate) fn copy_dir(from: &Path, to: &Path, with_snapshots: bool) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if !with_snapshots && name.to_string_lossy().starts_with("snap.") {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &to.join(&name), with_snapshots)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), to.join(&name))?;
        }
    }
    Ok(())
}

/// A new, empty database at `path`, at the current schema.
fn fresh(path: &Path, lock: Arc<fs::File>) -> Result<Store, StoreError> {
    let db = open_sled(path).map_err(|e| match e {
        SledOpen::Failed(e) => classify(path, "to start a new database", e),
        SledOpen::Locked => StoreError::AlreadyRunning(path.to_path_buf()),
        SledOpen::Crashed => StoreError::Damaged {
            path: path.to_path_buf(),
            detail: "the database engine crashed while creating a new database".into(),
        },
    })?;
    let store = Store {
        db,
        path: path.to_path_buf(),
        _lock: lock,
    };
    schema::write_version(&store, schema::SCHEMA_VERSION)?;
    Ok(store)
}

/// Renames the database directory to `sessions.broken-<time>` beside it.
fn move_aside(db_path: &Path) -> std::io::Result<PathBuf> {
    let stamp = now();
    let mut target = db_path.with_file_name(format!("{SET_ASIDE_PREFIX}{stamp}"));
    let mut n = 1;
    while target.exists() {
        target = db_path.with_file_name(format!("{SET_ASIDE_PREFIX}{stamp}-{n}"));
        n += 1;
    }
    if db_path.exists() {
        fs::rename(db_path, &target)?;
    } else {
        fs::create_dir_all(&target)?;
    }
    Ok(target)
}

/// What reading a damaged (or set-aside) database found.
struct Found {
    /// Sessions that read whole, with their scripts.
    readable: Vec<SessionMeta>,
    lost: Vec<LostSession>,
    unlisted: Option<String>,
}

/// Probes past a damaged stretch of a tree at most this many keys.
const PROBES: u64 = 100_000;

/// Reads every session of `source` that reads whole. Only a newer schema is an error: any
/// damage loses what it touches.
fn read_all(source: &Store) -> Result<Found, StoreError> {
    if let Ok(Some(found)) =
        catch_unwind(AssertUnwindSafe(|| schema::found_version(source))).unwrap_or(Ok(None))
    {
        if found > schema::SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: source.path.clone(),
                found,
                supported: schema::SCHEMA_VERSION,
            });
        }
    }
    let (metas, unlisted) = list_sessions(source);
    let mut found = Found {
        readable: Vec::new(),
        lost: Vec::new(),
        unlisted,
    };
    let mut listed = Vec::with_capacity(metas.len());
    for (key, value) in metas {
        let Some(id) = id_of(&key) else {
            found.lost.push(LostSession {
                id: 0,
                about: String::new(),
                why: format!("a record of the list has a key of another shape ({key:?})"),
            });
            continue;
        };
        listed.push(id);
        let read = catch_unwind(AssertUnwindSafe(|| read_session(source, id, &value)))
            .unwrap_or_else(|_| Err(lost(id, "", "the database engine crashed reading it")));
        match read {
            Ok(meta) => found.readable.push(meta),
            Err(lost) => found.lost.push(lost),
        }
    }
    let highest = listed.iter().copied().max().unwrap_or(0);
    found.lost.extend(unlisted_logs(source, &listed, highest));
    Ok(found)
}

/// The list of sessions: read from both ends, and when a damaged stretch stopped that,
/// every id up to the highest known is asked for on its own (ids count from 1), so that
/// only the records in the damaged stretch are missing.
fn list_sessions(source: &Store) -> (Vec<(IVec, IVec)>, Option<String>) {
    let (mut metas, problem) = scan(source, TreeName::Sessions);
    if problem.is_none() {
        return (metas, None);
    }
    let known: std::collections::BTreeSet<u64> =
        metas.iter().filter_map(|(k, _)| id_of(k)).collect();
    let from_logs = log_ids(source, known.last().copied().unwrap_or(0));
    let highest = known
        .last()
        .copied()
        .into_iter()
        .chain(from_logs.last().copied())
        .max()
        .unwrap_or(0);
    let probed = catch_unwind(AssertUnwindSafe(|| {
        let mut probed = Vec::new();
        let Ok(tree) = source.db.open_tree(TreeName::Sessions.as_str()) else {
            return probed;
        };
        for id in (1..=highest).take(PROBES as usize) {
            if known.contains(&id) {
                continue;
            }
            if let Ok(Some(value)) = tree.get(session_key(id)) {
                probed.push((IVec::from(&session_key(id)[..]), value));
            }
        }
        probed
    }))
    .unwrap_or_default();
    metas.extend(probed);
    metas.sort_by(|a, b| a.0.cmp(&b.0));
    (metas, problem)
}

/// Copies every readable session (and setting) of `source` into `target`. Errors reading
/// `source` lose what they touch; errors writing `target` stop the copy.
fn copy_readable(source: &Store, target: &Store, merge: bool) -> Result<Copied, StoreError> {
    let found = read_all(source)?;
    let mut copied = Copied {
        lost: found.lost,
        unlisted: found.unlisted,
        ..Copied::default()
    };
    let readable = found.readable;
    // Sessions whose id is free keep it; only then do the others get new ids, so that one
    // renumbered session never takes the id of another still to come.
    let mut taken = Vec::with_capacity(readable.len());
    for meta in readable {
        match target.session(meta.id) {
            Ok(None) => place(source, target, meta, merge, &mut copied)?,
            _ => taken.push(meta),
        }
    }
    for meta in taken {
        place(source, target, meta, merge, &mut copied)?;
    }
    copied.added.sort_unstable();
    copied.lost.sort_by_key(|l| l.id);
    copy_settings(source, target)?;
    Ok(copied)
}

fn lost(id: u64, about: &str, why: impl Into<String>) -> LostSession {
    LostSession {
        id,
        about: about.into(),
        why: why.into(),
    }
}

/// A session in words, for the report.
fn about(meta: &SessionMeta) -> String {
    let players: Vec<&str> = meta.seats.iter().map(|s| s.name.as_str()).collect();
    let mut about = format!(
        "{} — {} — {} moves",
        meta.game,
        players.join(", "),
        meta.moves
    );
    if about.len() > 200 {
        about = format!("{} — {} moves", meta.game, meta.moves);
    }
    about
}

/// A tree's records read from both ends, so that one damaged stretch loses only itself;
/// and what stopped the reading, if anything did.
fn scan(store: &Store, name: TreeName) -> (Vec<(IVec, IVec)>, Option<String>) {
    let scanned = catch_unwind(AssertUnwindSafe(|| {
        let tree = match store.db.open_tree(name.as_str()) {
            Ok(tree) => tree,
            Err(e) => return (Vec::new(), Some(e.to_string())),
        };
        let mut items = Vec::new();
        let mut problem = None;
        for entry in tree.iter() {
            match entry {
                Ok(item) => items.push(item),
                Err(e) => {
                    problem = Some(e.to_string());
                    break;
                }
            }
        }
        if problem.is_some() {
            let last = items.last().map(|(k, _)| k.clone());
            let mut tail = Vec::new();
            for entry in tree.iter().rev() {
                match entry {
                    Ok((k, _)) if last.as_ref().is_some_and(|l| &k <= l) => break,
                    Ok(item) => tail.push(item),
                    Err(_) => break,
                }
            }
            tail.reverse();
            items.extend(tail);
        }
        (items, problem)
    }));
    scanned.unwrap_or_else(|_| {
        (
            Vec::new(),
            Some("the database engine crashed while reading it".into()),
        )
    })
}

/// A session's description with its scripts, checked, and its log checked whole.
fn read_session(source: &Store, id: u64, value: &[u8]) -> Result<SessionMeta, LostSession> {
    let mut meta: SessionMeta = decode(TreeName::Sessions, id, value)
        .map_err(|e| lost(id, "", format!("its description cannot be read ({e})")))?;
    let about = about(&meta);
    let fail = |why: String| lost(id, &about, why);
    if meta.id != id {
        return Err(fail(format!(
            "its description says it is session {}",
            meta.id
        )));
    }
    meta.variants = read_scripts(source, &meta).map_err(fail)?;
    limits::check_meta(&meta).map_err(|e| fail(e.to_string()))?;
    check_log(source, id, meta.moves).map_err(fail)?;
    Ok(meta)
}

/// The session's scripts with their texts: from the scripts tree, or inline (schema 1).
fn read_scripts(source: &Store, meta: &SessionMeta) -> Result<Vec<VariantScript>, String> {
    if meta.variants.iter().all(|s| !s.text.is_empty()) {
        return Ok(meta.variants.clone());
    }
    let read = |e| classify(&source.path, "to read", e).to_string();
    let tree = source
        .db
        .open_tree(TreeName::Scripts.as_str())
        .map_err(read)?;
    let bytes = tree
        .get(session_key(meta.id))
        .map_err(read)?
        .ok_or("its house rules are missing")?;
    let scripts: Vec<VariantScript> = decode(TreeName::Scripts, meta.id, &bytes)
        .map_err(|e| format!("its house rules cannot be read ({e})"))?;
    if scripts.len() != meta.variants.len() {
        return Err("its house rules are incomplete".into());
    }
    Ok(scripts)
}

/// Reads the whole log once: every entry decodes, is within the limits, and the moves are
/// numbered 0.. without a gap, as many as the description says.
fn check_log(source: &Store, id: u64, moves: u32) -> Result<(), String> {
    let tree = source
        .db
        .open_tree(TreeName::Log.as_str())
        .map_err(|e| e.to_string())?;
    let mut expected = 0u32;
    for entry in tree.range(entry_key(id, 0)..=entry_key(id, u32::MAX)) {
        let (key, value) = entry.map_err(|e| {
            format!(
                "move {} cannot be read ({})",
                expected + 1,
                classify(&source.path, "to read", e)
            )
        })?;
        if index_of(&key) != Some(expected) {
            return Err(format!("move {} is missing", expected + 1));
        }
        let entry: LogEntry = decode(TreeName::Log, expected + 1, &value)
            .map_err(|e| format!("move {} cannot be read ({e})", expected + 1))?;
        limits::check_entry(expected, &entry).map_err(|e| e.to_string())?;
        expected += 1;
    }
    if expected != moves {
        return Err(format!(
            "its log has {expected} moves of the {moves} it should have"
        ));
    }
    Ok(())
}

/// Writes a readable session into `target`: log, snapshots, redo, then its description.
fn place(
    source: &Store,
    target: &Store,
    mut meta: SessionMeta,
    merge: bool,
    copied: &mut Copied,
) -> Result<(), StoreError> {
    let from = meta.id;
    let to = match target.session(from) {
        Ok(Some(there)) if merge && same_session(&there, &meta) => {
            copied.already += 1;
            return Ok(());
        }
        Ok(None) => from,
        _ => target.new_session_id()?,
    };
    clear(target, to)?;
    if let Err(why) = copy_log(source, target, from, to)? {
        clear(target, to)?;
        copied.lost.push(lost(from, &about(&meta), why));
        return Ok(());
    }
    copy_snapshots(source, target, from, to, meta.moves)?;
    let redo = read_redo(source, from);
    meta.id = to;
    let scripts = meta.variants.clone();
    target.commit(
        to,
        &SessionChange {
            meta: Some(&meta),
            scripts: (!scripts.is_empty()).then_some(scripts.as_slice()),
            redo: Some(&redo),
            ..SessionChange::default()
        },
    )?;
    copied.added.push((from, to));
    Ok(())
}

/// Whether two descriptions are of the same session (one may have been played further).
fn same_session(a: &SessionMeta, b: &SessionMeta) -> bool {
    a.id == b.id && a.game == b.game && a.created == b.created && a.setup.seed == b.setup.seed
}

/// Removes whatever `target` holds under a session id that has no description (left by a
/// copy that was interrupted), so that a session copied there starts clean.
fn clear(target: &Store, id: u64) -> Result<(), StoreError> {
    target.commit(
        id,
        &SessionChange {
            truncate_from: Some(0),
            drop_snapshots: true,
            redo: Some(&Vec::new()),
            delete: true,
            ..SessionChange::default()
        },
    )
}

/// Copies a session's log (already checked by [`check_log`]). The outer error is the target
/// failing; the inner one the source failing after all (the session is then lost).
fn copy_log(
    source: &Store,
    target: &Store,
    from: u64,
    to: u64,
) -> Result<Result<(), String>, StoreError> {
    let read = |e| classify(&source.path, "to read", e).to_string();
    let tree = match source.db.open_tree(TreeName::Log.as_str()) {
        Ok(tree) => tree,
        Err(e) => return Ok(Err(read(e))),
    };
    let out = target.tree(TreeName::Log)?;
    let mut batch = sled::Batch::default();
    let mut pending = 0;
    for entry in tree.range(entry_key(from, 0)..=entry_key(from, u32::MAX)) {
        let (key, value) = match entry {
            Ok(item) => item,
            Err(e) => return Ok(Err(format!("its moves cannot be read ({})", read(e)))),
        };
        let index = index_of(&key).unwrap_or(0);
        batch.insert(&entry_key(to, index)[..], value);
        pending += 1;
        if pending == BATCH {
            out.apply_batch(std::mem::take(&mut batch))
                .map_err(|e| target.sled_error("to copy a session", e))?;
            pending = 0;
        }
    }
    out.apply_batch(batch)
        .map_err(|e| target.sled_error("to copy a session", e))?;
    Ok(Ok(()))
}

/// Copies the snapshots that read, up to the first that does not (they only save time).
fn copy_snapshots(
    source: &Store,
    target: &Store,
    from: u64,
    to: u64,
    moves: u32,
) -> Result<(), StoreError> {
    let Ok(tree) = source.db.open_tree(TreeName::Snapshots.as_str()) else {
        return Ok(());
    };
    let out = target.tree(TreeName::Snapshots)?;
    for entry in tree.range(entry_key(from, 0)..=entry_key(from, moves)) {
        let Ok((key, value)) = entry else { break };
        let Some(index) = index_of(&key) else { break };
        if value.len() > limits::SNAPSHOT_BYTES {
            continue;
        }
        out.insert(entry_key(to, index), value)
            .map_err(|e| target.sled_error("to copy a session", e))?;
    }
    Ok(())
}

/// The redo stack, or none when it does not read (it only holds moves taken back).
fn read_redo(source: &Store, id: u64) -> RedoStack {
    let Ok(tree) = source.db.open_tree(TreeName::Redo.as_str()) else {
        return Vec::new();
    };
    match tree.get(session_key(id)) {
        Ok(Some(bytes)) => decode(TreeName::Redo, id, &bytes).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Sessions whose moves are in the log but whose description is not in the list (it was in
/// a damaged stretch): named, so that the report does not forget them.
fn unlisted_logs(source: &Store, listed: &[u64], highest: u64) -> Vec<LostSession> {
    log_ids(source, highest)
        .into_iter()
        .filter(|id| !listed.contains(id))
        .map(|id| lost(id, "", "its description cannot be read"))
        .collect()
}

/// The sessions that have moves in the log, one seek per session. A seek that meets a
/// damaged stretch is tried again from the next id, at most [`PROBES`] times and not past
/// `highest` (the damaged stretch hides what is there).
fn log_ids(source: &Store, highest: u64) -> Vec<u64> {
    catch_unwind(AssertUnwindSafe(|| {
        let mut ids = Vec::new();
        let Ok(tree) = source.db.open_tree(TreeName::Log.as_str()) else {
            return ids;
        };
        let mut next = 0u64;
        let mut misses = 0;
        loop {
            match tree.range(entry_key(next, 0)..).next() {
                None => break,
                Some(Ok((key, _))) => {
                    let Some(id) = key.get(..8).and_then(id_of) else {
                        break;
                    };
                    ids.push(id);
                    match id.checked_add(1) {
                        Some(n) => next = n,
                        None => break,
                    }
                }
                Some(Err(_)) => {
                    misses += 1;
                    if misses > PROBES || next >= highest {
                        break;
                    }
                    next += 1;
                }
            }
        }
        ids.dedup();
        ids
    }))
    .unwrap_or_default()
}

/// Copies the settings that read and are not set in `target`.
fn copy_settings(source: &Store, target: &Store) -> Result<(), StoreError> {
    let out = target.tree(TreeName::Settings)?;
    for (key, value) in scan(source, TreeName::Settings).0 {
        let readable = decode::<serde_json::Value>(TreeName::Settings, "", &value).is_ok();
        let taken = out
            .contains_key(&key)
            .map_err(|e| target.sled_error("to copy the settings", e))?;
        if readable && !taken && value.len() <= limits::SETTING_BYTES {
            out.insert(key, value)
                .map_err(|e| target.sled_error("to copy the settings", e))?;
        }
    }
    Ok(())
}

impl Store {
    /// The damaged databases set aside beside this one, oldest first.
    pub fn set_aside(&self) -> Vec<SetAside> {
        let Some(dir) = self.path.parent() else {
            return Vec::new();
        };
        let mut found: Vec<SetAside> = fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                let stamp = name.strip_prefix(SET_ASIDE_PREFIX)?;
                let since = stamp.split('-').next().and_then(|s| s.parse().ok());
                Some(SetAside {
                    path: e.path(),
                    name,
                    since,
                })
            })
            .collect();
        found.sort_by(|a, b| (a.since, &a.name).cmp(&(b.since, &b.name)));
        found
    }

    /// Brings back the sessions of a set-aside database (by its folder's name, see
    /// [`Store::set_aside`]): every session that reads and is not here yet is copied in,
    /// under its own id when free. A session that does not read is named in
    /// [`Restored::lost`] and the others are brought back all the same. When every session
    /// was read the folder is renamed `sessions.restored-…` (never deleted); else it stays as
    /// it is. The set-aside database is read from a mended copy (see `sledlog.rs`), so that
    /// sled writes nothing into it.
    pub fn restore(&self, name: &str) -> Result<Restored, StoreError> {
        let chosen = self.chosen(name)?;
        let work = chosen.path.with_file_name(RESTORE_COPY_DIR);
        let copied = match open_copy(&chosen.path, &work, self._lock.clone())? {
            Some(source) => {
                let copied = copy_readable(&source, self, true);
                drop(source);
                copied
            }
            None => Ok(unopenable()),
        };
        let _ = fs::remove_dir_all(&work);
        let copied = copied?;
        self.flush()?;
        let mut restored = Restored {
            added: copied.added,
            already: copied.already,
            lost: copied.lost,
            unlisted: copied.unlisted,
            folder: chosen.path.clone(),
        };
        if restored.complete() {
            let suffix = name.strip_prefix(SET_ASIDE_PREFIX).unwrap_or(name);
            let renamed = chosen
                .path
                .with_file_name(format!("{RESTORED_PREFIX}{suffix}"));
            if !renamed.exists() && fs::rename(&chosen.path, &renamed).is_ok() {
                restored.folder = renamed;
            }
        }
        Ok(restored)
    }

    /// What [`Store::restore`] would bring back from a set-aside database, read the same way
    /// and written nowhere: so that what is offered is what can be done.
    pub fn look(&self, name: &str) -> Result<Look, StoreError> {
        let chosen = self.chosen(name)?;
        let work = chosen.path.with_file_name(RESTORE_COPY_DIR);
        let found = match open_copy(&chosen.path, &work, self._lock.clone())? {
            Some(source) => {
                let found = read_all(&source);
                drop(source);
                found
            }
            None => Ok(Found {
                readable: Vec::new(),
                lost: Vec::new(),
                unlisted: unopenable().unlisted,
            }),
        };
        let _ = fs::remove_dir_all(&work);
        let found = found?;
        let mut look = Look {
            lost: found.lost,
            unlisted: found.unlisted,
            ..Look::default()
        };
        for meta in found.readable {
            match self.session(meta.id) {
                Ok(Some(there)) if same_session(&there, &meta) => look.already += 1,
                _ => look.new.push(meta.id),
            }
        }
        Ok(look)
    }

    fn chosen(&self, name: &str) -> Result<SetAside, StoreError> {
        self.set_aside()
            .into_iter()
            .find(|s| s.name == name)
            .ok_or_else(|| StoreError::NoSuchSetAside(name.to_string()))
    }
}
