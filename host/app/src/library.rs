//! The library: a card per game, install (file dialog, drop, or a typed path) and uninstall.

use egui::{RichText, Ui, Vec2};

use super::i18n::{Lang, S};
use super::play::PlayScreen;
use super::rules::RulesScreen;
use super::screen::{Nav, Screen, Shared, Target};
use super::setup::SetupScreen;
use super::widgets::{self, Answer, ACCENT, DANGER, GOOD, MUTED};
use super::worker::{GameInfo, Pick, Preparation, Reply, Request};

/// The library screen.
#[derive(Default)]
pub struct LibraryScreen {
    /// The path typed in the install field.
    pub install_path: String,
    /// The file being installed.
    installing: Option<String>,
    /// The last install or uninstall error, in words.
    error: Option<veillee_sdk::Text>,
    /// The last success.
    notice: Option<String>,
    /// The game waiting for uninstall confirmation: (id, name).
    confirm_uninstall: Option<(String, String)>,
    /// Whether the load problems were dismissed.
    problems_dismissed: bool,
    /// The file dialog failed: show the path field prominently.
    dialog_failed: bool,
}

impl LibraryScreen {
    /// Starts installing a file.
    pub fn install(&mut self, shared: &mut Shared, path: std::path::PathBuf) {
        self.installing = Some(path.display().to_string());
        self.error = None;
        self.notice = None;
        shared.worker.send(Request::Install(path));
    }

