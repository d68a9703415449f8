//! The worker thread: everything that may take time — loading and compiling plugins, the
//! database, playing moves, bots, files — runs here, never on the UI thread.
//!
//! The window sends [`Request`]s and reads [`Reply`]s each frame without waiting; the worker
//! asks for a repaint whenever it answers. It owns the catalog, the sessions and the game
//! being played; the window only ever sees copies ([`GameView`]).

use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};

use veillee_sdk::{Action, Manifest, Scene, Seat, Setup, Status, Text};

use veillee_runtime::bot;
use veillee_runtime::catalog::{Catalog, GameEntry, Origin, Readiness};
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::plugin::Runtime;
use veillee_runtime::session::{repeats_label, Sessions};
use veillee_runtime::store::model::{BotLevel, PlayerKind, SeatPlayer, SessionMeta, VariantScript};
use veillee_runtime::store::{SetAside, Store, StoreError};
use veillee_runtime::table::{next_turn, Holder, Played, Table, TableError, Turn, Undo};
pub use veillee_runtime::table::{seat_name, Consent};
use veillee_runtime::variants::library::{self, ScriptSource};
use veillee_runtime::variants::{Script, ScriptInfo, VariantEngine, VariantLimits};

use super::lab::{self, LabNote, LabState};
use super::thinker::{Job, Thinker, Thought};
use crate::prepare::{News, Preparer};
use crate::room::{PhoneSeats, RoomView};

/// Set to anything: never open a native file dialog (tests, systems without a desktop
/// portal); the screens' typed-path fields do the job.
pub const NO_DIALOG_ENV: &str = "VEILLEE_NO_FILE_DIALOG";

/// The setting that remembers the names typed at each seat.
pub const SEAT_NAMES: &str = "ui.seat_names";
/// The setting that remembers the language.
pub const LANGUAGE: &str = "ui.language";
/// The setting that remembers the interface scale.
pub const SCALE: &str = "ui.scale";
/// The setting that remembers the assisted-mode defaults.
pub const ASSIST: &str = "ui.assist";

/// Assisted mode: how much the play screen helps. Remembered with the other settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Assist {
    /// Light up the pieces that can move and, once one is picked, where it can go.
    pub show_targets: bool,
    /// Outline the last move (the game's "last move" highlights).
    pub show_last_move: bool,
    /// Ask "Play this move?" before a move is sent.
    pub confirm_moves: bool,
    /// How moves are shown: pieces slide, leave and arrive one stage after the other.
    pub animation: Animation,
    /// A short chime when a human's turn comes after a hand-off or a bot's move (off by
    /// default: not every table wants sound).
    pub sound: bool,
}

impl Default for Assist {
    fn default() -> Self {
        Assist {
            show_targets: true,
            show_last_move: true,
            confirm_moves: false,
            animation: Animation::Normal,
            sound: false,
        }
    }
}

/// How fast moves are shown, or not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Animation {
    /// Pieces jump to their new place at once.
    Off,
    /// Slowly, for a table that follows from the sofa.
    Slow,
    /// The default.
    Normal,
    /// Quickly.
    Fast,
}

impl Assist {
    /// The scene drawer's pace for these settings.
    pub fn pace(&self) -> crate::scene::motion::Pace {
        let seconds = match self.animation {
            Animation::Off => 0.0,
            Animation::Slow => 0.8,
            Animation::Normal => 0.45,
            Animation::Fast => 0.22,
        };
        crate::scene::motion::Pace {
            on: self.animation != Animation::Off,
            seconds,
        }
    }
}

/// One game of the library, as the window shows it.
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// Its manifest.
    pub manifest: Manifest,
    /// Built-in (else installed).
    pub builtin: bool,
    /// The house rules available for it.
    pub variants: Vec<VariantInfo>,
    /// Whether its plugin is compiled yet.
    pub preparation: Preparation,
}

/// Where a game's plugin stands: the library lists every game at once, and compiles their
/// plugins in the background, one after the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preparation {
    /// Compiled: a game starts at once.
    Ready,
    /// Waiting for its turn to be compiled (a game started now moves to the front).
    Waiting,
    /// Being compiled now.
    Compiling,
    /// It could not be compiled, for this reason.
    Failed(String),
}

/// One house rule available for a game.
#[derive(Clone, Debug)]
pub struct VariantInfo {
    /// The script.
    pub source: ScriptSource,
    /// Its metadata, or why it does not load.
    pub info: Result<ScriptInfo, String>,
}

