//! Rule tests, one or more per rule id of `shared/rules/batisseurs.md`, plus random games.
//!
//! Positions are written as diagrams (see [`Batisseurs::from_diagram`]): rows 1 (top, Black's
//! side) to 9, columns a–i; White in capitals, Black in small letters: `T` tower, `G` gate,
//! `W` a wall square (three in a row make a wall), `.` empty.

use veillee_sdk::testing::{random_games, RandomGames};
use veillee_sdk::{
    random_playout, Event, Game, GameTable, HighlightKind, Log, Seat, Setup, Status, Target, Text,
};

use crate::{Batisseurs, End, Move, BLACK, DRAW_OFFER_AFTER, DRAW_OFFER_EVERY, REPETITIONS, WHITE};

// ---------------------------------------------------------------------------------------
// Helpers

fn pos(diagram: &str, to_move: Seat) -> Batisseurs {
    Batisseurs::from_diagram(diagram, to_move).unwrap_or_else(|e| panic!("bad diagram: {e}"))
}

/// The ids of `seat`'s legal actions, sorted.
fn ids(game: &Batisseurs, seat: Seat) -> Vec<String> {
    let mut ids: Vec<String> = game
        .moves(seat)
        .iter()
        .map(|mv| game.move_id(seat, mv))
        .collect();
    ids.sort();
    ids
}

/// The ids of `seat`'s legal moves led by the piece on `from`, sorted.
fn ids_from(game: &Batisseurs, seat: Seat, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    ids(game, seat)
        .into_iter()
        .filter(|id| id.starts_with(&prefix) || id.starts_with(&format!("jump-{prefix}")))
        .collect()
}

fn find(game: &Batisseurs, seat: Seat, id: &str) -> Move {
    game.moves(seat)
        .into_iter()
        .find(|mv| game.move_id(seat, mv) == id)
        .unwrap_or_else(|| panic!("`{id}` is not legal for seat {seat}: {:?}", ids(game, seat)))
}

/// The legal action with this id, as the player sees it.
fn action(game: &Batisseurs, seat: Seat, id: &str) -> veillee_sdk::Action {
    let mv = find(game, seat, id);
    game.describe(seat, &mv)
}

/// Plays the action with this id, returning the events.
fn play(game: &mut Batisseurs, seat: Seat, id: &str) -> Vec<Event> {
    let mv = find(game, seat, id);
    let mut log = Log::recording();
    game.play(seat, &mv, &mut log);
    log.into_events()
}

fn strings(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn winners(game: &Batisseurs) -> Option<Vec<Seat>> {
    game.status().outcome().map(|o| o.winners.clone())
}

fn cell(col: u16, row: u16) -> Target {
    Target::cell("board", col, row)
}

/// Black parked out of the way in the top-left corner, White's pieces given by the rows 4–9.
const BLACK_PARKED: &str = "
    1 www......
    2 www......
    3 tgg......";

// ---------------------------------------------------------------------------------------
// Set-up

#[test]
fn bt_setup_reconstructed_position_and_white_moves_first() {
    let game = Batisseurs::new(&Setup::new(2, 9)).unwrap();
    assert_eq!(
        game,
        pos(
            "
            1 www.t.www
            2 ...g.g...
            3 .........
            4 .........
            5 .........
            6 .........
            7 .........
            8 ...G.G...
            9 WWW.T.WWW",
            WHITE
        )
    );
    assert_eq!(game.status(), Status::to_act(WHITE));
    assert!(game.moves(BLACK).is_empty());
    let scene = game.view(None);
    let mut at: Vec<(String, u16, u16)> = scene.boards[0]
        .pieces
        .iter()
        .map(|p| (p.id.clone(), p.col, p.row))
        .collect();
    at.sort();
    let expected = [
        ("b-gate1", 3, 1),
        ("b-gate2", 5, 1),
        ("b-tower", 4, 0),
        ("b-wall1", 1, 0),
        ("b-wall1-l", 0, 0),
        ("b-wall1-r", 2, 0),
        ("b-wall2", 7, 0),
        ("b-wall2-l", 6, 0),
        ("b-wall2-r", 8, 0),
        ("w-gate1", 3, 7),
        ("w-gate2", 5, 7),
        ("w-tower", 4, 8),
        ("w-wall1", 1, 8),
        ("w-wall1-l", 0, 8),
        ("w-wall1-r", 2, 8),
        ("w-wall2", 7, 8),
        ("w-wall2-l", 6, 8),
        ("w-wall2-r", 8, 8),
    ];
    assert_eq!(
        at,
        expected.map(|(id, c, r)| (id.to_string(), c, r)).to_vec()
    );
    // Five separate pieces each: the tower e9 and the gate d8 only touch at a corner.
    assert_eq!(game.elements(WHITE).len(), 5);
    assert_eq!(
        ids_from(&game, WHITE, "e9"),
        strings(&["e9-d9", "e9-e8", "e9-f9"])
    );
    assert_eq!(
        scene.message.en,
        "White: move a piece, an element or part of one"
    );
}

// ---------------------------------------------------------------------------------------
// BT-M: moves

#[test]
fn bt_m1_own_pieces_only_and_walls_never_turn() {
    let game = Batisseurs::initial();
    // Only White moves, and only White's pieces: every id starts on a White square.
    let white_squares = ["b9", "h9", "e9", "d8", "f8"];
    for id in ids(&game, WHITE) {
        assert!(white_squares.iter().any(|s| id.starts_with(s)), "{id}");
    }
    assert!(game.moves(BLACK).is_empty());
    // After any wall move, the wall still lies along one row (translations only).
    for id in ids_from(&game, WHITE, "b9") {
        let mut after = game.clone();
        play(&mut after, WHITE, &id);
        let scene = after.view(None);
        let rows: Vec<u16> = scene.boards[0]
            .pieces
            .iter()
            .filter(|p| p.id.starts_with("w-wall1"))
            .map(|p| p.row)
            .collect();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|&r| r == rows[0]), "{id}: {rows:?}");
    }
    assert_eq!(
        ids_from(&game, WHITE, "b9"),
        // b9-c8 would put the wall on d8, White's gate; b9-d9 on e9, the tower.
        strings(&["b9-b7", "b9-b8", "b9-c9"])
    );
}

