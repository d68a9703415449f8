//! Replay: a saved game played again move by move, as a spectator or as one seat saw it
//! (its own hand, its own private texts, nobody else's), from the first move to the last or
//! by itself at a chosen speed. The worker replays the log on a game of its own and sends
//! only what that viewer saw; the session is never changed.

use egui::{RichText, Ui};
use veillee_sdk::Seat;

use super::i18n::{Lang, S};
use super::play::{log_line, outcome_headline};
use super::saved::SavedScreen;
use super::scene::{self, SceneView};
use super::screen::{Nav, Screen, Shared, Target};
use super::widgets::{self, ACCENT, MUTED};
use super::worker::{seat_name, ReplayData, Reply, Request};
use veillee_runtime::session::repeats_label;

/// Autoplay speeds, in moves per second.
pub const SPEEDS: [f32; 4] = [0.5, 1.0, 2.0, 4.0];

/// The replay screen.
pub struct ReplayScreen {
    /// The session replayed.
    pub id: u64,
    /// Whose view (`None`: a spectator's).
    pub viewer: Option<Seat>,
    /// The moves as the viewer saw them, once the worker has replayed them.
    pub data: Option<ReplayData>,
    /// Moves shown so far: 0 is the start, `n` the position after move `n`.
    pub step: usize,
    /// Whether the moves play by themselves.
    pub autoplay: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    next_due: Option<f64>,
    error: Option<veillee_sdk::Text>,
    scene: SceneView,
}

impl Default for ReplayScreen {
    /// No replay yet, at the usual speed.
    fn default() -> Self {
        ReplayScreen {
            id: 0,
            viewer: None,
            data: None,
            step: 0,
            autoplay: false,
            speed: 1,
            next_due: None,
            error: None,
            scene: SceneView::default(),
        }
    }
}

impl ReplayScreen {
    /// Asks the worker for session `id` as a spectator sees it.
    pub fn for_session(shared: &mut Shared, id: u64) -> ReplayScreen {
        shared.worker.send(Request::Replay { id, viewer: None });
        ReplayScreen {
            id,
            ..ReplayScreen::default()
        }
    }

    /// The worker's replay (or why there is none).
    pub fn on_replay(&mut self, result: Result<Box<ReplayData>, veillee_sdk::Text>) {
        match result {
            Ok(data) if data.meta.id == self.id && data.seen.viewer == self.viewer => {
                // Where the replay stood (another viewer, a start at a given move) is kept.
                self.step = self.step.min(data.seen.moves.len());
                self.data = Some(*data);
                self.error = None;
            }
            Ok(_) => {}
            Err(e) => self.error = Some(e),
        }
    }

    /// How many moves the game has (0 until it is loaded).
    pub fn moves(&self) -> usize {
        self.data.as_ref().map_or(0, |d| d.seen.moves.len())
    }

    fn watch_as(&mut self, shared: &mut Shared, viewer: Option<Seat>) {
        if viewer == self.viewer {
            return;
        }
        self.viewer = viewer;
        self.data = None;
        shared.worker.send(Request::Replay {
            id: self.id,
            viewer,
        });
    }

    /// The scene after the moves shown so far.
    fn scene_at<'a>(&self, data: &'a ReplayData) -> &'a veillee_sdk::Scene {
        match self.step {
            0 => &data.seen.start,
            n => &data.seen.moves[(n - 1).min(data.seen.moves.len().saturating_sub(1))].scene,
        }
    }
}

impl Screen for ReplayScreen {
    fn whole_window(&self) -> bool {
        true
    }

    fn open(&mut self, shared: &mut Shared, target: Target) -> bool {
        let (id, step) = match target {
            Target::Session(id) => (id, 0),
            Target::SessionAt(id, step) => (id, step),
            Target::Nothing | Target::Game(_) => return false,
        };
        *self = ReplayScreen::for_session(shared, id);
        self.step = step;
        true
    }

    fn reply(&mut self, _shared: &mut Shared, reply: Reply) -> Option<Reply> {
        match reply {
            Reply::Replay(result) => self.on_replay(result),
            other => return Some(other),
        }
        None
    }

    /// Draws the screen: the toolbar, then (once the worker has replayed the game) the step
    /// controls, the side panel and the board.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        let total = self.moves();
        self.keys(ui, total);
        let nav = self.toolbar(ui, shared);
        let Some(data) = self.data.clone() else {
            return self.waiting(ui, lang).or(nav);
        };
        self.autoplay_tick(ui, total);
        self.step_controls(ui, lang, total);
        self.side_panel(ui, lang, &data, total);
        self.board(ui, shared, &data);
        nav
    }
}

