//! Rule tests, named after the spec's rule ids, on positions with KNOWN trapdoors; views,
//! the leak check, saves and random games.

use veillee_sdk::testing::{random_games, RandomGames};
use veillee_sdk::{
    random_playout, Event, Game, GameRng, GameTable, HighlightKind, Log, Seat, Setup, Status,
    Target,
};

use crate::board::{self, Node, NO, TILES, TREASURE};
use crate::{
    back, number, Ending, Move, Phase, RocNoir, Standoff, DRAW_OFFER_ROLLS, DRAW_REOFFER_ROLLS,
    ENTRANCE, RING_FACE,
};

// ---------------------------------------------------------------------------------------
// Helpers

/// Entrance top-left (a1–b2), black gallery top-right (i1–j2), grey bottom-left (a9–b10),
/// white bottom-right (i9–j10). Every trapdoor on its tile's bottom-right square unless
/// set otherwise.
fn game(players: u8) -> RocNoir {
    RocNoir::with_layout(players, 7, false, [ENTRANCE, 0, 1, 2], [3; TILES])
}

fn sq(name: &str) -> Node {
    board::parse_square(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// Puts the trapdoor of `name`'s tile on `name`.
fn trap(g: &mut RocNoir, name: &str) {
    let (t, p) = board::tile_of(sq(name)).unwrap();
    g.traps[t] = p;
}

/// Puts a knight on a node by name.
fn put(g: &mut RocNoir, seat: u8, helmet: u8, at: &str) {
    let n = g.parse_node(at).unwrap();
    g.pos[seat as usize][helmet as usize] = n;
}

/// Starts the move of `helmet` for the seat to play, as if the die had named it.
fn moving(g: &mut RocNoir, helmet: u8) {
    g.phase = Phase::Move;
    g.active = helmet;
    g.die = Some(helmet * 2 + 1);
    g.steps = 0;
    g.entered = 0;
    g.exit = None;
}

fn ids(g: &RocNoir) -> Vec<String> {
    let seat = g.to_act();
    g.moves(seat).iter().map(|m| g.move_id(seat, m)).collect()
}

fn has(g: &RocNoir, id: &str) -> bool {
    ids(g).iter().any(|i| i == id)
}

fn play(g: &mut RocNoir, id: &str) -> Vec<Event> {
    let seat = g.to_act();
    let mv = g
        .moves(seat)
        .into_iter()
        .find(|m| g.move_id(seat, m) == id)
        .unwrap_or_else(|| panic!("`{id}` is not legal; legal: {:?}", ids(g)));
    let mut log = Log::recording();
    g.play(seat, &mv, &mut log);
    log.into_events()
}

fn at(g: &RocNoir, seat: u8, helmet: u8) -> String {
    g.node_name(g.pos[seat as usize][helmet as usize])
}

/// Portrait `n` with back `gallery`.
fn portrait(n: u8, gallery: u8) -> u8 {
    let p = (n - 1) * 2;
    if back(p) == gallery {
        p
    } else {
        assert_eq!(back(p + 1), gallery, "no portrait {n} with back {gallery}");
        p + 1
    }
}

/// Takes portraits out of the piles and puts them on a rail slot.
fn give(g: &mut RocNoir, seat: u8, helmet: u8, portraits: &[u8]) {
    for &p in portraits {
        for pile in &mut g.piles {
            pile.retain(|&q| q != p);
        }
    }
    for gal in 0..3 {
        g.unknown[gal] = g.piles[gal].len() as u8;
    }
    let mut slot = [NO; 2];
    slot[..portraits.len()].copy_from_slice(portraits);
    g.rail[seat as usize][helmet as usize] = slot;
}

fn cell_kind(g: &RocNoir, viewer: Option<Seat>, name: &str) -> String {
    let n = sq(name);
    let scene = g.view(viewer);
    scene.boards[0]
        .cell((n % 10) as u16, (n / 10) as u16)
        .unwrap()
        .kind
        .clone()
}

// ---------------------------------------------------------------------------------------
// RN-B: the castle

#[test]
fn rn_b1_castle_of_rooms_and_eighty_squares() {
    let squares = (0..100u8)
        .filter(|&n| board::node_at((n % 10) as i8, (n / 10) as i8) == Some(n))
        .count();
    assert_eq!(squares, 80);
    let g = game(2);
    let e = g.entrance();
    let mut around: Vec<String> = board::steps(e).map(|s| g.node_name(s.to)).collect();
    around.sort();
    assert_eq!(around, ["a3", "b3", "c1", "c2"]);
    assert_eq!(board::steps(TREASURE).count(), 8);
    // Every tile has four squares and tile_square inverts tile_of.
    for t in 0..TILES {
        for p in 0..4 {
            assert_eq!(board::tile_of(board::tile_square(t, p)), Some((t, p)));
        }
    }
    // Room names in ids.
    assert_eq!(g.node_name(g.room_node(0)), "black");
    assert_eq!(g.parse_node("white"), Some(board::ROOM + 3));
}

#[test]
fn rn_b1_rooms_and_rn_b2_trapdoors_come_from_the_seed() {
    let a = RocNoir::new(&Setup::new(3, 11)).unwrap();
    let b = RocNoir::new(&Setup::new(3, 11)).unwrap();
    assert_eq!(a, b);
    let mut layouts = std::collections::BTreeSet::new();
    let mut traps = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let g = RocNoir::new(&Setup::new(2, seed)).unwrap();
        layouts.insert(g.corners);
        traps.insert(g.traps);
        assert_eq!(g.revealed, 0);
    }
    assert!(layouts.len() > 5 && traps.len() == 40);
}

// ---------------------------------------------------------------------------------------
// RN-S: set-up

#[test]
fn rn_s_knights_at_the_entrance_three_ropes_and_the_piles_by_back() {
    for players in 2..=4u8 {
        let g = RocNoir::new(&Setup::new(players, 3)).unwrap();
        for s in 0..players {
            for h in 0..3 {
                assert_eq!(at(&g, s, h), "entrance");
            }
            assert_eq!(g.ropes[s as usize], 3);
        }
        let total: usize = g.piles.iter().map(Vec::len).sum();
        assert_eq!(total, players as usize * 6);
        for (gal, pile) in g.piles.iter().enumerate() {
            assert!(pile.iter().all(|&p| back(p) == gal as u8));
            assert_eq!(pile.len(), players as usize * 2);
        }
        // The two portraits of a pair never lie in the same gallery.
        assert_eq!(g.turn, 0);
        assert_eq!(ids(&g), ["roll"]);
    }
    assert!(RocNoir::new(&Setup::new(5, 1)).is_err());
}

// ---------------------------------------------------------------------------------------
// RN-T: the turn

#[test]
fn rn_t1_the_roll_is_a_reveal_and_names_the_knight() {
    let mut g = game(2);
    let events = play(&mut g, "roll");
    assert!(events.iter().all(|e| e.reveal));
    let face = g.die.unwrap();
    assert_eq!(g.active, face / 2);
    assert_eq!(g.phase, Phase::Move);
    // The die face is in the scene (for « le château fort enchanté »).
    let scene = g.view(None);
    let die = scene.zones.iter().find(|z| z.id == "die").unwrap();
    assert_eq!(die.cards.len(), 1);
    // Drawn as a die: six faces, two of each helmet, the ring on one of the black ones; the
    // card's title names the face on top for a host that draws only cards.
    let card = &die.cards[0];
    let drawn = card.die.as_ref().expect("the card is a die");
    assert_eq!(
        (drawn.faces.len(), drawn.up, drawn.roll),
        (6, face, g.rolls)
    );
    assert_eq!(drawn.faces[crate::RING_FACE as usize].mark, "◯");
    assert_eq!(
        drawn.faces[crate::RING_FACE as usize].name.en,
        "Black, ring"
    );
    assert_eq!(card.title, drawn.faces[face as usize].name);
    assert_eq!(scene.problem(), None);
    assert_eq!(scene.rotation, 0);
    // The ring face says so, in the event and the scene.
    let mut seen_ring = false;
    for seed in 0..60 {
        let mut g = RocNoir::with_layout(2, seed, false, [ENTRANCE, 0, 1, 2], [3; TILES]);
        let events = play(&mut g, "roll");
        let ring = g.die == Some(crate::RING_FACE);
        assert_eq!(events[0].text.en.contains("ring"), ring);
        seen_ring |= ring;
    }
    assert!(seen_ring);
}

#[test]
fn rn_t1_a_knight_in_the_treasure_room_gives_way_to_another() {
    let mut g = game(2);
    for seed in 0..50 {
        g = RocNoir::with_layout(2, seed, false, [ENTRANCE, 0, 1, 2], [3; TILES]);
        g.pos[0][0] = TREASURE;
        play(&mut g, "roll");
        if g.die.unwrap() / 2 == 0 {
            break;
        }
    }
    assert_eq!(g.phase, Phase::Choose);
    assert_eq!(ids(&g), ["knight-grey", "knight-white"]);
    play(&mut g, "knight-white");
    assert_eq!(g.active, 2);
    assert!(has(&g, "step-c1"));
}

#[test]
fn rn_t2_step_by_step_as_far_as_wanted_then_stop() {
    let mut g = game(2);
    moving(&mut g, 0);
    let mut list = ids(&g);
    list.sort();
    assert_eq!(
        list,
        [
            "jump-a4", "jump-d1", "jump-d2", "jump-b4", "stop", "step-a3", "step-b3", "step-c1",
            "step-c2"
        ]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .tap_sort()
    );
    let events = play(&mut g, "step-c1"); // c1 is not the trapdoor (d2 is)
    assert!(events[0].reveal, "every step onto a flagstone is a reveal");
    play(&mut g, "step-c2");
    play(&mut g, "step-c3");
    assert_eq!(at(&g, 0, 0), "c3");
    assert_eq!(g.turn, 0);
    play(&mut g, "stop");
    assert_eq!((g.turn, g.phase), (1, Phase::Roll));
    // Stopping at once is allowed too.
    moving(&mut g, 1);
    play(&mut g, "stop");
    assert_eq!(g.turn, 0);
}

/// RN-T2, « Vous pouvez déplacer votre chevalier aussi loin que vous voulez » and « Vous
/// pouvez vous déplacer en avant, en arrière et latéralement, mais pas en diagonale. »: no
/// cap on the steps of a move, and stepping back onto the square just left is allowed.
#[test]
fn rn_t2_as_far_as_one_likes_back_and_forth_with_no_step_limit() {
    let mut g = game(2);
    put(&mut g, 0, 0, "c1");
    moving(&mut g, 0);
    for i in 0..300 {
        let (back, forth) = if i % 2 == 0 {
            ("step-c2", "step-c1")
        } else {
            ("step-c1", "step-c2")
        };
        assert!(has(&g, back), "step {i}: {:?}", ids(&g));
        play(&mut g, back);
        assert!(has(&g, forth), "back where it came from, step {i}");
    }
    assert!(has(&g, "step-d1") && has(&g, "jump-c3") && has(&g, "stop"));
    assert_eq!((g.turn, g.phase), (0, Phase::Move));
}

trait TapSort {
    fn tap_sort(self) -> Self;
}
impl TapSort for Vec<String> {
    fn tap_sort(mut self) -> Self {
        self.sort();
        self
    }
}

#[test]
fn rn_t3_no_passing_over_a_knight_without_a_rope() {
    let mut g = game(2);
    put(&mut g, 1, 0, "c1");
    put(&mut g, 0, 0, "c2");
    moving(&mut g, 0);
    assert!(!has(&g, "step-c1"));
    g.ropes[0] = 0;
    assert!(ids(&g).iter().all(|i| !i.starts_with("jump-")));
}

// ---------------------------------------------------------------------------------------
// RN-P: trapdoors

#[test]
fn rn_p1_a_trapdoor_sends_the_knight_back_and_is_revealed() {
    let mut g = game(2);
    trap(&mut g, "c1");
    moving(&mut g, 0);
    let events = play(&mut g, "step-c1");
    assert_eq!(at(&g, 0, 0), "entrance", "back to the entrance");
    assert!(events.iter().all(|e| e.reveal));
    assert!(events.iter().any(|e| e.text.en.contains("trapdoor on c1")));
    assert_eq!((g.turn, g.phase), (1, Phase::Roll), "the move ended");
    assert_eq!(g.fell, Some((0, sq("c1"))));
    // Everyone sees it until the next turn starts (RN-P4, memory mode), with "fell!".
    for viewer in [None, Some(0), Some(1)] {
        assert_eq!(cell_kind(&g, viewer, "c1"), "trapdoor");
        let scene = g.view(viewer);
        assert!(scene
            .highlights
            .iter()
            .any(|h| h.kind == HighlightKind::Danger && h.target == Target::piece("red-black")));
    }
    play(&mut g, "roll");
    assert_eq!(cell_kind(&g, None, "c1"), "flagstone", "forgotten");
    assert!(g.revealed != 0, "but still known (the re-draw keeps it)");
}

/// The game with the house rule « trappe coûteuse » switched on, as its script does.
fn costly(mut g: RocNoir) -> RocNoir {
    g.command("costly_trapdoor", &serde_json::Value::Null)
        .unwrap();
    g
}

#[test]
fn rn_p1_costly_trapdoor_a_fall_gives_back_a_rope() {
    let mut g = costly(game(2));
    trap(&mut g, "c1");
    moving(&mut g, 0);
    let events = play(&mut g, "step-c1");
    assert_eq!(at(&g, 0, 0), "entrance", "the fall itself is RN-P1's");
    assert_eq!(g.ropes[..2], [2, 3]);
    let last = events.last().unwrap();
    assert_eq!(
        last.text.fr,
        "Trappe coûteuse : le joueur 1 rend une corde (il lui en reste 2)"
    );
    assert_eq!(
        last.text.en,
        "Costly trapdoor: player 1 hands back a rope (2 left)"
    );
    // Plain, the same fall costs nothing.
    let mut plain = game(2);
    trap(&mut plain, "c1");
    moving(&mut plain, 0);
    let events = play(&mut plain, "step-c1");
    assert_eq!(plain.ropes[..2], [3, 3]);
    assert!(events.iter().all(|e| !e.text.en.contains("Costly")));
}

#[test]
fn rn_r1_costly_trapdoor_nothing_to_give_back_without_a_rope() {
    let mut g = costly(game(2));
    g.ropes[0] = 0;
    trap(&mut g, "c1");
    moving(&mut g, 0);
    let events = play(&mut g, "step-c1");
    assert_eq!(g.ropes[..2], [0, 3]);
    assert!(events.iter().all(|e| !e.text.en.contains("Costly")));
}

#[test]
fn rn_p2_costly_trapdoor_the_counterweights_fall_costs_the_fallen_knights_player() {
    let mut g = costly(game(2));
    trap(&mut g, "d2"); // tile c1–d2; c1 is diagonally opposite
    put(&mut g, 1, 0, "c1"); // blue's black knight is the counterweight
    put(&mut g, 0, 0, "d2"); // red stands on the held trapdoor
    g.turn = 1;
    moving(&mut g, 0);
    play(&mut g, "step-c2");
    assert_eq!(at(&g, 0, 0), "c1", "red fell through d2");
    assert_eq!(g.ropes[..2], [2, 3], "red's player pays, not the mover");
    // A second fall in the same turn is free: blue's knight falls through c3.
    trap(&mut g, "c3");
    play(&mut g, "step-c3");
    assert_eq!(g.fell, Some((3, sq("c3"))));
    assert_eq!(at(&g, 1, 0), "c2");
    assert_eq!(g.ropes[..2], [2, 3]);
}

#[test]
fn costly_trapdoor_is_saved_with_the_game_and_absent_from_plain_saves() {
    let plain = game(2);
    assert!(!serde_json::to_string(&plain)
        .unwrap()
        .contains("costly_trapdoor"));
    let g = costly(game(2));
    let saved = serde_json::to_string(&g).unwrap();
    assert!(saved.contains("\"costly_trapdoor\":true"));
    let back: RocNoir = serde_json::from_str(&saved).unwrap();
    assert_eq!(back, g);
}

#[test]
fn rn_t1_enchanted_castle_turns_the_picture_a_quarter_turn_on_every_ring() {
    let mut g = RocNoir::new(&Setup::new(2, 3)).unwrap();
    g.command("enchanted_castle", &serde_json::Value::Null)
        .unwrap();
    assert_eq!((g.castle_turns, g.view(None).rotation), (Some(0), 0));
    let mut rng = GameRng::new(3);
    let (mut rings, mut turns) = (0, 0u8);
    for _ in 0..3000 {
        let Status::ToAct { seats } = g.status() else {
            break;
        };
        let list = ids(&g);
        let id = list[rng.below(list.len())].clone();
        let events = play(&mut g, &id);
        let turned = events.iter().any(|e| e.text.en.starts_with("The ring!"));
        if id == "roll" && g.die == Some(RING_FACE) {
            rings += 1;
            turns = (turns + 1) % 4;
            let degrees = u32::from(turns) * 90;
            assert_eq!(
                events.last().unwrap().text.fr,
                format!(
                    "L'anneau ! Le château tourne d'un quart de tour (il est maintenant tourné de {degrees}°)"
                )
            );
        } else {
            assert!(!turned, "{id}: {events:?}");
        }
        assert_eq!(g.castle_turns, Some(turns));
        for viewer in [None, Some(seats[0])] {
            assert_eq!(g.view(viewer).rotation, turns, "only the picture turns");
        }
    }
    assert!(rings > 2, "{rings} rings");
    // Plain, the same rolls never turn anything.
    let plain = RocNoir::new(&Setup::new(2, 3)).unwrap();
    assert_eq!((plain.castle_turns, plain.view(None).rotation), (None, 0));
}

#[test]
fn enchanted_castle_is_saved_with_the_game_and_absent_from_plain_saves() {
    assert!(!serde_json::to_string(&game(2))
        .unwrap()
        .contains("castle_turns"));
    let mut g = game(2);
    g.castle_turns = Some(3);
    let saved = serde_json::to_string(&g).unwrap();
    assert!(saved.contains("\"castle_turns\":3"), "{saved}");
    let back: RocNoir = serde_json::from_str(&saved).unwrap();
    assert_eq!(back, g);
    let bad = saved.replace("\"castle_turns\":3", "\"castle_turns\":4");
    assert!(serde_json::from_str::<RocNoir>(&bad).is_err());
}

#[test]
fn rn_p4_assisted_mode_keeps_revealed_trapdoors_marked() {
    let mut g = RocNoir::with_layout(2, 7, true, [ENTRANCE, 0, 1, 2], [3; TILES]);
    trap(&mut g, "c1");
    moving(&mut g, 0);
    play(&mut g, "step-c1");
    play(&mut g, "roll");
    assert_eq!(cell_kind(&g, None, "c1"), "trapdoor");
    assert_eq!(
        cell_kind(&g, None, "d2"),
        "flagstone",
        "never an unrevealed one"
    );
    let assisted = RocNoir::new(&Setup {
        options: [(
            "mode".to_string(),
            veillee_sdk::OptionValue::Choice("assisted".into()),
        )]
        .into_iter()
        .collect(),
        ..Setup::new(2, 1)
    })
    .unwrap();
    assert!(assisted.assisted);
    assert!(!RocNoir::new(&Setup::new(2, 1)).unwrap().assisted);
}

#[test]
fn rn_p2_a_counterweight_holds_the_trapdoor_until_it_leaves() {
    let mut g = game(2);
    trap(&mut g, "d2"); // tile c1–d2; c1 is diagonally opposite
    put(&mut g, 1, 0, "c1"); // blue's black knight is the counterweight
    put(&mut g, 0, 0, "d3");
    moving(&mut g, 0);
    let events = play(&mut g, "step-d2");
    assert_eq!(at(&g, 0, 0), "d2", "held shut");
    assert_eq!(g.revealed, 0);
    assert_eq!(events.len(), 1);
    play(&mut g, "step-e2");
    play(&mut g, "stop");
    // Red again stands on d2; now blue's knight leaves c1: red falls onto c1.
    put(&mut g, 0, 0, "d2");
    moving(&mut g, 0);
    assert_eq!(g.turn, 1);
    let events = play(&mut g, "step-c2");
    assert_eq!(at(&g, 1, 0), "c2");
    assert_eq!(
        at(&g, 0, 0),
        "c1",
        "put on the square the counterweight left"
    );
    assert!(events
        .iter()
        .any(|e| e.reveal && e.text.en.contains("counterweight")));
    assert_eq!(g.fell, Some((0, sq("d2"))));
    assert_eq!(cell_kind(&g, Some(0), "d2"), "trapdoor");
    assert_eq!(g.phase, Phase::Move, "the counterweight's move goes on");
}

#[test]
fn rn_p2_a_held_step_looks_exactly_like_a_safe_one() {
    // Stepping onto a held trapdoor must not tell anyone it is one.
    let mut held = game(2);
    trap(&mut held, "d2");
    put(&mut held, 1, 0, "c1");
    put(&mut held, 0, 0, "d3");
    let mut safe = held.clone();
    trap(&mut safe, "c2");
    moving(&mut held, 0);
    moving(&mut safe, 0);
    let a = play(&mut held, "step-d2");
    let b = play(&mut safe, "step-d2");
    assert_eq!(a, b);
    assert_eq!(held.view(Some(1)), safe.view(Some(1)));
}

#[test]
fn rn_p3_a_neighbour_of_the_trapdoor_does_not_fall() {
    let mut g = game(2);
    trap(&mut g, "d2");
    put(&mut g, 1, 0, "c2"); // orthogonally next to d2 on the same tile
    put(&mut g, 0, 0, "d3");
    moving(&mut g, 0);
    play(&mut g, "step-d2");
    assert_eq!(at(&g, 0, 0), "d3", "the mover fell back");
    assert_eq!(at(&g, 1, 0), "c2", "the neighbour stays");
}

// ---------------------------------------------------------------------------------------
// RN-R: ropes

#[test]
fn rn_r1_a_rope_per_jump_over_any_square() {
    let mut g = game(2);
    put(&mut g, 0, 0, "c3");
    put(&mut g, 1, 0, "d3"); // occupied square jumped over
    moving(&mut g, 0);
    play(&mut g, "jump-e3");
    assert_eq!((at(&g, 0, 0).as_str(), g.ropes[0]), ("e3", 2));
    play(&mut g, "jump-e5".replace("e5", "g3").as_str());
    assert_eq!(g.ropes[0], 1);
    play(&mut g, "jump-e3");
    assert_eq!(g.ropes[0], 0);
    assert!(ids(&g).iter().all(|i| !i.starts_with("jump-")));
    // Jumping over the treasure room lands beyond its whole block.
    let mut g = game(2);
    put(&mut g, 0, 0, "d5");
    moving(&mut g, 0);
    assert!(has(&g, "jump-g5"));
}

#[test]
fn rn_r2_landing_on_a_trapdoor_sends_back_to_the_jump_start() {
    let mut g = game(2);
    trap(&mut g, "e3");
    put(&mut g, 0, 0, "c3");
    moving(&mut g, 0);
    play(&mut g, "jump-e3");
    assert_eq!(at(&g, 0, 0), "c3");
    assert_eq!(g.ropes[0], 2, "the rope is spent");
    assert_eq!(g.turn, 1);
}

/// The ropes a seat has left, as the scene's score table shows them.
fn ropes_shown(scene: &veillee_sdk::Scene, seat: u8) -> String {
    scene
        .scores
        .iter()
        .find(|l| l.seat == Some(seat) && l.label.en == "Ropes")
        .map(|l| l.value.clone())
        .unwrap_or_else(|| panic!("no rope count for seat {seat}"))
}

/// RN-R3, « Plusieurs sauts dans un même coup de jeu sont possibles ; vous devez toutefois
/// rendre une corde pour chaque saut. » and question 2: « … il doit alors également quitter
/// cette galerie par la dernière case qu'il a abordée, même s'il ne possède plus de corde
/// qu'il pourrait rendre pour ce nouveau saut. » Only a player with no rope left jumps back
/// out for free; one who still has a rope hands it back.
#[test]
fn rn_r3_the_jump_back_out_of_a_gallery_costs_a_rope_while_one_is_left() {
    // The issue's reproduction: seed 1, two players (the black gallery is bottom-left).
    let mut table = GameTable::<RocNoir>::default();
    let h = table.create(&Setup::new(2, 1)).unwrap();
    for id in [
        "roll",
        "step-h9",
        "jump-f9",
        "step-e9",
        "step-d9",
        "jump-black",
    ] {
        table
            .apply(h, 0, id)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
    }
    assert_eq!(ropes_shown(&table.view(h, None).unwrap(), 0), "1");
    let out = table.legal_actions(h, 0).unwrap();
    assert_eq!(out.len(), 1, "out by the square it jumped from");
    assert_eq!(out[0].id, "jump-d9");
    assert!(
        out[0].label.en.contains("Hand back a rope"),
        "{:?}",
        out[0].label
    );
    table.apply(h, 0, "jump-d9").unwrap();
    assert_eq!(ropes_shown(&table.view(h, None).unwrap(), 0), "0");
}

#[test]
fn rn_r3_with_the_last_rope_spent_the_jump_back_out_is_free() {
    let mut g = game(2);
    trap(&mut g, "h1"); // the square jumped over is a trapdoor
    put(&mut g, 0, 0, "g1");
    g.ropes[0] = 1;
    moving(&mut g, 0);
    play(&mut g, "jump-black");
    assert_eq!(ropes_shown(&g.view(None), 0), "0");
    assert_eq!(ids(&g), ["jump-g1"], "out by the square it jumped from");
    let seat = g.turn;
    let label = g.describe(seat, &g.moves(seat)[0]).label;
    assert!(label.en.contains("without a rope"), "{label:?}");
    play(&mut g, "jump-g1");
    assert_eq!(at(&g, 0, 0), "g1");
    assert_eq!(ropes_shown(&g.view(None), 0), "0", "free");
}

// ---------------------------------------------------------------------------------------
// RN-G: galleries and portraits

#[test]
fn rn_g1_own_gallery_first() {
    let mut g = game(2);
    put(&mut g, 0, 1, "h2"); // the grey knight beside the black gallery
    moving(&mut g, 1);
    assert!(!has(&g, "step-black"));
    g.visited[0] |= 1 << 1; // it has been to the grey gallery
    assert!(has(&g, "step-black"));
    let mut g = game(2);
    put(&mut g, 0, 0, "h2");
    moving(&mut g, 0);
    assert!(has(&g, "step-black"));
}

#[test]
fn rn_g2_entering_draws_two_beside_the_gallery_colour() {
    let mut g = game(2);
    put(&mut g, 0, 1, "h2");
    g.visited[0] |= 1 << 1;
    moving(&mut g, 1); // the grey knight fetches black portraits for the black knight
    let top: Vec<u8> = g.piles[0][..2].to_vec();
    let events = play(&mut g, "step-black");
    assert_eq!(g.rail[0][0].to_vec(), top);
    assert!(g.rail[0][1].iter().all(|&p| p == NO));
    assert!(events
        .iter()
        .any(|e| e.reveal && e.text.en.contains("draws")));
    assert_eq!(g.piles[0].len(), 2);
    assert_eq!(g.unknown[0], 2);
    // Own gallery visit recorded only for the own colour.
    assert_eq!(g.visited[0], 1 << 1);
    let scene = g.view(Some(1));
    let rail = scene.zones.iter().find(|z| z.id == "rail-red").unwrap();
    assert_eq!(rail.cards.len(), 2);
    assert!(rail.cards.iter().all(|c| c.face_up), "rails are public");
}

#[test]
fn rn_g3_exchange_one_or_two_instead_of_drawing() {
    let mut g = game(2);
    let (a, b) = (portrait(3, 0), portrait(6, 0));
    give(&mut g, 0, 0, &[a, b]);
    put(&mut g, 0, 0, "h2");
    moving(&mut g, 0);
    play(&mut g, "step-black");
    assert_eq!(g.phase, Phase::Exchange);
    assert_eq!(ids(&g), ["swap-3", "swap-6", "swap-3-6", "keep"]);
    let top = g.piles[0][0];
    let events = play(&mut g, "swap-6");
    assert!(events[0].reveal);
    assert_eq!(*g.piles[0].last().unwrap(), b, "slid under the pile");
    assert!(g.rail[0][0].contains(&a) && g.rail[0][0].contains(&top));
    assert_eq!(g.phase, Phase::Move);
    assert_eq!(ids(&g), ["step-h2"]);
}

/// RN-G3, « Un chevalier peut échanger des portraits d'ancêtres lorsqu'il pénètre dans une
/// galerie d'ancêtres, de laquelle le joueur possède déjà des portraits au-dessus de sa
/// barrette à portraits. Il ne tire alors pas des portraits supplémentaires mais les
/// échange. Pour ce faire, le joueur déplace dans un premier temps 1 ou 2 portraits
/// d'ancêtres du chevalier qui a pénétré dans la galerie en-dessous de la pile »: decided as
/// the original says it — the player's whole rail decides between drawing and exchanging,
/// but only the entering knight's own portraits from that gallery are exchanged.
#[test]
fn rn_g3_the_entering_knight_exchanges_its_own_portraits_from_that_gallery() {
    // The issue's position (seed 7, after 3,376 actions of a random game): Red's white
    // knight enters the black gallery; the black-backed portraits are the 6 beside the grey
    // knight and the 2 beside the white knight itself.
    let mut g = game(2);
    give(&mut g, 0, 0, &[portrait(3, 1), portrait(1, 2)]);
    give(&mut g, 0, 1, &[portrait(6, 1), portrait(6, 0)]);
    give(&mut g, 0, 2, &[portrait(2, 0), portrait(2, 2)]);
    g.visited[0] = 0b111;
    put(&mut g, 0, 2, "h2");
    moving(&mut g, 2);
    let top = g.piles[0][0];
    play(&mut g, "step-black");
    assert_eq!(ids(&g), ["swap-2", "keep"], "the 6 is the grey knight's");
    let seat = g.to_act();
    let swap = g.moves(seat)[0];
    assert_eq!(
        g.describe(seat, &swap).path,
        [Target::Card {
            id: "rail-red-white-2b".into()
        }]
    );
    play(&mut g, "swap-2");
    let rail = |g: &RocNoir, h: usize| -> Vec<String> {
        g.view(None)
            .zones
            .iter()
            .find(|z| z.id == "rail-red")
            .unwrap()
            .cards
            .iter()
            .filter(|c| {
                c.id.starts_with(&format!("rail-red-{}-", crate::HELMETS[h]))
            })
            .map(|c| c.id.clone())
            .collect()
    };
    let new = format!("rail-red-white-{}", crate::portrait_name(top));
    assert!(rail(&g, 2).contains(&new), "drawn beside the white knight");
    assert!(!rail(&g, 2).contains(&"rail-red-white-2b".to_string()));
    assert_eq!(rail(&g, 1), ["rail-red-grey-6b", "rail-red-grey-6a"]);
    assert_eq!(ids(&g), ["step-h2"]);
}

#[test]
fn rn_g3_holding_that_gallerys_portraits_elsewhere_means_no_draw_and_no_exchange() {
    // Red holds a black-backed 3 beside the grey knight; the white knight enters the black
    // gallery with none: « Il ne tire alors pas », and it has nothing to exchange.
    let mut g = game(2);
    give(&mut g, 0, 1, &[portrait(3, 0), portrait(4, 1)]);
    give(&mut g, 0, 2, &[portrait(5, 2), portrait(8, 2)]);
    g.visited[0] = 0b111;
    put(&mut g, 0, 2, "h2");
    moving(&mut g, 2);
    let pile = g
        .view(None)
        .zones
        .iter()
        .find(|z| z.id == "pile-black")
        .map(|z| z.cards.len());
    let events = play(&mut g, "step-black");
    assert!(
        events.iter().any(|e| e.text.en.contains("no draw")),
        "{events:?}"
    );
    assert_eq!(ids(&g), ["step-h2"], "no exchange offered");
    let after = g
        .view(None)
        .zones
        .iter()
        .find(|z| z.id == "pile-black")
        .map(|z| z.cards.len());
    assert_eq!(after, pile, "nothing drawn");
    // A pair in the treasure room is out of play: the grey knight's 3 there (one of them
    // black-backed) does not stop a draw beside the black knight.
    let mut g = game(2);
    give(&mut g, 0, 1, &[portrait(3, 0), portrait(3, 1)]);
    g.pos[0][1] = TREASURE;
    g.visited[0] = 0b111;
    put(&mut g, 0, 2, "h2");
    moving(&mut g, 2);
    let events = play(&mut g, "step-black");
    assert!(events.iter().any(|e| e.text.en.contains("draws portraits")));
}

#[test]
fn rn_g4_leave_by_the_entry_square_and_each_gallery_once_per_move() {
    let mut g = game(2);
    trap(&mut g, "g1");
    put(&mut g, 0, 0, "h2");
    moving(&mut g, 0);
    play(&mut g, "step-black");
    assert_eq!(
        ids(&g),
        ["step-h2"],
        "no stopping in the gallery, out by h2"
    );
    play(&mut g, "step-h2");
    assert!(!has(&g, "step-black"), "once per move");
    assert!(has(&g, "stop"));
}

/// RN-G4, « On ne peut pénétrer qu'une seule fois par coup de jeu dans les galeries des
/// ancêtres. » against question I, « On peut donc durant un seul coup pénétrer par exemple
/// dans une galerie des ancêtres, tirer des portraits, se déplacer vers une autre galerie pour
/// effectuer un échange et se déplacer ensuite jusqu'à la chambre du trésor. »: decided as
/// question I shows it — one move may enter several different galleries, each only once.
#[test]
fn rn_g4_one_move_may_enter_two_different_galleries_but_each_only_once() {
    let mut g = game(2);
    give(&mut g, 0, 1, &[portrait(1, 1), portrait(4, 1)]); // grey-backed, the grey knight's
    g.visited[0] = 0b010;
    put(&mut g, 0, 1, "h9");
    moving(&mut g, 1);
    // The white gallery: Red holds nothing from it, so it draws two.
    let events = play(&mut g, "step-white");
    assert!(events.iter().any(|e| e.text.en.contains("draws portraits")));
    play(&mut g, "step-h9");
    assert!(!has(&g, "step-white"), "once per move");
    for sq in ["g9", "f9", "e9", "d9", "c9"] {
        play(&mut g, &format!("step-{sq}"));
    }
    // Another gallery in the same move, for an exchange.
    play(&mut g, "step-grey");
    assert_eq!(ids(&g), ["swap-1", "swap-4", "swap-1-4", "keep"]);
    play(&mut g, "keep");
    play(&mut g, "step-c9");
    assert!(!has(&g, "step-grey"), "once per move");
    assert_eq!((g.turn, g.phase), (0, Phase::Move), "the move goes on");
}

#[test]
fn rn_g5_gather_a_pair_on_ones_own_rail() {
    let mut g = game(2);
    give(&mut g, 0, 0, &[portrait(5, 2), portrait(1, 1)]);
    give(&mut g, 0, 1, &[portrait(5, 0), portrait(2, 2)]);
    let list = ids(&g);
    assert_eq!(list, ["roll", "pair-5-black", "pair-5-grey"]);
    play(&mut g, "pair-5-grey");
    assert!(g.holds_pair(0, 1));
    assert!(!g.holds_pair(0, 0));
    let mut black: Vec<u8> = g.rail[0][0].iter().map(|&p| number(p)).collect();
    black.sort();
    assert_eq!(black, [1, 2]);
    assert_eq!(ids(&g), ["roll"], "nothing left to gather");
}

#[test]
fn rn_g6_the_brigand_takes_the_common_portrait() {
    let mut g = game(2);
    give(&mut g, 0, 1, &[portrait(4, 1), portrait(8, 2)]);
    give(&mut g, 1, 2, &[portrait(2, 2), portrait(8, 0)]);
    put(&mut g, 1, 2, "d4");
    put(&mut g, 0, 1, "c3");
    moving(&mut g, 1);
    play(&mut g, "step-c4");
    play(&mut g, "stop");
    assert_eq!(g.phase, Phase::Brigand);
    assert_eq!(ids(&g), ["rob-blue-white-give-4", "no-rob"]);
    play(&mut g, "rob-blue-white-give-4");
    assert!(g.holds_pair(0, 1));
    let mut victim: Vec<u8> = g.rail[1][2].iter().map(|&p| number(p)).collect();
    victim.sort();
    assert_eq!(victim, [2, 4]);
    assert_eq!((g.turn, g.phase), (1, Phase::Roll));
}

/// RN-G6, « Pour ce faire, le propre chevalier doit être déplacé avec le portrait concerné sur
/// une case à côté du chevalier adverse » and « Le chevalier qui arrive reçoit de la part de
/// l'adversaire le portrait convoité »: only a knight that arrived beside the victim in this
/// move robs; one that stopped at once, or fell on its first step, did not move.
#[test]
fn rn_g6_only_a_knight_that_moved_beside_the_victim_robs() {
    let brigand_next_to_victim = || {
        let mut g = game(2);
        give(&mut g, 0, 1, &[portrait(4, 1), portrait(8, 2)]);
        give(&mut g, 1, 2, &[portrait(2, 2), portrait(8, 0)]);
        put(&mut g, 1, 2, "d4");
        put(&mut g, 0, 1, "c4"); // already beside Blue's white knight
        moving(&mut g, 1);
        g
    };
    // Stopping at once: no robbery, the turn passes.
    let mut g = brigand_next_to_victim();
    play(&mut g, "stop");
    assert_eq!((g.turn, ids(&g)), (1, vec!["roll".to_string()]));
    // Falling on the first step (b4 is a trapdoor): back on c4, but it never moved.
    let mut g = brigand_next_to_victim();
    play(&mut g, "step-b4");
    assert_eq!(at(&g, 0, 1), "c4");
    assert_eq!((g.turn, ids(&g)), (1, vec!["roll".to_string()]));
    // Moving there first, then falling: it arrived beside the victim, it may rob.
    let mut g = brigand_next_to_victim();
    put(&mut g, 0, 1, "c3");
    play(&mut g, "step-c4");
    play(&mut g, "step-b4");
    assert_eq!(at(&g, 0, 1), "c4");
    assert_eq!(ids(&g), ["rob-blue-white-give-4", "no-rob"]);
}

// ---------------------------------------------------------------------------------------
// RN-E: treasure room and end

#[test]
fn rn_e1_the_treasure_room_needs_a_pair_and_ends_the_move() {
    let mut g = game(2);
    put(&mut g, 0, 0, "d5");
    give(&mut g, 0, 0, &[portrait(2, 2), portrait(7, 1)]);
    moving(&mut g, 0);
    assert!(!has(&g, "step-treasure"));
    give(&mut g, 0, 0, &[portrait(2, 2), portrait(2, 0)]);
    assert!(has(&g, "step-treasure"));
    play(&mut g, "step-treasure");
    assert_eq!(g.turn, 1, "the move ends there");
    // Its pair can no longer be stolen nor rearranged.
    put(&mut g, 1, 0, "d5");
    give(&mut g, 1, 0, &[portrait(2, 0), portrait(9, 1)]);
    moving(&mut g, 0);
    g.turn = 1;
    g.active = 0;
    play(&mut g, "stop");
    assert_eq!(g.phase, Phase::Roll);
}

#[test]
fn rn_e2_three_knights_in_the_treasure_room_win() {
    let mut g = game(3);
    g.pos[0][1] = TREASURE;
    g.pos[0][2] = TREASURE;
    put(&mut g, 0, 0, "e4");
    give(&mut g, 0, 0, &[portrait(4, 1), portrait(4, 2)]);
    moving(&mut g, 0);
    play(&mut g, "step-treasure");
    assert_eq!(g.ending, Some(Ending::Won(0)));
    match g.status() {
        Status::Finished { outcome } => assert_eq!(outcome.winners, [0]),
        s => panic!("{s:?}"),
    }
    assert!(g.moves(0).is_empty() && g.moves(1).is_empty());
}

/// The rules end the game only with a winner (« Lorsqu'un joueur a atteint la chambre du
/// trésor avec les trois chevaliers, le jeu est terminé et ce joueur a gagné ! »). The safety
/// net is no silent rule: after [`DRAW_OFFER_ROLLS`] rolls every player in turn is asked,
/// and the game is drawn only if all accept; one `play-on` and the game goes on, asked again
/// [`DRAW_REOFFER_ROLLS`] rolls later.
#[test]
fn rn_e2_the_safety_limit_offers_a_draw_that_every_player_must_accept() {
    let mut g = game(3);
    g.rolls = DRAW_OFFER_ROLLS - 1;
    play(&mut g, "roll");
    play(&mut g, "stop");
    // Blue is to roll: first Blue, then Yellow, then Red are asked.
    assert_eq!(g.status(), Status::to_act(1));
    assert_eq!(ids(&g), ["accept-draw", "play-on"]);
    assert!(g.moves(0).is_empty() && g.moves(2).is_empty());
    assert!(g.view(None).message.en.contains("do you accept a draw"));
    play(&mut g, "accept-draw");
    assert_eq!(g.status(), Status::to_act(2));
    play(&mut g, "accept-draw");
    assert_eq!(g.status(), Status::to_act(0));
    play(&mut g, "play-on");
    // Red refused: Blue rolls, and the next offer comes 20 rolls later.
    assert_eq!(g.status(), Status::to_act(1));
    assert_eq!(ids(&g), ["roll"]);
    let rolls = |g: &RocNoir| {
        g.view(None)
            .scores
            .iter()
            .find(|l| l.label.en == "Rolls")
            .map(|l| l.value.clone())
    };
    assert_eq!(DRAW_REOFFER_ROLLS, 20);
    assert_eq!(rolls(&g).as_deref(), Some("1500/1520"));
    for _ in 0..20 {
        play(&mut g, "roll");
        play(&mut g, "stop");
    }
    for seat in [0, 1, 2] {
        assert_eq!(g.status(), Status::to_act(seat), "asked again, Red first");
        play(&mut g, "accept-draw");
    }
    let Status::Finished { outcome } = g.status() else {
        panic!("{:?}", g.status());
    };
    assert!(outcome.is_draw());
    assert!(outcome
        .reason
        .en
        .contains("accepted by everyone after 1520 rolls"));
    assert!(outcome.reason.fr.contains("limite de sécurité"));
    // The finished game saves and loads.
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<RocNoir>(&json).unwrap(), g);
}

