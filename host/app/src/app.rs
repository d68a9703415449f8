//! Wires the screens together: the list of screens, the navigation bar, the worker's replies
//! that belong to no one screen, dropped files, the one-time messages (database repaired, data
//! directory locked).

use egui::{RichText, Ui};

use super::i18n::{Lang, S};
use super::library::LibraryScreen;
use super::play::PlayScreen;
use super::replay::ReplayScreen;
use super::rules::RulesScreen;
use super::saved::SavedScreen;
use super::screen::{self, Nav, Screen, Shared, Target};
use super::settings::SettingsScreen;
use super::setup::SetupScreen;
use super::widgets::{self, ACCENT, MUTED};
use super::worker::{Assist, Pick, Reply, Request, Worker};
use veillee_runtime::data_dir::DataDir;

/// Every screen, each once, in the order of their tabs; the first is shown at start.
fn screens() -> Vec<Box<dyn Screen>> {
    vec![
        Box::new(LibraryScreen::default()),
        Box::new(SetupScreen::default()),
        Box::new(PlayScreen::default()),
        Box::new(ReplayScreen::default()),
        Box::new(SavedScreen::default()),
        Box::new(RulesScreen::default()),
        Box::new(SettingsScreen),
    ]
}

/// The launcher.
pub struct App {
    /// What the screens share.
    pub shared: Shared,
    screens: Vec<Box<dyn Screen>>,
    /// The screen shown, in `screens`.
    current: usize,
    /// The screen shown before it ([`Nav::Back`] returns there).
    previous: usize,
    loaded: bool,
    lang_from_user: bool,
    recovery: Option<veillee_sdk::Text>,
    open_failed: Option<(bool, veillee_sdk::Text)>,
    applied_scale: f32,
    attached: bool,
    ctx: Option<egui::Context>,
    /// `VEILLEE_UI_START`: a screen to open once the games are loaded (screenshots, demos).
    start: Option<String>,
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
                problems: Vec::new(),
                seat_names: Vec::new(),
                scale: 1.0,
                pending_scale: None,
                data_dir,
                assist: Assist::default(),
                last_game: None,
                thumbnails: Default::default(),
            },
            screens: screens(),
            current: 0,
            previous: 0,
            loaded: false,
            lang_from_user,
            recovery: None,
            open_failed: None,
            applied_scale: 0.0,
            attached: false,
            ctx: None,
            start: std::env::var(START_ENV).ok().filter(|s| !s.is_empty()),
        }
    }

    /// Whether the games are loaded.
    pub fn loaded(&self) -> bool {
        self.loaded
    }

    /// Whether screen `T` is the one shown.
    pub fn showing<T: Screen>(&self) -> bool {
        screen::downcast::<T>(self.screens[self.current].as_ref()).is_some()
    }

    /// Screen `T`, shown or not (tests read what it holds).
    pub fn screen<T: Screen>(&self) -> Option<&T> {
        self.screens
            .iter()
            .find_map(|s| screen::downcast::<T>(s.as_ref()))
    }

    /// The play screen.
    pub fn play(&self) -> &PlayScreen {
        self.screen::<PlayScreen>()
            .expect("the play screen is in the list of screens")
    }

    /// The replay screen.
    pub fn replay(&self) -> Option<&ReplayScreen> {
        self.screen::<ReplayScreen>()
    }

    /// The path in the saved-games screen's export field, when it is open.
    pub fn saved_export_path(&self) -> Option<String> {
        let saved = self.screen::<SavedScreen>()?;
        saved.export.as_ref().map(|e| e.path.clone())
    }

    /// Whether the worker is still busy with something.
    pub fn busy(&self) -> bool {
        self.shared.worker.busy()
    }

    /// A reply of the worker: what concerns the whole launcher is kept here, the rest is
    /// offered to the screens.
    fn handle(&mut self, reply: Reply) {
        let reply = match reply {
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
                self.shared.problems = problems;
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
                return;
            }
            Reply::OpenFailed {
                already_running,
                message,
            } => {
                self.open_failed = Some((already_running, message));
                return;
            }
            Reply::Games(games) => {
                self.shared.games = games;
                self.shared.worker.send(Request::Thumbnails);
                return;
            }
            Reply::Thumbnails(scenes) => return self.shared.thumbnails.extend(scenes),
            Reply::Prepared(states) => {
                for (id, state) in states {
                    if let Some(game) = self.shared.games.iter_mut().find(|g| g.manifest.id == id) {
                        game.preparation = state;
                    }
                }
                return;
            }
            Reply::Problems(problems) => return self.shared.problems = problems,
            Reply::Fonts(fonts) => {
                if let Some(ctx) = &self.ctx {
                    widgets::add_fallback_fonts(ctx, fonts);
                }
                return;
            }
            Reply::Saved(list) => {
                self.shared.last_game = list
                    .iter()
                    .find(|m| m.status.outcome().is_none() && m.moves > 0)
                    .cloned();
                // The saved-games screen shows the list.
                Reply::Saved(list)
            }
            Reply::Finished => return,
            other => other,
        };
        let mut reply = Some(reply);
        for screen in &mut self.screens {
            match reply.take() {
                Some(r) => reply = screen.reply(&mut self.shared, r),
                None => return,
            }
        }
    }

    /// Goes where a screen asked: the screen asked for is opened (unless it cannot be), and
    /// the one shown is left, unless the new one is only a side trip from it.
    fn go(&mut self, nav: Nav) {
        let (id, target) = match nav {
            Nav::Back => {
                std::mem::swap(&mut self.current, &mut self.previous);
                return;
            }
            Nav::To(id, target) => (id, target),
        };
        let Some(next) = self
            .screens
            .iter()
            .position(|s| screen::id_of(s.as_ref()) == id)
        else {
            return;
        };
        if !self.screens[next].open(&mut self.shared, target) {
            return;
        }
        if next != self.current && !self.screens[next].side_trip() {
            self.screens[self.current].leave(&mut self.shared);
        }
        self.previous = self.current;
        self.current = next;
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
            if let Some(nav) = self.start.take().and_then(|s| start_nav(&s)) {
                self.go(nav);
            }
        }
        let ctx = ui.ctx().clone();
        let scale = self.shared.scale;
        if (scale - self.applied_scale).abs() > f32::EPSILON {
            ctx.set_zoom_factor(scale);
            self.applied_scale = scale;
        }
        if let Some((already_running, message)) = &self.open_failed {
            cannot_open(ui, &self.shared, *already_running, message);
            return;
        }

        // Dropping a plugin file anywhere installs it, as if it were picked in the install
        // dialog.
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
            self.go(Nav::to::<LibraryScreen>());
            self.handle(Reply::Picked(Pick::Plugin, Some(path)));
        }

        let nav = if self.screens[self.current].whole_window() {
            self.screens[self.current].ui(ui, &mut self.shared)
        } else {
            let tab = nav_bar(ui, &self.screens, self.current, &self.shared);
            let page = self.page(ui);
            page.or(tab)
        };
        if hovering {
            drop_overlay(&ctx, self.shared.lang);
        }
        if let Some(nav) = nav {
            self.go(nav);
        }
    }

    /// A screen drawn as a page: under the navigation bar, with margins, after the one-time
    /// note of a repaired database, once the games are loaded.
    fn page(&mut self, ui: &mut Ui) -> Option<Nav> {
        let lang = self.shared.lang;
        let mut nav = None;
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
                nav = self.screens[self.current].ui(ui, &mut self.shared);
            });
        nav
    }
}

