//! [`VariantEngine`]: a game with house rules is itself a [`GameEngine`].

use std::collections::{BTreeMap, VecDeque};

use serde_json::{json, Value};
use veillee_sdk::search::{SearchAnswer, SearchRequest};
use veillee_sdk::{
    Action, Event, GameError, Handle, Manifest, PlayoutResult, Scene, Seat, Setup, Status, Text,
};

use crate::script::{ChoiceRequest, GameAccess, HookArg, HookResult, Powers, Rng, Script};
use crate::{bounds, VariantError};
use veillee_engine::{EngineError, GameEngine};

mod hook_results;
mod playout;
mod sequence;
mod state;

use hook_results::apply_view;
pub(crate) use hook_results::MAX_ADDED;
use sequence::{Advance, Step};
use state::{Listed, Rollback, ScriptSlot, Slot, VState, SAVE_MAGIC};

/// Re-draws tried while a choice is pending before falling back (see `redraw_hidden`).
const REDRAW_ATTEMPTS: u64 = 16;

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
    /// The base game's manifest, read once (hooks check operations against it).
    manifest: Manifest,
    scripts: Vec<Script>,
    games: BTreeMap<Handle, Slot>,
    next: Handle,
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
            if let Some(when) = &info.after_when {
                let manifest = base.manifest();
                let is_query =
                    |op: &&veillee_sdk::OperationSpec| op.kind == veillee_sdk::OperationKind::Query;
                if !manifest
                    .operations
                    .iter()
                    .filter(is_query)
                    .any(|op| op.name == when.query)
                {
                    let queries: Vec<&str> = manifest
                        .operations
                        .iter()
                        .filter(is_query)
                        .map(|op| op.name.as_str())
                        .collect();
                    return Err(VariantError::Load {
                        file: script.file().to_string(),
                        detail: format!(
                            "`after_when` names `{}`, which is not a query of {} (it offers: {})",
                            when.query,
                            game,
                            if queries.is_empty() {
                                "none".to_string()
                            } else {
                                queries.join(", ")
                            }
                        ),
                    });
                }
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
            manifest: base.manifest().clone(),
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

    /// Plays `seat`'s action `action_id` through the scripts. `picked_inside`: the plugin's
    /// playout picked this base move for `seat`, after checking the watch (so no listing hook
    /// concerns the seat's list and the move is legal): it is played without listing the
    /// seat's actions, and its label and path are read only if a hook concerned by it reads
    /// its `action` argument.
    pub(super) fn play(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
        picked_inside: bool,
    ) -> Result<Vec<Event>, EngineError> {
        let slot = self.slot(game)?;
        if slot.v.ended.is_some() {
            return Err(GameError::GameOver.into());
        }
        if slot.v.pending.is_some() {
            return self.answer(game, seat, action_id);
        }
        let turn_hooks = self.scripts.iter().any(|s| s.has_hook("on_turn_start"));
        let before = if picked_inside && !turn_hooks {
            Vec::new()
        } else {
            self.check_turn(game, seat)?
        };
        let before_hooks = self.concerned("before_action", seat, action_id);
        let read = self.action_read(&before_hooks, seat, action_id);
        let Listed {
            actions,
            added,
            failures,
            ..
        } = self.listed_for_move(game, seat, action_id, picked_inside && !read)?;
        let Some(action) = actions.into_iter().find(|a| a.id == action_id) else {
            return Err(GameError::IllegalAction {
                seat,
                action: action_id.to_string(),
            }
            .into());
        };
        // Only a `before_action` can refuse the move: without one there is nothing to undo.
        let snapshot = if before_hooks.is_empty() {
            None
        } else {
            Some(self.rollback_point(game)?)
        };
        let mut events = self.switch_off_failed(game, failures)?;
        let queue = move_steps(before_hooks, seat, action, &added, turn_hooks, before);
        events.extend(self.run_move(game, queue, snapshot)?);
        events.extend(self.count_moves(game, 1)?);
        Ok(events)
    }

    /// Counts `played` moves of the game; once it has lasted `MAX_MOVES_WITH_SCRIPTS`, a game
    /// still going stops, naming the scripts still on: the event that says so.
    pub(super) fn count_moves(
        &mut self,
        game: Handle,
        played: u32,
    ) -> Result<Option<Event>, EngineError> {
        let slot = self.slot_mut(game)?;
        slot.v.moves = slot.v.moves.saturating_add(played);
        if slot.v.moves < bounds::MAX_MOVES_WITH_SCRIPTS || slot.v.ended.is_some() {
            return Ok(None);
        }
        if slot.v.pending.is_none() && matches!(self.status(game)?, Status::Finished { .. }) {
            return Ok(None);
        }
        let slot = self.slot(game)?;
        let on: Vec<(&Text, &str)> = self
            .scripts
            .iter()
            .zip(&slot.v.scripts)
            .filter(|(_, data)| data.disabled.is_none())
            .map(|(script, _)| (&script.info().name, script.file()))
            .collect();
        let why = bounds::stopped_by_moves(&on);
        self.slot_mut(game)?.v.stop(why.clone());
        Ok(Some(Event::new(why)))
    }

    /// Why the game stopped at a bound of [`crate::bounds`], if it did.
    pub fn stopped(&self, game: Handle) -> Option<&Text> {
        self.games.get(&game)?.v.stopped.as_ref()
    }

    /// Refuses a move of `seat` in a finished game or out of its turn; else the seats to act
    /// before the move.
    fn check_turn(&mut self, game: Handle, seat: Seat) -> Result<Vec<Seat>, EngineError> {
        match self.status(game)? {
            Status::Finished { .. } => Err(GameError::GameOver.into()),
            Status::ToAct { seats } if !seats.contains(&seat) => {
                Err(GameError::NotYourTurn { seat }.into())
            }
            Status::ToAct { seats } => Ok(seats),
        }
    }

    /// The scripts, in order, with this hook concerned by `seat`'s action `action_id`.
    fn concerned(&self, hook: &str, seat: Seat, action_id: &str) -> Vec<usize> {
        (0..self.scripts.len())
            .filter(|&i| {
                self.scripts[i].has_hook(hook) && self.scripts[i].concerns(seat, action_id)
            })
            .collect()
    }

    /// Whether a `before_action` or `after_action` concerned by the move declares its
    /// `action` argument, so needs the action's label and path.
    fn action_read(&self, before_hooks: &[usize], seat: Seat, action_id: &str) -> bool {
        before_hooks
            .iter()
            .map(|&i| (i, "before_action"))
            .chain(
                self.concerned("after_action", seat, action_id)
                    .into_iter()
                    .map(|i| (i, "after_action")),
            )
            .any(|(i, hook)| self.scripts[i].arity(hook) >= 2)
    }

    /// The list a move is looked up in: the one given out last if it is `seat`'s; else, when
    /// only the id is needed (`id_only`: a move picked inside the plugin that no hook reads),
    /// the bare id; else the list made anew.
    fn listed_for_move(
        &mut self,
        game: Handle,
        seat: Seat,
        action_id: &str,
        id_only: bool,
    ) -> Result<Listed, EngineError> {
        Ok(match self.slot_mut(game)?.listed.take() {
            Some(listed) if listed.seat == seat => listed,
            _ if id_only => Listed {
                seat,
                actions: vec![Action::button(action_id, Text::same(""))],
                added: Vec::new(),
                failures: Vec::new(),
            },
            _ => self.list(game, seat)?,
        })
    }

    /// The scripts' data now, to go back to if the move is refused.
    fn rollback_point(&self, game: Handle) -> Result<Rollback, EngineError> {
        let v = &self.slot(game)?.v;
        Ok(Rollback {
            rng: v.rng,
            scripts: v.scripts.clone(),
        })
    }

    /// Switches off the scripts whose listing hook failed while the move's list was made,
    /// with the event that says so for each.
    fn switch_off_failed(
        &mut self,
        game: Handle,
        failures: Vec<(usize, String)>,
    ) -> Result<Vec<Event>, EngineError> {
        let mut events = Vec::new();
        for (index, message) in failures {
            events.push(Self::disabled_event(&self.scripts[index], &message));
            self.slot_mut(game)?.v.scripts[index].disabled = Some(message);
        }
        Ok(events)
    }

    /// Runs a move's steps; when a `before_action` refuses it, the scripts' data goes back
    /// to `snapshot` and the refusal is the error.
    fn run_move(
        &mut self,
        game: Handle,
        queue: VecDeque<Step>,
        snapshot: Option<Rollback>,
    ) -> Result<Vec<Event>, EngineError> {
        match self.advance(game, queue, snapshot.clone(), None)? {
            Advance::Events(events) => Ok(events),
            Advance::Refused {
                seat,
                action,
                reason,
                ..
            } => {
                if let Some(snapshot) = snapshot {
                    let slot = self.slot_mut(game)?;
                    slot.v.rng = snapshot.rng;
                    slot.v.scripts = snapshot.scripts;
                }
                Err(GameError::Refused {
                    seat,
                    action,
                    reason,
                }
                .into())
            }
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
            ended: None,
            stopped: None,
            moves: 0,
            asked: 0,
        }
    }
}

