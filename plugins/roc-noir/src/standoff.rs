//! RN-E3: the stand-off, a position where no player can still complete a pair for a knight
//! outside the treasure room except by a robbery (RN-G6) that also completes the victim's
//! pair. The game offers a draw as soon as it sees one (`rules.rs`, `next_turn`), and again
//! only after the position has stopped being a stand-off and become one anew.
//!
//! What it reads is public, so that the offer tells nobody anything and a search's re-drawn
//! copy (`Game::redraw_hidden`) sees the same offers as the true game: the piles' sizes (every
//! view counts them), the rails (face up for everyone) and where the knights stand. Never the
//! trapdoors, never the order of a pile.

use crate::board::{NO, TREASURE};
use crate::{number, RocNoir};

impl RocNoir {
    /// RN-E3: whether the position is a stand-off. Precisely, all of:
    ///
    /// 1. **Every gallery pile is empty.** A portrait still in a pile may reach a knight that
    ///    holds the other half of its number, by a draw (RN-G2) or by exchanges that cycle the
    ///    pile (RN-G3); which portrait comes up next is hidden, so a stand-off with portraits
    ///    still in a pile is not claimed (the safety net of `DRAW_OFFER_ROLLS` is left for
    ///    those). Empty piles are public, and an empty pile stays empty: a draw only takes
    ///    from a pile and an exchange takes back as many as it slid under, so from here on a
    ///    gallery changes no rail and only RN-G5 and RN-G6 do.
    /// 2. **No knight outside the treasure room holds a pair** (RN-E1): its pair is complete
    ///    and it may walk in.
    /// 3. **No player holds one number beside two of their knights outside the treasure
    ///    room**: they could gather the pair on their own rail (RN-G5).
    /// 4. **Every robbery that could ever be made completes the victim's pair too** (RN-G6):
    ///    for every knight M outside the treasure room holding two portraits x and y, and
    ///    every opposing knight V outside it holding the other half of x and a portrait z,
    ///    the number of y is the number of z. Robbing V, M takes the half of x (so M's pair
    ///    is complete) and gives y, so V ends with y and z. Where the knights stand does not
    ///    count: any knight may in time stop beside any other, so only the portraits decide.
    ///
    /// With every pile empty every rail place is full (there are exactly as many portraits
    /// as places), so 2–4 come down to this: the knights still out of the treasure room
    /// go by couples of opposing knights holding the same two numbers, the example of the
    /// spec (« split one of each number between opposing knights »). Nothing but such a
    /// robbery then changes a rail, so the position stays a stand-off until someone robs.
    pub(crate) fn is_standoff(&self) -> bool {
        // RN-E3, 1: every pile empty.
        if self.piles.iter().any(|pile| !pile.is_empty()) {
            return false;
        }
        let out = |s: u8, h: u8| self.pos[s as usize][h as usize] != TREASURE;
        let held = |s: u8, h: u8| {
            let [a, b] = self.rail[s as usize][h as usize];
            [a, b].into_iter().filter(|&p| p != NO)
        };
        for s in 0..self.players {
            for h in 0..3u8 {
                if !out(s, h) {
                    continue;
                }
                // RN-E3, 2: a pair in hand (RN-E1).
                if self.holds_pair(s, h) {
                    return false;
                }
                // RN-E3, 3: the same number beside another knight of the same player (RN-G5).
                for k in (h + 1)..3u8 {
                    if out(s, k) && held(s, h).any(|p| held(s, k).any(|q| number(p) == number(q))) {
                        return false;
                    }
                }
                // RN-E3, 4: a robbery by this knight that leaves its victim without a pair.
                let [x, y] = self.rail[s as usize][h as usize];
                if x == NO || y == NO {
                    continue; // a robber gives one of two portraits (RN-G6)
                }
                for o in (0..self.players).filter(|&o| o != s) {
                    for v in (0..3u8).filter(|&v| out(o, v)) {
                        let [a, b] = self.rail[o as usize][v as usize];
                        for (common, given) in [(x, y), (y, x)] {
                            for (theirs, kept) in [(a, b), (b, a)] {
                                if theirs == NO || number(theirs) != number(common) {
                                    continue;
                                }
                                if kept == NO || number(kept) != number(given) {
                                    return false;
                                }
                            }
                        }
                    }
                }
            }
        }
        true
    }
}
