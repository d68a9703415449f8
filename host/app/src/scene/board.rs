//! The board: cells (rotated by the scene's quarter turns), their names, and stacks of pieces.

use std::collections::HashMap;

use egui::{pos2, vec2, Align2, Color32, FontId, Rect, Sense, Stroke, Ui};
use veillee_sdk::{Board, HighlightKind, Piece, Target};

use super::pieces::draw_piece;
use super::Lit;
use crate::i18n::Lang;
use crate::widgets::{self, colour, ink_on, ACCENT};

/// Where logical cell (col, row) is drawn, after `rotation` quarter turns clockwise.
fn rotate(board: &Board, rotation: u8, col: u16, row: u16) -> (u16, u16) {
    let (cols, rows) = (board.cols, board.rows);
    match rotation % 4 {
        1 => (rows - 1 - row, col),
        2 => (cols - 1 - col, rows - 1 - row),
        3 => (row, cols - 1 - col),
        _ => (col, row),
    }
}

/// A cell's accessible name: its column and row labels (`d6`), else its kind and place
/// (`outside 0,3`) for cells the game does not name.
fn square_name(board: &Board, col: u16, row: u16) -> String {
    match (
        board.col_labels.get(col as usize),
        board.row_labels.get(row as usize),
    ) {
        (Some(c), Some(r)) if !c.is_empty() && !r.is_empty() => format!("{c}{r}"),
        _ => match board.cell(col, row).map(|c| c.kind.as_str()) {
            Some(kind) if !kind.is_empty() => format!("{kind} {col},{row}"),
            _ => format!("{}:{col},{row}", board.id),
        },
    }
}

