//! What the launcher shows: the manifest and the scene.
//!
//! The scene's board has 9 columns (`a`–`i`) and 9 rows, row `1` at the top (Black's side):
//! scene row = row number − 1. Walls are drawn as three pieces, one per square, with a shared
//! label (`M1`, `M2`); the middle one carries the wall's id and is the one clicked.

use veillee_sdk::{
    text, Board, Cell, Colour, Highlight, HighlightKind, Manifest, Piece, Scene, ScoreLine,
    SeatInfo, Shape, Target, Text,
};

use crate::board::{self, Sq, PIECES, SIZE};
use crate::{Batisseurs, BLACK, BOARD_ID, DRAW_OFFER_AFTER, DRAW_OFFER_EVERY, WHITE};

/// White's colour (maple).
pub const WHITE_COLOUR: Colour = Colour::rgb(0xf4, 0xee, 0xdc);
/// Black's colour (a dark stained wood).
pub const BLACK_COLOUR: Colour = Colour::rgb(0x3b, 0x2a, 0x22);

const BEECH_LIGHT: Colour = Colour::rgb(0xe0, 0xb4, 0x7c);
const BEECH_DARK: Colour = Colour::rgb(0xd2, 0xa2, 0x68);

/// A side's name in French (plural, as in « les Blancs ») and English.
pub fn side_name(seat: u8) -> (&'static str, &'static str) {
    if seat == WHITE {
        ("Blancs", "White")
    } else {
        ("Noirs", "Black")
    }
}

/// The manifest.
pub fn manifest() -> Manifest {
    Manifest {
        id: "batisseurs".into(),
        name: text("Bâtisseurs", "Castle Builders"),
        description: text(
            "Jeu d'assemblage de Fred Horn pour deux maîtres bâtisseurs. Chacun possède un \
             château en cinq pièces, une tour, deux portes et deux murailles de trois cases \
             qu'on ne tourne jamais, dispersées sur un tablier de 9 × 9 cases. Les pièces qui \
             se touchent forment un élément qui se déplace d'un bloc, mais on peut à tout \
             moment en détacher une partie ; les pièces adverses gênent le passage, et une \
             pièce bloquée peut sauter. Le premier qui rassemble ses cinq pièces en un carré \
             de 3 × 3 cases gagne ; si les deux y parviennent au même tour, la tour au centre \
             départage.",
            "Fred Horn's castle-assembly game for two master builders. Each owns a castle in \
             five pieces, a tower, two gates and two three-square walls that are never turned, \
             scattered over a 9 × 9 board. Touching pieces form an element that moves as one, \
             though any part of it may be detached at any time; the opponent's pieces get in \
             the way, and a blocked piece may jump. The first to gather all five pieces into a \
             3 × 3 square wins; if both do so in the same round, the tower in the centre \
             decides.",
        ),
        version: "1.0.0".into(),
        min_players: 2,
        max_players: 2,
        seats: vec![
            SeatInfo {
                name: text("Blancs", "White"),
                colour: WHITE_COLOUR,
            },
            SeatInfo {
                name: text("Noirs", "Black"),
                colour: BLACK_COLOUR,
            },
        ],
        options: Vec::new(),
        hidden_information: false,
        operations: crate::ops::specs(),
        rules: Some(veillee_sdk::Rules::new(
            include_str!("../rules/fr.md"),
            include_str!("../rules/en.md"),
        )),
        // The author's estimate for people who know the rules (no box to quote).
        play_time: Some(veillee_sdk::PlayTime::minutes(20, 40)),
    }
}

/// The click target of a square.
pub fn cell_target(s: Sq) -> Target {
    Target::cell(BOARD_ID, u16::from(board::col(s)), u16::from(board::row(s)))
}

/// The scene pieces of one player's piece: `(id, square)`, a wall's middle square first.
pub fn piece_cells(game: &Batisseurs, seat: u8, i: u8) -> Vec<(String, Sq)> {
    let id = Batisseurs::piece_id(seat, i);
    let at = game.at[seat as usize][i as usize];
    if board::is_wall(i) {
        vec![
            (format!("{id}-l"), at - 1),
            (id.clone(), at),
            (format!("{id}-r"), at + 1),
        ]
    } else {
        vec![(id, at)]
    }
}

