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

/// A board: a grid of `cols × rows` cells, laid out as squares (the default), as points
/// joined by lines, as hexagons, or as a track.
///
/// Whatever the layout, a place on the board is a cell `(col, row)`: pieces stand on cells,
/// [`Target::Cell`] clicks them, highlights mark them, and a cell of kind `"void"` is not
/// drawn. Only the drawing changes with [`Board::layout`]; see [`Layout`].
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
    /// How the cells are laid out and drawn (since ABI 1.6; older plugins send none and get
    /// squares).
    #[serde(default, skip_serializing_if = "Layout::is_squares")]
    pub layout: Layout,
    /// Lines drawn between cells' centres: the lines pieces move along on a board of
    /// [`Layout::Points`], the path of a [`Layout::Track`], marks on other boards (since
    /// ABI 1.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
}

/// How a board's cells are laid out and drawn.
///
/// Cell `(col, row)` keeps its meaning in every layout — pieces, click targets and
/// highlights name cells the same way — and cells of kind `"void"` are holes that are not
/// drawn, so any shape of board is a grid with holes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Layout {
    /// Square cells side by side (a chessboard). The default.
    #[default]
    Squares,
    /// Points on a lattice, joined by the board's [`Line`]s: cell `(col, row)` is the point
    /// at that column and row, drawn as a dot (in its colour when it differs from most
    /// points'), and pieces stand on points. For Fox and Geese, Nine Men's Morris,
    /// Alquerque. A finer lattice (more columns and rows, more void cells) places points
    /// more finely.
    Points,
    /// Hexagons. With [`HexCoords::Offset`], every other row (pointy-top) or column
    /// (flat-top) is shifted by half a hexagon; with [`HexCoords::Axial`], each row (or
    /// column) is shifted half a hexagon further than the one before, so that a `n × n`
    /// grid is the rhombus of the game of Hex.
    Hexes {
        /// Which way the hexagons point.
        #[serde(default)]
        orientation: HexOrientation,
        /// How columns and rows map to hexagons.
        #[serde(default)]
        coords: HexCoords,
    },
    /// A track: the non-void cells are spaces drawn apart, and the board's [`Line`]s are the
    /// path between them, drawn under the spaces (Game of the Goose, a race). See
    /// [`Board::track`] for a ready-made winding track.
    Track,
}

impl Layout {
    /// Whether this is the default square layout (for serde).
    pub fn is_squares(&self) -> bool {
        *self == Layout::Squares
    }
}

/// Which way hexagons point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HexOrientation {
    /// A corner at the top: hexagons side by side in rows.
    #[default]
    PointyTop,
    /// A flat edge at the top: hexagons one above the other in columns.
    FlatTop,
}

/// How a hex board's columns and rows map to hexagons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HexCoords {
    /// Odd rows (pointy-top) or odd columns (flat-top) are shifted by half a hexagon, right
    /// or down: the grid stays a rectangle.
    #[default]
    Offset,
    /// Row `r` (pointy-top) is shifted right, or column `c` (flat-top) down, by `r / 2` (or
    /// `c / 2`) hexagons: the grid is a rhombus and the six neighbours of `(c, r)` are
    /// always `(c±1, r)`, `(c, r±1)`, `(c+1, r-1)` and `(c-1, r+1)`.
    Axial,
}

/// A line drawn between the centres of two cells (it may pass through others).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Line {
    /// One end: `[col, row]`.
    pub from: [u16; 2],
    /// The other end: `[col, row]`.
    pub to: [u16; 2],
}

impl Line {
    /// A line from cell `(col, row)` to cell `(col, row)`.
    pub fn new(from: (u16, u16), to: (u16, u16)) -> Self {
        Line {
            from: [from.0, from.1],
            to: [to.0, to.1],
        }
    }
}

/// Where space `i` of a winding track `cols` wide and `rows` high is: `(col, row)`, the
/// first space at the bottom left (see [`Board::track`]).
pub fn track_place(i: u16, cols: u16, rows: u16) -> (u16, u16) {
    let cols = cols.max(1);
    let line = i / cols;
    let along = i % cols;
    let col = if line.is_multiple_of(2) {
        along
    } else {
        cols - 1 - along
    };
    (col, rows.saturating_sub(1).saturating_sub(line))
}

