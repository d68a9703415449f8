//! A first start: the library lists every game before any plugin is compiled, each card says
//! where its plugin stands, and a game started early starts as soon as its own plugin is
//! ready. Each test has a data directory of its own with its compiled-code cache inside, so
//! that nothing is compiled when it starts (the other kittest files share one warm cache).

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use veillee_app::worker::Preparation;
use veillee_app::App;
use veillee_runtime::data_dir::{DataDir, CACHE_DIR_ENV};

#[allow(dead_code)]
mod common;
use common::{environment, wait};

/// A launcher on `data`, whose compiled-code cache is `data`'s own, empty one.
fn cold_harness(data: &Path) -> Harness<'static, App> {
    environment();
    // Every test of this file sets the same: the cache inside each data directory.
    std::env::set_var(CACHE_DIR_ENV, "");
    let app = App::new(DataDir::at(data), Some("en".into()));
    Harness::builder()
        .with_size(egui::vec2(1366.0, 860.0))
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app)
}

fn preparation(h: &Harness<'static, App>, game: &str) -> Option<Preparation> {
    h.state()
        .shared
        .games
        .iter()
        .find(|g| g.manifest.id == game)
        .map(|g| g.preparation.clone())
}

/// A card's picture of the starting position needs its game's compiled plugin: it comes
/// with it, never before (nothing is compiled up front for the pictures).
fn pictures_only_for_ready_games(h: &Harness<'static, App>) {
    for game in &h.state().shared.games {
        if h.state().shared.thumbnails.contains_key(&game.manifest.id) {
            assert_eq!(
                game.preparation,
                Preparation::Ready,
                "{} has a picture before its plugin is compiled",
                game.manifest.id
            );
        }
    }
}

#[test]
fn every_game_is_listed_before_it_is_compiled_and_a_game_started_early_waits_for_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = cold_harness(dir.path());
    wait(&mut h, "the library", |h| h.state().loaded());
    for name in ["Siège", "Castel", "Castle Builders"] {
        assert!(
            h.query_by_label(&format!("New game — {name}")).is_some(),
            "{name} has a card before anything is compiled"
        );
    }
    // Siège is last in line: five plugins compile before it unless a player opens it.
    assert_ne!(preparation(&h, "siege"), Some(Preparation::Ready));
    assert!(!h.state().shared.thumbnails.contains_key("siege"));
    pictures_only_for_ready_games(&h);
    assert!(
        h.query_all_by_label_contains("Waiting to be prepared")
            .next()
            .is_some(),
        "the cards say their games are waiting to be prepared"
    );

    // Opened and started at once: Siège goes first, and its game starts when it is ready.
    h.get_by_label("New game — Siège").click_accesskit();
    wait(&mut h, "the new-game screen", |h| {
        pictures_only_for_ready_games(h);
        h.query_by_label_contains("Start the game").is_some()
    });
    h.get_by_label_contains("Start the game").click();
    wait(&mut h, "the game to start", |h| {
        pictures_only_for_ready_games(h);
        h.state().play().view.as_ref().map(|v| v.meta.moves) == Some(0)
    });
    assert_eq!(preparation(&h, "siege"), Some(Preparation::Ready));
    // Its card's picture came with its plugin, the others' come as theirs are ready.
    assert!(h.state().shared.thumbnails.contains_key("siege"));
    wait(&mut h, "another game's picture", |h| {
        pictures_only_for_ready_games(h);
        h.state().shared.thumbnails.len() >= 2
    });
    assert!(h.query_by_label("d6").is_some(), "Siège's board is drawn");
}

/// First start timings in the window (printed, never asserted: see BENCHMARKS.md).
/// `cargo test -p veillee-app --release --test ui_startup -- --ignored --nocapture`
#[test]
#[ignore]
fn first_start_times() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let mut h = cold_harness(dir.path());
    let step = |h: &mut Harness<'static, App>| {
        h.step();
        std::thread::sleep(Duration::from_millis(1));
    };
    while !h.state().loaded() {
        step(&mut h);
    }
    h.step();
    let library = started.elapsed();
    let ready = |h: &Harness<'static, App>| {
        h.state()
            .shared
            .games
            .iter()
            .filter(|g| g.preparation == Preparation::Ready)
            .count()
    };
    while ready(&h) == 0 {
        step(&mut h);
    }
    let first = started.elapsed();
    let games = h.state().shared.games.len();
    while ready(&h) < games {
        step(&mut h);
    }
    let all = started.elapsed();
    eprintln!(
        "window, empty data directory: library drawn {library:?}; first game ready {first:?}; all {games} ready {all:?} (kittest frames, no GPU)"
    );
}
