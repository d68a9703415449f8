//! `veillee bench`: the figures that say whether the sandbox costs too much, measured as
//! ratios within one run (the machines are shared and noisy).

use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;
use veillee_sdk::Setup;

use crate::engine::GameEngine;
use crate::native::native_engine;
use crate::plugin::Runtime;

/// Benchmark figures for one game.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Game id.
    pub game: String,
    /// Random playouts timed per build.
    pub playouts: u32,
    /// Moves played per build (identical for both: same seeds, same games).
    pub moves: u64,
    /// Seconds for the playouts through wasm.
    pub wasm_seconds: f64,
    /// Seconds for the same playouts natively.
    pub native_seconds: f64,
    /// wasm time / native time (goal ≤ 1.3).
    pub wasm_native_ratio: f64,
    /// Playouts per second through wasm.
    pub wasm_playouts_per_second: f64,
    /// Milliseconds to compile the plugin with an empty cache.
    pub cold_load_ms: f64,
    /// Milliseconds to load it from the compiled-code cache.
    pub cached_load_ms: f64,
    /// cold / cached (how much the cache saves).
    pub cold_cached_ratio: f64,
    /// Microseconds per small host→plugin call (`action_count`), wasm.
    pub wasm_call_us: f64,
    /// Microseconds per the same call natively.
    pub native_call_us: f64,
}

/// Runs the benchmark for a built-in game.
pub fn run(game: &str, playouts: u32) -> anyhow::Result<BenchReport> {
    let bytes = crate::builtin::plugin_bytes(game)
        .with_context(|| format!("`{game}` is not a built-in game"))?;
    let mut native = native_engine(game).with_context(|| format!("no native build of `{game}`"))?;
    let (cold, cached, mut wasm) = load_times(game, bytes)?;

    // Warm both up once, then interleave rounds so that noise hits both alike.
    time_playouts(&mut *native, 0, 10)?;
    time_playouts(&mut wasm, 0, 10)?;
    let (mut native_time, mut wasm_time, mut moves) = (Duration::ZERO, Duration::ZERO, 0);
    let rounds = 5;
    let per_round = playouts.div_ceil(rounds);
    for round in 0..rounds {
        let first = round * per_round;
        let (t, m) = time_playouts(&mut *native, first, per_round)?;
        native_time += t;
        moves += m;
        wasm_time += time_playouts(&mut wasm, first, per_round)?.0;
    }
    let native_call = time_calls(&mut *native)?;
    let wasm_call = time_calls(&mut wasm)?;
    let total = per_round * rounds;
    Ok(BenchReport {
        game: game.to_string(),
        playouts: total,
        moves,
        wasm_seconds: wasm_time.as_secs_f64(),
        native_seconds: native_time.as_secs_f64(),
        wasm_native_ratio: wasm_time.as_secs_f64() / native_time.as_secs_f64().max(1e-12),
        wasm_playouts_per_second: total as f64 / wasm_time.as_secs_f64().max(1e-12),
        cold_load_ms: cold.as_secs_f64() * 1e3,
        cached_load_ms: cached.as_secs_f64() * 1e3,
        cold_cached_ratio: cold.as_secs_f64() / cached.as_secs_f64().max(1e-12),
        wasm_call_us: wasm_call.as_secs_f64() * 1e6,
        native_call_us: native_call.as_secs_f64() * 1e6,
    })
}

/// Loads the plugin with an empty compiled-code cache, then again from the cache.
fn load_times(
    game: &str,
    bytes: &[u8],
) -> anyhow::Result<(Duration, Duration, crate::plugin::Plugin)> {
    let cache = std::env::temp_dir().join(format!("veillee-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let runtime = Runtime::new(Some(cache.clone()))?;
    let started = Instant::now();
    let cold = runtime.load(game, bytes)?;
    let cold_time = started.elapsed();
    anyhow::ensure!(
        !cold.loaded_from_cache(),
        "the first load unexpectedly came from the cache"
    );
    let started = Instant::now();
    let cached = runtime.load(game, bytes)?;
    let cached_time = started.elapsed();
    anyhow::ensure!(
        cached.loaded_from_cache(),
        "the second load did not come from the cache"
    );
    let _ = std::fs::remove_dir_all(&cache);
    Ok((cold_time, cached_time, cached))
}

/// Plays `count` random games from seed `first`; returns the time and the moves played.
fn time_playouts(
    engine: &mut dyn GameEngine,
    first: u32,
    count: u32,
) -> anyhow::Result<(Duration, u64)> {
    let players = engine.manifest().min_players;
    let mut moves = 0;
    let mut elapsed = Duration::ZERO;
    for seed in first..first + count {
        let game = engine.create(&Setup::new(players, seed as u64))?;
        let started = Instant::now();
        let result = engine.playout(game, seed as u64, 100_000)?;
        elapsed += started.elapsed();
        moves += result.moves as u64;
        engine.drop_game(game);
    }
    Ok((elapsed, moves))
}

/// Mean time of one small call (`action_count`) across the boundary.
fn time_calls(engine: &mut dyn GameEngine) -> anyhow::Result<Duration> {
    let players = engine.manifest().min_players;
    let game = engine.create(&Setup::new(players, 1))?;
    let seat = engine.status(game)?.seats().first().copied().unwrap_or(0);
    let calls = 20_000;
    let started = Instant::now();
    for _ in 0..calls {
        std::hint::black_box(engine.action_count(game, seat)?);
    }
    let elapsed = started.elapsed() / calls;
    engine.drop_game(game);
    Ok(elapsed)
}
