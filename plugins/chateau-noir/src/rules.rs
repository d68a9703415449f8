//! Move generation (CN-T, CN-M), flanking (CN-C1, CN-C3), the "can this army still make its
//! full movement factor?" search (CN-S4, CN-S5) and the siege test (CN-S7, XI.1).

use std::collections::BTreeSet;

use crate::board::{
    self, army_of, bit, is_captain, is_gate, is_tower, is_white, offset, Kind, Pc, Sq, CELLS,
    DIAGONAL, ORTHOGONAL,
};
use crate::ChateauNoir;

/// The most destinations one square can have: 4 steps and 4 jumps orthogonally, 4 steps
/// and 4 jumps diagonally.
pub const MAX_DESTINATIONS: usize = 16;

/// The squares a piece on `from` can reach with one coup on `board` (a square holds
/// `piece + 1`, or 0 when empty), ignoring the path rule. Each square appears once.
pub fn destinations(
    board: &[u8; CELLS],
    from: Sq,
    captain: bool,
) -> ([Sq; MAX_DESTINATIONS], usize) {
    let mut out = [0; MAX_DESTINATIONS];
    let mut n = 0;
    let from_tower = is_tower(from);
    for (dc, dr) in ORTHOGONAL {
        let Some(next) = offset(from, dc, dr) else {
            continue;
        };
        // CN-M1: a step onto an adjacent empty square of any kind.
        if board[next as usize] == 0 {
            out[n] = next;
            n += 1;
        }
        // CN-M2: a jump over exactly one wall or tower, occupied or not, onto the empty white
        // square beyond. Twin towers are jumped from their twin only, since the landing must
        // be white (V.3.D); no diagonal jumps for soldiers, no turning (V.3.E).
        if matches!(board::kind(next), Kind::Wall | Kind::Tower) {
            if let Some(land) = offset(next, dc, dr) {
                if is_white(land) && board[land as usize] == 0 {
                    out[n] = land;
                    n += 1;
                }
            }
        }
    }
    for (dc, dr) in DIAGONAL {
        let Some(next) = offset(from, dc, dr) else {
            continue;
        };
        // CN-M6 (captain, any diagonal step), CN-M3 (from a tower), CN-M4 (onto a tower),
        // CN-M5 (between the two white squares of a gate).
        if board[next as usize] == 0
            && (captain || from_tower || is_tower(next) || is_gate(from, next))
        {
            out[n] = next;
            n += 1;
        }
        // CN-M6: the captain jumps diagonally over a tower, occupied or not, onto the empty
        // square beyond (of any kind, VII.2).
        if captain && is_tower(next) {
            if let Some(land) = offset(next, dc, dr) {
                if board[land as usize] == 0 {
                    out[n] = land;
                    n += 1;
                }
            }
        }
    }
    (out, n)
}

/// CN-T3: whether the moving piece, which has stood on `visited` this turn and made the
/// coups `trail`, may go from `from` to `to`: never back onto a square it stood on, except
/// a tower, and never the same coup twice.
#[inline]
pub fn path_allows(visited: u128, trail: &[(Sq, Sq)], from: Sq, to: Sq) -> bool {
    visited & bit(to) == 0 || is_tower(to) && !trail.contains(&(from, to))
}

impl ChateauNoir {
    /// Calls `f` on every legal coup of the army to move, in a fixed order (by square left,
    /// then destination order of [`destinations`]). Stops and returns `true` as soon as `f`
    /// does.
    pub(crate) fn each_coup(&self, f: &mut impl FnMut(Sq, Sq) -> bool) -> bool {
        let unit = self.unit(self.active);
        let trail = &self.this_turn[self.trail_start.min(self.this_turn.len())..];
        for from in 0..CELLS as Sq {
            let code = self.board[from as usize];
            if code == 0 {
                continue;
            }
            let p = code - 1;
            // CN-M7: under an alliance the unit holds both armies; CN-T2: a piece that
            // moved before another one is done for this turn.
            if unit & (1 << army_of(p)) == 0 || self.done & (1 << p) != 0 {
                continue;
            }
            let moving = self.current == Some(p);
            let (dests, n) = destinations(&self.board, from, is_captain(p));
            for &to in &dests[..n] {
                if moving && !path_allows(self.visited, trail, from, to) {
                    continue;
                }
                if f(from, to) {
                    return true;
                }
            }
        }
        false
    }

