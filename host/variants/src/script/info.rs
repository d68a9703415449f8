//! Reading a script's metadata table, and turning Lua errors into messages a script author
//! can act on.

use std::collections::BTreeSet;

use mlua::{Table, Value};
use veillee_sdk::{MoveCondition, Seat, Text};

use super::{ScriptInfo, HOOKS};
use crate::VariantLimits;

/// Reads and checks the script table's metadata fields. The checks run in a fixed order, so
/// a script with several mistakes always hears of the same one first.
pub(super) fn read_info(module: &Table) -> Result<ScriptInfo, String> {
    let id = read_id(module)?;
    let exclusive = read_flag(module, "exclusive")?;
    let part_of_game = read_flag(module, "part_of_game")?;
    let changes = read_changes(module)?;
    let actions = read_actions(module)?;
    let hooks = read_hooks(module)?;
    refuse_unknown_functions(module)?;
    let seats = read_seats(module)?;
    let max_added = read_max_added(module, &hooks)?;
    let after_when = read_after_when(module, &hooks)?;
    Ok(ScriptInfo {
        id,
        name: read_text(module, "name")?,
        description: read_text(module, "description")?,
        game: read_string(module, "game")?,
        version: read_string(module, "version")?,
        exclusive,
        part_of_game,
        changes,
        actions,
        seats,
        max_added,
        after_when,
        hooks,
    })
}

