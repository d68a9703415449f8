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

use crate::board::Node;
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
        Move::Step(n) | Move::Jump(n) => game.trail & bit(n) == 0,
        _ => true,
    }
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