#[test]
fn bt_m2_unit_piece_steps_one_square_in_any_direction() {
    let game = pos(
        &format!(
            "{BLACK_PARKED}
            4 .........
            5 ....T....
            6 .........
            7 .........
            8 ........G
            9 WWWWWW..G"
        ),
        WHITE,
    );
    assert_eq!(
        ids_from(&game, WHITE, "e5"),
        strings(&["e5-d4", "e5-d5", "e5-d6", "e5-e4", "e5-e6", "e5-f4", "e5-f5", "e5-f6"])
    );
    assert_eq!(
        action(&game, WHITE, "e5-f4").label,
        Text::new("tour : e5→f4", "tower: e5→f4")
    );
    assert_eq!(
        action(&game, WHITE, "e5-f4").path,
        vec![Target::piece("w-tower"), cell(5, 3)]
    );
}

#[test]
fn bt_m3_wall_goes_one_or_two_squares_straight_or_one_diagonally() {
    let game = pos(
        &format!(
            "{BLACK_PARKED}
            4 .........
            5 ...WWW...
            6 .........
            7 .........
            8 G.G......
            9 T.....WWW"
        ),
        WHITE,
    );
    assert_eq!(
        ids_from(&game, WHITE, "e5"),
        strings(&[
            "e5-c5", "e5-d4", "e5-d5", "e5-d6", "e5-e3", "e5-e4", "e5-e6", "e5-e7", "e5-f4",
            "e5-f5", "e5-f6", "e5-g5",
        ])
    );
    // Diagonally only one square; never three squares.
    assert!(!ids(&game, WHITE).contains(&"e5-g7".to_string()));
    let wall = action(&game, WHITE, "e5-e7");
    assert_eq!(wall.label, Text::new("muraille : e5→e7", "wall: e5→e7"));
    assert_eq!(wall.path, vec![Target::piece("w-wall1"), cell(4, 6)]);
}

#[test]
fn bt_m4_touching_pieces_form_one_element_that_moves_like_a_triple() {
    let game = pos(
        &format!(
            "{BLACK_PARKED}
            4 .........
            5 ....TG...
            6 .........
            7 .......G.
            8 .........
            9 WWWWWW..."
        ),
        WHITE,
    );
    // The tower and the gate f5 touch by a side: together they go 1–2 straight or 1
    // diagonally; the id names the part's first piece's move, then the other piece.
    let together: Vec<String> = ids_from(&game, WHITE, "e5")
        .into_iter()
        .filter(|id| id.ends_with("+f5"))
        .collect();
    assert_eq!(
        together,
        strings(&[
            "e5-c5+f5", "e5-d4+f5", "e5-d5+f5", "e5-d6+f5", "e5-e3+f5", "e5-e4+f5", "e5-e6+f5",
            "e5-e7+f5", "e5-f4+f5", "e5-f5+f5", "e5-f6+f5", "e5-g5+f5",
        ])
    );
    assert_eq!(
        action(&game, WHITE, "e5-e7+f5").label,
        Text::new("tour + porte f5 : e5→e7", "tower + gate f5: e5→e7")
    );
    // The gate g7 only touches nothing (f6 and h8 are corners): it moves alone.
    assert_eq!(game.elements(WHITE).len(), 3);
    assert!(ids(&game, WHITE).iter().all(|id| !id.contains("+g7")));
    // Two pieces touching at a corner are not an element.
    let corner = pos(
        &format!(
            "{BLACK_PARKED}
            4 .........
            5 ....T....
            6 .....G...
            7 .......G.
            8 .........
            9 WWW.WWW.."
        ),
        WHITE,
    );
    assert!(ids(&corner, WHITE).iter().all(|id| !id.contains('+')));
}

