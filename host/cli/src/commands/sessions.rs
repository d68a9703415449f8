//! `veillee sessions`, `undo`, `redo`, `export`, `show-view`, `import`, `delete`, `restore`.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use veillee_sdk::Status;

use super::Context;
use crate::table::{Align, Table};
use crate::term::{errln, line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::engine_for_session;
use veillee_runtime::session::{read_file, read_seat_view, LiveSession, Sessions};
use veillee_runtime::store::{SetAside, Store};
use veillee_runtime::variants::{library, text_hash};
use veillee_runtime::vetting::{unfamiliar, Unfamiliar};

/// `veillee sessions`: the saved sessions, and the damaged databases set aside.
pub fn list(ctx: &Context) -> anyhow::Result<()> {
    let sessions = ctx.sessions()?;
    let all = sessions.list()?;
    let set_aside = sessions.store().set_aside();
    if all.is_empty() {
        outln!("No saved sessions yet: `veillee play GAME` starts one.");
        print_set_aside(sessions.store(), &set_aside);
        return Ok(());
    }
    let mut table = Table::new(&[
        ("id", Align::Right),
        ("game", Align::Left),
        ("players", Align::Left),
        ("last played", Align::Left),
        ("moves", Align::Right),
        ("status", Align::Left),
    ]);
    let own = game_own_scripts(&all);
    for meta in all {
        let players: Vec<_> = meta.seats.iter().map(|s| line(&s.name)).collect();
        let status = match &meta.status {
            Status::ToAct { .. } => "in progress".to_string(),
            Status::Finished { outcome } if outcome.is_draw() => "draw".to_string(),
            Status::Finished { outcome } => {
                let winners: Vec<_> = outcome
                    .winners
                    .iter()
                    .filter_map(|&w| meta.seats.get(w as usize))
                    .map(|s| line(&s.name))
                    .collect();
                format!("won by {}", winners.join(", "))
            }
        };
        let rules = house_rules(&meta, &own);
        // The house rules follow the status on its line, outside the table: they may be long.
        let status = if rules.is_empty() {
            status
        } else {
            format!("{status}  house rules: {}", rules.join(", "))
        };
        table.row([
            meta.id.to_string(),
            line(&meta.game).into_owned(),
            players.join(", "),
            format_time(meta.last_played),
            meta.moves.to_string(),
            status,
        ]);
    }
    for row in table.lines() {
        outln!("{row}");
    }
    print_set_aside(sessions.store(), &set_aside);
    Ok(())
}

/// The built-in scripts that are part of their game (Castel's cards), as (id, SHA-256):
/// loaded only when some session recorded scripts.
fn game_own_scripts(all: &[veillee_runtime::store::model::SessionMeta]) -> Vec<(String, String)> {
    if all.iter().all(|meta| meta.variants.is_empty()) {
        return Vec::new();
    }
    library::available(None, None)
        .into_iter()
        .filter_map(|a| {
            let info = a.info.ok().filter(|i| i.part_of_game)?;
            Some((info.id, text_hash(&a.source.text)))
        })
        .collect()
}

/// The house rules a session was played with, by id: the game's own scripts left out, but
/// for a modified copy of one (`cartes (modified)`).
fn house_rules(
    meta: &veillee_runtime::store::model::SessionMeta,
    own: &[(String, String)],
) -> Vec<String> {
    meta.variants
        .iter()
        .filter_map(|v| {
            let shipped = own.iter().find(|(id, _)| *id == v.id);
            match shipped {
                Some((_, hash)) if *hash == v.hash => None,
                Some(_) => Some(format!("{} (modified)", line(&v.id))),
                None => Some(line(&v.id).into_owned()),
            }
        })
        .collect()
}

/// Says that set-aside databases exist and what `veillee restore` can bring back from each:
/// each is read first (as a restore would, writing nothing), so that only what can be done
/// is offered.
fn print_set_aside(store: &Store, set_aside: &[SetAside]) {
    for aside in set_aside {
        let since = aside.since.map_or_else(|| "?".into(), format_time);
        let offer = match store.look(&aside.name) {
            Ok(look) if !look.new.is_empty() => format!(
                "{} game(s) there can be read and are not here: `veillee restore {}` brings them back",
                look.new.len(),
                line(&aside.name)
            ),
            Ok(look) => {
                let mut unread = look.lost.len().to_string();
                if look.unlisted.is_some() {
                    unread.push_str(" or more");
                }
                format!(
                    "nothing there can be brought back ({} game(s) already here, {unread} cannot be read)",
                    look.already
                )
            }
            Err(e) => format!("it cannot be read ({})", line(&e.to_string())),
        };
        outln!(
            "Set aside on {since}: {} — {offer}.",
            line(&aside.path.display().to_string())
        );
    }
}

/// `veillee restore [NAME]`.
#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// The set-aside folder's name (`sessions.broken-…`, see `veillee sessions`).
    name: Option<String>,
}

impl RestoreArgs {
    /// Lists the set-aside databases, or brings one's games back.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        restore(ctx, self.name.as_deref())
    }
}

