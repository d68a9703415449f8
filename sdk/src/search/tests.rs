//! The search on two tiny games: one to win by counting ahead, one to win only by peeking.

use serde::{Deserialize, Serialize};

use super::{search, GameSpace, Sampled, SearchRequest, SearchSpace};
use crate::{
    text, Action, Colour, Game, GameError, GameRng, Log, Manifest, Outcome, Scene, Seat, SeatInfo,
    Setup, Status,
};

/// Twenty-one matches; each turn takes 1, 2 or 3; who takes the last one wins. The player to
/// move wins by leaving a multiple of four.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Matches {
    left: u32,
    to_move: Seat,
    winner: Option<Seat>,
}

impl Game for Matches {
    type Move = u32;
    fn manifest() -> Manifest {
        manifest("matches")
    }
    fn new(_: &Setup) -> Result<Self, GameError> {
        Ok(Matches {
            left: 21,
            to_move: 0,
            winner: None,
        })
    }
    fn status(&self) -> Status {
        match self.winner {
            Some(w) => Status::Finished {
                outcome: Outcome::win(w, text!("fin", "end")),
            },
            None => Status::to_act(self.to_move),
        }
    }
    fn moves(&self, seat: Seat) -> Vec<u32> {
        if seat != self.to_move || self.winner.is_some() {
            return Vec::new();
        }
        (1..=3.min(self.left)).collect()
    }
    fn describe(&self, _: Seat, mv: &u32) -> Action {
        Action::button(format!("take-{mv}"), text!("prendre", "take"))
    }
    fn play(&mut self, seat: Seat, mv: &u32, _: &mut Log) {
        self.left -= mv;
        if self.left == 0 {
            self.winner = Some(seat);
        }
        self.to_move = 1 - seat;
    }
    fn view(&self, _: Option<Seat>) -> Scene {
        Scene::default()
    }
}

/// Seat 0 hides a coin; seat 1 guesses it and wins if right. Nothing seat 1 sees tells the
/// coin: a search that never peeks guesses the same whatever the coin.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Guess {
    coin: bool,
    guessed: Option<bool>,
}

impl Game for Guess {
    type Move = bool;
    fn manifest() -> Manifest {
        manifest("guess")
    }
    fn new(_: &Setup) -> Result<Self, GameError> {
        Ok(Guess {
            coin: true,
            guessed: None,
        })
    }
    fn status(&self) -> Status {
        match self.guessed {
            None => Status::to_act(1),
            Some(g) => Status::Finished {
                outcome: Outcome::win(if g == self.coin { 1 } else { 0 }, text!("fin", "end")),
            },
        }
    }
    fn moves(&self, seat: Seat) -> Vec<bool> {
        match (seat, self.guessed) {
            (1, None) => vec![true, false],
            _ => Vec::new(),
        }
    }
    fn describe(&self, _: Seat, mv: &bool) -> Action {
        let id = if *mv { "heads" } else { "tails" };
        Action::button(id, text!("choix", "guess"))
    }
    fn play(&mut self, _: Seat, mv: &bool, _: &mut Log) {
        self.guessed = Some(*mv);
    }
    fn view(&self, _: Option<Seat>) -> Scene {
        Scene::default()
    }
    fn redraw_hidden(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        if viewer != Some(0) {
            self.coin = rng.below(2) == 0;
        }
    }
}

fn manifest(id: &str) -> Manifest {
    Manifest {
        id: id.into(),
        name: text!("Essai", "Test"),
        description: text!("Essai", "Test"),
        version: "1.0.0".into(),
        min_players: 2,
        max_players: 2,
        seats: (0..2)
            .map(|_| SeatInfo {
                name: text!("J", "P"),
                colour: Colour::rgb(1, 2, 3),
            })
            .collect(),
        options: vec![],
        hidden_information: true,
        operations: vec![],
        rules: None,
        play_time: None,
    }
}

fn choose<G: Game>(game: &G, seat: Seat, iterations: u32, seed: u64) -> String {
    let mut space = GameSpace::<G>::default();
    let request = SearchRequest::new(iterations, 50, seed, 2);
    let Ok(root) = Sampled::draw(&mut space, game, seat, seed);
    let Ok(answer) = search(&mut space, &root, &request);
    answer.action
}

