//! `ctx.state` as saved data: every Lua table a script keeps there comes back exactly, or is
//! refused when the hook returns, with the path of the value that cannot be saved.
//!
//! Plain JSON would lose data: a table with a key `0` or with holes is not an array, a table
//! with both a list part and named keys is neither an array nor an object, and a number key
//! turned into a string key no longer answers `t[1]`. So a table is saved as
//! * a JSON array when its keys are exactly `1..n` (n ≥ 1);
//! * a JSON object when every key is a string (and none is [`PAIRS`]);
//! * otherwise `{"__lua_pairs": [[key, value], …]}`, keys in a fixed order (numbers ascending,
//!   then strings, then `false`, `true`), so the same table always saves to the same bytes.
//!
//! Saves written before this format (plain JSON objects and arrays) read back the same way.

use mlua::{Lua, Table, Value};
use serde_json::{Map, Number, Value as Json};

/// The key that marks a table saved as a list of key-value pairs.
pub const PAIRS: &str = "__lua_pairs";

/// How deep tables may nest in `ctx.state`.
pub const MAX_DEPTH: usize = 32;

/// Reads a Lua value to save. `path` names it in the error (`ctx.state.scores[0]`).
pub fn to_json(value: &Value, path: &str) -> Result<Json, String> {
    to_json_at(value, path, 0)
}

fn to_json_at(value: &Value, path: &str, depth: usize) -> Result<Json, String> {
    match value {
        Value::Nil => Ok(Json::Null),
        Value::Boolean(b) => Ok(Json::Bool(*b)),
        Value::Integer(i) => Ok(Json::Number((*i).into())),
        Value::Number(n) => number(*n)
            .ok_or_else(|| format!("{path} is {n}, a number that cannot be saved (not finite)")),
        Value::String(s) => match s.to_str() {
            Ok(text) => Ok(Json::String(text.to_string())),
            Err(_) => Err(format!("{path} is a string that is not UTF-8 text")),
        },
        Value::Table(table) => table_to_json(table, path, depth + 1),
        other => Err(format!(
            "{path} is a {}: only strings, numbers, booleans and tables of them can be saved",
            other.type_name()
        )),
    }
}

/// A key of a table, in the order saved tables list them.
#[derive(PartialEq, PartialOrd)]
enum Key {
    Number(f64),
    Text(String),
    Boolean(bool),
}

impl Key {
    fn read(key: &Value, path: &str) -> Result<Key, String> {
        match key {
            Value::Integer(i) => Ok(Key::Number(*i as f64)),
            Value::Number(n) => Ok(Key::Number(*n)),
            Value::String(s) => s
                .to_str()
                .map(|t| Key::Text(t.to_string()))
                .map_err(|_| format!("{path} has a key that is not UTF-8 text")),
            Value::Boolean(b) => Ok(Key::Boolean(*b)),
            other => Err(format!(
                "{path} has a {} as a key: only strings, numbers and booleans can be saved as keys",
                other.type_name()
            )),
        }
    }

    /// `path[key]` or `path.key`, for messages.
    fn child_path(&self, path: &str) -> String {
        match self {
            Key::Number(n) => format!("{path}[{n}]"),
            Key::Text(t) if is_identifier(t) => format!("{path}.{t}"),
            Key::Text(t) => format!("{path}[{t:?}]"),
            Key::Boolean(b) => format!("{path}[{b}]"),
        }
    }

    fn to_json(&self) -> Json {
        match self {
            Key::Number(n) => number(*n).unwrap_or(Json::Null),
            Key::Text(t) => Json::String(t.clone()),
            Key::Boolean(b) => Json::Bool(*b),
        }
    }
}

fn table_to_json(table: &Table, path: &str, depth: usize) -> Result<Json, String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{path} nests tables deeper than {MAX_DEPTH} levels (a table that contains itself?)"
        ));
    }
    let mut entries = Vec::new();
    for pair in table.clone().pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| format!("{path}: {e}"))?;
        let key = Key::read(&key, path)?;
        let value = to_json_at(&value, &key.child_path(path), depth)?;
        entries.push((key, value));
    }
    // Numbers, then strings, then booleans (the variants' order); within a kind, by value.
    entries.sort_by(|(a, _), (b, _)| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let is_sequence = !entries.is_empty()
        && entries
            .iter()
            .enumerate()
            .all(|(i, (k, _))| *k == Key::Number((i + 1) as f64));
    if is_sequence {
        return Ok(Json::Array(entries.into_iter().map(|(_, v)| v).collect()));
    }
    let all_text = entries
        .iter()
        .all(|(k, _)| matches!(k, Key::Text(t) if t != PAIRS));
    if all_text {
        let mut object = Map::new();
        for (key, value) in entries {
            if let Key::Text(t) = key {
                object.insert(t, value);
            }
        }
        return Ok(Json::Object(object));
    }
    let pairs = entries
        .into_iter()
        .map(|(k, v)| Json::Array(vec![k.to_json(), v]))
        .collect();
    let mut object = Map::new();
    object.insert(PAIRS.to_string(), Json::Array(pairs));
    Ok(Json::Object(object))
}

/// Builds the Lua value of saved data (the inverse of [`to_json`]).
pub fn from_json(lua: &Lua, json: &Json) -> mlua::Result<Value> {
    Ok(match json {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) if (i as f64) as i64 == i => Value::Integer(i),
            _ => Value::Number(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => Value::String(lua.create_string(s)?),
        Json::Array(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                table.raw_set(i + 1, from_json(lua, item)?)?;
            }
            Value::Table(table)
        }
        Json::Object(object) => {
            let table = lua.create_table()?;
            match (object.len(), object.get(PAIRS)) {
                (1, Some(Json::Array(pairs))) => {
                    for pair in pairs {
                        if let Json::Array(kv) = pair {
                            if let [key, value] = kv.as_slice() {
                                table.raw_set(from_json(lua, key)?, from_json(lua, value)?)?;
                            }
                        }
                    }
                }
                _ => {
                    for (key, value) in object {
                        table.raw_set(key.as_str(), from_json(lua, value)?)?;
                    }
                }
            }
            Value::Table(table)
        }
    })
}

/// A finite number as JSON: integers stay integers.
fn number(n: f64) -> Option<Json> {
    if n.fract() == 0.0 && n.abs() < 9.0e15 {
        Some(Json::Number((n as i64).into()))
    } else {
        Number::from_f64(n).map(Json::Number)
    }
}

fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
