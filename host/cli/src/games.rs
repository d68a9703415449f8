//! `veillee games`, `plugins`, `install`, `uninstall`.

use std::path::Path;

use veillee_runtime::catalog::{Catalog, Origin};
use veillee_runtime::data_dir::DataDir;

pub fn list_games(catalog: &Catalog, lang: &str) -> anyhow::Result<()> {
    println!(
        "{:<14} {:<28} {:<8} {:<9} origin",
        "id", "name", "players", "version"
    );
    for entry in catalog.games() {
        let m = entry.manifest();
        let players = if m.min_players == m.max_players {
            m.min_players.to_string()
        } else {
            format!("{}–{}", m.min_players, m.max_players)
        };
        println!(
            "{:<14} {:<28} {:<8} {:<9} {}",
            m.id,
            m.name.get(lang),
            players,
            m.version,
            entry.origin.label()
        );
    }
    print_problems(catalog);
    Ok(())
}

pub fn list_plugins(catalog: &Catalog, data: &DataDir) -> anyhow::Result<()> {
    println!("Installed plugins in {}:", data.plugins().display());
    let mut any = false;
    for entry in catalog.games() {
        if let Origin::Installed(path) = &entry.origin {
            any = true;
            let m = entry.manifest();
            println!(
                "  {:<14} {:<9} sha256 {}  {}",
                m.id,
                m.version,
                &entry.hash()[..16],
                path.display()
            );
        }
    }
    if !any {
        println!("  (none — built-in games are listed by `veillee games`)");
    }
    print_problems(catalog);
    Ok(())
}

pub fn install(catalog: &mut Catalog, file: &Path, lang: &str) -> anyhow::Result<()> {
    let entry = catalog.install(file)?;
    let m = entry.manifest();
    println!(
        "Installed {} ({}) version {}.",
        m.name.get(lang),
        m.id,
        m.version
    );
    Ok(())
}

pub fn uninstall(catalog: &mut Catalog, id: &str) -> anyhow::Result<()> {
    catalog.uninstall(id)?;
    println!("Uninstalled {id}.");
    Ok(())
}

fn print_problems(catalog: &Catalog) {
    for problem in catalog.problems() {
        eprintln!("warning: {problem}");
    }
}
