//! The board: its cells in their layout (squares, points and lines, hexagons, a track), turned
//! by the scene's quarter turns, their names, and stacks of pieces.

use std::collections::HashMap;

use egui::{
    pos2, vec2, Align2, Color32, FontId, Pos2, Rect, Sense, Shape as EShape, Stroke, Ui, Vec2,
};
use veillee_sdk::{Board, Cell, HighlightKind, Layout, Line, Piece, Target};

use super::geometry::Geometry;
use super::pieces::draw_piece;
use super::Lit;
use crate::i18n::Lang;
use crate::widgets::{self, colour, ink_on, ACCENT};

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

/// Draws a board in `rect`: its title, its plate and shadow, its cells and lines, its
/// coordinates and its pieces; then, unless it is a still picture, each cell's highlights
/// and clicks. A click on a cell that leads somewhere adds what it offers to `clicks`.
pub(super) fn draw_board(
    ui: &mut Ui,
    rect: Rect,
    board: &Board,
    rotation: u8,
    lit: &Lit,
    lang: Lang,
    clicks: &mut Vec<Vec<Target>>,
) {
    if board.cols == 0 || board.rows == 0 {
        return;
    }
    // A still picture (the library's) has no title, coordinates or clicks.
    let title_h = if board.title.en.is_empty() || lit.still {
        0.0
    } else {
        34.0
    };
    let draw = Drawing::fit(board, rotation, rect, title_h, lit.still);
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
    draw_shadow(&painter, board, &draw);
    if draw.geo.layout() == Layout::Points {
        draw_plate_under_points(&painter, board, &draw);
    }
    draw_cells_and_lines(&painter, board, &draw);
    if !lit.still {
        draw_coordinates(&painter, board, &draw, draw.grid());
    }
    let pieces = Stacks::of(board);
    if lit.still {
        for ((col, row), stack) in &pieces.stacks {
            let place = draw.rect(*col, *row);
            draw_stack(&painter, place, stack, &board.id, lit, lang);
        }
        return;
    }
    cells_ui(ui, &painter, &draw, &pieces, lit, lang, clicks);
}

/// The board's shadow: the shape of its hexagons, else a rounded box around it.
fn draw_shadow(painter: &egui::Painter, board: &Board, draw: &Drawing) {
    let shadow_colour = Color32::from_rgb(0x0d, 0x0f, 0x18);
    if let Layout::Hexes { .. } = draw.geo.layout() {
        // Hexagons cast their own shape: a rhombus of Hex leaves no dark corners.
        for row in 0..board.rows {
            for col in 0..board.cols {
                if board.cell(col, row).is_some_and(|c| !c.is_void()) {
                    let radius = Geometry::HEX_RADIUS * draw.unit + 6.0;
                    if let Some(corners) = draw.geo.hexagon(draw.centre(col, row), radius) {
                        painter.add(EShape::convex_polygon(corners, shadow_colour, Stroke::NONE));
                    }
                }
            }
        }
    } else {
        let area = Rect::from_min_size(draw.origin, draw.grid());
        painter.rect_filled(area.expand(6.0), 8.0, shadow_colour);
    }
}

/// The board under the points takes their shape (a cross for Fox and Geese, a square for
/// Morris): a square of it around each place of the plate, overlapping a little so that no
/// seam shows.
fn draw_plate_under_points(painter: &egui::Painter, board: &Board, draw: &Drawing) {
    let plate = plate_under_points(board);
    for row in 0..board.rows {
        for col in 0..board.cols {
            if plate[usize::from(row) * usize::from(board.cols) + usize::from(col)] {
                let square = Rect::from_center_size(draw.centre(col, row), Vec2::splat(draw.unit));
                painter.rect_filled(square.expand(0.5), 0.0, draw.plate);
            }
        }
    }
}

/// The drawn cells, and the lines: under the cells on points and tracks, over them on
/// squares and hexagons.
fn draw_cells_and_lines(painter: &egui::Painter, board: &Board, draw: &Drawing) {
    let under = matches!(draw.geo.layout(), Layout::Points | Layout::Track);
    if under {
        draw_lines(painter, board, draw);
    }
    for row in 0..board.rows {
        for col in 0..board.cols {
            if let Some(c) = board.cell(col, row).filter(|c| !c.is_void()) {
                draw.space(painter, col, row, c);
            }
        }
    }
    if !under {
        draw_lines(painter, board, draw);
    }
}

