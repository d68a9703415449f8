//! The language of game texts when none is chosen: from the system locale.

/// `fr` when the system locale is French, else `en` (`LC_ALL`, then `LC_MESSAGES`, then `LANG`).
pub fn system_lang() -> String {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .unwrap_or_default();
    if locale.starts_with("fr") { "fr" } else { "en" }.to_string()
}
