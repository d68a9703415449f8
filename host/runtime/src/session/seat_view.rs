//! A game as one seat saw it: the file that shares a game in progress without spoilers.
//!
//! A session file is the truth for replay — the seed and every action id — so it holds every
//! player's secrets. A seat view holds only what one seat saw: each move as that seat read it
//! (the public text of the others' moves, its own private ones), and the scene it saw after
//! each move. No seed, no action id, no script answer: nothing in it can be replayed into the
//! hands it never saw.

use serde::{Deserialize, Serialize};
use veillee_sdk::{Scene, Seat, Status, Text};

use super::{SessionError, Sessions};
use crate::engine::GameEngine;
use crate::store::limits;
use crate::store::model::SessionMeta;

/// The seat view file's format name.
pub const SEAT_VIEW_FORMAT: &str = "veillee-seat-view";
/// The seat view file's format version.
pub const SEAT_VIEW_VERSION: u32 = 1;

/// A game as one seat saw it, move by move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    /// Always [`SEAT_VIEW_FORMAT`].
    pub format: String,
    /// [`SEAT_VIEW_VERSION`].
    pub format_version: u32,
    /// The game's id.
    pub game: String,
    /// The seat whose view this is.
    pub seat: Seat,
    /// The players' names, by seat.
    pub players: Vec<String>,
    /// What the seat saw before the first move.
    pub start: Scene,
    /// Every move, as the seat read it and with what it saw after it.
    pub moves: Vec<SeenMove>,
    /// Where the game stands (who is to act, or the outcome: public to all).
    pub status: Status,
}

/// One move as a seat read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeenMove {
    /// Who played it.
    pub seat: Seat,
    /// Its label, as the seat reads it.
    pub text: Text,
    /// Its events, as the seat reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Text>,
    /// What the seat saw after it.
    pub scene: Scene,
}

impl Sessions {
    /// Session `id` as `seat` saw it, replayed with `engine` (the session's game): for
    /// sharing a game in progress without giving away anyone's secrets.
    pub fn export_seat(
        &self,
        engine: &mut dyn GameEngine,
        id: u64,
        seat: Seat,
    ) -> Result<SeatView, SessionError> {
        let meta = self.get(id)?;
        let seen = self.seen_by(engine, id, Some(seat))?;
        Ok(SeatView {
            format: SEAT_VIEW_FORMAT.into(),
            format_version: SEAT_VIEW_VERSION,
            game: meta.game.clone(),
            seat,
            players: player_names(&meta),
            start: seen.start,
            moves: seen.moves,
            status: seen.status,
        })
    }
}

fn player_names(meta: &SessionMeta) -> Vec<String> {
    meta.seats.iter().map(|s| s.name.clone()).collect()
}

/// Reads a seat view file (written by [`Sessions::export_seat`]), bounded like a session
/// file.
pub fn read_seat_view(path: &std::path::Path) -> Result<SeatView, SessionError> {
    let bytes = veillee_files::read_bounded(path, limits::FILE_BYTES)
        .map_err(|e| SessionError::BadFile(e.to_string()))?;
    let view: SeatView = serde_json::from_slice(&bytes).map_err(|e| {
        SessionError::BadFile(format!(
            "{} is not a seat view (`veillee export ID FILE --seat N` writes one): {e}",
            path.display()
        ))
    })?;
    if view.format != SEAT_VIEW_FORMAT {
        return Err(SessionError::BadFile(format!(
            "{} is not a seat view (format `{}`)",
            path.display(),
            view.format
        )));
    }
    if view.format_version > SEAT_VIEW_VERSION {
        return Err(SessionError::BadFile(format!(
            "{} was written by a newer Veillée (seat view format {})",
            path.display(),
            view.format_version
        )));
    }
    Ok(view)
}