// ---------------------------------------------------------------------------------------
// RN-E3: the stand-off

/// Portrait `n`, copy 0 (`a`) or 1 (`b`).
fn copy(n: u8, c: u8) -> u8 {
    (n - 1) * 2 + c
}

/// Every pile empty, the last knight of each side in the treasure room with a pair (5, 6),
/// and the others in two couples of opposing knights holding the same two numbers: Red's black
/// knight (1a, 2a, at h5, on the move) and Blue's black knight (1b, 2b, at g6); Red's grey
/// knight (3a, 4a, at a3) and Blue's grey knight (3b, 4b, at c8). A robbery in a couple
/// completes both pairs (RN-G6): a stand-off (RN-E3).
fn two_couples() -> RocNoir {
    let mut g = game(2);
    g.visited = [0b111, 0b111, 0, 0];
    give(&mut g, 0, 0, &[copy(1, 0), copy(2, 0)]);
    give(&mut g, 1, 0, &[copy(1, 1), copy(2, 1)]);
    give(&mut g, 0, 1, &[copy(3, 0), copy(4, 0)]);
    give(&mut g, 1, 1, &[copy(3, 1), copy(4, 1)]);
    give(&mut g, 0, 2, &[copy(5, 0), copy(5, 1)]);
    give(&mut g, 1, 2, &[copy(6, 0), copy(6, 1)]);
    put(&mut g, 0, 0, "h5");
    put(&mut g, 1, 0, "g6");
    put(&mut g, 0, 1, "a3");
    put(&mut g, 1, 1, "c8");
    put(&mut g, 0, 2, "treasure");
    put(&mut g, 1, 2, "treasure");
    moving(&mut g, 0);
    g
}

