//! The Château Noir board (the spec's reconstruction) and the pieces standing on it.
//!
//! The board is 10×10. Columns `a`–`j` run left to right, rows `1`–`10` top to bottom. A
//! square is numbered `row * 10 + col` with `row` 0 for row `1` (`a1` = 0, `j1` = 9,
//! `a10` = 90), so every set of squares fits in one `u128` bit mask.

/// A square number, `row * 10 + col`.
pub type Sq = u8;
/// Number of columns and rows.
pub const SIDE: u8 = 10;
/// Number of squares.
pub const CELLS: usize = 100;
/// "No square": a captured piece's position.
pub const NONE: Sq = 255;

/// The spec's map, row `1` first. `W` white, `B` plain black (wall), `X` tower,
/// `g r u y` the territories of Green, Red, blUe and Yellow.
pub const MAP: [&str; 10] = [
    "gggWWXWrrr",
    "gggWWXWrrr",
    "gggWXWWrrr",
    "WWWXBBXWWW",
    "XXWBWWBXWW",
    "WWXBWWBWXX",
    "WWWXBBXWWW",
    "yyyWWXWuuu",
    "yyyWXWWuuu",
    "yyyWXWWuuu",
];

/// What a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A white square (the only landing squares of orthogonal jumps, CN-M2).
    White,
    /// A plain black castle square (a wall).
    Wall,
    /// A black square marked X (an observation tower).
    Tower,
    /// A square of an army's territory (army index 0–3).
    Territory(u8),
}

const fn kind_of(c: u8) -> Kind {
    match c {
        b'W' => Kind::White,
        b'B' => Kind::Wall,
        b'X' => Kind::Tower,
        b'g' => Kind::Territory(0),
        b'r' => Kind::Territory(1),
        b'u' => Kind::Territory(2),
        _ => Kind::Territory(3),
    }
}

const fn build_kinds() -> [Kind; CELLS] {
    let mut kinds = [Kind::White; CELLS];
    let mut row = 0;
    while row < 10 {
        let bytes = MAP[row].as_bytes();
        let mut col = 0;
        while col < 10 {
            kinds[row * 10 + col] = kind_of(bytes[col]);
            col += 1;
        }
        row += 1;
    }
    kinds
}

/// The kind of every square.
pub const KINDS: [Kind; CELLS] = build_kinds();

/// The kind of a square.
#[inline]
pub fn kind(s: Sq) -> Kind {
    KINDS[s as usize]
}

/// Whether a square is a tower (X).
#[inline]
pub fn is_tower(s: Sq) -> bool {
    matches!(KINDS[s as usize], Kind::Tower)
}

/// Whether a square is white.
#[inline]
pub fn is_white(s: Sq) -> bool {
    matches!(KINDS[s as usize], Kind::White)
}

/// The territory a square belongs to (army index), if any.
#[inline]
pub fn territory(s: Sq) -> Option<u8> {
    match KINDS[s as usize] {
        Kind::Territory(a) => Some(a),
        _ => None,
    }
}

/// The square at a column and row (both 0-based).
pub const fn sq(col: u8, row: u8) -> Sq {
    row * SIDE + col
}

/// The column of a square (0 = `a`).
pub const fn col(s: Sq) -> u8 {
    s % SIDE
}

/// The row of a square (0 = row `1`).
pub const fn row(s: Sq) -> u8 {
    s / SIDE
}

/// The square `(dc, dr)` away from `s`, if it is on the board.
#[inline]
pub fn offset(s: Sq, dc: i8, dr: i8) -> Option<Sq> {
    let c = col(s) as i8 + dc;
    let r = row(s) as i8 + dr;
    if (0..SIDE as i8).contains(&c) && (0..SIDE as i8).contains(&r) {
        Some(sq(c as u8, r as u8))
    } else {
        None
    }
}

/// The four orthogonal directions: up, right, down, left.
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
/// The four diagonal directions.
pub const DIAGONAL: [(i8, i8); 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];
/// All eight directions.
pub const ALL_DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Whether `a` and `b` are the two white squares of a gate (CN-M5): diagonal neighbours
/// whose two common neighbours are both towers.
pub fn is_gate(a: Sq, b: Sq) -> bool {
    let (ca, ra, cb, rb) = (col(a), row(a), col(b), row(b));
    if ca.abs_diff(cb) != 1 || ra.abs_diff(rb) != 1 || !is_white(a) || !is_white(b) {
        return false;
    }
    is_tower(sq(ca, rb)) && is_tower(sq(cb, ra))
}

/// Whether a tower is one of a twin pair (a tower orthogonally next to another tower:
/// `f1-f2`, `i6-j6`, `e9-e10`, `a5-b5`).
pub fn is_twin(s: Sq) -> bool {
    is_tower(s)
        && ORTHOGONAL
            .iter()
            .any(|&(dc, dr)| offset(s, dc, dr).is_some_and(is_tower))
}

/// Whether a square is in the 4×4 castle d4–g7.
pub fn in_castle(s: Sq) -> bool {
    (3..=6).contains(&col(s)) && (3..=6).contains(&row(s))
}

/// A square's name (`"c4"`, `"a10"`).
pub fn name(s: Sq) -> String {
    let mut out = String::with_capacity(3);
    push_name(&mut out, s);
    out
}

/// Appends a square's name to a string.
pub fn push_name(out: &mut String, s: Sq) {
    out.push((b'a' + col(s)) as char);
    let r = row(s) + 1;
    if r == 10 {
        out.push_str("10");
    } else {
        out.push((b'0' + r) as char);
    }
}

