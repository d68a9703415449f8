//! Games that leak a secret, each in one way, and the tools that must refuse them: the
//! conformance kit (`veillee check`), the install self-check (`veillee install`) and the
//! authors' native test helper (`veillee_sdk::testing`). Each refusal names the seat that
//! could read what it should not, and what it read.
//!
//! « Le renard et les poules »: the fox (seat 0) hides in one of four burrows, secretly;
//! the hens (seat 1) guess where; the burrow is then revealed. Three rounds.

use serde::{Deserialize, Serialize};
use veillee_runtime::catalog::self_check;
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::NativeEngine;
use veillee_sdk::testing::{random_games, RandomGames};
use veillee_sdk::*;

const SOUND: u8 = 0;
/// The fox's move is labelled "Burrow on c1" for everyone.
const LABEL: u8 = 1;
/// The fox's move logs a public event naming the burrow.
const EVENT: u8 = 2;
/// Everyone's view shows the burrow.
const VIEW: u8 = 3;
/// Everyone's view shows the burrow, and `redraw_hidden` is left at its do-nothing default.
const NO_REDRAW: u8 = 4;
/// The burrow revealed after the search is logged as an ordinary event, not a reveal.
const UNMARKED_REVEAL: u8 = 5;
/// The hens' moves are labelled for the table with whether they will find the fox
/// ("Search c1: found!"); the hens' own text says nothing.
const PEEK: u8 = 6;
/// Not a leak: the hens may also "search a1 again", the same move under another name.
const ALIAS: u8 = 7;

const BURROWS: [&str; 4] = ["a1", "b1", "c1", "d1"];
const FOX: Seat = 0;
const HENS: Seat = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Renard<const BUG: u8> {
    round: u8,
    burrow: Option<u8>,
    /// Where the hens searched last (public: everyone saw them search).
    searched: Option<u8>,
    fox: u32,
    hens: u32,
}

impl<const BUG: u8> Game for Renard<BUG> {
    type Move = u8;

    fn manifest() -> Manifest {
        let seat = |fr: &str, en: &str| SeatInfo {
            name: text(fr, en),
            colour: Colour::rgb(180, 80, 20),
        };
        Manifest {
            id: "renard".into(),
            name: text("Le renard et les poules", "Fox and hens"),
            description: text("", ""),
            version: "1.0.0".into(),
            min_players: 2,
            max_players: 2,
            seats: vec![seat("Renard", "Fox"), seat("Poules", "Hens")],
            options: vec![],
            hidden_information: true,
            operations: vec![],
            rules: None,
            play_time: None,
        }
    }

    fn new(_: &Setup) -> Result<Self, GameError> {
        Ok(Renard {
            round: 0,
            burrow: None,
            searched: None,
            fox: 0,
            hens: 0,
        })
    }

    fn status(&self) -> Status {
        match (self.round, self.burrow) {
            (3, _) => Status::Finished {
                outcome: match self.fox.cmp(&self.hens) {
                    std::cmp::Ordering::Greater => Outcome::win(FOX, text("", "")),
                    std::cmp::Ordering::Less => Outcome::win(HENS, text("", "")),
                    std::cmp::Ordering::Equal => Outcome::draw(text("", "")),
                },
            },
            (_, None) => Status::to_act(FOX),
            (_, Some(_)) => Status::to_act(HENS),
        }
    }

    fn moves(&self, seat: Seat) -> Vec<u8> {
        match self.status() {
            Status::ToAct { seats } if seats.contains(&seat) => match (BUG, seat) {
                (ALIAS, HENS) => (0..5).collect(),
                _ => (0..4).collect(),
            },
            _ => Vec::new(),
        }
    }