/// The pieces of a board, by the cell they stand on, bottom first.
struct Stacks<'a> {
    board: &'a Board,
    stacks: HashMap<(u16, u16), Vec<&'a Piece>>,
}

impl<'a> Stacks<'a> {
    fn of(board: &'a Board) -> Self {
        let mut stacks: HashMap<(u16, u16), Vec<&Piece>> = HashMap::new();
        for p in &board.pieces {
            stacks.entry((p.col, p.row)).or_default().push(p);
        }
        Stacks { board, stacks }
    }

    /// Cell (col, row) with what stands on it.
    fn at(&self, (col, row): (u16, u16)) -> CellAt<'_> {
        CellAt {
            board: self.board,
            col,
            row,
            stack: self.stacks.get(&(col, row)).map_or(&[][..], |v| &v[..]),
        }
    }
}

/// Highlights, clicks and legal targets, cell by cell; what a click offers goes to `clicks`.
fn cells_ui(
    ui: &mut Ui,
    painter: &egui::Painter,
    draw: &Drawing,
    pieces: &Stacks<'_>,
    lit: &Lit,
    lang: Lang,
    clicks: &mut Vec<Vec<Target>>,
) {
    let board = pieces.board;
    // The cell under the pointer, by the shapes drawn: boxes around hexagons overlap, so
    // which box egui finds under the pointer does not say which hexagon it is in.
    let pointed = ui
        .input(|i| i.pointer.latest_pos())
        .and_then(|pos| draw.cell_at(board, pos));
    for row in 0..board.rows {
        for col in 0..board.cols {
            if board.cell(col, row).is_none_or(|c| c.is_void()) {
                continue;
            }
            let Some(clicked) = pieces
                .at((col, row))
                .ui(ui, painter, draw, lit, lang, pointed)
            else {
                continue;
            };
            // A click on this cell's box, meant for the cell drawn under the pointer.
            let meant = match clicked {
                Some(pos) => draw.cell_at(board, pos),
                None => Some((col, row)),
            };
            if let Some(meant) = meant.map(|at| pieces.at(at)).filter(|c| c.clickable(lit)) {
                clicks.push(meant.targets());
            }
        }
    }
}

/// Where a board is drawn on the screen.
struct Drawing {
    geo: Geometry,
    origin: Pos2,
    /// Pixels per unit (one square, point spacing or hexagon across).
    unit: f32,
    /// The colour most cells have: the board under points, and their plain colour.
    plate: Color32,
}

impl Drawing {
    /// The board fitted in `rect` under a title `title_h` high: as large as fits (and never
    /// smaller than readable, but for a still picture), centred across, with room for the
    /// coordinates on the left and below (when there are some) and for the board's shadow
    /// on every side.
    fn fit(board: &Board, rotation: u8, rect: Rect, title_h: f32, still: bool) -> Drawing {
        let geo = Geometry::new(board, rotation);
        let units = geo.size();
        let labelled = (!board.col_labels.is_empty() || !board.row_labels.is_empty()) && !still;
        let margin = if labelled { 30.0 } else { 0.0 };
        let shadow = 8.0;
        let unit = ((rect.width() - margin - 2.0 * shadow) / units.x)
            .min((rect.height() - margin - title_h - 2.0 * shadow) / units.y)
            .clamp(if still { 2.0 } else { 18.0 }, 130.0);
        let grid = units * unit;
        let origin = pos2(
            rect.center().x - grid.x / 2.0 + margin / 2.0,
            rect.top()
                + title_h
                + shadow
                + ((rect.height() - title_h - margin - 2.0 * shadow - grid.y) / 2.0).max(0.0),
        );
        Drawing {
            geo,
            origin,
            unit,
            plate: plate_colour(board),
        }
    }

    /// The size of the board's grid on the screen.
    fn grid(&self) -> Vec2 {
        self.geo.size() * self.unit
    }

    fn centre(&self, col: u16, row: u16) -> Pos2 {
        self.origin + self.geo.centre(col, row) * self.unit
    }

    /// The box around a cell's shape, where it takes clicks and the pointer.
    fn hit_rect(&self, col: u16, row: u16) -> Rect {
        Rect::from_center_size(self.centre(col, row), self.geo.cell_extent() * self.unit)
    }

