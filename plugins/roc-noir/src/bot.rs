//! What a bot leaves out of its search (`Game::bot_may_choose`), not a rule: RN-T2 lets a
//! knight step « aussi loin que vous voulez », so a bot that finds keeping the move a hair
//! better than stopping could step back and forth for ever and never end its turn (native
//! self-play found moves of 60 decisions and more). A bot never steps or jumps back onto a
//! node its knight already stood on in this move, unless something was learnt since: a
//! square found safe, a trapdoor revealed by a counterweight, a gallery entered, portraits
//! drawn or gathered. What is learnt only grows, and without it the knight only reaches new
//! nodes, so a bot's move is bounded by the board. People keep RN-T2 as written.
//!
//! The trail ([`RocNoir::trail`]) is public: everyone saw the knight go there.
//!
//! Nor does a bot step or jump onto a trapdoor everyone has seen (RN-P1) that no
//! counterweight holds shut (RN-P2): the knight falls back where it stood and its move ends,
//! as if it had stopped there (a jump's rope is lost too, RN-R2), so stopping is always as
//! good. It is presentation: a bot ending every turn by « il retombe encore dans la trappe »
//! reads as silly to a human watching. People keep the move.

use crate::board::{self, Node};
use crate::{Move, Phase, RocNoir};

fn bit(n: Node) -> u128 {
    1u128 << n
}

/// Whether a bot may choose `mv` now.
pub(crate) fn may_choose(game: &RocNoir, mv: &Move) -> bool {
    // RN-G4: the way out of a gallery is the only move there, and always kept.
    if game.phase != Phase::Move || game.exit.is_some() {
        return true;
    }
    match *mv {
        Move::Step(n) | Move::Jump(n) => game.trail & bit(n) == 0 && !known_fall(game, n),
        _ => true,
    }
}

/// Whether the moving knight would fall on `n` by what everyone knows: a trapdoor seen
/// (RN-P1) with no knight on its diagonal holding it shut (RN-P2).
fn known_fall(game: &RocNoir, n: Node) -> bool {
    let Some((t, p)) = board::tile_of(n) else {
        return false;
    };
    game.revealed & (1 << t) != 0 && game.traps[t] == p && !game.held_shut(t, p)
}

impl RocNoir {
    /// The moving knight went from `from` to `to`: both are on the trail, or only `to` when
    /// the step taught something (`learnt`).
    pub(crate) fn stood_on(&mut self, from: Node, to: Node, learnt: bool) {
        self.trail = if learnt {
            bit(to)
        } else {
            self.trail | bit(from) | bit(to)
        };
    }

    /// Something was learnt without a step (portraits drawn or gathered): every node is
    /// open to the bot again but the knight's own.
    pub(crate) fn learnt(&mut self) {
        if self.active != crate::board::NO && self.trail != 0 {
            self.trail = bit(self.pos[self.turn as usize][self.active as usize]);
        }
    }

    /// The move is over: the trail is forgotten.
    pub(crate) fn forget_trail(&mut self) {
        self.trail = 0;
    }
}