/// The square called `name`, if any.
pub fn parse(name: &str) -> Option<Sq> {
    let bytes = name.as_bytes();
    let (&c, digits) = bytes.split_first()?;
    if !(b'a'..=b'j').contains(&c) {
        return None;
    }
    let r: u8 = match digits {
        [d @ b'1'..=b'9'] => d - b'0',
        [b'1', b'0'] => 10,
        _ => return None,
    };
    Some(sq(c - b'a', r - 1))
}

/// The bit of a square in a `u128` set.
#[inline]
pub const fn bit(s: Sq) -> u128 {
    1u128 << s
}

// ---------------------------------------------------------------------------------------
// Armies and pieces

/// Number of armies.
pub const ARMIES: usize = 4;
/// Pieces per army: the captain (index 0) and eight soldiers.
pub const PER_ARMY: usize = 9;
/// Number of pieces.
pub const PIECES: usize = ARMIES * PER_ARMY;

/// A piece number: `army * 9 + index`, index 0 being the captain.
pub type Pc = u8;

/// The army of a piece.
#[inline]
pub const fn army_of(p: Pc) -> u8 {
    p / PER_ARMY as u8
}

/// Whether a piece is a captain.
#[inline]
pub const fn is_captain(p: Pc) -> bool {
    p.is_multiple_of(PER_ARMY as u8)
}

/// The captain of an army.
#[inline]
pub const fn captain(army: u8) -> Pc {
    army * PER_ARMY as u8
}

/// The pieces of an army, a bit per piece.
#[inline]
pub const fn army_pieces(army: u8) -> u64 {
    ((1u64 << PER_ARMY) - 1) << captain(army)
}

/// Army colour names, in the clockwise order of play.
pub const ARMY_NAMES: [(&str, &str); 4] = [
    ("Vert", "Green"),
    ("Rouge", "Red"),
    ("Bleu", "Blue"),
    ("Jaune", "Yellow"),
];
/// Army ids in piece ids.
pub const ARMY_IDS: [&str; 4] = ["green", "red", "blue", "yellow"];

/// The square in the middle of an army's territory (the captain's start).
pub const fn territory_centre(army: u8) -> Sq {
    match army {
        0 => sq(1, 1),
        1 => sq(8, 1),
        2 => sq(8, 8),
        _ => sq(1, 8),
    }
}

/// The nine squares of an army's territory, in reading order.
pub fn territory_squares(army: u8) -> [Sq; 9] {
    let centre = territory_centre(army);
    let (c, r) = (col(centre) - 1, row(centre) - 1);
    let mut out = [0; 9];
    for (i, o) in out.iter_mut().enumerate() {
        *o = sq(c + (i % 3) as u8, r + (i / 3) as u8);
    }
    out
}

/// Where every piece starts: the captain in the middle of its territory, soldiers 1–8 on
/// the other squares in reading order (reconstruction).
pub fn start_square(p: Pc) -> Sq {
    let army = army_of(p);
    let index = (p % PER_ARMY as u8) as usize;
    let squares = territory_squares(army);
    if index == 0 {
        squares[4]
    } else {
        // Soldiers 1–4 before the centre, 5–8 after it.
        squares[if index <= 4 { index - 1 } else { index }]
    }
}

/// A piece's stable id: `green-captain`, `green-1` … `green-8`.
pub fn piece_id(p: Pc) -> String {
    let army = ARMY_IDS[army_of(p) as usize];
    if is_captain(p) {
        format!("{army}-captain")
    } else {
        format!("{army}-{}", p % PER_ARMY as u8)
    }
}

/// The piece with this id.
pub fn parse_piece(id: &str) -> Option<Pc> {
    (0..PIECES as Pc).find(|&p| piece_id(p) == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_matches_the_specification_counts_and_symmetry() {
        let count = |f: &dyn Fn(Kind) -> bool| KINDS.iter().filter(|&&k| f(k)).count();
        assert_eq!(count(&|k| k == Kind::White), 40);
        assert_eq!(count(&|k| k == Kind::Wall), 8);
        assert_eq!(count(&|k| k == Kind::Tower), 16);
        assert_eq!(count(&|k| matches!(k, Kind::Territory(_))), 36);
        // A quarter turn clockwise maps the board onto itself, territories moving one army on.
        for s in 0..CELLS as Sq {
            let turned = sq(SIDE - 1 - row(s), col(s));
            let expected = match kind(s) {
                Kind::Territory(a) => Kind::Territory((a + 1) % 4),
                k => k,
            };
            assert_eq!(kind(turned), expected, "{}", name(s));
        }
    }

    #[test]
    fn gates_twins_and_names() {
        let mut gates = Vec::new();
        for a in 0..CELLS as Sq {
            for b in a + 1..CELLS as Sq {
                if is_gate(a, b) {
                    gates.push(format!("{}-{}", name(a), name(b)));
                }
            }
        }
        assert_eq!(gates, ["e2-f3", "c5-b6", "i5-h6", "e8-f9"]);
        let twins: Vec<String> = (0..CELLS as Sq).filter(|&s| is_twin(s)).map(name).collect();
        assert_eq!(twins, ["f1", "f2", "a5", "b5", "i6", "j6", "e9", "e10"]);
        assert_eq!(parse("a10"), Some(90));
        assert_eq!(parse("j1"), Some(9));
        assert_eq!(parse("k1"), None);
        assert_eq!(parse("a11"), None);
        assert_eq!(parse("a0"), None);
        for s in 0..CELLS as Sq {
            assert_eq!(parse(&name(s)), Some(s));
        }
        assert_eq!(start_square(captain(0)), parse("b2").unwrap());
        assert_eq!(start_square(captain(2)), parse("i9").unwrap());
        assert_eq!(piece_id(10), "red-1");
        assert_eq!(parse_piece("yellow-captain"), Some(27));
    }
}
