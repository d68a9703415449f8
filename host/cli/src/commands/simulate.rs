//! `veillee simulate`.

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};

use super::game_flags::{ensure_players, GameOptions, HouseRules, Players};
use super::Context;
use crate::term::{self, line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::engine_with_variants;
use veillee_runtime::options::parse_options;
use veillee_runtime::plugin::Plugin;
use veillee_runtime::session::Sessions;
use veillee_runtime::simulate::{
    simulate, simulate_bots, simulate_stepwise, simulate_stepwise_threads, GameEnd, GameRecord,
    SimulationConfig, SimulationReport,
};
use veillee_runtime::store::model::BotLevel;
use veillee_runtime::variants::library;

/// `veillee simulate GAME`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("count", |arg| arg.help("Players per game (default: the game's minimum)")))]
pub struct SimulateArgs {
    /// Game id.
    game: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    players: Players,
    #[command(flatten)]
    options: GameOptions,
    /// A game longer than this counts as an error.
    #[arg(long, default_value_t = 100_000)]
    max_moves: u32,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Save every game as a session (played move by move; slower).
    #[arg(long)]
    save: bool,
    #[command(flatten)]
    house_rules: HouseRules,
    /// A bot per seat: `easy`, `normal` (or `bot`), `strong` or `random` (e.g.
    /// `strong,random`; sets the player count). Default: random at every seat, played
    /// inside the plugin.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
}

impl SimulateArgs {
    /// Runs the simulation: inside the plugin (fast, threads) under the plain rules; move by
    /// move through the host when scripts run (house rules, or the game's own like Castel's
    /// cards), on threads with an engine each; one game after the other when games are
    /// saved. With `--seats`, every move is a bot's ([`simulate_bots`]), house rules and own
    /// scripts in force.
    pub fn run(&self, ctx: &Context) -> anyhow::Result<()> {
        let sessions = match self.save {
            true => Some(ctx.sessions()?),
            false => None,
        };
        let catalog = ctx.catalog()?;
        let user_variants = ctx.user_variants();
        let plugin = catalog.engine(&self.game)?;
        let config = self.config(plugin.manifest())?;
        // Bots' games are slow: their progress is always shown (on stderr, only to a terminal).
        let bar = if config.seats.is_empty() && (self.json || self.games < 50) {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(self.games as u64)
        };
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let games = Games {
            catalog: &catalog,
            plugin: &plugin,
            user_variants: &user_variants,
            sessions: sessions.as_ref(),
        };
        let report = self.simulate(&games, &config, &|| bar.inc(1))?;
        bar.finish_and_clear();
        let own = super::variants::own_scripts(&self.game, &user_variants);
        if self.json {
            let mut value = serde_json::to_value(&report)?;
            value["own_scripts"] = serde_json::json!(own);
            value["variants"] = serde_json::json!(self.house_rules.wanted);
            outln!("{}", term::json(&value.to_string()));
        } else {
            let threads = if sessions.is_some() {
                1
            } else {
                config.threads
            };
            self.print_text(plugin.manifest(), &report, &own, threads);
        }
        anyhow::ensure!(
            report.errors == 0,
            "{} of {} games failed",
            report.errors,
            report.games
        );
        Ok(())
    }

    /// The simulation's set-up: the seats' bots, the player count they and `--players`
    /// agree on, the threads and the game's options.
    fn config(&self, manifest: &veillee_sdk::Manifest) -> anyhow::Result<SimulationConfig> {
        let levels = self
            .seats
            .iter()
            .map(|s| {
                BotLevel::parse(s.trim()).with_context(|| {
                    format!("seat `{s}` is not a bot: use easy, normal (or bot), strong or random")
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let players = match (self.players.count, levels.len()) {
            (Some(p), n) if n > 0 && usize::from(p) != n => anyhow::bail!(
                "--players {p} but --seats names {n} seats: give one bot per seat, or leave --players out"
            ),
            (Some(p), _) => p,
            (None, 0) => manifest.min_players,
            (None, n) => u8::try_from(n).unwrap_or(u8::MAX),
        };
        ensure_players(manifest, players)?;
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(SimulationConfig {
            games: self.games,
            seed: self.seed,
            players,
            max_moves: self.max_moves,
            threads,
            options: parse_options(manifest, &self.options.written)?,
            seats: levels,
        })
    }

    /// Plays the games: inside the plugin when nothing else runs, else move by move.
    fn simulate(
        &self,
        games: &Games,
        config: &SimulationConfig,
        progress: &(dyn Fn() + Sync),
    ) -> anyhow::Result<SimulationReport> {
        let Games {
            catalog,
            plugin,
            user_variants,
            sessions,
        } = *games;
        let (game, variants) = (self.game.as_str(), &self.house_rules.wanted);
        let plain = variants.is_empty()
            && config.seats.is_empty()
            && sessions.is_none()
            && library::game_scripts(game, Some(user_variants)).is_empty();
        if plain {
            return Ok(simulate(plugin, config, progress)?);
        }
        if let Some(sessions) = sessions {
            // Saved sessions: one engine, one game after the other, each move written durably.
            let (mut engine, recorded) =
                engine_with_variants(catalog, game, variants, user_variants)?;
            let saved = Some((sessions, recorded.as_slice()));
            return Ok(simulate_stepwise(&mut *engine, config, saved, progress)?);
        }
        let make_engine = || {
            engine_with_variants(catalog, game, variants, user_variants)
                .map(|(engine, _)| engine)
                .map_err(|e| format!("{e:#}"))
        };
        let simulation = match config.seats.is_empty() {
            true => simulate_stepwise_threads,
            false => simulate_bots,
        };
        simulation(&make_engine, config, progress).map_err(anyhow::Error::msg)
    }

    /// The report as text: wins per seat, draws, endings, capped games, errors, speed.
    fn print_text(
        &self,
        manifest: &veillee_sdk::Manifest,
        report: &SimulationReport,
        own: &[String],
        threads: usize,
    ) {
        let written = &self.options.written;
        let variants = &self.house_rules.wanted;
        outln!(
            "{}: {} games, {} players, seeds {}–{}{}",
            report.game,
            report.games,
            report.players,
            self.seed,
            self.seed + self.games.saturating_sub(1) as u64,
            if written.is_empty() {
                String::new()
            } else {
                format!(", options {}", written.join(" "))
            }
        );
        if !own.is_empty() {
            outln!("  part of the game {}", own.join(", "));
        }
        if !variants.is_empty() {
            outln!("  house rules      {}", variants.join(", "));
        }
        let name = |seat: usize| {
            manifest
                .seats
                .get(seat)
                .map(|s| line(&s.name.en).into_owned())
                .unwrap_or_else(|| format!("seat {seat}"))
        };
        if report.seats.is_empty() {
            for (seat, wins) in report.wins.iter().enumerate() {
                outln!("  wins {:<12} {wins}", name(seat));
            }
        }
        for (seat, figures) in report.seats.iter().enumerate() {
            outln!(
                "  wins {:<12} {:>5} ({:.1} %, 95 % interval {:.1}–{:.1} %)  {:<7} {:.3} s/move (p95 {:.3} s, max {:.3} s, {} moves)",
                name(seat),
                figures.wins,
                100.0 * figures.win_rate,
                100.0 * figures.interval[0],
                100.0 * figures.interval[1],
                figures.level,
                figures.seconds_mean,
                figures.seconds_p95,
                figures.seconds_max,
                figures.moves
            );
        }
        outln!("  draws            {}", report.draws);
        if !report.seats.is_empty() {
            let mut endings: Vec<(&String, &u32)> = report.endings.iter().collect();
            endings.sort_by(|a, b| b.1.cmp(a.1));
            for (reason, count) in endings.iter().take(6) {
                let seeds = seeds_where(report, |g| g.reason == **reason);
                outln!("  ended {count:>6}   {} ({seeds})", line(reason));
            }
        }
        if report.capped > 0 {
            let seeds = seeds_where(report, |g| g.ended == GameEnd::Capped);
            outln!(
                "  capped           {} (still going after {} moves; {seeds})",
                report.capped,
                self.max_moves
            );
        }
        outln!("  errors           {}", report.errors);
        outln!("  mean length      {:.1} moves", report.mean_length);
        outln!(
            "  speed            {:.0} moves/s ({:.2} s, {threads} thread(s))",
            report.moves_per_second,
            report.seconds,
        );
        for sample in &report.error_samples {
            outln!("  error: {sample}");
        }
    }
}

/// What the games are played with: the catalog and plugin of the game, the user's scripts,
/// and the store when games are saved.
struct Games<'a> {
    catalog: &'a Catalog,
    plugin: &'a Plugin,
    user_variants: &'a std::path::Path,
    sessions: Option<&'a Sessions>,
}

/// The seeds of the first few games `matching`, to play one again (`--seed S --games 1 --save`).
fn seeds_where(report: &SimulationReport, matching: impl Fn(&GameRecord) -> bool) -> String {
    const SHOWN: usize = 8;
    let seeds: Vec<u64> = report
        .each_game
        .iter()
        .filter(|game| matching(game))
        .map(|game| game.seed)
        .collect();
    let mut listed = seeds
        .iter()
        .take(SHOWN)
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if seeds.len() > SHOWN {
        listed.push_str(", …");
    }
    match seeds.len() {
        1 => format!("seed {listed}"),
        _ => format!("seeds {listed}"),
    }
}
