//! Random playouts with scripts: inside the plugin between the moves the scripts concern, in
//! the host for those (and for every move when a script concerns them all).

use veillee_sdk::{GameError, GameRng, Handle, PlayoutResult, PlayoutWatch, Seat, Status};

use veillee_engine::{EngineError, GameEngine};

use super::VariantEngine;

impl VariantEngine {
    /// What a playout inside the plugin must stop for, from the scripts still on: the
    /// patterns of their `filter_actions` (a list to look at) and of their `before_action` /
    /// `after_action` (a move to run them around). `None` when some hook concerns every
    /// action or every turn, or a choice is pending: then the host plays every move.
    pub(super) fn watch(&self, game: Handle) -> Option<PlayoutWatch> {
        let slot = self.games.get(&game)?;
        if slot.v.pending.is_some() {
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
            let lists = script.has_hook("filter_actions") || script.has_hook("add_actions");
            let around = script.has_hook("before_action") || script.has_hook("after_action");
            let patterns = &script.info().actions;
            if (lists || around) && patterns.is_empty() {
                return None;
            }
            if lists {
                watch.listed.extend(patterns.iter().cloned());
            }
            if around {
                watch.played.extend(patterns.iter().cloned());
            }
        }
        Some(watch)
    }

    /// Plays one random move of `seat` through the scripts: `first` if given, else one
    /// picked at random among the (filtered) legal actions. A move a `before_action` refuses
    /// is struck off and another is picked, so a rule that refuses everything cannot make a
    /// playout loop. `Ok(false)`: every move was refused, or there was none.
    pub(super) fn random_move(
        &mut self,
        game: Handle,
        seat: Seat,
        first: Option<String>,
        rng: &mut GameRng,
    ) -> Result<bool, EngineError> {
        // The list is read only when it is needed: to pick, or after a refusal.
        let mut candidates: Option<Vec<String>> = None;
        let mut next = first;
        loop {
            let id = match next.take() {
                Some(id) => id,
                None => {
                    if candidates.is_none() {
                        candidates = Some(self.ids(game, seat)?);
                    }
                    match candidates.as_ref().and_then(|listed| rng.pick(listed)) {
                        Some(id) => id.clone(),
                        None => return Ok(false),
                    }
                }
            };
            match self.apply(game, seat, &id) {
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
                        let Some(seat) = stop.seat else {
                            return Ok(ended(moves, stop.outcome, stop.stuck));
                        };
                        if !self.random_move(game, seat, stop.action, &mut rng)? {
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
