//! The castle (CA-B1): a 6×6 grid, square `row * 6 + col`, row 0 at the top (north).
//! Square names are chess-like: columns `a`–`f` from the west, ranks `1`–`6` from the
//! south (`a6` is the north-west tower). Ramparts: 0 north, 1 east, 2 south, 3 west.

use crate::cards::Zone;

/// Squares of the castle.
pub const SQUARES: usize = 36;
/// Rampart ids, in index order.
pub const RAMPARTS: [&str; 4] = ["n", "e", "s", "w"];
/// French rampart names.
pub const RAMPARTS_FR: [&str; 4] = ["nord", "est", "sud", "ouest"];
/// English rampart names.
pub const RAMPARTS_EN: [&str; 4] = ["north", "east", "south", "west"];

/// Column and row of a square.
pub fn xy(sq: u8) -> (u8, u8) {
    (sq % 6, sq / 6)
}

/// The zone of a square: tower, rampart or courtyard.
pub fn zone(sq: u8) -> Zone {
    let (x, y) = xy(sq);
    let edge_x = x == 0 || x == 5;
    let edge_y = y == 0 || y == 5;
    match (edge_x, edge_y) {
        (true, true) => Zone::Tower,
        (false, false) => Zone::Courtyard,
        _ => Zone::Rampart,
    }
}

/// The rampart of a rampart square.
pub fn rampart(sq: u8) -> Option<u8> {
    if zone(sq) != Zone::Rampart {
        return None;
    }
    let (x, y) = xy(sq);
    Some(if y == 0 {
        0
    } else if x == 5 {
        1
    } else if y == 5 {
        2
    } else {
        3
    })
}

/// The four squares of a rampart.
pub fn rampart_squares(r: u8) -> [u8; 4] {
    let mut out = [0u8; 4];
    for (i, o) in out.iter_mut().enumerate() {
        let i = i as u8 + 1;
        *o = match r {
            0 => i,
            1 => i * 6 + 5,
            2 => 30 + i,
            _ => i * 6,
        };
    }
    out
}

/// Whether two squares neighbour each other (a side or a corner, across zones: CA-B2).
pub fn neighbours(a: u8, b: u8) -> bool {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    a != b && ax.abs_diff(bx) <= 1 && ay.abs_diff(by) <= 1
}

/// The neighbouring squares of a square.
pub fn neighbour_squares(sq: u8) -> impl Iterator<Item = u8> {
    (0..SQUARES as u8).filter(move |&s| neighbours(sq, s))
}

/// A square's name (`c4`).
pub fn name(sq: u8) -> String {
    let (x, y) = xy(sq);
    format!("{}{}", (b'a' + x) as char, 6 - y)
}

/// The square with this name.
pub fn parse(name: &str) -> Option<u8> {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'a'..=b'f').contains(&b[0]) || !(b'1'..=b'6').contains(&b[1]) {
        return None;
    }
    Some((b'6' - b[1]) * 6 + (b[0] - b'a'))
}
