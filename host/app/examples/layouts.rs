//! Every board layout in one window, drawn and clicked by the launcher's own scene drawer:
//! hexagons pointy-top (offset rows) and flat-top (the axial rhombus of Hex), Nine Men's
//! Morris on points joined by lines, and a winding track with a stack of pieces on a space.
//! For plugin authors, to see what a layout looks like before writing a game on it, and for
//! checking the drawer by eye (`tests/screenshots.sh` shoots it).
//!
//! `cargo run -p veillee-app --example layouts`. Each board's piece can be moved by clicks;
//! the picked destination is printed.

use eframe::egui;
use veillee_app::i18n::Lang;
use veillee_app::scene::{Help, SceneView};
use veillee_sdk::{
    move_path, text, Action, Board, Cell, Colour, Coords, HexCoords, HexOrientation, Highlight,
    Piece, Scene, Shape, Target,
};

const RED: Colour = Colour::rgb(0xc0, 0x39, 0x2b);
const WHITE: Colour = Colour::rgb(0xf2, 0xee, 0xe3);
const BLACK: Colour = Colour::rgb(0x2c, 0x2c, 0x34);

/// One board of the gallery: its scene, the moves of its red piece, its click state.
struct Panel {
    scene: Scene,
    actions: Vec<Action>,
    view: SceneView,
}

impl Panel {
    /// A scene of `board`, with the red piece `piece` able to move to each of `to`.
    fn new(title: &str, mut board: Board, piece: &str, to: &[(u16, u16)]) -> Self {
        board.title = text(title, title);
        let id = board.id.clone();
        let actions = to
            .iter()
            .map(|&cell| {
                let name = format!("{piece}→{},{}", cell.0, cell.1);
                Action::new(
                    name.clone(),
                    text(&name, &name),
                    move_path(&id, piece, &[cell]),
                )
            })
            .collect();
        let mut scene = Scene::new(text("Galerie", "Gallery"));
        scene.boards.push(board);
        Panel {
            scene,
            actions,
            view: SceneView::default(),
        }
    }
}

/// The rhombus of Hex, 7 × 7, flat-top: a stone of each colour and a last move.
fn hex() -> Panel {
    let cell = Cell::new("hex", Colour::rgb(0xe4, 0xd3, 0xa8));
    let mut board = Board::hexes("hex", 7, 7, HexOrientation::FlatTop, HexCoords::Axial, cell);
    board.col_labels = Coords::new(7, 7).col_labels();
    board.row_labels = Coords::new(7, 7).row_labels();
    board
        .pieces
        .push(Piece::new("red", (3, 3), Shape::Disc, RED).owned_by(0));
    board
        .pieces
        .push(Piece::new("blue", (4, 2), Shape::Disc, Colour::rgb(0x29, 0x80, 0xb9)).owned_by(1));
    let mut panel = Panel::new(
        "Hex (flat-top, axial)",
        board,
        "red",
        &[(2, 3), (4, 3), (3, 2), (3, 4), (2, 4)],
    );
    panel.scene.last_move([Target::cell("hex", 4, 2)]);
    panel
}

/// A field of pointy-top hexagons with offset rows, some of them water.
fn field() -> Panel {
    let grass = Cell::new("grass", Colour::rgb(0x8d, 0xb8, 0x6a));
    let mut board = Board::hexes(
        "field",
        8,
        6,
        HexOrientation::PointyTop,
        HexCoords::Offset,
        grass,
    );
    for (col, row) in [(0, 0), (1, 0), (0, 1), (6, 4), (7, 5), (6, 5)] {
        if let Some(c) = board.cell_mut(col, row) {
            *c = Cell::new("water", Colour::rgb(0x4a, 0x8f, 0xd4)).with_label("~");
        }
    }
    *board.cell_mut(7, 0).unwrap() = Cell::void();
    board
        .pieces
        .push(Piece::new("knight", (3, 2), Shape::Knight, RED).owned_by(0));
    board
        .pieces
        .push(Piece::new("tower", (4, 3), Shape::Tower, BLACK).owned_by(1));
    let mut panel = Panel::new(
        "Pointy-top, offset rows",
        board,
        "knight",
        &[(2, 2), (4, 2), (2, 1), (3, 1), (2, 3), (3, 3)],
    );
    panel
        .scene
        .highlights
        .push(Highlight::danger(Target::piece("tower")));
    panel
}

