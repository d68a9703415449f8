//! Wires the screens together: the navigation bar, the worker's replies, dropped files, the
//! one-time messages (database repaired, data directory locked).

use std::path::PathBuf;

use egui::{RichText, Ui};

use super::i18n::{Lang, S};
use super::library::LibraryScreen;
use super::play::PlayScreen;
use super::replay::ReplayScreen;
use super::rules::RulesScreen;
use super::saved::SavedScreen;
use super::settings::SettingsScreen;
use super::setup::SetupScreen;
use super::widgets::{self, ACCENT, MUTED};
use super::worker::{Assist, GameInfo, Pick, Preparation, Reply, Request, Worker};
use veillee_runtime::data_dir::DataDir;

/// What every screen may use.
pub struct Shared {
    /// The launcher's language.
    pub lang: Lang,
    /// The worker thread.
    pub worker: Worker,
    /// The library.
    pub games: Vec<GameInfo>,
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
    /// The library.
    Library,
    /// A new game of this id.
    Setup(String),
    /// The game being played.
    Play,
    /// Resume a saved session.
    Resume(u64),
    /// Watch a saved session again.
    Replay(u64),
    /// Saved games.
    Saved,
    /// A game's rules.
    Rules(String),
    /// Settings.
    Settings,
}

/// Which screen is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The library.
    Library,
    /// A new game.
    Setup,
    /// Playing.
    Play,
    /// Watching a game again.
    Replay,
    /// Saved games.
    Saved,
    /// Rules.
    Rules,
    /// Settings.
    Settings,
}

/// The launcher.
pub struct App {
    /// What the screens share.
    pub shared: Shared,
    /// The screen shown.
    pub screen: Screen,
    rules_return: Screen,
    library: LibraryScreen,
    setup: Option<SetupScreen>,
    /// The play screen.
    pub play: PlayScreen,
    /// The replay screen, while a game is watched again.
    pub replay: Option<ReplayScreen>,
    saved: SavedScreen,
    rules: Option<RulesScreen>,
    settings: SettingsScreen,
    loaded: bool,
    lang_from_user: bool,
    problems: Vec<String>,
    recovery: Option<veillee_sdk::Text>,
    open_failed: Option<(bool, String)>,
    applied_scale: f32,
    attached: bool,
    ctx: Option<egui::Context>,
    /// `VEILLEE_UI_START`: a screen to open once the games are loaded (screenshots, demos).
    start: Option<String>,
    /// The move a replay opened by `VEILLEE_UI_START` shows first.
    start_step: usize,
}

/// `VEILLEE_UI_SCALE=1.5`: the interface scale for this run, not remembered (screenshots).
pub const SCALE_ENV: &str = "VEILLEE_UI_SCALE";

/// The environment variable naming a screen to open at start: `library`, `saved`,
/// `settings`, `setup:GAME`, `rules:GAME`, `resume:SESSION` or `replay:SESSION[:MOVE]` (for
/// screenshots and demos).
pub const START_ENV: &str = "VEILLEE_UI_START";

impl App {
    /// Starts the launcher: the style, the worker, and the loading of the games.
    /// `lang`: from the command line (else the remembered one, else the system's).
    pub fn new(data: DataDir, lang: Option<String>) -> App {
        let data_dir = data.root().to_path_buf();
        let mut worker = Worker::spawn(data);
        worker.send(Request::Fonts);
        worker.send(Request::Open);
        let lang_from_user = lang.is_some();
        let lang = lang.map_or_else(Lang::system, |l| Lang::from_code(&l));
        App {
            shared: Shared {
                lang,
                worker,
                games: Vec::new(),
                seat_names: Vec::new(),
                scale: 1.0,
                pending_scale: None,
                data_dir,
                assist: Assist::default(),
                last_game: None,
                thumbnails: Default::default(),
            },
            screen: Screen::Library,
            rules_return: Screen::Library,
            library: LibraryScreen::default(),
            setup: None,
            play: PlayScreen::default(),
            replay: None,
            saved: SavedScreen::default(),
            rules: None,
            settings: SettingsScreen,
            loaded: false,
            lang_from_user,
            problems: Vec::new(),
            recovery: None,
            open_failed: None,
            applied_scale: 0.0,
            attached: false,
            ctx: None,
            start: std::env::var(START_ENV).ok().filter(|s| !s.is_empty()),
            start_step: 0,
        }
    }