#[test]
fn the_search_leaves_a_multiple_of_four_where_it_can() {
    for (left, best) in [(9, "take-1"), (7, "take-3"), (6, "take-2"), (3, "take-3")] {
        let game = Matches {
            left,
            to_move: 0,
            winner: None,
        };
        assert_eq!(choose(&game, 0, 3000, 7), best, "{left} matches left");
    }
}

#[test]
fn the_search_guesses_the_same_whatever_the_hidden_coin_says() {
    for seed in 0..20 {
        let heads = Guess {
            coin: true,
            guessed: None,
        };
        let tails = Guess {
            coin: false,
            guessed: None,
        };
        assert_eq!(
            choose(&heads, 1, 200, seed),
            choose(&tails, 1, 200, seed),
            "seed {seed}"
        );
    }
}

#[test]
fn a_single_move_is_answered_without_searching() {
    let game = Matches {
        left: 1,
        to_move: 1,
        winner: None,
    };
    let mut space = GameSpace::<Matches>::default();
    let Ok(root) = Sampled::draw(&mut space, &game, 1, 3);
    let Ok(answer) = search(&mut space, &root, &SearchRequest::new(500, 10, 3, 2));
    assert_eq!((answer.action.as_str(), answer.iterations), ("take-1", 0));
}

#[test]
fn an_excluded_action_is_never_chosen() {
    let game = Matches {
        left: 21,
        to_move: 0,
        winner: None,
    };
    let mut space = GameSpace::<Matches>::default();
    let Ok(root) = Sampled::draw(&mut space, &game, 0, 3);
    let mut request = SearchRequest::new(2000, 50, 3, 2);
    request.exclude = vec!["take-1".into()];
    let Ok(answer) = search(&mut space, &root, &request);
    assert_ne!(answer.action, "take-1");
}

/// [`Matches`] where bots never take `avoid` matches ([`Game::bot_may_choose`]) and play
/// out `playout` random moves, if set, instead of the host's number
/// ([`Game::bot_playout_moves`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Avoiding {
    game: Matches,
    avoid: u32,
    playout: Option<u32>,
}

impl Game for Avoiding {
    type Move = u32;
    fn manifest() -> Manifest {
        manifest("avoiding")
    }
    fn new(setup: &Setup) -> Result<Self, GameError> {
        Ok(Avoiding {
            game: Matches::new(setup)?,
            avoid: 3,
            playout: None,
        })
    }
    fn status(&self) -> Status {
        self.game.status()
    }
    fn moves(&self, seat: Seat) -> Vec<u32> {
        self.game.moves(seat)
    }
    fn describe(&self, seat: Seat, mv: &u32) -> Action {
        self.game.describe(seat, mv)
    }
    fn play(&mut self, seat: Seat, mv: &u32, log: &mut Log) {
        self.game.play(seat, mv, log)
    }
    fn view(&self, viewer: Option<Seat>) -> Scene {
        self.game.view(viewer)
    }
    fn bot_may_choose(&self, _: Seat, mv: &u32) -> bool {
        *mv != self.avoid
    }
    fn bot_playout_moves(&self, host: u32) -> u32 {
        self.playout.unwrap_or(host)
    }
}

#[test]
fn a_move_bots_may_not_choose_is_left_out_unless_it_is_the_only_one() {
    let avoiding = |left, avoid| Avoiding {
        game: Matches {
            left,
            to_move: 0,
            winner: None,
        },
        avoid,
        playout: None,
    };
    // Taking 3 of 7 wins; a bot that may not take 3 takes something else.
    assert_eq!(choose(&avoiding(7, 0), 0, 3000, 7), "take-3");
    assert_ne!(choose(&avoiding(7, 3), 0, 3000, 7), "take-3");
    // Every move left out: the search keeps them all.
    assert_eq!(choose(&avoiding(1, 1), 0, 100, 7), "take-1");
}

