//! The `ctx` functions a hook calls: the game's operations, `ctx.choose` and
//! `ctx.choose_all`, and the texts a script hands back.

use std::cell::RefCell;

use mlua::{Lua, LuaSerdeExt, Table, Value};
use veillee_sdk::{GameError, Handle, OperationKind, Outcome, Seat, Text};

use super::sandbox::CHOICE_PENDING;
use super::{Call, ChoiceRequest, Powers, Spectator};
use veillee_engine::EngineError;

/// `ctx.game.query` / `ctx.game.command`.
pub(super) fn operation(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    kind: OperationKind,
    name: &str,
    args: Value,
    de: mlua::serde::DeserializeOptions,
    ser: mlua::serde::SerializeOptions,
) -> mlua::Result<Value> {
    let mut c = call.borrow_mut();
    let what = match kind {
        OperationKind::Query => "query",
        OperationKind::Command => "command",
    };
    if c.pending.is_some() {
        return Err(mlua::Error::runtime(CHOICE_PENDING));
    }
    let declared = c.manifest.operations.iter().find(|op| op.name == name);
    match declared {
        None => {
            let known: Vec<&str> = c
                .manifest
                .operations
                .iter()
                .filter(|op| op.kind == kind)
                .map(|op| op.name.as_str())
                .collect();
            return Err(mlua::Error::runtime(format!(
                "ctx.game.{what}: game `{}` has no {what} `{name}` (it offers: {})",
                c.manifest.id,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
        Some(op) if op.kind != kind => {
            return Err(mlua::Error::runtime(format!(
                "ctx.game.{what}: `{name}` is a {}, call it with ctx.game.{}",
                if op.kind == OperationKind::Query {
                    "query"
                } else {
                    "command"
                },
                if op.kind == OperationKind::Query {
                    "query"
                } else {
                    "command"
                },
            )));
        }
        Some(_) => {}
    }
    if kind == OperationKind::Command && c.powers != Powers::Full {
        return Err(mlua::Error::runtime(format!(
            "ctx.game.command is not available in {} (only queries are)",
            c.hook
        )));
    }
    let args: serde_json::Value = match args {
        Value::Nil => serde_json::Value::Null,
        args => lua.from_value_with(args, de)?,
    };
    let target = if kind == OperationKind::Command {
        match c.scratch {
            Some(scratch) => scratch,
            None => {
                let base = c.game.base;
                match c.game.engine.clone_game(base) {
                    Ok(copy) => *c.scratch.insert(copy),
                    Err(e) => return Err(fatal(&mut c, e)),
                }
            }
        }
    } else {
        c.scratch.unwrap_or(c.game.base)
    };
    let answered = if c.spectator.is_none() {
        c.game.engine.operation(target, name, &args)
    } else if kind == OperationKind::Query {
        spectator_world(&mut c, target)
            .and_then(|world| c.game.engine.operation(world, name, &args))
    } else {
        command_seen_by_spectator(&mut c, target, name, &args)
    };
    match answered {
        Ok(answer) => lua.to_value_with(&answer, ser),
        Err(EngineError::Game(GameError::Operation { reason, .. })) => Err(mlua::Error::runtime(
            format!("ctx.game.{what}(\"{name}\") refused: {reason}"),
        )),
        Err(e @ EngineError::Game(_)) => Err(mlua::Error::runtime(format!(
            "ctx.game.{what}(\"{name}\") failed: {e}"
        ))),
        Err(e) => Err(fatal(&mut c, e)),
    }
}

/// The game `target` as the spectator may know it, kept for the call's next queries until a
/// command changes the game.
fn spectator_world(c: &mut Call<'_, '_>, target: Handle) -> Result<Handle, EngineError> {
    match c.spectator.as_ref() {
        None => return Ok(target),
        Some(&Spectator { world: Some(world) }) => return Ok(world),
        Some(_) => {}
    }
    let world = redrawn_for_spectator(c.game.engine, target)?;
    if let Some(spectator) = c.spectator.as_mut() {
        spectator.world = Some(world);
    }
    Ok(world)
}

/// A copy of `target` with its hidden part re-drawn for the spectator. The seed is taken from
/// what the spectator sees: two games that look the same to the spectator give a script the
/// very same world (a re-draw depends only on what its viewer knows and the seed), so nothing
/// it reads can tell them apart — and a saved game replays to the same worlds with any later
/// Veillée.
fn redrawn_for_spectator(
    engine: &mut dyn veillee_engine::GameEngine,
    target: Handle,
) -> Result<Handle, EngineError> {
    let seen = engine.view(target, None)?;
    engine.redraw_hidden(target, None, seed_of(&seen))
}

/// A seed from a scene: the first bytes of the SHA-256 of its JSON (stable across builds,
/// unlike the standard library's hasher).
fn seed_of(scene: &veillee_sdk::Scene) -> u64 {
    use sha2::{Digest, Sha256};
    let json = serde_json::to_vec(scene).unwrap_or_default();
    let digest = Sha256::digest(&json);
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// A command for a script that reads as a spectator: it changes the game itself, and its
/// answer is the one the same command gives on the spectator's re-drawn copy — so an answer
/// that depends on a secret (the card a draw took) tells the script only what anyone could
/// guess. A refusal is told the same way (the copy's reason, else a bare one). The world
/// queries read is dropped: the command changes the game.
fn command_seen_by_spectator(
    c: &mut Call<'_, '_>,
    target: Handle,
    name: &str,
    args: &serde_json::Value,
) -> Result<serde_json::Value, EngineError> {
    if let Some(world) = c.spectator.as_mut().and_then(|s| s.world.take()) {
        c.game.engine.drop_game(world);
    }
    let copy = redrawn_for_spectator(c.game.engine, target)?;
    let seen = c.game.engine.operation(copy, name, args);
    c.game.engine.drop_game(copy);
    let done = c.game.engine.operation(target, name, args);
    match (done, seen) {
        (Err(failure @ EngineError::Plugin(_)), _) | (_, Err(failure @ EngineError::Plugin(_))) => {
            Err(failure)
        }
        (Ok(_), Ok(answer)) => Ok(answer),
        (Ok(_), Err(_)) => Ok(serde_json::Value::Null),
        (Err(_), Err(refused)) => Err(refused),
        (Err(_), Ok(_)) => Err(EngineError::Game(GameError::Operation {
            name: name.to_string(),
            reason: "the game refused it".into(),
        })),
    }
}

pub(super) fn fatal(c: &mut Call<'_, '_>, e: EngineError) -> mlua::Error {
    let message = format!("the game's plugin failed: {e}");
    c.fatal.get_or_insert(e);
    mlua::Error::runtime(message)
}

/// `ctx.choose(seat, options, prompt)`: the recorded answer, 1-based, or the pending
/// sentinel.
pub(super) fn choose(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    seat: i64,
    options: Value,
    prompt: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<i64> {
    let mut c = call.borrow_mut();
    may_choose(&c, "ctx.choose")?;
    let request = choice_request(lua, &c, seat, options, prompt, de, "ctx.choose")?;
    let answers = recorded_answers(&mut c, std::slice::from_ref(&request))?;
    match answers {
        Some(answers) => Ok(answers[0]),
        None => Err(mlua::Error::runtime(CHOICE_PENDING)),
    }
}

/// `ctx.choose_all({ {seat=, options=, prompt=}, … })`: every listed seat decides at once,
/// privately; returns `{ [seat] = 1-based answer }` once all have answered, else the
/// pending sentinel.
pub(super) fn choose_all(
    lua: &Lua,
    call: &RefCell<Call<'_, '_>>,
    questions: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<Table> {
    let mut c = call.borrow_mut();
    may_choose(&c, "ctx.choose_all")?;
    let Value::Table(list) = questions else {
        return Err(mlua::Error::runtime(
            "ctx.choose_all needs a list of questions { seat = …, options = {…}, prompt = … }",
        ));
    };
    let mut requests: Vec<ChoiceRequest> = Vec::new();
    for question in list.sequence_values::<Value>() {
        let Value::Table(question) = question? else {
            return Err(mlua::Error::runtime(
                "ctx.choose_all: each question is a table { seat = …, options = {…}, prompt = … }",
            ));
        };
        let seat: i64 = question.raw_get("seat").map_err(|_| {
            mlua::Error::runtime("ctx.choose_all: a question's `seat` must be a number")
        })?;
        let request = choice_request(
            lua,
            &c,
            seat,
            question.raw_get("options")?,
            question.raw_get("prompt")?,
            de,
            "ctx.choose_all",
        )?;
        if requests.iter().any(|r| r.seat == request.seat) {
            return Err(mlua::Error::runtime(format!(
                "ctx.choose_all: seat {} is asked twice",
                request.seat
            )));
        }
        requests.push(request);
    }
    if requests.is_empty() {
        return Err(mlua::Error::runtime(
            "ctx.choose_all needs at least one question",
        ));
    }
    let Some(answers) = recorded_answers(&mut c, &requests)? else {
        return Err(mlua::Error::runtime(CHOICE_PENDING));
    };
    let picks = lua.create_table()?;
    for (request, answer) in requests.iter().zip(answers) {
        picks.raw_set(request.seat, answer)?;
    }
    Ok(picks)
}

/// Refuses a choice where none may be asked (a choice already pending in this call, or a
/// read-only hook).
pub(super) fn may_choose(c: &Call<'_, '_>, what: &str) -> mlua::Result<()> {
    if c.pending.is_some() {
        return Err(mlua::Error::runtime(CHOICE_PENDING));
    }
    if c.powers == Powers::Read {
        return Err(mlua::Error::runtime(format!(
            "{what} is not available in {}",
            c.hook
        )));
    }
    Ok(())
}

/// One question, checked: a seat of this game, 1 to 256 options, a prompt.
pub(super) fn choice_request(
    lua: &Lua,
    c: &Call<'_, '_>,
    seat: i64,
    options: Value,
    prompt: Value,
    de: mlua::serde::DeserializeOptions,
    what: &str,
) -> mlua::Result<ChoiceRequest> {
    let players = c.game.players;
    let seat = Seat::try_from(seat)
        .ok()
        .filter(|s| *s < players)
        .ok_or_else(|| {
            mlua::Error::runtime(format!(
                "{what}: seat {seat} is not a seat of this game (0 to {})",
                players.saturating_sub(1)
            ))
        })?;
    let Value::Table(list) = options else {
        return Err(mlua::Error::runtime(format!(
            "{what}: options must be a list of texts"
        )));
    };
    let mut texts = Vec::new();
    for value in list.sequence_values::<Value>() {
        texts.push(to_text(lua, value?, de, &format!("a {what} option"))?);
    }
    if texts.is_empty() || texts.len() > 256 {
        return Err(mlua::Error::runtime(format!(
            "{what} needs 1 to 256 options (got {})",
            texts.len()
        )));
    }
    let prompt = to_text(lua, prompt, de, &format!("{what}'s prompt"))?;
    Ok(ChoiceRequest {
        seat,
        options: texts,
        prompt,
    })
}

/// The recorded answers (1-based) to these questions, asked together, or `None` after
/// marking them pending. Questions asked together are answered together: their answers are
/// recorded consecutively, in question order.
pub(super) fn recorded_answers(
    c: &mut Call<'_, '_>,
    requests: &[ChoiceRequest],
) -> mlua::Result<Option<Vec<i64>>> {
    let Some(recorded) = c.answers.get(c.next_answer..c.next_answer + requests.len()) else {
        c.pending = Some(requests.to_vec());
        return Ok(None);
    };
    c.next_answer += requests.len();
    requests
        .iter()
        .zip(recorded)
        .map(|(request, &answer)| {
            if answer as usize >= request.options.len() {
                return Err(mlua::Error::runtime(format!(
                    "recorded answer {answer} is not among {} options (the saved game does \
                     not match this script)",
                    request.options.len()
                )));
            }
            Ok(answer as i64 + 1)
        })
        .collect::<mlua::Result<Vec<i64>>>()
        .map(Some)
}

/// The outcome `ctx.game.end_game` gives: `{winners = {0}, reason = {fr = "…", en = "…"}}`,
/// with `scores = {…}` (one per seat) if the game keeps scores; no winners is a draw.
pub(super) fn to_outcome(
    lua: &Lua,
    value: Value,
    de: mlua::serde::DeserializeOptions,
) -> mlua::Result<Outcome> {
    let bad = |why: &str| {
        mlua::Error::runtime(format!(
            "ctx.game.end_game: {why}; write {{winners = {{0}}, reason = {{fr = \"…\", en = \"…\"}}}} (no winners: a draw)"
        ))
    };
    let Value::Table(table) = value else {
        return Err(bad("the outcome must be a table"));
    };
    let whole = |name: &str| -> mlua::Result<Vec<i64>> {
        match table.raw_get::<Value>(name)? {
            Value::Nil => Ok(Vec::new()),
            Value::Table(list) => list
                .sequence_values::<Value>()
                .map(|item| match item? {
                    Value::Integer(n) => Ok(n),
                    Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(n as i64),
                    _ => Err(bad(&format!("`{name}` must be a list of whole numbers"))),
                })
                .collect(),
            _ => Err(bad(&format!("`{name}` must be a list of whole numbers"))),
        }
    };
    let mut winners = Vec::new();
    for seat in whole("winners")? {
        let seat = Seat::try_from(seat).map_err(|_| bad("a winner must be a seat, from 0"))?;
        if !winners.contains(&seat) {
            winners.push(seat);
        }
    }
    let scores = whole("scores")?;
    let reason = match table.raw_get::<Value>("reason")? {
        Value::Nil => return Err(bad("`reason` is missing")),
        reason => to_text(lua, reason, de, "ctx.game.end_game's reason")?,
    };
    Ok(Outcome {
        winners,
        scores,
        reason,
    })
}

/// A text from Lua: a string (both languages) or a `{fr = ..., en = ...}` table.
pub(super) fn to_text(
    lua: &Lua,
    value: Value,
    de: mlua::serde::DeserializeOptions,
    what: &str,
) -> mlua::Result<Text> {
    let text = match value {
        Value::String(s) => Ok(Text::same(s.to_str()?.to_string())),
        Value::Integer(_) | Value::Number(_) => Ok(Text::same(
            lua.coerce_string(value)?
                .map(|s| s.to_string_lossy())
                .unwrap_or_default(),
        )),
        Value::Table(_) => lua.from_value_with::<Text>(value, de).map_err(|_| {
            mlua::Error::runtime(format!(
                "{what} must be a string or a table {{fr = \"…\", en = \"…\"}}"
            ))
        }),
        other => Err(mlua::Error::runtime(format!(
            "{what} must be a string or a table {{fr = \"…\", en = \"…\"}} (got {})",
            other.type_name()
        ))),
    };
    text.map(printable)
}

/// A script's text with its control characters made visible and its length bounded — the one
/// door every text a script makes goes through. An escape sequence in a label or a log line
/// must not clear a player's terminal, retitle the window or write to the clipboard: C0
/// controls become their Unicode pictures (`ESC` shows as `␛`), other controls `�`; line
/// breaks and tabs stay. Each language is cut to [`veillee_sdk::MAX_TEXT_CHARS`].
pub fn printable(text: Text) -> Text {
    fn clean(s: String) -> String {
        if !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
            return s;
        }
        s.chars()
            .map(|c| match c {
                '\n' | '\t' => c,
                '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
                '\u{7f}' => '\u{2421}',
                c if c.is_control() => '\u{fffd}',
                c => c,
            })
            .collect()
    }
    Text {
        fr: clean(text.fr),
        en: clean(text.en),
    }
    .clipped()
}