    /// An install ended.
    pub fn installed(
        &mut self,
        shared: &Shared,
        result: Result<veillee_sdk::Text, veillee_sdk::Text>,
    ) {
        self.installing = None;
        match result {
            Ok(name) => {
                self.notice = Some(
                    shared
                        .lang
                        .f(S::InstallDone, &[name.get(shared.lang.code())]),
                );
                self.install_path.clear();
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// An uninstall ended.
    pub fn uninstalled(
        &mut self,
        shared: &Shared,
        result: Result<veillee_sdk::Text, veillee_sdk::Text>,
    ) {
        match result {
            Ok(name) => {
                self.notice = Some(
                    shared
                        .lang
                        .f(S::UninstallDone, &[name.get(shared.lang.code())]),
                )
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// The file dialog answered nothing: maybe it could not open.
    pub fn dialog_closed(&mut self) {
        self.dialog_failed = true;
    }
}

impl Screen for LibraryScreen {
    fn tab(&self) -> Option<S> {
        Some(S::Library)
    }

    fn open(&mut self, shared: &mut Shared, _target: Target) -> bool {
        shared.worker.send(Request::ListSaved);
        true
    }

    fn reply(&mut self, shared: &mut Shared, reply: Reply) -> Option<Reply> {
        match reply {
            Reply::Installed(result) => self.installed(shared, result),
            Reply::Uninstalled(result) => self.uninstalled(shared, result),
            Reply::Picked(Pick::Plugin, Some(path)) => self.install(shared, path),
            Reply::Picked(Pick::Plugin, None) => self.dialog_closed(),
            other => return Some(other),
        }
        None
    }

    /// Draws the screen: the title bar, the typed install path when there is no file
    /// dialog, what happened last, the games' cards, and the question before an uninstall.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let nav = title_bar(ui, shared);
        // The typed path only when the file chooser did not answer (no desktop portal).
        if self.dialog_failed {
            self.typed_install(ui, shared);
        }
        self.messages(ui, shared);
        ui.add_space(10.0);
        let picked = self.cards(ui, shared);
        self.uninstall_question(ui, shared);
        picked.or(nav)
    }
}

/// The library screen's parts, top to bottom.
impl LibraryScreen {
    /// The plugin's path, typed, and its install button (not while an install runs).
    fn typed_install(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        ui.label(RichText::new(lang.t(S::DialogUnavailable)).color(MUTED));
        ui.horizontal(|ui| {
            let label = ui.label(lang.t(S::PluginPath));
            ui.add(
                egui::TextEdit::singleline(&mut self.install_path)
                    .desired_width(420.0)
                    .hint_text(lang.t(S::PluginPathHint)),
            )
            .labelled_by(label.id);
            let ready = !self.install_path.trim().is_empty() && self.installing.is_none();
            if ui
                .add_enabled(ready, egui::Button::new(lang.t(S::Install)))
                .clicked()
            {
                let path = std::path::PathBuf::from(self.install_path.trim());
                self.install(shared, path);
            }
        });
    }

    /// The install under way, the last error and notice, and the plugins that failed to
    /// load (each until dismissed).
    fn messages(&mut self, ui: &mut Ui, shared: &Shared) {
        let lang = shared.lang;
        if let Some(file) = &self.installing {
            widgets::busy(ui, &lang.f(S::Installing, &[file]));
        }
        if let Some(error) = &self.error {
            if widgets::error_panel(
                ui,
                lang.t(S::InstallFailed),
                error.get(lang.code()),
                lang.t(S::Dismiss),
            ) {
                self.error = None;
            }
        }
        if let Some(notice) = &self.notice {
            if widgets::info_panel(ui, notice, lang.t(S::Dismiss)) {
                self.notice = None;
            }
        }
        if !shared.problems.is_empty() && !self.problems_dismissed {
            let detail = shared.problems.join("\n");
            if widgets::error_panel(ui, lang.t(S::Problems), &detail, lang.t(S::Dismiss)) {
                self.problems_dismissed = true;
            }
        }
    }

    /// The games' cards in rows. Returns where a card's button leads.
    fn cards(&mut self, ui: &mut Ui, shared: &Shared) -> Option<Nav> {
        let mut nav = None;
        // Cards sized to the window: as many columns as fit, and rows as tall as the
        // window allows so that every game is in sight at 1366×860; more games scroll.
        let gap = 18.0;
        let avail = ui.available_size();
        let count = shared.games.len().max(1);
        let columns = (((avail.x + gap) / (CARD_MIN_WIDTH + gap)).floor() as usize).clamp(1, count);
        let rows = count.div_ceil(columns);
        let card_w = (avail.x - gap * (columns - 1) as f32) / columns as f32 - 1.0;
        let card_h =
            ((avail.y - gap * (rows - 1) as f32) / rows as f32 - 1.0).clamp(CARD_MIN_HEIGHT, 380.0);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for row in shared.games.chunks(columns) {
                    ui.horizontal_top(|ui| {
                        ui.spacing_mut().item_spacing.x = gap;
                        for game in row {
                            ui.vertical(|ui| {
                                ui.set_max_width(ui.available_width());
                                ui.set_width(card_w);
                                let size = egui::vec2(card_w, card_h);
                                if let Some(n) =
                                    game_card(ui, shared, game, size, &mut self.confirm_uninstall)
                                {
                                    nav = Some(n);
                                }
                            });
                        }
                    });
                    ui.add_space(gap);
                }
            });
        nav
    }

    /// "Uninstall this game?", while an uninstall waits for its answer.
    fn uninstall_question(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        let Some((id, name)) = self.confirm_uninstall.clone() else {
            return;
        };
        let body = lang.f(S::ConfirmUninstall, &[&name]);
        match widgets::confirm(
            ui.ctx(),
            "uninstall",
            &body,
            lang.t(S::Uninstall),
            lang.t(S::Cancel),
        ) {
            Answer::Yes => {
                shared.worker.send(Request::Uninstall(id));
                self.confirm_uninstall = None;
            }
            Answer::No => self.confirm_uninstall = None,
            Answer::Open => {}
        }
    }
}

/// One line: the title, the last game to go on with, installing a game (on the right).
fn title_bar(ui: &mut Ui, shared: &Shared) -> Option<Nav> {
    let lang = shared.lang;
    let mut nav = None;
    ui.horizontal(|ui| {
        widgets::title(ui, lang.t(S::Library));
        ui.add_space(16.0);
        if let Some(last) = &shared.last_game {
            let name = shared
                .games
                .iter()
                .find(|g| g.manifest.id == last.game)
                .map_or(last.game.clone(), |g| {
                    g.manifest.name.get(lang.code()).into()
                });
            let text = lang.f(S::ContinueGame, &[&name, &last.id.to_string()]);
            if widgets::primary(ui, &format!("▶  {text}")).clicked() {
                nav = Some(Nav::on::<PlayScreen>(Target::Session(last.id)));
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if widgets::button(ui, lang.t(S::InstallGame))
                .on_hover_text(lang.t(S::InstallHint))
                .clicked()
            {
                shared
                    .worker
                    .pick_file(Pick::Plugin, lang.t(S::InstallGame).to_string());
            }
        });
    });
    nav
}

/// The card's frame adds 18 of margin and 1 of stroke on each side.
const CARD_FRAME: f32 = 38.0;

/// One game's card, `size` in all: its name, its starting position beside its facts and
/// description, its buttons at the bottom. Returns where a button leads; asking to
/// uninstall fills `confirm`.
fn game_card(
    ui: &mut Ui,
    shared: &Shared,
    game: &GameInfo,
    size: Vec2,
    confirm: &mut Option<(String, String)>,
) -> Option<Nav> {
    let lang = shared.lang;
    let mut nav = None;
    widgets::card(ui, |ui| {
        let top = ui.max_rect().top();
        ui.set_width(size.x - CARD_FRAME);
        ui.set_min_height(size.y - CARD_FRAME);
        card_title(ui, game.manifest.name.get(lang.code()));
        // The game's starting position, drawn by the scene drawer, beside its words;
        // its room is kept while the picture is being made, so nothing jumps.
        let side = ((size.y - CARD_FRAME) - (ui.cursor().top() - top) - 62.0)
            .min((size.x - CARD_FRAME) * 0.42)
            .max(0.0);
        ui.horizontal_top(|ui| {
            if side >= 48.0 {
                starting_position(ui, shared, &game.manifest, side);
            }
            ui.vertical(|ui| {
                facts(ui, lang, game);
                ui.add_space(4.0);
                let left = size.y - CARD_FRAME - (ui.cursor().top() - top) - 62.0;
                description(ui, lang, &game.manifest, left);
            });
        });
        ui.add_space(8.0);
        // The buttons at the bottom of the card, whatever the description's length.
        let used = ui.cursor().top() - top;
        let room = size.y - CARD_FRAME - 46.0;
        if used < room {
            ui.add_space(room - used);
        }
        nav = card_buttons(ui, lang, game, confirm);
    });
    nav
}

/// The game's name on one line whatever its length, so that every card of a row keeps its
/// buttons in sight: a long name gets a smaller type, then is cut (whole on hover).
fn card_title(ui: &mut Ui, name: &str) {
    let width = ui.available_width();
    let type_size = [30.0, 26.0, 22.0]
        .into_iter()
        .find(|&size| {
            let font = egui::FontId::proportional(size);
            ui.fonts_mut(|f| f.layout_no_wrap(name.to_string(), font, ACCENT).size().x) <= width
        })
        .unwrap_or(22.0);
    let title = ui.add(
        egui::Label::new(RichText::new(name).size(type_size).strong().color(ACCENT)).truncate(),
    );
    if type_size < 30.0 {
        title.on_hover_text(name);
    }
}

/// The game's starting scene, `side` square, named for screen readers (blank until the
/// worker has drawn it).
fn starting_position(ui: &mut Ui, shared: &Shared, m: &veillee_sdk::Manifest, side: f32) {
    let lang = shared.lang;
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), egui::Sense::hover());
    let spoken = lang.f(S::StartingPosition, &[m.name.get(lang.code())]);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &spoken));
    if let Some(scene) = shared.thumbnails.get(&m.id) {
        super::scene::thumbnail(ui, rect, scene, lang);
    }
}

