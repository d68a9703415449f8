//! Play: the scene, the moves by clicks, bots after a short pause, undo/redo with the reveal
//! rule, the hot-seat handoff, the log, and the end of the game.

use egui::{RichText, Ui};
use veillee_sdk::{Seat, Status};

use super::app::{Nav, Shared};
use super::i18n::S;
use super::scene::{self, SceneView};
use super::widgets::{self, colour, Answer, ACCENT, MUTED};
use super::worker::{seat_name, Assist, GameView, LogLine, Request};
use veillee_runtime::store::model::PlayerKind;
use veillee_runtime::variants::library::ScriptSource;

/// How long a bot "thinks" before its move is played, so that people see it coming.
pub const BOT_PAUSE_SECONDS: f64 = 0.8;

/// The play screen.
#[derive(Default)]
pub struct PlayScreen {
    /// The game as it stands (none while it is being started or resumed).
    pub view: Option<GameView>,
    log: Vec<LogLine>,
    scene: SceneView,
    /// A full-window "pass to" screen is up for this seat.
    handoff: Option<Seat>,
    /// The seat whose view was last shown.
    shown_viewer: Option<Seat>,
    bot_due: Option<f64>,
    /// An undo waits for the table's agreement to take back these reveals.
    reveal: Option<Vec<veillee_sdk::Text>>,
    error: Option<String>,
    waiting: bool,
    /// This game's assisted mode (starts from the settings' defaults).
    assist: Option<Assist>,
    /// A move waiting for "Play it?" (assisted mode): (seat, action id, its label).
    confirm: Option<(Seat, String, veillee_sdk::Text)>,
}

impl PlayScreen {
    /// A game is being started or resumed: wait for it.
    pub fn expect_game(&mut self) {
        *self = PlayScreen {
            waiting: true,
            assist: self.assist,
            ..PlayScreen::default()
        };
    }

    /// The game as the worker sees it now.
    pub fn on_game(&mut self, view: GameView) {
        if view.fresh {
            self.log.clear();
            self.shown_viewer = None;
        }
        self.log.extend(view.log.iter().cloned());
        self.scene.reset();
        self.waiting = false;
        self.bot_due = None;
        self.reveal = None;
        self.confirm = None;
        let humans = view
            .meta
            .seats
            .iter()
            .filter(|p| p.kind == PlayerKind::Human)
            .count();
        let finished = matches!(view.status, Status::Finished { .. });
        self.handoff = None;
        if view.manifest.hidden_information && humans >= 2 && !finished {
            if let Some(viewer) = view.viewer {
                if self.shown_viewer != Some(viewer) {
                    self.handoff = Some(viewer);
                }
            }
        }
        if self.handoff.is_none() {
            self.shown_viewer = view.viewer;
        }
        self.view = Some(view);
    }

    /// A game call failed (the session stays as saved).
    pub fn on_error(&mut self, message: String) {
        self.waiting = false;
        self.error = Some(message);
    }

    /// Undo needs everyone's agreement.
    pub fn on_reveal(&mut self, reveals: Vec<veillee_sdk::Text>) {
        self.waiting = false;
        self.reveal = Some(reveals);
    }

    /// Whether a hand-off screen hides the board.
    pub fn handoff(&self) -> Option<Seat> {
        self.handoff
    }

    fn send(&mut self, shared: &mut Shared, request: Request) {
        self.waiting = true;
        shared.worker.send(request);
    }

    /// Draws the screen.
    pub fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        let code = lang.code();
        let mut nav = None;
        let assist = *self.assist.get_or_insert(shared.assist);
        let Some(view) = self.view.clone() else {
            ui.centered_and_justified(|ui| widgets::busy(ui, lang.t(S::Working)));
            if let Some(error) = self.error.clone() {
                if widgets::error_panel(ui, lang.t(S::GameFailed), &error, lang.t(S::BackToLibrary))
                {
                    self.error = None;
                    return Some(Nav::Library);
                }
            }
            return None;
        };
        let finished = view.status.outcome().cloned();
        let can_undo = view.can_undo && !self.waiting && self.handoff.is_none();
        let can_redo = view.can_redo && !self.waiting && self.handoff.is_none();