/// Nine Men's Morris: three squares of points joined at their middles.
fn morris() -> Panel {
    let plain = Cell::new("point", Colour::rgb(0xd9, 0xb8, 0x82));
    let mut board = Board::points("morris", 7, 7, Cell::void());
    let mut points = Vec::new();
    for ring in 0..3u16 {
        let (lo, hi, mid) = (ring, 6 - ring, 3);
        for (c, r) in [
            (lo, lo),
            (mid, lo),
            (hi, lo),
            (hi, mid),
            (hi, hi),
            (mid, hi),
            (lo, hi),
            (lo, mid),
        ] {
            points.push((c, r));
        }
        for k in 0..8 {
            board.join(
                points[points.len() - 8 + k],
                points[points.len() - 8 + (k + 1) % 8],
            );
        }
    }
    for &(c, r) in &points {
        *board.cell_mut(c, r).unwrap() = plain.clone();
    }
    for (a, b) in [
        ((3, 0), (3, 2)),
        ((6, 3), (4, 3)),
        ((3, 6), (3, 4)),
        ((0, 3), (2, 3)),
    ] {
        board.join(a, b);
    }
    board.col_labels = Coords::new(7, 7).col_labels();
    board.row_labels = Coords::new(7, 7).row_labels();
    board
        .pieces
        .push(Piece::new("w1", (0, 0), Shape::Disc, WHITE).owned_by(0));
    board
        .pieces
        .push(Piece::new("b1", (3, 1), Shape::Disc, BLACK).owned_by(1));
    board
        .pieces
        .push(Piece::new("w2", (4, 4), Shape::Disc, WHITE).owned_by(0));
    let mut panel = Panel::new("Nine Men's Morris (points)", board, "w1", &[(3, 0), (0, 3)]);
    panel
        .scene
        .last_move([Target::cell("morris", 3, 2), Target::cell("morris", 3, 1)]);
    panel
}

/// A goose track of 40 spaces, 8 to a row, with two pieces on one space.
fn track() -> Panel {
    let space = Cell::new("space", Colour::rgb(0xf0, 0xe2, 0xc0));
    let mut board = Board::track("track", 40, 8, space.clone());
    let place = |i| veillee_sdk::scene::track_place(i, 8, 5);
    // Spaces numbered from 1; the geese's spaces in blue.
    for i in 0..40u16 {
        let (col, row) = place(i);
        let cell = if i % 9 == 5 {
            Cell::new("goose", Colour::rgb(0x7f, 0xb0, 0xd8))
        } else {
            space.clone()
        };
        *board.cell_mut(col, row).unwrap() = cell.with_label((i + 1).to_string());
    }
    board
        .pieces
        .push(Piece::new("red", place(9), Shape::Token, RED).owned_by(0));
    board
        .pieces
        .push(Piece::new("black", place(9), Shape::Token, BLACK).owned_by(1));
    board
        .pieces
        .push(Piece::new("white", place(3), Shape::Token, WHITE).owned_by(2));
    Panel::new(
        "Track (40 spaces)",
        board,
        "red",
        &[
            place(10),
            place(11),
            place(12),
            place(13),
            place(14),
            place(15),
        ],
    )
}

struct Gallery {
    panels: Vec<Panel>,
}

impl eframe::App for Gallery {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            let area = ui.available_rect_before_wrap();
            let half = area.size() / 2.0;
            for (i, panel) in self.panels.iter_mut().enumerate() {
                let min = area.min + egui::vec2(half.x * (i % 2) as f32, half.y * (i / 2) as f32);
                let rect = egui::Rect::from_min_size(min, half).shrink(6.0);
                ui.scope_builder(egui::UiBuilder::new().max_rect(rect).id_salt(i), |ui| {
                    let chosen = panel.view.ui(
                        ui,
                        &panel.scene,
                        &panel.actions,
                        Lang::En,
                        Help::default(),
                        Some(0),
                    );
                    if let Some(id) = chosen {
                        println!("{id}");
                    }
                });
            }
        });
    }
}

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Veillée — board layouts")
            .with_inner_size([1366.0, 860.0]),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "veillee-layouts",
        options,
        Box::new(|_cc| {
            Ok(Box::new(Gallery {
                panels: vec![field(), hex(), morris(), track()],
            }))
        }),
    )
}