/// Plays the turn of the seat to act without changing the position: roll, then stop (or
/// pick the first knight the die leaves it).
fn idle_turn(g: &mut RocNoir) {
    assert_eq!(g.phase, Phase::Roll, "{:?}", ids(g));
    play(g, "roll");
    if g.phase == Phase::Choose {
        let first = ids(g).remove(0);
        play(g, &first);
    }
    play(g, "stop");
}

/// The stand-off of a `normal`-vs-`normal` game (NEAR_THE_LIMIT, its rolls put back to 300):
/// Red's black knight holds 5 and 2, Blue's white knight the other 5 and 2, the piles are
/// empty and the four other knights are in the treasure room. When Blue's move ends the draw
/// is offered at once, long before the safety net, saying why; all accept and the game is
/// drawn.
#[test]
fn rn_e3_a_stand_off_is_offered_as_a_draw_at_once_and_drawn_when_all_accept() {
    let json = NEAR_THE_LIMIT.replace("\"rolls\":1494", "\"rolls\":300");
    let mut g: RocNoir = serde_json::from_str(&json).unwrap();
    assert!(g.is_standoff());
    assert_eq!(
        g.standoff,
        Standoff::None,
        "a save of 1.0.0 knows no stand-off"
    );
    play(&mut g, "stop");
    // Red is to roll: Red, then Blue are asked.
    assert_eq!(g.status(), Status::to_act(0));
    assert_eq!(ids(&g), ["accept-draw", "play-on"]);
    assert!(g.moves(1).is_empty());
    let message = g.view(None).message;
    assert!(message
        .en
        .starts_with("Stand-off: nobody can complete a pair"));
    assert!(message.en.ends_with("Red, do you accept a draw?"));
    assert!(message.fr.starts_with("Impasse"));
    assert!(!message.en.contains("safety"), "{}", message.en);
    // The offer is saved as such.
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains("\"standoff\":\"offered\""));
    assert_eq!(serde_json::from_str::<RocNoir>(&json).unwrap(), g);
    play(&mut g, "accept-draw");
    assert_eq!(g.status(), Status::to_act(1));
    play(&mut g, "accept-draw");
    assert_eq!(g.ending, Some(Ending::StandoffAgreed));
    let Status::Finished { outcome } = g.status() else {
        panic!("{:?}", g.status());
    };
    assert!(outcome.is_draw());
    assert!(outcome
        .reason
        .en
        .contains("accepted by everyone after 300 rolls: a stand-off"));
    assert!(outcome.reason.fr.contains("impasse"));
    assert_eq!(
        g.view(None).message.en,
        "Draw, accepted by everyone (stand-off)"
    );
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<RocNoir>(&json).unwrap(), g);
}

