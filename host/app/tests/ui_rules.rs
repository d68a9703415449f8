//! The Rules screen, driven through AccessKit like `ui_flows.rs`: a game's full rules, shipped
//! in its plugin, in the launcher's language, with a table of contents that jumps.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use veillee_app::App;

mod common;
use common::{harness, wait};

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