/// What the window asks for.
#[derive(Debug)]
pub enum Request {
    /// Read fallback fonts for symbols the built-in font lacks (♛, ◦, ✦…).
    Fonts,
    /// Load the games and open the database.
    Open,
    /// Each game's starting scene, for the library's pictures.
    Thumbnails,
    /// Validate and install a plugin file.
    Install(PathBuf),
    /// Remove an installed game.
    Uninstall(String),
    /// Start a new session.
    Start {
        /// Game id.
        game: String,
        /// Who sits where.
        seats: Vec<SeatPlayer>,
        /// Players, options, seed.
        setup: Setup,
        /// House rules to play with.
        variants: Vec<ScriptSource>,
        /// The seats players hold on their phones (the room opens for them).
        phones: Vec<Seat>,
    },
    /// Go on with a saved session.
    Resume(u64),
    /// A human's move.
    Act {
        /// Who.
        seat: Seat,
        /// The action id.
        action: String,
    },
    /// The bot to act starts thinking (on the thinker thread; its move follows by itself).
    Bot,
    /// A bot's decision, from the thinker (not sent by the window).
    Thought(Thought),
    /// The window is closing: stop (a bot still thinking is left to finish alone; the game
    /// stays saved, the room closes).
    Quit,
    /// "Test this rule": bots play the game with and without a house rule (on a thread of
    /// their own; news comes as [`Reply::RuleTest`]).
    TestRule {
        /// Game id.
        game: String,
        /// The house rule.
        rule: ScriptSource,
        /// Players, options and seed of the games.
        setup: Setup,
    },
    /// News of a rule's test, from its thread (not sent by the window).
    Lab(LabNote),
    /// Take back one decision, with the consent given so far (the worker answers
    /// [`Reply::UndoAsksOwner`] or [`Reply::RevealInTheWay`] when more is needed).
    Undo {
        /// How far the table agreed.
        consent: Consent,
    },
    /// Re-apply what the last undo took back.
    Redo,
    /// Play a saved session again, move by move, as one seat saw it (`None`: a spectator).
    Replay {
        /// The session.
        id: u64,
        /// Whose view.
        viewer: Option<Seat>,
    },
    /// Leave the game (it stays saved).
    Close,
    /// List saved sessions.
    ListSaved,
    /// Delete a session.
    Delete(u64),
    /// Write a session to a file: all of it, or only what one seat saw.
    Export(u64, Option<Seat>, PathBuf),
    /// Read a session file.
    Import(PathBuf),
    /// Bring back the games of a set-aside database (its folder's name).
    Restore(String),
    /// Remember a setting.
    SetSetting(&'static str, serde_json::Value),
    /// A phone's move, from the room (not sent by the window).
    Phone(veillee_room::PhoneMove),
    /// Give a phone seat a new link, for another phone.
    HandOver(Seat),
    /// A player opened this game: compile its plugin next.
    Prepare(String),
    /// News of the plugins compiling in the background (not sent by the window).
    Prepared(News),
}

/// One line of the game log.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// Who did it (empty for the launcher's own notes).
    pub who: String,
    /// The seat whose move it is (or whose move caused it), if any.
    pub actor: Option<Seat>,
    /// What the seats concerned read instead of `text` (a secret move, a card drawn).
    pub private: Option<veillee_sdk::Private>,
    /// What happened.
    pub text: Text,
}

impl LogLine {
    /// What `viewer` reads of this line (the window shows the log of the seat it shows).
    pub fn text_for(&self, viewer: Option<Seat>) -> &Text {
        match &self.private {
            Some(p) if p.is_for(self.actor, viewer) => &p.text,
            _ => &self.text,
        }
    }

    /// Whether `viewer` reads something of this line the rest of the table does not.
    pub fn private_to(&self, viewer: Option<Seat>) -> bool {
        self.private
            .as_ref()
            .is_some_and(|p| p.is_for(self.actor, viewer))
    }

    /// A note of the launcher's own (a new game, an undo), read by everyone.
    pub fn note(text: Text) -> LogLine {
        LogLine {
            who: String::new(),
            actor: None,
            private: None,
            text,
        }
    }
}

/// The log lines of one move: the move as its player named it, then what it caused —
/// leaving out an event that only repeats the move's label (Castel's "Black pawns: Draw"
/// after "Ana: Draw").
pub fn move_lines(
    who: String,
    seat: Seat,
    label: Text,
    private: Option<veillee_sdk::Private>,
    events: Vec<veillee_sdk::Event>,
) -> Vec<LogLine> {
    let mut lines = Vec::with_capacity(events.len() + 1);
    for event in events {
        if repeats_label(&event.text, &label) {
            continue;
        }
        lines.push(LogLine {
            who: String::new(),
            actor: Some(seat),
            private: event.private,
            text: event.text,
        });
    }
    lines.insert(
        0,
        LogLine {
            who,
            actor: Some(seat),
            private,
            text: label,
        },
    );
    lines
}

/// The game being played, as the window draws it.
#[derive(Clone, Debug)]
pub struct GameView {
    /// The session.
    pub meta: SessionMeta,
    /// The game's manifest.
    pub manifest: Manifest,
    /// Where it stands.
    pub status: Status,
    /// Whose view `scene` is (`None`: a spectator's).
    pub viewer: Option<Seat>,
    /// What `viewer` sees.
    pub scene: Scene,
    /// The human seat to act now, if any.
    pub actor: Option<Seat>,
    /// `actor`'s legal actions.
    pub actions: Vec<Action>,
    /// The bot seat to act now, if any.
    pub bot: Option<Seat>,
    /// The bot seat whose search is running now (its move comes by itself).
    pub thinking: Option<Seat>,
    /// Lines to add to the log.
    pub log: Vec<LogLine>,
    /// Whether the log starts over (new game, resume).
    pub fresh: bool,
    /// Whether a redo is possible.
    pub can_redo: bool,
    /// Whether something can be undone.
    pub can_undo: bool,
    /// The names of the house rules in play (a game's own scripts, like Castel's cards, are
    /// part of the game, not house rules).
    pub house_rules: Vec<Text>,
    /// Whether `viewer`'s view shows something the rest of the table may not see (its own
    /// hand, its secret options): then the screen is handed over before it is shown.
    pub private: bool,
    /// When the screen must be handed over to `viewer`: what the human who had the screen
    /// before (the seat) sees now, so that they see the result of the last move (their own
    /// or a bot's) before the board is hidden.
    pub result: Option<(Seat, Box<Scene>)>,
    /// The seat whose move one undo would take back (the window asks before taking back
    /// another player's move).
    pub undo_seat: Option<Seat>,
    /// The room, when players hold seats on their phones.
    pub room: Option<RoomView>,
}

/// A saved game played again as one viewer saw it: the replay screen steps through it.
#[derive(Clone, Debug)]
pub struct ReplayData {
    /// The session (names, seats, id).
    pub meta: SessionMeta,
    /// The game's manifest.
    pub manifest: Manifest,
    /// Every move as the viewer read it, with the scene it saw after it.
    pub seen: veillee_runtime::session::Seen,
}

