//! The game as the window is shown it: seen by the human to act, else the last human who
//! acted, else a spectator, and never by anyone else.

use veillee_sdk::{Seat, Text};

use veillee_runtime::store::model::PlayerKind;
use veillee_runtime::table::{next_turn, Holder, Turn};

use crate::worker::log::LogLine;
use crate::worker::protocol::GameView;

use super::{said, Res, State};

impl State {
    /// The game as it stands, seen by the human to act (else the last human who acted, else
    /// a spectator): never anyone else's view.
    pub(super) fn view(&mut self, log: Vec<LogLine>) -> Res<GameView> {
        let playing = self.playing()?;
        let table = &mut playing.table;
        let status = table.status().map_err(|e| e.text())?;
        let (actor, bot) = match next_turn(status.seats(), |s| table.holder(s)) {
            Ok(Turn::Screen(seat)) => (Some(seat), None),
            Ok(Turn::Bot(seat, _)) => (None, Some(seat)),
            _ => (None, None),
        };
        let before = playing.last_human;
        if actor.is_some() {
            playing.last_human = actor;
        }
        let meta = table.meta().clone();
        let human_here = |s: Seat| table.holder(s) == Holder::Screen;
        let seats = meta.seats.len() as Seat;
        let nobody_here = !(0..seats).any(human_here);
        let viewer = match (actor, playing.last_human) {
            (Some(seat), _) => Some(seat),
            (None, Some(seat)) => Some(seat),
            // Only bots and phones: the screen shows what everyone may see.
            (None, None) if nobody_here => None,
            // Nobody has acted yet and a bot moves first: show the first human's view.
            (None, None) => (0..seats).find(|&s| human_here(s)),
        };
        let viewer = if status.outcome().is_some() {
            None
        } else {
            viewer
        };
        let hidden = table.manifest().hidden_information;
        let manifest = table.manifest().clone();
        let actions = match actor {
            Some(seat) => table.legal_actions(seat).map_err(|e| e.text())?,
            None => Vec::new(),
        };
        let can_redo = table.can_redo();
        let undo_seat = table.undo_would_take().ok().flatten();
        let (engine, live) = table.parts_mut();
        let game = live.game;
        let scene = engine.view(game, viewer).map_err(said)?;
        // Only a game with hidden information can show a seat something of its own; then
        // the viewer's scene and options are compared with what the whole table may see.
        let private = match viewer {
            Some(_) if hidden => {
                actions.iter().any(|a| a.private.is_some())
                    || engine.view(game, None).map_err(said)? != scene
            }
            _ => false,
        };
        // The screen goes to another human: first, the one who had it sees where the game
        // now stands (the last human who acted, never anyone else).
        let result = match (before, viewer) {
            (Some(had), Some(next)) if had != next && private => {
                Some((had, Box::new(engine.view(game, Some(had)).map_err(said)?)))
            }
            _ => None,
        };
        let room = match &mut playing.phones {
            Some(phones) => {
                let (engine, live) = playing.table.parts_mut();
                phones.publish(engine, live).map_err(Text::same)?;
                Some(phones.view())
            }
            None => None,
        };
        let has_human = meta.seats.iter().any(|p| p.kind == PlayerKind::Human);
        Ok(GameView {
            can_undo: meta.moves > 0 && has_human,
            meta,
            manifest,
            status,
            viewer,
            scene,
            actor,
            actions,
            bot,
            thinking: playing.thinking.as_ref().map(|t| t.seat),
            log,
            fresh: false,
            can_redo,
            house_rules: playing.house_rules.clone(),
            private,
            result,
            undo_seat,
            room,
        })
    }
}
