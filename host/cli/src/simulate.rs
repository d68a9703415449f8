//! `veillee simulate`.

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use crate::term::{self, line, outln};
use veillee_runtime::catalog::Catalog;
use veillee_runtime::engine::GameEngine;
use veillee_runtime::launch::engine_with_variants;
use veillee_runtime::options::parse_options;
use veillee_runtime::session::Sessions;
use veillee_runtime::simulate::{
    simulate, simulate_bots, simulate_stepwise, simulate_stepwise_threads, GameEnd, GameRecord,
    SimulationConfig, SimulationReport,
};
use veillee_runtime::store::model::BotLevel;
use veillee_runtime::variants::library;

/// The command's options.
#[derive(Clone)]
pub struct Options {
    pub games: u32,
    pub seed: u64,
    pub players: Option<u8>,
    /// The game's options, as `id=value`.
    pub options: Vec<String>,
    pub max_moves: u32,
    pub threads: Option<usize>,
    pub json: bool,
    /// A bot per seat (`strong,random`); empty: random games inside the plugin.
    pub seats: Vec<String>,
}

/// Runs the simulation: inside the plugin (fast, threads) under the plain rules; move by move
/// through the host when scripts run (house rules, or the game's own like Castel's cards),
/// on threads with an engine each; one game after the other when games are saved. With
/// `--seats`, every move is a bot's ([`simulate_bots`]), house rules and own scripts in force.
pub fn run(
    catalog: &Catalog,
    game: &str,
    options: &Options,
    variants: &[String],
    user_variants: &std::path::Path,
    sessions: Option<&Sessions>,
) -> anyhow::Result<()> {
    let Options {
        games,
        seed,
        players,
        options: ref written,
        max_moves,
        threads,
        json,
        ref seats,
    } = *options;
    let plugin = catalog.engine(game)?;
    let manifest = plugin.manifest();
    let levels = seats
        .iter()
        .map(|s| {
            BotLevel::parse(s.trim()).with_context(|| {
                format!("seat `{s}` is not a bot: use easy, normal (or bot), strong or random")
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let players = match (players, levels.len()) {
        (Some(p), n) if n > 0 && usize::from(p) != n => anyhow::bail!(
            "--players {p} but --seats names {n} seats: give one bot per seat, or leave --players out"
        ),
        (Some(p), _) => p,
        (None, 0) => manifest.min_players,
        (None, n) => u8::try_from(n).unwrap_or(u8::MAX),
    };
    super::ensure_players(manifest, players)?;
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let game_options = parse_options(manifest, written)?;
    let config = SimulationConfig {
        games,
        seed,
        players,
        max_moves,
        threads,
        options: game_options,
        seats: levels,
    };
    // Bots' games are slow: their progress is always shown (on stderr, only to a terminal).
    let bar = if config.seats.is_empty() && (json || games < 50) {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let plain = variants.is_empty()
        && config.seats.is_empty()
        && sessions.is_none()
        && library::game_scripts(game, Some(user_variants)).is_empty();
    let report = if plain {
        simulate(&plugin, &config, &|| bar.inc(1))?
    } else if let Some(sessions) = sessions {
        // Saved sessions: one engine, one game after the other, each move written durably.
        let (mut engine, recorded) = engine_with_variants(catalog, game, variants, user_variants)?;
        simulate_stepwise(
            &mut *engine,
            &config,
            Some((sessions, recorded.as_slice())),
            &|| bar.inc(1),
        )?
    } else {
        let make_engine = || {
            engine_with_variants(catalog, game, variants, user_variants)
                .map(|(engine, _)| engine)
                .map_err(|e| format!("{e:#}"))
        };
        let simulation = match config.seats.is_empty() {
            true => simulate_stepwise_threads,
            false => simulate_bots,
        };
        simulation(&make_engine, &config, &|| bar.inc(1)).map_err(anyhow::Error::msg)?
    };
    bar.finish_and_clear();
    let own = super::variants::own_scripts(game, user_variants);
    if json {
        let mut value = serde_json::to_value(&report)?;
        value["own_scripts"] = serde_json::json!(own);
        value["variants"] = serde_json::json!(variants);
        outln!("{}", term::json(&value.to_string()));
    } else {
        outln!(
            "{}: {} games, {} players, seeds {}–{}{}",
            report.game,
            report.games,
            players,
            seed,
            seed + games.saturating_sub(1) as u64,
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
                let seeds = seeds_where(&report, |g| g.reason == **reason);
                outln!("  ended {count:>6}   {} ({seeds})", line(reason));
            }
        }
        if report.capped > 0 {
            let seeds = seeds_where(&report, |g| g.ended == GameEnd::Capped);
            outln!(
                "  capped           {} (still going after {max_moves} moves; {seeds})",
                report.capped
            );
        }
        outln!("  errors           {}", report.errors);
        outln!("  mean length      {:.1} moves", report.mean_length);
        outln!(
            "  speed            {:.0} moves/s ({:.2} s, {} thread(s))",
            report.moves_per_second,
            report.seconds,
            if sessions.is_some() { 1 } else { threads }
        );
        for sample in &report.error_samples {
            outln!("  error: {sample}");
        }
    }
    anyhow::ensure!(
        report.errors == 0,
        "{} of {} games failed",
        report.errors,
        report.games
    );
    Ok(())
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
