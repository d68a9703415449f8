//! What the launcher shows: the manifest and the scene — the cross as points joined by lines
//! (`Layout::Points`), the fox and the hens on them.

use veillee_sdk::{
    text, Board, Cell, Choice, Colour, Highlight, Manifest, OptionKind, OptionSpec, Piece, Rules,
    Scene, ScoreLine, SeatInfo, Shape, Target, Text,
};

use crate::board::{self, Point, COORDS, SIZE};
use crate::{Renard, FOX, HENS, QUIET_LIMIT};

/// The id of the board in the scene.
pub const BOARD_ID: &str = "board";

/// The hens' colour (white feathers).
const HEN_WHITE: Colour = Colour::rgb(0xf5, 0xf1, 0xe6);
/// The fox's colour.
const FOX_RED: Colour = Colour::rgb(0xc8, 0x5a, 0x1e);
/// The board: a plank of light wood.
const WOOD: Colour = Colour::rgb(0xd9, 0xb8, 0x82);

/// The manifest: two seats, two options, the rules in both languages.
pub fn manifest() -> Manifest {
    Manifest {
        id: "renard".into(),
        name: text("Le Renard et les Poules", "Fox and Hens"),
        description: text(
            "Le vieux jeu de la croix à 33 points : treize poules cherchent à enfermer le \
             renard, qui saute par-dessus pour les manger.",
            "The old game of the 33-point cross: thirteen hens try to shut the fox in, and the \
             fox jumps over them to eat them.",
        ),
        version: "1.0.0".into(),
        min_players: 2,
        max_players: 2,
        seats: vec![
            SeatInfo {
                name: text("Poules", "Hens"),
                colour: HEN_WHITE,
            },
            SeatInfo {
                name: text("Renard", "Fox"),
                colour: FOX_RED,
            },
        ],
        options: vec![
            OptionSpec {
                id: "poules".into(),
                label: text("Nombre de poules", "Number of hens"),
                kind: OptionKind::Choice {
                    choices: vec![
                        Choice {
                            id: "13".into(),
                            label: text("13 poules", "13 hens"),
                        },
                        Choice {
                            id: "17".into(),
                            label: text("17 poules", "17 hens"),
                        },
                    ],
                    default: "13".into(),
                },
            },
            OptionSpec {
                id: "prise-obligatoire".into(),
                label: text("Prise obligatoire", "Compulsory capture"),
                kind: OptionKind::Bool { default: false },
            },
        ],
        hidden_information: false,
        operations: crate::ops::specs(),
        rules: Some(Rules::new(
            include_str!("../rules/fr.md"),
            include_str!("../rules/en.md"),
        )),
        // The author's estimate for people who know the rules (no box to quote).
        play_time: Some(veillee_sdk::PlayTime::minutes(10, 20)),
    }
}

/// The click target of a point.
pub fn target(p: Point) -> Target {
    let (col, row) = p.cell();
    Target::cell(BOARD_ID, col, row)
}

/// The board: the 33 points of the cross and their lines, with the pieces on them.
fn board(game: &Renard) -> Board {
    let size = u16::from(SIZE);
    let mut board = Board::points(BOARD_ID, size, size, Cell::new("point", WOOD));
    for row in 0..size {
        for col in 0..size {
            if Point::at(col as i16, row as i16).is_none() {
                if let Some(cell) = board.cell_mut(col, row) {
                    *cell = Cell::void();
                }
            }
        }
    }
    for (a, b) in board::lines() {
        board.join(a.cell(), b.cell());
    }
    board.col_labels = COORDS.col_labels();
    board.row_labels = COORDS.row_labels();
    board.pieces.push(
        Piece::new("fox", game.fox.cell(), Shape::Lord, FOX_RED)
            .owned_by(FOX)
            .named(text("Renard", "Fox")),
    );
    for (i, hen) in game.hens.iter().enumerate() {
        if let Some(p) = hen {
            board.pieces.push(
                Piece::new(format!("h{}", i + 1), p.cell(), Shape::Disc, HEN_WHITE)
                    .owned_by(HENS)
                    .named(text("Poule", "Hen")),
            );
        }
    }
    board
}

/// The scene, the same for every viewer: nothing is hidden.
pub fn view(game: &Renard) -> Scene {
    let mut scene = Scene::new(message(game));
    scene.boards.push(board(game));
    scene.last_move(game.last.iter().map(|&p| target(p)));
    scene
        .highlights
        .extend(game.eaten.iter().map(|&p| Highlight::danger(target(p))));
    let eaten = game.hens.len() - game.hens_left();
    scene.scores = vec![
        ScoreLine::seat(HENS, text("Poules", "Hens"), game.hens_left()),
        ScoreLine::seat(FOX, text("Poules mangées", "Hens eaten"), eaten),
        ScoreLine::general(
            text(
                "Coups sans prise ni avance",
                "Moves without capture or advance",
            ),
            format!("{}/{QUIET_LIMIT}", game.quiet),
        ),
    ];
    scene
}

/// Who is to move and what, or how the game ended.
fn message(game: &Renard) -> Text {
    if let Some(outcome) = game.outcome() {
        return outcome.message();
    }
    if game.to_move == HENS {
        return text(
            "Poules : avancez ou déplacez une poule sur le côté",
            "Hens: move a hen forward or sideways",
        );
    }
    if game.compulsory && game.can_jump() {
        text(
            "Renard : vous devez manger (prise obligatoire)",
            "Fox: you must eat (compulsory capture)",
        )
    } else {
        text(
            "Renard : déplacez-vous ou sautez par-dessus une poule",
            "Fox: move, or jump over a hen",
        )
    }
}
