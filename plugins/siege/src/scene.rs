//! What the launcher shows: the manifest and the scene.
//!
//! The scene's board has 8 columns (`a`–`h`) and 7 rows drawn with rank 6 at the top (scene
//! row 0) down to rank 0 at the bottom (scene row 6): scene row = `6 - rank`.

use veillee_sdk::{
    text, Board, Cell, Colour, Highlight, Manifest, Piece, Scene, ScoreLine, SeatInfo, Shape,
    Target, Text,
};

use crate::board::{self, Sq, CASTLE, COLS, CROWN, DOT, MOAT, RANKS, START, VALID};
use crate::{Siege, ATTACKER, BOARD_ID, DEFENDER, QUIET_LIMIT};

/// The attacker's colour (a deep red).
pub const ATTACKER_COLOUR: Colour = Colour::rgb(0xa3, 0x23, 0x1f);
/// The defender's colour (ivory).
pub const DEFENDER_COLOUR: Colour = Colour::rgb(0xf4, 0xee, 0xdc);

const FIELD: Colour = Colour::rgb(0x7f, 0xb0, 0x5e);
const MOAT_BLUE: Colour = Colour::rgb(0x4a, 0x8f, 0xd4);
const STONE: Colour = Colour::rgb(0xa9, 0xa3, 0x98);
const GOLD: Colour = Colour::rgb(0xe2, 0xb9, 0x48);
const SAND: Colour = Colour::rgb(0xe9, 0xdc, 0xb5);

/// The manifest.
pub fn manifest() -> Manifest {
    Manifest {
        id: "siege".into(),
        name: Text::same("Siège"),
        description: text(
            "Jeu de siège de 1966 pour deux joueurs. Quatre chevaliers, qui sautent comme aux \
             échecs mais seulement vers l'avant, partent à l'assaut du château pour faire \
             prisonnier le seigneur ; quatre soldats à pied, qui ne prennent qu'en diagonale \
             et ne traversent pas le fossé, et le seigneur lui-même défendent la place. \
             L'assaillant gagne en prenant le seigneur, le défenseur en prenant les quatre \
             chevaliers.",
            "A 1966 siege game for two players. Four mounted knights, leaping like chess \
             knights but only forward, storm the castle to capture its lord; four foot \
             soldiers, who capture only diagonally and cannot cross the moat, defend it with \
             the lord himself. The attacker wins by capturing the lord, the defender by \
             capturing all four knights.",
        ),
        version: "1.0.0".into(),
        min_players: 2,
        max_players: 2,
        seats: vec![
            SeatInfo {
                name: text("Assaillant", "Attacker"),
                colour: ATTACKER_COLOUR,
            },
            SeatInfo {
                name: text("Défenseur", "Defender"),
                colour: DEFENDER_COLOUR,
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
        play_time: Some(veillee_sdk::PlayTime::minutes(15, 30)),
    }
}

/// The click target of a square.
pub fn cell_target(s: Sq) -> Target {
    let (col, row) = board::cell(s);
    Target::cell(BOARD_ID, col, row)
}

/// The scene cell of a square.
fn cell(s: Sq) -> Cell {
    if !board::has(VALID, s) {
        return Cell::void();
    }
    let (kind, colour) = if board::has(START, s) {
        ("start", SAND)
    } else if board::has(CROWN, s) {
        ("crown", GOLD)
    } else if board::has(CASTLE, s) {
        ("castle", STONE)
    } else if board::has(MOAT, s) {
        ("moat", MOAT_BLUE)
    } else {
        ("field", FIELD)
    };
    let label = if board::has(DOT, s) {
        "•"
    } else if board::has(CROWN, s) {
        "♛"
    } else if board::has(START, s) {
        "◦"
    } else {
        ""
    };
    Cell::new(kind, colour).with_label(label)
}

/// The scene for every viewer (perfect information).
pub fn view(game: &Siege) -> Scene {
    let mut cells = Vec::with_capacity(board::CELLS);
    for row in 0..RANKS {
        for col in 0..COLS {
            cells.push(cell(board::sq(col, RANKS - 1 - row)));
        }
    }
    let mut board = Board {
        id: BOARD_ID.into(),
        cols: u16::from(COLS),
        rows: u16::from(RANKS),
        cells,
        col_labels: board::COORDS.col_labels(),
        row_labels: board::COORDS.row_labels(),
        ..Board::default()
    };
    for s in 0..board::CELLS as Sq {
        let code = game.board[s as usize];
        if code == board::EMPTY {
            continue;
        }
        let (shape, colour, owner) = if board::is_knight(code) {
            (Shape::Knight, ATTACKER_COLOUR, ATTACKER)
        } else if board::is_soldier(code) {
            (Shape::Soldier, DEFENDER_COLOUR, DEFENDER)
        } else {
            (Shape::Lord, DEFENDER_COLOUR, DEFENDER)
        };
        let id = board::piece_id(code);
        board
            .pieces
            .push(Piece::new(id, board::cell(s), shape, colour).owned_by(owner));
    }
    let mut scene = Scene::new(message(game));
    scene.boards.push(board);
    if let Some(last) = game.last {
        scene.last_move(last.from.into_iter().chain([last.to]).map(cell_target));
        if last.taken != board::EMPTY {
            scene
                .highlights
                .push(Highlight::danger(cell_target(last.to)));
        }
    }
    scene.scores = vec![
        ScoreLine::seat(
            ATTACKER,
            text("Chevaliers restants", "Knights left"),
            game.knights,
        ),
        ScoreLine::seat(
            DEFENDER,
            text("Soldats restants", "Soldiers left"),
            game.soldiers,
        ),
        ScoreLine::general(
            text("Coups sans prise", "Moves without capture"),
            format!("{}/{QUIET_LIMIT}", game.quiet_plies),
        ),
    ];
    scene
}

/// Who is to move and what, or how the game ended.
fn message(game: &Siege) -> Text {
    if !game.lord_placed {
        return text(
            "Défenseur : placez le seigneur sur une couronne (d6 ou e6)",
            "Defender: place the lord on a crown square (d6 or e6)",
        );
    }
    if game.reinforcements == crate::Reinforcements::Asking {
        return text(
            "Renforts : un soldat est tombé. Le faire revenir maintenant ?",
            "Reinforcements: a soldier has fallen. Bring one back now?",
        );
    }
    if let Some(outcome) = game.outcome() {
        return outcome.message();
    }
    let (fr, en) = if game.to_move == ATTACKER {
        ("Assaillant", "Attacker")
    } else {
        ("Défenseur", "Defender")
    };
    if !game.has_any_move(game.to_move) {
        return text!(
            "{fr} : aucun coup possible, il faut passer",
            "{en}: no legal move, you must pass"
        );
    }
    if game.to_move == ATTACKER {
        text(
            "Assaillant : déplacez un chevalier",
            "Attacker: move a knight",
        )
    } else if game.special_rule_applies() {
        let n = game.defender_moves + 1;
        text!(
            "Défenseur : règle spéciale ({n}/4), sortez de sa case à point un soldat qui n'a pas \
             encore bougé, vers une case sans point",
            "Defender: special rule ({n}/4), move a soldier that has not moved yet off its \
             dotted square onto a square without a dot"
        )
    } else {
        text(
            "Défenseur : déplacez un soldat ou le seigneur",
            "Defender: move a soldier or the lord",
        )
    }
}
