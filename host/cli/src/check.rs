//! `veillee check GAME|FILE`.

use std::path::Path;

use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::with_own_scripts;
use veillee_runtime::native::native_engine;

pub fn run(
    catalog: &Catalog,
    user_variants: &Path,
    game: &str,
    games: u32,
    seed: u64,
    players: Option<u8>,
) -> anyhow::Result<()> {
    let path = Path::new(game);
    let (plugin, native) = if path.is_file() {
        let bytes = std::fs::read(path)?;
        (
            catalog
                .runtime()
                .load(&path.display().to_string(), &bytes)?,
            None,
        )
    } else {
        let is_builtin = catalog
            .game(game)
            .is_some_and(|e| e.origin == veillee_runtime::catalog::Origin::Builtin);
        (
            catalog.engine(game)?,
            if is_builtin {
                native_engine(game)
            } else {
                None
            },
        )
    };
    // The game as it is played: with its own scripts (Castel's cards), on both builds.
    let mut plugin = with_own_scripts(Box::new(plugin), Some(user_variants))?;
    let mut native = native
        .map(|n| with_own_scripts(n as Box<dyn GameEngine>, Some(user_variants)))
        .transpose()?;
    let manifest = plugin.manifest().clone();
    let counts = manifest.min_players..=manifest.max_players;
    if let Some(n) = players {
        anyhow::ensure!(
            counts.contains(&n),
            "{} plays with {}–{} players, not {n}",
            manifest.id,
            manifest.min_players,
            manifest.max_players
        );
    }
    let config = CheckConfig {
        games,
        seed,
        players: players.map(|n| n..=n),
        ..CheckConfig::default()
    };
    let reference = native.as_deref_mut().map(|n| n as &mut dyn GameEngine);
    let report = check(&mut *plugin, reference, &config);
    let versus = if native.is_some() {
        ", native and wasm builds compared move by move"
    } else {
        ""
    };
    let tables = match players {
        Some(n) => format!("{n} players"),
        None if counts.start() == counts.end() => format!("{} players", counts.start()),
        None => format!("{}–{} players", counts.start(), counts.end()),
    };
    println!(
        "{}: {} games ({tables}), {} moves checked{versus}",
        report.game, report.games, report.moves
    );
    if report.passed() {
        println!("conformance: passed");
        Ok(())
    } else {
        for failure in &report.failures {
            println!("  FAILED {failure}");
        }
        anyhow::bail!(
            "{} failed the conformance kit ({} problems)",
            report.game,
            report.failures.len()
        )
    }
}
