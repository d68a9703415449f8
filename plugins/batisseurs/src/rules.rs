//! Move generation (BT-M1 to BT-M7) and the castle test (BT-E1, BT-E2).
//!
//! Moves are produced through a callback so that the same code fills the move list and
//! answers "is there any move?" without allocating (the callback returns `true` to stop).

use veillee_sdk::Seat;

use crate::board::{self, is_wall, shift, Mask, PieceIx, ALL_PIECES, PIECES};
use crate::{Batisseurs, Move};

/// BT-M2: a unit piece moving alone steps one square in any of the eight directions.
pub const KING_STEPS: [(i8, i8); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// BT-M3/BT-M4: a triple, or several touching pieces, go one or two squares along a row or a
/// column, or one square diagonally.
pub const GROUP_STEPS: [(i8, i8); 12] = [
    (0, -1),
    (0, -2),
    (1, -1),
    (1, 0),
    (2, 0),
    (1, 1),
    (0, 1),
    (0, 2),
    (-1, 1),
    (-1, 0),
    (-2, 0),
    (-1, -1),
];

/// The squares covered by one player's pieces, piece by piece.
pub(crate) struct Layout {
    /// Each piece's squares.
    pub fp: [Mask; PIECES as usize],
    /// All of them.
    pub own: Mask,
    /// The opponent's squares.
    pub opp: Mask,
    /// For each piece, the set (bits of piece indices) of own pieces it touches by a side.
    pub touching: [u8; PIECES as usize],
}

impl Batisseurs {
    /// The squares covered by `seat`'s pieces.
    pub(crate) fn occupied(&self, seat: Seat) -> Mask {
        let at = &self.at[seat as usize];
        (0..PIECES).fold(0, |m, i| m | board::footprint(i, at[i as usize]))
    }

    pub(crate) fn layout(&self, seat: Seat) -> Layout {
        let at = &self.at[seat as usize];
        let mut fp = [0; PIECES as usize];
        for i in 0..PIECES {
            fp[i as usize] = board::footprint(i, at[i as usize]);
        }
        let own = fp.iter().fold(0, |m, f| m | f);
        let mut touching = [0u8; PIECES as usize];
        for (i, t) in touching.iter_mut().enumerate() {
            let around = board::side_neighbours(fp[i]);
            for (j, f) in fp.iter().enumerate() {
                if i != j && around & f != 0 {
                    *t |= 1 << j;
                }
            }
        }
        Layout {
            fp,
            own,
            opp: self.occupied(seat ^ 1),
            touching,
        }
    }

    /// Whether `seat` has at least one move (a pass aside).
    pub(crate) fn has_any_move(&self, seat: Seat) -> bool {
        self.each_move(seat, &mut |_| true)
    }

    /// Calls `f` on every legal move of `seat` (a pass aside), in a fixed order: parts by
    /// their bit set of pieces (1 to 31), each in the direction order of [`KING_STEPS`] or
    /// [`GROUP_STEPS`]; then the jumps (BT-M7), by piece and direction. Stops as soon as `f`
    /// returns `true`, and then returns `true`.
    pub(crate) fn each_move(&self, seat: Seat, f: &mut impl FnMut(Move) -> bool) -> bool {
        let lay = self.layout(seat);
        let occupied = lay.own | lay.opp;
        // Pieces that belong to some part with a legal move (BT-M7's "pieces that can still
        // move freely").
        let mut movable = 0u8;
        for part in 1..=ALL_PIECES {
            // BT-M5: a moving part is any set of own pieces connected by sides: a whole
            // element (BT-M4) or any piece of one, or several touching pieces detached from it.
            if !connected(part, &lay.touching) {
                continue;
            }
            let footprint = parts_footprint(part, &lay.fp);
            // BT-M6: the squares the part leaves count as empty for it; nothing else does.
            let others = occupied & !footprint;
            let lone_unit = part.count_ones() == 1 && !is_wall(part.trailing_zeros() as u8);
            // BT-M2 for a unit piece alone; BT-M3/BT-M4 for a wall or several pieces.
            let steps: &[(i8, i8)] = if lone_unit { &KING_STEPS } else { &GROUP_STEPS };
            for &(dc, dr) in steps {
                // BT-M1: a translation, never a rotation; the board's edge stops it.
                let Some(to) = shift(footprint, dc, dr) else {
                    continue;
                };
                if to & others != 0 {
                    continue;
                }
                // BT-M6: on a two-square move the squares passed over must be free as well.
                if (dc.abs() == 2 || dr.abs() == 2)
                    && shift(footprint, dc / 2, dr / 2).is_none_or(|mid| mid & others != 0)
                {
                    continue;
                }
                movable |= part;
                if f(Move::Shift { part, dc, dr }) {
                    return true;
                }
            }
        }
        // BT-M7: the blocked-piece jump.
        let blocked = ALL_PIECES & !movable;
        if blocked == 0 || !assembled(movable, &lay.touching) {
            return false;
        }
        for piece in 0..PIECES {
            if blocked & (1 << piece) == 0 {
                continue;
            }
            let fp = lay.fp[piece as usize];
            for (dc, dr) in KING_STEPS {
                let (Some(over), Some(to)) = (shift(fp, dc, dr), shift(fp, 2 * dc, 2 * dr)) else {
                    continue;
                };
                let (over, to) = (over & !fp, to & !fp);
                // It jumps over opponent pieces only (at least one, never an own piece) …
                if over & lay.opp == 0 || over & (lay.own & !fp) != 0 {
                    continue;
                }
                // … onto empty squares.
                if to & occupied != 0 {
                    continue;
                }
                if f(Move::Jump {
                    piece,
                    dc: 2 * dc,
                    dr: 2 * dr,
                }) {
                    return true;
                }
            }
        }
        false
    }

    /// The pieces of `seat` that may jump now (BT-M7), as a bit set of piece indices.
    pub(crate) fn jumpers(&self, seat: Seat) -> u8 {
        let mut jumpers = 0;
        self.each_move(seat, &mut |mv| {
            if let Move::Jump { piece, .. } = mv {
                jumpers |= 1 << piece;
            }
            false
        });
        jumpers
    }

    /// BT-E1: the top-left square of `seat`'s castle, when its five pieces exactly fill a
    /// 3 × 3 square.
    pub(crate) fn castle(&self, seat: Seat) -> Option<board::Sq> {
        let own = self.occupied(seat);
        let corner = own.trailing_zeros() as board::Sq;
        let (c, r) = (board::col(corner), board::row(corner));
        if c > board::SIZE - 3 || r > board::SIZE - 3 {
            return None;
        }
        (own == board::rect((c, c + 2), (r, r + 2))).then_some(corner)
    }

    /// BT-E1: `seat`'s castle if it counts: any castle under the plain rules, only one with
    /// the tower in the centre under the house rule « Tour maîtresse »
    /// (`require_central_tower`, see `ops.rs`).
    pub(crate) fn counting_castle(&self, seat: Seat) -> Option<board::Sq> {
        self.castle(seat)
            .filter(|_| !self.central_tower || self.tower_in_centre(seat))
    }

    /// BT-E2: whether `seat`'s tower stands in the centre of its castle.
    pub(crate) fn tower_in_centre(&self, seat: Seat) -> bool {
        self.castle(seat)
            .is_some_and(|corner| self.at[seat as usize][board::TOWER as usize] == corner + 10)
    }

    /// The elements of `seat` (BT-M4): bit sets of pieces, in order of their first piece.
    pub(crate) fn elements(&self, seat: Seat) -> Vec<u8> {
        let lay = self.layout(seat);
        let mut left = ALL_PIECES;
        let mut out = Vec::new();
        while left != 0 {
            let element = component(left & left.wrapping_neg(), left, &lay.touching);
            out.push(element);
            left &= !element;
        }
        out
    }
}

/// The squares of a set of pieces.
#[inline]
pub(crate) fn parts_footprint(part: u8, fp: &[Mask; PIECES as usize]) -> Mask {
    let mut m = 0;
    for (i, f) in fp.iter().enumerate() {
        if part & (1 << i) != 0 {
            m |= f;
        }
    }
    m
}

/// The pieces of `within` reachable from `start` through pieces that touch by a side.
#[inline]
fn component(start: u8, within: u8, touching: &[u8; PIECES as usize]) -> u8 {
    let mut reached = start;
    loop {
        let mut next = reached;
        for (i, t) in touching.iter().enumerate() {
            if reached & (1 << i) != 0 {
                next |= t & within;
            }
        }
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// Whether a non-empty set of pieces is connected by sides.
#[inline]
fn connected(part: u8, touching: &[u8; PIECES as usize]) -> bool {
    component(part & part.wrapping_neg(), part, touching) == part
}

/// BT-M7 "every piece that can still move freely is already assembled": the pieces in
/// `free` all belong to one element (vacuously so when there are none).
fn assembled(free: u8, touching: &[u8; PIECES as usize]) -> bool {
    free == 0 || component(free & free.wrapping_neg(), ALL_PIECES, touching) & free == free
}

/// The first piece of a part (walls first, then the tower, then the gates): the piece the
/// part is named after and clicked by.
#[inline]
pub(crate) fn primary(part: u8) -> PieceIx {
    part.trailing_zeros() as PieceIx
}