    /// Whether the games are loaded.
    pub fn loaded(&self) -> bool {
        self.loaded
    }

    /// The path in the saved-games screen's export field, when it is open.
    pub fn saved_export_path(&self) -> Option<String> {
        self.saved.export.as_ref().map(|e| e.path.clone())
    }

    /// Whether the worker is still busy with something.
    pub fn busy(&self) -> bool {
        self.shared.worker.busy()
    }

    fn handle(&mut self, reply: Reply) {
        match reply {
            Reply::Opened {
                games,
                problems,
                recovery,
                seat_names,
                language,
                scale,
                assist,
            } => {
                self.loaded = true;
                self.shared.games = games;
                self.problems = problems;
                self.recovery = recovery;
                self.shared.seat_names = seat_names;
                if let (Some(language), false) = (language, self.lang_from_user) {
                    self.shared.lang = Lang::from_code(&language);
                }
                let forced = std::env::var(SCALE_ENV)
                    .ok()
                    .and_then(|s| s.trim().parse::<f32>().ok());
                if let Some(scale) = forced.or(scale) {
                    self.shared.scale = scale.clamp(0.5, 3.0);
                }
                if let Some(assist) = assist {
                    self.shared.assist = assist;
                }
                self.shared.worker.send(Request::ListSaved);
                self.shared.worker.send(Request::Thumbnails);
            }
            Reply::OpenFailed {
                already_running,
                message,
            } => self.open_failed = Some((already_running, message)),
            Reply::Games(games) => {
                self.shared.games = games;
                self.shared.worker.send(Request::Thumbnails);
            }
            Reply::Thumbnails(scenes) => self.shared.thumbnails.extend(scenes),
            Reply::Prepared(states) => {
                for (id, state) in states {
                    if let Some(game) = self.shared.games.iter_mut().find(|g| g.manifest.id == id) {
                        game.preparation = state;
                    }
                }
            }
            Reply::Problems(problems) => self.problems = problems,
            Reply::Fonts(fonts) => {
                if let Some(ctx) = &self.ctx {
                    widgets::add_fallback_fonts(ctx, fonts);
                }
            }
            Reply::Installed(result) => self.library.installed(&self.shared, result),
            Reply::Uninstalled(result) => self.library.uninstalled(&self.shared, result),
            Reply::Game(view) => self.play.on_game(*view),
            Reply::Replay(result) => {
                if let Some(replay) = &mut self.replay {
                    replay.on_replay(result);
                }
            }
            Reply::GameFailed(message) => self.play.on_error(message),
            Reply::UndoAsksOwner(owner) => self.play.on_undo_asks_owner(owner),
            Reply::RevealInTheWay(reveals) => self.play.on_reveal(reveals),
            Reply::Saved(list) => {
                self.shared.last_game = list
                    .iter()
                    .find(|m| m.status.outcome().is_none() && m.moves > 0)
                    .cloned();
                self.saved.list = list;
            }
            Reply::SetAside(found) => self.saved.set_aside = found,
            Reply::Restored(result) => self.saved.restored(&self.shared, result),
            Reply::FileDone(result) => self.saved.file_done(&self.shared, result),
            Reply::Picked(pick, path) => match (pick, path) {
                (Pick::Plugin, Some(path)) => self.library.install(&mut self.shared, path),
                (Pick::Plugin, None) => self.library.dialog_closed(),
                (Pick::ImportSession, Some(path)) => self.shared.worker.send(Request::Import(path)),
                (Pick::ImportSession, None) => self.saved.dialog_closed(true),
                (Pick::ExportSession(id, seat), Some(path)) => {
                    self.saved.export_picked(id);
                    self.shared.worker.send(Request::Export(id, seat, path))
                }
                (Pick::ExportSession(..), None) => self.saved.dialog_closed(false),
            },
            Reply::RuleTest(note) => {
                if let Some(setup) = &mut self.setup {
                    setup.on_rule_test(note);
                }
            }
            Reply::Finished => {}
        }
    }

