//! Squares of the Bâtisseurs board and the pieces standing on them.
//!
//! The board is 9 × 9: columns `a`–`i` from left to right, rows `1`–`9` from the top
//! (Black's side) to the bottom (White's side). A square is numbered `row * 9 + col` with
//! both counted from 0 (`a1` = 0, `i1` = 8, `a9` = 72, `i9` = 80), so every set of squares fits
//! in one `u128` bit mask and a translation of a whole set is one shift.

/// A square number, `row * 9 + col` (row 0 is row `1`, at the top).
pub type Sq = u8;
/// A set of squares.
pub type Mask = u128;

/// Columns and rows.
pub const SIZE: u8 = 9;
/// Number of squares.
pub const CELLS: usize = (SIZE as usize) * (SIZE as usize);

/// The square at a column (0 = `a`) and row (0 = `1`).
pub const fn sq(col: u8, row: u8) -> Sq {
    row * SIZE + col
}

/// The column of a square (0 = `a`).
pub const fn col(s: Sq) -> u8 {
    s % SIZE
}

/// The row of a square (0 = row `1`, at the top).
pub const fn row(s: Sq) -> u8 {
    s / SIZE
}

/// The set holding one square.
#[inline]
pub const fn bit(s: Sq) -> Mask {
    1 << s
}

/// The squares `(col, row)` with `cols.0 <= col <= cols.1` and `rows.0 <= row <= rows.1`.
pub const fn rect(cols: (u8, u8), rows: (u8, u8)) -> Mask {
    let mut mask = 0;
    let mut r = rows.0;
    while r <= rows.1 {
        let mut c = cols.0;
        while c <= cols.1 {
            mask |= bit(sq(c, r));
            c += 1;
        }
        r += 1;
    }
    mask
}

/// The squares that would leave the board when moved by `(dc, dr)`, for `|dc|, |dr| <= 2`,
/// indexed `[dr + 2][dc + 2]`.
const EDGES: [[Mask; 5]; 5] = {
    let mut table = [[0; 5]; 5];
    let mut i = 0;
    while i < 5 {
        let mut j = 0;
        while j < 5 {
            let (dr, dc) = (i as i8 - 2, j as i8 - 2);
            let mut mask = 0;
            let mut s = 0;
            while s < CELLS as u8 {
                let c = col(s) as i8 + dc;
                let r = row(s) as i8 + dr;
                if c < 0 || c >= SIZE as i8 || r < 0 || r >= SIZE as i8 {
                    mask |= bit(s);
                }
                s += 1;
            }
            table[i][j] = mask;
            j += 1;
        }
        i += 1;
    }
    table
};

/// The set `m` moved by `(dc, dr)` (`|dc|, |dr| <= 2`), or `None` if part of it would leave
/// the board.
#[inline]
pub fn shift(m: Mask, dc: i8, dr: i8) -> Option<Mask> {
    if m & EDGES[(dr + 2) as usize][(dc + 2) as usize] != 0 {
        return None;
    }
    let offset = i32::from(dr) * i32::from(SIZE) + i32::from(dc);
    Some(if offset >= 0 {
        m << offset
    } else {
        m >> -offset
    })
}

/// The square `(dc, dr)` away from `s`, if it is on the board.
#[inline]
pub fn step(s: Sq, dc: i8, dr: i8) -> Option<Sq> {
    shift(bit(s), dc, dr).map(|m| m.trailing_zeros() as Sq)
}

/// The squares sharing a side with some square of `m` (and not in `m`).
pub fn side_neighbours(m: Mask) -> Mask {
    let mut out = 0;
    for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let edge = EDGES[(dr + 2) as usize][(dc + 2) as usize];
        out |= shift(m & !edge, dc, dr).unwrap_or(0);
    }
    out & !m
}

/// A square's name (`"a1"`, `"i9"`) as two ASCII characters.
pub fn name_chars(s: Sq) -> [char; 2] {
    [(b'a' + col(s)) as char, (b'1' + row(s)) as char]
}

/// Appends a square's name to a string.
pub fn push_name(out: &mut String, s: Sq) {
    out.extend(name_chars(s));
}

