//! The castle's geometry (RN-B1): a 10×10 grid of squares, columns `a`–`j` left to right,
//! rows `1`–`10` top to bottom. The four 2×2 corner blocks and the 2×2 centre block are
//! rooms, each counting as one square; the other 80 squares lie on 20 flagstone tiles of
//! 2×2 squares.
//!
//! A place a knight can stand on is a [`Node`]: a square `0..100` (`row * 10 + col`, never
//! inside a room block) or a room [`ROOM`]` + r`, `r` = 0 top-left corner (`a1`–`b2`),
//! 1 top-right (`i1`–`j2`), 2 bottom-left (`a9`–`b10`), 3 bottom-right (`i9`–`j10`),
//! 4 the centre (`e5`–`f6`, the treasure room).

/// A square (`0..100`) or a room (`ROOM..ROOM + 5`).
pub type Node = u8;

/// Room nodes start here.
pub const ROOM: Node = 100;
/// The treasure room (the centre block).
pub const TREASURE: Node = ROOM + 4;
/// Squares per side of the grid.
pub const SIDE: i8 = 10;
/// Flagstone tiles.
pub const TILES: usize = 20;
/// "No portrait / nothing".
pub const NO: u8 = u8::MAX;

/// The top-left grid square of room `r`'s block.
pub fn room_origin(r: u8) -> (i8, i8) {
    match r {
        0 => (0, 0),
        1 => (8, 0),
        2 => (0, 8),
        3 => (8, 8),
        _ => (4, 4),
    }
}

/// The room whose block holds grid square (x, y), if any.
pub fn room_of(x: i8, y: i8) -> Option<u8> {
    let (cx, cy) = (x / 2, y / 2);
    match (cx, cy) {
        (0, 0) => Some(0),
        (4, 0) => Some(1),
        (0, 4) => Some(2),
        (4, 4) => Some(3),
        (2, 2) => Some(4),
        _ => None,
    }
}

/// The node at grid square (x, y), `None` off the grid.
pub fn node_at(x: i8, y: i8) -> Option<Node> {
    if !(0..SIDE).contains(&x) || !(0..SIDE).contains(&y) {
        return None;
    }
    Some(match room_of(x, y) {
        Some(r) => ROOM + r,
        None => (y * SIDE + x) as Node,
    })
}

/// Whether a node is a room.
pub fn is_room(n: Node) -> bool {
    n >= ROOM
}

/// The grid squares a node covers (one, or a room's four).
fn squares(n: Node) -> ([(i8, i8); 4], usize) {
    if is_room(n) {
        let (x, y) = room_origin(n - ROOM);
        ([(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)], 4)
    } else {
        let (x, y) = ((n % 10) as i8, (n / 10) as i8);
        ([(x, y); 4], 1)
    }
}

const DIRS: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// One orthogonal step: the node reached and the grid square touched first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The node reached.
    pub to: Node,
    /// The grid square of `to` touched (for click paths into rooms).
    pub at: (i8, i8),
}

/// One rope jump (RN-R1): over one node to the node beyond, in a straight line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The node jumped over.
    pub over: Node,
    /// The node landed on.
    pub to: Node,
    /// The grid square of `to` landed on.
    pub at: (i8, i8),
}

/// The nodes orthogonally next to `n` (RN-B1: 4 for a square or a corner room, 8 for the
/// centre), in a fixed order.
pub fn steps(n: Node) -> impl Iterator<Item = Step> {
    let (sq, len) = squares(n);
    let mut out = [Step { to: NO, at: (0, 0) }; 8];
    let mut k = 0;
    for &(x, y) in &sq[..len] {
        for (dx, dy) in DIRS {
            let (tx, ty) = (x + dx, y + dy);
            if let Some(t) = node_at(tx, ty) {
                if t != n && !out[..k].iter().any(|s| s.to == t) {
                    out[k] = Step {
                        to: t,
                        at: (tx, ty),
                    };
                    k += 1;
                }
            }
        }
    }
    out.into_iter().take(k)
}

/// The rope jumps from `n` (RN-R1): over the next node in a straight line to the node
/// beyond it; jumping over a room lands past its whole block.
pub fn jumps(n: Node) -> impl Iterator<Item = Jump> {
    let (sq, len) = squares(n);
    let mut out = [Jump {
        over: NO,
        to: NO,
        at: (0, 0),
    }; 8];
    let mut k = 0;
    for &(x, y) in &sq[..len] {
        for (dx, dy) in DIRS {
            let (mut tx, mut ty) = (x + dx, y + dy);
            let Some(over) = node_at(tx, ty) else {
                continue;
            };
            if over == n {
                continue;
            }
            while node_at(tx, ty) == Some(over) {
                tx += dx;
                ty += dy;
            }
            if let Some(to) = node_at(tx, ty) {
                if to != n && !out[..k].iter().any(|j| j.to == to) {
                    out[k] = Jump {
                        over,
                        to,
                        at: (tx, ty),
                    };
                    k += 1;
                }
            }
        }
    }
    out.into_iter().take(k)
}

/// Whether two nodes are orthogonally next to each other.
pub fn adjacent(a: Node, b: Node) -> bool {
    steps(a).any(|s| s.to == b)
}

/// The tile (0..20, in reading order of the 5×5 cells) and the position in it (0 top-left,
/// 1 top-right, 2 bottom-left, 3 bottom-right) of a square; `None` for rooms.
pub fn tile_of(n: Node) -> Option<(usize, u8)> {
    if is_room(n) {
        return None;
    }
    let (x, y) = (n % 10, n / 10);
    let cell = (y / 2) * 5 + x / 2;
    let rooms_before = [0u8, 4, 20, 24, 12].iter().filter(|&&c| c < cell).count() as u8;
    Some(((cell - rooms_before) as usize, (x % 2) + 2 * (y % 2)))
}

/// The square at position `pos` of tile `tile`.
pub fn tile_square(tile: usize, pos: u8) -> Node {
    let mut t = 0;
    for cell in 0..25u8 {
        if [0u8, 4, 12, 20, 24].contains(&cell) {
            continue;
        }
        if t == tile {
            let (cx, cy) = (cell % 5, cell / 5);
            return (cy * 2 + pos / 2) * 10 + cx * 2 + pos % 2;
        }
        t += 1;
    }
    NO
}

/// The position diagonally opposite on the same tile (RN-P2).
pub fn diagonal(pos: u8) -> u8 {
    3 - pos
}

/// A square's name (`c3`); rooms are named by the game (they depend on the layout).
pub fn square_name(n: Node) -> String {
    let (x, y) = (n % 10, n / 10);
    format!("{}{}", (b'a' + x) as char, y + 1)
}

/// The square named `c3` (not inside a room block).
pub fn parse_square(name: &str) -> Option<Node> {
    let mut chars = name.chars();
    let c = chars.next()?;
    if !('a'..='j').contains(&c) {
        return None;
    }
    let row: i8 = chars.as_str().parse().ok()?;
    let n = node_at(c as i8 - b'a' as i8, row - 1)?;
    (!is_room(n)).then_some(n)
}