#[test]
fn bt_m5_any_connected_part_of_an_element_may_be_detached() {
    let game = pos(
        &format!(
            "{BLACK_PARKED}
            4 .........
            5 ..GWWWT..
            6 .........
            7 .........
            8 ........G
            9 ......WWW"
        ),
        WHITE,
    );
    // Gate c5, wall d5–f5 (named e5), tower g5: parts led by the wall moving two rows down.
    let down: Vec<String> = ids(&game, WHITE)
        .into_iter()
        .filter(|id| id.starts_with("e5-e7"))
        .collect();
    assert_eq!(
        down,
        strings(&["e5-e7", "e5-e7+c5", "e5-e7+g5", "e5-e7+g5+c5"])
    );
    // The tower and the gate do not touch each other: never a part without the wall.
    assert!(!ids(&game, WHITE)
        .iter()
        .any(|id| id.starts_with("g5-") && id.contains("+c5")));
    // A unit piece detached from an element moves one square (BT-M2), not two.
    assert_eq!(
        ids_from(&game, WHITE, "g5"),
        strings(&["g5-g4", "g5-g6", "g5-h4", "g5-h5", "g5-h6", "g5-f4", "g5-f6"])
    );
    // Several parts make the same move: the click path names the other pieces, then the
    // destination again; none is a prefix of another.
    let path = |id: &str| action(&game, WHITE, id).path;
    assert_eq!(
        path("e5-e7"),
        vec![Target::piece("w-wall1"), cell(4, 6), cell(4, 6)]
    );
    assert_eq!(
        path("e5-e7+c5"),
        vec![
            Target::piece("w-wall1"),
            cell(4, 6),
            Target::piece("w-gate1"),
            cell(4, 6)
        ]
    );
    assert_eq!(
        path("e5-e7+g5+c5"),
        vec![
            Target::piece("w-wall1"),
            cell(4, 6),
            Target::piece("w-tower"),
            Target::piece("w-gate1"),
            cell(4, 6)
        ]
    );
    assert_eq!(
        action(&game, WHITE, "e5-e7+g5+c5").label,
        Text::new(
            "muraille + tour g5 + porte c5 : e5→e7",
            "wall + tower g5 + gate c5: e5→e7"
        )
    );
    // Only one part led by the wall moves two squares right (the gate can follow, the
    // tower is in the way of the wall alone): a two-click path.
    assert_eq!(
        ids(&game, WHITE)
            .into_iter()
            .filter(|id| id.starts_with("e5-g5"))
            .collect::<Vec<_>>(),
        strings(&["e5-g5+g5", "e5-g5+g5+c5"])
    );
    let mut moved = game.clone();
    play(&mut moved, WHITE, "e5-e7+c5");
    assert_eq!(moved.elements(WHITE).len(), 3, "the tower stayed behind");
}

#[test]
fn bt_m6_occupied_squares_block_and_two_square_moves_need_a_clear_way() {
    let game = pos(
        "
        1 www.....t
        2 ........g
        3 .........
        4 ...g.....
        5 ...WWWT..
        6 .........
        7 ......www
        8 .........
        9 WWW.G...G",
        WHITE,
    );
    let legal = ids(&game, WHITE);
    let has = |id: &str| legal.contains(&id.to_string());
    // Up: the black gate d4 is in the way of one step, and of the square passed over on two.
    assert!(!has("e5-e4") && !has("e5-e3") && !has("e5-d4"));
    assert!(has("e5-f4"));
    // The squares the part leaves count as free for it: one or two to the left.
    assert!(has("e5-d5") && has("e5-c5"));
    // Own pieces block too: the wall alone cannot go right onto the tower, with it it can.
    assert!(!has("e5-f5") && has("e5-f5+g5"));
    // Two down: d6–f6 passed over and d7–f7 reached are free; with the tower, g7 is black.
    assert!(has("e5-e7") && !has("e5-e7+g5") && has("e5-e6+g5"));
}

// ---------------------------------------------------------------------------------------
// BT-M7: the blocked-piece jump

/// White's gate a1 is hemmed in by Black's tower b1 and wall a2–c2; White's four other
/// pieces form one element (d7–f9 but for f9).
const HEMMED_IN: &str = "
    1 Gt.......
    2 www......
    3 .........
    4 ......www
    5 .........
    6 ........g
    7 ...WWW..g
    8 ...WWW...
    9 ...GT....";

