//! `veillee games`, `plugins`, `install`, `uninstall`.

use std::path::Path;

use crate::term::{errln, line, outln};
use veillee_runtime::catalog::{Catalog, Origin};
use veillee_runtime::data_dir::DataDir;

pub fn list_games(catalog: &Catalog, lang: &str) -> anyhow::Result<()> {
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

fn print_problems(catalog: &Catalog) {
    for problem in catalog.problems() {
        errln!("warning: {problem}");
    }
}
