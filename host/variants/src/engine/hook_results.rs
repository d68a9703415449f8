//! Reading what a hook returned: a refusal, a filtered list of actions, a re-dressed scene.

use serde_json::Value;
use veillee_sdk::{text, Action, Highlight, Private, Scene, ScoreLine, Target, Text};

use crate::script::{printable, Script};

/// A `before_action`'s verdict: `None` allows; `false[, reason]`, a string or a text refuses.
pub(super) fn refusal(script: &Script, returned: &[Value]) -> Option<Text> {
    let default = || {
        text(
            format!("Refusé par la règle maison « {} »", script.info().name.fr),
            format!("Refused by the house rule “{}”", script.info().name.en),
        )
    };
    let as_text = |v: &Value| -> Option<Text> {
        match v {
            Value::String(s) => Some(Text::same(s.clone())),
            Value::Object(_) => serde_json::from_value(v.clone()).ok(),
            _ => None,
        }
        .map(printable)
    };
    match returned.first() {
        None | Some(Value::Null) | Some(Value::Bool(true)) => None,
        Some(Value::Bool(false)) => Some(returned.get(1).and_then(as_text).unwrap_or_else(default)),
        Some(other) => Some(as_text(other).unwrap_or_else(default)),
    }
}

/// Applies a `filter_actions` result: `nil` keeps everything; a list of ids or of action
/// tables (`{id = ..., label = ...}`) keeps those, in that order, relabelled if asked.
/// `privately`: a new label is the seat's own text, the table reading the game's label
/// (a script that reads as a spectator learnt it from the seat's list, which is the seat's
/// alone).
pub(super) fn apply_filter(
    actions: &[Action],
    returned: Option<&Value>,
    privately: bool,
) -> Result<Vec<Action>, String> {
    let list = match returned {
        None | Some(Value::Null) => return Ok(actions.to_vec()),
        Some(Value::Array(list)) => list,
        // An empty Lua table comes back as an empty object.
        Some(Value::Object(map)) if map.is_empty() => {
            return Err("it removed every action (at least one must stay)".into())
        }
        Some(_) => return Err("it must return a list of actions or ids".into()),
    };
    let mut kept: Vec<Action> = Vec::with_capacity(list.len());
    for item in list {
        let (id, label) = match item {
            Value::String(id) => (id.clone(), None),
            Value::Object(map) => {
                let id = map
                    .get("id")
                    .and_then(Value::as_str)
                    .ok_or("each action it returns needs its `id`")?
                    .to_string();
                let label = match map.get("label") {
                    Some(Value::String(s)) => Some(Text::same(s.clone())),
                    Some(label @ Value::Object(_)) => Some(
                        serde_json::from_value::<Text>(label.clone())
                            .map_err(|_| format!("the label of `{id}` must be {{fr=…, en=…}}"))?,
                    ),
                    _ => None,
                };
                (id, label)
            }
            _ => return Err("it must return a list of actions or ids".into()),
        };
        let Some(action) = actions.iter().find(|a| a.id == id) else {
            return Err(format!(
                "it returned `{id}`, which is not a legal action (filter_actions can only remove \
                 actions)"
            ));
        };
        if kept.iter().any(|a| a.id == id) {
            continue;
        }
        let mut action = action.clone();
        if let Some(label) = label {
            // What the seat reads of its own action: the public label unless the game
            // gave it a private one.
            match action.private.as_mut() {
                Some(private) => private.text = printable(label),
                None if privately => {
                    action.private = Some(Private {
                        seats: Vec::new(),
                        text: printable(label),
                    })
                }
                None => action.label = printable(label),
            }
        }
        kept.push(action);
    }
    if kept.is_empty() {
        return Err("it removed every action (at least one must stay)".into());
    }
    Ok(kept)
}

/// Copies the presentation fields a `view` hook may change into the scene.
pub(super) fn apply_view(scene: &mut Scene, returned: Option<&Value>) {
    let Some(Value::Object(map)) = returned else {
        return;
    };
    if let Some(rotation) = map.get("rotation").and_then(Value::as_u64) {
        scene.rotation = (rotation % 4) as u8;
    }
    if let Some(message) = map
        .get("message")
        .and_then(|m| serde_json::from_value::<Text>(m.clone()).ok())
    {
        scene.message = printable(message);
    }
    if let Some(highlights) = map
        .get("highlights")
        .and_then(|h| serde_json::from_value::<Vec<Highlight>>(h.clone()).ok())
    {
        scene.highlights = highlights;
    }
    if let Some(scores) = map
        .get("scores")
        .and_then(|s| serde_json::from_value::<Vec<ScoreLine>>(s.clone()).ok())
    {
        scene.scores = scores;
    }
}

/// Most actions one `add_actions` call may add.
pub(crate) const MAX_ADDED: usize = 256;

/// Reads what an `add_actions` returned: `nil` or a list of `{id = …, label = {fr, en},
/// path = {…}}`, each id new among `taken` (the actions listed so far) and of at most 1 KiB.
pub(super) fn read_added(
    returned: Option<&Value>,
    taken: &[Action],
) -> Result<Vec<Action>, String> {
    let list = match returned {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Object(map)) if map.is_empty() => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => {
            return Err("it must return a list of actions {id = …, label = …, path = …}".into())
        }
    };
    if list.len() > MAX_ADDED {
        return Err(format!(
            "it added {} actions (at most {MAX_ADDED})",
            list.len()
        ));
    }
    let mut added: Vec<Action> = Vec::with_capacity(list.len());
    for item in list {
        let Value::Object(map) = item else {
            return Err("each action it adds is a table {id = …, label = …, path = …}".into());
        };
        let id = map
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty() && id.len() <= 1024)
            .ok_or("each action it adds needs an `id` of 1 to 1024 bytes")?
            .to_string();
        if id.starts_with(super::CHOOSE_PREFIX) {
            return Err(format!(
                "`{id}`: ids starting with `choose:` are the host's"
            ));
        }
        if taken.iter().chain(&added).any(|a| a.id == id) {
            return Err(format!(
                "it added `{id}`, which is already an action of this seat"
            ));
        }
        let label = match map.get("label") {
            Some(Value::String(s)) => Text::same(s.clone()),
            Some(label @ Value::Object(_)) => serde_json::from_value::<Text>(label.clone())
                .map_err(|_| format!("the label of `{id}` must be {{fr = …, en = …}}"))?,
            _ => return Err(format!("`{id}` needs a `label` {{fr = …, en = …}}")),
        };
        let path = match map.get("path") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(m)) if m.is_empty() => Vec::new(),
            Some(path) => serde_json::from_value::<Vec<Target>>(path.clone()).map_err(|_| {
                format!(
                    "the path of `{id}` must be a list of targets such as {{kind = \"piece\", id = \"lord\"}} \
                     or {{kind = \"cell\", board = \"board\", col = 2, row = 1}}"
                )
            })?,
        };
        if path.len() > 16 {
            return Err(format!("the path of `{id}` has more than 16 steps"));
        }
        // Its label is public, like any action's: the leak checks read it per viewer.
        added.push(Action::new(id, printable(label), path));
    }
    Ok(added)
}
