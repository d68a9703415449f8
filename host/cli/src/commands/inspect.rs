//! `veillee inspect`: the state after some actions, as JSON or as the terminal draws it, for
//! debugging rules from outside.

use std::fmt::Write as _;

use anyhow::{bail, Context as _};
use serde_json::json;
use veillee_sdk::{Action, Scene, Seat, Status};

use super::game_flags::{GameOptions, HouseRules, Players};
use super::Context;
use crate::board_text::render;
use crate::term::{self, line, outln};
use veillee_runtime::conformance::state_hash;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::engine_with_variants;
use veillee_runtime::options::setup_with_options;

/// `veillee inspect GAME`.
#[derive(clap::Args, Debug)]
pub struct InspectArgs {
    /// Game id.
    game: String,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    players: Players,
    #[command(flatten)]
    options: GameOptions,
    /// Action ids to apply in order; `SEAT:ID` picks the seat when several may act.
    #[arg(long, value_delimiter = ',')]
    actions: Vec<String>,
    /// Seat whose view to print (default: a spectator's).
    #[arg(long)]
    viewer: Option<u8>,
    /// Print JSON (the default).
    #[arg(long, conflicts_with = "text")]
    json: bool,
    /// Print the viewer's scene as the terminal draws it, with the status and the legal
    /// actions, instead of JSON.
    #[arg(long)]
    text: bool,
    #[command(flatten)]
    house_rules: HouseRules,
}

impl InspectArgs {
    /// Runs the game as it is played — with its own scripts (Castel's cards), like `play`,
    /// `check` and `simulate` — applies the actions and prints the state.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let catalog = ctx.catalog()?;
        let user_variants = ctx.user_variants();
        let (game, seed, viewer) = (self.game.as_str(), self.seed, self.viewer);
        let variants = &self.house_rules.wanted;
        let (mut engine, scripts) = engine_with_variants(&catalog, game, variants, &user_variants)?;
        let manifest = engine.manifest().clone();
        let players = self.players.count.unwrap_or(manifest.min_players);
        let setup = setup_with_options(&manifest, players, seed, &self.options.written)?;
        let handle = engine.create(&setup)?;
        let mut applied = Vec::new();
        for (index, spec) in self.actions.iter().enumerate() {
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
        if self.text {
            let text = as_text(&manifest, &scene, &status, &legal, &ctx.lang);
            outln!("{}", text.trim_end());
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
            "own_scripts": super::variants::own_scripts(game, &user_variants),
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
pub(super) fn resolve(
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
