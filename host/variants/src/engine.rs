//! [`VariantEngine`]: a game with house rules is itself a [`GameEngine`].

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use veillee_sdk::{
    text, Action, Event, GameError, GameRng, Handle, Highlight, Manifest, PlayoutResult, Scene,
    ScoreLine, Seat, Setup, Status, Text,
};

use super::script::{ChoiceRequest, GameAccess, HookResult, Powers, Rng, Script};
use super::VariantError;
use veillee_engine::{EngineError, GameEngine};

/// The first line of a saved game with variants; the variant layer's JSON follows on the
/// second line, then the base game's bytes unchanged.
const SAVE_MAGIC: &str = "veillee-variants 1";

/// Prefix of the action ids that answer a script's `ctx.choose` (`choose:0`, `choose:1`…).
pub const CHOOSE_PREFIX: &str = "choose:";

/// A base game engine plus house-rule scripts, applied in set-up order.
///
/// * `legal_actions` are the base game's, passed through every script's `filter_actions`;
/// * `apply` runs `before_action` (which may refuse: [`GameError::Refused`], nothing
///   changes), the base move, `after_action`, then `on_turn_start` for seats whose turn
///   begins;
/// * `view` passes the scene through `view` (presentation only);
/// * while a script waits for `ctx.choose`, [`GameEngine::status`] names the deciding seat
///   and its legal actions are `choose:0`, `choose:1`… labelled with the options. Answering
///   re-runs the hook from the start with the answers so far, so the pending state is plain
///   data, saved with the game.
///
/// Everything the scripts keep (`ctx.state`, the generator of `ctx.random`, a pending choice,
/// disabled scripts) is saved by [`GameEngine::save`] next to the base game's bytes.
/// Scripts run with no more power than the base engine's declared operations give them.
pub struct VariantEngine {
    base: Box<dyn GameEngine>,
    scripts: Vec<Script>,
    games: BTreeMap<Handle, Slot>,
    next: Handle,
}

/// One live game: the base game's handle and the variant layer's data.
struct Slot {
    base: Handle,
    v: VState,
    /// The last list of legal actions given out, kept until the game changes: a player (or
    /// bot) lists the actions and then applies one of them, and both need the list passed
    /// through every `filter_actions`.
    listed: Option<Listed>,
}

impl Slot {
    fn new(base: Handle, v: VState) -> Slot {
        Slot {
            base,
            v,
            listed: None,
        }
    }
}

/// One seat's filtered legal actions, and the scripts whose filter failed while listing
/// them (switched off if one of the actions is applied).
struct Listed {
    seat: Seat,
    actions: Vec<Action>,
    failures: Vec<(usize, String)>,
}

/// The variant layer's part of a game: plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct VState {
    players: u8,
    rng: Rng,
    scripts: Vec<ScriptSlot>,
    #[serde(default)]
    pending: Option<Box<Pending>>,
}

/// One script's data in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct ScriptSlot {
    id: String,
    hash: String,
    /// `ctx.state`.
    data: Value,
    /// Why the script was switched off, if it was.
    #[serde(default)]
    disabled: Option<String>,
}

/// What the variant layer was doing when a script asked a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Pending {
    /// The hook call waiting for the answer.
    step: Step,
    /// Answers given so far in this hook call.
    answers: Vec<u32>,
    /// The questions: one for `ctx.choose`, one per seat for `ctx.choose_all`. (Saves
    /// from before `ctx.choose_all` hold a single `request`.)
    #[serde(alias = "request", deserialize_with = "one_or_many")]
    questions: Vec<ChoiceRequest>,
    /// The answers given so far to `questions` (answered privately: nobody else sees
    /// them); the hook re-runs once every question has one.
    #[serde(default)]
    given: Vec<Option<u32>>,
    /// What remains to do after the hook returns.
    queue: Vec<Step>,
    /// The state to go back to if a `before_action` refuses the action after all.
    #[serde(default)]
    rollback: Option<Rollback>,
}

impl Pending {
    /// The question `seat` still has to answer, with its index.
    fn open_question(&self, seat: Seat) -> Option<(usize, &ChoiceRequest)> {
        self.questions
            .iter()
            .enumerate()
            .find(|(i, q)| q.seat == seat && self.given.get(*i).copied().flatten().is_none())
    }

    /// The seats that still have to answer, in question order.
    fn seats_to_answer(&self) -> Vec<Seat> {
        self.questions
            .iter()
            .enumerate()
            .filter(|(i, _)| self.given.get(*i).copied().flatten().is_none())
            .map(|(_, q)| q.seat)
            .collect()
    }
}

