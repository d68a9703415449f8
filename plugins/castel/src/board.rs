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
    ZONES[sq as usize]
}

/// Every square's zone, computed once (move generation asks it all the time).
const ZONES: [Zone; SQUARES] = {
    let mut zones = [Zone::Courtyard; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (x, y) = (sq % 6, sq / 6);
        let edge_x = x == 0 || x == 5;
        let edge_y = y == 0 || y == 5;
        zones[sq] = match (edge_x, edge_y) {
            (true, true) => Zone::Tower,
            (false, false) => Zone::Courtyard,
            _ => Zone::Rampart,
        };
        sq += 1;
    }
    zones
};

/// The squares of a castle zone as a bit set (bit `q` for square `q`); empty for the zones
/// outside the walls.
pub fn zone_mask(zone: Zone) -> u64 {
    const fn mask(tower: bool, courtyard: bool) -> u64 {
        let mut mask = 0;
        let mut sq = 0;
        while sq < SQUARES {
            let (x, y) = (sq % 6, sq / 6);
            let (edge_x, edge_y) = (x == 0 || x == 5, y == 0 || y == 5);
            let is = if tower {
                edge_x && edge_y
            } else if courtyard {
                !edge_x && !edge_y
            } else {
                edge_x != edge_y
            };
            if is {
                mask |= 1 << sq;
            }
            sq += 1;
        }
        mask
    }
    const TOWERS: u64 = mask(true, false);
    const COURTYARD: u64 = mask(false, true);
    const RAMPARTS: u64 = mask(false, false);
    match zone {
        Zone::Tower => TOWERS,
        Zone::Courtyard => COURTYARD,
        Zone::Rampart => RAMPARTS,
        Zone::Outside | Zone::Engine | Zone::OnCard => 0,
    }
}

/// The members of a bit set in increasing order: the squares of a set of squares, the cards
/// of a set of cards.
pub fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let sq = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            sq
        })
    })
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

/// The neighbouring squares of a square, in increasing order.
pub fn neighbour_squares(sq: u8) -> impl Iterator<Item = u8> {
    bits(NEIGHBOURS[sq as usize])
}

/// The neighbouring squares of a square as a bit set.
pub fn neighbour_mask(sq: u8) -> u64 {
    NEIGHBOURS[sq as usize]
}

/// Each square's neighbours as a bit set, computed once.
const NEIGHBOURS: [u64; SQUARES] = {
    let mut masks = [0; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut b = 0;
        while b < SQUARES {
            let (ax, ay, bx, by) = (a % 6, a / 6, b % 6, b / 6);
            if a != b && ax.abs_diff(bx) <= 1 && ay.abs_diff(by) <= 1 {
                masks[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    masks
};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_agree_with_the_grid() {
        for a in 0..SQUARES as u8 {
            let slow: Vec<u8> = (0..SQUARES as u8).filter(|&b| neighbours(a, b)).collect();
            assert_eq!(
                neighbour_squares(a).collect::<Vec<_>>(),
                slow,
                "{}",
                name(a)
            );
            assert!(bits(zone_mask(zone(a))).any(|q| q == a), "{}", name(a));
        }
        let count = |z| zone_mask(z).count_ones();
        assert_eq!(
            (
                count(Zone::Tower),
                count(Zone::Rampart),
                count(Zone::Courtyard)
            ),
            (4, 16, 16)
        );
        assert_eq!(zone(parse("a6").unwrap()), Zone::Tower);
        assert_eq!(zone(parse("c6").unwrap()), Zone::Rampart);
        assert_eq!(zone(parse("c4").unwrap()), Zone::Courtyard);
        assert_eq!(neighbour_squares(parse("a6").unwrap()).count(), 3);
    }
}
