//! Tables for the terminal: columns as wide as their widest cell (measured in the columns a
//! terminal gives each character, so « Château » and `–` count as they show), two spaces
//! apart. A cell wider than [`MAX_CELL`] is cut with `…`, so that one long or hostile name
//! cannot push the whole table off the screen; the last column, which nothing follows, is
//! shown whole. Cells are expected already quoted ([`line`]).
//!
//! [`line`]: crate::term::line

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The widest a cell is shown, in terminal columns.
pub const MAX_CELL: usize = 48;

/// How a column's cells sit in it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Align {
    /// Text: flush left.
    Left,
    /// Numbers: flush right.
    Right,
}

/// A table being filled: a header row, then one row per item.
pub struct Table {
    aligns: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers and alignments.
    pub fn new(columns: &[(&str, Align)]) -> Self {
        Self {
            aligns: columns.iter().map(|(_, align)| *align).collect(),
            rows: vec![columns.iter().map(|(name, _)| name.to_string()).collect()],
        }
    }

    /// Adds a row; missing cells are blank, extra ones are dropped.
    pub fn row<S: AsRef<str>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let last = self.aligns.len().saturating_sub(1);
        let mut row: Vec<String> = cells
            .into_iter()
            .take(self.aligns.len())
            .enumerate()
            .map(|(column, cell)| {
                if column == last {
                    cell.as_ref().to_string()
                } else {
                    cut(cell.as_ref())
                }
            })
            .collect();
        row.resize(self.aligns.len(), String::new());
        self.rows.push(row);
    }

    /// The table's lines, header first, with no trailing spaces.
    pub fn lines(&self) -> Vec<String> {
        let widths: Vec<usize> = (0..self.aligns.len())
            .map(|column| {
                self.rows
                    .iter()
                    .map(|row| row[column].width())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        self.rows
            .iter()
            .map(|row| {
                let cells: Vec<String> = row
                    .iter()
                    .zip(&widths)
                    .zip(&self.aligns)
                    .map(|((cell, &width), &align)| {
                        let pad = " ".repeat(width - cell.width());
                        match align {
                            Align::Left => format!("{cell}{pad}"),
                            Align::Right => format!("{pad}{cell}"),
                        }
                    })
                    .collect();
                cells.join("  ").trim_end().to_string()
            })
            .collect()
    }
}

/// `cell`, cut to [`MAX_CELL`] columns with a closing `…` where it is wider.
fn cut(cell: &str) -> String {
    if cell.width() <= MAX_CELL {
        return cell.to_string();
    }
    let mut kept = String::new();
    let mut width = 0;
    for c in cell.chars() {
        let w = c.width().unwrap_or(0);
        if width + w > MAX_CELL - 1 {
            break;
        }
        width += w;
        kept.push(c);
    }
    kept.push('…');
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_name_widens_its_column_and_keeps_the_others_aligned() {
        let mut table = Table::new(&[
            ("id", Align::Left),
            ("name", Align::Left),
            ("players", Align::Left),
        ]);
        table.row(["siege", "Siège", "2"]);
        table.row([
            "roc-noir",
            "Le Château du roc noir (Blackrock Castle)",
            "2–4",
        ]);
        let lines = table.lines();
        let column_of = |line: &str, text: &str| line[..line.find(text).unwrap()].width();
        let players_at = column_of(&lines[0], "players");
        assert_eq!(column_of(&lines[1], "2"), players_at, "{lines:#?}");
        assert_eq!(column_of(&lines[2], "2–4"), players_at, "{lines:#?}");
    }

    #[test]
    fn numbers_sit_flush_right_and_lines_end_without_spaces() {
        let mut table = Table::new(&[("id", Align::Right), ("game", Align::Left)]);
        table.row(["7", "castel"]);
        table.row(["1234", "x"]);
        assert_eq!(table.lines(), ["  id  game", "   7  castel", "1234  x"]);
    }

    #[test]
    fn a_cell_wider_than_the_limit_is_cut_with_an_ellipsis_but_the_last_is_whole() {
        let mut table = Table::new(&[("name", Align::Left), ("status", Align::Left)]);
        let long = "é".repeat(500);
        table.row([long.as_str(), long.as_str()]);
        let shown = &table.lines()[1];
        let (name, status) = shown.split_once("  ").expect("two cells");
        assert_eq!(name.width(), MAX_CELL);
        assert!(name.ends_with('…'));
        assert_eq!(status, long);
    }
}
