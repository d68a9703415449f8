//! Settings: language, interface scale, assisted-mode defaults, and where the data lives.

use egui::{RichText, Ui};

use super::i18n::{Lang, S};
use super::screen::{Nav, Screen, Shared};
use super::widgets::{self, ACCENT, MUTED};
use super::worker::{Assist, Request, ASSIST, LANGUAGE, SCALE};

/// The settings screen.
#[derive(Default)]
pub struct SettingsScreen;

impl Screen for SettingsScreen {
    fn tab(&self) -> Option<S> {
        Some(S::Settings)
    }

    /// Draws the screen (changes apply at once and are remembered).
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
        let lang = shared.lang;
        widgets::title(ui, lang.t(S::Settings));
        ui.add_space(8.0);
        widgets::card(ui, |ui| {
            ui.set_width(ui.available_width().min(900.0));
            ui.label(RichText::new(lang.t(S::Language)).strong().color(ACCENT));
            ui.horizontal(|ui| {
                let mut chosen = shared.lang;
                ui.selectable_value(&mut chosen, Lang::Fr, "Français");
                ui.selectable_value(&mut chosen, Lang::En, "English");
                if chosen != shared.lang {
                    shared.lang = chosen;
                    shared.worker.send(Request::SetSetting(
                        LANGUAGE,
                        serde_json::Value::String(chosen.code().into()),
                    ));
                }
            });
            ui.add_space(12.0);
            ui.label(RichText::new(lang.t(S::Scale)).strong().color(ACCENT));
            ui.label(RichText::new(lang.t(S::ScaleHint)).color(MUTED));
            let mut scale = shared.pending_scale.unwrap_or(shared.scale);
            let slider = egui::Slider::new(&mut scale, 0.75..=2.5)
                .step_by(0.05)
                .custom_formatter(|v, _| format!("{:.0} %", v * 100.0));
            let response = ui.add(slider);
            let spoken = lang.t(S::Scale);
            response.widget_info(|| egui::WidgetInfo::slider(true, f64::from(scale), spoken));
            if response.changed() {
                shared.pending_scale = Some(scale);
            }
            // Applied when the drag ends, so that the slider does not move under the pointer.
            if !response.dragged() {
                if let Some(pending) = shared.pending_scale.take() {
                    shared.scale = pending;
                    shared
                        .worker
                        .send(Request::SetSetting(SCALE, serde_json::json!(pending)));
                }
            }
            ui.add_space(12.0);
            ui.label(RichText::new(lang.t(S::Assist)).strong().color(ACCENT));
            if assist_checkboxes(ui, lang, &mut shared.assist) {
                let value = serde_json::to_value(shared.assist).unwrap_or_default();
                shared.worker.send(Request::SetSetting(ASSIST, value));
            }
            ui.add_space(12.0);
            ui.label(RichText::new(lang.t(S::DataDir)).strong().color(ACCENT));
            ui.label(RichText::new(shared.data_dir.display().to_string()).monospace());
        });
        None
    }
}

/// The assisted-mode switches (in the settings, and in the play screen's help menu).
/// Returns true when one changed.
pub fn assist_checkboxes(ui: &mut Ui, lang: Lang, assist: &mut Assist) -> bool {
    let mut changed = ui
        .checkbox(&mut assist.show_targets, lang.t(S::ShowTargets))
        .on_hover_text(lang.t(S::ShowTargetsHint))
        .changed();
    changed |= ui
        .checkbox(&mut assist.show_last_move, lang.t(S::ShowLastMove))
        .changed();
    changed |= ui
        .checkbox(&mut assist.confirm_moves, lang.t(S::ConfirmMoves))
        .changed();
    changed |= ui.checkbox(&mut assist.sound, lang.t(S::Chime)).changed();
    ui.horizontal_wrapped(|ui| {
        use super::worker::Animation;
        ui.label(lang.t(S::AnimationLabel));
        for (value, text) in [
            (Animation::Off, S::AnimationOff),
            (Animation::Slow, S::AnimationSlow),
            (Animation::Normal, S::AnimationNormal),
            (Animation::Fast, S::AnimationFast),
        ] {
            changed |= ui
                .selectable_value(&mut assist.animation, value, lang.t(text))
                .changed();
        }
    });
    changed
}
