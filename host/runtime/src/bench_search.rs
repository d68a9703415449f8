//! `veillee bench`'s bots figures: iterations per second of the information-set search inside
//! the plugin (`veillee_search`), wasm against the native build of the same game, on the same
//! positions with the same seeds — a ratio measured within one run; two searches side by side
//! against one after the other (the speed-up of a second core); and the levels' think time
//! per move in games played as players play them (the wasm plugin, the game's own
//! scripts in force).

use std::time::{Duration, Instant};

use crate::bench_error::{ensure, BenchError, Missing};
use serde::Serialize;
use veillee_sdk::search::SearchRequest;
use veillee_sdk::Setup;

use crate::engine::GameEngine;
use crate::launch::with_own_scripts;
use crate::native::native_engine;
use crate::plugin::Runtime;
use crate::simulate::{percentile, simulate_bots, SimulationConfig};
use crate::store::model::BotLevel;

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
    /// The median over the positions of each position's wasm / native time (each position is
    /// searched natively, then through wasm, right after): what a burst of load on this
    /// shared machine, which lands on one side of one position, moves least.
    pub wasm_native_round_median: f64,
    /// Iterations per second through wasm.
    pub wasm_iterations_per_second: f64,
    /// Iterations per second natively.
    pub native_iterations_per_second: f64,
    /// Two searches of each position through wasm side by side (two plugin instances on two
    /// threads, as `strong` searches), against the same two one after the other: the
    /// iterations per second on two threads over one thread.
    pub two_lanes_speedup: f64,
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
) -> Result<SearchBenchReport, BenchError> {
    let bytes = crate::builtin::plugin_bytes(game)
        .missing(|| format!("`{game}` is not a built-in game"))?;
    let mut native = native_engine(game).missing(|| format!("no native build of `{game}`"))?;
    let mut wasm = Runtime::new(None)?.load_builtin(game, bytes)?;
    // Warm both up once.
    search(&mut *native, 0, 1, iterations.min(50))?;
    search(&mut wasm, 0, 1, iterations.min(50))?;
    let (mut native_time, mut wasm_time, mut done) = (Duration::ZERO, Duration::ZERO, 0);
    let mut ratios = Vec::with_capacity(positions as usize);
    for position in 0..positions {
        let (t, n, answer) = search(&mut *native, u64::from(position), 1, iterations)?;
        let (w, _, same) = search(&mut wasm, u64::from(position), 1, iterations)?;
        ensure!(
            answer == same,
            "{game}, position {position}: the native build chose {answer:?}, the wasm build {same:?}"
        );
        native_time += t;
        wasm_time += w;
        done += n;
        ratios.push(w.as_secs_f64() / t.as_secs_f64().max(1e-12));
    }
    ratios.sort_by(f64::total_cmp);
    let (mut one_thread, mut two_threads) = (Duration::ZERO, Duration::ZERO);
    for position in 0..positions {
        let (one, two) = lanes(&mut wasm, u64::from(position), iterations)?;
        one_thread += one;
        two_threads += two;
    }
    let per_second = |t: Duration| done as f64 / t.as_secs_f64().max(1e-12);
    Ok(SearchBenchReport {
        game: game.to_string(),
        positions,
        iterations: done,
        wasm_seconds: wasm_time.as_secs_f64(),
        native_seconds: native_time.as_secs_f64(),
        wasm_native_ratio: wasm_time.as_secs_f64() / native_time.as_secs_f64().max(1e-12),
        wasm_native_round_median: ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN),
        wasm_iterations_per_second: per_second(wasm_time),
        native_iterations_per_second: per_second(native_time),
        two_lanes_speedup: one_thread.as_secs_f64() / two_threads.as_secs_f64().max(1e-12),
    })
}

/// Two searches of the position of seed `seed`, one after the other then side by side
/// ([`GameEngine::search_lanes`]): the two times. Fails if the answers differ.
fn lanes(
    engine: &mut dyn GameEngine,
    seed: u64,
    iterations: u32,
) -> Result<(Duration, Duration), BenchError> {
    let players = engine.manifest().min_players;
    let game = engine.create(&Setup::new(players, seed))?;
    engine.playout(game, seed, OPENING)?;
    let Some(&seat) = engine.status(game)?.seats().first() else {
        engine.drop_game(game);
        return Ok((Duration::ZERO, Duration::ZERO));
    };
    let requests: Vec<SearchRequest> = (0..2)
        .map(|lane| SearchRequest::new(iterations, PLAYOUT, seed * 2 + lane, players))
        .collect();
    // The helper instance is made by the first call: warm it up outside the timing.
    engine.search_lanes(game, seat, &requests[..1])?;
    let started = Instant::now();
    let mut one_by_one = Vec::new();
    for request in &requests {
        one_by_one.extend(engine.search(game, seat, request)?);
    }
    let one = started.elapsed();
    engine.search_lanes(game, seat, &requests)?;
    let started = Instant::now();
    let side_by_side = engine.search_lanes(game, seat, &requests)?;
    let two = started.elapsed();
    engine.drop_game(game);
    ensure!(
        side_by_side.as_ref() == Some(&one_by_one),
        "seed {seed}: the searches side by side answered otherwise than one after the other"
    );
    Ok((one, two))
}

