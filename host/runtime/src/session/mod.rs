//! Saved sessions: every game played through the host is event-sourced into the store.
//!
//! The log (seat + action id per move) is the source of truth: seed + log replays to the
//! state. Snapshots every [`SNAPSHOT_EVERY`] moves only make resuming fast. Each move is
//! durable (flushed) before [`Sessions::apply`] returns.
//!
//! * **Resume**: the latest snapshot, then the log's tail replayed. A changed plugin replays
//!   the whole log and is accepted only if history holds — every move still legal, the state
//!   at the latest snapshot the very bytes saved then (same rules, not merely legal moves),
//!   the same status at the end — else `Diverged` names the move.
//! * **Undo/redo**: a step is the last human move with the bot moves after it; never across a
//!   reveal without agreement (the table asks, see `crate::table`).
//! * **Export/import**: `read_file` reads a bounded regular file; `check_file` checks the
//!   format and every value against the store's limits before any script is loaded; the
//!   session is then validated by replay. Exporting an unfinished hidden-information game holds
//!   everyone's secrets (action ids are public to whoever holds the file).
//! * `history`: a session played again from its log on a game of its own, the session only
//!   read — every move with all its texts (`history`: the window's log after a resume), or what
//!   one viewer saw after each move as that viewer reads it (`seen_by`: the window's replay,
//!   seat views).
//! * `seat_view`: a game as one seat saw it (`Sessions::export_seat`, `veillee export ID FILE
//!   --seat N`, shown by `veillee show-view`): each move as that seat reads it and the scene it
//!   saw after it, no seed, no action id, for sharing a game in progress without spoilers (it
//!   replays that view, not the game).

mod history;
mod replay;
mod seat_view;

use std::time::{SystemTime, UNIX_EPOCH};

use veillee_sdk::{Event, Handle, Seat, Setup, Text};

use crate::engine::{EngineError, GameEngine};
use crate::store::model::{
    LogEntry, PlayerKind, SeatPlayer, SessionFile, SessionMeta, VariantScript, FILE_FORMAT,
    FILE_FORMAT_VERSION,
};
use crate::store::{limits, SessionChange, Store, StoreError};

pub use history::{repeats_label, Played, Seen};
pub use replay::{Diverged, TURN_TIME_KEY};
pub use seat_view::{read_seat_view, SeatView, SeenMove, SEAT_VIEW_FORMAT, SEAT_VIEW_VERSION};

/// A snapshot of the state is saved every this many moves.
pub const SNAPSHOT_EVERY: u32 = 64;

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The game or its plugin failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// No such session.
    #[error("there is no saved session {0} (`veillee sessions` lists them)")]
    NotFound(u64),
    /// The session is of another game than the engine given.
    #[error("session {id} is a game of {expected}, not {found}")]
    WrongGame {
        id: u64,
        expected: String,
        found: String,
    },
    /// The log no longer replays with the installed plugin.
    #[error(transparent)]
    Diverged(#[from] Diverged),
    /// Undo would take back something already revealed.
    #[error("undoing would take back what was already revealed: {}; everyone at the table must agree (CLI: --agree)", .0.iter().map(|t| t.en.as_str()).collect::<Vec<_>>().join("; "))]
    RevealInTheWay(Vec<Text>),
    /// Nothing to undo.
    #[error("there is nothing to undo")]
    NothingToUndo,
    /// Nothing to redo.
    #[error("there is nothing to redo")]
    NothingToRedo,
    /// An export file that cannot be imported.
    #[error("cannot import this file: {0}")]
    BadFile(String),
}

/// A session being played: its metadata and the live game in the engine.
#[derive(Debug)]
pub struct LiveSession {
    /// The session's metadata, kept up to date.
    pub meta: SessionMeta,
    /// The game in the engine.
    pub game: Handle,
}

/// What an undo took back.
#[derive(Debug)]
pub struct Undone {
    /// Moves removed from the log.
    pub moves: u32,
    /// Revealed things it crossed (only with everyone's agreement).
    pub reveals: Vec<Text>,
}

