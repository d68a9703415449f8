//! One piece, drawn by its shape in its colour.

use std::sync::Arc;

use egui::{pos2, vec2, Color32, FontId, Pos2, Rect, Shape as EShape, Stroke};
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
) -> Option<Arc<egui::Galley>> {
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
    let pen = Pen {
        fill,
        ink,
        outline: Stroke::new((r.width() * 0.035).max(1.5), ink.gamma_multiply(0.85)),
    };
    let c = r.center();
    let s = r.width();
    let shadow = Color32::from_black_alpha(90);
    painter.circle_filled(c + vec2(0.0, s * 0.04), s * 0.34, shadow);
    draw_shape(painter, piece.shape, c, s, &pen);
    if let Some(name) = full_name(painter, r, piece, lang, ink) {
        draw_full_name(painter, c, name, ink);
    } else if !piece.label.is_empty() {
        draw_label(painter, c, s, &piece.label, ink, still);
    }
}

/// The colours a piece is drawn with.
struct Pen {
    fill: Color32,
    /// What reads on `fill`: its lines and its label.
    ink: Color32,
    outline: Stroke,
}

/// A piece's shape, centred on `c`, `s` across.
fn draw_shape(painter: &egui::Painter, shape: Shape, c: Pos2, s: f32, pen: &Pen) {
    let Pen { fill, ink, outline } = *pen;
    match shape {
        Shape::Disc | Shape::Token | Shape::Soldier => {
            let radius = match shape {
                Shape::Token => 0.22,
                Shape::Soldier => 0.3,
                _ => 0.34,
            } * s;
            painter.circle(c, radius, fill, outline);
            if shape == Shape::Soldier {
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
        Shape::Knight => draw_knight(painter, c, s, pen),
        Shape::Lord => draw_lord(painter, c, s, pen),
        Shape::Tower => draw_tower(painter, c, s, pen),
    }
}

/// A shield: wide top, pointed bottom, a cross on it.
fn draw_knight(painter: &egui::Painter, c: Pos2, s: f32, pen: &Pen) {
    let pts = vec![
        c + vec2(-0.32 * s, -0.32 * s),
        c + vec2(0.32 * s, -0.32 * s),
        c + vec2(0.3 * s, 0.05 * s),
        c + vec2(0.0, 0.36 * s),
        c + vec2(-0.3 * s, 0.05 * s),
    ];
    painter.add(EShape::convex_polygon(pts, pen.fill, pen.outline));
    let cross = Stroke::new(pen.outline.width, pen.ink.gamma_multiply(0.6));
    painter.line_segment([c + vec2(0.0, -0.24 * s), c + vec2(0.0, 0.2 * s)], cross);
    painter.line_segment(
        [c + vec2(-0.2 * s, -0.08 * s), c + vec2(0.2 * s, -0.08 * s)],
        cross,
    );
}

/// A disc under a golden crown.
fn draw_lord(painter: &egui::Painter, c: Pos2, s: f32, pen: &Pen) {
    painter.circle(c + vec2(0.0, 0.06 * s), 0.3 * s, pen.fill, pen.outline);
    let crown = vec![
        c + vec2(-0.22 * s, -0.02 * s),
        c + vec2(-0.24 * s, -0.3 * s),
        c + vec2(-0.11 * s, -0.16 * s),
        c + vec2(0.0, -0.34 * s),
        c + vec2(0.11 * s, -0.16 * s),
        c + vec2(0.24 * s, -0.3 * s),
        c + vec2(0.22 * s, -0.02 * s),
    ];
    painter.add(EShape::closed_line(crown.clone(), pen.outline));
    painter.add(EShape::Path(egui::epaint::PathShape {
        points: crown,
        closed: true,
        fill: Color32::from_rgb(0xf2, 0xc2, 0x3c),
        stroke: pen.outline.into(),
    }));
}

/// A square body with three merlons on top.
fn draw_tower(painter: &egui::Painter, c: Pos2, s: f32, pen: &Pen) {
    let body = Rect::from_center_size(c + vec2(0.0, 0.05 * s), vec2(s * 0.5, s * 0.5));
    painter.rect(body, 2.0, pen.fill, pen.outline, egui::StrokeKind::Middle);
    for i in 0..3 {
        let x = body.left() + (f32::from(i as u8) * 0.2 + 0.025) * s;
        painter.rect(
            Rect::from_min_size(pos2(x, body.top() - 0.12 * s), vec2(0.1 * s, 0.12 * s)),
            1.0,
            pen.fill,
            pen.outline,
            egui::StrokeKind::Middle,
        );
    }
}

/// A piece's full name, laid out by [`full_name`], centred on `c` over a halo.
fn draw_full_name(painter: &egui::Painter, c: Pos2, name: Arc<egui::Galley>, ink: Color32) {
    // Centred on the piece (a centred layout's rows lie around x = 0).
    let at = c - name.rect.center().to_vec2();
    let halo = if ink.r() > 128 {
        Color32::from_black_alpha(160)
    } else {
        Color32::from_white_alpha(110)
    };
    painter.galley_with_override_text_color(at + vec2(1.0, 1.0), name.clone(), halo);
    painter.galley(at, name, ink);
}

/// A piece's short label centred on `c`, as large as fits across the piece (`s` across) and
/// never unreadably small; left out of a `still` picture when it does not fit.
fn draw_label(painter: &egui::Painter, c: Pos2, s: f32, label: &str, ink: Color32, still: bool) {
    let room = s * 0.6;
    let mut size = (s * 0.3).max(11.0);
    let mut galley = painter.layout_no_wrap(label.to_string(), FontId::proportional(size), ink);
    if galley.size().x > room {
        let fit = size * room / galley.size().x;
        if still && fit < 11.0 {
            return;
        }
        size = fit.max(11.0);
        galley = painter.layout_no_wrap(label.to_string(), FontId::proportional(size), ink);
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
