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

pub use veillee_conformance as conformance;
pub use veillee_engine as engine;
pub use veillee_games::{builtin, native};
pub use veillee_sandbox as plugin;
pub use veillee_store as store;
pub use veillee_variants as variants;
