//! One piece, drawn by its shape in its colour.

use egui::{pos2, vec2, Color32, FontId, Rect, Shape as EShape, Stroke};
use veillee_sdk::{Piece, Shape};

use crate::i18n::Lang;
use crate::widgets::{colour, ink_on};

/// A labelled piece's name in the launcher's language, laid out on at most two lines across
/// its square at a readable size, when it fits: "King" rather than the short label "Roi",
/// which is one string for every language. A label that is a symbol (♛) stays.
fn full_name(
    painter: &egui::Painter,
    r: Rect,
    piece: &Piece,
    lang: Lang,
    ink: Color32,
) -> Option<std::sync::Arc<egui::Galley>> {
    let name = piece.name.as_ref()?.get(lang.code());
    if piece.label.is_empty() || !piece.label.chars().any(char::is_alphabetic) || name.is_empty() {
        return None;
    }
    let width = r.width() * 0.92;
    [0.2, 0.17, 0.15].into_iter().find_map(|share| {
        let size = r.width() * share;
        if size < 10.0 {
            return None;
        }
        let mut job =
            egui::text::LayoutJob::simple(name.to_string(), FontId::proportional(size), ink, width);
        job.wrap.max_rows = 2;
        job.halign = egui::Align::Center;
        let galley = painter.layout_job(job);
        (!galley.elided && galley.size().x <= width + 0.5).then_some(galley)
    })
}

/// Draws a piece by shape in its colour, outlined so that it reads on any cell, with its
/// label — or its full name in the launcher's language, when it has one that fits. In a
/// `still` picture (the library's, small) a label that does not fit on the piece is left
/// out rather than spread over its neighbours.
pub(super) fn draw_piece(painter: &egui::Painter, r: Rect, piece: &Piece, lang: Lang, still: bool) {
    let fill = colour(piece.colour);
    let ink = ink_on(fill);
    let outline = Stroke::new((r.width() * 0.035).max(1.5), ink.gamma_multiply(0.85));
    let c = r.center();
    let s = r.width();
    let shadow = Color32::from_black_alpha(90);
    painter.circle_filled(c + vec2(0.0, s * 0.04), s * 0.34, shadow);
    match piece.shape {
        Shape::Disc | Shape::Token | Shape::Soldier => {
            let radius = match piece.shape {
                Shape::Token => 0.22,
                Shape::Soldier => 0.3,
                _ => 0.34,
            } * s;
            painter.circle(c, radius, fill, outline);
            if piece.shape == Shape::Soldier {
                painter.circle_stroke(
                    c,
                    radius * 0.55,
                    Stroke::new(outline.width, ink.gamma_multiply(0.5)),
                );
            }
        }
        Shape::Square => {
            painter.rect(
                Rect::from_center_size(c, vec2(s * 0.62, s * 0.62)),
                6.0,
                fill,
                outline,
                egui::StrokeKind::Middle,
            );
        }
        Shape::Wall => {
            painter.rect(
                Rect::from_center_size(c, vec2(s * 0.8, s * 0.34)),
                3.0,
                fill,
                outline,
                egui::StrokeKind::Middle,
            );
        }
        Shape::Knight => {
            // A shield: wide top, pointed bottom.
            let pts = vec![
                c + vec2(-0.32 * s, -0.32 * s),
                c + vec2(0.32 * s, -0.32 * s),
                c + vec2(0.3 * s, 0.05 * s),
                c + vec2(0.0, 0.36 * s),
                c + vec2(-0.3 * s, 0.05 * s),
            ];
            painter.add(EShape::convex_polygon(pts, fill, outline));
            painter.line_segment(
                [c + vec2(0.0, -0.24 * s), c + vec2(0.0, 0.2 * s)],
                Stroke::new(outline.width, ink.gamma_multiply(0.6)),
            );
            painter.line_segment(
                [c + vec2(-0.2 * s, -0.08 * s), c + vec2(0.2 * s, -0.08 * s)],
                Stroke::new(outline.width, ink.gamma_multiply(0.6)),
            );
        }
        Shape::Lord => {
            painter.circle(c + vec2(0.0, 0.06 * s), 0.3 * s, fill, outline);
            let crown = vec![
                c + vec2(-0.22 * s, -0.02 * s),
                c + vec2(-0.24 * s, -0.3 * s),
                c + vec2(-0.11 * s, -0.16 * s),
                c + vec2(0.0, -0.34 * s),
                c + vec2(0.11 * s, -0.16 * s),
                c + vec2(0.24 * s, -0.3 * s),
                c + vec2(0.22 * s, -0.02 * s),
            ];
            painter.add(EShape::closed_line(crown.clone(), outline));
            painter.add(EShape::Path(egui::epaint::PathShape {
                points: crown,
                closed: true,
                fill: Color32::from_rgb(0xf2, 0xc2, 0x3c),
                stroke: outline.into(),
            }));
        }
        Shape::Tower => {
            let body = Rect::from_center_size(c + vec2(0.0, 0.05 * s), vec2(s * 0.5, s * 0.5));
            painter.rect(body, 2.0, fill, outline, egui::StrokeKind::Middle);
            for i in 0..3 {
                let x = body.left() + (f32::from(i as u8) * 0.2 + 0.025) * s;
                painter.rect(
                    Rect::from_min_size(pos2(x, body.top() - 0.12 * s), vec2(0.1 * s, 0.12 * s)),
                    1.0,
                    fill,
                    outline,
                    egui::StrokeKind::Middle,
                );
            }
        }
    }
    if let Some(name) = full_name(painter, r, piece, lang, ink) {
        // Centred on the piece (a centred layout's rows lie around x = 0).
        let at = c - name.rect.center().to_vec2();
        let halo = if ink.r() > 128 {
            Color32::from_black_alpha(160)
        } else {
            Color32::from_white_alpha(110)
        };
        painter.galley_with_override_text_color(at + vec2(1.0, 1.0), name.clone(), halo);
        painter.galley(at, name, ink);
    } else if !piece.label.is_empty() {
        // As large as fits across the piece, and never unreadably small.
        let room = s * 0.6;
        let mut size = (s * 0.3).max(11.0);
        let mut galley =
            painter.layout_no_wrap(piece.label.clone(), FontId::proportional(size), ink);
        if galley.size().x > room {
            let fit = size * room / galley.size().x;
            if still && fit < 11.0 {
                return;
            }
            size = fit.max(11.0);
            galley = painter.layout_no_wrap(piece.label.clone(), FontId::proportional(size), ink);
        }
        if still && galley.size().y > s {
            return;
        }
        let at = c - galley.size() / 2.0;
        // A faint halo so the label reads over the shape's own lines.
        let halo = if ink.r() > 128 {
            Color32::from_black_alpha(140)
        } else {
            Color32::from_white_alpha(90)
        };
        painter.galley_with_override_text_color(at + vec2(1.0, 1.0), galley.clone(), halo);
        painter.galley(at, galley, ink);
    }
}
