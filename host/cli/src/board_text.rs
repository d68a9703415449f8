//! Draws any game's scene as text, with no knowledge of the game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use veillee_sdk::{Board, Scene, Shape};

/// The scene as lines of text: boards, zones, scores and the message.
pub fn render(scene: &Scene, lang: &str) -> String {
    let mut out = String::new();
    for board in &scene.boards {
        render_board(&mut out, board, lang);
    }
    for zone in &scene.zones {
        let cards: Vec<String> = zone
            .cards
            .iter()
            .map(|c| {
                if c.face_up {
                    format!("[{}]", c.title.get(lang))
                } else {
                    "[?]".into()
                }
            })
            .collect();
        let _ = writeln!(out, "{}: {}", zone.title.get(lang), cards.join(" "));
    }
    for score in &scene.scores {
        let _ = writeln!(out, "  {}: {}", score.label.get(lang), score.value);
    }
    let _ = writeln!(out, "{}", scene.message.get(lang));
    out
}

fn render_board(out: &mut String, board: &Board, lang: &str) {
    if !board.title.en.is_empty() {
        let _ = writeln!(out, "{}", board.title.get(lang));
    }
    let common = most_common_kind(board);
    let mut legend: BTreeMap<char, String> = BTreeMap::new();
    for row in 0..board.rows {
        let label = board
            .row_labels
            .get(row as usize)
            .map(String::as_str)
            .unwrap_or("");
        let _ = write!(out, "{label:>3} ");
        for col in 0..board.cols {
            let symbol = match board.pieces.iter().find(|p| p.col == col && p.row == row) {
                Some(piece) => {
                    let c = piece_char(piece.shape, &piece.label, piece.owner);
                    legend.insert(
                        c,
                        format!(
                            "{:?}{}",
                            piece.shape,
                            piece
                                .owner
                                .map(|o| format!(" of seat {o}"))
                                .unwrap_or_default()
                        )
                        .to_lowercase(),
                    );
                    c
                }
                None => cell_char(board, col, row, &common, &mut legend),
            };
            let _ = write!(out, " {symbol}");
        }
        out.push('\n');
    }
    if !board.col_labels.is_empty() {
        let _ = writeln!(out, "     {}", board.col_labels.join(" "));
    }
    let legend: Vec<String> = legend
        .iter()
        .map(|(c, what)| format!("{c} {what}"))
        .collect();
    let _ = writeln!(out, "     ({})", legend.join(", "));
}

fn cell_char(
    board: &Board,
    col: u16,
    row: u16,
    common: &str,
    legend: &mut BTreeMap<char, String>,
) -> char {
    let Some(cell) = board.cell(col, row) else {
        return ' ';
    };
    if cell.kind == "void" {
        return ' ';
    }
    let c = if let Some(c) = cell.label.chars().next() {
        c
    } else if cell.kind == common {
        '.'
    } else {
        cell.kind.chars().next().unwrap_or('?').to_ascii_lowercase()
    };
    legend.entry(c).or_insert_with(|| cell.kind.clone());
    c
}

fn most_common_kind(board: &Board) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for cell in &board.cells {
        *counts.entry(cell.kind.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(k, _)| k.to_string())
        .unwrap_or_default()
}

/// Upper case for even seats, lower case for odd ones.
fn piece_char(shape: Shape, label: &str, owner: Option<u8>) -> char {
    let letter = label.chars().next().unwrap_or(match shape {
        Shape::Knight => 'N',
        Shape::Soldier => 'S',
        Shape::Lord => 'L',
        Shape::Tower => 'T',
        Shape::Wall => 'W',
        Shape::Square => 'Q',
        Shape::Disc => 'O',
        Shape::Token => '*',
    });
    if owner.is_some_and(|o| o % 2 == 1) {
        letter.to_ascii_lowercase()
    } else {
        letter.to_ascii_uppercase()
    }
}
