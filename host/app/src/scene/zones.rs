//! Card zones: hands, piles and markets, face up or down, and the cards in them.

use egui::{vec2, Align2, Color32, FontId, Rect, Sense, Stroke, Ui};
use veillee_sdk::{HighlightKind, Target};

use super::motion::{card_key, Thing};
use super::Lit;
use crate::i18n::{Lang, S};
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

/// The size of the cards for `zones` in a column `width` wide and `height` tall: as large as
/// [`card_size`] makes them when everything fits; else narrower (never too narrow for their
/// text), then — on a `short` window (1024×600), so that the hand and the market show without
/// scrolling — short cards: a name only, the rest in its tooltip. When not everything fits,
/// the largest size at which the face-up zones do (the rows of others' backs below them
/// scroll); else the usual size, and the column scrolls.
pub(super) fn fit_card_size(
    zones: &[&veillee_sdk::Zone],
    width: f32,
    height: f32,
    short: bool,
) -> egui::Vec2 {
    let full = card_size(width);
    let total = |card: egui::Vec2, all: bool| -> f32 {
        zones
            .iter()
            .filter(|z| all || !compact(z, None))
            .map(|z| zone_height(z, card, width))
            .sum()
    };
    // The widest card for each number of cards a row holds, from the usual one down.
    let down_to = move |least: f32| {
        (1..=12u8)
            .map(move |n| {
                let n = f32::from(n);
                ((width - 12.0 * (n - 1.0)) / n).floor()
            })
            .filter(move |&w| w <= full.x && w >= least.min(full.x))
    };
    let sizes = || {
        let tall = down_to(TALL_LEAST).map(|w| vec2(w, (w * 1.3).round()));
        let small = down_to(SHORT_LEAST).map(|w| vec2(w, short_height(w)));
        std::iter::once(full)
            .chain(tall)
            .chain(small.filter(move |_| short))
    };
    [true, false]
        .into_iter()
        .find_map(|all| sizes().find(|&card| total(card, all) <= height))
        .unwrap_or(full)
}

/// The narrowest card [`fit_card_size`] draws with its text.
const TALL_LEAST: f32 = 90.0;

/// The narrowest card [`fit_card_size`] draws.
const SHORT_LEAST: f32 = 60.0;

/// A short card's height for its width: room for a name on two lines.
fn short_height(width: f32) -> f32 {
    (width * 0.62).round().max(50.0)
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
    if zone.cards.iter().all(|c| c.die.is_some()) {
        return title + die_size(card).y + 12.0;
    }
    if compact(zone, None) {
        return title + BACK.y + 10.0;
    }
    // Cards 12 apart across, 10 down (the launcher's item spacing).
    let per_row = ((width + 12.0) / (card.x + 12.0)).floor().max(1.0);
    let rows = (zone.cards.len() as f32 / per_row).ceil();
    title + rows * (card.y + 10.0)
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
                let key = card_key(&zone.id, &c.id);
                let thing = Thing::Card(c.clone(), zone.owner);
                let (shown, alpha) = lit.motion.place(ui.ctx(), &key, rect, thing);
                let mut painter = lit.motion.painter_for(ui.painter(), shown, rect);
                painter.multiply_opacity(alpha);
                card_back(&painter, shown, Some(colour(c.colour)));
            }
        });
        return;
    }
    ui.label(egui::RichText::new(title).strong());
    ui.horizontal_wrapped(|ui| {
        for c in &zone.cards {
            let target = Target::Card { id: c.id.clone() };
            if draw_card(ui, zone, c, card, &target, lit, lang) {
                clicks.push(vec![target]);
            }
        }
    });
}