fn restore(ctx: &Context, name: Option<&str>) -> anyhow::Result<()> {
    let sessions = ctx.sessions()?;
    let store = sessions.store();
    let Some(name) = name else {
        let set_aside = store.set_aside();
        if set_aside.is_empty() {
            outln!("No saved-games database was set aside.");
        }
        print_set_aside(sessions.store(), &set_aside);
        return Ok(());
    };
    let restored = store
        .restore(name)
        .with_context(|| format!("the games of {name} were not brought back"))?;
    let read = restored.added.len() + restored.already;
    outln!(
        "{read} game(s) of it could be read ({} brought back, {} already here); {} could not{}.",
        restored.added.len(),
        restored.already,
        restored.lost.len(),
        if restored.unlisted.is_some() {
            ", and part of its list of games cannot be read"
        } else {
            ""
        }
    );
    for (from, to) in &restored.added {
        if from == to {
            outln!("Session {to} brought back.");
        } else {
            outln!("Session {from} brought back as session {to} (its id was taken).");
        }
    }
    if restored.already > 0 {
        outln!("{} session(s) were already here.", restored.already);
    }
    for lost in &restored.lost {
        outln!("Still unreadable: {}.", line(&lost.to_string()));
    }
    if let Some(unlisted) = &restored.unlisted {
        outln!(
            "Part of its list of games cannot be read: {}.",
            line(&unlisted.to_string())
        );
    }
    let folder = restored.folder.display().to_string();
    if restored.complete() {
        outln!(
            "Every game of it is back; its folder is now {} (you may delete it).",
            line(&folder)
        );
    } else {
        outln!("Its folder stays at {}.", line(&folder));
    }
    Ok(())
}

/// `veillee undo ID`.
#[derive(clap::Args, Debug)]
pub struct UndoArgs {
    /// Session id.
    id: u64,
    /// Decisions to take back.
    #[arg(long, default_value_t = 1)]
    steps: u32,
    /// Everyone at the table agrees to take back what was revealed (die rolls, cards).
    #[arg(long)]
    agree: bool,
}

impl UndoArgs {
    /// Takes back moves of the saved session (bots' moves go with the human move before
    /// them).
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let id = self.id;
        let (sessions, mut engine, mut live) = resumed(ctx, id)?;
        let undone = sessions.undo(&mut *engine, &mut live, self.steps, self.agree)?;
        outln!(
            "Session {id}: {} moves taken back, now at move {}.",
            undone.moves,
            live.meta.moves
        );
        Ok(())
    }
}

/// Saved session `id`, resumed with the engine it was played with.
fn resumed(ctx: &Context, id: u64) -> anyhow::Result<(Sessions, Box<dyn GameEngine>, LiveSession)> {
    let catalog = ctx.catalog()?;
    let sessions = ctx.sessions()?;
    let meta = sessions.get(id)?;
    let mut engine = engine_for_session(&catalog, &meta, &mut super::say_leak_check)?;
    let live = sessions.resume(&mut *engine, id)?;
    Ok((sessions, engine, live))
}

/// `veillee redo ID`.
#[derive(clap::Args, Debug)]
pub struct RedoArgs {
    /// Session id.
    id: u64,
}

impl RedoArgs {
    /// Re-applies what the last undo took back.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let id = self.id;
        let (sessions, mut engine, mut live) = resumed(ctx, id)?;
        sessions.redo(&mut *engine, &mut live)?;
        outln!("Session {id}: redone, now at move {}.", live.meta.moves);
        Ok(())
    }
}

/// `veillee export ID FILE [--seat SEAT]`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Session id.
    id: u64,
    /// The file to write.
    file: PathBuf,
    /// Only what this seat saw, move by move: no seed, no move ids, nobody else's
    /// secrets (`veillee show-view FILE` shows it; it cannot be imported and played on).
    #[arg(long)]
    seat: Option<u8>,
}

impl ExportArgs {
    /// Writes the whole session (every secret of it), or the game as one seat saw it.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let catalog = ctx.catalog()?;
        match self.seat {
            None => export(&catalog, ctx, self.id, &self.file),
            Some(seat) => export_seat(&catalog, ctx, self.id, seat, &self.file),
        }
    }
}

fn export(catalog: &Catalog, ctx: &Context, id: u64, file: &Path) -> anyhow::Result<()> {
    let sessions = ctx.sessions()?;
    let exported = sessions.export(id)?;
    let json = serde_json::to_string_pretty(&exported)?;
    std::fs::write(file, json).with_context(|| format!("cannot write {}", file.display()))?;
    outln!("Session {id} exported to {}.", file.display());
    let hidden = catalog
        .game(&exported.session.game)
        .is_some_and(|g| g.manifest().hidden_information);
    if hidden && !matches!(exported.session.status, Status::Finished { .. }) {
        // The log is the truth for replay: it holds every seat's secret moves and the seed.
        errln!(
            "Warning: this game is not over and has hidden information. The file holds every \
             player's secrets (the seed that dealt the hands, every secret move): whoever opens \
             it can read them. Share it once the game is over."
        );
    }
    Ok(())
}