/// One square, point, hexagon or space of a board.
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

impl Cell {
    /// A cell of a kind and colour, with no label.
    pub fn new(kind: impl Into<String>, colour: Colour) -> Self {
        Cell {
            kind: kind.into(),
            colour,
            label: String::new(),
        }
    }

    /// A hole: a cell of kind `"void"`, not drawn.
    pub fn void() -> Self {
        Cell::new("void", Colour::rgb(0, 0, 0))
    }

    /// Whether this is a hole (kind `"void"`).
    pub fn is_void(&self) -> bool {
        self.kind == "void"
    }

    /// The same cell with a short mark on it.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
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

impl Piece {
    /// A piece on cell (`col`, `row`), belonging to no seat, without label or name: add
    /// them with [`Piece::owned_by`], [`Piece::labelled`] and [`Piece::named`].
    pub fn new(
        id: impl Into<String>,
        (col, row): (u16, u16),
        shape: Shape,
        colour: Colour,
    ) -> Self {
        Piece {
            id: id.into(),
            col,
            row,
            shape,
            colour,
            label: String::new(),
            owner: None,
            name: None,
        }
    }

    /// The same piece, belonging to `seat`.
    pub fn owned_by(mut self, seat: Seat) -> Self {
        self.owner = Some(seat);
        self
    }

    /// The same piece, with a short text on it.
    pub fn labelled(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The same piece, with what it is in words.
    pub fn named(mut self, name: Text) -> Self {
        self.name = Some(name);
        self
    }
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
    /// A die rather than a card (since ABI 1.11): the launcher draws it as a die showing its
    /// face on top. Its `title`, `text` and `colour` still say that face in words, for a
    /// host that draws only cards (and the terminal). Build one with [`Card::die`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<Die>,
}

impl Card {
    /// A die in a zone, showing face `up` of `faces`: the card's title and colour are that
    /// face's name and colour.
    pub fn die(id: impl Into<String>, faces: Vec<DieFace>, up: u8) -> Self {
        let die = Die { faces, up, roll: 0 };
        let (title, colour) = die
            .face()
            .map_or((Text::default(), Colour::rgb(240, 240, 240)), |f| {
                (f.name.clone(), f.colour)
            });
        Card {
            id: id.into(),
            face_up: true,
            title,
            text: Text::default(),
            colour,
            die: Some(die),
        }
    }

    /// The same die, brought to its face by roll number `roll` (see [`Die::roll`]); a card
    /// that is not a die stays as it is.
    pub fn rolled(mut self, roll: u32) -> Self {
        if let Some(die) = &mut self.die {
            die.roll = roll;
        }
        self
    }
}

/// A die: every face it has, and the one on top. The launcher draws the face on top (its
/// colour, pips and mark) and, while a new face comes up, turns the die through the others.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Die {
    /// Every face, in order (1 to 64 of them).
    pub faces: Vec<DieFace>,
    /// The face on top: an index into `faces`.
    pub up: u8,
    /// Which roll brought that face up (the number of rolls so far, say): a host shows a
    /// new roll when it changes, even one that brings the same face up again.
    #[serde(default)]
    pub roll: u32,
}

impl Die {
    /// The face on top (none if `up` is past the faces: [`Scene::problem`] says so).
    pub fn face(&self) -> Option<&DieFace> {
        self.faces.get(usize::from(self.up))
    }
}

/// One face of a die: a colour, pips or a mark, and what it shows in words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DieFace {
    /// The face's colour.
    pub colour: Colour,
    /// Its pips, 0 to 9 (0: none, the face is its colour and its mark).
    #[serde(default)]
    pub pips: u8,
    /// A mark drawn in its middle (`"◯"`), often empty.
    #[serde(default)]
    pub mark: String,
    /// What it shows, in words ("Black, ring"): under the pointer, for screen readers and
    /// in the terminal.
    pub name: Text,
}

impl DieFace {
    /// A face of `pips` pips (an ordinary die's `1`–`6`) in `colour`.
    pub fn pips(pips: u8, colour: Colour, name: Text) -> Self {
        DieFace {
            colour,
            pips,
            mark: String::new(),
            name,
        }
    }