#[test]
fn bt_m7_blocked_piece_may_jump_only_when_the_free_pieces_are_assembled() {
    let game = pos(HEMMED_IN, WHITE);
    assert_eq!(
        ids_from(&game, WHITE, "a1"),
        strings(&["jump-a1-a3", "jump-a1-c1", "jump-a1-c3"])
    );
    let jump = action(&game, WHITE, "jump-a1-c3");
    assert_eq!(jump.path, vec![Target::piece("w-gate1"), cell(2, 2)]);
    assert_eq!(
        jump.label,
        Text::new(
            "porte : a1→c3 (saut par-dessus l'adversaire)",
            "gate: a1→c3 (jumps over the opponent)"
        )
    );
    let scene = game.view(None);
    assert!(scene.message.en.ends_with("(a blocked piece may jump)"));
    assert!(scene
        .highlights
        .iter()
        .any(|h| { h.kind == HighlightKind::Selected && h.target == Target::piece("w-gate1") }));
    // The other pieces keep their ordinary moves: the jump is one move among others.
    assert!(ids(&game, WHITE).len() > 3);

    // A free piece outside the element (the gate d9 moved to a9): no jump.
    let scattered = pos(&HEMMED_IN.replace("9 ...GT....", "9 G...T...."), WHITE);
    assert!(ids(&scattered, WHITE)
        .iter()
        .all(|id| !id.starts_with("jump")));
    assert!(ids_from(&scattered, WHITE, "a1").is_empty());
}

#[test]
fn bt_m7_no_jump_for_a_piece_that_can_still_move() {
    // Black's wall on row 3 instead of row 2: the gate a1 can step to a2 or b2.
    let game = pos(
        &HEMMED_IN
            .replace("2 www......", "2 .........")
            .replace("3 .........", "3 www......"),
        WHITE,
    );
    assert_eq!(ids_from(&game, WHITE, "a1"), strings(&["a1-a2", "a1-b2"]));
    assert!(ids(&game, WHITE).iter().all(|id| !id.starts_with("jump")));
}

#[test]
fn bt_m7_jump_goes_over_opponent_pieces_only_onto_empty_squares() {
    let game = pos(
        "
        1 Gt.......
        2 gT.......
        3 .WWW.....
        4 .WWW.....
        5 ...G.....
        6 .........
        7 .........
        8 .........
        9 www.www.g",
        WHITE,
    );
    // Over the black tower b1 to c1 and the black gate a2 to a3; never over its own tower b2.
    assert_eq!(
        ids_from(&game, WHITE, "a1"),
        strings(&["jump-a1-a3", "jump-a1-c1"])
    );
    // With c1 taken (a black gate there instead of i9), only a3 is left.
    let game = pos(
        "
        1 Gtg......
        2 gT.......
        3 .WWW.....
        4 .WWW.....
        5 ...G.....
        6 .........
        7 .........
        8 .........
        9 www.www..",
        WHITE,
    );
    assert_eq!(ids_from(&game, WHITE, "a1"), strings(&["jump-a1-a3"]));
    // It counts as a normal move: then Black plays.
    let mut game = game;
    play(&mut game, WHITE, "jump-a1-a3");
    assert_eq!(game.status(), Status::to_act(BLACK));
    let scene = game.view(None);
    assert!(scene
        .highlights
        .iter()
        .any(|h| h.kind == HighlightKind::LastMove && h.target == cell(0, 0)));
    assert!(scene
        .highlights
        .iter()
        .any(|h| h.kind == HighlightKind::Info && h.target == Target::piece("w-gate1")));
}

#[test]
fn bt_m7_when_every_piece_is_blocked_any_of_them_may_jump() {
    // White fills row 1, Black row 2: no ordinary move at all, so the (no) free pieces are
    // trivially assembled, and every piece may jump over Black, walls included.
    let game = pos(
        "
        1 WWWWWWTGG
        2 wwwwwwtgg
        3 .........
        4 .........
        5 .........
        6 .........
        7 .........
        8 .........
        9 .........",
        WHITE,
    );
    let legal = ids(&game, WHITE);
    assert!(legal.iter().all(|id| id.starts_with("jump-")), "{legal:?}");
    for id in [
        "jump-b1-b3",
        "jump-b1-d3",
        "jump-e1-e3",
        "jump-g1-g3",
        "jump-i1-g3",
    ] {
        assert!(legal.contains(&id.to_string()), "{id}: {legal:?}");
    }
    assert_eq!(
        action(&game, WHITE, "jump-b1-b3").label.fr,
        "muraille : b1→b3 (saut par-dessus l'adversaire)"
    );
}

// ---------------------------------------------------------------------------------------
// BT-E: the end

/// White completes its castle d7–f9 with g9-f9 (its tower e9 is not in the centre).
const WHITE_ALMOST: &str = "
    1 www.t.www
    2 ...g.g...
    3 .........
    4 .........
    5 .........
    6 .........
    7 ...WWW...
    8 ...WWW...
    9 ...GT.G..";