/// The scene for every viewer (perfect information).
pub fn view(game: &Batisseurs) -> Scene {
    let mut cells = Vec::with_capacity(board::CELLS);
    for row in 0..SIZE {
        for col in 0..SIZE {
            cells.push(Cell {
                kind: "square".into(),
                colour: if (row + col) % 2 == 0 {
                    BEECH_LIGHT
                } else {
                    BEECH_DARK
                },
                label: String::new(),
            });
        }
    }
    let mut pieces = Vec::with_capacity(18);
    for seat in [WHITE, BLACK] {
        let colour = if seat == WHITE {
            WHITE_COLOUR
        } else {
            BLACK_COLOUR
        };
        for i in 0..PIECES {
            let (shape, label) = if board::is_wall(i) {
                (Shape::Wall, if i == board::WALL1 { "M1" } else { "M2" })
            } else if i == board::TOWER {
                (Shape::Tower, "T")
            } else {
                (Shape::Square, "P")
            };
            for (id, s) in piece_cells(game, seat, i) {
                pieces.push(Piece {
                    id,
                    col: u16::from(board::col(s)),
                    row: u16::from(board::row(s)),
                    shape,
                    colour,
                    label: label.into(),
                    owner: Some(seat),
                    name: None,
                });
            }
        }
    }
    let board = Board {
        id: BOARD_ID.into(),
        title: Text::default(),
        cols: u16::from(SIZE),
        rows: u16::from(SIZE),
        col_labels: (b'a'..=b'i').map(|c| (c as char).to_string()).collect(),
        row_labels: (1..=SIZE).map(|r| r.to_string()).collect(),
        cells,
        pieces,
        ..Board::default()
    };

    let mut highlights = Vec::new();
    if let Some(last) = game.last {
        // The squares the part left and reached, and the pieces that moved.
        let offset = i16::from(last.to) - i16::from(last.from);
        let mut left: board::Mask = 0;
        let mut reached: board::Mask = 0;
        for i in 0..PIECES {
            if last.part & (1 << i) != 0 {
                let at = game.at[last.seat as usize][i as usize];
                reached |= board::footprint(i, at);
                left |= board::footprint(i, (i16::from(at) - offset) as Sq);
                for (id, _) in piece_cells(game, last.seat, i) {
                    highlights.push(Highlight {
                        target: Target::piece(id),
                        kind: HighlightKind::Info,
                    });
                }
            }
        }
        for s in 0..board::CELLS as Sq {
            if (left | reached) & board::bit(s) != 0 {
                highlights.push(Highlight {
                    target: cell_target(s),
                    kind: HighlightKind::LastMove,
                });
            }
        }
    }
    if game.end.is_none() {
        // BT-M7: the pieces that may jump now.
        let jumpers = game.jumpers(game.to_move);
        for i in 0..PIECES {
            if jumpers & (1 << i) != 0 {
                for (id, _) in piece_cells(game, game.to_move, i) {
                    highlights.push(Highlight {
                        target: Target::piece(id),
                        kind: HighlightKind::Selected,
                    });
                }
            }
        }
    } else {
        // The finished castles.
        for seat in [WHITE, BLACK] {
            if let Some(corner) = game.counting_castle(seat) {
                for dr in 0..3 {
                    for dc in 0..3 {
                        highlights.push(Highlight {
                            target: cell_target(corner + dr * SIZE + dc),
                            kind: HighlightKind::Selected,
                        });
                    }
                }
            }
        }
    }

    let largest = |seat: u8| {
        game.elements(seat)
            .iter()
            .map(|e| e.count_ones())
            .max()
            .unwrap_or(0)
    };
    // The round being played (the last one once the game is over), out of the safety
    // limit's 150 until it is passed.
    let round = game.rounds + u16::from(game.end.is_none() && game.draw_offer.is_none());
    let round = if round <= DRAW_OFFER_AFTER {
        format!("{round}/{DRAW_OFFER_AFTER}")
    } else {
        round.to_string()
    };
    Scene {
        boards: vec![board],
        zones: Vec::new(),
        scores: vec![
            ScoreLine {
                label: text("Plus grand élément (pièces)", "Largest element (pieces)"),
                value: format!("{}/5", largest(WHITE)),
                seat: Some(WHITE),
            },
            ScoreLine {
                label: text("Plus grand élément (pièces)", "Largest element (pieces)"),
                value: format!("{}/5", largest(BLACK)),
                seat: Some(BLACK),
            },
            ScoreLine {
                label: text("Tour de jeu", "Round"),
                value: round,
                seat: None,
            },
        ],
        message: message(game),
        rotation: 0,
        highlights,
    }
}

/// Who is to move and what, or how the game ended.
fn message(game: &Batisseurs) -> Text {
    if let Some(outcome) = game.outcome() {
        return text(
            format!("Partie terminée. {}", outcome.reason.fr),
            format!("Game over. {}", outcome.reason.en),
        );
    }
    let asked = game.draw_offered_to();
    if !asked.is_empty() {
        let names: Vec<(&str, &str)> = asked.iter().map(|&s| side_name(s)).collect();
        let fr: Vec<&str> = names.iter().map(|n| n.0).collect();
        let en: Vec<&str> = names.iter().map(|n| n.1).collect();
        return text(
            format!(
                "{} tours sans château : partie nulle proposée (limite de sécurité, de nouveau \
                 tous les {DRAW_OFFER_EVERY} tours). À répondre : {}",
                game.rounds,
                fr.join(", ")
            ),
            format!(
                "{} rounds without a castle: a draw is offered (safety limit, again every \
                 {DRAW_OFFER_EVERY} rounds). To answer: {}",
                game.rounds,
                en.join(", ")
            ),
        );
    }
    let seat = game.to_move;
    let (fr, en) = side_name(seat);
    if !game.has_any_move(seat) {
        return text(
            format!("{fr} : aucun coup possible, il faut passer"),
            format!("{en}: no legal move, you must pass"),
        );
    }
    let mut message = text(
        format!("{fr} : déplacez une pièce, un élément ou une partie d'élément"),
        format!("{en}: move a piece, an element or part of one"),
    );
    if seat == BLACK && game.counting_castle(WHITE).is_some() {
        message = text(
            "Les Blancs ont achevé leur château ; Noirs : dernier coup du tour pour achever le \
             vôtre",
            "White's castle is complete; Black: last move of the round to complete yours",
        );
    }
    if game.jumpers(seat) != 0 {
        message.fr.push_str(" (une pièce bloquée peut sauter)");
        message.en.push_str(" (a blocked piece may jump)");
    }
    message
}
