//! `veillee bench`: the figures that say whether the sandbox costs too much, measured as
//! ratios within one run (the machines are shared and noisy).

use std::time::{Duration, Instant};

use crate::bench_error::{ensure, BenchError, Missing};
use serde::Serialize;
use veillee_sdk::Setup;

use crate::engine::GameEngine;
use crate::native::native_engine;
use crate::plugin::{CacheConfig, Runtime};

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
    /// The median over the interleaved rounds of each round's wasm / native time: what a
    /// burst of load on this shared machine, which lands on one side of one round, moves
    /// least.
    pub wasm_native_round_median: f64,
    /// Interleaved rounds (each plays its share of the playouts natively, then through wasm).
    pub rounds: u32,
    /// Playouts per second through wasm.
    pub wasm_playouts_per_second: f64,
    /// Milliseconds to compile the plugin with an empty cache.
    pub cold_load_ms: f64,
    /// Milliseconds to compile it with an empty cache in a compiler process, as an
    /// installed plugin is (`None` when this program has no compiler process).
    pub cold_child_load_ms: Option<f64>,
    /// Milliseconds to load it from the compiled-code cache.
    pub cached_load_ms: f64,
    /// cold / cached (how much the cache saves).
    pub cold_cached_ratio: f64,
    /// Microseconds per small host→plugin call (`action_count`), wasm.
    pub wasm_call_us: f64,
    /// Microseconds per the same call natively.
    pub native_call_us: f64,
}

/// Native time the playouts take when their number is not given: long enough that the
/// ratio of a short game (a random game of Siège is a few microseconds) is not a handful of
/// scheduler slices, short enough for a whole `bench` run (wasm takes 1.3–2× this).
const TARGET_NATIVE: Duration = Duration::from_millis(600);

/// Interleaved rounds: many, so that a burst of load lands on a small share of either side.
const ROUNDS: u32 = 20;

/// Runs the benchmark for a built-in game: `playouts` random playouts per build, or (`None`)
/// as many as take about [`TARGET_NATIVE`] natively, between 20 and 200,000.
pub fn run(game: &str, playouts: Option<u32>) -> Result<BenchReport, BenchError> {
    let bytes = crate::builtin::plugin_bytes(game)
        .missing(|| format!("`{game}` is not a built-in game"))?;
    let mut native = native_engine(game).missing(|| format!("no native build of `{game}`"))?;
    let (cold, cold_child, cached, mut wasm) = load_times(game, bytes)?;

    // Warm both up, then interleave rounds so that noise hits both alike.
    let native_warm = warm_up(&mut *native)?;
    time_playouts(&mut wasm, 0, 10)?;
    let playouts = playouts.unwrap_or_else(|| {
        let playouts = TARGET_NATIVE.as_secs_f64() / native_warm.as_secs_f64().max(1e-9);
        playouts.clamp(20.0, 200_000.0) as u32
    });
    let (mut native_time, mut wasm_time, mut moves) = (Duration::ZERO, Duration::ZERO, 0);
    let rounds = ROUNDS.min(playouts);
    let per_round = playouts.div_ceil(rounds);
    let mut round_ratios = Vec::with_capacity(rounds as usize);
    for round in 0..rounds {
        let first = round * per_round;
        let (native_round, m) = time_playouts(&mut *native, first, per_round)?;
        let wasm_round = time_playouts(&mut wasm, first, per_round)?.0;
        native_time += native_round;
        wasm_time += wasm_round;
        moves += m;
        round_ratios.push(wasm_round.as_secs_f64() / native_round.as_secs_f64().max(1e-12));
    }
    round_ratios.sort_by(f64::total_cmp);
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
        wasm_native_round_median: round_ratios[round_ratios.len() / 2],
        rounds,
        wasm_playouts_per_second: total as f64 / wasm_time.as_secs_f64().max(1e-12),
        cold_load_ms: cold.as_secs_f64() * 1e3,
        cold_child_load_ms: cold_child.map(|t| t.as_secs_f64() * 1e3),
        cached_load_ms: cached.as_secs_f64() * 1e3,
        cold_cached_ratio: cold.as_secs_f64() / cached.as_secs_f64().max(1e-12),
        wasm_call_us: wasm_call.as_secs_f64() * 1e6,
        native_call_us: native_call.as_secs_f64() * 1e6,
    })
}

