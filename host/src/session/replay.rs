//! Rebuilding a game from its log.

use veillee_sdk::{Handle, Status};

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
        if let Err(error) = engine.apply(game, entry.seat, &entry.action) {
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
