//! `veillee sessions`, `undo`, `redo`, `export`, `import`, `delete`.

use std::path::Path;

use anyhow::Context;
use veillee_sdk::Status;

use super::open_sessions;
use veillee_runtime::catalog::Catalog;
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::launch::engine_for_session;
use veillee_runtime::store::model::SessionFile;

pub fn list(data: &DataDir) -> anyhow::Result<()> {
    let sessions = open_sessions(data)?;
    let all = sessions.list()?;
    if all.is_empty() {
        println!("No saved sessions yet: `veillee play GAME` starts one.");
        return Ok(());
    }
    println!(
        "{:>6}  {:<14} {:<28} {:<20} {:>6}  status",
        "id", "game", "players", "last played", "moves"
    );
    for meta in all {
        let players: Vec<&str> = meta.seats.iter().map(|s| s.name.as_str()).collect();
        let status = match &meta.status {
            Status::ToAct { .. } => "in progress".to_string(),
            Status::Finished { outcome } if outcome.is_draw() => "draw".to_string(),
            Status::Finished { outcome } => {
                let winners: Vec<&str> = outcome
                    .winners
                    .iter()
                    .filter_map(|&w| meta.seats.get(w as usize))
                    .map(|s| s.name.as_str())
                    .collect();
                format!("won by {}", winners.join(", "))
            }
        };
        println!(
            "{:>6}  {:<14} {:<28} {:<20} {:>6}  {status}",
            meta.id,
            meta.game,
            players.join(", "),
            format_time(meta.last_played),
            meta.moves
        );
    }
    Ok(())
}

pub fn undo(
    catalog: &Catalog,
    data: &DataDir,
    id: u64,
    steps: u32,
    agree: bool,
) -> anyhow::Result<()> {
    let sessions = open_sessions(data)?;
    let meta = sessions.get(id)?;
    let mut engine = engine_for_session(catalog, &meta)?;
    let mut live = sessions.resume(&mut *engine, id)?;
    let undone = sessions.undo(&mut *engine, &mut live, steps, agree)?;
    println!(
        "Session {id}: {} moves taken back, now at move {}.",
        undone.moves, live.meta.moves
    );
    Ok(())
}

pub fn redo(catalog: &Catalog, data: &DataDir, id: u64) -> anyhow::Result<()> {
    let sessions = open_sessions(data)?;
    let meta = sessions.get(id)?;
    let mut engine = engine_for_session(catalog, &meta)?;
    let mut live = sessions.resume(&mut *engine, id)?;
    sessions.redo(&mut *engine, &mut live)?;
    println!("Session {id}: redone, now at move {}.", live.meta.moves);
    Ok(())
}

pub fn export(catalog: &Catalog, data: &DataDir, id: u64, file: &Path) -> anyhow::Result<()> {
    let sessions = open_sessions(data)?;
    let exported = sessions.export(id)?;
    let json = serde_json::to_string_pretty(&exported)?;
    std::fs::write(file, json).with_context(|| format!("cannot write {}", file.display()))?;
    println!("Session {id} exported to {}.", file.display());
    let hidden = catalog
        .game(&exported.session.game)
        .is_some_and(|g| g.manifest().hidden_information);
    if hidden && !matches!(exported.session.status, Status::Finished { .. }) {
        // The log is the truth for replay: it holds every seat's secret moves and the seed.
        eprintln!(
            "Warning: this game is not over and has hidden information. The file holds every \
             player's secrets (the seed that dealt the hands, every secret move): whoever opens \
             it can read them. Share it once the game is over."
        );
    }
    Ok(())
}

pub fn import(catalog: &Catalog, data: &DataDir, file: &Path) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let parsed: SessionFile = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a Veillée session file", file.display()))?;
    let sessions = open_sessions(data)?;
    let mut engine = engine_for_session(catalog, &parsed.session)?;
    let meta = sessions
        .import(&mut *engine, parsed)
        .with_context(|| format!("{} was not imported", file.display()))?;
    println!(
        "Imported as session {} ({}, {} moves).",
        meta.id, meta.game, meta.moves
    );
    Ok(())
}

pub fn delete(data: &DataDir, id: u64) -> anyhow::Result<()> {
    open_sessions(data)?.delete(id)?;
    println!("Session {id} deleted.");
    Ok(())
}

/// `YYYY-MM-DD HH:MM` in the local time zone.
fn format_time(secs: u64) -> String {
    jiff::Timestamp::from_second(secs as i64)
        .map(|t| {
            t.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| "?".into())
}
