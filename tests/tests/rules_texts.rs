//! Every built-in game ships its full rules in French and English (`Manifest::rules`), with
//! the sections a player looks for, the same outline in both languages, and nothing the
//! launcher's Markdown subset would show as stray markup. And every rule id the code cites
//! (`CN-M2`, `fn sg_k1_…`) is stated in its game's `plugins/<game>/README.md`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

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

/// Rule-id prefixes and the game whose `plugins/<game>/README.md` states those rules.
const RULE_ID_GAMES: &[(&str, &str)] = &[
    ("SG", "siege"),
    ("BT", "batisseurs"),
    ("CN", "chateau-noir"),
    ("RN", "roc-noir"),
    ("CA", "castel"),
    ("RP", "renard"),
];

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Rule ids cited in a source text, in order: `CN-M2`, a family like `CN-M`, or a test
/// name's lower-case form (`fn cn_m2_…` cites CN-M2). A cited id is a whole word: a prefix of
/// [`RULE_ID_GAMES`], a dash, capitals, digits and at most one small letter.
fn rule_ids_in(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut ids = Vec::new();
    let mut i = 0;
    while i + 3 < bytes.len() {
        // Words start after a non-word byte; the prefix is two ASCII letters (which also
        // keeps the slices below on character boundaries).
        let starts_word = i == 0 || !is_word_byte(bytes[i - 1]);
        if !starts_word || !bytes[i].is_ascii_alphabetic() || !bytes[i + 1].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let (upper, sep) = match bytes[i + 2] {
            b'-' => (true, b'-'),
            b'_' => (false, b'_'),
            _ => {
                i += 1;
                continue;
            }
        };
        let prefix = &text[i..i + 2];
        let known = RULE_ID_GAMES.iter().any(|(p, _)| {
            if upper {
                *p == prefix
            } else {
                p.eq_ignore_ascii_case(prefix) && prefix.bytes().all(|b| b.is_ascii_lowercase())
            }
        });
        if !known {
            i += 1;
            continue;
        }
        let start = i + 3;
        let mut j = start;
        let letter = |b: u8| {
            if upper {
                b.is_ascii_uppercase()
            } else {
                b.is_ascii_lowercase()
            }
        };
        while j < bytes.len() && letter(bytes[j]) {
            j += 1;
        }
        let family_end = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let digits_end = j;
        if j < bytes.len() && bytes[j].is_ascii_lowercase() {
            j += 1;
        }
        let family = &text[start..family_end];
        let rest = &text[family_end..j];
        // Upper case: the id ends the word. Lower case: only the start of a test name
        // (`cn_m2_flank…`), so it needs its number and the `_` after it.
        let cited = if upper {
            !family.is_empty() && bytes.get(j).is_none_or(|&b| !is_word_byte(b))
        } else {
            !family.is_empty() && digits_end > family_end && bytes.get(j) == Some(&sep)
        };
        if cited {
            ids.push(format!(
                "{}-{}{rest}",
                prefix.to_ascii_uppercase(),
                family.to_ascii_uppercase()
            ));
            i = j;
        } else {
            i += 1;
        }
    }
    ids
}

/// The workspace's `.rs` and `.lua` files, sorted, without `target` and dot-folders.
fn cited_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry"))
        .collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let kind = entry.file_type().expect("a file type");
        let path = entry.path();
        if kind.is_dir() {
            if name != "target" && !name.starts_with('.') {
                cited_sources(&path, out);
            }
        } else if kind.is_file() && (name.ends_with(".rs") || name.ends_with(".lua")) {
            out.push(path);
        }
    }
}

#[test]
fn the_rule_id_scanner_reads_comments_families_and_test_names() {
    assert_eq!(
        rule_ids_in("// SG-K1, (CN-M) fn rn_g3_exchanges() XSG-K1 SG-K1x2 rn_g_x ca-t3"),
        ["SG-K1", "CN-M", "RN-G3"]
    );
}

/// Code, tests and scripts cite rule ids whose specification lies outside the repository
/// (`../shared/rules/`, read-only, not to be copied in): every cited id must be stated in its
/// game's README, as `- **CN-M2** — …`, so that a reader of the repository can resolve it.
#[test]
fn every_rule_id_cited_in_code_is_stated_in_its_games_readme() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    cited_sources(&root, &mut files);

    // Each id with the first file that cites it.
    let mut cited: BTreeMap<String, PathBuf> = BTreeMap::new();
    for file in &files {
        let text =
            String::from_utf8_lossy(&fs::read(file).expect("a readable source")).into_owned();
        for id in rule_ids_in(&text) {
            let shown = file.strip_prefix(&root).unwrap_or(file).to_path_buf();
            cited.entry(id).or_insert(shown);
        }
    }

    let mut unresolved = Vec::new();
    for (prefix, game) in RULE_ID_GAMES {
        let readme = root.join("plugins").join(game).join("README.md");
        let text =
            fs::read_to_string(&readme).unwrap_or_else(|e| panic!("{}: {e}", readme.display()));
        let ids: Vec<_> = cited
            .iter()
            .filter(|(id, _)| id.starts_with(&format!("{prefix}-")))
            .collect();
        // A walk that found nothing would pass for the wrong reason.
        assert!(
            !ids.is_empty(),
            "no {prefix}- rule id cited in {}",
            root.display()
        );
        for (id, file) in ids {
            if !text.contains(&format!("**{id}**")) {
                unresolved.push(format!(
                    "{id} (cited in {}) is not in plugins/{game}/README.md",
                    file.display()
                ));
            }
        }
    }
    assert!(
        unresolved.is_empty(),
        "rule ids cited in code but not stated as `- **ID** — …` in their game's README:\n  {}",
        unresolved.join("\n  ")
    );
}
