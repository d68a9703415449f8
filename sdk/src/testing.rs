//! A ready-made test for game authors: random games that must follow the protocol.
//!
//! ```
//! # use veillee_sdk::testing::{random_games, RandomGames};
//! # fn check<G: veillee_sdk::Game + PartialEq + std::fmt::Debug>() {
//! // In the game crate's tests: 2 to 4 players, 50 seeds each.
//! random_games::<G>(&RandomGames::new(2..=4, 50), |game, played| {
//!     // The game's own invariants, checked before every move.
//!     let _ = (game, played);
//! });
//! # }
//! ```
//!
//! Every game is played with random legal actions, through [`GameTable`] (the same code the
//! plugin's exports run), and checked at every step: when the game is over nobody has an
//! action; otherwise every seat to act has one and the others none; ids are unique and every
//! action has a label in both languages. Every `deep_every` moves: the listed actions are
//! `Game::moves` in order with the ids of `Game::move_id`; the actor's scene can be drawn
//! ([`crate::Scene::problem`]) and every click path points at a piece, a cell or a card of
//! it; an unlisted action and a seat out of turn
//! are refused and change nothing; saving then loading gives the same game and bytes. At the
//! end, replaying the seed and the action ids gives the same game. The host's conformance kit
//! (`veillee check`) checks the same and more through the wasm build; this one runs natively,
//! in a game crate's own `cargo test`.

use std::fmt::Debug;
use std::ops::{Range, RangeInclusive};

use crate::{Game, GameRng, GameTable, Seat, Setup, Status, Target};

/// Which random games to play.
#[derive(Clone, Debug)]
pub struct RandomGames {
    /// Player counts.
    pub players: RangeInclusive<u8>,
    /// Seeds, for each player count (the seed of the set-up and of the random choices).
    pub seeds: Range<u64>,
    /// A game still going after this many actions fails the test.
    pub max_moves: usize,
    /// The scene, refusals and save/load are checked every this many actions.
    pub deep_every: usize,
    /// The set-up of a game from its player count and seed (default: [`Setup::new`]); set
    /// options here to cover them.
    pub setup: fn(u8, u64) -> Setup,
}

impl RandomGames {
    /// `seeds` games for each player count, checked in depth every 4 actions, failing
    /// after 100 000 actions.
    pub fn new(players: RangeInclusive<u8>, seeds: u64) -> RandomGames {
        RandomGames {
            players,
            seeds: 0..seeds,
            max_moves: 100_000,
            deep_every: 4,
            setup: Setup::new,
        }
    }
}

/// What [`random_games`] saw: games played and actions applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played to their end.
    pub games: u32,
    /// Actions applied in all.
    pub moves: u64,
}

/// Plays the random games of `config` and panics, naming the player count, seed and action,
/// at the first broken rule of the protocol. `invariant` sees the game before every action
/// with the actions played so far (seat, id): put the game's own checks there.
pub fn random_games<G: Game + PartialEq + Debug>(
    config: &RandomGames,
    mut invariant: impl FnMut(&G, &[(Seat, String)]),
) -> Tally {
    let mut tally = Tally::default();
    for players in config.players.clone() {
        for seed in config.seeds.clone() {
            tally.moves += one_game::<G>(config, players, seed, &mut invariant) as u64;
            tally.games += 1;
        }
    }
    tally
}

