//! The saved games as files and lists: replays, the list of sessions and of set-aside
//! databases, export and import.

use std::path::PathBuf;

use veillee_sdk::{Seat, Text};

use veillee_runtime::store::model::SessionMeta;
use veillee_runtime::vetting::unfamiliar;

use crate::worker::protocol::{FileDone, ReplayData, Reply};

use super::{said, Res, State};

impl State {
    /// Session `id` played again on a game of its own, as `viewer` saw it.
    pub(super) fn replay(&mut self, id: u64, viewer: Option<Seat>) -> Res<ReplayData> {
        let sessions = self.sessions()?.clone();
        let meta = sessions.get(id).map_err(said)?;
        let mut engine = self.session_engine(&meta)?;
        let seen = sessions.seen_by(&mut *engine, id, viewer).map_err(said)?;
        Ok(ReplayData {
            meta,
            manifest: engine.manifest().clone(),
            seen,
        })
    }

    pub(super) fn set_aside(&self) -> Reply {
        let found = self.sessions().map(|s| s.store().set_aside());
        Reply::SetAside(found.unwrap_or_default())
    }

    pub(super) fn saved(&self) -> Vec<SessionMeta> {
        self.sessions()
            .and_then(|s| s.list().map_err(said))
            .unwrap_or_default()
    }

    /// Writes session `id` to `path`: the whole session, or as `seat` saw it (no seed, no
    /// move ids: a game in progress shared without spoilers).
    pub(super) fn export(&mut self, id: u64, seat: Option<Seat>, path: PathBuf) -> Res<FileDone> {
        let sessions = self.sessions()?.clone();
        let text = match seat {
            None => serde_json::to_string_pretty(&sessions.export(id).map_err(said)?),
            Some(seat) => {
                let meta = sessions.get(id).map_err(said)?;
                let mut engine = self.session_engine(&meta)?;
                let view = sessions.export_seat(&mut *engine, id, seat).map_err(said)?;
                serde_json::to_string_pretty(&view)
            }
        }
        .map_err(said)?;
        std::fs::write(&path, text).map_err(|e| {
            let path = path.display();
            Text::new(
                format!("Impossible d'écrire {path} : {e}"),
                format!("cannot write {path}: {e}"),
            )
        })?;
        Ok(FileDone::Exported(path))
    }

    /// Imports a session file, unless it brings scripts not installed here that are not
    /// among those `accepted` (their hashes): then the player is asked about them first.
    pub(super) fn import(&mut self, path: &std::path::Path, accepted: &[String]) -> Res<FileDone> {
        let file = veillee_runtime::session::read_file(path).map_err(said)?;
        let session = &file.session;
        let foreign = unfamiliar(&session.game, &session.variants, &self.data.variants());
        if foreign
            .iter()
            .any(|script| !accepted.contains(&script.hash))
        {
            return Ok(FileDone::ImportAsks(path.to_path_buf(), foreign));
        }
        let mut engine = self.session_engine(&file.session)?;
        let sessions = self.sessions()?.clone();
        let meta = sessions.import(&mut *engine, file).map_err(said)?;
        Ok(FileDone::Imported(meta.id))
    }
}
