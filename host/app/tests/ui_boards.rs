//! Boards beyond grids in the window: clicks on points and on hexagons walk the actions' click
//! paths, as they do on squares. Le Renard et les Poules is played by clicks on its cross of
//! points; the other layouts are drawn from hand-made scenes. Cards and dice too: a card played
//! flies from the hand to the table, and a die drawn with its face turns when rolled again.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use veillee_app::i18n::Lang;
use veillee_app::scene::{Help, SceneView};
use veillee_app::App;
use veillee_sdk::{
    move_path, text, Action, Board, Cell, Colour, HexCoords, HexOrientation, Piece, Scene, Shape,
    Target,
};

mod common;
use common::{harness, wait};

fn moves(h: &Harness<'static, App>) -> Option<u32> {
    h.state().play().view.as_ref().map(|v| v.meta.moves)
}

#[test]
fn renard_is_played_by_clicks_on_its_points() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    h.get_by_label("New game — Fox and Hens").click_accesskit();
    wait(&mut h, "the new-game screen", |h| {
        h.query_by_label_contains("Start the game").is_some()
    });
    h.get_by_label_contains("Start the game").click();
    wait(&mut h, "the game to start", |h| moves(h) == Some(0));

    // RP-H1: the hen on c3, then the point c4 above it.
    h.get_by_label("c3 — Hen").click();
    h.step();
    h.get_by_label("c4").click();
    wait(&mut h, "the hen's step", |h| moves(h) == Some(1));
    // RP-F2: the fox jumps over it, from d4 to b4: one click on the fox, one on the landing.
    h.get_by_label("d4 — Fox").click();
    h.step();
    h.get_by_label("b4").click();
    wait(&mut h, "the fox's jump", |h| moves(h) == Some(2));
    assert!(
        h.query_by_label_contains("Fox d4 → b4 (eats a hen)")
            .is_some(),
        "the log says it"
    );
    assert!(
        h.query_by_label("c4").is_some(),
        "the eaten hen's point is empty"
    );
}

/// A board of `layout` with a piece on (1, 1) that may go to (2, 1), or on to (2, 2).
fn scene(board: Board) -> (Scene, Vec<Action>) {
    let mut board = board;
    board
        .pieces
        .push(Piece::new("p", (1, 1), Shape::Disc, Colour::rgb(200, 40, 40)).owned_by(0));
    let mut scene = Scene::new(text("À vous", "Your move"));
    scene.boards.push(board);
    let actions = vec![
        Action::new(
            "short",
            text("Court", "Short"),
            move_path("b", "p", &[(2, 1)]),
        ),
        Action::new(
            "long",
            text("Long", "Long"),
            move_path("b", "p", &[(2, 1), (2, 2)]),
        ),
    ];
    (scene, actions)
}

/// What the player chose, through the scene drawer alone.
struct Table {
    scene: Scene,
    actions: Vec<Action>,
    view: SceneView,
    chosen: Option<String>,
}

fn table(board: Board) -> Harness<'static, Table> {
    let (scene, actions) = scene(board);
    let state = Table {
        scene,
        actions,
        view: SceneView::default(),
        chosen: None,
    };
    Harness::builder()
        .with_size(egui::vec2(900.0, 700.0))
        .build_ui_state(
            |ui, t: &mut Table| {
                if let Some(id) =
                    t.view
                        .ui(ui, &t.scene, &t.actions, Lang::En, Help::default(), Some(0))
                {
                    t.chosen = Some(id);
                }
            },
            state,
        )
}

#[test]
fn clicks_on_hexagons_and_points_walk_the_click_paths() {
    let cell = Cell::new("field", Colour::rgb(120, 160, 90));
    let boards = [
        Board::hexes(
            "b",
            4,
            4,
            HexOrientation::PointyTop,
            HexCoords::Offset,
            cell.clone(),
        ),
        Board::hexes(
            "b",
            4,
            4,
            HexOrientation::FlatTop,
            HexCoords::Axial,
            cell.clone(),
        ),
        Board::points("b", 4, 4, cell.clone()),
        Board::track("b", 16, 4, cell),
    ];
    for board in boards {
        let layout = board.layout;
        // The piece, then (2, 1): the shorter path is complete, a longer one goes on.
        let mut h = table(board);
        h.get_by_label("field 1,1").click();
        h.step();
        assert_eq!(
            h.state().view.selected(),
            [Target::piece("p")],
            "{layout:?}: the piece is picked"
        );
        h.get_by_label("field 2,1").click();
        h.step();
        assert_eq!(h.state().chosen, None, "{layout:?}: the path may go on");
        h.get_by_label("field 2,2").click();
        h.step();
        assert_eq!(
            h.state().chosen.as_deref(),
            Some("long"),
            "{layout:?}: the whole path was clicked"
        );
    }
}

/// Clicks at `pos` on the screen: the pointer moves there, presses and lets go.
fn click_at<S>(h: &mut Harness<'static, S>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.drag_at(pos);
    h.drop_at(pos);
    h.step();
}

