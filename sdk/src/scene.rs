//! What one viewer sees: a description the host draws without knowing the game.
//!
//! A [`Scene`] is built by [`crate::Game::view`] for one viewer. Anything that viewer may not
//! see must simply not be in it: the host draws everything it receives.

use serde::{Deserialize, Serialize};

use crate::{Colour, Seat, Target, Text};

/// Everything drawn for one viewer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// Grids of cells with pieces.
    #[serde(default)]
    pub boards: Vec<Board>,
    /// Rows of cards (hands, piles, the exchange).
    #[serde(default)]
    pub zones: Vec<Zone>,
    /// Score lines.
    #[serde(default)]
    pub scores: Vec<ScoreLine>,
    /// The status message ("The attacker moves a knight").
    pub message: Text,
    /// Quarter turns clockwise to rotate the boards by when drawing (0–3).
    #[serde(default)]
    pub rotation: u8,
    /// Marks to draw over cells, pieces or cards.
    #[serde(default)]
    pub highlights: Vec<Highlight>,
}

/// A rectangular grid.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// Identifier used by [`Target::Cell`].
    pub id: String,
    /// Its title, if it needs one.
    #[serde(default)]
    pub title: Text,
    /// Number of columns.
    pub cols: u16,
    /// Number of rows.
    pub rows: u16,
    /// Labels written along the bottom edge, one per column (may be empty).
    #[serde(default)]
    pub col_labels: Vec<String>,
    /// Labels written along the left edge, one per row from the top (may be empty).
    #[serde(default)]
    pub row_labels: Vec<String>,
    /// `cols × rows` cells, row by row from the top-left.
    pub cells: Vec<Cell>,
    /// Pieces standing on cells.
    #[serde(default)]
    pub pieces: Vec<Piece>,
}

/// One square of a board.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// What kind of square it is, in the game's words (`"moat"`, `"castle"`); `"void"` for
    /// a hole in the grid, which is not drawn.
    pub kind: String,
    /// Fill colour.
    pub colour: Colour,
    /// A short mark drawn in the cell (a dot, a crown: `"•"`, `"♛"`), often empty.
    #[serde(default)]
    pub label: String,
}

/// The shape a piece is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A round pawn.
    Disc,
    /// A square block.
    Square,
    /// A mounted knight.
    Knight,
    /// A foot soldier.
    Soldier,
    /// A lord, captain or king.
    Lord,
    /// A tower.
    Tower,
    /// A wall section.
    Wall,
    /// A token or marker.
    Token,
}

/// A piece on a board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// Identifier used by [`Target::Piece`]; stable while the piece exists.
    pub id: String,
    /// Column of its cell.
    pub col: u16,
    /// Row of its cell.
    pub row: u16,
    /// How it is drawn.
    pub shape: Shape,
    /// Fill colour.
    pub colour: Colour,
    /// A short text on it (`"K"`, `"2"`), often empty.
    #[serde(default)]
    pub label: String,
    /// The seat it belongs to, if any.
    pub owner: Option<Seat>,
    /// What it is, in words (`Roi` / `King`), when `label` is too short to say: the launcher
    /// shows it under the pointer and reads it out with the square's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Text>,
}

/// A row of cards.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    /// Identifier.
    pub id: String,
    /// Its title ("Your hand").
    pub title: Text,
    /// The seat it belongs to, if any.
    pub owner: Option<Seat>,
    /// The cards, in order.
    pub cards: Vec<Card>,
}

/// One card. A face-down card carries no title or text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// Identifier used by [`Target::Card`].
    pub id: String,
    /// Whether its face is shown.
    pub face_up: bool,
    /// Title (empty when face down).
    #[serde(default)]
    pub title: Text,
    /// Text (empty when face down).
    #[serde(default)]
    pub text: Text,
    /// Colour of its face or back.
    pub colour: Colour,
}

/// A score shown beside the board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreLine {
    /// What is counted ("Knights left").
    pub label: Text,
    /// Its value, as shown.
    pub value: String,
    /// The seat it belongs to, if any.
    pub seat: Option<Seat>,
}

/// A mark drawn over something.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Highlight {
    /// What is marked.
    pub target: Target,
    /// Why.
    pub kind: HighlightKind,
}

/// Why something is highlighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HighlightKind {
    /// Part of the last move.
    LastMove,
    /// Selected or being moved.
    Selected,
    /// In danger, or where something bad happened.
    Danger,
    /// Worth a look.
    Info,
}

impl Board {
    /// A board of `cols × rows` cells, all of the same kind and colour.
    pub fn filled(id: impl Into<String>, cols: u16, rows: u16, cell: Cell) -> Self {
        Board {
            id: id.into(),
            cols,
            rows,
            cells: vec![cell; cols as usize * rows as usize],
            ..Board::default()
        }
    }

    /// The cell at a column and row, if inside the grid.
    pub fn cell_mut(&mut self, col: u16, row: u16) -> Option<&mut Cell> {
        if col >= self.cols || row >= self.rows {
            return None;
        }
        self.cells
            .get_mut(row as usize * self.cols as usize + col as usize)
    }

    /// The cell at a column and row, if inside the grid.
    pub fn cell(&self, col: u16, row: u16) -> Option<&Cell> {
        if col >= self.cols || row >= self.rows {
            return None;
        }
        self.cells
            .get(row as usize * self.cols as usize + col as usize)
    }
}
