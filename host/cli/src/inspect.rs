//! `veillee inspect`: the state after some actions, as JSON or as the terminal draws it, for
//! debugging rules from outside.

use std::fmt::Write as _;

use anyhow::{bail, Context};
use serde_json::json;
use veillee_sdk::{Action, Scene, Seat, Setup, Status};

use super::board_text::render;

use crate::term::{self, line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::state_hash;
use veillee_runtime::engine::GameEngine;

/// How to print what is inspected.
pub enum Format<'a> {
    /// One JSON object.
    Json,
    /// The scene as `veillee play` draws it, then the status and the legal actions.
    Text {
        /// The language of the game's texts.
        lang: &'a str,
    },
}

pub fn run(
    catalog: &Catalog,
    game: &str,
    seed: u64,
    players: Option<u8>,
    actions: &[String],
    viewer: Option<Seat>,
    format: Format,
) -> anyhow::Result<()> {
    let mut engine = catalog.engine(game)?;
    let players = players.unwrap_or(engine.manifest().min_players);
    let handle = engine.create(&Setup::new(players, seed))?;
    let mut applied = Vec::new();
    for (index, spec) in actions.iter().enumerate() {
        let (seat, id) = resolve(&mut engine, handle, spec)
            .with_context(|| format!("action {} of --actions (`{spec}`)", index + 1))?;
        let events = engine.apply(handle, seat, &id)?;
        applied.push(json!({ "seat": seat, "id": id, "events": events }));
    }
    let status = engine.status(handle)?;
    let mut legal = Vec::new();
    for &seat in status.seats() {
        legal.push((seat, engine.legal_actions(handle, seat)?));
    }
    let scene = engine.view(handle, viewer)?;
    if let Format::Text { lang } = format {
        outln!("{}", as_text(&scene, &status, &legal, lang).trim_end());
        return Ok(());
    }
    let legal: Vec<_> = legal
        .iter()
        .map(|(seat, actions)| json!({ "seat": seat, "actions": actions }))
        .collect();
    let output = json!({
        "game": engine.manifest().id,
        "seed": seed,
        "players": players,
        "applied": applied,
        "status": status,
        "legal_actions": legal,
        "viewer": viewer,
        "scene": scene,
        "state_hash": state_hash(&engine.save(handle)?),
    });
    outln!("{}", term::json(&serde_json::to_string_pretty(&output)?));
    Ok(())
}

/// The scene as the terminal draws it, then who is to act and with what, or the outcome.
fn as_text(scene: &Scene, status: &Status, legal: &[(Seat, Vec<Action>)], lang: &str) -> String {
    let mut out = render(scene, lang);
    if let Status::Finished { outcome } = status {
        let _ = writeln!(out, "Over: {}", line(outcome.reason.get(lang)));
    }
    for (seat, actions) in legal {
        let _ = writeln!(out, "Seat {seat} to act:");
        for action in actions {
            let label = line(action.label.get(lang));
            let _ = writeln!(out, "  {label}  [{}]", line(&action.id));
        }
    }
    out
}

/// `SEAT:ID`, or `ID` played by the first seat to act that may play it.
fn resolve(
    engine: &mut dyn GameEngine,
    handle: veillee_sdk::Handle,
    spec: &str,
) -> anyhow::Result<(Seat, String)> {
    if let Some((seat, id)) = spec.split_once(':') {
        if let Ok(seat) = seat.parse::<Seat>() {
            return Ok((seat, id.to_string()));
        }
    }
    let status = engine.status(handle)?;
    if status.seats().is_empty() {
        bail!("the game is already over");
    }
    let mut listed = Vec::new();
    for &seat in status.seats() {
        let actions = engine.legal_actions(handle, seat)?;
        if actions.iter().any(|a| a.id == spec) {
            return Ok((seat, spec.to_string()));
        }
        listed.extend(actions.into_iter().map(|a| a.id));
    }
    bail!("`{spec}` is not legal now; legal: {}", listed.join(", "))
}
