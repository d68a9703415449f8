//! `veillee variants [GAME]` and `veillee check-variant FILE`: house rules (Lua scripts).

use std::path::{Path, PathBuf};

use anyhow::Context;
use veillee_sdk::{GameRng, Setup, Status};

use crate::term::{line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::variants::library::{self, read};
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};

/// Where the user's scripts live: `<data dir>/variants/`.
pub fn user_dir(data: &DataDir) -> PathBuf {
    data.variants()
}

/// The game's own scripts (`part_of_game`, Castel's cards) as `id (origin)`: what `play`,
/// `check`, `simulate` and `inspect` run with every game of it, a user's copy in place of
/// the built-in one.
pub fn own_scripts(game: &str, user_dir: &Path) -> Vec<String> {
    library::available(Some(game), Some(user_dir))
        .into_iter()
        .filter_map(|a| {
            let info = a.info.ok().filter(|i| i.part_of_game)?;
            Some(format!("{} ({})", info.id, a.source.origin))
        })
        .collect()
}

/// One line naming the game's own scripts (from [`own_scripts`]), when it has some.
pub fn own_scripts_line(own: &[String]) -> Option<String> {
    let quoted: Vec<_> = own.iter().map(|script| line(script)).collect();
    (!own.is_empty()).then(|| format!("Part of the game: {}", quoted.join(", ")))
}

/// `veillee variants [GAME] [--dir]`.
pub fn list(data: &DataDir, game: Option<&str>, dir: bool, lang: &str) -> anyhow::Result<()> {
    let folder = user_dir(data);
    if dir {
        outln!("{}", folder.display());
        return Ok(());
    }
    let available = library::available(game, Some(&folder));
    if available.is_empty() {
        match game {
            Some(game) => outln!("No house rules for {game}."),
            None => outln!("No house rules."),
        }
        outln!("Your own scripts go in {}", folder.display());
        return Ok(());
    }
    let mut current_game = String::new();
    for entry in &available {
        match &entry.info {
            Ok(info) => {
                if info.game != current_game {
                    outln!("{}:", info.game);
                    current_game = info.game.clone();
                }
                let tag = match (info.part_of_game, info.exclusive) {
                    (true, _) => " [part of the game: always loaded]",
                    (false, true) => " [exclusive]",
                    (false, false) => "",
                };
                outln!(
                    "  {:<24} {}{tag}  ({})",
                    line(&info.id),
                    line(info.name.get(lang)),
                    line(&entry.source.origin)
                );
                for change in &info.changes {
                    outln!("      - {}", change.get(lang));
                }
            }
            Err(error) => outln!("  (broken) {}: {error}", entry.source.origin),
        }
    }
    outln!("Your own scripts go in {}", folder.display());
    Ok(())
}

/// `veillee check-variant FILE`: loads the script in the sandbox, prints its metadata and
/// hooks, and when its game is available plays a few random games with it.
pub fn check_variant(
    catalog: &Catalog,
    data: &DataDir,
    file: &Path,
    lang: &str,
) -> anyhow::Result<()> {
    let source = read(file)?;
    let script = Script::load(&source.file, &source.text, VariantLimits::default())?;
    let info = script.info().clone();
    outln!(
        "{} ({}) — {}",
        line(info.name.get(lang)),
        line(&info.id),
        line(&source.origin)
    );
    outln!("  {}", info.description.get(lang));
    outln!("  game: {}, version {}", info.game, info.version);
    if info.exclusive {
        outln!("  exclusive: cannot be combined with another exclusive house rule");
    }
    outln!("  hooks: {}", info.hooks.join(", "));
    outln!("  SHA-256: {}", script.hash());
    if !info.changes.is_empty() {
        outln!("  what changes:");
        for change in &info.changes {
            outln!("    - {}", change.get(lang));
        }
    }
    let Ok(plugin) = catalog.engine(&info.game) else {
        outln!("  (game `{}` is not available here: not played)", info.game);
        return Ok(());
    };
    let mut scripts = Vec::new();
    if !info.part_of_game {
        // The house rule plays on top of the game's own scripts, as in a real game.
        for source in library::game_scripts(&info.game, Some(&user_dir(data))) {
            scripts.push(source.load(VariantLimits::default())?);
        }
    }
    scripts.push(script);
    let mut engine = VariantEngine::new(Box::new(plugin), scripts)?;
    let players = engine.manifest().min_players;
    let games = 20;
    let mut problems = Vec::new();
    for seed in 0..games {
        let game = engine
            .create(&Setup::new(players, seed))
            .with_context(|| format!("creating game {seed}"))?;
        let mut rng = GameRng::new(seed);
        for _ in 0..10_000 {
            let Status::ToAct { seats } = engine.status(game)? else {
                break;
            };
            let seat = seats[rng.below(seats.len())];
            let actions = engine.legal_actions(game, seat)?;
            let Some(action) = rng.pick(&actions) else {
                problems.push(format!("game {seed}: seat {seat} has no action"));
                break;
            };
            let id = action.id.clone();
            if let Err(e) = engine.apply(game, seat, &id) {
                problems.push(format!("game {seed}: {id}: {e}"));
                break;
            }
        }
        for (_, message) in engine.disabled(game) {
            problems.push(format!("game {seed}: switched off: {message}"));
        }
        engine.drop_game(game);
    }
    if engine.manifest().hidden_information {
        // What the script shows (events, questions, answers) goes through the same leak
        // checks as the game's own texts.
        let config = CheckConfig {
            games: 1,
            ..CheckConfig::default()
        };
        let report = check(&mut engine, None, &config);
        outln!(
            "  leak checks: {} games, {} moves, {}",
            report.games,
            report.moves,
            if report.passed() { "no leak" } else { "FAILED" }
        );
        problems.extend(report.failures);
    }
    if problems.is_empty() {
        outln!("  played {games} random games with it: no problem");
        Ok(())
    } else {
        for problem in &problems {
            outln!("  {problem}");
        }
        anyhow::bail!("{} problem(s) in {games} random games", problems.len())
    }
}
