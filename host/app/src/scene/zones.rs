//! Card zones: hands, piles and markets, face up or down, and the cards in them.

use egui::{vec2, Align2, Color32, FontId, Rect, Sense, Stroke, Ui};
use veillee_sdk::{HighlightKind, Target};

use super::Lit;
use crate::i18n::Lang;
use crate::widgets::{self, colour, ink_on, ACCENT};

/// The size of a face-up card for a column this wide: four to a row in a narrow column,
/// more in a wide one, never too small to read.
pub(super) fn card_size(width: f32) -> egui::Vec2 {
    let gap = 12.0;
    let (least, most) = (74.0, 124.0);
    let fit = ((width + gap) / (least + gap)).floor().max(1.0);
    let per_row = ((width + gap) / (most + gap)).ceil().clamp(1.0, fit);
    let w = ((width - gap * (per_row - 1.0)) / per_row)
        .min(most)
        .max(1.0);
    vec2(w.floor(), (w * 1.3).round())
}

/// The size of a face-down card in a compact hand (someone else's).
const BACK: egui::Vec2 = egui::Vec2::new(34.0, 48.0);

/// Whether a zone is drawn compact: only backs, none of them clickable.
fn compact(zone: &veillee_sdk::Zone, lit: Option<&Lit>) -> bool {
    zone.cards.iter().all(|c| {
        !c.face_up
            && lit.is_none_or(|lit| {
                let t = Target::Card { id: c.id.clone() };
                !lit.first.contains(&t) && !lit.next.contains(&t)
            })
    })
}

/// About how tall a zone is drawn (for the stacked layout).
pub(super) fn zone_height(zone: &veillee_sdk::Zone, card: egui::Vec2, width: f32) -> f32 {
    let title = 40.0;
    if zone.cards.is_empty() {
        return title;
    }
    if compact(zone, None) {
        return title + BACK.y + 10.0;
    }
    let per_row = ((width + 12.0) / (card.x + 12.0)).floor().max(1.0);
    let rows = (zone.cards.len() as f32 / per_row).ceil();
    title + rows * (card.y + 12.0)
}

/// Draws a zone: its title and its cards (someone else's hidden hand as a compact row).
pub(super) fn draw_zone(
    ui: &mut Ui,
    zone: &veillee_sdk::Zone,
    card: egui::Vec2,
    lit: &Lit,
    lang: Lang,
    clicks: &mut Vec<Vec<Target>>,
) {
    ui.add_space(6.0);
    let title = zone.title.get(lang.code());
    if compact(zone, Some(lit)) {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(title).strong());
            ui.label(egui::RichText::new(format!("× {}", zone.cards.len())).color(widgets::MUTED));
        });
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            for c in &zone.cards {
                let (rect, response) = ui.allocate_exact_size(BACK, Sense::hover());
                response.widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::Image, false, format!("card {}", c.id))
                });
                card_back(ui.painter(), rect, Some(colour(c.colour)));
            }
        });
        return;
    }
    ui.label(egui::RichText::new(title).strong());
    ui.horizontal_wrapped(|ui| {
        for c in &zone.cards {
            let target = Target::Card { id: c.id.clone() };
            if draw_card(ui, c, card, &target, lit, lang) {
                clicks.push(vec![target]);
            }
        }
    });
}

/// The back of a card: a deep blue with a frame and a star, and the owner's colour as a
/// stripe when there is one.
fn card_back(painter: &egui::Painter, rect: Rect, owner: Option<Color32>) {
    let small = rect.width() < 60.0;
    let radius = if small { 4.0 } else { 10.0 };
    painter.rect_filled(rect, radius, Color32::from_rgb(0x3b, 0x2f, 0x6b));
    painter.rect_stroke(
        rect.shrink(if small { 3.0 } else { 8.0 }),
        radius * 0.6,
        Stroke::new(if small { 1.0 } else { 2.0 }, ACCENT.gamma_multiply(0.6)),
        egui::StrokeKind::Inside,
    );
    if let Some(owner) = owner {
        let stripe = Rect::from_min_size(
            rect.left_bottom() - vec2(0.0, rect.height() * 0.12),
            vec2(rect.width(), rect.height() * 0.12),
        );
        painter.rect_filled(stripe.shrink2(vec2(rect.width() * 0.2, 0.0)), 2.0, owner);
    }
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        "✦",
        FontId::proportional(rect.width() * 0.3),
        ACCENT,
    );
}

