//! `veillee check GAME|FILE`.

use std::path::Path;

use crate::term::outln;
use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::with_own_scripts;
use veillee_runtime::native::native_engine;
use veillee_runtime::options::parse_options;

/// What to check.
pub struct Request<'a> {
    /// Game id or path to a `.wasm` file.
    pub game: &'a str,
    /// Random games per player count.
    pub games: u32,
    /// First seed.
    pub seed: u64,
    /// Only this player count (default: every one the game allows).
    pub players: Option<u8>,
    /// The game's options, as `id=value`.
    pub options: &'a [String],
}

pub fn run(catalog: &Catalog, user_variants: &Path, request: &Request) -> anyhow::Result<()> {
    let Request {
        game,
        games,
        seed,
        players,
        options,
    } = *request;
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
    if let Some(players) = players {
        super::ensure_players(&manifest, players)?;
    }
    let own = super::variants::own_scripts(&manifest.id, user_variants);
    if let Some(line) = super::variants::own_scripts_line(&own) {
        outln!("{line}");
    }
    let config = CheckConfig {
        games,
        seed,
        players,
        options: parse_options(&manifest, options)?,
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
    let with = if options.is_empty() {
        String::new()
    } else {
        format!(" with {}", options.join(" "))
    };
    outln!(
        "{}{with}: {} games ({tables}), {} moves checked{versus}",
        report.game,
        report.games,
        report.moves
    );
    if report.passed() {
        outln!("conformance: passed");
        Ok(())
    } else {
        for failure in &report.failures {
            outln!("  FAILED {failure}");
        }
        anyhow::bail!(
            "{} failed the conformance kit ({} problems)",
            report.game,
            report.failures.len()
        )
    }
}