/// The screen `VEILLEE_UI_START` names (see [`START_ENV`]).
fn start_nav(start: &str) -> Option<Nav> {
    match start.split_once(':') {
        Some(("setup", id)) => Some(Nav::on::<SetupScreen>(Target::Game(id.into()))),
        Some(("rules", id)) => Some(Nav::on::<RulesScreen>(Target::Game(id.into()))),
        Some(("resume", id)) => {
            let id = id.parse().ok()?;
            Some(Nav::on::<PlayScreen>(Target::Session(id)))
        }
        Some(("replay", rest)) => {
            // `replay:ID` or `replay:ID:MOVE` (shown at that move).
            let (id, step) = rest.split_once(':').unwrap_or((rest, "0"));
            let step = step.parse().unwrap_or(0);
            let id = id.parse().ok()?;
            Some(Nav::on::<ReplayScreen>(Target::SessionAt(id, step)))
        }
        _ => match start {
            "saved" => Some(Nav::to::<SavedScreen>()),
            "settings" => Some(Nav::to::<SettingsScreen>()),
            _ => None,
        },
    }
}

/// The bar above the pages: the name, the tagline, the screens' tabs, and a spinner while
/// the worker is busy.
fn nav_bar(
    ui: &mut Ui,
    screens: &[Box<dyn Screen>],
    current: usize,
    shared: &Shared,
) -> Option<Nav> {
    let lang = shared.lang;
    let wide = ui.ctx().content_rect().width() > 1150.0;
    let mut nav = None;
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
                if wide {
                    ui.label(RichText::new(lang.t(S::Tagline)).color(MUTED));
                }
                ui.add_space(24.0);
                for (index, screen) in screens.iter().enumerate() {
                    let Some(label) = screen.tab() else { continue };
                    let text = RichText::new(lang.t(label)).size(22.0);
                    if ui.selectable_label(index == current, text).clicked() {
                        let id = screen::id_of(screen.as_ref());
                        nav = Some(Nav::To(id, Target::Nothing));
                    }
                }
                if shared.worker.busy() {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.spinner();
                    });
                }
            });
        });
    nav
}

/// The whole window when the data directory cannot be opened: why, and "Quit".
fn cannot_open(ui: &mut Ui, shared: &Shared, already_running: bool, message: &veillee_sdk::Text) {
    let lang = shared.lang;
    let (heading, body) = if already_running {
        (
            lang.t(S::AlreadyRunning),
            lang.f(
                S::AlreadyRunningBody,
                &[&shared.data_dir.display().to_string()],
            ),
        )
    } else {
        (lang.t(S::CannotOpen), message.get(lang.code()).to_string())
    };
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.25);
            ui.label(RichText::new(heading).size(40.0).strong().color(ACCENT));
            ui.add_space(12.0);
            ui.label(RichText::new(body).size(24.0));
            ui.add_space(24.0);
            if widgets::primary(ui, lang.t(S::Quit)).clicked() {
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        });
    });
}

/// Over everything while a file is dragged over the window: "Install a game".
fn drop_overlay(ctx: &egui::Context, lang: Lang) {
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

impl eframe::App for App {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        App::ui(self, ui);
    }
}
