//! The sequence of one action: `before_action`, the base move, `after_action`,
//! `on_turn_start`, each a step that may stop for a player's choice or a refusal.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use veillee_sdk::{text, Action, Event, GameError, Handle, Manifest, Outcome, Seat, Status, Text};

use crate::bounds::{self, MAX_QUESTIONS_PER_MOVE};
use crate::script::{ChoiceRequest, GameAccess, HookArg, HookResult, Powers, Rng, Script};
use veillee_engine::{EngineError, GameEngine};

use super::state::{Listed, Pending, Rollback, ScriptSlot, Slot};
use super::CHOOSE_PREFIX;
use super::{
    hook_results::{apply_filter, read_added, refusal},
    no_live_game, VariantEngine,
};

/// One thing to do in the sequence of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub(super) enum Step {
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
    /// An action a script added: its `play_action` plays it.
    Play {
        script: usize,
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
    pub(super) fn hook(&self) -> Option<(usize, &'static str, Vec<HookArg<'_>>, Powers)> {
        let seat = |s: &Seat| HookArg::Seat(Some(*s));
        Some(match self {
            Step::Setup { script } => (*script, "setup", Vec::new(), Powers::Full),
            Step::Before {
                script,
                seat: s,
                action,
            } => (
                *script,
                "before_action",
                vec![seat(s), HookArg::Action(action)],
                Powers::NoCommands,
            ),
            Step::Play {
                script,
                seat: s,
                action,
            } => (
                *script,
                "play_action",
                vec![seat(s), HookArg::Action(action)],
                Powers::Full,
            ),
            Step::After {
                script,
                seat: s,
                action,
                events,
            } => (
                *script,
                "after_action",
                vec![seat(s), HookArg::Action(action), HookArg::Events(events)],
                Powers::Full,
            ),
            Step::TurnStart { script, seat: s } => {
                (*script, "on_turn_start", vec![seat(s)], Powers::Full)
            }
            Step::TurnEnd {
                script,
                seat: s,
                elapsed_ms,
            } => (
                *script,
                "on_turn_end",
                vec![seat(s), HookArg::Number(*elapsed_ms as f64 / 1000.0)],
                Powers::Full,
            ),
            Step::Base { .. } | Step::TurnStarts { .. } => return None,
        })
    }
}

/// Puts the `after_action` hooks concerned by `action` first in the queue, in script order,
/// but those whose `after_when` the move did not meet (`unmet`).
fn queue_after_hooks(
    queue: &mut VecDeque<Step>,
    scripts: &[Script],
    seat: Seat,
    action: &Action,
    events: &[Event],
    unmet: &[usize],
) {
    for script in (0..scripts.len()).rev() {
        if scripts[script].has_hook("after_action")
            && scripts[script].concerns(seat, &action.id)
            && !unmet.contains(&script)
        {
            queue.push_front(Step::After {
                script,
                seat,
                action: action.clone(),
                events: events.to_vec(),
            });
        }
    }
}

/// What the `after_when` queries of the scripts concerned by `seat`'s move `id` answer
/// before it: (script, answer; `None` when the query failed or the condition reads only the
/// answer after the move).
fn answers_before(
    engine: &mut dyn GameEngine,
    game: Handle,
    scripts: &[Script],
    slots: &[ScriptSlot],
    seat: Seat,
    id: &str,
) -> Result<Vec<(usize, Option<Value>)>, EngineError> {
    let mut answers = Vec::new();
    for (index, script) in scripts.iter().enumerate() {
        let Some(when) = &script.info().after_when else {
            continue;
        };
        if slots[index].disabled.is_some()
            || !script.has_hook("after_action")
            || !script.concerns(seat, id)
        {
            continue;
        }
        let before = match when.equals {
            Some(_) => None,
            None => ask(engine, game, &when.query)?,
        };
        answers.push((index, before));
    }
    Ok(answers)
}

/// After the move: the scripts among `before` whose `after_when` the move did not meet.
fn unmet_after(
    engine: &mut dyn GameEngine,
    game: Handle,
    scripts: &[Script],
    before: Vec<(usize, Option<Value>)>,
) -> Result<Vec<usize>, EngineError> {
    let mut unmet = Vec::new();
    for (index, was) in before {
        let Some(when) = &scripts[index].info().after_when else {
            continue;
        };
        let now = ask(engine, game, &when.query)?;
        if !when.met(was.as_ref(), now.as_ref()) {
            unmet.push(index);
        }
    }
    Ok(unmet)
}

