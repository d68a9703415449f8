//! `veillee inspect`: the state after some actions, as JSON or as the terminal draws it, for
//! debugging rules from outside.

use std::fmt::Write as _;

use std::path::Path;

use anyhow::{bail, Context};
use serde_json::json;
use veillee_sdk::{Action, Scene, Seat, Status};

use super::board_text::render;

use crate::term::{self, line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::state_hash;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::engine_with_variants;
use veillee_runtime::options::setup_with_options;

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

/// What to inspect.
pub struct Request<'a> {
    /// Game id.
    pub game: &'a str,
    /// Seed of the game.
    pub seed: u64,
    /// Players (default: the game's minimum).
    pub players: Option<u8>,
    /// The game's options, as `id=value`.
    pub options: &'a [String],
    /// Action ids to apply in order (`SEAT:ID` picks the seat).
    pub actions: &'a [String],
    /// Seat whose view to print (default: a spectator's).
    pub viewer: Option<Seat>,
    /// JSON or text.
    pub format: Format<'a>,
    /// House rules to play with (ids or .lua files).
    pub variants: &'a [String],
}

/// Runs the game as it is played — with its own scripts (Castel's cards), like `play`,
/// `check` and `simulate` — applies the actions and prints the state.
pub fn run(catalog: &Catalog, user_variants: &Path, request: &Request) -> anyhow::Result<()> {
    let Request {
        game,
        seed,
        players,
        options,
        actions,
        viewer,
        ref format,
        variants,
    } = *request;
    let (mut engine, scripts) = engine_with_variants(catalog, game, variants, user_variants)?;
    let manifest = engine.manifest().clone();
    let players = players.unwrap_or(manifest.min_players);
    let setup = setup_with_options(&manifest, players, seed, options)?;
    let handle = engine.create(&setup)?;
    let mut applied = Vec::new();
    for (index, spec) in actions.iter().enumerate() {
        let (seat, id) = resolve(&mut *engine, handle, spec)
            .with_context(|| format!("action {} of --actions (`{spec}`)", index + 1))?;
        let events = engine.apply(handle, seat, &id)?;
        applied.push(json!({ "seat": seat, "id": id, "events": events }));
    }
    let status = engine.status(handle)?;
    let mut legal = Vec::new();
    for &seat in status.seats() {
        legal.push((seat, engine.legal_actions(handle, seat)?));
    }
    let failed = engine.failed_scripts(handle);
    let scene = engine.view(handle, viewer)?;
    if let Format::Text { lang } = format {
        outln!(
            "{}",
            as_text(&manifest, &scene, &status, &legal, lang).trim_end()
        );
        return script_failures(&failed);
    }
    let legal: Vec<_> = legal
        .iter()
        .map(|(seat, actions)| json!({ "seat": seat, "actions": actions }))
        .collect();
    let output = json!({
        "game": engine.manifest().id,
        "seed": seed,
        "players": players,
        "options": setup.options,
        "own_scripts": super::variants::own_scripts(game, user_variants),
        "scripts": scripts.iter().map(|s| json!({ "id": s.id, "file": s.file, "hash": s.hash })).collect::<Vec<_>>(),
        "failed_scripts": failed,
        "applied": applied,
        "status": status,
        "legal_actions": legal,
        "viewer": viewer,
        "scene": scene,
        "state_hash": state_hash(&engine.save(handle)?),
    });
    outln!("{}", term::json(&serde_json::to_string_pretty(&output)?));
    script_failures(&failed)
}

/// A script switched off leaves another game than the one asked for: say so, and fail.
fn script_failures(failed: &[String]) -> anyhow::Result<()> {
    if !failed.is_empty() {
        bail!("a script was switched off: {}", failed.join("; "));
    }
    Ok(())
}

/// The scene as the terminal draws it, then who is to act and with what, or the outcome.
fn as_text(
    manifest: &veillee_sdk::Manifest,
    scene: &Scene,
    status: &Status,
    legal: &[(Seat, Vec<Action>)],
    lang: &str,
) -> String {
    let seat = |s: Seat| {
        manifest.seats.get(s as usize).map_or_else(
            || format!("seat {s}"),
            |info| line(info.name.get(lang)).into_owned(),
        )
    };
    let mut out = render(scene, lang, &seat);
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