    /// The lines along which a piece can be flanked, one direction each: its row and its
    /// column (CN-C1), plus both diagonals under the house rule « Prise en diagonale »
    /// (`allow_diagonal_flanking`, see `ops.rs`).
    pub(crate) fn flank_lines(&self) -> &'static [(i8, i8)] {
        const PLAIN: [(i8, i8); 2] = [(1, 0), (0, 1)];
        const WITH_DIAGONALS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        if self.diagonal_flanking {
            &WITH_DIAGONALS
        } else {
            &PLAIN
        }
    }

    /// Whether the piece on `s` stands between two pieces of one side hostile to it, on its
    /// row or its column (CN-C1 geometry, used for CN-C3; diagonals too under the house rule
    /// « Prise en diagonale »).
    pub(crate) fn flanked_by_hostile(&self, p: Pc, s: Sq) -> bool {
        let mine = self.side(army_of(p));
        self.flank_lines().iter().any(|&(dc, dr)| {
            let (Some(a), Some(b)) = (offset(s, -dc, -dr), offset(s, dc, dr)) else {
                return false;
            };
            let (qa, qb) = (self.board[a as usize], self.board[b as usize]);
            if qa == 0 || qb == 0 {
                return false;
            }
            let (sa, sb) = (self.side(army_of(qa - 1)), self.side(army_of(qb - 1)));
            sa == sb && sa != mine
        })
    }

    /// CN-C1/CN-C3: the enemy pieces the army to move may take now (a bit per piece). Under
    /// the house rule « Prise en diagonale » a diagonal flank counts like a row or column.
    pub(crate) fn capturable(&self) -> u64 {
        let unit = self.unit(self.active);
        let mine = self.side(self.active);
        let previous = self.last_turn_of[self.active as usize];
        let mut found = 0u64;
        for e in 0..board::PIECES as Pc {
            let s = self.pos[e as usize];
            if s == board::NONE || self.side(army_of(e)) == mine {
                continue;
            }
            // CN-C3: a piece that walked into a flank after this army's previous turn ended
            // cannot be taken in this turn.
            if self.walked_in & (1 << e) != 0 && self.arrived[e as usize] > previous {
                continue;
            }
            let flanked = self.flank_lines().iter().any(|&(dc, dr)| {
                let (Some(a), Some(b)) = (offset(s, -dc, -dr), offset(s, dc, dr)) else {
                    return false;
                };
                let (qa, qb) = (self.board[a as usize], self.board[b as usize]);
                if qa == 0 || qb == 0 {
                    return false;
                }
                let (aa, ab) = (army_of(qa - 1), army_of(qb - 1));
                // CN-C1: both flankers on the moving side, at least one of the moving army.
                self.side(aa) == mine
                    && self.side(ab) == mine
                    && match (unit & (1 << aa) != 0, unit & (1 << ab) != 0) {
                        (true, true) => true,
                        (true, false) => !self.completed_by_partner(e, qa - 1, qb - 1),
                        (false, true) => !self.completed_by_partner(e, qb - 1, qa - 1),
                        (false, false) => false,
                    }
            });
            if flanked {
                found |= 1 << e;
            }
        }
        found
    }

    /// VI.4 « c'est le joueur qui place le second soldat allié contre le soldat ennemi qui
    /// effectue la capture »: whether the flank of enemy `e` by our piece `own` and the
    /// partner's piece `partner` was closed by the partner — its piece arrived last, after
    /// ours and after the enemy. That capture is the partner's; we may not take it later
    /// without moving. A flank the enemy walked into (it arrived last) belongs to either
    /// army of the side, once CN-C3's immunity is over.
    fn completed_by_partner(&self, e: Pc, own: Pc, partner: Pc) -> bool {
        let arrived = |p: Pc| self.arrived[p as usize];
        arrived(partner) > arrived(own) && arrived(partner) > arrived(e)
    }

    /// CN-S7, XI.1 « encerclés par une armée adverse et … incapables de se libérer »: the
    /// pieces of `army` (a bit per piece) that have no coup even once every piece of their
    /// side that can move has moved out of the way (taken off the board, again and again,
    /// until none of the rest can move). Pieces boxed in by their own side, which could free
    /// them, are not encircled: what holds the rest in is enemy pieces and the board's edge.
    pub(crate) fn encircled(&self, army: u8) -> u64 {
        let side = self.side(army);
        let mut board = self.board;
        let mut held: u64 = (0..board::PIECES as Pc)
            .filter(|&p| self.pos[p as usize] != board::NONE && self.side(army_of(p)) == side)
            .fold(0, |m, p| m | (1 << p));
        loop {
            let mut freed = false;
            for p in 0..board::PIECES as Pc {
                let s = self.pos[p as usize];
                if held & (1 << p) != 0 && destinations(&board, s, is_captain(p)).1 > 0 {
                    board[s as usize] = 0;
                    held &= !(1 << p);
                    freed = true;
                }
            }
            if !freed {
                return held & board::army_pieces(army);
            }
        }
    }

    /// CN-S4: whether the armies of `unit` can carry out `factor` coups this turn, in any
    /// way (CN-T1–T4), from the present position. Exact.
    pub(crate) fn can_make_factor(&self, unit: u8, factor: u8) -> bool {
        let mut pieces = Vec::with_capacity(18);
        for p in 0..board::PIECES as Pc {
            if unit & (1 << army_of(p)) != 0 && self.pos[p as usize] != board::NONE {
                pieces.push((self.pos[p as usize], is_captain(p)));
            }
        }
        can_make(&self.board, &pieces, factor)
    }
}

