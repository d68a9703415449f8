//! Random playouts with scripts: inside the plugin between the moves the scripts concern, in
//! the host for those (and for every move when a script concerns them all).

use veillee_sdk::{
    GameError, GameRng, Handle, PlayoutResult, PlayoutWatch, Seat, Status, WatchOn, WatchRule,
};

use veillee_engine::{EngineError, GameEngine};

use super::VariantEngine;

impl VariantEngine {
    /// What a playout inside the plugin must stop for, from the scripts still on (see
    /// [`WatchRule`]): a seat's list when a `filter_actions` or an `add_actions` without
    /// `max_added` concerns it; the draw of an added action for an `add_actions` with
    /// `max_added`; a move before a `before_action` or an `after_action`, only when the move
    /// meets the `after_when` condition of an `after_action` that has one. Plugins older than
    /// ABI 1.10 read only `listed` and `played`: the same patterns without seats, counts or
    /// conditions. `None` when some hook concerns every action of every seat or every turn,
    /// or a choice is pending: then the host plays every move.
    pub(super) fn watch(&self, game: Handle) -> Option<PlayoutWatch> {
        let slot = self.games.get(&game)?;
        if slot.v.pending.is_some() || slot.v.ended.is_some() {
            return None;
        }
        let mut watch = PlayoutWatch::default();
        for (index, script) in self.scripts.iter().enumerate() {
            if slot.v.scripts[index].disabled.is_some() {
                continue;
            }
            if script.has_hook("on_turn_start") {
                return None;
            }
            let info = script.info();
            let adds = script.has_hook("add_actions");
            let filters = script.has_hook("filter_actions");
            let before = script.has_hook("before_action");
            let after = script.has_hook("after_action");
            let actions = if info.actions.is_empty() {
                vec!["*".to_string()]
            } else {
                info.actions.clone()
            };
            let rule = |on| WatchRule {
                seats: info.seats.clone(),
                actions: actions.clone(),
                on,
            };
            let lists = match info.max_added {
                _ if filters => Some(rule(WatchOn::Listed)),
                None if adds => Some(rule(WatchOn::Listed)),
                Some(max) if adds => Some(rule(WatchOn::Added { max })),
                _ => None,
            };
            let around = match &info.after_when {
                _ if before => Some(rule(WatchOn::Played { when: None })),
                when if after => Some(rule(WatchOn::Played { when: when.clone() })),
                _ => None,
            };
            for rule in lists.into_iter().chain(around) {
                let everything = rule.seats.is_empty()
                    && rule.actions.iter().any(|p| p == "*")
                    && matches!(rule.on, WatchOn::Listed | WatchOn::Played { when: None });
                if everything {
                    // Every move would stop: the host plays them one by one.
                    return None;
                }
                match rule.on {
                    WatchOn::Played { .. } => watch.played.extend(rule.actions.iter().cloned()),
                    _ => watch.listed.extend(rule.actions.iter().cloned()),
                }
                watch.rules.push(rule);
            }
        }
        Some(watch)
    }

