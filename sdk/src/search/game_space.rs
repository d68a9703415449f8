//! The in-guest back end: a search over a [`Game`] value, in the plugin itself (or natively).

use std::convert::Infallible;

use super::{MoveKey, Played, SearchSpace};
use crate::playout::random_playout_in;
use crate::{Game, GameRng, Log, PlayoutWatch, Seat, Status};

/// The [`SearchSpace`] of any [`Game`]: states are game values, moves the game's own compact
/// moves, keys [`Game::move_key`]. Re-drawing is [`Game::redraw_hidden`] for the bot's seat,
/// values are [`Game::evaluate`], after playouts of [`Game::bot_playout_moves`]. Moves are the legal ones a bot may choose
/// ([`Game::bot_may_choose`]). The space keeps its buffers (legal moves, seats) from one
/// iteration to the next: listing, playing out and asking who acts allocate nothing.
pub struct GameSpace<G: Game> {
    legal: Vec<G::Move>,
    seats: Vec<Seat>,
}

impl<G: Game> Default for GameSpace<G> {
    fn default() -> Self {
        GameSpace {
            legal: Vec::new(),
            seats: Vec::new(),
        }
    }
}

impl<G: Game> SearchSpace for GameSpace<G> {
    type State = G;
    type Move = G::Move;
    type Error = Infallible;

    fn redraw(&mut self, state: &G, observer: Seat, seed: u64) -> Result<G, Infallible> {
        let mut copy = state.clone();
        copy.redraw_hidden(Some(observer), &mut GameRng::new(seed));
        Ok(copy)
    }

    /// The kept world overwritten in place ([`Clone::clone_from`]: a game whose `Clone`
    /// forwards `clone_from` to its fields, see [`crate::clone_by_fields`], reuses their
    /// memory), then re-drawn exactly as [`SearchSpace::redraw`] would.
    fn redraw_into(
        &mut self,
        state: &G,
        observer: Seat,
        seed: u64,
        into: &mut G,
    ) -> Result<(), Infallible> {
        into.clone_from(state);
        into.redraw_hidden(Some(observer), &mut GameRng::new(seed));
        Ok(())
    }

    fn release(&mut self, state: G) {
        drop(state);
    }

    fn status(&mut self, state: &G) -> Result<Status, Infallible> {
        Ok(state.status())
    }

    fn moves(
        &mut self,
        state: &G,
        seat: Seat,
        out: &mut Vec<(MoveKey, G::Move)>,
    ) -> Result<(), Infallible> {
        state.moves_into(seat, &mut self.legal);
        // What a bot may not choose is left out, unless that would leave nothing.
        if self.legal.iter().any(|mv| !state.bot_may_choose(seat, mv))
            && self.legal.iter().any(|mv| state.bot_may_choose(seat, mv))
        {
            self.legal.retain(|mv| state.bot_may_choose(seat, mv));
        }
        out.clear();
        out.extend(
            self.legal
                .drain(..)
                .map(|mv| (state.move_key(seat, &mv), mv)),
        );
        Ok(())
    }

    fn seats(&mut self, state: &G, out: &mut Vec<Seat>) -> Result<bool, Infallible> {
        Ok(state.seats_to_act(out))
    }

    fn play(&mut self, state: &mut G, seat: Seat, mv: &G::Move) -> Result<Played, Infallible> {
        state.play(seat, mv, &mut Log::off());
        Ok(Played::Done)
    }

    /// At most [`Game::bot_playout_moves`] of `max_moves` (the host's number) random moves.
    fn playout(&mut self, state: &mut G, seed: u64, max_moves: u32) -> Result<(), Infallible> {
        let max_moves = state.bot_playout_moves(max_moves);
        if max_moves == 0 {
            return Ok(());
        }
        random_playout_in(
            state,
            seed,
            max_moves,
            &PlayoutWatch::default(),
            &mut self.seats,
            &mut self.legal,
        );
        Ok(())
    }

    fn evaluate(&mut self, state: &G, values: &mut [f32]) -> Result<(), Infallible> {
        for (seat, value) in values.iter_mut().enumerate() {
            let v = state.evaluate(seat as Seat);
            *value = if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) };
        }
        Ok(())
    }

    fn action_id(&mut self, state: &G, seat: Seat, mv: &G::Move) -> Result<String, Infallible> {
        Ok(state.move_id(seat, mv))
    }
}