    fn go(&mut self, nav: Nav) {
        match nav {
            Nav::Library => {
                if self.screen == Screen::Play {
                    self.shared.worker.send(Request::Close);
                    self.play = PlayScreen::default();
                }
                self.shared.worker.send(Request::ListSaved);
                self.screen = Screen::Library;
            }
            Nav::Setup(id) => {
                if let Some(game) = self.shared.games.iter().find(|g| g.manifest.id == id) {
                    // Its plugin compiles next, while the players sit down.
                    if game.preparation != Preparation::Ready {
                        self.shared.worker.send(Request::Prepare(id.clone()));
                    }
                    self.setup = Some(SetupScreen::new(
                        game,
                        &self.shared.seat_names,
                        self.shared.lang,
                    ));
                    self.screen = Screen::Setup;
                }
            }
            Nav::Play => {
                self.play.expect_game();
                self.screen = Screen::Play;
            }
            Nav::Resume(id) => {
                self.play.expect_game();
                self.shared.worker.send(Request::Resume(id));
                self.screen = Screen::Play;
            }
            Nav::Saved => {
                self.saved.loaded = false;
                self.screen = Screen::Saved;
            }
            Nav::Replay(id) => {
                if self.screen == Screen::Play {
                    self.shared.worker.send(Request::Close);
                    self.play = PlayScreen::default();
                }
                let mut replay = ReplayScreen::open(&mut self.shared, id);
                replay.step = std::mem::take(&mut self.start_step);
                self.replay = Some(replay);
                self.screen = Screen::Replay;
            }
            Nav::Rules(id) => {
                self.rules_return = self.screen;
                self.rules = Some(RulesScreen { game: id });
                self.screen = Screen::Rules;
            }
            Nav::Settings => self.screen = Screen::Settings,
        }
    }