/// The refusal for a handle that names no live game.
fn no_live_game(game: Handle) -> GameError {
    GameError::Protocol(format!("no live game has handle {game}"))
}

/// The steps of `seat`'s move: each concerned `before_action`, then the move (the
/// `play_action` of the script that added the action, else the base game's), then, when a
/// script has `on_turn_start` (`turn_hooks`), the turns that begin for seats not to act
/// `before`.
fn move_steps(
    before_hooks: Vec<usize>,
    seat: Seat,
    action: Action,
    added: &[(String, usize)],
    turn_hooks: bool,
    before: Vec<Seat>,
) -> VecDeque<Step> {
    let mut queue: VecDeque<Step> = before_hooks
        .into_iter()
        .map(|script| Step::Before {
            script,
            seat,
            action: action.clone(),
        })
        .collect();
    match added.iter().find(|(id, _)| *id == action.id) {
        Some(&(_, script)) => queue.push_back(Step::Play {
            script,
            seat,
            action,
        }),
        None => queue.push_back(Step::Base { seat, action }),
    }
    if turn_hooks {
        queue.push_back(Step::TurnStarts { before });
    }
    queue
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

    fn stopped(&self, game: Handle) -> Option<Text> {
        VariantEngine::stopped(self, game).cloned()
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
        if let Some(outcome) = &slot.v.ended {
            return Ok(Status::Finished {
                outcome: outcome.clone(),
            });
        }
        if let Some(pending) = &slot.v.pending {
            return Ok(Status::ToAct {
                seats: pending.seats_to_answer(),
            });
        }
        let VariantEngine { base, games, .. } = self;
        let slot = games.get_mut(&game).ok_or_else(|| no_live_game(game))?;
        slot.base_status(&mut **base)
    }

    fn legal_actions(&mut self, game: Handle, seat: Seat) -> Result<Vec<Action>, EngineError> {
        let slot = self.slot(game)?;
        if slot.v.ended.is_some() {
            return Ok(Vec::new());
        }
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
        self.play(game, seat, action_id, false)
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
            manifest,
            ..
        } = self;
        let slot = &games[&game];
        for (index, script) in scripts.iter().enumerate() {
            if slot.v.scripts[index].disabled.is_some() || !script.has_hook("view") {
                continue;
            }
            let mut access = GameAccess {
                engine: &mut **engine,
                base,
                players: slot.v.players,
            };
            // A failing view hook changes nothing: the view is not part of the game's
            // history, so it must not switch the script off.
            if let HookResult::Done { returned, .. } = script.run(
                "view",
                &[HookArg::Seat(viewer), HookArg::Scene(&scene)],
                &slot.v.scripts[index].data,
                slot.v.rng,
                &[],
                &mut access,
                manifest,
                Powers::Read,
            )? {
                let before = scene.clone();
                apply_view(&mut scene, returned.first());
                script.note_changed("view", scene != before);
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
        self.watched_playout(game, seed, max_moves)
    }

    fn redraw_hidden(
        &mut self,
        game: Handle,
        viewer: Option<Seat>,
        seed: u64,
    ) -> Result<Handle, EngineError> {
        let slot = self.slot(game)?;
        let (base, v) = (slot.base, slot.v.clone());
        let Some(asked) = v.pending.clone() else {
            let copy = self.base.redraw_hidden(base, viewer, seed)?;
            // What `ctx.random` will draw is unknown to every seat: re-drawn too, so that a
            // bot searching this copy cannot foresee it.
            let mut v = v;
            v.rng = Rng::seeded(seed.rotate_left(23) ^ 0x7265_6472_6177);
            return Ok(self.insert(Slot::new(copy, v)));
        };
        // A choice is pending: keep the first re-draw in which the viewer would be asked
        // the same (see `reask_pending`). Rejecting the others is what makes the re-draw
        // consistent with what the viewer saw of the questions.
        for attempt in 0..REDRAW_ATTEMPTS {
            let seed = seed.wrapping_add(attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let copy = self.base.redraw_hidden(base, viewer, seed)?;
            let copy = self.insert(Slot::new(copy, v.clone()));
            if self.reask_pending(copy, viewer, &asked)? {
                return Ok(copy);
            }
            self.drop_game(copy);
        }
        // No re-draw fits: the base game re-drawn as it is (no hook re-run, so nothing the
        // viewer sees moves), with the questions as they were asked and only the viewer's
        // own answer kept. The other seats' options then list their real cards, which the
        // viewer is never shown.
        let copy = self.base.redraw_hidden(base, viewer, seed)?;
        let mut v = v;
        v.pending = Some(Box::new(sequence::forget_others(&asked, viewer)));
        Ok(self.insert(Slot::new(copy, v)))
    }

    fn search(
        &mut self,
        game: Handle,
        seat: Seat,
        request: &SearchRequest,
    ) -> Result<Option<SearchAnswer>, EngineError> {
        // Inside the plugin only when no script concerns any action (nothing watched, no
        // question pending): then the plugin alone plays the game as the scripts would.
        // Otherwise the caller searches through this engine, hooks included.
        match self.watch(game) {
            Some(watch) if watch.is_empty() => {
                let base = self.slot(game)?.base;
                self.base.search(base, seat, request)
            }
            _ => Ok(None),
        }
    }

    fn search_lanes(
        &mut self,
        game: Handle,
        seat: Seat,
        requests: &[SearchRequest],
    ) -> Result<Option<Vec<SearchAnswer>>, EngineError> {
        // As `search`: inside the plugin only when no script concerns any action.
        match self.watch(game) {
            Some(watch) if watch.is_empty() => {
                let base = self.slot(game)?.base;
                self.base.search_lanes(base, seat, requests)
            }
            _ => Ok(None),
        }
    }

    fn evaluate(&mut self, game: Handle, players: u8) -> Result<Option<Vec<f32>>, EngineError> {
        // With a question pending, the position is the base game's; only the question is
        // on top of it.
        let base = self.slot(game)?.base;
        self.base.evaluate(base, players)
    }

    fn operation(&mut self, game: Handle, name: &str, args: &Value) -> Result<Value, EngineError> {
        // A command may change the game: forget what was read of it.
        self.slot_mut(game)?.changed();
        let base = self.slot(game)?.base;
        self.base.operation(base, name, args)
    }
}