    /// The drawn cell whose shape holds the screen position `pos`, if any.
    fn cell_at(&self, board: &Board, pos: Pos2) -> Option<(u16, u16)> {
        let (col, row) = self.geo.cell_at((pos - self.origin) / self.unit)?;
        board
            .cell(col, row)
            .is_some_and(|c| !c.is_void())
            .then_some((col, row))
    }

    /// The square a cell's pieces are drawn in.
    fn rect(&self, col: u16, row: u16) -> Rect {
        let side = match self.geo.layout() {
            Layout::Squares => 1.0,
            Layout::Points => 0.92,
            Layout::Hexes { .. } => 0.86,
            Layout::Track => 0.84,
        };
        Rect::from_center_size(self.centre(col, row), Vec2::splat(side * self.unit))
    }

    /// Draws one cell: a square, a point, a hexagon or a space of a track, and its label.
    fn space(&self, painter: &egui::Painter, col: u16, row: u16, cell: &Cell) {
        let fill = colour(cell.colour);
        let centre = self.centre(col, row);
        let u = self.unit;
        let mut label_at = centre;
        let mut label_size = u * 0.4;
        match self.geo.layout() {
            Layout::Squares => {
                painter.rect_filled(self.rect(col, row).shrink(1.0), 3.0, fill);
            }
            Layout::Track => {
                let r = self.rect(col, row);
                painter.rect(
                    r,
                    0.12 * u,
                    fill,
                    Stroke::new(1.5, ink_on(fill).gamma_multiply(0.5)),
                    egui::StrokeKind::Inside,
                );
            }
            Layout::Hexes { .. } => {
                let radius = Geometry::HEX_RADIUS * u - 1.0;
                if let Some(corners) = self.geo.hexagon(centre, radius) {
                    painter.add(EShape::convex_polygon(corners, fill, Stroke::NONE));
                }
            }
            Layout::Points => {
                // Plain points are small dots; a point of another colour (a special point)
                // is a larger disc in that colour.
                let ink = ink_on(self.plate);
                if fill == self.plate {
                    painter.circle_filled(centre, 0.09 * u, ink);
                } else {
                    painter.circle(centre, 0.2 * u, fill, Stroke::new(2.0, ink));
                }
                label_at = centre + vec2(0.27 * u, 0.27 * u);
                label_size = u * 0.22;
            }
        }
        if !cell.label.is_empty() {
            let on = if self.geo.layout() == Layout::Points {
                self.plate
            } else {
                fill
            };
            painter.text(
                label_at,
                Align2::CENTER_CENTER,
                &cell.label,
                FontId::proportional(label_size),
                ink_on(on).gamma_multiply(0.55),
            );
        }
    }

    /// Strokes a cell's outline `inset` pixels inside it: a square, a hexagon, or a ring
    /// around a point.
    fn outline(&self, painter: &egui::Painter, col: u16, row: u16, inset: f32, stroke: Stroke) {
        let centre = self.centre(col, row);
        match self.geo.layout() {
            Layout::Points => {
                painter.circle_stroke(centre, 0.44 * self.unit - inset, stroke);
            }
            Layout::Hexes { .. } => {
                let radius = Geometry::HEX_RADIUS * self.unit - inset - 1.0;
                if let Some(corners) = self.geo.hexagon(centre, radius) {
                    painter.add(EShape::closed_line(corners, stroke));
                }
            }
            Layout::Squares | Layout::Track => {
                painter.rect_stroke(
                    self.rect(col, row).shrink(inset),
                    4.0,
                    stroke,
                    egui::StrokeKind::Inside,
                );
            }
        }
    }
}

