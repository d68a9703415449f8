//! The board (RP-B1): the 33 points of the cross on a 7 × 7 lattice, and the lines between
//! them. A point is its scene cell: column 0–6 from the left (`a`–`g`), row 0–6 from the top
//! (ranks 7 down to 1).

use serde::{Deserialize, Serialize};
use veillee_sdk::Coords;

/// Columns and rows of the lattice.
pub const SIZE: u8 = 7;

/// How points are named: `a`–`g` from the left, `1`–`7` from the bottom (`d4` is the
/// centre).
pub const COORDS: Coords = Coords::new(SIZE as u16, SIZE as u16);

/// A point of the cross. Saved as its name (`"d4"`), and loading refuses a name that is not
/// a point of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Point {
    col: u8,
    row: u8,
}

/// One step along a line: (columns, rows), rows growing downward, toward the hens' side.
pub type Direction = (i8, i8);

/// The eight directions, clockwise from "up" (toward the top of the board).
pub const DIRECTIONS: [Direction; 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

impl Point {
    /// The point at a column and row, if it is on the cross: in the three middle columns or
    /// the three middle rows.
    pub fn at(col: i16, row: i16) -> Option<Point> {
        let inside = |v: i16| (0..i16::from(SIZE)).contains(&v);
        let middle = |v: i16| (2..=4).contains(&v);
        (inside(col) && inside(row) && (middle(col) || middle(row))).then_some(Point {
            col: col as u8,
            row: row as u8,
        })
    }

    /// Every point, row by row from the top left.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..i16::from(SIZE))
            .flat_map(|row| (0..i16::from(SIZE)).filter_map(move |col| Point::at(col, row)))
    }

    /// The scene cell: (column, row).
    pub fn cell(self) -> (u16, u16) {
        (u16::from(self.col), u16::from(self.row))
    }

    /// An index 0–48 for arrays over the lattice.
    pub fn index(self) -> usize {
        usize::from(self.row) * usize::from(SIZE) + usize::from(self.col)
    }

    /// The neighbour one step away along a line of the board (RP-B1): every two
    /// neighbouring points are joined along their row or column, and diagonally only from a
    /// point whose column + row is even — the classic pattern of crossed squares.
    pub fn step(self, (dc, dr): Direction) -> Option<Point> {
        let diagonal = dc != 0 && dr != 0;
        if diagonal && (self.col + self.row) % 2 == 1 {
            return None;
        }
        Point::at(
            i16::from(self.col) + i16::from(dc),
            i16::from(self.row) + i16::from(dr),
        )
    }

    /// Its name, `d4`.
    pub fn name(self) -> String {
        let (col, row) = self.cell();
        COORDS.name(col, row)
    }

    /// The point of a name.
    pub fn parse(name: &str) -> Option<Point> {
        let (col, row) = COORDS.parse(name)?;
        Point::at(col as i16, row as i16)
    }
}

impl From<Point> for String {
    fn from(p: Point) -> String {
        p.name()
    }
}

impl TryFrom<String> for Point {
    type Error = String;

    fn try_from(name: String) -> Result<Point, String> {
        Point::parse(&name).ok_or_else(|| format!("`{name}` is not a point of the cross"))
    }
}

/// Every line between two neighbouring points, once: for the scene.
pub fn lines() -> Vec<(Point, Point)> {
    // Half the directions (right, down and the two downward diagonals) meet every line once.
    Point::all()
        .flat_map(|p| {
            [(1, 0), (0, 1), (1, 1), (-1, 1)]
                .into_iter()
                .filter_map(move |d| Some((p, p.step(d)?)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rp_b1_the_cross_has_33_points_and_the_classic_lines() {
        assert_eq!(Point::all().count(), 33);
        // 52 lines along rows and columns, and one diagonal across each of the 20 small
        // squares: the board of the classic game.
        let lines = lines();
        let diagonal = |(a, b): &(Point, Point)| a.col != b.col && a.row != b.row;
        assert_eq!(lines.iter().filter(|l| !diagonal(l)).count(), 52);
        assert_eq!(lines.iter().filter(|l| diagonal(l)).count(), 20);
        let d4 = Point::parse("d4").unwrap();
        assert_eq!(
            DIRECTIONS.iter().filter(|&&d| d4.step(d).is_some()).count(),
            8
        );
        let d5 = Point::parse("d5").unwrap();
        assert_eq!(
            DIRECTIONS.iter().filter(|&&d| d5.step(d).is_some()).count(),
            4
        );
    }

    #[test]
    fn names_are_read_back_and_holes_refused() {
        for p in Point::all() {
            assert_eq!(Point::parse(&p.name()), Some(p));
        }
        for hole in ["a1", "b2", "a7", "g6", "f1", "h4", "d0", "d8"] {
            assert_eq!(Point::parse(hole), None, "{hole}");
        }
    }
}