/// What the worker answers.
#[derive(Debug)]
pub enum Reply {
    /// The games are loaded and the database is open.
    Opened {
        /// The library.
        games: Vec<GameInfo>,
        /// Plugins that failed to load, in words.
        problems: Vec<String>,
        /// The database was repaired (shown once), in words.
        recovery: Option<Text>,
        /// Remembered names per seat.
        seat_names: Vec<String>,
        /// Remembered language.
        language: Option<String>,
        /// Remembered interface scale.
        scale: Option<f32>,
        /// Remembered assisted-mode defaults.
        assist: Option<Assist>,
    },
    /// The database could not be opened.
    OpenFailed {
        /// Another Veillée holds it.
        already_running: bool,
        /// The message.
        message: String,
    },
    /// Font files to add as fallbacks: (name, bytes).
    Fonts(Vec<(String, Vec<u8>)>),
    /// The library changed.
    Games(Vec<GameInfo>),
    /// Where each game's plugin stands, by game id (sent as they compile).
    Prepared(Vec<(String, Preparation)>),
    /// Plugins that failed to load, in words (all of them, as of now).
    Problems(Vec<String>),
    /// Games' starting scenes, by game id (the library draws them; a game's comes once its
    /// plugin is compiled).
    Thumbnails(Vec<(String, Scene)>),
    /// An install ended (game name or the error chain).
    Installed(Result<Text, String>),
    /// An uninstall ended.
    Uninstalled(Result<Text, String>),
    /// The game as it stands now.
    Game(Box<GameView>),
    /// A replay, or why it could not be made.
    Replay(Result<Box<ReplayData>, String>),
    /// Undo would take back another player's move: that player is asked first.
    UndoAsksOwner(Seat),
    /// Undo would take back a reveal: these things were revealed.
    RevealInTheWay(Vec<Text>),
    /// A game call failed; the session stays as saved.
    GameFailed(Text),
    /// The saved sessions.
    Saved(Vec<SessionMeta>),
    /// The damaged databases set aside, whose games can be brought back.
    SetAside(Vec<SetAside>),
    /// A restore ended: (games brought back, already here, still unreadable), or the error.
    Restored(Result<(usize, usize, usize), String>),
    /// An export, import or delete ended.
    FileDone(Result<FileDone, String>),
    /// A file was chosen in a dialog (or none).
    Picked(Pick, Option<PathBuf>),
    /// News of a house rule's test: how far it is, or the balance with and without it.
    RuleTest(LabNote),
    /// The worker finished a request (counted by [`Worker::busy`], never shown).
    Finished,
}

/// A file operation that worked.
#[derive(Debug)]
pub enum FileDone {
    /// Exported to this file.
    Exported(PathBuf),
    /// Imported as this session id.
    Imported(u64),
    /// Deleted.
    Deleted,
}

/// What a file dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A plugin to install.
    Plugin,
    /// A session file to import.
    ImportSession,
    /// Where to export a session (all of it, or only what one seat saw).
    ExportSession(u64, Option<Seat>),
}