/// A square's name (`"a1"`, `"i9"`).
pub fn name(s: Sq) -> String {
    name_chars(s).iter().collect()
}

/// The square called `name`, if it is on the board.
pub fn parse(name: &str) -> Option<Sq> {
    let &[c, r] = name.as_bytes() else {
        return None;
    };
    if !(b'a'..=b'i').contains(&c) || !(b'1'..=b'9').contains(&r) {
        return None;
    }
    Some(sq(c - b'a', r - b'1'))
}

// ---------------------------------------------------------------------------------------
// Pieces

/// A piece of one player, by index: the two walls, the tower, the two gates. Walls come
/// first: a moving part is named after its first piece in this order.
pub type PieceIx = u8;
/// Each player's five pieces.
pub const PIECES: u8 = 5;
/// The first wall (the one that starts on the left).
pub const WALL1: PieceIx = 0;
/// The second wall (the one that starts on the right).
pub const WALL2: PieceIx = 1;
/// The tower.
pub const TOWER: PieceIx = 2;
/// The first gate (the one that starts on the left).
pub const GATE1: PieceIx = 3;
/// The second gate.
pub const GATE2: PieceIx = 4;
/// Every piece of a player, as a bit set of indices.
pub const ALL_PIECES: u8 = (1 << PIECES) - 1;

/// Whether the piece is a triple wall (BT-M1: it always lies along a row).
#[inline]
pub const fn is_wall(i: PieceIx) -> bool {
    i < 2
}

/// The squares a piece covers when its reference square is `at`: the square itself for a
/// unit piece, and `at` with its left and right neighbours for a wall (a wall's reference
/// square is its middle square).
#[inline]
pub const fn footprint(i: PieceIx, at: Sq) -> Mask {
    if is_wall(i) {
        bit(at - 1) | bit(at) | bit(at + 1)
    } else {
        bit(at)
    }
}

/// Whether a piece may stand with its reference square on `at` (a wall's middle square is
/// never on column `a` or `i`).
pub const fn fits(i: PieceIx, at: Sq) -> bool {
    (at as usize) < CELLS && (!is_wall(i) || (col(at) >= 1 && col(at) <= SIZE - 2))
}

/// The piece's stable id suffix (`tower`, `gate1`, `wall2`).
pub const fn piece_suffix(i: PieceIx) -> &'static str {
    match i {
        WALL1 => "wall1",
        WALL2 => "wall2",
        TOWER => "tower",
        GATE1 => "gate1",
        GATE2 => "gate2",
        _ => "",
    }
}

/// The piece's kind in French and English (`"muraille"`, `"wall"`).
pub const fn piece_noun(i: PieceIx) -> (&'static str, &'static str) {
    if is_wall(i) {
        ("muraille", "wall")
    } else if i == TOWER {
        ("tour", "tower")
    } else {
        ("porte", "gate")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_names_and_shifts() {
        assert_eq!(parse("a1"), Some(0));
        assert_eq!(parse("i9"), Some(80));
        assert_eq!(parse("j1"), None);
        assert_eq!(parse("a0"), None);
        assert_eq!(name(sq(4, 8)), "e9");
        let e5 = parse("e5").unwrap();
        assert_eq!(step(e5, 1, -1), parse("f4"));
        assert_eq!(step(parse("i5").unwrap(), 1, 0), None);
        assert_eq!(step(parse("a5").unwrap(), -1, 0), None);
        assert_eq!(step(parse("e1").unwrap(), 0, -1), None);
        assert_eq!(step(parse("e8").unwrap(), 0, 2), None);
        assert_eq!(step(parse("g8").unwrap(), 2, 1), parse("i9"));
        let wall = footprint(WALL1, parse("b1").unwrap());
        assert_eq!(wall, rect((0, 2), (0, 0)));
        assert_eq!(shift(wall, -1, 0), None);
        assert_eq!(shift(wall, 0, 2), Some(rect((0, 2), (2, 2))));
        assert_eq!(
            side_neighbours(bit(0)),
            bit(parse("b1").unwrap()) | bit(parse("a2").unwrap())
        );
        assert!(!fits(WALL1, parse("a5").unwrap()) && fits(GATE1, parse("a5").unwrap()));
    }
}