/// Whether the pieces (square, is captain) can make `factor` coups in one turn on `board`.
///
/// A turn is a sequence of segments, one piece each (CN-T2), each a path obeying CN-T3. The
/// search tries the pieces one at a time; for each piece it lists every square its paths
/// can end on with the longest path there (a longer path to the same square is never worse,
/// since any prefix of a plan is a plan), then recurses with that piece done. Positions
/// already refuted are remembered, and an upper bound (each piece's longest path with all
/// the army's pieces lifted off the board) prunes hopeless branches.
pub fn can_make(board: &[u8; CELLS], pieces: &[(Sq, bool)], factor: u8) -> bool {
    if factor == 0 {
        return true;
    }
    if pieces.is_empty() {
        return false;
    }
    let mut search = Search {
        board: *board,
        pieces: pieces.to_vec(),
        bounds: Vec::with_capacity(pieces.len()),
        refuted: BTreeSet::new(),
        trail: Vec::with_capacity(factor as usize),
    };
    // The common case first: one piece alone makes the whole factor.
    for i in 0..pieces.len() {
        let mut best = [0u8; CELLS];
        if search.longest(i, factor, &mut best) {
            return true;
        }
    }
    // Upper bounds with the whole army lifted (more room never shortens a path).
    let mut lifted = *board;
    for &(s, _) in pieces {
        lifted[s as usize] = 0;
    }
    let mut total = 0u32;
    for &(s, captain) in pieces {
        let mut trail = Vec::with_capacity(factor as usize);
        let mut best = [0u8; CELLS];
        let bound = if paths(
            &mut lifted,
            s,
            captain,
            bit(s),
            &mut trail,
            factor,
            &mut best,
        ) {
            factor
        } else {
            best.iter().copied().max().unwrap_or(0)
        };
        search.bounds.push(bound);
        total += u32::from(bound);
    }
    if total < u32::from(factor) {
        return false;
    }
    search.run(0, factor)
}

struct Search {
    board: [u8; CELLS],
    pieces: Vec<(Sq, bool)>,
    bounds: Vec<u8>,
    refuted: BTreeSet<Vec<u8>>,
    trail: Vec<(Sq, Sq)>,
}

impl Search {
    /// Fills `best` with the longest path (up to `cap`) of piece `i` to every square;
    /// returns `true` as soon as a path of `cap` coups exists.
    fn longest(&mut self, i: usize, cap: u8, best: &mut [u8; CELLS]) -> bool {
        let (start, captain) = self.pieces[i];
        let code = self.board[start as usize];
        self.board[start as usize] = 0;
        self.trail.clear();
        let mut trail = std::mem::take(&mut self.trail);
        let found = paths(
            &mut self.board,
            start,
            captain,
            bit(start),
            &mut trail,
            cap,
            best,
        );
        self.trail = trail;
        self.board[start as usize] = code;
        found
    }

    fn run(&mut self, done: u32, remaining: u8) -> bool {
        if remaining == 0 {
            return true;
        }
        let bound: u32 = (0..self.pieces.len())
            .filter(|&i| done & (1 << i) == 0)
            .map(|i| u32::from(self.bounds[i]))
            .sum();
        if bound < u32::from(remaining) {
            return false;
        }
        let mut key: Vec<u8> = self.pieces.iter().map(|p| p.0).collect();
        key.extend_from_slice(&done.to_le_bytes());
        key.push(remaining);
        if self.refuted.contains(&key) {
            return false;
        }
        for i in 0..self.pieces.len() {
            if done & (1 << i) != 0 {
                continue;
            }
            let mut best = [0u8; CELLS];
            if self.longest(i, remaining, &mut best) {
                return true;
            }
            let start = self.pieces[i].0;
            let code = self.board[start as usize];
            for end in 0..CELLS as Sq {
                let len = best[end as usize];
                if len == 0 {
                    continue;
                }
                self.board[start as usize] = 0;
                self.board[end as usize] = code;
                self.pieces[i].0 = end;
                let ok = self.run(done | (1 << i), remaining - len);
                self.board[end as usize] = 0;
                self.board[start as usize] = code;
                self.pieces[i].0 = start;
                if ok {
                    return true;
                }
            }
        }
        self.refuted.insert(key);
        false
    }
}

/// Depth-first search of the paths of one piece standing on `at` (already lifted off
/// `board`): records in `best` the longest path to every square, up to `cap` coups, and
/// returns `true` as soon as one reaches `cap`.
fn paths(
    board: &mut [u8; CELLS],
    at: Sq,
    captain: bool,
    visited: u128,
    trail: &mut Vec<(Sq, Sq)>,
    cap: u8,
    best: &mut [u8; CELLS],
) -> bool {
    let depth = trail.len() as u8;
    if depth >= cap {
        return true;
    }
    let (dests, n) = destinations(board, at, captain);
    for &to in &dests[..n] {
        if !path_allows(visited, trail, at, to) {
            continue;
        }
        let len = depth + 1;
        if best[to as usize] < len {
            best[to as usize] = len;
        }
        if len >= cap {
            return true;
        }
        trail.push((at, to));
        let found = paths(board, to, captain, visited | bit(to), trail, cap, best);
        trail.pop();
        if found {
            return true;
        }
    }
    false
}
