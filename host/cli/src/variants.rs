//! `veillee variants [GAME]` and `veillee check-variant FILE`: house rules (Lua scripts).

use std::path::{Path, PathBuf};

use anyhow::Context;
use veillee_sdk::{GameRng, Setup, Status};

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

/// `veillee variants [GAME] [--dir]`.
pub fn list(data: &DataDir, game: Option<&str>, dir: bool, lang: &str) -> anyhow::Result<()> {
    let folder = user_dir(data);
    if dir {
        println!("{}", folder.display());
        return Ok(());
    }
    let available = library::available(game, Some(&folder));
    if available.is_empty() {
        match game {
            Some(game) => println!("No house rules for {game}."),
            None => println!("No house rules."),
        }
        println!("Your own scripts go in {}", folder.display());
        return Ok(());
    }
    let mut current_game = String::new();
    for entry in &available {
        match &entry.info {
            Ok(info) => {
                if info.game != current_game {
                    println!("{}:", info.game);
                    current_game = info.game.clone();
                }
                let tag = match (info.part_of_game, info.exclusive) {
                    (true, _) => " [part of the game: always loaded]",
                    (false, true) => " [exclusive]",
                    (false, false) => "",
                };
                println!(
                    "  {:<24} {}{tag}  ({})",
                    info.id,
                    info.name.get(lang),
                    entry.source.origin
                );
                for change in &info.changes {
                    println!("      - {}", change.get(lang));
                }
            }
            Err(error) => println!("  (broken) {}: {error}", entry.source.origin),
        }
    }
    println!("Your own scripts go in {}", folder.display());
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
    println!("{} ({}) — {}", info.name.get(lang), info.id, source.origin);
    println!("  {}", info.description.get(lang));
    println!("  game: {}, version {}", info.game, info.version);
    if info.exclusive {
        println!("  exclusive: cannot be combined with another exclusive house rule");
    }
    println!("  hooks: {}", info.hooks.join(", "));
    println!("  SHA-256: {}", script.hash());
    if !info.changes.is_empty() {
        println!("  what changes:");
        for change in &info.changes {
            println!("    - {}", change.get(lang));
        }
    }
    let Ok(plugin) = catalog.engine(&info.game) else {
        println!("  (game `{}` is not available here: not played)", info.game);
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
        println!(
            "  leak checks: {} games, {} moves, {}",
            report.games,
            report.moves,
            if report.passed() { "no leak" } else { "FAILED" }
        );
        problems.extend(report.failures);
    }
    if problems.is_empty() {
        println!("  played {games} random games with it: no problem");
        Ok(())
    } else {
        for problem in &problems {
            println!("  {problem}");
        }
        anyhow::bail!("{} problem(s) in {games} random games", problems.len())
    }
}
