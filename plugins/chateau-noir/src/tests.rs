//! Rule tests, named after the rule ids of `shared/rules/chateau-noir.md`, plus random games.
//!
//! Positions are written as diagrams (see [`ChateauNoir::from_diagram`]): rows 1 to 10,
//! columns a–j, map letters `W B X g r u y` or `.` for empty squares, captains `G R U Y`,
//! soldiers `1 2 3 4` (Green, Red, blUe, Yellow).

use veillee_sdk::{
    random_playout, Event, Game, GameRng, GameTable, HighlightKind, Log, OptionValue, Seat,
    Setup, Status, Target,
};

use crate::board::{self, Sq};
use crate::{ChateauNoir, Ending, Move, Phase, TURN_LIMIT};

// ---------------------------------------------------------------------------------------
// Helpers

const GREEN: u8 = 0;
const RED: u8 = 1;
const BLUE: u8 = 2;
const YELLOW: u8 = 3;

/// The empty board, as the spec draws it.
const EMPTY: &str = "
     a b c d e f g h i j
   1 g g g W W X W r r r
   2 g g g W W X W r r r
   3 g g g W X W W r r r
   4 W W W X B B X W W W
   5 X X W B W W B X W W
   6 W W X B W W B W X X
   7 W W W X B B X W W W
   8 y y y W W X W u u u
   9 y y y W X W W u u u
  10 y y y W X W W u u u";

/// A position with `pieces` (`"c4:1 e5:G"`: square, piece letter) on the empty board.
fn place(pieces: &str, players: u8, teams: bool, active: u8) -> ChateauNoir {
    let mut rows: Vec<Vec<char>> = board::MAP.iter().map(|r| r.chars().collect()).collect();
    for item in pieces.split_whitespace() {
        let (at, letter) = item.split_once(':').expect("square:piece");
        let s = sq(at);
        rows[board::row(s) as usize][board::col(s) as usize] = letter.chars().next().unwrap();
    }
    let diagram: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    pos(&diagram.join("\n"), players, teams, active)
}

fn pos(diagram: &str, players: u8, teams: bool, active: u8) -> ChateauNoir {
    ChateauNoir::from_diagram(diagram, players, teams, active)
        .unwrap_or_else(|e| panic!("bad diagram: {e}"))
}

fn sq(name: &str) -> Sq {
    board::parse(name).unwrap_or_else(|| panic!("no square {name}"))
}

fn seat_to_act(game: &ChateauNoir) -> Seat {
    game.status().seats()[0]
}

/// The ids of the legal actions of the seat to act, sorted.
fn ids(game: &ChateauNoir) -> Vec<String> {
    let seat = seat_to_act(game);
    let mut ids: Vec<String> = game
        .moves(seat)
        .iter()
        .map(|mv| game.move_id(seat, mv))
        .collect();
    ids.sort();
    ids
}

/// The destinations (sorted square names) of the piece on `from` now.
fn dests(game: &ChateauNoir, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    let mut out: Vec<String> = ids(game)
        .into_iter()
        .filter_map(|id| id.strip_prefix(&prefix).map(str::to_string))
        .collect();
    out.sort();
    out
}

fn names(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn find(game: &ChateauNoir, seat: Seat, id: &str) -> Move {
    game.moves(seat)
        .into_iter()
        .find(|mv| game.move_id(seat, mv) == id)
        .unwrap_or_else(|| panic!("`{id}` is not legal for seat {seat}: {:?}", ids(game)))
}

/// Plays the action with this id for the seat to act.
fn play(game: &mut ChateauNoir, id: &str) -> Vec<Event> {
    let seat = seat_to_act(game);
    play_as(game, seat, id)
}

fn play_as(game: &mut ChateauNoir, seat: Seat, id: &str) -> Vec<Event> {
    let mv = find(game, seat, id);
    let mut log = Log::recording();
    game.play(seat, &mv, &mut log);
    log.into_events()
}

fn playall(game: &mut ChateauNoir, list: &[&str]) {
    for id in list {
        play(game, id);
    }
}

fn legal(game: &ChateauNoir, id: &str) -> bool {
    ids(game).iter().any(|i| i == id)
}

fn at(game: &ChateauNoir, s: &str) -> Option<String> {
    let code = game.board[sq(s) as usize];
    (code != 0).then(|| board::piece_id(code - 1))
}

// ---------------------------------------------------------------------------------------
// Random games

/// Random games of every seating: the protocol holds and every game ends.
#[test]
fn random_playouts_always_terminate_with_an_outcome() {
    for (players, mode) in [(2, "teams"), (3, "teams"), (4, "teams"), (4, "individual")] {
        let mut total = 0u64;
        let mut draws = 0;
        let mut limits = 0;
        let games = if players == 4 { 100 } else { 200 };
        for seed in 0..games {
            let mut setup = Setup::new(players, seed);
            setup
                .options
                .insert("mode".into(), OptionValue::Choice(mode.into()));
            let setup = setup.resolved(&ChateauNoir::manifest()).unwrap();
            let mut game = ChateauNoir::new(&setup).unwrap();
            let result = random_playout(&mut game, seed, 1_000_000);
            assert!(!result.stuck, "{players} {mode} seed {seed} got stuck");
            let outcome = result
                .outcome
                .unwrap_or_else(|| panic!("{players} {mode} seed {seed} did not end"));
            total += u64::from(result.moves);
            if outcome.is_draw() {
                draws += 1;
            }
            if game.ending() == Some(Ending::TurnLimit) {
                limits += 1;
            }
        }
        eprintln!(
            "{players} {mode}: mean {} actions, {draws} draws, {limits} turn limits of {games}",
            total / games
        );
    }
}
