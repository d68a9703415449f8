//! Squares of the Siège board and the pieces standing on them.
//!
//! The board is 8 columns `a`–`h` by 7 ranks `0`–`6`. Rank 0 only holds the four start
//! squares `c0 d0 e0 f0`; its other squares are not part of the board. A square is numbered
//! `rank * 8 + col` (`a1` = 8, `c0` = 2, `h6` = 55), so the whole board fits in 56 cells and
//! every set of squares fits in one `u64` bit mask.

use veillee_sdk::Coords;

/// A square number, `rank * 8 + col`.
pub type Sq = u8;

/// Number of columns.
pub const COLS: u8 = 8;
/// Number of ranks, rank 0 (the start squares) included.
pub const RANKS: u8 = 7;
/// Number of cells of the board array.
pub const CELLS: usize = (COLS * RANKS) as usize;

/// The square at a column (0 = `a`) and rank (0–6).
pub const fn sq(col: u8, rank: u8) -> Sq {
    rank * COLS + col
}

/// The column of a square (0 = `a`).
pub const fn col(s: Sq) -> u8 {
    s % COLS
}

/// The rank of a square (0–6).
pub const fn rank(s: Sq) -> u8 {
    s / COLS
}

const fn bit(s: Sq) -> u64 {
    1 << s
}

/// All squares with `cols.0 <= col <= cols.1` and `ranks.0 <= rank <= ranks.1`.
const fn rect(cols: (u8, u8), ranks: (u8, u8)) -> u64 {
    let mut mask = 0;
    let mut r = ranks.0;
    while r <= ranks.1 {
        let mut c = cols.0;
        while c <= cols.1 {
            mask |= bit(sq(c, r));
            c += 1;
        }
        r += 1;
    }
    mask
}

/// The knights' start squares `c0 d0 e0 f0`, outside the grid in front of rank 1.
pub const START: u64 = rect((2, 5), (0, 0));
/// Every square of the board: ranks 1–6 and the four start squares.
pub const VALID: u64 = rect((0, 7), (1, 6)) | START;
/// The blue-dot moat squares `a1`–`a5` and `h1`–`h5` (reconstruction).
pub const MOAT: u64 = rect((0, 0), (1, 5)) | rect((7, 7), (1, 5));
/// The castle `c3`–`f6` (16 squares).
pub const CASTLE: u64 = rect((2, 5), (3, 6));
/// The lord's crown squares `d6` and `e6`.
pub const CROWN: u64 = bit(D6) | bit(E6);
/// The soldiers' dotted squares `c6 d5 e5 f6`.
pub const DOT: u64 =
    bit(SOLDIER_HOMES[0]) | bit(SOLDIER_HOMES[1]) | bit(SOLDIER_HOMES[2]) | bit(SOLDIER_HOMES[3]);

/// The crown square `d6`.
pub const D6: Sq = sq(3, 6);
/// The crown square `e6`.
pub const E6: Sq = sq(4, 6);
/// Where knights `k1`–`k4` start: `c0 d0 e0 f0`.
pub const KNIGHT_HOMES: [Sq; 4] = [sq(2, 0), sq(3, 0), sq(4, 0), sq(5, 0)];
/// Where soldiers `s1`–`s4` start: `c6 d5 e5 f6` (by column).
pub const SOLDIER_HOMES: [Sq; 4] = [sq(2, 6), sq(3, 5), sq(4, 5), sq(5, 6)];

/// Whether a square is in a set.
#[inline]
pub const fn has(mask: u64, s: Sq) -> bool {
    s < 64 && mask & bit(s) != 0
}

/// The square `(dc, dr)` away from `s`, if it is on the board.
pub const fn step(s: Sq, dc: i8, dr: i8) -> Option<Sq> {
    let c = col(s) as i8 + dc;
    let r = rank(s) as i8 + dr;
    if c < 0 || c >= COLS as i8 || r < 0 || r >= RANKS as i8 {
        return None;
    }
    let t = sq(c as u8, r as u8);
    if has(VALID, t) {
        Some(t)
    } else {
        None
    }
}

/// Up to eight squares, in a fixed order: what a piece may reach from one square (see
/// `rules.rs`'s tables).
#[derive(Clone, Copy, Debug)]
pub struct Targets {
    /// How many of `squares` are used.
    pub len: u8,
    /// The squares, the first `len` of them used.
    pub squares: [Sq; 8],
    /// Bit `i` set: the `i`-th target is a diagonal step (a soldier's capture direction).
    pub diagonal: u8,
}

impl Targets {
    /// No square.
    pub const NONE: Targets = Targets {
        len: 0,
        squares: [0; 8],
        diagonal: 0,
    };

    /// The same with one more square at the end.
    pub const fn with(mut self, to: Sq, diagonal: bool) -> Targets {
        self.squares[self.len as usize] = to;
        if diagonal {
            self.diagonal |= 1 << self.len;
        }
        self.len += 1;
        self
    }

    /// The squares used, in order.
    #[inline]
    pub fn squares(&self) -> &[Sq] {
        &self.squares[..self.len as usize]
    }
}

