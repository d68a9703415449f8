//! The SDK's [`Game`] interface, each part delegated to the module that owns it.

use veillee_sdk::search::{hash_move, MoveKey};
use veillee_sdk::{
    Action, Game, GameError, GameRng, Log, Manifest, Scene, Seat, Setup, Status, Target,
};

use crate::{cards, ops, scene, Castel, Move};

impl Game for Castel {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        Ok(Castel::deal(setup.players, setup.seed))
    }

    fn status(&self) -> Status {
        match self.outcome() {
            Some(outcome) => Status::Finished { outcome },
            None if self.draw_offer.is_some() => Status::ToAct {
                seats: self.draw_offered_to(),
            },
            None => Status::to_act(self.turn),
        }
    }

    fn seats_to_act(&self, out: &mut Vec<Seat>) -> bool {
        out.clear();
        if self.ending.is_some() {
            return false;
        }
        if self.draw_offer.is_some() {
            out.extend((0..self.players).filter(|&s| self.draw_offered(s)));
        } else {
            out.push(self.turn);
        }
        true
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(seat, &mut moves);
        moves
    }

    fn moves_into(&self, seat: Seat, out: &mut Vec<Move>) {
        self.legal_moves_into(seat, out);
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let path = match *mv {
            Move::Draw | Move::Pass | Move::AcceptDraw | Move::PlayOn => Vec::new(),
            Move::Exchange { hand, exchange } => vec![
                Target::Card {
                    id: cards::card_id(hand),
                },
                Target::Card {
                    id: cards::card_id(exchange),
                },
            ],
            Move::Place { card, spot } => vec![
                Target::Card {
                    id: cards::card_id(card),
                },
                scene::spot_target(self, spot),
            ],
        };
        Action::new(self.move_id(seat, mv), self.label(mv), path)
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        crate::eval::evaluate(self, seat)
    }

    /// The id is built from the move value alone, one id per value: the search keys its tree
    /// by the value's hash instead of building the id.
    fn move_key(&self, _seat: Seat, mv: &Move) -> MoveKey {
        hash_move(mv)
    }

    fn move_id(&self, _seat: Seat, mv: &Move) -> String {
        Self::move_id_of(mv)
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        self.play_move(seat, mv, log);
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        scene::view(self, viewer)
    }

    fn redraw_hidden(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        self.redraw_unseen(viewer, rng);
    }

    fn query(&self, name: &str, args: &serde_json::Value) -> Result<serde_json::Value, GameError> {
        ops::query(self, name, args)
    }

    fn command(
        &mut self,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, GameError> {
        ops::command(self, name, args)
    }
}