/// Which places of a board of points stand on the board's plate, row by row: the points,
/// the places its lines cross, and every place they enclose — not the holes open to the
/// outside, so that Fox and Geese stays a cross while the rings of Morris make a square.
fn plate_under_points(board: &Board) -> Vec<bool> {
    let (cols, rows) = (usize::from(board.cols), usize::from(board.rows));
    let index = |col: usize, row: usize| row * cols + col;
    let mut solid = vec![false; cols * rows];
    for row in 0..rows {
        for col in 0..cols {
            let (c, r) = (col as u16, row as u16);
            solid[index(col, row)] = board.cell(c, r).is_some_and(|cell| !cell.is_void())
                || board.lines.iter().any(|line| crosses(line, c, r));
        }
    }
    // Flood the holes open to the outside from the edges of the grid.
    let mut outside = vec![false; cols * rows];
    let mut todo: Vec<(usize, usize)> = (0..rows)
        .flat_map(|row| (0..cols).map(move |col| (col, row)))
        .filter(|&(col, row)| col == 0 || row == 0 || col + 1 == cols || row + 1 == rows)
        .collect();
    while let Some((col, row)) = todo.pop() {
        let i = index(col, row);
        if solid[i] || outside[i] {
            continue;
        }
        outside[i] = true;
        if col > 0 {
            todo.push((col - 1, row));
        }
        if row > 0 {
            todo.push((col, row - 1));
        }
        if col + 1 < cols {
            todo.push((col + 1, row));
        }
        if row + 1 < rows {
            todo.push((col, row + 1));
        }
    }
    outside.into_iter().map(|out| !out).collect()
}

/// Whether `line` passes through the centre of cell (col, row).
fn crosses(line: &Line, col: u16, row: u16) -> bool {
    let [[c1, r1], [c2, r2]] = [line.from, line.to].map(|[c, r]| [i32::from(c), i32::from(r)]);
    let (c, r) = (i32::from(col), i32::from(row));
    let on_line = (c2 - c1) * (r - r1) == (r2 - r1) * (c - c1);
    on_line && c1.min(c2) <= c && c <= c1.max(c2) && r1.min(r2) <= r && r <= r1.max(r2)
}

/// The colour of most drawn cells.
fn plate_colour(board: &Board) -> Color32 {
    let mut counts: HashMap<Color32, usize> = HashMap::new();
    for cell in board.cells.iter().filter(|c| !c.is_void()) {
        *counts.entry(colour(cell.colour)).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(c, n)| (n, c.to_array()))
        .map_or(Color32::from_rgb(0x60, 0x50, 0x40), |(c, _)| c)
}

/// The board's lines: the lines of a board of points, the path of a track (broad, under its
/// spaces), marks over squares and hexagons. A line with an end off the board is skipped.
fn draw_lines(painter: &egui::Painter, board: &Board, draw: &Drawing) {
    let stroke = match draw.geo.layout() {
        Layout::Points => Stroke::new(
            (draw.unit * 0.045).max(2.0),
            ink_on(draw.plate).gamma_multiply(0.75),
        ),
        Layout::Track => Stroke::new(
            draw.unit * 0.22,
            Color32::from_rgb(0xc9, 0xb7, 0x8f).gamma_multiply(0.55),
        ),
        _ => Stroke::new((draw.unit * 0.035).max(1.5), Color32::from_black_alpha(150)),
    };
    for line in &board.lines {
        let [[c1, r1], [c2, r2]] = [line.from, line.to];
        if draw.geo.contains(c1, r1) && draw.geo.contains(c2, r2) {
            painter.line_segment([draw.centre(c1, r1), draw.centre(c2, r2)], stroke);
        }
    }
}

/// Column labels along the bottom edge and row labels along the left one (the other way
/// round on a board turned a quarter).
fn draw_coordinates(painter: &egui::Painter, board: &Board, draw: &Drawing, grid: Vec2) {
    let font = FontId::proportional((draw.unit * 0.22).clamp(12.0, 20.0));
    let bottom = draw.origin.y + grid.y + 4.0;
    let left = draw.origin.x - 8.0;
    let last_row = board.rows - 1;
    let along_bottom = |x: f32| (pos2(x, bottom), Align2::CENTER_TOP);
    let along_left = |y: f32| (pos2(left, y), Align2::RIGHT_CENTER);
    for (col, label) in board.col_labels.iter().enumerate().take(board.cols.into()) {
        let c = draw.centre(col as u16, last_row);
        let (pos, align) = if draw.geo.sideways() {
            along_left(c.y)
        } else {
            along_bottom(c.x)
        };
        painter.text(pos, align, label, font.clone(), widgets::MUTED);
    }
    for (row, label) in board.row_labels.iter().enumerate().take(board.rows.into()) {
        let c = draw.centre(0, row as u16);
        let (pos, align) = if draw.geo.sideways() {
            along_bottom(c.x)
        } else {
            along_left(c.y)
        };
        painter.text(pos, align, label, font.clone(), widgets::MUTED);
    }
}