pub(super) fn draw_board(
    ui: &mut Ui,
    rect: Rect,
    board: &Board,
    rotation: u8,
    lit: &Lit,
    lang: Lang,
    clicks: &mut Vec<Vec<Target>>,
) {
    let (dcols, drows) = if rotation % 2 == 1 {
        (board.rows, board.cols)
    } else {
        (board.cols, board.rows)
    };
    if dcols == 0 || drows == 0 {
        return;
    }
    let title_h = if board.title.en.is_empty() { 0.0 } else { 34.0 };
    // Room for the coordinates on the left and below (when there are some) and for the
    // board's shadow on every side.
    let labelled = !board.col_labels.is_empty() || !board.row_labels.is_empty();
    let margin = if labelled { 30.0 } else { 0.0 };
    let shadow = 8.0;
    let cell = ((rect.width() - margin - 2.0 * shadow) / f32::from(dcols))
        .min((rect.height() - margin - title_h - 2.0 * shadow) / f32::from(drows))
        .clamp(18.0, 130.0);
    let grid = vec2(cell * f32::from(dcols), cell * f32::from(drows));
    let origin = pos2(
        rect.center().x - grid.x / 2.0 + margin / 2.0,
        rect.top()
            + title_h
            + shadow
            + ((rect.height() - title_h - margin - 2.0 * shadow - grid.y) / 2.0).max(0.0),
    );
    let painter = ui.painter_at(rect);
    if title_h > 0.0 {
        painter.text(
            pos2(rect.center().x, rect.top() + 4.0),
            Align2::CENTER_TOP,
            board.title.get(lang.code()),
            FontId::proportional(24.0),
            widgets::TEXT,
        );
    }
    let cell_rect = |col: u16, row: u16| {
        let (dc, dr) = rotate(board, rotation, col, row);
        Rect::from_min_size(
            origin + vec2(f32::from(dc) * cell, f32::from(dr) * cell),
            vec2(cell, cell),
        )
    };
    // Board shadow.
    painter.rect_filled(
        Rect::from_min_size(origin, grid).expand(6.0),
        8.0,
        Color32::from_rgb(0x0d, 0x0f, 0x18),
    );
    let label_font = FontId::proportional((cell * 0.22).clamp(12.0, 20.0));
    for row in 0..board.rows {
        for col in 0..board.cols {
            let Some(c) = board.cell(col, row) else {
                continue;
            };
            if c.kind == "void" {
                continue;
            }
            let r = cell_rect(col, row);
            let fill = colour(c.colour);
            painter.rect_filled(r.shrink(1.0), 3.0, fill);
            if !c.label.is_empty() {
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    &c.label,
                    FontId::proportional(cell * 0.4),
                    ink_on(fill).gamma_multiply(0.55),
                );
            }
        }
    }
    // Coordinates along the edges.
    for col in 0..board.cols {
        if let Some(label) = board.col_labels.get(col as usize) {
            let r = cell_rect(col, board.rows - 1);
            let (pos, align) = if rotation.is_multiple_of(2) {
                (
                    pos2(r.center().x, origin.y + grid.y + 4.0),
                    Align2::CENTER_TOP,
                )
            } else {
                (pos2(origin.x - 8.0, r.center().y), Align2::RIGHT_CENTER)
            };
            painter.text(pos, align, label, label_font.clone(), widgets::MUTED);
        }
    }
    for row in 0..board.rows {
        if let Some(label) = board.row_labels.get(row as usize) {
            let r = cell_rect(0, row);
            let (pos, align) = if rotation.is_multiple_of(2) {
                (pos2(origin.x - 8.0, r.center().y), Align2::RIGHT_CENTER)
            } else {
                (
                    pos2(r.center().x, origin.y + grid.y + 4.0),
                    Align2::CENTER_TOP,
                )
            };
            painter.text(pos, align, label, label_font.clone(), widgets::MUTED);
        }
    }
    let mut stacks: HashMap<(u16, u16), Vec<&Piece>> = HashMap::new();
    for p in &board.pieces {
        stacks.entry((p.col, p.row)).or_default().push(p);
    }
    // Highlights, clicks and legal targets, cell by cell.
    for row in 0..board.rows {
        for col in 0..board.cols {
            let Some(c) = board.cell(col, row) else {
                continue;
            };
            if c.kind == "void" {
                continue;
            }
            let r = cell_rect(col, row);
            // Several pieces may share a cell (a stack: bottom first). A click offers the
            // top piece first, then the ones under it, then the cell.
            let stack = stacks.get(&(col, row)).map_or(&[][..], |v| &v[..]);
            let piece = stack.last().copied();
            let mut targets = Vec::with_capacity(stack.len() + 1);
            targets.extend(stack.iter().rev().map(|p| Target::piece(p.id.clone())));
            targets.push(Target::cell(board.id.clone(), col, row));
            if let Some(kind) = lit.highlight(&targets) {
                let stroke_colour = match kind {
                    HighlightKind::LastMove => Color32::from_rgb(0xff, 0xd8, 0x6b),
                    HighlightKind::Selected => ACCENT,
                    HighlightKind::Danger => Color32::from_rgb(0xe5, 0x3e, 0x3e),
                    HighlightKind::Info => Color32::from_rgb(0x5c, 0xb8, 0xff),
                };
                painter.rect_stroke(
                    r.shrink(3.0),
                    4.0,
                    Stroke::new((cell * 0.06).max(2.0), stroke_colour),
                    egui::StrokeKind::Inside,
                );
            }
            let is_selected = targets.iter().any(|t| lit.selected.contains(t));
            let is_next = targets.iter().any(|t| lit.next.contains(t));
            let is_first = targets.iter().any(|t| lit.first.contains(t));
            let clickable = is_next || is_first;
            let square = square_name(board, col, row);
            // The pieces' names, top first, for the pointer and for screen readers.
            let names: Vec<&str> = stack
                .iter()
                .rev()
                .filter_map(|p| p.name.as_ref().map(|n| n.get(lang.code())))
                .collect();
            let name = if names.is_empty() {
                square
            } else {
                format!("{square} — {}", names.join(", "))
            };
            let id = ui.scope_id().with(("cell", &board.id, col, row));
            let response = ui.interact(
                r,
                id,
                if clickable {
                    Sense::click()
                } else {
                    Sense::hover()
                },
            );
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, clickable, &name));
            let response = if names.is_empty() {
                response
            } else {
                response.on_hover_text(names.join(", "))
            };
            draw_stack(&painter, r, stack);
            if is_selected {
                painter.rect_stroke(
                    r.shrink(2.0),
                    4.0,
                    Stroke::new((cell * 0.08).max(3.0), ACCENT),
                    egui::StrokeKind::Inside,
                );
            } else if !lit.help.targets {
                // Assisted mode off: nothing tells where a piece may go.
            } else if is_next && !lit.selected.is_empty() {
                let glow = Color32::from_rgba_unmultiplied(0xf2, 0xb3, 0x4f, 200);
                if piece.is_some() {
                    painter.circle_stroke(r.center(), cell * 0.44, Stroke::new(4.0, glow));
                } else {
                    painter.circle_filled(r.center(), cell * 0.17, glow);
                    painter.circle_stroke(
                        r.center(),
                        cell * 0.17,
                        Stroke::new(2.0, Color32::from_rgb(0x3a, 0x26, 0x05)),
                    );
                }
            } else if is_first && lit.selected.is_empty() && piece.is_none() {
                painter.circle_stroke(
                    r.center(),
                    cell * 0.2,
                    Stroke::new(3.0, ACCENT.gamma_multiply(0.8)),
                );
            }
            if clickable && response.hovered() {
                painter.rect_stroke(
                    r.shrink(1.0),
                    4.0,
                    Stroke::new(2.5, Color32::WHITE),
                    egui::StrokeKind::Inside,
                );
                ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
            }
            if response.clicked() {
                clicks.push(targets);
            }
        }
    }
}