#[test]
fn a_game_may_play_out_fewer_random_moves_than_the_host_asks() {
    let played_out = |playout| {
        let mut game = Avoiding {
            game: Matches {
                left: 21,
                to_move: 0,
                winner: None,
            },
            avoid: 0,
            playout,
        };
        let Ok(()) = GameSpace::default().playout(&mut game, 5, 4);
        21 - game.game.left
    };
    // The host's 4 moves take 4 to 12 matches; the game's own 0 or 1 take none or 1 to 3.
    assert!((4..=12).contains(&played_out(None)));
    assert_eq!(played_out(Some(0)), 0);
    assert!((1..=3).contains(&played_out(Some(1))));
}

/// The search of `game` for seat 0 with barely any tree search (one iteration) and the exact
/// check of `plies` plies within `nodes` positions.
fn checked(left: u32, plies: u8, nodes: u32) -> super::SearchAnswer {
    let game = Matches {
        left,
        to_move: 0,
        winner: None,
    };
    let mut space = GameSpace::<Matches>::default();
    let Ok(root) = Sampled::draw(&mut space, &game, 0, 11);
    let mut request = SearchRequest::new(1, 0, 11, 2);
    request.tactics = Some(super::Tactics { plies, nodes });
    let Ok(answer) = search(&mut space, &root, &request);
    answer
}

#[test]
fn the_exact_check_plays_a_forced_win_at_once() {
    // Six left: taking two leaves four, and whatever the other takes the bot takes the rest.
    let answer = checked(6, 3, 10_000);
    assert_eq!(answer.action, "take-2");
    assert_eq!(answer.proven, Some(super::Proven::Win(3)));
    assert_eq!(answer.iterations, 0, "a proven win needs no tree search");
    // Three left: the win in one ply is found before any longer one.
    assert_eq!(checked(3, 5, 10_000).proven, Some(super::Proven::Win(1)));
}

#[test]
fn the_exact_check_leaves_the_moves_proven_lost_out_of_the_tree() {
    // Five left, seen two plies deep: taking two or three hands the other the last matches;
    // taking one is not proven either way at that depth, and is the only move left.
    for seed in 0..10 {
        let game = Matches {
            left: 5,
            to_move: 0,
            winner: None,
        };
        let mut space = GameSpace::<Matches>::default();
        let Ok(root) = Sampled::draw(&mut space, &game, 0, seed);
        let mut request = SearchRequest::new(1, 0, seed, 2);
        request.tactics = Some(super::Tactics {
            plies: 2,
            nodes: 10_000,
        });
        let Ok(answer) = search(&mut space, &root, &request);
        assert_eq!(answer.action, "take-1", "seed {seed}");
        assert_eq!(answer.proven, None);
        assert_eq!(answer.lost, ["take-2", "take-3"]);
    }
}

#[test]
fn the_answer_lists_every_root_move_the_tree_searched_with_its_visits() {
    let game = Matches {
        left: 21,
        to_move: 0,
        winner: None,
    };
    let mut space = GameSpace::<Matches>::default();
    let Ok(root) = Sampled::draw(&mut space, &game, 0, 5);
    let Ok(answer) = search(&mut space, &root, &SearchRequest::new(300, 10, 5, 2));
    let ids: Vec<&str> = answer.root.iter().map(|m| m.action.as_str()).collect();
    assert_eq!(ids, ["take-1", "take-2", "take-3"]);
    let visits: u32 = answer.root.iter().map(|m| m.visits).sum();
    assert_eq!(visits, answer.iterations);
    let chosen = answer
        .root
        .iter()
        .find(|m| m.action == answer.action)
        .unwrap();
    assert_eq!(chosen.visits, answer.visits);
    assert!(answer.root.iter().all(|m| m.visits <= answer.visits));
}

#[test]
fn when_every_move_loses_the_check_plays_the_one_that_loses_latest() {
    // Four left: every move loses in two plies; with nothing better, a move is still played.
    let answer = checked(4, 4, 10_000);
    assert_eq!(answer.proven, Some(super::Proven::Loss(2)));
    assert!(answer.action.starts_with("take-"));
}

#[test]
fn a_check_out_of_budget_proves_nothing_false() {
    // No positions at all: nothing proven, the tree search alone decides.
    let answer = checked(6, 3, 0);
    assert_eq!((answer.proven, answer.checked), (None, 0));
    // A budget too small for the third ply: the win is not claimed, and no move is lost.
    let answer = checked(6, 3, 5);
    assert_eq!(answer.proven, None);
    assert!(answer.checked <= 5);
}