#[test]
fn bt_e1_castle_anywhere_checked_at_the_end_of_the_round() {
    let mut game = pos(WHITE_ALMOST, WHITE);
    assert!(game.castle(WHITE).is_none());
    play(&mut game, WHITE, "g9-f9");
    // Not over yet: Black plays the round's last move.
    assert_eq!(game.status(), Status::to_act(BLACK));
    assert!(game.castle(WHITE).is_some());
    assert!(game
        .view(None)
        .message
        .en
        .starts_with("White's castle is complete"));
    let events = play(&mut game, BLACK, "e1-e2");
    assert_eq!(winners(&game), Some(vec![WHITE]));
    assert_eq!(game.end(), Some(End::Castle(WHITE)));
    assert_eq!(
        events.last().unwrap().text.en,
        "White has built the castle and wins"
    );
    assert!(game.moves(WHITE).is_empty() && game.moves(BLACK).is_empty());
    // The finished castle is shown.
    let scene = game.view(None);
    assert!(scene.message.en.starts_with("Game over."));
    let marked = scene
        .highlights
        .iter()
        .filter(|h| h.kind == HighlightKind::Selected)
        .count();
    assert_eq!(marked, 9);

    // Black's castle, completed on Black's move, wins at once (that move ends the round).
    let mut game = pos(
        "
        1 www......
        2 gtg......
        3 .........
        4 www......
        5 .........
        6 .........
        7 .........
        8 ...G.G...
        9 WWW.T.WWW",
        BLACK,
    );
    play(&mut game, BLACK, "b4-b3");
    assert_eq!(game.end(), Some(End::Castle(BLACK)));
    assert_eq!(
        game.status().outcome().unwrap().reason.fr,
        "Les Noirs ont bâti leur château et gagnent"
    );
}

#[test]
fn bt_e1_five_pieces_in_one_element_are_not_yet_a_castle() {
    let mut game = pos(WHITE_ALMOST, WHITE);
    play(&mut game, WHITE, "g9-g8");
    play(&mut game, BLACK, "e1-e2");
    assert_eq!(game.elements(WHITE).len(), 1);
    assert!(game.castle(WHITE).is_none());
    assert_eq!(game.status(), Status::to_act(WHITE));
}

#[test]
fn bt_e2_both_castles_in_one_round_the_tower_in_the_centre_decides() {
    // Black: b4-b3 completes a1–c3 with the tower b2 in the centre.
    let black_centre = "
        1 www......
        2 gtg......
        3 .........
        4 www......
        5 .........
        6 .........";
    let black_side = black_centre.replace("2 gtg", "2 tgg");
    let white_side = "
        7 ...WWW...
        8 ...WWW...
        9 ...GT.G..";
    let white_centre = "
        7 ...WWW...
        8 ...GT.G..
        9 ...WWW...";
    let round = |black: &str, white: &str, white_move: &str| {
        let mut game = pos(&format!("{black}\n{white}"), WHITE);
        play(&mut game, WHITE, white_move);
        play(&mut game, BLACK, "b4-b3");
        game
    };
    let game = round(black_centre, white_side, "g9-f9");
    assert_eq!(game.end(), Some(End::TowerInCentre(BLACK)));
    assert_eq!(winners(&game), Some(vec![BLACK]));
    assert!(game
        .status()
        .outcome()
        .unwrap()
        .reason
        .en
        .ends_with("Black's tower is in the centre: Black wins"));

    let game = round(&black_side, white_centre, "g8-f8");
    assert_eq!(game.end(), Some(End::TowerInCentre(WHITE)));

    for (black, white, mv) in [
        (black_centre, white_centre, "g8-f8"),
        (black_side.as_str(), white_side, "g9-f9"),
    ] {
        let game = round(black, white, mv);
        assert_eq!(game.end(), Some(End::BothCastles));
        assert!(game.status().outcome().unwrap().is_draw());
    }
}

#[test]
fn bt_e3_threefold_repetition_is_a_draw() {
    let mut game = Batisseurs::initial();
    let shuffle = ["e9-e8", "e1-e2", "e8-e9", "e2-e1"];
    for (n, id) in shuffle.iter().chain(&shuffle).enumerate() {
        assert_eq!(game.status().outcome(), None, "after {n} moves");
        let seat = game.status().seats()[0];
        play(&mut game, seat, id);
    }
    assert_eq!(game.repetitions(), REPETITIONS);
    assert_eq!(game.end(), Some(End::Repetition));
    assert_eq!(
        game.status().outcome().unwrap().reason.en,
        "The same position for the third time: the game is drawn"
    );
    // Gates (and walls) are interchangeable: swapping two gates gives the same position.
    let mut swapped = Batisseurs::initial();
    swapped.at[WHITE as usize].swap(3, 4);
    assert_eq!(swapped.key(), Batisseurs::initial().key());
    // The player to move is part of the position.
    let mut black = Batisseurs::initial();
    black.to_move = BLACK;
    assert_ne!(black.key(), Batisseurs::initial().key());
}

