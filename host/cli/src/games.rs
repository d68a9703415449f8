//! `veillee games`, `plugins`, `install`, `uninstall`.

use std::path::Path;

use crate::term::{errln, line, outln};
use veillee_runtime::catalog::{Catalog, Origin};
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::options::{allowed_values, default_value};
use veillee_sdk::{Manifest, OptionKind};

/// `veillee games`: one line per game; with `--options`, each game's options under it as
/// `--option id=values`, with their label and default.
pub fn list_games(catalog: &Catalog, with_options: bool, lang: &str) -> anyhow::Result<()> {
    outln!(
        "{:<14} {:<28} {:<8} {:<9} origin",
        "id",
        "name",
        "players",
        "version"
    );
    for entry in catalog.games() {
        let m = entry.manifest();
        let players = if m.min_players == m.max_players {
            m.min_players.to_string()
        } else {
            format!("{}–{}", m.min_players, m.max_players)
        };
        outln!(
            "{:<14} {:<28} {:<8} {:<9} {}",
            line(&m.id),
            line(m.name.get(lang)),
            players,
            line(&m.version),
            entry.origin.label()
        );
        if with_options {
            print_options(m, lang);
        }
    }
    print_problems(catalog);
    Ok(())
}

pub fn list_plugins(catalog: &Catalog, data: &DataDir) -> anyhow::Result<()> {
    outln!("Installed plugins in {}:", data.plugins().display());
    let mut any = false;
    for entry in catalog.games() {
        if let Origin::Installed(path) = &entry.origin {
            any = true;
            let m = entry.manifest();
            outln!(
                "  {:<14} {:<9} sha256 {}  {}",
                line(&m.id),
                line(&m.version),
                &entry.hash()[..16],
                path.display()
            );
        }
    }
    if !any {
        outln!("  (none — built-in games are listed by `veillee games`)");
    }
    print_problems(catalog);
    Ok(())
}

pub fn install(catalog: &mut Catalog, file: &Path, lang: &str) -> anyhow::Result<()> {
    let entry = catalog.install(file)?;
    let m = entry.manifest();
    outln!(
        "Installed {} ({}) version {}.",
        line(m.name.get(lang)),
        line(&m.id),
        line(&m.version)
    );
    Ok(())
}

pub fn uninstall(catalog: &mut Catalog, id: &str) -> anyhow::Result<()> {
    catalog.uninstall(id)?;
    outln!("Uninstalled {id}.");
    Ok(())
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

fn print_problems(catalog: &Catalog) {
    for problem in catalog.problems() {
        errln!("warning: {problem}");
    }
}