/// One drawn cell with the pieces on it: its highlights, its click and its name.
struct CellAt<'a> {
    board: &'a Board,
    col: u16,
    row: u16,
    /// Bottom first.
    stack: &'a [&'a Piece],
}

impl CellAt<'_> {
    /// What a click on the cell offers: the top piece first, then the ones under it, then
    /// the cell.
    fn targets(&self) -> Vec<Target> {
        let mut targets = Vec::with_capacity(self.stack.len() + 1);
        targets.extend(self.stack.iter().rev().map(|p| Target::piece(p.id.clone())));
        targets.push(Target::cell(self.board.id.clone(), self.col, self.row));
        targets
    }

    /// Whether a click on it goes somewhere: it starts a click path or continues the
    /// selection.
    fn clickable(&self, lit: &Lit) -> bool {
        self.targets()
            .iter()
            .any(|t| lit.next.contains(t) || lit.first.contains(t))
    }

    /// Its name for the pointer and screen readers: the square, then the pieces' names.
    fn name(&self, lang: Lang) -> (String, Vec<&str>) {
        let square = square_name(self.board, self.col, self.row);
        let names: Vec<&str> = self
            .stack
            .iter()
            .rev()
            .filter_map(|p| p.name.as_ref().map(|n| n.get(lang.code())))
            .collect();
        if names.is_empty() {
            (square, names)
        } else {
            (format!("{square} — {}", names.join(", ")), names)
        }
    }

    /// Draws the cell's highlights and pieces and takes the pointer over its box. Returns
    /// `Some` when its box was clicked: with where the pointer was, which may be in a
    /// neighbouring hexagon (`None` for a click from a screen reader).
    fn ui(
        &self,
        ui: &mut Ui,
        painter: &egui::Painter,
        draw: &Drawing,
        lit: &Lit,
        lang: Lang,
        pointed: Option<(u16, u16)>,
    ) -> Option<Option<Pos2>> {
        let (col, row) = (self.col, self.row);
        let r = draw.rect(col, row);
        let unit = draw.unit;
        let targets = self.targets();
        if let Some(kind) = lit.highlight(&targets) {
            let stroke_colour = match kind {
                HighlightKind::LastMove => Color32::from_rgb(0xff, 0xd8, 0x6b),
                HighlightKind::Selected => ACCENT,
                HighlightKind::Danger => Color32::from_rgb(0xe5, 0x3e, 0x3e),
                HighlightKind::Info => Color32::from_rgb(0x5c, 0xb8, 0xff),
            };
            draw.outline(
                painter,
                col,
                row,
                3.0,
                Stroke::new((unit * 0.06).max(2.0), stroke_colour),
            );
        }
        let is_selected = targets.iter().any(|t| lit.selected.contains(t));
        let is_next = targets.iter().any(|t| lit.next.contains(t));
        let is_first = targets.iter().any(|t| lit.first.contains(t));
        let clickable = is_next || is_first;
        let (name, names) = self.name(lang);
        let id = ui.scope_id().with(("cell", &self.board.id, col, row));
        let sense = if clickable {
            Sense::click()
        } else {
            Sense::hover()
        };
        let response = ui.interact(draw.hit_rect(col, row), id, sense);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, clickable, &name));
        let under_pointer = response.contains_pointer() && pointed == Some((col, row));
        let response = if names.is_empty() || !under_pointer {
            response
        } else {
            response.on_hover_text(names.join(", "))
        };
        draw_stack(painter, r, self.stack, &self.board.id, lit, lang);
        let occupied = !self.stack.is_empty();
        if is_selected {
            draw.outline(
                painter,
                col,
                row,
                2.0,
                Stroke::new((unit * 0.08).max(3.0), ACCENT),
            );
        } else if !lit.help.targets {
            // Assisted mode off: nothing tells where a piece may go.
        } else if is_next && !lit.selected.is_empty() {
            let glow = Color32::from_rgba_unmultiplied(0xf2, 0xb3, 0x4f, 200);
            if occupied {
                painter.circle_stroke(r.center(), unit * 0.42, Stroke::new(4.0, glow));
            } else {
                painter.circle_filled(r.center(), unit * 0.17, glow);
                painter.circle_stroke(
                    r.center(),
                    unit * 0.17,
                    Stroke::new(2.0, Color32::from_rgb(0x3a, 0x26, 0x05)),
                );
            }
        } else if is_first && lit.selected.is_empty() && !occupied {
            painter.circle_stroke(
                r.center(),
                unit * 0.2,
                Stroke::new(3.0, ACCENT.gamma_multiply(0.8)),
            );
        }
        if clickable && under_pointer {
            draw.outline(painter, col, row, 1.0, Stroke::new(2.5, Color32::WHITE));
            ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
        }
        response.clicked().then(|| response.interact_pointer_pos())
    }
}

