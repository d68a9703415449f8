//! Replays in the window: a saved Castel game watched again as seat 0 and as a spectator
//! never shows a card that viewer could not see at that moment, autoplay runs to the end by
//! itself, and the session is not changed by any of it.

use std::collections::BTreeSet;
use std::path::Path;

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use veillee_app::replay::ReplayScreen;
use veillee_app::App;
use veillee_runtime::data_dir::DataDir;
use veillee_sdk::{GameRng, Scene, Seat, Setup};

mod common;
use common::{harness, texts, wait};

/// What each viewer could see after each move of a saved game.
struct Played {
    id: u64,
    /// Per step (0: before the first move): the names of the cards face up to seat 0, to
    /// seat 1 and to a spectator.
    face_up: Vec<[BTreeSet<String>; 3]>,
}

fn face_up(scene: &Scene) -> BTreeSet<String> {
    let cards = scene
        .zones
        .iter()
        .flat_map(|z| &z.cards)
        .filter(|c| c.face_up)
        .map(|c| c.title.en.clone());
    let pieces = scene
        .boards
        .iter()
        .flat_map(|b| &b.pieces)
        .filter_map(|p| p.name.as_ref().map(|n| n.en.clone()));
    cards.chain(pieces).collect()
}

/// Plays `moves` random moves of a two-player Castel game (with its cards script) in the
/// data directory, without the window, recording what each viewer saw.
fn castel_game(data: &Path, moves: usize) -> Played {
    let (catalog, sessions) = common::catalog_and_sessions(data);
    let user = DataDir::at(data).variants();
    let (mut engine, recorded) =
        veillee_runtime::launch::engine_with_variants(&catalog, "castel", &[], &user).unwrap();
    let mut live = sessions
        .start_with_variants(
            &mut *engine,
            common::ana_and_bruno(),
            Setup::new(2, 11),
            recorded,
        )
        .unwrap();
    let seen = |engine: &mut Box<dyn veillee_runtime::engine::GameEngine>, game| {
        [Some(0), Some(1), None].map(|viewer| face_up(&engine.view(game, viewer).unwrap()))
    };
    let mut played = vec![seen(&mut engine, live.game)];
    let mut rng = GameRng::new(5);
    for _ in 0..moves {
        let status = engine.status(live.game).unwrap();
        let Some(&seat) = status.seats().first() else {
            break;
        };
        let actions = engine.legal_actions(live.game, seat).unwrap();
        let id = actions[rng.below(actions.len())].id.clone();
        sessions
            .apply(&mut *engine, &mut live, seat, &id, serde_json::Value::Null)
            .unwrap();
        played.push(seen(&mut engine, live.game));
    }
    Played {
        id: live.meta.id,
        face_up: played,
    }
}

fn replay_step(h: &Harness<'static, App>) -> usize {
    h.state().replay().map_or(0, |r| r.step)
}

/// Opens the replay of session `id` from the saved games and waits for the spectator's.
fn open_replay(h: &mut Harness<'static, App>, id: u64) {
    h.get_by_label("Saved games").click();
    wait(h, "the saved games", |h| {
        h.query_by_label(&format!("Replay #{id}")).is_some()
    });
    h.get_by_label(&format!("Replay #{id}")).click();
    wait(h, "the replay", |h| {
        h.state().replay().is_some_and(|r| r.data.is_some())
    });
    assert!(h.state().showing::<ReplayScreen>());
}

/// Switches the replay to `viewer` (a seat's name, or "Spectator").
fn watch_as(h: &mut Harness<'static, App>, label: &str, viewer: Option<Seat>) {
    h.get_by_label(label).click();
    wait(h, "the replay for another viewer", |h| {
        h.state()
            .replay()
            .and_then(|r| r.data.as_ref())
            .is_some_and(|d| d.seen.viewer == viewer)
    });
}

/// Steps from the first move to the last, checking at each step that nothing on screen
/// names a card `viewer` could not see then.
fn step_through(h: &mut Harness<'static, App>, played: &Played, viewer: usize) {
    h.get_by_label("« First").click();
    h.step();
    for (step, seen) in played.face_up.iter().enumerate() {
        assert_eq!(replay_step(h), step);
        let hidden: BTreeSet<&String> = played.face_up[step]
            .iter()
            .flatten()
            .filter(|name| !seen[viewer].contains(*name))
            .collect();
        let on_screen = texts(h);
        for name in &hidden {
            assert!(
                !on_screen
                    .iter()
                    .any(|t| t == *name || t.ends_with(&format!("— {name}"))),
                "step {step}: {name} is shown to viewer {viewer}, who could not see it"
            );
        }
        // What the viewer could see is there (its own hand, the exchange).
        for name in &seen[viewer] {
            assert!(
                on_screen.iter().any(|t| t.contains(name.as_str())),
                "step {step}: {name} is missing for viewer {viewer}: {on_screen:?}"
            );
        }
        if step + 1 < played.face_up.len() {
            h.get_by_label("› Forward").click();
            h.step();
            h.step();
        }
    }
}

#[test]
fn a_castel_replay_as_seat_0_or_a_spectator_shows_only_what_that_viewer_saw() {
    let dir = tempfile::tempdir().unwrap();
    let played = castel_game(dir.path(), 24);
    let (store, _) = veillee_runtime::store::Store::open(dir.path()).unwrap();
    let before = (
        store.session(played.id).unwrap(),
        store.log(played.id, 0).unwrap(),
    );
    drop(store);

    let mut h = harness(dir.path(), "en");
    open_replay(&mut h, played.id);
    let total = h.state().replay().unwrap().moves();
    assert_eq!(total + 1, played.face_up.len());

    watch_as(&mut h, "As seen by Ana", Some(0));
    step_through(&mut h, &played, 0);
    watch_as(&mut h, "As seen by Spectator", None);
    step_through(&mut h, &played, 2);

    // Autoplay at the fastest speed runs to the last move and stops there.
    h.get_by_label("« First").click();
    h.get_by_label("4×").click();
    h.get_by_label("Play").click();
    wait(&mut h, "the autoplay to reach the end", |h| {
        replay_step(h) == total
    });
    for _ in 0..10 {
        h.step();
    }
    assert_eq!(replay_step(&h), total);
    assert!(!h.state().replay().unwrap().autoplay, "it stopped");
    assert!(h
        .query_by_label(&format!("Move {total} of {total}"))
        .is_some());

    // Watching changed nothing in the session.
    drop(h);
    let (store, _) = veillee_runtime::store::Store::open(dir.path()).unwrap();
    let after = (
        store.session(played.id).unwrap(),
        store.log(played.id, 0).unwrap(),
    );
    assert_eq!(before, after);
}
