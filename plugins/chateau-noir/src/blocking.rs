//! Blocked armies and pieces: the château (CN-S4, IX.4), the château noir (CN-S5) and sieges
//! (CN-S7, XI.1).

use veillee_sdk::{text, Event, Log};

use crate::board::{self, army_of, Pc, ARMY_NAMES, NONE, PIECES};
use crate::words::{army_name_fr, piece_noun_en, piece_noun_fr};
use crate::{ChateauNoir, SIEGE_CAPTURE};

impl ChateauNoir {
    /// IX.4a « Si une armée est bloquée de façon telle qu'elle ne peut déplacer ses pièces de
    /// son facteur de mouvement de six coups, cette armée est immédiatement déclarée
    /// capturée »: after `mover`'s turn, every army left unable to carry out its movement
    /// factor is captured at once, before anyone else plays (it could be freed by then).
    /// Armies are tested in the order of play from the next one, each after the captures
    /// before it; testing stops when the match or the round is over.
    pub(crate) fn capture_blocked_armies(&mut self, mover: u8, log: &mut Log) {
        for k in 1..=4 {
            let army = (mover + k) % 4;
            if self.ending.is_some() || self.round_over() {
                return;
            }
            if !self.playable(army) {
                continue;
            }
            let unit = self.unit(army);
            if !self.can_make_factor(unit, self.factor(army)) {
                let taker = self.chateau_taker(army, mover);
                self.chateau(army, unit, taker, log);
            }
        }
    }

    /// IX.4b « Le joueur qui a réussi le «Château» compte 1 point par soldat capturé et 5
    /// points supplémentaires »: the army whose turn left `army` blocked, when it is an
    /// enemy — in the game each for themselves, that army alone, not the others that played
    /// before it. An army blocked by its own side's move goes to the enemy that played last.
    fn chateau_taker(&self, army: u8, mover: u8) -> u8 {
        if self.side(mover) != self.side(army) {
            mover
        } else {
            self.last_enemy(army)
        }
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

    /// CN-S4: the army (its whole unit) is captured for `taker`: a point per soldier, 3 for a
    /// captain (the victim's side loses 3), 5 more, and 2 per army wiped out (CN-S6).
    pub(crate) fn chateau(&mut self, army: u8, unit: u8, taker: u8, log: &mut Log) {
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

    /// CN-S7, XI.1 « incapables de se libérer pendant trois tours de table consécutifs, ils
    /// sont considérés capturés au quatrième tour de table »: at the start of a turn of
    /// `unit`, each of its encircled pieces counts one more turn of siege, and any other
    /// piece starts again from nothing (so does a piece that moves, see `play_coup`); a piece
    /// encircled at the start of four turns in a row is taken.
    pub(crate) fn count_sieges(&mut self, unit: u8, log: &mut Log) {
        let mut fallen = Vec::new();
        for army in (0..4u8).filter(|&a| unit & (1 << a) != 0) {
            let held = self.encircled(army);
            for p in 0..PIECES as Pc {
                if board::army_pieces(army) & (1 << p) == 0 || self.pos[p as usize] == NONE {
                    continue;
                }
                if held & (1 << p) == 0 {
                    self.siege[p as usize] = 0;
                    continue;
                }
                self.siege[p as usize] += 1;
                if self.siege[p as usize] >= SIEGE_CAPTURE {
                    fallen.push((p, self.siege_taker(p, held)));
                }
            }
        }
        for (p, taker) in fallen {
            let at = self.pos[p as usize];
            log.record(|| {
                Event::new(text(
                    format!(
                        "Siège : {} en {} est pris par l'armée {}",
                        piece_noun_fr(p),
                        board::name(at),
                        army_name_fr(taker)
                    ),
                    format!(
                        "Siege: the {} on {} is taken by {}",
                        piece_noun_en(p),
                        board::name(at),
                        ARMY_NAMES[taker as usize].1
                    ),
                ))
            });
            self.remove_piece(p, taker, log);
            if self.ending.is_some() {
                return;
            }
        }
    }

    /// CN-S7, XI.1 « encerclés par une armée adverse »: the enemy army that takes a besieged
    /// piece: the one with most pieces orthogonally next to the piece's encircled group (the
    /// `held` pieces of its army connected to it), ties going to the one that played last.
    fn siege_taker(&self, p: Pc, held: u64) -> u8 {
        let mine = self.side(army_of(p));
        let mut group = 1u64 << p;
        let mut todo = vec![p];
        let mut seen = 0u128;
        let mut count = [0u8; 4];
        while let Some(q) = todo.pop() {
            for (dc, dr) in board::ORTHOGONAL {
                let Some(n) = board::offset(self.pos[q as usize], dc, dr) else {
                    continue;
                };
                let Some(r) = self.board[n as usize].checked_sub(1) else {
                    continue;
                };
                if held & (1 << r) != 0 && group & (1 << r) == 0 {
                    group |= 1 << r;
                    todo.push(r);
                } else if self.side(army_of(r)) != mine && seen & board::bit(n) == 0 {
                    seen |= board::bit(n);
                    count[army_of(r) as usize] += 1;
                }
            }
        }
        (0..4u8)
            .filter(|&a| count[a as usize] > 0)
            .max_by_key(|&a| (count[a as usize], self.last_turn_of[a as usize]))
            .unwrap_or_else(|| self.last_enemy(army_of(p)))
    }
}