/// Reads one question or a list of them.
fn one_or_many<'de, D: serde::Deserializer<'de>>(
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
struct Rollback {
    rng: Rng,
    scripts: Vec<ScriptSlot>,
}

/// One thing to do in the sequence of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
enum Step {
    Setup {
        script: usize,
    },
    Before {
        script: usize,
        seat: Seat,
        action: Action,
    },
    Base {
        seat: Seat,
        action: Action,
    },
    After {
        script: usize,
        seat: Seat,
        action: Action,
        events: Vec<Event>,
    },
    /// Expands into `TurnStart`s for the seats to act now that were not to act `before`.
    TurnStarts {
        before: Vec<Seat>,
    },
    TurnStart {
        script: usize,
        seat: Seat,
    },
    TurnEnd {
        script: usize,
        seat: Seat,
        elapsed_ms: u64,
    },
}

impl Step {
    /// The hook a step calls: (script, hook name, arguments after `ctx`, powers).
    fn hook(&self) -> Option<(usize, &'static str, Vec<Value>, Powers)> {
        Some(match self {
            Step::Setup { script } => (*script, "setup", Vec::new(), Powers::Full),
            Step::Before {
                script,
                seat,
                action,
            } => (
                *script,
                "before_action",
                vec![json!(seat), json!(action)],
                Powers::NoCommands,
            ),
            Step::After {
                script,
                seat,
                action,
                events,
            } => (
                *script,
                "after_action",
                vec![json!(seat), json!(action), json!(events)],
                Powers::Full,
            ),
            Step::TurnStart { script, seat } => {
                (*script, "on_turn_start", vec![json!(seat)], Powers::Full)
            }
            Step::TurnEnd {
                script,
                seat,
                elapsed_ms,
            } => (
                *script,
                "on_turn_end",
                vec![json!(seat), json!(*elapsed_ms as f64 / 1000.0)],
                Powers::Full,
            ),
            Step::Base { .. } | Step::TurnStarts { .. } => return None,
        })
    }
}

/// How a sequence of steps ended.
enum Advance {
    /// Done, or waiting for a choice: the events so far.
    Events(Vec<Event>),
    /// A `before_action` refused the action.
    Refused {
        seat: Seat,
        action: String,
        reason: Text,
        events: Vec<Event>,
    },
}

impl VariantEngine {
    /// Wraps `base` with `scripts`, in the order given. Refuses a script written for another
    /// game, two scripts with the same id, and two `exclusive` scripts together.
    pub fn new(base: Box<dyn GameEngine>, scripts: Vec<Script>) -> Result<Self, VariantError> {
        let game = base.manifest().id.clone();
        let mut exclusive: Option<&Script> = None;
        for (i, script) in scripts.iter().enumerate() {
            let info = script.info();
            if info.game != game {
                return Err(VariantError::WrongGame {
                    file: script.file().to_string(),
                    script_game: info.game.clone(),
                    game: game.clone(),
                });
            }
            if let Some(other) = scripts[..i].iter().find(|s| s.info().id == info.id) {
                return Err(VariantError::Duplicate {
                    id: info.id.clone(),
                    first: other.file().to_string(),
                    second: script.file().to_string(),
                });
            }
            if info.exclusive {
                if let Some(other) = exclusive {
                    return Err(VariantError::Exclusive {
                        first: format!("{} ({})", other.info().name.en, other.file()),
                        second: format!("{} ({})", info.name.en, script.file()),
                    });
                }
                exclusive = Some(script);
            }
        }
        Ok(VariantEngine {
            base,
            scripts,
            games: BTreeMap::new(),
            next: 0,
        })
    }

    /// The scripts, in the order they apply.
    pub fn scripts(&self) -> &[Script] {
        &self.scripts
    }

    /// The base engine.
    pub fn base(&mut self) -> &mut dyn GameEngine {
        &mut *self.base
    }

    /// The choice a script waits for in this game, if any: the first question still
    /// unanswered (see [`Self::pending_choices`] for questions asked together).
    pub fn pending_choice(&self, game: Handle) -> Option<&ChoiceRequest> {
        let pending = self.games.get(&game)?.v.pending.as_ref()?;
        let seat = *pending.seats_to_answer().first()?;
        pending.open_question(seat).map(|(_, q)| q)
    }

    /// Every question of the choice a script waits for, with whether it has been answered
    /// (not what the answer was).
    pub fn pending_choices(&self, game: Handle) -> Vec<(&ChoiceRequest, bool)> {
        let Some(pending) = self.games.get(&game).and_then(|s| s.v.pending.as_ref()) else {
            return Vec::new();
        };
        pending
            .questions
            .iter()
            .enumerate()
            .map(|(i, q)| (q, pending.given.get(i).copied().flatten().is_some()))
            .collect()
    }

    /// The scripts switched off in this game after a failure: (script id, message naming the
    /// file, line and reason).
    pub fn disabled(&self, game: Handle) -> Vec<(String, String)> {
        self.games
            .get(&game)
            .map(|slot| {
                slot.v
                    .scripts
                    .iter()
                    .filter_map(|s| Some((s.id.clone(), s.disabled.clone()?)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A script's `ctx.state` in this game (for tools and tests).
    pub fn script_state(&self, game: Handle, script_id: &str) -> Option<&Value> {
        let slot = self.games.get(&game)?;
        slot.v
            .scripts
            .iter()
            .find(|s| s.id == script_id)
            .map(|s| &s.data)
    }

    /// Reports that `seat`'s turn ended after `elapsed_ms` milliseconds (the host's turn
    /// timer), running the scripts' `on_turn_end(ctx, seat, elapsed_seconds)`.
    ///
    /// Call it right after the `apply` that ended the turn. The value is part of the game's
    /// history: a session must log it (e.g. in the applied action's `LogEntry.extra`) and a
    /// replay must call `end_turn` again with the same number at the same point. Refused
    /// while a choice is pending.
    pub fn end_turn(
        &mut self,
        game: Handle,
        seat: Seat,
        elapsed_ms: u64,
    ) -> Result<Vec<Event>, EngineError> {
        let slot = self.slot(game)?;
        if slot.v.pending.is_some() {
            return Err(GameError::Protocol(
                "a house rule is waiting for a player's choice: answer it first".into(),
            )
            .into());
        }
        let queue = (0..self.scripts.len())
            .map(|script| Step::TurnEnd {
                script,
                seat,
                elapsed_ms,
            })
            .collect();
        match self.advance(game, queue, None, None)? {
            Advance::Events(events) => Ok(events),
            Advance::Refused { events, .. } => Ok(events),
        }
    }

    fn slot(&self, game: Handle) -> Result<&Slot, EngineError> {
        self.games
            .get(&game)
            .ok_or_else(|| no_live_game(game).into())
    }

    fn slot_mut(&mut self, game: Handle) -> Result<&mut Slot, EngineError> {
        self.games
            .get_mut(&game)
            .ok_or_else(|| no_live_game(game).into())
    }

    fn insert(&mut self, slot: Slot) -> Handle {
        let handle = self.next;
        self.next = self.next.wrapping_add(1);
        self.games.insert(handle, slot);
        handle
    }

    fn fresh_state(&self, players: u8, seed: u64) -> VState {
        VState {
            players,
            rng: Rng::seeded(seed),
            scripts: self
                .scripts
                .iter()
                .map(|s| ScriptSlot {
                    id: s.info().id.clone(),
                    hash: s.hash().to_string(),
                    data: json!({}),
                    disabled: None,
                })
                .collect(),
            pending: None,
        }
    }

    /// The event that announces a script switched off.
    fn disabled_event(script: &Script, message: &str) -> Event {
        Event::new(text(
            format!(
                "Règle maison « {} » désactivée, la partie continue avec les règles normales : {message}",
                script.info().name.fr
            ),
            format!(
                "House rule “{}” switched off, the game goes on under the plain rules: {message}",
                script.info().name.en
            ),
        ))
    }

    /// Runs steps in order until done, a pending choice or a refusal. `resume` is a hook
    /// step to re-run first with the answers recorded so far.
    fn advance(
        &mut self,
        game: Handle,
        mut queue: VecDeque<Step>,
        mut rollback: Option<Rollback>,
        mut resume: Option<(Step, Vec<u32>)>,
    ) -> Result<Advance, EngineError> {
        let mut events = Vec::new();
        let VariantEngine {
            base,
            scripts,
            games,
            ..
        } = self;
        let slot = games.get_mut(&game).ok_or_else(|| no_live_game(game))?;
        slot.v.pending = None;
        slot.listed = None;
        loop {
            let (step, answers) = match resume.take() {
                Some(resumed) => resumed,
                None => match queue.pop_front() {
                    Some(step) => (step, Vec::new()),
                    None => break,
                },
            };
            match &step {
                Step::Base { seat, action } => {
                    let done = base.apply(slot.base, *seat, &action.id)?;
                    rollback = None;
                    events.extend(done.iter().cloned());
                    for script in (0..scripts.len()).rev() {
                        queue.push_front(Step::After {
                            script,
                            seat: *seat,
                            action: action.clone(),
                            events: done.clone(),
                        });
                    }
                    continue;
                }
                Step::TurnStarts { before } => {
                    if let Status::ToAct { seats } = base.status(slot.base)? {
                        for &seat in seats.iter().rev() {
                            if before.contains(&seat) {
                                continue;
                            }
                            for script in (0..scripts.len()).rev() {
                                queue.push_front(Step::TurnStart { script, seat });
                            }
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let (index, hook, args, powers) = step.hook().expect("a hook step");
            let script = &scripts[index];
            if slot.v.scripts[index].disabled.is_some() || !script.has_hook(hook) {
                continue;
            }
            let manifest = base.manifest().clone();
            let mut access = GameAccess {
                engine: &mut **base,
                base: slot.base,
                players: slot.v.players,
            };
            let result = script.run(
                hook,
                &args,
                &slot.v.scripts[index].data,
                slot.v.rng,
                &answers,
                &mut access,
                &manifest,
                powers,
            )?;
            match result {
                HookResult::Done {
                    returned,
                    data,
                    rng,
                    events: added,
                    scratch,
                } => {
                    slot.v.scripts[index].data = data;
                    slot.v.rng = rng;
                    if let Some(scratch) = scratch {
                        base.drop_game(slot.base);
                        slot.base = scratch;
                    }
                    events.extend(added);
                    if let Step::Before { seat, action, .. } = &step {
                        if let Some(reason) = refusal(script, &returned) {
                            if let Some(rollback) = rollback.take() {
                                slot.v.rng = rollback.rng;
                                slot.v.scripts = rollback.scripts;
                            }
                            slot.v.pending = None;
                            return Ok(Advance::Refused {
                                seat: *seat,
                                action: action.id.clone(),
                                reason,
                                events,
                            });
                        }
                    }
                }
                HookResult::Pending(questions) => {
                    slot.v.pending = Some(Box::new(Pending {
                        step,
                        answers,
                        given: vec![None; questions.len()],
                        questions,
                        queue: queue.into_iter().collect(),
                        rollback,
                    }));
                    return Ok(Advance::Events(events));
                }
                HookResult::Failed(message) => {
                    events.push(Self::disabled_event(script, &message));
                    slot.v.scripts[index].disabled = Some(message);
                }
            }
        }
        Ok(Advance::Events(events))
    }

    /// The base actions passed through every `filter_actions`. `failures` collects the
    /// scripts whose filter failed (their filter is then ignored for this call).
    fn filtered(
        &mut self,
        game: Handle,
        seat: Seat,
        mut actions: Vec<Action>,
        failures: &mut Vec<(usize, String)>,
    ) -> Result<Vec<Action>, EngineError> {
        let VariantEngine {
            base,
            scripts,
            games,
            ..
        } = self;
        let slot = games.get(&game).ok_or_else(|| no_live_game(game))?;
        for (index, script) in scripts.iter().enumerate() {
            if slot.v.scripts[index].disabled.is_some()
                || !script.has_hook("filter_actions")
                || actions.is_empty()
            {
                continue;
            }
            let manifest = base.manifest().clone();
            let mut access = GameAccess {
                engine: &mut **base,
                base: slot.base,
                players: slot.v.players,
            };
            let result = script.run(
                "filter_actions",
                &[json!(seat), json!(actions)],
                &slot.v.scripts[index].data,
                slot.v.rng,
                &[],
                &mut access,
                &manifest,
                Powers::Read,
            )?;
            match result {
                HookResult::Done { returned, .. } => {
                    match apply_filter(&actions, returned.first()) {
                        Ok(kept) => actions = kept,
                        Err(why) => failures.push((
                            index,
                            format!("{}: {why} (in filter_actions)", script.file()),
                        )),
                    }
                }
                HookResult::Pending(_) => failures.push((
                    index,
                    format!("{}: filter_actions cannot ask a choice", script.file()),
                )),
                HookResult::Failed(message) => failures.push((index, message)),
            }
        }
        Ok(actions)
    }

    /// The base game's legal actions for `seat` passed through every `filter_actions`.
    fn list(&mut self, game: Handle, seat: Seat) -> Result<Listed, EngineError> {
        let base = self.slot(game)?.base;
        let actions = self.base.legal_actions(base, seat)?;
        let mut failures = Vec::new();
        let actions = self.filtered(game, seat, actions, &mut failures)?;
        Ok(Listed {
            seat,
            actions,
            failures,
        })
    }

    /// The legal actions of one question.
    fn choice_actions(request: &ChoiceRequest) -> Vec<Action> {
        request
            .options
            .iter()
            .enumerate()
            .map(|(i, label)| Action {
                id: format!("{CHOOSE_PREFIX}{i}"),
                path: Vec::new(),
                label: label.clone(),
            })
            .collect()
    }

    /// Applies one seat's answer to a pending choice; once every question asked together
    /// has its answer, the hook re-runs with them.
    fn answer(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
    ) -> Result<Vec<Event>, EngineError> {
        let slot = self.slot_mut(game)?;
        let pending = slot.v.pending.as_mut().expect("a pending choice");
        let Some((question, request)) = pending.open_question(seat) else {
            return Err(GameError::NotYourTurn { seat }.into());
        };
        let index = action_id
            .strip_prefix(CHOOSE_PREFIX)
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| (n as usize) < request.options.len())
            .filter(|n| action_id == format!("{CHOOSE_PREFIX}{n}"))
            .ok_or_else(|| GameError::IllegalAction {
                seat,
                action: action_id.to_string(),
            })?;
        pending.given.resize(pending.questions.len(), None);
        pending.given[question] = Some(index);
        if !pending.seats_to_answer().is_empty() {
            // Others still decide: nothing happens yet, and nothing is told.
            return Ok(Vec::new());
        }
        let pending = *slot.v.pending.take().expect("a pending choice");
        let mut answers = pending.answers;
        answers.extend(pending.given.iter().flatten());
        let rollback = pending.rollback.clone();
        match self.advance(
            game,
            pending.queue.into(),
            pending.rollback,
            Some((pending.step, answers)),
        )? {
            Advance::Events(events) => Ok(events),
            Advance::Refused {
                reason, mut events, ..
            } => {
                // The action the choice was about is refused after all: back to before it.
                if let Some(rollback) = rollback {
                    let slot = self.slot_mut(game)?;
                    slot.v.rng = rollback.rng;
                    slot.v.scripts = rollback.scripts;
                }
                events.push(Event::new(reason));
                Ok(events)
            }
        }
    }

    /// In a copy made for `viewer` by `redraw_hidden`: forgets the answers other seats gave
    /// to a pending `ctx.choose_all` (the viewer cannot know them) and asks the questions
    /// again of the re-drawn game, so that no question shows cards the viewer may not see.
    fn redraw_pending(&mut self, copy: Handle, viewer: Option<Seat>) -> Result<(), EngineError> {
        let slot = self.slot_mut(copy)?;
        let Some(pending) = slot.v.pending.take() else {
            return Ok(());
        };
        let kept: Vec<(Seat, u32)> = pending
            .questions
            .iter()
            .zip(&pending.given)
            .filter_map(|(q, given)| Some((q.seat, (*given)?)))
            .filter(|(seat, _)| Some(*seat) == viewer)
            .collect();
        let fallback = {
            let mut p = pending.clone();
            p.given = p
                .questions
                .iter()
                .map(|q| kept.iter().find(|(s, _)| *s == q.seat).map(|(_, a)| *a))
                .collect();
            p
        };
        let asked_again = self.advance(
            copy,
            pending.queue.into(),
            pending.rollback,
            Some((pending.step, pending.answers)),
        );
        let slot = self.slot_mut(copy)?;
        match (asked_again, slot.v.pending.as_mut()) {
            (Ok(Advance::Events(_)), Some(again)) => {
                for (i, q) in again.questions.iter().enumerate() {
                    if let Some((_, answer)) = kept.iter().find(|(s, _)| *s == q.seat) {
                        if (*answer as usize) < q.options.len() {
                            again.given[i] = Some(*answer);
                        }
                    }
                }
            }
            // The re-drawn game took the hook elsewhere: keep the questions as they were,
            // without the others' answers.
            _ => slot.v.pending = Some(fallback),
        }
        Ok(())
    }
}

/// The refusal for a handle that names no live game.
fn no_live_game(game: Handle) -> GameError {
    GameError::Protocol(format!("no live game has handle {game}"))
}

/// A `before_action`'s verdict: `None` allows; `false[, reason]`, a string or a text refuses.
fn refusal(script: &Script, returned: &[Value]) -> Option<Text> {
    let default = || {
        text(
            format!("Refusé par la règle maison « {} »", script.info().name.fr),
            format!("Refused by the house rule “{}”", script.info().name.en),
        )
    };
    let as_text = |v: &Value| -> Option<Text> {
        match v {
            Value::String(s) => Some(Text::same(s.clone())),
            Value::Object(_) => serde_json::from_value(v.clone()).ok(),
            _ => None,
        }
    };
    match returned.first() {
        None | Some(Value::Null) | Some(Value::Bool(true)) => None,
        Some(Value::Bool(false)) => Some(returned.get(1).and_then(as_text).unwrap_or_else(default)),
        Some(other) => Some(as_text(other).unwrap_or_else(default)),
    }
}

/// Applies a `filter_actions` result: `nil` keeps everything; a list of ids or of action
/// tables (`{id = ..., label = ...}`) keeps those, in that order, relabelled if asked.
fn apply_filter(actions: &[Action], returned: Option<&Value>) -> Result<Vec<Action>, String> {
    let list = match returned {
        None | Some(Value::Null) => return Ok(actions.to_vec()),
        Some(Value::Array(list)) => list,
        // An empty Lua table comes back as an empty object.
        Some(Value::Object(map)) if map.is_empty() => {
            return Err("it removed every action (at least one must stay)".into())
        }
        Some(_) => return Err("it must return a list of actions or ids".into()),
    };
    let mut kept: Vec<Action> = Vec::with_capacity(list.len());
    for item in list {
        let (id, label) = match item {
            Value::String(id) => (id.clone(), None),
            Value::Object(map) => {
                let id = map
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or("each action it returns needs its `id`")?
                    .to_string();
                let label = match map.get("label") {
                    Some(Value::String(s)) => Some(Text::same(s.clone())),
                    Some(label @ Value::Object(_)) => Some(
                        serde_json::from_value::<Text>(label.clone())
                            .map_err(|_| format!("the label of `{id}` must be {{fr=…, en=…}}"))?,
                    ),
                    _ => None,
                };
                (id, label)
            }
            _ => return Err("it must return a list of actions or ids".into()),
        };
        let Some(action) = actions.iter().find(|a| a.id == id) else {
            return Err(format!(
                "it returned `{id}`, which is not a legal action (filter_actions can only remove \
                 actions)"
            ));
        };
        if kept.iter().any(|a| a.id == id) {
            continue;
        }
        let mut action = action.clone();
        if let Some(label) = label {
            action.label = label;
        }
        kept.push(action);
    }
    if kept.is_empty() {
        return Err("it removed every action (at least one must stay)".into());
    }
    Ok(kept)
}

/// Copies the presentation fields a `view` hook may change into the scene.
fn apply_view(scene: &mut Scene, returned: Option<&Value>) {
    let Some(Value::Object(map)) = returned else {
        return;
    };
    if let Some(rotation) = map.get("rotation").and_then(Value::as_u64) {
        scene.rotation = (rotation % 4) as u8;
    }
    if let Some(message) = map
        .get("message")
        .and_then(|m| serde_json::from_value::<Text>(m.clone()).ok())
    {
        scene.message = message;
    }
    if let Some(highlights) = map
        .get("highlights")
        .and_then(|h| serde_json::from_value::<Vec<Highlight>>(h.clone()).ok())
    {
        scene.highlights = highlights;
    }
    if let Some(scores) = map
        .get("scores")
        .and_then(|s| serde_json::from_value::<Vec<ScoreLine>>(s.clone()).ok())
    {
        scene.scores = scores;
    }
}

impl GameEngine for VariantEngine {
    fn end_turn(
        &mut self,
        game: Handle,
        seat: Seat,
        elapsed_ms: u64,
    ) -> Result<Vec<Event>, EngineError> {
        // The inherent method of the same name runs the scripts' `on_turn_end`.
        VariantEngine::end_turn(self, game, seat, elapsed_ms)
    }

    fn manifest(&self) -> &Manifest {
        self.base.manifest()
    }

    fn failed_scripts(&self, game: Handle) -> Vec<String> {
        self.disabled(game)
            .into_iter()
            .map(|(_, why)| why)
            .collect()
    }

    fn content_hash(&self) -> String {
        let hashes: Vec<String> = self
            .scripts
            .iter()
            .map(|s| format!("{}:{}", s.info().id, s.hash()))
            .collect();
        format!(
            "{}+variants[{}]",
            self.base.content_hash(),
            hashes.join(",")
        )
    }

    fn create(&mut self, setup: &Setup) -> Result<Handle, EngineError> {
        let base = self.base.create(setup)?;
        let v = self.fresh_state(setup.players, setup.seed);
        let handle = self.insert(Slot::new(base, v));
        let mut queue: VecDeque<Step> = (0..self.scripts.len())
            .map(|script| Step::Setup { script })
            .collect();
        queue.push_back(Step::TurnStarts { before: Vec::new() });
        if let Err(e) = self.advance(handle, queue, None, None) {
            self.drop_game(handle);
            return Err(e);
        }
        Ok(handle)
    }

    fn load(&mut self, state: &[u8]) -> Result<Handle, EngineError> {
        let invalid = |why: String| EngineError::Game(GameError::InvalidState(why));
        let rest = state
            .strip_prefix(SAVE_MAGIC.as_bytes())
            .and_then(|r| r.strip_prefix(b"\n"))
            .ok_or_else(|| {
                invalid("this is not a game saved with house rules (variants)".into())
            })?;
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| invalid("the house rules' part is cut short".into()))?;
        let v: VState = serde_json::from_slice(&rest[..end])
            .map_err(|e| invalid(format!("the house rules' part is unreadable: {e}")))?;
        let saved: Vec<(&str, &str)> = v
            .scripts
            .iter()
            .map(|s| (s.id.as_str(), s.hash.as_str()))
            .collect();
        let ours: Vec<(&str, &str)> = self
            .scripts
            .iter()
            .map(|s| (s.info().id.as_str(), s.hash()))
            .collect();
        if saved != ours {
            let ids = |list: &[(&str, &str)]| {
                list.iter()
                    .map(|(id, hash)| format!("{id}@{}", &hash[..hash.len().min(12)]))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(invalid(format!(
                "the game was saved with the house rules [{}] but these are [{}]: load it with \
                 the exact scripts it started with",
                ids(&saved),
                ids(&ours)
            )));
        }
        let base = self.base.load(&rest[end + 1..])?;
        Ok(self.insert(Slot::new(base, v)))
    }

    fn save(&mut self, game: Handle) -> Result<Vec<u8>, EngineError> {
        let slot = self.slot(game)?;
        let base = slot.base;
        let json =
            serde_json::to_vec(&slot.v).map_err(|e| GameError::InvalidState(e.to_string()))?;
        let bytes = self.base.save(base)?;
        let mut out = Vec::with_capacity(SAVE_MAGIC.len() + json.len() + bytes.len() + 2);
        out.extend_from_slice(SAVE_MAGIC.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(&json);
        out.push(b'\n');
        out.extend_from_slice(&bytes);
        Ok(out)
    }

    fn clone_game(&mut self, game: Handle) -> Result<Handle, EngineError> {
        let slot = self.slot(game)?;
        let (base, v) = (slot.base, slot.v.clone());
        let copy = self.base.clone_game(base)?;
        Ok(self.insert(Slot::new(copy, v)))
    }

    fn drop_game(&mut self, game: Handle) {
        if let Some(slot) = self.games.remove(&game) {
            self.base.drop_game(slot.base);
        }
    }

    fn status(&mut self, game: Handle) -> Result<Status, EngineError> {
        let slot = self.slot(game)?;
        if let Some(pending) = &slot.v.pending {
            return Ok(Status::ToAct {
                seats: pending.seats_to_answer(),
            });
        }
        let base = slot.base;
        self.base.status(base)
    }

    fn legal_actions(&mut self, game: Handle, seat: Seat) -> Result<Vec<Action>, EngineError> {
        let slot = self.slot(game)?;
        if let Some(pending) = &slot.v.pending {
            return Ok(pending
                .open_question(seat)
                .map(|(_, request)| Self::choice_actions(request))
                .unwrap_or_default());
        }
        if let Some(listed) = slot.listed.as_ref().filter(|l| l.seat == seat) {
            return Ok(listed.actions.clone());
        }
        let listed = self.list(game, seat)?;
        let actions = listed.actions.clone();
        self.slot_mut(game)?.listed = Some(listed);
        Ok(actions)
    }

    fn apply(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
    ) -> Result<Vec<Event>, EngineError> {
        let slot = self.slot(game)?;
        if slot.v.pending.is_some() {
            return self.answer(game, seat, action_id);
        }
        let base = slot.base;
        let before = match self.base.status(base)? {
            Status::Finished { .. } => return Err(GameError::GameOver.into()),
            Status::ToAct { seats } if !seats.contains(&seat) => {
                return Err(GameError::NotYourTurn { seat }.into())
            }
            Status::ToAct { seats } => seats,
        };
        let Listed {
            actions, failures, ..
        } = match self.slot_mut(game)?.listed.take() {
            Some(listed) if listed.seat == seat => listed,
            _ => self.list(game, seat)?,
        };
        let Some(action) = actions.into_iter().find(|a| a.id == action_id) else {
            return Err(GameError::IllegalAction {
                seat,
                action: action_id.to_string(),
            }
            .into());
        };
        let snapshot = {
            let v = &self.slot(game)?.v;
            Rollback {
                rng: v.rng,
                scripts: v.scripts.clone(),
            }
        };
        let mut events = Vec::new();
        for (index, message) in failures {
            events.push(Self::disabled_event(&self.scripts[index], &message));
            self.slot_mut(game)?.v.scripts[index].disabled = Some(message);
        }
        let mut queue: VecDeque<Step> = (0..self.scripts.len())
            .map(|script| Step::Before {
                script,
                seat,
                action: action.clone(),
            })
            .collect();
        queue.push_back(Step::Base { seat, action });
        queue.push_back(Step::TurnStarts { before });
        match self.advance(game, queue, Some(snapshot.clone()), None)? {
            Advance::Events(more) => {
                events.extend(more);
                Ok(events)
            }
            Advance::Refused {
                seat,
                action,
                reason,
                ..
            } => {
                let slot = self.slot_mut(game)?;
                slot.v.rng = snapshot.rng;
                slot.v.scripts = snapshot.scripts;
                Err(GameError::Refused {
                    seat,
                    action,
                    reason,
                }
                .into())
            }
        }
    }

    fn action_count(&mut self, game: Handle, seat: Seat) -> Result<u32, EngineError> {
        Ok(self.legal_actions(game, seat)?.len() as u32)
    }

    fn apply_index(&mut self, game: Handle, seat: Seat, index: u32) -> Result<(), EngineError> {
        if !matches!(self.status(game)?, Status::ToAct { ref seats } if seats.contains(&seat)) {
            // Same refusals as `apply`, without building the list.
            return self.apply(game, seat, "").map(drop);
        }
        let actions = self.legal_actions(game, seat)?;
        let action = actions
            .get(index as usize)
            .ok_or_else(|| GameError::IllegalAction {
                seat,
                action: format!("#{index}"),
            })?;
        let id = action.id.clone();
        self.apply(game, seat, &id).map(drop)
    }

    fn view(&mut self, game: Handle, viewer: Option<Seat>) -> Result<Scene, EngineError> {
        let slot = self.slot(game)?;
        let base = slot.base;
        // A seat asked a question reads its own prompt; everybody else the first one (the
        // prompts of questions asked together must not give away what others hold).
        let prompt = slot.v.pending.as_ref().map(|p| {
            p.questions
                .iter()
                .find(|q| Some(q.seat) == viewer)
                .unwrap_or(&p.questions[0])
                .prompt
                .clone()
        });
        let mut scene = self.base.view(base, viewer)?;
        if let Some(prompt) = prompt {
            scene.message = prompt;
        }
        let VariantEngine {
            base: engine,
            scripts,
            games,
            ..
        } = self;
        let slot = &games[&game];
        for (index, script) in scripts.iter().enumerate() {
            if slot.v.scripts[index].disabled.is_some() || !script.has_hook("view") {
                continue;
            }
            let manifest = engine.manifest().clone();
            let mut access = GameAccess {
                engine: &mut **engine,
                base,
                players: slot.v.players,
            };
            // A failing view hook changes nothing: the view is not part of the game's
            // history, so it must not switch the script off.
            if let HookResult::Done { returned, .. } = script.run(
                "view",
                &[
                    json!(viewer),
                    serde_json::to_value(&scene).unwrap_or(Value::Null),
                ],
                &slot.v.scripts[index].data,
                slot.v.rng,
                &[],
                &mut access,
                &manifest,
                Powers::Read,
            )? {
                apply_view(&mut scene, returned.first());
            }
        }
        Ok(scene)
    }

    fn playout(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<PlayoutResult, EngineError> {
        // Step by step in the host: the base game's in-guest playout would skip the hooks.
        let mut rng = GameRng::new(seed);
        let mut moves = 0;
        loop {
            let seat = match self.status(game)? {
                Status::Finished { outcome } => {
                    return Ok(PlayoutResult {
                        moves,
                        outcome: Some(outcome),
                        stuck: false,
                    })
                }
                Status::ToAct { seats } => match rng.pick(&seats) {
                    Some(&seat) => seat,
                    None => {
                        return Ok(PlayoutResult {
                            moves,
                            outcome: None,
                            stuck: true,
                        })
                    }
                },
            };
            if moves >= max_moves {
                return Ok(PlayoutResult {
                    moves,
                    outcome: None,
                    stuck: false,
                });
            }
            let count = self.action_count(game, seat)?;
            if count == 0 {
                return Ok(PlayoutResult {
                    moves,
                    outcome: None,
                    stuck: true,
                });
            }
            let index = rng.below(count as usize) as u32;
            self.apply_index(game, seat, index)?;
            moves += 1;
        }
    }

    fn redraw_hidden(
        &mut self,
        game: Handle,
        viewer: Option<Seat>,
        seed: u64,
    ) -> Result<Handle, EngineError> {
        let slot = self.slot(game)?;
        let (base, v) = (slot.base, slot.v.clone());
        let copy = self.base.redraw_hidden(base, viewer, seed)?;
        let copy = self.insert(Slot::new(copy, v));
        self.redraw_pending(copy, viewer)?;
        Ok(copy)
    }

    fn operation(&mut self, game: Handle, name: &str, args: &Value) -> Result<Value, EngineError> {
        // A command may change the game: forget the listed actions.
        self.slot_mut(game)?.listed = None;
        let base = self.slot(game)?.base;
        self.base.operation(base, name, args)
    }
}
