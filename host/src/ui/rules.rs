//! Rules: what the plugin ships about its game. Until plugins ship their full rules, the
//! manifest's description, seats and options.

use egui::{RichText, Ui};

use super::app::Shared;
use super::i18n::S;
use super::widgets::{self, colour, ACCENT, MUTED};

/// The rules screen of one game.
pub struct RulesScreen {
    /// The game's id.
    pub game: String,
}

impl RulesScreen {
    /// Draws the screen; returns true when the player goes back.
    pub fn ui(&mut self, ui: &mut Ui, shared: &Shared) -> bool {
        let lang = shared.lang;
        let code = lang.code();
        let mut back = false;
        ui.horizontal(|ui| {
            back = widgets::button(ui, lang.t(S::Back)).clicked();
            if let Some(game) = shared.games.iter().find(|g| g.manifest.id == self.game) {
                widgets::title(
                    ui,
                    &format!("{} — {}", lang.t(S::Rules), game.manifest.name.get(code)),
                );
            }
        });
        let Some(game) = shared.games.iter().find(|g| g.manifest.id == self.game) else {
            return true;
        };
        let m = &game.manifest;
        egui::ScrollArea::vertical().show(ui, |ui| {
            widgets::card(ui, |ui| {
                ui.set_width(ui.available_width().min(900.0));
                ui.label(RichText::new(lang.t(S::NoRules)).color(MUTED));
                ui.add_space(8.0);
                ui.label(RichText::new(m.description.get(code)).size(24.0));
                ui.add_space(12.0);
                for seat in &m.seats {
                    ui.horizontal(|ui| {
                        let (r, _) =
                            ui.allocate_exact_size(egui::vec2(22.0, 22.0), egui::Sense::hover());
                        ui.painter()
                            .circle_filled(r.center(), 10.0, colour(seat.colour));
                        ui.label(seat.name.get(code));
                    });
                }
                if !m.options.is_empty() {
                    ui.add_space(8.0);
                    ui.label(RichText::new(lang.t(S::Options)).strong().color(ACCENT));
                    for option in &m.options {
                        ui.label(format!("• {}", option.label.get(code)));
                    }
                }
                let variants: Vec<_> = game
                    .variants
                    .iter()
                    .filter_map(|v| v.info.as_ref().ok())
                    .collect();
                if !variants.is_empty() {
                    ui.add_space(8.0);
                    ui.label(RichText::new(lang.t(S::Variants)).strong().color(ACCENT));
                    for info in variants {
                        ui.label(RichText::new(info.name.get(code)).strong());
                        ui.label(info.description.get(code));
                        for change in &info.changes {
                            ui.label(format!("  • {}", change.get(code)));
                        }
                    }
                }
            });
        });
        back
    }
}
