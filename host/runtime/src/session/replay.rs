//! Rebuilding a game from its log.

use serde_json::Value;
use veillee_sdk::{Event, Handle, Seat, Status};

use super::SessionError;
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
    if let Some(detail) = problem {
        engine.drop_game(game);
        let last = entries.last();
        return Err(Diverged {
            session: meta.id,
            game: meta.game.clone(),
            version: engine.manifest().version.clone(),
            index: from + entries.len() as u32,
            action: last.map(|e| e.action.clone()).unwrap_or_default(),
            seat: last.map_or(0, |e| e.seat),
            detail,
        }
        .into());
    }
    Ok(game)
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
    Ok(game)
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