/// One random game; returns its length.
fn one_game<G: Game + PartialEq + Debug>(
    config: &RandomGames,
    players: u8,
    seed: u64,
    invariant: &mut impl FnMut(&G, &[(Seat, String)]),
) -> usize {
    let at = |played: &[(Seat, String)]| {
        format!(
            "{players} players, seed {seed}, after {} actions",
            played.len()
        )
    };
    let mut table = GameTable::<G>::default();
    let setup = (config.setup)(players, seed);
    let h = table.create(&setup).expect("the game is created");
    let mut rng = GameRng::new(seed);
    let mut played: Vec<(Seat, String)> = Vec::new();
    loop {
        invariant(table.get(h).expect("a live game"), &played);
        let seats = match table.status(h).expect("status") {
            Status::Finished { .. } => {
                for seat in 0..players {
                    let actions = table.legal_actions(h, seat).expect("legal actions");
                    assert!(actions.is_empty(), "{}: actions after the end", at(&played));
                }
                break;
            }
            Status::ToAct { seats } => seats,
        };
        assert!(!seats.is_empty(), "{}: nobody to act", at(&played));
        for seat in (0..players).filter(|s| !seats.contains(s)) {
            let actions = table.legal_actions(h, seat).expect("legal actions");
            assert!(
                actions.is_empty(),
                "{}: seat {seat} may act out of turn",
                at(&played)
            );
        }
        let seat = seats[rng.below(seats.len())];
        let actions = table.legal_actions(h, seat).expect("legal actions");
        assert!(
            !actions.is_empty(),
            "{}: seat {seat} to act without an action",
            at(&played)
        );
        let mut ids: Vec<&str> = actions.iter().map(|a| a.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(
            ids.len(),
            actions.len(),
            "{}: ids are not unique",
            at(&played)
        );
        for a in &actions {
            assert!(
                !a.label.fr.is_empty() && !a.label.en.is_empty(),
                "{}: {} has no label",
                at(&played),
                a.id
            );
        }
        if played.len().is_multiple_of(config.deep_every.max(1)) {
            // The listed actions are the game's moves, in order, with their ids.
            let game = table.get(h).expect("a live game");
            let ids: Vec<String> = game
                .moves(seat)
                .iter()
                .map(|mv| game.move_id(seat, mv))
                .collect();
            let listed: Vec<&String> = actions.iter().map(|a| &a.id).collect();
            assert_eq!(
                ids.iter().collect::<Vec<_>>(),
                listed,
                "{}: move ids",
                at(&played)
            );
            check_in_depth(&mut table, h, seat, players, &actions, &at(&played));
        }
        let index = rng.below(actions.len());
        table
            .apply_index(h, seat, index as u32)
            .unwrap_or_else(|e| panic!("{}: {} refused: {e}", at(&played), actions[index].id));
        played.push((seat, actions[index].id.clone()));
        assert!(
            played.len() <= config.max_moves,
            "{}: the game does not end",
            at(&played)
        );
    }
    let replay = table.create(&setup).expect("the game is created again");
    for (seat, id) in &played {
        table
            .apply(replay, *seat, id)
            .unwrap_or_else(|e| panic!("{players} players, seed {seed}: replaying {id}: {e}"));
    }
    assert_eq!(
        table.get(replay).expect("the replay"),
        table.get(h).expect("the game"),
        "{players} players, seed {seed}: the replay by ids differs"
    );
    played.len()
}

/// Click paths point into the actor's scene; refusals change nothing; save/load round-trips.
fn check_in_depth<G: Game + PartialEq + Debug>(
    table: &mut GameTable<G>,
    h: crate::Handle,
    seat: Seat,
    players: u8,
    actions: &[crate::Action],
    at: &str,
) {
    let scene = table.view(h, Some(seat)).expect("the actor's view");
    if let Some(problem) = scene.problem() {
        panic!("{at}: the actor's scene cannot be drawn: {problem}");
    }
    for a in actions {
        for target in &a.path {
            let found = match target {
                Target::Piece { id } => scene
                    .boards
                    .iter()
                    .any(|b| b.pieces.iter().any(|p| &p.id == id)),
                Target::Cell { board, col, row } => scene.boards.iter().any(|b| {
                    &b.id == board && b.cell(*col, *row).is_some_and(|c| c.kind != "void")
                }),
                Target::Card { id } => scene
                    .zones
                    .iter()
                    .any(|z| z.cards.iter().any(|c| &c.id == id)),
            };
            assert!(
                found,
                "{at}: {} points at {target:?}, not in the scene",
                a.id
            );
        }
    }
    let before = table.save(h).expect("save");
    assert!(
        table.apply(h, seat, "not-an-action").is_err(),
        "{at}: an unlisted action is accepted"
    );
    if players > 1 {
        let other = (seat + 1) % players;
        let listed = table.legal_actions(h, other).expect("legal actions");
        if listed.is_empty() {
            assert!(
                table.apply(h, other, &actions[0].id).is_err(),
                "{at}: seat {other} plays out of turn"
            );
        }
    }
    assert_eq!(
        table.save(h).expect("save"),
        before,
        "{at}: a refusal changed the game"
    );
    let copy = table.load(&before).expect("load what was saved");
    assert_eq!(
        table.get(copy).expect("the copy"),
        table.get(h).expect("the game"),
        "{at}: save then load gives another game"
    );
    assert_eq!(
        table.save(copy).expect("save"),
        before,
        "{at}: saved bytes differ"
    );
    table.drop_game(copy);
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::{
        Action, Board, Cell, Colour, Event, Log, Manifest, Outcome, Scene, SeatInfo, Text,
    };

    /// Nim (take 1–3 stones, the last one wins), with one bug switched on at will.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Nim {
        stones: u32,
        turn: Seat,
        winner: Option<Seat>,
        #[serde(skip)]
        bug: Bug,
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    enum Bug {
        #[default]
        None,
        SameIds,
        ClickOutsideTheScene,
    }

    thread_local! {
        static BUG: std::cell::Cell<Bug> = const { std::cell::Cell::new(Bug::None) };
    }

    fn text(s: &str) -> Text {
        Text::same(s)
    }

    impl Game for Nim {
        type Move = u32;

        fn manifest() -> Manifest {
            Manifest {
                id: "nim".into(),
                name: text("Nim"),
                description: text("Nim"),
                version: "1.0.0".into(),
                min_players: 2,
                max_players: 2,
                seats: (0..2)
                    .map(|_| SeatInfo {
                        name: text("P"),
                        colour: Colour::rgb(1, 2, 3),
                    })
                    .collect(),
                options: vec![],
                hidden_information: false,
                operations: vec![],
                rules: None,
            }
        }

        fn new(_setup: &Setup) -> Result<Self, crate::GameError> {
            Ok(Nim {
                stones: 15,
                turn: 0,
                winner: None,
                bug: BUG.with(|b| b.get()),
            })
        }

        fn status(&self) -> Status {
            match self.winner {
                Some(w) => Status::Finished {
                    outcome: Outcome::win(w, text("last stone")),
                },
                None => Status::to_act(self.turn),
            }
        }

        fn moves(&self, seat: Seat) -> Vec<u32> {
            if self.winner.is_some() || seat != self.turn {
                return vec![];
            }
            (1..=self.stones.min(3)).collect()
        }

        fn describe(&self, _seat: Seat, take: &u32) -> Action {
            let id = match self.bug {
                Bug::SameIds => "take".to_string(),
                _ => format!("take-{take}"),
            };
            let col = match self.bug {
                Bug::ClickOutsideTheScene => 99,
                _ => 0,
            };
            Action {
                id,
                path: vec![Target::cell("pile", col, 0)],
                label: text("take"),
            }
        }

        fn play(&mut self, seat: Seat, take: &u32, log: &mut Log) {
            self.stones -= take;
            log.record(|| Event::new(text("took")));
            if self.stones == 0 {
                self.winner = Some(seat);
            }
            self.turn = 1 - seat;
        }

        fn view(&self, _viewer: Option<Seat>) -> Scene {
            let cell = Cell {
                kind: "table".into(),
                colour: Colour::rgb(9, 9, 9),
                label: String::new(),
            };
            Scene {
                boards: vec![Board::filled("pile", 3, 1, cell)],
                ..Scene::default()
            }
        }
    }

    fn with_bug(bug: Bug) -> Tally {
        BUG.with(|b| b.set(bug));
        random_games::<Nim>(&RandomGames::new(2..=2, 20), |_, _| {})
    }

    #[test]
    fn a_sound_game_passes() {
        let tally = with_bug(Bug::None);
        assert_eq!(tally.games, 20);
        assert!(tally.moves >= 20 * 5);
    }

    #[test]
    #[should_panic(expected = "ids are not unique")]
    fn duplicate_ids_are_caught() {
        with_bug(Bug::SameIds);
    }

    #[test]
    #[should_panic(expected = "not in the scene")]
    fn a_click_outside_the_scene_is_caught() {
        with_bug(Bug::ClickOutsideTheScene);
    }
}