/// The size a die is drawn at beside cards of `card` size: a square, with its face's name
/// under it.
fn die_size(card: egui::Vec2) -> egui::Vec2 {
    let side = (card.x * 0.7).clamp(40.0, 90.0);
    vec2(card.x.max(side), side + 26.0)
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

/// Draws one card (or die) of `zone`; returns true when it was clicked as a legal target.
fn draw_card(
    ui: &mut Ui,
    zone: &veillee_sdk::Zone,
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
    let size = if card.die.is_some() {
        die_size(size)
    } else {
        size
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    let name = if card.face_up {
        card.title.get(lang.code()).to_string()
    } else {
        format!("card {}", card.id)
    };
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, clickable, &name));
    // The whole card in words, on hover and on a long press: its name, where it goes and
    // what it does (the card itself may be too small for all of it); a die's faces.
    let words = match &card.die {
        Some(die) => {
            let faces: Vec<&str> = die.faces.iter().map(|f| f.name.get(lang.code())).collect();
            format!(
                "{}\n{}",
                card.title.get(lang.code()),
                lang.f(S::DieFaces, &[&faces.join(", ")])
            )
        }
        None if card.face_up && !card.text.get(lang.code()).is_empty() => format!(
            "{}\n{}",
            card.title.get(lang.code()),
            card.text.get(lang.code())
        ),
        None => String::new(),
    };
    let response = if words.is_empty() {
        response
    } else {
        if response.long_touched() {
            response.show_tooltip_text(words.clone());
        }
        response.on_hover_text(words)
    };
    let key = card_key(&zone.id, &card.id);
    let thing = Thing::Card(card.clone(), zone.owner);
    let (shown, alpha) = lit.motion.place(ui.ctx(), &key, rect, thing);
    let mut moving = lit
        .motion
        .painter_for(&ui.painter_at(rect.expand(4.0)), shown, rect);
    moving.multiply_opacity(alpha);
    paint_card(
        &moving,
        shown,
        card,
        lang,
        lit.motion.rolling(ui.ctx(), &key),
    );
    let painter = ui.painter_at(rect.expand(4.0));
    let rect = match card.die {
        // The marks go around the die itself, not its name.
        Some(_) => die_rect(rect),
        None => rect,
    };
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

/// Paints a card at `rect`: its face (title, a line, its text), its back, or a die — which
/// turns through its faces while `rolling` (0 to 1) after a new roll.
pub(super) fn paint_card(
    painter: &egui::Painter,
    rect: Rect,
    card: &veillee_sdk::Card,
    lang: Lang,
    rolling: Option<f32>,
) {
    if let Some(die) = &card.die {
        let name = card.title.get(lang.code());
        paint_die(painter, rect, die, name, rolling);
        return;
    }
    if !card.face_up {
        card_back(painter, rect, Some(colour(card.colour)));
        return;
    }
    let size = rect.size();
    let fill = colour(card.colour);
    painter.rect_filled(rect, 10.0, fill);
    let ink = ink_on(fill);
    // The title wraps (long names) and is centred; the text follows under it. Its longest
    // word fits across the card (a small card's "Enchanter" is not cut in two).
    let name = card.title.get(lang.code());
    let mut title_size = (size.x * 0.16).clamp(14.0, 19.0);
    let widest = name
        .split_whitespace()
        .map(|word| {
            let font = FontId::proportional(title_size);
            painter.layout_no_wrap(word.to_string(), font, ink).size().x
        })
        .fold(0.0, f32::max);
    if widest > size.x - 12.0 {
        title_size = (title_size * (size.x - 12.0) / widest).max(10.0);
    }
    let title_font = FontId::proportional(title_size);
    let mut job = egui::text::LayoutJob::simple(name.to_string(), title_font, ink, size.x - 12.0);
    job.halign = egui::Align::Center;
    let title = painter.layout_job(job);
    let title_h = title.size().y;
    if size.y - title_h < 44.0 {
        // A short card (a small window): its name alone, in its middle; the tooltip says
        // the rest.
        let top = rect.center().y - title_h / 2.0;
        painter.galley(egui::pos2(rect.center().x, top), title, ink);
        return;
    }
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
}

/// Where the die itself is drawn in its place: a square at the top, its name under it.
fn die_rect(rect: Rect) -> Rect {
    let side = (rect.height() - 26.0).min(rect.width()).max(1.0);
    Rect::from_center_size(
        egui::pos2(rect.center().x, rect.top() + side / 2.0),
        vec2(side, side),
    )
}

/// Where the pips of a face of `n` pips go, on a 3×3 grid from -1 to 1.
fn pip_places(n: u8) -> &'static [(f32, f32)] {
    const C: (f32, f32) = (0.0, 0.0);
    const TL: (f32, f32) = (-1.0, -1.0);
    const TR: (f32, f32) = (1.0, -1.0);
    const BL: (f32, f32) = (-1.0, 1.0);
    const BR: (f32, f32) = (1.0, 1.0);
    const ML: (f32, f32) = (-1.0, 0.0);
    const MR: (f32, f32) = (1.0, 0.0);
    const TM: (f32, f32) = (0.0, -1.0);
    const BM: (f32, f32) = (0.0, 1.0);
    match n {
        1 => &[C],
        2 => &[TR, BL],
        3 => &[TR, C, BL],
        4 => &[TL, TR, BL, BR],
        5 => &[TL, TR, C, BL, BR],
        6 => &[TL, TR, ML, MR, BL, BR],
        7 => &[TL, TR, ML, C, MR, BL, BR],
        8 => &[TL, TM, TR, ML, MR, BL, BM, BR],
        9 => &[TL, TM, TR, ML, C, MR, BL, BM, BR],
        _ => &[],
    }
}

