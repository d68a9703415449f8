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
//! end, replaying the seed and the action ids gives the same game.
//!
//! For a game with hidden information, the kit's leak checks run too, at every one of a
//! game's first 200 moves and then every `deep_every` moves, for every seat and a spectator:
//! re-drawing what the viewer cannot see ([`Game::redraw_hidden`]) must not change the
//! viewer's scene, its legal actions, nor what it reads of the move played next — its label,
//! and, when the viewer sees the same scene after it in both games and nothing was revealed,
//! its events that are not reveals; two moves of the actor that leave the viewer the same
//! scene must read the same to that viewer; and over the whole run, the re-draws must change
//! the game at least once (a `redraw_hidden` left at its do-nothing default proves nothing).
//! The host's conformance kit (`veillee check`) checks the same and more through the wasm
//! build; this one runs natively, in a game crate's own `cargo test`.

use crate::leaks::{actions_read, read_by};
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
    let mut redraws = (0u64, 0u64);
    for players in config.players.clone() {
        for seed in config.seeds.clone() {
            tally.moves +=
                one_game::<G>(config, players, seed, &mut invariant, &mut redraws) as u64;
            tally.games += 1;
        }
    }
    let (made, changed) = redraws;
    assert!(
        made == 0 || changed > 0,
        "the game declares hidden information, but its redraw_hidden never changed anything \
         ({made} re-draws in {} games): write `Game::redraw_hidden` so that it re-deals at \
         random everything the viewer cannot see, or set `hidden_information: false`",
        tally.games
    );
    tally
}

/// One random game; returns its length.
fn one_game<G: Game + PartialEq + Debug>(
    config: &RandomGames,
    players: u8,
    seed: u64,
    invariant: &mut impl FnMut(&G, &[(Seat, String)]),
    redraws: &mut (u64, u64),
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
        let status = table.status(h).expect("status");
        // The playouts' shortcut agrees with the status.
        let mut to_act = vec![Seat::MAX];
        let acting = table.get(h).expect("a live game").seats_to_act(&mut to_act);
        assert_eq!(
            (acting, to_act.as_slice()),
            (status.outcome().is_none(), status.seats()),
            "{}: seats_to_act disagrees with status",
            at(&played)
        );
        let seats = match status {
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
            // The playouts' buffer gets the same moves, whatever it held before.
            let mut buffer = game.moves((seat + 1) % players);
            game.moves_into(seat, &mut buffer);
            let buffered: Vec<String> = buffer.iter().map(|mv| game.move_id(seat, mv)).collect();
            assert_eq!(
                buffered,
                ids,
                "{}: moves_into differs from moves",
                at(&played)
            );
            // The search's keys tell the moves apart exactly as their ids do.
            let keys: Vec<u64> = buffer.iter().map(|mv| game.move_key(seat, mv)).collect();
            for (i, (a, ka)) in ids.iter().zip(&keys).enumerate() {
                for (b, kb) in ids.iter().zip(&keys).skip(i + 1) {
                    assert_eq!(a == b, ka == kb, "{}: move_key of {a} and {b}", at(&played));
                }
            }
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
        // Every move of a game's first 200 (a secret may live one move only), then as deep.
        if G::manifest().hidden_information
            && (played.len() < 200 || played.len().is_multiple_of(config.deep_every.max(1)))
        {
            let secrets = Secrets {
                players,
                seed: seed.wrapping_mul(31).wrapping_add(played.len() as u64),
                at: &at(&played),
            };
            secrets.check(&mut table, h, seat, &actions[index], redraws);
            secrets.secret_moves(&mut table, h, seat, &actions);
        }
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

/// The leak checks at one step of a game with hidden information.
struct Secrets<'a> {
    players: u8,
    seed: u64,
    at: &'a str,
}

impl Secrets<'_> {
    /// For every viewer: a copy re-drawn for it shows it the same scene and legal actions,
    /// and the move about to be played reads the same there. `redraws` counts (made, changed).
    fn check<G: Game>(
        &self,
        table: &mut GameTable<G>,
        h: crate::Handle,
        seat: Seat,
        action: &crate::Action,
        redraws: &mut (u64, u64),
    ) {
        let at = self.at;
        let saved = table.save(h).expect("save");
        let played = table.clone_game(h).expect("a copy");
        let events = table
            .apply(played, seat, &action.id)
            .expect("a listed action applies");
        let viewers = std::iter::once(None).chain((0..self.players).map(Some));
        for viewer in viewers {
            let who = viewer_name::<G>(viewer);
            let copy = table.redraw_hidden(h, viewer, self.seed).expect("re-draw");
            redraws.0 += 1;
            if table.save(copy).expect("save") != saved {
                redraws.1 += 1;
            }
            assert!(
                table.view(copy, viewer).expect("view") == table.view(h, viewer).expect("view"),
                "{at}: leak: re-drawing what {who} cannot see changed what {who} sees (the view)"
            );
            // What a seat reads of its own options; their public labels are what the
            // others read, checked below for each of them.
            if let Some(s) = viewer {
                assert!(
                    actions_read(&table.legal_actions(copy, s).expect("actions"), s)
                        == actions_read(&table.legal_actions(h, s).expect("actions"), s),
                    "{at}: leak: re-drawing what {who} cannot see changed the legal actions {who} reads"
                );
            }
            let listed = table.legal_actions(copy, seat).expect("actions");
            if let Some(there) = listed.iter().find(|a| a.id == action.id) {
                let actor = viewer_name::<G>(Some(seat));
                assert!(
                    there.label_for(seat, viewer) == action.label_for(seat, viewer),
                    "{at}: leak: the label of {actor}'s action `{}` as {who} reads it depends on \
                     what {who} cannot see: {:?} / {:?}",
                    action.id,
                    action.label_for(seat, viewer),
                    there.label_for(seat, viewer)
                );
                let theirs = table
                    .apply(copy, seat, &action.id)
                    .expect("a listed action");
                // A move may tell what it brings into view (a hand's card laid on the table):
                // its events are held to the re-drawn game's only where the viewer sees the
                // same scene after it on both, and nothing was drawn or revealed on the way.
                let revealed = events.iter().chain(&theirs).any(|e| e.reveal);
                let same_scene = table.view(copy, viewer).expect("view")
                    == table.view(played, viewer).expect("view");
                assert!(
                    revealed
                        || !same_scene
                        || read_by(&events, seat, viewer) == read_by(&theirs, seat, viewer),
                    "{at}: leak: the events of {actor}'s action `{}` as {who} reads them depend \
                     on what {who} cannot see: {:?} / {:?} (mark a reveal with `Event::reveal`, \
                     a secret with `Event::with_private`)",
                    action.id,
                    read_by(&events, seat, viewer),
                    read_by(&theirs, seat, viewer)
                );
            }
            table.drop_game(copy);
        }
        table.drop_game(played);
    }
}

