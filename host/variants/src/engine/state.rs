//! The variant layer's data for one game: what is saved next to the base game's bytes, and
//! what is kept while a script waits for a choice.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use veillee_engine::{EngineError, GameEngine};
use veillee_sdk::{Action, Handle, Outcome, Seat, Status, Text};

use crate::script::{ChoiceRequest, Rng};

use super::sequence::Step;

/// The first line of a saved game with variants; the variant layer's JSON follows on the
/// second line, then the base game's bytes unchanged.
pub(super) const SAVE_MAGIC: &str = "veillee-variants 1";

/// One live game: the base game's handle and the variant layer's data.
pub(super) struct Slot {
    pub(super) base: Handle,
    pub(super) v: VState,
    /// The last list of legal actions given out, kept until the game changes: a player (or
    /// bot) lists the actions and then applies one of them, and both need the list passed
    /// through every `filter_actions`.
    pub(super) listed: Option<Listed>,
    /// The base game's status, kept until the base game changes: a move asks for it several
    /// times (whose turn, the seats whose turn begins), each a call into the plugin.
    pub(super) status: Option<Status>,
}

impl Slot {
    pub(super) fn new(base: Handle, v: VState) -> Slot {
        Slot {
            base,
            v,
            listed: None,
            status: None,
        }
    }

    /// The base game changed (a move, a command, a stretch played inside the plugin): what
    /// was read of it no longer holds.
    pub(super) fn changed(&mut self) {
        self.listed = None;
        self.status = None;
    }

    /// The base game's status, asked of the base engine once per change.
    pub(super) fn base_status(
        &mut self,
        engine: &mut dyn GameEngine,
    ) -> Result<Status, EngineError> {
        if let Some(status) = &self.status {
            return Ok(status.clone());
        }
        let status = engine.status(self.base)?;
        self.status = Some(status.clone());
        Ok(status)
    }
}

/// One seat's filtered legal actions, and the scripts whose filter failed while listing
/// them (switched off if one of the actions is applied).
pub(super) struct Listed {
    pub(super) seat: Seat,
    pub(super) actions: Vec<Action>,
    /// The actions a script's `add_actions` added, by id, with that script's index: its
    /// `play_action` plays them.
    pub(super) added: Vec<(String, usize)>,
    pub(super) failures: Vec<(usize, String)>,
}

/// The variant layer's part of a game: plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct VState {
    pub(super) players: u8,
    pub(super) rng: Rng,
    pub(super) scripts: Vec<ScriptSlot>,
    #[serde(default)]
    pub(super) pending: Option<Box<Pending>>,
    /// The outcome a script ended the game with (`ctx.game.end_game`): the game is over
    /// whatever the base game says. Saved with the game; a replay ends it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) ended: Option<Outcome>,
    /// Why the game stopped at a bound of `crate::bounds` (then `ended` holds the same
    /// reason, with no winner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) stopped: Option<Text>,
    /// Moves played in this game (not answers to questions), held against
    /// `MAX_MOVES_WITH_SCRIPTS`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) moves: u32,
    /// Questions the scripts asked in the move being played, held against
    /// `MAX_QUESTIONS_PER_MOVE`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) asked: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl VState {
    /// The game stops at a bound: over, with no winner, for `reason`; nothing more is asked.
    pub(super) fn stop(&mut self, reason: Text) {
        self.ended = Some(Outcome::draw(reason.clone()));
        self.stopped = Some(reason);
        self.pending = None;
    }
}

/// One script's data in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct ScriptSlot {
    pub(super) id: String,
    pub(super) hash: String,
    /// `ctx.state`.
    pub(super) data: Value,
    /// Why the script was switched off, if it was.
    #[serde(default)]
    pub(super) disabled: Option<String>,
}

/// What the variant layer was doing when a script asked a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Pending {
    /// The hook call waiting for the answer.
    pub(super) step: Step,
    /// Answers given so far in this hook call.
    pub(super) answers: Vec<u32>,
    /// The questions: one for `ctx.choose`, one per seat for `ctx.choose_all`. (Saves
    /// from before `ctx.choose_all` hold a single `request`.)
    #[serde(alias = "request", deserialize_with = "one_or_many")]
    pub(super) questions: Vec<ChoiceRequest>,
    /// The answers given so far to `questions` (answered privately: nobody else sees
    /// them); the hook re-runs once every question has one.
    #[serde(default)]
    pub(super) given: Vec<Option<u32>>,
    /// What remains to do after the hook returns.
    pub(super) queue: Vec<Step>,
    /// The state to go back to if a `before_action` refuses the action after all.
    #[serde(default)]
    pub(super) rollback: Option<Rollback>,
}

impl Pending {
    /// The question `seat` still has to answer, with its index.
    pub(super) fn open_question(&self, seat: Seat) -> Option<(usize, &ChoiceRequest)> {
        self.questions
            .iter()
            .enumerate()
            .find(|(i, q)| q.seat == seat && self.given.get(*i).copied().flatten().is_none())
    }

    /// The seats that still have to answer, in question order.
    pub(super) fn seats_to_answer(&self) -> Vec<Seat> {
        self.questions
            .iter()
            .enumerate()
            .filter(|(i, _)| self.given.get(*i).copied().flatten().is_none())
            .map(|(_, q)| q.seat)
            .collect()
    }
}

/// Reads one question or a list of them.
pub(super) fn one_or_many<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<ChoiceRequest>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(ChoiceRequest),
        Many(Vec<ChoiceRequest>),
    }
    Ok(match OneOrMany::deserialize(deserializer)? {
        OneOrMany::One(one) => vec![one],
        OneOrMany::Many(many) => many,
    })
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Rollback {
    pub(super) rng: Rng,
    pub(super) scripts: Vec<ScriptSlot>,
}
