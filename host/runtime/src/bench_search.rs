//! `veillee bench`'s bots figure: iterations per second of the information-set search inside
//! the plugin (`veillee_search`), wasm against the native build of the same game, on the same
//! positions with the same seeds — a ratio measured within one run.

use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;
use veillee_sdk::search::SearchRequest;
use veillee_sdk::Setup;

use crate::engine::GameEngine;
use crate::native::native_engine;
use crate::plugin::Runtime;

/// Search figures for one game.
#[derive(Clone, Debug, Serialize)]
pub struct SearchBenchReport {
    /// Game id.
    pub game: String,
    /// Positions searched per build (each after a seeded random opening).
    pub positions: u32,
    /// Iterations run per build (identical for both: the answers must agree).
    pub iterations: u64,
    /// Seconds of search through wasm.
    pub wasm_seconds: f64,
    /// Seconds of the same searches natively.
    pub native_seconds: f64,
    /// wasm time / native time.
    pub wasm_native_ratio: f64,
    /// Iterations per second through wasm.
    pub wasm_iterations_per_second: f64,
    /// Iterations per second natively.
    pub native_iterations_per_second: f64,
}

/// Random moves played before a position is searched.
const OPENING: u32 = 12;
/// Random moves per playout, as the levels play inside the plugin.
const PLAYOUT: u32 = 16;

/// Searches `positions` positions of a built-in game, `iterations` iterations each, through
/// wasm and natively, interleaved; fails if the two builds answer differently.
pub fn run_search(
    game: &str,
    positions: u32,
    iterations: u32,
) -> anyhow::Result<SearchBenchReport> {
    let bytes = crate::builtin::plugin_bytes(game)
        .with_context(|| format!("`{game}` is not a built-in game"))?;
    let mut native = native_engine(game).with_context(|| format!("no native build of `{game}`"))?;
    let mut wasm = Runtime::new(None)?.load_builtin(game, bytes)?;
    // Warm both up once.
    search(&mut *native, 0, 1, iterations.min(50))?;
    search(&mut wasm, 0, 1, iterations.min(50))?;
    let (mut native_time, mut wasm_time, mut done) = (Duration::ZERO, Duration::ZERO, 0);
    for position in 0..positions {
        let (t, n, answer) = search(&mut *native, u64::from(position), 1, iterations)?;
        let (w, _, same) = search(&mut wasm, u64::from(position), 1, iterations)?;
        anyhow::ensure!(
            answer == same,
            "{game}, position {position}: the native build chose {answer:?}, the wasm build {same:?}"
        );
        native_time += t;
        wasm_time += w;
        done += n;
    }
    let per_second = |t: Duration| done as f64 / t.as_secs_f64().max(1e-12);
    Ok(SearchBenchReport {
        game: game.to_string(),
        positions,
        iterations: done,
        wasm_seconds: wasm_time.as_secs_f64(),
        native_seconds: native_time.as_secs_f64(),
        wasm_native_ratio: wasm_time.as_secs_f64() / native_time.as_secs_f64().max(1e-12),
        wasm_iterations_per_second: per_second(wasm_time),
        native_iterations_per_second: per_second(native_time),
    })
}

/// Searches `count` positions from seed `first`: the time spent searching, the iterations
/// run, and the answers.
fn search(
    engine: &mut dyn GameEngine,
    first: u64,
    count: u64,
    iterations: u32,
) -> anyhow::Result<(Duration, u64, Vec<String>)> {
    let players = engine.manifest().min_players;
    let (mut elapsed, mut done, mut answers) = (Duration::ZERO, 0, Vec::new());
    for seed in first..first + count {
        let game = engine.create(&Setup::new(players, seed))?;
        engine.playout(game, seed, OPENING)?;
        if let Some(&seat) = engine.status(game)?.seats().first() {
            let request = SearchRequest::new(iterations, PLAYOUT, seed, players);
            let started = Instant::now();
            let answer = engine
                .search(game, seat, &request)?
                .context("this build has no search (ABI < 1.8)")?;
            elapsed += started.elapsed();
            done += u64::from(answer.iterations);
            answers.push(answer.action);
        }
        engine.drop_game(game);
    }
    Ok((elapsed, done, answers))
}
