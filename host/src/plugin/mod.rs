//! Loading and running game plugins in the wasmtime sandbox.

mod error;

pub use error::PluginError;
