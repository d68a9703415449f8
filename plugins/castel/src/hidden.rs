//! Hidden information: re-dealing what a viewer cannot see (other hands, every pile).

use veillee_sdk::{GameRng, Seat};

use crate::Castel;

impl Castel {
    /// Re-deals, at random, every card `viewer` cannot see into the same slots: the other
    /// hands' cards not publicly known to be there, and every pile (nobody looks at their
    /// own pile); the game's generator is reseeded.
    pub(crate) fn redraw_unseen(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        let mut pool: Vec<u8> = Vec::new();
        for s in 0..self.players as usize {
            if Some(s as Seat) != viewer {
                for &c in &self.hands[s] {
                    if self.public & (1u64 << c) == 0 {
                        pool.push(c);
                    }
                }
            }
            pool.extend(self.piles[s].iter().copied());
        }
        // From the same cards in the same order whatever the true deal, so that the re-deal
        // depends only on what the viewer knows and the seed (a bot's search started from the
        // true game or from a re-drawn copy sees the very same worlds).
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for s in 0..self.players as usize {
            if Some(s as Seat) != viewer {
                let public = self.public;
                let hand: Vec<u8> = self.hands[s]
                    .iter()
                    .map(|&c| {
                        if public & (1u64 << c) == 0 {
                            it.next().expect("same count")
                        } else {
                            c
                        }
                    })
                    .collect();
                self.hands[s] = hand;
                self.hands[s].sort_unstable();
            }
            for i in 0..self.piles[s].len() {
                self.piles[s][i] = it.next().expect("same count");
            }
        }
        self.rng = GameRng::new(rng.next_u64());
    }
}
