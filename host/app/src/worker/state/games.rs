//! The games and their plugins: opening the library and the database, the background
//! compiling of plugins (and the requests that wait for it), installing and uninstalling,
//! the library's pictures.

use veillee_sdk::{Scene, Setup, Text};

use veillee_runtime::catalog::{Catalog, GameEntry, Origin, Readiness};
use veillee_runtime::plugin::Runtime;
use veillee_runtime::session::Sessions;
use veillee_runtime::store::{Store, StoreError};
use veillee_runtime::variants::library::{self};

use crate::prepare::{News, Preparer};
use crate::worker::preferences::{ASSIST, LANGUAGE, SCALE, SEAT_NAMES};
use crate::worker::protocol::{GameInfo, Preparation, Reply, Request, VariantInfo};

use super::{said, Res, State};

impl State {
    pub(super) fn open(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        let (store, recovery) = match Store::open(self.data.root()) {
            Ok(opened) => opened,
            Err(error) => {
                return vec![Reply::OpenFailed {
                    already_running: matches!(error, StoreError::AlreadyRunning(_)),
                    message: said(&error),
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

    /// The game whose plugin a request needs and that is not compiled yet (it will be soon,
    /// by the compiler thread): starting, resuming, replaying it or testing a rule waits for
    /// that.
    pub(super) fn waits_for_plugin(&self, request: &Request) -> Option<String> {
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
    pub(super) fn prepare_first(&self, game: &str) {
        let (Some(preparer), Some(catalog)) = (&self.preparer, &self.catalog) else {
            return;
        };
        if let Some(entry) = catalog.game(game) {
            preparer.first(|source| source.same(entry.source()));
        }
    }

    /// Starts compiling, in the background, every plugin the catalog listed without it.
    pub(super) fn start_preparing(&mut self) {
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
    pub(super) fn prepared(&mut self, news: News) -> Vec<Reply> {
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
    pub(super) fn preparations(&self) -> Vec<(String, Preparation)> {
        let Some(catalog) = &self.catalog else {
            return Vec::new();
        };
        catalog
            .games()
            .iter()
            .map(|entry| (entry.manifest().id.clone(), self.preparation(entry)))
            .collect()
    }

    pub(super) fn preparation(&self, entry: &GameEntry) -> Preparation {
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

    pub(super) fn games(&self) -> Vec<GameInfo> {
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
    pub(super) fn thumbnails(&self, wanted: impl Fn(&GameEntry) -> bool) -> Vec<(String, Scene)> {
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

    pub(super) fn install(&mut self, path: &std::path::Path) -> Res<Text> {
        let catalog = self.catalog()?;
        catalog
            .install(path)
            .map(|entry| entry.manifest().name.clone())
            .map_err(|e| e.text())
    }

    pub(super) fn uninstall(&mut self, id: &str) -> Res<Text> {
        let catalog = self.catalog()?;
        let name = catalog
            .game(id)
            .map(|g| g.manifest().name.clone())
            .unwrap_or_else(|| Text::same(id));
        catalog.uninstall(id).map_err(|e| e.text())?;
        Ok(name)
    }
}

/// A salvage of the saved games, in said for the window.
fn recovery_text(r: &veillee_runtime::store::Recovery) -> Text {
    let to = r.moved_to.display().to_string();
    let lost: Vec<String> = r.lost.iter().map(ToString::to_string).collect();
    let lost = match lost.is_empty() {
        true => String::new(),
        false => format!(" ({})", lost.join("; ")),
    };
    Text::new(
        format!(
            "La base des parties sauvegardées était abîmée ({}). {} partie(s) ont pu être lues et sont gardées ; {} n'ont pas pu l'être{lost}. La base abîmée est gardée dans {to}.",
            r.reason,
            r.kept.len(),
            r.lost.len()
        ),
        format!(
            "The saved-games database was damaged ({}). {} game(s) could be read and were kept; {} could not{lost}. The damaged database is kept in {to}.",
            r.reason,
            r.kept.len(),
            r.lost.len()
        ),
    )
}

/// Fonts with wide symbol coverage, where the system keeps them (DejaVu, Noto Symbols).
pub(super) fn fallback_fonts() -> Vec<(String, Vec<u8>)> {
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
