//! The launcher's main flows, driven through AccessKit (labels and roles, not pixels).

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use veillee::data_dir::DataDir;
use veillee::ui::App;

fn harness(data: &Path, lang: &str) -> Harness<'static, App> {
    // One compiled-code cache for every test: plugins are compiled once.
    std::env::set_var(
        veillee::data_dir::CACHE_DIR_ENV,
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-compiled-cache"),
    );
    let app = App::new(DataDir::at(data), Some(lang.to_string()));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
    wait(&mut harness, "the games to load", |h| h.state().loaded());
    harness
}

/// Steps frames until `done` holds and the worker is idle (the worker runs on its own thread).
fn wait(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&Harness<'static, App>) -> bool) {
    let start = Instant::now();
    loop {
        h.step();
        if done(h) && !h.state().busy() {
            h.step();
            return;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let labels: Vec<String> = h
                .query_all_by(|_| true)
                .filter_map(|n| n.accesskit_node().label())
                .collect();
            panic!("timed out waiting for {what}; on screen: {labels:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn moves(h: &Harness<'static, App>) -> Option<u32> {
    h.state().play.view.as_ref().map(|v| v.meta.moves)
}

fn start_siege(h: &mut Harness<'static, App>) {
    h.get_by_label("New game — Siège").click_accesskit();
    wait(h, "the new-game screen", |h| {
        h.query_by_label_contains("Start the game").is_some()
    });
    h.get_by_label_contains("Start the game").click();
    wait(h, "the game to start", |h| moves(h) == Some(0));
}

#[test]
fn library_lists_siege_and_a_two_human_game_is_played_by_clicks_undone_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    assert!(
        h.query_all_by_label("Siège").count() > 0,
        "Siège has a card"
    );
    start_siege(&mut h);

    // SG-S1: the defender places the lord on a crown: one click on d6.
    h.get_by_label("d6").click();
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    // The attacker: the knight on c0, then d2.
    h.get_by_label("c0").click();
    h.step();
    h.get_by_label("d2").click();
    wait(&mut h, "the knight's move", |h| moves(h) == Some(2));
    assert!(
        h.query_by_label_contains("Knight c0 → d2").is_some(),
        "the log says it"
    );

    h.get_by_label("Undo").click();
    wait(&mut h, "the undo", |h| moves(h) == Some(1));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    wait(&mut h, "the redo", |h| moves(h) == Some(2));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    wait(&mut h, "the undo by keyboard", |h| moves(h) == Some(1));
    let id = h.state().play.view.as_ref().unwrap().meta.id;

    // Quit in the middle, then resume from the saved games.
    h.get_by_label("← Back").click();
    wait(&mut h, "the library", |h| {
        h.query_by_label("Saved games").is_some()
    });
    h.get_by_label("Saved games").click();
    wait(&mut h, "the saved games", |h| {
        h.query_by_label(&format!("Resume #{id}")).is_some()
    });
    h.get_by_label(&format!("Resume #{id}")).click();
    wait(&mut h, "the resumed game", |h| moves(h) == Some(1));
    h.get_by_label("c0").click();
    h.step();
    h.get_by_label("d2").click();
    wait(&mut h, "a move after resuming", |h| moves(h) == Some(2));
}

#[test]
fn a_bad_plugin_file_is_refused_with_an_error_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.wasm");
    std::fs::write(&bad, b"this is not webassembly").unwrap();
    let mut h = harness(&dir.path().join("data"), "en");
    h.get_by_label("Game file").click();
    h.step();
    h.get_by_label("Game file")
        .type_text(&bad.display().to_string());
    h.step();
    h.get_by_label("Install").click();
    wait(&mut h, "the install error", |h| {
        h.query_by_label_contains("could not be installed")
            .is_some()
    });
    assert!(
        h.query_by_label_contains("broken").is_some(),
        "the error names the file"
    );
}

#[test]
fn the_language_switches_to_french_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    let count = |h: &Harness<'static, App>, label: &str| h.query_all_by_label(label).count();
    assert!(count(&h, "Library") > 0);
    h.get_by_label("Settings").click();
    wait(&mut h, "the settings", |h| {
        h.query_by_label("Français").is_some()
    });
    h.get_by_label("Français").click();
    wait(&mut h, "French", |h| count(h, "Réglages") > 0);
    assert!(count(&h, "Ludothèque") > 0);
    assert_eq!(count(&h, "Library"), 0);
    assert_eq!(count(&h, "Settings"), 0);
}

#[test]
fn a_data_directory_held_by_another_veillee_gets_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let _held = veillee::store::Store::open(dir.path()).unwrap();
    let app = App::new(DataDir::at(dir.path()), Some("en".into()));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
    let start = Instant::now();
    while h.query_by_label("Veillée is already open").is_none() {
        assert!(start.elapsed() < Duration::from_secs(60));
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(h.query_by_label("Quit").is_some());
}

/// Frame time of a Siège game in play (printed, never asserted: see BENCHMARKS.md).
/// `cargo test -p veillee --release --test ui_flows -- --ignored --nocapture frame_time`
#[test]
#[ignore]
fn frame_time_of_a_siege_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "en");
    start_siege(&mut h);
    h.get_by_label("d6").click();
    wait(&mut h, "the lord's placement", |h| moves(h) == Some(1));
    h.get_by_label("c0").click(); // a selection: targets lit
    h.step();
    let frames = 300;
    let start = Instant::now();
    for _ in 0..frames {
        h.step();
    }
    let per_frame = start.elapsed() / frames;
    eprintln!("Siège play screen: {per_frame:?} per frame (mean of {frames}, kittest step: ctx.run + AccessKit tree, no GPU)");
}
