//! Veillée's host: everything but the window. Runs games shipped as sandboxed wasm plugins.
//!
//! Dependencies point one way: `cli` → `catalog`/`simulate`/`conformance`/`bench` →
//! `engine` → `plugin` (wasmtime). See ARCHITECTURE.md for the map.

pub mod bench;
pub mod builtin;
pub mod catalog;
pub mod cli;
pub mod conformance;
pub mod data_dir;
pub mod engine;
pub mod launch;
pub mod native;
pub mod plugin;
pub mod session;
pub mod simulate;
pub mod store;
pub mod ui;
pub mod variants;
