//! `veillee check-variant FILE`: a house-rule script loaded in the sandbox, its metadata,
//! and random games played with it.

use anyhow::Context as _;
use veillee_sdk::{GameError, GameRng, Setup, Status};

use super::game_flags::{ensure_players, Players};
use super::Context;
use crate::progress::Progress;
use crate::term::{line, outln};
use veillee_runtime::conformance::{check_reporting, CheckConfig};
use veillee_runtime::engine::{EngineError, GameEngine};
use veillee_runtime::variants::library::{self, read, ScriptSource};
use veillee_runtime::variants::{Script, VariantEngine, VariantLimits};

/// `veillee check-variant FILE`.
#[derive(clap::Args, Debug)]
pub struct CheckVariantArgs {
    /// The .lua file.
    file: std::path::PathBuf,
    /// Random games to play with it.
    #[arg(long, default_value_t = 20)]
    games: u64,
    #[command(flatten)]
    players: Players,
    /// Moves after which a game is stopped (counted, not an error), so that a check
    /// always ends.
    #[arg(long, default_value_t = 2_000)]
    max_moves: u32,
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

impl CheckVariantArgs {
    /// Loads the script in the sandbox, prints its metadata and hooks, and when its game is
    /// available plays random games with it: each game stops after `max_moves`, a move the
    /// rule refuses is replaced by another, every seat's and a spectator's view goes through
    /// the `view` hooks, and each distinct problem is printed once. Ends with how often each
    /// hook ran and changed something.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let catalog = ctx.catalog()?;
        let source = read(&self.file)?;
        let script = Script::load(&source.file, &source.text, VariantLimits::default())?;
        let info = script.info().clone();
        print_info(&script, &source, &ctx.lang);
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
            for source in library::game_scripts(&info.game, Some(&ctx.user_variants())) {
                scripts.push(source.load(VariantLimits::default())?);
            }
        }
        scripts.push(script);
        let mut engine = VariantEngine::new(Box::new(plugin), scripts)?;
        let players = self.players.count.unwrap_or(engine.manifest().min_players);
        ensure_players(engine.manifest(), players)?;
        crate::term::print_scripts_to_terminal();
        let mut problems = Problems::default();
        self.play_games(&mut engine, players, &mut problems)?;
        print_hook_counts(&engine);
        if engine.manifest().hidden_information {
            leak_checks(&mut engine, players, &mut problems, &ctx.lang);
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
            self.games
        )
    }

    /// Plays the random games (seeds from 0) and says how they went.
    fn play_games(
        &self,
        engine: &mut VariantEngine,
        players: u8,
        problems: &mut Problems,
    ) -> anyhow::Result<()> {
        let mut played = Played::default();
        for seed in 0..self.games {
            let game = engine
                .create(&Setup::new(players, seed))
                .with_context(|| format!("creating game {seed}"))?;
            let game_at = (game, seed, players);
            play_checked(engine, game_at, self.max_moves, &mut played, problems)?;
            for (_, message) in engine.disabled(game) {
                problems.add(format!("switched off: {message}"), format!("game {seed}"));
            }
            if let Some(why) = engine.stopped(game) {
                problems.add(format!("stopped: {}", why.en), format!("game {seed}"));
            }
            engine.drop_game(game);
        }
        outln!(
            "  played {} random games of {players} players with it: {} moves, {} finished, {} \
             stopped at {} moves, {} moves refused by the rules (another was played), {} views drawn",
            self.games,
            played.moves,
            played.finished,
            played.capped,
            self.max_moves,
            played.refused,
            played.views
        );
        Ok(())
    }
}

/// The script's metadata: name, id, where it comes from, game, hooks, what it changes.
fn print_info(script: &Script, source: &ScriptSource, lang: &str) {
    let info = script.info();
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
}

/// How often each hook of the script ran in the random games, and changed something (the
/// leak checks after them run the hooks again).
fn print_hook_counts(engine: &VariantEngine) {
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
}

/// What the script shows (events, questions, answers) goes through the same leak checks as
/// the game's own texts.
fn leak_checks(engine: &mut VariantEngine, players: u8, problems: &mut Problems, lang: &str) {
    let config = CheckConfig {
        games: 1,
        players: Some(players),
        ..CheckConfig::default()
    };
    let game = engine.manifest().id.clone();
    let progress = Progress::start();
    let report = check_reporting(engine, None, &config, &mut |at| {
        progress.say(&crate::progress::check_game(&game, at, lang));
    });
    drop(progress);
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