/// The saved sessions of one database.
#[derive(Clone)]
pub struct Sessions {
    store: Store,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Sessions {
    /// Sessions kept in `store`.
    pub fn new(store: Store) -> Sessions {
        Sessions { store }
    }

    /// The underlying store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Every session, most recently played first.
    pub fn list(&self) -> Result<Vec<SessionMeta>, SessionError> {
        let mut sessions = self.store.sessions()?;
        sessions.sort_by(|a, b| b.last_played.cmp(&a.last_played).then(b.id.cmp(&a.id)));
        Ok(sessions)
    }

    /// One session's metadata.
    pub fn get(&self, id: u64) -> Result<SessionMeta, SessionError> {
        self.store.session(id)?.ok_or(SessionError::NotFound(id))
    }

    /// A session's whole log.
    pub fn log(&self, id: u64) -> Result<Vec<LogEntry>, SessionError> {
        Ok(self.store.log(id, 0)?)
    }

    /// A fresh session id, never one in use; people read and type them, so they start at 1.
    fn new_id(&self) -> Result<u64, SessionError> {
        Ok(self.store.new_session_id()?)
    }

    /// Deletes a session for good.
    pub fn delete(&self, id: u64) -> Result<(), SessionError> {
        self.get(id)?;
        Ok(self.store.delete_session(id)?)
    }

    /// Starts and saves a new session under the plain rules.
    pub fn start(
        &self,
        engine: &mut dyn GameEngine,
        seats: Vec<SeatPlayer>,
        setup: Setup,
    ) -> Result<LiveSession, SessionError> {
        self.start_with_variants(engine, seats, setup, Vec::new())
    }

    /// Starts and saves a new session whose engine runs these house rules (recorded with
    /// their exact text, so that resuming runs them even if the files change).
    pub fn start_with_variants(
        &self,
        engine: &mut dyn GameEngine,
        seats: Vec<SeatPlayer>,
        setup: Setup,
        variants: Vec<VariantScript>,
    ) -> Result<LiveSession, SessionError> {
        let game = engine.create(&setup)?;
        let manifest = engine.manifest();
        let time = now();
        let meta = SessionMeta {
            id: self.new_id()?,
            game: manifest.id.clone(),
            plugin_hash: engine.content_hash(),
            plugin_version: manifest.version.clone(),
            variants,
            seats,
            setup,
            created: time,
            last_played: time,
            moves: 0,
            status: engine.status(game)?,
            phones: Vec::new(),
        };
        let state = engine.save(game)?;
        self.store.commit(
            meta.id,
            &SessionChange {
                meta: Some(&meta),
                scripts: (!meta.variants.is_empty()).then_some(meta.variants.as_slice()),
                snapshot: Some((0, &state)),
                ..SessionChange::default()
            },
        )?;
        Ok(LiveSession { meta, game })
    }

    /// Notes the seats players hold on their phones (`seats` in order, each a seat of the
    /// game), so that resuming opens the room for them again.
    pub fn set_phones(&self, live: &mut LiveSession, seats: Vec<Seat>) -> Result<(), SessionError> {
        let mut meta = live.meta.clone();
        meta.phones = seats;
        self.store.commit(
            meta.id,
            &SessionChange {
                meta: Some(&meta),
                ..SessionChange::default()
            },
        )?;
        live.meta = meta;
        Ok(())
    }

    /// Plays an action and saves it durably before returning its events.
    pub fn apply(
        &self,
        engine: &mut dyn GameEngine,
        live: &mut LiveSession,
        seat: Seat,
        action: &str,
        extra: serde_json::Value,
    ) -> Result<Vec<Event>, SessionError> {
        let events = match replay::apply_entry(engine, live.game, seat, action, &extra) {
            Ok(events) => events,
            // Refused: nothing changed.
            Err(EngineError::Game(refused)) => return Err(EngineError::Game(refused).into()),
            // The plugin failed (its games are lost): rebuild the game from what is saved.
            Err(failure) => {
                self.rebuild(engine, live)?;
                return Err(failure.into());
            }
        };
        let entry = LogEntry {
            seat,
            action: action.to_string(),
            extra,
            reveals: events
                .iter()
                .filter(|e| e.reveal)
                .map(|e| e.text.clone())
                .collect(),
        };
        let saved = self.append(engine, live, &[entry], Some(&Vec::new()));
        if let Err(error) = saved {
            // The game is ahead of the disk: bring it back to what is saved. The error the
            // player must see is why the move was not saved, even if rebuilding fails too.
            let _ = self.rebuild(engine, live);
            return Err(error);
        }
        Ok(events)
    }

    /// Writes entries already applied to the live game, with the new metadata.
    fn append(
        &self,
        engine: &mut dyn GameEngine,
        live: &mut LiveSession,
        entries: &[LogEntry],
        redo: Option<&crate::store::RedoStack>,
    ) -> Result<(), SessionError> {
        let mut meta = live.meta.clone();
        let first = meta.moves;
        meta.moves += entries.len() as u32;
        meta.status = engine.status(live.game)?;
        meta.last_played = now();
        let crosses_snapshot = (first / SNAPSHOT_EVERY) != (meta.moves / SNAPSHOT_EVERY);
        let state = if crosses_snapshot {
            Some(engine.save(live.game)?)
        } else {
            None
        };
        let append = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (first + i as u32, e))
            .collect();
        let change = SessionChange {
            meta: Some(&meta),
            append,
            snapshot: state.as_deref().map(|s| (meta.moves, s)),
            redo,
            ..SessionChange::default()
        };
        self.store.commit(meta.id, &change)?;
        live.meta = meta;
        Ok(())
    }

