//! Draws any plugin's [`Scene`] and turns clicks into actions, knowing nothing of the game.
//!
//! Boards of any size (rotated by the scene's quarter turns), cells with their colours and
//! labels, pieces by shape and colour, card zones face up or down, highlights. Clicking
//! walks the actions' click paths: the first click picks something that starts a path (a
//! piece), the cells or pieces that can follow light up, and a click on one of them either
//! completes an action or narrows it down; when several actions share the whole path, the
//! remaining ones are offered as buttons. Every clickable square and card is an accessible
//! button named after it (`"d6"`), so tests and screen readers find them.

use std::collections::{HashMap, HashSet};

use egui::{pos2, vec2, Align2, Color32, FontId, Rect, Sense, Shape as EShape, Stroke, Ui};
use veillee_sdk::{Action, Board, HighlightKind, Piece, Scene, ScoreLine, Seat, Shape, Target};

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
    /// With zones (hands, a market) and room to the side, the board stands on the left and
    /// the zones in a scrolling column on the right; otherwise the zones go under the board.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        scene: &Scene,
        actions: &[Action],
        lang: Lang,
        help: Help,
        viewer: Option<Seat>,
    ) -> Chosen {
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
            help,
        };
        let mut clicks: Vec<Vec<Target>> = Vec::new();
        let avail = ui.available_size();
        // The viewer's own zones (their hand) first, then the others in the scene's order.
        let mut zones: Vec<&veillee_sdk::Zone> = scene.zones.iter().collect();
        zones.sort_by_key(|z| viewer.is_none() || z.owner != viewer);
        let has_zones = !scene.zones.is_empty();
        let side_by_side = has_zones && !scene.boards.is_empty() && avail.x > avail.y * 1.05;
        if side_by_side {
            // Two fixed rectangles, so that nothing spills over the panels around.
            let area = Rect::from_min_size(ui.cursor().min, avail);
            let gap = 16.0;
            let board_w = (avail.x * 0.62).min(avail.y * 1.02).max(avail.x * 0.5);
            let board_rect = Rect::from_min_size(area.min, vec2(board_w, avail.y));
            let zones_rect =
                Rect::from_min_max(pos2(board_rect.right() + gap, area.top()), area.max);
            ui.allocate_rect(area, Sense::hover());
            let h = avail.y / scene.boards.len() as f32;
            for (i, board) in scene.boards.iter().enumerate() {
                let rect =
                    Rect::from_min_size(board_rect.min + vec2(0.0, h * i as f32), vec2(board_w, h));
                draw_board(ui, rect, board, scene.rotation, &lit, lang, &mut clicks);
            }
            ui.scope_builder(egui::UiBuilder::new().max_rect(zones_rect), |ui| {
                ui.set_clip_rect(zones_rect.intersect(ui.clip_rect()));
                egui::ScrollArea::vertical()
                    .id_salt("zones")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        // Leave room for the scroll bar.
                        let card = card_size(zones_rect.width() - 30.0);
                        for zone in &zones {
                            draw_zone(ui, zone, card, &lit, lang, &mut clicks);
                        }
                    });
            });
        } else {
            let card = card_size(avail.x.min(900.0));
            let zones_height: f32 = scene
                .zones
                .iter()
                .map(|z| zone_height(z, card, avail.x))
                .sum();
            let board_height = if scene.boards.is_empty() {
                0.0
            } else {
                ((avail.y - zones_height) / scene.boards.len() as f32).max(220.0)
            };
            egui::ScrollArea::vertical()
                .id_salt("scene")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    for board in &scene.boards {
                        let size = vec2(ui.available_width(), board_height);
                        let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
                        draw_board(ui, rect, board, scene.rotation, &lit, lang, &mut clicks);
                    }
                    for zone in &zones {
                        draw_zone(ui, zone, card, &lit, lang, &mut clicks);
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

/// What the play screen's assisted mode shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Help {
    /// Light up what can be clicked (pieces that can move, their destinations).
    pub targets: bool,
    /// Show the game's "last move" highlights.
    pub last_move: bool,
}

impl Default for Help {
    fn default() -> Self {
        Help {
            targets: true,
            last_move: true,
        }
    }
}

/// The size of a face-up card for a column this wide: four to a row in a narrow column,
/// more in a wide one, never too small to read.
fn card_size(width: f32) -> egui::Vec2 {
    let gap = 12.0;
    let (least, most) = (80.0, 124.0);
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
fn zone_height(zone: &veillee_sdk::Zone, card: egui::Vec2, width: f32) -> f32 {
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
fn draw_zone(
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

/// What is lit up this frame.
struct Lit<'a> {
    first: &'a HashSet<Target>,
    next: &'a HashSet<Target>,
    selected: &'a [Target],
    scene: &'a Scene,
    help: Help,
}

impl Lit<'_> {
    fn highlight(&self, targets: &[Target]) -> Option<HighlightKind> {
        self.scene
            .highlights
            .iter()
            .filter(|h| self.help.last_move || h.kind != HighlightKind::LastMove)
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
        // As large as fits across the piece, and never unreadably small.
        let room = s * 0.6;
        let mut size = (s * 0.3).max(11.0);
        let mut galley =
            painter.layout_no_wrap(piece.label.clone(), FontId::proportional(size), ink);
        if galley.size().x > room {
            size = (size * room / galley.size().x).max(11.0);
            galley = painter.layout_no_wrap(piece.label.clone(), FontId::proportional(size), ink);
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
    response.clicked()
}

/// The scene's score lines as a small table. Lines about a seat are laid out with one
/// column per seat, headed by `seat`'s name and colour for it.
pub fn scores_ui(ui: &mut Ui, scene: &Scene, lang: Lang, seat: impl Fn(Seat) -> (String, Color32)) {
    if scene.scores.is_empty() {
        return;
    }
    let code = lang.code();
    ui.label(
        egui::RichText::new(lang.t(S::Scores))
            .strong()
            .color(widgets::MUTED),
    );
    let general: Vec<&ScoreLine> = scene.scores.iter().filter(|l| l.seat.is_none()).collect();
    if !general.is_empty() {
        egui::Grid::new("scores")
            .num_columns(2)
            .spacing([24.0, 6.0])
            .show(ui, |ui| {
                for line in general {
                    ui.label(line.label.get(code));
                    ui.label(egui::RichText::new(&line.value).strong());
                    ui.end_row();
                }
            });
    }
    let mut seats: Vec<Seat> = Vec::new();
    let mut labels: Vec<&veillee_sdk::Text> = Vec::new();
    for line in &scene.scores {
        if let Some(s) = line.seat {
            if !seats.contains(&s) {
                seats.push(s);
            }
            if !labels.contains(&&line.label) {
                labels.push(&line.label);
            }
        }
    }
    if seats.is_empty() {
        return;
    }
    // One row per seat (there may be five), one column per kind of figure; when that does
    // not fit across the panel, one line per seat.
    let measure = |text: &str, size: f32| {
        ui.painter()
            .layout_no_wrap(text.to_string(), FontId::proportional(size), Color32::WHITE)
            .size()
            .x
    };
    let names = seats
        .iter()
        .map(|&s| measure(&seat(s).0, 21.0) + 20.0)
        .fold(0.0, f32::max);
    let wide: f32 = labels
        .iter()
        .map(|l| measure(l.get(code), 16.0) + 14.0)
        .sum::<f32>()
        + names
        + 14.0;
    if wide > ui.available_width() {
        for &s in &seats {
            let (name, dot) = seat(s);
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 6.0;
                widgets::seat_dot(ui, dot, 14.0);
                ui.label(egui::RichText::new(name).strong());
            });
            ui.indent(("seat-score", s), |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.spacing_mut().item_spacing.x = 6.0;
                    for line in scene.scores.iter().filter(|l| l.seat == Some(s)) {
                        ui.label(
                            egui::RichText::new(line.label.get(code))
                                .small()
                                .color(widgets::MUTED),
                        );
                        ui.label(egui::RichText::new(format!("{}   ", line.value)).strong());
                    }
                });
            });
        }
        return;
    }
    egui::Grid::new("seat-scores")
        .num_columns(labels.len() + 1)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            ui.label("");
            for label in &labels {
                ui.label(
                    egui::RichText::new(label.get(code))
                        .small()
                        .color(widgets::MUTED),
                );
            }
            ui.end_row();
            for &s in &seats {
                let (name, dot) = seat(s);
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 6.0;
                    widgets::seat_dot(ui, dot, 14.0);
                    ui.label(name);
                });
                for label in &labels {
                    let value = scene
                        .scores
                        .iter()
                        .find(|l| l.seat == Some(s) && &&l.label == label)
                        .map_or("", |l| l.value.as_str());
                    ui.label(egui::RichText::new(value).strong());
                }
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
