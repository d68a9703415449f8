//! Move generation: how each piece moves (SG-K, SG-D, SG-L) and the special rule (SG-R).
//!
//! Moves are produced through a callback so that the same code fills the move list and
//! answers "is there any move?" without allocating (the callback returns `true` to stop).

use veillee_sdk::Seat;

use crate::board::{
    self, has, step, Sq, Targets, CASTLE, CELLS, CROWN, D6, DOT, E6, EMPTY, MOAT, START,
};
use crate::{Move, Siege, ATTACKER};

/// SG-K1: the chess knight's jumps. Those with `dr > 0` go forward (toward rank 6).
const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
];

/// SG-D1: the eight neighbours.
const KING_STEPS: [(i8, i8); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// SG-L1: the four diagonal directions, forward and backward.
const DIAGONALS: [(i8, i8); 4] = [(-1, 1), (1, 1), (-1, -1), (1, -1)];

/// What a knight may reach from each square before looking at the pieces (SG-K1 to SG-K4),
/// in the order of [`KNIGHT_JUMPS`]: computed once, at build time.
const KNIGHT_TARGETS: [Targets; CELLS] = {
    let mut table = [Targets::NONE; CELLS];
    let mut from = 0;
    while from < CELLS {
        let inside = has(CASTLE, from as Sq);
        let mut i = 0;
        while i < KNIGHT_JUMPS.len() {
            let (dc, dr) = KNIGHT_JUMPS[i];
            i += 1;
            // SG-K4: a knight leaps; nothing between `from` and `to` matters.
            let Some(to) = step(from as Sq, dc, dr) else {
                continue;
            };
            let into_castle = has(CASTLE, to);
            // SG-K2: never back onto a start square. SG-K3: once inside the castle, never
            // out again. SG-K1/SG-K2: forward only, except inside the castle or on the move
            // that enters it from outside (both: the square reached is in the castle).
            if has(START, to) || (inside && !into_castle) || (dr < 0 && !into_castle) {
                continue;
            }
            table[from] = table[from].with(to, false);
        }
        from += 1;
    }
    table
};

/// What a soldier may reach from each square before looking at the pieces (SG-D1), in the
/// order of [`KING_STEPS`], diagonals marked (SG-D2).
const SOLDIER_TARGETS: [Targets; CELLS] = {
    let mut table = [Targets::NONE; CELLS];
    let mut from = 0;
    while from < CELLS {
        let mut i = 0;
        while i < KING_STEPS.len() {
            let (dc, dr) = KING_STEPS[i];
            i += 1;
            let Some(to) = step(from as Sq, dc, dr) else {
                continue;
            };
            // SG-D1: « sur toutes les cases du château et sur toutes les cases de la planche
            // de jeu, sauf sur celles qui sont marquées de points bleus »: the knights'
            // start squares (white dots) are squares of the board too.
            if has(MOAT, to) {
                continue;
            }
            table[from] = table[from].with(to, dc != 0 && dr != 0);
        }
        from += 1;
    }
    table
};

/// The lord's four diagonals from each square, in the order of [`DIAGONALS`]: the castle
/// squares one, two and three steps away, up to the first square outside the castle (SG-L1).
const LORD_RAYS: [[Targets; 4]; CELLS] = {
    let mut table = [[Targets::NONE; 4]; CELLS];
    let mut from = 0;
    while from < CELLS {
        let mut d = 0;
        while d < DIAGONALS.len() {
            let (dc, dr) = DIAGONALS[d];
            let mut at = from as Sq;
            let mut distance = 0;
            while distance < 3 {
                distance += 1;
                let Some(next) = step(at, dc, dr) else { break };
                if !has(CASTLE, next) {
                    break;
                }
                at = next;
                table[from][d] = table[from][d].with(at, true);
            }
            d += 1;
        }
        from += 1;
    }
    table
};

/// Whether `from`–`to` is a one-square diagonal step inside the castle: the lord's step of
/// the house rule « seigneur agile » (the plain lord never moves a single diagonal square).
pub(crate) fn is_nimble_step(from: Sq, to: Sq) -> bool {
    LORD_RAYS[from as usize]
        .iter()
        .any(|ray| ray.squares().first() == Some(&to))
}

impl Siege {
    /// Whether `seat` has at least one move (a pass aside).
    pub(crate) fn has_any_move(&self, seat: Seat) -> bool {
        self.each_move(seat, &mut |_| true)
    }

    /// Calls `f` on every legal move of `seat` (a pass aside), in a fixed order: by square
    /// (a0 … h6), then by direction. Stops as soon as `f` returns `true`, and then returns
    /// `true`.
    pub(crate) fn each_move(&self, seat: Seat, f: &mut impl FnMut(Move) -> bool) -> bool {
        let attacker = seat == ATTACKER;
        // SG-R: during the defender's first four moves (and until a capture), only a
        // soldier still on its own dotted square may move, and only onto a square without
        // a dot. When no such move exists the defender has no legal move at all and passes
        // (SG-E3): the original gives no escape from the obligation, and passing keeps the
        // obligation without inventing one.
        let special = !attacker && self.special_rule_applies();
        let mut lord = None;
        let mut pieces = board::occupied(&self.board);
        while pieces != 0 {
            let from = pieces.trailing_zeros() as Sq;
            pieces &= pieces - 1;
            let piece = self.board[from as usize];
            let stop = if attacker {
                board::is_knight(piece) && self.knight_moves(from, f)
            } else if board::is_soldier(piece) {
                let index = piece - board::soldier(0);
                let free = !special || board::SOLDIER_HOMES[index as usize] == from;
                free && self.soldier_moves(from, special, f)
            } else if piece == board::LORD {
                lord = Some(from);
                !special && self.lord_moves(from, f)
            } else {
                false
            };
            if stop {
                return true;
            }
        }
        match lord {
            Some(from) if self.nimble_lord && !special => self.nimble_steps(from, f),
            _ => false,
        }
    }

    /// SG-L1, SG-L3 with the house rule « seigneur agile » (command `nimble_lord`): the lord
    /// may also step a single square diagonally, staying in the castle, onto an empty square
    /// or a knight, which it takes. Listed after every other move, one diagonal after the
    /// other in the order of [`DIAGONALS`] (as the rule's Lua example adds them).
    fn nimble_steps(&self, from: Sq, f: &mut impl FnMut(Move) -> bool) -> bool {
        for ray in &LORD_RAYS[from as usize] {
            let Some(&to) = ray.squares().first() else {
                continue;
            };
            let target = self.board[to as usize];
            if (target == EMPTY || board::is_knight(target)) && f(Move::Step { from, to }) {
                return true;
            }
        }
        false
    }

    /// A knight's moves from `from` (SG-K1 to SG-K5).
    fn knight_moves(&self, from: Sq, f: &mut impl FnMut(Move) -> bool) -> bool {
        for &to in KNIGHT_TARGETS[from as usize].squares() {
            // SG-K3: blue squares are allowed. SG-K5: landing on a soldier or the lord
            // captures it; a knight never lands on another knight.
            if !board::is_knight(self.board[to as usize]) && f(Move::Step { from, to }) {
                return true;
            }
        }
        false
    }

    /// A soldier's moves from `from` (SG-D1, SG-D2), restricted by SG-R when `special`.
    fn soldier_moves(&self, from: Sq, special: bool, f: &mut impl FnMut(Move) -> bool) -> bool {
        let targets = &SOLDIER_TARGETS[from as usize];
        for (i, &to) in targets.squares().iter().enumerate() {
            // SG-R: off the dotted square onto a square without a dot.
            if special && has(DOT, to) {
                continue;
            }
            let target = self.board[to as usize];
            // SG-D2: a knight is captured only diagonally, never on a blue square (the
            // table holds none).
            let legal =
                target == EMPTY || (board::is_knight(target) && targets.diagonal & (1 << i) != 0);
            if legal && f(Move::Step { from, to }) {
                return true;
            }
        }
        false
    }

    /// The lord's moves from `from` (SG-L1 to SG-L3).
    fn lord_moves(&self, from: Sq, f: &mut impl FnMut(Move) -> bool) -> bool {
        for ray in &LORD_RAYS[from as usize] {
            // SG-L1: two or three squares diagonally, forward or backward, within the castle,
            // over empty squares only, onto an empty square or a knight (SG-L3).
            for (distance, &at) in ray.squares().iter().enumerate() {
                let target = self.board[at as usize];
                let reachable = target == EMPTY || board::is_knight(target);
                if distance >= 1 && reachable && f(Move::Step { from, to: at }) {
                    return true;
                }
                if target != EMPTY {
                    break;
                }
            }
        }
        // SG-L2: the sideways step between the two crown squares, onto an empty square or a
        // knight (SG-L3).
        if has(CROWN, from) {
            let to = if from == D6 { E6 } else { D6 };
            let target = self.board[to as usize];
            if (target == EMPTY || board::is_knight(target)) && f(Move::Step { from, to }) {
                return true;
            }
        }
        false
    }
}