/// Paints a die: its face on top (colour, pips, mark) and the face's name under it; while
/// `rolling`, it tumbles through its other faces and settles.
fn paint_die(
    painter: &egui::Painter,
    rect: Rect,
    die: &veillee_sdk::Die,
    name: &str,
    rolling: Option<f32>,
) {
    let n = die.faces.len().max(1);
    let up = usize::from(die.up);
    let (face, bounce) = match rolling {
        Some(p) if p < 1.0 => {
            // Eight faces go by, then the one on top.
            let step = (p * 8.0) as usize;
            let shown = if step >= 7 { up } else { (up + 1 + step) % n };
            (
                die.faces.get(shown),
                (p * std::f32::consts::PI).sin() * 0.12,
            )
        }
        _ => (die.faces.get(up), 0.0),
    };
    let Some(face) = face else {
        return;
    };
    let body = die_rect(rect);
    let body = Rect::from_center_size(body.center(), body.size() * (1.0 - bounce));
    let side = body.width();
    let fill = colour(face.colour);
    let ink = ink_on(fill);
    painter.rect_filled(
        body.translate(vec2(0.0, side * 0.05)),
        side * 0.18,
        Color32::from_black_alpha(90),
    );
    painter.rect(
        body,
        side * 0.18,
        fill,
        Stroke::new((side * 0.03).max(1.5), ink.gamma_multiply(0.7)),
        egui::StrokeKind::Inside,
    );
    let spread = side * 0.27;
    for &(x, y) in pip_places(face.pips) {
        painter.circle_filled(
            body.center() + vec2(x * spread, y * spread),
            side * 0.08,
            ink,
        );
    }
    if !face.mark.is_empty() {
        painter.text(
            body.center(),
            Align2::CENTER_CENTER,
            &face.mark,
            FontId::proportional(side * 0.5),
            ink,
        );
    }
    if rect.height() > body.height() + 12.0 {
        painter.text(
            egui::pos2(rect.center().x, rect.bottom() - 2.0),
            Align2::CENTER_BOTTOM,
            name,
            FontId::proportional(15.0),
            widgets::TEXT,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(id: &str, n: usize, face_up: bool) -> veillee_sdk::Zone {
        veillee_sdk::Zone {
            id: id.into(),
            cards: (0..n)
                .map(|i| veillee_sdk::Card {
                    id: format!("{id}{i}"),
                    face_up,
                    ..veillee_sdk::Card::default()
                })
                .collect(),
            ..veillee_sdk::Zone::default()
        }
    }

    #[test]
    fn a_short_window_gets_cards_small_enough_for_the_hand_and_the_exchange() {
        // Castel for three at 1024×600: a hand of 7, an exchange of 10, two hidden hands.
        let (hand, exchange) = (zone("hand", 7, true), zone("exchange", 10, true));
        let (beige, red) = (zone("beige", 1, false), zone("red", 1, false));
        let zones = [&hand, &exchange, &beige, &red];
        let (width, height) = (222.0, 530.0);
        let full = card_size(width);
        let total = |card| -> f32 { zones.iter().map(|z| zone_height(z, card, width)).sum() };
        assert!(total(full) > height, "the usual cards do not fit");
        let fit = fit_card_size(&zones, width, height, true);
        // The hand and the exchange fit in the height (the hidden hands, a row of backs
        // each, may be under them).
        let face_up = zone_height(&hand, fit, width) + zone_height(&exchange, fit, width);
        assert!(face_up <= height, "{fit:?}: {face_up}");
        assert!(fit.x < full.x && fit.y < full.y, "{fit:?} vs {full:?}");
        assert!(
            fit.x >= SHORT_LEAST && fit.y >= 50.0,
            "still readable: {fit:?}"
        );
        // Whatever the column's width, three to a row rather than a scrolling column.
        let narrower = fit_card_size(&zones, 216.0, height, true);
        let face_up = zone_height(&hand, narrower, 216.0) + zone_height(&exchange, narrower, 216.0);
        assert!(face_up <= height, "{narrower:?}: {face_up}");
        // A tall window keeps the usual cards; a window that is not short never gets cards
        // without their text (the column scrolls).
        assert_eq!(fit_card_size(&zones, width, 2000.0, true), full);
        assert_eq!(fit_card_size(&zones, width, height, false), full);
    }
}
