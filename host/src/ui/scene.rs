//! Draws any plugin's [`Scene`] and turns clicks into actions, knowing nothing of the game.
//!
//! Boards of any size (rotated by the scene's quarter turns), cells with their colours and
//! labels, pieces by shape and colour, card zones face up or down, highlights. Clicking
//! walks the actions' click paths: the first click picks something that starts a path (a
//! piece), the cells or pieces that can follow light up, and a click on one of them either
//! completes an action or narrows it down; when several actions share the whole path, the
//! remaining ones are offered as buttons. Every clickable square and card is an accessible
//! button named after it (`"d6"`), so tests and screen readers find them.

use std::collections::HashSet;

use egui::{pos2, vec2, Align2, Color32, FontId, Rect, Sense, Shape as EShape, Stroke, Ui};
use veillee_sdk::{Action, Board, HighlightKind, Piece, Scene, Shape, Target};

use super::i18n::{Lang, S};
use super::widgets::{self, colour, ink_on, ACCENT};

/// The click state of a scene: the path prefix chosen so far.
#[derive(Default)]
pub struct SceneView {
    selected: Vec<Target>,
}

/// What the last frame's clicks asked for.
pub type Chosen = Option<String>;

impl SceneView {
    /// Forgets the selection (after a move, an undo, a new view).
    pub fn reset(&mut self) {
        self.selected.clear();
    }

    /// The targets chosen so far.
    pub fn selected(&self) -> &[Target] {
        &self.selected
    }

    /// The actions whose path starts with the selection.
    fn candidates<'a>(&self, actions: &'a [Action]) -> Vec<&'a Action> {
        actions
            .iter()
            .filter(|a| !a.path.is_empty() && a.path.starts_with(&self.selected))
            .collect()
    }

    /// What may be clicked next.
    fn next_targets(&self, actions: &[Action]) -> HashSet<Target> {
        let depth = self.selected.len();
        self.candidates(actions)
            .into_iter()
            .filter_map(|a| a.path.get(depth).cloned())
            .collect()
    }

    /// Actions whose whole path is the selection (more than one: the player picks by name).
    pub fn complete<'a>(&self, actions: &'a [Action]) -> Vec<&'a Action> {
        if self.selected.is_empty() {
            return Vec::new();
        }
        actions.iter().filter(|a| a.path == self.selected).collect()
    }

    /// Handles a click on something; returns the action id when an action is complete.
    fn click(&mut self, clicked: &[Target], actions: &[Action]) -> Chosen {
        let next = self.next_targets(actions);
        let hit = clicked.iter().find(|t| next.contains(t)).cloned();
        let Some(hit) = hit else {
            // Not a continuation: start over from this click if it begins a path.
            let had = !self.selected.is_empty();
            self.selected.clear();
            if had {
                return self.click(clicked, actions);
            }
            return None;
        };
        self.selected.push(hit);
        let complete = self.complete(actions);
        let longer = self
            .candidates(actions)
            .iter()
            .any(|a| a.path.len() > self.selected.len());
        if complete.len() == 1 && !longer {
            let id = complete[0].id.clone();
            self.selected.clear();
            return Some(id);
        }
        None
    }

    /// Draws the scene in the space available and handles clicks on it.
    /// `actions` are the legal actions of the viewer (empty: nothing is clickable).
    pub fn ui(&mut self, ui: &mut Ui, scene: &Scene, actions: &[Action], lang: Lang) -> Chosen {
        let mut chosen = None;
        let first: HashSet<Target> = actions
            .iter()
            .filter_map(|a| a.path.first().cloned())
            .collect();
        let next = self.next_targets(actions);
        let lit = Lit {
            first: &first,
            next: &next,
            selected: &self.selected,
            scene,
        };
        let zones_height = if scene.zones.is_empty() {
            0.0
        } else {
            scene.zones.len() as f32 * 200.0
        };
        let board_height = if scene.boards.is_empty() {
            0.0
        } else {
            ((ui.available_height() - zones_height) / scene.boards.len() as f32).max(160.0)
        };
        let mut clicks: Vec<Vec<Target>> = Vec::new();
        for board in &scene.boards {
            let size = vec2(ui.available_width(), board_height);
            let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
            draw_board(ui, rect, board, scene.rotation, &lit, lang, &mut clicks);
        }
        for zone in &scene.zones {
            ui.add_space(8.0);
            ui.label(egui::RichText::new(zone.title.get(lang.code())).strong());
            ui.horizontal_wrapped(|ui| {
                for card in &zone.cards {
                    let target = Target::Card {
                        id: card.id.clone(),
                    };
                    if draw_card(ui, card, &target, &lit, lang) {
                        clicks.push(vec![target]);
                    }
                }
            });
        }
        for clicked in clicks {
            if let Some(id) = self.click(&clicked, actions) {
                chosen = Some(id);
            }
        }
        chosen
    }
}

