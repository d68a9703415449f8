//! What the store keeps at most. Names, scripts, labels and log entries come from players,
//! script authors, plugins and imported files; a session's metadata is rewritten on every
//! move, so one oversized field would be written again and again (a 400 MB seat name once
//! grew a database by gigabytes per game). Every value is checked here before it is written,
//! and the front ends check what people type against the same numbers, to say so early.

use super::model::{LogEntry, SessionMeta, VariantScript};
use super::StoreError;

/// Characters in a player's name.
pub const NAME_CHARS: usize = 40;
/// Seats in a session.
pub const SEATS: usize = 32;
/// Bytes of an identifier or label: a game id, a version, a hash, a script's id or file name.
pub const LABEL_BYTES: usize = 256;
/// Bytes of the hash a session records of its rules: the plugin's hash and, with house rules,
/// each script's id and hash (at most [`SCRIPTS`] of them, each part a label).
pub const RULES_HASH_BYTES: usize = LABEL_BYTES * (1 + 2 * SCRIPTS) + 32 * (SCRIPTS + 1);
/// Bytes of one script's text (Castel's whole card table is 46 KiB).
pub const SCRIPT_BYTES: usize = 256 * 1024;
/// Scripts recorded with one session.
pub const SCRIPTS: usize = 16;
/// Bytes of an action id.
pub const ACTION_BYTES: usize = 1024;
/// Bytes of one log entry as stored (its action, extra data and what it revealed).
pub const ENTRY_BYTES: usize = 64 * 1024;
/// Bytes of a session's metadata as stored (without its scripts): rewritten on every move.
pub const META_BYTES: usize = 64 * 1024;
/// Bytes of one saved game state.
pub const SNAPSHOT_BYTES: usize = 64 * 1024 * 1024;
/// Bytes of one setting.
pub const SETTING_BYTES: usize = 64 * 1024;
/// Moves in one session's log.
pub const MOVES: u32 = 1_000_000;
/// Bytes of a session file to import.
pub const FILE_BYTES: u64 = 256 * 1024 * 1024;

fn refused(message: String) -> StoreError {
    StoreError::Refused(message)
}

/// A player's name: at most [`NAME_CHARS`] characters, no control characters. `seat` is
/// 0-based; messages count from 1.
pub fn check_name(seat: usize, name: &str) -> Result<(), StoreError> {
    let chars = name.chars().count();
    if chars > NAME_CHARS {
        return Err(refused(format!(
            "the name of player {} is {chars} characters long; a name has at most {NAME_CHARS}",
            seat + 1
        )));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(refused(format!(
            "the name of player {} contains a control character (U+{:04X}); a name is plain text",
            seat + 1,
            c as u32
        )));
    }
    Ok(())
}

/// `name` made into a name the store accepts: control characters dropped, cut to
/// [`NAME_CHARS`] characters. For default names taken from a plugin's manifest, which the
/// player did not type and cannot be asked to shorten.
pub fn fit_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(NAME_CHARS)
        .collect()
}

fn check_label(what: &str, value: &str) -> Result<(), StoreError> {
    check_bytes(what, value, LABEL_BYTES)
}

fn check_bytes(what: &str, value: &str, most: usize) -> Result<(), StoreError> {
    if value.len() > most {
        return Err(refused(format!(
            "{what} is {} bytes long; at most {most} are kept",
            value.len()
        )));
    }
    Ok(())
}

/// A script recorded with a session.
pub fn check_script(script: &VariantScript) -> Result<(), StoreError> {
    check_label("a house rule's id", &script.id)?;
    check_label("a house rule's file name", &script.file)?;
    check_label("a house rule's hash", &script.hash)?;
    if script.text.len() > SCRIPT_BYTES {
        return Err(refused(format!(
            "the house rule `{}` is {} bytes long; a script has at most {SCRIPT_BYTES} bytes ({} KiB)",
            script.id,
            script.text.len(),
            SCRIPT_BYTES / 1024
        )));
    }
    Ok(())
}

