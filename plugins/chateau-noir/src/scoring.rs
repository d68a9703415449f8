//! Points: captures (CN-S1, CN-S6), territories and the simultanée (CN-S2, CN-S3), and the
//! 27 points that win at once (CN-E1).

use veillee_sdk::{text, Event, Log};

use crate::board::{army_of, is_captain, territory, Pc, Sq, ARMY_NAMES, NONE};
use crate::words::army_name_fr;
use crate::{ChateauNoir, Ending, TARGET};

impl ChateauNoir {
    /// Adds points to a side; reaching 27 wins at once (CN-E1).
    pub(crate) fn add_points(&mut self, side: u8, points: i32) {
        self.scores[side as usize] += points;
        if points > 0 && self.scores[side as usize] >= TARGET && self.ending.is_none() {
            self.ending = Some(Ending::Points(side));
        }
    }

    /// Takes a piece off the board for `taker`'s army, with its points (CN-S1, CN-S6) and
    /// consequences (CN-A3, CN-S2 occupation).
    pub(crate) fn remove_piece(&mut self, p: Pc, taker: u8, log: &mut Log) {
        let s = self.pos[p as usize];
        debug_assert!(s != NONE);
        self.board[s as usize] = 0;
        self.pos[p as usize] = NONE;
        self.walked_in &= !(1 << p);
        self.siege[p as usize] = 0;
        self.arrived[p as usize] = 0;
        let victim = army_of(p);
        let gain = self.side(taker);
        if is_captain(p) {
            // CN-S1: 3 for the taker, 3 off the captain's side (a debt below zero).
            self.add_points(gain, 3);
            let lose = self.side(victim);
            self.scores[lose as usize] -= 3;
            // CN-A3: the alliance ends with the declaring captain.
            if self.declared & (1 << victim) != 0 {
                self.declared &= !(1 << victim);
                log.record(|| {
                    Event::new(text(
                        "L'alliance d'équipes prend fin",
                        "The team alliance is over",
                    ))
                });
            }
        } else {
            self.add_points(gain, 1);
        }
        // CN-S2: an occupation ends when the army's last piece leaves the territory.
        if let Some(t) = territory(s) {
            if !self.present(victim, t) {
                self.ready[victim as usize] &= !(1 << t);
            }
        }
        // CN-S6: 2 more for wiping out an army.
        if !self.alive(1 << victim) {
            self.add_points(gain, 2);
            log.record(|| {
                Event::new(text(
                    format!(
                        "L'armée {} est entièrement prise (+2)",
                        army_name_fr(victim)
                    ),
                    format!("{} is wiped out (+2)", ARMY_NAMES[victim as usize].1),
                ))
            });
        }
    }

    /// CN-S2/CN-S3: a piece moving out of a territory.
    pub(crate) fn leave_territory(&mut self, p: Pc, from: Sq, to: Sq, log: &mut Log) {
        let Some(t) = territory(from) else {
            return;
        };
        if territory(to) == Some(t) {
            return;
        }
        let a = army_of(p);
        let ai = a as usize;
        let index = self.table[ai];
        if self.next_target(a) == t {
            let own = t == a;
            let occupied = self.ready[ai] & (1 << t) != 0;
            // CN-S2: 1 for another territory occupied a full table round; 2 for the own
            // territory, which needs no waiting.
            if own || occupied {
                let points = if own { 2 } else { 1 };
                self.add_points(self.side(a), points);
                self.table[ai] = (index + 1) % 4;
                self.ready[ai] &= !(1 << t);
                log.record(|| {
                    Event::new(text(
                        format!(
                            "L'armée {} sort du territoire {} : +{points}",
                            army_name_fr(a),
                            army_name_fr(t)
                        ),
                        format!(
                            "{} leaves the {} territory: +{points}",
                            ARMY_NAMES[ai].1, ARMY_NAMES[t as usize].1
                        ),
                    ))
                });
                // CN-S3: four occupied territories left in table order in one turn make a
                // simultanée, 7 points instead of 1+1+1+2.
                if index == 0 {
                    self.sim[ai] = 0;
                }
                if occupied && self.sim[ai] == index {
                    self.sim[ai] += 1;
                    if self.sim[ai] == 4 {
                        self.sim[ai] = 0;
                        self.add_points(self.side(a), 7 - 5);
                        log.record(|| {
                            Event::new(text(
                                format!("Simultanée de l'armée {} : 7 points", army_name_fr(a)),
                                format!("Simultanée by {}: 7 points", ARMY_NAMES[ai].1),
                            ))
                        });
                    }
                } else {
                    self.sim[ai] = u8::MAX;
                }
            }
        }
        if !self.present(a, t) {
            self.ready[ai] &= !(1 << t);
        }
    }
}
