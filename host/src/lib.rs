//! Veillée's host: everything but the window. Runs games shipped as sandboxed wasm plugins.

pub mod builtin;
pub mod engine;
pub mod plugin;