/// RN-E3: one `play-on` and play goes on; while the position stays a stand-off nothing is
/// offered again (not after 20 rolls either: that is the safety net's re-offer). A robbery in
/// a couple completes both pairs (RN-G6) and ends the stand-off; once both knights have
/// walked into the treasure room the other couple is a new stand-off, offered at once.
#[test]
fn rn_e3_after_a_play_on_no_offer_while_the_stand_off_lasts_and_again_at_a_new_one() {
    let mut g = two_couples();
    assert!(g.is_standoff());
    play(&mut g, "stop");
    assert_eq!(g.status(), Status::to_act(1));
    assert_eq!(ids(&g), ["accept-draw", "play-on"]);
    play(&mut g, "accept-draw");
    play(&mut g, "play-on");
    assert_eq!(g.status(), Status::to_act(1), "Blue rolls");
    assert_eq!(ids(&g), ["roll"]);
    assert_eq!(g.standoff, Standoff::PlayedOn);
    let draw_offer_at = g.draw_offer_at;
    // 41 turns, past the safety net's 20-roll re-offer, and Red is to roll.
    for _ in 0..41 {
        idle_turn(&mut g);
        assert!(g.is_standoff());
        assert_ne!(g.phase, Phase::DrawOffer, "no new offer while it lasts");
    }
    assert_eq!(
        g.draw_offer_at, draw_offer_at,
        "the safety net is untouched"
    );
    // Saved and loaded, the refusal still holds.
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains("\"standoff\":\"played_on\""));
    let mut g: RocNoir = serde_json::from_str(&json).unwrap();
    // Red's black knight robs Blue's (RN-G6): 1a and 1b for Red, 2a and 2b for Blue.
    assert_eq!(g.turn, 0);
    moving(&mut g, 0);
    play(&mut g, "step-g5");
    play(&mut g, "stop");
    play(&mut g, "rob-blue-black-give-2");
    assert!(g.holds_pair(0, 0) && g.holds_pair(1, 0));
    assert!(!g.is_standoff());
    assert_eq!((g.phase, g.standoff), (Phase::Roll, Standoff::None));
    // Both walk in (RN-E1): the grey knights' couple is left, a new stand-off.
    moving(&mut g, 0);
    play(&mut g, "step-treasure");
    assert_eq!((g.turn, g.phase), (0, Phase::Roll));
    moving(&mut g, 0);
    play(&mut g, "step-treasure");
    assert!(g.is_standoff());
    assert_eq!(g.status(), Status::to_act(1));
    assert_eq!(ids(&g), ["accept-draw", "play-on"]);
    assert_eq!(g.standoff, Standoff::Offered);
}