/// The occupied squares of a board as a bit set (bit `s` for square `s`), eight cells at a
/// time: a byte is non-zero when its low seven bits are (codes are below 128) or its top bit
/// is, and the eight top bits of a rank are gathered by one multiplication.
#[inline]
pub fn occupied(board: &[Code; CELLS]) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const TOP: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut mask = 0;
    for (rank, cells) in board.chunks_exact(COLS as usize).enumerate() {
        let mut word = [0; 8];
        word.copy_from_slice(cells);
        let word = u64::from_le_bytes(word);
        let nonzero = (((word & LOW) + LOW) | word) & TOP;
        let bits = (nonzero >> 7).wrapping_mul(GATHER) >> 56;
        mask |= bits << (rank * COLS as usize);
    }
    mask
}

/// How squares are named: columns `a`–`h`, ranks `0`–`6` from the bottom (scene row 0 is
/// rank 6).
pub const COORDS: Coords = Coords::new(COLS as u16, RANKS as u16).numbered_from(0);

/// The scene cell of a square: (column, row from the top).
pub fn cell(s: Sq) -> (u16, u16) {
    (u16::from(col(s)), u16::from(RANKS - 1 - rank(s)))
}

/// A square's name (`"c0"`, `"h6"`).
pub fn name(s: Sq) -> String {
    let (col, row) = cell(s);
    COORDS.name(col, row)
}

/// The square called `name`, if it is on the board.
pub fn parse(name: &str) -> Option<Sq> {
    let (col, row) = COORDS.parse(name)?;
    let s = sq(col as u8, RANKS - 1 - row as u8);
    has(VALID, s).then_some(s)
}

/// What stands on a square, as one byte: [`EMPTY`], a knight `1..=4` (`k1`–`k4`), a soldier
/// `5..=8` (`s1`–`s4`) or [`LORD`].
pub type Code = u8;

/// An empty square.
pub const EMPTY: Code = 0;
/// The lord.
pub const LORD: Code = 9;

/// Knight `k1`–`k4` (index 0–3).
pub const fn knight(i: u8) -> Code {
    1 + i
}

/// Soldier `s1`–`s4` (index 0–3).
pub const fn soldier(i: u8) -> Code {
    5 + i
}

/// Whether the code is a knight.
#[inline]
pub const fn is_knight(c: Code) -> bool {
    matches!(c, 1..=4)
}

/// Whether the code is a soldier.
#[inline]
pub const fn is_soldier(c: Code) -> bool {
    matches!(c, 5..=8)
}

/// Stable piece id: `k1`–`k4`, `s1`–`s4`, `lord`.
pub fn piece_id(c: Code) -> &'static str {
    const IDS: [&str; 10] = ["", "k1", "k2", "k3", "k4", "s1", "s2", "s3", "s4", "lord"];
    IDS.get(c as usize).copied().unwrap_or("")
}

/// The code of a piece id.
pub fn parse_piece(id: &str) -> Option<Code> {
    (1..=LORD).find(|&c| piece_id(c) == id)
}

/// The piece's kind in French and English, with its article ("le chevalier", "the knight").
pub fn piece_noun(c: Code) -> (&'static str, &'static str) {
    if is_knight(c) {
        ("le chevalier", "the knight")
    } else if is_soldier(c) {
        ("le soldat", "the soldier")
    } else {
        ("le seigneur", "the lord")
    }
}

/// The piece's kind, capitalised, in French and English ("Chevalier", "Knight").
pub fn piece_title(c: Code) -> (&'static str, &'static str) {
    if is_knight(c) {
        ("Chevalier", "Knight")
    } else if is_soldier(c) {
        ("Soldat", "Soldier")
    } else {
        ("Seigneur", "Lord")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_sets_match_the_specification() {
        assert_eq!(VALID.count_ones(), 52);
        assert_eq!(CASTLE.count_ones(), 16);
        assert_eq!(MOAT.count_ones(), 10);
        for s in ["a1", "a5", "h1", "h5"] {
            assert!(has(MOAT, parse(s).unwrap()), "{s}");
        }
        for s in ["a6", "h6", "b1", "a0"] {
            assert!(parse(s).is_none_or(|s| !has(MOAT, s)), "{s}");
        }
        assert!(parse("a0").is_none() && parse("b0").is_none() && parse("g0").is_none());
        assert_eq!(parse("c0"), Some(2));
        assert_eq!(name(parse("h6").unwrap()), "h6");
        for s in ["c6", "d5", "e5", "f6"] {
            assert!(has(DOT, parse(s).unwrap()) && has(CASTLE, parse(s).unwrap()));
        }
        assert!(has(CROWN, parse("d6").unwrap()) && has(CROWN, parse("e6").unwrap()));
        assert_eq!(step(parse("c0").unwrap(), -1, 0), None);
        assert_eq!(step(parse("c1").unwrap(), 0, -1), parse("c0"));
    }

    #[test]
    fn occupied_squares_are_read_eight_at_a_time() {
        let mut board = [EMPTY; CELLS];
        assert_eq!(occupied(&board), 0);
        let squares = [2, 8, 15, 16, 27, 40, 55];
        for (i, &s) in squares.iter().enumerate() {
            board[s] = [knight(0), LORD, soldier(3), 0x7f, 0x80, 1, 0xff][i];
        }
        let want = squares.iter().fold(0u64, |m, &s| m | 1 << s);
        assert_eq!(occupied(&board), want);
        board = [LORD; CELLS];
        assert_eq!(occupied(&board), u64::MAX >> 8);
    }
}
