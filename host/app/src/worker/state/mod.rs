//! The worker's state: the catalog, the saved sessions and the game being played, and how
//! each request changes them. One file per part: the games and their plugins, the game in
//! play, the bots, the saved files.

mod bots;
mod files;
mod games;
mod playing;
mod view;

use std::sync::mpsc::Sender;

use veillee_sdk::Text;

use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::session::Sessions;
use veillee_runtime::store::model::SessionMeta;
use veillee_runtime::variants::{Script, VariantEngine};

use super::protocol::{FileDone, GameView, Reply, Request};
use crate::prepare::Preparer;

use games::fallback_fonts;
use playing::Playing;

pub(super) struct State {
    data: DataDir,
    catalog: Option<Catalog>,
    sessions: Option<Sessions>,
    playing: Option<Playing>,
    /// The worker's own inbox, for the thinker's decisions, the lab's notes, the phones'
    /// moves (the room forwards them there) and the compiler thread's news.
    to_self: Sender<Request>,
    /// The plugins being compiled in the background.
    preparer: Option<Preparer>,
    /// The plugin being compiled now.
    compiling: Option<veillee_runtime::catalog::PluginSource>,
    /// Games started or resumed before their plugin was ready: handled when it is.
    parked: Vec<(String, Request)>,
}

/// What the worker's paths answer: a failure is told in the players' language, in English
/// alone when only a lower crate's words exist.
type Res<T> = std::result::Result<T, Text>;

/// A failure whose words exist in one language only.
fn said(error: impl std::fmt::Display) -> Text {
    Text::same(error.to_string())
}

impl State {
    pub(super) fn new(data: DataDir, to_self: Sender<Request>) -> State {
        State {
            data,
            catalog: None,
            sessions: None,
            playing: None,
            to_self,
            preparer: None,
            compiling: None,
            parked: Vec::new(),
        }
    }

    pub(super) fn handle(&mut self, request: Request) -> Vec<Reply> {
        if let Some(game) = self.waits_for_plugin(&request) {
            // Its plugin is still compiling: it goes first, and the request waits for it.
            self.prepare_first(&game);
            self.parked.push((game, request));
            return Vec::new();
        }
        // A change to the game makes a running search stale (undo, redo, a move, back): its
        // decision will be dropped.
        if matches!(
            request,
            Request::Act { .. } | Request::Undo { .. } | Request::Redo | Request::Close
        ) {
            if let Some(playing) = self.playing.as_mut() {
                playing.thinking = None;
            }
        }
        let mut replies = self.answer(request);
        replies.extend(self.play_held());
        replies
    }

    /// The replies to one request.
    fn answer(&mut self, request: Request) -> Vec<Reply> {
        match request {
            Request::Fonts => vec![Reply::Fonts(fallback_fonts())],
            Request::Open => self.open(),
            Request::Thumbnails => vec![Reply::Thumbnails(self.thumbnails(|_| true))],
            Request::Install(path) => {
                let result = self.install(&path);
                vec![Reply::Installed(result), Reply::Games(self.games())]
            }
            Request::Uninstall(id) => {
                let result = self.uninstall(&id);
                vec![Reply::Uninstalled(result), Reply::Games(self.games())]
            }
            Request::Start {
                game,
                seats,
                setup,
                variants,
                phones,
            } => vec![self.reply_game(|s| s.start(&game, seats, setup, &variants, phones))],
            Request::Resume(id) => vec![self.reply_game(|s| s.resume(id))],
            Request::Act { seat, action } => vec![self.reply_game(|s| s.act(seat, &action))],
            Request::Bot => vec![self.reply_game(State::bot)],
            Request::Thought(thought) => self.thought(thought),
            Request::Quit => vec![],
            Request::TestRule { game, rule, setup } => vec![self.test_rule(&game, rule, setup)],
            Request::Lab(note) => vec![Reply::RuleTest(note)],
            Request::Undo { consent } => vec![self.undo(consent)],
            Request::Redo => vec![self.reply_game(State::redo)],
            Request::Replay { id, viewer } => {
                vec![Reply::Replay(self.replay(id, viewer).map(Box::new))]
            }
            Request::Close => {
                self.playing = None;
                vec![]
            }
            Request::ListSaved => vec![Reply::Saved(self.saved()), self.set_aside()],
            Request::Restore(name) => {
                let result = self.sessions().and_then(|s| {
                    let restored = s.store().restore(&name).map_err(said)?;
                    Ok((restored.added.len(), restored.already, restored.lost.len()))
                });
                vec![
                    Reply::Restored(result),
                    Reply::Saved(self.saved()),
                    self.set_aside(),
                ]
            }
            Request::Delete(id) => {
                let result = self
                    .sessions()
                    .and_then(|s| s.delete(id).map_err(said))
                    .map(|()| FileDone::Deleted);
                vec![Reply::FileDone(result), Reply::Saved(self.saved())]
            }
            Request::Export(id, seat, path) => {
                vec![Reply::FileDone(self.export(id, seat, path))]
            }
            Request::Import(path) => {
                let result = self.import(&path, &[]);
                vec![Reply::FileDone(result), Reply::Saved(self.saved())]
            }
            Request::ImportAccepted(path, accepted) => {
                let result = self.import(&path, &accepted);
                vec![Reply::FileDone(result), Reply::Saved(self.saved())]
            }
            Request::SetSetting(name, value) => {
                if let Ok(sessions) = self.sessions() {
                    let _ = sessions.store().set_setting(name, &value);
                }
                vec![]
            }
            Request::Phone(mv) => self.phone(mv).into_iter().collect(),
            Request::HandOver(seat) => {
                if let Some(phones) = self.playing.as_ref().and_then(|p| p.phones.as_ref()) {
                    phones.hand_over(seat);
                }
                vec![self.reply_game(|s| s.view(Vec::new()))]
            }
            Request::Prepare(game) => {
                self.prepare_first(&game);
                vec![]
            }
            Request::Prepared(news) => self.prepared(news),
        }
    }

    fn catalog(&mut self) -> Res<&mut Catalog> {
        self.catalog
            .as_mut()
            .ok_or_else(|| Text::new("Les jeux ne sont pas chargés.", "The games are not loaded."))
    }

    fn sessions(&self) -> Res<&Sessions> {
        self.sessions.as_ref().ok_or_else(|| {
            Text::new(
                "Les parties sauvegardées ne sont pas ouvertes.",
                "The saved games are not open.",
            )
        })
    }

    /// An engine for a game, with house rules when there are some.
    fn engine(&mut self, game: &str, scripts: Vec<Script>) -> Res<Box<dyn GameEngine>> {
        let plugin = self.catalog()?.engine(game).map_err(|e| e.text())?;
        if scripts.is_empty() {
            return Ok(Box::new(plugin));
        }
        let engine = VariantEngine::new(Box::new(plugin), scripts).map_err(said)?;
        Ok(Box::new(engine))
    }

    /// The engine a saved session was played with: its game and the scripts it recorded,
    /// which pass the leak check before they first run.
    fn session_engine(&mut self, meta: &SessionMeta) -> Res<Box<dyn GameEngine>> {
        let catalog = self.catalog()?;
        veillee_runtime::launch::engine_for_session(catalog, meta, &mut |_| {})
            .map_err(|e| e.text())
    }

    fn reply_game(&mut self, f: impl FnOnce(&mut State) -> Res<GameView>) -> Reply {
        match f(self) {
            Ok(view) => Reply::Game(Box::new(view)),
            Err(message) => Reply::GameFailed(message),
        }
    }
}