    /// Draws one frame.
    pub fn ui(&mut self, ui: &mut Ui) {
        if !self.attached {
            self.attached = true;
            widgets::install_style(ui.ctx());
            self.shared.worker.attach(ui.ctx());
            self.ctx = Some(ui.ctx().clone());
        }
        for reply in self.shared.worker.poll() {
            self.handle(reply);
        }
        if self.loaded {
            if let Some(start) = self.start.take() {
                let nav = match start.split_once(':') {
                    Some(("setup", id)) => Some(Nav::Setup(id.into())),
                    Some(("rules", id)) => Some(Nav::Rules(id.into())),
                    Some(("resume", id)) => id.parse().ok().map(Nav::Resume),
                    Some(("replay", rest)) => {
                        // `replay:ID` or `replay:ID:MOVE` (shown at that move).
                        let (id, step) = rest.split_once(':').unwrap_or((rest, "0"));
                        self.start_step = step.parse().unwrap_or(0);
                        id.parse().ok().map(Nav::Replay)
                    }
                    _ => match start.as_str() {
                        "saved" => Some(Nav::Saved),
                        "settings" => Some(Nav::Settings),
                        _ => None,
                    },
                };
                if let Some(nav) = nav {
                    self.go(nav);
                }
            }
        }
        let ctx = ui.ctx().clone();
        let scale = self.shared.scale;
        if (scale - self.applied_scale).abs() > f32::EPSILON {
            ctx.set_zoom_factor(scale);
            self.applied_scale = scale;
        }
        let lang = self.shared.lang;

        if let Some((already_running, message)) = &self.open_failed {
            let (heading, body) = if *already_running {
                (
                    lang.t(S::AlreadyRunning),
                    lang.f(
                        S::AlreadyRunningBody,
                        &[&self.shared.data_dir.display().to_string()],
                    ),
                )
            } else {
                (lang.t(S::CannotOpen), message.clone())
            };
            egui::CentralPanel::default().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() * 0.25);
                    ui.label(RichText::new(heading).size(40.0).strong().color(ACCENT));
                    ui.add_space(12.0);
                    ui.label(RichText::new(body).size(24.0));
                    ui.add_space(24.0);
                    if widgets::primary(ui, lang.t(S::Quit)).clicked() {
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                });
            });
            return;
        }

        // Dropping a plugin file anywhere installs it.
        let (hovering, dropped) = ctx.input(|i| {
            (
                !i.raw.hovered_files.is_empty(),
                i.raw
                    .dropped_files
                    .iter()
                    .map(|f| f.path().to_path_buf())
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect::<Vec<_>>(),
            )
        });
        for path in dropped {
            self.screen = Screen::Library;
            self.library.install(&mut self.shared, path);
        }

        let mut nav = None;
        if !matches!(self.screen, Screen::Play | Screen::Replay) {
            egui::Panel::top("nav")
                .frame(
                    egui::Frame::new()
                        .fill(widgets::PANEL)
                        .inner_margin(egui::Margin::symmetric(20, 12)),
                )
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(RichText::new("Veillée").size(32.0).strong().color(ACCENT));
                        // The tagline gives way to the tabs on a narrow (or zoomed) window.
                        if ctx.content_rect().width() > 1150.0 {
                            ui.label(RichText::new(lang.t(S::Tagline)).color(MUTED));
                        }
                        ui.add_space(24.0);
                        let tabs = [
                            (Screen::Library, S::Library, Nav::Library),
                            (Screen::Saved, S::SavedGames, Nav::Saved),
                            (Screen::Settings, S::Settings, Nav::Settings),
                        ];
                        for (screen, label, target) in tabs {
                            let text = RichText::new(lang.t(label)).size(22.0);
                            if ui.selectable_label(self.screen == screen, text).clicked() {
                                nav = Some(target);
                            }
                        }
                        if self.shared.worker.busy() {
                            ui.with_layout(
                                egui::Layout::right_to_left(egui::Align::Center),
                                |ui| {
                                    ui.spinner();
                                },
                            );
                        }
                    });
                });
        }

        if self.screen == Screen::Play {
            nav = nav.or(self.play.ui(ui, &mut self.shared));
        } else if self.screen == Screen::Replay {
            nav = match &mut self.replay {
                Some(replay) => nav.or(replay.ui(ui, &mut self.shared)),
                None => Some(Nav::Saved),
            };
        } else {
            egui::CentralPanel::default()
                .frame(egui::Frame::central_panel(ui.style()).inner_margin(egui::Margin::same(24)))
                .show(ui, |ui| {
                    if let Some(recovery) = &self.recovery {
                        if widgets::error_panel(
                            ui,
                            lang.t(S::Recovered),
                            recovery.get(lang.code()),
                            lang.t(S::Dismiss),
                        ) {
                            self.recovery = None;
                        }
                    }
                    if !self.loaded {
                        widgets::busy(ui, lang.t(S::Loading));
                        return;
                    }
                    let next = match self.screen {
                        Screen::Library => self.library.ui(ui, &mut self.shared, &self.problems),
                        Screen::Setup => match &mut self.setup {
                            Some(setup) => setup.ui(ui, &mut self.shared),
                            None => Some(Nav::Library),
                        },
                        Screen::Saved => self.saved.ui(ui, &mut self.shared),
                        Screen::Rules => match &mut self.rules {
                            Some(rules) => {
                                if rules.ui(ui, &self.shared) {
                                    self.screen = self.rules_return;
                                }
                                None
                            }
                            None => Some(Nav::Library),
                        },
                        Screen::Settings => {
                            self.settings.ui(ui, &mut self.shared);
                            None
                        }
                        Screen::Play | Screen::Replay => None,
                    };
                    if next.is_some() {
                        nav = next;
                    }
                });
        }
        if hovering {
            let painter = ctx.layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("drop"),
            ));
            let rect = ctx.content_rect();
            painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(180));
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                lang.t(S::InstallGame),
                egui::FontId::proportional(40.0),
                ACCENT,
            );
        }
        if let Some(nav) = nav {
            self.go(nav);
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        App::ui(self, ui);
    }
}
