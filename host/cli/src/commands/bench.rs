//! `veillee bench`.

use serde::Serialize;

use crate::term::{self, outln};
use veillee_runtime::bench::{self, BenchReport};
use veillee_runtime::bench_search::{self, SearchBenchReport, ThinkBenchReport};
use veillee_runtime::store::model::BotLevel;

/// One game's figures.
#[derive(Serialize)]
struct GameFigures {
    /// Random playouts, wasm against native; loading and calling the plugin.
    #[serde(flatten)]
    playouts: BenchReport,
    /// The bots' search inside the plugin, wasm against native.
    search: SearchBenchReport,
    /// The `normal` bot's think time per move.
    think: ThinkBenchReport,
    /// The `strong` bot's, searching on two cores.
    think_strong: ThinkBenchReport,
}

/// Moves of `normal` bots measured for their think time, and the length of their games at
/// most: short enough for Château Noir's thousand-move games.
const THINK_MOVES: usize = 150;
/// `strong` thinks about ten times longer: fewer moves keep the run short.
const STRONG_THINK_MOVES: usize = 40;
const THINK_GAME_MOVES: u32 = 60;

/// `veillee bench [GAME]`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Built-in game id, or `all` for every built-in game.
    #[arg(default_value = "all")]
    game: String,
    /// Random playouts per build (default: about 1,000,000 moves' worth, 20 to 20,000).
    #[arg(long)]
    playouts: Option<u32>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

impl BenchArgs {
    /// Measures wasm against native speed, the bots' search and think time, and the
    /// compiled-code cache, per built-in game.
    pub fn run(&self) -> anyhow::Result<()> {
        bench(&self.game, self.playouts, self.json)
    }
}

fn bench(game: &str, playouts: Option<u32>, json: bool) -> anyhow::Result<()> {
    let ids: Vec<&str> = if game == "all" {
        veillee_runtime::builtin::BUILTIN_PLUGINS
            .iter()
            .map(|(id, _)| *id)
            .collect()
    } else {
        anyhow::ensure!(
            veillee_runtime::builtin::plugin_bytes(game).is_some(),
            "`{game}` is not a built-in game; bench takes a built-in game's id, or `all`"
        );
        vec![game]
    };
    // A first start comes first, before anything of this run is compiled or warm.
    let startup = bench::run_startup()?;
    let games = ids
        .iter()
        .map(|id| {
            Ok(GameFigures {
                playouts: bench::run(id, playouts)?,
                search: bench_search::run_search(id, 20, 600)?,
                think: bench_search::run_think(
                    id,
                    BotLevel::Normal,
                    THINK_MOVES,
                    THINK_GAME_MOVES,
                )?,
                think_strong: bench_search::run_think(
                    id,
                    BotLevel::Strong,
                    STRONG_THINK_MOVES,
                    THINK_GAME_MOVES,
                )?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Sessions need a long game: Château Noir's random games run to thousands of moves.
    let sessions = bench::run_sessions("chateau-noir", 1000)?;
    // An imported 1M-move session once made every later command seconds slower.
    let store = bench::run_store_open(20, 1_000_000)?;
    if json {
        let all = serde_json::json!({
            "date": jiff::Zoned::now().date().to_string(),
            "machine": bench::machine(),
            "startup": startup,
            "games": games,
            "sessions": sessions,
            "store": store,
        });
        outln!("{}", term::json(&serde_json::to_string_pretty(&all)?));
        return Ok(());
    }
    outln!(
        "first start, empty data directory: {} games listed in {:.1} ms (nothing compiled); {} playable {:.0} ms later; all compiled {:.0} ms later; a later start lists and loads them all in {:.1} ms",
        startup.games,
        startup.list_ms,
        startup.first_game,
        startup.first_game_ms,
        startup.all_games_ms,
        startup.cached_all_games_ms
    );
    for figures in &games {
        print_game(&figures.playouts);
        print_search(&figures.search);
        print_think(&figures.think);
        print_think(&figures.think_strong);
    }
    outln!(
        "sessions ({}, {} moves): durable save p50 {:.2} ms, p99 {:.2} ms (goal ≤ 5); resume {:.1} ms (goal ≤ 50), full replay {:.1} ms",
        sessions.game, sessions.moves, sessions.save_p50_ms, sessions.save_p99_ms, sessions.resume_ms, sessions.full_replay_ms
    );
    outln!(
        "store open ({} small sessions): {:.1} ms; with a {}-move session added: {:.1} ms (×{:.1}, sled's page table); reading every record, as opening once did: {:.0} ms",
        store.small_sessions, store.open_small_ms, store.long_session_moves, store.open_long_ms, store.open_ratio, store.read_every_record_ms
    );
    Ok(())
}

fn print_game(report: &BenchReport) {
    outln!(
        "{} — {} random playouts per build ({} moves), same seeds",
        report.game,
        report.playouts,
        report.moves
    );
    outln!("  native            {:>9.3} s", report.native_seconds);
    outln!(
        "  wasm              {:>9.3} s   ratio wasm/native {:.2} (goal ≤ 1.30)",
        report.wasm_seconds,
        report.wasm_native_ratio
    );
    outln!(
        "  per round         median ratio {:.2} over {} interleaved rounds",
        report.wasm_native_round_median,
        report.rounds
    );
    outln!(
        "  wasm playouts/s   {:>9.0}",
        report.wasm_playouts_per_second
    );
    outln!(
        "  load, cold        {:>9.1} ms (compile)",
        report.cold_load_ms
    );
    if let Some(ms) = report.cold_child_load_ms {
        outln!(
            "  load, cold, child {ms:>9.1} ms (compile in a compiler process, as installed games)"
        );
    }
    outln!(
        "  load, cached      {:>9.1} ms   ratio cold/cached {:.1}",
        report.cached_load_ms,
        report.cold_cached_ratio
    );
    outln!(
        "  one call          {:>9.3} µs wasm, {:.3} µs native (action_count)",
        report.wasm_call_us,
        report.native_call_us
    );
}

fn print_search(search: &SearchBenchReport) {
    outln!(
        "  bots' search      {:>9.3} s wasm, {:.3} s native ({} positions, {} iterations): ratio wasm/native {:.2} (median per position {:.2}); {:.0} iterations/s wasm, {:.0} native; two searches side by side {:.2}× as fast as one after the other (goal ≥ 1.8)",
        search.wasm_seconds,
        search.native_seconds,
        search.positions,
        search.iterations,
        search.wasm_native_ratio,
        search.wasm_native_round_median,
        search.wasm_iterations_per_second,
        search.native_iterations_per_second,
        search.two_lanes_speedup
    );
}

fn print_think(think: &ThinkBenchReport) {
    outln!(
        "  {} bots' think    p95 {:.1} ms, median {:.1} ms, max {:.1} ms ({} moves: {} searched in the plugin, {} through the engine)",
        think.level,
        think.p95_ms,
        think.p50_ms,
        think.max_ms,
        think.moves,
        think.searched_in_plugin,
        think.searched_through_engine
    );
}
