//! `veillee games`, `plugins`, `install`, `uninstall`.

use std::path::PathBuf;

use super::Context;
use crate::progress::Progress;
use crate::table::{Align, Table};
use crate::term::{errln, line, outln};
use veillee_runtime::catalog::{Catalog, Origin};
use veillee_runtime::options::{allowed_values, default_value};
use veillee_sdk::{Manifest, OptionKind};

/// `veillee games`.
#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// Also list each game's options (for `--option id=value`).
    #[arg(long)]
    options: bool,
}

impl GamesArgs {
    /// One line per game; with `--options`, each game's options under it as
    /// `--option id=values`, with their label and default.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        list_games(&ctx.catalog()?, self.options, &ctx.lang)
    }
}

fn list_games(catalog: &Catalog, with_options: bool, lang: &str) -> anyhow::Result<()> {
    let columns = [
        ("id", Align::Left),
        ("name", Align::Left),
        ("players", Align::Left),
        ("version", Align::Left),
        ("origin", Align::Left),
    ];
    let mut table = Table::new(&columns);
    for entry in catalog.games() {
        let m = entry.manifest();
        table.row([
            line(&m.id).into_owned(),
            line(m.name.get(lang)).into_owned(),
            players(m),
            line(&m.version).into_owned(),
            entry.origin.label().to_string(),
        ]);
    }
    // Options go under their game's line, so the rows are printed as the table lays them out.
    let mut lines = table.lines().into_iter();
    if let Some(header) = lines.next() {
        outln!("{header}");
    }
    for (entry, row) in catalog.games().iter().zip(lines) {
        outln!("{row}");
        if with_options {
            print_options(entry.manifest(), lang);
        }
    }
    print_problems(catalog);
    Ok(())
}

/// "2" or "2–4".
fn players(m: &Manifest) -> String {
    if m.min_players == m.max_players {
        m.min_players.to_string()
    } else {
        format!("{}–{}", m.min_players, m.max_players)
    }
}

/// `veillee plugins`: the installed plugin files, and any that failed to load.
pub fn list_plugins(ctx: &Context) -> anyhow::Result<()> {
    let catalog = ctx.catalog()?;
    outln!("Installed plugins in {}:", ctx.data.plugins().display());
    let mut table = Table::new(&[
        ("  id", Align::Left),
        ("version", Align::Left),
        ("sha256", Align::Left),
        ("file", Align::Left),
    ]);
    let mut any = false;
    for entry in catalog.games() {
        if let Origin::Installed(path) = &entry.origin {
            any = true;
            let m = entry.manifest();
            table.row([
                format!("  {}", line(&m.id)),
                line(&m.version).into_owned(),
                entry.hash()[..16].to_string(),
                line(&path.display().to_string()).into_owned(),
            ]);
        }
    }
    if any {
        for row in table.lines() {
            outln!("{row}");
        }
    } else {
        outln!("  (none — built-in games are listed by `veillee games`)");
    }
    print_problems(&catalog);
    Ok(())
}

/// `veillee install FILE`.
#[derive(clap::Args, Debug)]
pub struct InstallArgs {
    /// The plugin's .wasm file.
    file: PathBuf,
}

impl InstallArgs {
    /// Validates the plugin file fully, saying which game of the self-check plays, then
    /// installs it.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let mut catalog = ctx.catalog()?;
        let progress = Progress::start();
        let entry = catalog.install_reporting(&self.file, &mut |at| {
            progress.say(&crate::progress::self_check_game(at, &ctx.lang));
        });
        drop(progress);
        let entry = entry?;
        let m = entry.manifest();
        outln!(
            "Installed {} ({}) version {}.",
            line(m.name.get(&ctx.lang)),
            line(&m.id),
            line(&m.version)
        );
        Ok(())
    }
}

/// `veillee uninstall ID`.
#[derive(clap::Args, Debug)]
pub struct UninstallArgs {
    /// Game id.
    id: String,
}

impl UninstallArgs {
    /// Removes the installed game.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        ctx.catalog()?.uninstall(&self.id)?;
        outln!("Uninstalled {}.", self.id);
        Ok(())
    }
}

/// A game's options, one line each: how to write it, what it is called, its default.
fn print_options(manifest: &Manifest, lang: &str) {
    if manifest.options.is_empty() {
        outln!("    (no options)");
    }
    for option in &manifest.options {
        let values = match &option.kind {
            OptionKind::Choice { choices, .. } => choices
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
                .join("|"),
            _ => allowed_values(option),
        };
        let values = line(&values);
        outln!(
            "    --option {}={values}   {} (default: {})",
            line(&option.id),
            line(option.label.get(lang)),
            default_value(option)
        );
    }
}

/// The catalog's problems but the cache's, which [`Context::catalog`] has said already.
fn print_problems(catalog: &Catalog) {
    let cache = catalog.cache_problem();
    for problem in catalog.problems() {
        if Some(problem.as_str()) != cache {
            errln!("warning: {problem}");
        }
    }
}