/// RN-E3 is no stand-off while a pair can still be completed otherwise: a portrait still in a
/// pile (RN-G2, RN-G3: which one comes up is hidden), a number beside two knights of one
/// player (RN-G5), a robbery that leaves its victim without a pair (RN-G6), a pair in hand
/// (RN-E1). None of these positions offers a draw when the move ends.
#[test]
fn rn_e3_a_position_that_is_not_a_stand_off_offers_nothing() {
    let mut cases: Vec<(&str, RocNoir)> = Vec::new();
    // Red's grey knight holds 3a alone; 4a is back in the grey pile (its back, 4 mod 3).
    let mut g = two_couples();
    g.rail[0][1] = [copy(3, 0), NO];
    g.piles[usize::from(back(copy(4, 0)))].push(copy(4, 0));
    cases.push(("a pile not empty", g));
    // 2a and 3b change places: Red holds 3 beside its black and grey knights.
    let mut g = two_couples();
    g.rail[0][0] = [copy(1, 0), copy(3, 1)];
    g.rail[1][1] = [copy(2, 0), copy(4, 1)];
    cases.push(("a pair to gather on one's own rail", g));
    // 2b and 3b change places: Red's black knight robbing Blue's (1b) would give it 2a,
    // which makes no pair with 3b.
    let mut g = two_couples();
    g.rail[1][0] = [copy(1, 1), copy(3, 1)];
    g.rail[1][1] = [copy(2, 1), copy(4, 1)];
    cases.push(("a robbery that leaves the victim without a pair", g));
    // 2a and 1b change places: Red's black knight holds 1a and 1b.
    let mut g = two_couples();
    g.rail[0][0] = [copy(1, 0), copy(1, 1)];
    g.rail[1][0] = [copy(2, 0), copy(2, 1)];
    cases.push(("a pair in hand", g));
    for (what, mut g) in cases {
        let json = serde_json::to_string(&g).unwrap();
        assert!(
            serde_json::from_str::<RocNoir>(&json).is_ok(),
            "{what}: a sane position"
        );
        assert!(!g.is_standoff(), "{what}");
        play(&mut g, "stop");
        assert_eq!(g.status(), Status::to_act(1), "{what}");
        assert_ne!(g.phase, Phase::DrawOffer, "{what}");
        assert_eq!(g.standoff, Standoff::None, "{what}");
    }
}