    fn describe(&self, seat: Seat, burrow: &u8) -> Action {
        if *burrow == 4 {
            let again = text("Fouiller encore a1", "Search a1 again");
            return Action::button("search-a1-again", again);
        }
        let square = BURROWS[*burrow as usize];
        if seat == HENS {
            let found = match (BUG, self.burrow) {
                (PEEK, Some(b)) if b == *burrow => (" : trouvé !", ": found!"),
                _ => ("", ""),
            };
            let guess = text(format!("Fouiller {square}"), format!("Search {square}"));
            let id = format!("search-{square}");
            if BUG == PEEK {
                let told = text(
                    format!("Fouiller {square}{}", found.0),
                    format!("Search {square}{}", found.1),
                );
                return Action::button(id, told).with_private(guess);
            }
            return Action::button(id, guess);
        }
        let secret = text(
            format!("Terrier en {square}"),
            format!("Burrow on {square}"),
        );
        let id = format!("burrow-{square}");
        match BUG {
            LABEL => Action::button(id, secret),
            _ => {
                Action::button(id, text("Le renard se cache", "The fox hides")).with_private(secret)
            }
        }
    }

    fn play(&mut self, seat: Seat, burrow: &u8, log: &mut Log) {
        let burrow = &(burrow % 4);
        let square = BURROWS[*burrow as usize];
        if seat == FOX {
            self.burrow = Some(*burrow);
            if BUG == EVENT {
                log.record(|| {
                    Event::new(text(
                        format!("Le renard creuse en {square}"),
                        format!("The fox digs at {square}"),
                    ))
                });
            }
            return;
        }
        self.searched = Some(*burrow);
        let hidden = BURROWS[self.burrow.take().unwrap_or(0) as usize];
        if square == hidden {
            self.hens += 1;
        } else {
            self.fox += 1;
        }
        self.round += 1;
        log.record(|| {
            let told = text(
                format!("Le renard était en {hidden}"),
                format!("The fox was on {hidden}"),
            );
            match BUG {
                UNMARKED_REVEAL => Event::new(told),
                _ => Event::reveal(told),
            }
        });
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        let shown = match self.burrow {
            Some(b) if viewer == Some(FOX) || BUG == VIEW || BUG == NO_REDRAW => {
                format!(" (burrow {})", BURROWS[b as usize])
            }
            _ => String::new(),
        };
        let searched = self.searched.map_or("", |b| BURROWS[b as usize]);
        Scene {
            message: Text::same(format!(
                "Round {}: {} – {}, searched {searched}{shown}",
                self.round, self.fox, self.hens
            )),
            ..Scene::default()
        }
    }

    fn redraw_hidden(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        if BUG != NO_REDRAW && viewer != Some(FOX) && self.burrow.is_some() {
            self.burrow = Some(rng.below(4) as u8);
        }
    }
}

fn kit<const BUG: u8>() -> String {
    let config = CheckConfig {
        games: 3,
        ..CheckConfig::default()
    };
    check(&mut NativeEngine::<Renard<BUG>>::default(), None, &config)
        .failures
        .join("\n")
}

fn install<const BUG: u8>() -> String {
    match self_check(&mut NativeEngine::<Renard<BUG>>::default()) {
        Ok(()) => String::new(),
        Err(e) => format!("{e:#}"),
    }
}

fn native<const BUG: u8>() {
    random_games::<Renard<BUG>>(&RandomGames::new(2..=2, 5), |_, _| {});
}

#[test]
fn a_game_that_keeps_its_secret_passes_everywhere() {
    assert_eq!(kit::<SOUND>(), "");
    assert_eq!(install::<SOUND>(), "");
    native::<SOUND>();
}

/// Two moves that give the very same game tell nothing the scene hides, whatever they read.
#[test]
fn two_names_for_the_same_move_are_not_a_leak() {
    assert_eq!(kit::<ALIAS>(), "");
    assert_eq!(install::<ALIAS>(), "");
    native::<ALIAS>();
}

