//! The in-guest back end: a search over a [`Game`] value, in the plugin itself (or natively).

use std::convert::Infallible;
use std::marker::PhantomData;

use super::{move_key, MoveKey, Played, SearchSpace};
use crate::{random_playout, Game, GameRng, Log, Seat, Status};

/// The [`SearchSpace`] of any [`Game`]: states are game values, moves the game's own compact
/// moves, keys the hashes of their ids. Re-drawing is [`Game::redraw_hidden`] for the bot's
/// seat, values are [`Game::evaluate`].
pub struct GameSpace<G: Game> {
    game: PhantomData<fn() -> G>,
}

impl<G: Game> Default for GameSpace<G> {
    fn default() -> Self {
        GameSpace { game: PhantomData }
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
        out.clear();
        out.extend(
            state
                .moves(seat)
                .into_iter()
                .map(|mv| (move_key(&state.move_id(seat, &mv)), mv)),
        );
        Ok(())
    }

    fn play(&mut self, state: &mut G, seat: Seat, mv: &G::Move) -> Result<Played, Infallible> {
        state.play(seat, mv, &mut Log::off());
        Ok(Played::Done)
    }

    fn playout(&mut self, state: &mut G, seed: u64, max_moves: u32) -> Result<(), Infallible> {
        random_playout(state, seed, max_moves);
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
