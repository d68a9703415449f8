//! Draws any game's scene as text, with no knowledge of the game.
//!
//! Every layout is drawn on a grid of characters: squares and tracks one character per cell,
//! points with their lines between them (`-`, `|`, `\`, `/`, `X` where two diagonals cross),
//! hexagons staggered as they are in the window. The scene's rotation is not applied: the
//! text shows every board in its own orientation, with its coordinates.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use veillee_sdk::{Board, HexCoords, HexOrientation, Layout, Scene, ScoreLine, Seat, Shape};

/// The scene as lines of text: boards, zones, scores and the message. `seat` names a seat
/// (its figures are printed on one line after its name).
pub fn render(scene: &Scene, lang: &str, seat: &dyn Fn(Seat) -> String) -> String {
    let mut out = String::new();
    for board in &scene.boards {
        render_board(&mut out, board, lang);
    }
    for zone in &scene.zones {
        let cards: Vec<String> = zone
            .cards
            .iter()
            .map(|c| match &c.die {
                Some(die) => die_text(die, c.title.get(lang)),
                None if c.face_up => format!("[{}]", c.title.get(lang)),
                None => "[?]".into(),
            })
            .collect();
        let _ = writeln!(out, "{}: {}", zone.title.get(lang), cards.join(" "));
    }
    scores(&mut out, &scene.scores, lang, seat);
    let _ = writeln!(out, "{}", scene.message.get(lang));
    out
}

/// A die as text: the face on top as a die face character (`⚄` for five pips) or its mark,
/// then its name: `[⚄ 5]`, `[◯ Black, ring]`.
fn die_text(die: &veillee_sdk::Die, name: &str) -> String {
    let face = die.face();
    let glyph = match face.map(|f| f.pips) {
        Some(p @ 1..=6) => char::from_u32(0x2680 + u32::from(p) - 1).map(String::from),
        _ => face.filter(|f| !f.mark.is_empty()).map(|f| f.mark.clone()),
    };
    match glyph {
        Some(g) => format!("[{g} {name}]"),
        None => format!("[{name}]"),
    }
}

/// The score lines: each figure about the whole game on its own line, then one line per
/// seat, named, with its figures ("Red: Ropes 3, Knights in the treasure room 0/3").
fn scores(out: &mut String, lines: &[ScoreLine], lang: &str, seat: &dyn Fn(Seat) -> String) {
    for score in lines.iter().filter(|l| l.seat.is_none()) {
        let _ = writeln!(out, "  {}: {}", score.label.get(lang), score.value);
    }
    let mut seats: Vec<Seat> = Vec::new();
    for s in lines.iter().filter_map(|l| l.seat) {
        if !seats.contains(&s) {
            seats.push(s);
        }
    }
    for s in seats {
        let figures: Vec<String> = lines
            .iter()
            .filter(|l| l.seat == Some(s))
            .map(|l| format!("{} {}", l.label.get(lang), l.value))
            .collect();
        let _ = writeln!(out, "  {}: {}", seat(s), figures.join(", "));
    }
}

/// Characters before the first cell of a line: a row label right-aligned in 3, a space.
const PREFIX: usize = 4;

/// Where a cell's character goes: (column, line) of the text grid, from 0 after the prefix.
fn text_place(layout: Layout, col: u16, row: u16) -> (usize, usize) {
    let (c, r) = (usize::from(col), usize::from(row));
    match layout {
        Layout::Squares | Layout::Track => (2 * c + 1, r),
        Layout::Points => (4 * c + 1, 2 * r),
        Layout::Hexes {
            orientation: HexOrientation::PointyTop,
            coords,
        } => {
            let shift = match coords {
                HexCoords::Offset => r % 2,
                HexCoords::Axial => r,
            };
            (2 * c + 1 + shift, r)
        }
        Layout::Hexes {
            orientation: HexOrientation::FlatTop,
            coords,
        } => {
            let shift = match coords {
                HexCoords::Offset => c % 2,
                HexCoords::Axial => c,
            };
            (2 * c + 1, 2 * r + shift)
        }
    }
}

