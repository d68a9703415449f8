//! « Cochon », a small dice game used by the session tests, where no built-in game has a
//! die yet: on your turn you roll (a reveal), then bank your roll or roll again; a 1 loses
//! what you rolled this turn. First to `TARGET` wins. `V` selects a rules version: version 2
//! plays to a lower target, so old sessions diverge from it.

use serde::{Deserialize, Serialize};
use veillee_sdk::*;

/// The game, rules version `V`.
#[derive(Clone, Serialize, Deserialize)]
pub struct Dice<const V: u8> {
    scores: [u32; 2],
    turn_total: u32,
    turn: Seat,
    rolled: bool,
    rng: GameRng,
}

/// What a player may do.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum DiceMove {
    /// Roll the die.
    Roll,
    /// Keep this turn's total and pass the die.
    Bank,
}

impl<const V: u8> Dice<V> {
    fn target() -> u32 {
        if V == 2 {
            12
        } else {
            30
        }
    }
}

impl<const V: u8> Game for Dice<V> {
    type Move = DiceMove;

    fn manifest() -> Manifest {
        let seat = |fr: &str, en: &str| SeatInfo {
            name: text(fr, en),
            colour: Colour::rgb(120, 40, 40),
        };
        Manifest {
            id: "cochon".into(),
            name: text("Cochon", "Pig"),
            description: text("Un jeu de dé pour les tests.", "A dice game for tests."),
            version: format!("{V}.0.0"),
            min_players: 2,
            max_players: 2,
            seats: vec![seat("Premier", "First"), seat("Second", "Second")],
            options: vec![],
            hidden_information: false,
            operations: vec![],
            rules: None,
            play_time: None,
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        Ok(Dice {
            scores: [0; 2],
            turn_total: 0,
            turn: 0,
            rolled: false,
            rng: GameRng::new(setup.seed),
        })
    }

    fn status(&self) -> Status {
        match self.scores.iter().position(|&s| s >= Self::target()) {
            Some(winner) => Status::Finished {
                outcome: Outcome::win(winner as Seat, text("score atteint", "target reached")),
            },
            None => Status::to_act(self.turn),
        }
    }

    fn moves(&self, seat: Seat) -> Vec<DiceMove> {
        if seat != self.turn || !self.status().seats().contains(&seat) {
            return vec![];
        }
        if self.rolled {
            vec![DiceMove::Roll, DiceMove::Bank]
        } else {
            vec![DiceMove::Roll]
        }
    }

    fn describe(&self, _: Seat, mv: &DiceMove) -> Action {
        match mv {
            DiceMove::Roll => Action::button("roll", text("Lancer", "Roll")),
            DiceMove::Bank => Action::button("bank", text("Garder", "Bank")),
        }
    }

    fn play(&mut self, seat: Seat, mv: &DiceMove, log: &mut Log) {
        match mv {
            DiceMove::Roll => {
                let face = self.rng.below(6) as u32 + 1;
                log.record(|| {
                    Event::reveal(text(
                        format!("le dé montre {face}"),
                        format!("the die shows {face}"),
                    ))
                });
                if face == 1 {
                    self.turn_total = 0;
                    self.rolled = false;
                    self.turn = 1 - seat;
                } else {
                    self.turn_total += face;
                    self.rolled = true;
                }
            }
            DiceMove::Bank => {
                self.scores[seat as usize] += self.turn_total;
                self.turn_total = 0;
                self.rolled = false;
                self.turn = 1 - seat;
            }
        }
    }

    fn view(&self, _: Option<Seat>) -> Scene {
        Scene {
            message: Text::same(format!("{:?} (+{})", self.scores, self.turn_total)),
            ..Scene::default()
        }
    }
}
