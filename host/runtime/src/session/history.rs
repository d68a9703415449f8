//! A session played again from its log on a game of its own, move by move, without touching
//! the session: what each move was called and what it caused (the window's log after a
//! resume), and what one viewer saw after each move (replays, seat views).

use veillee_sdk::{Action, Event, Handle, Private, Scene, Seat, Status, Text};

use super::replay::apply_entry;
use super::{SessionError, Sessions};
use crate::engine::{EngineError, GameEngine};
use crate::store::model::{LogEntry, PlayerKind, SessionMeta};

/// One move as it was played, with every text of it (each viewer reads them through
/// [`Action::label_for`] and [`Event::text_for`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Who played it.
    pub seat: Seat,
    /// Its public label.
    pub label: Text,
    /// What the seats concerned read instead of `label`.
    pub private: Option<Private>,
    /// What it caused.
    pub events: Vec<Event>,
}

/// A game as one viewer saw it, move by move: only texts and scenes that viewer may read.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    /// Whose view (`None`: a spectator's).
    pub viewer: Option<Seat>,
    /// What the viewer saw before the first move.
    pub start: Scene,
    /// Every move, as the viewer read it, with what it saw after it.
    pub moves: Vec<super::SeenMove>,
    /// Where the game stands at the end of the log (public to all).
    pub status: Status,
}

/// Whether an event's text only says its move's label again, maybe after who played it
/// (Castel's "Black pawns: Draw" after the move "Draw"): every front end leaves such a line
/// out of its log (the window, the terminal, the phones, the replay).
pub fn repeats_label(event: &Text, label: &Text) -> bool {
    let same = |e: &str, l: &str| {
        e == l
            || (!l.is_empty() && e.ends_with(l) && e[..e.len() - l.len()].trim_end().ends_with(':'))
    };
    same(&event.fr, &label.fr) && same(&event.en, &label.en)
}

impl Sessions {
    /// Every move of session `id`, replayed with `engine` (the session's game) on a game of
    /// its own: the session is only read.
    pub fn history(
        &self,
        engine: &mut dyn GameEngine,
        id: u64,
    ) -> Result<Vec<Played>, SessionError> {
        let (meta, log) = self.read_for_replay(engine, id)?;
        let game = engine.create(&meta.setup)?;
        let mut played = Vec::with_capacity(log.len());
        let result = replay_each(engine, game, &log, |_, entry, action, events| {
            played.push(Played {
                seat: entry.seat,
                label: action.map_or_else(unnamed, |a| a.label.clone()),
                private: action.and_then(|a| a.private.clone()),
                events: events.to_vec(),
            });
            Ok(())
        });
        engine.drop_game(game);
        result?;
        Ok(played)
    }

    /// Session `id` as `viewer` saw it (`None`: a spectator), replayed with `engine` on a
    /// game of its own: each move's texts as that viewer reads them and the scene it saw
    /// after it. Nothing another seat alone may read is in it; the session is only read.
    pub fn seen_by(
        &self,
        engine: &mut dyn GameEngine,
        id: u64,
        viewer: Option<Seat>,
    ) -> Result<Seen, SessionError> {
        let (meta, log) = self.read_for_replay(engine, id)?;
        if let Some(seat) = viewer.filter(|&s| s >= meta.setup.players) {
            return Err(SessionError::BadFile(format!(
                "session {id} has {} seats (0–{}), not seat {seat}",
                meta.setup.players,
                meta.setup.players.saturating_sub(1)
            )));
        }
        let game = engine.create(&meta.setup)?;
        let seen = seen_moves(engine, game, viewer, &log)
            .and_then(|(start, moves)| Ok((start, moves, engine.status(game)?)));
        engine.drop_game(game);
        let (start, moves, status) = seen?;
        Ok(Seen {
            viewer,
            start,
            moves,
            status,
        })
    }

    /// The seat whose move one undo step would take back (the last human move), if any:
    /// the window asks before taking back someone else's move.
    pub fn undo_would_take(&self, meta: &SessionMeta) -> Result<Option<Seat>, SessionError> {
        // The tail is enough: a step never goes back past the last human move.
        let from = meta.moves.saturating_sub(256);
        let tail = self.store.log(meta.id, from)?;
        let human = |e: &&LogEntry| {
            meta.seats
                .get(e.seat as usize)
                .is_none_or(|s| s.kind == PlayerKind::Human)
        };
        Ok(tail.iter().rev().find(human).map(|e| e.seat))
    }

    fn read_for_replay(
        &self,
        engine: &dyn GameEngine,
        id: u64,
    ) -> Result<(SessionMeta, Vec<LogEntry>), SessionError> {
        let meta = self.get(id)?;
        super::same_game(engine, id, &meta)?;
        let log = self.store.log(id, 0)?;
        Ok((meta, log))
    }
}

/// The name of a move the listing no longer has (a turn's end played by the host): nothing
/// secret.
fn unnamed() -> Text {
    Text::same("…")
}

/// Plays `log` on `game`, calling `each` after every move with the engine, the entry, the
/// action as it was listed (if it was) and the events.
fn replay_each(
    engine: &mut dyn GameEngine,
    game: Handle,
    log: &[LogEntry],
    mut each: impl FnMut(
        &mut dyn GameEngine,
        &LogEntry,
        Option<&Action>,
        &[Event],
    ) -> Result<(), EngineError>,
) -> Result<(), EngineError> {
    for entry in log {
        let actions = engine.legal_actions(game, entry.seat)?;
        let action = actions.iter().find(|a| a.id == entry.action);
        let events = apply_entry(engine, game, entry.seat, &entry.action, &entry.extra)?;
        each(engine, entry, action, &events)?;
    }
    Ok(())
}

/// Plays `log` on `game`, recording what `viewer` saw: the start scene and every move.
fn seen_moves(
    engine: &mut dyn GameEngine,
    game: Handle,
    viewer: Option<Seat>,
    log: &[LogEntry],
) -> Result<(Scene, Vec<super::SeenMove>), EngineError> {
    let start = engine.view(game, viewer)?;
    let mut moves = Vec::with_capacity(log.len());
    replay_each(engine, game, log, |engine, entry, action, events| {
        moves.push(super::SeenMove {
            seat: entry.seat,
            text: action.map_or_else(unnamed, |a| a.label_for(entry.seat, viewer).clone()),
            events: events
                .iter()
                .map(|e| e.text_for(Some(entry.seat), viewer).clone())
                .collect(),
            scene: engine.view(game, viewer)?,
        });
        Ok(())
    })?;
    Ok((start, moves))
}
