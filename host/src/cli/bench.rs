//! `veillee bench`.

pub fn run(game: &str, playouts: u32, json: bool) -> anyhow::Result<()> {
    let report = crate::bench::run(game, playouts)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} — {} random playouts per build ({} moves), same seeds",
        report.game, report.playouts, report.moves
    );
    println!("  native            {:>9.3} s", report.native_seconds);
    println!(
        "  wasm              {:>9.3} s   ratio wasm/native {:.2} (goal ≤ 1.30)",
        report.wasm_seconds, report.wasm_native_ratio
    );
    println!(
        "  wasm playouts/s   {:>9.0}",
        report.wasm_playouts_per_second
    );
    println!(
        "  load, cold        {:>9.1} ms (compile)",
        report.cold_load_ms
    );
    println!(
        "  load, cached      {:>9.1} ms   ratio cold/cached {:.1}",
        report.cached_load_ms, report.cold_cached_ratio
    );
    println!(
        "  one call          {:>9.3} µs wasm, {:.3} µs native (action_count)",
        report.wasm_call_us, report.native_call_us
    );
    Ok(())
}