    /// Resumes a session: the latest snapshot, then the rest of the log. If the installed
    /// plugin is not the one the session was played with, the whole log is replayed with it
    /// and accepted only if every action is still legal, the state at the latest snapshot is
    /// the very one saved then (same rules, not just legal moves), and the outcome is the
    /// same.
    pub fn resume(
        &self,
        engine: &mut dyn GameEngine,
        id: u64,
    ) -> Result<LiveSession, SessionError> {
        let meta = self.get(id)?;
        same_game(engine, id, &meta)?;
        if engine.content_hash() == meta.plugin_hash {
            let snapshot = self.store.latest_snapshot(id, meta.moves)?;
            let from = snapshot.as_ref().map_or(0, |(moves, _)| *moves);
            let tail = self.store.log(id, from)?;
            let game =
                replay::replay(engine, &meta, snapshot.map(|(_, state)| state), from, &tail)?;
            return Ok(LiveSession { meta, game });
        }
        let log = self.store.log(id, 0)?;
        let snapshot = self.store.latest_snapshot(id, meta.moves)?;
        let game = replay::replay_changed(engine, &meta, &log, snapshot)?;
        let mut meta = meta;
        meta.plugin_hash = engine.content_hash();
        meta.plugin_version = engine.manifest().version.clone();
        let state = engine.save(game)?;
        let change = SessionChange {
            meta: Some(&meta),
            drop_snapshots: true,
            snapshot: Some((meta.moves, &state)),
            ..SessionChange::default()
        };
        self.store.commit(id, &change)?;
        Ok(LiveSession { meta, game })
    }

    /// Rebuilds the live game from what is saved.
    fn rebuild(
        &self,
        engine: &mut dyn GameEngine,
        live: &mut LiveSession,
    ) -> Result<(), SessionError> {
        engine.drop_game(live.game);
        *live = self.resume(engine, live.meta.id)?;
        Ok(())
    }

    /// Takes back `steps` decisions: each step removes the last human move and the bot moves
    /// after it. Refused when it would take back a reveal, unless `agreed`.
    pub fn undo(
        &self,
        engine: &mut dyn GameEngine,
        live: &mut LiveSession,
        steps: u32,
        agreed: bool,
    ) -> Result<Undone, SessionError> {
        let id = live.meta.id;
        let log = self.store.log(id, 0)?;
        let keep = undo_point(&log, &live.meta.seats, steps);
        if keep == log.len() {
            return Err(SessionError::NothingToUndo);
        }
        let removed = &log[keep..];
        let reveals: Vec<Text> = removed
            .iter()
            .flat_map(|e| e.reveals.iter().cloned())
            .collect();
        if !reveals.is_empty() && !agreed {
            return Err(SessionError::RevealInTheWay(reveals));
        }
        let mut redo = self.store.redo_stack(id)?;
        redo.push(removed.to_vec());
        let keep = keep as u32;
        let snapshot = self.store.latest_snapshot(id, keep)?;
        let from = snapshot.as_ref().map_or(0, |(moves, _)| *moves);
        let mut meta = live.meta.clone();
        meta.moves = keep;
        engine.drop_game(live.game);
        live.game = replay::replay_unchecked(
            engine,
            &meta,
            snapshot.map(|(_, s)| s),
            from,
            &log[from as usize..keep as usize],
        )?;
        meta.status = engine.status(live.game)?;
        meta.last_played = now();
        self.store.commit(
            id,
            &SessionChange {
                meta: Some(&meta),
                truncate_from: Some(keep),
                redo: Some(&redo),
                ..SessionChange::default()
            },
        )?;
        live.meta = meta;
        Ok(Undone {
            moves: removed.len() as u32,
            reveals,
        })
    }

    /// Re-applies what the last undo took back.
    pub fn redo(
        &self,
        engine: &mut dyn GameEngine,
        live: &mut LiveSession,
    ) -> Result<Vec<Event>, SessionError> {
        let mut redo = self.store.redo_stack(live.meta.id)?;
        let group = redo.pop().ok_or(SessionError::NothingToRedo)?;
        let mut events = Vec::new();
        for entry in &group {
            events.extend(replay::apply_entry(
                engine,
                live.game,
                entry.seat,
                &entry.action,
                &entry.extra,
            )?);
        }
        self.append(engine, live, &group, Some(&redo))?;
        Ok(events)
    }

