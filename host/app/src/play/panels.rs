//! The play screen's panels: the bar above, the side panel (where the game stands, the
//! decisions, the room, the scores), the log, and the board.

use egui::{RichText, Ui};
use veillee_sdk::{Outcome, Seat};

use super::{PlayScreen, LOG_LINES_SHOWN};
use crate::i18n::{Lang, S};
use crate::library::LibraryScreen;
use crate::replay::ReplayScreen;
use crate::rules::RulesScreen;
use crate::scene;
use crate::screen::{Nav, Shared, Target};
use crate::widgets::{self, colour, ACCENT, MUTED};
use crate::worker::{seat_name, Assist, Consent, GameView, Request};
use veillee_runtime::store::model::SessionMeta;
use veillee_runtime::variants::library::ScriptSource;

impl PlayScreen {
    /// The bar above the game: back, the game's name and notes, undo, redo (also Ctrl+Z,
    /// Ctrl+Y and Ctrl+Shift+Z), the assisted mode and the rules.
    pub(super) fn bar(&mut self, ui: &mut Ui, shared: &mut Shared, view: &GameView) -> Option<Nav> {
        let lang = shared.lang;
        let mut nav = None;
        let can_undo = view.can_undo && !self.waiting && self.handoff.is_none();
        let can_redo = view.can_redo && !self.waiting && self.handoff.is_none();
        let (undo_key, redo_key) = ui.input_mut(|i| {
            let undo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z);
            let redo = i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y)
                || i.consume_key(
                    egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
                    egui::Key::Z,
                );
            (undo, redo)
        });
        let mut undo_clicked = undo_key && can_undo;
        egui::Panel::top("play-bar")
            .frame(widgets::panel_frame(10))
            .show(ui, |ui| {
                // The buttons on the right first; the game's name and notes take what is
                // left, cut short rather than drawn under the buttons.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if widgets::button(ui, lang.t(S::Rules)).clicked() {
                        let game = Target::Game(view.manifest.id.clone());
                        nav = Some(Nav::on::<RulesScreen>(game));
                    }
                    ui.menu_button(lang.t(S::AssistShort), |ui| {
                        if let Some(assist) = &mut self.assist {
                            crate::settings::assist_checkboxes(ui, lang, assist);
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
                        undo_clicked = true;
                    }
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        if widgets::button(ui, lang.t(S::Back)).clicked() {
                            nav = Some(Nav::to::<LibraryScreen>());
                        }
                        game_title(ui, lang, view);
                    });
                });
            });
        if undo_clicked {
            // The table says whose consent it needs (another player's move, a reveal).
            let consent = Consent::NotAsked;
            self.send(shared, Request::Undo { consent });
        }
        if redo_key && can_redo {
            self.send(shared, Request::Redo);
        }
        nav
    }

    /// The panel beside the board: where the game stands and the decisions to take (or the
    /// result before a hand-off, or the end of the game), an error, the room, the scores,
    /// then the log. Where to go, and a decision taken with its buttons.
    pub(super) fn side_panel(
        &mut self,
        ui: &mut Ui,
        shared: &mut Shared,
        view: &GameView,
        finished: Option<&Outcome>,
        now: f64,
    ) -> (Option<Nav>, Option<String>) {
        let lang = shared.lang;
        let mut nav = None;
        let mut chosen = None;
        let side = widgets::side_width(ui.ctx());
        egui::Panel::right("play-side")
            .exact_size(side)
            .frame(widgets::panel_frame(16))
            .show(ui, |ui| {
                // The decisions and scores scroll on their own when the window is small
                // (a TV-sized interface scale); the log keeps the rest of the height.
                let short = widgets::short_window(ui.ctx());
                let top_h = ui.available_height() * if short { 0.84 } else { 0.78 };
                egui::ScrollArea::vertical()
                    .id_salt("side-top")
                    .max_height(top_h)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        if let Some(seat) = self.showing_result() {
                            self.result_note(ui, lang, view, seat);
                        } else if let Some(outcome) = finished {
                            nav = self.game_over(ui, shared, view, outcome);
                        } else {
                            chosen = self.turn(ui, lang, view, short);
                        }
                        self.error_note(ui, lang);
                        if let Some(room) = &view.room {
                            if let Some(seat) = crate::room::room_ui(ui, room, lang) {
                                self.send(shared, Request::HandOver(seat));
                            }
                            ui.separator();
                        }
                        scores(ui, lang, view);
                    });
                ui.separator();
                self.log_ui(ui, lang, view.viewer, now);
            });
        (nav, chosen)
    }

    /// Before a hand-off: whose result this is, who is next, and "Done".
    fn result_note(&mut self, ui: &mut Ui, lang: Lang, view: &GameView, seat: Seat) {
        let next = self.handoff.map(|s| seat_name(&view.meta, s));
        ui.label(
            RichText::new(lang.f(S::ResultFor, &[&seat_name(&view.meta, seat)]))
                .size(24.0)
                .strong()
                .color(ACCENT),
        );
        ui.label(lang.f(S::NextIs, &[&next.unwrap_or_default()]));
        if widgets::primary(ui, lang.t(S::Done)).clicked() {
            self.result = None;
        }
        ui.separator();
    }

    /// The end of the game: who won, why, the scores, and play again, watch it again, or
    /// back to the library.
    fn game_over(
        &mut self,
        ui: &mut Ui,
        shared: &mut Shared,
        view: &GameView,
        outcome: &Outcome,
    ) -> Option<Nav> {
        let lang = shared.lang;
        let mut nav = None;
        ui.label(
            RichText::new(lang.t(S::GameOver))
                .size(30.0)
                .strong()
                .color(ACCENT),
        );
        let headline = outcome_headline(lang, &view.meta, outcome);
        ui.label(RichText::new(headline).size(26.0).strong());
        ui.label(outcome.reason.get(lang.code()));
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
        ui.horizontal_wrapped(|ui| {
            if widgets::primary(ui, lang.t(S::PlayAgain)).clicked() {
                shared.worker.send(play_again(&view.meta));
                self.expect_game();
            }
            if widgets::button(ui, lang.t(S::WatchReplay)).clicked() {
                nav = Some(Nav::on::<ReplayScreen>(Target::Session(view.meta.id)));
            }
            if widgets::button(ui, lang.t(S::BackToLibrary)).clicked() {
                nav = Some(Nav::to::<LibraryScreen>());
            }
        });
        ui.separator();
        nav
    }

    /// The game going on: its message, whose turn it is (a human's, a bot thinking, phones
    /// awaited), and the decisions as buttons; the one clicked.
    fn turn(&mut self, ui: &mut Ui, lang: Lang, view: &GameView, short: bool) -> Option<String> {
        // Smaller on a short window (1024×600), where the scores must fit under it.
        let (message, turn) = if short { (18.0, 21.0) } else { (24.0, 26.0) };
        ui.label(RichText::new(view.scene.message.get(lang.code())).size(message));
        if let Some(seat) = view.actor {
            let dot = view
                .manifest
                .seats
                .get(seat as usize)
                .map_or(ACCENT, |s| colour(s.colour));
            ui.horizontal(|ui| {
                widgets::seat_dot(ui, dot, 22.0);
                // Wrapped: a long name must not push the panel past the window's edge.
                ui.add(
                    egui::Label::new(
                        RichText::new(lang.f(S::YourTurn, &[&seat_name(&view.meta, seat)]))
                            .size(turn)
                            .strong()
                            .color(ACCENT),
                    )
                    .wrap(),
                );
            });
        } else if let Some(bot) = view.bot {
            widgets::busy(ui, &lang.f(S::BotThinking, &[&seat_name(&view.meta, bot)]));
        } else if view.room.is_some() {
            let names: Vec<String> = view
                .status
                .seats()
                .iter()
                .map(|&s| seat_name(&view.meta, s))
                .collect();
            crate::room::waiting_ui(ui, &names, lang);
        }
        let chosen = if !self.waiting {
            scene::action_buttons(ui, &mut self.scene, &view.actions, lang)
        } else {
            widgets::busy(ui, lang.t(S::Working));
            None
        };
        ui.separator();
        chosen
    }

    /// A game call that failed, until dismissed (the session stays as saved).
    fn error_note(&mut self, ui: &mut Ui, lang: Lang) {
        if let Some(error) = &self.error {
            let detail = format!("{}\n{}", error.get(lang.code()), lang.t(S::SessionKept));
            if widgets::error_panel(ui, lang.t(S::GameFailed), &detail, lang.t(S::Dismiss)) {
                self.error = None;
            }
        }
    }

    /// The log's latest lines that are due, as `viewer` reads them.
    fn log_ui(&self, ui: &mut Ui, lang: Lang, viewer: Option<Seat>, now: f64) {
        ui.label(RichText::new(lang.t(S::Log)).strong().color(MUTED));
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .show(ui, |ui| {
                // The latest lines: a long game's whole log would be laid out every frame
                // (the replay shows every move).
                let from = self.log.len().saturating_sub(LOG_LINES_SHOWN);
                for (line, &at) in self.log.iter().zip(&self.log_at).skip(from) {
                    if at <= now {
                        log_line(ui, lang, &line.who, line.text_for(viewer));
                    }
                }
            });
    }

    /// The board, whose clicks are moves when there is one to play; the move clicked.
    pub(super) fn board(
        &mut self,
        ui: &mut Ui,
        lang: Lang,
        view: &GameView,
        finished: bool,
        assist: Assist,
    ) -> Option<String> {
        egui::CentralPanel::default()
            .show(ui, |ui| {
                let actions = if self.waiting || finished {
                    &[][..]
                } else {
                    &view.actions[..]
                };
                let help = scene::Help {
                    targets: assist.show_targets,
                    last_move: assist.show_last_move,
                };
                self.scene
                    .ui(ui, &view.scene, actions, lang, help, view.viewer)
            })
            .inner
    }
}