    /// A face that is its colour alone (a colour die).
    pub fn plain(colour: Colour, name: Text) -> Self {
        DieFace::pips(0, colour, name)
    }

    /// The same face with a mark in its middle.
    pub fn marked(mut self, mark: impl Into<String>) -> Self {
        self.mark = mark.into();
        self
    }
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

impl ScoreLine {
    /// A figure about one seat ("Knights left" of the attacker): the launcher lays these
    /// out with one column per seat.
    pub fn seat(seat: Seat, label: Text, value: impl ToString) -> Self {
        ScoreLine {
            label,
            value: value.to_string(),
            seat: Some(seat),
        }
    }

    /// A figure about the whole game ("Moves without capture").
    pub fn general(label: Text, value: impl ToString) -> Self {
        ScoreLine {
            label,
            value: value.to_string(),
            seat: None,
        }
    }
}

/// A mark drawn over something.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Highlight {
    /// What is marked.
    pub target: Target,
    /// Why.
    pub kind: HighlightKind,
}

impl Highlight {
    /// A mark of some kind.
    pub fn new(target: Target, kind: HighlightKind) -> Self {
        Highlight { target, kind }
    }

    /// Part of the last move (the assisted mode can hide these).
    pub fn last_move(target: Target) -> Self {
        Highlight::new(target, HighlightKind::LastMove)
    }

    /// In danger, or where something bad happened (a capture).
    pub fn danger(target: Target) -> Self {
        Highlight::new(target, HighlightKind::Danger)
    }
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

impl Scene {
    /// A scene with this message and nothing else yet.
    pub fn new(message: Text) -> Self {
        Scene {
            message,
            ..Scene::default()
        }
    }

    /// Marks the cells of the last move (where a piece left, where it went, and any cell
    /// between) as [`HighlightKind::LastMove`].
    pub fn last_move(&mut self, cells: impl IntoIterator<Item = Target>) {
        self.highlights
            .extend(cells.into_iter().map(Highlight::last_move));
    }

    /// Why this scene cannot be drawn, if it cannot: a rotation beyond three quarter turns, a
    /// board whose cells do not fill its grid, a line with an end off the board or on a
    /// hole, a piece off its board, a die that cannot show its face (see [`Zone::problem`]).
    /// The conformance kit and [`crate::testing`] check it.
    pub fn problem(&self) -> Option<String> {
        if self.rotation > 3 {
            return Some(format!(
                "rotation {} is not 0–3 quarter turns",
                self.rotation
            ));
        }
        self.boards
            .iter()
            .find_map(Board::problem)
            .or_else(|| self.zones.iter().find_map(Zone::problem))
    }
}

impl Zone {
    /// Why this zone cannot be drawn, if it cannot (see [`Scene::problem`]): a die without
    /// faces, with more than 64, with its face on top past them, or a face of more than 9
    /// pips or a mark longer than 8 characters.
    pub fn problem(&self) -> Option<String> {
        self.cards.iter().find_map(|card| {
            let die = card.die.as_ref()?;
            let bad = die.faces.is_empty()
                || die.faces.len() > 64
                || usize::from(die.up) >= die.faces.len()
                || die
                    .faces
                    .iter()
                    .any(|f| f.pips > 9 || f.mark.chars().count() > 8);
            bad.then(|| {
                format!(
                    "die `{}` in zone `{}` must have 1–64 faces of 0–9 pips and marks of at most \
                     8 characters, and its face on top ({}) among its {} faces",
                    card.id,
                    self.id,
                    die.up,
                    die.faces.len()
                )
            })
        })
    }
}

impl Board {
    /// Why this board cannot be drawn, if it cannot (see [`Scene::problem`]).
    pub fn problem(&self) -> Option<String> {
        if self.cells.len() != self.cols as usize * self.rows as usize {
            return Some(format!(
                "board `{}` has {} cells for {}×{}",
                self.id,
                self.cells.len(),
                self.cols,
                self.rows
            ));
        }
        let drawn = |[col, row]: [u16; 2]| self.cell(col, row).is_some_and(|c| !c.is_void());
        if let Some(line) = self.lines.iter().find(|l| !drawn(l.from) || !drawn(l.to)) {
            return Some(format!(
                "board `{}` has a line from {:?} to {:?}: both ends must be cells of the board \
                 that are not void",
                self.id, line.from, line.to
            ));
        }
        if let Some(p) = self
            .pieces
            .iter()
            .find(|p| p.col >= self.cols || p.row >= self.rows)
        {
            return Some(format!(
                "piece `{}` stands outside board `{}`",
                p.id, self.id
            ));
        }
        None
    }

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