/// BT-E3's 150 rounds, now a safety net: « Rassembler le premier tous ses éléments de
/// château » has no time limit in the original, so after 150 rounds without a castle both
/// players are offered a draw, never given one silently. One `play-on` withdraws the offer
/// and play resumes where it was; it comes back every `DRAW_OFFER_EVERY` rounds.
#[test]
fn bt_e3_after_150_rounds_a_draw_is_offered_and_play_on_resumes_the_game() {
    let mut game = Batisseurs::initial().with_rounds(DRAW_OFFER_AFTER - 1);
    assert_eq!(game.view(None).scores[2].value, "150/150");
    play(&mut game, WHITE, "e9-e8");
    assert_eq!(game.status(), Status::to_act(BLACK));
    play(&mut game, BLACK, "e1-e2");
    assert_eq!(game.end(), None, "150 rounds alone end nothing");
    assert_eq!(
        game.status(),
        Status::ToAct {
            seats: vec![WHITE, BLACK]
        }
    );
    for seat in [WHITE, BLACK] {
        assert_eq!(ids(&game, seat), strings(&["accept-draw", "play-on"]));
    }
    assert!(game.view(None).message.en.contains("a draw is offered"));
    play(&mut game, BLACK, "accept-draw");
    assert_eq!(game.status(), Status::to_act(WHITE));
    assert!(ids(&game, BLACK).is_empty());
    let saved = serde_json::to_string(&game).unwrap();
    assert!(saved.contains(r#""draw_offer":[1]"#), "{saved}");
    assert_eq!(serde_json::from_str::<Batisseurs>(&saved).unwrap(), game);
    let history = game.repetitions();
    play(&mut game, WHITE, "play-on");
    assert_eq!(game.status(), Status::to_act(WHITE));
    assert_eq!((game.rounds(), game.repetitions()), (150, history));
    assert!(ids(&game, WHITE).contains(&"e8-e7".to_string()));
    assert_eq!(game.view(None).scores[2].value, "151");
    // Offered again DRAW_OFFER_EVERY rounds later.
    let mut game = game.with_rounds(DRAW_OFFER_AFTER + DRAW_OFFER_EVERY - 1);
    play(&mut game, WHITE, "e8-e7");
    play(&mut game, BLACK, "e2-e3");
    assert_eq!(ids(&game, WHITE), strings(&["accept-draw", "play-on"]));
}

/// BT-E3 (same safety net): both players accepting is a draw; a castle completed in the
/// round that reaches the limit still wins, and no draw is offered then.
#[test]
fn bt_e3_both_players_accepting_the_offered_draw_end_the_game_drawn() {
    let mut game = Batisseurs::initial().with_rounds(DRAW_OFFER_AFTER - 1);
    play(&mut game, WHITE, "e9-e8");
    play(&mut game, BLACK, "e1-e2");
    play(&mut game, WHITE, "accept-draw");
    let events = play(&mut game, BLACK, "accept-draw");
    assert_eq!(game.end(), Some(End::DrawAgreed));
    let outcome = game.status().outcome().cloned().unwrap();
    assert!(outcome.is_draw());
    assert_eq!(
        outcome.reason.en,
        "Draw accepted by both players after 150 rounds without a castle (safety limit)"
    );
    assert_eq!(events.last().unwrap().text, outcome.reason);
    assert!(ids(&game, WHITE).is_empty() && ids(&game, BLACK).is_empty());
    // A castle completed in the last round before the offer still wins.
    let mut game = pos(WHITE_ALMOST, WHITE).with_rounds(DRAW_OFFER_AFTER - 1);
    play(&mut game, WHITE, "g9-f9");
    play(&mut game, BLACK, "e1-e2");
    assert_eq!(winners(&game), Some(vec![WHITE]));
}

#[test]
fn bt_e3_pass_is_offered_only_without_any_move() {
    // Even fully hemmed in, a player can jump (BT-M7), so a pass is offered only when
    // there is truly nothing: here, never.
    for game in [
        Batisseurs::initial(),
        pos(HEMMED_IN, WHITE),
        pos(
            "
            1 WWWWWWTGG
            2 wwwwwwtgg
            3 .........
            4 .........
            5 .........
            6 .........
            7 .........
            8 .........
            9 .........",
            WHITE,
        ),
    ] {
        assert!(!ids(&game, WHITE).contains(&"pass".to_string()));
        assert!(game.has_any_move(WHITE));
    }
    // The pass itself: the move changes nothing on the board and hands the turn over.
    let mut game = Batisseurs::initial();
    let before = game.at;
    game.play(WHITE, &Move::Pass, &mut Log::off());
    assert_eq!((game.at, game.to_move, game.last), (before, BLACK, None));
    assert_eq!(game.describe(WHITE, &Move::Pass).id, "pass");
    assert_eq!(
        game.describe(WHITE, &Move::Pass).label,
        Text::new("Passer (aucun coup possible)", "Pass (no legal move)")
    );
    assert!(game.describe(WHITE, &Move::Pass).path.is_empty());
}

// ---------------------------------------------------------------------------------------
// Scene, manifest, saved state

#[test]
fn the_scene_draws_row_one_at_the_top_and_the_last_move() {
    let mut game = Batisseurs::initial();
    let scene = game.view(Some(WHITE));
    assert_eq!(scene, game.view(Some(BLACK)));
    assert_eq!(scene, game.view(None));
    let board = &scene.boards[0];
    assert_eq!((board.id.as_str(), board.cols, board.rows), ("board", 9, 9));
    assert_eq!(board.col_labels.concat(), "abcdefghi");
    assert_eq!(board.row_labels.concat(), "123456789");
    assert_eq!(board.cells.len(), 81);
    assert!(scene.highlights.is_empty());
    let wall: Vec<_> = board
        .pieces
        .iter()
        .filter(|p| p.id.starts_with("w-wall2"))
        .map(|p| (p.shape, p.label.as_str(), p.owner))
        .collect();
    assert_eq!(wall, [(veillee_sdk::Shape::Wall, "M2", Some(WHITE)); 3]);
    let scores: Vec<&str> = scene.scores.iter().map(|s| s.value.as_str()).collect();
    assert_eq!(scores, ["1/5", "1/5", "1/150"]);

    play(&mut game, WHITE, "d8-d7");
    play(&mut game, BLACK, "d2-e2");
    play(&mut game, WHITE, "b9-c9");
    let scene = game.view(None);
    let last: Vec<_> = scene
        .highlights
        .iter()
        .filter(|h| h.kind == HighlightKind::LastMove)
        .map(|h| h.target.clone())
        .collect();
    // Left a9–c9, reached b9–d9.
    assert_eq!(last, vec![cell(0, 8), cell(1, 8), cell(2, 8), cell(3, 8)]);
    let moved = scene
        .highlights
        .iter()
        .filter(|h| h.kind == HighlightKind::Info)
        .count();
    assert_eq!(moved, 3);
    assert_eq!(scene.scores[2].value, "2/150");
    assert_eq!(
        scene.scores[1].value, "3/5",
        "Black's tower e1 and gates e2, f2"
    );
}

#[test]
fn the_manifest_is_sane() {
    let manifest = Batisseurs::manifest();
    assert!(manifest.problems().is_empty(), "{:?}", manifest.problems());
    assert_eq!(manifest.id, "batisseurs");
    assert_eq!(manifest.name.fr, "Bâtisseurs");
    assert_eq!(manifest.version, "1.0.0");
    assert_eq!((manifest.min_players, manifest.max_players), (2, 2));
    assert_eq!(manifest.seats[0].name.en, "White");
    assert_eq!(manifest.seats[1].name.fr, "Noirs");
    assert!(!manifest.hidden_information);
}

#[test]
fn saved_games_load_identically_and_bad_saves_are_refused() {
    let mut table = GameTable::<Batisseurs>::default();
    let h = table.create(&Setup::new(2, 1)).unwrap();
    for id in ["d8-d7", "d2-e2", "e9-e8", "e1-d1"] {
        let seat = table.status(h).unwrap().seats()[0];
        table.apply(h, seat, id).unwrap();
    }
    let bytes = table.save(h).unwrap();
    let json = String::from_utf8(bytes.clone()).unwrap();
    assert!(json.contains(r#"{"id":"w-gate1","at":"d7"}"#), "{json}");
    assert!(
        json.contains(r#""history":["e9d8f8b9h9e1d2f2b1h1w","#),
        "{json}"
    );
    let copy = table.load(&bytes).unwrap();
    assert_eq!(table.get(copy).unwrap(), table.get(h).unwrap());
    assert_eq!(table.save(copy).unwrap(), bytes);

    for bad in [
        json.replace(r#""at":"d7""#, r#""at":"j7""#),
        json.replace(r#""at":"d7""#, r#""at":"e8""#),
        json.replace(
            r#"{"id":"w-wall1","at":"b9"}"#,
            r#"{"id":"w-wall1","at":"a5"}"#,
        ),
        json.replace(r#""id":"w-gate1""#, r#""id":"w-gate3""#),
        json.replace(r#""to_move":0"#, r#""to_move":2"#),
        json.replace(r#""end":null"#, r#""end":"victory""#),
        json.replace(r#""history":["#, r#""history":["zz","#),
        json.replace(r#""end":null"#, r#""end":null,"draw_offer":[0,1]"#),
        json.replace(r#""end":null"#, r#""end":null,"draw_offer":[2]"#),
        json.replace(r#""end":null"#, r#""end":"repetition","draw_offer":[]"#),
    ] {
        assert_ne!(bad, json);
        assert!(table.load(bad.as_bytes()).is_err(), "{bad}");
    }
    // An open offer loads; so does a game that earlier versions drew silently at 150 rounds.
    let offered = json.replace(r#""end":null"#, r#""end":null,"draw_offer":[]"#);
    let h = table.load(offered.as_bytes()).unwrap();
    assert_eq!(table.status(h).unwrap().seats(), &[WHITE, BLACK]);
    let legacy = json.replace(r#""end":null"#, r#""end":"round-limit""#);
    let h = table.load(legacy.as_bytes()).unwrap();
    assert!(table.status(h).unwrap().outcome().unwrap().is_draw());
}

#[test]
fn diagrams_are_checked() {
    let good = "www.t.www\n...g.g...\n.........\n.........\n.........\n.........\n.........\n...G.G...\nWWW.T.WWW";
    assert!(Batisseurs::from_diagram(good, WHITE).is_ok());
    for bad in [
        good.replace("WWW.T", "WW..T"),
        good.replace("...G.G...", "...G....."),
        good.replace("www.t", "wwwtt"),
        good.replace("\n.........\n", "\n"),
    ] {
        assert!(Batisseurs::from_diagram(&bad, WHITE).is_err(), "{bad}");
    }
    assert!(Batisseurs::from_diagram(good, 2).is_err());
}

// ---------------------------------------------------------------------------------------
// Random games

/// Far more plies than a random game lasts: after 150 rounds, each offered draw is accepted
/// by two random players one time in four.
const MAX_PLIES: u32 = 40 * DRAW_OFFER_AFTER as u32;

#[test]
fn random_games_follow_the_protocol_and_replay_by_id() {
    let mut config = RandomGames::new(2..=2, 30);
    config.max_moves = MAX_PLIES as usize;
    config.deep_every = 1;
    random_games::<Batisseurs>(&config, |game, _| {
        let Status::ToAct { seats } = game.status() else {
            return;
        };
        if game.draw_offer.is_some() {
            // The safety limit's offer: both players asked at once, then the other.
            assert!(!seats.is_empty() && seats.iter().all(|&s| game.draw_answers(s).len() == 2));
            return;
        }
        assert_eq!(seats, vec![game.to_move]);
        let seat = game.to_move;
        let actions: Vec<_> = game
            .moves(seat)
            .iter()
            .map(|mv| game.describe(seat, mv))
            .collect();
        if actions.iter().any(|a| a.id == "pass") {
            assert_eq!(actions.len(), 1, "pass only without any move");
        }
        // No click path is a prefix of another one (the host walks them click by click):
        // written as strings ending with a separator and sorted, a prefix comes right before
        // a path it starts.
        let mut paths: Vec<String> = actions
            .iter()
            .filter(|a| !a.path.is_empty())
            .map(|a| a.path.iter().map(|t| format!("{t:?}|")).collect())
            .collect();
        paths.sort();
        for pair in paths.windows(2) {
            assert!(!pair[1].starts_with(&pair[0]), "{pair:?}");
        }
        // The pieces a player clicks are their own; all 18 are drawn.
        let scene = game.view(Some(seat));
        let board = &scene.boards[0];
        assert_eq!(board.pieces.len(), 18);
        for a in &actions {
            if let Some(Target::Piece { id }) = a.path.first() {
                let piece = board.pieces.iter().find(|p| &p.id == id);
                assert_eq!(piece.and_then(|p| p.owner), Some(seat), "{}", a.id);
            }
        }
    });
}

#[test]
fn random_playouts_always_terminate_with_an_outcome() {
    let mut lengths = 0u64;
    let mut endings = std::collections::BTreeMap::<String, u32>::new();
    let games = 500u64;
    let start = std::time::Instant::now();
    for seed in 0..games {
        let mut game = Batisseurs::new(&Setup::new(2, seed)).unwrap();
        let result = random_playout(&mut game, seed, 100_000);
        assert!(!result.stuck, "seed {seed} got stuck");
        let outcome = result
            .outcome
            .unwrap_or_else(|| panic!("seed {seed} did not end"));
        assert_eq!(game.status().outcome(), Some(&outcome));
        assert!(result.moves <= MAX_PLIES, "seed {seed}: {}", result.moves);
        lengths += u64::from(result.moves);
        *endings
            .entry(format!("{:?}", game.end().unwrap()))
            .or_default() += 1;
    }
    eprintln!(
        "{games} random games: mean length {:.1} plies, endings {endings:?}, {:.3} ms a game",
        lengths as f64 / games as f64,
        start.elapsed().as_secs_f64() * 1000.0 / games as f64
    );
}