// ---------------------------------------------------------------------------------------
// Views: hot seat, spectator, leak check

/// Plays `n` random moves.
fn random_position(players: u8, seed: u64, n: usize) -> RocNoir {
    let mut g = RocNoir::new(&Setup::new(players, seed)).unwrap();
    let mut rng = GameRng::new(seed ^ 99);
    for _ in 0..n {
        if g.ending.is_some() {
            break;
        }
        let moves = g.moves(g.turn);
        let mv = *rng.pick(&moves).unwrap();
        g.play(g.turn, &mv, &mut Log::off());
    }
    g
}

#[test]
fn hot_seat_views_show_no_hidden_thing_to_any_seat_or_spectator() {
    for seed in 0..40 {
        let g = random_position(4, seed, 40 + seed as usize * 7);
        let spectator = g.view(None);
        for s in 0..4 {
            // Nothing in this game is private to one seat: every seat sees the spectator's
            // scene, so no seat sees another's hidden things (there are none).
            assert_eq!(g.view(Some(s)), spectator);
        }
        let board = &spectator.boards[0];
        let shown = if g.assisted { g.revealed } else { g.shown };
        for (i, cell) in board.cells.iter().enumerate() {
            if cell.kind == "trapdoor" {
                let (t, p) = board::tile_of(i as u8).unwrap();
                assert!(shown & (1 << t) != 0 && g.traps[t] == p);
            }
        }
        for zone in spectator.zones.iter().filter(|z| z.id.starts_with("pile-")) {
            assert!(zone
                .cards
                .iter()
                .all(|c| !c.face_up && c.title.en.is_empty()));
        }
    }
}

#[test]
fn leak_check_redrawing_the_hidden_never_changes_a_view() {
    let mut moved = 0;
    for players in 2..=4u8 {
        for seed in 0..60u64 {
            let g = random_position(players, seed, (seed as usize * 13) % 300);
            for viewer in std::iter::once(None).chain((0..players).map(Some)) {
                let mut copy = g.clone();
                copy.redraw_hidden(viewer, &mut GameRng::new(seed + 1));
                assert_eq!(g.view(viewer), copy.view(viewer), "seed {seed}");
                assert_eq!(
                    g.moves(g.turn),
                    copy.moves(copy.turn),
                    "moves never depend on the hidden"
                );
                moved += usize::from(copy.traps != g.traps);
                // The re-drawn castle is consistent with what everyone saw.
                for t in 0..TILES {
                    assert!(g.could_be_trap(t, copy.traps[t]));
                    if g.revealed & (1 << t) != 0 {
                        assert_eq!(copy.traps[t], g.traps[t]);
                    }
                }
                for gal in 0..3 {
                    let k = g.unknown[gal] as usize;
                    assert_eq!(copy.piles[gal][k..], g.piles[gal][k..], "seen part kept");
                    let (mut a, mut b) = (copy.piles[gal].clone(), g.piles[gal].clone());
                    a.sort();
                    b.sort();
                    assert_eq!(a, b);
                }
            }
        }
    }
    assert!(moved > 100, "the re-draw does move trapdoors");
}

