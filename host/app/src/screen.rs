//! What every screen of the window is: one [`Screen`] trait, so that [`crate::app`] lists
//! the screens instead of wiring each by hand, and what they all share ([`Shared`]).
//!
//! A screen is one file with one struct holding its state. It draws itself, says where to go
//! next ([`Nav`]), takes the worker's replies it waits for, and is told when it is opened and
//! left; everything else about it is the default.

use std::any::{Any, TypeId};
use std::path::PathBuf;

use egui::Ui;

use crate::i18n::{Lang, S};
use crate::worker::{Assist, GameInfo, Reply, Worker};

/// What every screen may use.
pub struct Shared {
    /// The launcher's language.
    pub lang: Lang,
    /// The worker thread.
    pub worker: Worker,
    /// The library.
    pub games: Vec<GameInfo>,
    /// Plugins that failed to load, in words.
    pub problems: Vec<String>,
    /// Names typed at each seat last time.
    pub seat_names: Vec<String>,
    /// Interface scale (1 = normal).
    pub scale: f32,
    /// A scale being dragged, applied when the drag ends.
    pub pending_scale: Option<f32>,
    /// The data directory.
    pub data_dir: PathBuf,
    /// Assisted-mode defaults for new and resumed games.
    pub assist: Assist,
    /// The most recently played game that is not over (the library offers to go on with it).
    pub last_game: Option<veillee_runtime::store::model::SessionMeta>,
    /// Each game's starting scene, drawn small on its library card.
    pub thumbnails: std::collections::HashMap<String, veillee_sdk::Scene>,
}

/// Where a screen asks to go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nav {
    /// The screen of this type, opened on this.
    To(TypeId, Target),
    /// The screen shown before, as it was left.
    Back,
}

impl Nav {
    /// Screen `T`, on nothing in particular.
    pub fn to<T: Screen>() -> Nav {
        Nav::To(TypeId::of::<T>(), Target::Nothing)
    }

    /// Screen `T`, opened on `target`.
    pub fn on<T: Screen>(target: Target) -> Nav {
        Nav::To(TypeId::of::<T>(), target)
    }
}

/// What a screen is opened on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing in particular (a tab; a game the worker is starting).
    Nothing,
    /// A game of the library, by id.
    Game(String),
    /// A saved session, by id.
    Session(u64),
    /// A saved session shown from this move on.
    SessionAt(u64, usize),
}

/// One screen of the window.
pub trait Screen: Any {
    /// Its tab in the navigation bar, if it has one (tabs come in the order screens are
    /// listed).
    fn tab(&self) -> Option<S> {
        None
    }

    /// Whether it draws the whole window itself: no navigation bar, no page margins.
    fn whole_window(&self) -> bool {
        false
    }

    /// Whether it is a side trip: the screen it is opened from is not left, and comes back
    /// as it was with [`Nav::Back`].
    fn side_trip(&self) -> bool {
        false
    }

    /// It is about to be shown for `target`; `false`: it cannot be (the window stays where
    /// it is).
    fn open(&mut self, shared: &mut Shared, target: Target) -> bool {
        let _ = (shared, target);
        true
    }

    /// Another screen takes its place (not a side trip).
    fn leave(&mut self, shared: &mut Shared) {
        let _ = shared;
    }

    /// A reply of the worker, offered to every screen in turn: the screen keeps it (`None`)
    /// or hands it on.
    fn reply(&mut self, shared: &mut Shared, reply: Reply) -> Option<Reply> {
        let _ = shared;
        Some(reply)
    }

    /// Draws one frame; where to go next, if anywhere.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav>;
}

/// The type of the screen behind a trait object.
pub fn id_of(screen: &dyn Screen) -> TypeId {
    let any: &dyn Any = screen;
    any.type_id()
}

/// The screen behind a trait object, if it is a `T`.
pub fn downcast<T: Screen>(screen: &dyn Screen) -> Option<&T> {
    let any: &dyn Any = screen;
    any.downcast_ref::<T>()
}