#[test]
fn a_click_selects_the_hexagon_drawn_under_the_pointer() {
    // Pointy-top hexagons, odd rows shifted right: (2, 2) is the lower-right neighbour of
    // (1, 1), whose box overlaps the bottom of (1, 1)'s hexagon.
    let cell = Cell::new("field", Colour::rgb(120, 160, 90));
    let mut board = Board::hexes(
        "b",
        4,
        4,
        HexOrientation::PointyTop,
        HexCoords::Offset,
        cell,
    );
    board
        .pieces
        .push(Piece::new("q", (2, 2), Shape::Disc, Colour::rgb(40, 40, 200)).owned_by(0));
    let mut h = table(board);
    h.state_mut().actions.push(Action::new(
        "q",
        text("q", "q"),
        move_path("b", "q", &[(3, 3)]),
    ));
    h.step();
    let centre = h.get_by_label("field 1,1").rect().center();
    // Hexagons side by side are one unit apart.
    let unit = (h.get_by_label("field 2,1").rect().center() - centre).length();
    let at = |x: f32, y: f32| centre + egui::vec2(x, y) * unit;
    let selected = |h: &Harness<'static, Table>| h.state().view.selected().to_vec();

    // Inside (2, 2)'s hexagon, 0.46 from its centre, in the corner of a square that would
    // stand for (1, 1).
    click_at(&mut h, at(0.38, 0.42));
    assert_eq!(selected(&h), [Target::piece("q")]);
    // Inside (1, 1)'s hexagon, where (2, 2)'s box reaches.
    click_at(&mut h, at(0.2, 0.4));
    assert_eq!(selected(&h), [Target::piece("p")]);
    click_at(&mut h, at(0.38, 0.42));
    assert_eq!(selected(&h), [Target::piece("q")]);
    // Near (1, 1)'s top corner, outside any square inside it.
    click_at(&mut h, at(0.02, -0.53));
    assert_eq!(selected(&h), [Target::piece("p")]);
    // Then into (2, 1), right beside it, across the side they share.
    click_at(&mut h, at(0.53, 0.05));
    assert_eq!(h.state().chosen, None, "the path may go on");
    assert_eq!(
        selected(&h),
        [Target::piece("p"), Target::cell("b", 2, 1)],
        "(2, 1) is next"
    );
}

/// Cards and a die through the scene drawer alone: a scene the test changes between frames.
struct Cards {
    scene: Scene,
    view: SceneView,
}

/// Seat 0's hand, a table zone and a die showing face `up` of roll `roll`.
fn cards_scene(hand: &[&str], table: &[&str], up: u8, roll: u32) -> Scene {
    let card = |id: &&str| veillee_sdk::Card {
        id: (*id).into(),
        face_up: true,
        title: text(*id, *id),
        colour: Colour::rgb(200, 60, 60),
        ..veillee_sdk::Card::default()
    };
    let names = ["One", "Two", "Three", "Four", "Five", "Six"];
    let faces = (1..=6u8)
        .map(|n| {
            let name = names[usize::from(n) - 1];
            veillee_sdk::DieFace::pips(n, Colour::rgb(245, 240, 225), text(name, name))
        })
        .collect();
    let zone = |id: &str, owner, cards: Vec<veillee_sdk::Card>| veillee_sdk::Zone {
        id: id.into(),
        title: text(id, id),
        owner,
        cards,
    };
    let mut scene = Scene::new(text("", ""));
    scene
        .zones
        .push(zone("hand", Some(0), hand.iter().map(card).collect()));
    scene
        .zones
        .push(zone("table", None, table.iter().map(card).collect()));
    let die = veillee_sdk::Card::die("die", faces, up).rolled(roll);
    scene.zones.push(zone("dice", None, vec![die]));
    scene
}

fn cards_table(scene: Scene) -> Harness<'static, Cards> {
    let state = Cards {
        scene,
        view: SceneView::default(),
    };
    Harness::builder()
        .with_size(egui::vec2(900.0, 700.0))
        .build_ui_state(
            |ui, t: &mut Cards| {
                t.view
                    .ui(ui, &t.scene, &[], Lang::En, Help::default(), Some(0));
            },
            state,
        )
}

#[test]
fn a_card_played_flies_to_the_table_and_a_new_roll_turns_the_drawn_die() {
    let mut h = cards_table(cards_scene(&["Ace", "King"], &[], 2, 1));
    h.run();
    // The die is drawn showing its face, named.
    assert!(h.query_by_label("Three").is_some(), "the die's face");
    let from = h.get_by_label("Ace").rect().center();
    // The ace is played and the die rolled again, to five.
    h.state_mut().scene = cards_scene(&["King"], &["Ace"], 4, 2);
    // (What was drawn is read a frame later.)
    h.step();
    h.step();
    let key = "table//Ace";
    let shown = |h: &Harness<'static, Cards>| h.state().view.motion.drawn_at(key).unwrap().center();
    let to = h.get_by_label("Ace").rect().center();
    assert!(from.distance(to) > 50.0, "the hand and the table are apart");
    assert!(
        shown(&h).distance(from) < shown(&h).distance(to),
        "the ace starts from the hand: {:?}, hand {from:?}, table {to:?}",
        shown(&h)
    );
    let turning = h.state().view.motion.rolling(&h.ctx, "dice//die");
    assert!(
        turning.is_some_and(|p| p < 1.0),
        "the die turns: {turning:?}"
    );
    for _ in 0..120 {
        h.step();
    }
    assert!(shown(&h).distance(to) < 0.5, "the ace lands on the table");
    assert_eq!(h.state().view.motion.rolling(&h.ctx, "dice//die"), None);
    assert!(
        h.query_by_label("Five").is_some(),
        "the die shows its new face"
    );
    assert!(h.query_by_label("Three").is_none());
}
