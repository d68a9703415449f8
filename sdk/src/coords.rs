//! Names of board places as players write them — a column letter and a row number, `d4` —
//! and the scene cells they are.

use crate::Target;

/// How a board's places are named: columns `a`, `b`, … from the left, rows numbered from the
/// bottom (as on a chessboard) or from the top, starting at 1 or any number. Scene row 0 is
/// always the top row.
///
/// ```
/// use veillee_sdk::Coords;
///
/// let chess = Coords::new(8, 8);
/// assert_eq!(chess.name(3, 4), "d4"); // scene column 3, scene row 4 from the top
/// assert_eq!(chess.parse("d4"), Some((3, 4)));
/// assert_eq!(chess.parse("i1"), None);
/// assert_eq!(chess.row_labels()[0], "8");
///
/// // Siège numbers its ranks 0–6 from the bottom.
/// let siege = Coords::new(8, 7).numbered_from(0);
/// assert_eq!(siege.name(2, 6), "c0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coords {
    cols: u16,
    rows: u16,
    first: u16,
    from_top: bool,
}

impl Coords {
    /// A board of `cols` columns (at most 26: `a`–`z`) and `rows` rows numbered from 1 at the
    /// bottom.
    pub const fn new(cols: u16, rows: u16) -> Self {
        Coords {
            cols,
            rows,
            first: 1,
            from_top: false,
        }
    }

    /// The same, with the rows numbered from `first` instead of 1.
    pub const fn numbered_from(self, first: u16) -> Self {
        Coords { first, ..self }
    }

    /// The same, with the rows numbered from the top.
    pub const fn numbered_from_top(self) -> Self {
        Coords {
            from_top: true,
            ..self
        }
    }

    /// The number written for scene row `row`.
    pub fn row_number(&self, row: u16) -> u16 {
        let from_start = if self.from_top {
            row
        } else {
            self.rows.saturating_sub(1).saturating_sub(row)
        };
        self.first + from_start
    }

    /// The letter of scene column `col`.
    pub fn col_letter(&self, col: u16) -> char {
        char::from(b'a' + (col.min(25) as u8))
    }

    /// The name of cell (`col`, `row`): `d4`.
    pub fn name(&self, col: u16, row: u16) -> String {
        format!("{}{}", self.col_letter(col), self.row_number(row))
    }

    /// The cell a name stands for, if it is on the board.
    pub fn parse(&self, name: &str) -> Option<(u16, u16)> {
        let mut chars = name.chars();
        let letter = chars.next()?;
        let col = u16::from(u8::try_from(letter).ok()?.checked_sub(b'a')?);
        let digits = chars.as_str();
        let canonical = !digits.is_empty()
            && digits.len() <= 4
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        if !canonical {
            return None;
        }
        let from_start = digits.parse::<u16>().ok()?.checked_sub(self.first)?;
        if col >= self.cols || from_start >= self.rows {
            return None;
        }
        let row = if self.from_top {
            from_start
        } else {
            self.rows - 1 - from_start
        };
        Some((col, row))
    }

    /// The column letters, for [`crate::Board::col_labels`].
    pub fn col_labels(&self) -> Vec<String> {
        (0..self.cols)
            .map(|c| self.col_letter(c).to_string())
            .collect()
    }

    /// The row numbers from the top, for [`crate::Board::row_labels`].
    pub fn row_labels(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| self.row_number(r).to_string())
            .collect()
    }
}

/// The click path of a piece moving from where it stands through `cells` of board `board`,
/// in order: the piece, then each cell. One cell for a plain move, several for a series of
/// jumps.
///
/// ```
/// use veillee_sdk::{move_path, Target};
///
/// assert_eq!(
///     move_path("board", "fox", &[(3, 5), (5, 5)]),
///     [Target::piece("fox"), Target::cell("board", 3, 5), Target::cell("board", 5, 5)]
/// );
/// ```
pub fn move_path(board: &str, piece: impl Into<String>, cells: &[(u16, u16)]) -> Vec<Target> {
    std::iter::once(Target::piece(piece))
        .chain(
            cells
                .iter()
                .map(|&(col, row)| Target::cell(board, col, row)),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_parsing_agree_on_every_cell() {
        for coords in [
            Coords::new(8, 8),
            Coords::new(8, 7).numbered_from(0),
            Coords::new(5, 12).numbered_from_top(),
        ] {
            for row in 0..coords.rows {
                for col in 0..coords.cols {
                    let name = coords.name(col, row);
                    assert_eq!(coords.parse(&name), Some((col, row)), "{name}");
                }
            }
            assert_eq!(coords.col_labels().len(), usize::from(coords.cols));
            assert_eq!(coords.row_labels().len(), usize::from(coords.rows));
        }
    }

    #[test]
    fn names_off_the_board_are_refused() {
        let coords = Coords::new(8, 7).numbered_from(0);
        for bad in [
            "", "a", "i0", "a7", "a-1", "A1", "a01x", "a01", "é1", "a99999",
        ] {
            assert_eq!(coords.parse(bad), None, "{bad}");
        }
        assert_eq!(Coords::new(12, 12).parse("c10"), Some((2, 2)));
    }
}