/// How many play and for how long (the version on hover); built-in or installed, its
/// house rules, where its plugin stands.
fn facts(ui: &mut Ui, lang: Lang, game: &GameInfo) {
    let m = &game.manifest;
    let players = if m.min_players == m.max_players {
        m.min_players.to_string()
    } else {
        format!("{}–{}", m.min_players, m.max_players)
    };
    // How long a game takes, when the game says (ABI 1.11), after the
    // players; it wraps after the dot, never inside "20–40 min".
    let mut line = lang.f(S::Players, &[&players]);
    if let Some(t) = m.play_time {
        let minutes = match t.min == t.max {
            true => t.min.to_string(),
            false => format!("{}–{}", t.min, t.max),
        };
        line = format!("{line} · {}", lang.f(S::PlayTime, &[&minutes]));
    }
    ui.label(line)
        .on_hover_text(lang.f(S::Version, &[&m.version]));
    ui.horizontal_wrapped(|ui| {
        let origin = if game.builtin {
            S::Builtin
        } else {
            S::Installed
        };
        ui.label(RichText::new(lang.t(origin)).small().color(MUTED));
        ui.label(RichText::new("·").color(MUTED));
        let variants = game.variants.iter().filter(|v| v.info.is_ok()).count();
        let text = if variants == 0 {
            lang.t(S::NoVariants).to_string()
        } else {
            lang.f(S::VariantsCount, &[&variants.to_string()])
        };
        ui.label(RichText::new(text).small().color(MUTED));
        ui.label(RichText::new("·").color(MUTED));
        preparation(ui, lang, &game.preparation);
    });
}

