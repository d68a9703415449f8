//! Each card's effect in words, as the players' rules word it: read from the rules shipped
//! with the game (`rules/{fr,en}.md`, section "Les cartes" / "The cards"), so that a card in
//! a hand says what it does in the very words of the Rules screen, in both languages.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::cards::KINDS;

/// The effects of the rules' card list, by card name: (French by French name, English by
/// English name).
fn table() -> &'static (HashMap<String, String>, HashMap<String, String>) {
    static TABLE: OnceLock<(HashMap<String, String>, HashMap<String, String>)> = OnceLock::new();
    TABLE.get_or_init(|| {
        (
            read(include_str!("../rules/fr.md"), "## Les cartes"),
            read(include_str!("../rules/en.md"), "## The cards"),
        )
    })
}

/// The `- **Name** (note): effect` lines after `section`, by name.
fn read(rules: &str, section: &str) -> HashMap<String, String> {
    let Some(start) = rules.find(section) else {
        return HashMap::new();
    };
    rules[start..]
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- **")?;
            let (name, rest) = rest.split_once("**")?;
            // A note after the name ("(5 cards)", "(not with two players)"), then the colon.
            let (_, effect) = rest.split_once(':')?;
            Some((name.trim().to_string(), effect.trim().to_string()))
        })
        .collect()
}

/// What a card of kind `k` does, in French and English (empty when the rules do not say).
pub fn effect(k: u8) -> (&'static str, &'static str) {
    let kind = &KINDS[k as usize];
    let (fr, en) = table();
    (
        fr.get(kind.fr).map_or("", String::as_str),
        en.get(kind.en).map_or("", String::as_str),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_has_its_effect_in_both_languages_as_the_rules_word_it() {
        for (k, kind) in KINDS.iter().enumerate() {
            let (fr, en) = effect(k as u8);
            assert!(!fr.is_empty(), "{} has no effect in rules/fr.md", kind.fr);
            assert!(!en.is_empty(), "{} has no effect in rules/en.md", kind.en);
        }
        let courtier = KINDS.iter().position(|k| k.en == "Courtier").unwrap();
        assert_eq!(effect(courtier as u8).1, "returns a neighbouring card.");
    }
}
