//! The `Game` implementation: the protocol's entry points over the rules of the other
//! modules.

use veillee_sdk::search::{hash_move, MoveKey};
use veillee_sdk::{
    Action, Event, Game, GameError, Log, Manifest, Scene, Seat, Setup, Status, Target,
};

use crate::board::{self, PIECES};
use crate::{ops, scene, ChateauNoir, Ending, Move, Phase};

impl Game for ChateauNoir {
    type Move = Move;

    fn manifest() -> Manifest {
        scene::manifest()
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        let players = setup.players;
        if !(2..=4).contains(&players) {
            return Err(GameError::InvalidSetup(format!(
                "Château Noir plays with 2–4 players, not {players}"
            )));
        }
        // 2 and 3 players always play in teams; 4 players choose.
        let teams = players < 4 || setup.choice("mode") != Some("individual");
        let mut game = ChateauNoir::blank(players, teams, setup.seed);
        game.new_round(&mut Log::off());
        Ok(game)
    }

    fn status(&self) -> Status {
        if let Some(outcome) = self.outcome() {
            return Status::Finished { outcome };
        }
        match self.phase {
            Phase::RoundOver { asking } | Phase::DrawOffer { asking } => Status::to_act(asking),
            _ => Status::to_act(self.controller(self.active)),
        }
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        crate::eval::evaluate(self, seat)
    }

    fn seats_to_act(&self, out: &mut Vec<Seat>) -> bool {
        out.clear();
        if self.ending.is_some() {
            return false;
        }
        out.push(match self.phase {
            Phase::RoundOver { asking } | Phase::DrawOffer { asking } => asking,
            _ => self.controller(self.active),
        });
        true
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::with_capacity(48);
        self.moves_into(seat, &mut moves);
        moves
    }

    fn moves_into(&self, seat: Seat, moves: &mut Vec<Move>) {
        moves.clear();
        if self.ending.is_some() {
            return;
        }
        if let Phase::RoundOver { asking } = self.phase {
            if seat == asking {
                moves.extend([Move::NewRound, Move::EndMatch]);
            }
            return;
        }
        if let Phase::DrawOffer { asking } = self.phase {
            if seat == asking {
                moves.extend([Move::AcceptDraw, Move::PlayOn]);
            }
            return;
        }
        if seat != self.controller(self.active) {
            return;
        }
        match self.phase {
            Phase::Coups => {
                self.each_coup(&mut |from, to| {
                    moves.push(Move::Coup { from, to });
                    false
                });
                moves.push(Move::EndCoups);
                if self.coups == 0 {
                    if self.may_declare_alliance() {
                        moves.push(Move::Alliance);
                    }
                    if !self.voted {
                        moves.push(Move::AgreeDraw);
                    }
                }
            }
            Phase::RoundOver { .. } | Phase::DrawOffer { .. } => {}
            Phase::Captures => {
                moves.extend(
                    (0..PIECES)
                        .filter(|&p| self.capturable & (1 << p) != 0)
                        .map(|p| Move::Take(self.pos[p])),
                );
                moves.sort_unstable_by_key(|m| match m {
                    Move::Take(s) => *s,
                    _ => 0,
                });
                moves.push(Move::EndTurn);
            }
        }
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        let path = match *mv {
            Move::Coup { from, to } => vec![
                Target::piece(board::piece_id(self.board[from as usize].wrapping_sub(1))),
                scene::cell_target(to),
            ],
            Move::Take(s) => vec![Target::piece(board::piece_id(
                self.board[s as usize].wrapping_sub(1),
            ))],
            _ => Vec::new(),
        };
        Action::new(self.move_id(seat, mv), self.label(mv), path)
    }

    /// The id is built from the move value alone, one id per value: the search keys its tree
    /// by the value's hash instead of building the id.
    fn move_key(&self, _seat: Seat, mv: &Move) -> MoveKey {
        hash_move(mv)
    }

    fn move_id(&self, _seat: Seat, mv: &Move) -> String {
        let mut id = String::with_capacity(9);
        match *mv {
            Move::Coup { from, to } => {
                board::push_name(&mut id, from);
                id.push('-');
                board::push_name(&mut id, to);
            }
            Move::Take(s) => {
                id.push_str("take-");
                board::push_name(&mut id, s);
            }
            Move::EndCoups => id.push_str("end-coups"),
            Move::EndTurn => id.push_str("end-turn"),
            Move::Alliance => id.push_str("alliance"),
            Move::AgreeDraw => id.push_str("draw"),
            Move::NewRound => id.push_str("new-round"),
            Move::EndMatch => id.push_str("end-match"),
            Move::AcceptDraw => id.push_str("accept-draw"),
            Move::PlayOn => id.push_str("play-on"),
        }
        id
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        if self.ending.is_some() {
            return;
        }
        log.record(|| Event::new(self.label(mv)));
        match *mv {
            Move::Coup { from, to } => self.play_coup(from, to, log),
            Move::EndCoups => self.finish_coups(log),
            Move::Take(s) => {
                let p = self.board[s as usize] - 1;
                self.capturable &= !(1 << p);
                self.remove_piece(p, self.active, log);
                if self.ending.is_none() {
                    if self.round_over() {
                        self.end_round(log);
                    } else if self.capturable == 0 {
                        self.end_turn(log);
                    }
                }
            }
            Move::EndTurn => self.end_turn(log),
            Move::Alliance => {
                // CN-A1/CN-A2: the turn is handed to the partner, for good.
                self.declared |= 1 << self.active;
                self.end_turn(log);
            }
            // X.2: one opponent's demand is enough for a new round; when the last one asked
            // declines, the match ends on the points.
            Move::NewRound => self.new_round(log),
            Move::EndMatch => match self.next_asked(Some(seat)) {
                Some(asking) => self.phase = Phase::RoundOver { asking },
                None => self.ending = Some(Ending::OnPoints),
            },
            // The safety net: a draw only if every player accepts.
            Move::AcceptDraw => self.answer_draw(seat, true, log),
            Move::PlayOn => self.answer_draw(seat, false, log),
            Move::AgreeDraw => {
                // CN-E3: every player must agree; the agreement does not use the turn.
                self.voted = true;
                self.draw_votes |= 1 << seat;
                if self.draw_votes == (1 << self.players) - 1 {
                    self.ending = Some(Ending::Agreed);
                }
            }
        }
        if let Some(outcome) = self.ending.and_then(|_| self.outcome()) {
            log.record(|| Event::new(outcome.reason));
        }
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        scene::view(self, viewer)
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