/// Writes session `id` as `seat` saw it: the file shares a game in progress without
/// spoilers (no seed, no move ids, only what that seat read and saw).
fn export_seat(
    catalog: &Catalog,
    ctx: &Context,
    id: u64,
    seat: u8,
    file: &Path,
) -> anyhow::Result<()> {
    let sessions = ctx.sessions()?;
    let meta = sessions.get(id)?;
    let mut engine = engine_for_session(catalog, &meta, &mut super::say_leak_check)?;
    let view = sessions.export_seat(&mut *engine, id, seat)?;
    let json = serde_json::to_string_pretty(&view)?;
    std::fs::write(file, json).with_context(|| format!("cannot write {}", file.display()))?;
    outln!(
        "Session {id} as seat {seat} ({}) saw it, {} moves, exported to {} (`veillee show-view` shows it).",
        line(view.players.get(seat as usize).map_or("", String::as_str)),
        view.moves.len(),
        file.display()
    );
    Ok(())
}

/// `veillee show-view FILE`.
#[derive(clap::Args, Debug)]
pub struct ShowViewArgs {
    /// The file to read.
    file: PathBuf,
    /// The board after this move (0: before the first; default: the last).
    #[arg(long = "move")]
    at: Option<u32>,
}

impl ShowViewArgs {
    /// Prints a seat view file: each move as its seat read it, then the board it saw after
    /// move `at` (default: the last).
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        show_view(&self.file, self.at, &ctx.lang)
    }
}

fn show_view(file: &Path, at: Option<u32>, lang: &str) -> anyhow::Result<()> {
    let view = read_seat_view(file)?;
    let last = view.moves.len() as u32;
    let at = at.unwrap_or(last);
    anyhow::ensure!(
        at <= last,
        "{} has {last} moves: --move goes from 0 (before the first) to {last}",
        file.display()
    );
    let name = |seat: u8| {
        view.players
            .get(seat as usize)
            .map_or_else(|| format!("seat {seat}"), |n| line(n).into_owned())
    };
    outln!(
        "{}, as {} saw it ({} moves):",
        line(&view.game),
        name(view.seat),
        last
    );
    for (i, seen) in view.moves.iter().take(at as usize).enumerate() {
        outln!(
            "{:>4}. {}: {}",
            i + 1,
            name(seen.seat),
            line(seen.text.get(lang))
        );
        for event in &seen.events {
            outln!("        {}", line(event.get(lang)));
        }
    }
    let scene = match at {
        0 => &view.start,
        n => &view.moves[n as usize - 1].scene,
    };
    outln!("\n{}", crate::board_text::render(scene, lang, &name));
    Ok(())
}

/// `veillee import FILE`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The file to read.
    file: PathBuf,
    /// Run the scripts the file brings without asking (they are listed all the same).
    #[arg(long)]
    yes: bool,
}

impl ImportArgs {
    /// Validates the session file fully (game installed, log replays) and stores it. Scripts
    /// the file brings that are not installed here are shown first, and run only once the
    /// player accepts them (`--yes`).
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let file = &self.file;
        let catalog = ctx.catalog()?;
        let not_imported = || format!("{} was not imported", file.display());
        let parsed = read_file(file).with_context(not_imported)?;
        let strangers = unfamiliar(
            &parsed.session.game,
            &parsed.session.variants,
            &ctx.user_variants(),
        );
        if !strangers.is_empty() {
            show_strangers(&strangers);
            if !self.yes && !accepted()? {
                anyhow::bail!("{}: its scripts were not accepted", not_imported());
            }
        }
        let sessions = ctx.sessions()?;
        let mut engine = engine_for_session(&catalog, &parsed.session, &mut super::say_leak_check)
            .with_context(not_imported)?;
        let meta = sessions
            .import(&mut *engine, parsed)
            .with_context(not_imported)?;
        outln!(
            "Imported as session {} ({}, {} moves).",
            meta.id,
            meta.game,
            meta.moves
        );
        Ok(())
    }
}

/// Lists the scripts a session file brings that are not installed here.
fn show_strangers(strangers: &[Unfamiliar]) {
    outln!(
        "This file brings {} script(s) not installed here; they run when the game is checked \
         now and each time it is played:",
        strangers.len()
    );
    for script in strangers {
        outln!(
            "  {} ({}), {} bytes, SHA-256 {}",
            line(&script.id),
            line(&script.file),
            script.bytes,
            script.hash
        );
    }
}

/// Asks whether to run them; anything but yes (an empty line, the end of the input) is no.
fn accepted() -> anyhow::Result<bool> {
    crate::term::prompt("Run them? [y/N] ");
    let mut answer = String::new();
    std::io::stdin()
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    Ok(matches!(
        answer.trim().to_lowercase().as_str(),
        "y" | "yes" | "o" | "oui"
    ))
}

/// `veillee delete ID`.
#[derive(clap::Args, Debug)]
pub struct DeleteArgs {
    /// Session id.
    id: u64,
}

impl DeleteArgs {
    /// Deletes the saved session.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        ctx.sessions()?.delete(self.id)?;
        outln!("Session {} deleted.", self.id);
        Ok(())
    }
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
