//! Legal actions, the click paths that reach them, and the events they cause.

use serde::{Deserialize, Serialize};

use crate::Text;

/// One thing a seat may do now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// Stable id, logged and replayed as is (`"c0-d2"`). Unique among the seat's actions.
    pub id: String,
    /// The scene targets a click walks through, in order (a piece, then a square).
    /// Empty for actions without a place on the board: they are shown as buttons.
    #[serde(default)]
    pub path: Vec<Target>,
    /// What it does, in words.
    pub label: Text,
}

impl Action {
    /// An action reached by clicking `path` in order (a piece, then a cell; see
    /// [`crate::move_path`]).
    pub fn new(id: impl Into<String>, label: Text, path: Vec<Target>) -> Self {
        Action {
            id: id.into(),
            path,
            label,
        }
    }

    /// An action without a place on the board, shown as a button (`pass`).
    pub fn button(id: impl Into<String>, label: Text) -> Self {
        Action::new(id, label, Vec::new())
    }
}

/// Something in the scene a player can click.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A cell of a board.
    Cell {
        /// The board's id.
        board: String,
        /// Column, from 0 at the left.
        col: u16,
        /// Row, from 0 at the top.
        row: u16,
    },
    /// A piece, by id.
    Piece {
        /// The piece's id.
        id: String,
    },
    /// A card, by id.
    Card {
        /// The card's id.
        id: String,
    },
}

impl Target {
    /// A cell target.
    pub fn cell(board: impl Into<String>, col: u16, row: u16) -> Self {
        Target::Cell {
            board: board.into(),
            col,
            row,
        }
    }

    /// A piece target.
    pub fn piece(id: impl Into<String>) -> Self {
        Target::Piece { id: id.into() }
    }
}

/// Something an action caused, for the game's log ("the knight takes the soldier on d5").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// What happened, in words.
    pub text: Text,
    /// Whether it revealed something that was hidden (undo never crosses a reveal).
    #[serde(default)]
    pub reveal: bool,
}

impl Event {
    /// An ordinary event.
    pub fn new(text: Text) -> Self {
        Event {
            text,
            reveal: false,
        }
    }

    /// An event that revealed hidden information or drew chance.
    pub fn reveal(text: Text) -> Self {
        Event { text, reveal: true }
    }
}
