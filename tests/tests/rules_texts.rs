//! Every built-in game ships its full rules in French and English (`Manifest::rules`), with
//! the sections a player looks for, the same outline in both languages, and nothing the
//! launcher's Markdown subset would show as stray markup.

use veillee_runtime::builtin::BUILTIN_PLUGINS;
use veillee_runtime::native::native_engine;
use veillee_sdk::rules::{parse, Block, Span};
use veillee_sdk::{Manifest, Rules};

/// A `##` section's title: (French, English).
type Section = (&'static str, &'static str);

/// The `##` sections each game's rules must have, in order (others may be between them).
/// The `#` title is the game's name.
const EXPECTED: &[(&str, &[Section])] = &[
    (
        "siege",
        &[
            ("But du jeu", "Goal"),
            ("Matériel", "What's in the box"),
            ("Mise en place", "Set-up"),
            ("Tour de jeu", "A turn"),
            ("Fin de partie", "End of the game"),
        ],
    ),
    (
        "batisseurs",
        &[
            ("But du jeu", "Goal"),
            ("Matériel", "What's in the box"),
            ("Mise en place", "Set-up"),
            ("Tour de jeu", "A turn"),
            ("Fin de partie", "End of the game"),
        ],
    ),
    (
        "chateau-noir",
        &[
            ("But du jeu", "Goal"),
            ("Matériel", "What's in the box"),
            ("Mise en place", "Set-up"),
            ("Tour de jeu", "A turn"),
            ("Capture", "Capture"),
            ("Points", "Scoring"),
            ("Alliance d'équipes", "Team alliance"),
            ("Fin de partie", "End of the game"),
        ],
    ),
    (
        "roc-noir",
        &[
            ("But du jeu", "Goal"),
            ("Matériel", "What's in the box"),
            ("Mise en place", "Set-up"),
            ("Tour de jeu", "A turn"),
            ("Trappes", "Trapdoors"),
            ("Cordes", "Ropes"),
            ("Galeries et portraits", "Galleries and portraits"),
            ("Fin de partie", "End of the game"),
        ],
    ),
    (
        "castel",
        &[
            ("But du jeu", "Goal"),
            ("Matériel", "What's in the box"),
            ("Mise en place", "Set-up"),
            ("Tour de jeu", "A turn"),
            ("Fin de partie", "End of the game"),
            ("Les cartes", "The cards"),
        ],
    ),
    (
        "renard",
        &[
            ("But du jeu", "Goal"),
            ("Matériel", "What's in the box"),
            ("Mise en place", "Set-up"),
            ("Tour de jeu", "A turn"),
            ("Fin de partie", "End of the game"),
        ],
    ),
];

fn manifest_of(game: &str) -> Manifest {
    let engine = native_engine(game).unwrap_or_else(|| panic!("{game} has a native build"));
    engine.manifest().clone()
}

fn rules_of(game: &str) -> Rules {
    manifest_of(game)
        .rules
        .unwrap_or_else(|| panic!("{game} ships no rules"))
}

/// The shape of a text: heading levels and block kinds, without the words.
fn outline(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .map(|b| match b {
            Block::Heading { level, .. } => format!("h{level}"),
            Block::Paragraph(_) => "p".into(),
            Block::Item { number, .. } => format!("item {number:?}"),
            Block::Table { header, rows } => format!(
                "table {header} {}x{}",
                rows.len(),
                rows.first().map_or(0, Vec::len)
            ),
        })
        .collect()
}

fn all_spans(blocks: &[Block]) -> Vec<&Span> {
    blocks
        .iter()
        .flat_map(|b| -> Vec<&Span> {
            match b {
                Block::Heading { .. } => vec![],
                Block::Paragraph(spans) | Block::Item { spans, .. } => spans.iter().collect(),
                Block::Table { rows, .. } => rows.iter().flatten().flatten().collect(),
            }
        })
        .collect()
}

#[test]
fn every_builtin_game_has_rules_in_both_languages_with_the_expected_sections() {
    let builtin: Vec<&str> = BUILTIN_PLUGINS.iter().map(|(name, _)| *name).collect();
    let mut listed: Vec<&str> = EXPECTED.iter().map(|(game, ..)| *game).collect();
    let mut sorted = builtin.clone();
    sorted.sort_unstable();
    listed.sort_unstable();
    assert_eq!(sorted, listed, "every built-in game is checked here");

    for (game, sections) in EXPECTED {
        let rules = rules_of(game);
        let name = manifest_of(game).name;
        for (lang, pick) in [("fr", 0), ("en", 1)] {
            let text = rules.get(lang);
            let blocks = parse(text);
            match blocks.first() {
                Some(Block::Heading { level: 1, text }) => {
                    let title = name.get(lang);
                    assert!(
                        text.starts_with(title),
                        "{game} {lang}: title {text:?}, not {title:?}"
                    )
                }
                other => panic!("{game} {lang}: starts with {other:?}, not a # title"),
            }
            let found = rules.section_titles(lang);
            let mut at = 0;
            for expected in *sections {
                let expected = if pick == 0 { expected.0 } else { expected.1 };
                match found[at..].iter().position(|s| s == expected) {
                    Some(i) => at += i + 1,
                    None => panic!("{game} {lang}: no section {expected:?} in order in {found:?}"),
                }
            }
            let lines = text.lines().count();
            assert!(
                (50..=220).contains(&lines),
                "{game} {lang}: {lines} lines: keep the rules readable"
            );
        }
    }
}

#[test]
fn french_and_english_rules_have_the_same_outline_and_no_stray_markup() {
    for (game, ..) in EXPECTED {
        let rules = rules_of(game);
        let (fr, en) = (parse(&rules.fr), parse(&rules.en));
        assert_eq!(
            outline(&fr),
            outline(&en),
            "{game}: the two languages differ in structure"
        );
        for (lang, text, blocks) in [("fr", &rules.fr, &fr), ("en", &rules.en, &en)] {
            for span in all_spans(blocks) {
                assert!(
                    !span.text.contains("**") && !span.text.contains('`'),
                    "{game} {lang}: stray markup in {:?}",
                    span.text
                );
            }
            for line in text.lines() {
                assert!(
                    !line.trim_start().starts_with("- ") || !line.starts_with(' '),
                    "{game} {lang}: nested lists are not in the subset: {line:?}"
                );
                assert!(
                    !line.starts_with("####"),
                    "{game} {lang}: only #, ## and ### headings: {line:?}"
                );
            }
        }
        // French typography: guillemets, not straight quotes.
        assert!(!rules.fr.contains('"'), "{game}: use « » in French");
    }
}

#[test]
fn castel_rules_describe_every_card_by_its_name_in_each_language() {
    let rules = rules_of("castel");
    for kind in veillee_castel::cards::KINDS.iter() {
        for (lang, name, text) in [("fr", kind.fr, &rules.fr), ("en", kind.en, &rules.en)] {
            assert!(
                text.contains(&format!("- **{name}**")),
                "castel {lang}: the card {name} has no entry in the card list"
            );
        }
    }
}