/// Draws one piece at its place, or on its way there (see `motion`).
fn draw_moving(
    painter: &egui::Painter,
    place: Rect,
    piece: &Piece,
    board: &str,
    lit: &Lit,
    lang: Lang,
) {
    let key = super::motion::key(board, &piece.id);
    let thing = super::motion::Thing::Piece(piece.clone());
    let (rect, alpha) = lit.motion.place(painter.ctx(), &key, place, thing);
    if alpha <= 0.0 {
        return;
    }
    let mut painter = lit.motion.painter_for(painter, rect, place);
    painter.multiply_opacity(alpha);
    draw_piece(&painter, rect, piece, lang, lit.still);
}

/// Draws the pieces of one cell: one fills the cell; a stack is drawn smaller, each piece a
/// little lower and to the right of the one under it, with its height in a badge.
fn draw_stack(
    painter: &egui::Painter,
    r: Rect,
    stack: &[&Piece],
    board: &str,
    lit: &Lit,
    lang: Lang,
) {
    let n = stack.len();
    if n == 0 {
        return;
    }
    if n == 1 {
        draw_moving(painter, r, stack[0], board, lit, lang);
        return;
    }
    let s = r.width();
    let scale = (1.0 - 0.16 * (n - 1) as f32).max(0.62);
    let step = (s * (1.0 - scale) / (n - 1) as f32).min(s * 0.16);
    let start = r.center() - vec2(step, step) * ((n - 1) as f32 / 2.0);
    for (i, piece) in stack.iter().enumerate() {
        let centre = start + vec2(step, step) * i as f32;
        draw_moving(
            painter,
            Rect::from_center_size(centre, vec2(s * scale, s * scale)),
            piece,
            board,
            lit,
            lang,
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
    use veillee_sdk::Colour;

    /// The plate as text, `#` on it, `.` off it.
    fn plate(board: &Board) -> Vec<String> {
        plate_under_points(board)
            .chunks(usize::from(board.cols))
            .map(|row| row.iter().map(|&on| if on { '#' } else { '.' }).collect())
            .collect()
    }

    fn points(cols: u16, rows: u16, at: &[(u16, u16)]) -> Board {
        let mut board = Board::points("b", cols, rows, Cell::void());
        for &(c, r) in at {
            *board.cell_mut(c, r).unwrap() = Cell::new("point", Colour::rgb(200, 180, 130));
        }
        board
    }

    #[test]
    fn a_cross_of_points_keeps_its_shape() {
        let cross: Vec<_> = (0..5u16)
            .flat_map(|r| (0..5u16).map(move |c| (c, r)))
            .filter(|&(c, r)| (1..=3).contains(&c) || (1..=3).contains(&r))
            .collect();
        assert_eq!(
            plate(&points(5, 5, &cross)),
            [".###.", "#####", "#####", "#####", ".###."]
        );
    }

    #[test]
    fn rings_joined_by_lines_make_a_square_with_what_they_enclose() {
        // Two rings of Morris: corners and middles, joined along their sides.
        let mut board = points(
            5,
            5,
            &[
                (0, 0),
                (2, 0),
                (4, 0),
                (4, 2),
                (4, 4),
                (2, 4),
                (0, 4),
                (0, 2),
                (1, 1),
                (3, 3),
            ],
        );
        for (a, b) in [
            ((0, 0), (4, 0)),
            ((4, 0), (4, 4)),
            ((4, 4), (0, 4)),
            ((0, 4), (0, 0)),
        ] {
            board.join(a, b);
        }
        assert_eq!(plate(&board), ["#####"; 5]);
        // Without the lines, only the points.
        board.lines.clear();
        assert_eq!(plate(&board), ["#.#.#", ".#...", "#...#", "...#.", "#.#.#"]);
    }
}