/// What is lit up this frame.
struct Lit<'a> {
    first: &'a HashSet<Target>,
    next: &'a HashSet<Target>,
    selected: &'a [Target],
    scene: &'a Scene,
}

impl Lit<'_> {
    fn highlight(&self, targets: &[Target]) -> Option<HighlightKind> {
        self.scene
            .highlights
            .iter()
            .filter(|h| targets.contains(&h.target))
            .map(|h| h.kind)
            .max_by_key(|k| match k {
                HighlightKind::Danger => 3,
                HighlightKind::Selected => 2,
                HighlightKind::LastMove => 1,
                HighlightKind::Info => 0,
            })
    }
}

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

fn square_name(board: &Board, col: u16, row: u16) -> String {
    match (
        board.col_labels.get(col as usize),
        board.row_labels.get(row as usize),
    ) {
        (Some(c), Some(r)) => format!("{c}{r}"),
        _ => format!("{}:{col},{row}", board.id),
    }
}

fn draw_board(
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
    let margin = 30.0;
    let cell = ((rect.width() - margin) / f32::from(dcols))
        .min((rect.height() - margin - title_h) / f32::from(drows))
        .clamp(18.0, 130.0);
    let grid = vec2(cell * f32::from(dcols), cell * f32::from(drows));
    let origin = pos2(
        rect.center().x - grid.x / 2.0 + margin / 2.0,
        rect.top() + title_h + ((rect.height() - title_h - margin - grid.y) / 2.0).max(0.0),
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
            let piece = board.pieces.iter().find(|p| p.col == col && p.row == row);
            let mut targets = Vec::with_capacity(2);
            if let Some(p) = piece {
                targets.push(Target::piece(p.id.clone()));
            }
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
            let name = square_name(board, col, row);
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
            if let Some(p) = piece {
                draw_piece(&painter, r, p);
            }
            if is_selected {
                painter.rect_stroke(
                    r.shrink(2.0),
                    4.0,
                    Stroke::new((cell * 0.08).max(3.0), ACCENT),
                    egui::StrokeKind::Inside,
                );
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

/// Draws a piece by shape in its colour, outlined so that it reads on any cell.
fn draw_piece(painter: &egui::Painter, r: Rect, piece: &Piece) {
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
    if !piece.label.is_empty() {
        painter.text(
            c,
            Align2::CENTER_CENTER,
            &piece.label,
            FontId::proportional(s * 0.3),
            ink,
        );
    }
}

/// Draws one card; returns true when it was clicked as a legal target.
fn draw_card(
    ui: &mut Ui,
    card: &veillee_sdk::Card,
    target: &Target,
    lit: &Lit,
    lang: Lang,
) -> bool {
    let size = vec2(120.0, 170.0);
    let clickable = lit.next.contains(target) || lit.first.contains(target);
    let (rect, response) = ui.allocate_exact_size(
        size,
        if clickable {
            Sense::click()
        } else {
            Sense::hover()
        },
    );
    let name = if card.face_up {
        card.title.get(lang.code()).to_string()
    } else {
        format!("card {}", card.id)
    };
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, clickable, &name));
    let painter = ui.painter_at(rect.expand(4.0));
    if card.face_up {
        let fill = colour(card.colour);
        painter.rect_filled(rect, 10.0, fill);
        let ink = ink_on(fill);
        painter.text(
            rect.center_top() + vec2(0.0, 10.0),
            Align2::CENTER_TOP,
            card.title.get(lang.code()),
            FontId::proportional(19.0),
            ink,
        );
        let galley = painter.layout(
            card.text.get(lang.code()).to_string(),
            FontId::proportional(14.0),
            ink,
            size.x - 16.0,
        );
        painter.galley(rect.left_top() + vec2(8.0, 44.0), galley, ink);
    } else {
        painter.rect_filled(rect, 10.0, Color32::from_rgb(0x3b, 0x2f, 0x6b));
        painter.rect_stroke(
            rect.shrink(8.0),
            6.0,
            Stroke::new(2.0, ACCENT.gamma_multiply(0.6)),
            egui::StrokeKind::Inside,
        );
        painter.text(
            rect.center(),
            Align2::CENTER_CENTER,
            "✦",
            FontId::proportional(34.0),
            ACCENT,
        );
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
    } else if lit.next.contains(target) && !lit.selected.is_empty() {
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
    response.clicked()
}

/// The scene's score lines as a small table.
pub fn scores_ui(ui: &mut Ui, scene: &Scene, lang: Lang) {
    if scene.scores.is_empty() {
        return;
    }
    ui.label(
        egui::RichText::new(lang.t(S::Scores))
            .strong()
            .color(widgets::MUTED),
    );
    egui::Grid::new("scores")
        .num_columns(2)
        .spacing([24.0, 6.0])
        .show(ui, |ui| {
            for line in &scene.scores {
                ui.label(line.label.get(lang.code()));
                ui.label(egui::RichText::new(&line.value).strong());
                ui.end_row();
            }
        });
}

/// The actions without a place on the board, and the ones left to choose between when
/// several share the selected path, as buttons. Returns the action clicked.
pub fn action_buttons(ui: &mut Ui, view: &mut SceneView, actions: &[Action], lang: Lang) -> Chosen {
    let mut chosen = None;
    let complete: Vec<&Action> = view.complete(actions);
    if complete.len() > 1 || (!complete.is_empty() && !view.selected().is_empty()) {
        ui.label(lang.t(S::ChooseAmong));
        for action in complete {
            if widgets::primary(ui, action.label.get(lang.code())).clicked() {
                chosen = Some(action.id.clone());
            }
        }
    }
    if !view.selected().is_empty() && widgets::button(ui, lang.t(S::ClearSelection)).clicked() {
        view.reset();
    }
    let free: Vec<&Action> = actions.iter().filter(|a| a.path.is_empty()).collect();
    for action in free {
        if widgets::primary(ui, action.label.get(lang.code())).clicked() {
            chosen = Some(action.id.clone());
        }
    }
    if chosen.is_some() {
        view.reset();
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::{Cell, Colour, Text};

    fn action(id: &str, path: Vec<Target>) -> Action {
        Action {
            id: id.into(),
            path,
            label: Text::same(id),
        }
    }

    #[test]
    fn a_piece_then_a_cell_completes_a_move() {
        let a = vec![
            action("c0-d2", vec![Target::piece("k1"), Target::cell("b", 3, 4)]),
            action("c0-b2", vec![Target::piece("k1"), Target::cell("b", 1, 4)]),
        ];
        let mut view = SceneView::default();
        assert_eq!(
            view.click(&[Target::piece("k1"), Target::cell("b", 2, 6)], &a),
            None
        );
        assert_eq!(view.next_targets(&a).len(), 2);
        assert_eq!(
            view.click(&[Target::cell("b", 3, 4)], &a),
            Some("c0-d2".to_string())
        );
        assert!(view.selected().is_empty());
    }

    #[test]
    fn several_actions_on_one_path_are_left_to_buttons() {
        let path = vec![Target::piece("p"), Target::cell("b", 0, 0)];
        let a = vec![action("promote-q", path.clone()), action("promote-n", path)];
        let mut view = SceneView::default();
        view.click(&[Target::piece("p")], &a);
        assert_eq!(view.click(&[Target::cell("b", 0, 0)], &a), None);
        assert_eq!(view.complete(&a).len(), 2);
    }

    #[test]
    fn clicking_another_piece_starts_over() {
        let a = vec![
            action("a", vec![Target::piece("x"), Target::cell("b", 0, 0)]),
            action("b", vec![Target::piece("y"), Target::cell("b", 1, 0)]),
        ];
        let mut view = SceneView::default();
        view.click(&[Target::piece("x")], &a);
        view.click(&[Target::piece("y")], &a);
        assert_eq!(view.selected(), &[Target::piece("y")]);
    }

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