/// The replay screen's parts, top to bottom: the keys, the toolbar and its viewer picker,
/// the step controls, the side panel (where the game stands, the scores, the log), the board.
impl ReplayScreen {
    /// Shows move `step` (at most the last), and waits a whole period before autoplay goes on.
    fn go_to(&mut self, step: usize, total: usize) {
        self.step = step.min(total);
        self.next_due = None;
    }

    /// Keyboard: ← → step, Home / End, space plays or pauses.
    fn keys(&mut self, ui: &mut Ui, total: usize) {
        let (left, right, home, end, space) = ui.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowLeft),
                i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowRight),
                i.consume_key(egui::Modifiers::NONE, egui::Key::Home),
                i.consume_key(egui::Modifiers::NONE, egui::Key::End),
                i.consume_key(egui::Modifiers::NONE, egui::Key::Space),
            )
        });
        if left {
            self.go_to(self.step.saturating_sub(1), total);
        }
        if right {
            self.go_to(self.step + 1, total);
        }
        if home {
            self.go_to(0, total);
        }
        if end {
            self.go_to(total, total);
        }
        if space {
            self.autoplay = !self.autoplay;
        }
    }

    /// The bar above: back, the game's name and number, whose view is shown.
    fn toolbar(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        let mut nav = None;
        egui::Panel::top("replay-bar")
            .frame(widgets::panel_frame(10))
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    if widgets::button(ui, lang.t(S::Back)).clicked() {
                        nav = Some(Nav::to::<SavedScreen>());
                    }
                    let name = self
                        .data
                        .as_ref()
                        .map(|d| d.manifest.name.get(lang.code()).to_string())
                        .unwrap_or_default();
                    ui.label(
                        RichText::new(lang.f(S::ReplayOf, &[&name, &self.id.to_string()]))
                            .size(26.0)
                            .strong()
                            .color(ACCENT),
                    );
                    self.viewer_picker(ui, shared);
                });
            });
        nav
    }

    /// "Watch as": the spectator or one of the seats; a click asks the worker for that view.
    fn viewer_picker(&mut self, ui: &mut Ui, shared: &mut Shared) {
        let lang = shared.lang;
        ui.label(RichText::new(lang.t(S::WatchAs)).color(MUTED));
        let seats: Vec<String> = self
            .data
            .as_ref()
            .map(|d| d.meta.seats.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default();
        let choices = std::iter::once((None, lang.t(S::Spectator))).chain(
            seats
                .iter()
                .enumerate()
                .map(|(s, n)| (Some(s as Seat), &n[..])),
        );
        for (viewer, name) in choices {
            let button = ui.selectable_label(self.viewer == viewer, name);
            // Screen readers (and tests) hear what the button is for.
            let spoken = lang.f(S::AsSeenBy, &[name]);
            button.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::Button, true, self.viewer == viewer, &spoken)
            });
            if button.clicked() {
                self.watch_as(shared, viewer);
            }
        }
    }

    /// Until the replay is there: why it failed (with a way back), or that it is coming.
    fn waiting(&self, ui: &mut Ui, lang: Lang) -> Option<Nav> {
        let mut nav = None;
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(error) = &self.error {
                if widgets::error_panel(
                    ui,
                    lang.t(S::ReplayFailed),
                    error.get(lang.code()),
                    lang.t(S::Back),
                ) {
                    nav = Some(Nav::to::<SavedScreen>());
                }
            } else {
                widgets::busy(ui, lang.t(S::ReplayLoading));
            }
        });
        nav
    }

    /// Autoplay: one move per period, stopping at the end.
    fn autoplay_tick(&mut self, ui: &mut Ui, total: usize) {
        if !self.autoplay {
            self.next_due = None;
            return;
        }
        let now = ui.input(|i| i.time);
        let period = 1.0 / f64::from(SPEEDS[self.speed]);
        let due = *self.next_due.get_or_insert(now + period);
        if self.step >= total {
            self.autoplay = false;
            self.next_due = None;
        } else if now >= due {
            self.step += 1;
            self.next_due = Some(now + period);
        } else {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(due - now));
        }
    }

    /// The bar below: the step buttons, play or pause and the speed, which move this is.
    fn step_controls(&mut self, ui: &mut Ui, lang: Lang, total: usize) {
        egui::Panel::bottom("replay-controls")
            .frame(widgets::panel_frame(10))
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    self.step_buttons(ui, lang, total);
                    ui.separator();
                    self.play_and_speed(ui, lang, total);
                    ui.separator();
                    let shown = lang.f(S::MoveOf, &[&self.step.to_string(), &total.to_string()]);
                    ui.label(RichText::new(shown).strong());
                });
            });
    }

    /// First, back, forward, last; each stops autoplay.
    fn step_buttons(&mut self, ui: &mut Ui, lang: Lang, total: usize) {
        let step = self.step;
        // Arrows every font has (the media symbols ⏮ ⏭ are missing from many).
        let controls = [
            (S::ReplayFirst, "«", step > 0, 0),
            (S::ReplayBack, "‹", step > 0, step.saturating_sub(1)),
            (S::ReplayForward, "›", step < total, step + 1),
            (S::ReplayLast, "»", step < total, total),
        ];
        for (label, icon, enabled, to) in controls {
            let button = egui::Button::new(format!("{icon} {}", lang.t(label)))
                .min_size(egui::vec2(0.0, 44.0));
            if ui.add_enabled(enabled, button).clicked() {
                self.step = to;
                self.autoplay = false;
            }
        }
    }

    /// Play or pause (playing from the end starts again from the first move), and the speed.
    fn play_and_speed(&mut self, ui: &mut Ui, lang: Lang, total: usize) {
        let play = if self.autoplay {
            lang.t(S::Pause)
        } else {
            lang.t(S::Autoplay)
        };
        if widgets::primary(ui, play).clicked() {
            self.autoplay = !self.autoplay;
            if self.autoplay && self.step >= total {
                self.step = 0;
            }
        }
        ui.label(RichText::new(lang.t(S::Speed)).color(MUTED));
        for (i, speed) in SPEEDS.iter().enumerate() {
            let text = format!("{speed}×");
            if ui.selectable_label(self.speed == i, text).clicked() {
                self.speed = i;
                self.next_due = None;
            }
        }
    }

    /// The panel on the right: the scene's message, the outcome at the last move, the
    /// scores, the log so far.
    fn side_panel(&self, ui: &mut Ui, lang: Lang, data: &ReplayData, total: usize) {
        let side = widgets::side_width(ui.ctx());
        egui::Panel::right("replay-side")
            .exact_size(side)
            .frame(widgets::panel_frame(16))
            .show(ui, |ui| {
                let scene = self.scene_at(data);
                ui.label(RichText::new(scene.message.get(lang.code())).size(22.0));
                if self.step == total {
                    if let Some(outcome) = data.seen.status.outcome() {
                        let headline = outcome_headline(lang, &data.meta, outcome);
                        ui.label(RichText::new(headline).size(24.0).strong().color(ACCENT));
                    }
                }
                ui.separator();
                scene::scores_ui(ui, scene, lang, |s| {
                    let dot = data
                        .manifest
                        .seats
                        .get(s as usize)
                        .map_or(MUTED, |info| widgets::colour(info.colour));
                    (seat_name(&data.meta, s), dot)
                });
                ui.separator();
                log(ui, lang, data, self.step);
            });
    }

    /// The board as it stood after the moves shown, the last move lit.
    fn board(&mut self, ui: &mut Ui, shared: &Shared, data: &ReplayData) {
        let lang = shared.lang;
        egui::CentralPanel::default().show(ui, |ui| {
            self.scene.motion.pace = shared.assist.pace();
            let scene = self.scene_at(data).clone();
            let help = scene::Help {
                targets: false,
                last_move: true,
            };
            self.scene.ui(ui, &scene, &[], lang, help, data.seen.viewer);
        });
    }
}

/// The log of the first `step` moves, each with what it caused (unless it only repeats the
/// move's own words), kept scrolled to the latest.
fn log(ui: &mut Ui, lang: Lang, data: &ReplayData, step: usize) {
    ui.label(RichText::new(lang.t(S::Log)).strong().color(MUTED));
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for seen in &data.seen.moves[..step] {
                let who = seat_name(&data.meta, seen.seat);
                log_line(ui, lang, &who, &seen.text);
                for event in seen.events.iter().filter(|e| !repeats_label(e, &seen.text)) {
                    log_line(ui, lang, "", event);
                }
            }
        });
}