/// Loads the plugin with an empty compiled-code cache (in this process, then in a compiler
/// process when there is one), then again from the cache.
fn load_times(
    game: &str,
    bytes: &[u8],
) -> Result<(Duration, Option<Duration>, Duration, crate::plugin::Plugin), BenchError> {
    let root = std::env::temp_dir().join(format!("veillee-bench-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let config = |name: &str| CacheConfig {
        dir: root.join(name),
        key_file: root.join("key"),
    };
    let runtime = Runtime::new(Some(config("in-process")))?;
    let started = Instant::now();
    let cold = runtime.load_builtin(game, bytes)?;
    let cold_time = started.elapsed();
    ensure!(
        !cold.loaded_from_cache(),
        "the first load unexpectedly came from the cache"
    );
    let started = Instant::now();
    let cached = runtime.load_builtin(game, bytes)?;
    let cached_time = started.elapsed();
    ensure!(
        cached.loaded_from_cache(),
        "the second load did not come from the cache"
    );
    let child = Runtime::new(Some(config("child")))?;
    let cold_child = if child.compiles_in_child() {
        let started = Instant::now();
        child.load(game, bytes)?;
        Some(started.elapsed())
    } else {
        None
    };
    let _ = std::fs::remove_dir_all(&root);
    Ok((cold_time, cold_child, cached_time, cached))
}

/// Warms a build up with more and more playouts until they last 50 ms; returns the time
/// one took.
fn warm_up(engine: &mut dyn GameEngine) -> Result<Duration, BenchError> {
    let mut count = 10;
    loop {
        let (time, _) = time_playouts(engine, 0, count)?;
        if time >= Duration::from_millis(50) || count >= 100_000 {
            return Ok(time / count);
        }
        count *= 4;
    }
}

/// Plays `count` random games from seed `first`; returns the time and the moves played.
fn time_playouts(
    engine: &mut dyn GameEngine,
    first: u32,
    count: u32,
) -> Result<(Duration, u64), BenchError> {
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
fn time_calls(engine: &mut dyn GameEngine) -> Result<Duration, BenchError> {
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

/// First start: what a player waits for on an empty data directory (nothing compiled yet).
#[derive(Clone, Debug, Serialize)]
pub struct StartupReport {
    /// Games listed.
    pub games: usize,
    /// Milliseconds from nothing to the catalog listing every game: the built-in games are
    /// listed from their manifest sections, nothing is compiled (what the window's library
    /// waits for, besides opening the database).
    pub list_ms: f64,
    /// The first game listed, the one timed next.
    pub first_game: String,
    /// Milliseconds from the list to that game playable: its plugin compiled, started, and a
    /// game created in it.
    pub first_game_ms: f64,
    /// Milliseconds from the list to every game compiled, one after the other as the window's
    /// background compiler does them: what listing waited for before the manifest sections.
    pub all_games_ms: f64,
    /// Milliseconds to list every game again once their compiled code is cached (a later
    /// start), each plugin loaded from the cache.
    pub cached_all_games_ms: f64,
}

/// Times a first start on an empty data directory and compiled-code cache: listing, the
/// first game playable, every game compiled; then listing and loading everything again from
/// the cache. In-process, as the window's worker does it.
pub fn run_startup() -> Result<StartupReport, BenchError> {
    use crate::catalog::Catalog;
    use crate::data_dir::DataDir;

    let root = std::env::temp_dir().join(format!("veillee-bench-startup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let cache = || CacheConfig {
        dir: root.join("cache"),
        key_file: root.join("key"),
    };
    let data = DataDir::at(root.join("data"));
    let started = Instant::now();
    let catalog = Catalog::scan(Runtime::new(Some(cache()))?, data.clone());
    let list = started.elapsed();
    ensure!(
        catalog.problems().is_empty(),
        "the built-in games did not list cleanly: {}",
        catalog.problems().join("; ")
    );
    let first = catalog
        .games()
        .first()
        .missing(|| "no game is listed".to_string())?
        .manifest()
        .clone();
    let started = Instant::now();
    let mut engine = catalog.engine(&first.id)?;
    let game = engine.create(&Setup::new(first.min_players, 1))?;
    let first_game = started.elapsed();
    engine.drop_game(game);
    for entry in catalog.games() {
        catalog.engine(&entry.manifest().id)?;
    }
    let all = started.elapsed();
    let games = catalog.games().len();
    drop(catalog);
    let started = Instant::now();
    let catalog = Catalog::scan(Runtime::new(Some(cache()))?, data);
    for entry in catalog.games() {
        catalog.engine(&entry.manifest().id)?;
    }
    let cached = started.elapsed();
    let _ = std::fs::remove_dir_all(&root);
    Ok(StartupReport {
        games,
        list_ms: list.as_secs_f64() * 1e3,
        first_game: first.id,
        first_game_ms: first_game.as_secs_f64() * 1e3,
        all_games_ms: all.as_secs_f64() * 1e3,
        cached_all_games_ms: cached.as_secs_f64() * 1e3,
    })
}

/// The machine the figures were measured on.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// The processor's model name, as the system gives it.
    pub cpu: String,
    /// Threads this process may run at once.
    pub threads: usize,
    /// Operating system and architecture.
    pub os: String,
}

/// What this machine is (the processor's name from `/proc/cpuinfo` where there is one).
pub fn machine() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|l| {
                l.strip_prefix("model name")?
                    .split_once(':')
                    .map(|(_, v)| v.trim().to_string())
            })
        })
        .unwrap_or_else(|| "unknown".into());
    Machine {
        cpu,
        threads: std::thread::available_parallelism().map_or(1, usize::from),
        os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
    }
}

