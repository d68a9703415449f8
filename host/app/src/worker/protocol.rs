//! What the window and the worker say to each other: the [`Request`]s the window sends, the
//! [`Reply`]s it reads, and the copies of the worker's state they carry (the window never
//! holds the game itself).

use std::path::PathBuf;

use veillee_runtime::store::model::{SeatPlayer, SessionMeta};
use veillee_runtime::store::SetAside;
use veillee_runtime::table::Consent;
use veillee_runtime::variants::library::ScriptSource;
use veillee_runtime::variants::ScriptInfo;
use veillee_runtime::vetting::Unfamiliar;
use veillee_sdk::{Action, Manifest, Scene, Seat, Setup, Status, Text};

use super::log::LogLine;
use super::preferences::Assist;
use crate::lab::LabNote;
use crate::prepare::News;
use crate::room::RoomView;
use crate::thinker::Thought;

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
    /// Read a session file (the player is asked first about scripts it brings).
    Import(PathBuf),
    /// Read a session file whose scripts the player accepted: the SHA-256 of each text they
    /// were shown (a file changed since is asked about again).
    ImportAccepted(PathBuf, Vec<String>),
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
        message: Text,
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
    Installed(Result<Text, Text>),
    /// An uninstall ended.
    Uninstalled(Result<Text, Text>),
    /// The game as it stands now.
    Game(Box<GameView>),
    /// A replay, or why it could not be made.
    Replay(Result<Box<ReplayData>, Text>),
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
    Restored(Result<(usize, usize, usize), Text>),
    /// An export, import or delete ended.
    FileDone(Result<FileDone, Text>),
    /// A file was chosen in a dialog (or none).
    Picked(Pick, Option<PathBuf>),
    /// News of a house rule's test: how far it is, or the balance with and without it.
    RuleTest(LabNote),
    /// The worker finished a request (counted by [`Worker::busy`](super::Worker::busy), never shown).
    Finished,
}

/// A file operation that worked.
#[derive(Debug)]
pub enum FileDone {
    /// Exported to this file.
    Exported(PathBuf),
    /// Imported as this session id.
    Imported(u64),
    /// Not imported yet: the file brings scripts not installed here, which run as soon as
    /// it is imported; the player must accept them first.
    ImportAsks(PathBuf, Vec<Unfamiliar>),
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