    /// A board of `cols × rows` points of [`Layout::Points`], all like `cell`, with no lines
    /// yet: void the holes with [`Board::cell_mut`] and join the points with
    /// [`Board::join`].
    pub fn points(id: impl Into<String>, cols: u16, rows: u16, cell: Cell) -> Self {
        Board {
            layout: Layout::Points,
            ..Board::filled(id, cols, rows, cell)
        }
    }

    /// A board of `cols × rows` hexagons, all like `cell`.
    pub fn hexes(
        id: impl Into<String>,
        cols: u16,
        rows: u16,
        orientation: HexOrientation,
        coords: HexCoords,
        cell: Cell,
    ) -> Self {
        Board {
            layout: Layout::Hexes {
                orientation,
                coords,
            },
            ..Board::filled(id, cols, rows, cell)
        }
    }

    /// A track of `spaces` spaces winding back and forth `cols` spaces wide (left to right on
    /// the bottom row, then right to left on the row above, and so on), all like `cell`,
    /// with its path drawn: space `i` is cell [`track_place`]`(i, cols, rows)`.
    pub fn track(id: impl Into<String>, spaces: u16, cols: u16, cell: Cell) -> Self {
        let cols = cols.max(1);
        let rows = spaces.div_ceil(cols).max(1);
        let mut board = Board {
            layout: Layout::Track,
            ..Board::filled(id, cols, rows, Cell::void())
        };
        for i in 0..spaces {
            let (col, row) = track_place(i, cols, rows);
            if let Some(c) = board.cell_mut(col, row) {
                *c = cell.clone();
            }
            if i > 0 {
                board.join(track_place(i - 1, cols, rows), (col, row));
            }
        }
        board
    }

    /// Adds a line between two cells.
    pub fn join(&mut self, from: (u16, u16), to: (u16, u16)) {
        self.lines.push(Line::new(from, to));
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

#[cfg(test)]
mod die_tests {
    use super::*;
    use crate::text;

    fn faces(n: u8) -> Vec<DieFace> {
        (1..=n)
            .map(|p| DieFace::pips(p, Colour::rgb(250, 250, 250), Text::same(p.to_string())))
            .collect()
    }

    fn with(card: Card) -> Scene {
        let mut scene = Scene::new(text("", ""));
        scene.zones.push(Zone {
            id: "dice".into(),
            cards: vec![card],
            ..Zone::default()
        });
        scene
    }

    #[test]
    fn a_die_names_its_face_on_top_and_an_older_reader_sees_a_card() {
        let card = Card::die("d", faces(6), 2);
        assert_eq!((card.title.en.as_str(), card.face_up), ("3", true));
        assert_eq!(with(card.clone()).problem(), None);
        // Written with its faces; a plain card is written as before ABI 1.11.
        let json = serde_json::to_value(&card).unwrap();
        assert_eq!(json["die"]["up"], 2);
        let plain = serde_json::to_value(Card::default()).unwrap();
        assert!(plain.get("die").is_none(), "{plain}");
        assert_eq!(serde_json::from_value::<Card>(plain).unwrap().die, None);
    }

    #[test]
    fn a_die_that_cannot_show_its_face_is_a_problem() {
        let bad = [
            Card::die("d", Vec::new(), 0),
            Card::die("d", faces(6), 6),
            Card::die("d", faces(65), 0),
            Card::die(
                "d",
                vec![DieFace::pips(10, Colour::rgb(0, 0, 0), text("", ""))],
                0,
            ),
            Card::die(
                "d",
                faces(1)
                    .into_iter()
                    .map(|f| f.marked("123456789"))
                    .collect(),
                0,
            ),
        ];
        for card in bad {
            let problem = with(card.clone()).problem();
            assert!(
                problem
                    .as_deref()
                    .is_some_and(|p| p.contains("die `d` in zone `dice`")),
                "{card:?}: {problem:?}"
            );
        }
    }
}