/// A query without arguments; `None` when the game refuses it (a condition it cannot
/// answer is met: the hook decides).
fn ask(
    engine: &mut dyn GameEngine,
    game: Handle,
    query: &str,
) -> Result<Option<Value>, EngineError> {
    match engine.operation(game, query, &Value::Null) {
        Ok(answer) => Ok(Some(answer)),
        Err(EngineError::Game(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// How a sequence of steps ended.
pub(super) enum Advance {
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
    /// The event that announces a script switched off.
    pub(super) fn disabled_event(script: &Script, message: &str) -> Event {
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
    pub(super) fn advance(
        &mut self,
        game: Handle,
        queue: VecDeque<Step>,
        rollback: Option<Rollback>,
        mut resume: Option<(Step, Vec<u32>)>,
    ) -> Result<Advance, EngineError> {
        let VariantEngine {
            base,
            scripts,
            games,
            manifest,
            ..
        } = self;
        let slot = games.get_mut(&game).ok_or_else(|| no_live_game(game))?;
        slot.v.pending = None;
        slot.changed();
        let mut sequence = Sequence {
            base: &mut **base,
            scripts,
            manifest,
            slot,
            queue,
            rollback,
            events: Vec::new(),
        };
        loop {
            let (step, answers) = match resume.take() {
                Some(resumed) => resumed,
                None => match sequence.queue.pop_front() {
                    Some(step) => (step, Vec::new()),
                    None => break,
                },
            };
            let stopped = match &step {
                Step::Base { seat, action } => {
                    sequence.base_move(*seat, action)?;
                    None
                }
                Step::TurnStarts { before } => {
                    sequence.queue_turn_starts(before)?;
                    None
                }
                _ => sequence.hook_step(step, answers)?,
            };
            if let Some(stopped) = stopped {
                return Ok(stopped);
            }
        }
        // The move is done: the next one starts with no question asked (counted here, not
        // when a move starts, so that a refused move leaves the game as it was).
        sequence.slot.v.asked = 0;
        Ok(Advance::Events(sequence.events))
    }

    /// The base actions passed through every `filter_actions`. `failures` collects the
    /// scripts whose filter failed (their filter is then ignored for this call).
    pub(super) fn filtered(
        &mut self,
        game: Handle,
        seat: Seat,
        mut actions: Vec<Action>,
        failures: &mut Vec<(usize, String)>,
    ) -> Result<Vec<Action>, EngineError> {
        let hidden = self.manifest.hidden_information;
        self.listing_hooks(
            game,
            seat,
            "filter_actions",
            &mut actions,
            failures,
            |actions| vec![HookArg::Seat(Some(seat)), HookArg::Actions(actions)],
            |_, script, returned, actions| {
                let privately = script.reads_as_spectator(hidden);
                let kept = apply_filter(actions, returned, privately)?;
                let changed = kept != *actions;
                *actions = kept;
                Ok(changed)
            },
        )?;
        Ok(actions)
    }

    /// The base game's legal actions for `seat` passed through every `filter_actions`.
    pub(super) fn list(&mut self, game: Handle, seat: Seat) -> Result<Listed, EngineError> {
        let base = self.slot(game)?.base;
        let mut actions = self.base.legal_actions(base, seat)?;
        let mut failures = Vec::new();
        let added = self.added(game, seat, &mut actions, &mut failures)?;
        let actions = self.filtered(game, seat, actions, &mut failures)?;
        Ok(Listed {
            seat,
            actions,
            added,
            failures,
        })
    }

    /// Appends to a seat's actions those every `add_actions` adds; returns the added ids
    /// with their script. Asked only of a seat to act (it has base actions), and, for a
    /// script with `actions` patterns, only when one of the base actions matches.
    fn added(
        &mut self,
        game: Handle,
        seat: Seat,
        actions: &mut Vec<Action>,
        failures: &mut Vec<(usize, String)>,
    ) -> Result<Vec<(String, usize)>, EngineError> {
        let mut owners = Vec::new();
        if actions.is_empty() {
            return Ok(owners);
        }
        let max_added: Vec<Option<u32>> = self.scripts.iter().map(|s| s.info().max_added).collect();
        self.listing_hooks(
            game,
            seat,
            "add_actions",
            actions,
            failures,
            |_| vec![HookArg::Seat(Some(seat))],
            |index, _, returned, actions| {
                let more = read_added(returned, actions)?;
                if let Some(max) = max_added[index] {
                    if more.len() > max as usize {
                        return Err(format!(
                            "it added {} actions, more than its `max_added` ({max})",
                            more.len()
                        ));
                    }
                }
                let changed = !more.is_empty();
                owners.extend(more.iter().map(|a| (a.id.clone(), index)));
                actions.extend(more);
                Ok(changed)
            },
        )?;
        Ok(owners)
    }

    /// Runs a listing hook (`add_actions`, `filter_actions`: queries only) of every script
    /// still on that has it and is concerned by one of `actions`, in script order. `args`
    /// gives the hook's arguments from the list so far; `read` takes in what it returned
    /// (script index, the script, first returned value, the list to change) and says whether the list
    /// changed, or why what it returned is wrong (then the script goes to `failures`).
    #[allow(clippy::too_many_arguments)]
    fn listing_hooks(
        &mut self,
        game: Handle,
        seat: Seat,
        hook: &'static str,
        actions: &mut Vec<Action>,
        failures: &mut Vec<(usize, String)>,
        args: impl for<'a> Fn(&'a [Action]) -> Vec<HookArg<'a>>,
        mut read: impl FnMut(usize, &Script, Option<&Value>, &mut Vec<Action>) -> Result<bool, String>,
    ) -> Result<(), EngineError> {
        let VariantEngine {
            base,
            scripts,
            games,
            manifest,
            ..
        } = self;
        let slot = games.get(&game).ok_or_else(|| no_live_game(game))?;
        for (index, script) in scripts.iter().enumerate() {
            if slot.v.scripts[index].disabled.is_some()
                || !script.has_hook(hook)
                || !actions.iter().any(|a| script.concerns(seat, &a.id))
            {
                continue;
            }
            let mut access = GameAccess {
                engine: &mut **base,
                base: slot.base,
                players: slot.v.players,
            };
            let result = script.run(
                hook,
                &args(actions),
                &slot.v.scripts[index].data,
                slot.v.rng,
                &[],
                &mut access,
                manifest,
                Powers::Read,
            )?;
            match result {
                HookResult::Done { returned, .. } => {
                    match read(index, script, returned.first(), actions) {
                        Ok(changed) => script.note_changed(hook, changed),
                        Err(why) => {
                            failures.push((index, format!("{}: {why} (in {hook})", script.file())))
                        }
                    }
                }
                HookResult::Pending(_) => failures.push((
                    index,
                    format!("{}: {hook} cannot ask a choice", script.file()),
                )),
                HookResult::Failed(message) => failures.push((index, message)),
            }
        }
        Ok(())
    }

    /// The legal actions of one question. An answer is private: the seat asked reads its
    /// option, everyone else only that it answered (what it chose shows in what follows,
    /// through the events the script writes for all to read).
    pub(super) fn choice_actions(request: &ChoiceRequest) -> Vec<Action> {
        let public = text(
            format!("répond : {}", request.prompt.fr),
            format!("answers: {}", request.prompt.en),
        );
        request
            .options
            .iter()
            .enumerate()
            .map(|(i, option)| {
                Action::button(format!("{CHOOSE_PREFIX}{i}"), public.clone())
                    .with_private(option.clone())
            })
            .collect()
    }

    /// Applies one seat's answer to a pending choice; once every question asked together
    /// has its answer, the hook re-runs with them.
    pub(super) fn answer(
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

    /// In a copy made for `viewer` by `redraw_hidden`, while a choice is pending: asks the
    /// questions again of the re-drawn game, the answers given so far replayed. The copy
    /// is kept only if the viewer would see the very same thing there: the same seats asked
    /// with the same prompts, and the viewer's own question with the same options (it then
    /// keeps the viewer's own answer, and forgets the others', which the viewer cannot
    /// know). Otherwise the re-drawn cards do not fit what the viewer saw (a hand whose
    /// owner was asked to pick among two kinds cannot hold one kind only): `false`, and
    /// the caller tries another re-draw.
    pub(super) fn reask_pending(
        &mut self,
        copy: Handle,
        viewer: Option<Seat>,
        asked: &Pending,
    ) -> Result<bool, EngineError> {
        let v = &mut self.slot_mut(copy)?.v;
        v.pending = None;
        // The question asked again was counted when it was first asked.
        v.asked = v.asked.saturating_sub(1);
        let asked_again = self.advance(
            copy,
            asked.queue.clone().into(),
            asked.rollback.clone(),
            Some((asked.step.clone(), asked.answers.clone())),
        );
        let slot = self.slot_mut(copy)?;
        let (Ok(Advance::Events(_)), Some(again)) = (asked_again, slot.v.pending.as_mut()) else {
            return Ok(false);
        };
        let public = |p: &Pending| -> Vec<(Seat, Text)> {
            p.questions
                .iter()
                .map(|q| (q.seat, q.prompt.clone()))
                .collect()
        };
        let own = |p: &Pending| p.questions.iter().find(|q| Some(q.seat) == viewer).cloned();
        if public(again) != public(asked) || own(again) != own(asked) {
            return Ok(false);
        }
        again.given = forget_others(asked, viewer).given;
        Ok(true)
    }
}

/// One run of [`VariantEngine::advance`]: the parts of the engine a step uses, and what
/// passes from one step to the next.
struct Sequence<'a> {
    base: &'a mut dyn GameEngine,
    scripts: &'a [Script],
    manifest: &'a Manifest,
    /// The game the steps are played in.
    slot: &'a mut Slot,
    /// The steps still to run.
    queue: VecDeque<Step>,
    /// What a refusal goes back to; `None` once the move is played.
    rollback: Option<Rollback>,
    /// The events so far.
    events: Vec<Event>,
}

impl Sequence<'_> {
    /// The base game's move, with the `after_action` hooks it concerns queued next.
    fn base_move(&mut self, seat: Seat, action: &Action) -> Result<(), EngineError> {
        let before = answers_before(
            &mut *self.base,
            self.slot.base,
            self.scripts,
            &self.slot.v.scripts,
            seat,
            &action.id,
        )?;
        let done = self.base.apply(self.slot.base, seat, &action.id);
        // Forgotten before the move's result is checked: a move that fails leaves no stale
        // status behind either.
        self.slot.status = None;
        let done = done?;
        self.rollback = None;
        self.events.extend(done.iter().cloned());
        self.queue_hooks_after_move(seat, action, &done, before)
    }

    /// Queues first the `after_action` hooks concerned by `seat`'s move that its
    /// `after_when` conditions let through (`before`: their queries' answers before it).
    fn queue_hooks_after_move(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &[Event],
        before: Vec<(usize, Option<Value>)>,
    ) -> Result<(), EngineError> {
        let unmet = unmet_after(&mut *self.base, self.slot.base, self.scripts, before)?;
        queue_after_hooks(&mut self.queue, self.scripts, seat, action, events, &unmet);
        Ok(())
    }

    /// Queues first an `on_turn_start` of every script for each seat to act now that was not
    /// to act `before`, in seat order.
    fn queue_turn_starts(&mut self, before: &[Seat]) -> Result<(), EngineError> {
        if let Status::ToAct { seats } = self.slot.base_status(&mut *self.base)? {
            for &seat in seats.iter().rev() {
                if before.contains(&seat) {
                    continue;
                }
                for script in (0..self.scripts.len()).rev() {
                    self.queue.push_front(Step::TurnStart { script, seat });
                }
            }
        }
        Ok(())
    }

    /// Runs a hook step, unless its script is off or lacks the hook. `Some` when the
    /// sequence stops there: the game ended, a choice is pending, or the action is refused.
    fn hook_step(&mut self, step: Step, answers: Vec<u32>) -> Result<Option<Advance>, EngineError> {
        let (index, hook, args, powers) = step.hook().expect("a hook step");
        let scripts = self.scripts;
        let script = &scripts[index];
        if self.slot.v.scripts[index].disabled.is_some() || !script.has_hook(hook) {
            return Ok(None);
        }
        // An added action played: the `after_when` conditions of the hooks after it.
        let before = match &step {
            Step::Play { seat, action, .. } => answers_before(
                &mut *self.base,
                self.slot.base,
                scripts,
                &self.slot.v.scripts,
                *seat,
                &action.id,
            )?,
            _ => Vec::new(),
        };
        let mut access = GameAccess {
            engine: &mut *self.base,
            base: self.slot.base,
            players: self.slot.v.players,
        };
        let result = script.run(
            hook,
            &args,
            &self.slot.v.scripts[index].data,
            self.slot.v.rng,
            &answers,
            &mut access,
            self.manifest,
            powers,
        )?;
        match result {
            HookResult::Done {
                returned,
                data,
                rng,
                events: added,
                scratch,
                ended,
            } => {
                let changed = scratch.is_some()
                    || !added.is_empty()
                    || rng != self.slot.v.rng
                    || data != self.slot.v.scripts[index].data;
                self.keep_hook_state(index, data, rng, scratch);
                if let Step::Play { seat, action, .. } = &step {
                    // The added action is played: nothing to roll back any more.
                    self.rollback = None;
                    self.queue_hooks_after_move(*seat, action, &added, before)?;
                }
                self.events.extend(added);
                if let Some(outcome) = ended {
                    script.note_changed(hook, true);
                    return Ok(Some(self.end_game(outcome)));
                }
                let refused = match &step {
                    Step::Before { .. } => refusal(script, &returned),
                    _ => None,
                };
                script.note_changed(hook, changed || refused.is_some());
                Ok(match (&step, refused) {
                    (Step::Before { seat, action, .. }, Some(reason)) => {
                        Some(self.refuse(*seat, action, reason))
                    }
                    _ => None,
                })
            }
            HookResult::Pending(_) if self.slot.v.asked >= MAX_QUESTIONS_PER_MOVE => {
                let why = bounds::stopped_by_questions(&script.info().name, script.file());
                Ok(Some(self.stop(why)))
            }
            HookResult::Pending(questions) => {
                self.slot.v.asked += 1;
                Ok(Some(self.wait_for(step, answers, questions)))
            }
            HookResult::Failed(message) => {
                self.events
                    .push(VariantEngine::disabled_event(script, &message));
                self.slot.v.scripts[index].disabled = Some(message);
                Ok(None)
            }
        }
    }

    /// Keeps what a hook that returned leaves: its `ctx.state`, the generator, and the copy
    /// of the game its commands changed, which replaces the game.
    fn keep_hook_state(&mut self, index: usize, data: Value, rng: Rng, scratch: Option<Handle>) {
        self.slot.v.scripts[index].data = data;
        self.slot.v.rng = rng;
        if let Some(scratch) = scratch {
            self.base.drop_game(self.slot.base);
            self.slot.base = scratch;
            self.slot.status = None;
        }
    }

    /// A hook ended the game: the sequence stops, no hook runs after this one.
    fn end_game(&mut self, outcome: Outcome) -> Advance {
        self.slot.v.ended = Some(outcome);
        self.slot.v.pending = None;
        Advance::Events(std::mem::take(&mut self.events))
    }

    /// The game stops at a bound (see [`crate::bounds`]): the steps left are dropped, and an
    /// event says why.
    fn stop(&mut self, reason: Text) -> Advance {
        self.slot.v.stop(reason.clone());
        self.queue.clear();
        self.rollback = None;
        self.events.push(Event::new(reason));
        Advance::Events(std::mem::take(&mut self.events))
    }

    /// A `before_action` refused `seat`'s action: the scripts' data goes back to before it.
    fn refuse(&mut self, seat: Seat, action: &Action, reason: Text) -> Advance {
        if let Some(rollback) = self.rollback.take() {
            self.slot.v.rng = rollback.rng;
            self.slot.v.scripts = rollback.scripts;
        }
        self.slot.v.pending = None;
        self.slot.v.asked = 0;
        Advance::Refused {
            seat,
            action: action.id.clone(),
            reason,
            events: std::mem::take(&mut self.events),
        }
    }

    /// A hook asked `questions`: the sequence waits, saved as plain data, to re-run `step`
    /// with `answers` and the new ones.
    fn wait_for(
        &mut self,
        step: Step,
        answers: Vec<u32>,
        questions: Vec<ChoiceRequest>,
    ) -> Advance {
        self.slot.v.pending = Some(Box::new(Pending {
            step,
            answers,
            given: vec![None; questions.len()],
            questions,
            queue: std::mem::take(&mut self.queue).into_iter().collect(),
            rollback: self.rollback.take(),
        }));
        Advance::Events(std::mem::take(&mut self.events))
    }
}

/// The pending choice as `viewer` may know it: the viewer's own answer kept, the answers
/// other seats gave forgotten (they decide again).
pub(super) fn forget_others(pending: &Pending, viewer: Option<Seat>) -> Pending {
    let mut kept = pending.clone();
    kept.given = pending
        .questions
        .iter()
        .zip(pending.given.iter().chain(std::iter::repeat(&None)))
        .map(|(q, given)| given.filter(|_| Some(q.seat) == viewer))
        .collect();
    kept
}
