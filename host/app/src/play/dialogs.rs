//! What the play screen asks over the board, and the hand-off screen that hides it: "Play
//! this move?", another player's consent to undo their move, the table's to undo a reveal,
//! and "Pass to …".

use egui::{RichText, Ui};
use veillee_sdk::Seat;

use super::PlayScreen;
use crate::i18n::{Lang, S};
use crate::screen::Shared;
use crate::widgets::{self, Answer, ACCENT, MUTED};
use crate::worker::{seat_name, Consent, GameView, Request};

impl PlayScreen {
    /// The whole window while the screen goes to `seat`: their name, and "ready" when they
    /// have it.
    pub(super) fn handoff_ui(&mut self, ui: &mut Ui, lang: Lang, view: &GameView, seat: Seat) {
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
                    self.chime();
                }
            });
        });
    }

    /// Assisted mode's "Play this move?", for the move waiting for it.
    pub(super) fn confirm_move_dialog(&mut self, ui: &Ui, shared: &mut Shared) {
        let Some((seat, id, label)) = self.confirm.clone() else {
            return;
        };
        let lang = shared.lang;
        let body = lang.f(S::PlayThis, &[label.get(lang.code())]);
        let yes = lang.t(S::PlayIt);
        match widgets::ask(
            ui.ctx(),
            "confirm-move",
            &body,
            yes,
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

    /// Undo would take back another player's move: asked to them first.
    pub(super) fn undo_consent_dialog(&mut self, ui: &Ui, shared: &mut Shared, view: &GameView) {
        let Some(theirs) = self.confirm_undo else {
            return;
        };
        let lang = shared.lang;
        let body = lang.f(S::UndoTheirs, &[&seat_name(&view.meta, theirs)]);
        let yes = lang.t(S::Undo);
        match widgets::ask(
            ui.ctx(),
            "confirm-undo",
            &body,
            yes,
            lang.t(S::Cancel),
            false,
        ) {
            Answer::Yes => {
                self.confirm_undo = None;
                let consent = Consent::OwnerAgreed;
                self.send(shared, Request::Undo { consent });
            }
            Answer::No => self.confirm_undo = None,
            Answer::Open => {}
        }
    }

    /// Undo would take back what was revealed: the whole table agrees first.
    pub(super) fn reveal_dialog(&mut self, ui: &Ui, shared: &mut Shared) {
        let Some(reveals) = self.reveal.clone() else {
            return;
        };
        let lang = shared.lang;
        let code = lang.code();
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
        let (yes, no) = (lang.t(S::Agree), lang.t(S::Cancel));
        match widgets::confirm(ui.ctx(), "reveal", &body, yes, no) {
            Answer::Yes => {
                self.reveal = None;
                let consent = Consent::Given;
                self.send(shared, Request::Undo { consent });
            }
            Answer::No => self.reveal = None,
            Answer::Open => {}
        }
    }
}