    /// Plays one random move of `seat` through the scripts: `first` if given (with whether
    /// the plugin's playout picked it, see [`VariantEngine::play`]), else one picked at random
    /// among the (filtered) legal actions. A move a `before_action` refuses is struck off and
    /// another is picked, so a rule that refuses everything cannot make a playout loop.
    /// `Ok(false)`: every move was refused, or there was none.
    pub(super) fn random_move(
        &mut self,
        game: Handle,
        seat: Seat,
        first: Option<(String, bool)>,
        rng: &mut GameRng,
    ) -> Result<bool, EngineError> {
        // The list is read only when it is needed: to pick, or after a refusal.
        let mut candidates: Option<Vec<String>> = None;
        let mut next = first;
        loop {
            let (id, picked_inside) = match next.take() {
                Some(first) => first,
                None => {
                    if candidates.is_none() {
                        candidates = Some(self.ids(game, seat)?);
                    }
                    match candidates.as_ref().and_then(|listed| rng.pick(listed)) {
                        Some(id) => (id.clone(), false),
                        None => return Ok(false),
                    }
                }
            };
            match self.play(game, seat, &id, picked_inside) {
                Ok(_) => return Ok(true),
                Err(EngineError::Game(GameError::Refused { .. })) => {
                    if candidates.is_none() {
                        candidates = Some(self.ids(game, seat)?);
                    }
                    if let Some(listed) = candidates.as_mut() {
                        listed.retain(|c| *c != id);
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The added action a playout drew (see [`WatchOn::Added`]): the `extra`-th that the
    /// scripts' `add_actions` added to `seat`'s list, in script order, if they added that many
    /// and no `filter_actions` took it away. `None`: the draw is void and the host picks
    /// among the whole list, which leaves every action, listed or added, the same chance.
    fn added_action(
        &mut self,
        game: Handle,
        seat: Seat,
        extra: u32,
    ) -> Result<Option<String>, EngineError> {
        let actions = self.legal_actions(game, seat)?;
        let slot = self.slot(game)?;
        let drawn = slot
            .listed
            .as_ref()
            .and_then(|listed| listed.added.get(extra as usize))
            .map(|(id, _)| id.clone());
        Ok(drawn.filter(|id| actions.iter().any(|a| a.id == *id)))
    }

    /// The ids of `seat`'s legal actions (through the scripts).
    fn ids(&mut self, game: Handle, seat: Seat) -> Result<Vec<String>, EngineError> {
        Ok(self
            .legal_actions(game, seat)?
            .into_iter()
            .map(|a| a.id)
            .collect())
    }

    /// A random playout: stretches inside the plugin (`playout_until`) between the moves the
    /// scripts watch, each of those played here through the hooks; move by move here when
    /// the scripts watch everything or the plugin cannot stop on request (ABI < 1.7).
    pub(super) fn watched_playout(
        &mut self,
        game: Handle,
        seed: u64,
        max_moves: u32,
    ) -> Result<PlayoutResult, EngineError> {
        let mut rng = GameRng::new(seed);
        let mut moves = 0;
        let mut in_plugin = true;
        let ended = |moves, outcome, stuck| PlayoutResult {
            moves,
            outcome,
            stuck,
        };
        loop {
            if let Some(watch) = self.watch(game).filter(|_| in_plugin) {
                let base = self.slot(game)?.base;
                let stretch =
                    self.base
                        .playout_until(base, rng.next_u64(), max_moves - moves, &watch)?;
                self.slot_mut(game)?.changed();
                match stretch {
                    None => in_plugin = false,
                    Some(stop) => {
                        moves += stop.moves;
                        self.count_moves(game, stop.moves)?;
                        if let Some(outcome) = self.slot(game)?.v.ended.clone() {
                            return Ok(ended(moves, Some(outcome), false));
                        }
                        let Some(seat) = stop.seat else {
                            return Ok(ended(moves, stop.outcome, stop.stuck));
                        };
                        let first = match (stop.action, stop.extra) {
                            (Some(id), _) => Some((id, true)),
                            (None, Some(extra)) => {
                                self.added_action(game, seat, extra)?.map(|id| (id, false))
                            }
                            (None, None) => None,
                        };
                        if !self.random_move(game, seat, first, &mut rng)? {
                            return Ok(ended(moves, None, true));
                        }
                        moves += 1;
                        continue;
                    }
                }
            }
            let seat = match self.status(game)? {
                Status::Finished { outcome } => return Ok(ended(moves, Some(outcome), false)),
                Status::ToAct { seats } => match rng.pick(&seats) {
                    Some(&seat) => seat,
                    None => return Ok(ended(moves, None, true)),
                },
            };
            if moves >= max_moves {
                return Ok(ended(moves, None, false));
            }
            if !self.random_move(game, seat, None, &mut rng)? {
                return Ok(ended(moves, None, true));
            }
            moves += 1;
        }
    }
}
