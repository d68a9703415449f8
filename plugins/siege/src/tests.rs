//! Rule tests, one or more per rule id of `shared/rules/siege.md`, plus random games.
//!
//! Positions are written as diagrams (see [`Siege::from_diagram`]): ranks 6 down to 0, columns
//! a–h, `K` knight, `S` soldier, `L` lord, `.` empty. Rank 0 only has c0–f0.

use veillee_sdk::testing::{random_games, RandomGames};
use veillee_sdk::{
    random_playout, Event, Game, GameTable, HighlightKind, Log, Seat, Setup, Status, Target, Text,
};

use crate::board::{self, Sq};
use crate::{Move, Siege, ATTACKER, DEFENDER, QUIET_LIMIT};

// ---------------------------------------------------------------------------------------
// Helpers

fn pos(diagram: &str, to_move: Seat) -> Siege {
    Siege::from_diagram(diagram, to_move).unwrap_or_else(|e| panic!("bad diagram: {e}"))
}

/// The ids of `seat`'s legal actions, sorted.
fn ids(game: &Siege, seat: Seat) -> Vec<String> {
    let mut ids: Vec<String> = game
        .moves(seat)
        .iter()
        .map(|mv| game.move_id(seat, mv))
        .collect();
    ids.sort();
    ids
}

/// The ids of `seat`'s legal moves leaving `from`, sorted.
fn ids_from(game: &Siege, seat: Seat, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    ids(game, seat)
        .into_iter()
        .filter(|id| id.starts_with(&prefix))
        .collect()
}

/// The legal action with this id, as the player sees it.
fn action(game: &Siege, seat: Seat, id: &str) -> veillee_sdk::Action {
    let mv = find(game, seat, id);
    game.describe(seat, &mv)
}

fn find(game: &Siege, seat: Seat, id: &str) -> Move {
    game.moves(seat)
        .into_iter()
        .find(|mv| game.move_id(seat, mv) == id)
        .unwrap_or_else(|| panic!("`{id}` is not legal for seat {seat}: {:?}", ids(game, seat)))
}