        // Keyboard: Ctrl+Z / Ctrl+Y (also Ctrl+Shift+Z).
        let (undo_key, redo_key) = ui.input_mut(|i| {
            let undo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z);
            let redo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y)
                || i.consume_key(
                    egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                    egui::Key::Z,
                );
            (undo, redo)
        });

        egui::Panel::top("play-bar")
            .frame(
                egui::Frame::new()
                    .fill(widgets::PANEL)
                    .inner_margin(egui::Margin::same(10)),
            )
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    if widgets::button(ui, lang.t(S::Back)).clicked() {
                        nav = Some(Nav::Library);
                    }
                    ui.label(
                        RichText::new(view.manifest.name.get(code))
                            .size(28.0)
                            .strong()
                            .color(ACCENT),
                    );
                    ui.label(
                        RichText::new(lang.f(S::Saved, &[&view.meta.id.to_string()]))
                            .small()
                            .color(MUTED),
                    );
                    if !view.house_rules.is_empty() {
                        let names: Vec<&str> = view
                            .house_rules
                            .iter()
                            .map(|n| n.get(lang.code()))
                            .collect();
                        ui.label(
                            RichText::new(lang.f(S::HouseRules, &[&names.join(", ")]))
                                .small()
                                .color(MUTED),
                        );
                    }
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if widgets::button(ui, lang.t(S::Rules)).clicked() {
                            nav = Some(Nav::Rules(view.manifest.id.clone()));
                        }
                        ui.menu_button(lang.t(S::AssistShort), |ui| {
                            if let Some(assist) = &mut self.assist {
                                super::settings::assist_checkboxes(ui, lang, assist);
                            }
                        });
                        if ui
                            .add_enabled(
                                can_redo,
                                egui::Button::new(lang.t(S::Redo)).min_size(egui::vec2(0.0, 40.0)),
                            )
                            .on_hover_text("Ctrl+Y")
                            .clicked()
                        {
                            self.send(shared, Request::Redo);
                        }
                        if ui
                            .add_enabled(
                                can_undo,
                                egui::Button::new(lang.t(S::Undo)).min_size(egui::vec2(0.0, 40.0)),
                            )
                            .on_hover_text("Ctrl+Z")
                            .clicked()
                        {
                            self.send(shared, Request::Undo { agreed: false });
                        }
                    });
                });
            });
        if undo_key && can_undo {
            self.send(shared, Request::Undo { agreed: false });
        }
        if redo_key && can_redo {
            self.send(shared, Request::Redo);
        }

        // The hand-off screen hides everything of the game.
        if let Some(seat) = self.handoff {
            let name = seat_name(&view.meta, seat);
            egui::CentralPanel::default().show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() * 0.3);
                    ui.label(
                        RichText::new(lang.f(S::PassTo, &[&name]))
                            .size(48.0)
                            .strong()
                            .color(ACCENT),
                    );
                    ui.add_space(12.0);
                    ui.label(RichText::new(lang.t(S::HiddenNote)).color(MUTED));
                    ui.add_space(24.0);
                    if widgets::primary(ui, lang.t(S::ClickWhenReady)).clicked() {
                        self.handoff = None;
                        self.shown_viewer = Some(seat);
                    }
                });
            });
            return nav;
        }

        let mut chosen = None;
        let side = (ui.ctx().content_rect().width() * 0.27).clamp(320.0, 440.0);
        egui::Panel::right("play-side")
            .exact_size(side)
            .frame(
                egui::Frame::new()
                    .fill(widgets::PANEL)
                    .inner_margin(egui::Margin::same(16)),
            )
            .show(ui, |ui| {
                // The decisions and scores scroll on their own when the window is small
                // (a TV-sized interface scale); the log keeps the rest of the height.
                let top_h = ui.available_height() * 0.78;
                egui::ScrollArea::vertical()
                    .id_salt("side-top")
                    .max_height(top_h)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        if let Some(outcome) = &finished {
                            ui.label(
                                RichText::new(lang.t(S::GameOver))
                                    .size(30.0)
                                    .strong()
                                    .color(ACCENT),
                            );
                            let winners: Vec<String> = outcome
                                .winners
                                .iter()
                                .map(|&w| seat_name(&view.meta, w))
                                .collect();
                            let headline = if winners.is_empty() {
                                lang.t(S::Draw).to_string()
                            } else {
                                lang.f(S::Winner, &[&winners.join(", ")])
                            };
                            ui.label(RichText::new(headline).size(26.0).strong());
                            ui.label(outcome.reason.get(code));
                            if !outcome.scores.is_empty() {
                                egui::Grid::new("final-scores").show(ui, |ui| {
                                    for (seat, score) in outcome.scores.iter().enumerate() {
                                        ui.label(seat_name(&view.meta, seat as Seat));
                                        ui.label(RichText::new(score.to_string()).strong());
                                        ui.end_row();
                                    }
                                });
                            }
                            ui.add_space(8.0);
                            ui.horizontal(|ui| {
                                if widgets::primary(ui, lang.t(S::PlayAgain)).clicked() {
                                    let mut setup = view.meta.setup.clone();
                                    setup.seed = super::setup::clock_seed();
                                    let variants = view
                                        .meta
                                        .variants
                                        .iter()
                                        .map(|v| ScriptSource {
                                            origin: format!("session:{}", v.file),
                                            file: v.file.clone(),
                                            text: v.text.clone(),
                                        })
                                        .collect();
                                    shared.worker.send(Request::Start {
                                        game: view.meta.game.clone(),
                                        seats: view.meta.seats.clone(),
                                        setup,
                                        variants,
                                        phones: view.meta.phones.clone(),
                                    });
                                    self.expect_game();
                                }
                                if widgets::button(ui, lang.t(S::BackToLibrary)).clicked() {
                                    nav = Some(Nav::Library);
                                }
                            });
                            ui.separator();
                        } else {
                            ui.label(RichText::new(view.scene.message.get(code)).size(24.0));
                            if let Some(seat) = view.actor {
                                let dot = view
                                    .manifest
                                    .seats
                                    .get(seat as usize)
                                    .map_or(ACCENT, |s| colour(s.colour));
                                ui.horizontal(|ui| {
                                    widgets::seat_dot(ui, dot, 22.0);
                                    ui.label(
                                        RichText::new(
                                            lang.f(S::YourTurn, &[&seat_name(&view.meta, seat)]),
                                        )
                                        .size(26.0)
                                        .strong()
                                        .color(ACCENT),
                                    );
                                });
                            } else if let Some(bot) = view.bot {
                                widgets::busy(
                                    ui,
                                    &lang.f(S::BotThinking, &[&seat_name(&view.meta, bot)]),
                                );
                            } else if view.room.is_some() {
                                let names: Vec<String> = view
                                    .status
                                    .seats()
                                    .iter()
                                    .map(|&s| seat_name(&view.meta, s))
                                    .collect();
                                super::room::waiting_ui(ui, &names, lang);
                            }
                            if !self.waiting {
                                chosen =
                                    scene::action_buttons(ui, &mut self.scene, &view.actions, lang);
                            } else {
                                widgets::busy(ui, lang.t(S::Working));
                            }
                            ui.separator();
                        }
                        if let Some(error) = self.error.clone() {
                            let detail = format!("{error}\n{}", lang.t(S::SessionKept));
                            if widgets::error_panel(
                                ui,
                                lang.t(S::GameFailed),
                                &detail,
                                lang.t(S::Dismiss),
                            ) {
                                self.error = None;
                            }
                        }
                        if let Some(room) = &view.room {
                            if let Some(seat) = super::room::room_ui(ui, room, lang) {
                                self.send(shared, Request::HandOver(seat));
                            }
                            ui.separator();
                        }
                        scene::scores_ui(ui, &view.scene, lang, |s| {
                            let dot = view
                                .manifest
                                .seats
                                .get(s as usize)
                                .map_or(MUTED, |info| colour(info.colour));
                            (seat_name(&view.meta, s), dot)
                        });
                    });
                ui.separator();
                ui.label(RichText::new(lang.t(S::Log)).strong().color(MUTED));
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        for line in &self.log {
                            let text = line.text_for(view.viewer).get(code);
                            if line.who.is_empty() {
                                ui.label(RichText::new(text).color(MUTED));
                            } else {
                                ui.label(format!("{} : {text}", line.who));
                            }
                        }
                    });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let actions = if self.waiting || finished.is_some() {
                &[][..]
            } else {
                &view.actions[..]
            };
            let help = scene::Help {
                targets: assist.show_targets,
                last_move: assist.show_last_move,
            };
            if let Some(id) = self
                .scene
                .ui(ui, &view.scene, actions, lang, help, view.viewer)
            {
                chosen = Some(id);
            }
        });
        if let (Some(id), Some(seat)) = (chosen, view.actor) {
            if assist.confirm_moves {
                let label = view.actions.iter().find(|a| a.id == id).map_or_else(
                    || veillee_sdk::Text::same(&id),
                    |a| a.label_for(seat, Some(seat)).clone(),
                );
                self.confirm = Some((seat, id, label));
            } else {
                self.send(shared, Request::Act { seat, action: id });
            }
        }
        if let Some((seat, id, label)) = self.confirm.clone() {
            let body = lang.f(S::PlayThis, &[label.get(code)]);
            match widgets::ask(
                ui.ctx(),
                "confirm-move",
                &body,
                lang.t(S::PlayIt),
                lang.t(S::Cancel),
                false,
            ) {
                Answer::Yes => {
                    self.confirm = None;
                    self.send(shared, Request::Act { seat, action: id });
                }
                Answer::No => self.confirm = None,
                Answer::Open => {}
            }
        }

        // Bots: a short visible pause, then the worker plays. Not while an error is shown: a
        // bot whose move failed would otherwise fail again every pause, for ever.
        if view.bot.is_some()
            && !self.waiting
            && self.reveal.is_none()
            && finished.is_none()
            && self.error.is_none()
        {
            let now = ui.input(|i| i.time);
            let due = *self.bot_due.get_or_insert(now + BOT_PAUSE_SECONDS);
            if now >= due {
                self.bot_due = None;
                self.send(shared, Request::Bot);
            } else {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_secs_f64(due - now));
            }
        }

        if let Some(reveals) = self.reveal.clone() {
            let body = format!(
                "{}\n\n• {}\n\n{}",
                lang.t(S::RevealBody),
                reveals
                    .iter()
                    .map(|t| t.get(code))
                    .collect::<Vec<_>>()
                    .join("\n• "),
                lang.t(S::RevealAsk)
            );
            match widgets::confirm(
                ui.ctx(),
                "reveal",
                &body,
                lang.t(S::Agree),
                lang.t(S::Cancel),
            ) {
                Answer::Yes => {
                    self.reveal = None;
                    self.send(shared, Request::Undo { agreed: true });
                }
                Answer::No => self.reveal = None,
                Answer::Open => {}
            }
        }
        nav
    }
}