/// Draws the pieces of one cell: one fills the cell; a stack is drawn smaller, each piece a
/// little lower and to the right of the one under it, with its height in a badge.
fn draw_stack(painter: &egui::Painter, r: Rect, stack: &[&Piece]) {
    let n = stack.len();
    if n == 0 {
        return;
    }
    if n == 1 {
        draw_piece(painter, r, stack[0]);
        return;
    }
    let s = r.width();
    let scale = (1.0 - 0.16 * (n - 1) as f32).max(0.62);
    let step = (s * (1.0 - scale) / (n - 1) as f32).min(s * 0.16);
    let start = r.center() - vec2(step, step) * ((n - 1) as f32 / 2.0);
    for (i, piece) in stack.iter().enumerate() {
        let centre = start + vec2(step, step) * i as f32;
        draw_piece(
            painter,
            Rect::from_center_size(centre, vec2(s * scale, s * scale)),
            piece,
        );
    }
    let badge = r.right_top() + vec2(-s * 0.14, s * 0.14);
    painter.circle(
        badge,
        s * 0.12,
        Color32::from_rgb(0x15, 0x15, 0x1c),
        Stroke::new(1.5, ACCENT),
    );
    painter.text(
        badge,
        Align2::CENTER_CENTER,
        n.to_string(),
        FontId::proportional((s * 0.16).max(11.0)),
        ACCENT,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use veillee_sdk::{Cell, Colour};

    #[test]
    fn rotation_keeps_every_cell_on_the_grid() {
        let board = Board::filled(
            "b",
            3,
            2,
            Cell {
                kind: "x".into(),
                colour: Colour::rgb(0, 0, 0),
                label: String::new(),
            },
        );
        for rotation in 0..4 {
            let mut seen = HashSet::new();
            for row in 0..2 {
                for col in 0..3 {
                    let (c, r) = rotate(&board, rotation, col, row);
                    let (w, h) = if rotation % 2 == 1 { (2, 3) } else { (3, 2) };
                    assert!(c < w && r < h);
                    seen.insert((c, r));
                }
            }
            assert_eq!(seen.len(), 6);
        }
    }
}