impl Secrets<'_> {
    /// Two moves of `seat` that leave a viewer the same scene must read the same to that
    /// viewer (label, events that are not reveals): else the text tells what the scene hides.
    /// Two moves that give the very same game hide nothing, and may read apart.
    fn secret_moves<G: Game>(
        &self,
        table: &mut GameTable<G>,
        h: crate::Handle,
        seat: Seat,
        actions: &[crate::Action],
    ) {
        type Read = (crate::Scene, crate::Text, Vec<crate::Text>);
        let viewers: Vec<Option<Seat>> = std::iter::once(None)
            .chain((0..self.players).filter(|&s| s != seat).map(Some))
            .collect();
        // Per move: the game after it, and what each viewer sees and reads of it.
        let outcomes: Vec<(Vec<u8>, Vec<Read>)> = actions
            .iter()
            .take(8)
            .map(|action| {
                let copy = table.clone_game(h).expect("a copy");
                let events = table
                    .apply(copy, seat, &action.id)
                    .expect("a listed action");
                let read = viewers
                    .iter()
                    .map(|&v| {
                        (
                            table.view(copy, v).expect("view"),
                            action.label_for(seat, v).clone(),
                            read_by(&events, seat, v),
                        )
                    })
                    .collect();
                let after = table.save(copy).expect("save");
                table.drop_game(copy);
                (after, read)
            })
            .collect();
        for (i, (after_a, a)) in outcomes.iter().enumerate() {
            for (j, (after_b, b)) in outcomes.iter().enumerate().skip(i + 1) {
                for (k, &viewer) in viewers.iter().enumerate() {
                    let hidden = a[k].0 == b[k].0 && after_a != after_b;
                    let same_text = a[k].1 == b[k].1 && a[k].2 == b[k].2;
                    assert!(
                        !hidden || same_text,
                        "{}: leak: {who} cannot see which move {actor} made (`{}` or `{}`), but \
                         reads it in the move's text: {:?} / {:?} (give the secret to its seat: \
                         `Action::with_private`, `Event::with_private`)",
                        self.at,
                        actions[i].id,
                        actions[j].id,
                        (&a[k].1, &a[k].2),
                        (&b[k].1, &b[k].2),
                        who = viewer_name::<G>(viewer),
                        actor = viewer_name::<G>(Some(seat)),
                    );
                }
            }
        }
    }
}

/// `the spectator`, or `seat 1, Red`.
fn viewer_name<G: Game>(viewer: Option<Seat>) -> String {
    crate::leaks::viewer_name(&G::manifest(), viewer)
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
                play_time: None,
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
            Action::new(id, text("take"), vec![Target::cell("pile", col, 0)])
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
