//! `veillee variants [GAME]` and `veillee check-variant FILE`: house rules (Lua scripts).

use std::path::{Path, PathBuf};

use anyhow::Context;
use veillee_sdk::{GameError, GameRng, Setup, Status};

use crate::term::{line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::conformance::{check, CheckConfig};
use veillee_runtime::data_dir::DataDir;
use veillee_runtime::engine::{EngineError, GameEngine};
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

/// What a new game says of its game's own scripts: how many run, and the lines to print.
pub struct OwnScripts {
    /// How many of the game's own scripts run (they come first).
    pub count: usize,
    /// `Part of the game: …`, then per user copy of one of them ("modified rules") either
    /// its rules diff, when the players picked it, or how to pick it.
    pub lines: Vec<String>,
}

/// The game's own scripts of a new game of `game` with the house rules `wanted`: shipped
/// ones, or the user's copy of one where `wanted` names its id.
pub fn new_game_own_scripts(
    game: &str,
    wanted: &[String],
    user_dir: &Path,
    lang: &str,
) -> OwnScripts {
    let copies = library::modified_game_scripts(game, Some(user_dir));
    let picked: Vec<_> = copies
        .iter()
        .filter(|c| c.info.as_ref().is_ok_and(|i| wanted.contains(&i.id)))
        .map(|c| c.source.clone())
        .collect();
    // Only picked copies are passed: the list is exactly the game's own scripts.
    let sources = library::new_game_scripts(game, &picked, Some(user_dir));
    let shipped = library::available(Some(game), None);
    let own: Vec<String> = sources
        .iter()
        .filter_map(|source| {
            let known = shipped
                .iter()
                .chain(&copies)
                .find(|a| a.source == *source)?;
            let id = &known.info.as_ref().ok()?.id;
            Some(format!("{id} ({})", source.origin))
        })
        .collect();
    let mut lines: Vec<String> = own_scripts_line(&own).into_iter().collect();
    for copy in &copies {
        let Ok(info) = &copy.info else { continue };
        let origin = line(&copy.source.origin);
        if picked.contains(&copy.source) {
            lines.push(format!(
                "Modified rules: {} ({}, {origin})",
                line(info.name.get(lang)),
                line(&info.id)
            ));
            for change in &info.changes {
                lines.push(format!("  - {}", change.get(lang)));
            }
        } else {
            lines.push(format!(
                "Modified rules not used: your copy of {} ({origin}); play with it with \
                 --variant {}",
                line(&info.id),
                line(&info.id)
            ));
        }
    }
    OwnScripts {
        count: own.len(),
        lines,
    }
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
                let modified = library::is_modified_game_script(entry);
                let tag = match (info.part_of_game, info.exclusive) {
                    (true, _) if modified => {
                        " [modified rules: a new game runs them when picked with --variant]"
                    }
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

/// What `veillee check-variant` checks.
pub struct CheckRequest<'a> {
    /// The script's file.
    pub file: &'a Path,
    /// Random games to play.
    pub games: u64,
    /// Players (default: the game's minimum).
    pub players: Option<u8>,
    /// Moves after which a game is stopped (not an error).
    pub max_moves: u32,
}

/// The problems of a check, each distinct message once with how often it came and where
/// first.
#[derive(Default)]
struct Problems {
    seen: Vec<(String, u64, String)>,
}

impl Problems {
    fn add(&mut self, message: String, place: String) {
        match self.seen.iter_mut().find(|(m, _, _)| *m == message) {
            Some((_, count, _)) => *count += 1,
            None => self.seen.push((message, 1, place)),
        }
    }

    fn total(&self) -> u64 {
        self.seen.iter().map(|(_, count, _)| count).sum()
    }
}

/// How the random games of a check went.
#[derive(Default)]
struct Played {
    moves: u64,
    finished: u64,
    capped: u64,
    refused: u64,
    views: u64,
}

/// `veillee check-variant FILE`: loads the script in the sandbox, prints its metadata and
/// hooks, and when its game is available plays random games with it: each game stops after
/// `max_moves`, a move the rule refuses is replaced by another, every seat's and a
/// spectator's view goes through the `view` hooks, and each distinct problem is printed
/// once. Ends with how often each hook ran and changed something.
pub fn check_variant(
    catalog: &Catalog,
    data: &DataDir,
    request: &CheckRequest,
    lang: &str,
) -> anyhow::Result<()> {
    let source = read(request.file)?;
    let script = Script::load(&source.file, &source.text, VariantLimits::default())?;
    let info = script.info().clone();
    outln!(
        "{} ({}) — {}",
        line(info.name.get(lang)),
        line(&info.id),
        line(&source.origin)
    );
    outln!("  {}", info.description.get(lang));
    outln!(
        "  game: {}, version {}",
        line(&info.game),
        line(&info.version)
    );
    if info.exclusive {
        outln!("  exclusive: cannot be combined with another exclusive house rule");
    }
    outln!("  hooks: {}", info.hooks.join(", "));
    if !info.actions.is_empty() {
        let patterns: Vec<_> = info.actions.iter().map(|p| line(p)).collect();
        outln!("  actions: {}", patterns.join(", "));
    }
    outln!("  SHA-256: {}", script.hash());
    if !info.changes.is_empty() {
        outln!("  what changes:");
        for change in &info.changes {
            outln!("    - {}", change.get(lang));
        }
    }
    let Ok(plugin) = catalog.engine(&info.game) else {
        outln!(
            "  (game `{}` is not available here: not played)",
            line(&info.game)
        );
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
    let players = request.players.unwrap_or(engine.manifest().min_players);
    crate::ensure_players(engine.manifest(), players)?;
    crate::term::print_scripts_to_terminal();
    let mut problems = Problems::default();
    let mut played = Played::default();
    for seed in 0..request.games {
        let game = engine
            .create(&Setup::new(players, seed))
            .with_context(|| format!("creating game {seed}"))?;
        let game_at = (game, seed, players);
        play_checked(
            &mut engine,
            game_at,
            request.max_moves,
            &mut played,
            &mut problems,
        )?;
        for (_, message) in engine.disabled(game) {
            problems.add(format!("switched off: {message}"), format!("game {seed}"));
        }
        engine.drop_game(game);
    }
    outln!(
        "  played {} random games of {players} players with it: {} moves, {} finished, {} \
         stopped at {} moves, {} moves refused by the rules (another was played), {} views drawn",
        request.games,
        played.moves,
        played.finished,
        played.capped,
        request.max_moves,
        played.refused,
        played.views
    );
    // In those games: the leak checks below run the hooks again.
    if let Some(script) = engine.scripts().last() {
        outln!("  hooks (calls / calls that changed something):");
        for count in script.hook_counts() {
            outln!(
                "    {:<16} {:>8} / {}",
                count.hook,
                count.runs,
                count.changed
            );
        }
    }
    if engine.manifest().hidden_information {
        // What the script shows (events, questions, answers) goes through the same leak
        // checks as the game's own texts.
        let config = CheckConfig {
            games: 1,
            players: Some(players),
            ..CheckConfig::default()
        };
        let report = check(&mut engine, None, &config);
        outln!(
            "  leak checks: {} games, {} moves, {}",
            report.games,
            report.moves,
            if report.passed() { "no leak" } else { "FAILED" }
        );
        for failure in report.failures {
            problems.add(failure, "the leak checks".into());
        }
    }
    if problems.seen.is_empty() {
        outln!("  no problem");
        return Ok(());
    }
    for (message, count, first) in &problems.seen {
        let times = if *count > 1 {
            format!(" ({count} times)")
        } else {
            String::new()
        };
        outln!("  problem{times}, first in {first}: {message}");
    }
    anyhow::bail!(
        "{} problem(s), {} distinct, in {} random games",
        problems.total(),
        problems.seen.len(),
        request.games
    )
}

/// Plays one random game with the scripts, at most `max_moves` moves: a refused move is
/// struck off and another picked; a seat every one of whose moves is refused is a problem
/// (the game cannot go on), as is any other error. Draws every viewer's scene now and then.
fn play_checked(
    engine: &mut VariantEngine,
    (game, seed, players): (veillee_sdk::Handle, u64, u8),
    max_moves: u32,
    played: &mut Played,
    problems: &mut Problems,
) -> anyhow::Result<()> {
    let mut rng = GameRng::new(seed);
    for moves in 0..=max_moves {
        let at = |moves| format!("game {seed}, move {moves}");
        if moves % 25 == 0 {
            for viewer in std::iter::once(None).chain((0..players).map(Some)) {
                match engine.view(game, viewer) {
                    Ok(_) => played.views += 1,
                    Err(e) => problems.add(format!("view: {e}"), at(moves)),
                }
            }
        }
        let seats = match engine.status(game)? {
            Status::Finished { .. } => {
                played.finished += 1;
                return Ok(());
            }
            Status::ToAct { seats } => seats,
        };
        if moves == max_moves {
            played.capped += 1;
            return Ok(());
        }
        let seat = seats[rng.below(seats.len())];
        let mut ids: Vec<String> = engine
            .legal_actions(game, seat)?
            .into_iter()
            .map(|a| a.id)
            .collect();
        let listed = ids.len();
        loop {
            let Some(id) = rng.pick(&ids).cloned() else {
                let why = if listed > 0 {
                    "every listed move was refused by the house rules: the game cannot go on"
                } else {
                    "no legal action"
                };
                problems.add(format!("seat {seat} to act: {why}"), at(moves));
                return Ok(());
            };
            match engine.apply(game, seat, &id) {
                Ok(_) => break,
                Err(EngineError::Game(GameError::Refused { .. })) => {
                    played.refused += 1;
                    ids.retain(|other| *other != id);
                }
                Err(e) => {
                    problems.add(format!("{}: {e}", line(&id)), at(moves));
                    return Ok(());
                }
            }
        }
        played.moves += 1;
    }
    Ok(())
}
