//! The one wasmtime [`Engine`] of the process, and the clock that interrupts plugins.
//!
//! Every [`super::Runtime`] shares this engine: its configuration does not depend on the
//! per-runtime [`super::Limits`] (those are enforced per store), so one engine means one
//! epoch ticker thread for the whole process, and compiled modules that any runtime can use.

use std::sync::OnceLock;
use std::time::Duration;

use wasmtime::{Config, Engine, OptLevel, WasmFeatures};

use super::PluginError;

/// How often the ticker advances the engine's epoch: the resolution of call deadlines.
pub(crate) const TICK: Duration = Duration::from_millis(10);

/// Most native stack a plugin may use. Deep enough for recursive game searches, yet well
/// under the 2 MiB Rust gives spawned threads, so a runaway recursion traps cleanly instead
/// of overflowing the host thread (which would abort the process).
pub(crate) const MAX_WASM_STACK: usize = 1 << 20;

/// The engine configuration: deterministic (the same game on any machine gives the same
/// result, which replays and the native-vs-wasm conformance kit rely on) and interruptible.
fn config() -> Config {
    let mut config = Config::new();
    config
        .cranelift_opt_level(OptLevel::Speed)
        // NaN bit patterns differ between CPUs; canonicalising them keeps float-using games
        // deterministic across machines.
        .cranelift_nan_canonicalization(true)
        // Relaxed SIMD is non-deterministic by design (results may differ per CPU).
        .wasm_relaxed_simd(false)
        // `i64.mul_wide_u` and friends: the built-in plugins are compiled with them
        // (host/games/build.rs), integer-only, deterministic.
        .wasm_wide_arithmetic(true)
        // No threads or shared memory: a plugin is single-threaded and owns its memory.
        .wasm_features(
            WasmFeatures::THREADS | WasmFeatures::SHARED_EVERYTHING_THREADS,
            false,
        )
        .shared_memory(false)
        // The ABI passes 32-bit pointers into a single memory; refusing the rest at compile
        // time also makes the per-store memory cap a cap on the whole plugin.
        .wasm_memory64(false)
        .wasm_multi_memory(false)
        // Deadlines: compiled code checks the epoch at function entries and loop headers.
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK)
        // Cranelift inlining of small wasm functions: ~7% faster random playouts of Siège
        // (`veillee bench`), for a little more compile time, which the cache absorbs.
        .compiler_inlining(wasmtime::Inlining::Yes)
        .parallel_compilation(true);
    // For `perf`: name the compiled functions of plugins in /tmp/perf-PID.map.
    if std::env::var_os(PERF_MAP_ENV).is_some_and(|v| !v.is_empty()) {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    config
}

/// Set to anything: wasmtime writes a perf map of the plugins' compiled functions, so that
/// `perf record` / `perf report` name them (profiling the wasm/native gap, BENCHMARKS.md).
pub const PERF_MAP_ENV: &str = "VEILLEE_PERF_MAP";

static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();

/// The process-wide engine, created (with its ticker thread) on first use.
pub(crate) fn shared_engine() -> Result<Engine, PluginError> {
    ENGINE
        .get_or_init(|| {
            let engine = Engine::new(&config())
                .map_err(|e| format!("cannot configure the WebAssembly engine: {e:#}"))?;
            start_ticker(engine.clone())?;
            Ok(engine)
        })
        .clone()
        .map_err(PluginError::Runtime)
}

/// An engine of the same configuration, without the deadline clock: for a compiler process,
/// which runs no plugin code (its compiled code must load in the host's engine, so the
/// configuration must be the same).
pub(crate) fn engine_without_clock() -> Result<Engine, String> {
    Engine::new(&config()).map_err(|e| format!("cannot configure the WebAssembly engine: {e:#}"))
}

/// Starts the thread that advances the epoch every [`TICK`] for as long as the process runs.
/// Without it no deadline would ever fire, so failing to start it is an error.
fn start_ticker(engine: Engine) -> Result<(), String> {
    std::thread::Builder::new()
        .name("veillee-plugin-clock".into())
        .spawn(move || loop {
            std::thread::sleep(TICK);
            engine.increment_epoch();
        })
        .map(drop)
        .map_err(|e| format!("cannot start the plugin deadline clock thread: {e}"))
}

/// Epoch ticks to give a call of at most `seconds`. One tick more than the quotient: the
/// current tick may end right after the deadline is set, and a call must never be stopped
/// before its time (a late ticker only makes deadlines longer, never shorter).
pub(crate) fn deadline_ticks(seconds: f64) -> u64 {
    let ticks = (seconds / TICK.as_secs_f64()).ceil();
    // `as` saturates; limits are validated to be finite and positive anyway.
    (ticks as u64).saturating_add(1).max(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_round_up() {
        assert_eq!(deadline_ticks(0.2), 21);
        assert_eq!(deadline_ticks(5.0), 501);
        assert_eq!(deadline_ticks(0.0), 2);
    }

    #[test]
    fn engine_is_shared() {
        let a = shared_engine().map_err(|e| e.to_string());
        let b = shared_engine().map_err(|e| e.to_string());
        assert!(Engine::same(&a.unwrap(), &b.unwrap()));
    }
}