/// The description, cut to the lines `left` pixels hold (all of it on hover and on the
/// rules screen), so that every card of a row is the same size.
fn description(ui: &mut Ui, lang: Lang, m: &veillee_sdk::Manifest, left: f32) {
    let description = m.description.get(lang.code());
    let line = ui.text_style_height(&egui::TextStyle::Body);
    let rows = ((left / line).floor() as usize).clamp(1, 12);
    let mut job = egui::text::LayoutJob::simple(
        description.to_string(),
        egui::FontId::proportional(21.0),
        widgets::TEXT,
        ui.available_width(),
    );
    job.wrap.max_rows = rows;
    job.wrap.overflow_character = Some('…');
    let shown = ui.label(job);
    if shown.rect.height() > line * (rows as f32 - 0.5) {
        shown.on_hover_text(description);
    }
}

/// New game, rules, and uninstall for an installed game; screen readers (and tests) hear
/// which game each is for. Returns where a button leads; uninstall fills `confirm`.
fn card_buttons(
    ui: &mut Ui,
    lang: Lang,
    game: &GameInfo,
    confirm: &mut Option<(String, String)>,
) -> Option<Nav> {
    let m = &game.manifest;
    let name = m.name.get(lang.code());
    let mut nav = None;
    ui.horizontal(|ui| {
        let new_game = egui::Button::new(
            RichText::new(lang.t(S::NewGame))
                .strong()
                .color(egui::Color32::from_rgb(0x20, 0x18, 0x08)),
        )
        .fill(ACCENT)
        .min_size(Vec2::new(0.0, 44.0));
        // A game whose plugin is still compiling can be set up already: it starts as
        // soon as its plugin is ready.
        let playable = !matches!(game.preparation, Preparation::Failed(_));
        let response = ui.add_enabled(playable, new_game);
        let spoken = format!("{} — {name}", lang.t(S::NewGame));
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &spoken));
        if response.clicked() {
            nav = Some(Nav::on::<SetupScreen>(Target::Game(m.id.clone())));
        }
        let rules = widgets::button(ui, lang.t(S::Rules));
        let spoken = format!("{} — {name}", lang.t(S::Rules));
        rules.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &spoken));
        if rules.clicked() {
            nav = Some(Nav::on::<RulesScreen>(Target::Game(m.id.clone())));
        }
        if !game.builtin && widgets::danger(ui, lang.t(S::Uninstall)).clicked() {
            *confirm = Some((m.id.clone(), name.to_string()));
        }
    });
    nav
}

/// Where the game's plugin stands, on its card: compiled, compiling (with a spinner), waiting
/// its turn, or why it cannot load (in full under the pointer).
fn preparation(ui: &mut Ui, lang: super::i18n::Lang, state: &Preparation) {
    match state {
        Preparation::Ready => {
            ui.label(RichText::new(lang.t(S::PrepReady)).small().color(GOOD));
        }
        Preparation::Waiting | Preparation::Compiling => {
            ui.add(egui::Spinner::new().size(12.0));
            let text = match state {
                Preparation::Compiling => S::PrepCompiling,
                _ => S::PrepWaiting,
            };
            ui.label(RichText::new(lang.t(text)).small().color(MUTED));
        }
        Preparation::Failed(why) => {
            ui.label(RichText::new(lang.t(S::PrepFailed)).small().color(DANGER))
                .on_hover_text(why);
        }
    }
}

/// The narrowest a game's card gets before a column is dropped.
const CARD_MIN_WIDTH: f32 = 340.0;
/// The shortest a game's card gets (below that, the library scrolls).
const CARD_MIN_HEIGHT: f32 = 250.0;