/// A grid of characters that grows as it is written.
#[derive(Default)]
struct Canvas {
    lines: Vec<Vec<char>>,
}

impl Canvas {
    fn put(&mut self, x: usize, y: usize, c: char) {
        if self.lines.len() <= y {
            self.lines.resize(y + 1, Vec::new());
        }
        let line = &mut self.lines[y];
        if line.len() <= x {
            line.resize(x + 1, ' ');
        }
        // Two diagonals crossing between four points.
        line[x] = match (line[x], c) {
            ('\\', '/') | ('/', '\\') => 'X',
            _ => c,
        };
    }
}

fn render_board(out: &mut String, board: &Board, lang: &str) {
    if !board.title.en.is_empty() {
        let _ = writeln!(out, "{}", board.title.get(lang));
    }
    let common = most_common_kind(board);
    let mut legend: BTreeMap<char, String> = BTreeMap::new();
    let mut canvas = Canvas::default();
    if board.layout == Layout::Points {
        draw_lines(&mut canvas, board);
    }
    // The line each row label goes on.
    let mut row_lines: BTreeMap<usize, &str> = BTreeMap::new();
    for row in 0..board.rows {
        if let Some(label) = board.row_labels.get(usize::from(row)) {
            row_lines.insert(text_place(board.layout, 0, row).1, label);
        }
        for col in 0..board.cols {
            let symbol = match board.pieces.iter().find(|p| p.col == col && p.row == row) {
                Some(piece) => {
                    let c = piece_char(piece.shape, &piece.label, piece.owner);
                    // What it is: its name when it has one (`fox`), else its shape.
                    let what = piece.name.as_ref().map_or_else(
                        || format!("{:?}", piece.shape),
                        |name| name.get(lang).to_string(),
                    );
                    let owner = piece
                        .owner
                        .map(|o| format!(" of seat {o}"))
                        .unwrap_or_default();
                    legend.insert(c, format!("{what}{owner}").to_lowercase());
                    c
                }
                None => cell_char(board, col, row, &common, &mut legend),
            };
            let (x, y) = text_place(board.layout, col, row);
            canvas.put(x, y, symbol);
        }
    }
    for (y, line) in canvas.lines.iter().enumerate() {
        let label = row_lines.get(&y).copied().unwrap_or("");
        let text: String = line.iter().collect();
        let _ = writeln!(out, "{label:>3} {}", text.trim_end());
    }
    if !board.col_labels.is_empty() {
        let _ = writeln!(out, "{}", column_labels(board).trim_end());
    }
    let legend: Vec<String> = legend
        .iter()
        .map(|(c, what)| format!("{c} {what}"))
        .collect();
    if !legend.is_empty() {
        let _ = writeln!(out, "     ({})", legend.join(", "));
    }
}

/// The column labels under the columns of the last row, a space apart at least.
fn column_labels(board: &Board) -> String {
    let mut line = " ".repeat(PREFIX);
    let last = board.rows.saturating_sub(1);
    for (col, label) in board.col_labels.iter().enumerate().take(board.cols.into()) {
        let at = PREFIX + text_place(board.layout, col as u16, last).0;
        let used = line.chars().count();
        let gap = if used > PREFIX && at <= used {
            1
        } else {
            at.saturating_sub(used)
        };
        line.push_str(&" ".repeat(gap));
        line.push_str(label);
    }
    line
}