/// The game's name, then the session's number and the house rules in play, cut short when
/// the bar is narrow.
fn game_title(ui: &mut Ui, lang: Lang, view: &GameView) {
    let code = lang.code();
    ui.add(
        egui::Label::new(
            RichText::new(view.manifest.name.get(code))
                .size(28.0)
                .strong()
                .color(ACCENT),
        )
        .truncate(),
    );
    let mut note = lang.f(S::Saved, &[&view.meta.id.to_string()]);
    if !view.house_rules.is_empty() {
        let names: Vec<&str> = view.house_rules.iter().map(|n| n.get(code)).collect();
        note.push_str(" · ");
        note.push_str(&lang.f(S::HouseRules, &[&names.join(", ")]));
    }
    ui.add(egui::Label::new(RichText::new(note).small().color(MUTED)).truncate());
}

/// The same game again, with the same players, options and house rules, and a new seed.
fn play_again(meta: &SessionMeta) -> Request {
    let mut setup = meta.setup.clone();
    setup.seed = crate::setup::clock_seed();
    let variants = meta
        .variants
        .iter()
        .map(|v| ScriptSource {
            origin: format!("session:{}", v.file),
            file: v.file.clone(),
            text: v.text.clone(),
        })
        .collect();
    Request::Start {
        game: meta.game.clone(),
        seats: meta.seats.clone(),
        setup,
        variants,
        phones: meta.phones.clone(),
    }
}

/// The scene's scores, each seat with its name and colour.
fn scores(ui: &mut Ui, lang: Lang, view: &GameView) {
    scene::scores_ui(ui, &view.scene, lang, |s| {
        let dot = view
            .manifest
            .seats
            .get(s as usize)
            .map_or(MUTED, |info| colour(info.colour));
        (seat_name(&view.meta, s), dot)
    });
}

/// One line of a game's log: who, then what, as each language writes it ("Ana : …",
/// "Ana: …"); the launcher's own notes in a quieter colour.
pub fn log_line(ui: &mut Ui, lang: Lang, who: &str, text: &veillee_sdk::Text) {
    let text = text.get(lang.code());
    if who.is_empty() {
        ui.label(RichText::new(text).color(MUTED));
    } else {
        ui.label(lang.f(S::LogLine, &[who, text]));
    }
}

/// "Winner: Ana, Bruno" or "Draw", for the end of a game.
pub fn outcome_headline(lang: Lang, meta: &SessionMeta, outcome: &Outcome) -> String {
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|&w| seat_name(meta, w))
        .collect();
    if winners.is_empty() {
        lang.t(S::Draw).to_string()
    } else {
        lang.f(S::Winner, &[&winners.join(", ")])
    }
}
