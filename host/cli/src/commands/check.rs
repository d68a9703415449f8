//! `veillee check GAME|FILE`.

use std::path::Path;

use super::game_flags::{ensure_players, GameOptions, Players};
use super::Context;
use crate::progress::Progress;
use crate::term::outln;
use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::{check_reporting, CheckConfig};
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::with_own_scripts;
use veillee_runtime::native::native_engine;
use veillee_runtime::options::parse_options;

/// `veillee check GAME|FILE`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("count", |arg| {
    arg.help("Only this player count (default: every one the game allows)")
}))]
pub struct CheckArgs {
    /// Game id or path to a .wasm file.
    game: String,
    /// Random games per player count.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    players: Players,
    #[command(flatten)]
    options: GameOptions,
}

impl CheckArgs {
    /// Runs the conformance kit on the game as it is played (with its own scripts), its
    /// native build compared move by move when it is a built-in game, saying on stderr
    /// which game plays.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let catalog = ctx.catalog()?;
        let user_variants = ctx.user_variants();
        let (players, options) = (self.players.count, &self.options.written);
        let (mut plugin, mut native) = engines(&catalog, &self.game, &user_variants)?;
        let manifest = plugin.manifest().clone();
        let counts = manifest.min_players..=manifest.max_players;
        if let Some(players) = players {
            ensure_players(&manifest, players)?;
        }
        let own = super::variants::own_scripts(&manifest.id, &user_variants);
        if let Some(line) = super::variants::own_scripts_line(&own) {
            outln!("{line}");
        }
        let config = CheckConfig {
            games: self.games,
            seed: self.seed,
            players,
            options: parse_options(&manifest, options)?,
            ..CheckConfig::default()
        };
        let reference = native.as_deref_mut().map(|n| n as &mut dyn GameEngine);
        let progress = Progress::start();
        let report = check_reporting(&mut *plugin, reference, &config, &mut |at| {
            progress.say(&crate::progress::check_game(&manifest.id, at, &ctx.lang));
        });
        drop(progress);
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
}

/// A game's plugin, and its native build to compare it with.
type Engines = (Box<dyn GameEngine>, Option<Box<dyn GameEngine>>);

/// The game's plugin (from a file, or installed or built in by its id) and, for a built-in
/// game, its native build to compare with; both as the game is played, with its own
/// scripts (Castel's cards).
fn engines(catalog: &Catalog, game: &str, user_variants: &Path) -> anyhow::Result<Engines> {
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
    let plugin = with_own_scripts(Box::new(plugin), Some(user_variants))?;
    let native = native
        .map(|n| with_own_scripts(n as Box<dyn GameEngine>, Some(user_variants)))
        .transpose()?;
    Ok((plugin, native))
}