/// Session figures: what a player waits for when a move is saved, and to resume.
#[derive(Clone, Debug, Serialize)]
pub struct SessionBenchReport {
    /// Game played.
    pub game: String,
    /// Moves saved.
    pub moves: u32,
    /// Median time of one durable move (apply + write + flush), milliseconds.
    pub save_p50_ms: f64,
    /// 99th percentile of the same, milliseconds.
    pub save_p99_ms: f64,
    /// Time to resume the session (latest snapshot + tail replay + checks), milliseconds.
    pub resume_ms: f64,
    /// Time to replay the whole log from the seed, for comparison, milliseconds.
    pub full_replay_ms: f64,
}

/// Plays `moves` random moves of `game` as a session in a temporary database, timing each
/// durable save, then times resuming it.
pub fn run_sessions(game: &str, moves: u32) -> Result<SessionBenchReport, BenchError> {
    use crate::session::Sessions;
    use crate::store::model::{PlayerKind, SeatPlayer};
    use crate::store::Store;

    let dir = std::env::temp_dir().join(format!("veillee-bench-sessions-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bytes = crate::builtin::plugin_bytes(game)
        .missing(|| format!("`{game}` is not a built-in game"))?;
    let runtime = Runtime::new(None)?;
    let mut engine = runtime.load_builtin(game, bytes)?;
    let (store, _) = Store::open(&dir)?;
    let sessions = Sessions::new(store);
    let players = engine.manifest().min_players;
    let seats = (0..players)
        .map(|s| SeatPlayer {
            name: format!("Bot {s}"),
            kind: PlayerKind::Bot,
            level: None,
        })
        .collect();
    let mut rng = veillee_sdk::GameRng::new(7);
    let mut live = None;
    let mut latencies = Vec::with_capacity(moves as usize);
    let mut seed = 0;
    // Long games are needed; start a new one if a game ends early (rare).
    while latencies.len() < moves as usize {
        let session = match live.take() {
            Some(session) => session,
            None => {
                seed += 1;
                sessions.start(&mut engine, Vec::clone(&seats), Setup::new(players, seed))?
            }
        };
        let mut session = session;
        let status = engine.status(session.game)?;
        let Some(&seat) = status.seats().first() else {
            engine.drop_game(session.game);
            latencies.clear();
            continue;
        };
        let actions = engine.legal_actions(session.game, seat)?;
        let id = actions[rng.below(actions.len())].id.clone();
        let started = Instant::now();
        sessions.apply(
            &mut engine,
            &mut session,
            seat,
            &id,
            serde_json::Value::Null,
        )?;
        latencies.push(started.elapsed());
        live = Some(session);
    }
    let session = live.missing(|| "a session was played".to_string())?;
    let id = session.meta.id;
    engine.drop_game(session.game);
    latencies.sort();
    let percentile =
        |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3;

    let started = Instant::now();
    let resumed = sessions.resume(&mut engine, id)?;
    let resume_ms = started.elapsed().as_secs_f64() * 1e3;
    engine.drop_game(resumed.game);
    let started = Instant::now();
    let meta = sessions.get(id)?;
    let game_handle = engine.create(&meta.setup)?;
    for entry in sessions.log(id)? {
        engine.apply(game_handle, entry.seat, &entry.action)?;
    }
    let full_replay_ms = started.elapsed().as_secs_f64() * 1e3;
    drop(sessions);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(SessionBenchReport {
        game: game.to_string(),
        moves,
        save_p50_ms: percentile(0.5),
        save_p99_ms: percentile(0.99),
        resume_ms,
        full_replay_ms,
    })
}

/// Store figures: opening must not read the logs, so its time must not grow with them.
#[derive(Clone, Debug, Serialize)]
pub struct StoreOpenReport {
    /// Small sessions in the database.
    pub small_sessions: u32,
    /// Moves of the one long session added (as an imported 1M-move session would be).
    pub long_session_moves: u32,
    /// Median time to open the database with the small sessions only, milliseconds.
    pub open_small_ms: f64,
    /// Median time to open it once the long session is in, milliseconds.
    pub open_long_ms: f64,
    /// open_long / open_small: what remains is sled loading its page table, which grows with
    /// the database; no log record is read.
    pub open_ratio: f64,
    /// Time to read every log record once (what opening did before), milliseconds.
    pub read_every_record_ms: f64,
}

/// Opens a database of `small` sessions, then again with a session of `long_moves` moves
/// added, timing each open (median of five, the previous handle closed first).
pub fn run_store_open(small: u32, long_moves: u32) -> Result<StoreOpenReport, BenchError> {
    use crate::store::model::{LogEntry, PlayerKind, SeatPlayer, SessionMeta};
    use crate::store::{SessionChange, Store};

    let dir = std::env::temp_dir().join(format!("veillee-bench-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let meta = |id: u64, moves: u32| SessionMeta {
        id,
        game: "bench".into(),
        plugin_hash: "0".repeat(64),
        plugin_version: "1.0.0".into(),
        variants: Vec::new(),
        seats: ["Ana", "Bruno"]
            .map(|name| SeatPlayer {
                name: name.into(),
                kind: PlayerKind::Human,
                level: None,
            })
            .to_vec(),
        setup: Setup::new(2, id),
        created: id,
        last_played: id,
        moves,
        status: veillee_sdk::Status::to_act(0),
        phones: Vec::new(),
    };
    let entry = |i: u32| LogEntry {
        seat: (i % 2) as u8,
        action: format!("a{}-h{}", i % 8, i % 7),
        extra: serde_json::Value::Null,
        reveals: Vec::new(),
    };
    let write = |store: &Store, id: u64, moves: u32| -> Result<(), BenchError> {
        const CHUNK: u32 = 20_000;
        let mut from = 0;
        loop {
            let to = (from + CHUNK).min(moves);
            let entries: Vec<LogEntry> = (from..to).map(entry).collect();
            let m = meta(id, to);
            let change = SessionChange {
                meta: Some(&m),
                append: entries.iter().zip(from..).map(|(e, i)| (i, e)).collect(),
                ..SessionChange::default()
            };
            store.commit(id, &change)?;
            if to == moves {
                return Ok(());
            }
            from = to;
        }
    };
    {
        let (store, _) = Store::open(&dir)?;
        for id in 1..=u64::from(small) {
            write(&store, id, 40)?;
        }
    }
    let open_small = median_open(&dir)?;
    {
        let (store, _) = Store::open(&dir)?;
        write(&store, u64::from(small) + 1, long_moves)?;
    }
    let open_long = median_open(&dir)?;
    let read_every_record = {
        let (store, _) = Store::open(&dir)?;
        let started = Instant::now();
        for id in 1..=u64::from(small) + 1 {
            std::hint::black_box(store.log(id, 0)?.len());
        }
        started.elapsed()
    };
    let _ = std::fs::remove_dir_all(&dir);
    Ok(StoreOpenReport {
        small_sessions: small,
        long_session_moves: long_moves,
        open_small_ms: open_small.as_secs_f64() * 1e3,
        open_long_ms: open_long.as_secs_f64() * 1e3,
        open_ratio: open_long.as_secs_f64() / open_small.as_secs_f64().max(1e-12),
        read_every_record_ms: read_every_record.as_secs_f64() * 1e3,
    })
}

/// The median of five opens (and list) of the database in `dir`, each after the previous
/// handle has had time to close (sled releases its lock from a background thread).
fn median_open(dir: &std::path::Path) -> Result<Duration, BenchError> {
    let mut times = Vec::new();
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(400));
        let started = Instant::now();
        let (store, recovery) = crate::store::Store::open(dir)?;
        ensure!(recovery.is_none(), "the benchmark database needed repair");
        std::hint::black_box(store.sessions()?.len());
        times.push(started.elapsed());
    }
    times.sort();
    Ok(times[times.len() / 2])
}
