//! The conformance kit must catch broken games: each test here feeds it a small game with one
//! deliberate bug and checks that the report names the problem.

use serde::{Deserialize, Serialize};
use veillee_runtime::conformance::{check, check_reporting, CheckConfig, Progress};
use veillee_runtime::engine::{GameEngine, NativeEngine};
use veillee_sdk::*;

/// Hidden-card Nim: take 1–3 stones; each seat also holds a secret card.
/// `BUG` selects one defect: 0 none, 1 stuck seat, 2 leaking view, 3 different history, 4 a
/// re-draw that keeps a trace of the secret it replaces (a bot's search could read it).
#[derive(Clone, Serialize, Deserialize)]
struct Nim<const BUG: u8> {
    stones: u32,
    turn: Seat,
    secrets: Vec<u32>,
}

impl<const BUG: u8> Game for Nim<BUG> {
    type Move = u32;

    fn manifest() -> Manifest {
        let seat = SeatInfo {
            name: text("Joueur", "Player"),
            colour: Colour::rgb(9, 9, 9),
        };
        Manifest {
            id: "nim".into(),
            name: text("Nim", "Nim"),
            description: text("", ""),
            version: "1.0.0".into(),
            min_players: 2,
            max_players: 2,
            seats: vec![seat.clone(), seat],
            options: vec![],
            hidden_information: true,
            operations: vec![],
            rules: None,
            play_time: None,
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        let mut rng = GameRng::new(setup.seed);
        let secrets = vec![rng.below(100) as u32, rng.below(100) as u32];
        Ok(Nim {
            stones: 12,
            turn: 0,
            secrets,
        })
    }

    fn status(&self) -> Status {
        if self.stones == 0 {
            Status::Finished {
                outcome: Outcome::win(1 - self.turn, text("", "")),
            }
        } else {
            Status::to_act(self.turn)
        }
    }

    fn moves(&self, seat: Seat) -> Vec<u32> {
        // BUG 1: from 4 to 6 stones the seat to act has no move. Every game passes there.
        if seat != self.turn || self.stones == 0 || (BUG == 1 && (4..=6).contains(&self.stones)) {
            return vec![];
        }
        (1..=self.stones.min(3)).collect()
    }

    fn describe(&self, _: Seat, take: &u32) -> Action {
        Action::button(format!("take-{take}"), text("", ""))
    }

    fn play(&mut self, _: Seat, take: &u32, _: &mut Log) {
        // BUG 3: this build takes one stone fewer on a 3-take.
        self.stones -= if BUG == 3 && *take == 3 { 2 } else { *take };
        self.turn = 1 - self.turn;
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        // BUG 2: every secret is shown to everyone.
        let shown: Vec<String> = (0..2)
            .filter(|&s| BUG == 2 || Some(s as Seat) == viewer)
            .map(|s| self.secrets[s].to_string())
            .collect();
        Scene {
            message: Text::same(format!("{} stones, secrets {shown:?}", self.stones)),
            ..Scene::default()
        }
    }

    fn redraw_hidden(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        for seat in 0..2 {
            if Some(seat as Seat) != viewer {
                let drawn = rng.below(100) as u32;
                // BUG 4: the new secret is drawn relative to the old one.
                self.secrets[seat] = match BUG {
                    4 => (self.secrets[seat] + drawn) % 100,
                    _ => drawn,
                };
            }
        }
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        // Holding the higher secret is worth something (and the search reads the secrets of
        // the worlds it samples).
        let (mine, theirs) = (self.secrets[seat as usize], self.secrets[1 - seat as usize]);
        if mine > theirs {
            0.6
        } else {
            0.4
        }
    }
}

fn config() -> CheckConfig {
    CheckConfig {
        games: 3,
        ..CheckConfig::default()
    }
}

fn failures_of(engine: &mut dyn GameEngine, reference: Option<&mut dyn GameEngine>) -> String {
    check(engine, reference, &config()).failures.join("\n")
}

#[test]
fn a_correct_game_passes() {
    let report = check(&mut NativeEngine::<Nim<0>>::default(), None, &config());
    assert!(report.passed(), "{}", report.failures.join("\n"));
    assert!(report.moves > 0);
}

#[test]
fn the_kit_tells_each_game_as_it_starts_and_checks_the_same() {
    let mut told = Vec::new();
    let report = check_reporting(
        &mut NativeEngine::<Nim<0>>::default(),
        None,
        &config(),
        &mut |at| told.push(at),
    );
    let at = |game, started| Progress {
        players: 2,
        game,
        games: 3,
        started,
        total: 3,
    };
    assert_eq!(told, [at(1, 1), at(2, 2), at(3, 3)]);
    let quiet = check(&mut NativeEngine::<Nim<0>>::default(), None, &config());
    assert_eq!((report.games, report.moves), (quiet.games, quiet.moves));
}

#[test]
fn a_seat_to_act_without_moves_is_reported() {
    let failures = failures_of(&mut NativeEngine::<Nim<1>>::default(), None);
    assert!(
        failures.contains("is to act but has no legal action"),
        "{failures}"
    );
}

#[test]
fn a_view_that_shows_another_seats_secret_is_a_leak() {
    let failures = failures_of(&mut NativeEngine::<Nim<2>>::default(), None);
    assert!(failures.contains("leak: re-drawing what"), "{failures}");
    // The report says what changed: the message, which shows the other seat's secret.
    assert!(
        failures.contains("first difference: .message.en: \"12 stones, secrets"),
        "{failures}"
    );
}

#[test]
fn builds_that_disagree_are_reported_move_by_move() {
    let mut reference = NativeEngine::<Nim<0>>::default();
    let failures = failures_of(&mut NativeEngine::<Nim<3>>::default(), Some(&mut reference));
    assert!(
        failures.contains("native and wasm builds disagree"),
        "{failures}"
    );
}

#[test]
fn a_redraw_that_depends_on_the_secret_it_replaces_is_a_leak_for_bots() {
    let failures = failures_of(&mut NativeEngine::<Nim<4>>::default(), None);
    assert!(
        failures.contains("depends on the hidden state it replaces"),
        "{failures}"
    );
}