/// The lines of a board of points, between neighbouring points: `-`, `|`, `\` and `/`.
/// Lines that are not straight along a row, a column or a diagonal are left out.
fn draw_lines(canvas: &mut Canvas, board: &Board) {
    for line in &board.lines {
        let [[c1, r1], [c2, r2]] = [line.from, line.to];
        let (dc, dr) = (i32::from(c2) - i32::from(c1), i32::from(r2) - i32::from(r1));
        let steps = dc.abs().max(dr.abs());
        if steps == 0 || (dc != 0 && dr != 0 && dc.abs() != dr.abs()) {
            continue;
        }
        let (sc, sr) = (dc.signum(), dr.signum());
        for k in 0..steps {
            let (c, r) = (i32::from(c1) + k * sc, i32::from(r1) + k * sr);
            // Between point (c, r) at (4c + 1, 2r) and the next one.
            let (x, y) = (4 * c + 1, 2 * r);
            match (sc, sr) {
                (_, 0) => {
                    let left = x.min(x + 4 * sc);
                    for i in 1..4 {
                        put_signed(canvas, left + i, y, '-');
                    }
                }
                (0, _) => put_signed(canvas, x, y.min(y + 2 * sr) + 1, '|'),
                _ => {
                    let mark = if sc == sr { '\\' } else { '/' };
                    put_signed(canvas, x + 2 * sc, y + sr, mark);
                }
            }
        }
    }
}

fn put_signed(canvas: &mut Canvas, x: i32, y: i32, c: char) {
    if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) {
        canvas.put(x, y, c);
    }
}

fn cell_char(
    board: &Board,
    col: u16,
    row: u16,
    common: &str,
    legend: &mut BTreeMap<char, String>,
) -> char {
    let Some(cell) = board.cell(col, row) else {
        return ' ';
    };
    if cell.kind == "void" {
        return ' ';
    }
    let c = if let Some(c) = cell.label.chars().next() {
        c
    } else if cell.kind == common {
        '.'
    } else {
        cell.kind.chars().next().unwrap_or('?').to_ascii_lowercase()
    };
    // A number (a space of a track) speaks for itself.
    if !c.is_ascii_digit() {
        legend.entry(c).or_insert_with(|| cell.kind.clone());
    }
    c
}

fn most_common_kind(board: &Board) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for cell in &board.cells {
        *counts.entry(cell.kind.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(k, _)| k.to_string())
        .unwrap_or_default()
}

