//! Blocked armies and pieces: the château (CN-S4), the château noir (CN-S5) and who takes a
//! besieged piece (CN-S7).

use veillee_sdk::{text, Event, Log};

use crate::board::{self, army_of, Pc, ARMY_NAMES, NONE, PIECES};
use crate::words::army_name_fr;
use crate::ChateauNoir;

impl ChateauNoir {
    /// CN-S7: the enemy army that takes a besieged piece: the one with most pieces
    /// orthogonally next to it, ties going to the one that played last.
    pub(crate) fn siege_taker(&self, p: Pc) -> u8 {
        let s = self.pos[p as usize];
        let mine = self.side(army_of(p));
        let mut count = [0u8; 4];
        for (dc, dr) in board::ORTHOGONAL {
            if let Some(n) = board::offset(s, dc, dr) {
                let q = self.board[n as usize];
                if q != 0 && self.side(army_of(q - 1)) != mine {
                    count[army_of(q - 1) as usize] += 1;
                }
            }
        }
        (0..4u8)
            .filter(|&a| count[a as usize] > 0)
            .max_by_key(|&a| (count[a as usize], self.last_turn_of[a as usize]))
            .unwrap_or_else(|| self.last_enemy(army_of(p)))
    }

    /// The enemy of `army` that played last (CN-S4's "army that played last"); before anyone
    /// played, the nearest enemy counter-clockwise.
    fn last_enemy(&self, army: u8) -> u8 {
        let mine = self.side(army);
        (1..4u8)
            .map(|k| (army + 4 - k) % 4)
            .filter(|&a| self.side(a) != mine)
            .max_by_key(|&a| (self.last_turn_of[a as usize], 4 - ((army + 4 - a) % 4)))
            .unwrap_or((army + 3) % 4)
    }

    /// CN-S4: the army (its whole unit) is captured for the enemy that played last: a point
    /// per soldier, 3 for a captain (the victim's side loses 3), 5 more, and 2 per army wiped
    /// out (CN-S6).
    pub(crate) fn chateau(&mut self, army: u8, unit: u8, log: &mut Log) {
        let taker = self.last_enemy(army);
        log.record(|| {
            Event::new(text(
                format!(
                    "Château ! L'armée {} ne peut plus faire ses coups : elle est prise entière \
                     par l'armée {}",
                    army_name_fr(army),
                    army_name_fr(taker)
                ),
                format!(
                    "Château! {} cannot make its moves any more: the whole army is taken by {}",
                    ARMY_NAMES[army as usize].1, ARMY_NAMES[taker as usize].1
                ),
            ))
        });
        self.add_points(self.side(taker), 5);
        for p in 0..PIECES as Pc {
            if unit & (1 << army_of(p)) != 0 && self.pos[p as usize] != NONE {
                self.remove_piece(p, taker, log);
            }
        }
    }

    /// CN-S5: whether every opposing army (there is at least one) is unable to carry out its
    /// movement factor.
    pub(crate) fn chateau_noir(&self, side: u8) -> bool {
        let mut any = false;
        for a in 0..4u8 {
            if self.side(a) == side || !self.playable(a) {
                continue;
            }
            any = true;
            if self.can_make_factor(self.unit(a), self.factor(a)) {
                return false;
            }
        }
        any
    }
}