/// Plays the action with this id, returning the events.
fn play(game: &mut Siege, seat: Seat, id: &str) -> Vec<Event> {
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

fn winners(game: &Siege) -> Option<Vec<Seat>> {
    game.status().outcome().map(|o| o.winners.clone())
}

fn sq(name: &str) -> Sq {
    board::parse(name).unwrap()
}

/// A fresh game with the lord placed on `crown`.
fn started(crown: &str) -> Siege {
    let mut game = Siege::new(&Setup::new(2, 0)).unwrap();
    play(&mut game, DEFENDER, &format!("lord-{crown}"));
    game
}

// ---------------------------------------------------------------------------------------
// SG-S: set-up and turn order

#[test]
fn sg_s1_set_up_and_the_defender_places_the_lord_first() {
    let game = Siege::new(&Setup::new(2, 7)).unwrap();
    assert_eq!(game.status(), Status::to_act(DEFENDER));
    assert!(game.moves(ATTACKER).is_empty());
    assert_eq!(ids(&game, DEFENDER), strings(&["lord-d6", "lord-e6"]));
    let place = action(&game, DEFENDER, "lord-e6");
    assert_eq!(place.path, vec![Target::cell("board", 4, 0)]);
    assert_eq!(
        place.label,
        Text::new("Placer le seigneur sur e6", "Place the lord on e6")
    );

    let scene = game.view(None);
    let mut at: Vec<(String, u16, u16)> = scene.boards[0]
        .pieces
        .iter()
        .map(|p| (p.id.clone(), p.col, p.row))
        .collect();
    at.sort();
    let expected = [
        ("k1", 2, 6),
        ("k2", 3, 6),
        ("k3", 4, 6),
        ("k4", 5, 6),
        ("s1", 2, 0), // c6
        ("s2", 3, 1), // d5
        ("s3", 4, 1), // e5
        ("s4", 5, 0), // f6
    ];
    assert_eq!(
        at,
        expected.map(|(id, c, r)| (id.to_string(), c, r)).to_vec()
    );
    assert!(scene
        .message
        .fr
        .contains("placez le seigneur sur une couronne"));

    let mut game = game;
    play(&mut game, DEFENDER, "lord-e6");
    assert!(game.view(None).boards[0]
        .pieces
        .iter()
        .any(|p| p.id == "lord" && (p.col, p.row) == (4, 0)));
}

#[test]
fn sg_s2_attacker_moves_first_then_players_alternate() {
    let mut game = started("d6");
    assert_eq!(game.status(), Status::to_act(ATTACKER));
    assert!(game.moves(DEFENDER).is_empty());
    // Each knight leaves its start square with the knight's forward jumps (SG-K1).
    assert_eq!(
        ids(&game, ATTACKER),
        strings(&[
            "c0-a1", "c0-b2", "c0-d2", "c0-e1", "d0-b1", "d0-c2", "d0-e2", "d0-f1", "e0-c1",
            "e0-d2", "e0-f2", "e0-g1", "f0-d1", "f0-e2", "f0-g2", "f0-h1",
        ])
    );
    play(&mut game, ATTACKER, "c0-d2");
    assert_eq!(game.status(), Status::to_act(DEFENDER));
    assert!(game.moves(ATTACKER).is_empty());
    play(&mut game, DEFENDER, "d5-d4");
    assert_eq!(game.status(), Status::to_act(ATTACKER));
    assert_eq!(game.plies(), 2);
}

// ---------------------------------------------------------------------------------------
// SG-K: knights

#[test]
fn sg_k1_knight_jumps_like_a_chess_knight_but_only_forward() {
    let game = pos(
        "
        6 ....L...
        5 ........
        4 ........
        3 ........
        2 ...K....
        1 ........
        0 ........",
        ATTACKER,
    );
    assert_eq!(
        ids(&game, ATTACKER),
        strings(&["d2-b3", "d2-c4", "d2-e4", "d2-f3"])
    );
}

#[test]
fn sg_k2_knight_moves_backward_only_into_or_inside_castle() {
    let game = pos(
        "
        6 ...L.K.K
        5 ........
        4 ........
        3 ........
        2 ........
        1 ........
        0 ........",
        ATTACKER,
    );
    // From f6 (inside the castle): backward to d5 and e4; g4 and h5 would leave the castle.
    assert_eq!(
        ids_from(&game, ATTACKER, "f6"),
        strings(&["f6-d5", "f6-e4"])
    );
    // From h6 (outside) backward only into the castle: f5 yes, g4 no.
    assert_eq!(ids_from(&game, ATTACKER, "h6"), strings(&["h6-f5"]));

    let game = pos(
        "
        6 ...L....
        5 ........
        4 ........
        3 ........
        2 ...K....
        1 ........
        0 ........",
        ATTACKER,
    );
    // No backward move outside the castle.
    assert!(ids_from(&game, ATTACKER, "d2")
        .iter()
        .all(|id| !["b1", "c0", "e0", "f1"].iter().any(|s| id.ends_with(s))));
}

#[test]
fn sg_k2_knight_never_returns_to_a_start_square() {
    let game = pos(
        "
        6 ...L....
        5 ........
        4 ........
        3 ........
        2 .K......
        1 ....K...
        0 ........",
        ATTACKER,
    );
    // b2 -> c0 and e1 -> c0 would be backward jumps onto start squares.
    assert_eq!(
        ids_from(&game, ATTACKER, "b2"),
        strings(&["b2-a4", "b2-c4", "b2-d3"])
    );
    assert_eq!(
        ids_from(&game, ATTACKER, "e1"),
        strings(&["e1-c2", "e1-d3", "e1-f3", "e1-g2"])
    );
    assert!(ids(&game, ATTACKER).iter().all(|id| !id.ends_with('0')));
}

#[test]
fn sg_k3_knight_stands_on_blue_squares_and_never_leaves_the_castle() {
    let game = pos(
        "
        6 ....L...
        5 ........
        4 ..K.....
        3 ........
        2 K.......
        1 ........
        0 ........",
        ATTACKER,
    );
    // A knight on the moat (a2) moves normally; into the castle too.
    assert_eq!(
        ids_from(&game, ATTACKER, "a2"),
        strings(&["a2-b4", "a2-c3"])
    );
    // Inside the castle (c4) every move stays inside: a5, b6, a3, b2, d2 are refused.
    assert_eq!(
        ids_from(&game, ATTACKER, "c4"),
        strings(&["c4-d6", "c4-e3", "c4-e5"])
    );

    // A knight reaches a blue square from its start square.
    let game = started("d6");
    assert!(ids(&game, ATTACKER).contains(&"c0-a1".to_string()));
    assert!(ids(&game, ATTACKER).contains(&"f0-h1".to_string()));

    // Forward out of the castle (f5 -> h6) is refused too.
    let game = pos(
        "
        6 ........
        5 .....K..
        4 ........
        3 ..L.....
        2 ........
        1 ........
        0 ........",
        ATTACKER,
    );
    assert_eq!(
        ids_from(&game, ATTACKER, "f5"),
        strings(&["f5-d4", "f5-d6", "f5-e3"])
    );
}

#[test]
fn sg_k4_knight_leaps_over_any_piece() {
    let mut game = pos(
        "
        6 ........
        5 ........
        4 ........
        3 ..SLS...
        2 ..S.S...
        1 ..KKK...
        0 ........",
        ATTACKER,
    );
    assert_eq!(
        ids_from(&game, ATTACKER, "d1"),
        strings(&["d1-b2", "d1-c3", "d1-e3", "d1-f2"])
    );
    assert_eq!(
        ids_from(&game, ATTACKER, "c1"),
        strings(&["c1-a2", "c1-b3", "c1-d3", "c1-e2"])
    );
    play(&mut game, ATTACKER, "c1-b3");
    // Nothing leaped over is captured (SG-K5).
    assert_eq!(game.soldiers, 4);
    assert_eq!(game.quiet_plies(), 1);
}

#[test]
fn sg_k5_knight_captures_soldier_or_lord_by_landing_never_own_knight() {
    let mut game = pos(
        "
        6 ....L...
        5 ..S.....
        4 ..SK....
        3 .K......
        2 ........
        1 ........
        0 ........",
        ATTACKER,
    );
    // b3: a5 empty, c5 a soldier (capture), d4 own knight (refused).
    assert_eq!(
        ids_from(&game, ATTACKER, "b3"),
        strings(&["b3-a5", "b3-c5"])
    );
    let take = action(&game, ATTACKER, "b3-c5");
    assert_eq!(
        take.label,
        Text::new(
            "Chevalier b3 → c5 prend le soldat",
            "Knight b3 → c5 takes the soldier"
        )
    );
    assert_eq!(
        take.path,
        vec![Target::piece("k1"), Target::cell("board", 2, 1)]
    );
    // d4 in the castle reaches e6: the lord.
    assert_eq!(
        action(&game, ATTACKER, "d4-e6").label.en,
        "Knight d4 → e6 takes the lord"
    );
    play(&mut game, ATTACKER, "b3-c5");
    assert_eq!((game.soldiers, game.knights), (1, 2));
    assert_eq!(game.quiet_plies(), 0);
    // The soldier on c4, leaped over, is still there.
    assert_eq!(game.board[sq("c4") as usize], board::soldier(0));
    let scene = game.view(None);
    assert!(scene
        .highlights
        .iter()
        .any(|h| h.kind == HighlightKind::Danger && h.target == Target::cell("board", 2, 1)));
    assert!(scene
        .highlights
        .iter()
        .any(|h| h.kind == HighlightKind::LastMove && h.target == Target::cell("board", 1, 3)));
}

// ---------------------------------------------------------------------------------------
// SG-D: soldiers

/// SG-D1, 2b: « Les soldats ont le droit de se déplacer sur toutes les cases du château et
/// sur toutes les cases de la planche de jeu, sauf sur celles qui sont marquées de points
/// bleus, qui indiquent un fossé avec de l'eau. » The knights' start squares (white dots)
/// are squares of the board: soldiers may step onto them (fixed; they were kept out).
#[test]
fn sg_d1_soldier_steps_one_square_any_direction_never_on_blue_squares() {
    let game = pos(
        "
        6 ....L...
        5 ........
        4 ........
        3 ..S.....
        2 ........
        1 .S.S...K
        0 ........",
        DEFENDER,
    );
    // Leaving and entering the castle freely (c3 is on its edge).
    assert_eq!(
        ids_from(&game, DEFENDER, "c3"),
        strings(&["c3-b2", "c3-b3", "c3-b4", "c3-c2", "c3-c4", "c3-d2", "c3-d3", "c3-d4"])
    );
    // b1: a1 and a2 are blue; c0, a start square, is open.
    assert_eq!(
        ids_from(&game, DEFENDER, "b1"),
        strings(&["b1-b2", "b1-c0", "b1-c1", "b1-c2"])
    );
    // d1: the knights' start squares c0, d0, e0 too.
    assert_eq!(
        ids_from(&game, DEFENDER, "d1"),
        strings(&["d1-c0", "d1-c1", "d1-c2", "d1-d0", "d1-d2", "d1-e0", "d1-e1", "d1-e2"])
    );
    assert_eq!(
        action(&game, DEFENDER, "d1-d2").label,
        Text::new("Soldat d1 → d2", "Soldier d1 → d2")
    );
}

/// SG-D1 and SG-D2 (same sentence, 2b): a knight that never left its start square can be
/// taken there, diagonally like anywhere else (a start square is not blue); straight ahead
/// it only blocks the soldier. A soldier on a start square is out of the knights' reach,
/// since they never go back there (1b), and it can leave it again.
#[test]
fn sg_d1_a_knight_still_on_its_start_square_can_be_taken() {
    let mut game = pos(
        "
        6 ....L...
        5 ........
        4 ........
        3 ........
        2 ........
        1 ...S....
        0 ..KK....",
        DEFENDER,
    );
    assert_eq!(
        ids_from(&game, DEFENDER, "d1"),
        strings(&["d1-c0", "d1-c1", "d1-c2", "d1-d2", "d1-e0", "d1-e1", "d1-e2"])
    );
    assert_eq!(
        action(&game, DEFENDER, "d1-c0").label.en,
        "Soldier d1 → c0 takes the knight"
    );
    play(&mut game, DEFENDER, "d1-c0");
    let pieces = &game.view(None).boards[0].pieces;
    assert!(!pieces.iter().any(|p| p.id == "k1"), "k1 was taken on c0");
    assert_eq!(game.knights, 1);
    let saved = serde_json::to_string(&game).unwrap();
    assert!(saved.contains(r#"{"id":"s1","at":"c0"}"#), "{saved}");
    assert_eq!(serde_json::from_str::<Siege>(&saved).unwrap(), game);
    // The soldier on c0: no knight may land there; it may step back onto the board.
    assert!(!ids(&game, ATTACKER).iter().any(|id| id.ends_with("-c0")));
    play(&mut game, ATTACKER, "d0-b1");
    assert!(ids_from(&game, DEFENDER, "c0").contains(&"c0-c1".to_string()));
}

#[test]
fn sg_d2_soldier_captures_knight_only_diagonally_and_not_on_blue() {
    let game = pos(
        "
        6 ....L...
        5 ........
        4 KKK.....
        3 .SK.....
        2 ........
        1 ........
        0 ........",
        DEFENDER,
    );
    // b3: knights on a4 (diagonal but blue), b4 and c3 (straight), c4 (diagonal: capture);
    // a2 and a3 are blue; b2 and c2 are empty.
    assert_eq!(
        ids_from(&game, DEFENDER, "b3"),
        strings(&["b3-b2", "b3-c2", "b3-c4"])
    );
    assert_eq!(
        action(&game, DEFENDER, "b3-c4").label.fr,
        "Soldat b3 → c4 prend le chevalier"
    );
}

// ---------------------------------------------------------------------------------------
// SG-L: the lord

#[test]
fn sg_l1_lord_moves_two_or_three_squares_diagonally_inside_the_castle() {
    let game = pos(
        "
        6 ........
        5 ........
        4 ........
        3 ..L.....
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    // c3: e5 (2) and f6 (3) forward; every other diagonal leaves the castle at once.
    assert_eq!(ids(&game, DEFENDER), strings(&["c3-e5", "c3-f6"]));
    assert_eq!(
        action(&game, DEFENDER, "c3-f6").label,
        Text::new("Seigneur c3 → f6", "Lord c3 → f6")
    );

    let game = pos(
        "
        6 .....L..
        5 ........
        4 ........
        3 ........
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    // Backward too: f6 to d4 (2) and c3 (3).
    assert_eq!(ids(&game, DEFENDER), strings(&["f6-c3", "f6-d4"]));
}

#[test]
fn sg_l1_lord_never_leaps_and_never_lands_on_a_soldier() {
    let game = pos(
        "
        6 ........
        5 ........
        4 ........
        3 ..L.....
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    let blocked = |row4: &str| {
        let diagram = format!("........\n........\n{row4}\n..L.....\n........\n....K...\n........");
        ids(&pos(&diagram, DEFENDER), DEFENDER)
    };
    assert_eq!(ids(&game, DEFENDER).len(), 2);
    // A knight or a soldier right next to it blocks the diagonal.
    assert_eq!(blocked("...K...."), strings(&["pass"]));
    assert!(!blocked("...S....").iter().any(|id| id.starts_with("c3")));
    // A soldier on e5 stops it before; it cannot land on it.
    let game = pos(
        "
        6 ........
        5 ....S...
        4 ........
        3 ..L.....
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    assert!(ids_from(&game, DEFENDER, "c3").is_empty());
}

#[test]
fn sg_l2_lord_steps_sideways_between_the_two_crowns() {
    let game = pos(
        "
        6 ...L....
        5 ........
        4 ........
        3 ........
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    assert_eq!(ids(&game, DEFENDER), strings(&["d6-e6", "d6-f4"]));
    let step = action(&game, DEFENDER, "d6-e6");
    assert_eq!(
        step.path,
        vec![Target::piece("lord"), Target::cell("board", 4, 0)]
    );
    // Not onto its own soldier; and the step exists only between the crowns.
    let game = pos(
        "
        6 ...LS...
        5 ........
        4 ........
        3 ........
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    assert_eq!(ids_from(&game, DEFENDER, "d6"), strings(&["d6-f4"]));
    let game = pos(
        "
        6 ..L.....
        5 ........
        4 ........
        3 ........
        2 ........
        1 ....K...
        0 ........",
        DEFENDER,
    );
    assert_eq!(ids(&game, DEFENDER), strings(&["c6-e4", "c6-f3"]));
}

#[test]
fn sg_l3_lord_captures_a_knight_with_either_move() {
    let mut game = pos(
        "
        6 ...LK...
        5 ........
        4 .....K..
        3 ........
        2 ........
        1 ........
        0 ........",
        DEFENDER,
    );
    assert_eq!(ids(&game, DEFENDER), strings(&["d6-e6", "d6-f4"]));
    assert_eq!(
        action(&game, DEFENDER, "d6-e6").label.en,
        "Lord d6 → e6 takes the knight"
    );
    assert_eq!(
        action(&game, DEFENDER, "d6-f4").label.fr,
        "Seigneur d6 → f4 prend le chevalier"
    );
    play(&mut game, DEFENDER, "d6-f4");
    assert_eq!(game.knights, 1);
    // A knight right next to it is out of reach (one square is not a lord's move).
    let game = pos(
        "
        6 ...L....
        5 ....K...
        4 ........
        3 ........
        2 ........
        1 ........
        0 ........",
        DEFENDER,
    );
    assert_eq!(ids(&game, DEFENDER), strings(&["d6-e6"]));
}

// ---------------------------------------------------------------------------------------
// SG-R: the special rule

#[test]
fn sg_r_first_four_defender_moves_take_different_soldiers_off_their_dots() {
    let mut game = started("d6");
    play(&mut game, ATTACKER, "c0-d2");
    assert!(game.special_rule_applies());
    assert!(game.view(None).message.en.contains("special rule (1/4)"));
    assert_eq!(
        ids(&game, DEFENDER),
        strings(&[
            "c6-b5", "c6-b6", "c6-c5", "d5-c4", "d5-c5", "d5-d4", "d5-e4", "d5-e6", "e5-d4",
            "e5-e4", "e5-e6", "e5-f4", "e5-f5", "f6-e6", "f6-f5", "f6-g5", "f6-g6",
        ])
    );
    play(&mut game, DEFENDER, "d5-d4");
    play(&mut game, ATTACKER, "d2-c4");
    // s2 (now on d4) may not move again, nor may anybody step onto the empty dot d5, nor
    // may the lord move.
    let now = ids(&game, DEFENDER);
    assert!(
        now.iter()
            .all(|id| ["c6-", "e5-", "f6-"].iter().any(|p| id.starts_with(p))),
        "{now:?}"
    );
    assert!(!now.contains(&"e5-d5".to_string()) && !now.contains(&"c6-d5".to_string()));
    play(&mut game, DEFENDER, "e5-f5");
    play(&mut game, ATTACKER, "d0-c2");
    play(&mut game, DEFENDER, "c6-b6");
    play(&mut game, ATTACKER, "e0-f2");
    // Only s4 is left on its dot; e5 is a dot again empty, f5 is taken by s3.
    assert_eq!(ids(&game, DEFENDER), strings(&["f6-e6", "f6-g5", "f6-g6"]));
    play(&mut game, DEFENDER, "f6-g6");
    play(&mut game, ATTACKER, "f0-g2");
    // After four moves the defender moves freely: the lord, back onto a dot, any soldier.
    assert!(!game.special_rule_applies());
    let free = ids(&game, DEFENDER);
    for id in ["d6-e6", "d4-d5", "b6-c6", "f5-e5", "g6-f6"] {
        assert!(free.contains(&id.to_string()), "{id} in {free:?}");
    }
}

#[test]
fn sg_r_obligation_ends_with_the_first_capture() {
    let mut game = pos(
        "
        6 ..SL.S..
        5 ...SS...
        4 .K......
        3 ........
        2 ........
        1 ........
        0 ..K.....",
        ATTACKER,
    )
    .with_special_rule(0);
    assert!(game.special_rule_applies());
    play(&mut game, ATTACKER, "b4-c6");
    assert!(!game.special_rule_applies());
    let free = ids(&game, DEFENDER);
    // The lord may move again, and a soldier may take the knight on its dot.
    assert!(free.contains(&"d6-e6".to_string()), "{free:?}");
    assert!(free.contains(&"d5-c6".to_string()), "{free:?}");
}

#[test]
fn sg_r_obligation_ends_when_the_defender_captures() {
    let mut game = pos(
        "
        6 ..SL.S..
        5 ...SS...
        4 ..K.....
        3 ........
        2 ........
        1 ........
        0 ...K....",
        DEFENDER,
    )
    .with_special_rule(0);
    // d5 takes the knight on c4 diagonally: a compliant move that captures.
    assert!(ids(&game, DEFENDER).contains(&"d5-c4".to_string()));
    play(&mut game, DEFENDER, "d5-c4");
    play(&mut game, ATTACKER, "d0-e2");
    assert!(!game.special_rule_applies());
    assert!(ids(&game, DEFENDER).contains(&"d6-e6".to_string()));
}

#[test]
fn sg_r_no_compliant_move_means_the_defender_passes() {
    // The last unmoved soldier (f6) is hemmed in: e6 the lord, e5 a dot, f5 and g6 knights
    // met straight on, g5 its own soldier.
    let mut game = pos(
        "
        6 ....LSK.
        5 .....KS.
        4 ..S.....
        3 .S......
        2 ........
        1 K......K
        0 ........",
        DEFENDER,
    )
    .with_special_rule(3);
    assert_eq!(ids(&game, DEFENDER), strings(&["pass"]));
    let pass = action(&game, DEFENDER, "pass");
    assert!(pass.path.is_empty());
    assert_eq!(pass.label.en, "Pass (no legal move)");
    play(&mut game, DEFENDER, "pass");
    assert_eq!(game.status(), Status::to_act(ATTACKER));
    // The pass is not one of the four moves: the obligation still holds.
    assert!(game.special_rule_applies());
    assert_eq!(game.defender_moves, 3);
}

// ---------------------------------------------------------------------------------------
// SG-E: the end

#[test]
fn sg_e1_attacker_wins_by_capturing_the_lord() {
    let mut game = pos(
        "
        6 ...L....
        5 ...SS...
        4 ..K.....
        3 ........
        2 ........
        1 ........
        0 ........",
        ATTACKER,
    );
    let events = play(&mut game, ATTACKER, "c4-d6");
    assert_eq!(winners(&game), Some(vec![ATTACKER]));
    assert!(game.moves(ATTACKER).is_empty() && game.moves(DEFENDER).is_empty());
    assert_eq!(events.len(), 2);
    assert_eq!(events[0].text.en, "Knight c4 → d6 takes the lord");
    assert_eq!(events[1].text.en, "The lord is captured: the attacker wins");
    assert!(game.view(None).message.fr.contains("l'assaillant gagne"));
}

#[test]
fn sg_e2_defender_wins_by_capturing_all_four_knights() {
    let mut game = pos(
        "
        6 ...L....
        5 ...S....
        4 ..K.....
        3 ........
        2 ........
        1 ........
        0 ........",
        DEFENDER,
    );
    assert_eq!(game.knights, 1);
    play(&mut game, DEFENDER, "d5-c4");
    assert_eq!(winners(&game), Some(vec![DEFENDER]));
    assert!(game.moves(ATTACKER).is_empty() && game.moves(DEFENDER).is_empty());
}

#[test]
fn sg_e3_a_player_without_a_move_passes_and_only_then() {
    let mut game = pos(
        "
        6 ........
        5 ........
        4 ...K....
        3 ..L.....
        2 ........
        1 ........
        0 ........",
        DEFENDER,
    );
    assert_eq!(ids(&game, DEFENDER), strings(&["pass"]));
    assert!(game.view(None).message.en.contains("no legal move"));
    play(&mut game, DEFENDER, "pass");
    assert_eq!(game.status(), Status::to_act(ATTACKER));
    assert_eq!(game.quiet_plies(), 1);
    assert!(!ids(&game, ATTACKER).contains(&"pass".to_string()));
    // Whenever a move exists, `pass` is not offered.
    let game = started("e6");
    assert!(!ids(&game, ATTACKER).contains(&"pass".to_string()));
}

/// SG-E3 "if neither can move": the attacker can never be without a move while it has a
/// knight (checked for every placement of one to four knights, which can only block each
/// other: a knight may always take a defender), so the drawn "neither can move" ending
/// cannot arise in Siège, and only the defender ever passes.
#[test]
fn sg_e3_the_attacker_always_has_a_move() {
    let squares: Vec<Sq> = (0..board::CELLS as Sq)
        .filter(|&s| board::has(board::VALID, s))
        .collect();
    let empty = pos(
        "........\n........\n........\n........\n........\n........\n........",
        ATTACKER,
    );
    let n = squares.len();
    let mut checked = 0;
    let mut check = |placed: &[usize]| {
        let mut game = empty.clone();
        for (i, &j) in placed.iter().enumerate() {
            game.board[squares[j] as usize] = board::knight(i as u8);
        }
        assert!(
            game.has_any_move(ATTACKER),
            "{:?}",
            placed
                .iter()
                .map(|&j| board::name(squares[j]))
                .collect::<Vec<_>>()
        );
        checked += 1;
    };
    for a in 0..n {
        check(&[a]);
        for b in a + 1..n {
            check(&[a, b]);
            for c in b + 1..n {
                check(&[a, b, c]);
                for d in c + 1..n {
                    check(&[a, b, c, d]);
                }
            }
        }
    }
    assert_eq!(checked, 52 + 1326 + 22100 + 270725);
}

#[test]
fn sg_e3_two_hundred_moves_without_capture_is_a_draw() {
    let diagram = "
        6 ...L....
        5 ........
        4 ........
        3 ........
        2 ..S.....
        1 ........
        0 ...K....";
    let mut game = pos(diagram, ATTACKER).with_quiet_plies(QUIET_LIMIT - 1);
    assert_eq!(game.view(None).scores[2].value, "199/200");
    play(&mut game, ATTACKER, "d0-e2");
    let outcome = game.status().outcome().cloned().expect("drawn");
    assert!(outcome.is_draw());
    assert_eq!(
        outcome.reason.en,
        "200 moves without a capture: the game is drawn"
    );
    assert!(game.moves(DEFENDER).is_empty());

    // A capture on the 200th move resets the count instead.
    let mut game = pos(diagram, ATTACKER).with_quiet_plies(QUIET_LIMIT - 1);
    play(&mut game, ATTACKER, "d0-c2");
    assert_eq!(game.status(), Status::to_act(DEFENDER));
    assert_eq!(game.quiet_plies(), 0);

    // A pass counts as a move.
    let mut game = pos(
        "
        6 ........
        5 ........
        4 ...K....
        3 ..L.....
        2 ........
        1 ........
        0 ........",
        DEFENDER,
    )
    .with_quiet_plies(QUIET_LIMIT - 1);
    play(&mut game, DEFENDER, "pass");
    assert!(game.status().outcome().is_some_and(|o| o.is_draw()));
}

#[test]
fn sg_e3_captures_are_never_compulsory() {
    let mut game = pos(
        "
        6 ...L....
        5 ........
        4 ..S.....
        3 ........
        2 ...K....
        1 ........
        0 ........",
        ATTACKER,
    );
    // d2 can take c4 but may also go elsewhere.
    assert_eq!(
        ids(&game, ATTACKER),
        strings(&["d2-b3", "d2-c4", "d2-e4", "d2-f3"])
    );
    play(&mut game, ATTACKER, "d2-e4");
    assert_eq!(game.soldiers, 1);
}

// ---------------------------------------------------------------------------------------
// Scene, manifest, saved state

#[test]
fn the_scene_draws_rank_six_at_the_top() {
    let game = started("d6");
    let scene = game.view(Some(ATTACKER));
    assert_eq!(scene, game.view(Some(DEFENDER)));
    assert_eq!(scene, game.view(None));
    let board = &scene.boards[0];
    assert_eq!((board.id.as_str(), board.cols, board.rows), ("board", 8, 7));
    assert_eq!(
        board.col_labels,
        strings(&["a", "b", "c", "d", "e", "f", "g", "h"])
    );
    assert_eq!(
        board.row_labels,
        ["6", "5", "4", "3", "2", "1", "0"]
            .map(String::from)
            .to_vec()
    );
    let cell = |col, row| board.cell(col, row).unwrap();
    assert_eq!(
        (cell(0, 0).kind.as_str(), cell(0, 1).kind.as_str()),
        ("field", "moat")
    ); // a6, a5
    assert_eq!(cell(7, 5).kind, "moat"); // h1
    assert_eq!(
        (cell(2, 0).kind.as_str(), cell(2, 0).label.as_str()),
        ("castle", "•")
    ); // c6
    assert_eq!(
        (cell(3, 0).kind.as_str(), cell(3, 0).label.as_str()),
        ("crown", "♛")
    ); // d6
    assert_eq!(
        (cell(4, 1).kind.as_str(), cell(4, 1).label.as_str()),
        ("castle", "•")
    ); // e5
    assert_eq!(cell(5, 3).kind, "castle"); // f3
    assert_eq!(cell(1, 3).kind, "field"); // b3
    assert_eq!(
        (cell(2, 6).kind.as_str(), cell(2, 6).label.as_str()),
        ("start", "◦")
    ); // c0
    assert_eq!(cell(1, 6).kind, "void"); // b0
    assert_eq!(cell(7, 6).kind, "void"); // h0
    let colours: std::collections::BTreeSet<String> = [(0, 0), (0, 1), (3, 3), (3, 0), (2, 6)]
        .iter()
        .map(|&(c, r)| cell(c, r).colour.to_hex())
        .collect();
    assert_eq!(
        colours.len(),
        5,
        "field, moat, castle, crown and start differ"
    );
    let scores: Vec<&str> = scene.scores.iter().map(|s| s.value.as_str()).collect();
    assert_eq!(scores, ["4", "4", "0/200"]);
    assert_eq!(scene.message.en, "Attacker: move a knight");
    // The lord's placement is the last move.
    assert_eq!(scene.highlights.len(), 1);
    assert_eq!(scene.highlights[0].target, Target::cell("board", 3, 0));
    for piece in &board.pieces {
        let expected = if piece.id.starts_with('k') {
            ATTACKER
        } else {
            DEFENDER
        };
        assert_eq!(piece.owner, Some(expected));
    }
}

#[test]
fn the_manifest_is_sane() {
    let manifest = Siege::manifest();
    assert!(manifest.problems().is_empty(), "{:?}", manifest.problems());
    assert_eq!(manifest.id, "siege");
    assert_eq!(manifest.name.fr, "Siège");
    assert_eq!(manifest.version, "1.0.0");
    assert_eq!((manifest.min_players, manifest.max_players), (2, 2));
    assert_eq!(manifest.seats[0].name.fr, "Assaillant");
    assert_eq!(manifest.seats[1].name.en, "Defender");
    assert!(manifest.options.is_empty());
    // The operations offered to house rules (see ops.rs).
    let names: Vec<&str> = manifest
        .operations
        .iter()
        .map(|op| op.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "empty_dotted_squares",
            "soldiers_lost",
            "special_rule_applies",
            "add_soldier",
            "end_special_rule",
            "piece_at",
            "where_is",
            "move_piece",
            "remove_piece",
            "pass_turn",
            "reinforcements",
            "nimble_lord",
        ]
    );
    assert!(!manifest.hidden_information);
}

#[test]
fn saved_games_load_identically_and_bad_saves_are_refused() {
    let mut table = GameTable::<Siege>::default();
    let h = table.create(&Setup::new(2, 1)).unwrap();
    for id in ["lord-e6", "c0-d2", "d5-d4", "d2-c4", "e5-f5"] {
        let seat = table.status(h).unwrap().seats()[0];
        table.apply(h, seat, id).unwrap();
    }
    let bytes = table.save(h).unwrap();
    let json = String::from_utf8(bytes.clone()).unwrap();
    assert!(json.contains(r#"{"id":"k1","at":"c4"}"#), "{json}");
    let copy = table.load(&bytes).unwrap();
    assert_eq!(table.get(copy).unwrap(), table.get(h).unwrap());
    assert_eq!(table.save(copy).unwrap(), bytes);

    for bad in [
        json.replace(r#""at":"c4""#, r#""at":"b0""#),
        json.replace(r#""at":"c4""#, r#""at":"d4""#),
        json.replace(r#""id":"s1""#, r#""id":"s9""#),
        json.replace(r#""to_move":0"#, r#""to_move":2"#),
        json.replace(r#"{"id":"lord","at":"e6"}"#, r#"{"id":"lord","at":"b6"}"#),
    ] {
        assert_ne!(bad, json);
        assert!(table.load(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn diagrams_are_checked() {
    let bad = [
        "K.......\n........\n........\n........\n........\n........\n........\n........",
        "........\n........\n........\n........\n........\nS.......\n........",
        "........\n........\n........\n........\n........\n........\nK.......",
        "KKKKK...\n........\n........\n........\n........\n........\n........",
    ];
    for diagram in bad {
        assert!(Siege::from_diagram(diagram, ATTACKER).is_err(), "{diagram}");
    }
    assert!(Siege::from_diagram("", 2).is_err());
}

// ---------------------------------------------------------------------------------------
// Random games

/// Most plies a game can last: the lord's placement, then at most 200 quiet plies before each
/// of at most eight captures and after the last.
const MAX_PLIES: u32 = 1 + (QUIET_LIMIT as u32) * 9;

#[test]
fn random_games_follow_the_protocol_and_replay_by_id() {
    let mut config = RandomGames::new(2..=2, 200);
    config.max_moves = MAX_PLIES as usize;
    config.deep_every = 3;
    let mut finished = [0u32; 3];
    random_games::<Siege>(&config, |game, _| {
        // The cached counts agree with the board.
        let knights = game.board.iter().filter(|&&c| board::is_knight(c)).count();
        let soldiers = game.board.iter().filter(|&&c| board::is_soldier(c)).count();
        assert_eq!(
            (knights, soldiers),
            (game.knights as usize, game.soldiers as usize)
        );
        assert!(game.quiet_plies() <= QUIET_LIMIT);
        let seat = match game.status() {
            Status::Finished { outcome } => {
                match outcome.winners.as_slice() {
                    [] => finished[2] += 1,
                    [w] => finished[*w as usize] += 1,
                    _ => panic!("two winners"),
                }
                return;
            }
            Status::ToAct { seats } => {
                assert_eq!(seats.len(), 1, "one side moves at a time");
                seats[0]
            }
        };
        // A move's click path: the square (lord), or the piece then its destination.
        for mv in game.moves(seat) {
            let action = game.describe(seat, &mv);
            let id = game.move_id(seat, &mv);
            assert_eq!(action.id, id);
            assert!(id == "pass" || action.path.len() == 1 + usize::from(!id.starts_with("lord-")));
        }
    });
    // Random play reaches both kinds of win (draws are rare at random).
    assert!(
        finished[0] > 0 && finished[1] > 0,
        "attacker, defender, draws: {finished:?}"
    );
}

#[test]
fn random_playouts_always_terminate_with_an_outcome() {
    let mut lengths = 0u64;
    for seed in 0..2000u64 {
        let mut game = Siege::new(&Setup::new(2, seed)).unwrap();
        let result = random_playout(&mut game, seed, 100_000);
        assert!(!result.stuck, "seed {seed} got stuck");
        let outcome = result
            .outcome
            .unwrap_or_else(|| panic!("seed {seed} did not end"));
        assert_eq!(game.status().outcome(), Some(&outcome));
        assert!(
            result.moves <= MAX_PLIES,
            "seed {seed}: {} moves",
            result.moves
        );
        lengths += u64::from(result.moves);
    }
    assert!(lengths > 2000);
}