#[test]
fn a_secret_in_an_action_label_is_refused_naming_who_reads_it() {
    for found in [kit::<LABEL>(), install::<LABEL>()] {
        assert!(
            found.contains("leak: seat 1, Hens cannot see which move seat 0, Fox made, but reads it in the move's text"),
            "{found}"
        );
        assert!(found.contains("reads \"Burrow on"), "{found}");
    }
}

#[test]
#[should_panic(expected = "cannot see which move seat 0, Fox made (`burrow-a1` or `burrow-b1`)")]
fn the_native_helper_finds_a_secret_in_an_action_label() {
    native::<LABEL>();
}

#[test]
fn a_secret_in_an_event_is_refused_naming_who_reads_it() {
    for found in [kit::<EVENT>(), install::<EVENT>()] {
        assert!(
            found.contains("leak: seat 1, Hens cannot see which move seat 0, Fox made"),
            "{found}"
        );
        assert!(found.contains("The fox digs at"), "{found}");
    }
}

#[test]
#[should_panic(expected = "The fox digs at")]
fn the_native_helper_finds_a_secret_in_an_event() {
    native::<EVENT>();
}

#[test]
fn a_secret_in_the_view_is_refused_naming_who_sees_it() {
    for found in [kit::<VIEW>(), install::<VIEW>()] {
        assert!(
            found.contains("leak: re-drawing what seat 1, Hens cannot see changed what seat 1, Hens sees (the view)"),
            "{found}"
        );
        assert!(
            found.contains("first difference: .message.en: \"Round"),
            "{found}"
        );
    }
    // Each distinct problem once, with its count and first place.
    let found = kit::<VIEW>();
    let lines = found
        .lines()
        .filter(|l| l.contains("seat 1, Hens sees"))
        .count();
    assert_eq!(lines, 1, "{found}");
    assert!(
        found.contains("times; first: 2 players, seed 1, move "),
        "{found}"
    );
}

#[test]
#[should_panic(
    expected = "leak: re-drawing what the spectator cannot see changed what the spectator sees"
)]
fn the_native_helper_finds_a_secret_in_the_view() {
    native::<VIEW>();
}

#[test]
fn a_game_that_never_redraws_is_refused_with_what_to_write() {
    for found in [kit::<NO_REDRAW>(), install::<NO_REDRAW>()] {
        assert!(
            found.contains(
                "declares hidden information, but its redraw_hidden never changed anything"
            ),
            "{found}"
        );
        assert!(found.contains("Write `Game::redraw_hidden`"), "{found}");
    }
}

#[test]
#[should_panic(expected = "its redraw_hidden never changed anything")]
fn the_native_helper_refuses_a_game_that_never_redraws() {
    native::<NO_REDRAW>();
}

#[test]
fn an_unmarked_reveal_is_refused_saying_to_mark_it() {
    for found in [kit::<UNMARKED_REVEAL>(), install::<UNMARKED_REVEAL>()] {
        assert!(
            found.contains("leak: the events of seat 1, Hens's action as the spectator reads them depend on what the spectator cannot see (mark an event that reveals chance or a hidden card with `Event::reveal`"),
            "{found}"
        );
        assert!(found.contains("\"The fox was on "), "{found}");
    }
}

#[test]
#[should_panic(expected = "as the spectator reads them depend on what the spectator cannot see")]
fn the_native_helper_finds_an_unmarked_reveal() {
    native::<UNMARKED_REVEAL>();
}

#[test]
fn a_label_that_tells_what_a_move_will_find_is_refused() {
    for found in [kit::<PEEK>(), install::<PEEK>()] {
        assert!(
            found.contains("leak: the label of seat 1, Hens's action as the spectator reads it depends on what the spectator cannot see"),
            "{found}"
        );
        assert!(
            found.contains("first difference: .en: \"Search "),
            "{found}"
        );
    }
}

#[test]
#[should_panic(
    expected = "as the spectator reads it depends on what the spectator cannot see: Text { fr: \"Fouiller"
)]
fn the_native_helper_finds_a_label_that_tells_what_a_move_will_find() {
    native::<PEEK>();
}
