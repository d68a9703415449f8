//! Rules: the game's full rules as its plugin ships them (`Manifest::rules`, a small Markdown
//! subset read by `veillee_sdk::rules::parse`: headings, lists, tables, bold, inline code), in the launcher's language, with a table of
//! contents of their `##` sections; then what Veillée offers for the game (seats, options,
//! house rules). A plugin that ships no rules gets its description instead.

use std::sync::Arc;

use egui::text::LayoutJob;
use egui::{Align, Color32, FontSelection, Id, Label, RichText, Ui};
use veillee_sdk::rules::{self, Block, Span};

use super::i18n::{Lang, S};
use super::screen::{Nav, Screen, Shared, Target};
use super::widgets::{self, colour, ACCENT, MUTED, RAISED, TEXT};
use super::worker::GameInfo;

/// Body text size: readable from the sofa.
const BODY: f32 = 23.0;
/// Bold runs: the body colour, brighter and warmer (egui's default font has no bold face).
const BOLD: Color32 = Color32::from_rgb(0xff, 0xdf, 0x9e);
/// Behind inline code (an action id, a command).
const CODE_GROUND: Color32 = Color32::from_rgb(0x2b, 0x2d, 0x3a);
/// Widest column of text, so that lines stay easy to follow.
const MAX_TEXT_WIDTH: f32 = 920.0;
/// Width of the table of contents beside the text.
const TOC_WIDTH: f32 = 300.0;
/// Below this width the table of contents goes above the text.
const SIDE_TOC_MIN_WIDTH: f32 = 1000.0;

/// The rules screen of one game.
#[derive(Default)]
pub struct RulesScreen {
    /// The game's id.
    pub game: String,
}

/// What the screen remembers between frames (kept in egui's memory, per game).
#[derive(Clone, Default)]
struct View {
    /// A section the player asked to jump to.
    jump: Option<usize>,
    /// The section at the top of the text in the last frame.
    current: usize,
}

impl RulesScreen {
    /// The rules text, its table of contents, and the summary after it.
    fn rules(&self, ui: &mut Ui, game: &GameInfo, text: &str, lang: Lang) {
        let blocks = parsed(ui.ctx(), text);
        let mut sections: Vec<&str> = blocks
            .iter()
            .filter_map(|b| match b {
                Block::Heading { level: 2, text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        // The summary closes the text as one more section.
        sections.push(lang.t(S::InVeillee));
        let view_id = Id::unique(("rules-view", &self.game));
        let mut view: View = ui.ctx().data(|d| d.get_temp(view_id)).unwrap_or_default();

        ui.add_space(6.0);
        if ui.available_width() >= SIDE_TOC_MIN_WIDTH {
            let height = ui.available_height();
            ui.horizontal_top(|ui| {
                ui.allocate_ui_with_layout(
                    egui::vec2(TOC_WIDTH, height),
                    egui::Layout::top_down(Align::Min),
                    |ui| {
                        ui.set_width(TOC_WIDTH);
                        egui::ScrollArea::vertical()
                            .id_salt(("rules-toc", &self.game))
                            .show(ui, |ui| toc(ui, &sections, &mut view, lang, false));
                    },
                );
                ui.add_space(12.0);
                ui.vertical(|ui| self.text(ui, game, &blocks, &mut view, lang));
            });
        } else {
            toc(ui, &sections, &mut view, lang, true);
            ui.add_space(6.0);
            self.text(ui, game, &blocks, &mut view, lang);
        }
        ui.ctx().data_mut(|d| d.insert_temp(view_id, view));
    }

    /// The scrolling text: the blocks, then the summary. Jumps to `view.jump` and notes the
    /// section at the top in `view.current`.
    fn text(&self, ui: &mut Ui, game: &GameInfo, blocks: &[Block], view: &mut View, lang: Lang) {
        egui::ScrollArea::vertical()
            .id_salt(("rules-text", &self.game))
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.set_max_width(ui.available_width().min(MAX_TEXT_WIDTH));
                let top = ui.clip_rect().top() + 48.0;
                let mut section = 0;
                let mut current = 0;
                let mut seen = |view: &mut View, response: &egui::Response, section: usize| {
                    if view.jump == Some(section) {
                        response.scroll_to_me(Some(Align::TOP));
                        view.jump = None;
                    }
                    if response.rect.top() <= top {
                        current = section;
                    }
                };
                for block in blocks {
                    if let Block::Heading { level: 2, .. } = block {
                        let response = draw_block(ui, block);
                        seen(view, &response, section);
                        section += 1;
                    } else {
                        draw_block(ui, block);
                    }
                }
                ui.add_space(24.0);
                let response = ui.label(
                    RichText::new(lang.t(S::InVeillee))
                        .size(28.0)
                        .strong()
                        .color(ACCENT),
                );
                seen(view, &response, section);
                widgets::card(ui, |ui| {
                    ui.set_width(ui.available_width());
                    summary(ui, game, lang)
                });
                ui.add_space(24.0);
                view.current = current;
            });
    }
}

impl Screen for RulesScreen {
    fn side_trip(&self) -> bool {
        true
    }

    fn open(&mut self, _shared: &mut Shared, target: Target) -> bool {
        let Target::Game(game) = target else {
            return false;
        };
        self.game = game;
        true
    }

