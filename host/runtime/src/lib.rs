//! `veillee-runtime`: everything the launcher window and the command line share — the data
//! directory, the catalog of games, launching a game with its scripts and house rules,
//! sessions over the store, simulations and benchmarks, and the scaffold of a new plugin.
//!
//! It is also the one crate the front ends (`veillee-app`, the `veillee` binary) depend on: the
//! crates below are re-exported as modules (`engine`, `plugin`, `variants`, `store`,
//! `conformance`, `builtin`, `native`) so a front end names one runtime, in the manner of
//! wasmtime's API crate over its internals.
//!
//! **Invariant: nothing here draws or reads a terminal or a window; dependencies point down
//! only (front ends → runtime → engine/sandbox/variants/store), and only through the
//! `GameEngine` interface does it run a game.** See ARCHITECTURE.md for the map.
//!
//! # Modules
//!
//! * `data_dir` — the data directory (`--data-dir`, `VEILLEE_DATA_DIR`, else the
//!   platform's): `plugins/` for installed games, `variants/` for the user's house rules,
//!   `cache/compiled/` for compiled code (`VEILLEE_CACHE_DIR` moves it), `sessions.sled/` for
//!   the database, `sessions.broken-<time>/` for damaged databases set aside
//!   (`sessions.restored-<time>/` once their games are back), `veillee.lock` for the
//!   single-instance lock. The key that signs compiled code is *not* in the data directory but
//!   in the user's configuration directory (`~/.config/veillee/compiled-code.key`;
//!   `VEILLEE_CACHE_KEY` moves it), so that a data directory copied, synced or shipped with
//!   its `cache/` brings no trust along.
//! * `catalog` — the games, listed without compiling; `launch` — the engine for a game with
//!   its scripts, which pass `vetting` (the leak check, before a script new to this build
//!   first plays) on every path that runs them; `session` — sessions over the store; `table` — one game in play for every
//!   front end.
//! * `bot` — what a bot seat plays, for the terminal's `play`, `simulate` and the window's
//!   thinker: `choose` (a level's search, inside the plugin or through the engine, or a random
//!   move), `play_bot` / `play_turn` (a refused move dropped, the bot chooses again among the
//!   others; none left: `BotTurn::Stuck`), `decision_seed`. Through the engine an iteration is
//!   a handful of host calls and Lua hooks instead of nanoseconds in the guest, so the levels
//!   run a sixth of the iterations (`strong` a sixth of half its in-plugin count) and evaluate
//!   where the tree ends; a plugin without `veillee_evaluate` plays its iterations out to the
//!   end instead.
//! * `simulate` — many random games, each played out inside the plugin in one call, spread
//!   over threads with one plugin instance each; when scripts run each game is the engine's
//!   `playout` on threads with an engine each (`simulate_stepwise_threads`: a `VariantEngine`
//!   plays inside the plugin between the moves its scripts watch; move by move, one after the
//!   other, when games are saved as sessions), and a game whose script was switched off counts
//!   as an error. `simulate_bots` is the rules lab: every move by the seats' bots, wins per
//!   seat with a 95 % Wilson interval, draws, games still going at `--max-moves`, the mean
//!   length, the think time per move per seat (mean, p95, max), and every game by seed
//!   (`each_game`: won, drawn, capped or failed, winners, reason, length, saved session).
//! * `bench` — wasm vs native playouts (interleaved rounds: the whole run's ratio and the
//!   median of the rounds'), cold vs cached load, per-call cost; `bench_search` — the bots'
//!   search, iterations per second, wasm vs native on the same positions (their answers must
//!   agree), and the `normal` bot's think time per move. The figures are in BENCHMARKS.md.
//! * `locale` — the default language from the system locale; `options` — game options
//!   written as text (`--option id=value`), checked against the manifest with errors that
//!   name the option and the values it takes.
//! * `scaffold` — `veillee new`: a plugin crate from `templates/plugin/` (manifest, rules in
//!   both languages, a scene, a `veillee_sdk::testing` test) that builds and passes
//!   `veillee check` as it is, depending on the SDK of the clone this program was built from
//!   by path (else on the workspace's `repository` by git).

pub mod bench;
pub use bench_error::BenchError;
mod bench_error;
pub mod bench_search;
pub mod bot;
pub mod catalog;
pub mod data_dir;
pub mod launch;
pub mod locale;
pub mod options;
pub mod scaffold;
pub mod session;
pub mod simulate;
pub mod table;
pub mod vetting;

pub use veillee_conformance as conformance;
pub use veillee_engine as engine;
pub use veillee_games::{builtin, native};
pub use veillee_sandbox as plugin;
pub use veillee_store as store;
pub use veillee_variants as variants;