    /// The session as one readable document.
    pub fn export(&self, id: u64) -> Result<SessionFile, SessionError> {
        Ok(SessionFile {
            format: FILE_FORMAT.into(),
            format_version: FILE_FORMAT_VERSION,
            session: self.get(id)?,
            log: self.store.log(id, 0)?,
        })
    }

    /// Validates an exported session fully — its format, the limits on every value, its
    /// game, its log replayed to the recorded outcome — and stores it under a new id.
    /// Nothing is written when any check fails.
    pub fn import(
        &self,
        engine: &mut dyn GameEngine,
        file: SessionFile,
    ) -> Result<SessionMeta, SessionError> {
        check_file(&file)?;
        let mut meta = file.session;
        same_game(engine, meta.id, &meta)?;
        let game = replay::replay(engine, &meta, None, 0, &file.log)?;
        let state = engine.save(game);
        engine.drop_game(game);
        let state = state?;
        meta.id = self.new_id()?;
        meta.plugin_hash = engine.content_hash();
        meta.plugin_version = engine.manifest().version.clone();
        let append = file
            .log
            .iter()
            .enumerate()
            .map(|(i, e)| (i as u32, e))
            .collect();
        self.store.commit(
            meta.id,
            &SessionChange {
                meta: Some(&meta),
                scripts: (!meta.variants.is_empty()).then_some(meta.variants.as_slice()),
                append,
                snapshot: Some((meta.moves, &state)),
                ..SessionChange::default()
            },
        )?;
        Ok(meta)
    }
}

/// Reads a session file to import: a regular file of at most [`limits::FILE_BYTES`], a
/// Veillée session, within the limits ([`check_file`]). Its scripts can then be loaded and
/// its game looked up before [`Sessions::import`] replays it.
pub fn read_file(path: &std::path::Path) -> Result<SessionFile, SessionError> {
    let bytes = veillee_files::read_bounded(path, limits::FILE_BYTES)
        .map_err(|e| SessionError::BadFile(e.to_string()))?;
    let file: SessionFile = serde_json::from_slice(&bytes).map_err(|e| {
        SessionError::BadFile(format!(
            "{} is not a Veillée session file ({e})",
            path.display()
        ))
    })?;
    check_file(&file)?;
    Ok(file)
}

/// Checks a session file without running anything: its format and version, its move
/// count, and every name, script, label and move against the store's limits.
pub fn check_file(file: &SessionFile) -> Result<(), SessionError> {
    if file.format != FILE_FORMAT {
        return Err(SessionError::BadFile(format!(
            "it is not a Veillée session (format `{}`)",
            file.format
        )));
    }
    if file.format_version > FILE_FORMAT_VERSION {
        return Err(SessionError::BadFile(format!(
            "it was written by a newer Veillée (format {})",
            file.format_version
        )));
    }
    let meta = &file.session;
    if meta.moves as usize != file.log.len() {
        return Err(SessionError::BadFile(format!(
            "it says {} moves but its log has {}",
            meta.moves,
            file.log.len()
        )));
    }
    let refused = |e: StoreError| SessionError::BadFile(e.to_string());
    limits::check_meta(meta).map_err(refused)?;
    for (index, entry) in file.log.iter().enumerate() {
        limits::check_entry(index as u32, entry).map_err(refused)?;
    }
    Ok(())
}

/// How many log entries to keep so as to take back `steps` decisions: trailing bot moves
/// go with the human move before them; a log of bots only loses one move per step.
/// Refuses an engine of another game than session `id`'s.
fn same_game(engine: &dyn GameEngine, id: u64, meta: &SessionMeta) -> Result<(), SessionError> {
    if engine.manifest().id != meta.game {
        return Err(SessionError::WrongGame {
            id,
            expected: meta.game.clone(),
            found: engine.manifest().id.clone(),
        });
    }
    Ok(())
}

fn undo_point(log: &[LogEntry], seats: &[SeatPlayer], steps: u32) -> usize {
    let is_human = |e: &LogEntry| {
        seats
            .get(e.seat as usize)
            .is_none_or(|s| s.kind == PlayerKind::Human)
    };
    let mut keep = log.len();
    for _ in 0..steps {
        if keep == 0 {
            break;
        }
        match log[..keep].iter().rposition(is_human) {
            Some(human) => keep = human,
            None => keep -= 1,
        }
    }
    keep
}
