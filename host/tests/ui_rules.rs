//! The Rules screen, driven through AccessKit like `ui_flows.rs`: a game's full rules, shipped
//! in its plugin, in the launcher's language, with a table of contents that jumps.

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

/// Whether something with this label is on screen (headings also have a contents entry).
fn shown(h: &Harness<'static, App>, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
}

fn count(h: &Harness<'static, App>, label: &str) -> usize {
    h.query_all_by_label(label).count()
}

/// Clicks the first widget with this label (a navigation tab may share it with a title).
fn click(h: &Harness<'static, App>, label: &str) {
    h.query_all_by_label(label)
        .next()
        .unwrap_or_else(|| panic!("{label:?} on screen"))
        .click();
}

/// The library's Rules button of a game (its spoken label names the game), through
/// AccessKit: the card may lie below the visible part of the library.
fn open_rules(h: &mut Harness<'static, App>, label: &str) {
    h.get_by_label(label).click_accesskit();
}

/// The rules text's heading with this label (the table of contents has an entry with the same
/// words, to the left of it).
fn heading_top(h: &Harness<'static, App>, label: &str) -> f32 {
    h.query_all_by_label(label)
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap_or_else(|| panic!("a heading {label:?}"))
        .rect()
        .top()
}

#[test]
fn siege_rules_open_from_the_library_in_french_jump_to_a_section_and_follow_the_language() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(dir.path(), "fr");

    // Every built-in game's plugin (the wasm the launcher plays) ships its rules.
    for game in &h.state().shared.games {
        let rules = game.manifest.rules.as_ref();
        assert!(
            rules.is_some_and(|r| !r.fr.is_empty() && !r.en.is_empty()),
            "{} ships its rules",
            game.manifest.id
        );
    }

    open_rules(&mut h, "Règles — Siège");
    wait(&mut h, "Siège's rules in French", |h| {
        shown(h, "Règles — Siège") && shown(h, "Sommaire")
    });
    assert!(count(&h, "But du jeu") >= 2, "heading and contents entry");
    assert_eq!(
        count(&h, "La règle spéciale"),
        1,
        "a ### heading, not in the contents"
    );
    assert!(
        h.query_all_by_label_contains("Dans Veillée").count() >= 2,
        "the seats/options summary is still there, and in the contents"
    );
    assert_eq!(count(&h, "Goal"), 0);

    // The table of contents jumps to a section further down.
    let before = heading_top(&h, "Fin de partie");
    assert!(
        before > 900.0,
        "the end of the rules starts off screen ({before})"
    );
    h.query_all_by_label("Fin de partie")
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap()
        .click();
    for _ in 0..60 {
        h.step();
    }
    let after = heading_top(&h, "Fin de partie");
    assert!(
        after < 400.0,
        "the section scrolled to the top: {before} → {after}"
    );

    // In English, the same rules in English.
    click(&h, "Réglages");
    wait(&mut h, "the settings", |h| shown(h, "English"));
    click(&h, "English");
    wait(&mut h, "English", |h| shown(h, "Library"));
    click(&h, "Library");
    wait(&mut h, "the library", |h| shown(h, "New game — Siège"));
    open_rules(&mut h, "Rules — Siège");
    wait(&mut h, "Siège's rules in English", |h| {
        shown(h, "Rules — Siège") && shown(h, "Contents")
    });
    assert!(count(&h, "Goal") >= 2);
    assert!(count(&h, "What's in the box") >= 2);
    assert_eq!(count(&h, "But du jeu"), 0);

    // Back returns to the library.
    h.get_by_label("← Back").click();
    wait(&mut h, "the library again", |h| {
        shown(h, "New game — Siège")
    });
}