/// A field that must be a string.
fn read_string(module: &Table, key: &str) -> Result<String, String> {
    match module.raw_get::<Value>(key) {
        Ok(Value::String(s)) => Ok(s.to_str().map_err(|e| e.to_string())?.to_string()),
        Ok(Value::Nil) => Err(format!("the script table has no `{key}` field")),
        Ok(other) => Err(format!(
            "`{key}` must be a string, not a {}",
            other.type_name()
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// A field that must be a text: a string (the same in both languages) or
/// `{fr = "…", en = "…"}`.
fn read_text(module: &Table, key: &str) -> Result<Text, String> {
    match module.raw_get::<Value>(key) {
        Ok(Value::String(s)) => Ok(Text::same(
            s.to_str().map_err(|e| e.to_string())?.to_string(),
        )),
        Ok(Value::Table(t)) => table_text(&t).ok_or_else(|| {
            format!("`{key}` must be {{fr = \"…\", en = \"…\"}} with both languages")
        }),
        Ok(Value::Nil) => Err(format!("the script table has no `{key}` field")),
        Ok(other) => Err(format!(
            "`{key}` must be a text, not a {}",
            other.type_name()
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// An optional true-or-false field, false when absent.
fn read_flag(module: &Table, key: &str) -> Result<bool, String> {
    match module.raw_get::<Value>(key) {
        Ok(Value::Nil) => Ok(false),
        Ok(Value::Boolean(b)) => Ok(b),
        Ok(other) => Err(format!(
            "`{key}` must be true or false, not a {}",
            other.type_name()
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// The `id` field: 1 to 60 characters of `a`–`z`, `0`–`9` and `-`.
fn read_id(module: &Table) -> Result<String, String> {
    let id = read_string(module, "id")?;
    let id_ok = !id.is_empty()
        && id.len() <= 60
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !id_ok {
        return Err(format!(
            "id `{id}` must be 1–60 characters of a–z, 0–9 and `-`"
        ));
    }
    Ok(id)
}

/// The optional `changes` field: a list of texts, the "rules diff" of set-up screens.
fn read_changes(module: &Table) -> Result<Vec<Text>, String> {
    let mut changes = Vec::new();
    match module.raw_get::<Value>("changes") {
        Ok(Value::Nil) => {}
        Ok(Value::Table(list)) => {
            for item in list.sequence_values::<Value>() {
                match item {
                    Ok(Value::Table(t)) => changes.push(
                        table_text(&t)
                            .ok_or("each entry of `changes` must be {fr = \"…\", en = \"…\"}")?,
                    ),
                    Ok(Value::String(s)) => changes.push(Text::same(
                        s.to_str().map_err(|e| e.to_string())?.to_string(),
                    )),
                    _ => {
                        return Err(
                            "each entry of `changes` must be {fr = \"…\", en = \"…\"}".into()
                        )
                    }
                }
            }
        }
        Ok(other) => {
            return Err(format!(
                "`changes` must be a list, not a {}",
                other.type_name()
            ))
        }
        Err(e) => return Err(e.to_string()),
    }
    Ok(changes)
}

/// The hooks the table defines, in [`HOOKS`] order; a hook's name holding anything but a
/// function is refused.
fn read_hooks(module: &Table) -> Result<Vec<String>, String> {
    let mut hooks = Vec::new();
    for hook in HOOKS {
        match module.raw_get::<Value>(*hook) {
            Ok(Value::Nil) => {}
            Ok(Value::Function(_)) => hooks.push(hook.to_string()),
            Ok(other) => {
                return Err(format!(
                    "`{hook}` must be a function, not a {}",
                    other.type_name()
                ))
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(hooks)
}

/// A misspelt hook would silently never run: refuses a function field that is not a hook.
/// The one named is the first by name, whatever order the table walks in, so the message is
/// the same in every run.
fn refuse_unknown_functions(module: &Table) -> Result<(), String> {
    let mut unknown = BTreeSet::new();
    for pair in module.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| e.to_string())?;
        if let (Value::String(key), Value::Function(_)) = (&key, &value) {
            let key = key.to_string_lossy();
            if !HOOKS.contains(&key.as_str()) {
                unknown.insert(key);
            }
        }
    }
    if let Some(name) = unknown.into_iter().next() {
        return Err(format!(
            "`{name}` is not a hook (hooks are: {}); keep helper functions in local variables",
            HOOKS.join(", ")
        ));
    }
    Ok(())
}

/// The optional `seats` field: the seats (numbers from 0) whose actions the action hooks
/// concern. Empty when absent: every seat.
fn read_seats(module: &Table) -> Result<Vec<Seat>, String> {
    let bad = || "`seats` must be a list of seats, numbers from 0 to 31 such as {1}".to_string();
    let list = match module.raw_get::<Value>("seats") {
        Ok(Value::Nil) => return Ok(Vec::new()),
        Ok(Value::Table(list)) => list,
        _ => return Err(bad()),
    };
    let mut seats = Vec::new();
    for item in list.sequence_values::<Value>() {
        let seat = match item {
            Ok(Value::Integer(n)) => n,
            Ok(Value::Number(n)) if n.fract() == 0.0 => n as i64,
            _ => return Err(bad()),
        };
        let seat = Seat::try_from(seat)
            .ok()
            .filter(|s| *s < 32)
            .ok_or_else(bad)?;
        if !seats.contains(&seat) {
            seats.push(seat);
        }
    }
    if seats.is_empty() {
        return Err(bad());
    }
    Ok(seats)
}

/// The optional `max_added` field: the most actions one `add_actions` call adds.
fn read_max_added(module: &Table, hooks: &[String]) -> Result<Option<u32>, String> {
    let max = match module.raw_get::<Value>("max_added") {
        Ok(Value::Nil) => return Ok(None),
        Ok(Value::Integer(n)) => n,
        Ok(Value::Number(n)) if n.fract() == 0.0 => n as i64,
        _ => return Err(bad_max_added()),
    };
    if !(1..=crate::engine::MAX_ADDED as i64).contains(&max) {
        return Err(bad_max_added());
    }
    if !hooks.iter().any(|h| h == "add_actions") {
        return Err("`max_added` is about `add_actions`, which the script does not define".into());
    }
    Ok(Some(max as u32))
}

fn bad_max_added() -> String {
    format!(
        "`max_added` must be a whole number from 1 to {} (the most actions one add_actions call adds)",
        crate::engine::MAX_ADDED
    )
}

/// The optional `after_when` field: `{query = "name", changed = true}` or `{query = "name",
/// equals = value}`.
fn read_after_when(module: &Table, hooks: &[String]) -> Result<Option<MoveCondition>, String> {
    let bad = |why: &str| {
        format!(
            "`after_when` {why}: write {{query = \"soldiers_lost\", changed = true}} or {{query = \"last_die_face\", equals = \"ring\"}}"
        )
    };
    let table = match module.raw_get::<Value>("after_when") {
        Ok(Value::Nil) => return Ok(None),
        Ok(Value::Table(table)) => table,
        _ => return Err(bad("must be a table")),
    };
    let query = match table.raw_get::<Value>("query") {
        Ok(Value::String(s)) => s
            .to_str()
            .map_err(|_| bad("needs a query name"))?
            .to_string(),
        _ => return Err(bad("needs a query name")),
    };
    if query.is_empty() || query.len() > 128 {
        return Err(bad("needs a query name of 1 to 128 bytes"));
    }
    let changed = matches!(table.raw_get::<Value>("changed"), Ok(Value::Boolean(true)));
    let equals = match table.raw_get::<Value>("equals") {
        Ok(Value::Nil) => None,
        Ok(value) => Some(
            super::state::to_json(&value, "after_when.equals")
                .map_err(|e| bad(&format!("has an `equals` that is not data ({e})")))?,
        ),
        Err(e) => return Err(e.to_string()),
    };
    if changed == equals.is_some() {
        return Err(bad("needs either `changed = true` or `equals = …`"));
    }
    for pair in table.pairs::<Value, Value>() {
        let (key, _) = pair.map_err(|e| e.to_string())?;
        let known = matches!(&key, Value::String(k) if ["query", "changed", "equals"].contains(&&*k.to_string_lossy()));
        if !known {
            return Err(bad(
                "has a field other than `query`, `changed` and `equals`",
            ));
        }
    }
    if !hooks.iter().any(|h| h == "after_action") {
        return Err(
            "`after_when` is about `after_action`, which the script does not define".into(),
        );
    }
    Ok(Some(MoveCondition { query, equals }))
}

/// Most patterns in a script's `actions` list, and the longest one.
const MAX_PATTERNS: usize = 64;
const MAX_PATTERN_BYTES: usize = 128;

/// The optional `actions` field: the action-id patterns (`*` for any text) the script's
/// action hooks concern. Empty when absent: they concern every action.
fn read_actions(module: &Table) -> Result<Vec<String>, String> {
    let bad = || {
        format!(
            "`actions` must be a list of 1 to {MAX_PATTERNS} action ids or patterns such as \
             {{\"take-*\", \"end-turn\"}} (`*` stands for any text)"
        )
    };
    let list = match module.raw_get::<Value>("actions") {
        Ok(Value::Nil) => return Ok(Vec::new()),
        Ok(Value::Table(list)) => list,
        _ => return Err(bad()),
    };
    let mut patterns = Vec::new();
    for item in list.sequence_values::<Value>() {
        let Ok(Value::String(pattern)) = item else {
            return Err(bad());
        };
        let pattern = pattern.to_str().map_err(|_| bad())?.to_string();
        if pattern.is_empty() || pattern.len() > MAX_PATTERN_BYTES {
            return Err(format!(
                "`actions`: a pattern has 1 to {MAX_PATTERN_BYTES} bytes (`{}…` has {})",
                pattern.chars().take(20).collect::<String>(),
                pattern.len()
            ));
        }
        patterns.push(pattern);
    }
    if patterns.is_empty() || patterns.len() > MAX_PATTERNS || list.raw_len() != patterns.len() {
        return Err(bad());
    }
    Ok(patterns)
}

pub(super) fn table_text(t: &Table) -> Option<Text> {
    let fr: String = t.raw_get::<Option<String>>("fr").ok()??;
    let en: String = t.raw_get::<Option<String>>("en").ok()??;
    Some(Text { fr, en })
}

pub(super) fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

/// A script failure in one line: `file:line: reason`.
pub(super) fn describe_error(
    file: &str,
    hook: &str,
    line_defined: Option<usize>,
    error: &mlua::Error,
    limits: &VariantLimits,
) -> String {
    let mut traceback = String::new();
    let mut cause = error;
    loop {
        match cause {
            mlua::Error::CallbackError {
                traceback: t,
                cause: c,
            } => {
                if traceback.is_empty() {
                    traceback = t.clone();
                }
                cause = c;
            }
            mlua::Error::WithContext { cause: c, .. } => cause = c,
            _ => break,
        }
    }
    let reason = match cause {
        mlua::Error::MemoryError(_) => {
            format!("memory cap of {} KiB exhausted", limits.memory_bytes / 1024)
        }
        mlua::Error::RuntimeError(message) => first_line(message),
        other => first_line(&other.to_string()),
    };
    let prefix = format!("{file}:");
    if reason.starts_with(&prefix) {
        return format!("{reason} (in {hook})");
    }
    // The first place in the traceback that is in the script.
    let position = traceback
        .lines()
        .map(str::trim)
        .find_map(|line| {
            let rest = line.strip_prefix(&prefix)?;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty()).then_some(digits)
        })
        .or_else(|| line_defined.map(|l| l.to_string()));
    match position {
        Some(line) => format!("{file}:{line}: {reason} (in {hook})"),
        None => format!("{file}: {reason} (in {hook})"),
    }
}