/// Searches `count` positions from seed `first`: the time spent searching, the iterations
/// run, and the answers.
fn search(
    engine: &mut dyn GameEngine,
    first: u64,
    count: u64,
    iterations: u32,
) -> Result<(Duration, u64, Vec<String>), BenchError> {
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
                .missing(|| "this build has no search (ABI < 1.8)".to_string())?;
            elapsed += started.elapsed();
            done += u64::from(answer.iterations);
            answers.push(answer.action);
        }
        engine.drop_game(game);
    }
    Ok((elapsed, done, answers))
}

/// A level's think time over seeded games.
#[derive(Clone, Debug, Serialize)]
pub struct ThinkBenchReport {
    /// Game id.
    pub game: String,
    /// The bot measured, at every seat.
    pub level: String,
    /// Games played (seeds 1, 2, …), each stopped after `max_moves` moves.
    pub games: u32,
    /// Moves per game at most.
    pub max_moves: u32,
    /// The bots' moves measured (forced moves included: no search, no wait).
    pub moves: u64,
    /// Of those, searched inside the plugin.
    pub searched_in_plugin: u64,
    /// Of those, searched through the engine (the game's own scripts watch its moves).
    pub searched_through_engine: u64,
    /// Median think time of a move, in milliseconds.
    pub p50_ms: f64,
    /// 95th percentile of the think time of a move, in milliseconds.
    pub p95_ms: f64,
    /// Longest think time of a move, in milliseconds.
    pub max_ms: f64,
}

/// Plays seeded games of a built-in game through its wasm plugin with its own scripts
/// (Castel's cards), a `level` bot at every seat, each stopped after `max_moves` moves, on
/// one game thread (`strong` searches on two), until `min_moves` moves are measured (or 20 games: short games such as Siège's
/// take several); measures the think time of every move.
pub fn run_think(
    game: &str,
    level: BotLevel,
    min_moves: usize,
    max_moves: u32,
) -> Result<ThinkBenchReport, BenchError> {
    let bytes = crate::builtin::plugin_bytes(game)
        .missing(|| format!("`{game}` is not a built-in game"))?;
    let plugin = Runtime::new(None)?.load_builtin(game, bytes)?;
    let players = plugin.manifest().min_players;
    let make_engine = || -> Result<Box<dyn GameEngine>, String> {
        let copy = plugin.duplicate().map_err(|e| e.to_string())?;
        with_own_scripts(Box::new(copy), None).map_err(|e| format!("{e:#}"))
    };
    let (mut times, mut games, mut in_plugin, mut through_engine) = (Vec::new(), 0, 0, 0);
    while times.len() < min_moves && games < 20 {
        let config = SimulationConfig {
            games: 1,
            seed: u64::from(games) + 1,
            players,
            max_moves,
            threads: 1,
            options: Default::default(),
            seats: vec![level; usize::from(players)],
        };
        let report = simulate_bots(&make_engine, &config, &|| {}).map_err(BenchError::Failed)?;
        ensure!(
            report.errors == 0,
            "{game}: a game failed: {:?}",
            report.error_samples
        );
        games += 1;
        for seat in &report.seats {
            times.extend_from_slice(seat.times());
            in_plugin += seat.searched_in_plugin;
            through_engine += seat.searched_through_engine;
        }
    }
    times.sort_by(f64::total_cmp);
    ensure!(!times.is_empty(), "{game}: the bots played no move");
    let ms = |p| percentile(&times, p) * 1e3;
    Ok(ThinkBenchReport {
        game: game.to_string(),
        level: level.as_str().to_string(),
        games,
        max_moves,
        moves: times.len() as u64,
        searched_in_plugin: in_plugin,
        searched_through_engine: through_engine,
        p50_ms: ms(0.5),
        p95_ms: ms(0.95),
        max_ms: ms(1.0),
    })
}