#[test]
fn knowledge_tracking_never_rules_out_the_real_trapdoor() {
    for seed in 0..200 {
        let g = random_position(3, seed, 250);
        for t in 0..TILES {
            assert!(g.could_be_trap(t, g.traps[t]), "seed {seed} tile {t}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Manifest, saves

#[test]
fn the_manifest_is_sane() {
    let m = RocNoir::manifest();
    assert!(m.problems().is_empty(), "{:?}", m.problems());
    assert_eq!(m.id, "roc-noir");
    assert_eq!((m.min_players, m.max_players), (2, 4));
    assert!(m.hidden_information);
    assert_eq!(m.options[0].id, "mode");
}

#[test]
fn saved_games_load_identically_and_bad_saves_are_refused() {
    for seed in 0..30 {
        let g = random_position(2 + (seed % 3) as u8, seed, seed as usize * 11);
        let json = serde_json::to_string(&g).unwrap();
        let back: RocNoir = serde_json::from_str(&json).unwrap();
        assert_eq!(back, g);
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }
    let g = game(2);
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains("\"red-black\",\"entrance\""));
    for (from, to) in [
        ("\"red-black\",\"entrance\"", "\"red-black\",\"z9\""),
        ("\"players\":2", "\"players\":5"),
        ("\"turn\":0", "\"turn\":3"),
    ] {
        let bad = json.replace(from, to);
        assert_ne!(bad, json);
        assert!(serde_json::from_str::<RocNoir>(&bad).is_err(), "{to}");
    }
    // Saves of version 1.0.0 have no safety-net fields: the first offer is still to come.
    let old = json.replace(",\"draw_offer_at\":1500,\"draw_accepted\":0", "");
    assert_ne!(old, json);
    assert_eq!(serde_json::from_str::<RocNoir>(&old).unwrap(), g);
    // Acceptances only while a draw is on offer.
    let bad = json.replace("\"draw_accepted\":0", "\"draw_accepted\":1");
    assert!(serde_json::from_str::<RocNoir>(&bad).is_err());
    // RN-E3: no stand-off field when none was seen (saves before 1.1.0 have none either); a
    // stand-off's offer only in the phase of an offer.
    assert!(!json.contains("standoff"));
    let bad = json.replace(
        "\"draw_accepted\":0",
        "\"draw_accepted\":0,\"standoff\":\"offered\"",
    );
    assert!(serde_json::from_str::<RocNoir>(&bad).is_err());
    let played_on = json.replace(
        "\"draw_accepted\":0",
        "\"draw_accepted\":0,\"standoff\":\"played_on\"",
    );
    assert_eq!(
        serde_json::from_str::<RocNoir>(&played_on)
            .unwrap()
            .standoff,
        Standoff::PlayedOn
    );
}

// ---------------------------------------------------------------------------------------
// Random games

#[test]
fn random_games_follow_the_protocol_and_replay_by_id() {
    random_games::<RocNoir>(&RandomGames::new(2..=4, 12), |game, _| {
        let players = game.players;
        // Invariants: one knight per square but the entrance and treasure room.
        let mut seen = std::collections::BTreeSet::new();
        for s in 0..players as usize {
            for k in 0..3 {
                let n = game.pos[s][k];
                if n != game.entrance() && n != TREASURE {
                    assert!(seen.insert(n), "two knights on {}", game.node_name(n));
                }
                // Nobody stands on an unheld trapdoor.
                if let Some((t, p)) = board::tile_of(n) {
                    let diag = board::tile_square(t, board::diagonal(p));
                    assert!(game.traps[t] != p || game.occupied(diag));
                }
            }
        }
        let portraits: usize = game.piles.iter().map(Vec::len).sum::<usize>()
            + game
                .rail
                .iter()
                .flatten()
                .flatten()
                .filter(|&&p| p != NO)
                .count();
        assert_eq!(portraits, players as usize * 6);
        assert!(
            game.rolls <= game.draw_offer_at,
            "no roll past the safety net"
        );
        let Status::ToAct { seats } = game.status() else {
            return;
        };
        assert_eq!(seats.len(), 1, "one player acts at a time");
        // No two actions share a click path.
        let seat = seats[0];
        let mut paths: Vec<String> = game
            .moves(seat)
            .iter()
            .map(|mv| game.describe(seat, mv).path)
            .filter(|path| !path.is_empty())
            .map(|path| format!("{path:?}"))
            .collect();
        let count = paths.len();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), count, "paths are unique");
    });
}

/// Runs 500 random playouts per player count and prints statistics.
#[test]
fn random_playouts_always_terminate_with_an_outcome() {
    for players in 2..=4u8 {
        let (mut wins, mut draws, mut moves, mut rolls, mut longest) = (0, 0, 0u64, 0u64, 0);
        let mut standoffs = 0;
        let mut most_rolls = 0;
        for seed in 0..500u64 {
            let mut g = RocNoir::new(&Setup::new(players, seed)).unwrap();
            let result = random_playout(&mut g, seed, 200_000);
            assert!(!result.stuck, "seed {seed} got stuck");
            let outcome = result
                .outcome
                .unwrap_or_else(|| panic!("seed {seed} did not end"));
            assert_eq!(g.status().outcome(), Some(&outcome));
            if g.ending == Some(Ending::StandoffAgreed) {
                standoffs += 1;
            } else if outcome.is_draw() {
                draws += 1;
            } else {
                wins += 1;
            }
            moves += u64::from(result.moves);
            rolls += u64::from(g.rolls);
            most_rolls = most_rolls.max(g.rolls);
            longest = longest.max(result.moves);
        }
        println!(
"{players} players: {wins} wins, {standoffs} draws at a stand-off (RN-E3), {draws} draws (accepted at the safety net), {} actions and {} rolls per game, longest {longest} actions, most rolls {most_rolls}",
            moves / 500,
            rolls / 500
        );
    }
}

/// The players' rules keep to the launcher's Markdown subset (no nested lists, no stray
/// markup) with the same outline in French and English, as the host's `rules_texts` test
/// checks; here so that this crate's own tests catch it.
#[test]
fn the_players_rules_have_one_outline_in_both_languages_and_no_stray_markup() {
    use veillee_sdk::rules::{parse, Block};
    let rules = RocNoir::manifest().rules.unwrap();
    let outline = |text: &str| -> Vec<String> {
        parse(text)
            .iter()
            .map(|b| match b {
                Block::Heading { level, .. } => format!("h{level}"),
                Block::Paragraph(_) => "p".into(),
                Block::Item { number, .. } => format!("item {number:?}"),
                Block::Table { rows, .. } => format!("table {}", rows.len()),
            })
            .collect()
    };
    assert_eq!(outline(&rules.fr), outline(&rules.en));
    for text in [&rules.fr, &rules.en] {
        for line in text.lines() {
            assert!(
                !(line.starts_with(' ') && line.trim_start().starts_with("- ")),
                "nested list: {line:?}"
            );
        }
        for block in parse(text) {
            if let Block::Paragraph(spans) | Block::Item { spans, .. } = block {
                for span in spans {
                    assert!(
                        !span.text.contains("**") && !span.text.contains('`'),
                        "{span:?}"
                    );
                }
            }
        }
    }
    assert!(!rules.fr.contains('"'), "« » in French");
}

#[test]
fn move_ids_parse_back_to_nodes() {
    let g = game(2);
    for n in 0..100u8 {
        if board::node_at((n % 10) as i8, (n / 10) as i8) == Some(n) {
            assert_eq!(g.parse_node(&g.node_name(n)), Some(n));
        }
    }
    let _ = Move::Roll;
}

// ---------------------------------------------------------------------------------------
// Bots: the evaluation the search ends its playouts with (eval.rs)

/// Marks the trapdoor of `name`'s tile on `name` as seen by everyone (RN-P1).
fn seen_trap(g: &mut RocNoir, name: &str) {
    trap(g, name);
    let (t, p) = board::tile_of(sq(name)).unwrap();
    g.revealed |= 1 << t;
    g.safe[t] = 0xf & !(1 << p);
}

/// The evaluation for Red with its black knight put on `square`.
fn value_at(g: &mut RocNoir, square: &str) -> f32 {
    put(g, 0, 0, square);
    crate::eval::evaluate(g, 0)
}

/// What the `normal` bot's search (600 iterations, 16-move playouts) picks for the seat to
/// act, with a few seeds.
fn bot_picks(g: &RocNoir, seeds: std::ops::Range<u64>) -> Vec<String> {
    use veillee_sdk::search::{search, GameSpace, Sampled, SearchRequest};
    seeds
        .map(|seed| {
            let seat = g.to_act();
            let mut space = GameSpace::<RocNoir>::default();
            let root = Sampled::draw(&mut space, g, seat, seed).unwrap();
            let request = SearchRequest::new(600, 16, seed, g.players);
            search(&mut space, &root, &request).unwrap().action
        })
        .collect()
}

/// A knight with a pair, two squares from the treasure room with a trapdoor everyone has
/// seen on each of its two short ways (f3, g4), and no rope: the evaluation counts the way
/// around (h3, h4, h5, g5), so one step along it (h3) is worth more than staying, or than g2
/// (as far, the other way round). Measured in a straight line, h3 was worth less than g3,
/// and normal-vs-normal games saw
/// the bots step into the same trapdoors for thousands of rolls.
#[test]
fn the_evaluation_measures_the_way_around_the_trapdoors_everyone_has_seen() {
    let mut g = game(2);
    seen_trap(&mut g, "f3");
    seen_trap(&mut g, "g4");
    g.visited[0] = 0b111;
    g.ropes = [0; 4];
    give(&mut g, 0, 0, &[portrait(1, 1), portrait(1, 2)]);
    let (g3, h3, g2) = (
        value_at(&mut g, "g3"),
        value_at(&mut g, "h3"),
        value_at(&mut g, "g2"),
    );
    assert!(h3 > g3 && h3 > g2, "h3 {h3}, g3 {g3}, g2 {g2}");
}

/// RN-G6: with the piles empty, a knight without a pair gets one only by robbing the
/// opponent's knight that holds its number: standing beside it is worth more than standing
/// far away (the bots used to head for empty galleries and never finish).
#[test]
fn with_the_piles_empty_a_knight_heads_for_the_knight_it_can_rob() {
    let mut g = game(2);
    // Blue's black knight has not visited its gallery yet (RN-G1): it heads there, not for
    // Red's knight.
    g.visited = [0b111, 0, 0, 0];
    give(&mut g, 0, 1, &[portrait(5, 2), portrait(6, 0)]);
    give(&mut g, 1, 0, &[portrait(2, 2), portrait(6, 1)]);
    g.piles = Default::default();
    g.unknown = [0; 3];
    put(&mut g, 1, 0, "d8");
    put(&mut g, 0, 1, "h3");
    let far = crate::eval::evaluate(&g, 0);
    put(&mut g, 0, 1, "c7");
    let near = crate::eval::evaluate(&g, 0);
    assert!(near > far, "beside the victim {near}, far {far}");
}

/// The safety net's draw (not a rule): at an even position past the limit the bots accept it
/// rather than play on for ever; normal-vs-normal games used to reach the 100,000-move cap.
#[test]
fn past_the_safety_limit_an_even_game_is_a_draw_the_bots_accept() {
    let mut g = game(2);
    g.rolls = DRAW_OFFER_ROLLS - 1;
    play(&mut g, "roll");
    play(&mut g, "stop");
    assert_eq!(ids(&g), ["accept-draw", "play-on"]);
    assert_eq!(bot_picks(&g, 0..3), ["accept-draw"; 3]);
    play(&mut g, "accept-draw");
    assert_eq!(bot_picks(&g, 0..3), ["accept-draw"; 3]);
}

/// RN-E3: at an even stand-off the bots accept the draw, as at the safety net: two couples of
/// opposing knights holding the same numbers, a knight of each side in the treasure room.
#[test]
fn rn_e3_at_an_even_stand_off_the_bots_accept_the_draw() {
    let mut g = two_couples();
    play(&mut g, "stop");
    assert_eq!(ids(&g), ["accept-draw", "play-on"]);
    assert_eq!(bot_picks(&g, 0..3), ["accept-draw"; 3]);
    play(&mut g, "accept-draw");
    assert_eq!(bot_picks(&g, 0..3), ["accept-draw"; 3]);
    play(&mut g, "accept-draw");
    assert_eq!(g.ending, Some(Ending::StandoffAgreed));
}

/// RN-E3 in bot games: 2-player games between quick bots (40 iterations, 8-move playouts)
/// end by the rules (RN-E2) or at a stand-off, all long before the safety net. Before RN-E3
/// was detected, about one `normal`-vs-`normal` game in four reached a stand-off that only the
/// safety net ended, after 1,500 rolls.
#[test]
fn rn_e3_bot_games_end_by_the_rules_or_at_a_stand_off_long_before_the_safety_net() {
    use veillee_sdk::search::{search, GameSpace, Sampled, SearchRequest};
    const GAMES: u64 = 12;
    let mut space = GameSpace::<RocNoir>::default();
    let (mut won, mut standoff, mut offered, mut most_rolls) = (0, 0, 0, 0);
    for seed in 0..GAMES {
        let mut g = RocNoir::new(&Setup::new(2, seed)).unwrap();
        let mut seen_offer = false;
        for decision in 0u64.. {
            if g.ending.is_some() {
                break;
            }
            assert!(decision < 20_000, "seed {seed} does not end");
            seen_offer |= g.standoff == Standoff::Offered;
            let seat = g.to_act();
            let root = Sampled::draw(&mut space, &g, seat, seed * 7919 + decision).unwrap();
            let request = SearchRequest::new(40, 8, seed * 31 + decision, g.players);
            let id = search(&mut space, &root, &request).unwrap().action;
            play(&mut g, &id);
        }
        offered += usize::from(seen_offer);
        most_rolls = most_rolls.max(g.rolls);
        match g.ending {
            Some(Ending::Won(_)) => won += 1,
            Some(Ending::StandoffAgreed) => standoff += 1,
            other => panic!("seed {seed}: {other:?} after {} rolls", g.rolls),
        }
    }
    println!(
        "{GAMES} bot games: {won} won, {standoff} drawn at a stand-off ({offered} saw one \
         offered), none at the safety net; most rolls {most_rolls}"
    );
    assert!(standoff > 0, "some games reach a stand-off");
    assert!(most_rolls < DRAW_OFFER_ROLLS / 3, "{most_rolls} rolls");
}

/// A position of a `normal`-vs-`normal` game played natively (seed 104), 6 rolls before the
/// safety net's limit: Blue's white knight and Red's black knight each hold the number the
/// other needs, and no way between them is known. Blue's white knight is on the move at e9.
const NEAR_THE_LIMIT: &str = r#"{"players":2,"assisted":false,"corners":["entrance","black","grey","white"],"trapdoors":["c2","e2","h2","b3","c3","f3","h4","j4","a5","c6","g6","i6","b7","d8","f7","h7","j8","d10","e10","h9"],"revealed":[2,3,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19],"safe":["c1","d1","e1","f1","c4","d4"],"shown":[],"knights":[["red-black","j3"],["red-grey","treasure"],["red-white","treasure"],["blue-black","treasure"],["blue-grey","treasure"],["blue-white","e9"]],"visited":[["black","grey","white"],["black","grey","white"]],"ropes":[0,0],"rails":[[["5b","2b"],["1a","1b"],["4a","4b"]],[["3a","3b"],["6a","6b"],["5a","2a"]]],"piles":[[],[],[]],"unknown":[0,0,0],"turn":1,"phase":"move","die":1,"active":"white","steps":81,"entered":["grey","white"],"exit":null,"gallery":"white","fell":null,"rolls":1494,"draw_offer_at":1500,"draw_accepted":0,"rng":{"state":330867327968582147230844302268445466061},"ending":null}"#;

/// RN-T2 sets no limit on a move's steps, so a bot that finds keeping the move better than
/// stopping never ends its turn. When the cost of playing on began at the safety net's limit,
/// Blue's bot kept stepping between b8, c8, c9 and d9 (20 decisions here, 80 and more in the
/// game it came from): stopping let the rolls reach the limit. The cost is now the same at
/// every roll, and the bot ends its move (a stop or a fall) within a few decisions.
#[test]
fn near_the_safety_limit_the_bot_on_the_move_ends_its_move() {
    for first_seed in [0, 100, 200] {
        let mut g: RocNoir = serde_json::from_str(NEAR_THE_LIMIT).unwrap();
        assert_eq!(
            (g.turn(), g.phase(), g.rolls()),
            (1, Phase::Move, DRAW_OFFER_ROLLS - 6)
        );
        let mut picks = Vec::new();
        while g.turn() == 1 && g.phase() == Phase::Move {
            assert!(picks.len() < 20, "still moving after {picks:?}");
            let seed = first_seed + picks.len() as u64;
            let pick = bot_picks(&g, seed..seed + 1).remove(0);
            play(&mut g, &pick);
            picks.push(pick);
        }
    }
}

/// A position of a `normal`-vs-`normal` game played natively (set-up seed 122, 600
/// iterations, 16-move playouts): Red's black knight is at g6, ten decisions into its move,
/// on squares everyone knows are safe.
const WANDERING: &str = include_str!("wandering.json");

/// The bot's decisions for the seat on the move from `g` until its move ends (or `limit`
/// decisions), from decision seeds `first_seed..`; `forget` clears the trail before each
/// decision, as the bot did before it kept one.
fn decisions_of_the_move(g: &RocNoir, first_seed: u64, limit: usize, forget: bool) -> Vec<String> {
    let mut g = g.clone();
    let turn = g.turn();
    let mut picks = Vec::new();
    while g.turn() == turn && g.phase() == Phase::Move && g.ending().is_none() {
        if picks.len() == limit {
            break;
        }
        if forget {
            g.trail = 0;
        }
        let seed = first_seed + picks.len() as u64;
        let pick = bot_picks(&g, seed..seed + 1).remove(0);
        play(&mut g, &pick);
        picks.push(pick);
    }
    picks
}

/// RN-T2 sets no limit on a move's steps, and a bot that finds keeping the move a hair better
/// than stopping never ends its turn: from this position the bot without a trail still steps
/// back and forth after 40 decisions. With the trail (`bot.rs`) it never steps back onto a
/// square it stood on in this move with nothing learnt since, so the move ends within as
/// many decisions as there are squares to reach.
#[test]
fn a_bot_never_steps_back_onto_its_trail_so_its_move_ends() {
    let g: RocNoir = serde_json::from_str(WANDERING).unwrap();
    assert_eq!((g.turn(), g.phase(), g.active), (0, Phase::Move, 0));
    let old = decisions_of_the_move(&g, 0, 40, true);
    assert_eq!(
        old.len(),
        40,
        "the bot without a trail ended its move: {old:?}"
    );
    for first_seed in [0, 100, 200] {
        let new = decisions_of_the_move(&g, first_seed, 40, false);
        assert!(new.len() < 40, "still moving after {new:?}");
        let mut steps: Vec<&String> = new.iter().filter(|id| id.starts_with("step-")).collect();
        let count = steps.len();
        steps.sort();
        steps.dedup();
        assert_eq!(steps.len(), count, "a square stepped on twice: {new:?}");
    }
}

/// The trail is the bots' only: people keep every step of RN-T2, the legal actions mark the
/// steps back for the host's search (ABI 1.12), a save keeps it, and a square nobody knew
/// safe (learnt) opens the way back again; the next turn forgets it.
#[test]
fn the_trail_leaves_out_steps_back_for_bots_only_until_something_is_learnt() {
    let avoided = |g: &RocNoir| {
        let mut table = GameTable::<RocNoir>::default();
        let h = table.load(&serde_json::to_vec(g).unwrap()).unwrap();
        let actions = table.legal_actions(h, g.to_act()).unwrap();
        let ids: Vec<String> = actions
            .into_iter()
            .filter(|a| a.bots_avoid)
            .map(|a| a.id)
            .collect();
        ids
    };
    let mut g: RocNoir = serde_json::from_str(WANDERING).unwrap();
    for id in ["step-g7", "step-g8", "step-h8"] {
        play(&mut g, id);
    }
    assert!(has(&g, "step-g8"), "RN-T2: people may step back");
    // g8 is on the trail; h7 and h9 are trapdoors everyone has seen (`bot.rs`).
    assert_eq!(avoided(&g), ["step-h7", "step-h9", "step-g8"]);
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains(r#""trail":["g6","g7","g8","h8"]"#), "{json}");
    assert_eq!(serde_json::from_str::<RocNoir>(&json).unwrap(), g);
    // i8's tile is the one whose trapdoor nobody has seen, and i8 was not known safe.
    play(&mut g, "step-i8");
    assert_eq!(avoided(&g), Vec::<String>::new());
    play(&mut g, "stop");
    assert_eq!((g.turn(), g.trail), (1, 0));
}

/// RN-G3: a knight without a pair heads for the gallery whose pile still holds the portrait
/// it lacks, where it can slide one of its own under (its back names that gallery), not for
/// the nearer gallery that can give it nothing. Red's black knight holds 2 (back black) and
/// 1 (back white), its two other knights are in the treasure room: the white pile holds the
/// other 2, the grey pile nothing it can exchange for. The evaluation used to send it to the
/// nearest pile with portraits left, where normal-vs-normal bots stood for thousands of moves.
#[test]
fn rn_g3_a_knight_without_a_pair_heads_for_the_gallery_that_can_give_it_one() {
    let mut g = game(2);
    g.visited = [0b111, 0, 0, 0];
    give(&mut g, 0, 0, &[portrait(2, 0), portrait(1, 2)]);
    give(&mut g, 0, 1, &[portrait(3, 0), portrait(3, 1)]);
    give(&mut g, 0, 2, &[portrait(6, 0), portrait(6, 1)]);
    put(&mut g, 0, 1, "treasure");
    put(&mut g, 0, 2, "treasure");
    assert!(
        g.piles[2].contains(&portrait(2, 2)),
        "the other 2 is in the white pile"
    );
    assert!(!g.piles[1].is_empty(), "the grey pile is not empty");
    // a8 is beside the grey gallery (a9–b10), h8 two steps from the white one (i9–j10).
    let (by_grey, near_white) = (value_at(&mut g, "a8"), value_at(&mut g, "h8"));
    assert!(
        near_white > by_grey,
        "near the white gallery {near_white}, beside the grey one {by_grey}"
    );
    // The bot on the move from e7 goes for it (it steps onto trapdoors it cannot know):
    // its move ends nearer the white gallery.
    put(&mut g, 0, 0, "e7");
    moving(&mut g, 0);
    g.ropes = [0; 4];
    for first_seed in [0, 100, 200] {
        let mut played = g.clone();
        let picks = decisions_of_the_move(&played, first_seed, 30, false);
        for pick in &picks {
            play(&mut played, pick);
        }
        // Steps left to i9, the white gallery's nearest square (e7: 6).
        let n = played.pos[0][0];
        let left = if n == g.room_node(2) {
            0
        } else {
            (8 - i32::from(n % 10)).abs() + (8 - i32::from(n / 10)).abs()
        };
        assert!(
            left <= 3,
            "the move ended at {}: {picks:?}",
            at(&played, 0, 0)
        );
    }
}

/// Not a rule: a bot does not step onto a trapdoor everyone has seen, unless a counterweight
/// holds it shut (RN-P2): it would fall back where it stands and its move would end (RN-P1),
/// as if it had stopped, and a human watching reads « il retombe encore dans la trappe » as
/// silly. Red's black knight came to e1 from e2 (its trail): d1 and f1 are trapdoors
/// everyone has seen, so stopping is its only move; people may still step onto them.
#[test]
fn a_bot_stops_rather_than_fall_into_a_trapdoor_everyone_knows() {
    let mut g = game(2);
    seen_trap(&mut g, "d1");
    seen_trap(&mut g, "f1");
    g.ropes = [0; 4];
    put(&mut g, 0, 0, "e2");
    moving(&mut g, 0);
    play(&mut g, "step-e1");
    assert!(
        has(&g, "step-d1") && has(&g, "step-f1"),
        "RN-P1: people may"
    );
    let avoided = |g: &RocNoir| -> Vec<String> {
        let seat = g.to_act();
        g.moves(seat)
            .iter()
            .filter(|m| !g.bot_may_choose(seat, m))
            .map(|m| g.move_id(seat, m))
            .collect()
    };
    assert_eq!(avoided(&g), ["step-f1", "step-e2", "step-d1"]);
    assert_eq!(bot_picks(&g, 0..4), ["stop"; 4]);
    // A knight of Blue's on c2 holds d1 shut (RN-P2): a real step, kept.
    put(&mut g, 1, 0, "c2");
    assert_eq!(avoided(&g), ["step-f1", "step-e2"]);
}

/// RN-T3: a knight never passes over another knight without a rope. Red's black knight holds
/// a pair and no rope is left; Blue's knight stands on e4, on its short way into the treasure
/// room, and trapdoors everyone has seen on d4 and f4 make the way around five steps from e3.
/// The evaluation counts Blue's knight as 12 steps for Red (it may never move; bots kept a
/// knight shut in for thousands of moves while the other waited), so f3, on the way around,
/// is worth more than e3; with a rope left (a jump over it), they are worth the same.
#[test]
fn rn_t3_without_a_rope_a_knight_counts_the_way_around_an_opponents_knight() {
    let mut g = game(2);
    seen_trap(&mut g, "d4");
    seen_trap(&mut g, "f4");
    g.visited[0] = 0b111;
    give(&mut g, 0, 0, &[portrait(1, 1), portrait(1, 2)]);
    // Blue's knight holds a pair too: beside the treasure room, its own way is one step.
    g.visited[1] = 0b001;
    give(&mut g, 1, 0, &[portrait(2, 2), portrait(2, 0)]);
    put(&mut g, 1, 0, "e4");
    g.ropes = [0; 4];
    let (e3, f3) = (value_at(&mut g, "e3"), value_at(&mut g, "f3"));
    assert!(f3 > e3, "no rope: f3 {f3}, e3 {e3}");
    g.ropes = [1, 0, 0, 0];
    let (e3, f3) = (value_at(&mut g, "e3"), value_at(&mut g, "f3"));
    assert_eq!(f3, e3, "a rope: f3 {f3}, e3 {e3}");
}
