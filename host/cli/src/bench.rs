//! `veillee bench`.

use crate::term::{self, outln};

pub fn run(game: &str, playouts: u32, json: bool) -> anyhow::Result<()> {
    let report = veillee_runtime::bench::run(game, playouts)?;
    // The bots' search inside the plugin: iterations per second, wasm against native.
    let search = veillee_runtime::bench_search::run_search(game, 20, 600)?;
    // Sessions need a long game: Château Noir's random games run to thousands of moves.
    let sessions = veillee_runtime::bench::run_sessions("chateau-noir", 1000)?;
    // An imported 1M-move session once made every later command seconds slower.
    let store = veillee_runtime::bench::run_store_open(20, 1_000_000)?;
    if json {
        let both = serde_json::json!({ "plugin": report, "search": search, "sessions": sessions, "store": store });
        outln!("{}", term::json(&serde_json::to_string_pretty(&both)?));
        return Ok(());
    }
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
    outln!(
        "  bots' search      {:>9.3} s wasm, {:.3} s native ({} positions, {} iterations): ratio wasm/native {:.2}; {:.0} iterations/s wasm, {:.0} native",
        search.wasm_seconds,
        search.native_seconds,
        search.positions,
        search.iterations,
        search.wasm_native_ratio,
        search.wasm_iterations_per_second,
        search.native_iterations_per_second
    );
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