/// Upper case for even seats, lower case for odd ones.
fn piece_char(shape: Shape, label: &str, owner: Option<u8>) -> char {
    let letter = label.chars().next().unwrap_or(match shape {
        Shape::Knight => 'N',
        Shape::Soldier => 'S',
        Shape::Lord => 'L',
        Shape::Tower => 'T',
        Shape::Wall => 'W',
        Shape::Square => 'Q',
        Shape::Disc => 'O',
        Shape::Token => '*',
    });
    if owner.is_some_and(|o| o % 2 == 1) {
        letter.to_ascii_lowercase()
    } else {
        letter.to_ascii_uppercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use veillee_sdk::{Cell, Colour, Piece};

    fn plain() -> Cell {
        Cell::new("field", Colour::rgb(0, 0, 0))
    }

    #[test]
    fn squares_are_drawn_one_character_per_cell_with_their_coordinates() {
        let mut board = Board::filled("b", 3, 2, plain());
        board.col_labels = vec!["a".into(), "b".into(), "c".into()];
        board.row_labels = vec!["2".into(), "1".into()];
        board.pieces.push(Piece {
            id: "k".into(),
            col: 1,
            row: 0,
            shape: Shape::Knight,
            colour: Colour::rgb(1, 1, 1),
            label: String::new(),
            owner: Some(1),
            name: None,
        });
        let mut out = String::new();
        render_board(&mut out, &board, "en");
        assert_eq!(
            out,
            "  2  . n .\n  1  . . .\n     a b c\n     (. field, n knight of seat 1)\n"
        );
    }

    #[test]
    fn points_are_drawn_with_the_lines_between_them() {
        // A 3×3 square of points, its sides, and both diagonals of its top-left quarter.
        let mut board = Board::points("b", 3, 3, plain());
        board.cell_mut(2, 2).unwrap().kind = "void".into();
        for (a, b) in [
            ((0, 0), (2, 0)),
            ((0, 0), (0, 2)),
            ((0, 0), (1, 1)),
            ((1, 0), (0, 1)),
            ((0, 2), (1, 2)),
            ((2, 0), (2, 1)),
        ] {
            board.join(a, b);
        }
        board.col_labels = vec!["a".into(), "b".into(), "c".into()];
        board.row_labels = vec!["3".into(), "2".into(), "1".into()];
        let mut out = String::new();
        render_board(&mut out, &board, "en");
        assert_eq!(
            out,
            "  3  .---.---.\n     | X     |\n  2  .   .   .\n     |\n  1  .---.\n     a   b   c\n     (. field)\n",
            "\n{out}"
        );
    }

    #[test]
    fn hexagons_are_staggered_like_in_the_window() {
        let pointy = Board::hexes(
            "b",
            3,
            3,
            HexOrientation::PointyTop,
            HexCoords::Offset,
            plain(),
        );
        let mut out = String::new();
        render_board(&mut out, &pointy, "en");
        assert_eq!(out, "     . . .\n      . . .\n     . . .\n     (. field)\n");
        let axial = Board::hexes(
            "b",
            2,
            2,
            HexOrientation::FlatTop,
            HexCoords::Axial,
            plain(),
        );
        let mut out = String::new();
        render_board(&mut out, &axial, "en");
        assert_eq!(out, "     .\n       .\n     .\n       .\n     (. field)\n");
    }

    #[test]
    fn a_track_winds_back_and_forth_from_the_bottom_left() {
        let mut board = Board::track("t", 7, 3, plain());
        for i in 0..7u16 {
            let (col, row) = veillee_sdk::scene::track_place(i, 3, 3);
            board.cell_mut(col, row).unwrap().label = i.to_string();
        }
        let mut out = String::new();
        render_board(&mut out, &board, "en");
        assert_eq!(out, "     6\n     5 4 3\n     0 1 2\n");
    }

    #[test]
    fn each_seats_figures_follow_its_name_on_one_line() {
        let t = |s: &str| veillee_sdk::Text::same(s);
        let scene = Scene {
            scores: vec![
                ScoreLine::seat(0, t("Cards in hand"), 7),
                ScoreLine::seat(0, t("Draw pile"), 13),
                ScoreLine::seat(1, t("Cards in hand"), 6),
                ScoreLine::seat(1, t("Draw pile"), 12),
                ScoreLine::general(t("Rolls"), "4/300"),
            ],
            message: t("Ana to play"),
            ..Scene::default()
        };
        let names = |s: Seat| ["Ana", "Bruno"][s as usize].to_string();
        assert_eq!(
            render(&scene, "en", &names),
            "  Rolls: 4/300\n  Ana: Cards in hand 7, Draw pile 13\n  Bruno: Cards in hand 6, Draw pile 12\nAna to play\n"
        );
    }

    #[test]
    fn a_die_shows_its_face_on_top_and_its_name() {
        let white = Colour::rgb(250, 250, 250);
        let six = (1..=6)
            .map(|p| veillee_sdk::DieFace::pips(p, white, veillee_sdk::Text::same(p.to_string())))
            .collect();
        let pips = veillee_sdk::Card::die("d", six, 4);
        let ring = veillee_sdk::Card::die(
            "d",
            vec![
                veillee_sdk::DieFace::plain(white, veillee_sdk::Text::same("Black, ring"))
                    .marked("◯"),
            ],
            0,
        );
        let mut scene = Scene::default();
        scene.zones.push(veillee_sdk::Zone {
            id: "dice".into(),
            title: veillee_sdk::Text::same("Dice"),
            owner: None,
            cards: vec![pips, ring],
        });
        let out = render(&scene, "en", &|s| s.to_string());
        assert_eq!(out, "Dice: [⚄ 5] [◯ Black, ring]\n\n");
    }
}
