//! Rebuilding a game from its log.

use serde_json::Value;
use veillee_sdk::{Event, Handle, Seat, Status};

use super::SessionError;
use crate::conformance::state_hash;
use crate::engine::{EngineError, GameEngine};
use crate::store::model::{LogEntry, SessionMeta};

/// The log no longer replays: which move failed, and how.
#[derive(Debug, thiserror::Error)]
#[error("session {session} no longer replays with the installed {game} {version}: it diverges at move {index} (`{action}` by seat {seat}): {detail}")]
pub struct Diverged {
    /// The session.
    pub session: u64,
    /// The game id.
    pub game: String,
    /// The installed game version.
    pub version: String,
    /// The move (1-based) where it diverged.
    pub index: u32,
    /// That move's action id.
    pub action: String,
    /// That move's seat.
    pub seat: u8,
    /// What went wrong.
    pub detail: String,
}

/// Replays `entries` (the log from move `from` on) onto the saved `state` (or a new game when
/// `None`), and checks that the game then stands where the session says.
pub(super) fn replay(
    engine: &mut dyn GameEngine,
    meta: &SessionMeta,
    state: Option<Vec<u8>>,
    from: u32,
    entries: &[LogEntry],
) -> Result<Handle, SessionError> {
    let game = replay_unchecked(engine, meta, state, from, entries)?;
    check_status(engine, game, meta, from, entries)?;
    Ok(game)
}

/// Replays the whole `log` with an engine the session was not played with, and accepts it
/// only if it is the same game: at the latest `snapshot` (saved by the engine the session
/// was played with) the state must be the very same bytes — the same rules, not merely
/// moves that happen to stay legal — and at the end the status must be the session's.
pub(super) fn replay_changed(
    engine: &mut dyn GameEngine,
    meta: &SessionMeta,
    log: &[LogEntry],
    snapshot: Option<(u32, Vec<u8>)>,
) -> Result<Handle, SessionError> {
    let Some((at, saved)) = snapshot else {
        return replay(engine, meta, None, 0, log);
    };
    let at = (at as usize).min(log.len());
    let (before, after) = log.split_at(at);
    let game = replay_unchecked(engine, meta, None, 0, before)?;
    let state = engine.save(game);
    let same = match &state {
        Ok(state) => *state == saved,
        Err(_) => false,
    };
    if !same {
        engine.drop_game(game);
        let state = state?;
        let last = before.last();
        return Err(Diverged {
            session: meta.id,
            game: meta.game.clone(),
            version: engine.manifest().version.clone(),
            index: at as u32,
            action: last.map(|e| e.action.clone()).unwrap_or_default(),
            seat: last.map_or(0, |e| e.seat),
            detail: format!(
                "the game's state there ({}) is not the one saved when it was played ({}): other rules under the same id; reinstall the version it was played with, or start a new game",
                state_hash(&state),
                state_hash(&saved)
            ),
        }
        .into());
    }
    apply_all(engine, game, meta, at as u32, after)?;
    check_status(engine, game, meta, at as u32, after)?;
    Ok(game)
}

/// Checks that `game`, after `entries` from move `from`, stands where the session says;
/// drops it if not.
fn check_status(
    engine: &mut dyn GameEngine,
    game: Handle,
    meta: &SessionMeta,
    from: u32,
    entries: &[LogEntry],
) -> Result<(), SessionError> {
    let status = engine.status(game);
    let problem = match &status {
        Ok(status) if status == &meta.status => None,
        Ok(status) => Some(format!(
            "the game now stands at {} instead of {}",
            describe(status),
            describe(&meta.status)
        )),
        Err(e) => Some(e.to_string()),
    };
    let Some(detail) = problem else {
        return Ok(());
    };
    engine.drop_game(game);
    let last = entries.last();
    Err(Diverged {
        session: meta.id,
        game: meta.game.clone(),
        version: engine.manifest().version.clone(),
        index: from + entries.len() as u32,
        action: last.map(|e| e.action.clone()).unwrap_or_default(),
        seat: last.map_or(0, |e| e.seat),
        detail,
    }
    .into())
}

/// Like [`replay`], without comparing the final status (undo: the status changes).
pub(super) fn replay_unchecked(
    engine: &mut dyn GameEngine,
    meta: &SessionMeta,
    state: Option<Vec<u8>>,
    from: u32,
    entries: &[LogEntry],
) -> Result<Handle, SessionError> {
    let game = match state {
        Some(state) => engine.load(&state)?,
        None => engine.create(&meta.setup)?,
    };
    apply_all(engine, game, meta, from, entries)?;
    Ok(game)
}

/// Applies `entries` (the log from move `from` on) to `game`; drops it on failure.
fn apply_all(
    engine: &mut dyn GameEngine,
    game: Handle,
    meta: &SessionMeta,
    from: u32,
    entries: &[LogEntry],
) -> Result<(), SessionError> {
    for (i, entry) in entries.iter().enumerate() {
        if let Err(error) = apply_entry(engine, game, entry.seat, &entry.action, &entry.extra) {
            engine.drop_game(game);
            return Err(match error {
                EngineError::Game(refused) => Diverged {
                    session: meta.id,
                    game: meta.game.clone(),
                    version: engine.manifest().version.clone(),
                    index: from + i as u32 + 1,
                    action: entry.action.clone(),
                    seat: entry.seat,
                    detail: refused.to_string(),
                }
                .into(),
                plugin => plugin.into(),
            });
        }
    }
    Ok(())
}

fn describe(status: &Status) -> String {
    match status {
        Status::ToAct { seats } => format!("seat(s) {seats:?} to act"),
        Status::Finished { outcome } if outcome.is_draw() => {
            format!("a draw ({})", outcome.reason.en)
        }
        Status::Finished { outcome } => format!(
            "a win for seat(s) {:?} ({})",
            outcome.winners, outcome.reason.en
        ),
    }
}

/// The key of a log entry's `extra` that holds the host's turn timer, in milliseconds.
pub const TURN_TIME_KEY: &str = "turn_ms";

/// Plays one move as the log records it: the action, then — when the entry carries the
/// host's turn time and the seat's turn is over — the end of that turn (house rules'
/// `on_turn_end`). Live play and every replay go through here, so they cannot differ.
pub(super) fn apply_entry(
    engine: &mut dyn GameEngine,
    game: Handle,
    seat: Seat,
    action: &str,
    extra: &Value,
) -> Result<Vec<Event>, EngineError> {
    let mut events = engine.apply(game, seat, action)?;
    if let Some(elapsed_ms) = extra.get(TURN_TIME_KEY).and_then(Value::as_u64) {
        if !engine.status(game)?.seats().contains(&seat) {
            match engine.end_turn(game, seat, elapsed_ms) {
                Ok(more) => events.extend(more),
                // The turn is not over for the house rules (a choice is pending): nothing
                // happens, now and in every replay alike.
                Err(EngineError::Game(_)) => {}
                Err(plugin) => return Err(plugin),
            }
        }
    }
    Ok(events)
}