/// Draws one card; returns true when it was clicked as a legal target.
fn draw_card(
    ui: &mut Ui,
    card: &veillee_sdk::Card,
    size: egui::Vec2,
    target: &Target,
    lit: &Lit,
    lang: Lang,
) -> bool {
    let clickable = lit.next.contains(target) || lit.first.contains(target);
    // Every face-up card senses a long press (touch screens), which shows what it does.
    let sense = if clickable || card.face_up {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    let name = if card.face_up {
        card.title.get(lang.code()).to_string()
    } else {
        format!("card {}", card.id)
    };
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, clickable, &name));
    // The whole card in words, on hover and on a long press: its name, where it goes and
    // what it does (the card itself may be too small for all of it).
    let response = if card.face_up && !card.text.get(lang.code()).is_empty() {
        let words = format!(
            "{}\n{}",
            card.title.get(lang.code()),
            card.text.get(lang.code())
        );
        if response.long_touched() {
            response.show_tooltip_text(words.clone());
        }
        response.on_hover_text(words)
    } else {
        response
    };
    let painter = ui.painter_at(rect.expand(4.0));
    if card.face_up {
        let fill = colour(card.colour);
        painter.rect_filled(rect, 10.0, fill);
        let ink = ink_on(fill);
        // The title wraps (long names) and is centred; the text follows under it.
        let title_font = FontId::proportional((size.x * 0.16).clamp(14.0, 19.0));
        let mut job = egui::text::LayoutJob::simple(
            card.title.get(lang.code()).to_string(),
            title_font,
            ink,
            size.x - 12.0,
        );
        job.halign = egui::Align::Center;
        let title = painter.layout_job(job);
        let title_h = title.size().y;
        painter.galley(rect.center_top() + vec2(0.0, 8.0), title, ink);
        painter.line_segment(
            [
                rect.left_top() + vec2(10.0, 14.0 + title_h),
                rect.right_top() + vec2(-10.0, 14.0 + title_h),
            ],
            Stroke::new(1.0, ink.gamma_multiply(0.4)),
        );
        let galley = painter.layout(
            card.text.get(lang.code()).to_string(),
            FontId::proportional((size.x * 0.12).clamp(12.0, 15.0)),
            ink,
            size.x - 16.0,
        );
        painter.galley(rect.left_top() + vec2(8.0, 20.0 + title_h), galley, ink);
    } else {
        card_back(&painter, rect, Some(colour(card.colour)));
    }
    if let Some(kind) = lit.highlight(std::slice::from_ref(target)) {
        let c = if kind == HighlightKind::Danger {
            widgets::DANGER
        } else {
            ACCENT
        };
        painter.rect_stroke(rect, 10.0, Stroke::new(3.0, c), egui::StrokeKind::Outside);
    }
    if lit.selected.contains(target) {
        painter.rect_stroke(
            rect,
            10.0,
            Stroke::new(4.0, ACCENT),
            egui::StrokeKind::Outside,
        );
    } else if lit.help.targets && lit.selected.is_empty() && lit.first.contains(target) {
        // Assisted mode: the cards a move can start from.
        painter.rect_stroke(
            rect,
            10.0,
            Stroke::new(2.0, ACCENT.gamma_multiply(0.55)),
            egui::StrokeKind::Outside,
        );
    } else if lit.help.targets && lit.next.contains(target) && !lit.selected.is_empty() {
        painter.rect_stroke(
            rect,
            10.0,
            Stroke::new(3.0, ACCENT.gamma_multiply(0.8)),
            egui::StrokeKind::Outside,
        );
    }
    if clickable && response.hovered() {
        painter.rect_stroke(
            rect,
            10.0,
            Stroke::new(2.0, Color32::WHITE),
            egui::StrokeKind::Outside,
        );
    }
    clickable && response.clicked()
}