    /// Draws the screen; goes back where it was opened from when the player asks.
    fn ui(&mut self, ui: &mut Ui, shared: &mut Shared) -> Option<Nav> {
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
            return Some(Nav::Back);
        };
        match &game.manifest.rules {
            Some(rules) => self.rules(ui, game, rules.get(code), lang),
            None => {
                egui::ScrollArea::vertical()
                    .id_salt(("rules-none", &self.game))
                    .show(ui, |ui| {
                        widgets::card(ui, |ui| {
                            ui.set_width(ui.available_width().min(MAX_TEXT_WIDTH));
                            ui.label(RichText::new(lang.t(S::NoRules)).color(MUTED));
                            ui.add_space(8.0);
                            ui.label(RichText::new(game.manifest.description.get(code)).size(BODY));
                            ui.add_space(12.0);
                            summary(ui, game, lang);
                        });
                    });
            }
        }
        back.then_some(Nav::Back)
    }
}

/// The rules text's blocks, parsed once per text and kept in egui's memory.
fn parsed(ctx: &egui::Context, text: &str) -> Arc<Vec<Block>> {
    let id = Id::unique(("rules-blocks", text));
    if let Some(blocks) = ctx.data(|d| d.get_temp::<Arc<Vec<Block>>>(id)) {
        return blocks;
    }
    let blocks = Arc::new(rules::parse(text));
    ctx.data_mut(|d| d.insert_temp(id, blocks.clone()));
    blocks
}

/// The table of contents: one entry per section; a click jumps there.
fn toc(ui: &mut Ui, sections: &[&str], view: &mut View, lang: Lang, wrapped: bool) {
    let mut entries = |ui: &mut Ui| {
        for (i, title) in sections.iter().enumerate() {
            let text = RichText::new(*title).size(20.0);
            if ui.selectable_label(view.current == i, text).clicked() {
                view.jump = Some(i);
            }
        }
    };
    if wrapped {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.t(S::Contents)).strong().color(ACCENT));
            entries(ui);
        });
    } else {
        ui.label(
            RichText::new(lang.t(S::Contents))
                .size(24.0)
                .strong()
                .color(ACCENT),
        );
        ui.add_space(4.0);
        entries(ui);
    }
}

/// Draws one block; the response is the heading's (or the block's last widget's).
fn draw_block(ui: &mut Ui, block: &Block) -> egui::Response {
    match block {
        Block::Heading { level, text } => {
            let (space, size, colour) = match level {
                1 => (0.0, 36.0, ACCENT),
                2 => (22.0, 30.0, ACCENT),
                _ => (12.0, 25.0, BOLD),
            };
            ui.add_space(space);
            ui.add(Label::new(RichText::new(text).size(size).strong().color(colour)).wrap())
        }
        Block::Paragraph(spans) => {
            let response = ui.add(Label::new(job(ui, spans, BODY, false)).wrap());
            ui.add_space(4.0);
            response
        }
        Block::Item { number, spans } => {
            let marker = match number {
                Some(n) => format!("{n}."),
                None => "•".to_string(),
            };
            ui.horizontal_top(|ui| {
                ui.add_space(10.0);
                ui.add_sized(
                    egui::vec2(30.0, BODY * 1.3),
                    Label::new(RichText::new(marker).size(BODY).color(ACCENT)),
                );
                ui.add(Label::new(job(ui, spans, BODY, false)).wrap())
            })
            .inner
        }
        Block::Table { header, rows } => {
            let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
            let id = ui.auto_id_with("rules-table");
            let response = egui::Frame::new()
                .stroke(egui::Stroke::new(1.0, RAISED))
                .corner_radius(egui::CornerRadius::same(8))
                .inner_margin(egui::Margin::same(10))
                .show(ui, |ui| {
                    egui::Grid::new(id)
                        .num_columns(columns)
                        .striped(true)
                        .spacing(egui::vec2(24.0, 8.0))
                        .show(ui, |ui| {
                            for (r, row) in rows.iter().enumerate() {
                                for cell in row {
                                    ui.add(Label::new(job(
                                        ui,
                                        cell,
                                        BODY - 2.0,
                                        *header && r == 0,
                                    )));
                                }
                                ui.end_row();
                            }
                        });
                })
                .response;
            ui.add_space(6.0);
            response
        }
    }
}

/// A run of spans as one wrapped text, bold runs brighter, inline code in a fixed-width font
/// on a darker ground.
fn job(ui: &Ui, spans: &[Span], size: f32, all_bold: bool) -> LayoutJob {
    let mut job = LayoutJob::default();
    for span in spans {
        let bold = span.bold || all_bold;
        let mut text = RichText::new(&span.text)
            .size(size)
            .color(if bold { BOLD } else { TEXT });
        if span.code {
            text = text
                .monospace()
                .size(size * 0.9)
                .background_color(CODE_GROUND);
        }
        text.append_to(&mut job, ui.style(), FontSelection::Default, Align::Center);
    }
    job
}

/// What Veillée offers for this game: seats and their colours, options, house rules.
fn summary(ui: &mut Ui, game: &GameInfo, lang: Lang) {
    let code = lang.code();
    let m = &game.manifest;
    for seat in &m.seats {
        ui.horizontal(|ui| {
            widgets::seat_dot(ui, colour(seat.colour), 22.0);
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
}