/// The window's end of the worker.
pub struct Worker {
    requests: Option<Sender<Request>>,
    replies: Receiver<Reply>,
    reply_sender: Sender<Reply>,
    ctx: Repaint,
    pending: usize,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Worker {
    /// Closing the window lets the worker finish what it is doing (a move being saved) and
    /// close the database, so that the data directory is free when the window is gone.
    fn drop(&mut self) {
        if let Some(requests) = self.requests.take() {
            let _ = requests.send(Request::Quit);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The window's context, once it exists, to wake the window when a reply is ready.
#[derive(Clone, Default)]
struct Repaint(std::sync::Arc<std::sync::Mutex<Option<egui::Context>>>);

impl Repaint {
    fn request(&self) {
        if let Some(ctx) = self.0.lock().ok().and_then(|c| c.clone()) {
            ctx.request_repaint();
        }
    }
}

impl Worker {
    /// Starts the worker thread for a data directory.
    pub fn spawn(data: DataDir) -> Worker {
        let (requests, inbox) = channel::<Request>();
        let (reply_sender, replies) = channel::<Reply>();
        let out = reply_sender.clone();
        let ctx = Repaint::default();
        let repaint = ctx.clone();
        // The worker's own inbox: the thinker's decisions, the lab's notes, phones' moves and
        // the compiler's news.
        let to_self = requests.clone();
        let thread = std::thread::Builder::new()
            .name("veillee-worker".into())
            .spawn(move || {
                let mut state = State::new(data, to_self);
                while let Ok(request) = inbox.recv() {
                    // The thinker's decisions, the lab's notes, phones' moves and the compiler's
                    // news are not the window's requests: no `Finished`.
                    let finished = match request {
                        Request::Quit => return,
                        Request::Thought(_)
                        | Request::Lab(_)
                        | Request::Phone(_)
                        | Request::Prepared(_) => None,
                        _ => Some(Reply::Finished),
                    };
                    let replies = state.handle(request);
                    for reply in replies.into_iter().chain(finished) {
                        if out.send(reply).is_err() {
                            return;
                        }
                    }
                    repaint.request();
                }
            })
            .expect("cannot start the worker thread");
        Worker {
            requests: Some(requests),
            replies,
            reply_sender,
            ctx,
            pending: 0,
            thread: Some(thread),
        }
    }

    /// The window's context, to wake it when replies arrive.
    pub fn attach(&self, ctx: &egui::Context) {
        if let Ok(mut slot) = self.ctx.0.lock() {
            *slot = Some(ctx.clone());
        }
    }

    /// Sends a request (never waits).
    pub fn send(&mut self, request: Request) {
        self.pending += 1;
        if let Some(requests) = &self.requests {
            let _ = requests.send(request);
        }
    }

    /// The replies that arrived since the last call (never waits).
    pub fn poll(&mut self) -> Vec<Reply> {
        let mut out = Vec::new();
        loop {
            match self.replies.try_recv() {
                Ok(Reply::Finished) => self.pending = self.pending.saturating_sub(1),
                Ok(reply) => out.push(reply),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return out,
            }
        }
    }

    /// Whether a request is still being worked on.
    pub fn busy(&self) -> bool {
        self.pending > 0
    }

    /// Opens a native file dialog on its own thread; the choice arrives as [`Reply::Picked`].
    /// With [`NO_DIALOG_ENV`] set, or when the system has no dialog to offer, the answer is
    /// "no file", and the screens offer a typed path instead.
    pub fn pick_file(&self, pick: Pick, title: String) {
        let out = self.reply_sender.clone();
        let ctx = self.ctx.clone();
        if std::env::var_os(NO_DIALOG_ENV).is_some_and(|v| !v.is_empty()) {
            let _ = out.send(Reply::Picked(pick, None));
            ctx.request();
            return;
        }
        std::thread::spawn(move || {
            let dialog = rfd::FileDialog::new().set_title(title);
            let path = match pick {
                Pick::Plugin => dialog.add_filter("Veillée plugin", &["wasm"]).pick_file(),
                Pick::ImportSession => dialog.add_filter("JSON", &["json"]).pick_file(),
                Pick::ExportSession(id, _) => dialog
                    .set_file_name(format!("veillee-{id}.json"))
                    .save_file(),
            };
            let _ = out.send(Reply::Picked(pick, path));
            ctx.request();
        });
    }
}

/// The game being played, inside the worker.
struct Playing {
    table: Table,
    last_human: Option<Seat>,
    /// The names of the house rules in play (not the game's own scripts).
    house_rules: Vec<Text>,
    /// The bots' search thread for this game, started by the first bot move.
    thinker: Option<Thinker>,
    /// The decision being thought about, if any; a decision for another is stale.
    thinking: Option<Thinking>,
    /// Decisions asked so far (their generations).
    asked: u64,
    /// The seats held by phones, and their room.
    phones: Option<PhoneSeats>,
}

impl Playing {
    /// A move the table played: noted in the phones' log, and the log lines it adds to the
    /// window's (each viewer reads its own version).
    fn logged(&mut self, played: Played) -> Vec<LogLine> {
        let who = self.table.seat_name(played.seat);
        if let Some(phones) = &mut self.phones {
            let (seat, action) = (played.seat, &played.action);
            phones
                .log
                .note(played.index, &who, seat, action, &played.events);
        }
        let Played {
            seat,
            action,
            events,
            ..
        } = played;
        move_lines(who, seat, action.label, action.private, events)
    }
}

/// A bot's decision under way.
struct Thinking {
    generation: u64,
    seat: Seat,
    level: BotLevel,
    /// Moves of that seat the house rules refused, with why.
    refused: Vec<(String, Text)>,
}

struct State {
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

type Res<T> = std::result::Result<T, String>;

/// What the game paths answer: a failure is told in the players' language.
type Play<T> = std::result::Result<T, Text>;

fn words(error: impl std::fmt::Display) -> String {
    error.to_string()
}

/// A failure whose words exist in one language only.
fn said(error: impl std::fmt::Display) -> Text {
    Text::same(error.to_string())
}

impl State {
    fn new(data: DataDir, to_self: Sender<Request>) -> State {
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

    fn handle(&mut self, request: Request) -> Vec<Reply> {
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
                    let restored = s.store().restore(&name).map_err(words)?;
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
                    .and_then(|s| s.delete(id).map_err(words))
                    .map(|()| FileDone::Deleted);
                vec![Reply::FileDone(result), Reply::Saved(self.saved())]
            }
            Request::Export(id, seat, path) => {
                vec![Reply::FileDone(self.export(id, seat, path))]
            }
            Request::Import(path) => {
                let result = self.import(&path);
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

    /// The game whose plugin a request needs and that is not compiled yet (it will be soon,
    /// by the compiler thread): starting, resuming, replaying it or testing a rule waits for
    /// that.
    fn waits_for_plugin(&self, request: &Request) -> Option<String> {
        let game = match request {
            Request::Start { game, .. } => game.clone(),
            Request::Resume(id) | Request::Replay { id, .. } => {
                self.sessions().ok()?.get(*id).ok()?.game
            }
            Request::TestRule { game, .. } => game.clone(),
            _ => return None,
        };
        let entry = self.catalog.as_ref()?.game(&game)?;
        let queued = self.preparer.is_some() && entry.readiness() == Readiness::Listed;
        queued.then_some(game)
    }

    /// Moves a game's plugin to the front of the compiler's line.
    fn prepare_first(&self, game: &str) {
        let (Some(preparer), Some(catalog)) = (&self.preparer, &self.catalog) else {
            return;
        };
        if let Some(entry) = catalog.game(game) {
            preparer.first(|source| source.same(entry.source()));
        }
    }

    /// Starts compiling, in the background, every plugin the catalog listed without it.
    fn start_preparing(&mut self) {
        let Some(catalog) = &self.catalog else { return };
        let waiting = catalog.waiting();
        if waiting.is_empty() {
            return;
        }
        let inbox = self.to_self.clone();
        self.preparer = Some(Preparer::start(
            catalog.runtime().clone(),
            waiting,
            move |news| inbox.send(Request::Prepared(news)).is_ok(),
        ));
    }

    /// The compiler thread's news: the cards change, new games may appear, and the games
    /// that waited for this plugin start.
    fn prepared(&mut self, news: News) -> Vec<Reply> {
        let Some(catalog) = &mut self.catalog else {
            return Vec::new();
        };
        let mut replies = Vec::new();
        match news {
            News::Started(source) => self.compiling = Some(source),
            News::Done(source, result) => {
                self.compiling = None;
                let listed = catalog.games().len();
                let problems = catalog.problems().len();
                catalog.add_compiled(&source, *result);
                if catalog.games().len() != listed {
                    // The window asks for the thumbnails of the games it lists.
                    replies.push(Reply::Games(self.games()));
                } else {
                    let thumbnail = self.thumbnails(|entry| entry.source().same(&source));
                    if !thumbnail.is_empty() {
                        replies.push(Reply::Thumbnails(thumbnail));
                    }
                }
                let catalog = self.catalog.as_ref().expect("checked above");
                if catalog.problems().len() != problems {
                    replies.push(Reply::Problems(catalog.problems().to_vec()));
                }
                let (ready, parked): (Vec<_>, Vec<_>) = std::mem::take(&mut self.parked)
                    .into_iter()
                    .partition(|(game, _)| {
                        catalog
                            .game(game)
                            .is_none_or(|e| e.readiness() != Readiness::Listed)
                    });
                self.parked = parked;
                for (_, request) in ready {
                    replies.extend(self.handle(request));
                }
            }
        }
        replies.insert(0, Reply::Prepared(self.preparations()));
        replies
    }

    /// Where each game's plugin stands.
    fn preparations(&self) -> Vec<(String, Preparation)> {
        let Some(catalog) = &self.catalog else {
            return Vec::new();
        };
        catalog
            .games()
            .iter()
            .map(|entry| (entry.manifest().id.clone(), self.preparation(entry)))
            .collect()
    }

    fn preparation(&self, entry: &GameEntry) -> Preparation {
        match entry.readiness() {
            Readiness::Ready => Preparation::Ready,
            Readiness::Failed(why) => Preparation::Failed(why),
            Readiness::Listed
                if self
                    .compiling
                    .as_ref()
                    .is_some_and(|c| c.same(entry.source())) =>
            {
                Preparation::Compiling
            }
            Readiness::Listed => Preparation::Waiting,
        }
    }

    /// A phone's move: played like a click when its seat is to act and it was chosen in the
    /// game as it stands, else refused on that phone with the reason.
    fn phone(&mut self, mv: veillee_room::PhoneMove) -> Option<Reply> {
        let playing = self.playing.as_mut()?;
        let status = playing.table.status().ok()?;
        let phones = playing.phones.as_mut()?;
        if let Err(why) = phones.playable(&mv, status.seats()) {
            phones.refuse(&mv, why);
            return None;
        }
        phones.answered(mv.clone());
        match self.play(mv.seat, &mv.action) {
            Ok(log) => Some(self.reply_game(|s| s.view(log))),
            Err(error) => {
                if let Some(phones) = self.playing.as_mut().and_then(|p| p.phones.as_mut()) {
                    phones.refuse(&mv, error.text());
                }
                None
            }
        }
    }

    fn open(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        let (store, recovery) = match Store::open(self.data.root()) {
            Ok(opened) => opened,
            Err(error) => {
                return vec![Reply::OpenFailed {
                    already_running: matches!(error, StoreError::AlreadyRunning(_)),
                    message: error.to_string(),
                }]
            }
        };
        let seat_names = store.setting(SEAT_NAMES).ok().flatten().unwrap_or_default();
        let language = store.setting(LANGUAGE).ok().flatten();
        let scale = store.setting(SCALE).ok().flatten();
        let assist = store.setting(ASSIST).ok().flatten();
        self.sessions = Some(Sessions::new(store));
        let mut problems = Vec::new();
        match Runtime::new(Some(self.data.compiled_cache())) {
            Ok(runtime) => {
                // Listed without compiling anything; the plugins compile in the background.
                let catalog = Catalog::scan(runtime, self.data.clone());
                problems.extend(catalog.problems().iter().cloned());
                self.catalog = Some(catalog);
                self.start_preparing();
            }
            Err(error) => problems.push(format!("{error:#}")),
        }
        replies.push(Reply::Opened {
            games: self.games(),
            problems,
            recovery: recovery.map(|r| recovery_text(&r)),
            seat_names,
            language,
            scale,
            assist,
        });
        replies
    }

    fn games(&self) -> Vec<GameInfo> {
        let Some(catalog) = &self.catalog else {
            return Vec::new();
        };
        catalog
            .games()
            .iter()
            .map(|entry| {
                let manifest = entry.manifest().clone();
                let variants =
                    library::house_rules(Some(&manifest.id), Some(&self.data.variants()))
                        .into_iter()
                        .map(|a| VariantInfo {
                            source: a.source,
                            info: a.info,
                        })
                        .collect();
                GameInfo {
                    manifest,
                    builtin: entry.origin == Origin::Builtin,
                    variants,
                    preparation: self.preparation(entry),
                }
            })
            .collect()
    }

    /// Each game's scene at the start of a game for its fewest players, as a spectator sees
    /// it (with the game's own scripts: Castel deals in its cards script), for the games whose
    /// plugin is compiled (the others' come as they are, see [`State::prepared`]). A game that
    /// cannot start is left without a picture.
    fn thumbnails(&self, wanted: impl Fn(&GameEntry) -> bool) -> Vec<(String, Scene)> {
        let Some(catalog) = &self.catalog else {
            return Vec::new();
        };
        let user = self.data.variants();
        catalog
            .games()
            .iter()
            .filter(|entry| entry.readiness() == Readiness::Ready && wanted(entry))
            .filter_map(|entry| {
                let manifest = entry.manifest();
                let plugin = catalog.engine(&manifest.id).ok()?;
                let mut engine =
                    veillee_runtime::launch::with_own_scripts(Box::new(plugin), Some(&user))
                        .ok()?;
                let game = engine.create(&Setup::new(manifest.min_players, 1)).ok()?;
                let scene = engine.view(game, None);
                engine.drop_game(game);
                Some((manifest.id.clone(), scene.ok()?))
            })
            .collect()
    }

    fn catalog(&mut self) -> Res<&mut Catalog> {
        self.catalog
            .as_mut()
            .ok_or_else(|| "the games are not loaded".to_string())
    }

    fn sessions(&self) -> Res<&Sessions> {
        self.sessions
            .as_ref()
            .ok_or_else(|| "the saved games are not open".to_string())
    }

    fn install(&mut self, path: &std::path::Path) -> Res<Text> {
        let catalog = self.catalog()?;
        catalog
            .install(path)
            .map(|entry| entry.manifest().name.clone())
            .map_err(|e| format!("{e:#}"))
    }

    fn uninstall(&mut self, id: &str) -> Res<Text> {
        let catalog = self.catalog()?;
        let name = catalog
            .game(id)
            .map(|g| g.manifest().name.clone())
            .unwrap_or_else(|| Text::same(id));
        catalog.uninstall(id).map_err(|e| format!("{e:#}"))?;
        Ok(name)
    }

    /// An engine for a game, with house rules when there are some.
    fn engine(&mut self, game: &str, scripts: Vec<Script>) -> Res<Box<dyn GameEngine>> {
        let plugin = self.catalog()?.engine(game).map_err(|e| format!("{e:#}"))?;
        if scripts.is_empty() {
            return Ok(Box::new(plugin));
        }
        let engine = VariantEngine::new(Box::new(plugin), scripts).map_err(words)?;
        Ok(Box::new(engine))
    }

    /// The engine a saved session was played with: its game and the scripts it recorded.
    fn session_engine(&mut self, meta: &SessionMeta) -> Res<Box<dyn GameEngine>> {
        let scripts = meta
            .variants
            .iter()
            .map(|v| Script::load(&v.file, &v.text, VariantLimits::default()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(words)?;
        self.engine(&meta.game, scripts)
    }

    fn reply_game(&mut self, f: impl FnOnce(&mut State) -> Play<GameView>) -> Reply {
        match f(self) {
            Ok(view) => Reply::Game(Box::new(view)),
            Err(message) => Reply::GameFailed(message),
        }
    }

    fn start(
        &mut self,
        game: &str,
        seats: Vec<SeatPlayer>,
        setup: Setup,
        variants: &[ScriptSource],
        phones: Vec<Seat>,
    ) -> Play<GameView> {
        let scripts =
            veillee_runtime::launch::with_game_scripts(game, variants, &self.data.variants())
                .iter()
                .map(|s| s.load(VariantLimits::default()))
                .collect::<Result<Vec<_>, _>>()
                .map_err(said)?;
        let recorded: Vec<VariantScript> = scripts
            .iter()
            .map(veillee_runtime::launch::recorded)
            .collect();
        let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
        let engine = self.engine(game, scripts).map_err(Text::same)?;
        let sessions = self.sessions().map_err(Text::same)?.clone();
        let _ = sessions.store().set_setting(SEAT_NAMES, &names);
        self.playing = None;
        let table =
            Table::start(sessions, engine, seats, setup, recorded, phones).map_err(|e| e.text())?;
        let seed = table.meta().setup.seed;
        self.replace_playing(table)?;
        let mut view = self.view(vec![LogLine::note(Text::new(
            format!("Nouvelle partie, graine {seed}"),
            format!("New game, seed {seed}"),
        ))])?;
        view.fresh = true;
        Ok(view)
    }

    /// The game to play from now on; a game with phone seats opens its room (the previous
    /// game's room closes).
    fn replace_playing(&mut self, table: Table) -> Play<()> {
        self.playing = None;
        let house_rules = house_rule_names(&table.meta().variants);
        let phones = match table.meta().phones.is_empty() {
            true => None,
            false => Some(
                PhoneSeats::open(
                    table.live(),
                    table.meta().phones.clone(),
                    self.to_self.clone(),
                )
                .map_err(Text::same)?,
            ),
        };
        self.playing = Some(Playing {
            table,
            last_human: None,
            house_rules,
            thinker: None,
            thinking: None,
            asked: 0,
            phones,
        });
        Ok(())
    }

    fn resume(&mut self, id: u64) -> Play<GameView> {
        let sessions = self.sessions().map_err(Text::same)?.clone();
        let meta = sessions.get(id).map_err(said)?;
        let engine = self.session_engine(&meta).map_err(Text::same)?;
        self.playing = None;
        let mut table = Table::resume(sessions.clone(), engine, id).map_err(|e| e.text())?;
        let moves = table.meta().moves.to_string();
        // The log of the moves played before, as they were played (each viewer reads its own
        // version); a game that no longer replays move by move is resumed without it.
        let played = sessions.history(table.engine_mut(), id);
        let mut log: Vec<LogLine> = match played {
            Ok(played) => played
                .into_iter()
                .flat_map(|p| {
                    let who = table.seat_name(p.seat);
                    move_lines(who, p.seat, p.label, p.private, p.events)
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        log.push(LogLine::note(Text::new(
            format!("Partie reprise au coup {moves}"),
            format!("Game resumed at move {moves}"),
        )));
        self.replace_playing(table)?;
        let mut view = self.view(log)?;
        view.fresh = true;
        Ok(view)
    }

    fn playing(&mut self) -> Play<&mut Playing> {
        self.playing
            .as_mut()
            .ok_or_else(|| Text::new("Aucune partie n'est en cours.", "No game is being played."))
    }

    /// A move chosen at the screen, on a phone or by the thinker, played by the table: the
    /// lines it adds to the log.
    fn play(&mut self, seat: Seat, action: &str) -> Result<Vec<LogLine>, TableError> {
        let playing = self.playing.as_mut().ok_or(TableError::NoSeatToAct)?;
        let played = playing.table.play(seat, action)?;
        Ok(playing.logged(played))
    }

    /// [`State::play`], then the game as it stands.
    fn act(&mut self, seat: Seat, action: &str) -> Play<GameView> {
        let log = self.play(seat, action).map_err(|e| e.text())?;
        self.view(log)
    }

    /// The bot to act starts thinking, unless it already is: its move comes with the
    /// thinker's decision ([`State::thought`]).
    fn bot(&mut self) -> Play<GameView> {
        let playing = self.playing()?;
        let turn = playing.table.turn().map_err(|e| e.text())?;
        if let (Turn::Bot(seat, level), None) = (turn, &playing.thinking) {
            self.think(seat, level, Vec::new())?;
        }
        self.view(Vec::new())
    }

    /// Starts the test of a house rule on its own thread.
    fn test_rule(&mut self, game: &str, rule: ScriptSource, setup: Setup) -> Reply {
        let name = rule.file.clone();
        let plain = library::game_scripts(game, Some(&self.data.variants()));
        let state = match self
            .catalog()
            .and_then(|c| c.engine(game).map_err(|e| format!("{e:#}")))
        {
            Ok(plugin) => {
                lab::spawn(plugin, plain, rule, setup, self.to_self.clone());
                LabState::Running(0, 2 * lab::LAB_GAMES)
            }
            Err(why) => LabState::Failed(why),
        };
        Reply::RuleTest(LabNote { rule: name, state })
    }

    /// Hands the game to the thinker for `seat`'s decision (started at the first).
    fn think(&mut self, seat: Seat, level: BotLevel, refused: Vec<(String, Text)>) -> Play<()> {
        if self.playing()?.thinker.is_none() {
            let game = self.playing()?.table.meta().game.clone();
            let plugin = self
                .catalog()
                .and_then(|c| c.engine(&game).map_err(|e| format!("{e:#}")))
                .map_err(Text::same)?;
            let scripts = self.playing()?.table.meta().variants.clone();
            let thinker = Thinker::spawn(plugin, scripts, self.to_self.clone());
            self.playing()?.thinker = Some(thinker);
        }
        let playing = self.playing()?;
        let meta = playing.table.meta();
        let seed = bot::decision_seed(meta.setup.seed, meta.moves, seat)
            .wrapping_add(refused.len() as u64);
        let players = meta.setup.players;
        let (engine, live) = playing.table.parts_mut();
        let state = engine.save(live.game).map_err(said)?;
        playing.asked += 1;
        let job = Job {
            generation: playing.asked,
            state,
            seat,
            players,
            level,
            seed,
            exclude: refused.iter().map(|(id, _)| id.clone()).collect(),
        };
        playing.thinking = Some(Thinking {
            generation: playing.asked,
            seat,
            level,
            refused,
        });
        let asked = playing.thinker.as_ref().is_some_and(|t| t.ask(job));
        if !asked {
            playing.thinking = None;
            return Err(Text::new(
                "Le robot ne peut pas réfléchir : son fil n'a pas pu démarrer.",
                "The bot cannot think: its thread could not be started.",
            ));
        }
        Ok(())
    }

    /// A bot's decision: played and saved by the table like a click, unless the game moved
    /// on since it was asked (then it is dropped). A move a house rule refuses is struck off
    /// and the bot thinks again; with none left the game stops here, saved.
    fn thought(&mut self, thought: Thought) -> Vec<Reply> {
        let Some(playing) = self.playing.as_mut() else {
            return Vec::new();
        };
        let current = playing.thinking.as_ref().map(|t| t.generation);
        if current != Some(thought.generation) {
            return Vec::new();
        }
        let Some(Thinking {
            seat,
            level,
            refused,
            ..
        }) = playing.thinking.take()
        else {
            return Vec::new();
        };
        let who = playing.table.seat_name(seat);
        let chosen = match thought.result {
            Ok(Some(chosen)) => chosen,
            Ok(None) => {
                let reasons = |lang| {
                    let texts: Vec<&str> = refused.iter().map(|(_, why)| why.get(lang)).collect();
                    texts.join("; ")
                };
                return vec![Reply::GameFailed(Text::new(
                    format!(
                        "{who} ne peut pas jouer : les règles maison ont refusé tous ses coups ({}). La partie s'arrête ici ; elle reste enregistrée.",
                        reasons("fr")
                    ),
                    format!(
                        "{who} cannot move: the house rules refused every one of its moves ({}). The game stops here; it stays saved.",
                        reasons("en")
                    ),
                ))];
            }
            Err(e) => return vec![Reply::GameFailed(Text::same(e))],
        };
        match self.play(seat, &chosen.action.id) {
            Ok(log) => vec![self.reply_game(|s| s.view(log))],
            Err(TableError::Refused(reason)) => {
                let mut refused = refused;
                refused.push((chosen.action.id, reason));
                vec![self.reply_game(|s| {
                    s.think(seat, level, refused)?;
                    s.view(Vec::new())
                })]
            }
            Err(other) => vec![Reply::GameFailed(other.text())],
        }
    }

    /// Takes back one decision, asked by the person whose view the screen shows; the reply
    /// asks for the owner's or the table's consent when the table needs it.
    fn undo(&mut self, consent: Consent) -> Reply {
        let Some(playing) = self.playing.as_mut() else {
            return Reply::Finished;
        };
        let asking = playing.last_human;
        let undone = match playing.table.undo(asking, consent) {
            Ok(Undo::Done { moves }) => moves,
            Ok(Undo::AskOwner(owner)) => return Reply::UndoAsksOwner(owner),
            Ok(Undo::AskTable(reveals)) => return Reply::RevealInTheWay(reveals),
            Err(error) => {
                let note = LogLine::note(error.text());
                return self.reply_game(|s| s.view(vec![note]));
            }
        };
        if let Some(phones) = &mut playing.phones {
            phones.taken_back(playing.table.meta().moves, undone);
        }
        let n = undone.to_string();
        self.reply_game(|s| {
            s.view(vec![LogLine::note(Text::new(
                format!("Coup(s) annulé(s) : {n}"),
                format!("Move(s) taken back: {n}"),
            ))])
        })
    }

    fn redo(&mut self) -> Play<GameView> {
        let playing = self.playing()?;
        let events = match playing.table.redo() {
            Ok(events) => events,
            Err(error) => {
                let note = LogLine::note(error.text());
                return self.view(vec![note]);
            }
        };
        if let Some(phones) = &mut playing.phones {
            phones.played_again(&events);
        }
        let log = events.into_iter().map(|e| LogLine::note(e.text)).collect();
        self.view(log)
    }

    /// The game as it stands, seen by the human to act (else the last human who acted, else
    /// a spectator): never anyone else's view.
    fn view(&mut self, log: Vec<LogLine>) -> Play<GameView> {
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

    /// Session `id` played again on a game of its own, as `viewer` saw it.
    fn replay(&mut self, id: u64, viewer: Option<Seat>) -> Res<ReplayData> {
        let sessions = self.sessions()?.clone();
        let meta = sessions.get(id).map_err(words)?;
        let mut engine = self.session_engine(&meta)?;
        let seen = sessions.seen_by(&mut *engine, id, viewer).map_err(words)?;
        Ok(ReplayData {
            meta,
            manifest: engine.manifest().clone(),
            seen,
        })
    }

    fn set_aside(&self) -> Reply {
        let found = self.sessions().map(|s| s.store().set_aside());
        Reply::SetAside(found.unwrap_or_default())
    }

    fn saved(&self) -> Vec<SessionMeta> {
        self.sessions()
            .and_then(|s| s.list().map_err(words))
            .unwrap_or_default()
    }

    /// Writes session `id` to `path`: the whole session, or as `seat` saw it (no seed, no
    /// move ids: a game in progress shared without spoilers).
    fn export(&mut self, id: u64, seat: Option<Seat>, path: PathBuf) -> Res<FileDone> {
        let sessions = self.sessions()?.clone();
        let text = match seat {
            None => serde_json::to_string_pretty(&sessions.export(id).map_err(words)?),
            Some(seat) => {
                let meta = sessions.get(id).map_err(words)?;
                let mut engine = self.session_engine(&meta)?;
                let view = sessions
                    .export_seat(&mut *engine, id, seat)
                    .map_err(words)?;
                serde_json::to_string_pretty(&view)
            }
        }
        .map_err(words)?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(FileDone::Exported(path))
    }

    fn import(&mut self, path: &std::path::Path) -> Res<FileDone> {
        let file = veillee_runtime::session::read_file(path).map_err(words)?;
        let scripts = file
            .session
            .variants
            .iter()
            .map(|v| Script::load(&v.file, &v.text, VariantLimits::default()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(words)?;
        let mut engine = self.engine(&file.session.game, scripts)?;
        let sessions = self.sessions()?.clone();
        let meta = sessions.import(&mut *engine, file).map_err(words)?;
        Ok(FileDone::Imported(meta.id))
    }
}

/// A salvage of the saved games, in words for the window.
fn recovery_text(r: &veillee_runtime::store::Recovery) -> Text {
    let to = r.moved_to.display().to_string();
    let lost: Vec<String> = r.lost.iter().map(ToString::to_string).collect();
    let lost = match lost.is_empty() {
        true => String::new(),
        false => format!(" ({})", lost.join("; ")),
    };
    Text::new(
        format!(
            "La base des parties sauvegardées était abîmée ({}). {} partie(s) ont pu être lues et sont gardées ; {} n'ont pas pu l'être{lost}. La base abîmée est gardée telle quelle dans {to} : l'écran « Parties sauvegardées » peut en récupérer les parties.",
            r.reason,
            r.kept.len(),
            r.lost.len()
        ),
        format!(
            "The saved-games database was damaged ({}). {} game(s) could be read and were kept; {} could not{lost}. The damaged database is kept as it was in {to}: the Saved games screen can bring its games back.",
            r.reason,
            r.kept.len(),
            r.lost.len()
        ),
    )
}

/// Fonts with wide symbol coverage, where the system keeps them (DejaVu, Noto Symbols).
fn fallback_fonts() -> Vec<(String, Vec<u8>)> {
    const CANDIDATES: &[&str] = &[
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
        "/Library/Fonts/Arial Unicode.ttf",
        "C:\\Windows\\Fonts\\seguisym.ttf",
    ];
    CANDIDATES
        .iter()
        .filter_map(|path| Some((path.to_string(), std::fs::read(path).ok()?)))
        .collect()
}

/// The names of the house rules a session recorded, leaving out the game's own scripts.
fn house_rule_names(recorded: &[VariantScript]) -> Vec<Text> {
    recorded
        .iter()
        .filter_map(|v| {
            match Script::load(&v.file, &v.text, VariantLimits::default()) {
                Ok(script) if script.info().part_of_game => None,
                Ok(script) => Some(script.info().name.clone()),
                // Unreadable now: its id is all there is to show.
                Err(_) => Some(Text::same(v.id.clone())),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assisted_mode_reads_old_and_partial_settings() {
        let partial: Assist = serde_json::from_str(r#"{"confirm_moves":true}"#).unwrap();
        assert!(partial.confirm_moves && partial.show_targets && partial.show_last_move);
        assert_eq!(
            partial.animation,
            Animation::Normal,
            "older settings animate"
        );
        assert!(!partial.sound, "and stay silent");
        assert_eq!(
            serde_json::from_str::<Assist>("{}").unwrap(),
            Assist::default()
        );
    }
}