/// A session's metadata, scripts included, before it is written or imported.
pub fn check_meta(meta: &SessionMeta) -> Result<(), StoreError> {
    check_label("the game id", &meta.game)?;
    // The plugin's hash joined with each house rule's: it grows with the rules played.
    check_bytes("the plugin hash", &meta.plugin_hash, RULES_HASH_BYTES)?;
    check_label("the game version", &meta.plugin_version)?;
    if meta.seats.len() > SEATS {
        return Err(refused(format!(
            "the session has {} seats; at most {SEATS} are kept",
            meta.seats.len()
        )));
    }
    for (seat, player) in meta.seats.iter().enumerate() {
        check_name(seat, &player.name)?;
    }
    // Phone seats: seats of the game, each once, in order.
    let seats = meta.seats.len();
    if meta.phones.iter().any(|&s| usize::from(s) >= seats)
        || meta.phones.windows(2).any(|w| w[0] >= w[1])
    {
        return Err(refused(format!(
            "the seats held by phones ({:?}) are not distinct seats of this {seats}-seat game, in order",
            meta.phones
        )));
    }
    if meta.variants.len() > SCRIPTS {
        return Err(refused(format!(
            "the session runs {} scripts; at most {SCRIPTS} are kept",
            meta.variants.len()
        )));
    }
    for script in &meta.variants {
        check_script(script)?;
    }
    if meta.moves > MOVES {
        return Err(refused(format!(
            "the session has {} moves; at most {MOVES} are kept",
            meta.moves
        )));
    }
    Ok(())
}

/// The stored form of a session's metadata (its scripts without their texts).
pub(crate) fn check_meta_record(id: u64, bytes: usize) -> Result<(), StoreError> {
    if bytes > META_BYTES {
        return Err(refused(format!(
            "the description of session {id} (players, options, how the game stands) takes {bytes} bytes; at most {META_BYTES} are kept"
        )));
    }
    Ok(())
}

/// One log entry: its action id, and its stored size.
pub fn check_entry(index: u32, entry: &LogEntry) -> Result<(), StoreError> {
    if entry.action.len() > ACTION_BYTES {
        return Err(refused(format!(
            "move {} has an action id of {} bytes; at most {ACTION_BYTES} are kept",
            index + 1,
            entry.action.len()
        )));
    }
    let bytes = super::encode(entry).len();
    if bytes > ENTRY_BYTES {
        return Err(refused(format!(
            "move {} takes {bytes} bytes with what it revealed and its extra data; at most {ENTRY_BYTES} are kept",
            index + 1
        )));
    }
    Ok(())
}

/// A saved game state.
pub fn check_snapshot(bytes: usize) -> Result<(), StoreError> {
    if bytes > SNAPSHOT_BYTES {
        return Err(refused(format!(
            "the game's saved state takes {bytes} bytes; at most {SNAPSHOT_BYTES} are kept"
        )));
    }
    Ok(())
}

/// A setting.
pub(crate) fn check_setting(name: &str, bytes: usize) -> Result<(), StoreError> {
    check_label("a setting's name", name)?;
    if bytes > SETTING_BYTES {
        return Err(refused(format!(
            "the setting `{name}` takes {bytes} bytes; at most {SETTING_BYTES} are kept"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_name_is_fitted_to_a_name_the_store_accepts() {
        let hostile = format!("Ana\u{1b}[2J{}", "x".repeat(100));
        let fitted = fit_name(&hostile);
        assert_eq!(fitted.chars().count(), NAME_CHARS);
        assert!(fitted.starts_with("Ana[2J"));
        assert!(check_name(0, &fitted).is_ok());
        assert_eq!(fit_name("Défenseur"), "Défenseur");
    }

    #[test]
    fn the_rules_hash_of_a_plugin_with_every_script_it_may_run_is_kept() {
        // A wasm plugin's hash, then each script as `id:sha256`, as the variant engine joins them.
        let sha = "0".repeat(64);
        let scripts: Vec<String> = (0..SCRIPTS)
            .map(|i| {
                format!(
                    "{}:{sha}",
                    "a-long-house-rule-id-".repeat(12) + &i.to_string()
                )
            })
            .collect();
        let hash = format!("wasm:{sha}+variants[{}]", scripts.join(","));
        assert!(hash.len() > LABEL_BYTES);
        assert!(check_bytes("the plugin hash", &hash, RULES_HASH_BYTES).is_ok());
        let too_long = "x".repeat(RULES_HASH_BYTES + 1);
        let refused = check_bytes("the plugin hash", &too_long, RULES_HASH_BYTES).unwrap_err();
        assert!(
            refused.to_string().contains("the plugin hash is"),
            "{refused}"
        );
    }
}
